"""Answerer, stage three: write the answer from the evidence, and cite it.

Offline, the answer is composed from the graph: the entities the evidence points to
(not the ones the question already names) are ranked by the scores of the facts that
reach them, by how many of the question's anchors they connect to, and by whether
they have the type the question asks for; the supporting facts are quoted as the
reason. With a chat model, the model writes the answer from the same evidence and
must cite fact ids; citations to ids that were not retrieved are dropped.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from broker.models import load_chat_model
from language.names import is_mentioned
from language.pronouns import resolve_first_person
from nodes.retrieve_evidence import MENTION_LINK_WEIGHT
from prompts.answerer import ANSWER_SYSTEM, ANSWER_USER
from schemas.context import Context
from schemas.models import DEFAULT_SPEAKER, Entity, Episode, Fact, QuestionAnalysis
from schemas.state import BrokerState

MAX_REASONS = 4


@dataclass
class Candidate:
    """An entity the evidence points to, as a possible answer."""

    name: str
    kind: str | None
    score: float
    support: list[Fact]


class CitedAnswer(BaseModel):
    """The LLM's structured answer."""

    answer: str = Field(description="The answer, in the question's language.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts the answer uses.")


def answer_question(state: BrokerState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Write the answer (composed offline, or by the configured chat model)."""
    analysis: QuestionAnalysis = state["analysis"]
    facts = list(state.get("facts") or [])
    episodes = list(state.get("episodes") or [])
    linked = list(state.get("anchors") or [])
    # Only names the question really contains are given; entities reached by a fuzzy
    # link (公司 ~ 阿里巴巴) may well be the answer itself.
    anchors = [entity for entity in linked if (entity.score or 0.0) >= MENTION_LINK_WEIGHT]
    if runtime.context.llm and (facts or episodes):
        cited = write_with_llm(state, facts, episodes, runtime.context.llm)
        kept = [fact for fact in facts if fact.id in set(cited.fact_ids)] or facts
        return {"answer": cited.answer, "facts": kept}
    question = resolve_first_person(state["question"], (state.get("speaker") or "").strip() or DEFAULT_SPEAKER)
    answer = compose_answer(analysis, anchors, facts, episodes, question, linked)
    history = list(state.get("history") or [])
    if history and facts:
        answer += _history_note(history, analysis.language == "zh")
    return {"answer": answer, "history": history}


def write_with_llm(state: BrokerState, facts: list[Fact], episodes: list[Episode], llm_spec: str) -> CitedAnswer:
    """Ask the chat model to answer from the evidence, citing fact ids."""
    model = load_chat_model(llm_spec).with_structured_output(CitedAnswer)
    prompt = ANSWER_USER.format(
        question=state["question"],
        speaker=state.get("speaker") or DEFAULT_SPEAKER,
        facts="\n".join(f"[{fact.id}] {fact.sentence()}" for fact in facts) or "(none)",
        episodes="\n".join(f"[{ep.id}] {ep.speaker}: {ep.text}" for ep in episodes) or "(none)",
    )
    result = model.invoke([("system", ANSWER_SYSTEM), ("user", prompt)])
    return result if isinstance(result, CitedAnswer) else CitedAnswer.model_validate(result)


def rank_answers(facts: list[Fact], anchors: list[Entity], answer_type: str | None) -> list[Candidate]:
    """Rank the entities the evidence points to, best first.

    A fact credits its *far* end (the one further from the question's anchors), so
    an intermediate entity (the colleague) does not outrank the place the question
    asks for (where the colleague lives). Entities of the asked-for type are
    preferred, entities of another known type are held back. A negated fact
    (小周不吃辣) counts against its far end, so it never makes it an answer.
    """
    anchor_ids = {entity.id for entity in anchors}
    neighbours: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        if fact.subject_id and fact.object_id:
            neighbours[fact.subject_id].add(fact.object_id)
            neighbours[fact.object_id].add(fact.subject_id)
    distance = _distances(anchor_ids, neighbours)

    def anchors_within_two(entity_id: str) -> set[str]:
        near = neighbours[entity_id] | {far for mid in neighbours[entity_id] for far in neighbours[mid]}
        return near & anchor_ids

    totals: dict[str, float] = defaultdict(float)
    touching: dict[str, list[Fact]] = defaultdict(list)
    names: dict[str, tuple[str, str | None]] = {}
    for fact in facts:
        ends = [
            (end, name, kind)
            for end, name, kind in (
                (fact.subject_id, fact.subject, fact.subject_type),
                (fact.object_id, fact.object, fact.object_type),
            )
            if end
        ]
        farthest = max((distance.get(end, 99) for end, _, _ in ends), default=0)
        for end, name, kind in ends:
            if end in anchor_ids:
                continue
            names[end] = (name, kind)
            touching[end].append(fact)
            if distance.get(end, 99) == farthest:
                # A negated fact (小李不用 Python) counts against its far end.
                totals[end] += -(fact.score or 0.0) if fact.negated else fact.score or 0.0
    ranked = []
    for end, total in totals.items():
        if total <= 0.0:
            continue
        name, kind = names[end]
        connected = max(len(anchors_within_two(end)), 1)
        support = _path_facts(end, facts, anchor_ids) or touching[end]
        score = total * (1.0 + 0.5 * (connected - 1)) * _type_factor(kind, answer_type)
        ranked.append(Candidate(name, kind, score, support))
    ranked.sort(key=lambda candidate: candidate.score, reverse=True)
    return ranked


def _type_factor(kind: str | None, answer_type: str | None) -> float:
    if not answer_type or not kind or kind == "Concept":
        return 1.0
    return 1.3 if kind == answer_type else 0.5


def _distances(sources: set[str], neighbours: dict[str, set[str]]) -> dict[str, int]:
    distance = dict.fromkeys(sources, 0)
    frontier = list(sources)
    while frontier:
        following = []
        for node in frontier:
            for other in neighbours[node]:
                if other not in distance:
                    distance[other] = distance[node] + 1
                    following.append(other)
        frontier = following
    return distance


def _path_facts(entity_id: str, facts: list[Fact], anchor_ids: set[str]) -> list[Fact]:
    """Return the facts on paths of one or two steps between an entity and the anchors."""

    def ends(fact: Fact) -> set[str]:
        return {end for end in (fact.subject_id, fact.object_id) if end}

    direct = [fact for fact in facts if entity_id in ends(fact) and ends(fact) & anchor_ids]
    via: list[Fact] = []
    for first in facts:
        if entity_id not in ends(first) or first in direct:
            continue
        middle = ends(first) - {entity_id} - anchor_ids
        links = [fact for fact in facts if middle & ends(fact) and ends(fact) & anchor_ids and fact is not first]
        if links:
            via.extend([first, *(link for link in links if link not in via)])
    return direct + [fact for fact in via if fact not in direct]


def compose_answer(
    analysis: QuestionAnalysis,
    anchors: list[Entity],
    facts: list[Fact],
    episodes: list[Episode],
    question: str = "",
    linked: list[Entity] | None = None,
) -> str:
    """Compose an answer from the evidence without a model, in the question's language.

    Args:
        analysis: The question's analysis.
        anchors: Entities the question names (they are not answers).
        facts: The evidence, best first.
        episodes: Episodes of the evidence, or similar episodes when there is none.
        question: The question with first person resolved to the speaker.
        linked: Every entity the question was linked to, fuzzy links included.
    """
    chinese = analysis.language == "zh"
    if not facts:
        if episodes:
            quoted = episodes[0].text.strip()
            return (
                f"记忆中没有直接的事实，最相关的记录是：「{quoted}」（{episodes[0].speaker}）"
                if chinese
                else f'No stored fact answers this directly; the closest memory is: "{quoted}" ({episodes[0].speaker}).'
            )
        return "记忆中没有与这个问题相关的信息。" if chinese else "I have nothing in memory about that."
    if analysis.intent == "yes_no":
        linked_ids = {entity.id for entity in linked or anchors}
        return _answer_yes_no(question, facts, linked_ids, chinese)
    if analysis.answer_type == "Time":
        timed = [fact for fact in facts if fact.valid_from]
        if timed:
            return _with_reasons(timed[0].valid_from or "", timed[:1], chinese)

    ranked = rank_answers(facts, anchors, analysis.answer_type)
    if not ranked or not _compatible(ranked[0].kind, analysis.answer_type):
        # The evidence is about the right things but names nothing of the kind asked
        # for (a city when an employer is asked): say so, and show what is known.
        reasons = _join([fact.sentence() for fact in facts[:MAX_REASONS]], chinese)
        return (
            f"记忆中没有直接回答这个问题的事实。相关的记忆：{reasons}。"
            if chinese
            else f"Nothing in memory answers this directly. Related: {reasons}."
        )
    best = ranked[0]
    limit = 5 if analysis.intent == "list" else 3
    # Several answers only when they are parallel: reached through the same relation
    # as the best one (会说日语 and 会说韩语), not merely scored close to it.
    relation = {fact.predicate_key for fact in best.support[:1]}
    answers = [best] + [
        candidate
        for candidate in ranked[1:limit]
        if candidate.score >= best.score * 0.6 and relation & {fact.predicate_key for fact in candidate.support[:1]}
    ]
    if analysis.intent == "recommend":
        answers = answers[:1]
    supporting: list[Fact] = []
    for candidate in answers:
        supporting.extend(fact for fact in candidate.support if fact not in supporting)
    names = ("、" if chinese else ", ").join(candidate.name for candidate in answers)
    if analysis.intent == "recommend":
        reasons = _join([fact.sentence() for fact in supporting[:MAX_REASONS]], chinese)
        return f"建议用 {names}。依据：{reasons}。" if chinese else f"Use {names}. Based on memory: {reasons}."
    return _with_reasons(names, supporting, chinese)


def _answer_yes_no(question: str, facts: list[Fact], linked_ids: set[str], chinese: bool) -> str:
    """Answer yes or no from a fact whose object the question names, minding negation.

    Only the object decides: "小周能吃辣吗" is settled by 小周 (不)吃 辣, while a fact
    that merely shares the subject (小周吃面) settles nothing. The object counts as
    named when it is written in the question or was linked to it (番茄 ~ 西红柿).
    """
    for fact in facts:
        if is_mentioned(fact.object, question) or (fact.object_id in linked_ids and fact.subject_id in linked_ids):
            if fact.negated:
                return _with_reasons("不" if chinese else "No", [fact], chinese)
            return _with_reasons("是的" if chinese else "Yes", [fact], chinese)
    reasons = _join([fact.sentence() for fact in facts[:MAX_REASONS]], chinese)
    return (
        f"记忆中没有能确认这一点的事实。相关的记忆：{reasons}。"
        if chinese
        else f"Memory does not say. Related: {reasons}."
    )


def _with_reasons(answer: str, facts: list[Fact], chinese: bool) -> str:
    reasons = _join([fact.sentence() for fact in facts[:MAX_REASONS]], chinese)
    return f"{answer}。依据：{reasons}。" if chinese else f"{answer}. Based on memory: {reasons}."


# Types a question and an answer may disagree on without the answer being wrong
# (where do I work? -> a city or a company; what do I use? -> a tool or a language).
_COMPATIBLE_TYPES: tuple[frozenset[str], ...] = (
    frozenset({"Place", "Organization"}),
    frozenset({"Tool", "Language", "Thing", "Organization"}),
    frozenset({"Food", "Thing"}),
    frozenset({"Activity", "Event"}),
    frozenset({"Person", "Organization"}),
)


def _compatible(kind: str | None, answer_type: str | None) -> bool:
    if not answer_type or not kind or kind in ("Concept", answer_type):
        return True
    return any(kind in group and answer_type in group for group in _COMPATIBLE_TYPES)


def _history_note(history: list[Fact], chinese: bool) -> str:
    """Say what used to be true: "（以前：小李用 Python）" / " (Previously: ...)"."""
    past = _join([fact.sentence() for fact in history[:MAX_REASONS]], chinese)
    return f"（以前：{past}）" if chinese else f" (Previously: {past}.)"


def _join(sentences: list[str], chinese: bool) -> str:
    return ("；" if chinese else "; ").join(sentences)
