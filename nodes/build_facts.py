"""Builder: resolve the Reader's quintuples into entities and facts for one episode.

It takes the entity keys ``resolve_entities`` decided (its draft plan; normalised-name
keys when there is none, so OpenAI / Open AI / OpenAI公司 meet) and adds canonical
predicate keys, deterministic ids (so a re-ingested episode is recognised and a
repeated fact from a new episode reinforces the same fact), and hands
``commit_episode`` an ``EpisodeWrite`` without vectors (they are computed where the
plan is written, so graph state, checkpoints and traces never carry them). It only
reads the store; the write happens in one transaction in the next node, so a review
step can sit in between.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime
from pydantic import ValidationError

from broker.resources import get_predicate_matcher, get_store, request_scope
from language.names import display_name, entity_search_text, mention_key, normalize_name
from language.predicates import predicate_key
from schemas.context import RunContext, deployment
from schemas.ids import check_fact_ids, error_line, stable_id
from schemas.models import (
    DEFAULT_SPEAKER,
    ENTITY_TYPES,
    READ_FALLBACK,
    EntityRow,
    Episode,
    EpisodeWrite,
    Fact,
    FactRow,
    IngestReport,
    Perception,
    Quintuple,
)
from schemas.state import BrokerState
from store import GraphStore
from store.base import entity_id, now_ms


def build_facts(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Plan the episode's entities and facts; skip an episode that is stored and needs no new reading."""
    context = deployment(runtime.context)
    store = get_store(context)
    scope = request_scope(state.get("agent_id"), context)
    episode = make_episode(state, scope)
    # Checked before the already-stored shortcut: a bad id is refused, never passed over.
    derived_from = sorted(set(check_fact_ids(state.get("derived_from") or [])))
    unknown = set(derived_from) - store.existing_fact_ids(scope, derived_from)
    if unknown:
        raise ValueError(f"derived_from names facts this memory does not hold: {', '.join(sorted(unknown))}")
    notes = list(state.get("notes") or [])
    if not needs_writing(store, scope, episode.id, context.llm):
        return {"plan": None, "report": IngestReport(notes=notes)}

    # resolve_entities drafted the entities (resolved keys, with the mentions that reach
    # each) and the merges; without a draft, keys are the normalised names.
    draft = state.get("plan")
    draft = draft if draft is not None and draft.episode.id == episode.id else None
    entities = {row.key: row for row in draft.entities} if draft else collect_entities(state.get("quintuples") or [])
    keys = {mention: row.key for row in entities.values() for mention in row.mention_keys}
    facts = collect_facts(scope, state.get("quintuples") or [], keys, get_predicate_matcher(context).key)
    # A trust level set with `elephant sources set` beats the configured default.
    authority = store.source_authorities(scope).get(episode.source.lower(), context.authority_of(episode.source))
    for fact in facts:
        fact.authority = authority
        fact.derived_from = derived_from
    plan = EpisodeWrite(
        scope=scope,
        episode=episode,
        read_by=state.get("read_by") or "rules",
        entities=list(entities.values()),
        facts=facts,
        merges=draft.merges if draft else [],
    )
    # Nothing is counted yet: commit_episode counts what its write creates (a run paused
    # for review has written nothing). The report carries the notes meanwhile.
    return {"plan": plan, "report": IngestReport(notes=notes)}


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
