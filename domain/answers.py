"""Answers: write the answer from the evidence, and cite it.

Plain functions over the evidence the answer graph gathered (facts, episodes, the hops
of a multi-hop question, the rows of a generated query); ``answer_question`` calls
``write_answer``, and ``domain.hops`` ranks a hop's answers with ``rank_answers``.

Offline, the answer is composed from the graph: the entities the evidence points to
(not the ones the question already names) are ranked by the scores of the facts that
reach them, by how many of the question's anchors they connect to, and by whether
they have the type the question asks for; the supporting facts are quoted as the
reason. With a chat model, the model writes the answer from the same evidence and
must cite fact ids; citations to ids that were not retrieved are dropped. A model that
fails gives way to the offline composer, and the answer's notes say so.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from elephant_broker.domain.evidence import MENTION_LINK_WEIGHT, affirmed_relations, asked_relations
from elephant_broker.domain.retrieval import ANSWER, reciprocal_rank_fusion
from elephant_broker.language.names import is_mentioned
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.language.sentences import sentence_of
from elephant_broker.prompts.answerer import ANSWER_SYSTEM, ANSWER_USER
from elephant_broker.providers.chat_models import ModelError, ask_model
from elephant_broker.schemas.models import Entity, Episode, Fact, Hop, QuestionAnalysis
from pydantic import BaseModel, Field

MAX_REASONS = 4
NOT_IN_MEMORY_EN = "Not in memory: nothing stored answers this."
NOT_IN_MEMORY_ZH = "记忆中没有能回答这个问题的信息。"


@dataclass
class AnswerCandidate:
    """An entity the evidence points to, as a possible answer."""

    entity_id: str
    name: str
    kind: str | None
    score: float
    support: list[Fact]


class CitedAnswer(BaseModel):
    """The LLM's structured answer."""

    answer: str = Field(description="The answer, in the question's language.")
    in_memory: bool = Field(default=True, description="False when the evidence does not answer the question.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts the answer uses.")
    episode_ids: list[str] = Field(default_factory=list, description="Ids of the episodes the answer uses.")


def _named(linked: list[Entity]) -> list[Entity]:
    # Only names the question really contains are given; entities reached by a fuzzy
    # link (公司 ~ 阿里巴巴) may well be the answer itself.
    return [entity for entity in linked if (entity.score or 0.0) >= MENTION_LINK_WEIGHT]


def _unique(facts: list[Fact]) -> list[Fact]:
    return list({fact.id: fact for fact in reversed(facts)}.values())[::-1]


@dataclass
class Reply:
    """An answer and exactly the evidence it cites."""

    answer: str
    facts: list[Fact]
    episodes: list[Episode]
    notes: list[str] = field(default_factory=list)
    """What went differently (a chat model that failed, and the fallback used)."""


def is_answered_chain(hops: Sequence[Hop], sub_questions: Sequence[str]) -> bool:
    """Whether a multi-hop question was answered hop by hop, every sub-question in turn."""
    return bool(hops) and len(hops) == len(sub_questions) and all(hop.answered for hop in hops)


