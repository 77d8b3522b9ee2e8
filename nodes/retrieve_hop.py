"""Answerer, multi-hop: retrieve the evidence for the next sub-question of the chain.

The sub-question's slots (``#1``…) are filled with the earlier answers, and the
entities those answers are become anchors with full weight, so "Where was #1 born?"
starts from Frank Herbert the entity, not from a fresh name lookup. Retrieval itself
is the single-hop one (``gather_evidence``): relation words in the sub-question are
matched to stored predicates by lexicon key and by embedding similarity.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from language.decompose import SLOT, fill_slots
from language.question import analyse_question
from nodes.retrieve_evidence import gather_evidence
from providers.resources import request_scope
from schemas.context import RunContext, deployment
from schemas.models import DEFAULT_SPEAKER, Entity, Hop, parse_instant
from schemas.state import BrokerState


def retrieve_hop(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Fill the next sub-question from the earlier answers and retrieve its evidence."""
    hops = list(state.get("hops") or [])
    template = state["sub_questions"][len(hops)]
    question = fill_slots(template, [hop.answers[0].name if hop.answers else "" for hop in hops])
    if question is None:
        # A slot refers to an answer that does not exist: the hop fails, the router falls back.
        return {"hops": [*hops, Hop(question=template)]}
    given: list[Entity] = []
    for number in dict.fromkeys(SLOT.findall(template)):
        given.extend(hops[int(number) - 1].answers[:1])
    speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
    analysis = analyse_question(question, speaker)
    as_of_text = state.get("as_of")
    evidence = gather_evidence(
        deployment(runtime.context),
        request_scope(state.get("agent_id"), deployment(runtime.context)),
        question,
        analysis,
        speaker,
        as_of=parse_instant(as_of_text) if as_of_text else None,
        given_anchors=given,
    )
    anchors = [entity.model_copy(update={"score": weight}) for entity, weight in evidence.anchors.values()]
    hop = Hop(question=question, analysis=analysis, anchors=anchors, facts=evidence.facts)
    return {"hops": [*hops, hop], "facts": evidence.facts, "episodes": evidence.episodes}
