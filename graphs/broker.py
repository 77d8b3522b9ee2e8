"""The broker graph: one entry point that remembers a text or answers a question."""

from __future__ import annotations

from elephant_broker.graphs.answer import subgraph as answer_graph
from elephant_broker.graphs.ingest import subgraph as ingest_graph
from elephant_broker.nodes.routing import route_request
from elephant_broker.schemas.context import RunContext
from elephant_broker.schemas.state import BrokerInput, BrokerOutput, BrokerState
from langgraph.graph import END, START, StateGraph

builder = StateGraph(BrokerState, context_schema=RunContext, input_schema=BrokerInput, output_schema=BrokerOutput)
builder.add_node("ingest", ingest_graph)
builder.add_node("answer", answer_graph)
builder.add_conditional_edges(START, route_request, ["ingest", "answer"])
builder.add_edge("ingest", END)
builder.add_edge("answer", END)

graph = builder.compile(name="broker")
