"""Providers the nodes and surfaces share: the open store, embeddings and chat models."""
