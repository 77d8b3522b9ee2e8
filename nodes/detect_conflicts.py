"""Builder, truth maintenance: find stored facts the new episode contradicts.

A conflict is only ever looked for between facts with the same subject and the same
canonical predicate key — never across unrelated facts (the failure mode of systems
that invalidate by similarity). Three kinds:

* ``negation``: A 是 B vs A 不是 B — the same statement with opposite polarity;
* ``single_value``: a predicate that holds one value at a time (lives in, works at,
  CEO of, 总部位于 …; ``language.predicates.SINGLE_VALUED``) gets a new value;
* ``supersession``: either of the above stated as a change ("我不用 Python 了", "I no
  longer…", "moved to", "现在…"), which retires the old fact as past.

Nothing is decided here; ``review_conflicts`` decides by policy.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from domain.episodes import fact_of_row
from language.predicates import is_single_valued
from providers.resources import get_store
from schemas.context import RunContext, deployment
from schemas.ids import stable_id
from schemas.models import Conflict, ConflictKind, EpisodeWrite, Fact
from schemas.state import BrokerState
from store.base import entity_id, now_ms

_CHANGE_CUES = re.compile(
    r"不再|再也不|已经不|不.{0,12}了|以前|过去|曾经|现在|如今|目前|改用|换成|换用|转用|转向|搬到|搬去|搬家"
    r"|迁到|迁往|迁至|搬迁|变成|改成|改为|换为|变为|离开|跳槽"
    r"|no longer|not\b.{0,30}\bany ?more|anymore|stopped|quit|used to|\bnow\b|switched|moved|relocated"
    r"|\bleft\b|\bjoined\b|\bbecame\b|\breplaced\b",
    re.IGNORECASE,
)


def detect_conflicts(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Compare the planned facts with active stored facts of the same subject and predicate."""
    plan = state.get("plan")
    if plan is None or not plan.facts:
        return {"conflicts": []}
    store = get_store(deployment(runtime.context))
    subject_ids = {entity_id(plan.scope, fact.subject_key) for fact in plan.facts}
    stored = store.active_facts_about(plan.scope, subject_ids, {fact.predicate_key for fact in plan.facts})
    conflicts = find_conflicts(plan, stored)
    report = state.get("report")
    update: dict[str, Any] = {"conflicts": conflicts}
    if report is not None:
        update["report"] = report.model_copy(update={"conflicts": len(conflicts)})
    return update


def find_conflicts(plan: EpisodeWrite, stored: list[Fact]) -> list[Conflict]:
    """Return the conflicts between the plan's new facts and the stored facts given.

    Args:
        plan: The episode about to be written.
        stored: Active stored facts (same subjects and predicate keys as the plan's).
    """
    changed = bool(_CHANGE_CUES.search(plan.episode.text))
    conflicts: dict[str, Conflict] = {}
    for row in plan.facts:
        subject = entity_id(plan.scope, row.subject_key)
        obj = entity_id(plan.scope, row.object_key)
        for old in stored:
            if old.id == row.id or old.subject_id != subject or old.predicate_key != row.predicate_key:
                continue
            kind: ConflictKind | None = None
            if old.object_id == obj and old.negated != row.negated:
                kind = "supersession" if changed and row.negated else "negation"
            elif old.object_id != obj and not old.negated and not row.negated and is_single_valued(row.predicate_key):
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
