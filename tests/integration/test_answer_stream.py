"""Streaming the answer graph: every update is plain data, subgraph updates included.

Clients of ``stream_mode="updates"`` (Studio, the LangGraph API, a user's agent) see what
each node returned. No update carries a None (a node leaves out a key it has nothing for)
or a reducer-bypass wrapper (``Overwrite`` streams as ``{"value": ...}``).
"""

from __future__ import annotations

from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.answers import NOT_IN_MEMORY_EN
from elephant_broker.graphs import answer
from elephant_broker.graphs.broker import graph as broker_graph
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Question
from elephant_broker.schemas.state import BrokerOutput
from langgraph.types import Overwrite

Update = tuple[tuple[str, ...], str, Any]


def stream(context: Context, question: str) -> list[Update]:
    """Return (namespace, node, update) for every update of the run, the multi-hop subgraph's too."""
    chunks = answer.graph.stream(Question(question=question), context=context, stream_mode="updates", subgraphs=True)
    return [(namespace, node, update) for namespace, chunk in chunks for node, update in chunk.items()]


def assert_plain(updates: list[Update]) -> None:
    for namespace, node, update in updates:
        assert isinstance(update, dict), (namespace, node, update)
        for key, value in update.items():
            assert value is not None, (namespace, node, key)
            assert not isinstance(value, Overwrite), (namespace, node, key)
            assert not (isinstance(value, dict) and set(value) == {"value"}), (namespace, node, key, value)


def final(updates: list[Update]) -> dict[str, Any]:
    [update] = [update for namespace, node, update in updates if not namespace and node == "answer_question"]
    return update


def nodes(updates: list[Update]) -> list[str]:
    return [node for namespace, node, _ in updates if not namespace]


def subgraph_nodes(updates: list[Update]) -> list[str]:
    return [node for namespace, node, _ in updates if namespace and namespace[0].startswith("multi_hop:")]


def test_a_single_hop_question_streams_plain_updates(broker: Broker, context: Context) -> None:
    broker.remember("小李精通 Python。", speaker="小李")
    updates = stream(context, "小李会什么语言？")
    assert_plain(updates)
    assert nodes(updates) == ["analyse_question", "retrieve_evidence", "answer_question"]
    output = final(updates)
    assert output["answer"].startswith("Python")
    assert [fact.object for fact in output["facts"]] == ["Python"]
    assert output["episodes"] and output["history"] == []


def test_a_multi_hop_question_streams_the_subgraph_and_plain_updates(broker: Broker, context: Context) -> None:
    for text in ("张三的导师是李四。", "李四在清华大学任教。", "王五的导师是赵六。", "赵六在北京大学任教。"):
        broker.remember(text)
    updates = stream(context, "张三的导师在哪所大学任教？")
    assert_plain(updates)
    assert nodes(updates) == ["analyse_question", "multi_hop", "answer_question"]
    assert subgraph_nodes(updates) == ["decompose_question", "retrieve_hop", "reason_hop", "retrieve_hop", "reason_hop"]
    [loop] = [update for namespace, node, update in updates if not namespace and node == "multi_hop"]
    assert {"sub_questions", "hops", "found_facts", "episode_rankings"} <= set(loop)  # HopOutput
    assert final(updates)["answer"].startswith("清华大学")


def test_a_broken_chain_streams_its_fallback(broker: Broker, context: Context) -> None:
    broker.remember("Frank Herbert was born in Tacoma.")
    updates = stream(context, "Where was the author of Dune born?")
    assert_plain(updates)
    assert nodes(updates) == ["analyse_question", "multi_hop", "retrieve_evidence", "answer_question"]
    assert "Tacoma" not in final(updates)["answer"]


@pytest.mark.parametrize("question", ["Where does Alice work?", "Where was the author of Dune born?"])
def test_nothing_in_memory_streams_plain_updates(context: Context, question: str) -> None:
    updates = stream(context, question)
    assert_plain(updates)
    output = final(updates)
    assert output["answer"] == NOT_IN_MEMORY_EN
    assert (output["answered"], output["reason"]) == (False, "nothing_found")
    assert output["facts"] == [] and output["episodes"] == []


def test_the_broker_graph_streams_its_subgraphs_nodes_with_their_real_updates(broker: Broker, context: Context) -> None:
    # A graph run as a node reports its nodes' updates cut to its output keys; the broker
    # runs compiles whose output is the whole state, so no node of ingest or answer shows
    # as null, and the broker's own output stays its output schema.
    for request in ({"text": "小李精通 Python。", "speaker": "小李"}, {"question": "小李会什么语言？"}):
        chunks = broker_graph.stream(request, context=context, stream_mode="updates", subgraphs=True)
        updates = [(namespace, node, update) for namespace, chunk in chunks for node, update in chunk.items()]
        assert_plain(updates)
        inner = [node for namespace, node, _ in updates if namespace]
        assert inner[0] in ("read_text", "analyse_question") and len(inner) >= 3
    reply = broker_graph.invoke({"question": "小李会什么语言？"}, context=context)
    assert set(reply) <= set(BrokerOutput.__annotations__)
    assert reply["answer"].startswith("Python")
    report = broker_graph.invoke({"text": "小王精通 Java。", "speaker": "小王"}, context=context)
    assert set(report) <= set(BrokerOutput.__annotations__) and report["report"].facts == 1
