"""The LLM Reader: long texts read piece by piece with context, the LLM cache, counts in the report, a user schema.

Scripted models stand in for the chat model (``fake:scripted`` replaces structured output
wholesale; ``ToolCallingModel`` goes through LangChain's own tool-calling structured output
and reports tokens), and a loopback OpenAI-compatible server for ``elephant ingest --json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.reading import preceding_tail
from elephant_broker.domain.user_schema import DROPPED_NOTE, single_valued_keys
from elephant_broker.language.chunks import split_long
from elephant_broker.providers.chat_models import register_chat_model
from elephant_broker.providers.llm_cache import CACHE_FILE
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Extraction, IngestReport, Perception, Quintuple
from elephant_broker.store.embedded import EmbeddedFalkorDB

from tests.fakes import ScriptedChatModel
from tests.llm_fakes import LoopbackOpenAI, ToolCallingModel

FIRST = "Alice Chen founded Lumen Labs in 2019."
MOVED = "She moved to Berlin in 2021."
LONG = " ".join(
    [
        *(f"The lab built lens number {i} for a customer in the spring." for i in range(24)),
        "Its customers were mostly universities.",
        FIRST,
        MOVED,
        "Lumen Labs opened an office there.",
    ]
)
"""A text of two pieces cut between FIRST and MOVED: "She" starting the second is Alice Chen, named in the first."""
SHORT = "Alice Chen works at Lumen Labs."


def fact(subject: str, predicate: str, obj: str, span: str = "", **types: str) -> Quintuple:
    return Quintuple(
        subject=subject,
        subject_type=types.get("subject_type", "Person"),
        predicate=predicate,
        object=obj,
        object_type=types.get("object_type", "Organization"),
        source_span=span,
        confidence=0.9,
    )


@pytest.fixture
def tools() -> Iterator[ToolCallingModel]:
    """A tool-calling model that reports tokens, registered as ``fake:tools``."""
    model = ToolCallingModel()
    register_chat_model("fake:tools", model)
    yield model
    register_chat_model("fake:tools", None)


def test_a_long_text_is_read_one_call_per_piece_with_the_piece_before_as_context(
    scripted: ScriptedChatModel, context: Context
) -> None:
    context.llm = "fake:scripted"
    pieces = split_long(LONG)
    assert len(pieces) == 2 and pieces[0].endswith(FIRST) and pieces[1].startswith(MOVED)
    scripted.queue(
        Extraction(quintuples=[fact("Alice Chen", "founded", "Lumen Labs", FIRST)]),
        Extraction(
            quintuples=[
                fact("Alice Chen", "founded", "Lumen Labs", FIRST),  # stated in the context only: dropped
                fact("Alice Chen", "moved to", "Berlin", MOVED, object_type="Place"),
            ]
        ),
    )
    report = Broker(context).remember(LONG, speaker="Bob")
    assert (report.episodes, report.model_calls, report.model_cached) == (2, 2, 0)
    assert len(scripted.calls) == 2  # one call per piece
    first_user, second_user = (call[1][1] for call in scripted.calls)
    assert "<context>" not in first_user
    assert f"<context>\n{preceding_tail(pieces[0])}\n</context>" in second_user
    assert f"<text>\n{pieces[1]}\n</text>" in second_user
    assert "<context>" in scripted.calls[1][0][1]  # the system message says what the context is for
    facts = {(f.subject, f.predicate, f.object): f for f in Broker(context).facts()}
    assert set(facts) == {("Alice Chen", "founded", "Lumen Labs"), ("Alice Chen", "moved to", "Berlin")}
    founded = facts["Alice Chen", "founded", "Lumen Labs"]
    assert founded.weight == 1 and len(founded.episode_ids) == 1  # not stated again by the second piece


def test_reading_a_text_again_costs_no_call(scripted: ScriptedChatModel, context: Context) -> None:
    context.llm = "fake:scripted"
    scripted.queue(Extraction(quintuples=[fact("Alice Chen", "works at", "Lumen Labs", SHORT)]))
    broker = Broker(context)
    first = broker.remember(SHORT, speaker="Bob", session_id="monday")
    assert (first.episodes, first.facts, first.model_calls, first.model_cached) == (1, 1, 1, 0)
    assert (Path(context.home) / CACHE_FILE).exists()
    # The same words in another session are a new episode: read again, from the cache.
    again = broker.remember(SHORT, speaker="Bob", session_id="tuesday")
    assert (again.episodes, again.model_calls, again.model_cached) == (1, 0, 1)
    assert len(scripted.calls) == 1
    [stored] = broker.facts()
    assert stored.weight == 2  # the cached reading is the same reading
    # Another speaker is another prompt; so is another model.
    scripted.queue(Extraction(quintuples=[]))
    assert broker.remember(SHORT, speaker="Carol").model_calls == 1
    other = ScriptedChatModel([Extraction(quintuples=[])])
    register_chat_model("fake:other", other)
    try:
        other_context = Context(**{**vars(context), "llm": "fake:other"})
        assert Broker(other_context).remember(SHORT, speaker="Bob", session_id="wednesday").model_calls == 1
        assert len(other.calls) == 1
    finally:
        register_chat_model("fake:other", None)
    # With the cache off, every reading asks.
    scripted.queue(Extraction(quintuples=[]))
    uncached = Context(**{**vars(context), "llm_cache": False})
    assert Broker(uncached).remember(SHORT, speaker="Bob", session_id="thursday").model_calls == 1
    assert len(scripted.calls) == 3


def test_calls_and_tokens_flow_into_the_report_through_tool_calling(tools: ToolCallingModel, context: Context) -> None:
    """LangChain's own structured output (tool calling) meets the cache, and its usage_metadata is counted."""
    context.llm = "fake:tools"
    tools.queue(*[{"quintuples": []}] * 2)
    report = Broker(context).remember(LONG, speaker="Bob")
    assert report.model_dump(include={"model_calls", "model_cached", "model_input_tokens", "model_output_tokens"}) == {
        "model_calls": 2,
        "model_cached": 0,
        "model_input_tokens": 200,
        "model_output_tokens": 40,
    }
    again = Broker(context).remember(LONG, speaker="Bob", session_id="other")
    assert (again.episodes, again.model_calls, again.model_cached, again.model_input_tokens) == (2, 0, 2, 0)
    assert len(tools.requests) == 2  # the model itself was never invoked the second time
    stored = Broker(context).remember(LONG, speaker="Bob", session_id="other")  # stored already: not read
    assert (stored.episodes, stored.model_calls, stored.model_cached) == (0, 0, 0)


