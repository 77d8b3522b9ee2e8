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

import functools
import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from elephant_broker.domain.evidence import (
    EXTRACT_FROM,
    MENTION_LINK_WEIGHT,
    affirmed_relations,
    asked_relations,
    relations_of,
)
from elephant_broker.domain.retrieval import ANSWER, reciprocal_rank_fusion
from elephant_broker.language import english
from elephant_broker.language.answer_spans import (
    CLAUSE_KINDS,
    CONNECTION,
    NAME,
    NAMED_KINDS,
    NUMBER,
    REASON,
    STATE,
    addresses_someone,
    answer_spans,
    asked_verb,
    asks_about_now,
    asks_for_clock,
    calls_old,
    category_word,
    continues_previous,
    has_clock,
    is_kind_noun,
    is_light_word,
    is_said_of,
    named_after_naming_word,
    strip_lead_in,
    without_address,
)
from elephant_broker.language.corrections import find_addition
from elephant_broker.language.extract import extract_quintuples, split_sentences
from elephant_broker.language.filters import is_non_factual
from elephant_broker.language.names import fold_text, is_mentioned
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.pronouns import resolve_first_person, speaks_of_self, speaks_to_listener
from elephant_broker.language.question import class_type
from elephant_broker.language.relations import is_relation
from elephant_broker.language.sentences import sentence_of
from elephant_broker.language.times import resolve_relative_time, said_at
from elephant_broker.language.types import PERSON_ROLES, class_of_word, guess_type, is_time, thing_class
from elephant_broker.prompts.answerer import ANSWER_SYSTEM, ANSWER_USER
from elephant_broker.providers.chat_models import ModelError, ask_model
from elephant_broker.schemas.models import (
    AbstainReason,
    Entity,
    Episode,
    Fact,
    Hop,
    QuestionAnalysis,
    RelatedMemories,
)
from pydantic import BaseModel, Field

MAX_REASONS = 4
MAX_RELATED = 5
NOT_IN_MEMORY_EN = "Not in memory: nothing stored answers this."
NOT_IN_MEMORY_ZH = "记忆中没有能回答这个问题的信息。"
"""The one abstention wording per language; why, and the closest memories, are given apart."""


@dataclass
class AnswerCandidate:
    """An entity the evidence points to, as a possible answer."""

    entity_id: str
    name: str
    kind: str | None
    score: float
    support: list[Fact]
    connected: bool = True
    """Whether a fact or two of the evidence link it to what the question names."""


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


Item = TypeVar("Item", Fact, Episode)


def _unique(items: list[Item]) -> list[Item]:
    """Each fact or episode once, where it first appears."""
    return list({item.id: item for item in reversed(items)}.values())[::-1]


@dataclass
class Composed:
    """An offline answer: its text, the value alone, and what it rests on — or why there is none."""

    text: str
    value: str = ""
    reason: AbstainReason | None = None
    support: list[Fact] = field(default_factory=list)
    """The facts the answer rests on, the path of a multi-hop question first."""
    sources: list[Episode] = field(default_factory=list)
    """The episodes an answer read out of a sentence rests on."""

    @property
    def answered(self) -> bool:
        """Whether there is an answer (no reason to withhold one)."""
        return self.reason is None


def abstain(chinese: bool, reason: AbstainReason) -> Composed:
    """The one "not in memory" answer, with why."""
    return Composed(NOT_IN_MEMORY_ZH if chinese else NOT_IN_MEMORY_EN, reason=reason)


@dataclass
class Reply:
    """An answer and exactly the evidence it cites."""

    answer: str
    facts: list[Fact]
    episodes: list[Episode]
    notes: list[str] = field(default_factory=list)
    """What went differently (a chat model that failed, and the fallback used)."""
    value: str = ""
    reason: AbstainReason | None = None
    kind: str | None = None
    related: RelatedMemories = field(default_factory=RelatedMemories)

    @property
    def answered(self) -> bool:
        """Whether there is an answer (no reason to withhold one)."""
        return self.reason is None


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
        # A sentence read for the last hop must still be about what the whole question names.
        about = list(analysis.entities)
        analysis = final.analysis or analysis
        linked = list(final.anchors)
        asked = resolve_first_person(final.question, speaker)
        composed = compose_answer(
            analysis, _named(linked), final.facts, episodes, asked, linked, path=path, asker=speaker, about=about
        )
    else:
        linked = list(anchors)
        composed = compose_answer(analysis, _named(linked), facts, episodes, resolved_question, linked, asker=speaker)
    kind = answer_kind(analysis)
    if not composed.answered:
        related = RelatedMemories(facts=facts[:MAX_RELATED], episodes=episodes)
        return Reply(composed.text, [], [], notes, reason=composed.reason, kind=kind, related=related)
    text = composed.text
    if history and composed.support:
        text += _history_note(list(history), analysis.language == "zh")
    cited = _unique([*composed.sources, *episodes])
    related = RelatedMemories(facts=[fact for fact in facts if fact not in composed.support][:MAX_RELATED])
    return Reply(text, composed.support, cited, notes, value=composed.value, kind=kind, related=related)


