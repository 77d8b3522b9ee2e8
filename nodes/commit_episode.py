"""Node ``commit_episode``: write the planned episode, its decisions and their consequences in one transaction.

``domain.episodes.commit_plan`` computes the vectors just before the write (they never
enter graph state: a checkpoint, a paused review and a LangSmith trace carry the plan
without them) and counts what the write created (the store counts inside its
transaction), so an episode counts once it is written and concurrent writers never
both count the same new entity.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.episodes import commit_plan
from elephant_broker.providers.audit import audit_api_run
from elephant_broker.providers.resources import get_embeddings, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestState
from langgraph.runtime import Runtime


def commit_episode(state: IngestState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Write the episode, its entities, mentions, facts and review decisions atomically."""
    context = deployment(runtime.context)
    report = commit_plan(get_store(context), get_embeddings(context), state["plan"], state["report"])
    plan = state["plan"]
    audit_api_run(
        runtime.context, context, "remember", plan.scope, session=plan.episode.session_id, ids=report.episode_ids
    )
    return {"report": report}
