"""The ingest graph: read -> build -> commit, one perceived text per run."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from nodes.build_facts import build_facts
from nodes.commit_episode import commit_episode
from nodes.read_text import read_text
from nodes.routing import route_after_build
from schemas.context import Context
from schemas.state import BrokerState, IngestInput, IngestOutput

builder = StateGraph(BrokerState, context_schema=Context, input_schema=IngestInput, output_schema=IngestOutput)
# An LLM endpoint may fail transiently; rules never do, so retrying is harmless.
builder.add_node("read_text", read_text, retry_policy=RetryPolicy(max_attempts=3))
builder.add_node("build_facts", build_facts)
builder.add_node("commit_episode", commit_episode)
builder.add_edge(START, "read_text")
builder.add_edge("read_text", "build_facts")
builder.add_conditional_edges("build_facts", route_after_build, ["commit_episode", END])
builder.add_edge("commit_episode", END)

graph = builder.compile(name="ingest")
