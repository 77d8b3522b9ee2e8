"""The MCP server through the official ``mcp`` client SDK, over stdio and streamable HTTP.

Each transport runs the real server in a subprocess on a fresh data directory (one HTTP
server for the whole module); its embedded FalkorDB is stopped afterwards. The HTTP
guards are checked with raw requests: 401 without the token or with a wrong one, 403
for a foreign ``Origin``, 421 for a foreign ``Host`` (the SDK's DNS-rebinding answer).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
import typer
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from broker import cli_mcp, mcp_server
from broker.cli_mcp import is_loopback, resolve_token
from broker.mcp_server import StaticTokenVerifier, transport_security
from store.embedded import EmbeddedFalkorDB

pytestmark = pytest.mark.slow

TOOLS = {
    "remember": ({"text", "speaker", "agent_id", "session_id", "source"}, {"text"}),
    "recall": ({"query", "speaker", "agent_id", "limit"}, {"query"}),
    "ask": ({"question", "speaker", "agent_id", "session_id"}, {"question"}),
    "list_conflicts": ({"agent_id"}, set()),
    "resolve_conflict": ({"conflict_id", "keep", "agent_id"}, {"conflict_id", "keep"}),
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
}
STARTUP_TIMEOUT = 120.0


def server_environment(home: Path, **extra: str) -> dict[str, str]:
    """The test process's environment without a developer's ELEPHANT_*/NEO4J_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_"))}
    return {**env, "ELEPHANT_HOME": str(home), "TOKENIZERS_PARALLELISM": "false", **extra}


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def run_async(scenario: Callable[[], Awaitable[None]], log: Path) -> None:
    """Run a client scenario; on failure show what the server wrote on stderr."""
    try:
        anyio.run(scenario)
    except BaseException:
        sys.stderr.write(f"--- server log {log} ---\n{log.read_text(errors='replace') if log.exists() else ''}")
        raise


async def check_tool_list(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == set(TOOLS)
    for name, (parameters, required) in TOOLS.items():
        schema = tools[name].input_schema
        assert set(schema["properties"]) == parameters, name
        assert set(schema.get("required", [])) == required, name
        assert all(schema["properties"][p].get("description") for p in parameters), name
        assert tools[name].description and len(tools[name].description) > 40, name
        assert "\n    " not in tools[name].description, name  # docstring indentation removed
        assert tools[name].output_schema is not None, name
    assert tools["resolve_conflict"].input_schema["properties"]["keep"]["enum"] == ["new", "old", "both"]
    assert tools["ask"].annotations is not None and tools["ask"].annotations.read_only_hint is True
    assert tools["remember"].annotations is not None and tools["remember"].annotations.read_only_hint is False


async def check_remember_then_ask(client: Client) -> None:
    remembered = await client.call_tool("remember", {"text": "小李精通 Python。", "speaker": "小李"})
    assert not remembered.is_error, text_of(remembered)
    assert remembered.structured_content["episodes"] == 1
    assert remembered.structured_content["facts"] >= 1
    assert "Remembered 1 episode" in text_of(remembered)

    answered = await client.call_tool("ask", {"question": "小李会什么语言？", "speaker": "小李"})
    assert not answered.is_error, text_of(answered)
    answer = answered.structured_content
    assert "Python" in answer["answer"]
    fact = next(f for f in answer["facts"] if f["subject"] == "小李" and f["object"] == "Python")
    assert fact["id"].startswith("fact_") and fact["episode_ids"]
    assert any(episode["text"] == "小李精通 Python。" for episode in answer["episodes"])
    # The text a model reads carries the answer and the id to cite.
    assert "Python" in text_of(answered) and fact["id"] in text_of(answered)


# -- stdio ------------------------------------------------------------------------------


def test_stdio_tools(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "broker.cli_mcp"], env=server_environment(tmp_path), cwd=str(tmp_path)
    )

    async def scenario() -> None:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=STARTUP_TIMEOUT) as client:
                await check_tool_list(client)
                await check_remember_then_ask(client)

                recalled = await client.call_tool("recall", {"query": "Python", "speaker": "小李", "limit": 3})
                assert not recalled.is_error, text_of(recalled)
                episodes = recalled.structured_content["episodes"]
                assert 1 <= len(episodes) <= 3 and episodes[0]["text"] == "小李精通 Python。"
                assert episodes[0]["id"] in text_of(recalled)

                # Bad input is a tool error with a clear message, and the server lives on.
                empty = await client.call_tool("remember", {"text": "   "})
                assert empty.is_error and "text is empty" in text_of(empty)
                blank = await client.call_tool("ask", {"question": ""})
                assert blank.is_error and "question is empty" in text_of(blank)
                too_many = await client.call_tool("recall", {"query": "Python", "limit": 0})
                assert too_many.is_error and "limit" in text_of(too_many)
                none = await client.call_tool("list_conflicts", {})
                assert not none.is_error and none.structured_content == {"conflicts": []}
                assert text_of(none) == "No conflicts."

    try:
        run_async(scenario, log)
    finally:
        EmbeddedFalkorDB(tmp_path / "falkordb").stop()
    # Nothing but protocol went to stdout: the client would have failed to parse it.
    assert "Traceback" not in log.read_text(errors="replace")


