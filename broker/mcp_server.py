"""The MCP server: the ``Broker`` API as Model Context Protocol tools.

Five tools (``remember``, ``recall``, ``ask``, ``list_conflicts``, ``resolve_conflict``)
answer with a short text a model can read and the same result as structured content
(the pydantic models of ``schemas.models``), so a client can also parse it.

Two transports, both from the official ``mcp`` SDK (``MCPServer``):

- stdio, for a client that starts the server itself (Claude Desktop, Cursor, ...);
- streamable HTTP at ``/mcp``, guarded by the SDK's own pieces: a bearer token checked
  by a ``TokenVerifier`` (401 without it or with a wrong one) and DNS-rebinding
  protection (``TransportSecuritySettings``: a foreign ``Host`` gets 421, a foreign
  ``Origin`` 403). The token check runs first, so an unauthenticated request gets 401
  whatever its headers.

One ``Broker`` serves the whole process. Its calls are synchronous; the SDK runs sync
tools on worker threads, so the event loop stays free, and a lock keeps writes (remember,
resolve) one at a time, as entity resolution reads the graph before it writes.
"""

from __future__ import annotations

import hmac
import inspect
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import AnyHttpUrl, BaseModel, Field, ValidationError

from broker.api import Broker
from broker.describe import describe_answer, describe_episodes
from schemas.models import Answer, Conflict, Episode, IngestReport
from store import StoreError

MCP_PATH = "/mcp"
"""Path of the streamable HTTP endpoint."""

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""Host names a loopback client may send (IPv6 literals in brackets, as in a Host header)."""

INSTRUCTIONS = (
    "Long-term memory as a knowledge graph. Call `remember` with what the user tells you "
    "(or what you learn) and `ask` before answering from memory; cite the fact ids `ask` "
    "returns. Contradictions are kept as conflicts: see `list_conflicts`, settle them with "
    "`resolve_conflict`."
)

T = TypeVar("T")


class Recalled(BaseModel):
    """Structured result of ``recall``: the most relevant episodes, best first."""

    episodes: list[Episode] = Field(default_factory=list)


class ConflictList(BaseModel):
    """Structured result of ``list_conflicts``: open conflicts first, then decided ones."""

    conflicts: list[Conflict] = Field(default_factory=list)


# Parameter types: their descriptions become the tools' JSON schemas.
Speaker = Annotated[
    str | None,
    Field(description="Who said it / who asks; first person (我, I, my) resolves to this name. Default: user."),
]
AgentId = Annotated[
    str | None, Field(description="Whose memory to use (one scope per agent). Default: the server's agent.")
]
SessionId = Annotated[str | None, Field(description="Conversation or session id, kept as provenance.")]


class StaticTokenVerifier:
    """Accept exactly one bearer token (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        """Return an access grant for the configured token, ``None`` for anything else."""
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="elephant-mcp", scopes=[])
        return None


