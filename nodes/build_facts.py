"""Builder: resolve the Reader's quintuples into entities and facts for one episode.

It takes the entity keys ``resolve_entities`` decided (its draft plan; normalised-name
keys when there is none, so OpenAI / Open AI / OpenAI公司 meet) and adds canonical
predicate keys, deterministic ids (so a re-ingested episode is recognised and a
repeated fact from a new episode reinforces the same fact), and hands
``commit_episode`` an ``EpisodeWrite`` without vectors (they are computed where the
plan is written, so graph state, checkpoints and traces never carry them). It only
reads the store; the write happens in one transaction in the next node, so a review
step can sit in between. The ids and rows are built by ``domain.episodes``.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from domain.episodes import collect_entities, collect_facts, make_episode, needs_writing
from providers.resources import get_predicate_matcher, get_store, request_scope
from schemas.context import RunContext, deployment
from schemas.ids import check_fact_ids
from schemas.models import EpisodeWrite, IngestReport
from schemas.state import BrokerState


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
