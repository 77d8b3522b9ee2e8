"""The LLM cache (SQLite, LangChain's ``BaseCache``) and ``ask_model``'s use of it: keys, counts, failures."""

from __future__ import annotations

import sqlite3
import stat
import threading
from pathlib import Path

import pytest
from elephant_broker.providers import chat_models
from elephant_broker.providers.chat_models import ModelError, ModelUsage, ask_model
from elephant_broker.providers.llm_cache import (
    CACHE_FILE,
    SqliteLLMCache,
    llm_cache_for,
    open_llm_cache,
    structured_key,
)
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Extraction, Quintuple
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, Generation
from pydantic import BaseModel

from tests.fakes import ScriptedChatModel
from tests.llm_fakes import ToolCallingModel

MESSAGES = [("system", "Extract facts."), ("user", "<text>Alice works at Acme.</text>")]
FACT = {"subject": "Alice", "predicate": "works at", "object": "Acme", "object_type": "Organization"}


def test_kept_generations_come_back_by_prompt_and_model(tmp_path: Path) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")
    assert cache.lookup("p", "model-a") is None
    message = AIMessage(content="", tool_calls=[{"name": "X", "args": {"a": 1}, "id": "c1"}])
    cache.update("p", "model-a", [ChatGeneration(message=message)])
    [kept] = cache.lookup("p", "model-a") or []
    assert isinstance(kept, ChatGeneration) and kept.message.tool_calls[0]["args"] == {"a": 1}
    assert cache.lookup("p", "model-b") is None  # another model misses
    assert cache.lookup("q", "model-a") is None  # another prompt misses
    assert cache.lookup("", "pmodel-a") is None  # the two parts never run together
    cache.close()
    reopened = SqliteLLMCache(tmp_path / "llm.sqlite")  # kept on disk, across processes
    assert len(reopened) == 1 and reopened.lookup("p", "model-a")
    reopened.clear()
    assert len(reopened) == 0 and reopened.lookup("p", "model-a") is None


def test_the_file_is_the_owners_and_a_broken_one_is_no_cache(tmp_path: Path) -> None:
    cache = open_llm_cache(tmp_path)
    assert cache is not None and cache.path == (tmp_path / CACHE_FILE).resolve()
    assert stat.S_IMODE(cache.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.path.parent.stat().st_mode) == 0o700
    assert open_llm_cache(tmp_path) is cache  # one connection per file and process
    broken = tmp_path / "other" / CACHE_FILE
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a database" * 100)
    assert open_llm_cache(tmp_path / "other") is None  # read without a cache, never fail


def test_an_unreadable_entry_or_a_failing_file_is_a_miss(tmp_path: Path) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")
    cache.update("p", "m", [Generation(text="x")])
    with sqlite3.connect(tmp_path / "llm.sqlite") as connection:
        connection.execute("UPDATE llm_cache SET generations = '[\"{not json\"]'")
    assert cache.lookup("p", "m") is None
    cache.close()
    assert cache.lookup("p", "m") is None  # a closed connection: a miss, not an error
    cache.update("p", "m", [Generation(text="x")])  # and a skipped write


