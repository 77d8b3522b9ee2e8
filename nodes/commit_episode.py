"""Commit: write the planned episode, its decisions and their consequences in one transaction.

The vectors are computed here, just before the write, and never enter graph state: a
checkpoint, a paused review and a LangSmith trace carry the plan without them. The
report counts what the write created (the store counts inside its transaction), so
an episode counts once it is written and concurrent writers never both count the
same new entity.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.runtime import Runtime

from domain.episodes import fact_of_row
from language.pronouns import resolve_first_person
from providers.resources import get_embeddings, get_store
from schemas.context import RunContext, deployment
from schemas.models import EpisodeWrite, FactUpdate, IngestReport
from schemas.state import BrokerState
from store import GraphStore

REJECTION_FACTOR = 0.5
"""Confidence multiplier for facts concluded (``derived_from``) from a rejected fact."""


def commit_episode(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Write the episode, its entities, mentions, facts and review decisions atomically."""
    plan = state.get("plan")
    report = state.get("report") or IngestReport()
    if plan is None:
        return {"plan": None}
    context = deployment(runtime.context)
    store = get_store(context)
    rejected = [update.fact_id for update in plan.fact_updates if update.status == "rejected"]
    if rejected:
        # What was concluded from a fact that turned out wrong is less certain too.
        doubted = [
            FactUpdate(fact_id=fact_id, confidence_factor=REJECTION_FACTOR)
            for fact_id in store.derived_closure(plan.scope, rejected)
        ]
        plan = plan.model_copy(update={"fact_updates": [*plan.fact_updates, *doubted]})
    written = store.write_episode(with_embeddings(plan, store, get_embeddings(context)))
    counts: dict[str, Any] = {"episodes": written.episodes, "entities": written.entities, "facts": written.facts}
    if not written.episodes:
        # The episode was stored already: this was a new reading of it (its first failed).
        counts["reread"] = 1
        counts["notes"] = [
            *report.notes,
            f"episode {plan.episode.id} was read again (its earlier reading had failed): {written.facts} new fact(s)",
        ]
    return {"plan": None, "report": report.model_copy(update=counts)}


def with_embeddings(plan: EpisodeWrite, store: GraphStore, embeddings: Embeddings) -> EpisodeWrite:
    """Return a copy of the plan with its vectors: the episode, entities not stored yet, every fact.

    One batch. An entity another writer creates meanwhile keeps its own vector (the
    store sets it only on creation), so the one computed here is merely unused.
    """
    episode = plan.episode
    known = store.entities_by_keys(plan.scope, [row.key for row in plan.entities])
    new_rows = [row for row in plan.entities if row.key not in known]
    # The episode is embedded as "speaker: text" in third person (我 -> 小王), so "what
    # does 小王 like" meets "我喜欢…" said by 小王 and not by someone else (on LoCoMo the
    # speaker alone lifts dense recall@10 from 0.18 to 0.53).
    vectors = embeddings.embed_documents(
        [f"{episode.speaker}: {resolve_first_person(episode.text, episode.speaker)}"]
        + [row.name for row in new_rows]
        + [fact_of_row(fact, plan).sentence() for fact in plan.facts]
    )
    entity_vectors = dict(zip((row.key for row in new_rows), vectors[1 : 1 + len(new_rows)], strict=True))
    fact_vectors = vectors[1 + len(new_rows) :]
    return plan.model_copy(
        update={
            "episode_embedding": vectors[0],
            "entities": [row.model_copy(update={"embedding": entity_vectors.get(row.key)}) for row in plan.entities],
            "facts": [
                row.model_copy(update={"embedding": vector})
                for row, vector in zip(plan.facts, fact_vectors, strict=True)
            ],
        }
    )
