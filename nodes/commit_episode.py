"""Commit: write the planned episode, its decisions and their consequences in one transaction."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from broker.resources import get_store
from schemas.context import Context
from schemas.models import FactUpdate
from schemas.state import BrokerState

REJECTION_FACTOR = 0.5
"""Confidence multiplier for facts concluded (``derived_from``) from a rejected fact."""


def commit_episode(state: BrokerState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Write the episode, its entities, mentions, facts and review decisions atomically."""
    plan = state.get("plan")
    if plan is not None:
        store = get_store(runtime.context)
        rejected = [update.fact_id for update in plan.fact_updates if update.status == "rejected"]
        if rejected:
            # What was concluded from a fact that turned out wrong is less certain too.
            doubted = [
                FactUpdate(fact_id=fact_id, confidence_factor=REJECTION_FACTOR)
                for fact_id in store.derived_closure(plan.scope, rejected)
            ]
            plan = plan.model_copy(update={"fact_updates": [*plan.fact_updates, *doubted]})
        store.write_episode(plan)
    # The plan carries every embedding; drop it so checkpoints stay small.
    return {"plan": None}
