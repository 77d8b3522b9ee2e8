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


def route_after_analyse(state: BrokerState) -> Literal["retrieve_evidence"]:
    """Go to retrieval; the multi-hop decomposition loop will branch from here."""
    return "retrieve_evidence"
