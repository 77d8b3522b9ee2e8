"""Node ``resolve_batch``: resolve the names of a batch's episodes, in order, with one read of the store.

``domain.identity.resolve_batch`` reads the store once for every name of the batch and
resolves each episode as if the episodes before it were written (their new entities,
spellings and merges count), with the stages of ``resolve_entities``.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.identity import IdentitySettings
from elephant_broker.domain.identity import resolve_batch as resolve_names
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestBatchState
from langgraph.runtime import Runtime


def resolve_batch(state: IngestBatchState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Resolve every episode's names to entity keys; one list of rows and merges per episode."""
    context = deployment(runtime.context)
    episodes = [
        (episode.id, quintuples) for episode, quintuples in zip(state["episodes"], state["quintuples"], strict=True)
    ]
    resolved = resolve_names(
        get_store(context),
        get_embeddings(context),
        state["scope"],
        episodes,
        IdentitySettings.from_context(context),
        context.llm,
    )
    update: dict[str, Any] = {
        "entities": [names.entities for names in resolved],
        "merges": [names.merges for names in resolved],
    }
    notes = [note for names in resolved for note in names.notes]
    if notes:
        update["notes"] = notes
    return update
