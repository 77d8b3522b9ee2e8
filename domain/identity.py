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
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from elephant_broker.domain.episodes import fact_identity
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
from elephant_broker.store.merges import EntityIdentity, FactMove, UnmergePlan
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
    """Resolve the names of one episode's quintuples to entity keys.

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
    mentions = collect_mentions(quintuples)
    failures: list[str] = []
    adjudicate = llm_adjudicator(llm_spec, failures) if llm_spec else None
    resolutions = resolve_mentions(store, embeddings, scope, mentions, settings, adjudicate)
    return ResolvedNames(entity_rows(resolutions), merge_records(scope, episode_id, resolutions, quintuples), failures)


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
    variant_keys = {identity_key(m.name_key, cls) for m in mentions for cls in ("", *SPECIFIC_CLASSES)}
    known: dict[str, EntityIdentity] = store.identities_by_keys(scope, variant_keys)
    settled: dict[str, Resolution] = {}

    # (a) exact key
    for mention in mentions:
        key = _exact(mention, known)
        if key is not None:
            _claim(known, key, mention)
            settled[mention.key] = Resolution(mention, key, is_new=False)

    # (b) alias table
    pending = [m for m in mentions if m.key not in settled]
    if pending:
        merges = store.active_merges(scope, {m.name_key for m in pending})
        into = store.identities_by_keys(scope, {merge.into_key for merge in merges})
        for mention in pending:
            for merge in merges:
                target = into.get(merge.into_key)
                if (
                    merge.alias_key == mention.name_key
                    and target is not None
                    and classes_compatible(type_class(merge.alias_type), mention.cls)
                    and classes_compatible(type_class(target.type), mention.cls)
                ):
                    settled[mention.key] = Resolution(
                        mention, target.key, False, "alias", 1.0, f"alias of {target.name}", merge.id
                    )
                    break

    # (c, d) full-text and embedding candidates of the rest
    pending = [m for m in mentions if m.key not in settled]
    vectors = dict(zip([m.key for m in pending], _embed(embeddings, [m.name for m in pending]), strict=True))
    candidates = _store_candidates(store, embeddings, scope, pending, vectors, k)
    return Gathered(list(mentions), known, settled, candidates, vectors)


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
    if not names:
        return []
    vectors = np.asarray(embeddings.embed_documents(names), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return list(vectors / np.where(norms == 0, 1.0, norms))


def _store_candidates(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    mentions: Sequence[Mention],
    vectors: dict[str, np.ndarray],
    k: int,
) -> dict[str, list[IdentityCandidate]]:
    """Gather full-text and vector candidates per mention, with cosine and name relation."""
    found: dict[str, dict[str, str]] = {}
    for mention in mentions:
        sources: dict[str, str] = {}
        for hit, _score in store.search_entities_text(scope, search_text(mention.name), k=k):
            sources.setdefault(hit.id, "fulltext")
        for near, _similarity in store.identity_neighbours(scope, vectors[mention.key].tolist(), k):
            sources.setdefault(near.id, "vector")
        found[mention.key] = sources
    identities = store.identities_by_ids(scope, {eid for sources in found.values() for eid in sources})
    # Similarities are computed in the store, so no stored vector crosses the wire;
    # names stored without an embedding are embedded here.
    similarities = {
        mention.key: store.name_similarities(scope, found[mention.key], vectors[mention.key].tolist())
        for mention in mentions
    }
    missing = sorted(
        {identities[eid].name for key, sources in found.items() for eid in sources if eid in identities}
        - {identities[eid].name for scores in similarities.values() for eid in scores if eid in identities}
    )
    name_vectors = dict(zip(missing, _embed(embeddings, missing), strict=True))
    result: dict[str, list[IdentityCandidate]] = {}
    for mention in mentions:
        listed: list[IdentityCandidate] = []
        for eid, source in found[mention.key].items():
            identity = identities.get(eid)
            if identity is None:
                continue
            names_of = [identity.name, *identity.aliases]
            relation = next(filter(None, (name_relation(mention.name, name) for name in names_of)), None)
            if eid in similarities[mention.key]:
                similarity = similarities[mention.key][eid]
            else:
                similarity = float(vectors[mention.key] @ name_vectors[identity.name])
            listed.append(
                IdentityCandidate(
                    identity.key, identity.name, identity.type, similarity, relation, identity.aliases, source
                )
            )
        result[mention.key] = listed
    return result


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
