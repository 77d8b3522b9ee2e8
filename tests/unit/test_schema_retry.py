"""A schema statement whose reply never comes is sent again on a fresh connection."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from store.base import StoreError
from store.falkordb_store import SCHEMA_ATTEMPTS, FalkorDBStore


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


class _Graph:
    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.sent: list[str] = []

    def query(self, statement: str, *args: Any) -> None:
        self.sent.append(statement)
        if self.failures:
            raise self.failures.pop(0)


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