def answer_kind(analysis: QuestionAnalysis) -> str | None:
    """What kind of thing the question asks for: Number, Name or State, else the expected entity type."""
    if analysis.intent == "yes_no":
        return "YesNo"
    return analysis.answer_kind or analysis.answer_type


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
    kind = answer_kind(analysis)
    if not cited.in_memory or not (kept_facts or kept_episodes or query_rows):
        text = NOT_IN_MEMORY_ZH if analysis.language == "zh" else NOT_IN_MEMORY_EN
        related = RelatedMemories(facts=facts[:MAX_RELATED], episodes=episodes)
        # Evidence was there and the model found no answer in it: found, but not what was asked.
        reason: AbstainReason = "wrong_kind" if facts or episodes else "nothing_found"
        return Reply(text, [], [], reason=reason, kind=kind, related=related)
    related = RelatedMemories(facts=[fact for fact in facts if fact.id not in fact_ids][:MAX_RELATED])
    return Reply(cited.answer, kept_facts, kept_episodes, value=cited.answer, kind=kind, related=related)


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
    facts: list[Fact],
    anchors: list[Entity],
    answer_type: str | None,
    asked: frozenset[str] = frozenset(),
    keywords: Sequence[str] = (),
) -> list[AnswerCandidate]:
    """Rank the entities the evidence points to, best first.

    A fact credits its *far* end (the one further from the question's anchors), so
    an intermediate entity (the colleague) does not outrank the place the question
    asks for (where the colleague lives). Entities of the asked-for type are
    preferred, entities of another known type are held back. A negated fact
    (小周不吃辣) counts against its far end, so it never makes it an answer —
    unless it states the relation asked about (``asked``: 不喜欢吃香菜 answers 讨厌吃什么).
    A candidate is ``connected`` when a fact or two of the evidence link it to an anchor, or
    a fact links it to an anchor's thing (苏晴猫 叫 年糕 for 苏晴). Through another person, the
    link must be one the question names (my colleague 王强 lives in 深圳 answers where my
    colleague lives; "Gina right by Jon; Jon goes to Paris" is no answer about Gina), when the
    question's ``keywords`` are given.
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
            if end not in names or names[end][1] is None:
                names[end] = (name, kind)  # a type any fact knows beats one none gave
            touching[end].append(fact)
            if distance.get(end, 99) == farthest:
                # A negated fact (小李不用 Python) counts against its far end, and so does
                # one that ended (left Chicago, 从腾讯离职): it is no longer so.
                ended = fact.negated or is_relation(fact.predicate, "ending")
                against = ended and not affirmed_relations(fact) & asked
                totals[end] += -(fact.score or 0.0) if against else fact.score or 0.0
    ranked = []
    for end, total in totals.items():
        if total <= 0.0:
            continue
        name, kind = names[end]
        connected = max(len(anchors_within_two(end)), 1)
        path = _path_facts(end, facts, anchor_ids)
        score = total * (1.0 + 0.5 * (connected - 1)) * _type_factor(kind, answer_type)
        linked = (
            not anchor_ids
            or _linked_by(path, end, anchor_ids, keywords)
            or any(_owned(fact, end, anchors) for fact in touching[end])
        )
        ranked.append(AnswerCandidate(end, name, kind, score, path or touching[end], linked))
    ranked.sort(key=lambda candidate: candidate.score, reverse=True)
    return ranked


def _linked_by(path: list[Fact], end: str, anchor_ids: set[str], keywords: Sequence[str]) -> bool:
    """Whether the path ties the candidate to an anchor: directly, or through a person by a named link."""
    if not path:
        return False
    if not keywords or any(end in _ends(fact) and _ends(fact) & anchor_ids for fact in path):
        return True
    folded = [fold_text(word) for word in keywords if word]
    for link in path:
        if not _ends(link) & anchor_ids:
            continue
        middle_is_person = (link.object_type if link.subject_id in anchor_ids else link.subject_type) == "Person"
        named = any(word in fold_text(f"{link.predicate} {link.subject} {link.object}") for word in folded)
        if not middle_is_person or named:
            return True
    return False


def _owned(fact: Fact, end: str, anchors: list[Entity]) -> bool:
    """Whether the fact's other end is a named entity's thing (苏晴猫, Ethan's cat: the owner named first)."""
    other = fact.subject if fact.object_id == end else fact.object
    folded = other.casefold()
    return any(folded.startswith(anchor.name.casefold()) and len(other) > len(anchor.name) for anchor in anchors)


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
    asker: str = "",
    about: Sequence[str] = (),
) -> Composed:
    """Compose an answer from the evidence without a model, in the question's language.

    The answer must be of the kind the question asks for (``answer_kind``): a name when a
    name is asked, a number when a number is, a proper name for a person, place or
    organisation. A fact whose far end is of that kind answers; when none does, a
    sentence of a cited episode that says such a thing about what the question names
    answers, quoted; otherwise the answer is the one "not in memory", with why.

    Args:
        analysis: The question's analysis.
        anchors: Entities the question names (they are not answers).
        facts: The evidence, best first.
        episodes: Episodes of the evidence, or similar episodes when there is none.
        question: The question with first person resolved to the speaker.
        linked: Every entity the question was linked to, fuzzy links included.
        path: For a multi-hop question, the facts that led to what it asks about
            (the author of Dune is Frank Herbert), cited before the answer's own.
        asker: Who asks (first person in the question and in their own episodes).
        about: More names a sentence read out must be about (a multi-hop question's own).
    """
    chinese = analysis.language == "zh"
    lead = list(path or [])
    kind = answer_kind(analysis)
    called = names_called(facts)
    # Neither the relatives a question passes through nor what a fact denies (a job held before,
    # read as 不在建设银行工作) is an answer a sentence can give.
    ways = _ways_to_asked(question, asker, facts) | {
        fact.object for fact in facts if fact.negated and not affirmed_relations(fact)
    }
    if not facts:
        read = read_from_episodes(analysis, question, asker, episodes, about, called, ways)
        read = read or quote_closest(analysis, asker, episodes, about)
        return read or abstain(chinese, "nothing_found" if not episodes else _no_kind(kind))
    if analysis.intent == "yes_no":
        linked_ids = {entity.id for entity in linked or anchors}
        return _answer_yes_no(question, facts, linked_ids, chinese, lead, _relation_words(analysis) or None)
    # What the question asks about beyond its names, to hold open and "when" answers to it.
    topic = _topic_words(analysis)
    asked_category = category_word(question, analysis.language)
    category = (asked_category or "").casefold()
    if analysis.answer_type == "Time":
        # "When did she join a gym?": the time of her donation, said in another turn, is none.
        timed = [
            fact
            for fact in facts
            if (fact.valid_from or fact.schedule) and _said_about_the_topic(fact, analysis, topic, category, episodes)
        ]
        if timed:
            best_timed = timed[0]
            value = best_timed.schedule or best_timed.valid_from or ""
            if best_timed.object_type == "Time":
                # "appointment | Thursday" at 2:30: the day is the object, the hour its schedule.
                value = " ".join(
                    part for part in (_dated(best_timed.object, best_timed, episodes), best_timed.schedule) if part
                )
            return _with_reasons(value, [*lead, timed[0]], chinese)

    asked = asked_relations(analysis)
    anchor_ids = {entity.id for entity in anchors}
    # An answer is about what the question names: Melanie's race says nothing of Caroline's.
    ranked = [
        candidate
        for candidate in rank_answers(facts, anchors, analysis.answer_type, asked, topic)
        if is_of_kind(candidate, kind, analysis.answer_type, asked, analysis.answer_kind, anchor_ids)
        and candidate.connected
    ]
    asked_class = next(
        (found for word in (asked_category, *analysis.keywords) if (found := class_of_word(word or ""))),
        None,
    )
    if asked_class is not None:
        # 我用什么手机: a car (宝马) is a thing of another class, no answer about a phone.
        ranked = [candidate for candidate in ranked if thing_class(candidate.name) in (None, asked_class)]
    if kind is None and asked_category:
        # "What hotel am I staying at?": a thing of a class is asked; "10 days" is only how long.
        ranked = [candidate for candidate in ranked if not _QUANTITY.fullmatch(candidate.name.strip())]
        # "What car …?": "new car" only says it is one; a name that says which one answers first.
        named = [candidate for candidate in ranked if not _only_the_class(candidate.name, question, analysis.language)]
        ranked = named or ranked
    # 小周狗 叫 豆包: what bears the name the question gives is the thing asked about, no answer to it
    # (unless its other name is what is asked: "what's Barty's real name?").
    if kind != NAME:
        ranked = [candidate for candidate in ranked if not _only_named_by(candidate, anchor_ids)]
    if kind == "Time" or kind is None and analysis.intent in ("lookup", "list"):
        # "What does she love about camping?": what she loves, read from words about something else
        # (her bowl, helping people), is no answer, nor is "when" a time said of another thing: an
        # answer's fact must come from words about the topic.
        topical = [
            candidate
            for candidate in ranked
            if not candidate.support or _said_about_the_topic(candidate.support[0], analysis, topic, category, episodes)
        ]
        # Items added in the turns after ("oh, and latex too", "and the cooler") need not repeat what they add to.
        added = _added_after(ranked, topical, episodes)
        ranked = [candidate for candidate in ranked if candidate in topical or candidate in added]
    relatives = asked_relatives(question, asker)
    if relatives:
        # "What does my wife drink?": the asker's own facts do not answer for her.
        role = named_role(question, relatives)
        own_name = role is not None
        if role is not None:
            # 我表姐的老板叫什么: the boss's name is asked; the cousin is only the way to the boss.
            relatives = frozenset(word for word in relatives if role.startswith(word) or word.startswith(role))
        # 我表姐的老板 / 我同事的鹦鹉叫啥: the relative is the way to whom or what is asked, not the answer.
        through = relative_of_relative(question, relatives) is not None or asks_of_relatives_own(question, relatives)
        also_called = _relatives_also_called(facts, relatives, asker)
        ranked = [
            candidate
            for candidate in ranked
            if _answers_for_relative(candidate, relatives, asker, kind, own_name, also_called, through)
        ]
    if not ranked:
        chain = _connecting_chain(facts, anchors) if kind == CONNECTION else []
        if chain:
            # "How is Alice connected to Carol?": the answer is the path itself.
            links = _join([sentence_of(fact) for fact in [*lead, *chain]], chinese)
            text = f"记忆中的联系：{links}。" if chinese else f"They are connected: {links}."
            return Composed(text, links, support=[*lead, *chain])
        # The evidence is about the right things but names nothing of the kind asked
        # for (a city when an employer is asked): a sentence may say it; else abstain.
        return (
            read_from_episodes(analysis, question, asker, episodes, about, called, ways)
            or quote_closest(analysis, asker, episodes, about)
            or abstain(chinese, "wrong_kind")
        )
    if asked:
        # A fact stating the very relation asked (moved to ~ lives in) outranks one that only
        # comes near it (is in London, grew up in Leeds), whatever retrieval scored them.
        ranked.sort(key=lambda candidate: not any(affirmed_relations(fact) & asked for fact in candidate.support))
    best = ranked[0]
    if best.support and best.support[0].status == "disputed":
        return abstain(chinese, "contradicted")
    if (
        kind is None
        and analysis.intent in ("lookup", "list")
        and not _states_asked_relation(best, analysis, asked, question)
    ):
        # "What did Caroline realize after the race?": a fact about the race that does not state
        # the asked relation names a thing, not the answer; what was said, if it says it, is.
        read = read_from_episodes(analysis, question, asker, episodes, about, called, ways)
        if read is not None:
            return read
        # Nothing says it: the fact about the race is no answer to what was realised after it.
        return quote_closest(analysis, asker, episodes, about) or abstain(chinese, "wrong_kind")
    limit = 5 if analysis.intent == "list" else 3
    # Several answers only when they are parallel: reached through the same relation
    # as the best one (会说日语 and 会说韩语), not merely scored close to it.
    # ... and about the same named entity: 京东 where someone else works is no second answer.
    relation = {fact.predicate_key for fact in best.support[:1]}
    owners = _ends(best.support[0]) & {entity.id for entity in anchors} if best.support else set()

    def parallel(candidate: AnswerCandidate) -> bool:
        if relation & {fact.predicate_key for fact in candidate.support[:1]}:
            return True
        # A list asks for every one of a kind: Spanish (learns) and French (started) are both languages.
        return analysis.intent == "list" and best.kind not in (None, "Concept") and candidate.kind == best.kind

    subject = best.support[0].subject_id if best.support else None

    def same_relation(candidate: AnswerCandidate) -> bool:
        first = candidate.support[:1]
        return bool(first) and first[0].subject_id == subject and bool(relation & {first[0].predicate_key})

    # Items one subject has by one relation (packs: tent, headlamp, stove) are one answer however
    # near each is to the question; others only when about as near as the best.
    answers = [best] + [
        candidate
        for position, candidate in enumerate(ranked[1:], start=1)
        if position < (limit + 2 if same_relation(candidate) else limit)
        and candidate.score >= best.score * (0.4 if same_relation(candidate) else 0.6)
        and parallel(candidate)
        and (not owners or bool(candidate.support and owners & _ends(candidate.support[0])))
    ]
    if analysis.intent == "recommend":
        answers = answers[:1]
    supporting: list[Fact] = list(lead)
    for candidate in answers:
        supporting.extend(fact for fact in candidate.support if fact not in supporting)
    names = ("、" if chinese else ", ").join(
        _dated(_answer_phrase(candidate), next(iter(candidate.support), None), episodes)
        if kind == "Time"
        else _answer_phrase(candidate)
        for candidate in answers
    )
    if analysis.intent == "recommend":
        reasons = _join([sentence_of(fact) for fact in supporting[:MAX_REASONS]], chinese)
        text = f"建议用 {names}。依据：{reasons}。" if chinese else f"Use {names}. Based on memory: {reasons}."
        return Composed(text, names, support=supporting[:MAX_REASONS])
    return _with_reasons(names, supporting, chinese)


