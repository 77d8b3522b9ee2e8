"""Rank stored episodes for a question: several entry points, fused by reciprocal rank.

Each signal ranks episodes with bounded store queries, never the whole graph:

- **dense**: nearest episodes by embedding (episodes are embedded as "speaker: text"
  in third person; the question is embedded with first person resolved the same way);
- **keywords**: the episode full-text index queried with the question's content
  words and scored by BM25, so a rare word, an exact number or a name the embedding
  blurs still matches (Chinese through pre-segmented terms);
- **spread**: a personalised-PageRank walk over episodes and the entities they
  mention, seeded by the best direct matches and the entities the question links
  to, so turns about the same people and things rise (multi-hop questions);
- **graph evidence** (optional): the episodes behind the facts the Answerer retrieved.

Rankings are fused by reciprocal rank (RRF, Cormack et al. 2009): score = sum of
1 / (k + rank), k = 60 as in the paper; RRF needs no calibration between signals.
Every constant here is a textbook default (RRF k, BM25 k1/b, the PageRank restart
of HippoRAG) or a round bound on work, not a value fitted to a benchmark.

Measured on the LoCoMo dev sample (``elephant eval locomo``): episodes that mention
the linked entities, as a ranking of their own, and the graph evidence both lowered
recall when fused; the spread uses the mentions instead, and ``Broker.recall`` does
not pass graph evidence.

Pure functions over a ``GraphStore`` and an ``Embeddings``: ``Broker.recall`` and the
answer graph's retrieve node can both call ``rank_episodes``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from langchain_core.embeddings import Embeddings

from language.english import STOPWORDS
from language.names import search_text
from schemas.models import Entity, Episode
from store import GraphStore
from store.base import fulltext_terms

RRF_K = 60
"""The reciprocal-rank-fusion constant of Cormack, Clarke & Büttcher (SIGIR 2009)."""
CANDIDATES = 50
"""How many episodes each signal contributes (RRF adds at most 1/(60+50) past that)."""
SEED_EPISODES = 10
"""Direct matches that seed the spread: the first page a reader would look at."""
RESTART = 0.5
"""Restart probability of the personalised PageRank walk, as in HippoRAG (Gutiérrez et al., 2024)."""

_QUESTION_WORDS = frozenset({"what", "who", "whom", "whose", "where", "when", "why", "how", "which"})
# Chinese function words and question words: a single character or a word like 什么
# that says nothing about what is asked.
_ZH_FUNCTION_WORDS = frozenset(
    "的 了 是 吗 呢 吧 啊 呀 么 我 你 他 她 它 们 在 和 与 或 也 都 就 还 有 这 那 哪 谁 什 个 一 不 没 会 要 想 "
    "什么 哪里 哪儿 哪个 哪些 怎么 怎样 如何 为什么 多少 时候 我们 你们 他们 她们 这个 那个 是不是 有没有".split()
)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[Episode]], k: int = RRF_K) -> list[Episode]:
    """Fuse rankings of episodes: score = sum of 1 / (k + rank); ties keep first-seen order.

    An episode ranked well by several signals beats one ranked first by only one:
    with k = 60, ranks (2, 2) score 2/62 and rank (1) scores 1/61.
    """
    scores: dict[str, float] = {}
    episodes: dict[str, Episode] = {}
    for ranking in rankings:
        for rank, episode in enumerate(ranking, start=1):
            scores[episode.id] = scores.get(episode.id, 0.0) + 1.0 / (k + rank)
            episodes.setdefault(episode.id, episode)
    return [episodes[eid] for eid in sorted(scores, key=lambda eid: -scores[eid])]


def keyword_terms(question: str) -> list[str]:
    """Return the question's content words as safe full-text terms.

    The same segmentation the episodes were indexed with (jieba tokens plus CJK
    bigrams), minus stop words, wh-words, Chinese function words and single Latin
    letters; numbers and names stay (they are what keyword search is for).
    """
    terms: list[str] = []
    for term in fulltext_terms(search_text(question)):
        if term in STOPWORDS or term in _QUESTION_WORDS or term in _ZH_FUNCTION_WORDS:
            continue
        if term.isascii() and len(term) < 2 and not term.isdigit():
            continue
        terms.append(term)
    return list(dict.fromkeys(terms))


def dense_ranking(
    store: GraphStore, embeddings: Embeddings, scope: str, question: str, k: int = CANDIDATES
) -> list[Episode]:
    """Rank episodes by embedding similarity to the question (first person already resolved)."""
    vector = embeddings.embed_query(question)
    return [episode for episode, _ in store.search_episodes_vector(scope, vector, k=k)]


def keyword_ranking(store: GraphStore, scope: str, question: str, k: int = CANDIDATES) -> list[Episode]:
    """Rank episodes by BM25 of the question's content words (the episode full-text index)."""
    return [episode for episode, _ in store.search_episodes_text(scope, keyword_terms(question), k=k)]


