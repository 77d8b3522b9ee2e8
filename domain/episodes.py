"""Episode plans: the ids, entities and facts one perceived text is written as.

Plain functions over ``schemas`` and ``GraphStore``: deterministic ids (so a re-ingested
episode is recognised and a repeated fact reinforces the same fact), one row per
entity and per fact of an episode, and the ``Fact`` a planned row will be. The ingest
nodes (``read_text``, ``resolve_entities``, ``build_facts``, ``detect_conflicts``,
``commit_episode``) call them; none of them imports another node for it.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError

from language.names import display_name, entity_search_text, mention_key, normalize_name
from language.predicates import predicate_key
from schemas.ids import error_line, stable_id
from schemas.models import (
    DEFAULT_SPEAKER,
    ENTITY_TYPES,
    READ_FALLBACK,
    EntityRow,
    Episode,
    EpisodeWrite,
    Fact,
    FactRow,
    Perception,
    Quintuple,
)
from schemas.state import BrokerState
from store import GraphStore
from store.base import entity_id, now_ms


def needs_writing(store: GraphStore, scope: str, episode_id: str, llm: str) -> bool:
    """Whether an ingest must write this episode.

    It must when the episode is not stored yet, and when a model failed to read it
    (the rules read it instead) and a model is configured now: the model may find
    facts the rules missed, and writing the episode again adds only what is new.
    """
    reading = store.episode_reading(scope, episode_id)
    return reading is None or (reading == READ_FALLBACK and bool(llm))


def make_episode(state: BrokerState, scope: str) -> Episode:
    """Build the episode record; its id is a hash of what makes it the same episode.

    Graph input (``langgraph dev``, a compiled graph) has not passed through
    ``Perception``, so its fields are checked here by the same rules (``schemas.ids``),
    before anything is read or written.

    Raises:
        ValueError: One line naming the field that breaks its rule.
    """
    try:
        given = Perception.model_validate(
            {"text": state["text"]}
            | {name: state.get(name) for name in ("speaker", "session_id", "source", "time", "external_id")}
        )
    except ValidationError as error:
        raise ValueError(error_line(error)) from None
    speaker = given.speaker or DEFAULT_SPEAKER
    session = given.session_id or "default"
    source = given.source or "direct"
    text, when, external = given.text, given.time, given.external_id
    return Episode(
        id=stable_id("ep_", scope, source, session, speaker, when or "", text, external or "", length=20),
        agent_id=scope,
        session_id=session,
        speaker=speaker,
        source=source,
        text=text,
        time=when,
        external_id=external,
        created_at=now_ms(),
    )


def collect_entities(quintuples: list[Quintuple]) -> dict[str, EntityRow]:
    """Return one row per distinct entity key, preferring the most specific type seen."""
    rows: dict[str, EntityRow] = {}
    for quintuple in quintuples:
        for name, kind in ((quintuple.subject, quintuple.subject_type), (quintuple.object, quintuple.object_type)):
            shown = display_name(name)
            key = normalize_name(shown)
            kind = kind if kind in ENTITY_TYPES else "Concept"
            row = rows.get(key)
            if row is None:
                rows[key] = EntityRow(key=key, name=shown, type=kind, search_text=entity_search_text(shown))
            elif row.type == "Concept" and kind != "Concept":
                row.type = kind
    return rows


def collect_facts(
    scope: str,
    quintuples: list[Quintuple],
    keys: dict[str, str] | None = None,
    key_of: Callable[[str], str] = predicate_key,
) -> list[FactRow]:
    """Return one row per distinct fact of the episode (repeats inside it count once).

    ``keys`` maps mention keys (``language.names.mention_key``) to resolved entity keys;
    a name it does not cover is keyed by its normalised name.
    """
    facts: dict[str, FactRow] = {}
    for quintuple in quintuples:
        subject_key = _entity_key(quintuple.subject, quintuple.subject_type, keys)
        object_key = _entity_key(quintuple.object, quintuple.object_type, keys)
        if subject_key == object_key:
            continue
        key = key_of(quintuple.predicate)
        fact_id = fact_identity(scope, subject_key, key, object_key, quintuple.negated)
        if fact_id in facts:
            continue
        facts[fact_id] = FactRow(
            id=fact_id,
            subject_key=subject_key,
            object_key=object_key,
            predicate=quintuple.predicate.strip(),
            predicate_key=key,
            confidence=quintuple.confidence,
            negated=quintuple.negated,
            valid_from=quintuple.valid_from,
            schedule=quintuple.schedule,
        )
    return list(facts.values())


def _entity_key(name: str, kind: str, keys: dict[str, str] | None) -> str:
    resolved = (keys or {}).get(mention_key(name, kind if kind in ENTITY_TYPES else "Concept"))
    return resolved or normalize_name(display_name(name))


def fact_identity(scope: str, subject_key: str, predicate: str, object_key: str, negated: bool) -> str:
    """Return the stable id of a fact: the same statement always maps to the same id."""
    return stable_id("fact_", scope, subject_key, predicate, object_key, "not" if negated else "", length=20)


def fact_of_row(row: FactRow, plan: EpisodeWrite) -> Fact:
    """Describe a planned fact row as a ``Fact`` (names, ids and provenance filled in)."""
    names = {entity.key: entity for entity in plan.entities}
    subject, obj = names.get(row.subject_key), names.get(row.object_key)
    return Fact(
        id=row.id,
        subject=subject.name if subject else row.subject_key,
        subject_id=entity_id(plan.scope, row.subject_key),
        subject_type=subject.type if subject else None,
        predicate=row.predicate,
        predicate_key=row.predicate_key,
        object=obj.name if obj else row.object_key,
        object_id=entity_id(plan.scope, row.object_key),
        object_type=obj.type if obj else None,
        confidence=row.confidence,
        negated=row.negated,
        episode_ids=[plan.episode.id],
        created_at=plan.episode.learnt_at(),  # as the store writes it, so review weighs the same age
        valid_from=row.valid_from,
        schedule=row.schedule,
        status=row.status,
        authority=row.authority,
    )
