"""A failing model loses nothing: bounded requests, one-line notes, offline fallbacks, re-reads that repair.

An OpenAI-compatible loopback server is scripted to hang, answer HTTP 500, send malformed
JSON or JSON of the wrong shape; every request is counted at the server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.providers.chat_models import load_chat_model, reset_chat_models
from elephant_broker.providers.resources import get_embeddings
from elephant_broker.schemas.context import Context
from elephant_broker.store.embedded import EmbeddedFalkorDB
from langgraph.checkpoint.memory import InMemorySaver

from tests.llm_fakes import LoopbackOpenAI, Reply, schema_of

MODEL = "openai:gpt-loopback"
SECRET = "sk-loopback-secret-0123456789"
TIMEOUT_S = 1.0
FAILURES = ["hang", "http_500", "malformed", "shape"]
SAID = {"hang": "timed out", "http_500": "HTTP 500", "malformed": "malformed JSON", "shape": "wrong shape"}
TEXT = "I work at Initech, a software company in Austin that Bill runs."
# What the offline Reader keeps of TEXT: the employer, and what the apposition says Initech is.
OFFLINE_READING = {("Peter", "works_at", "Initech"), ("Initech", "is_a", "software company")}
MODEL_READING = {
    "quintuples": [
        {
            "subject": "I",
            "subject_type": "Person",
            "predicate": "works at",
            "object": "Initech",
            "object_type": "Organization",
        },
        {
            "subject": "Initech",
            "subject_type": "Organization",
            "predicate": "located in",
            "object": "Austin",
            "object_type": "Place",
        },
        {
            "subject": "Bill",
            "subject_type": "Person",
            "predicate": "runs",
            "object": "Initech",
            "object_type": "Organization",
        },
    ]
}
ELEPHANT = Path(sys.executable).with_name("elephant")


class Endpoint:
    """A loopback OpenAI-compatible server: ``failure`` decides every reply; requests are counted by schema."""

    def __init__(self) -> None:
        self.failure: str | None = None
        self.replies: dict[str, Any] = {}
        self.requests: list[str] = []
        self.loopback = LoopbackOpenAI(self._answer)
        self.url = self.loopback.url

    def _answer(self, body: dict[str, Any]) -> Reply:
        schema = schema_of(body)
        self.requests.append(schema)
        if self.failure == "hang":
            time.sleep(TIMEOUT_S + 3)
        if self.failure == "http_500":
            return 500, {"error": {"message": "upstream exploded", "type": "server_error"}}
        return {
            "malformed": '{"quintuples": [{"subject": "Peter", ',
            "shape": json.dumps([1, 2, 3]),
        }.get(self.failure or "", json.dumps(self.replies.get(schema, {}), ensure_ascii=False))

    def count(self, schema: str) -> int:
        """Requests received for one structured-output schema."""
        return self.requests.count(schema)


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[Endpoint]:
    """The loopback server, configured as the model's endpoint with a 1 s timeout."""
    served = Endpoint()
    monkeypatch.setenv("OPENAI_BASE_URL", served.url)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("ELEPHANT_LLM_TIMEOUT", str(TIMEOUT_S))
    reset_chat_models()
    yield served
    served.loopback.close()
    reset_chat_models()


def _warm_up(context: Context) -> None:
    # Start the store, load the embedder, the rules and the client first, so the time
    # measured is the model's.
    Broker(context).counts()
    get_embeddings(context).embed_query("warm up")
    extract_quintuples(TEXT, "Peter")
    load_chat_model(MODEL)


def _fact_triples(broker: Broker) -> set[tuple[str, str, str]]:
    return {(fact.subject, fact.predicate_key, fact.object) for fact in broker.facts()}


def _assert_one_note(notes: list[str], failure: str, endpoint: Endpoint, fallback: str) -> None:
    [note] = notes
    assert MODEL in note and endpoint.url in note and SAID[failure] in note and fallback in note
    assert SECRET not in note and "\n" not in note


