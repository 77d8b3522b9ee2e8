"""The ingest graph, one perceived text per run.

read_text -> resolve_entities -> build_facts -> detect_conflicts -> [review_conflicts] -> commit_episode.
Contradictions go to review (auto policy or a human interrupt) before anything is
written, so the episode, its facts and the decisions land in one transaction. An
episode already stored (and read as well as it can be) ends after ``build_facts``
with a report of nothing new.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.nodes.build_facts import build_facts
from elephant_broker.nodes.commit_episode import commit_episode
from elephant_broker.nodes.detect_conflicts import detect_conflicts
from elephant_broker.nodes.read_text import read_text
from elephant_broker.nodes.resolve_entities import resolve_entities
from elephant_broker.nodes.review_conflicts import review_conflicts
from elephant_broker.nodes.routing import route_after_build, route_after_detect
from elephant_broker.schemas.context import RunContext
from elephant_broker.schemas.models import Perception
from elephant_broker.schemas.state import IngestOutput, IngestState
from langgraph.graph import END, START, StateGraph


def build(output_schema: type[IngestOutput] | type[IngestState] = IngestOutput) -> StateGraph[Any, Any, Any, Any]:
    """Wire the ingest graph; it returns ``output_schema`` (the report, or its whole state)."""
    wiring = StateGraph(IngestState, context_schema=RunContext, input_schema=Perception, output_schema=output_schema)
    # No retry policy: a failing model is retried (boundedly) inside the call, then the
    # rules read the text (domain/reading.py); retrying the node would multiply requests.
    wiring.add_node("read_text", read_text)
    wiring.add_node("resolve_entities", resolve_entities)
    wiring.add_node("build_facts", build_facts)
    wiring.add_node("detect_conflicts", detect_conflicts)
    wiring.add_node("review_conflicts", review_conflicts, destinations=("commit_episode",))
    wiring.add_node("commit_episode", commit_episode)
    wiring.add_edge(START, "read_text")
    wiring.add_edge("read_text", "resolve_entities")
    wiring.add_edge("resolve_entities", "build_facts")
    wiring.add_conditional_edges("build_facts", route_after_build, ["detect_conflicts", END])
    wiring.add_conditional_edges("detect_conflicts", route_after_detect, ["review_conflicts", "commit_episode"])
    wiring.add_edge("commit_episode", END)
    return wiring


builder = build()
graph = builder.compile(name="ingest")
# A graph run as another graph's node reports its nodes' updates cut to its output keys
# (a node that writes none shows as null in a stream). The broker graph runs this
# compile, whose output is the whole state; the broker keeps only its own keys.
subgraph = build(IngestState).compile(name="ingest")
