"""Neo4j backend (production: a server, a cluster or Aura through ``neo4j://`` URLs).

Only the dialect hooks differ from FalkorDB: real transactions (one per episode via
``execute_write``), reads in READ access mode (a cluster routes them to followers),
``IF NOT EXISTS`` constraints and indexes, the native vector index and a whitespace
full-text analyzer over the same pre-segmented ``search_text`` the FalkorDB backend
uses. The store contract tests run on this backend when ``NEO4J_URI`` is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from elephant_broker.store.base import GraphStore, Row, Statement, StoreError
from elephant_broker.store.errors import UnsafeQueryError
from elephant_broker.store.sanitize import cypher_identifier

_VECTOR_INDEXES = {"Entity": "entity_embedding", "Episode": "episode_embedding"}


class Neo4jStore(GraphStore):
    """A graph in a Neo4j database."""

    backend = "neo4j"

    def __init__(self, uri: str, *, username: str, password: str, database: str | None = None) -> None:
        """Open a driver and check the server answers.

        Raises:
            StoreError: If the server cannot be reached or refuses the credentials.
        """
        import neo4j

        self._neo4j = neo4j
        self.description = uri
        self._database = database
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=(username, password))
            self._driver.verify_connectivity()
        except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, OSError, ValueError) as error:
            raise StoreError(f"cannot reach Neo4j at {uri}: {error}") from error

    def _session(self, read: bool) -> Any:
        mode = self._neo4j.READ_ACCESS if read else self._neo4j.WRITE_ACCESS
        return self._driver.session(database=self._database, default_access_mode=mode)

    def _read(self, query: str, params: dict[str, Any] | None = None, *, timeout_ms: int | None = None) -> list[Row]:
        def work(tx: Any) -> list[Row]:
            return [record.data() for record in tx.run(query, params or {})]

        if timeout_ms is not None:
            # A transaction timeout: the server terminates the query when it runs over.
            work = self._neo4j.unit_of_work(timeout=max(timeout_ms, 1) / 1000)(work)
        try:
            with self._session(read=True) as session:
                return session.execute_read(work)
        except self._neo4j.exceptions.Neo4jError as error:
            raise StoreError(f"Neo4j read failed: {error}") from error

    def _check_read_plan(self, query: str, params: dict[str, Any]) -> None:
        # The planner's own verdict: EXPLAIN reports the query type without running it.
        def work(tx: Any) -> str:
            return str(tx.run(f"EXPLAIN {query}", params).consume().query_type)

        try:
            with self._session(read=True) as session:
                kind = session.execute_read(work)
        except self._neo4j.exceptions.Neo4jError as error:
            raise StoreError(f"Neo4j refused the query: {error}") from error
        if kind != "r":
            raise UnsafeQueryError(f"Neo4j plans this query as type {kind!r}, not a read")

    def _write_atomic(self, statements: Sequence[Statement], *, result: Statement | None = None) -> list[Row]:
        def work(tx: Any) -> list[Row]:
            for query, params in statements:
                tx.run(query, params).consume()
            return [record.data() for record in tx.run(*result)] if result else []

        try:
            with self._session(read=False) as session:
                return session.execute_write(work)
        except self._neo4j.exceptions.Neo4jError as error:
            raise StoreError(f"Neo4j write failed: {error}") from error

    def _schema_statements(self, dimension: int) -> list[str]:
        dimension = int(dimension)
        vector_options = (
            f"OPTIONS {{indexConfig: {{`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}}}"
        )
        return [
            "CREATE CONSTRAINT entity_scope_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.scope, e.key) IS UNIQUE",
            "CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (ep:Episode) REQUIRE ep.id IS UNIQUE",
            # One BM25 statistics node per scope, merged by concurrent writers.
            "CREATE CONSTRAINT episode_stats_scope IF NOT EXISTS FOR (x:EpisodeStats) REQUIRE x.scope IS UNIQUE",
            "CREATE INDEX entity_id IF NOT EXISTS FOR (e:Entity) ON (e.id)",
            "CREATE INDEX fact_id IF NOT EXISTS FOR ()-[f:FACT]-() ON (f.id)",
            "CREATE INDEX episode_session IF NOT EXISTS FOR (ep:Episode) ON (ep.session_id)",
            "CREATE INDEX answer_id IF NOT EXISTS FOR (a:Answer) ON (a.id)",
            "CREATE FULLTEXT INDEX entity_search IF NOT EXISTS FOR (e:Entity) ON EACH [e.search_text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}",
            "CREATE FULLTEXT INDEX episode_search IF NOT EXISTS FOR (ep:Episode) ON EACH [ep.search_text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}",
            f"CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON (e.embedding) {vector_options}",
            f"CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (ep:Episode) ON (ep.embedding) {vector_options}",
        ]

    def _vector(self, expression: str) -> str:
        return expression

    def _vector_query(self, label: str, k_param: str, vector_param: str) -> str:
        index = _VECTOR_INDEXES[cypher_identifier(label, _VECTOR_INDEXES).strip("`")]
        return f"CALL db.index.vector.queryNodes('{index}', {k_param}, {vector_param}) YIELD node, score"

    def _cosine(self, stored: str, param: str) -> str:
        return f"vector.similarity.cosine({stored}, {param})"

    def _vector_similarity(self, score: float) -> float:
        # Neo4j reports cosine as (1 + cos) / 2; return it to [-1, 1] like FalkorDB.
        return 2.0 * score - 1.0

    def _fulltext_query(self, terms: list[str]) -> tuple[str, str]:
        return "CALL db.index.fulltext.queryNodes('entity_search', $query) YIELD node, score", " OR ".join(terms)

    def _entity_fulltext_call(self, expression: str) -> str:
        return f"CALL db.index.fulltext.queryNodes('entity_search', {expression}) YIELD node, score"

    def _episode_fulltext_call(self, term: str) -> str:
        # One term per call: the store scores the matches itself (BM25, store/episodes.py).
        return f"CALL db.index.fulltext.queryNodes('episode_search', {term}) YIELD node"

    def drop_all(self) -> None:
        """Delete every node and relationship, keeping constraints and indexes."""
        self._write_atomic([("MATCH (n) DETACH DELETE n", {})])

    def close(self) -> None:
        """Close the driver."""
        self._driver.close()
