"""The multi-hop subgraph: decompose, then (retrieve_hop -> reason_hop)* while the chain holds.

A question that describes what it asks about ("Where was the author of Dune born?") is
split into sub-questions, asked one per turn, each from the answers before it, until
all are answered, a hop finds no answer, or the hop budget is spent. The subgraph has
its own state (``HopState``) and hands back only ``HopOutput``: the chain, its hops,
their evidence and notes. The answer graph runs it as one node and decides what
follows (``route_after_multi_hop``).
"""

from __future__ import annotations

from elephant_broker.nodes.decompose_question import decompose_question
from elephant_broker.nodes.reason_hop import reason_hop
from elephant_broker.nodes.retrieve_hop import retrieve_hop
from elephant_broker.nodes.routing import route_after_decompose, route_after_reason
from elephant_broker.schemas.context import RunContext
from elephant_broker.schemas.state import HopInput, HopOutput, HopState
from langgraph.graph import END, START, StateGraph

builder = StateGraph(HopState, context_schema=RunContext, input_schema=HopInput, output_schema=HopOutput)
builder.add_node("decompose_question", decompose_question)
builder.add_node("retrieve_hop", retrieve_hop)
builder.add_node("reason_hop", reason_hop)
builder.add_edge(START, "decompose_question")
builder.add_conditional_edges("decompose_question", route_after_decompose, ["retrieve_hop", END])
builder.add_edge("retrieve_hop", "reason_hop")
builder.add_conditional_edges("reason_hop", route_after_reason, ["retrieve_hop", END])

graph = builder.compile(name="multi_hop")