@pytest.mark.parametrize("failure", FAILURES)
def test_ingest_falls_back_to_the_rules_and_a_later_ingest_repairs(
    failure: str, context: Context, endpoint: Endpoint
) -> None:
    _warm_up(context)
    context.llm = MODEL
    endpoint.failure = failure
    started = time.monotonic()
    report = Broker(context).remember(TEXT, speaker="Peter")
    elapsed = time.monotonic() - started

    # Two requests at most (the client's one retry, or one more ask after a bad reply).
    assert endpoint.requests == ["Extraction", "Extraction"]
    if failure == "hang":
        assert elapsed < 2 * TIMEOUT_S + 4  # two timeouts and the client's back-off
    _assert_one_note(report.notes, failure, endpoint, "offline Reader")
    assert (report.episodes, report.facts, report.entities) == (1, len(OFFLINE_READING), 3)
    broker = Broker(context)
    assert _fact_triples(broker) == OFFLINE_READING

    # The endpoint recovers (and the outage cool-down has passed, which a reset stands for):
    # the same text is read again by the model, adding only what is new.
    endpoint.failure = None
    reset_chat_models()
    endpoint.replies = {"Extraction": MODEL_READING}
    endpoint.requests.clear()
    again = Broker(context).remember(TEXT, speaker="Peter")
    assert endpoint.requests == ["Extraction"]
    assert (again.episodes, again.reread, again.facts, again.entities) == (0, 1, 2, 2)
    assert _fact_triples(broker) == {
        *OFFLINE_READING,  # what the rules read stays: the model's reading adds to it
        ("Initech", "located_in", "Austin"),
        ("Bill", "run", "Initech"),
    }
    assert broker.counts() == {"episodes": 1, "entities": 5, "facts": 4}
    [works] = [fact for fact in broker.facts() if fact.predicate_key == "works_at"]
    assert works.weight == 1 and len(works.episode_ids) == 1  # read twice, said once
    assert {entity.name: entity.mention_count for entity in broker.entities()}["Peter"] == 1

    # Read well now: a third ingest asks nothing and adds nothing.
    endpoint.requests.clear()
    third = Broker(context).remember(TEXT, speaker="Peter")
    assert endpoint.requests == []
    assert (third.episodes, third.reread, third.facts, third.entities, third.notes) == (0, 0, 0, 0, [])


@pytest.mark.parametrize("failure", FAILURES)
def test_ask_falls_back_to_the_offline_answer(failure: str, context: Context, endpoint: Endpoint) -> None:
    Broker(context).remember("I work at Initech.", speaker="Peter")  # offline
    context.llm = MODEL
    endpoint.failure = failure
    started = time.monotonic()
    answer = Broker(context).ask("Where does Peter work?")
    elapsed = time.monotonic() - started
    assert endpoint.requests == ["CitedAnswer", "CitedAnswer"]
    if failure == "hang":
        assert elapsed < 2 * TIMEOUT_S + 4
    assert "Initech" in answer.answer
    assert [fact.object for fact in answer.facts] == ["Initech"]
    _assert_one_note(answer.notes, failure, endpoint, "composed offline")


def test_multi_hop_question_with_a_failing_model_is_answered_offline(context: Context, endpoint: Endpoint) -> None:
    broker = Broker(context)
    broker.remember("Frank Herbert wrote Dune.", speaker="Peter")
    broker.remember("Frank Herbert was born in Tacoma.", speaker="Peter")
    context.llm = MODEL
    endpoint.failure = "http_500"
    answer = Broker(context).ask("Where was the author of Dune born?")
    assert "Tacoma" in answer.answer
    # The plan's call failed after two requests (the client's retry); the endpoint is then
    # known to be down, so the hops and the answer go offline at once instead of each
    # waiting out its own failure.
    calls = {schema: endpoint.count(schema) for schema in set(endpoint.requests)}
    assert calls == {"Decomposition": 2}
    assert any("not asked again" in note for note in answer.notes)
    assert any("split by the offline patterns" in note for note in answer.notes)
    assert any("composed offline" in note for note in answer.notes)
    assert all(SECRET not in note for note in answer.notes)