def _states_asked_relation(
    candidate: AnswerCandidate, analysis: QuestionAnalysis, asked: frozenset[str], question: str
) -> bool:
    """Whether a fact the candidate rests on states the relation the question asks (喜欢吃 for 爱吃什么).

    Or names the class asked in its answer: "What workshop did Caroline attend?" is answered by
    "went to | LGBTQ+ counseling workshop".
    """
    # A role word (奶奶 in 我奶奶喜欢看什么) says whose the answer is, not what relation states it.
    verbs = [
        fold_text(word)
        for word in analysis.keywords
        if word not in analysis.entities and word.casefold() not in PERSON_ROLES
    ]
    if not verbs and not asked:
        return True  # the question names no relation to hold the fact to
    return any(
        affirmed_relations(fact) & asked
        or any(word and word in fold_text(fact.predicate) for word in verbs)
        or fact.object_id == candidate.entity_id
        and _names_asked_class(fact.object, question, analysis.language)
        for fact in candidate.support
    )


def _said_about_the_topic(
    fact: Fact, analysis: QuestionAnalysis, topic: Sequence[str], category: str, episodes: Sequence[Episode]
) -> bool:
    """Whether the episode a fact was read from says half of what else the question asks about.

    ``topic`` is the question's content words (``_topic_words``), ``category`` the class it names
    (which herb), folded, or "". The words the fact itself states (its relation: hate ~ can't
    stand) and the class are not looked for; the class counts when said. A fact whose episode
    is not among those cited cannot show it was said about the topic.
    """
    predicate = fold_text(fact.predicate)
    stated = relations_of(fact)
    chinese = analysis.language == "zh"
    needed = _distinct_words(
        [
            word
            for word in topic
            if word.casefold() != category
            and predicate_key(word) not in stated
            and fold_text(word) not in predicate
            and english.lemma(word.casefold()) not in predicate
            and not (chinese and len(word) < 2)  # 什么花: one character says little
        ],
        chinese,
    )
    if not needed:
        return True
    said = _distinct_words([*needed, *([category] if category else [])], chinese)
    return any(
        _shared_words(episode.corrected_to or episode.text, said, chinese) >= len(needed) / 2
        for episode in episodes
        if episode.id in fact.episode_ids
    )


