"""Node ``settle_batch``: find and decide each episode's contradictions, in order (automatic policy).

``domain.truth.settle_batch`` compares each planned episode with the active facts as
the episodes before it in the batch leave them, so an episode that contradicts an
earlier one of the same batch is found and decided as if they were ingested one by
one; the decisions are folded into the plans, written by ``commit_batch``.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.truth import settle_batch as settle_plans
from elephant_broker.domain.user_schema import single_valued_keys
from elephant_broker.providers.resources import get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestBatchState
from langgraph.runtime import Runtime


def settle_batch(state: IngestBatchState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Detect and decide every episode's conflicts; return the reviewed plans and the decided conflicts."""
    context = deployment(runtime.context)
    plans = settle_plans(get_store(context), state["plans"], single_valued_keys(context))
    return {"plans": plans, "conflicts": [conflict for plan in plans for conflict in plan.conflicts]}
