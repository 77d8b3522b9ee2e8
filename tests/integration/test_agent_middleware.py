"""The agent middleware: a ``create_agent`` agent with ``ElephantMemory`` over two sessions.

The chat model is scripted (it calls a tool, then answers); the broker underneath is real
(embedded FalkorDB, offline Reader), so the test checks what memory stored and what the
model was given, not what a fake said.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.broker.middleware import MEMORY_HEADER, ElephantMemory, estimate_tokens
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import AnswerRecord
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import ToolException, tool
from langgraph.checkpoint.memory import InMemorySaver

from tests.fakes import ScriptedToolModel, call


@tool
def find_desk(person: str) -> str:
    """Say where a person's desk is."""
    return f"{person} sits in Building 7."


@tool
def broken_lookup(person: str) -> str:
    """A lookup that always fails (reported to the model as an error result)."""
    raise ToolException("directory offline")


broken_lookup.handle_tool_error = True


def system_text(messages: list[BaseMessage]) -> str:
    return "\n".join(str(message.content) for message in messages if message.type == "system")


def run(agent: Any, text: str, thread: str) -> dict[str, Any]:
    return agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": thread}})


def test_two_sessions_recall_record_and_correct(broker: Broker) -> None:
    memory = ElephantMemory(broker, agent_id="helper", user="Peter")
    model = ScriptedToolModel(
        [
            call("find_desk", "call-1", person="Ann"),
            AIMessage(content="Noted, and Ann sits in Building 7."),
            AIMessage(content="You work at Initech."),
            AIMessage(content="Sorry, noted."),
            AIMessage(content="You work at Globex."),
        ]
    )
    agent = create_agent(model, [find_desk], middleware=[memory], checkpointer=InMemorySaver())

    run(agent, "I work at Initech. Where does Ann sit?", "session-1")
    run(agent, "Where do I work?", "session-2")

    # Memory is asked once a turn: the model call after the tool result got the same memories.
    assert system_text(model.seen[1]) == system_text(model.seen[0])
    asked = broker.store._read("MATCH (a:Answer) WHERE a.scope = 'helper' RETURN count(a) AS n")[0]["n"]
    assert asked == 2  # turns 1 and 2
    # The second session's model call was given the first session's fact, with its id.
    employer = next(f for f in broker.facts(agent_id="helper") if f.object == "Initech")
    given = system_text(model.seen[2])
    assert given.startswith(MEMORY_HEADER) and f"[{employer.id}] Peter works at Initech" in given

    # Tool calls and results, the user's words and the model's answers are episodes of their kind.
    sources = {row["name"]: row["episodes"] for row in broker.sources(agent_id="helper")}
    assert sources["tool-call:find_desk"] == 1 and sources["tool:find_desk"] == 1
    assert sources["user"] == 2 and sources["assistant"] == 2
    desk = broker.recall("Building 7", agent_id="helper", k=3)
    assert any(episode.source == "tool:find_desk" and "Building 7" in episode.text for episode in desk)

    # The user corrects the agent: the old fact is superseded, the next session gets the new one.
    run(agent, "That's wrong, I work at Globex now.", "session-2")
    facts = {fact.object: fact for fact in broker.facts(agent_id="helper") if fact.subject == "Peter"}
    assert facts["Initech"].status == "superseded" and facts["Globex"].status == "active"
    assert facts["Initech"].confidence == pytest.approx(employer.confidence * 0.5)
    run(agent, "Where do I work?", "session-3")
    latest = system_text(model.seen[4])
    assert f"[{facts['Globex'].id}] Peter works at Globex" in latest and "Initech" not in latest.split("\n")[1]


def test_capture_inject_and_budget_are_configurable(broker: Broker) -> None:
    broker.remember("Ann works at Initech. Ann lives in Oslo. Ann plays chess.", speaker="Peter", agent_id="helper")
    memory = ElephantMemory(broker, agent_id="helper", capture=["tool_result"], inject=["facts"], budget_tokens=40)
    model = ScriptedToolModel([AIMessage(content="She works at Initech.")])
    agent = create_agent(model, [], middleware=[memory])
    agent.invoke({"messages": [HumanMessage("Where does Ann work?")]})
    given = system_text(model.seen[0])
    assert "Initech" in given and "[ep_" not in given  # facts only
    assert estimate_tokens(given) <= 40
    # Only tool results are captured: the question and the answer left no episode.
    assert broker.counts(agent_id="helper")["episodes"] == 1
    with pytest.raises(ValueError, match="unknown capture or inject"):
        ElephantMemory(broker, capture=["thoughts"])