def _names_asked_class(name: str, question: str, language: str) -> bool:
    """Whether an answer names the class the question asks for ("What workshop …?": a … workshop; 什么乐器: …乐器)."""
    category = category_word(question, language)
    if not category:
        return False
    if language == "zh" and len(category) < 2:
        return False
    return _says_class(name, category, language == "zh")


def _only_the_class(name: str, question: str, language: str) -> bool:
    """Whether an answer is the asked class said plainly ("new car", 新车), with nothing naming which one."""
    if not _names_asked_class(name, question, language):
        return False
    if language == "zh":
        return not re.search(r"[A-Za-z\d]", name) and len(name) <= len(category_word(question, language) or "") + 2
    return all(word.isalpha() and word.islower() for word in name.split())


_QUANTITY = re.compile(r"[\d一二三四五六七八九十百两几]+(?:\.\d+)?\s*[^\W\d]{0,8}")
"""A number and at most one unit: "10 days", 三个月, 5 km — an amount, no thing of a class."""


def _relation_words(analysis: QuestionAnalysis) -> list[str]:
    """The question's words that can name a relation: its keywords and their lemmas (make, 吃)."""
    words = [word for word in analysis.keywords if word not in analysis.entities]
    if analysis.language == "en":
        words += [english.lemma(word.casefold()) for word in words]
    return words


def _topic_words(analysis: QuestionAnalysis) -> list[str]:
    """The question's content words that may name a link (colleague, 同事), without its names."""
    return [
        word
        for word in analysis.keywords
        if word not in analysis.entities
        and not is_kind_noun(word, analysis.language)
        and not is_light_word(word, analysis.language)
    ]


def _no_kind(kind: str | None) -> AbstainReason:
    # Episodes were found: with a kind asked, none said a thing of that kind.
    return "wrong_kind" if kind else "nothing_found"


def is_of_kind(
    candidate: AnswerCandidate,
    kind: str | None,
    answer_type: str | None,
    asked: frozenset[str] = frozenset(),
    class_asked: str | None = None,
    anchor_ids: set[str] | frozenset[str] = frozenset(),
) -> bool:
    """Whether a candidate answer is of the kind the question asks for.

    A Number must hold a numeral; a Name must be a name (no activity, no common noun); a
    State or a Reason is never an entity; a person answers only a question that asks for
    one (who, a role, a name), not a bare "what"; other kinds are entity types, compatible
    as ``is_compatible_type`` says, except when the question names the class (``class_asked``:
    which city wants a place, not the employer "where" would also take). A person, place or
    organisation of no known type is one when it is a proper name, or when a fact states the
    very relation asked (works at a bakery answers where someone works; "started new job
    downtown" does not).
    """
    if kind == NUMBER:
        return any(ch.isdigit() or ch in "一二三四五六七八九十百千两" for ch in candidate.name)
    if kind == NAME:
        naming = next((fact for fact in candidate.support if is_relation(fact.predicate, "naming")), None)
        if naming is not None:
            # 猫 叫 年糕: the name is what it is called; asked by the other name ("Barty's real name"), the
            # one it stands for is.
            return naming.object_id == candidate.entity_id or (
                naming.subject_id == candidate.entity_id and naming.object_id in anchor_ids
            )
        if any(_names_relative(fact, candidate) for fact in candidate.support):
            return True  # 周宁 儿子 邵欣怡: the son is the person named, whatever a tagger makes of it
        return candidate.kind not in ("Activity", "Time", "Event") and is_proper_name(candidate.name)
    if kind in CLAUSE_KINDS or kind == CONNECTION:
        return False  # a state or a reason is a clause: read from what was said, not from an entity
    if answer_type not in (None, "Activity", "Event") and english.is_gerund_phrase(candidate.name):
        return False  # "buying a Rivian" is something done (or thought of), not the car asked for
    if candidate.kind == "Person" and kind is None and answer_type is None and candidate.name.isascii():
        # "What …?" asks for no one: a person answers who, a role or a name. (A Chinese name's
        # type comes from jieba's nr tag, which unknown words get too: 柯基 is no person.)
        return False
    if class_asked == "Place" and candidate.kind not in (None, "Concept", "Place"):
        return False  # which city: an employer is where someone works, not a city
    if answer_type == "Time" and candidate.kind != "Time" and not _says_a_time(candidate.name):
        return False  # "what day is my appointment?": the appointment is what has a day, not the day
    if kind in NAMED_KINDS and candidate.kind in (None, "Concept"):
        stated = any(affirmed_relations(fact) & asked for fact in candidate.support)
        return stated or is_proper_name(candidate.name)
    return is_compatible_type(candidate.kind, answer_type)


def _says_a_time(name: str) -> bool:
    """Whether a name is or holds a time (农历九月初九, "the 16th at 10am"), not a thing that has one."""
    language = "en" if name.isascii() else "zh"
    return is_time(name) or bool(answer_spans(name, "Time", language))


def _only_named_by(candidate: AnswerCandidate, anchor_ids: set[str]) -> bool:
    """Whether the candidate reaches the question only as the bearer of a name the question gives."""
    return bool(candidate.support) and all(
        is_relation(fact.predicate, "naming")
        and fact.subject_id == candidate.entity_id
        and fact.object_id in anchor_ids
        for fact in candidate.support
    )


@functools.lru_cache(maxsize=256)
def asked_relatives(question: str, asker: str) -> frozenset[str]:
    """The role words the asker's relatives are asked about by ("Alex's wife", "周宁老婆", 我的同事 resolved).

    ``question`` has its first person resolved to ``asker``. Cached: the composer and the
    sentence reader both ask it of the same question.
    """
    if not asker or asker not in question:
        return frozenset()
    found = set()
    # Chinese doubled kin words are said with one character too: 我弟 is 我弟弟, 我姐 is 我姐姐.
    short = {role[0] for role in PERSON_ROLES if len(role) == 2 and role[0] == role[1]}
    for role in PERSON_ROLES | short:
        if role.isascii():
            pattern = rf"{re.escape(asker)}['’]s\s+(?:[a-z]+\s+)?{re.escape(role)}\b"
        else:
            pattern = rf"{re.escape(asker)}的?{re.escape(role)}"
        if re.search(pattern, question, re.IGNORECASE):
            found.add(role.casefold())
    return frozenset(found)


def _said_after_role(question: str, role: str, english: str, chinese: str) -> re.Match[str] | None:
    """Where the question says ``english`` after "<role>'s", or ``chinese`` after <role>(的)."""
    if role.isascii():
        return re.search(rf"\b{re.escape(role)}['’]s\s+{english}", question, re.IGNORECASE)
    return re.search(rf"{re.escape(role)}的?{chinese}", question)


