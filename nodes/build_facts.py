"""Node ``build_facts``: plan the episode's write from its resolved entities and its quintuples.

The plan (``domain.episodes.plan_episode``) adds canonical predicate keys, deterministic
fact ids (a re-ingested episode is recognised, a repeated fact from a new episode
reinforces the same fact) and source authority, without vectors: they are computed
where the plan is written, so graph state, checkpoints and traces never carry them.
It only reads the store; the write happens in one transaction in ``commit_episode``,
so a review step can sit in between. An episode that needs no writing gets a report
and no plan, and the run ends.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.episodes import plan_episode
from elephant_broker.providers.resources import get_predicate_matcher, get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.models import IngestReport
from elephant_broker.schemas.state import IngestState
from langgraph.runtime import Runtime


def build_facts(state: IngestState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Plan the episode's entities and facts; only report for an episode that needs no writing."""
    # Nothing is counted yet: commit_episode counts what its write creates (a run paused
    # for review has written nothing). The report carries the notes meanwhile.
    report = IngestReport(notes=list(state.get("notes", [])))
    if not state["needs_writing"]:
        return {"report": report}
    context = deployment(runtime.context)
    episode = state["episode"]
    plan = plan_episode(
        get_store(context),
        episode,
        state["quintuples"],
        state["entities"],
        state["merges"],
        read_by=state["read_by"],
        derived_from=state["derived_from_ids"],
        key_of=get_predicate_matcher(context).key,
        default_authority=context.authority_of(episode.source),
    )
    return {"plan": plan, "report": report}
