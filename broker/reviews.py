"""Human review of contradictions across processes: the CLI's and library's persistent checkpointer.

With ``review_policy="human"`` the ingest graph pauses in ``review_conflicts`` with an
``interrupt()``. Runs started here (``Broker``, the CLI, MCP, LangChain tools) live
in a SQLite checkpointer in ``$ELEPHANT_HOME`` (``reviews.sqlite``), so
``elephant resolve ID --keep new|old|both`` in another process resumes one with
``Command(resume=...)`` on its thread; the episode is written only then, in one
transaction with the decision.

Which conflicts are open, and on which thread, is not kept here but in the store
(``store.open_conflicts``), where the review node records them whichever runtime
paused the run: one desk for every surface. A conflict paused through the LangGraph
API waits on that server's thread; ``resolve`` says so and how to resume it there.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any

from elephant_broker.graphs.ingest import builder as ingest_builder
from elephant_broker.providers.resources import get_store
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Conflict, IngestReport, Perception
from elephant_broker.store.sqlite_files import use_write_ahead_log
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

_BUSY_TIMEOUT_S = 30  # how long a write waits for another process's

# Types the checkpointer may rebuild from its msgpack records (and nothing else).
_STATE_TYPES = [
    ("elephant_broker.schemas.models", name)
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
    """Runs ingests that may pause for review, and resumes the ones it holds by conflict id."""

    def __init__(self, home: str | Path) -> None:
        """Open (creating if needed) ``reviews.sqlite`` in the data directory."""
        directory = Path(home).expanduser()
        directory.mkdir(parents=True, exist_ok=True)
        self._connection = sqlite3.connect(
            directory / "reviews.sqlite", check_same_thread=False, timeout=_BUSY_TIMEOUT_S
        )
        self._lock = threading.Lock()
        # Before the saver's own setup, which switches to WAL without waiting for other processes.
        use_write_ahead_log(self._connection, timeout_s=_BUSY_TIMEOUT_S)
        self.checkpointer = SqliteSaver(
            self._connection, serde=JsonPlusSerializer(allowed_msgpack_modules=_STATE_TYPES)
        )
        self.checkpointer.setup()
        self._graph: CompiledStateGraph[Any, Any, Any, Any] | None = None

    @property
    def graph(self) -> CompiledStateGraph[Any, Any, Any, Any]:
        """The ingest graph compiled with this desk's checkpointer."""
        if self._graph is None:
            self._graph = ingest_builder.compile(checkpointer=self.checkpointer, name="ingest")
        return self._graph

    def ingest(self, perception: Perception, context: Context) -> tuple[IngestReport, list[Conflict]]:
        """Run one ingest; return its report and the conflict it paused on, if any."""
        thread_id = f"ingest-{uuid.uuid4().hex}"
        result = self.graph.invoke(perception.model_dump(exclude_none=True), config=_thread(thread_id), context=context)
        return _report(result), _waiting(result)

    def resolve(self, conflict_id: str, decision: str, context: Context, scope: str) -> Conflict:
        """Resume the run paused on the open conflict ``conflict_id`` of ``scope`` with a decision.

        Returns:
            The conflict with the decision (recorded in the store once the episode's
            last open conflict is decided and the episode is written).

        Raises:
            KeyError: If ``scope`` has no open conflict with this id (another scope's
                conflict is not looked at).
            ValueError: If the run waiting for it is not on this desk's checkpointer
                (paused through a LangGraph server) or no longer waits for it.
        """
        opened = get_store(context).find_open_conflict(scope, conflict_id)
        if opened is None:
            raise KeyError(conflict_id)
        config = _thread(opened.thread_id)
        with self._lock:
            if self.checkpointer.get_tuple(config) is None:
                raise ValueError(
                    f"conflict {conflict_id} waits on thread {opened.thread_id}, which this data directory's "
                    "review desk does not hold (it was paused through the LangGraph API, or under another "
                    f"ELEPHANT_HOME): resume it there, e.g. POST /threads/{opened.thread_id}/runs with "
                    f'{{"command": {{"resume": "{decision}"}}}}'
                )
            waiting = [pending.value for pending in self.graph.get_state(config).interrupts]
            if not any(isinstance(value, dict) and value.get("conflict_id") == conflict_id for value in waiting):
                raise ValueError(
                    f"conflict {conflict_id} is on the review desk, but its run (thread {opened.thread_id}) "
                    "no longer waits for it; see 'elephant conflicts'"
                )
            self.graph.invoke(Command(resume=decision), config=config, context=context)
        return opened.conflict.model_copy(update={"status": "decided", "decision": decision, "decided_by": "human"})

    def close(self) -> None:
        """Close the database connection."""
        self._connection.close()


def _waiting(result: dict[str, Any]) -> list[Conflict]:
    return [Conflict.model_validate(pending.value["conflict"]) for pending in result.get("__interrupt__") or []]


def _thread(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def _report(result: dict[str, Any]) -> IngestReport:
    report = result.get("report")
    return report if isinstance(report, IngestReport) else IngestReport()
