"""The multi-hop chain: plan sub-questions, retrieve each in turn, decide what answers it.

Plain functions behind the hop subgraph's nodes (``decompose_question``,
``retrieve_hop``, ``reason_hop``).

- Planning: "Where was the author of Dune born?" becomes "Who is the author of Dune?"
  and "Where was #1 born?". Offline, patterns do this (``language.decompose``: 的-chains,
  "of the", possessives, relative clauses); with a chat model, the model plans the
  chain and the patterns are the fallback for a plan that does not hold together, and
  for a model that fails.
- Retrieval: the next sub-question's slots (``#1``…) are filled with the earlier
  answers, and the entities those answers are become anchors with full weight, so
  "Where was #1 born?" starts from Frank Herbert the entity, not from a fresh name
  lookup. Retrieval itself is the single-hop one (``domain.evidence.gather_evidence``).
- Reasoning: offline, the answer is the entity the hop's evidence points to
  (``domain.answers.rank_answers``: the far end of the best facts, of the type the
  sub-question asks for). With a chat model, the model names the answer and cites the
  facts; a cited id that was not retrieved is dropped, and an answer without a valid
  citation does not count, so a chain never continues from an invented entity. The
  last sub-question needs no entity answer (it may ask for a date, a yes/no, a list):
  its evidence is enough, and the answer is written from it.
"""

from __future__ import annotations

from collections.abc import Sequence

from elephant_broker.domain.answers import is_compatible_type, names_role_attribute, rank_answers
from elephant_broker.domain.evidence import MENTION_LINK_WEIGHT, Evidence, EvidenceLimits, gather_evidence
from elephant_broker.language.decompose import SLOT, decompose, description_of, fill_slots, relation_word
from elephant_broker.language.names import fold_text
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.language.question import analyse_question
from elephant_broker.language.sentences import sentence_of
from elephant_broker.prompts.answerer import DECOMPOSE_SYSTEM, DECOMPOSE_USER, REASON_SYSTEM, REASON_USER
from elephant_broker.providers.chat_models import ModelError, ask_model
from elephant_broker.schemas.context import MAX_HOPS_LIMIT
from elephant_broker.schemas.models import DEFAULT_SPEAKER, Entity, Fact, Hop
from elephant_broker.store import GraphStore
from langchain_core.embeddings import Embeddings
from pydantic import BaseModel, Field


class Decomposition(BaseModel):
    """The chat model's plan for a question."""

    multi_hop: bool = Field(description="Whether the question needs more than one lookup.")
    sub_questions: list[str] = Field(
        default_factory=list, description="Simple sub-questions in order; #1, #2 refer to earlier answers."
    )


class HopAnswer(BaseModel):
    """The chat model's answer to one sub-question."""

    found: bool = Field(description="Whether the facts answer the sub-question.")
    answer: str = Field(default="", description="The answering entity, named as in the facts.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts that say so.")


def plan_chain(question: str, speaker: str, *, llm_spec: str = "", max_hops: int = 3) -> tuple[list[str], list[str]]:
    """Split a question into the sub-questions of a chain.

    Args:
        question: The question as asked.
        speaker: Who asks.
        llm_spec: The chat model as ``provider:model``; empty means the offline patterns.
        max_hops: The hop budget the model is told about.

    Returns:
        The sub-questions (none when the question is one lookup), and notes on a model
        that failed.
    """
    sub_questions: list[str] = []
    notes: list[str] = []
    if llm_spec:
        try:
            plan = plan_with_llm(question, speaker, llm_spec, max_hops)
        except ModelError as error:
            notes.append(f"{error}; the question was split by the offline patterns")
        else:
            if not plan.multi_hop:
                return [], notes
            sub_questions = [part.strip() for part in plan.sub_questions]
            if not is_valid_chain(sub_questions):
                sub_questions = []
    if not sub_questions:
        sub_questions = decompose(question)
    return sub_questions, notes


