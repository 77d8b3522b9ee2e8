"""Shared fixtures: isolated data directories, contexts and store backends."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.providers.chat_models import register_chat_model
from elephant_broker.providers.resources import close_stores, get_embeddings
from elephant_broker.schemas.context import Context
from elephant_broker.store import GraphStore, open_store
from elephant_broker.store.embedded import EmbeddedFalkorDB

from tests.fakes import ScriptedChatModel

BACKENDS = ["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """On failure, attach the tail of the test's embedded FalkorDB log to the report.

    A hang or crash inside the server is otherwise invisible in CI output.
    """
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    tmp_path = getattr(item, "funcargs", {}).get("tmp_path")
    if not report.failed or tmp_path is None:
        return
    for log in sorted(Path(tmp_path).glob("**/falkordb.log")):
        lines = log.read_text(errors="replace").splitlines()[-40:]
        report.sections.append((f"FalkorDB log {log}", "\n".join(lines)))


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never inherit a developer's store, model or data directory."""
    for name in (
        "ELEPHANT_HOME",
        "ELEPHANT_STORE",
        "ELEPHANT_LLM",
        "ELEPHANT_AGENT",
        "ELEPHANT_EMBEDDINGS",
        "ELEPHANT_MASK",
        "ELEPHANT_VAULT_KEY",
        "ELEPHANT_AUDIT",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """A fresh data directory whose embedded server is stopped afterwards."""
    yield tmp_path
    close_stores()
    EmbeddedFalkorDB(tmp_path / "falkordb").stop()


@pytest.fixture
def context(home: Path) -> Context:
    """An offline context on a fresh embedded store."""
    return Context(home=str(home), store="embedded", llm="", agent_id="test")


@pytest.fixture
def broker(context: Context) -> Broker:
    """A broker on a fresh embedded store."""
    return Broker(context)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[GraphStore, str]]:
    """Each backend with a fresh scope; the same contract runs on all of them."""
    url = os.environ.get("NEO4J_URI") if request.param == "neo4j" else None
    if request.param == "neo4j" and not url:
        pytest.skip("NEO4J_URI is not set")
    # The embedded server is stopped even when set-up fails half-way (no stray servers).
    try:
        graph_store = open_store(url, tmp_path)
        graph_store.ensure_schema(len(get_embeddings(Context()).embed_query("x")))
        scope = f"test-{uuid.uuid4().hex[:8]}"
        yield graph_store, scope
        graph_store.delete_scope(scope)
        graph_store.close()
    finally:
        if request.param == "falkordb":
            EmbeddedFalkorDB(tmp_path / "falkordb").stop()


@pytest.fixture
def scripted() -> Iterator[ScriptedChatModel]:
    """A scripted chat model, registered as ``fake:scripted`` (set ``context.llm`` to it)."""
    model = ScriptedChatModel()
    register_chat_model("fake:scripted", model)
    yield model
    register_chat_model("fake:scripted", None)
