"""Multi-hop loop: decide what answers the sub-question just retrieved.

A thin adapter over ``domain.hops.settle_hop``: offline, the entity the hop's evidence
points to; with a chat model, the entity the model names and its cited facts support.
The last sub-question needs no entity answer: its evidence is enough.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.hops import settle_hop
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import HopState
from langgraph.runtime import Runtime


def reason_hop(state: HopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Record the answer of the latest sub-question (or that it has none)."""
    hops = list(state["hops"])
    final = len(hops) == len(state["sub_questions"])
    hops[-1], notes = settle_hop(hops[-1], state["asker"], final=final, llm_spec=deployment(runtime.context).llm)
    update: dict[str, Any] = {"hops": hops}
    if notes:
        update["notes"] = notes
    return update
