"""Open the store a URL names: embedded FalkorDB by default, FalkorDB by URL, or Neo4j.

| URL                                             | backend                                  |
|-------------------------------------------------|------------------------------------------|
| empty, ``embedded``                             | FalkorDB started in ``$ELEPHANT_HOME``    |
| ``falkordb://host:port`` / ``redis://host:port`` | a FalkorDB server you run                 |
| ``neo4j://``, ``neo4j+s://``, ``bolt://`` ...    | Neo4j (credentials from ``NEO4J_*`` env)  |

Secrets never come from the URL's callers or the run context: passwords are read from
the environment here, at the last moment, and never logged.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from elephant_broker.store.base import GraphStore, StoreError

NEO4J_SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")
FALKORDB_SCHEMES = ("falkordb", "redis")


def describe_store(url: str | None) -> str:
    """Return the URL with any password removed, for messages and logs."""
    if not url or url == "embedded":
        return "embedded FalkorDB"
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def open_store(url: str | None, home: Path | str, *, appendfsync: str = "everysec") -> GraphStore:
    """Open (and, for the embedded default, start) the graph store.

    Args:
        url: Store URL, or None/"embedded" for the embedded FalkorDB.
        home: The broker's data directory (``$ELEPHANT_HOME``).
        appendfsync: Durability of the embedded server's append-only file.

    Raises:
        StoreError: For an unsupported or malformed URL or an unreachable store.
    """
    # Each backend's driver is imported only when that backend is opened.
    if not url or url == "embedded":
        from elephant_broker.store.embedded import EmbeddedFalkorDB
        from elephant_broker.store.falkordb_store import FalkorDBStore

        server = EmbeddedFalkorDB(Path(home) / "falkordb", appendfsync=appendfsync)
        socket = server.ensure_running()
        return FalkorDBStore(
            unix_socket_path=str(socket),
            description=f"embedded FalkorDB in {server.data_dir}",
            vector_dir=server.data_dir,
            after_new_index=server.compact_log,
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise StoreError(f"malformed store URL {describe_store(url)!r}: {error}") from error
    scheme = parts.scheme.lower()
    if scheme in FALKORDB_SCHEMES:
        from elephant_broker.store.falkordb_store import FalkorDBStore

        if not parts.hostname:
            raise StoreError(f"store URL {describe_store(url)!r} names no host")
        graph = parts.path.strip("/") or "elephant"
        password = parts.password or os.environ.get("FALKORDB_PASSWORD") or None
        return FalkorDBStore(
            host=parts.hostname, port=port or 6379, password=password, graph=graph, description=describe_store(url)
        )
    if scheme in NEO4J_SCHEMES:
        from elephant_broker.store.neo4j_store import Neo4jStore

        if not parts.hostname:
            raise StoreError(f"store URL {describe_store(url)!r} names no host")
        return Neo4jStore(
            url,
            username=os.environ.get("NEO4J_USERNAME", "neo4j"),
            password=os.environ.get("NEO4J_PASSWORD", ""),
            database=os.environ.get("NEO4J_DATABASE") or None,
        )
    raise StoreError(
        f"unsupported store URL {describe_store(url)!r}: use 'embedded', falkordb://host:port "
        "or a Neo4j URL (neo4j://, neo4j+s://, bolt://)"
    )
