"""Every edge function of the broker graphs: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from elephant_broker.schemas.state import AnswerState, BrokerState, HopState, IngestState


def route_request(state: BrokerState) -> Literal["ingest", "answer"]:
    """Send a question to the Answerer and anything else to the ingest pipeline."""
    return "answer" if state.get("question") else "ingest"


def route_after_build(state: IngestState) -> Literal["detect_conflicts", "__end__"]:
    """Check a planned episode for contradictions; stop when it needs no writing (it is stored).

    ``read_text`` decides ``needs_writing`` on every run, and ``build_facts`` plans
    exactly those episodes, so the nodes after this edge always find this run's plan.
    """
    return "detect_conflicts" if state["needs_writing"] else "__end__"


def route_after_detect(state: IngestState) -> Literal["review_conflicts", "commit_episode"]:
    """Send contradictions to review; commit an episode that contradicts nothing."""
    return "review_conflicts" if state["conflicts"] else "commit_episode"


def route_after_analyse(
    state: AnswerState,
) -> Literal["multi_hop", "retrieve_evidence"] | list[Literal["retrieve_evidence", "query_graph"]]:
    """Send a question that describes what it asks about into the multi-hop subgraph.

    A question that counts, lists or filters is also answered by a generated Cypher
    query, in parallel with retrieval (``query_graph`` does nothing without a chat model).
    """
    analysis = state.get("analysis")
    if analysis is not None and analysis.multi_hop:
        return "multi_hop"
    if analysis is not None and analysis.aggregate:
        return ["retrieve_evidence", "query_graph"]
    return "retrieve_evidence"


def route_after_decompose(state: HopState) -> Literal["retrieve_hop", "__end__"]:
    """Loop over the sub-questions; leave a question the planner kept whole to the answer graph."""
    return "retrieve_hop" if state["sub_questions"] else "__end__"


def route_after_reason(state: HopState) -> Literal["retrieve_hop", "__end__"]:
    """Ask the next sub-question while the chain holds, sub-questions remain and the budget allows.

    The loop ends when every sub-question is answered, when a hop finds no answer, or
    when the hop budget is spent; ``route_after_multi_hop`` then decides what follows.
    """
    hops = state["hops"]
    if not hops[-1].answered or len(hops) >= len(state["sub_questions"]) or len(hops) >= state["hop_budget"]:
        return "__end__"
    return "retrieve_hop"


def route_after_multi_hop(state: AnswerState) -> Literal["answer_question", "retrieve_evidence"]:
    """Answer from a chain whose every sub-question was answered; otherwise fall back.

    A question the planner kept whole, a hop that found no answer or a spent hop budget
    sends the whole question to retrieval in one go, so a failed decomposition never
    answers worse than none.
    """
    hops = state.get("hops", [])
    if hops and hops[-1].answered and len(hops) >= len(state.get("sub_questions", [])):
        return "answer_question"
    return "retrieve_evidence"
