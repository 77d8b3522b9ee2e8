"""Graph-database backends behind one ``GraphStore`` interface (FalkorDB embedded, Neo4j)."""

from store.base import GraphStore, StoreError
from store.factory import open_store

__all__ = ["GraphStore", "StoreError", "open_store"]
