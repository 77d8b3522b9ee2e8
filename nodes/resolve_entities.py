"""Node ``resolve_entities``: resolve every name of the episode to a stored or a new entity.

The stages (exact key, alias table, full-text and embedding candidates, the LLM for
the uncertain band) are ``domain.identity``; this node gives them the store, the
embeddings, the thresholds and the chat model of the run, and writes the entity rows
and merge records that ``build_facts`` plans the facts with.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.identity import IdentitySettings, resolve_episode
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestState
from langgraph.runtime import Runtime


def resolve_entities(state: IngestState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Resolve the quintuples' names to entity keys (none for an episode that needs no writing).

    Returns:
        ``entities`` (one row per resolved key, with the mention keys that reached it)
        and ``merges``; ``notes`` when the model failed and names were kept apart.
    """
    if not state["needs_writing"]:
        return {"entities": [], "merges": []}
    context = deployment(runtime.context)
    resolved = resolve_episode(
        get_store(context),
        get_embeddings(context),
        state["scope"],
        state["episode"].id,
        state["quintuples"],
        IdentitySettings.from_context(context),
        context.llm,
    )
    update: dict[str, Any] = {"entities": resolved.entities, "merges": resolved.merges}
    if resolved.notes:
        update["notes"] = resolved.notes
    return update
