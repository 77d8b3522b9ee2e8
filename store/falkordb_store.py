"""FalkorDB backend: the embedded default, or a FalkorDB server reached by URL.

FalkorDB runs each graph query atomically but has no multi-statement transactions,
so ``_write_atomic`` composes an episode's statements into *one* query of unit
``CALL { ... }`` subqueries: the whole episode is applied, or none of it is. Reads go
through ``GRAPH.RO_QUERY``, which the server itself refuses to run writes in.

The embedded server keeps its vectors out of the graph, in a vector file beside its
data (``store/vectors.py``); a server reached by URL keeps them in the graph with
FalkorDB's vector indexes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import redis
from elephant_broker.store.base import GraphStore, Row, Statement, StoreError
from elephant_broker.store.episode_index import EpisodeIndex
from elephant_broker.store.sanitize import cypher_identifier
from elephant_broker.store.vectors import VectorFile
from falkordb import FalkorDB

_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_VECTOR_LABELS = ("Entity", "Episode")
SCHEMA_ATTEMPTS = 3
SOCKET_TIMEOUT_S = 60
INDEX_BUILD_TIMEOUT_S = 30


class FalkorDBStore(GraphStore):
    """A graph in a FalkorDB server (embedded on a unix socket, or over TCP)."""

    backend = "falkordb"

    def __init__(
        self,
        *,
        unix_socket_path: str | None = None,
        host: str = "localhost",
        port: int = 6379,
        password: str | None = None,
        graph: str = "elephant",
        description: str = "",
        vector_dir: Path | str | None = None,
        after_new_index: Callable[[], None] | None = None,
    ) -> None:
        """Connect to a FalkorDB server and select the broker's graph.

        Args:
            unix_socket_path: The embedded server's socket (instead of host and port).
            host: The server's host.
            port: The server's port.
            password: The server's password.
            graph: The graph (one server holds many).
            description: How messages name the store.
            vector_dir: Keep the graph's vectors in a file in this directory (the
                embedded server's own) instead of in the graph.
            after_new_index: Called once ``ensure_schema`` has created an index and
                FalkorDB has built it (the embedded server compacts its append-only
                file then: see ``EmbeddedFalkorDB.compact_log``).

        Raises:
            StoreError: If the server does not answer.
        """
        self.description = description or (unix_socket_path or f"{host}:{port}")
        try:
            if unix_socket_path:
                self._db = FalkorDB(unix_socket_path=unix_socket_path, socket_timeout=SOCKET_TIMEOUT_S)
            else:
                self._db = FalkorDB(host=host, port=port, password=password, socket_timeout=SOCKET_TIMEOUT_S)
            self._db.connection.ping()
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"cannot reach FalkorDB at {self.description}: {error}") from error
        self._graph = self._db.select_graph(graph)
        self._after_new_index = after_new_index
        if vector_dir is not None:
            # One file per graph: the graph's name is chosen by the caller, never by input.
            self.vectors = VectorFile(Path(vector_dir) / f"vectors-{_file_safe(graph)}.sqlite3")
            self.episode_index = EpisodeIndex(Path(vector_dir) / f"episodes-{_file_safe(graph)}.sqlite3")

    # -- execution -------------------------------------------------------------------

    def _read(self, query: str, params: dict[str, Any] | None = None, *, timeout_ms: int | None = None) -> list[Row]:
        # GRAPH.RO_QUERY ... TIMEOUT ms: the server stops the query, not just the client.
        timeout = max(1, int(timeout_ms)) if timeout_ms is not None else None
        params = wire_params(params)
        try:
            try:
                result = self._graph.ro_query(query, params, timeout=timeout)
            except redis.exceptions.ResponseError as error:
                if "Invalid arguments for procedure 'db.idx.vector" not in str(error):
                    raise
                # Seen once under load: a vector index not (yet) usable. Wait for the
                # indexes to be built and ask once more.
                self._await_indexes()
                result = self._graph.ro_query(query, params, timeout=timeout)
        except redis.exceptions.ResponseError as error:
            # A graph that has never been written to does not exist yet: it is empty.
            if "empty key" in str(error):
                return []
            raise StoreError(f"FalkorDB read failed: {error}") from error
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"FalkorDB read failed: {error}") from error
        names = [column[1] for column in result.header]
        return [dict(zip(names, row, strict=True)) for row in result.result_set]

    def _write_atomic(self, statements: Sequence[Statement], *, result: Statement | None = None) -> list[Row]:
        if not statements and result is None:
            return []
        if len(statements) == 1 and result is None:
            query, params = statements[0]
        else:
            query, params = compose_atomic(statements, result)
        params = wire_params(params)
        try:
            outcome = self._graph.query(query, params)
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"FalkorDB write failed: {error}") from error
        if result is None:
            return []
        names = [column[1] for column in outcome.header]
        return [dict(zip(names, row, strict=True)) for row in outcome.result_set]

    def ensure_schema(self, dimension: int) -> bool:
        """Create the indexes, then wait until FalkorDB has built them; return whether any was new.

        FalkorDB builds indexes in the background; a vector query against one still
        "under construction" fails with "Invalid arguments for procedure" (seen on a
        loaded machine right after a new graph's schema was created).
        """
        created = super().ensure_schema(dimension)
        self._await_indexes()
        if created and self._after_new_index is not None:
            self._after_new_index()
        return created

    def _upgrade_fact_vectors(self, batch: int = 5_000) -> None:
        # Before layout 2, fact vectors were lists of doubles: twice the memory of a
        # vecf32, and vec.cosineDistance refuses them.
        while True:
            rows = self._write_atomic(
                [],
                result=(
                    "MATCH ()-[f:FACT]->() WHERE typeOf(f.embedding) = 'List' WITH f LIMIT $batch "
                    "SET f.embedding = CASE WHEN size(f.embedding) = 0 THEN null ELSE vecf32(f.embedding) END "
                    "RETURN count(f) AS n",
                    {"batch": batch},
                ),
            )
            if not rows or not rows[0]["n"]:
                return

    def _drop_vector_indexes(self) -> None:
        # An index still being built when it is dropped can outlive the drop (seen in CI under
        # load): wait for the build first, and for the drop to show in db.indexes() after.
        self._await_indexes()
        for pattern in ("(e:Entity) ON (e.embedding)", "(ep:Episode) ON (ep.embedding)"):
            try:
                self._graph.query(f"DROP VECTOR INDEX FOR {pattern}")
            except redis.exceptions.ResponseError as error:
                if "no such index" not in str(error).lower():
                    raise StoreError(f"FalkorDB schema statement failed: {error}") from error
        deadline = time.monotonic() + INDEX_BUILD_TIMEOUT_S
        while self._has_vector_index() and time.monotonic() < deadline:
            time.sleep(0.02)

    def _has_vector_index(self) -> bool:
        rows = self._graph.ro_query("CALL db.indexes() YIELD types RETURN types").result_set
        return any("VECTOR" in kind for row in rows for kinds in row[0].values() for kind in kinds)

    def _await_indexes(self) -> None:
        deadline = time.monotonic() + INDEX_BUILD_TIMEOUT_S
        while True:
            try:
                rows = self._graph.ro_query("CALL db.indexes() YIELD status RETURN status").result_set
            except redis.exceptions.RedisError:
                return  # the query that follows reports the real problem
            if {row[0] for row in rows} <= {"OPERATIONAL"} or time.monotonic() > deadline:
                return
            time.sleep(0.02)

    def _apply_schema_statement(self, statement: str) -> bool:
        """Apply one index statement; return whether it created the index (False: it existed)."""
        # Schema statements are idempotent, so one that hangs or loses its connection
        # is sent again on a fresh connection before giving up (seen once in CI: the
        # first index statement on a brand-new server never got its reply).
        for attempt in range(1, SCHEMA_ATTEMPTS + 1):
            try:
                self._graph.query(statement)
                return True
            except redis.exceptions.ResponseError as error:
                # FalkorDB has no IF NOT EXISTS for indexes; an existing one is fine.
                message = str(error).lower()
                if "already indexed" not in message and "already exists" not in message:
                    raise StoreError(f"FalkorDB schema statement failed: {error}") from error
                return False
            except (redis.exceptions.TimeoutError, redis.exceptions.ConnectionError, OSError) as error:
                if attempt == SCHEMA_ATTEMPTS:
                    raise StoreError(
                        f"FalkorDB schema statement failed after {attempt} attempts on {self.description}: {error}"
                    ) from error
                self._db.connection.connection_pool.disconnect()
            except redis.exceptions.RedisError as error:
                raise StoreError(f"FalkorDB schema statement failed: {error}") from error
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- dialect ---------------------------------------------------------------------

    def _schema_statements(self, dimension: int) -> list[str]:
        dimension = int(dimension)
        vector_indexes = [
            "CREATE VECTOR INDEX FOR (e:Entity) ON (e.embedding) "
            f"OPTIONS {{dimension: {dimension}, similarityFunction: 'cosine'}}",
            "CREATE VECTOR INDEX FOR (ep:Episode) ON (ep.embedding) "
            f"OPTIONS {{dimension: {dimension}, similarityFunction: 'cosine'}}",
        ]
        return [
            "CREATE INDEX FOR (e:Entity) ON (e.key)",
            "CREATE INDEX FOR (e:Entity) ON (e.id)",
            "CREATE INDEX FOR (ep:Episode) ON (ep.id)",
            "CREATE INDEX FOR (ep:Episode) ON (ep.session_id)",
            "CREATE INDEX FOR ()-[f:FACT]-() ON (f.id)",
            "CREATE INDEX FOR (a:Answer) ON (a.id)",
            # Names are stored pre-segmented (jieba tokens and CJK bigrams), because
            # FalkorDB's full-text tokenizer does not split Chinese.
            "CALL db.idx.fulltext.createNodeIndex('Entity', 'search_text')",
            # Episodes too: speaker and text, pre-segmented the same way (store/episodes.py).
            "CALL db.idx.fulltext.createNodeIndex('Episode', 'search_text')",
            *(vector_indexes if self.vectors is None else []),
        ]

    def _vector(self, expression: str) -> str:
        return f"vecf32({expression})"

    def _vector_query(self, label: str, k_param: str, vector_param: str) -> str:
        name = cypher_identifier(label, _VECTOR_LABELS).strip("`")
        return (
            f"CALL db.idx.vector.queryNodes('{name}', 'embedding', {k_param}, vecf32({vector_param})) YIELD node, score"
        )

    def _cosine(self, stored: str, param: str) -> str:
        return f"vec.cosineDistance({stored}, vecf32({param}))"

    def _vector_similarity(self, score: float) -> float:
        # FalkorDB reports cosine *distance*.
        return 1.0 - score

    def _fulltext_query(self, terms: list[str]) -> tuple[str, str]:
        return "CALL db.idx.fulltext.queryNodes('Entity', $query) YIELD node, score", "|".join(terms)

    def _entity_fulltext_call(self, expression: str) -> str:
        return f"CALL db.idx.fulltext.queryNodes('Entity', {expression}) YIELD node, score"

    def _episode_fulltext_call(self, term: str) -> str:
        # One term per call: the store scores the matches itself (BM25, store/episodes.py).
        return f"CALL db.idx.fulltext.queryNodes('Episode', {term}) YIELD node"

    # -- lifecycle -------------------------------------------------------------------

    def drop_all(self) -> None:
        """Delete every node and relationship of the graph (and its vectors), keeping its indexes."""
        self._write_atomic([("MATCH (n) DETACH DELETE n", {})])
        if self.vectors is not None:
            self.vectors.clear()
        if self.episode_index is not None:
            self.episode_index.clear()

    def close(self) -> None:
        """Close the client connection pool and the vector file."""
        self._db.connection.close()
        if self.vectors is not None:
            self.vectors.close()
        if self.episode_index is not None:
            self.episode_index.close()


class FloatList:
    """A list of floats as the query text will carry it: 7 significant digits each.

    The client writes parameters into the query text, and a float's ``repr`` has up
    to 17 digits: a 384-float vector is ~8 KB of text to build and for the server to
    parse, on every vector query and written embedding. Vectors are float32 (about
    7.2 significant digits), so 7 digits keep them as stored, at two thirds of the text
    and half the client's time. The client writes any value it does not know with
    ``str``.
    """

    __slots__ = ("text",)

    def __init__(self, values: Sequence[float]) -> None:
        self.text = "[" + ",".join(map(_SEVEN_DIGITS, values)) + "]"

    def __str__(self) -> str:
        return self.text


def _file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:100] or "graph"


# Always with a point and an exponent: a float stays a float in the query ("1" would be an integer).
_SEVEN_DIGITS = "{:.6e}".format


def wire_params(params: dict[str, Any] | None) -> dict[str, Any]:
    """Return the parameters as they go to the server: lists of floats compacted, NUL refused.

    The server reads the query text as a C string: a NUL would silently cut the query
    short. Input is validated at the boundary; this is the store's own guard for
    whatever slipped past it.

    Raises:
        StoreError: If any string in the parameters contains a NUL character.
    """
    return {name: _wire(value) for name, value in (params or {}).items()}


def _wire(value: Any) -> Any:
    if isinstance(value, str):
        if "\x00" in value:
            raise StoreError("refused to store a value with a NUL character (the store cannot hold it)")
        return value
    if isinstance(value, dict):
        return {key: _wire(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        if value and all(type(item) is float for item in value):
            return FloatList(value)
        return [_wire(item) for item in value]
    return value


def compose_atomic(statements: Sequence[Statement], result: Statement | None = None) -> Statement:
    """Join statements into one query of unit ``CALL {}`` subqueries.

    Each statement's parameters are renamed with a per-statement prefix so that two
    statements may use the same parameter name with different values. ``result``, a
    statement ending in ``RETURN``, follows the subqueries (it sees what they wrote)
    and gives the query its rows.
    """
    parts: list[str] = []
    params: dict[str, Any] = {}
    for index, (query, values) in enumerate([*statements, *([result] if result else [])]):
        prefix = f"s{index}_"
        renamed = _PARAMETER.sub(rf"${prefix}\1", query)
        parts.append(renamed if index == len(statements) else "CALL { " + renamed + " }")
        params.update({prefix + name: value for name, value in values.items()})
    return " ".join(parts) + ("" if result else " RETURN 1"), params