def test_failed_tool_calls_become_a_note_about_the_tool(broker: Broker) -> None:
    memory = ElephantMemory(broker, agent_id="helper")
    steps: list[Any] = []
    for number in range(3):
        steps += [call("broken_lookup", f"call-{number}", person="Ann"), AIMessage(content="The directory failed.")]
    model = ScriptedToolModel(steps)
    agent = create_agent(model, [broken_lookup], middleware=[memory])
    for number in range(3):
        agent.invoke({"messages": [HumanMessage(f"Where does Ann sit? ({number})")]})
    notes = broker.notes(agent_id="helper")
    assert [(note.about, note.name, note.wrong, note.total) for note in notes] == [("tool", "broken_lookup", 3, 3)]
    assert "broken_lookup failed 3 of 3" in notes[0].reminder


def test_memory_trouble_does_not_stop_the_agent(context: Context, caplog: pytest.LogCaptureFixture) -> None:
    broken = Broker(Context(home=context.home, store="falkordb://127.0.0.1:1", agent_id="test"))
    memory = ElephantMemory(broken)
    model = ScriptedToolModel([AIMessage(content="Hello!")])
    agent = create_agent(model, [], middleware=[memory])
    result = agent.invoke({"messages": [HumanMessage("Hi, I'm Zoe.")]})
    assert result["messages"][-1].content == "Hello!"
    assert "memory remember failed" in caplog.text and "Zoe" not in caplog.text


def test_async_agents_use_the_same_memory(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", speaker="Peter", agent_id="helper")
    memory = ElephantMemory(broker, agent_id="helper")
    model = ScriptedToolModel([call("find_desk", "call-a", person="Ann"), AIMessage(content="Building 7.")])
    agent = create_agent(model, [find_desk], middleware=[memory])
    asyncio.run(agent.ainvoke({"messages": [HumanMessage("Where does Ann work and sit?")]}))
    assert "Peter works at Initech" in system_text(model.seen[0]) or "Ann works at Initech" in system_text(
        model.seen[0]
    )
    sources = {row["name"] for row in broker.sources(agent_id="helper")}
    assert {"tool:find_desk", "tool-call:find_desk", "assistant", "user"} <= sources


def test_reasoning_is_kept_as_an_event_citing_what_memory_gave(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", speaker="Peter", agent_id="helper")
    memory = ElephantMemory(broker, agent_id="helper", capture=["reasoning"])
    thought = AIMessage(
        content=[
            {"type": "reasoning", "reasoning": "Memory says Ann works at Initech, so answer that."},
            {"type": "text", "text": "Ann works at Initech."},
        ]
    )
    agent = create_agent(ScriptedToolModel([thought]), [], middleware=[memory])
    agent.invoke({"messages": [HumanMessage("Where does Ann work?")]})
    sources = {row["name"]: row["episodes"] for row in broker.sources(agent_id="helper")}
    assert sources.get("reasoning") == 1 and "assistant" not in sources
    # The thought is linked to the memory answer the model was given, and so to the fact it cited.
    (record,) = [
        AnswerRecord.model_validate_json(row["record"])
        for row in broker.store._read("MATCH (a:Answer) WHERE a.scope = 'helper' RETURN a.record AS record")
    ]
    thought_episode = broker.recall("Memory says Ann works at Initech", agent_id="helper", k=1)[0]
    assert thought_episode.source == "reasoning" and record.reply_episode_ids == [thought_episode.id]
    assert record.fact_ids == [broker.facts(agent_id="helper")[0].id]
    # Kept as an event, not read: the model's words add no fact.
    assert [fact.object for fact in broker.facts(agent_id="helper")] == ["Initech"]
