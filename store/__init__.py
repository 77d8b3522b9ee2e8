"""Graph-database backends behind one ``GraphStore`` interface (FalkorDB embedded, Neo4j)."""

from elephant_broker.store.base import GraphStore, StoreError
from elephant_broker.store.factory import open_store

__all__ = ["GraphStore", "StoreError", "open_store"]
