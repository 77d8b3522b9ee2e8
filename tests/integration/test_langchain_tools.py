"""The LangChain tools: an agent made with ``create_agent`` remembers, then asks, then answers.

The chat model is scripted: it calls ``remember``, then ``ask``, then writes its final
answer from what ``ask`` returned. The broker underneath is real (embedded FalkorDB,
offline extraction), so the test checks what the tools stored, not what a fake said.
"""

from __future__ import annotations

import asyncio

from elephant_broker.broker.api import Broker
from elephant_broker.broker.tools import memory_tools
from elephant_broker.schemas.models import Answer, Episode, IngestReport
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool

from tests.fakes import ScriptedToolModel, call


def last_tool_message(messages: list[BaseMessage], name: str) -> ToolMessage:
    found = [m for m in messages if isinstance(m, ToolMessage) and m.name == name]
    assert found, f"no {name} result in the conversation"
    return found[-1]


def by_name(tools: list[BaseTool]) -> dict[str, BaseTool]:
    return {tool.name: tool for tool in tools}


def test_agent_remembers_then_answers_from_memory(broker: Broker) -> None:
    def ask_after_remembering(messages: list[BaseMessage]) -> AIMessage:
        assert last_tool_message(messages, "remember").status != "error"
        return call("ask", "call_ask", question="我会什么编程语言？")

    def answer_from_tool(messages: list[BaseMessage]) -> AIMessage:
        result = last_tool_message(messages, "ask").content
        assert isinstance(result, str)
        return AIMessage(content=f"根据记忆：{result.splitlines()[0]}")

    model = ScriptedToolModel(
        [call("remember", "call_remember", text="我精通 Python。"), ask_after_remembering, answer_from_tool]
    )
    tools = memory_tools(broker, speaker="小李", agent_id="assistant-1")
    agent = create_agent(model, tools=tools, system_prompt="You have a long-term memory.")

    result = agent.invoke({"messages": [HumanMessage("记住：我精通 Python。然后告诉我我会什么语言。")]})

    assert model.tool_names == ["remember", "recall", "ask"]
    messages = result["messages"]
    assert [type(m).__name__ for m in messages] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    # The tool really stored the fact, in the bound agent's memory, with first person resolved.
    stored = [f for f in broker.facts(agent_id="assistant-1") if f.subject == "小李" and f.object == "Python"]
    assert len(stored) == 1
    fact = stored[0]
    assert broker.facts() == []  # the broker's own default scope is untouched

    remembered = last_tool_message(messages, "remember")
    assert isinstance(remembered.artifact, IngestReport)
    assert remembered.artifact.episodes == 1 and remembered.artifact.facts >= 1
    assert f"[{fact.id}]" in remembered.content

    asked = last_tool_message(messages, "ask")
    assert isinstance(asked.artifact, Answer)
    assert fact.id in [f.id for f in asked.artifact.facts]
    assert "Python" in asked.artifact.answer
    assert f"[{fact.id}]" in asked.content and "Python" in asked.content

    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert "Python" in final.content and asked.artifact.answer.splitlines()[0] in final.content
    # The model saw each tool result before its next turn.
    assert any(isinstance(m, ToolMessage) and m.name == "ask" for m in model.seen[-1])


def test_tools_return_readable_text_and_structured_artifacts(broker: Broker) -> None:
    tools = by_name(memory_tools(broker, speaker="Alice", agent_id="a1", session_id="s1"))
    remembered = tools["remember"].invoke(
        {"type": "tool_call", "id": "1", "name": "remember", "args": {"text": "I work at Acme Corp.", "source": "chat"}}
    )
    assert isinstance(remembered, ToolMessage) and isinstance(remembered.artifact, IngestReport)
    [fact] = [f for f in broker.facts(agent_id="a1") if "Acme" in f.object]
    assert f"[{fact.id}]" in remembered.content and fact.subject == "Alice"

    again = tools["remember"].invoke(
        {"type": "tool_call", "id": "2", "name": "remember", "args": {"text": "I work at Acme Corp.", "source": "chat"}}
    )
    assert again.artifact == IngestReport() and "Already remembered" in again.content

    recalled = tools["recall"].invoke({"type": "tool_call", "id": "3", "name": "recall", "args": {"query": "Acme"}})
    assert isinstance(recalled.artifact, list) and all(isinstance(e, Episode) for e in recalled.artifact)
    [episode] = recalled.artifact
    assert episode.session_id == "s1" and episode.speaker == "Alice" and episode.source == "chat"
    assert f"[{episode.id}]" in recalled.content and "I work at Acme Corp." in recalled.content

    # Tools run off the event loop too (an async agent calls ainvoke).
    asked = asyncio.run(
        tools["ask"].ainvoke({"type": "tool_call", "id": "4", "name": "ask", "args": {"question": "Where do I work?"}})
    )
    assert isinstance(asked.artifact, Answer) and "Acme" in asked.artifact.answer
    assert f"[{fact.id}]" in asked.content


def test_mistakes_come_back_to_the_model_and_store_nothing(broker: Broker) -> None:
    tools = by_name(memory_tools(broker, agent_id="a1"))
    unknown = tools["remember"].invoke(
        {
            "type": "tool_call",
            "id": "1",
            "name": "remember",
            "args": {"text": "So Bob prefers tea.", "derived_from": ["fact_does_not_exist"]},
        }
    )
    assert unknown.status == "error" and "fact_does_not_exist" in unknown.content
    blank = tools["remember"].invoke({"type": "tool_call", "id": "2", "name": "remember", "args": {"text": "   "}})
    assert blank.status == "error" and "text is empty" in blank.content
    when = tools["ask"].invoke(
        {"type": "tool_call", "id": "3", "name": "ask", "args": {"question": "Who?", "as_of": "yesterday"}}
    )
    assert when.status == "error" and "not an ISO date" in when.content
    assert broker.counts(agent_id="a1")["episodes"] == 0


def test_remember_says_how_a_contradiction_was_settled(broker: Broker) -> None:
    remember = by_name(memory_tools(broker, speaker="小李"))["remember"]
    remember.invoke({"type": "tool_call", "id": "1", "name": "remember", "args": {"text": "我住在北京。"}})
    moved = remember.invoke({"type": "tool_call", "id": "2", "name": "remember", "args": {"text": "我住在上海。"}})
    assert moved.artifact.conflicts == 1
    [conflict] = broker.conflicts()
    assert conflict.decision == "keep_new" and conflict.decided_by == "auto"
    assert f"Conflict {conflict.id}: old: 小李住在北京; new: 小李住在上海; kept the new statement" in moved.content