def test_the_counts_flow_through_the_one_episode_graph_too(tools: ToolCallingModel, context: Context) -> None:
    """Under the human policy texts go one episode at a time through the ingest graph."""
    context.llm = "fake:tools"
    context.review_policy = "human"
    tools.queue({"quintuples": [fact("Alice Chen", "works at", "Lumen Labs", SHORT).model_dump()]})
    report = Broker(context).remember(SHORT, speaker="Bob")
    assert (report.episodes, report.facts, report.model_calls, report.model_input_tokens) == (1, 1, 1, 100)
    again = Broker(context).remember(SHORT, speaker="Bob", session_id="other")
    assert (again.episodes, again.model_calls, again.model_cached) == (1, 0, 1)
    tools.queue(*[{"quintuples": []}] * 2)
    long = Broker(context).remember(LONG, speaker="Bob")
    assert (long.episodes, long.model_calls, long.model_output_tokens) == (2, 2, 40)
    assert "<context>" in str(tools.requests[-1][1].content) and FIRST in str(tools.requests[-1][1].content)


def test_offline_reports_carry_no_model_counts(context: Context) -> None:
    report = Broker(context).remember(SHORT, speaker="Bob")
    assert report.model_calls is None and "model_calls" not in report.model_dump()
    assert (report + IngestReport(model_calls=2)).model_calls == 2


SCHEMA = """
[[entity_types]]
name = "Person"

[[entity_types]]
name = "Organization"
aliases = ["Company"]

[[entity_types]]
name = "Place"

[[entity_types]]
name = "Thing"
aliases = ["Drug"]

[[predicates]]
name = "works_at"
aliases = ["works for", "employed by"]
cardinality = "one"

[[predicates]]
name = "lives_in"
cardinality = "one"

[[predicates]]
name = "treats"
"""


def test_the_model_reader_respects_the_schema(scripted: ScriptedChatModel, context: Context, tmp_path: Path) -> None:
    path = tmp_path / "schema.toml"
    path.write_text(SCHEMA, encoding="utf-8")
    context.llm, context.schema = "fake:scripted", str(path)
    scripted.queue(
        Extraction(
            quintuples=[
                fact("Alice", "is employed by", "Acme", object_type="Company"),
                fact("Alice", "enjoys", "jazz", object_type="Activity"),
                fact("Aspirin", "treats", "headache", subject_type="Drug", object_type="Condition"),
            ]
        )
    )
    report = Broker(context).remember("Alice is employed by Acme. She enjoys jazz. Aspirin treats headaches.")
    system = scripted.calls[0][0][1]
    assert "<schema>" in system and "- works_at: works for, employed by (one value at a time)" in system
    assert "- Thing: Drug" in system and "Leave out any fact none of these predicates expresses." in system
    facts = {
        (f.subject, f.subject_type, f.predicate, f.predicate_key, f.object, f.object_type)
        for f in Broker(context).facts()
    }
    assert facts == {
        ("Alice", "Person", "works at", "works_at", "Acme", "Organization"),
        ("Aspirin", "Thing", "treats", "treat", "headache", "Concept"),
    }
    assert DROPPED_NOTE in report.notes
    # A one-valued predicate of the schema is what truth maintenance is given for it.
    assert {"works_at", "lives_in"} <= single_valued_keys(context)


