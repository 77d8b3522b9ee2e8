"""Node ``review_conflicts``: settle each contradiction by policy before the episode is written.

Policy ``auto`` decides by ``domain.truth.decide_automatically``. Policy ``human`` pauses
the graph with ``interrupt()`` once per conflict; the run resumes with
``Command(resume="keep_new" | "keep_old" | "keep_both")`` on the same thread. The
policy is the one the ingest started under (``state["review_policy"]``), not the
resuming run's: a run paused for a person is decided by a person. An answer that
names no decision asks again, with the same payload and an ``error`` saying what was
wrong, so a bad resume never wedges the thread.

Code before an interrupt runs again on every resume, so its one side effect is
idempotent: the open conflict is recorded (``MERGE`` by id) in the memory's store,
with the thread it waits on, for every surface to list and resolve; it is removed
once decided. The decisions are folded into the plan (``domain.truth.apply_decisions``)
and written with the episode by ``commit_episode``.
"""

from __future__ import annotations

from typing import Any, Literal

from elephant_broker.domain.truth import apply_decisions, decide_automatically, parse_decision, review_request, settle
from elephant_broker.providers.resources import get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.models import Conflict, ConflictDecision
from elephant_broker.schemas.state import IngestState
from elephant_broker.store import GraphStore
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt


def review_conflicts(state: IngestState, runtime: Runtime[RunContext]) -> Command[Literal["commit_episode"]]:
    """Decide every conflict (by policy, or by a person) and fold the decisions into the plan."""
    plan = state["plan"]
    conflicts = state["conflicts"]
    human = state["review_policy"] == "human"
    # A run without a thread can never be resumed: there is nothing to put on the desk.
    thread_id = runtime.execution_info.thread_id if runtime.execution_info else None
    desk = get_store(deployment(runtime.context)) if human and thread_id else None
    decided: list[Conflict] = []
    for position, conflict in enumerate(conflicts, start=1):
        if human:
            request = review_request(conflict, plan, position, len(conflicts))
            decision, reason = ask_reviewer(conflict, request, plan.scope, desk, thread_id)
            decided.append(settle(conflict, decision, "human", reason or "decided in review"))
        else:
            decision, reason = decide_automatically(conflict)
            decided.append(settle(conflict, decision, "auto", reason))
    return Command(goto="commit_episode", update={"plan": apply_decisions(plan, decided), "conflicts": decided})


def ask_reviewer(
    conflict: Conflict, request: dict[str, Any], scope: str, desk: GraphStore | None, thread_id: str | None
) -> tuple[ConflictDecision, str]:
    """Pause for a person's decision on one conflict, asking again until the answer names one.

    The open conflict is on the review desk (the store, when the run has a thread) while
    the run waits on its thread, and off it once decided.
    """
    asked = request
    while True:
        if desk is not None:
            desk.open_conflict(scope, conflict, asked, str(thread_id))
        answer = interrupt(asked)
        try:
            decision, reason = parse_decision(answer)
        except ValueError as error:
            asked = {**request, "error": str(error)}
            continue
        if desk is not None:
            desk.close_conflicts(scope, [conflict.id])
        return decision, reason
