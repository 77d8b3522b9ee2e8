"""Node ``commit_batch``: write every episode of a batch, with its decisions, in one transaction.

``domain.episodes.commit_plans`` embeds every string of the batch in one call just
before the write (vectors never enter graph state) and writes all the plans at once
(``GraphStore.write_plans``): the batch is written whole or not at all. Each text gets
the counts of its episodes; an entity or fact counts for the first episode holding it.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.episodes import commit_plans
from elephant_broker.providers.audit import audit_api_run
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.models import IngestReport
from elephant_broker.schemas.state import IngestBatchState
from langgraph.runtime import Runtime


def commit_batch(state: IngestBatchState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Write the batch; report per text and in total."""
    context = deployment(runtime.context)
    plans = state["plans"]
    before = [IngestReport(conflicts=len(plan.conflicts)) for plan in plans]
    written = commit_plans(get_store(context), get_embeddings(context), plans, before) if plans else []
    reports = [IngestReport() for _ in state["perceptions"]]
    for position, report in zip(state["positions"], written, strict=True):
        reports[position] = reports[position] + report
    total = sum(reports, IngestReport(notes=list(state.get("notes", []))))
    audit_api_run(runtime.context, context, "remember", state["scope"], ids=total.episode_ids)
    return {"reports": reports, "report": total}
