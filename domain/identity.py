"""Identity resolution: resolve every name of an episode to a stored or a new entity.

Each distinct *mention* — a normalised name key qualified by its type class
(``language.names.mention_key``: ``苹果#food``, ``python``) — goes through stages
until one decides:

a. **Exact key.** The stored entity under the name key, or its class variant. Types
   take part: the plain key belongs to the first entity of that name; a mention of an
   incompatible class (苹果公司, an Organization, after 苹果 the fruit) gets the
   class-qualified key. Generic types (Concept, Thing) fit any class.
b. **Alias table.** Names merged before (active ``:Merge`` records) resolve to the
   entity they were merged into, and the record gains this episode and its facts.
c. **Full-text candidates** and d. **embedding neighbours** of the name are scored:
   a lexical relation (abbreviation 北大/北京大学, acronym JS/JavaScript, numeronym
   k8s, head word 清华/清华大学) confirmed by name similarity merges
   (method ``fulltext``); similarity alone merges above its own threshold (method
   ``embedding``). Persons and times never merge by similarity, names with different
   numbers never merge, incompatible classes never merge.
e. **LLM** (LLM mode only): the uncertain band — compatible candidates above
   ``identity_llm_floor`` that no rule settled — is adjudicated in one structured call.

Names of the same episode are also compared with each other (北京大学 and 北大 in one
text). Every merge except an exact key is recorded (``MergeRecord``) and written in
the episode's transaction, so ``elephant entities unmerge ID`` can undo it. The
thresholds are ``Context`` settings chosen with ``scripts/measure_resolution.py``
(docs/identity.md).

Plain functions over a ``GraphStore`` and an ``Embeddings`` model: :func:`resolve_episode`
returns the episode's entity rows (with the ``mention_keys`` that reach each) and merge
records, which ``domain.episodes.plan_episode`` completes with facts; :func:`unmerge`
undoes one merge. The ``resolve_entities`` node calls them.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
from elephant_broker.domain.episodes import embed_distinct, fact_identity
from elephant_broker.language.names import (
    TYPE_CLASSES,
    classes_compatible,
    digits_differ,
    display_name,
    entity_search_text,
    identity_key,
    may_be_alias,
    mention_key,
    name_relation,
    normalize_name,
    search_text,
    type_class,
)
from elephant_broker.language.predicates import predicate_key
from elephant_broker.prompts.builder import IDENTITY_SYSTEM, IDENTITY_USER
from elephant_broker.providers.chat_models import ModelError, ask_model
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import stable_id
from elephant_broker.schemas.models import ENTITY_TYPES, EntityRow, MergeMethod, MergeRecord, Quintuple
from elephant_broker.store import GraphStore
from elephant_broker.store.base import entity_id, now_ms
from elephant_broker.store.merges import GENERIC_TYPES, EntityIdentity, FactMove, UnmergePlan
from elephant_broker.store.terms import fulltext_terms
from langchain_core.embeddings import Embeddings
from pydantic import BaseModel, Field

logger = logging.getLogger(__name__)

SPECIFIC_CLASSES: tuple[str, ...] = tuple(dict.fromkeys(TYPE_CLASSES.values()))
"""Every non-generic identity class (person, org, place, time, food, event)."""


class IdentityVerdict(BaseModel):
    """The model's verdict on one pair of names."""

    pair: int = Field(description="The number of the pair in the list.")
    same: bool = Field(description="True only if both names denote the same real-world entity.")
    reason: str = Field(default="", description="A few words on why.")


class IdentityVerdicts(BaseModel):
    """The LLM's structured output for entity adjudication."""

    verdicts: list[IdentityVerdict] = Field(default_factory=list)


@dataclass(frozen=True)
class IdentitySettings:
    """The named thresholds of resolution (``Context.identity_*``)."""

    lexical_similarity: float = 0.88
    embedding_similarity: float = 1.01
    llm_floor: float = 0.84
    candidates: int = 8
    llm_max_pairs: int = 8

    @classmethod
    def from_context(cls, context: Context) -> IdentitySettings:
        """Read the settings from a run context."""
        return cls(
            lexical_similarity=float(context.identity_lexical_similarity),
            embedding_similarity=float(context.identity_embedding_similarity),
            llm_floor=float(context.identity_llm_floor),
            candidates=int(context.identity_candidates),
            llm_max_pairs=int(context.identity_llm_max_pairs),
        )


@dataclass
class Mention:
    """One distinct name of the episode in one identity class."""

    key: str
    name_key: str
    cls: str
    name: str
    type: str