def write_answer(
    question: str,
    resolved_question: str,
    speaker: str,
    analysis: QuestionAnalysis,
    anchors: Sequence[Entity],
    facts: Sequence[Fact],
    episode_rankings: Sequence[Sequence[Episode]],
    *,
    hops: Sequence[Hop] = (),
    sub_questions: Sequence[str] = (),
    history: Sequence[Fact] = (),
    query_rows: Sequence[dict[str, Any]] = (),
    llm_spec: str = "",
) -> Reply:
    """Write the answer (composed offline, or by the chat model ``llm_spec`` names).

    Args:
        question: The question as asked.
        resolved_question: The question with first person resolved to the speaker.
        speaker: Who asks.
        analysis: The question's analysis.
        anchors: The entities the whole question was linked to, with link weights as scores.
        facts: The evidence, best first.
        episode_rankings: One ranking of episodes per retrieval (the whole question, each
            hop), best first; they are fused by reciprocal rank and the top
            ``ANSWER.limit`` are cited, as one retrieval's would be.
        hops: The sub-questions asked so far, in order (multi-hop questions).
        sub_questions: The planned chain; answered hop by hop, its path leads the evidence.
        history: Superseded facts about the evidence; the offline answer mentions them.
        query_rows: Rows of a generated Cypher query, if one ran.
        llm_spec: The chat model as ``provider:model``; empty means offline.
    """
    facts = list(facts)
    episodes = cited_episodes(episode_rankings)
    chain = is_answered_chain(hops, sub_questions)
    path: list[Fact] = []
    if chain:
        # The path first: each hop's supporting fact, then the last hop's evidence.
        path = _unique([hop.facts[0] for hop in hops[:-1] if hop.facts])
        facts = _unique([*path, *hops[-1].facts, *facts])
    notes: list[str] = []
    if llm_spec and (facts or episodes or query_rows):
        try:
            return cite(question, speaker, analysis, facts, episodes, hops, query_rows, llm_spec)
        except ModelError as error:
            # The evidence is here: compose the answer offline rather than fail the question.
            notes.append(f"{error}; the answer was composed offline from the same evidence")
    if chain:
        final = hops[-1]
        analysis = final.analysis or analysis
        linked = list(final.anchors)
        asked = resolve_first_person(final.question, speaker)
        answer = compose_answer(analysis, _named(linked), final.facts, episodes, asked, linked, path=path)
    else:
        linked = list(anchors)
        answer = compose_answer(analysis, _named(linked), facts, episodes, resolved_question, linked)
    if history and facts:
        answer += _history_note(list(history), analysis.language == "zh")
    return Reply(answer, facts, episodes, notes)


def cited_episodes(rankings: Sequence[Sequence[Episode]]) -> list[Episode]:
    """Fuse the episode rankings of a question's retrievals into the episodes an answer cites.

    One ranking comes back in its own order (reciprocal rank keeps the order of a single list).
    """
    return reciprocal_rank_fusion(rankings, ANSWER.rrf_k)[: ANSWER.limit]


def cite(
    question: str,
    speaker: str,
    analysis: QuestionAnalysis,
    facts: list[Fact],
    episodes: list[Episode],
    hops: Sequence[Hop],
    query_rows: Sequence[dict[str, Any]],
    llm_spec: str,
) -> Reply:
    """Answer with the chat model and keep exactly the evidence it cites.

    Citations are checked against what was retrieved: unknown ids are dropped, and an
    answer that cites nothing retrieved (or says the memory does not answer) becomes
    the plain "not in memory" answer, with no evidence claimed.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    cited = write_with_llm(question, speaker, facts, episodes, hops, query_rows, llm_spec)
    fact_ids = set(cited.fact_ids)
    kept_facts = [fact for fact in facts if fact.id in fact_ids]
    episode_ids = set(cited.episode_ids) | {eid for fact in kept_facts for eid in fact.episode_ids}
    kept_episodes = [episode for episode in episodes if episode.id in episode_ids]
    if not cited.in_memory or not (kept_facts or kept_episodes or query_rows):
        return Reply(NOT_IN_MEMORY_ZH if analysis.language == "zh" else NOT_IN_MEMORY_EN, [], [])
    return Reply(cited.answer, kept_facts, kept_episodes)


def write_with_llm(
    question: str,
    speaker: str,
    facts: list[Fact],
    episodes: list[Episode],
    hops: Sequence[Hop],
    query_rows: Sequence[dict[str, Any]],
    llm_spec: str,
) -> CitedAnswer:
    """Ask the chat model to answer from the evidence, citing fact and episode ids.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    steps = [
        f"{number}. {hop.question} -> {', '.join(entity.name for entity in hop.answers) or '?'}"
        for number, hop in enumerate(hops, start=1)
    ]
    prompt = ANSWER_USER.format(
        question=question,
        speaker=speaker,
        steps="\n".join(steps) or "(single lookup)",
        facts="\n".join(f"[{fact.id}] {sentence_of(fact)}" for fact in facts) or "(none)",
        episodes="\n".join(f"[{ep.id}] {ep.speaker}: {ep.text}" for ep in episodes) or "(none)",
        query_result="\n".join(json.dumps(row, ensure_ascii=False) for row in query_rows) or "(none)",
    )
    return ask_model(llm_spec, CitedAnswer, [("system", ANSWER_SYSTEM), ("user", prompt)])


