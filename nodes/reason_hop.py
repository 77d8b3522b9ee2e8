"""Answerer, multi-hop: decide what answers the sub-question just retrieved.

Offline, the answer is the entity the hop's evidence points to (``rank_answers``:
the far end of the best facts, of the type the sub-question asks for). With a chat
model, the model names the answer and cites the facts; a cited id that was not
retrieved is dropped, and an answer without a valid citation does not count, so a
chain never continues from an invented entity. The last sub-question needs no
entity answer (it may ask for a date, a yes/no, a list): its evidence is enough,
and ``answer_question`` writes the answer from it.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from language.decompose import description_of, relation_word
from language.names import fold_text
from language.predicates import predicate_key
from language.pronouns import resolve_first_person
from nodes.answer_question import is_compatible_type, rank_answers
from nodes.retrieve_evidence import MENTION_LINK_WEIGHT
from prompts.answerer import REASON_SYSTEM, REASON_USER
from providers.chat_models import ModelError, ask_model
from schemas.context import RunContext, deployment
from schemas.models import DEFAULT_SPEAKER, Entity, Fact, Hop
from schemas.state import BrokerState


class HopAnswer(BaseModel):
    """The chat model's answer to one sub-question."""

    found: bool = Field(description="Whether the facts answer the sub-question.")
    answer: str = Field(default="", description="The answering entity, named as in the facts.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts that say so.")


def reason_hop(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Record the answer of the latest sub-question (or that it has none)."""
    hops = list(state.get("hops") or [])
    hop = hops[-1]
    last = len(hops) == len(state.get("sub_questions") or [])
    llm = deployment(runtime.context).llm
    notes: list[str] = []
    answers: list[Entity] = []
    support: list[Fact] = []
    reasoned = not hop.facts
    if hop.facts and llm:
        try:
            answers, support = answer_with_llm(hop, llm)
            reasoned = True
        except ModelError as error:
            notes.append(f"{error}; the sub-question was answered offline from the same evidence")
    if not reasoned:
        speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
        answers, support = answer_offline(hop, speaker, final=last)
    ordered = support + [fact for fact in hop.facts if fact not in support]
    answered = bool(hop.facts) if last else bool(answers)
    hops[-1] = hop.model_copy(update={"answers": answers, "facts": ordered, "answered": answered})
    update: dict[str, Any] = {"hops": hops}
    if notes:
        update["notes"] = notes
    return update


def answer_offline(hop: Hop, speaker: str = DEFAULT_SPEAKER, *, final: bool = False) -> tuple[list[Entity], list[Fact]]:
    """Return the best answering entity of a hop and the facts that support it.

    Three readings, in order:
    1. The memory stores the described thing as an entity of its own ("My wife's
       hometown is Savannah" gives the entity ``user's wife``): "Who is my wife?"
       names it, so that entity is the answer, not what its facts point to.
    2. "Who is X's R?" / X的R是谁: a fact from X whose predicate is R (or means R)
       names the answer — in that direction: Grant's advisor is not the student whose
       advisor Grant is.
    3. Otherwise the entity the hop's evidence points to (``rank_answers``).
    """
    anchors = [entity for entity in hop.anchors if (entity.score or 0.0) >= MENTION_LINK_WEIGHT]
    description = description_of(resolve_first_person(hop.question, speaker)) if not final else None
    if description:
        wanted = {fold_text(description), fold_text(description.replace("的", ""))}
        for entity in hop.anchors:  # a name equal to the description is strong evidence at any link weight
            if fold_text(entity.name) in wanted:
                support = [fact for fact in hop.facts if entity.id in (fact.subject_id, fact.object_id)]
                return [entity], support[:1]
        role = relation_word(description)
        if role:
            role_key, role_text = predicate_key(role), fold_text(role)
            owners = {entity.id for entity in anchors}
            named = [
                fact
                for fact in hop.facts
                if fact.subject_id in owners
                and fact.object_id
                and not fact.negated
                and (fact.predicate_key == role_key or role_text in fold_text(fact.predicate))
            ]
            if named:
                best = named[0]
                kind = best.object_type or "Concept"
                return [Entity(id=best.object_id or "", name=best.object, type=kind)], [best]
        described = _described_by(description, hop.facts, {entity.id for entity in anchors})
        if described:
            return described
    answer_type = hop.analysis.answer_type if hop.analysis else None
    ranked = rank_answers(hop.facts, anchors, answer_type)
    if not ranked or not is_compatible_type(ranked[0].kind, answer_type):
        return [], []
    best_candidate = ranked[0]
    entity = Entity(
        id=best_candidate.entity_id,
        name=best_candidate.name,
        type=best_candidate.kind or "Concept",
        score=best_candidate.score,
    )
    return [entity], best_candidate.support


GENERIC_PREDICATES = frozenset({"is_a", "has_part"})
"""Relations too common to identify anything (是, 有, 包含, is, has)."""


def _described_by(description: str, facts: list[Fact], anchor_ids: set[str]) -> tuple[list[Entity], list[Fact]] | None:
    """Read a relative-clause description: "the person who founded Acme", 生产无人机的公司.

    A fact that touches a named entity by a relation the description states (founded,
    生产) has the described thing at its other end.
    """
    text = fold_text(description)
    for fact in facts:
        if fact.negated or fact.predicate_key in GENERIC_PREDICATES or len(fold_text(fact.predicate)) < 2:
            continue
        if fold_text(fact.predicate) not in text:
            continue
        if fact.object_id in anchor_ids and fact.subject_id and fact.subject_id not in anchor_ids:
            return [Entity(id=fact.subject_id, name=fact.subject, type=fact.subject_type or "Concept")], [fact]
        if fact.subject_id in anchor_ids and fact.object_id and fact.object_id not in anchor_ids:
            return [Entity(id=fact.object_id, name=fact.object, type=fact.object_type or "Concept")], [fact]
    return None


def answer_with_llm(hop: Hop, llm_spec: str) -> tuple[list[Entity], list[Fact]]:
    """Ask the chat model which entity answers the hop; keep only what the cited facts name.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    facts = "\n".join(f"[{fact.id}] {fact.sentence()}" for fact in hop.facts)
    messages = [("system", REASON_SYSTEM), ("user", REASON_USER.format(question=hop.question, facts=facts))]
    reply = ask_model(llm_spec, HopAnswer, messages)
    by_id = {fact.id: fact for fact in hop.facts}
    cited = [by_id[fact_id] for fact_id in dict.fromkeys(reply.fact_ids) if fact_id in by_id]
    if not reply.found or not cited or not reply.answer.strip():
        return [], []
    wanted = fold_text(reply.answer)
    for fact in cited:
        for end_id, name, kind in (
            (fact.subject_id, fact.subject, fact.subject_type),
            (fact.object_id, fact.object, fact.object_type),
        ):
            if end_id and fold_text(name) == wanted:
                return [Entity(id=end_id, name=name, type=kind or "Concept")], cited
    # The model named something its cited facts do not contain: not an answer.
    return [], []
