"""LLM mode: scripted fake chat models, and the real ChatOpenAI wiring against a loopback server."""

from __future__ import annotations

import json

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.answers import CitedAnswer
from elephant_broker.providers.chat_models import reset_chat_models
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Extraction, Quintuple

from tests.fakes import ScriptedChatModel
from tests.llm_fakes import LoopbackOpenAI, schema_of


def test_reader_uses_the_model_and_resolves_first_person(scripted: ScriptedChatModel, context: Context) -> None:
    context.llm = "fake:scripted"
    scripted.queue(
        Extraction(
            quintuples=[
                Quintuple(subject="我", subject_type="Person", predicate="精通", object="Rust", object_type="Language")
            ]
        )
    )
    report = Broker(context).remember("我精通 Rust。", speaker="小李")
    assert (report.episodes, report.facts, report.entities) == (1, 1, 2)
    [fact] = Broker(context).facts()
    assert (fact.subject, fact.predicate, fact.object) == ("小李", "精通", "Rust")
    system, user = scripted.calls[0]
    assert "五元组" in system[1]  # the Chinese system prompt for Chinese text
    assert "<speaker>小李</speaker>" in user[1] and "我精通 Rust。" in user[1]


def test_llm_answer_keeps_only_citations_that_were_retrieved(scripted: ScriptedChatModel, context: Context) -> None:
    Broker(context).remember("小李精通 Python。", speaker="小李")  # offline extraction
    context.llm = "fake:scripted"
    [stored] = Broker(context).facts()
    scripted.queue(CitedAnswer(answer="小李精通 Python。", fact_ids=[stored.id, "fact_invented"]))
    answer = Broker(context).ask("小李会什么语言？")
    assert answer.answer == "小李精通 Python。"
    assert [fact.id for fact in answer.facts] == [stored.id]
    prompt = scripted.calls[0][1][1]
    assert f"[{stored.id}]" in prompt and "小李精通 Python" in prompt


def test_no_model_call_when_memory_has_nothing(scripted: ScriptedChatModel, context: Context) -> None:
    context.llm = "fake:scripted"
    answer = Broker(context).ask("What is the capital of Peru?")
    assert scripted.calls == []
    assert (answer.answered, answer.reason) == (False, "nothing_found")


def test_openai_compatible_endpoint_through_openai_base_url(context: Context, monkeypatch: pytest.MonkeyPatch) -> None:
    replies = {
        "Extraction": {
            "quintuples": [
                {
                    "subject": "I",
                    "subject_type": "Person",
                    "predicate": "works at",
                    "object": "Initech",
                    "object_type": "Organization",
                    "confidence": 0.9,
                    "negated": False,
                    "valid_from": None,
                    "source_span": "I work at Initech.",
                }
            ]
        },
    }
    server = LoopbackOpenAI(lambda body: json.dumps(replies[schema_of(body)], ensure_ascii=False))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback-test")
    reset_chat_models()
    try:
        context.llm = "openai:gpt-loopback"
        report = Broker(context).remember("I work at Initech.", speaker="Peter")
        assert report.facts == 1
        [fact] = Broker(context).facts()
        assert (fact.subject, fact.predicate_key, fact.object) == ("Peter", "works_at", "Initech")
        [request] = server.requests
        assert request["model"] == "gpt-loopback"
        assert request["_authorization"] == "Bearer sk-loopback-test"
        assert request["response_format"]["type"] == "json_schema"
    finally:
        server.close()
        reset_chat_models()
