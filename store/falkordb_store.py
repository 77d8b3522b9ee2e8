"""FalkorDB backend: the embedded default, or a FalkorDB server reached by URL.

FalkorDB runs each graph query atomically but has no multi-statement transactions,
so ``_write_atomic`` composes an episode's statements into *one* query of unit
``CALL { ... }`` subqueries: the whole episode is applied, or none of it is. Reads go
through ``GRAPH.RO_QUERY``, which the server itself refuses to run writes in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import redis
from falkordb import FalkorDB

from store.base import GraphStore, Row, Statement, StoreError
from store.sanitize import cypher_identifier

_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_VECTOR_LABELS = ("Entity", "Episode")


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
    ) -> None:
        """Connect to a FalkorDB server and select the broker's graph.

        Raises:
            StoreError: If the server does not answer.
        """
        self.description = description or (unix_socket_path or f"{host}:{port}")
        try:
            if unix_socket_path:
                self._db = FalkorDB(unix_socket_path=unix_socket_path, socket_timeout=60)
            else:
                self._db = FalkorDB(host=host, port=port, password=password, socket_timeout=60)
            self._db.connection.ping()
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"cannot reach FalkorDB at {self.description}: {error}") from error
        self._graph = self._db.select_graph(graph)

    # -- execution -------------------------------------------------------------------

    def _read(self, query: str, params: dict[str, Any] | None = None) -> list[Row]:
        try:
            result = self._graph.ro_query(query, params or {})
        except redis.exceptions.ResponseError as error:
            # A graph that has never been written to does not exist yet: it is empty.
            if "empty key" in str(error):
                return []
            raise StoreError(f"FalkorDB read failed: {error}") from error
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"FalkorDB read failed: {error}") from error
        names = [column[1] for column in result.header]
        return [dict(zip(names, row, strict=True)) for row in result.result_set]

    def _write_atomic(self, statements: Sequence[Statement]) -> None:
        if not statements:
            return
        if len(statements) == 1:
            query, params = statements[0]
        else:
            query, params = compose_atomic(statements)
        try:
            self._graph.query(query, params)
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"FalkorDB write failed: {error}") from error

    def _apply_schema_statement(self, statement: str) -> None:
        try:
            self._graph.query(statement)
        except redis.exceptions.ResponseError as error:
            # FalkorDB has no IF NOT EXISTS for indexes; an existing one is fine.
            message = str(error).lower()
            if "already indexed" not in message and "already exists" not in message:
                raise StoreError(f"FalkorDB schema statement failed: {error}") from error
        except (redis.exceptions.RedisError, OSError) as error:
            raise StoreError(f"FalkorDB schema statement failed: {error}") from error

    # -- dialect ---------------------------------------------------------------------

    def _schema_statements(self, dimension: int) -> list[str]:
        dimension = int(dimension)
        return [
            "CREATE INDEX FOR (e:Entity) ON (e.key)",
            "CREATE INDEX FOR (e:Entity) ON (e.id)",
            "CREATE INDEX FOR (ep:Episode) ON (ep.id)",
            "CREATE INDEX FOR ()-[f:FACT]-() ON (f.id)",
            # Names are stored pre-segmented (jieba tokens and CJK bigrams), because
            # FalkorDB's full-text tokenizer does not split Chinese.
            "CALL db.idx.fulltext.createNodeIndex('Entity', 'search_text')",
            "CREATE VECTOR INDEX FOR (e:Entity) ON (e.embedding) "
            f"OPTIONS {{dimension: {dimension}, similarityFunction: 'cosine'}}",
            "CREATE VECTOR INDEX FOR (ep:Episode) ON (ep.embedding) "
            f"OPTIONS {{dimension: {dimension}, similarityFunction: 'cosine'}}",
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

    # -- lifecycle -------------------------------------------------------------------

    def drop_all(self) -> None:
        """Delete every node and relationship of the graph, keeping its indexes."""
        self._write_atomic([("MATCH (n) DETACH DELETE n", {})])

    def close(self) -> None:
        """Close the client connection pool."""
        self._db.connection.close()


def compose_atomic(statements: Sequence[Statement]) -> Statement:
    """Join statements into one query of unit ``CALL {}`` subqueries.

    Each statement's parameters are renamed with a per-statement prefix so that two
    statements may use the same parameter name with different values.
    """
    parts: list[str] = []
    params: dict[str, Any] = {}
    for index, (query, values) in enumerate(statements):
        prefix = f"s{index}_"
        parts.append("CALL { " + _PARAMETER.sub(rf"${prefix}\1", query) + " }")
        params.update({prefix + name: value for name, value in values.items()})
    return " ".join(parts) + " RETURN 1", params
