"""The batch ingest graph: many perceived texts, one store snapshot, one write.

read_batch -> resolve_batch -> plan_batch -> settle_batch -> commit_batch. Each node
maps a ``domain`` step over the batch's episodes in order; each episode sees the
episodes before it (their entities, merges and facts) though none is written until
``commit_batch`` writes them all in one transaction. The store is read once per kind
of question and every string is embedded once, for the whole batch. Contradictions are
settled by the automatic policy; the ``human`` policy pauses per episode and runs the
one-episode graph (``graphs.ingest``). See docs/design.md, "Batch ingest".
"""

from __future__ import annotations

from typing import Any

from elephant_broker.nodes.commit_batch import commit_batch
from elephant_broker.nodes.plan_batch import plan_batch
from elephant_broker.nodes.read_batch import read_batch
from elephant_broker.nodes.resolve_batch import resolve_batch
from elephant_broker.nodes.settle_batch import settle_batch
from elephant_broker.schemas.context import RunContext
from elephant_broker.schemas.state import IngestBatchOutput, IngestBatchState, PerceptionBatch
from langgraph.graph import END, START, StateGraph


def build() -> StateGraph[Any, Any, Any, Any]:
    """Wire the batch ingest graph: it takes a ``PerceptionBatch`` and returns ``IngestBatchOutput``."""
    wiring = StateGraph(
        IngestBatchState, context_schema=RunContext, input_schema=PerceptionBatch, output_schema=IngestBatchOutput
    )
    wiring.add_node("read_batch", read_batch)
    wiring.add_node("resolve_batch", resolve_batch)
    wiring.add_node("plan_batch", plan_batch)
    wiring.add_node("settle_batch", settle_batch)
    wiring.add_node("commit_batch", commit_batch)
    wiring.add_edge(START, "read_batch")
    wiring.add_edge("read_batch", "resolve_batch")
    wiring.add_edge("resolve_batch", "plan_batch")
    wiring.add_edge("plan_batch", "settle_batch")
    wiring.add_edge("settle_batch", "commit_batch")
    wiring.add_edge("commit_batch", END)
    return wiring


builder = build()
graph = builder.compile(name="ingest_batch")
