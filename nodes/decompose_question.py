"""Multi-hop loop, first step: split a question that describes what it asks about into a chain.

A thin adapter over ``domain.hops.plan_chain`` (offline patterns, or the chat model
with the patterns as its fallback). The hop budget (``max_hops``) is fixed here, so
the loop's routers stay pure functions of the state.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.hops import plan_chain
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import HopState
from langgraph.runtime import Runtime


def decompose_question(state: HopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Plan the sub-questions of a multi-hop question and fix the hop budget."""
    context = deployment(runtime.context)
    sub_questions, notes = plan_chain(
        state["question"], state["asker"], llm_spec=context.llm, max_hops=context.max_hops
    )
    update: dict[str, Any] = {"sub_questions": sub_questions, "hop_budget": context.max_hops, "hops": []}
    if notes:
        update["notes"] = notes
    return update
