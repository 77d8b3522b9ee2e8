"""Embedding the compiled graphs directly: ``invoke``/``ainvoke``/``stream`` with a ``Context``.

These are the calls docs/python-api.md shows; if one of them changes, the docs must too.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from elephant_broker.graphs.answer import graph as answer_graph
from elephant_broker.graphs.broker import graph as broker_graph
from elephant_broker.graphs.ingest import builder as ingest_builder
from elephant_broker.graphs.ingest import graph as ingest_graph
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Fact, IngestReport, Question
from elephant_broker.schemas.state import AnswerOutput
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Command

TEXTS = [
    {"text": "小李住在北京。", "speaker": "小李"},
    {"text": "Alice works at Acme Corp.", "speaker": "Alice"},
]
QUESTIONS = {"小李住在哪里？": "北京", "Where does Alice work?": "Acme", "Who works at Acme Corp?": "Alice"}

# The pydantic types a checkpointer may rebuild from ingest state (docs/python-api.md lists the same).
STATE_TYPES = [
    ("elephant_broker.schemas.models", name)
    for name in ("Quintuple", "EpisodeWrite", "Episode", "EntityRow", "FactRow", "Fact", "IngestReport", "Conflict")
]


def test_invoke_with_a_context(context: Context) -> None:
    for text in TEXTS:
        assert ingest_graph.invoke(text, context=context) == {
            "report": IngestReport(episodes=1, facts=1, entities=2, conflicts=0)
        }
    # The same text again is the same episode: nothing new.
    assert ingest_graph.invoke(TEXTS[0], context=context) == {"report": IngestReport()}

    result = answer_graph.invoke({"question": "小李住在哪里？"}, context=context)
    # Only output-schema keys, no internals; a key no node wrote (hops of a one-hop question) is absent.
    assert {"answer", "answered", "facts", "episodes"} <= set(result) <= set(AnswerOutput.__annotations__)
    assert "北京" in result["answer"]
    assert all(isinstance(fact, Fact) for fact in result["facts"])
    assert any(f.subject == "小李" and f.object == "北京" for f in result["facts"])
    assert any(e.text == "小李住在北京。" for e in result["episodes"])
    # The input schema's model is accepted as well as a dict.
    assert answer_graph.invoke(Question(question="小李住在哪里？"), context=context)["answer"] == result["answer"]

    # The broker graph routes on the key: text is remembered, question is answered.
    assert "Acme" in broker_graph.invoke({"question": "Where does Alice work?"}, context=context)["answer"]
    routed = broker_graph.invoke({"text": "Bob lives in Paris.", "speaker": "Bob"}, context=context)
    assert routed["report"].episodes == 1

    # Another agent's memory is another scope.
    other = answer_graph.invoke({"question": "小李住在哪里？", "agent_id": "someone-else"}, context=context)
    assert other["facts"] == [] and "北京" not in other["answer"]


def test_ainvoke_runs_concurrent_questions(context: Context) -> None:
    async def main() -> list[dict]:
        for text in TEXTS:
            await ingest_graph.ainvoke(text, context=context)
        return await asyncio.gather(
            *(answer_graph.ainvoke({"question": question}, context=context) for question in QUESTIONS)
        )

    results = asyncio.run(main())
    for (question, expected), result in zip(QUESTIONS.items(), results, strict=True):
        assert expected in result["answer"], (question, result["answer"])
        # Concurrent runs (sync nodes in worker threads) give what a sequential run gives.
        assert result["answer"] == answer_graph.invoke({"question": question}, context=context)["answer"]


def test_stream_reports_each_node(context: Context) -> None:
    steps = [
        node for update in ingest_graph.stream(TEXTS[1], context=context, stream_mode="updates") for node in update
    ]
    assert steps == ["read_text", "resolve_entities", "build_facts", "detect_conflicts", "commit_episode"]


def test_human_review_pauses_and_resumes_on_a_thread(context: Context, caplog: pytest.LogCaptureFixture) -> None:
    ingest_graph.invoke({"text": "小李住在北京。", "speaker": "小李"}, context=context)
    human = replace(context, review_policy="human")
    graph = ingest_builder.compile(
        checkpointer=InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=STATE_TYPES))
    )
    config = {"configurable": {"thread_id": "review-1"}}

    paused = graph.invoke({"text": "小李住在上海。", "speaker": "小李"}, config=config, context=human)
    [pending] = paused["__interrupt__"]
    assert pending.value["options"] == ["keep_new", "keep_old", "keep_both"]
    assert "北京" in pending.value["question"] and "上海" in pending.value["question"]
    # The reviewer sees both statements, what each choice does, and what auto review would pick.
    assert pending.value["position"] == "1 of 1" and pending.value["kind"] == "single_value"
    assert pending.value["old"]["statement"] == "小李住在北京" and pending.value["new"]["statement"] == "小李住在上海"
    assert pending.value["suggestion"]["decision"] == "keep_new"
    assert set(pending.value["option_meanings"]) == set(pending.value["options"])
    # Nothing is written while the review is open.
    assert "北京" in answer_graph.invoke({"question": "小李住在哪里？"}, context=context)["answer"]

    done = graph.invoke(Command(resume="keep_new"), config=config, context=human)
    assert done["report"].conflicts == 1 and done["report"].episodes == 1
    now = answer_graph.invoke({"question": "小李住在哪里？"}, context=context)
    assert "上海" in now["answer"]
    assert any(f.object == "北京" and f.status == "superseded" for f in now["history"])
    # Every type in the checkpoint was allowed (langgraph will refuse unregistered ones).
    assert "unregistered type" not in caplog.text