@dataclass
class IdentityCandidate:
    """A stored (or same-episode) entity a mention might be."""

    key: str
    name: str
    type: str
    similarity: float
    relation: str | None = None
    aliases: list[str] = field(default_factory=list)
    source: str = "vector"


@dataclass
class Resolution:
    """Where one mention went, and why."""

    mention: Mention
    key: str
    is_new: bool
    method: MergeMethod | None = None
    score: float = 1.0
    reason: str = ""
    merge_id: str | None = None


Verdict = Literal["merge", "ask", "apart"]
Adjudicator = Callable[[list[tuple[Mention, IdentityCandidate]]], list[tuple[bool, str]]]


# -- an episode ----------------------------------------------------------------------------


@dataclass
class ResolvedNames:
    """An episode's names, resolved: its entity rows, its merges and what went differently."""

    entities: list[EntityRow]
    """One row per resolved key, with the mention keys that reach it."""
    merges: list[MergeRecord]
    """A record of every merge but an exact key (written with the episode, undone by :func:`unmerge`)."""
    notes: list[str]
    """A model that failed, and that the offline rules kept uncertain names apart instead."""


def resolve_episode(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    episode_id: str,
    quintuples: Sequence[Quintuple],
    settings: IdentitySettings,
    llm_spec: str = "",
) -> ResolvedNames:
    """Resolve the names of one episode's quintuples to entity keys (a batch of one, :func:`resolve_batch`).

    Args:
        store: The graph store (read only).
        embeddings: The name embedder (the same model entity embeddings were made with).
        scope: The memory scope.
        episode_id: The episode the names come from (merge records name it).
        quintuples: What the Reader found in the episode.
        settings: The thresholds.
        llm_spec: A ``provider:model`` chat model that adjudicates the uncertain band ("" offline).

    Returns:
        The entity rows, the merge records and the notes of a failed model.
    """
    return resolve_batch(store, embeddings, scope, [(episode_id, quintuples)], settings, llm_spec)[0]


def resolve_batch(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    episodes: Sequence[tuple[str, Sequence[Quintuple]]],
    settings: IdentitySettings,
    llm_spec: str = "",
) -> list[ResolvedNames]:
    """Resolve the names of a batch of episodes, in order, as if each were written before the next.

    The store is read once for the whole batch (:class:`IdentityBatch`); each episode
    then sees the entities, aliases and merges of the episodes before it in the batch,
    which are not written yet.

    Args:
        store: The graph store (read only).
        embeddings: The name embedder (the same model entity embeddings were made with).
        scope: The memory scope.
        episodes: ``(episode id, quintuples)`` per episode, in order.
        settings: The thresholds.
        llm_spec: A ``provider:model`` chat model that adjudicates the uncertain band ("" offline).

    Returns:
        One resolution of names per episode, in order.
    """
    mentions = [collect_mentions(quintuples) for _, quintuples in episodes]
    batch = IdentityBatch(store, embeddings, scope, [m for found in mentions for m in found], settings.candidates)
    failures: list[str] = []
    adjudicate = llm_adjudicator(llm_spec, failures) if llm_spec else None
    resolved: list[ResolvedNames] = []
    for (episode_id, quintuples), found in zip(episodes, mentions, strict=True):
        noted = len(failures)
        resolutions = decide(batch.gather(found), settings, adjudicate)
        names = ResolvedNames(
            entity_rows(resolutions), merge_records(scope, episode_id, resolutions, quintuples), failures[noted:]
        )
        batch.apply(episode_id, names.entities, names.merges)
        resolved.append(names)
    return resolved


def collect_mentions(quintuples: Sequence[Quintuple]) -> list[Mention]:
    """Return the distinct mentions of the quintuples, specific classes first."""
    found: dict[str, Mention] = {}
    for quintuple in quintuples:
        for name, kind in ((quintuple.subject, quintuple.subject_type), (quintuple.object, quintuple.object_type)):
            shown = display_name(name)
            kind = kind if kind in ENTITY_TYPES else "Concept"
            key = mention_key(shown, kind)
            mention = found.get(key)
            if mention is None:
                found[key] = Mention(key, normalize_name(shown), type_class(kind), shown, kind)
            elif mention.type in ("Concept", "Thing") and kind not in ("Concept", "Thing"):
                mention.type = kind
    # A generic mention (Python, Concept) should join the specific one of the episode.
    return sorted(found.values(), key=lambda mention: mention.cls == "")


# -- resolution -----------------------------------------------------------------------------


