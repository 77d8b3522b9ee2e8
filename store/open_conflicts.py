"""Store queries for the review desk: conflicts that wait for a person's decision.

A mixin of ``GraphStore``. Under the ``human`` review policy the ingest pauses in
``review_conflicts`` with an ``interrupt()`` on some runtime's checkpointer (the CLI's
SQLite file, a ``langgraph dev`` or LangGraph server thread). Whichever runtime paused
it, the review node records the open conflict here, in the memory's own store and
scope, so every surface (``elephant conflicts``, ``Broker.conflicts``, MCP
``list_conflicts``) lists the same desk, and ``resolve`` finds the thread to resume.

An open conflict is ``(:OpenConflict {scope, id, thread_id, payload, record,
created_at, updated_at})``: ``payload`` is the JSON the reviewer was shown (with the
``error`` of a refused answer, if any), ``record`` the ``Conflict`` as JSON. It is
written with ``MERGE`` on (scope, id), because the node re-runs its code before the
interrupt on every resume, and removed once the conflict is decided (by the node) and
again, in the episode's transaction, when the decision is written.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from elephant_broker.schemas.models import Conflict

Statement = tuple[str, dict[str, Any]]

_OPEN_COLUMNS = "x.id AS id, x.thread_id AS thread_id, x.payload AS payload, x.record AS record"


@dataclass(frozen=True)
class OpenConflict:
    """A conflict waiting for a decision, and the paused run that waits with it."""

    conflict: Conflict
    thread_id: str
    """The thread of the paused run, on the checkpointer of the runtime that paused it."""
    payload: dict[str, Any]
    """What the reviewer is shown (``domain.truth.review_request``)."""


class OpenConflictQueries:
    """Open-conflict queries shared by every backend."""

    if TYPE_CHECKING:

        def _read(self, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]: ...

        def _write_atomic(
            self, statements: Sequence[Statement], *, result: Statement | None = None
        ) -> list[dict[str, Any]]: ...

    def open_conflict(self, scope: str, conflict: Conflict, payload: dict[str, Any], thread_id: str) -> None:
        """Record (or refresh) a conflict that waits for a decision on ``thread_id``; idempotent."""
        self._write_atomic(
            [
                (
                    "MERGE (x:OpenConflict {scope: $scope, id: $id}) "
                    "ON CREATE SET x.created_at = $now "
                    "SET x.thread_id = $thread_id, x.payload = $payload, x.record = $record, x.updated_at = $now",
                    {
                        "scope": scope,
                        "id": conflict.id,
                        "thread_id": thread_id,
                        "payload": json.dumps(payload, ensure_ascii=False, default=str),
                        "record": conflict.model_dump_json(),
                        "now": int(time.time() * 1000),
                    },
                )
            ]
        )

    def close_conflicts(self, scope: str, conflict_ids: Iterable[str]) -> None:
        """Remove decided conflicts from the desk (unknown ids are ignored)."""
        ids = sorted(set(conflict_ids))
        if ids:
            self._write_atomic([close_conflicts_statement(scope, ids)])

    def open_conflicts(self, scope: str, limit: int = 1000) -> list[OpenConflict]:
        """Return the conflicts of this scope waiting for a decision, oldest first."""
        rows = self._read(
            f"MATCH (x:OpenConflict) WHERE x.scope = $scope RETURN {_OPEN_COLUMNS} "
            "ORDER BY x.created_at, x.id LIMIT $limit",
            {"scope": scope, "limit": limit},
        )
        return [_open_conflict(row) for row in rows]

    def find_open_conflict(self, scope: str, conflict_id: str) -> OpenConflict | None:
        """Return this scope's open conflict with this id, or None (another scope's never)."""
        rows = self._read(
            f"MATCH (x:OpenConflict) WHERE x.scope = $scope AND x.id = $id RETURN {_OPEN_COLUMNS}",
            {"scope": scope, "id": conflict_id},
        )
        return _open_conflict(rows[0]) if rows else None


def close_conflicts_statement(scope: str, conflict_ids: Sequence[str]) -> Statement:
    """Return the statement that removes these conflicts of ``scope`` from the desk."""
    return (
        "MATCH (x:OpenConflict) WHERE x.scope = $scope AND x.id IN $ids DELETE x",
        {"scope": scope, "ids": list(conflict_ids)},
    )


def _open_conflict(row: dict[str, Any]) -> OpenConflict:
    return OpenConflict(
        conflict=Conflict.model_validate_json(row["record"]),
        thread_id=str(row["thread_id"]),
        payload=json.loads(row["payload"]),
    )