@pytest.fixture
def elephant(tmp_path: Path, endpoint: Endpoint) -> Iterator[Callable[..., subprocess.CompletedProcess[str]]]:
    """Run the console script against the loopback model, with its own data directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_"))}
    env.update(
        ELEPHANT_HOME=str(tmp_path / "home"),
        ELEPHANT_LLM=MODEL,
        ELEPHANT_LLM_TIMEOUT=str(TIMEOUT_S),
        OPENAI_BASE_URL=endpoint.url,
        OPENAI_API_KEY=SECRET,
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([str(ELEPHANT), *args], capture_output=True, text=True, env=env, timeout=180)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr and SECRET not in result.stderr + result.stdout
        return result

    yield run
    EmbeddedFalkorDB(tmp_path / "home" / "falkordb").stop()


@pytest.mark.parametrize("failure", FAILURES)
def test_cli_notes_the_fallback_on_one_line_and_repairs_later(
    failure: str, endpoint: Endpoint, elephant: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    endpoint.failure = failure
    ingested = elephant("ingest", "--speaker", "Peter", "--text", TEXT, "--json")
    report = json.loads(ingested.stdout)
    assert (report["episodes"], report["facts"]) == (1, len(OFFLINE_READING))
    _assert_one_note(report["notes"], failure, endpoint, "offline Reader")
    [line] = ingested.stderr.strip().splitlines()
    assert line.startswith("note: ") and SAID[failure] in line and endpoint.url in line
    assert endpoint.requests == ["Extraction", "Extraction"]

    endpoint.requests.clear()
    asked = elephant("ask", "Where does Peter work?")
    assert "Initech" in asked.stdout
    [line] = asked.stderr.strip().splitlines()
    assert line.startswith("note: ") and "composed offline" in line
    assert endpoint.requests == ["CitedAnswer", "CitedAnswer"]

    endpoint.failure = None
    endpoint.replies = {"Extraction": MODEL_READING}
    repaired = json.loads(elephant("ingest", "--speaker", "Peter", "--text", TEXT, "--json").stdout)
    assert (repaired["episodes"], repaired["reread"], repaired["facts"]) == (0, 1, 2)


def test_no_state_value_carries_a_vector(context: Context) -> None:
    from elephant_broker.graphs.ingest import builder

    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "one"}}
    graph.invoke({"text": "I live in Austin and I use Python.", "speaker": "Peter"}, config=config, context=context)
    snapshots = list(graph.get_state_history(config))
    assert len(snapshots) >= 6  # one per step: the walk below looked at every checkpoint
    for snapshot in snapshots:
        assert _longest_float_list(snapshot.values) < 64, snapshot.next
    assert Broker(context).counts()["facts"] == 2  # the vectors were written all the same


def test_a_run_paused_for_review_counts_no_episode_and_keeps_no_vector(context: Context) -> None:
    from elephant_broker.graphs.ingest import builder

    Broker(context).remember("I live in Austin.", speaker="Peter")
    context.review_policy = "human"
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "paused"}}
    result = graph.invoke({"text": "I live in Boston.", "speaker": "Peter"}, config=config, context=context)
    assert result["__interrupt__"]
    report = result["report"]
    assert (report.episodes, report.facts, report.entities, report.conflicts) == (0, 0, 0, 1)
    for snapshot in graph.get_state_history(config):
        assert _longest_float_list(snapshot.values) < 64
    # Through the review desk too (the CLI's and Broker's path).
    held = Broker(context).remember("I live in Chicago.", speaker="Peter")
    assert (held.episodes, held.conflicts) == (0, 1)
    assert Broker(context).counts()["episodes"] == 1


def test_concurrent_reports_sum_to_what_was_stored(context: Context) -> None:
    writers = 16
    barrier = threading.Barrier(writers)
    reports: list[Any] = [None] * writers
    Broker(context).counts()  # start the store once, before the race

    def write(number: int) -> None:
        broker = Broker(context)
        barrier.wait()
        reports[number] = broker.remember(f"Writer{number} uses Python and Rust.", speaker=f"w{number}")

    threads = [threading.Thread(target=write, args=(number,)) for number in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    total = sum(reports[1:], reports[0])
    stored = Broker(context).counts()
    assert stored == {"episodes": writers, "entities": writers + 2, "facts": 2 * writers}
    assert (total.episodes, total.entities, total.facts) == (stored["episodes"], stored["entities"], stored["facts"])


def _longest_float_list(value: Any) -> int:
    """The length of the longest list of floats anywhere inside a state value."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    if isinstance(value, dict):
        return max((_longest_float_list(item) for item in value.values()), default=0)
    if isinstance(value, list | tuple):
        own = len(value) if value and all(isinstance(item, float) for item in value) else 0
        return max([own, *(_longest_float_list(item) for item in value)])
    return 0