def transport_security(host: str, port: int, allowed_hosts: Iterable[str] = ()) -> TransportSecuritySettings:
    """Allow the loopback names, the bound host and ``allowed_hosts``, each on ``port`` only.

    The ``Host`` header must name one of them (else 421); an ``Origin`` header, when a
    browser sends one, must be ``http(s)://`` one of them (else 403).
    """
    names = list(LOOPBACK_NAMES)
    bound = f"[{host.strip('[]')}]" if ":" in host else host
    if bound not in ("0.0.0.0", "[::]"):
        names.append(bound)
    names.extend(allowed_hosts)
    hosts = list(dict.fromkeys(f"{name}:{port}" for name in names))
    origins = [f"{scheme}://{entry}" for entry in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def build_server(broker: Broker, token: str | None = None, base_url: str = "http://127.0.0.1") -> MCPServer[Any]:
    """Return an MCP server whose tools call ``broker``; with ``token``, HTTP requests need it."""
    auth: dict[str, Any] = {}
    if token is not None:
        # A resource server with a fixed token: no OAuth routes or metadata are served
        # (resource_server_url=None); the issuer URL is required by the model but unused.
        auth = {
            "token_verifier": StaticTokenVerifier(token),
            "auth": AuthSettings(issuer_url=AnyHttpUrl(base_url), resource_server_url=None),
        }
    server: MCPServer[Any] = MCPServer(
        "elephant-broker",
        version=_version(),
        instructions=INSTRUCTIONS,
        lifespan=_warm_up_lifespan(broker),
        log_level="WARNING",
        **auth,
    )
    writes = threading.Lock()
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def remember(
        text: Annotated[str, Field(description="What was said or learnt, in Chinese or English.")],
        speaker: Speaker = None,
        agent_id: AgentId = None,
        session_id: SessionId = None,
        source: Annotated[
            str | None, Field(description="Where it came from (chat, a document name, a tool); sets its authority.")
        ] = None,
    ) -> Annotated[CallToolResult, IngestReport]:
        """Remember a text: extract its facts and merge them into the knowledge graph.

        Use it for what the user tells you about themselves, other people, tools and plans.
        Facts keep a link to this text (an episode). A fact that contradicts what is known
        is recorded as a conflict, decided by policy or left open for `resolve_conflict`.
        Returns counts of new episodes, facts, entities and conflicts.
        """
        with writes:
            report = _call(
                lambda: broker.remember(text, speaker=speaker, agent_id=agent_id, session_id=session_id, source=source)
            )
        return _result(_ingest_text(report), report)

    def recall(
        query: Annotated[str, Field(description="What to look for, in words (a topic, a name, a question).")],
        speaker: Speaker = None,
        agent_id: AgentId = None,
        limit: Annotated[int, Field(ge=1, le=100, description="How many episodes at most.")] = 10,
    ) -> Annotated[CallToolResult, Recalled]:
        """Find the remembered texts (episodes) most relevant to a query, best first.

        Combines the graph evidence for the query with embedding similarity. Use it to see
        what was actually said; use `ask` for an answer built from facts.
        """
        found = _call(lambda: broker.recall(query, k=limit, speaker=speaker, agent_id=agent_id))
        return _result(describe_episodes(found), Recalled(episodes=found))

    def ask(
        question: Annotated[str, Field(description="The question, in Chinese or English.")],
        speaker: Speaker = None,
        agent_id: AgentId = None,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, Answer]:
        """Answer a question from memory, with the facts and episodes the answer rests on.

        Follows relations over several hops when needed (who founded the company where X
        works?). Each fact has an id, a confidence and the episodes it came from; cite them.
        Facts that used to be true are listed as history.
        """
        answer = _call(lambda: broker.ask(question, speaker=speaker, agent_id=agent_id, session_id=session_id))
        return _result(describe_answer(answer), answer)

    def list_conflicts(agent_id: AgentId = None) -> Annotated[CallToolResult, ConflictList]:
        """List contradictions between facts: open ones awaiting a decision first, then decided ones.

        An open conflict holds back the text that caused it until `resolve_conflict` decides.
        """
        found = _call(lambda: broker.conflicts(agent_id=agent_id))
        return _result(_conflicts_text(found), ConflictList(conflicts=found))

    def resolve_conflict(
        conflict_id: Annotated[str, Field(description="Id of an open conflict, from list_conflicts.")],
        keep: Annotated[
            Literal["new", "old", "both"],
            Field(
                description="new: the new fact replaces the old (kept as history); old: reject the new fact; "
                "both: both hold."
            ),
        ],
        agent_id: AgentId = None,
    ) -> Annotated[CallToolResult, Conflict]:
        """Settle an open conflict; the text it held back is then remembered with the decision."""
        with writes:
            conflict = _call(lambda: broker.resolve(conflict_id, keep, agent_id=agent_id))
        return _result(f"Conflict {conflict.id}: {conflict.decision}. {_conflict_line(conflict)}", conflict)

    # Nothing is ever deleted: a retired fact stays as history, a rejected one as a record.
    writing = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    for tool, hints in (
        (remember, writing),
        (recall, reading),
        (ask, reading),
        (list_conflicts, reading),
        (resolve_conflict, writing),
    ):
        # getdoc, not __doc__: the model should read the docstring without its indentation.
        server.add_tool(tool, description=inspect.getdoc(tool), annotations=hints)
    return server


def serve_stdio(broker: Broker) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    build_server(broker).run("stdio")


def serve_http(broker: Broker, host: str, port: int, token: str, allowed_hosts: Iterable[str] = ()) -> None:
    """Serve the tools over streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    import uvicorn

    base = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    app = build_server(broker, token=token, base_url=base).streamable_http_app(
        streamable_http_path=MCP_PATH, transport_security=transport_security(host, port, allowed_hosts), host=host
    )
    # No access log: request lines carry nothing useful here, and stderr stays readable.
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def warm_up(broker: Broker) -> None:
    """Open the store and load the embedding model now, not on the first tool call.

    Raises:
        StoreError: If the store cannot be opened.
        OSError: If the data directory or the model cannot be read.
    """
    broker.store  # noqa: B018 - opening it is the point: it also loads the embedding model


def _warm_up_lifespan(broker: Broker) -> Callable[[MCPServer[Any]], Any]:
    """Warm the broker up once, in the background, when the server starts serving.

    Over stdio the client sends ``initialize`` at once and waits; loading the model and
    starting FalkorDB takes seconds, so it happens on a thread while the handshake goes on
    (the first tool call waits for it). HTTP serving warms up before listening.
    """
    started = threading.Event()

    def run() -> None:
        try:
            warm_up(broker)
        except (StoreError, OSError, ValueError) as error:
            # Tool calls will report it too; say it once where the operator looks.
            print(f"elephant mcp: memory not ready: {' '.join(str(error).split())}", file=sys.stderr, flush=True)

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[None]:
        if not started.is_set():
            started.set()
            threading.Thread(target=run, name="elephant-warm-up", daemon=True).start()
        yield

    return lifespan


def _version() -> str:
    try:
        return metadata.version("elephant-broker")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return ""


def _call(action: Callable[[], T]) -> T:
    """Run a broker call; expected failures become tool errors with one clear line."""
    try:
        return action()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        message = str(first.get("msg", "")).removeprefix("Value error, ")
        raise ToolError(f"invalid input{' (' + where + ')' if where else ''}: {message}") from error
    except (StoreError, OSError, ValueError) as error:
        raise ToolError(" ".join(str(error).split())) from error


def _result(text: str, value: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=value.model_dump(mode="json")
    )


def _ingest_text(report: IngestReport) -> str:
    text = (
        f"Remembered {report.episodes} episode(s): {report.facts} new fact(s), "
        f"{report.entities} new entit(ies), {report.conflicts} conflict(s)."
    )
    if report.conflicts and not report.episodes:
        text += " The text contradicts memory and waits for review: see list_conflicts, then resolve_conflict."
    return text


def _conflict_line(conflict: Conflict) -> str:
    old, new = conflict.old_fact, conflict.new_fact
    return f"old: {old.sentence()} [{old.id}]; new: {new.sentence()} [{new.id}]"


def _conflicts_text(conflicts: list[Conflict]) -> str:
    if not conflicts:
        return "No conflicts."
    lines = []
    for conflict in conflicts:
        state = "open" if conflict.status == "open" else f"decided {conflict.decision} by {conflict.decided_by}"
        reason = f" ({conflict.reason})" if conflict.reason else ""
        lines.append(f"- {conflict.id} [{conflict.kind}, {state}]{reason}: {_conflict_line(conflict)}")
    return "\n".join(lines)