@dataclass
class Gathered:
    """What the store says about an episode's mentions, before any threshold is applied."""

    mentions: list[Mention]
    known: dict[str, EntityIdentity]
    settled: dict[str, Resolution]
    candidates: dict[str, list[IdentityCandidate]]
    vectors: dict[str, np.ndarray]


def resolve_mentions(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    mentions: Sequence[Mention],
    settings: IdentitySettings,
    adjudicate: Adjudicator | None = None,
) -> list[Resolution]:
    """Resolve mentions against the store (and each other), stage by stage.

    Args:
        store: The graph store (read only).
        embeddings: The name embedder (the same model entity embeddings were made with).
        scope: The memory scope.
        mentions: Distinct mentions, specific classes first.
        settings: The thresholds.
        adjudicate: LLM mode: a function returning ``(same, reason)`` per uncertain pair.

    Returns:
        One resolution per mention, in the order given.
    """
    return decide(gather(store, embeddings, scope, mentions, settings.candidates), settings, adjudicate)


def gather(store: GraphStore, embeddings: Embeddings, scope: str, mentions: Sequence[Mention], k: int = 8) -> Gathered:
    """Run the stages that only read: exact keys, the alias table, and the candidates of the rest.

    Args:
        store: The graph store.
        embeddings: The name embedder.
        scope: The memory scope.
        mentions: Distinct mentions, specific classes first.
        k: Full-text and vector candidates per mention.

    Returns:
        The settled mentions (exact key, alias) and the candidates of the others.
    """
    return IdentityBatch(store, embeddings, scope, mentions, k).gather(mentions)


