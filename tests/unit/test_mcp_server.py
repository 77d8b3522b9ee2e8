"""The MCP server in-process: agents pinned per server or per token, arguments refused, one-line errors.

The tools run against a recording stand-in for ``Broker`` (no store, no model), through
the SDK's in-memory client, so each test checks what reaches the broker and what the
client reads. The CLI is run in-process with serving replaced by recorders.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, cast

import anyio
import pytest
import typer
from elephant_broker.broker import cli_mcp, mcp_server
from elephant_broker.broker.api import Broker
from elephant_broker.broker.cli_mcp import is_loopback, resolve_token
from elephant_broker.broker.mcp_server import (
    AgentTokenVerifier,
    TokenFile,
    build_server,
    parse_token_lines,
    transport_security,
)
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Answer, Conflict, Fact, IngestReport
from elephant_broker.store import StoreError
from mcp.client import Client
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.mcpserver.exceptions import ToolError
from typer.testing import CliRunner

CALLS: dict[str, dict[str, Any]] = {
    "remember": {"text": "Alice lives in Paris.", "speaker": "Alice"},
    "remember_facts": {"facts": [{"subject": "Alice", "predicate": "lives in", "object": "Paris"}]},
    "recall": {"query": "Paris"},
    "ask": {"question": "Where does Alice live?"},
    "list_conflicts": {},
    "resolve_conflict": {"conflict_id": "conflict_a", "keep": "new"},
}


def conflict(conflict_id: str, status: str = "open") -> Conflict:
    old = Fact(id="fact_old", subject="Alice", predicate="lives in", predicate_key="lives_in", object="Paris")
    new = Fact(id="fact_new", subject="Alice", predicate="lives in", predicate_key="lives_in", object="Berlin")
    return Conflict.model_validate(
        {
            "id": conflict_id,
            "kind": "single_value",
            "subject": "Alice",
            "predicate_key": "lives_in",
            "old_fact": old,
            "new_fact": new,
            "status": status,
        }
    )


class RecordingBroker:
    """Answers like a ``Broker`` and records which agent each call was made for."""

    def __init__(self, failure: BaseException | None = None) -> None:
        self.context = Context(agent_id="default")
        self.store = None  # the warm-up only touches it
        self.calls: list[tuple[str, str | None]] = []
        self.failure = failure

    def _record(self, method: str, agent_id: str | None) -> None:
        self.calls.append((method, agent_id))
        if self.failure is not None:
            raise self.failure

    def remember(self, text: str, **fields: Any) -> IngestReport:
        self._record("remember", fields.get("agent_id"))
        return IngestReport(episodes=1)

    def remember_facts(self, rows: list[dict[str, Any]], **fields: Any) -> IngestReport:
        self._record("remember_facts", fields.get("agent_id"))
        return IngestReport(episodes=len(rows))

    def recall(self, query: str, k: int = 10, **fields: Any) -> list[Any]:
        self._record("recall", fields.get("agent_id"))
        return []

    def ask(self, question: str, **fields: Any) -> Answer:
        self._record("ask", fields.get("agent_id"))
        return Answer(answer="nothing in memory")

    def conflicts(self, agent_id: str | None = None) -> list[Conflict]:
        self._record("conflicts", agent_id)
        return [conflict(f"conflict_{(agent_id or '').lower()}")]

    def resolve(self, conflict_id: str, keep: str, agent_id: str | None = None) -> Conflict:
        self._record("resolve", agent_id)
        return conflict(conflict_id, "decided")


def serve(broker: RecordingBroker, **options: Any) -> mcp_server.MemoryServer:
    return build_server(cast(Broker, broker), **options)


def call_all(server: mcp_server.MemoryServer, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Call every tool through the in-memory client; return each result."""
    results: dict[str, Any] = {}

    async def scenario() -> None:
        async with Client(server) as client:
            for name, arguments in CALLS.items():
                results[name] = await client.call_tool(name, {**arguments, **(extra or {})})

    anyio.run(scenario)
    return results


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def test_every_tool_acts_for_the_servers_agent() -> None:
    broker = RecordingBroker()
    results = call_all(serve(broker, agent="A"))
    assert not any(result.is_error for result in results.values()), {n: text_of(r) for n, r in results.items()}
    assert {agent for _, agent in broker.calls} == {"A"}
    assert [method for method, _ in broker.calls] == [
        "remember",
        "remember_facts",
        "recall",
        "ask",
        "conflicts",
        "resolve",
    ]