def rank_answers(
    facts: list[Fact], anchors: list[Entity], answer_type: str | None, asked: frozenset[str] = frozenset()
) -> list[AnswerCandidate]:
    """Rank the entities the evidence points to, best first.

    A fact credits its *far* end (the one further from the question's anchors), so
    an intermediate entity (the colleague) does not outrank the place the question
    asks for (where the colleague lives). Entities of the asked-for type are
    preferred, entities of another known type are held back. A negated fact
    (小周不吃辣) counts against its far end, so it never makes it an answer —
    unless it states the relation asked about (``asked``: 不喜欢吃香菜 answers 讨厌吃什么).
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
                against = fact.negated and not affirmed_relations(fact) & asked
                totals[end] += -(fact.score or 0.0) if against else fact.score or 0.0
    ranked = []
    for end, total in totals.items():
        if total <= 0.0:
            continue
        name, kind = names[end]
        connected = max(len(anchors_within_two(end)), 1)
        support = _path_facts(end, facts, anchor_ids) or touching[end]
        score = total * (1.0 + 0.5 * (connected - 1)) * _type_factor(kind, answer_type)
        ranked.append(AnswerCandidate(end, name, kind, score, support))
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
    *,
    path: list[Fact] | None = None,
) -> str:
    """Compose an answer from the evidence without a model, in the question's language.

    Args:
        analysis: The question's analysis.
        anchors: Entities the question names (they are not answers).
        facts: The evidence, best first.
        episodes: Episodes of the evidence, or similar episodes when there is none.
        question: The question with first person resolved to the speaker.
        linked: Every entity the question was linked to, fuzzy links included.
        path: For a multi-hop question, the facts that led to what it asks about
            (the author of Dune is Frank Herbert), cited before the answer's own.
    """
    chinese = analysis.language == "zh"
    lead = list(path or [])
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
        return _answer_yes_no(question, facts, linked_ids, chinese, lead)
    if analysis.answer_type == "Time":
        timed = [fact for fact in facts if fact.valid_from or fact.schedule]
        if timed:
            return _with_reasons(timed[0].schedule or timed[0].valid_from or "", [*lead, timed[0]], chinese)

    ranked = rank_answers(facts, anchors, analysis.answer_type, asked_relations(analysis))
    if not ranked or not is_compatible_type(ranked[0].kind, analysis.answer_type):
        chain = _connecting_chain(facts, anchors)
        if chain:
            # "How is Alice connected to Carol?": the answer is the path itself.
            links = _join([sentence_of(fact) for fact in [*lead, *chain]], chinese)
            return f"记忆中的联系：{links}。" if chinese else f"They are connected: {links}."
        # The evidence is about the right things but names nothing of the kind asked
        # for (a city when an employer is asked): say so, and show what is known.
        reasons = _join([sentence_of(fact) for fact in facts[:MAX_REASONS]], chinese)
        return (
            f"记忆中没有直接回答这个问题的事实。相关的记忆：{reasons}。"
            if chinese
            else f"Nothing in memory answers this directly. Related: {reasons}."
        )
    best = ranked[0]
    limit = 5 if analysis.intent == "list" else 3
    # Several answers only when they are parallel: reached through the same relation
    # as the best one (会说日语 and 会说韩语), not merely scored close to it.
    # ... and about the same named entity: 京东 where someone else works is no second answer.
    relation = {fact.predicate_key for fact in best.support[:1]}
    owners = _ends(best.support[0]) & {entity.id for entity in anchors} if best.support else set()
    answers = [best] + [
        candidate
        for candidate in ranked[1:limit]
        if candidate.score >= best.score * 0.6
        and relation & {fact.predicate_key for fact in candidate.support[:1]}
        and (not owners or bool(candidate.support and owners & _ends(candidate.support[0])))
    ]
    if analysis.intent == "recommend":
        answers = answers[:1]
    supporting: list[Fact] = list(lead)
    for candidate in answers:
        supporting.extend(fact for fact in candidate.support if fact not in supporting)
    names = ("、" if chinese else ", ").join(_answer_phrase(candidate) for candidate in answers)
    if analysis.intent == "recommend":
        reasons = _join([sentence_of(fact) for fact in supporting[:MAX_REASONS]], chinese)
        return f"建议用 {names}。依据：{reasons}。" if chinese else f"Use {names}. Based on memory: {reasons}."
    return _with_reasons(names, supporting, chinese)


def _answer_phrase(candidate: AnswerCandidate) -> str:
    """The answer as a phrase: "painting watercolors" when the fact says "enjoys painting" them."""
    fact = candidate.support[0] if candidate.support else None
    if fact is None or fact.object_id != candidate.entity_id or fact.predicate_key not in {"likes", "dislikes"}:
        return candidate.name
    words = fact.predicate.split(" ")
    if len(words) == 2 and words[1].endswith("ing") and words[1].isascii():
        return f"{words[1]} {candidate.name}"
    return candidate.name


def _ends(fact: Fact) -> set[str]:
    return {end for end in (fact.subject_id, fact.object_id) if end}


def _connecting_chain(facts: list[Fact], anchors: list[Entity]) -> list[Fact]:
    """Return the facts of the shortest chain in the evidence between two named entities."""
    anchor_ids = [entity.id for entity in anchors]
    neighbours: dict[str, list[tuple[str, Fact]]] = defaultdict(list)
    for fact in facts:
        if fact.subject_id and fact.object_id and not fact.negated:
            neighbours[fact.subject_id].append((fact.object_id, fact))
            neighbours[fact.object_id].append((fact.subject_id, fact))
    best: list[Fact] = []
    for start in anchor_ids:
        trail: dict[str, list[Fact]] = {start: []}
        frontier = [start]
        while frontier:
            following = []
            for node in frontier:
                for other, fact in neighbours[node]:
                    if other not in trail:
                        trail[other] = [*trail[node], fact]
                        following.append(other)
            frontier = following
        for end in anchor_ids:
            if end != start and end in trail and (not best or len(trail[end]) < len(best)):
                best = trail[end]
    return best


def _answer_yes_no(
    question: str, facts: list[Fact], linked_ids: set[str], chinese: bool, lead: list[Fact] | None = None
) -> str:
    """Answer yes or no from a fact whose object the question names, minding negation.

    Only the object decides: "小周能吃辣吗" is settled by 小周 (不)吃 辣, while a fact
    that merely shares the subject (小周吃面) settles nothing. The object counts as
    named when it is written in the question or was linked to it (番茄 ~ 西红柿).
    """
    for fact in facts:
        if is_mentioned(fact.object, question) or (fact.object_id in linked_ids and fact.subject_id in linked_ids):
            if fact.negated:
                return _with_reasons(_chinese_no(fact) if chinese else "No", [*(lead or []), fact], chinese)
            return _with_reasons("是的" if chinese else "Yes", [*(lead or []), fact], chinese)
    reasons = _join([sentence_of(fact) for fact in facts[:MAX_REASONS]], chinese)
    return (
        f"记忆中没有能确认这一点的事实。相关的记忆：{reasons}。"
        if chinese
        else f"Memory does not say. Related: {reasons}."
    )


def _with_reasons(answer: str, facts: list[Fact], chinese: bool) -> str:
    reasons = _join([sentence_of(fact) for fact in facts[:MAX_REASONS]], chinese)
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


def _chinese_no(fact: Fact) -> str:
    """不是 / 不吃 / 没有: "no" said with the fact's own verb, as a Chinese speaker answers."""
    verb = fact.predicate if len(fact.predicate) <= 2 else fact.predicate[:1]
    return "没有" if verb.startswith("有") else f"不{verb}"


def is_compatible_type(kind: str | None, answer_type: str | None) -> bool:
    """Whether an entity of type ``kind`` can answer a question asking for ``answer_type``."""
    if not answer_type or not kind or kind in ("Concept", answer_type):
        return True
    return any(kind in group and answer_type in group for group in _COMPATIBLE_TYPES)


def _history_note(history: list[Fact], chinese: bool) -> str:
    """Say what used to be true: "（以前：小李用 Python）" / " (Previously: ...)"."""
    past = _join([sentence_of(fact) for fact in history[:MAX_REASONS]], chinese)
    return f"（以前：{past}）" if chinese else f" (Previously: {past}.)"


def _join(sentences: list[str], chinese: bool) -> str:
    return ("；" if chinese else "; ").join(sentences)
