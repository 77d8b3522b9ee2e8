"""The MCP server through the official ``mcp`` client SDK, over stdio and streamable HTTP.

Each transport runs the real server in a subprocess on a fresh data directory (one HTTP
server for the whole module); its embedded FalkorDB is stopped afterwards. Every server
is pinned: the stdio one to ``--agent A``, the HTTP one to the agents of its token file
(A and B). Another agent's memory is seeded beside it, and no call may reach it. The
HTTP guards are checked with raw requests: 401 without a token or with a wrong one, 403
for a foreign ``Origin``, 421 for a foreign ``Host`` (the SDK's DNS-rebinding answer),
404 for a session used with another agent's token.
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
from elephant_broker.broker.api import Broker
from elephant_broker.schemas.context import Context
from elephant_broker.store.embedded import EmbeddedFalkorDB
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

pytestmark = pytest.mark.slow

TOOLS = {
    "remember": ({"text", "speaker", "session_id", "source"}, {"text"}),
    "remember_facts": ({"facts", "text", "speaker", "session_id", "source"}, {"facts"}),
    "recall": ({"query", "speaker", "limit"}, {"query"}),
    "ask": ({"question", "speaker", "session_id"}, {"question"}),
    "list_conflicts": (set(), set()),
    "resolve_conflict": ({"conflict_id", "keep"}, {"conflict_id", "keep"}),
    "feedback": ({"answer_id", "verdict", "correction"}, {"answer_id", "verdict"}),
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
}
STARTUP_TIMEOUT = 120.0
# What agent B remembered before the servers start: no call of agent A may show it.
B_TEXTS = ("Bob works at Initech.", "Bob lives in Oslo.", "Bob lives in Rome.")


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


def seed_agent_b(home: Path) -> str:
    """Give agent B an episode and an open conflict (human review); return the conflict id."""
    context = Context(home=str(home), store="embedded", llm="", agent_id="default", review_policy="human")
    broker = Broker(context)
    for text in B_TEXTS:
        broker.remember(text, agent_id="B")
    [waiting] = [c for c in broker.conflicts(agent_id="B") if c.status == "open"]
    return waiting.id


def assert_error_line(result: Any, tool: str, reason: str, whole: bool = True) -> None:
    """A refused call: one line, ``Error executing tool <tool>: <reason>`` (or starting so)."""
    assert result.is_error, text_of(result)
    assert "\n" not in text_of(result) and text_of(result).startswith(f"Error executing tool {tool}: {reason}")
    assert not whole or text_of(result) == f"Error executing tool {tool}: {reason}"


def assert_nothing_of(result: Any, texts: tuple[str, ...], names: tuple[str, ...]) -> None:
    """Neither the readable text nor the structured result shows another agent's memory."""
    shown = text_of(result) + repr(result.structured_content)
    assert not any(text in shown for text in texts), shown
    assert not any(name in shown for name in names), shown


