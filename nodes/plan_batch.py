"""Node ``plan_batch``: plan the write of every episode of a batch (``build_facts`` for a batch).

``domain.batch.plan_batch`` gives each episode its canonical predicate keys, fact ids
and source authority, without vectors; the trust levels of sources are read once.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.batch import BatchReading
from elephant_broker.domain.batch import plan_batch as plan_episodes
from elephant_broker.providers.resources import get_embeddings, get_predicate_matcher, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestBatchState
from langgraph.runtime import Runtime


def plan_batch(state: IngestBatchState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Plan every episode's entities and facts, in order."""
    context = deployment(runtime.context)
    reading = BatchReading(
        episodes=state["episodes"],
        positions=state["positions"],
        derived_from=state["derived_from_ids"],
        quintuples=state["quintuples"],
        read_by=state["read_by"],
    )
    plans = plan_episodes(
        get_store(context),
        get_embeddings(context),
        reading,
        state["entities"],
        state["merges"],
        key_of=get_predicate_matcher(context).key,
        authority_of=context.authority_of,
    )
    return {"plans": plans}
