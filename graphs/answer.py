"""The answer graph: analyse, then one retrieval or the multi-hop loop, then answer.

Single-hop questions go analyse -> retrieve -> answer; in LLM mode, a question that
counts, lists or filters also gets a generated read-only Cypher query alongside the
retrieval (``query_graph``). A question that describes what
it asks about ("Where was the author of Dune born?") goes into the loop
decompose -> (retrieve_hop -> reason_hop)* -> answer, one sub-question per turn, until
all are answered or the hop budget is spent; a broken chain falls back to retrieving
the whole question at once.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.analyse_question import analyse_question
from nodes.answer_question import answer_question
from nodes.decompose_question import decompose_question
from nodes.query_graph import query_graph
from nodes.reason_hop import reason_hop
from nodes.retrieve_evidence import retrieve_evidence
from nodes.retrieve_hop import retrieve_hop
from nodes.routing import route_after_analyse, route_after_decompose, route_after_reason
from schemas.context import RunContext
from schemas.models import Question
from schemas.state import AnswerOutput, BrokerState

builder = StateGraph(BrokerState, context_schema=RunContext, input_schema=Question, output_schema=AnswerOutput)
builder.add_node("analyse_question", analyse_question)
builder.add_node("decompose_question", decompose_question)
builder.add_node("retrieve_hop", retrieve_hop)
builder.add_node("reason_hop", reason_hop)
builder.add_node("retrieve_evidence", retrieve_evidence)
builder.add_node("query_graph", query_graph)
builder.add_node("answer_question", answer_question)
builder.add_edge(START, "analyse_question")
builder.add_conditional_edges(
    "analyse_question", route_after_analyse, ["decompose_question", "retrieve_evidence", "query_graph"]
)
builder.add_conditional_edges("decompose_question", route_after_decompose, ["retrieve_hop", "retrieve_evidence"])
builder.add_edge("retrieve_hop", "reason_hop")
builder.add_conditional_edges(
    "reason_hop", route_after_reason, ["retrieve_hop", "answer_question", "retrieve_evidence"]
)
builder.add_edge("retrieve_evidence", "answer_question")
builder.add_edge("query_graph", "answer_question")
builder.add_edge("answer_question", END)

graph = builder.compile(name="answer")
