"""The answer graph: analyse, then one retrieval or the multi-hop subgraph, then answer.

Single-hop questions go analyse -> retrieve -> answer; in LLM mode, a question that
counts, lists or filters also gets a generated read-only Cypher query alongside the
retrieval (``query_graph``). A question that describes what it asks about ("Where was
the author of Dune born?") goes into the multi-hop subgraph (``graphs.multi_hop``:
decompose -> (retrieve_hop -> reason_hop)*); a fully answered chain is answered from
its hops, and a broken chain or a spent budget falls back to retrieving the whole
question at once.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.graphs.multi_hop import graph as multi_hop_graph
from elephant_broker.nodes.analyse_question import analyse_question
from elephant_broker.nodes.answer_question import answer_question
from elephant_broker.nodes.query_graph import query_graph
from elephant_broker.nodes.retrieve_evidence import retrieve_evidence
from elephant_broker.nodes.routing import route_after_analyse, route_after_multi_hop
from elephant_broker.schemas.context import RunContext
from elephant_broker.schemas.models import Question
from elephant_broker.schemas.state import AnswerOutput, AnswerState
from langgraph.graph import END, START, StateGraph


def build(output_schema: type[AnswerOutput] | type[AnswerState] = AnswerOutput) -> StateGraph[Any, Any, Any, Any]:
    """Wire the answer graph; it returns ``output_schema`` (the answer, or its whole state)."""
    wiring = StateGraph(AnswerState, context_schema=RunContext, input_schema=Question, output_schema=output_schema)
    wiring.add_node("analyse_question", analyse_question)
    wiring.add_node("multi_hop", multi_hop_graph)
    wiring.add_node("retrieve_evidence", retrieve_evidence)
    wiring.add_node("query_graph", query_graph)
    wiring.add_node("answer_question", answer_question)
    wiring.add_edge(START, "analyse_question")
    wiring.add_conditional_edges(
        "analyse_question", route_after_analyse, ["multi_hop", "retrieve_evidence", "query_graph"]
    )
    wiring.add_conditional_edges("multi_hop", route_after_multi_hop, ["answer_question", "retrieve_evidence"])
    wiring.add_edge("retrieve_evidence", "answer_question")
    wiring.add_edge("query_graph", "answer_question")
    wiring.add_edge("answer_question", END)
    return wiring


builder = build()
graph = builder.compile(name="answer")
# A graph run as another graph's node reports its nodes' updates cut to its output keys
# (a node that writes none shows as null in a stream). The broker graph runs this
# compile, whose output is the whole state; the broker keeps only its own keys.
subgraph = build(AnswerState).compile(name="answer")
