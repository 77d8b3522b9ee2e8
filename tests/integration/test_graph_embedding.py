"""The compiled graphs inside someone else's graph or agent, with no ``Context`` given.

A graph run as a node of a parent ``StateGraph``, through ``graph.as_tool()`` or as a
tool of ``langchain.agents.create_agent`` gets no context of its own: it takes its
settings from ``ELEPHANT_*`` (here a temporary ``ELEPHANT_HOME`` and an agent) and
reads the memory ``Broker`` wrote with the same settings. These are the snippets of
docs/python-api.md ("Inside your own graph or agent").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.graphs.answer import graph as answer_graph
from elephant_broker.graphs.broker import graph as broker_graph
from elephant_broker.graphs.ingest import graph as ingest_graph
from elephant_broker.schemas.models import IngestReport
from elephant_broker.schemas.state import BrokerOutput
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from tests.fakes import ScriptedChatModel

AGENT = "assistant"

# Runnable.as_tool is marked beta in langchain-core; the warning says nothing about this code.
pytestmark = pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")


class Chat(TypedDict):
    """A user's graph state: the question asked and the answer to show."""

    question: str
    answer: str


@dataclass
class UserContext:
    """A user's own run settings: nothing the memory graphs know about."""

    user_name: str = "Ada"


class Inbox(TypedDict):
    """A user's graph state: a message to remember, who sent it, what was stored."""

    text: str
    speaker: str
    report: IngestReport


@pytest.fixture
def memory(home: Path, monkeypatch: pytest.MonkeyPatch) -> Broker:
    """A memory written through ``Broker``, with the settings the graphs will find in the environment."""
    monkeypatch.setenv("ELEPHANT_HOME", str(home))
    monkeypatch.setenv("ELEPHANT_AGENT", AGENT)
    broker = Broker()  # every setting from ELEPHANT_*
    assert broker.context.home == str(home) and broker.context.agent_id == AGENT
    broker.remember("小李住在北京。", speaker="小李")
    return broker


@pytest.mark.parametrize("own_context", [False, True], ids=["no-context", "parent-context"])
def test_answer_graph_as_a_node_of_a_parent_graph(memory: Broker, own_context: bool) -> None:
    parent = StateGraph(Chat, context_schema=UserContext if own_context else None)
    parent.add_node("memory", answer_graph)
    parent.add_edge(START, "memory")
    parent.add_edge("memory", END)
    chat = parent.compile()

    # The subgraph sees the parent's context (none, or one of another type): settings come from ELEPHANT_*.
    result = chat.invoke({"question": "小李住在哪里？"}, context=UserContext() if own_context else None)
    # The parent keeps only its own keys of what the subgraph returns.
    assert set(result) == {"question", "answer"}
    assert "北京" in result["answer"]
    assert result["answer"] == memory.ask("小李住在哪里？").answer


def test_ingest_graph_as_a_node_of_a_parent_graph(memory: Broker) -> None:
    parent = StateGraph(Inbox)
    parent.add_node("remember", ingest_graph)
    parent.add_edge(START, "remember")
    parent.add_edge("remember", END)
    inbox = parent.compile()

    result = inbox.invoke({"text": "Alice works at Acme Corp.", "speaker": "Alice"})
    assert result["report"] == IngestReport(episodes=1, facts=1, entities=2, conflicts=0)
    # Written into the environment's memory and agent, where Broker reads it.
    assert "Acme" in memory.ask("Where does Alice work?").answer
    assert Broker(agent_id="someone-else").ask("Where does Alice work?").facts == []


def test_graphs_run_without_a_context(memory: Broker) -> None:
    assert "北京" in answer_graph.invoke({"question": "小李住在哪里？"})["answer"]
    assert broker_graph.invoke({"text": "Bob lives in Paris.", "speaker": "Bob"})["report"].episodes == 1
    answered = broker_graph.invoke({"question": "Where does Bob live?"})
    # The broker graph returns what its output schema lists, not its internal state.
    assert "Paris" in answered["answer"]
    assert set(answered) <= set(BrokerOutput.__annotations__)


def test_as_tool_needs_only_a_question(memory: Broker) -> None:
    tool = answer_graph.as_tool(name="ask_memory", description="Answer a question from long-term memory.")
    schema = tool.tool_call_schema.model_json_schema()
    assert schema["required"] == ["question"]
    assert set(schema["properties"]) == {"question", "speaker", "agent_id", "session_id", "as_of"}
    assert all(field.get("description") for field in schema["properties"].values())

    result = tool.invoke({"question": "小李住在哪里？"})
    assert "北京" in result["answer"]
    assert any(fact.subject == "小李" and fact.object == "北京" for fact in result["facts"])
    # The input model bounds what a model may send, as the MCP and LangChain tools do.
    with pytest.raises(ValueError, match="question is empty"):
        tool.invoke({"question": "   "})


def test_create_agent_calls_the_graph_as_a_tool(memory: Broker) -> None:
    tool = answer_graph.as_tool(name="ask_memory", description="Answer a question from long-term memory.")
    call = {"name": "ask_memory", "args": {"question": "小李住在哪里？"}, "id": "call-1", "type": "tool_call"}
    model = ScriptedChatModel(messages=iter([AIMessage(content="", tool_calls=[call]), AIMessage(content="北京。")]))
    agent = create_agent(model, tools=[tool], system_prompt="You have a long-term memory.")

    result = agent.invoke({"messages": [HumanMessage("小李住在哪里？")]})
    [reply] = [message for message in result["messages"] if isinstance(message, ToolMessage)]
    assert reply.tool_call_id == "call-1" and reply.status == "success"
    # The model reads the answer and the ids of the facts it rests on.
    fact_ids = [fact.id for fact in memory.ask("小李住在哪里？").facts]
    assert "北京" in reply.text and fact_ids and all(fact_id in reply.text for fact_id in fact_ids)
    assert result["messages"][-1].text == "北京。"
