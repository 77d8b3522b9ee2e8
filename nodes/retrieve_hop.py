"""Multi-hop loop: retrieve the evidence for the next sub-question of the chain.

A thin adapter over ``domain.hops.retrieve_next_hop``: the sub-question's slots are
filled with the earlier answers, which become anchors, and retrieval is the single-hop
one. The evidence found joins the answer's ``found_facts`` and ``episode_rankings``.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.evidence import EvidenceLimits
from elephant_broker.domain.hops import retrieve_next_hop
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import HopState
from langgraph.runtime import Runtime


def retrieve_hop(state: HopState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Fill the next sub-question from the earlier answers and retrieve its evidence."""
    context = deployment(runtime.context)
    hops = state["hops"]
    hop, evidence = retrieve_next_hop(
        get_store(context),
        get_embeddings(context),
        state["scope"],
        state["sub_questions"],
        hops,
        state["asker"],
        EvidenceLimits.of(context),
        as_of=state.get("as_of_ms"),
    )
    if evidence is None:
        # A slot refers to an answer that does not exist: the hop fails, the router ends the loop.
        return {"hops": [*hops, hop]}
    return {"hops": [*hops, hop], "found_facts": evidence.facts, "episode_rankings": [evidence.episodes]}
