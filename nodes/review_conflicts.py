"""Review: settle each contradiction by policy before the episode is written.

Policy ``auto`` decides by confidence x source authority x recency, and an explicit
change ("我不用 Python 了") always retires the old fact. Policy ``human`` pauses the
graph with ``interrupt()`` once per conflict; the run resumes with
``Command(resume="keep_new" | "keep_old" | "keep_both")`` on the same thread. The
policy is the one the ingest started under (``state["review_policy"]``), not the
resuming run's: a run paused for a person is decided by a person. An answer that
names no decision asks again, with the same payload and an ``error`` saying what was
wrong, so a bad resume never wedges the thread.

Code before an interrupt runs again on every resume, so its one side effect is
idempotent: the open conflict is recorded (``MERGE`` by id) in the memory's store,
with the thread it waits on, for every surface to list and resolve; it is removed
once decided.

Nothing is deleted: the loser of a decision stays in the graph as ``superseded``
(it was true, and is history now, with ``valid_to``/``expired_at``) or ``rejected``
(a claim that lost: a new one, or an old one a plain negation corrected), and the
decided conflict is recorded with its reason. Facts concluded from a rejected fact
lose confidence when the episode is committed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from providers.resources import get_store
from schemas.context import DEFAULT_AUTHORITY, Context, RunContext, deployment
from schemas.models import Conflict, ConflictDecision, EpisodeWrite, Fact, FactUpdate
from schemas.state import BrokerState
from store.base import now_ms

DECISIONS: dict[str, ConflictDecision] = {
    "keep_new": "keep_new",
    "new": "keep_new",
    "keep_old": "keep_old",
    "old": "keep_old",
    "keep_both": "keep_both",
    "both": "keep_both",
}
RECENCY_HALF_LIFE_DAYS = 365.0
"""How fast an old statement loses weight against a new one in automatic review."""


def review_conflicts(state: BrokerState, runtime: Runtime[RunContext]) -> Command[Literal["commit_episode"]]:
    """Decide every conflict (by policy, or by a person) and fold the decisions into the plan."""
    plan = state["plan"]
    assert plan is not None, "review runs only for a planned episode"
    context = deployment(runtime.context)
    policy = state.get("review_policy") or context.review_policy
    decided: list[Conflict] = []
    conflicts = state.get("conflicts") or []
    for position, conflict in enumerate(conflicts, start=1):
        if policy == "human":
            request = review_request(conflict, plan, position, len(conflicts))
            thread_id = runtime.execution_info.thread_id if runtime.execution_info else None
            decision, reason = ask_reviewer(conflict, request, plan.scope, context, thread_id)
            decided.append(_decided(conflict, decision, "human", reason or "decided in review"))
        else:
            decision, reason = decide_automatically(conflict)
            decided.append(_decided(conflict, decision, "auto", reason))
    return Command(goto="commit_episode", update={"plan": apply_decisions(plan, decided), "conflicts": decided})


def ask_reviewer(
    conflict: Conflict, request: dict[str, Any], scope: str, context: Context, thread_id: str | None
) -> tuple[ConflictDecision, str]:
    """Pause for a person's decision on one conflict, asking again until the answer names one.

    The open conflict is on the review desk (the store) while the run waits on its
    thread, and off it once decided.
    """
    # A run without a thread can never be resumed: there is nothing to put on the desk.
    store = get_store(context) if thread_id else None
    asked = request
    while True:
        if store is not None:
            store.open_conflict(scope, conflict, asked, str(thread_id))
        answer = interrupt(asked)
        try:
            decision, reason = parse_decision(answer)
        except ValueError as error:
            asked = {**request, "error": str(error)}
            continue
        if store is not None:
            store.close_conflicts(scope, [conflict.id])
        return decision, reason


KIND_EXPLAINED = {
    "negation": "the new statement denies the old one (A is B / A is not B)",
    "single_value": "the predicate holds one value at a time and the new statement gives another",
    "supersession": "the new statement says the old one no longer holds",
}
OPTION_MEANINGS = {
    "keep_new": "the new fact is current; the old one becomes history (superseded, or rejected if it was denied)",
    "keep_old": "the old fact stays current; the new one is stored as rejected",
    "keep_both": "both stay current (they do not really contradict)",
}


def review_request(conflict: Conflict, plan: EpisodeWrite, position: int = 1, total: int = 1) -> dict[str, Any]:
    """The JSON payload a reviewer sees (Studio, CLI, MCP): the two facts, what each choice does, a suggestion.

    Pure: it runs again when the graph resumes.
    """
    suggestion, why = decide_automatically(conflict)
    return {
        "question": f"Which is true now? old: {conflict.old_fact.sentence()} / new: {conflict.new_fact.sentence()}",
        "conflict_id": conflict.id,
        "position": f"{position} of {total}",
        "kind": conflict.kind,
        "kind_explained": KIND_EXPLAINED.get(conflict.kind, conflict.kind),
        "old": _reviewed_fact(conflict.old_fact),
        "new": _reviewed_fact(conflict.new_fact),
        "episode": {"id": plan.episode.id, "text": plan.episode.text, "speaker": plan.episode.speaker},
        "suggestion": {"decision": suggestion, "reason": why},
        "options": list(OPTION_MEANINGS),
        "option_meanings": OPTION_MEANINGS,
        "resume_with": '"keep_new" | "keep_old" | "keep_both", or {"decision": ..., "reason": ...}',
        "conflict": conflict.model_dump(mode="json"),
    }


def _reviewed_fact(fact: Fact) -> dict[str, Any]:
    learnt = datetime.fromtimestamp(fact.created_at / 1000, UTC).isoformat() if fact.created_at else None
    return {
        "id": fact.id,
        "statement": fact.sentence(),
        "confidence": fact.confidence,
        "authority": fact.authority,
        "valid_from": fact.valid_from,
        "learnt_at": learnt,
        "episode_ids": fact.episode_ids,
    }


def parse_decision(answer: Any) -> tuple[ConflictDecision, str]:
    """Read a reviewer's answer: ``"keep_new"``/``"new"`` or ``{"decision": ..., "reason": ...}``.

    Raises:
        ValueError: If the answer names no known decision.
    """
    reason = ""
    if isinstance(answer, dict):
        reason = str(answer.get("reason") or "")
        answer = answer.get("decision") or answer.get("keep")
    decision = DECISIONS.get(str(answer).strip().lower())
    if decision is None:
        raise ValueError(f"a review decision must be new, old or both (keep_new, keep_old, keep_both), not {answer!r}")
    return decision, reason


def decide_automatically(conflict: Conflict, now: int | None = None) -> tuple[ConflictDecision, str]:
    """Decide by confidence x authority x recency; an explicit change keeps the new fact."""
    if conflict.kind == "supersession":
        return "keep_new", "the new statement says the old one no longer holds"
    now = now or now_ms()
    old, new = _standing(conflict.old_fact, now), _standing(conflict.new_fact, now)
    if new >= old:
        return "keep_new", f"new {new:.2f} >= old {old:.2f} (confidence x authority x recency)"
    return "keep_old", f"old {old:.2f} > new {new:.2f} (confidence x authority x recency)"


def apply_decisions(plan: EpisodeWrite, decided: list[Conflict]) -> EpisodeWrite:
    """Return the plan with retired old facts, rejected new facts and the conflict records."""
    now = plan.episode.learnt_at()  # an imported turn of 2025-06-01 retires the old fact then, not today
    updates: list[FactUpdate] = list(plan.fact_updates)
    rejected: set[str] = set()
    for conflict in decided:
        if conflict.decision == "keep_new" and conflict.kind == "negation":
            # "A 不是 B" without any sign of change corrects the record: A 是 B was wrong.
            updates.append(FactUpdate(fact_id=conflict.old_fact.id, status="rejected", expired_at=now))
        elif conflict.decision == "keep_new":
            valid_to = conflict.new_fact.valid_from or plan.episode.time or _today()
            updates.append(
                FactUpdate(fact_id=conflict.old_fact.id, status="superseded", valid_to=valid_to, expired_at=now)
            )
        elif conflict.decision == "keep_old":
            rejected.add(conflict.new_fact.id)
    facts = [row.model_copy(update={"status": "rejected"}) if row.id in rejected else row for row in plan.facts]
    return plan.model_copy(update={"facts": facts, "fact_updates": updates, "conflicts": decided})


def _decided(conflict: Conflict, decision: ConflictDecision, by: Literal["auto", "human"], reason: str) -> Conflict:
    return conflict.model_copy(
        update={"status": "decided", "decision": decision, "decided_by": by, "reason": reason, "decided_at": now_ms()}
    )


def _standing(fact: Fact, now: int) -> float:
    age_days = max(now - (fact.created_at or now), 0) / 86_400_000
    recency = 0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS)
    authority = fact.authority if fact.authority is not None else DEFAULT_AUTHORITY
    return fact.confidence * authority * recency


def _today() -> str:
    return datetime.now(UTC).date().isoformat()