def relative_of_relative(question: str, relatives: frozenset[str]) -> str | None:
    """The role of someone of the relative's the question asks about (老板 in 我表姐的老板), else None."""
    for role in sorted(relatives, key=lambda word: (-len(word), word)):
        match = _said_after_role(question, role, r"(?:[a-z]+\s+)?(\w[\w-]*)", r"(\w{1,3})")
        if match is None:
            continue
        for other in sorted(PERSON_ROLES - relatives, key=len, reverse=True):
            if match.group(1).casefold().startswith(other):
                return other
    return None


def asks_of_relatives_own(question: str, relatives: frozenset[str]) -> bool:
    """Whether the question asks about something of the relative's (同事的鹦鹉, 表哥 + 嫂, "my dad's teacher").

    A word after the role ("<role>'s dog", <role>的鹦鹉) other than its name says what is asked.
    """
    longest = [role for role in relatives if not any(other != role and other.startswith(role) for other in relatives)]
    return any(
        _said_after_role(
            question,
            role,
            r"(?!(?:(?:full|first|last|middle|real|maiden|nick)\s*)?name\b)[a-z]",
            r"(?![叫名是的])[\u4e00-\u9fff]",
        )
        for role in longest
    )


def named_role(question: str, relatives: frozenset[str]) -> str | None:
    """The role whose bearer's own name the question asks for (老板 in 我表姐的老板叫什么), else None."""
    for role in sorted(relatives, key=lambda word: (-len(word), word)):  # 妹妹 before its short form 妹
        if _said_after_role(question, role, r"(?:full\s+|first\s+)?name\b", "(?:全名|名字|叫什么|叫啥)"):
            return role
        if role.isascii() and re.search(rf"\bname\s+of\s+\S+\s+{re.escape(role)}\b", question, re.IGNORECASE):
            return role
    return None


def _is_relative_name(name: str, relatives: frozenset[str], asker: str) -> bool:
    """Whether an entity's name names the asker's relative by a role ("Eve's brother", 周宁老婆)."""
    folded = name.casefold()
    return name != asker and any(role in folded for role in relatives) and asker.casefold() in folded


def _states_role(fact: Fact, keys: set[str], relatives: frozenset[str]) -> bool:
    """Whether a fact names someone by one of the roles: brother, or "younger brother" (its last word)."""
    words = fact.predicate.casefold().split()
    return fact.predicate_key in keys or len(words) > 1 and words[-1] in relatives


def names_role_attribute(predicate: str, relatives: frozenset[str]) -> bool:
    """Whether a predicate is a relative's attribute: the role, then what of theirs (儿子生日)."""
    folded = predicate.strip().casefold()
    return any(folded.startswith(role) and len(folded) > len(role) for role in relatives)


def _relatives_also_called(facts: Sequence[Fact], relatives: frozenset[str], asker: str) -> set[str]:
    """The entities the evidence says the asker's relative is also called (周宁奶奶 叫 老太君: 老太君)."""
    found: set[str] = set()
    for fact in facts:
        if fact.negated or not is_relation(fact.predicate, "naming") or not fact.subject_id or not fact.object_id:
            continue
        if _is_relative_name(fact.subject, relatives, asker):
            found.add(fact.object_id)
        elif _is_relative_name(fact.object, relatives, asker):
            found.add(fact.subject_id)
    return found


def _answers_for_relative(
    candidate: AnswerCandidate,
    relatives: frozenset[str],
    asker: str,
    kind: str | None,
    own_name: bool = False,
    also_called: set[str] | frozenset[str] = frozenset(),
    through: bool = False,
) -> bool:
    """Whether a candidate answers a question about the asker's relative, not about the asker.

    The relative is the far end of a role fact (周宁 儿子 邵欣怡) or an entity named by the role
    ("Eve's younger brother", 周宁老婆), or what the evidence says such a relative is also called
    (``also_called``). The relative answers only a question for a name or a person, and not
    one about someone of theirs (``through``); anything else must be reached through the relative.
    """
    keys = {predicate_key(role) for role in relatives}
    role_facts = [fact for fact in candidate.support if _states_role(fact, keys, relatives)]
    relative_ids = {fact.object_id for fact in role_facts if fact.object_id}

    def is_relative(entity_id: str | None, name: str) -> bool:
        return entity_id in relative_ids or _is_relative_name(name, relatives, asker)

    if kind not in (NAME, "Person") and any(
        fact.object_id == candidate.entity_id
        and fact.subject == asker
        and names_role_attribute(fact.predicate, relatives)
        for fact in candidate.support
    ):
        return True  # 周宁 儿子生日 5月18号: the son's birthday, said as the asker's attribute
    if also_called and not own_name and candidate.entity_id not in also_called:
        # 老太君 最爱吃 饺子, when 老太君 is what the asker's grandmother is called.
        if any({fact.subject_id, fact.object_id} & also_called for fact in candidate.support):
            return True

    if is_relative(candidate.entity_id, candidate.name):
        # Asked about the relative's boss (``through``), the relative is the way there, not the answer.
        return not through and (kind in (NAME, "Person") or kind is None and bool(role_facts))
    if own_name:
        # Asked for the relative's name: only what the relative is called answers (Bubba, 豆豆).
        return any(
            is_relation(fact.predicate, "naming")
            and fact.object_id == candidate.entity_id
            and is_relative(fact.subject_id, fact.subject)
            for fact in candidate.support
        )
    return any(
        is_relative(fact.subject_id, fact.subject) or is_relative(fact.object_id, fact.object)
        for fact in candidate.support
    )


def _names_relative(fact: Fact, candidate: AnswerCandidate) -> bool:
    """Whether the fact names the candidate, a person, as someone's relative by a role word (女儿, brother)."""
    predicate = fact.predicate.strip().casefold()
    return (
        fact.object_id == candidate.entity_id
        and predicate in PERSON_ROLES
        and candidate.kind == "Person"
        and not is_description(candidate.name)
    )


def is_description(name: str) -> bool:
    """Whether a Latin-script name describes rather than names: lower-case words after an owner ("Eve's brother")."""
    words = name.split()
    return name.isascii() and any(word[:1].islower() and word not in _NAME_CONNECTORS for word in words[1:])


_NAME_CONNECTORS = frozenset(
    {"of", "the", "and", "de", "van", "von", "der", "du", "la", "le", "da", "del", "di", "y", "&"}
)


def is_proper_name(name: str) -> bool:
    """Whether a name reads as a proper name: capitalised Latin words, or Chinese tagged as a name."""
    if name[:1].isascii():
        return (name[:1].isupper() or name[:1].isdigit()) and not is_description(name)
    return answer_spans(name, NAME, "zh") == [name] or answer_spans(name, "Person", "zh") == [name]


def _ways_to_asked(question: str, asker: str, facts: Sequence[Fact]) -> frozenset[str]:
    """The relatives a question passes through to whom it asks about (孙小梅 for 我表姐的老板): no answers to it."""
    relatives = asked_relatives(question, asker)
    if not relatives or not relative_of_relative(question, relatives):
        return frozenset()
    keys = {predicate_key(role) for role in relatives}
    return frozenset(fact.object for fact in facts if _states_role(fact, keys, relatives) and not fact.negated)


