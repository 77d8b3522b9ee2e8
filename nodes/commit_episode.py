"""Commit: write the planned episode in one transaction."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from broker.resources import get_store
from schemas.context import Context
from schemas.state import BrokerState


def commit_episode(state: BrokerState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Write the episode, its entities, mentions and facts atomically."""
    plan = state.get("plan")
    if plan is not None:
        get_store(runtime.context).write_episode(plan)
    # The plan carries every embedding; drop it so checkpoints stay small.
    return {"plan": None}