class IdentityBatch:
    """The store's entities as a batch of episodes is changing them, before anything is written.

    The store is read once for every name of the batch (the entities under its keys,
    the alias table, and for the names no stored key or alias settles, their full-text
    and nearest-name candidates with their similarities); a name that becomes
    unsettled only because of an earlier episode of the batch is looked up when met.
    :meth:`apply` then records what each resolved episode will do to the entities
    (new entities, spellings and merged names, mention counts, specific types), so
    the next episode is resolved as if it were written: its exact keys and alias table
    include the batch's, and the entities the batch created are candidates too. Those
    are found as the store would find them by embedding (the same ``k`` nearest, over
    the stored and the batch's entities); by full text, any that shares a search term
    is a candidate (the rules still decide).
    """

    def __init__(
        self, store: GraphStore, embeddings: Embeddings, scope: str, mentions: Sequence[Mention], k: int = 8
    ) -> None:
        """Read what the store holds about these mentions and embed their names (one call)."""
        self.store, self.embeddings, self.scope, self.k = store, embeddings, scope, k
        distinct = list({mention.key: mention for mention in mentions}.values())
        variants = {identity_key(m.name_key, cls) for m in distinct for cls in ("", *SPECIFIC_CLASSES)}
        self.known: dict[str, EntityIdentity] = store.identities_by_keys(scope, variants)
        # The alias table, newest first (the batch's merges go in front as they are made).
        self.merges: list[MergeRecord] = store.active_merges(scope, {m.name_key for m in distinct})
        self.known.update(store.identities_by_keys(scope, {m.into_key for m in self.merges} - self.known.keys()))
        names = sorted({m.name for m in mentions}, key=lambda name: (len(name), name))
        self.name_vectors: dict[str, np.ndarray] = dict(zip(names, _embed(embeddings, names), strict=True))
        self.stored: dict[str, EntityIdentity] = {}
        """Stored candidates by id, as read."""
        self.sources: dict[str, dict[str, str]] = {}
        """Mention key -> stored candidate id -> how it was found ("fulltext", "vector")."""
        self.nearest: dict[str, list[tuple[str, float]]] = {}
        """Mention key -> its nearest stored entities by embedding, with similarities."""
        self.similarities: dict[str, dict[str, float]] = {}
        self.created: dict[str, str] = {}
        """Entity id -> key of the entities the batch created."""
        self.terms: dict[str, set[str]] = {}
        """Entity id -> the search terms the batch gave it (all of a created entity's)."""
        self.mentioned: set[tuple[str, str]] = set()
        pending = [m for m in distinct if _exact(m, self.known) is None and self._alias(m, self.known) is None]
        self._fetch(pending)

    def gather(self, mentions: Sequence[Mention]) -> Gathered:
        """Gather one episode's mentions as the store would, had the episodes applied so far been written."""
        known = {key: replace(identity, aliases=list(identity.aliases)) for key, identity in self.known.items()}
        settled: dict[str, Resolution] = {}
        # (a) exact key
        for mention in mentions:
            key = _exact(mention, known)
            if key is not None:
                _claim(known, key, mention)
                settled[mention.key] = Resolution(mention, key, is_new=False)
        # (b) alias table
        for mention in (m for m in mentions if m.key not in settled):
            found = self._alias(mention, known)
            if found is not None:
                merge, target = found
                settled[mention.key] = Resolution(
                    mention, target.key, False, "alias", 1.0, f"alias of {target.name}", merge.id
                )
        # (c, d) full-text and embedding candidates of the rest
        pending = [m for m in mentions if m.key not in settled]
        self._fetch(pending)
        vectors = {m.key: self.name_vectors[m.name] for m in pending}
        candidates = {m.key: self._candidates(m, vectors[m.key], known) for m in pending}
        return Gathered(list(mentions), known, settled, candidates, vectors)

    def apply(self, episode_id: str, entities: Sequence[EntityRow], merges: Sequence[MergeRecord]) -> None:
        """Record what writing one resolved episode does to the entities (as ``GraphStore.write_plans`` does)."""
        for row in entities:
            identity = self._identity(row.key)
            if identity is None:
                identity = self.known[row.key] = EntityIdentity(
                    id=entity_id(self.scope, row.key), key=row.key, name=row.name, type=row.type
                )
                self.created[identity.id] = row.key
                self.terms[identity.id] = set(fulltext_terms(row.search_text))
            if (episode_id, row.key) not in self.mentioned:
                self.mentioned.add((episode_id, row.key))
                identity.mention_count += 1
            if row.name != identity.name and row.name not in identity.aliases:
                identity.aliases.append(row.name)
        for merge in merges:
            identity = self._identity(merge.into_key)
            if identity is None:  # a merge is always into an entity of the episode's rows
                continue
            if merge.alias != identity.name and merge.alias not in identity.aliases:
                identity.aliases.append(merge.alias)
            if merge.alias_key not in identity.alias_keys:
                identity.alias_keys.append(merge.alias_key)
                self.terms.setdefault(identity.id, set()).update(fulltext_terms(search_text(merge.alias)))
            if all(stored.id != merge.id for stored in self.merges):
                self.merges.insert(0, merge)
        for row in entities:
            identity = self.known[row.key]
            if identity.type in GENERIC_TYPES and row.type not in GENERIC_TYPES:
                identity.type = row.type

    def _identity(self, key: str) -> EntityIdentity | None:
        """The entity under a key as the batch has it, taking a stored candidate in when first changed."""
        identity = self.known.get(key)
        if identity is None:
            stored = self.stored.get(entity_id(self.scope, key))
            if stored is not None:
                identity = self.known[key] = replace(
                    stored, aliases=list(stored.aliases), alias_keys=list(stored.alias_keys)
                )
        return identity

    def _name_vector(self, name: str) -> np.ndarray:
        if name not in self.name_vectors:
            self.name_vectors[name] = _embed(self.embeddings, [name])[0]
        return self.name_vectors[name]

    def _alias(self, mention: Mention, known: dict[str, EntityIdentity]) -> tuple[MergeRecord, EntityIdentity] | None:
        for merge in self.merges:
            target = known.get(merge.into_key)
            if (
                merge.alias_key == mention.name_key
                and target is not None
                and classes_compatible(type_class(merge.alias_type), mention.cls)
                and classes_compatible(type_class(target.type), mention.cls)
            ):
                return merge, target
        return None

    def _fetch(self, mentions: Sequence[Mention]) -> None:
        """Read the stored candidates of mentions not looked up yet: four queries for all of them."""
        todo = list({m.key: m for m in mentions if m.key not in self.sources}.values())
        if not todo:
            return
        store, scope = self.store, self.scope
        texts = store.entities_by_terms(scope, {m.key: fulltext_terms(search_text(m.name)) for m in todo}, self.k)
        near = store.entities_near(scope, {m.key: self.name_vectors[m.name].tolist() for m in todo}, self.k)
        for mention in todo:
            sources = dict.fromkeys(texts.get(mention.key, []), "fulltext")
            self.nearest[mention.key] = near.get(mention.key, [])
            for eid, _ in self.nearest[mention.key]:
                sources.setdefault(eid, "vector")
            self.sources[mention.key] = sources
        self.stored.update(store.identities_by_ids(scope, {eid for m in todo for eid in self.sources[m.key]}))
        # Similarities are computed in the store, so no stored vector crosses the wire;
        # names stored without an embedding are embedded here.
        self.similarities.update(
            store.similarities_to(
                scope, {m.key: (list(self.sources[m.key]), self.name_vectors[m.name].tolist()) for m in todo}
            )
        )
        missing = sorted(
            {
                self.stored[eid].name
                for m in todo
                for eid in self.sources[m.key]
                if eid in self.stored and eid not in self.similarities.get(m.key, {})
            }
            - self.name_vectors.keys()
        )
        self.name_vectors.update(zip(missing, _embed(self.embeddings, missing), strict=True))

    def _candidates(
        self, mention: Mention, vector: np.ndarray, known: dict[str, EntityIdentity]
    ) -> list[IdentityCandidate]:
        """The mention's candidates: the store's, and the batch's entities the store would find by now."""
        by_id = {identity.id: identity for identity in known.values() if identity.id}
        made = {eid: float(vector @ self._name_vector(by_id[eid].name)) for eid in self.created if eid in by_id}
        words = set(fulltext_terms(search_text(mention.name)))
        sources = {eid: source for eid, source in self.sources[mention.key].items() if source == "fulltext"}
        for eid, terms in self.terms.items():
            if terms & words:
                sources.setdefault(eid, "fulltext")
        nearest = sorted([*self.nearest[mention.key], *made.items()], key=lambda hit: -hit[1])[: self.k]
        for eid, _ in nearest:
            sources.setdefault(eid, "vector")
        listed: list[IdentityCandidate] = []
        for eid, source in sources.items():
            identity = by_id.get(eid) or self.stored.get(eid)
            if identity is None:
                continue
            names_of = [identity.name, *identity.aliases]
            relation = next(filter(None, (name_relation(mention.name, name) for name in names_of)), None)
            if eid in made:
                similarity = made[eid]
            elif eid in self.similarities.get(mention.key, {}):
                similarity = self.similarities[mention.key][eid]
            else:
                similarity = float(vector @ self._name_vector(identity.name))
            listed.append(
                IdentityCandidate(
                    identity.key, identity.name, identity.type, similarity, relation, identity.aliases, source
                )
            )
        return listed


