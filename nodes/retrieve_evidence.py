"""Answerer, stage two: find the facts and episodes the whole question rests on.

A thin adapter over ``domain.evidence.gather_evidence``: it links the question to
entities, walks the graph from them, keeps the best facts with their connecting
links, ranks the episodes, and reads what used to be true about the facts kept.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.evidence import EvidenceLimits, gather_evidence
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import AnswerState
from langgraph.runtime import Runtime


def retrieve_evidence(state: AnswerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Collect and rank the facts (and their episodes) that answer the question."""
    context = deployment(runtime.context)
    evidence = gather_evidence(
        get_store(context),
        get_embeddings(context),
        state["scope"],
        state["resolved_question"],
        state["analysis"],
        EvidenceLimits.of(context),
        as_of=state.get("as_of_ms"),
        with_history=True,
    )
    return {
        "anchors": evidence.linked(),
        "found_facts": evidence.facts,
        "episode_rankings": [evidence.episodes],
        "superseded": evidence.history,
    }
