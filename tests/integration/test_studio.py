"""LangGraph Studio: ``langgraph dev`` serves the graphs of langgraph.json offline.

The server runs as a subprocess on a free loopback port, with its own data directory
and working directory (``langgraph dev`` keeps its in-memory runs in ``./.langgraph_api``
of the working directory, so the test runs it from a temporary one with
``--config`` pointing at the project's langgraph.json; the graphs are imported as
installed modules). The test remembers through the ``ingest`` graph, answers through
``answer``, pauses a review and resumes it, all over the HTTP API Studio uses.

A run may choose only the ``RunContext`` fields (agent, review policy, how hard to
look): a run context naming ``home``, ``store`` or ``llm`` changes nothing on the
server, and is refused by a graph invoked directly. A review paused through the API
sits on the same review desk as the CLI's (the store), for its agent only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.graphs import answer, broker, ingest
from elephant_broker.providers.resources import close_stores
from elephant_broker.schemas.context import Context, RunContext, deployment
from elephant_broker.store.embedded import EmbeddedFalkorDB

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).with_name("langgraph")
READY_TIMEOUT_S = 120.0
RUN_TIMEOUT_S = 120.0
RUN_FIELDS = {"agent_id", "review_policy", "max_hops", "max_facts", "expand_hops"}
DEPLOYMENT = {"home": "elsewhere", "store": "falkordb://127.0.0.1:1", "llm": "openai:gpt-4o-mini"}


def langgraph_cli_installed() -> bool:
    """The CLI and the in-memory server it runs (``langgraph-cli[inmem]``)."""
    return LANGGRAPH.exists() and all(
        importlib.util.find_spec(name) is not None for name in ("langgraph_cli", "langgraph_api")
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def request(url: str, body: dict[str, Any] | None = None, timeout: float = RUN_TIMEOUT_S) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if body is not None else {}
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=timeout) as reply:
        return json.loads(reply.read())


def log_tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server's process group: politely, then for good."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A running ``langgraph dev`` (base URL and working directory); stopped with its store afterwards."""
    if not langgraph_cli_installed():
        if os.environ.get("CI"):
            pytest.fail("langgraph-cli[inmem] must be installed in CI (pip install -e '.[studio]')")
        pytest.skip("langgraph-cli[inmem] is not installed (pip install -e '.[studio]'); CI is not set")
    home, workdir, log = tmp_path / "home", tmp_path / "work", tmp_path / "langgraph-dev.log"
    workdir.mkdir()
    # No developer settings, keys or tracing leak in; no version check or analytics call goes out.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_", "LANGSMITH_", "LANGCHAIN_"))}
    env |= {"ELEPHANT_HOME": str(home), "LANGGRAPH_NO_VERSION_CHECK": "true", "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    port = free_port()
    command = [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--config", str(ROOT / "langgraph.json")]
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=workdir, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"langgraph dev exited with {process.returncode}:\n{log_tail(log)}")
            try:
                if request(f"{base}/ok", timeout=2).get("ok"):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not ready after {READY_TIMEOUT_S:.0f} s:\n{log_tail(log)}")
            time.sleep(0.5)
        yield base, workdir
    finally:
        stop(process)
        EmbeddedFalkorDB(home / "falkordb").stop()


def test_langgraph_dev_serves_the_graphs_offline(studio: tuple[str, Path]) -> None:
    base, workdir = studio
    # Studio lists the graphs of langgraph.json with their descriptions.
    configured = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))["graphs"]
    assistants = {a["graph_id"]: a for a in request(f"{base}/assistants/search", {"limit": 10})}
    assert set(assistants) == set(configured)
    for graph_id, entry in configured.items():
        assert assistants[graph_id]["description"] == entry["description"]

    remembered = request(
        f"{base}/runs/wait", {"assistant_id": "ingest", "input": {"text": "小李住在北京。", "speaker": "小李"}}
    )
    counts = {name: remembered["report"][name] for name in ("episodes", "facts", "entities", "conflicts")}
    assert counts == {"episodes": 1, "facts": 1, "entities": 2, "conflicts": 0}

    answered = request(f"{base}/runs/wait", {"assistant_id": "answer", "input": {"question": "小李住在哪里？"}})
    assert "北京" in answered["answer"]
    assert any(f["subject"] == "小李" and f["object"] == "北京" for f in answered["facts"])
    assert any(e["text"] == "小李住在北京。" for e in answered["episodes"])

    # A contradiction under human review pauses the run on its thread with the review payload ...
    thread = request(f"{base}/threads", {})["thread_id"]
    run = {"assistant_id": "ingest", "context": {"review_policy": "human"}}
    paused = request(
        f"{base}/threads/{thread}/runs/wait", {**run, "input": {"text": "小李住在上海。", "speaker": "小李"}}
    )
    [pending] = paused["__interrupt__"]
    assert pending["value"]["options"] == ["keep_new", "keep_old", "keep_both"]
    assert "北京" in pending["value"]["question"] and "上海" in pending["value"]["question"]
    assert request(f"{base}/threads/{thread}/state")["next"] == ["review_conflicts"]
    # ... and resuming it with a decision writes the episode.
    request(f"{base}/threads/{thread}/runs/wait", {**run, "command": {"resume": "keep_new"}})
    now = request(f"{base}/runs/wait", {"assistant_id": "broker", "input": {"question": "小李住在哪里？"}})
    assert "上海" in now["answer"]
    assert any(f["object"] == "北京" and f["status"] == "superseded" for f in now["history"])

    # The server's own state went to its working directory, not into the repository.
    assert (workdir / ".langgraph_api").is_dir()


