"""Every edge function of the broker graphs: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from schemas.state import BrokerState


def route_request(state: BrokerState) -> Literal["ingest", "answer"]:
    """Send a question to the Answerer and anything else to the ingest pipeline."""
    return "answer" if state.get("question") else "ingest"


def route_after_build(state: BrokerState) -> Literal["detect_conflicts", "__end__"]:
    """Check a planned episode for contradictions; stop when it was already stored."""
    return "detect_conflicts" if state.get("plan") is not None else "__end__"


def route_after_detect(state: BrokerState) -> Literal["review_conflicts", "commit_episode"]:
    """Send contradictions to review; commit an episode that contradicts nothing."""
    return "review_conflicts" if state.get("conflicts") else "commit_episode"


def route_after_analyse(
    state: BrokerState,
) -> Literal["decompose_question", "retrieve_evidence"] | list[Literal["retrieve_evidence", "query_graph"]]:
    """Send a question that describes what it asks about into the multi-hop loop.

    A question that counts, lists or filters is also answered by a generated Cypher
    query, in parallel with retrieval (``query_graph`` does nothing without a chat model).
    """
    analysis = state.get("analysis")
    if analysis is not None and analysis.multi_hop:
        return "decompose_question"
    if analysis is not None and analysis.aggregate:
        return ["retrieve_evidence", "query_graph"]
    return "retrieve_evidence"


def route_after_decompose(state: BrokerState) -> Literal["retrieve_hop", "retrieve_evidence"]:
    """Loop over the sub-questions; a question the planner kept whole is retrieved directly."""
    return "retrieve_hop" if state.get("sub_questions") else "retrieve_evidence"


def route_after_reason(state: BrokerState) -> Literal["retrieve_hop", "answer_question", "retrieve_evidence"]:
    """Ask the next sub-question, answer once all are answered, or fall back.

    The loop ends when every sub-question is answered (answer from the chain), or when
    a hop finds no answer or the hop budget is spent: then the whole question is
    retrieved in one go, so a failed decomposition never answers worse than none.
    """
    hops = state.get("hops") or []
    if not hops or not hops[-1].answered:
        return "retrieve_evidence"
    if len(hops) >= len(state.get("sub_questions") or []):
        return "answer_question"
    if len(hops) >= state.get("hop_budget", 0):
        return "retrieve_evidence"
    return "retrieve_hop"