def test_stdio_unreachable_store_is_a_tool_error(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = server_environment(tmp_path, ELEPHANT_STORE="falkordb://127.0.0.1:1")
    params = StdioServerParameters(command=sys.executable, args=["-m", "broker.cli_mcp"], env=env, cwd=str(tmp_path))

    async def scenario() -> None:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=STARTUP_TIMEOUT) as client:
                failed = await client.call_tool("ask", {"question": "小李会什么语言？"})
                assert failed.is_error and "cannot reach FalkorDB" in text_of(failed)
                assert len((await client.list_tools()).tools) == len(TOOLS)  # still serving

    run_async(scenario, log)
    assert "memory not ready: cannot reach FalkorDB" in log.read_text(errors="replace")


# -- streamable HTTP --------------------------------------------------------------------


@dataclass
class HttpServer:
    url: str
    port: int
    token: str
    log: Path

    def client(self, token: str | None = None) -> Client:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=STARTUP_TIMEOUT))
        return Client(streamable_http_client(self.url, http_client=http), read_timeout_seconds=STARTUP_TIMEOUT)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_token(process: subprocess.Popen[bytes], log: Path, port: int) -> str:
    """Return the generated token once the server listens (it is printed just before)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    token = ""
    while time.monotonic() < deadline:
        assert process.poll() is None, f"server exited: {log.read_text(errors='replace')}"
        if not token:
            lines = [line for line in log.read_text(errors="replace").splitlines() if "generated token" in line]
            token = lines[0].rsplit(" ", 1)[-1] if lines else ""
        if token:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return token
            except OSError:
                pass
        time.sleep(0.2)
    raise AssertionError(f"server did not start: {log.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    """One HTTP server for the module: generated token, human review of conflicts."""
    home = tmp_path_factory.mktemp("mcp-http")
    port, log = free_port(), home / "server.log"
    env = server_environment(home, ELEPHANT_REVIEW="human")
    with log.open("wb") as errlog:
        process = subprocess.Popen(
            [sys.executable, "-m", "broker.cli_mcp", "--http", "--port", str(port)],
            env=env,
            cwd=home,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errlog,
        )
    try:
        token = wait_for_token(process, log, port)
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", port, token, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        EmbeddedFalkorDB(home / "falkordb").stop()
    # The token is printed once, on the line that announces it, and nowhere else.
    assert log.read_text(errors="replace").count(token) == 1


def test_http_tools_with_token(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client() as client:
            await check_tool_list(client)
            await check_remember_then_ask(client)

    run_async(scenario, http_server.log)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong-token"}, 401),
        ({"Authorization": "Basic {token}"}, 401),
        ({"Authorization": "Bearer {token}x"}, 401),
        ({"Origin": "http://evil.example"}, 401),  # the token is checked first
        ({"Authorization": "Bearer {token}", "Origin": "http://evil.example"}, 403),
        ({"Authorization": "Bearer {token}", "Origin": "http://127.0.0.1:1"}, 403),  # another port is foreign too
        ({"Authorization": "Bearer {token}", "Host": "evil.example"}, 421),
        ({"Authorization": "Bearer {token}", "Host": "evil.example:{port}"}, 421),
        ({"Authorization": "Bearer {token}", "Origin": "http://localhost:{port}"}, 200),
        ({"Authorization": "Bearer {token}", "Host": "localhost:{port}"}, 200),
    ],
)
def test_http_guards(http_server: HttpServer, headers: dict[str, str], status: int) -> None:
    filled = {name: value.format(token=http_server.token, port=http_server.port) for name, value in headers.items()}
    response = httpx.post(
        http_server.url,
        json=INITIALIZE,
        headers={"Accept": "application/json, text/event-stream", **filled},
        timeout=30,
    )
    assert response.status_code == status, response.text
    if status == 401:
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.json()["error"] == "invalid_token"
    if status == 200:
        assert "elephant-broker" in response.text
    assert http_server.token not in response.text


def test_http_conflicts_listed_and_resolved(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client() as client:
            first = await client.call_tool("remember", {"text": "Alice lives in Paris.", "agent_id": "review"})
            assert not first.is_error and first.structured_content["episodes"] == 1, text_of(first)
            second = await client.call_tool("remember", {"text": "Alice lives in Berlin.", "agent_id": "review"})
            assert not second.is_error, text_of(second)
            assert second.structured_content == {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 1}
            assert "list_conflicts" in text_of(second)

            listed = await client.call_tool("list_conflicts", {"agent_id": "review"})
            [conflict] = listed.structured_content["conflicts"]
            assert conflict["status"] == "open"
            assert (conflict["old_fact"]["object"], conflict["new_fact"]["object"]) == ("Paris", "Berlin")
            assert conflict["id"] in text_of(listed) and "open" in text_of(listed)

            unknown = await client.call_tool("resolve_conflict", {"conflict_id": "no-such-id", "keep": "new"})
            assert unknown.is_error and "no open conflict 'no-such-id'" in text_of(unknown)
            wrong = await client.call_tool("resolve_conflict", {"conflict_id": conflict["id"], "keep": "maybe"})
            assert wrong.is_error and "keep" in text_of(wrong)

            resolved = await client.call_tool(
                "resolve_conflict", {"conflict_id": conflict["id"], "keep": "new", "agent_id": "review"}
            )
            assert not resolved.is_error, text_of(resolved)
            assert resolved.structured_content["id"] == conflict["id"]
            assert resolved.structured_content["decision"] == "keep_new"
            assert resolved.structured_content["decided_by"] == "human"
            assert "keep_new" in text_of(resolved)

            after = await client.call_tool("list_conflicts", {"agent_id": "review"})
            assert [c["status"] for c in after.structured_content["conflicts"]] == ["decided"]
            answered = await client.call_tool("ask", {"question": "Where does Alice live?", "agent_id": "review"})
            answer = answered.structured_content
            assert "Berlin" in answer["answer"]
            assert any(fact["object"] == "Paris" for fact in answer["history"])
            assert "No longer true" in text_of(answered)

    run_async(scenario, http_server.log)


# -- pieces without a server ------------------------------------------------------------


def test_token_verifier_accepts_only_its_token() -> None:
    verifier = StaticTokenVerifier("s3cret")
    assert anyio.run(verifier.verify_token, "s3cret") is not None
    for other in ("", "s3cre", "s3cret ", "S3CRET", "s3cretx"):
        assert anyio.run(verifier.verify_token, other) is None


def test_token_is_generated_unless_given() -> None:
    generated, was_generated = resolve_token(None)
    assert was_generated and len(generated) >= 32 and generated != resolve_token(None)[0]
    assert resolve_token(" given ") == ("given", False)
    with pytest.raises(ValueError, match="token is empty"):
        resolve_token("  ")


def test_allowed_hosts_are_loopback_and_the_bound_host_on_the_port() -> None:
    loopback = transport_security("127.0.0.1", 8765)
    assert loopback.enable_dns_rebinding_protection
    assert loopback.allowed_hosts == ["127.0.0.1:8765", "localhost:8765", "[::1]:8765"]
    assert "http://localhost:8765" in loopback.allowed_origins and "http://evil.example" not in loopback.allowed_origins
    lan = transport_security("192.168.1.5", 9000, ["memory.lan"])
    assert lan.allowed_hosts[-2:] == ["192.168.1.5:9000", "memory.lan:9000"]
    assert "0.0.0.0:80" not in transport_security("0.0.0.0", 80).allowed_hosts
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.com")


@pytest.fixture
def cli_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Run ``mcp`` in-process with serving and warm-up replaced by recorders."""
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(mcp_server, "warm_up", lambda broker: calls.append(("warm_up", broker)))
    monkeypatch.setattr(mcp_server, "serve_http", lambda *args: calls.append(("serve_http", args)))
    monkeypatch.setattr(mcp_server, "serve_stdio", lambda broker: calls.append(("serve_stdio", broker)))
    monkeypatch.delenv("ELEPHANT_MCP_TOKEN", raising=False)
    return calls


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    app = typer.Typer()
    app.command()(cli_mcp.mcp)
    return CliRunner().invoke(app, list(args), env=env)


