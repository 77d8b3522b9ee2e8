"""Node ``read_batch``: normalise a batch of texts into episodes and read those that need writing.

``domain.batch.read_batch`` builds every text's episode (ids, defaults, checks), asks
the store once which are stored, and reads the others (rules offline, the LLM when
configured, with the data directory's LLM cache and the user schema). A batch is one
agent's memory and is decided by the automatic policy: the ``human`` policy pauses per
episode and uses the one-episode ingest graph. In LLM mode the node starts the batch's
report with what the model cost (``commit_batch`` adds the counts of the write).
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.batch import read_batch as read_texts
from elephant_broker.domain.privacy import masker_for
from elephant_broker.domain.reading import cost_report
from elephant_broker.domain.user_schema import schema_rules
from elephant_broker.providers.llm_cache import llm_cache_for
from elephant_broker.providers.resources import get_store, request_scope
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestBatchState
from langgraph.runtime import Runtime


def read_batch(state: IngestBatchState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Normalise the batch and read the texts whose episodes need writing.

    Raises:
        ValueError: If the texts are for several agents, the review policy is ``human``,
            or a text breaks a rule of its fields (nothing of the batch is read).
    """
    context = deployment(runtime.context)
    if context.review_policy != "auto":
        raise ValueError("a batch is reviewed automatically; under the human policy ingest one text at a time")
    perceptions = state["perceptions"]
    # Sensitive values become tokens before anything is read or stored (a Broker did it already).
    masker = masker_for(context)
    if masker is not None:
        perceptions = [masker.mask_perception(perception) for perception in perceptions]
    scopes = {request_scope(perception.agent_id, context) for perception in perceptions}
    if len(scopes) > 1:
        raise ValueError(f"a batch is one agent's memory, not {len(scopes)}: {', '.join(sorted(scopes))}")
    scope = scopes.pop() if scopes else context.agent_id
    reading = read_texts(
        get_store(context),
        scope,
        perceptions,
        context.llm,
        cache=llm_cache_for(context),
        schema=schema_rules(context),
    )
    update: dict[str, Any] = {
        "scope": scope,
        "episodes": reading.episodes,
        "positions": reading.positions,
        "derived_from_ids": reading.derived_from,
        "quintuples": reading.quintuples,
        "read_by": reading.read_by,
    }
    if reading.usage is not None:
        update["report"] = cost_report(reading.usage)
    if reading.notes:
        update["notes"] = reading.notes
    return update
