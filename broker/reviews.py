"""Human review of contradictions across processes: a persistent checkpointer and a registry.

With ``review_policy="human"`` the ingest graph pauses in ``review_conflicts`` with an
``interrupt()``. The paused run lives in a SQLite checkpointer in ``$ELEPHANT_HOME``
(``reviews.sqlite``), so ``elephant conflicts`` in another process can list it and
``elephant resolve ID --keep new|old|both`` resumes it with ``Command(resume=...)``
on the same thread; the episode is written only then, in one transaction with the
decision. A small table in the same file maps each open conflict to its thread.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from schemas.context import Context
from schemas.models import Conflict, IngestReport, Perception
from store.base import now_ms

# Types the checkpointer may rebuild from its msgpack records (and nothing else).
_STATE_TYPES = [
    ("schemas.models", name)
    for name in (
        "Quintuple",
        "EpisodeWrite",
        "Episode",
        "EntityRow",
        "FactRow",
        "Fact",
        "Entity",
        "IngestReport",
        "Conflict",
        "FactUpdate",
        "MergeRecord",
        "QuestionAnalysis",
    )
]


class ReviewDesk:
    """Runs ingests that may pause for review, and resumes them by conflict id."""

    def __init__(self, home: str | Path) -> None:
        """Open (creating if needed) ``reviews.sqlite`` in the data directory."""
        directory = Path(home).expanduser()
        directory.mkdir(parents=True, exist_ok=True)
        self._connection = sqlite3.connect(directory / "reviews.sqlite", check_same_thread=False)
        self._lock = threading.Lock()
        self.checkpointer = SqliteSaver(
            self._connection, serde=JsonPlusSerializer(allowed_msgpack_modules=_STATE_TYPES)
        )
        self.checkpointer.setup()
        with self._connection:
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS open_conflicts ("
                "conflict_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, scope TEXT NOT NULL, "
                "payload TEXT NOT NULL, created_at INTEGER NOT NULL)"
            )
        self._graph: CompiledStateGraph[Any, Context, Any, Any] | None = None

    @property
    def graph(self) -> CompiledStateGraph[Any, Context, Any, Any]:
        """The ingest graph compiled with this desk's checkpointer."""
        if self._graph is None:
            from graphs.ingest import builder

            self._graph = builder.compile(checkpointer=self.checkpointer, name="ingest")
        return self._graph

    def ingest(self, perception: Perception, context: Context) -> tuple[IngestReport, list[Conflict]]:
        """Run one ingest; return its report and the conflict it paused on, if any."""
        thread_id = f"ingest-{uuid.uuid4().hex}"
        scope = perception.agent_id or context.agent_id
        result = self.graph.invoke(perception.model_dump(exclude_none=True), config=_thread(thread_id), context=context)
        return _report(result), self._register(result, thread_id, scope)

    def resolve(self, conflict_id: str, decision: str, context: Context) -> Conflict:
        """Resume the run paused on ``conflict_id`` with a decision.

        Returns:
            The conflict with the decision (recorded in the store once the episode's
            last open conflict is decided and the episode is written).

        Raises:
            KeyError: If no open conflict has this id.
        """
        with self._lock:
            row = self._connection.execute(
                "SELECT thread_id, scope, payload FROM open_conflicts WHERE conflict_id = ?", (conflict_id,)
            ).fetchone()
        if row is None:
            raise KeyError(conflict_id)
        thread_id, scope, payload = row
        result = self.graph.invoke(Command(resume=decision), config=_thread(thread_id), context=context)
        with self._lock, self._connection:
            self._connection.execute("DELETE FROM open_conflicts WHERE conflict_id = ?", (conflict_id,))
        self._register(result, thread_id, scope)
        conflict = Conflict.model_validate(json.loads(payload)["conflict"])
        return conflict.model_copy(update={"status": "decided", "decision": decision, "decided_by": "human"})

    def open_conflicts(self, scope: str | None = None) -> list[Conflict]:
        """Return the conflicts waiting for a decision (oldest first)."""
        query = "SELECT payload FROM open_conflicts"
        params: tuple[str, ...] = ()
        if scope is not None:
            query += " WHERE scope = ?"
            params = (scope,)
        with self._lock:
            rows = self._connection.execute(query + " ORDER BY created_at, conflict_id", params).fetchall()
        return [Conflict.model_validate(json.loads(payload)["conflict"]) for (payload,) in rows]

    def close(self) -> None:
        """Close the database connection."""
        self._connection.close()

    def _register(self, result: dict[str, Any], thread_id: str, scope: str) -> list[Conflict]:
        waiting: list[Conflict] = []
        for pending in result.get("__interrupt__") or []:
            payload = pending.value
            conflict = Conflict.model_validate(payload["conflict"])
            with self._lock, self._connection:
                self._connection.execute(
                    "INSERT OR REPLACE INTO open_conflicts VALUES (?, ?, ?, ?, ?)",
                    (conflict.id, thread_id, scope, json.dumps(payload, ensure_ascii=False), now_ms()),
                )
            waiting.append(conflict)
        return waiting


def _thread(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def _report(result: dict[str, Any]) -> IngestReport:
    report = result.get("report")
    return report if isinstance(report, IngestReport) else IngestReport()