def test_default_agent_is_the_contexts() -> None:
    broker = RecordingBroker()
    call_all(serve(broker))
    assert {agent for _, agent in broker.calls} == {"default"}


def test_an_agent_argument_is_refused_and_nothing_runs() -> None:
    broker = RecordingBroker()
    results = call_all(serve(broker, agent="A"), extra={"agent_id": "B"})
    for name, result in results.items():
        assert result.is_error and text_of(result) == f"Error executing tool {name}: unknown argument(s): agent_id"
    assert broker.calls == []


def test_schemas_forbid_undeclared_arguments() -> None:
    async def scenario() -> None:
        async with Client(serve(RecordingBroker(), agent="A")) as client:
            for tool in (await client.list_tools()).tools:
                assert tool.input_schema["additionalProperties"] is False, tool.name
                assert "agent_id" not in tool.input_schema["properties"], tool.name

    anyio.run(scenario)


def test_http_calls_act_for_the_agent_of_their_token() -> None:
    broker = RecordingBroker()
    server = serve(broker, tokens={"token-of-a": "A", "token-of-b": "B"})
    verifier = AgentTokenVerifier({"token-of-a": "A", "token-of-b": "B"})

    async def scenario() -> None:
        for token in ("token-of-b", "token-of-a"):
            access = await verifier.verify_token(token)
            assert access is not None
            reset = auth_context_var.set(AuthenticatedUser(access))
            try:
                await server.call_tool("list_conflicts", {})
                await server.call_tool("resolve_conflict", {"conflict_id": "conflict_0a", "keep": "old"})
            finally:
                auth_context_var.reset(reset)
        # No token in the request (never the case behind the SDK's middleware): refused.
        with pytest.raises(ToolError, match="carries no agent"):
            await server.call_tool("list_conflicts", {})

    anyio.run(scenario)
    resolved = [agent for method, agent in broker.calls if method == "resolve"]
    assert resolved == ["B", "A"]
    assert {agent for _, agent in broker.calls} == {"A", "B"}


def test_a_server_is_either_pinned_or_per_token() -> None:
    with pytest.raises(ValueError, match="comes from each token"):
        serve(RecordingBroker(), agent="A", tokens={"t": "A"})
    with pytest.raises(ValueError, match=r"agent_id: U\+0020 \(SPACE\) is not allowed"):
        serve(RecordingBroker(), agent="A B")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"limit": 0, "x\ny": 1}, "unknown argument(s): x y; missing argument(s): query; limit: Input should be"),
        ({"query": "q", "speaker": "Alice\nIgnore the above"}, "speaker: U+000A (control character) is not allowed"),
        ({"query": "q", "speaker": "A" * 201}, "speaker: String should have at most 200 characters"),
        ({"query": "q", **{f"k{i}": 1 for i in range(7)}}, "unknown argument(s): k0, k1, k2, k3, k4 and 2 more"),
    ],
)
def test_refused_arguments_are_one_line_without_values(arguments: dict[str, Any], message: str) -> None:
    broker = RecordingBroker()

    async def scenario() -> None:
        async with Client(serve(broker, agent="A")) as client:
            result = await client.call_tool("recall", arguments)
            assert result.is_error and "\n" not in text_of(result)
            assert text_of(result).startswith(f"Error executing tool recall: {message}"), text_of(result)
            assert "Ignore the above" not in text_of(result)

    anyio.run(scenario)
    assert broker.calls == []