def names_called(facts: Sequence[Fact]) -> dict[str, set[str]]:
    """Each name's other names, as the evidence's naming facts state them (孟凡宇 叫 军哥: both ways)."""
    called: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        if is_relation(fact.predicate, "naming") and not fact.negated:
            called[fact.subject].add(fact.object)
            called[fact.object].add(fact.subject)
    return called


def read_from_episodes(
    analysis: QuestionAnalysis,
    question: str,
    asker: str,
    episodes: Sequence[Episode],
    about: Sequence[str] = (),
    called: Mapping[str, set[str]] | None = None,
    not_answers: frozenset[str] = frozenset(),
) -> Composed | None:
    """Read the answer out of a sentence of the best cited episodes, when one says it.

    A sentence answers when its episode is about what the question names (every name the
    question gives other than the asker's is in it or is its speaker; a first-person
    question is answered from the asker's own words or words that name the asker), it
    shares two thirds of the question's content words, and it holds a span of the kind asked
    (a time, a number, a proper name, what a list question lists) that the question does not
    already hold; a name counts as said when one of its other names (``called``) is. A
    question that names no kind ("what do I drink now?"), a state or a reason is answered by
    the sentence itself. A sentence the Reader holds to state no fact (a wish,
    a dream, a question, a joke) answers nothing. The answer quotes the sentence and who said it.
    """
    kind = answer_kind(analysis)
    listing = analysis.intent == "list" and kind not in ("Time", NUMBER)
    open_question = kind is None and analysis.intent == "lookup"
    if not (listing or open_question or kind in (*NAMED_KINDS, "Time", NUMBER, STATE, REASON, "Thing")):
        return None
    chinese = analysis.language == "zh"
    names = _others_named(analysis, asker, about)
    # Asked for a relative's own name, only what a naming word introduces is one (叫邵欣怡).
    relatives = asked_relatives(question, asker)
    own_name = kind == NAME and named_role(question, relatives) is not None
    # 我同事的鹦鹉叫啥: a name the sentence gives (叫芝麻) answers, not the relative's own.
    others_name = kind == NAME and bool(relatives) and asks_of_relatives_own(question, relatives)
    # 我表姐的老板叫什么: only a sentence about the boss can name the boss.
    through_role = relative_of_relative(question, relatives) if relatives else None
    about_asker = _is_about_asker(analysis, asker, about)
    category = category_word(question, analysis.language)
    # "the name of the brewery": a name asked of a class (not "what name", whose class is the name itself)
    named_class = category if kind == NAME and category and not is_kind_noun(category, analysis.language) else None
    keywords = [
        word
        for word in analysis.keywords
        if word not in analysis.entities
        and not is_kind_noun(word, analysis.language)
        and word.casefold() != category  # 什么乐器: the answer names the instrument, not "乐器"
        and not is_light_word(word, analysis.language)  # "is it going to cost": going says nothing
    ]
    # A time or a number the sentence must hold is itself a sign it answers: half the words will do.
    share = 0.5 if kind in ("Time", NUMBER) else 2 / 3
    beyond_relatives = [
        word for word in keywords if not (word in relatives or word[:1] * 2 == word and word[:1] in relatives)
    ]
    if analysis.multi_hop and beyond_relatives:
        # 我表姐的单位在哪个区: the cousin is the way to her employer; what says where it is need not name her.
        keywords = beyond_relatives
    verb = asked_verb(question, analysis.language) if open_question else None
    candidates = list(episodes[:EXTRACT_FROM])
    if asks_about_now(question, analysis.language):
        # "Where do I live now?": of the sentences that answer, the one said last is how things are.
        candidates.sort(key=lambda episode: said_at(episode.time, episode.created_at), reverse=True)
    for episode in candidates:
        if not all(
            name == episode.speaker
            or any(is_mentioned(form, episode.text) for form in (name, *(called or {}).get(name, ())))
            for name in names
        ):
            continue
        if about_asker and episode.speaker != asker and not is_mentioned(asker, episode.text):
            continue
        # "然后听一遍…" goes on from the turn before: that turn's words are the sentence's setting.
        setting = _turn_before(episode, episodes) if continues_previous(episode.text, analysis.language) else ""
        sentences = split_sentences(episode.corrected_to or episode.text)
        whole_turn = " ".join(sentences) if kind == "Time" and len(sentences) > 1 else None
        # "I gave a talk at a school. It was last week.": the turn says when when no one sentence does.
        for sentence in [*sentences, *([whole_turn] if whole_turn else [])]:
            if not _shares_words(f"{setting} {sentence}" if setting else sentence, keywords, chinese, share):
                continue
            if is_non_factual(sentence) not in (None, "emotion"):
                continue  # a wish, a dream, a question states nothing to answer with
            if through_role is not None and not is_mentioned(through_role, sentence):
                continue
            if calls_old(sentence, question, keywords, analysis.language):
                continue  # "the old work email … is dead" says what it was, not what it is
            if sentence.rstrip().endswith((":", "：")):
                continue  # "grocery run later:" only leads into what the next sentence says
            if kind == STATE or (open_question and not listing):
                if verb is not None and not _says_verb(sentence, verb, chinese):
                    continue  # 听什么歌: a sentence about the commute that says no listening is no answer
                if not answers_in_itself(sentence, episode.speaker, names, analysis.language):
                    continue
                value = sentence.strip().rstrip("。.!！;；")
            elif listing:
                value = listed_after(sentence, keywords, chinese)
                if value:
                    # "…：A、B" then "哦还有C": items added in the speaker's next turns belong to the list.
                    added = items_added_after(episode, episodes)
                    value = ("、" if chinese else ", ").join([value, *added]) if added else value
            else:
                spans = [
                    span
                    for span in answer_spans(sentence, kind or "", analysis.language)
                    if not is_mentioned(span, question)
                    and span not in (asker, episode.speaker)
                    and span not in not_answers
                    # which city: a name that is plainly an organisation (… Labs, 科技) or a person is none
                    and not (analysis.answer_kind == "Place" and guess_type(span) in ("Organization", "Person"))
                    # the name of the brewery: a city said beside it names no brewery
                    # (nor any name in a sentence that never says "brewery")
                    and not (
                        named_class
                        and (
                            not _says_class(sentence, named_class, chinese)
                            or (class_type(named_class) != "Place" and guess_type(span) == "Place")
                        )
                    )
                    and (not (own_name or others_name) or span in named_after_naming_word(sentence, analysis.language))
                ]
                if kind == "Time" and asks_for_clock(question, analysis.language):
                    spans.sort(key=has_clock, reverse=True)  # 几点: 六点半, not the day it is on
                if sentence is whole_turn and len(set(spans)) != 1:
                    spans = []  # a turn with two times does not say which one is asked
                value = spans[0] if spans else ""
                if kind == "Time" and value:
                    # "yesterday", said on 8 May 2023, answers "when" as 7 May 2023.
                    value = resolve_relative_time(value, said_at(episode.time, episode.created_at)) or value
            if not value:
                continue
            quote = sentence.strip().rstrip("。.")
            # A statement its speaker corrected next is quoted as corrected, and said to be.
            corrected = episode.corrected_to is not None
            if chinese:
                text = f"{value}。依据：{episode.speaker}说「{quote}」{'（更正后）' if corrected else ''}。"
            else:
                text = (
                    f'{value}. Based on what {episode.speaker} said{" (as corrected)" if corrected else ""}: "{quote}".'
                )

            return Composed(text, value, sources=[episode])
    return None


