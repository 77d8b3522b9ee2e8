"""Truth maintenance: find the stored facts a new episode contradicts, and settle each contradiction.

A conflict is only ever looked for between facts with the same subject and the same
canonical predicate key — never across unrelated facts (the failure mode of systems
that invalidate by similarity). Three kinds:

* ``negation``: A 是 B vs A 不是 B — the same statement with opposite polarity;
* ``single_value``: a predicate that holds one value at a time (lives in, works at,
  CEO of, 总部位于 …; ``language.predicates.SINGLE_VALUED``, and the keys a caller adds
  through ``single_valued``: those a user schema declares ``cardinality = "one"``,
  ``domain.user_schema.single_valued_keys``) gets a new value;
* ``supersession``: either of the above stated as a change ("我不用 Python 了", "I no
  longer…", "moved to", "现在…"), which retires the old fact as past.

Automatic review decides by confidence x source authority x recency, and an explicit
change always retires the old fact; a person decides from :func:`review_request`, and
their answer is read by :func:`parse_decision`. Nothing is deleted: the loser of a
decision stays in the graph as ``superseded`` (it was true, and is history now, with
``valid_to``/``expired_at``) or ``rejected`` (a claim that lost: a new one, or an old
one a plain negation corrected), and the decided conflict is recorded with its
reason (:func:`apply_decisions`). Plain functions; the ``detect_conflicts`` and
``review_conflicts`` nodes call them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from elephant_broker.domain.episodes import fact_of_row, with_doubts
from elephant_broker.language.predicates import is_single_valued
from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.context import DEFAULT_AUTHORITY
from elephant_broker.schemas.ids import stable_id
from elephant_broker.schemas.models import Conflict, ConflictDecision, ConflictKind, EpisodeWrite, Fact, FactUpdate
from elephant_broker.store import GraphStore
from elephant_broker.store.base import entity_id, now_ms
from elephant_broker.store.merges import GENERIC_TYPES

_CHANGE_CUES = re.compile(
    r"不再|再也不|已经不|不.{0,12}了|以前|过去|曾经|现在|如今|目前|改用|换成|换用|转用|转向|搬到|搬去|搬家"
    r"|迁到|迁往|迁至|搬迁|变成|改成|改为|换为|变为|离开|跳槽|离职|辞职|退休|入职"
    r"|no longer|not\b.{0,30}\bany ?more|anymore|stopped|quit|used to|\bnow\b|switched|moved|relocated"
    r"|\bleft\b|\bjoined\b|\bbecame\b|\breplaced\b|\bstart(?:s|ed|ing)? (?:work )?at\b|\bhired\b",
    re.IGNORECASE,
)


def contradictions(store: GraphStore, plan: EpisodeWrite, single_valued: Collection[str] = ()) -> list[Conflict]:
    """Return the conflicts between the plan's facts and the active stored facts of the same subject and predicate.

    ``single_valued``: predicate keys that hold one value at a time besides the lexicon's.
    """
    if not plan.facts:
        return []
    subject_ids = {entity_id(plan.scope, fact.subject_key) for fact in plan.facts}
    stored = store.active_facts_about(plan.scope, subject_ids, {fact.predicate_key for fact in plan.facts})
    return find_conflicts(plan, stored, single_valued)


def find_conflicts(plan: EpisodeWrite, stored: list[Fact], single_valued: Collection[str] = ()) -> list[Conflict]:
    """Return the conflicts between the plan's new facts and the stored facts given.

    Args:
        plan: The episode about to be written.
        stored: Active stored facts (same subjects and predicate keys as the plan's).
        single_valued: Predicate keys that hold one value at a time besides the lexicon's
            (``language.predicates.is_single_valued``): a user schema's one-valued predicates.
    """
    changed = bool(_CHANGE_CUES.search(plan.episode.text))
    conflicts: dict[str, Conflict] = {}

    def _one_value(key: str) -> bool:
        return key in single_valued or is_single_valued(key)

    for row in plan.facts:
        subject = entity_id(plan.scope, row.subject_key)
        obj = entity_id(plan.scope, row.object_key)
        for old in stored:
            if old.id == row.id or old.subject_id != subject or old.predicate_key != row.predicate_key:
                continue
            kind: ConflictKind | None = None
            if old.object_id == obj and old.negated != row.negated:
                kind = "supersession" if changed and row.negated else "negation"
            elif old.object_id != obj and not old.negated and not row.negated and _one_value(row.predicate_key):
                kind = "supersession" if changed else "single_value"
            if kind is None:
                continue
            new = fact_of_row(row, plan)
            conflict_id = stable_id("conflict_", old.id, row.id, length=16)
            conflicts[conflict_id] = Conflict(
                id=conflict_id,
                kind=kind,
                subject=old.subject,
                predicate_key=row.predicate_key,
                old_fact=old,
                new_fact=new,
                created_at=now_ms(),
            )
    return list(conflicts.values())


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
        "question": f"Which is true now? old: {sentence_of(conflict.old_fact)} / new: {sentence_of(conflict.new_fact)}",
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
        "statement": sentence_of(fact),
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


def settle(conflict: Conflict, decision: ConflictDecision, by: Literal["auto", "human"], reason: str) -> Conflict:
    """Return the conflict decided: by whom, how and why, and when."""
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


# -- a batch of episodes ----------------------------------------------------------------------


def settle_batch(
    store: GraphStore, plans: Sequence[EpisodeWrite], single_valued: Collection[str] = ()
) -> list[EpisodeWrite]:
    """Detect and decide (automatic policy) each plan's conflicts, in order, as if the plans before it were written.

    ``single_valued``: predicate keys that hold one value at a time besides the lexicon's
    (:func:`find_conflicts`).

    The store is read once for the whole batch (:class:`FactLedger`); each plan is then
    compared with the active facts as the plans before it leave them (their new
    facts, the facts they retired), decided by :func:`decide_automatically`, and the
    facts concluded from a fact it rejects lose confidence (:func:`with_doubts`). An
    episode that contradicts an earlier one of the same batch is therefore found, and
    decided, exactly as when the episodes are ingested one by one.

    Returns:
        The plans with their decided conflicts and fact updates, in order.
    """
    if not plans:
        return []
    ledger = FactLedger(store, plans)
    settled: list[EpisodeWrite] = []
    for plan in plans:
        decided = [
            settle(conflict, *_automatic(conflict))
            for conflict in find_conflicts(plan, ledger.active_about(plan), single_valued)
        ]
        plan = with_doubts(apply_decisions(plan, decided), lambda ids: ledger.derived_closure(store, ids))
        ledger.apply(plan)
        settled.append(plan)
    return settled


def _automatic(conflict: Conflict) -> tuple[ConflictDecision, Literal["auto"], str]:
    decision, reason = decide_automatically(conflict)
    return decision, "auto", reason


class FactLedger:
    """The active facts of a batch's subjects as the batch is changing them, before anything is written.

    Read once: the stored active facts with the batch's subjects and canonical
    predicates, which of the batch's facts are stored already, and the names and types
    of the batch's entities. :meth:`apply` then records what writing one plan does (as
    ``GraphStore.write_plans`` does it): new facts, a repeated fact's weight, episodes
    and confidence, status changes and confidence factors, new entities and upgraded
    types, so the next plan is compared with what the store would hold by then.
    """

    def __init__(self, store: GraphStore, plans: Sequence[EpisodeWrite]) -> None:
        """Read what the store holds about the plans' facts and entities (three queries)."""
        self.scope = plans[0].scope
        rows = [row for plan in plans for row in plan.facts]
        subjects = {entity_id(self.scope, row.subject_key) for row in rows}
        stored = store.active_facts_about(self.scope, subjects, {row.predicate_key for row in rows})
        self.facts: dict[str, Fact] = {fact.id: fact for fact in stored}
        # Stored but not active: assertions leave them as they are (never active again).
        self.retired = store.stored_fact_ids(self.scope, {row.id for row in rows}) - self.facts.keys()
        known = store.entities_by_keys(self.scope, {row.key for plan in plans for row in plan.entities})
        self.entities: dict[str, tuple[str, str | None]] = {e.id: (e.name, e.type) for e in known.values()}

    def active_about(self, plan: EpisodeWrite) -> list[Fact]:
        """The active facts with a subject and canonical predicate of the plan's facts, as the store returns them."""
        subjects = {entity_id(self.scope, row.subject_key) for row in plan.facts}
        keys = {row.predicate_key for row in plan.facts}
        return [
            self._view(fact)
            for fact in self.facts.values()
            if fact.status == "active" and fact.subject_id in subjects and fact.predicate_key in keys
        ]

    def derived_closure(self, store: GraphStore, fact_ids: list[str], depth: int = 5) -> list[str]:
        """The facts concluded from these, directly or through others: stored ones and the batch's so far."""
        frontier, seen = set(fact_ids), set(fact_ids)
        found: list[str] = []
        for _ in range(depth):
            if not frontier:
                break
            local = {fact.id for fact in self.facts.values() if frontier & set(fact.derived_from)}
            frontier = (set(store.derived_closure(self.scope, frontier, depth=1)) | local) - seen
            seen |= frontier
            found.extend(sorted(frontier))
        return found

    def apply(self, plan: EpisodeWrite) -> None:
        """Record what writing this (reviewed) plan does to the facts and entities."""
        for entity in plan.entities:
            self.entities.setdefault(entity_id(self.scope, entity.key), (entity.name, entity.type))
        for row in plan.facts:
            if row.id in self.retired:
                continue
            fact = self.facts.get(row.id)
            if fact is None:
                self.facts[row.id] = fact_of_row(row, plan).model_copy(
                    update={"weight": 1, "derived_from": list(row.derived_from)}
                )
                continue
            if plan.episode.id not in fact.episode_ids:
                fact.weight += 1
                fact.episode_ids = [*fact.episode_ids, plan.episode.id]
            fact.confidence = max(fact.confidence, row.confidence)
            fact.authority = max(fact.authority if fact.authority is not None else row.authority, row.authority)
        for update in plan.fact_updates:
            fact = self.facts.get(update.fact_id)
            if fact is None:
                continue
            for name in ("status", "valid_to", "expired_at", "authority"):
                if getattr(update, name) is not None:
                    setattr(fact, name, getattr(update, name))
            fact.confidence *= update.confidence_factor or 1.0
        for entity in plan.entities:
            eid = entity_id(self.scope, entity.key)
            name, kind = self.entities[eid]
            if kind in GENERIC_TYPES and entity.type not in GENERIC_TYPES:
                self.entities[eid] = (name, entity.type)

    def _view(self, fact: Fact) -> Fact:
        """The fact with its ends' names and types as they stand now."""
        subject = self.entities.get(fact.subject_id or "")
        obj = self.entities.get(fact.object_id or "")
        update: dict[str, Any] = {}
        if subject is not None:
            update |= {"subject": subject[0], "subject_type": subject[1]}
        if obj is not None:
            update |= {"object": obj[0], "object_type": obj[1]}
        return fact.model_copy(update=update, deep=True)