def decide(gathered: Gathered, settings: IdentitySettings, adjudicate: Adjudicator | None = None) -> list[Resolution]:
    """Apply the thresholds (and the LLM) to gathered candidates; key the new entities.

    Args:
        gathered: What :func:`gather` found; it is not modified.
        settings: The thresholds.
        adjudicate: LLM mode: a function returning ``(same, reason)`` per uncertain pair.

    Returns:
        One resolution per mention, in the order gathered.
    """
    mentions = gathered.mentions
    known = dict(gathered.known)
    done = dict(gathered.settled)
    ask: list[tuple[Mention, IdentityCandidate]] = []
    for mention in (m for m in mentions if m.key not in done):
        best_merge: tuple[IdentityCandidate, str, str] | None = None
        best_ask: IdentityCandidate | None = None
        for candidate in gathered.candidates.get(mention.key, []):
            verdict, method, reason = judge(mention, candidate, settings)
            if verdict == "merge" and (best_merge is None or _rank(candidate) > _rank(best_merge[0])):
                best_merge = (candidate, method, reason)
            elif verdict == "ask" and (best_ask is None or candidate.similarity > best_ask.similarity):
                best_ask = candidate
        if best_merge is not None:
            candidate, method, reason = best_merge
            done[mention.key] = Resolution(mention, candidate.key, False, method, candidate.similarity, reason)  # type: ignore[arg-type]
        elif best_ask is not None:
            ask.append((mention, best_ask))

    # (e) LLM adjudication of the uncertain band
    if adjudicate is not None and ask:
        ask.sort(key=lambda pair: -pair[1].similarity)
        batch = ask[: settings.llm_max_pairs]
        try:
            answers = adjudicate(batch)
        except Exception:  # a failing model must not lose the episode: keep names apart
            logger.exception("LLM entity adjudication failed; keeping the names apart")
            answers = [(False, "")] * len(batch)
        for (mention, candidate), (same, reason) in zip(batch, answers, strict=False):
            if same and mention.key not in done:
                why = f"LLM: {reason}" if reason else f"LLM: same as {candidate.name}"
                done[mention.key] = Resolution(mention, candidate.key, False, "llm", candidate.similarity, why)

    # names of the same episode, with each other
    pending = [m for m in mentions if m.key not in done]
    aliases_of = _episode_pairs(pending, gathered.vectors, settings)

    # new entities: the plain key for the first of a name, else the class-qualified key
    for mention in pending:
        if mention.key in aliases_of:
            continue
        key = mention.name_key if mention.name_key not in known else identity_key(mention.name_key, mention.cls)
        _claim(known, key, mention)
        done[mention.key] = Resolution(mention, key, is_new=True)
    for alias_key, (canonical, method, score, reason) in aliases_of.items():
        alias = next(m for m in pending if m.key == alias_key)
        done[alias_key] = Resolution(alias, done[canonical].key, False, method, score, reason)
    return [done[m.key] for m in mentions]