def test_threads_share_one_cache(tmp_path: Path) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")

    def work(number: int) -> None:
        for item in range(20):
            cache.update(f"p{number}-{item}", "m", [Generation(text=str(item))])
            assert cache.lookup(f"p{number}-{item}", "m")

    threads = [threading.Thread(target=work, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 80


def test_it_is_a_langchain_cache_a_model_can_take(tmp_path: Path) -> None:
    """Given to a chat model as ``cache=``, LangChain's own caching path uses it."""
    model = ToolCallingModel(cache=SqliteLLMCache(tmp_path / "llm.sqlite"))
    model.queue({"quintuples": [FACT]})
    first = model.with_structured_output(Extraction).invoke(MESSAGES)
    second = model.with_structured_output(Extraction).invoke(MESSAGES)
    assert first == second and len(model.requests) == 1


def test_the_key_names_model_endpoint_schema_and_messages() -> None:
    class Other(BaseModel):
        value: str = ""

    base = structured_key("openai:gpt-x", "http://a/v1", Extraction, MESSAGES)
    assert structured_key("openai:gpt-x", "http://a/v1", Extraction, list(MESSAGES)) == base
    for changed in (
        structured_key("openai:gpt-y", "http://a/v1", Extraction, MESSAGES),
        structured_key("openai:gpt-x", "http://b/v1", Extraction, MESSAGES),
        structured_key("openai:gpt-x", "http://a/v1", Other, MESSAGES),
        structured_key("openai:gpt-x", "http://a/v1", Extraction, [MESSAGES[0], ("user", "<text>Bob</text>")]),
    ):
        assert changed != base


def test_a_kept_reply_is_returned_without_a_request(tmp_path: Path) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")
    model = ToolCallingModel()
    model.queue({"quintuples": [FACT]})
    first_usage, second_usage = ModelUsage(), ModelUsage()
    first = ask_model("fake:tools", Extraction, MESSAGES, model=model, cache=cache, usage=first_usage)
    second = ask_model("fake:tools", Extraction, MESSAGES, model=model, cache=cache, usage=second_usage)
    assert first == second and first.quintuples[0].object == "Acme"
    assert len(model.requests) == 1
    assert first_usage == ModelUsage(calls=1, cached=0, input_tokens=100, output_tokens=20)
    assert second_usage == ModelUsage(calls=0, cached=1, input_tokens=0, output_tokens=0)
    # Another model (spec) or another prompt is asked.
    other = ToolCallingModel()
    other.queue({"quintuples": []})
    assert ask_model("fake:other", Extraction, MESSAGES, model=other, cache=cache).quintuples == []
    model.queue({"quintuples": []})
    ask_model("fake:tools", Extraction, [MESSAGES[0], ("user", "<text>Bob</text>")], model=model, cache=cache)
    assert len(model.requests) == 2 and len(other.requests) == 1


def test_a_reply_that_does_not_parse_is_asked_again_counted_and_never_kept(tmp_path: Path) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")
    model = ToolCallingModel()
    model.queue({"quintuples": [{"subject": "Alice"}]}, {"quintuples": [FACT]})  # the first lacks fields
    usage = ModelUsage()
    reply = ask_model("fake:tools", Extraction, MESSAGES, model=model, cache=cache, usage=usage)
    assert reply.quintuples[0].subject == "Alice"
    assert usage.calls == 2 and usage.input_tokens == 200
    assert len(cache) == 1  # only the reply that validated

    broken = ToolCallingModel()
    broken.queue({"quintuples": "nonsense"}, {"quintuples": "nonsense"})
    with pytest.raises(ModelError):
        ask_model("fake:broken", Extraction, MESSAGES, model=broken, cache=cache)
    assert len(cache) == 1  # a failed call keeps nothing


def test_a_kept_reply_is_served_while_the_model_is_down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = SqliteLLMCache(tmp_path / "llm.sqlite")
    scripted = ScriptedChatModel([Extraction(quintuples=[Quintuple(**FACT)])])
    ask_model("fake:down", Extraction, MESSAGES, model=scripted, cache=cache)
    down = ModelError("model fake:down timed out", kind="timeout", spec="fake:down", endpoint="x")
    monkeypatch.setitem(chat_models._outages, "fake:down", (float("inf"), down))
    assert ask_model("fake:down", Extraction, MESSAGES, model=scripted, cache=cache).quintuples[0].object == "Acme"
    with pytest.raises(ModelError, match="not asked again"):  # a text not read before still fails fast
        ask_model("fake:down", Extraction, [("user", "new")], model=scripted, cache=cache)


def test_the_cache_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert llm_cache_for(Context(home=str(tmp_path), llm="")) is None  # offline: nothing to keep
    assert llm_cache_for(Context(home=str(tmp_path), llm="fake:x")) is not None
    assert llm_cache_for(Context(home=str(tmp_path), llm="fake:x", llm_cache=False)) is None
    for off in ("0", "false", "OFF", "no"):
        monkeypatch.setenv("ELEPHANT_LLM_CACHE", off)
        assert Context(home=str(tmp_path)).llm_cache is False
    monkeypatch.setenv("ELEPHANT_LLM_CACHE", "sometimes")
    with pytest.raises(ValueError, match="llm_cache must be"):
        Context(home=str(tmp_path))