async def check_tool_list(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == set(TOOLS)
    for name, (parameters, required) in TOOLS.items():
        schema = tools[name].input_schema
        assert set(schema["properties"]) == parameters, name
        assert set(schema.get("required", [])) == required, name
        assert schema["additionalProperties"] is False, name
        assert all(schema["properties"][p].get("description") for p in parameters), name
        assert tools[name].description and len(tools[name].description) > 40, name
        assert "\n    " not in tools[name].description, name  # docstring indentation removed
        assert tools[name].output_schema is not None, name
    assert tools["resolve_conflict"].input_schema["properties"]["keep"]["enum"] == ["new", "old", "both"]
    assert tools["ask"].annotations is not None and tools["ask"].annotations.read_only_hint is True
    assert tools["remember"].annotations is not None and tools["remember"].annotations.read_only_hint is False


async def check_agent_argument_refused(client: Client, conflict_id: str) -> None:
    """Each tool refuses ``agent_id`` before doing anything."""
    calls = {
        "remember": {"text": "Zed drinks tea."},
        "recall": {"query": "Bob"},
        "ask": {"question": "Where does Bob work?"},
        "list_conflicts": {},
        "resolve_conflict": {"conflict_id": conflict_id, "keep": "new"},
    }
    for name, arguments in calls.items():
        refused = await client.call_tool(name, {**arguments, "agent_id": "B"})
        assert_error_line(refused, name, "unknown argument(s): agent_id")


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


def test_stdio_server_serves_only_its_agent(home: Path) -> None:
    b_conflict = seed_agent_b(home)
    log = home / "server.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "elephant_broker.broker.cli_mcp", "--agent", "A"],
        env=server_environment(home),
        cwd=str(home),
    )

    async def scenario() -> None:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=STARTUP_TIMEOUT) as client:
                await check_tool_list(client)
                await check_agent_argument_refused(client, b_conflict)
                await check_remember_then_ask(client)

                recalled = await client.call_tool("recall", {"query": "Python", "speaker": "小李", "limit": 3})
                assert not recalled.is_error, text_of(recalled)
                episodes = recalled.structured_content["episodes"]
                assert 1 <= len(episodes) <= 3 and episodes[0]["text"] == "小李精通 Python。"
                assert {episode["agent_id"] for episode in episodes} == {"A"}
                assert episodes[0]["id"] in text_of(recalled)

                # B's memory does not exist for A: not recalled, not answered, not listed, not settled.
                about_bob = await client.call_tool("recall", {"query": "Bob Initech Oslo Rome"})
                assert not about_bob.is_error, text_of(about_bob)
                assert {e["agent_id"] for e in about_bob.structured_content["episodes"]} <= {"A"}
                assert_nothing_of(about_bob, B_TEXTS, ("Initech", "Oslo", "Rome"))
                answered = await client.call_tool("ask", {"question": "Where does Bob work?"})
                assert not answered.is_error, text_of(answered)
                assert_nothing_of(answered, B_TEXTS, ("Initech", "Oslo", "Rome"))
                none = await client.call_tool("list_conflicts", {})
                assert not none.is_error and none.structured_content == {"conflicts": []}
                assert text_of(none) == "No conflicts."
                settled = await client.call_tool("resolve_conflict", {"conflict_id": b_conflict, "keep": "new"})
                assert_error_line(settled, "resolve_conflict", f"no open conflict {b_conflict!r}", whole=False)

                # Bad input is a tool error with one clear line, and the server lives on.
                empty = await client.call_tool("remember", {"text": "   "})
                assert empty.is_error and "text is empty" in text_of(empty) and "\n" not in text_of(empty)
                blank = await client.call_tool("ask", {"question": ""})
                assert blank.is_error and "question is empty" in text_of(blank)
                too_few = await client.call_tool("recall", {"query": "Python", "limit": 0})
                assert_error_line(too_few, "recall", "limit: Input should be greater than or equal to 1")

    try:
        run_async(scenario, log)
        # Nothing refused was written, and B's conflict still waits for B.
        broker = Broker(Context(home=str(home), store="embedded", llm="", agent_id="B"))
        assert broker.counts(agent_id="B")["episodes"] == 2  # the third text is held for review
        assert [c.status for c in broker.conflicts(agent_id="B") if c.id == b_conflict] == ["open"]
        assert not any("Zed" in e.text for agent in ("A", "B") for e in broker.recall("Zed tea", agent_id=agent))
    finally:
        EmbeddedFalkorDB(home / "falkordb").stop()
    # Nothing but protocol went to stdout: the client would have failed to parse it.
    assert "Traceback" not in log.read_text(errors="replace")


def test_stdio_unreachable_store_is_a_tool_error(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = server_environment(tmp_path, ELEPHANT_STORE="falkordb://127.0.0.1:1")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "elephant_broker.broker.cli_mcp"], env=env, cwd=str(tmp_path)
    )

    async def scenario() -> None:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=STARTUP_TIMEOUT) as client:
                failed = await client.call_tool("ask", {"question": "小李会什么语言？"})
                # The client learns what failed; the host and port stay in the server log.
                assert_error_line(failed, "ask", "the memory store failed; the server log has the details")
                assert len((await client.list_tools()).tools) == len(TOOLS)  # still serving

    run_async(scenario, log)
    written = log.read_text(errors="replace")
    assert "memory not ready: cannot reach FalkorDB" in written
    assert "elephant mcp: ask: cannot reach FalkorDB at falkordb://127.0.0.1:1" in written
    assert "Traceback" not in written