def judge(mention: Mention, candidate: IdentityCandidate, settings: IdentitySettings) -> tuple[Verdict, str, str]:
    """Decide one pair: merge (with the method), ask the LLM, or keep apart.

    Args:
        mention: The new name.
        candidate: A stored (or same-episode) entity, with the names' cosine and relation.
        settings: The thresholds.

    Returns:
        ``(verdict, method, reason)``.
    """
    other = type_class(candidate.type)
    if not classes_compatible(mention.cls, other):
        return "apart", "", "types differ"
    if "time" in (mention.cls, other):
        return "apart", "", "times match only by key"
    if digits_differ(mention.name, candidate.name) and candidate.relation != "numeronym":
        return "apart", "", "numbers differ"
    similarity = candidate.similarity
    if "person" not in (mention.cls, other):
        if candidate.relation and similarity >= settings.lexical_similarity:
            reason = f"{candidate.relation}: {mention.name} / {candidate.name}, cosine {similarity:.3f}"
            return "merge", "fulltext", reason
        if similarity >= settings.embedding_similarity:
            return "merge", "embedding", f"{mention.name} / {candidate.name}, cosine {similarity:.3f}"
    if similarity >= settings.llm_floor and (
        candidate.relation or any(may_be_alias(mention.name, name) for name in [candidate.name, *candidate.aliases])
    ):
        return "ask", "", f"uncertain: cosine {similarity:.3f}"
    return "apart", "", f"cosine {similarity:.3f}"


def _rank(candidate: IdentityCandidate) -> tuple[bool, float]:
    return (candidate.relation is not None, candidate.similarity)


def _exact(mention: Mention, known: dict[str, EntityIdentity]) -> str | None:
    if mention.cls:
        own = identity_key(mention.name_key, mention.cls)
        if own in known:
            return own
        plain = known.get(mention.name_key)
        if plain is not None and classes_compatible(type_class(plain.type), mention.cls):
            return mention.name_key
        return None
    if mention.name_key in known:
        return mention.name_key
    variants = [known[k] for k in (identity_key(mention.name_key, c) for c in SPECIFIC_CLASSES) if k in known]
    return max(variants, key=lambda entity: entity.mention_count).key if variants else None


def _claim(known: dict[str, EntityIdentity], key: str, mention: Mention) -> None:
    """Record that ``key`` now holds this mention (a specific type upgrades a generic one)."""
    entity = known.get(key)
    if entity is None:
        known[key] = EntityIdentity(id="", key=key, name=mention.name, type=mention.type)
    elif type_class(entity.type) == "" and mention.cls:
        entity.type = mention.type


