"""The answer graph: analyse -> retrieve -> answer, returning the evidence with the answer."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.analyse_question import analyse_question
from nodes.answer_question import answer_question
from nodes.retrieve_evidence import retrieve_evidence
from nodes.routing import route_after_analyse
from schemas.context import Context
from schemas.state import AnswerInput, AnswerOutput, BrokerState

builder = StateGraph(BrokerState, context_schema=Context, input_schema=AnswerInput, output_schema=AnswerOutput)
builder.add_node("analyse_question", analyse_question)
builder.add_node("retrieve_evidence", retrieve_evidence)
builder.add_node("answer_question", answer_question)
builder.add_edge(START, "analyse_question")
builder.add_conditional_edges("analyse_question", route_after_analyse, ["retrieve_evidence"])
builder.add_edge("retrieve_evidence", "answer_question")
builder.add_edge("answer_question", END)

graph = builder.compile(name="answer")
