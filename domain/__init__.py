"""domain logic: plain functions over GraphStore and Embeddings."""