def _embed(embeddings: Embeddings, names: list[str]) -> list[np.ndarray]:
    """Return unit vectors of the names, in order (each distinct name embedded once)."""
    if not names:
        return []
    embedded = embed_distinct(embeddings, names)
    vectors = np.asarray([embedded[name] for name in names], dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return list(vectors / np.where(norms == 0, 1.0, norms))


def _episode_pairs(
    mentions: Sequence[Mention], vectors: dict[str, np.ndarray], settings: IdentitySettings
) -> dict[str, tuple[str, MergeMethod, float, str]]:
    """Merge new names of one episode with each other: ``alias mention key -> (canonical, ...)``."""
    pairs: list[tuple[float, Mention, Mention, str, str]] = []
    for i, left in enumerate(mentions):
        for right in mentions[i + 1 :]:
            # The longer name is the canonical one (北京大学, not 北大).
            long, short = (left, right) if len(left.name_key) >= len(right.name_key) else (right, left)
            similarity = float(vectors[long.key] @ vectors[short.key])
            candidate = IdentityCandidate(
                long.key, long.name, long.type, similarity, name_relation(short.name, long.name)
            )
            verdict, method, reason = judge(short, candidate, settings)
            if verdict == "merge":
                pairs.append((similarity, long, short, method, reason))
    aliases: dict[str, tuple[str, MergeMethod, float, str]] = {}
    for similarity, long, short, method, reason in sorted(pairs, key=lambda pair: -pair[0]):
        if short.key in aliases or long.key in aliases or any(c == short.key for c, *_ in aliases.values()):
            continue
        aliases[short.key] = (long.key, method, similarity, reason)  # type: ignore[assignment]
    return aliases


# -- the plan -------------------------------------------------------------------------------


def entity_rows(resolutions: Sequence[Resolution]) -> list[EntityRow]:
    """Return one row per resolved key, named by the mention that created or first reached it."""
    rows: dict[str, EntityRow] = {}
    creators = {r.key: r.mention for r in resolutions if r.is_new}
    for resolution in resolutions:
        mention = resolution.mention
        row = rows.get(resolution.key)
        if row is None:
            shown = creators.get(resolution.key, mention)
            row = rows[resolution.key] = EntityRow(
                key=resolution.key,
                name=shown.name,
                type=shown.type,
                search_text=entity_search_text(shown.name),
                is_new=resolution.is_new or resolution.key in creators,
            )
        if row.type in ("Concept", "Thing") and mention.type not in ("Concept", "Thing"):
            row.type = mention.type
        row.mention_keys.append(mention.key)
    return list(rows.values())


def merge_records(
    scope: str, episode_id: str, resolutions: Sequence[Resolution], quintuples: Sequence[Quintuple]
) -> list[MergeRecord]:
    """Return the merge records of the episode, with the facts that came through each alias."""
    keys = {r.mention.key: r.key for r in resolutions}
    through: dict[str, list[str]] = {}
    for quintuple in quintuples:
        subject = mention_key(quintuple.subject, _known_type(quintuple.subject_type))
        obj = mention_key(quintuple.object, _known_type(quintuple.object_type))
        if subject not in keys or obj not in keys or keys[subject] == keys[obj]:
            continue
        fact_id = fact_identity(scope, keys[subject], predicate_key(quintuple.predicate), keys[obj], quintuple.negated)
        for end in (subject, obj):
            through.setdefault(end, [])
            if fact_id not in through[end]:
                through[end].append(fact_id)
    records: list[MergeRecord] = []
    for resolution in resolutions:
        if resolution.method is None:
            continue
        mention = resolution.mention
        others = [r for r in resolutions if r.key == resolution.key and r.mention.key != mention.key]
        record_id = resolution.merge_id or stable_id("mrg_", scope, mention.key, resolution.key, episode_id, length=16)
        records.append(
            MergeRecord(
                id=record_id,
                alias=mention.name,
                alias_key=mention.name_key,
                alias_type=mention.type,
                into_key=resolution.key,
                method=resolution.method,
                score=min(max(resolution.score, 0.0), 1.0),
                reason=resolution.reason,
                episode_id=episode_id,
                episode_ids=[episode_id],
                fact_ids=through.get(mention.key, []),
                sole_episode_ids=[] if others else [episode_id],
            )
        )
    return records


def _known_type(kind: str) -> str:
    return kind if kind in ENTITY_TYPES else "Concept"


# -- LLM adjudication -----------------------------------------------------------------------

_verdict_cache: dict[tuple[str, str, str], tuple[bool, str]] = {}
_cache_lock = threading.Lock()


def llm_adjudicator(spec: str, failures: list[str] | None = None) -> Adjudicator:
    """Return the model adjudicator; a failing model keeps the names apart and is noted in ``failures``."""

    def adjudicate(pairs: list[tuple[Mention, IdentityCandidate]]) -> list[tuple[bool, str]]:
        with _cache_lock:
            cached = {i: _verdict_cache.get((spec, m.key, c.key)) for i, (m, c) in enumerate(pairs)}
        asked = [i for i, verdict in cached.items() if verdict is None]
        if asked:
            lines = [
                json.dumps(
                    {
                        "pair": number,
                        "name": pairs[i][0].name,
                        "type": pairs[i][0].type,
                        "known_entity": pairs[i][1].name,
                        "known_type": pairs[i][1].type,
                        "known_aliases": pairs[i][1].aliases[:5],
                    },
                    ensure_ascii=False,
                )
                for number, i in enumerate(asked, start=1)
            ]
            messages = [("system", IDENTITY_SYSTEM), ("user", IDENTITY_USER.format(pairs="\n".join(lines)))]
            try:
                verdicts = ask_model(spec, IdentityVerdicts, messages)
            except ModelError as error:
                # The offline rules stand: uncertain names stay apart (nothing cached, so
                # a working model is asked next time).
                if failures is not None:
                    failures.append(f"{error}; uncertain names were kept apart by the offline identity rules")
                return [(False, "")] * len(pairs)
            by_number = {verdict.pair: verdict for verdict in verdicts.verdicts}
            with _cache_lock:
                if len(_verdict_cache) > 10_000:
                    _verdict_cache.clear()
                for number, i in enumerate(asked, start=1):
                    verdict = by_number.get(number)
                    answer = (bool(verdict.same), verdict.reason.strip()) if verdict else (False, "")
                    cached[i] = answer
                    _verdict_cache[(spec, pairs[i][0].key, pairs[i][1].key)] = answer
        return [cached[i] or (False, "") for i in range(len(pairs))]

    return adjudicate


# -- unmerge --------------------------------------------------------------------------------


def unmerge(store: GraphStore, embeddings: Embeddings, scope: str, merge_id: str) -> MergeRecord:
    """Undo one merge: re-create the alias's entity and move what came through the alias to it.

    Facts whose every assertion came through the alias move whole (id, weight,
    confidence, episode ids and every other property kept); a fact also asserted under
    another name is split: the copy on the restored entity takes the alias's episodes,
    the original keeps the rest. Episodes that mentioned the entity only through the
    alias mention the restored entity instead. The record is marked undone, not deleted.

    Args:
        store: The graph store.
        embeddings: The name embedder (for the restored entity's embedding).
        scope: The memory scope.
        merge_id: The merge record's id.

    Returns:
        The updated merge record.

    Raises:
        ValueError: If there is no such merge, or it was already undone.
    """
    found = store.get_merge(scope, merge_id)
    if found is None:
        raise ValueError(f"no merge {merge_id!r} in memory {scope!r}")
    record, assertions = found
    if record.undone_at is not None:
        raise ValueError(f"merge {merge_id!r} was already undone")
    into = store.identities_by_keys(scope, [record.into_key]).get(record.into_key)
    if into is None:
        raise ValueError(f"the entity merge {merge_id!r} points to no longer exists")

    cls = type_class(record.alias_type)
    options = [record.alias_key, identity_key(record.alias_key, cls) if cls else record.alias_key + "#alias"]
    taken = store.identities_by_keys(scope, options)
    new_key = next((key for key in options if key not in taken), f"{record.alias_key}#{merge_id[-6:]}")

    moves: list[FactMove] = []
    for fact in store.facts_with_ends(scope, {fact_id for _, fact_id in assertions}):
        via_alias = [ep for ep in fact.episode_ids if (ep, fact.id) in set(assertions)]
        if fact.subject_key == record.into_key:
            side, subject, obj = "subject", new_key, fact.object_key
        elif fact.object_key == record.into_key:
            side, subject, obj = "object", fact.subject_key, new_key
        else:
            continue
        if not via_alias:
            continue
        kept = [ep for ep in fact.episode_ids if ep not in via_alias]
        if not kept:
            moves.append(FactMove(fact.id, side))
        else:
            new_id = fact_identity(scope, subject, fact.predicate_key, obj, fact.negated)
            moves.append(FactMove(fact.id, side, new_id, via_alias, kept))

    spellings = [name for name in into.aliases if name == record.alias or normalize_name(name) == record.alias_key]
    remaining = [name for name in into.aliases if name not in spellings]
    name = record.alias
    episodes = list(dict.fromkeys(record.episode_ids))
    plan = UnmergePlan(
        scope=scope,
        merge_id=merge_id,
        into_key=record.into_key,
        new_key=new_key,
        new_id=entity_id(scope, new_key),
        name=name,
        type=record.alias_type,
        aliases=[spelling for spelling in spellings if spelling != name],
        search_text=entity_search_text(name),
        embedding=list(embeddings.embed_documents([name])[0]),
        first_seen=record.created_at,
        last_seen=record.updated_at or record.created_at,
        mention_count=len(episodes),
        episode_ids=episodes,
        sole_episode_ids=list(dict.fromkeys(record.sole_episode_ids)),
        into_aliases=remaining,
        into_alias_keys=[key for key in into.alias_keys if key != record.alias_key],
        into_search_text=" ".join([entity_search_text(into.name), search_text(" ".join(remaining))]).strip(),
        moves=moves,
        now=now_ms(),
    )
    store.apply_unmerge(plan)
    updated = store.get_merge(scope, merge_id)
    assert updated is not None
    return updated[0]