def quote_closest(
    analysis: QuestionAnalysis,
    asker: str,
    episodes: Sequence[Episode],
    about: Sequence[str] = (),
) -> Composed | None:
    """Quote what the person asked about said closest to an open question, when it was they who said it.

    An open question ("what did Caroline research?", "why …", "how did she feel …") has no
    span of a kind to look for, and the sentence that answers it need not repeat two thirds
    of its words. The sentence of the cited episodes that shares the most of the question's
    content words is taken; it answers, quoted, only when it is about whom the question
    names (said by them, or naming them other than by addressing them) — when the closest
    words are someone else's (her charity race, asked of her friend), memory does not say.
    """
    kind = answer_kind(analysis)
    if not (kind in CLAUSE_KINDS or (kind is None and analysis.intent == "lookup")):
        return None  # a list is every item, which one quoted sentence need not hold
    names = _others_named(analysis, asker, about)
    if asker and _is_about_asker(analysis, asker, about):
        names = [*names, asker]
    if not names:
        return None
    chinese = analysis.language == "zh"
    keywords = _distinct_words(_topic_words(analysis), chinese)
    best: tuple[int, str, Episode] | None = None
    for episode in episodes[:EXTRACT_FROM]:
        for sentence in split_sentences(episode.corrected_to or episode.text):
            shared = _shared_words(sentence, keywords, chinese)
            if shared and (best is None or shared > best[0]):
                best = (shared, sentence, episode)  # the best-ranked episode first on a tie
    if best is None:
        return None
    shared, sentence, episode = best
    if shared < max(1.0, len(keywords) / 2):
        return None
    if sentence.rstrip().endswith((":", "：")):
        return None  # "grocery run later:" only leads into what the next sentence says
    # "Your race sounds great" / "That sounds great, Mel": said to the listener, about the listener.
    to_listener = not speaks_of_self(sentence) and (
        speaks_to_listener(sentence) or addresses_someone(sentence, analysis.language)
    )
    if not all(
        (name == episode.speaker and not to_listener) or is_said_of(name, sentence, analysis.language) for name in names
    ):
        return None
    if is_non_factual(sentence) not in (None, "emotion"):
        return None
    if not answers_in_itself(sentence, episode.speaker, names, analysis.language):
        return None
    value = without_address(sentence, analysis.language).strip().rstrip("。.!！;；")
    if chinese:
        text = f"{value}。依据：{episode.speaker}说「{value}」。"
    else:
        text = f'{value}. Based on what {episode.speaker} said: "{value}".'
    return Composed(text, value, sources=[episode])


def _distinct_words(keywords: Sequence[str], chinese: bool) -> list[str]:
    """The question's words once each: a word and its lemma (meeting, meet; wrote, write) are one."""
    if chinese:
        return list(dict.fromkeys(keywords))
    return list(dict.fromkeys(english.lemma(word.casefold()) for word in keywords))


def answers_in_itself(sentence: str, speaker: str, names: Sequence[str], language: str) -> bool:
    """Whether a sentence, quoted whole, can answer what a question asks of what it names.

    Not when everything the Reader finds in it is denied ("I don't drink coffee anymore" says
    what is not drunk), nor when it gives a name the question asks about ("… is registered as
    Count Pickles"): it says what the thing is called, not anything else about it.
    """
    found = extract_quintuples(sentence, speaker)
    if found and all(quintuple.negated for quintuple in found):
        return False
    introduced = named_after_naming_word(sentence, language)
    return not any(is_mentioned(name, given) or is_mentioned(given, name) for name in names for given in introduced)


def _shared_words(sentence: str, keywords: Sequence[str], chinese: bool) -> int:
    """How many of the question's words a sentence says; ``keywords`` as ``_distinct_words`` gives them."""
    if chinese:
        return sum(word in sentence for word in keywords)
    said = {form for word in english.words(sentence.casefold()) for form in (word, english.lemma(word))}
    return sum(word in said for word in keywords)


def _others_named(analysis: QuestionAnalysis, asker: str, about: Sequence[str]) -> list[str]:
    """The names a question gives (and ``about``, a multi-hop question's own), the asker's aside."""
    return [name for name in dict.fromkeys([*analysis.entities, *about]) if name != asker]


def _is_about_asker(analysis: QuestionAnalysis, asker: str, about: Sequence[str]) -> bool:
    """Whether the question is about the asker ("my …", resolved to the asker's name)."""
    return asker in analysis.entities or asker in about


def listed_after(sentence: str, keywords: Sequence[str], chinese: bool) -> str:
    """What a sentence lists: after its colon, else after the last question word it holds (三门课：A、B，还有C).

    Words that only lead into the list (里, 还有, the) are cut; empty when nothing is listed.
    """
    colon = max(sentence.rfind("："), sentence.rfind(":"))
    if colon != -1:
        rest = sentence[colon + 1 :]
    else:
        found = [(sentence.casefold().rfind(word.casefold()), word) for word in keywords if word]
        ends = [at + len(word) for at, word in found if at != -1]
        if not ends:
            return ""
        rest = sentence[max(ends) :]
    return strip_lead_in(rest, chinese)


def _turn_before(episode: Episode, episodes: Sequence[Episode]) -> str:
    """The text of the speaker's turn just before ``episode`` among ``episodes`` (same session), or ""."""
    before = _previous_turn(episode, episodes)
    return before.text if before is not None else ""


def _previous_turn(episode: Episode, episodes: Sequence[Episode]) -> Episode | None:
    """The speaker's turn just before ``episode`` among ``episodes`` (same session), if there is one."""
    said = said_at(episode.time, episode.created_at)
    earlier = [
        other
        for other in episodes
        if other.id != episode.id
        and other.speaker == episode.speaker
        and other.session_id == episode.session_id
        and said_at(other.time, other.created_at) < said
    ]
    return max(earlier, key=lambda other: said_at(other.time, other.created_at)) if earlier else None


def items_added_after(episode: Episode, episodes: Sequence[Episode]) -> list[str]:
    """The items the speaker added in the turns right after ``episode`` ("oh and a lantern", 还有C), in order."""
    items: list[str] = []
    current = episode
    while True:
        following = next(
            (
                other
                for other in episodes
                if (before := _previous_turn(other, episodes)) is not None and before.id == current.id
            ),
            None,
        )
        item = find_addition(following.text) if following is not None else None
        if following is None or item is None:
            return items
        items.append(item)
        current = following