# -- streamable HTTP --------------------------------------------------------------------


@dataclass
class HttpServer:
    url: str
    port: int
    tokens: dict[str, str]
    """Agent id -> its token."""
    log: Path
    token_file: Path
    b_conflict: str

    def client(self, agent: str = "A") -> Client:
        headers = {"Authorization": f"Bearer {self.tokens[agent]}"}
        http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=STARTUP_TIMEOUT))
        return Client(streamable_http_client(self.url, http_client=http), read_timeout_seconds=STARTUP_TIMEOUT)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_listening(process: subprocess.Popen[bytes], log: Path, port: int) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, f"server exited: {log.read_text(errors='replace')}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"server did not start: {log.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    """One HTTP server for the module: a token file for agents A and B, human review of conflicts."""
    home = tmp_path_factory.mktemp("mcp-http")
    try:
        b_conflict = seed_agent_b(home)
        tokens = {"A": "token-of-agent-a-" + os.urandom(8).hex(), "B": "token-of-agent-b-" + os.urandom(8).hex()}
        token_file = home / "tokens"
        token_file.write_text("".join(f"{agent} {token}\n" for agent, token in tokens.items()))
        token_file.chmod(0o600)
        port, log = free_port(), home / "server.log"
        env = server_environment(home, ELEPHANT_REVIEW="human", ELEPHANT_MCP_TOKENS=str(token_file))
        with log.open("wb") as errlog:
            process = subprocess.Popen(
                [sys.executable, "-m", "elephant_broker.broker.cli_mcp", "--http", "--port", str(port)],
                env=env,
                cwd=home,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errlog,
            )
        try:
            wait_until_listening(process, log, port)
            yield HttpServer(f"http://127.0.0.1:{port}/mcp", port, tokens, log, token_file, b_conflict)
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
    finally:
        EmbeddedFalkorDB(home / "falkordb").stop()
    # Tokens are never logged.
    written = log.read_text(errors="replace")
    assert "for tokens of 2 agent(s)" in written
    assert not any(token in written for token in tokens.values())


def test_http_tools_with_token(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client("A") as client:
            await check_tool_list(client)
            await check_agent_argument_refused(client, http_server.b_conflict)
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
    token = http_server.tokens["A"]
    filled = {name: value.format(token=token, port=http_server.port) for name, value in headers.items()}
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
    assert token not in response.text


def test_http_session_is_refused_to_another_agents_token(http_server: HttpServer) -> None:
    accept = {"Accept": "application/json, text/event-stream"}
    opened = httpx.post(
        http_server.url,
        json=INITIALIZE,
        headers={**accept, "Authorization": f"Bearer {http_server.tokens['A']}"},
        timeout=30,
    )
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    for agent, status in (("B", 404), ("A", 200)):
        response = httpx.post(
            http_server.url,
            json=listing,
            headers={**accept, "Authorization": f"Bearer {http_server.tokens[agent]}", "Mcp-Session-Id": session},
            timeout=30,
        )
        assert response.status_code == status, (agent, response.text)


def test_http_agents_see_only_their_own_memory(http_server: HttpServer) -> None:
    async def scenario() -> None:
        async with http_server.client("A") as a, http_server.client("B") as b:
            first = await a.call_tool("remember", {"text": "Alice lives in Paris."})
            assert not first.is_error and first.structured_content["episodes"] == 1, text_of(first)
            second = await a.call_tool("remember", {"text": "Alice lives in Berlin."})
            assert not second.is_error, text_of(second)
            counts = {key: second.structured_content[key] for key in ("episodes", "facts", "entities", "conflicts")}
            assert counts == {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 1}
            assert "list_conflicts" in text_of(second)

            listed = await a.call_tool("list_conflicts", {})
            [conflict] = listed.structured_content["conflicts"]
            assert conflict["status"] == "open"
            assert (conflict["old_fact"]["object"], conflict["new_fact"]["object"]) == ("Paris", "Berlin")
            assert conflict["id"] in text_of(listed) and "open" in text_of(listed)
            assert http_server.b_conflict not in text_of(listed)

            # B sees its own conflict only, and cannot settle A's.
            b_listed = await b.call_tool("list_conflicts", {})
            assert [c["id"] for c in b_listed.structured_content["conflicts"]] == [http_server.b_conflict]
            stolen = await b.call_tool("resolve_conflict", {"conflict_id": conflict["id"], "keep": "old"})
            reason = f"no open conflict {conflict['id']!r}"
            assert_error_line(stolen, "resolve_conflict", reason, whole=False)
            for agent, client in (("A", a), ("B", b)):
                other = "B" if agent == "A" else "A"
                recalled = await client.call_tool("recall", {"query": "Alice Bob Paris Initech"})
                assert {e["agent_id"] for e in recalled.structured_content["episodes"]} == {agent}, other
            b_answer = await b.call_tool("ask", {"question": "Where does Alice live?"})
            assert_nothing_of(b_answer, ("Alice lives in",), ("Paris", "Berlin"))
            a_answer = await a.call_tool("ask", {"question": "Where does Bob work?"})
            assert_nothing_of(a_answer, B_TEXTS, ("Initech",))

            unknown = await a.call_tool("resolve_conflict", {"conflict_id": "conflict_0123", "keep": "new"})
            assert_error_line(unknown, "resolve_conflict", "no open conflict 'conflict_0123'", whole=False)
            malformed = await a.call_tool("resolve_conflict", {"conflict_id": "no-such-id", "keep": "new"})
            assert_error_line(
                malformed, "resolve_conflict", "conflict_id: not a conflict id (conflict_ and hex digits): 'no-such-id'"
            )
            wrong = await a.call_tool("resolve_conflict", {"conflict_id": conflict["id"], "keep": "maybe"})
            assert_error_line(wrong, "resolve_conflict", "keep: Input should be 'new', 'old' or 'both'")

            resolved = await a.call_tool("resolve_conflict", {"conflict_id": conflict["id"], "keep": "new"})
            assert not resolved.is_error, text_of(resolved)
            assert resolved.structured_content["id"] == conflict["id"]
            assert resolved.structured_content["decision"] == "keep_new"
            assert resolved.structured_content["decided_by"] == "human"
            assert "keep_new" in text_of(resolved)

            after = await a.call_tool("list_conflicts", {})
            assert [c["status"] for c in after.structured_content["conflicts"]] == ["decided"]
            answered = await a.call_tool("ask", {"question": "Where does Alice live?"})
            answer = answered.structured_content
            assert "Berlin" in answer["answer"]
            assert any(fact["object"] == "Paris" for fact in answer["history"])
            assert "No longer true" in text_of(answered)
            # B's conflict was never touched.
            b_after = await b.call_tool("list_conflicts", {})
            assert [c["status"] for c in b_after.structured_content["conflicts"]] == ["open"]

    run_async(scenario, http_server.log)


def test_http_token_file_rotation_needs_no_restart(http_server: HttpServer) -> None:
    rotated = "token-of-agent-a-rotated-" + os.urandom(8).hex()
    original = http_server.token_file.read_text()

    def status_with(token: str) -> int:
        response = httpx.post(
            http_server.url,
            json=INITIALIZE,
            headers={"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {token}"},
            timeout=30,
        )
        return response.status_code

    assert status_with(rotated) == 401
    try:
        # Old and new token of A side by side, then the old one removed.
        http_server.token_file.write_text(original + f"A {rotated}\n")
        assert (status_with(rotated), status_with(http_server.tokens["A"])) == (200, 200)
        http_server.token_file.write_text(f"A {rotated}\nB {http_server.tokens['B']}\n")
        assert (status_with(rotated), status_with(http_server.tokens["A"])) == (200, 401)
    finally:
        http_server.token_file.write_text(original)
    assert status_with(http_server.tokens["A"]) == 200 and status_with(rotated) == 401
    assert rotated not in http_server.log.read_text(errors="replace")
