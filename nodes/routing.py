"""Every edge function of the broker graphs: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from schemas.state import BrokerState


def route_request(state: BrokerState) -> Literal["ingest", "answer"]:
    """Send a question to the Answerer and anything else to the ingest pipeline."""
    return "answer" if state.get("question") else "ingest"


def route_after_build(state: BrokerState) -> Literal["commit_episode", "__end__"]:
    """Commit a planned episode; stop when it was already stored (nothing to write).

    The review node for conflicting facts will be routed to from here.
    """
    return "commit_episode" if state.get("plan") is not None else "__end__"


def route_after_analyse(state: BrokerState) -> Literal["retrieve_evidence"]:
    """Go to retrieval; the multi-hop decomposition loop will branch from here."""
    return "retrieve_evidence"
