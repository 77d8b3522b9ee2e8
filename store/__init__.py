"""Graph-database backends behind one ``GraphStore`` interface (FalkorDB embedded, Neo4j).

``GraphStore`` and ``open_store`` are loaded on first use (PEP 562 ``__getattr__``), so
importing ``elephant_broker.store.errors`` (the CLI's error handling) does not load the
store's models and query builders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from elephant_broker.store.errors import StoreError

if TYPE_CHECKING:
    from elephant_broker.store.base import GraphStore
    from elephant_broker.store.factory import open_store

__all__ = ["GraphStore", "StoreError", "open_store"]


def __getattr__(name: str) -> Any:
    """Import ``GraphStore`` or ``open_store`` when first asked for."""
    if name == "GraphStore":
        from elephant_broker.store.base import GraphStore

        return GraphStore
    if name == "open_store":
        from elephant_broker.store.factory import open_store

        return open_store
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