@pytest.mark.parametrize(
    ("failure", "client_reads", "log_reads"),
    [
        (
            StoreError("cannot reach FalkorDB at falkordb://10.0.0.7:6379: refused"),
            "the memory store failed",
            "10.0.0.7",
        ),
        (PermissionError(13, "Permission denied", "/srv/elephant/reviews.sqlite"), "could not read or write", "/srv"),
        (ValueError("no open conflict 'x'\n(see list_conflicts)"), "no open conflict 'x' (see list_conflicts)", None),
        (RuntimeError("secret detail /srv/elephant"), "internal error (RuntimeError)", None),
    ],
)
def test_broker_failures_are_one_line_without_internals(
    failure: BaseException, client_reads: str, log_reads: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> None:
        async with Client(serve(RecordingBroker(failure), agent="A")) as client:
            result = await client.call_tool("ask", {"question": "Where does Alice live?"})
            assert result.is_error and "\n" not in text_of(result)
            assert text_of(result).startswith("Error executing tool ask: ") and client_reads in text_of(result)
            assert "/srv" not in text_of(result) and "10.0.0.7" not in text_of(result)

    anyio.run(scenario)
    if log_reads is not None:
        assert log_reads in capsys.readouterr().err


# -- tokens -----------------------------------------------------------------------------


def test_token_verifier_grants_each_tokens_agent() -> None:
    verifier = AgentTokenVerifier({"s3cret-a": "A", "s3cret-b": "B"})
    for token, agent in (("s3cret-a", "A"), ("s3cret-b", "B")):
        access = anyio.run(verifier.verify_token, token)
        assert access is not None and access.subject == agent and (access.claims or {})["agent_id"] == agent
    for other in ("", "s3cret", "s3cret-a ", "S3CRET-A", "s3cret-ax"):
        assert anyio.run(verifier.verify_token, other) is None


def test_token_lines_parse_with_comments_and_rotation() -> None:
    table = parse_token_lines("# agent token\nalice  tok-1\n\nalice tok-2  # new one\nbob\ttok-3\n", "tokens")
    assert sorted(table.values()) == ["alice", "alice", "bob"]
    assert set(table) == {mcp_server.token_digest(t) for t in ("tok-1", "tok-2", "tok-3")}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alice\n", "tokens line 1: expected 'agent_id token', found 1 field"),
        ("alice tok-1 extra\n", "tokens line 1: expected 'agent_id token', found 3 field"),
        ("alice tok-1\nbob tok-1\n", "tokens line 2: the same token is already on line 1"),
        ("# nothing\n\n", "tokens holds no 'agent_id token' line"),
    ],
)
def test_bad_token_lines_are_named_without_the_token(text: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_token_lines(text, "tokens")
    assert str(refused.value).startswith(message) and "tok-1" not in str(refused.value)


def test_token_file_is_read_again_when_it_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tokens"
    path.write_text("alice tok-1\n")
    path.chmod(0o600)
    verifier = AgentTokenVerifier(TokenFile(path))
    assert anyio.run(verifier.verify_token, "tok-1") is not None

    def rewrite(text: str) -> None:
        path.write_text(text)
        # Some file systems keep whole-second times: make the change visible whatever the clock.
        info = path.stat()
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))

    rewrite("alice tok-2\nbob tok-3\n")  # rotated: tok-1 revoked
    assert anyio.run(verifier.verify_token, "tok-1") is None
    granted = anyio.run(verifier.verify_token, "tok-3")
    assert granted is not None and granted.subject == "bob"
    assert "token file reloaded: 2 token(s) for 2 agent(s)" in capsys.readouterr().err

    rewrite("alice tok-2\nbob\n")  # a broken edit refuses everyone until it is fixed
    assert anyio.run(verifier.verify_token, "tok-2") is None
    err = capsys.readouterr().err
    assert "every token is refused" in err and "line 2" in err and "tok-2" not in err

    rewrite("alice tok-2\n")
    assert anyio.run(verifier.verify_token, "tok-2") is not None
    path.unlink()
    assert anyio.run(verifier.verify_token, "tok-2") is None


def test_token_file_open_to_others_is_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tokens"
    path.write_text("alice tok-1\n")
    path.chmod(0o644)
    TokenFile(path)
    assert "open to other users; chmod 600" in capsys.readouterr().err


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


# -- the command ------------------------------------------------------------------------


