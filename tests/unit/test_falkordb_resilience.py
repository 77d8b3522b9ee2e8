"""FalkorDB hiccups seen under load: a schema statement with no reply, a vector index not yet usable."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from elephant_broker.store.base import StoreError
from elephant_broker.store.falkordb_store import SCHEMA_ATTEMPTS, FalkorDBStore


class _Pool:
    def __init__(self) -> None:
        self.disconnects = 0

    def disconnect(self) -> None:
        self.disconnects += 1


class _Connection:
    def __init__(self) -> None:
        self.connection_pool = _Pool()


class _Db:
    def __init__(self) -> None:
        self.connection = _Connection()


class _Result:
    def __init__(self, header: list[list[Any]], rows: list[list[Any]]) -> None:
        self.header, self.result_set = header, rows


class _Graph:
    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.sent: list[str] = []
        self.index_statuses = ["UNDER CONSTRUCTION", "OPERATIONAL"]

    def query(self, statement: str, *args: Any) -> None:
        self.sent.append(statement)
        if self.failures:
            raise self.failures.pop(0)

    def ro_query(self, statement: str, *args: Any, **kwargs: Any) -> _Result:
        self.sent.append(statement)
        if statement.startswith("CALL db.indexes()"):
            return _Result([[1, "status"]], [[self.index_statuses.pop(0)]] if self.index_statuses else [])
        if self.failures:
            raise self.failures.pop(0)
        return _Result([[1, "n"]], [[1]])


def _store(graph: _Graph) -> FalkorDBStore:
    store = object.__new__(FalkorDBStore)
    store.description = "test"
    store._db = _Db()  # type: ignore[assignment]
    store._graph = graph  # type: ignore[assignment]
    return store


def test_a_timed_out_schema_statement_is_retried_on_a_fresh_connection() -> None:
    graph = _Graph([redis.exceptions.TimeoutError("Timeout reading from socket")])
    store = _store(graph)
    store._apply_schema_statement("CREATE INDEX FOR (e:Entity) ON (e.key)")
    assert graph.sent == ["CREATE INDEX FOR (e:Entity) ON (e.key)"] * 2
    assert store._db.connection.connection_pool.disconnects == 1  # type: ignore[attr-defined]


def test_a_statement_that_keeps_timing_out_fails_with_a_clear_error() -> None:
    graph = _Graph([redis.exceptions.TimeoutError("Timeout reading from socket")] * SCHEMA_ATTEMPTS)
    with pytest.raises(StoreError, match=f"after {SCHEMA_ATTEMPTS} attempts"):
        _store(graph)._apply_schema_statement("CREATE INDEX FOR (e:Entity) ON (e.id)")
    assert len(graph.sent) == SCHEMA_ATTEMPTS


def test_an_existing_index_is_fine_and_other_errors_are_not_retried() -> None:
    existing = _Graph([redis.exceptions.ResponseError("Attribute 'key' is already indexed")])
    _store(existing)._apply_schema_statement("CREATE INDEX FOR (e:Entity) ON (e.key)")
    assert len(existing.sent) == 1
    broken = _Graph([redis.exceptions.ResponseError("Invalid input")])
    with pytest.raises(StoreError, match="Invalid input"):
        _store(broken)._apply_schema_statement("CREATE INDEX garbage")
    assert len(broken.sent) == 1


def test_a_vector_query_on_an_index_not_yet_built_waits_and_asks_again() -> None:
    not_ready = redis.exceptions.ResponseError("Invalid arguments for procedure 'db.idx.vector.queryNodes'")
    graph = _Graph([not_ready])
    rows = _store(graph)._read("CALL db.idx.vector.queryNodes('Entity', 'embedding', 5, vecf32($v)) YIELD node")
    assert rows == [{"n": 1}]
    assert [sent.split("(")[0] for sent in graph.sent] == [
        "CALL db.idx.vector.queryNodes",
        "CALL db.indexes",
        "CALL db.indexes",  # polled until every index is operational
        "CALL db.idx.vector.queryNodes",
    ]


def test_other_read_errors_are_not_retried() -> None:
    graph = _Graph([redis.exceptions.ResponseError("Invalid input 'x'")])
    with pytest.raises(StoreError, match="Invalid input"):
        _store(graph)._read("MATCH x")
    assert len(graph.sent) == 1
