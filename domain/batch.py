"""Batch ingest: many perceived texts read, resolved, planned, settled and written together.

A batch gives the same result as ingesting its texts one by one, in order, with a
fraction of the model calls and store round trips: the store is read once per kind of
question for the whole batch, every string the batch embeds is embedded once in one
call, and the whole batch is written in one transaction (all of it or none). Each
episode still sees the episodes before it in the batch, though none is written yet:
entity resolution through ``domain.identity.IdentityBatch``, truth maintenance through
``domain.truth.FactLedger``. The functions here are the steps the batch ingest graph's
nodes call, in order: :func:`read_batch`, ``domain.identity.resolve_batch``,
:func:`plan_batch`, ``domain.truth.settle_batch``, ``domain.episodes.commit_plans``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from elephant_broker.domain.episodes import check_derived_from, embed_distinct, make_episode, plan_episode
from elephant_broker.domain.reading import correction_context, read, read_given
from elephant_broker.domain.user_schema import SchemaRules
from elephant_broker.language.predicates import PREDICATE_LEXICON, predicate_key
from elephant_broker.providers.chat_models import ModelUsage
from elephant_broker.schemas.models import (
    READ_FALLBACK,
    EntityRow,
    Episode,
    EpisodeWrite,
    MergeRecord,
    Perception,
    Quintuple,
    ReadBy,
)
from elephant_broker.store import GraphStore
from langchain_core.caches import BaseCache
from langchain_core.embeddings import Embeddings


@dataclass
class BatchReading:
    """The episodes of a batch that need writing, in order, and how each was read."""

    episodes: list[Episode] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    """The perception each episode came from (its index in the batch)."""
    derived_from: list[list[str]] = field(default_factory=list)
    quintuples: list[list[Quintuple]] = field(default_factory=list)
    read_by: list[ReadBy] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    usage: ModelUsage | None = None
    """What the chat model cost the batch's readings (LLM mode; None offline)."""


def read_batch(
    store: GraphStore,
    scope: str,
    perceptions: Sequence[Perception],
    llm: str = "",
    *,
    cache: BaseCache | None = None,
    schema: SchemaRules | None = None,
) -> BatchReading:
    """Build each perception's episode, keep those that need writing, and read them.

    A perception that carries its facts (``Perception.given_facts``) is not read: its facts
    are its reading (``domain.reading.read_given``). An episode needs writing when it
    is not stored and not met earlier in the batch, or when its one reading so far fell
    back to the rules because the model failed and a model is configured now
    (``domain.episodes.needs_writing``). The store is read twice for the whole batch
    (stored episodes, the facts ``derived_from`` names). Each text is read with its
    ``preceding_text`` as context, the LLM ``cache`` and the user ``schema``
    (``domain.reading.read``); what the model cost is summed in ``usage``.

    Raises:
        ValueError: One line naming the field of a perception that breaks its rule, or
            a ``derived_from`` naming a fact this memory does not hold (nothing is read).
    """
    episodes = [
        make_episode(
            scope,
            perception.text,
            speaker=perception.speaker,
            session_id=perception.session_id,
            source=perception.source,
            time=perception.time,
            external_id=perception.external_id,
            given=perception.given_facts,
        )
        for perception in perceptions
    ]
    # Checked before the already-stored shortcut: a bad id is refused, never passed over.
    check_derived_from(store, scope, [fact_id for p in perceptions for fact_id in p.derived_from or []])
    readings: dict[str, str] = store.episode_readings(scope, [episode.id for episode in episodes])
    corrected = correction_context(store, scope, episodes)
    batch = BatchReading(usage=ModelUsage() if llm else None)
    for position, (perception, episode) in enumerate(zip(perceptions, episodes, strict=True)):
        reading = readings.get(episode.id)
        if reading is not None and not (reading == READ_FALLBACK and llm):
            continue  # stored (or met earlier in the batch), and read as well as it can be
        if perception.given_facts is not None:
            found = read_given(perception.given_facts, episode.speaker)  # given with its facts: not read
        else:
            preceding = perception.preceding_text or corrected[position]
            found = read(episode.text, episode.speaker, llm, preceding=preceding, cache=cache, schema=schema)
            if batch.usage is not None and found.usage is not None:
                batch.usage += found.usage
        readings[episode.id] = found.read_by
        batch.episodes.append(episode)
        batch.positions.append(position)
        batch.derived_from.append(sorted(set(perception.derived_from or [])))
        batch.quintuples.append(found.quintuples)
        batch.read_by.append(found.read_by)
        batch.notes.extend(note for note in found.notes if note not in batch.notes)
    return batch


def plan_batch(
    store: GraphStore,
    embeddings: Embeddings,
    reading: BatchReading,
    entities: Sequence[list[EntityRow]],
    merges: Sequence[list[MergeRecord]],
    *,
    key_of: Callable[[str], str],
    authority_of: Callable[[str], float],
) -> list[EpisodeWrite]:
    """Plan the write of every episode of the batch (``domain.episodes.plan_episode``), without vectors.

    The trust levels of sources are read once. The predicate surfaces the lexicon does
    not know are embedded together first, so the canonicaliser (``key_of``, which
    embeds one surface at a time) finds them in the embedder's cache.

    Args:
        store: The graph store (read only).
        embeddings: The embedder ``key_of`` uses.
        reading: The batch's episodes and quintuples (:func:`read_batch`).
        entities: Each episode's resolved entity rows (``domain.identity.resolve_batch``).
        merges: Each episode's merge records.
        key_of: The predicate canonicaliser.
        authority_of: The configured authority of a source.
    """
    if not reading.episodes:
        return []
    surfaces = {q.predicate for quintuples in reading.quintuples for q in quintuples}
    embed_distinct(embeddings, [s for s in surfaces if predicate_key(s) not in PREDICATE_LEXICON])
    authorities = store.source_authorities(reading.episodes[0].agent_id)
    return [
        plan_episode(
            store,
            episode,
            quintuples,
            rows,
            merged,
            read_by=read_by,
            derived_from=derived_from,
            key_of=key_of,
            default_authority=authority_of(episode.source),
            authorities=authorities,
        )
        for episode, quintuples, rows, merged, read_by, derived_from in zip(
            reading.episodes, reading.quintuples, entities, merges, reading.read_by, reading.derived_from, strict=True
        )
    ]