def test_cli_generates_and_prints_a_token_once(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--port", "9999")
    assert result.exit_code == 0, result.output
    [(_, (broker, host, port, token, allowed))] = [call for call in cli_calls if call[0] == "serve_http"]
    assert (host, port, list(allowed)) == ("127.0.0.1", 9999, [])
    assert result.stderr.count(token) == 1 and "generated token" in result.stderr
    assert token not in result.stdout and "warning" not in result.stderr
    assert [name for name, _ in cli_calls] == ["warm_up", "serve_http"]


def test_cli_token_from_option_or_environment_is_never_printed(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--token", "from-option")
    assert result.exit_code == 0 and "from-option" not in result.output + result.stderr
    result = invoke("--http", env={"ELEPHANT_MCP_TOKEN": "from-env"})
    assert result.exit_code == 0 and "from-env" not in result.output + result.stderr
    tokens = [args[3] for name, args in cli_calls if name == "serve_http"]
    assert tokens == ["from-option", "from-env"]


def test_cli_warns_when_not_on_loopback(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--host", "0.0.0.0", "--token", "t")
    assert result.exit_code == 0
    assert "warning" in result.stderr and "not loopback" in result.stderr and "--allow-host" in result.stderr
    result = invoke("--http", "--host", "0.0.0.0", "--token", "t", "--allow-host", "memory.lan")
    assert "not loopback" in result.stderr and "--allow-host" not in result.stderr
    assert [args[4] for name, args in cli_calls if name == "serve_http"][-1] == ["memory.lan"]


def test_cli_serves_stdio_by_default(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke()
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    assert [name for name, _ in cli_calls] == ["serve_stdio"]