def test_graphs_take_only_run_settings_from_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (ingest, answer, broker):
        assert set(module.graph.get_context_jsonschema()["properties"]) == RUN_FIELDS
    elsewhere = tmp_path / "elsewhere"
    for name, value in {**DEPLOYMENT, "home": str(elsewhere)}.items():
        with pytest.raises(TypeError, match=name):
            ingest.graph.invoke({"text": "小李住在北京。"}, context={"agent_id": "A", name: value})
    assert not elsewhere.exists()
    # Nodes get the deployment from the environment, with the run's own choices on top.
    monkeypatch.setenv("ELEPHANT_HOME", str(tmp_path / "home"))
    settings = deployment(RunContext(agent_id="A", max_hops=2))
    assert (settings.home, settings.agent_id, settings.max_hops) == (str(tmp_path / "home"), "A", 2)
    assert deployment(None).home == str(tmp_path / "home")
    given = Context(home=str(elsewhere))
    assert deployment(given) is given


def test_runs_choose_run_settings_only_and_share_the_review_desk(studio: tuple[str, Path], tmp_path: Path) -> None:
    base, _ = studio
    [assistant] = [a for a in request(f"{base}/assistants/search", {"limit": 10}) if a["graph_id"] == "ingest"]
    schemas = request(f"{base}/assistants/{assistant['assistant_id']}/schemas")
    assert set(schemas["context_schema"]["properties"]) == RUN_FIELDS  # Studio's form

    # Deployment settings in a run's context have no effect: the text lands in the server's
    # store (an unreachable store URL or model would have failed the run), for agent A.
    elsewhere = tmp_path / "elsewhere"
    context = {**DEPLOYMENT, "home": str(elsewhere), "agent_id": "A", "max_hops": 2}
    remembered = request(
        f"{base}/runs/wait", {"assistant_id": "ingest", "context": context, "input": {"text": "小李住在北京。"}}
    )
    assert remembered["report"]["episodes"] == 1
    assert not elsewhere.exists()
    question = {"question": "小李住在哪里？"}
    for agent, knows in (("A", True), ("B", False)):
        answered = request(
            f"{base}/runs/wait", {"assistant_id": "answer", "context": {"agent_id": agent}, "input": question}
        )
        assert ("北京" in answered["answer"]) is knows

    # A review paused through the API is on the one review desk, for its agent only ...
    thread = request(f"{base}/threads", {})["thread_id"]
    runs = f"{base}/threads/{thread}/runs/wait"
    paused = request(
        runs,
        {
            "assistant_id": "ingest",
            "context": {"agent_id": "A", "review_policy": "human"},
            "input": {"text": "小李住在上海。"},
        },
    )
    [pending] = paused["__interrupt__"]
    memory = Broker(Context(home=str(tmp_path / "home")))
    try:
        [listed] = memory.conflicts(agent_id="A")
        assert (listed.id, listed.status) == (pending["value"]["conflict_id"], "open")
        assert memory.conflicts(agent_id="B") == []
        with pytest.raises(ValueError, match=thread):  # held by the server: resume it there
            memory.resolve(listed.id, "old", agent_id="A")

        # ... a bad answer asks again instead of wedging the thread, and the resuming runs,
        # which do not repeat review_policy=human, still wait for the person's decision.
        resume = {"assistant_id": "ingest", "context": {"agent_id": "A"}}
        again = request(runs, {**resume, "command": {"resume": "maybe"}})
        [asked] = again["__interrupt__"]
        assert "new, old or both" in asked["value"]["error"]
        assert asked["value"]["conflict_id"] == listed.id
        assert request(f"{base}/threads/{thread}/state")["next"] == ["review_conflicts"]
        request(runs, {**resume, "command": {"resume": "keep_old"}})  # auto would keep the newer fact
        [decided] = memory.conflicts(agent_id="A")
        assert (decided.status, decided.decision, decided.decided_by) == ("decided", "keep_old", "human")
    finally:
        close_stores()