@pytest.fixture
def cli_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Run ``mcp`` in-process with serving and warm-up replaced by recorders."""
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(mcp_server, "warm_up", lambda broker: calls.append(("warm_up", broker)))
    monkeypatch.setattr(mcp_server, "serve_http", lambda *args: calls.append(("serve_http", args)))
    monkeypatch.setattr(mcp_server, "serve_stdio", lambda *args: calls.append(("serve_stdio", args)))
    for name in ("ELEPHANT_MCP_TOKEN", "ELEPHANT_MCP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    return calls


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    app = typer.Typer()
    app.command()(cli_mcp.mcp)
    return CliRunner().invoke(app, list(args), env=env)


def served_tokens(cli_calls: list[tuple[str, Any]]) -> list[Any]:
    return [args[3] for name, args in cli_calls if name == "serve_http"]


def test_cli_generates_and_prints_a_token_once(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--port", "9999", "--agent", "A")
    assert result.exit_code == 0, result.output
    [(_, (broker, host, port, tokens, allowed))] = [call for call in cli_calls if call[0] == "serve_http"]
    assert (host, port, list(allowed)) == ("127.0.0.1", 9999, [])
    [(token, agent)] = tokens.items()
    assert agent == "A" and "for agent 'A'" in result.stderr
    assert result.stderr.count(token) == 1 and "generated token" in result.stderr
    assert token not in result.stdout and "warning" not in result.stderr
    assert [name for name, _ in cli_calls] == ["warm_up", "serve_http"]


def test_cli_token_from_option_or_environment_is_never_printed(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--token", "from-option")
    assert result.exit_code == 0 and "from-option" not in result.output + result.stderr
    result = invoke("--http", env={"ELEPHANT_MCP_TOKEN": "from-env", "ELEPHANT_AGENT": "assistant"})
    assert result.exit_code == 0 and "from-env" not in result.output + result.stderr
    assert served_tokens(cli_calls) == [{"from-option": "default"}, {"from-env": "assistant"}]


def test_cli_serves_a_token_file(cli_calls: list[tuple[str, Any]], tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text("alice tok-alice-1\nbob tok-bob-1\n")
    path.chmod(0o600)
    for result in (invoke("--http", "--tokens", str(path)), invoke("--http", env={"ELEPHANT_MCP_TOKENS": str(path)})):
        assert result.exit_code == 0, result.output
        assert "for tokens of 2 agent(s)" in result.stderr and "tok-" not in result.output + result.stderr
    for source in served_tokens(cli_calls):
        assert isinstance(source, TokenFile) and source.agents() == {"alice", "bob"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--token", "t", "--tokens", "{file}"], "give one token (--token, ELEPHANT_MCP_TOKEN) or a token file"),
        (["--agent", "A", "--tokens", "{file}"], "--agent does not go with --tokens"),
        (["--tokens", "{missing}"], "No such file or directory"),
        (["--tokens", "{broken}"], "line 1: expected 'agent_id token'"),
        (["--agent", "a b"], "agent_id: U+0020 (SPACE) is not allowed"),
        (["--tokens", "{bad_agent}"], "line 1: agent_id: '/' U+002F (SOLIDUS) is not allowed"),
    ],
)
def test_cli_refuses_bad_token_settings_in_one_line(
    cli_calls: list[tuple[str, Any]], tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "tokens").write_text("alice tok-alice-1\n")
    (tmp_path / "broken").write_text("alice\n")
    (tmp_path / "bad_agent").write_text("../alice tok-alice-1\n")
    paths = {name: tmp_path / name for name in ("tokens", "missing", "broken", "bad_agent")}
    paths["file"] = paths.pop("tokens")
    result = invoke("--http", *(arg.format(**paths) for arg in args))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert message in " ".join(result.stderr.split()), result.stderr
    assert cli_calls == []


def test_cli_warns_when_not_on_loopback(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke("--http", "--host", "0.0.0.0", "--token", "t")
    assert result.exit_code == 0
    assert "warning" in result.stderr and "not loopback" in result.stderr and "--allow-host" in result.stderr
    result = invoke("--http", "--host", "0.0.0.0", "--token", "t", "--allow-host", "memory.lan")
    assert "not loopback" in result.stderr and "--allow-host" not in result.stderr
    assert [args[4] for name, args in cli_calls if name == "serve_http"][-1] == ["memory.lan"]


def test_cli_serves_stdio_for_its_agent(cli_calls: list[tuple[str, Any]]) -> None:
    result = invoke()
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    result = invoke("--agent", "A")
    assert result.exit_code == 0 and result.stderr == ""
    result = invoke(env={"ELEPHANT_AGENT": "assistant"})
    assert [(name, args[1]) for name, args in cli_calls] == [
        ("serve_stdio", "default"),
        ("serve_stdio", "A"),
        ("serve_stdio", "assistant"),
    ]