def _added_after(
    candidates: Sequence[AnswerCandidate], kept: Sequence[AnswerCandidate], episodes: Sequence[Episode]
) -> list[AnswerCandidate]:
    """The candidates read from a turn right after one a kept candidate (or an added one) was read from."""
    sources = {
        id(candidate): [
            episode for episode in episodes if candidate.support and episode.id in candidate.support[0].episode_ids
        ]
        for candidate in candidates
    }
    said_on = {episode.id for candidate in kept for episode in sources.get(id(candidate), [])}
    added: list[AnswerCandidate] = []
    grew = bool(said_on)
    while grew:
        grew = False
        for candidate in candidates:
            if candidate in kept or candidate in added:
                continue
            befores = [_previous_turn(episode, episodes) for episode in sources[id(candidate)]]
            if any(before is not None and before.id in said_on for before in befores):
                added.append(candidate)
                said_on.update(episode.id for episode in sources[id(candidate)])
                grew = True
    return added


def _says_class(sentence: str, category: str, chinese: bool) -> bool:
    """Whether a sentence says the class a name is asked of ("the brewery", 那家店)."""
    if chinese:
        return category in sentence
    said = {english.singular(word) for word in english.words(sentence.casefold())}
    return english.singular(category.casefold()) in said


def _says_verb(sentence: str, verb: str, chinese: bool) -> bool:
    """Whether a sentence says the verb a question asks about (看 in 然后看了《三体》; drink in "drank tea")."""
    if chinese:
        return verb in sentence
    return verb in {english.lemma(word) for word in english.words(sentence.casefold())}


def _shares_words(sentence: str, keywords: Sequence[str], chinese: bool, share: float = 2 / 3) -> bool:
    """Whether a sentence holds a share (two thirds) of the question's content words, and at least one."""
    if chinese:
        # One-character words (猫, 叫, 出) count when found, not against when missing; but a
        # sentence that shares only such a word (弟) with a question that has longer ones is not about it.
        content = [word for word in keywords if len(word) > 1]

        def is_said(word: str) -> bool:
            # 订单号 is said by 订单: a compound of three characters or more by its first two.
            return word in sentence or len(word) >= 3 and word[:2] in sentence

        shared = sum(is_said(word) for word in keywords)
        if content and not any(is_said(word) for word in content):
            return False
    else:
        bare = [word.removesuffix("'s").removesuffix("’s") for word in english.words(sentence.casefold())]
        said = {form for word in bare for form in (word, english.lemma(word))}
        # A word and its lemma (meeting, meet; wrote, write) are one word of the question.
        content = list(
            dict.fromkeys(
                english.lemma(word.casefold()) for word in keywords if word.casefold() not in english.STOPWORDS
            )
        )
        shared = sum(word in said for word in content)
    return shared >= 1 and shared >= share * len(content) - 1e-9


def _answer_phrase(candidate: AnswerCandidate) -> str:
    """The answer as a phrase: "painting watercolors" when the fact says "enjoys painting" them."""
    fact = candidate.support[0] if candidate.support else None
    if fact is None or fact.object_id != candidate.entity_id or fact.predicate_key not in {"likes", "dislikes"}:
        return candidate.name
    words = fact.predicate.split(" ")
    if len(words) == 2 and words[1].endswith("ing") and words[1].isascii():
        return f"{words[1]} {candidate.name}"
    return candidate.name


def _dated(phrase: str, fact: Fact | None, episodes: Sequence[Episode]) -> str:
    """A relative time ("yesterday") as the date it names, said when the episode of ``fact`` was."""
    source = next((episode for episode in episodes if fact is not None and episode.id in fact.episode_ids), None)
    if source is None:
        return phrase
    return resolve_relative_time(phrase, said_at(source.time, source.created_at)) or phrase


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
    question: str,
    facts: list[Fact],
    linked_ids: set[str],
    chinese: bool,
    lead: list[Fact] | None = None,
    relation_words: Sequence[str] | None = None,
) -> Composed:
    """Answer yes or no from a fact whose object the question names, minding negation.

    The object decides: "小周能吃辣吗" is settled by 小周 (不)吃 辣, while a fact
    that merely shares the subject (小周吃面) settles nothing. The object counts as
    named when it is written in the question or was linked to it (番茄 ~ 西红柿). The
    subject must be named or linked too, and the fact must state the asked relation (a
    question word in its predicate, or a copula): "Caroline shares a photo" does not settle
    "Did Caroline make the bowl in the photo?", nor "Caroline does Oscar" "Is Oscar Mel's pet?".
    """
    for fact in facts:
        written = is_mentioned(fact.object, question)
        named = written or fact.object_id in linked_ids
        owner = fact.subject_id in linked_ids or is_mentioned(fact.subject, question)
        # An object only similar to the question's (加急件 ~ 签证) must be settled by the relation
        # itself, not by a question word found inside the predicate (签证办).
        # "Can I swim?": when the object is all the question says beyond its subject, the
        # question asks about the fact itself (knows how to swim), whatever its relation.
        beyond = [word for word in relation_words or () if not _within(word, fact.object)]
        if named and owner and (not beyond or _settles(fact, beyond, loose=written)):
            if fact.negated:
                return _with_reasons(_chinese_no(fact) if chinese else "No", [*(lead or []), fact], chinese)
            return _with_reasons("是的" if chinese else "Yes", [*(lead or []), fact], chinese)
    return abstain(chinese, "nothing_found")


def _within(word: str, phrase: str) -> bool:
    """Whether a question word (or, in English, its lemma: swam -> swim) is written in the phrase."""
    folded = fold_text(phrase)
    return fold_text(word) in folded or (word.isascii() and fold_text(english.lemma(word.casefold())) in folded)


def _settles(fact: Fact, relation_words: Sequence[str], loose: bool = True) -> bool:
    """Whether the fact states a relation the question asks about.

    The same canonical relation (love ~ like), a copula, or (``loose``) a question word in its predicate.
    """
    if fact.predicate_key in ("is_a", "是") or fact.predicate.strip().casefold() in ("is", "are", "是"):
        return True
    if affirmed_relations(fact) & {predicate_key(word) for word in relation_words}:
        return True
    predicate = fold_text(fact.predicate)
    if not loose:
        return False
    return any(word and (word in predicate or predicate in word) for word in map(fold_text, relation_words))


def _with_reasons(answer: str, facts: list[Fact], chinese: bool) -> Composed:
    cited = facts[:MAX_REASONS]
    reasons = _join([sentence_of(fact) for fact in cited], chinese)
    text = f"{answer}。依据：{reasons}。" if chinese else f"{answer}. Based on memory: {reasons}."
    return Composed(text, answer, support=cited)


# Types a question and an answer may disagree on without the answer being wrong
# (where do I work? -> a city or a company; what do I use? -> a tool or a language).
# A person is none of them: "Dev" is not where my brother works.
_COMPATIBLE_TYPES: tuple[frozenset[str], ...] = (
    frozenset({"Place", "Organization"}),
    frozenset({"Tool", "Language", "Thing", "Organization"}),
    frozenset({"Food", "Thing"}),
    frozenset({"Activity", "Event"}),
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