def plan_with_llm(question: str, speaker: str, llm_spec: str, max_hops: int) -> Decomposition:
    """Ask the chat model for the sub-questions.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    messages = [
        ("system", DECOMPOSE_SYSTEM.format(max_hops=max_hops)),
        ("user", DECOMPOSE_USER.format(question=question, speaker=speaker)),
    ]
    return ask_model(llm_spec, Decomposition, messages)


def is_valid_chain(sub_questions: list[str]) -> bool:
    """Whether a plan can run: two to ``MAX_HOPS_LIMIT`` parts, each slot naming an earlier part."""
    if not 2 <= len(sub_questions) <= MAX_HOPS_LIMIT:
        return False
    for position, part in enumerate(sub_questions, start=1):
        if not part:
            return False
        if any(not 1 <= int(number) < position for number in SLOT.findall(part)):
            return False
    return True


def retrieve_next_hop(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    sub_questions: Sequence[str],
    hops: Sequence[Hop],
    speaker: str,
    limits: EvidenceLimits,
    *,
    as_of: int | None = None,
) -> tuple[Hop, Evidence | None]:
    """Fill the next sub-question from the earlier answers and retrieve its evidence.

    Returns:
        The new hop (not yet answered), and its evidence; no evidence when a slot
        refers to an answer that does not exist (the hop fails, and the chain with it).
    """
    template = sub_questions[len(hops)]
    question = fill_slots(template, [hop.answers[0].name if hop.answers else "" for hop in hops])
    if question is None:
        return Hop(question=template), None
    given: list[Entity] = []
    for number in dict.fromkeys(SLOT.findall(template)):
        given.extend(hops[int(number) - 1].answers[:1])
    analysis = analyse_question(question, speaker)
    evidence = gather_evidence(
        store,
        embeddings,
        scope,
        resolve_first_person(question, speaker),
        analysis,
        limits,
        as_of=as_of,
        given_anchors=given,
    )
    return Hop(question=question, analysis=analysis, anchors=evidence.linked(), facts=evidence.facts), evidence


def settle_hop(hop: Hop, speaker: str, *, final: bool, llm_spec: str = "") -> tuple[Hop, list[str]]:
    """Record what answers a retrieved hop (or that nothing does).

    Args:
        hop: The hop, with its evidence.
        speaker: Who asks.
        final: Whether it is the chain's last sub-question: its evidence is answer enough.
        llm_spec: The chat model as ``provider:model``; empty means offline.

    Returns:
        The hop with its answers, its supporting facts first, and whether it counts as
        answered; and notes on a model that failed.
    """
    notes: list[str] = []
    answers: list[Entity] = []
    support: list[Fact] = []
    reasoned = not hop.facts
    if hop.facts and llm_spec:
        try:
            answers, support = answer_with_llm(hop, llm_spec)
            reasoned = True
        except ModelError as error:
            notes.append(f"{error}; the sub-question was answered offline from the same evidence")
    if not reasoned:
        answers, support = answer_offline(hop, speaker, final=final)
    ordered = support + [fact for fact in hop.facts if fact not in support]
    answered = bool(hop.facts) if final else bool(answers)
    return hop.model_copy(update={"answers": answers, "facts": ordered, "answered": answered}), notes


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
                # 儿子生日 is the son's birthday, said of a parent: no son
                and not names_role_attribute(fold_text(fact.predicate), frozenset({role_text}))
            ]
            if named:
                best = named[0]
                kind = best.object_type or "Concept"
                return [Entity(id=best.object_id or "", name=best.object, type=kind)], [best]
        described = _described_by(description, hop.facts, {entity.id for entity in anchors})
        if described:
            return described
    answer_type = hop.analysis.answer_type if hop.analysis else None
    # As for a final answer: a candidate no fact ties to what the hop names is no answer
    # about it (a neighbour's fact found by similarity alone).
    ranked = [candidate for candidate in rank_answers(hop.facts, anchors, answer_type) if candidate.connected]
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
    facts = "\n".join(f"[{fact.id}] {sentence_of(fact)}" for fact in hop.facts)
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