def spread_ranking(
    store: GraphStore,
    scope: str,
    seeds: Sequence[Episode],
    anchors: Iterable[tuple[Entity, float]] = (),
    k: int = CANDIDATES,
) -> list[Episode]:
    """Rank episodes by a personalised PageRank spread from seed episodes and linked entities.

    The walk runs on the bipartite graph of episodes and the entities they mention
    (``MENTIONS``), restarting with probability ``RESTART`` at the seeds: the seed
    episodes weighted 1/rank, the linked entities by link weight × IDF. Two steps
    (episode → entity → episode) are computed exactly, on the bounded subgraph they
    touch: the seeds' entities, the anchors, and the ``k`` episodes receiving the
    most mass, summed in the store. On LoCoMo, ten steps (and fact edges, which only
    move mass between entities within two steps) changed recall@10 by under a point.
    So an episode about the same people and things as the best direct matches rises,
    which is what a multi-hop question needs (its second fact shares an entity with
    the first, not words with the question).
    """
    weights: dict[str, float] = {}
    seed_episodes = {episode.id: 1.0 / rank for rank, episode in enumerate(seeds, start=1)}
    linked = {entity.id: weight for entity, weight in anchors}
    if linked:
        for entity_id, idf in inverse_document_frequencies(store, scope, linked).items():
            weights[entity_id] = linked[entity_id] * idf
    total = sum(seed_episodes.values()) + sum(weights.values())
    if not total:
        return []
    mentions = store.mentions_of_episodes(scope, seed_episodes) if seed_episodes else {}
    # Step one: the restart mass stays on the anchors; the seed episodes' mass moves to
    # their entities, split evenly over what each mentions.
    entity_mass = {entity_id: RESTART * weight / total for entity_id, weight in weights.items()}
    for episode_id, entity_ids in mentions.items():
        for entity_id in entity_ids:
            share = (1 - RESTART) * seed_episodes[episode_id] / total / len(entity_ids)
            entity_mass[entity_id] = entity_mass.get(entity_id, 0.0) + share
    # Step two: each entity's mass moves to the episodes mentioning it, split by its degree.
    degrees = store.mention_counts(scope, entity_mass)
    push = {
        entity_id: (1 - RESTART) * mass / degrees[entity_id]
        for entity_id, mass in entity_mass.items()
        if degrees.get(entity_id)
    }
    scores: dict[str, float] = {}
    found: dict[str, Episode] = {episode.id: episode for episode in seeds}
    for episode, score, _ in store.episodes_mentioning(scope, push, limit=k):
        scores[episode.id] = score
        found[episode.id] = episode
    for episode_id, weight in seed_episodes.items():
        scores[episode_id] = scores.get(episode_id, 0.0) + RESTART * weight / total
    ranked = sorted(scores, key=lambda episode_id: -scores[episode_id])
    return [found[episode_id] for episode_id in ranked[:k]]


def inverse_document_frequencies(store: GraphStore, scope: str, entity_ids: Iterable[str]) -> dict[str, float]:
    """Return log(1 + N / df) per entity: N episodes in the scope, df of them mention it."""
    ids = list(entity_ids)
    if not ids:
        return {}
    total = store.episode_count(scope)
    counts = store.mention_counts(scope, ids)
    return {entity_id: math.log(1.0 + total / max(counts.get(entity_id, 0), 1)) for entity_id in ids}


def rank_episodes(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    question: str,
    anchors: Iterable[tuple[Entity, float]] = (),
    evidence: Sequence[Episode] = (),
    k: int = 10,
) -> list[Episode]:
    """Return the ``k`` episodes most relevant to a question, best first.

    The direct signals (dense, keywords) are fused first; their top ``SEED_EPISODES``
    and the linked entities seed the spread; then the three rankings (and the graph
    evidence, when given) are fused again, all by reciprocal rank.

    Args:
        store: The graph store.
        embeddings: The embedder episodes were stored with.
        scope: The agent whose memory is read.
        question: The question with first person resolved to the speaker.
        anchors: The entities the question links to, with link weights
            (``nodes.retrieve_evidence.link_entities``).
        evidence: Episodes behind the facts the Answerer retrieved, best first
            (optional: on LoCoMo adding them lowered recall@10, see the module notes).
        k: How many episodes to return.
    """
    depth = max(k, CANDIDATES)
    direct = [
        dense_ranking(store, embeddings, scope, question, depth),
        keyword_ranking(store, scope, question, depth),
    ]
    seeds = reciprocal_rank_fusion(direct)[:SEED_EPISODES]
    rankings: list[Sequence[Episode]] = [*direct, spread_ranking(store, scope, seeds, list(anchors), depth)]
    if evidence:
        rankings.append(evidence)
    return reciprocal_rank_fusion([ranking for ranking in rankings if ranking])[:k]