def test_the_offline_reader_respects_the_schema(context: Context, tmp_path: Path) -> None:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"entity_types": ["Person", "Place"], "predicates": ["lives in"]}), encoding="utf-8")
    broker = Broker(home=context.home, store="embedded", agent_id="test", llm="", schema=str(path))
    report = broker.remember("Alice lives in Paris. Alice likes jazz. Alice works at Acme.", speaker="Alice")
    facts = [(f.subject, f.predicate, f.object, f.object_type) for f in broker.facts()]
    assert facts == [("Alice", "lives in", "Paris", "Place")]
    assert report.notes == [DROPPED_NOTE]


def test_a_one_valued_predicate_of_the_schema_makes_a_second_value_a_conflict(context: Context, tmp_path: Path) -> None:
    # "coaches" holds many values in the lexicon; this schema says a coach has one team at a time.
    path = tmp_path / "schema.toml"
    path.write_text(
        '[[predicates]]\nname = "coaches"\ncardinality = "one"\n\n[[predicates]]\nname = "lives in"\n',
        encoding="utf-8",
    )
    said = ["Maria coaches the Ravens.", "Maria coaches the Falcons."]
    for schema, conflicts in ((str(path), 1), ("", 0)):
        # One home (one embedded server), an agent per case: one text at a time, then a batch.
        one = Broker(home=context.home, store="embedded", agent_id=f"one-{bool(schema)}", llm="", schema=schema)
        one.remember(said[0], speaker="Ben")
        assert one.remember(said[1], speaker="Ben").conflicts == conflicts, schema
        active = {f.object for f in one.facts() if f.status == "active"}
        assert active == ({"Falcons"} if conflicts else {"Ravens", "Falcons"})
        batch = Broker(home=context.home, store="embedded", agent_id=f"batch-{bool(schema)}", llm="", schema=schema)
        assert batch.remember_many([Perception(text=text, speaker="Ben") for text in said]).conflicts == conflicts


def test_a_bad_schema_fails_before_anything_is_read(context: Context, tmp_path: Path) -> None:
    path = tmp_path / "schema.toml"
    path.write_text('[[entity_types]]\nname = "Drug"', encoding="utf-8")
    with pytest.raises(ValueError, match="schema .*schema.toml: .*not one the store keeps"):
        Broker(Context(**{**vars(context), "schema": str(path)}))
    with pytest.raises(ValueError, match="no such file|No such file"):
        Broker(Context(**{**vars(context), "schema": str(tmp_path / "missing.toml")}))


# -- elephant ingest --json against an OpenAI-compatible loopback server ---------------------------


@pytest.mark.slow
def test_ingest_json_counts_calls_and_tokens_and_the_cache_spares_them(tmp_path: Path) -> None:
    # Every request answered with an empty reading and fixed token counts.
    endpoint = LoopbackOpenAI(lambda _body: json.dumps({"quintuples": []}), usage=(11, 7))
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_", "OPENAI_"))}
    env |= {"ELEPHANT_HOME": str(home), "OPENAI_BASE_URL": endpoint.url, "OPENAI_API_KEY": "sk-loopback-test"}
    document = tmp_path / "lumen.txt"
    document.write_text(LONG.replace(MOVED, "\n\n" + MOVED), encoding="utf-8")  # the same two pieces, as paragraphs

    def ingest(*args: str, **extra_env: str) -> dict[str, Any]:
        command = [str(Path(sys.executable).with_name("elephant")), "--llm", "openai:gpt-loopback", "ingest"]
        result = subprocess.run(
            [*command, str(document), *args, "--json"],
            capture_output=True,
            text=True,
            env={**env, **extra_env},
            timeout=180,
            cwd=tmp_path,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    try:
        first = ingest()
        assert first["episodes"] == 2
        assert {k: first[k] for k in first if k.startswith("model_")} == {
            "model_calls": 2,
            "model_cached": 0,
            "model_input_tokens": 22,
            "model_output_tokens": 14,
        }
        assert len(endpoint.requests) == 2
        second_user = endpoint.requests[1]["messages"][1]["content"]
        context_part, text_part = second_user.split("<text>")
        assert "<context>" in context_part and FIRST in context_part and text_part.strip().startswith(MOVED)

        cached = ingest("--session", "again")
        assert (cached["episodes"], cached["model_calls"], cached["model_cached"]) == (2, 0, 2)
        assert cached["model_input_tokens"] == 0 and len(endpoint.requests) == 2

        uncached = ingest("--session", "third", ELEPHANT_LLM_CACHE="0")
        assert (uncached["model_calls"], uncached["model_cached"]) == (2, 0) and len(endpoint.requests) == 4
    finally:
        endpoint.close()
        EmbeddedFalkorDB(home / "falkordb").stop()
