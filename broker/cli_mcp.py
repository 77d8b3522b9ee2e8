"""The ``elephant mcp`` command: serve the memory to MCP clients (stdio or streamable HTTP).

Registered in ``broker.cli`` as ``app.command("mcp")(mcp)``; ``python -m broker.cli_mcp``
runs it alone (the data directory and store then come from ``ELEPHANT_*`` variables).
The server module and the broker are imported when the command runs: the ``mcp`` SDK
takes about a second to import, the broker (LangGraph, the graphs) about as much, and
the other commands, ``--help`` included, should not pay for them.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from elephant_broker.broker.cli_common import handle_errors, open_broker, stderr

if TYPE_CHECKING:
    from elephant_broker.broker import mcp_server as mcp_server_types
    from elephant_broker.broker.api import Broker

TOKEN_ENV = "ELEPHANT_MCP_TOKEN"
"""Environment variable holding the bearer token of the HTTP transport (one agent)."""

TOKENS_ENV = "ELEPHANT_MCP_TOKENS"
"""Environment variable naming the token file of the HTTP transport (``agent_id token`` lines)."""

DEFAULT_PORT = 8765


@handle_errors
def mcp(
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help="Whose memory the server serves (default: ELEPHANT_AGENT, else 'default'); not with --tokens.",
        ),
    ] = None,
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option("--host", help="HTTP: address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="HTTP: port to listen on.")] = DEFAULT_PORT,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar=TOKEN_ENV,
            show_envvar=True,
            help="HTTP: the one bearer token clients must send, for the --agent (else generated).",
        ),
    ] = None,
    tokens: Annotated[
        Path | None,
        typer.Option(
            "--tokens",
            envvar=TOKENS_ENV,
            show_envvar=True,
            help="HTTP: file of 'agent_id token' lines; each token grants its agent's memory (re-read on change).",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host", help="HTTP: another host name clients use to reach the server (repeatable; DNS-rebinding)."
        ),
    ] = None,
) -> None:
    """Serve remember / recall / ask / conflicts as MCP tools for one agent (stdio), or per token (--http)."""
    from elephant_broker.broker import mcp_server

    broker = open_broker(surface="mcp")
    if not http:
        # stdout belongs to the protocol: every message of ours goes to stderr.
        mcp_server.serve_stdio(broker, mcp_server.check_agent(agent or broker.context.agent_id))
        return
    source, generated = http_tokens(broker, agent, token, tokens)
    if not is_loopback(host):
        stderr.print(
            f"[bold yellow]warning:[/] binding to {host}, not loopback: other machines can reach this server; "
            "anyone with a token can read and change its agent's memory. Prefer a TLS proxy in front.",
            highlight=False,
        )
        if host in ("0.0.0.0", "::") and not allow_host:
            stderr.print(
                "[bold yellow]warning:[/] only loopback Host headers are accepted; "
                "name the host clients use with --allow-host.",
                highlight=False,
            )
    # Open the store and load the model before listening: a bad store fails here, clearly.
    mcp_server.warm_up(broker)
    shown = f"[{host}]" if ":" in host else host
    if isinstance(source, mcp_server.TokenFile):
        grants = f"tokens of {len(source.agents())} agent(s) from {source.path}"
    else:
        grants = f"agent {next(iter(source.values()))!r}"
    stderr.print(
        f"elephant mcp: serving streamable HTTP at http://{shown}:{port}{mcp_server.MCP_PATH} for {grants}",
        highlight=False,
    )
    if generated is not None:
        # The one place the token is ever printed; set the variable to keep it across restarts.
        stderr.print(f"elephant mcp: generated token (set {TOKEN_ENV} to choose one): {generated}", highlight=False)
    mcp_server.serve_http(broker, host, port, source, allow_host or ())


def http_tokens(
    broker: Broker, agent: str | None, token: str | None, tokens: Path | None
) -> tuple[mcp_server_types.TokenSource, str | None]:
    """Return where the HTTP tokens come from, and the one token if it was generated here.

    Raises:
        ValueError: If both a token and a token file are given, or ``--agent`` with a
            token file (each line names its agent), or the token or an agent id is invalid.
        OSError: If the token file cannot be read.
    """
    from elephant_broker.broker import mcp_server

    if tokens is not None:
        if token is not None:
            raise ValueError(
                f"give one token (--token, {TOKEN_ENV}) or a token file (--tokens, {TOKENS_ENV}), not both"
            )
        if agent is not None:
            raise ValueError("--agent does not go with --tokens: each line of the token file names its agent")
        return mcp_server.TokenFile(tokens), None
    secret, generated = resolve_token(token)
    return {secret: mcp_server.check_agent(agent or broker.context.agent_id)}, secret if generated else None


def resolve_token(given: str | None) -> tuple[str, bool]:
    """Return the bearer token to require and whether it was generated here.

    Raises:
        ValueError: If the given token is blank.
    """
    if given is None:
        return secrets.token_urlsafe(32), True
    if not given.strip():
        raise ValueError(f"the MCP token is empty (--token or {TOKEN_ENV})")
    return given.strip(), False


def is_loopback(host: str) -> bool:
    """Say whether binding to ``host`` keeps the server on this machine."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    typer.run(mcp)
