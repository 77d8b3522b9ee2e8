"""The MCP server: the ``Broker`` API as Model Context Protocol tools, pinned to agents.

Six tools (``remember``, ``remember_facts``, ``recall``, ``ask``, ``list_conflicts``,
``resolve_conflict``) answer with a short text a model can read and the same result as
structured content (the pydantic models of ``schemas.models``), so a client can also
parse it.

Whose memory a call uses is never a tool argument: over stdio the server is started for
one agent (``elephant mcp --agent A``); over HTTP each bearer token grants one agent's
memory (``AgentTokenVerifier``: a token file of ``agent_id token`` lines, or one token
for the server's agent), and every call acts for the agent of the token it came with.
Arguments a tool does not declare are refused (``additionalProperties: false``), and
every tool error is one line: ``Error executing tool <name>: <reason>``.

Two transports, both from the official ``mcp`` SDK (``MCPServer``):

- stdio, for a client that starts the server itself (Claude Desktop, Cursor, ...);
- streamable HTTP at ``/mcp``, guarded by the SDK's own pieces: a bearer token checked
  by a ``TokenVerifier`` (401 without it or with a wrong one) and DNS-rebinding
  protection (``TransportSecuritySettings``: a foreign ``Host`` gets 421, a foreign
  ``Origin`` 403). The token check runs first, so an unauthenticated request gets 401
  whatever its headers. The SDK binds each session to the principal that opened it, and
  the principal's subject is the agent, so one agent's session is refused to another's token.

One ``Broker`` serves the whole process. Its calls are synchronous; the SDK runs sync
tools on worker threads, so the event loop stays free, and a lock keeps writes (remember,
resolve) one at a time, as entity resolution reads the graph before it writes.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import os
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, cast

from elephant_broker.broker.api import Broker
from elephant_broker.broker.describe import describe_answer, describe_episodes
from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.ids import (
    ID_MAX,
    NAME_MAX,
    check_answer_id,
    check_conflict_id,
    check_id,
    check_optional,
    error_messages,
)
from elephant_broker.schemas.models import (
    MAX_GIVEN_FACTS,
    Answer,
    Conflict,
    Episode,
    FactStatement,
    FeedbackReport,
    IngestReport,
)
from elephant_broker.store import StoreError
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import AfterValidator, AnyHttpUrl, BaseModel, ConfigDict, Field, ValidationError

MCP_PATH = "/mcp"
"""Path of the streamable HTTP endpoint."""

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""Host names a loopback client may send (IPv6 literals in brackets, as in a Host header)."""

AGENT_CLAIM = "agent_id"
"""Claim of an access token that names the agent whose memory the token grants."""

INSTRUCTIONS = (
    "Long-term memory as a knowledge graph. Call `remember` with what the user tells you "
    "(or what you learn; `remember_facts` when you already have subject-predicate-object facts) "
    "and `ask` before answering from memory; cite the fact ids `ask` returns. Contradictions are "
    "kept as conflicts: see `list_conflicts`, settle them with `resolve_conflict`. When the user says an "
    "answer from memory was right or wrong, call `feedback` with the answer's id (and the correction)."
)

T = TypeVar("T")


class Recalled(BaseModel):
    """Structured result of ``recall``: the most relevant episodes, best first."""

    episodes: list[Episode] = Field(default_factory=list)


class ConflictList(BaseModel):
    """Structured result of ``list_conflicts``: open conflicts first, then decided ones."""

    conflicts: list[Conflict] = Field(default_factory=list)


def _checked(check: str, field: str) -> AfterValidator:
    """Check an optional argument with the shared rule of ``schemas.ids`` ("" means not given)."""
    return AfterValidator(lambda value: check_optional(value, check, field))


# Parameter types: their descriptions become the tools' JSON schemas; the rules are the
# ones every entry point applies (schemas/ids.py), so a refusal reads the same everywhere.
Speaker = Annotated[
    str | None,
    Field(
        max_length=NAME_MAX,
        description="Who said it / who asks; first person (我, I, my) resolves to this name. Default: user.",
    ),
    _checked("name", "speaker"),
]
SessionId = Annotated[
    str | None,
    Field(max_length=ID_MAX, description="Conversation or session id, kept as provenance."),
    _checked("id", "session_id"),
]
Source = Annotated[
    str | None,
    Field(max_length=NAME_MAX, description="Where it came from (chat, a document name, a tool); sets its authority."),
    _checked("name", "source"),
]
ConflictId = Annotated[
    str,
    Field(description="Id of an open conflict (conflict_...), from list_conflicts."),
    AfterValidator(check_conflict_id),
]
AnswerId = Annotated[
    str,
    Field(description="Id of an answer (ans_...), as `ask` returned it."),
    AfterValidator(check_answer_id),
]


# -- tokens and agents ------------------------------------------------------------------


def check_agent(agent: str) -> str:
    """Return ``agent`` unchanged if it is a valid agent id (``schemas.ids.check_id``).

    Raises:
        ValueError: If it is empty or breaks the id rule; one line naming ``agent_id``.
    """
    return check_id(agent, "agent_id")


def token_digest(token: str) -> bytes:
    """Return the digest a token is compared by (equal length for every token)."""
    return hashlib.sha256(token.encode()).digest()


def token_table(tokens: Mapping[str, str]) -> dict[bytes, str]:
    """Return ``{digest: agent}`` for a ``{token: agent}`` mapping, checking both.

    Raises:
        ValueError: If a token is blank or an agent id is invalid.
    """
    table: dict[bytes, str] = {}
    for token, agent in tokens.items():
        if not token.strip():
            raise ValueError("an MCP token is empty")
        table[token_digest(token.strip())] = check_agent(agent)
    return table


def parse_token_lines(text: str, where: str) -> dict[bytes, str]:
    """Parse ``agent_id token`` lines (``#`` comments and blank lines skipped).

    A token may appear once; an agent may have several tokens (rotation).

    Raises:
        ValueError: On a malformed line, an invalid agent id, a repeated token or no
            token at all; the message names the line, never a token.
    """
    table: dict[bytes, str] = {}
    first_line: dict[bytes, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 2:
            raise ValueError(f"{where} line {number}: expected 'agent_id token', found {len(fields)} field(s)")
        agent, token = fields
        try:
            agent = check_agent(agent)
        except ValueError as error:
            raise ValueError(f"{where} line {number}: {error}") from None
        digest = token_digest(token)
        if digest in first_line:
            raise ValueError(f"{where} line {number}: the same token is already on line {first_line[digest]}")
        table[digest], first_line[digest] = agent, number
    if not table:
        raise ValueError(f"{where} holds no 'agent_id token' line")
    return table


class TokenFile:
    """A token file of ``agent_id token`` lines, read again whenever it changes.

    Rotation needs no restart: add the new token, move the clients over, remove the old
    one. A file that becomes unreadable or invalid refuses every token until it is fixed
    (revoking a token must never be undone by a typo elsewhere in the file).
    """

    def __init__(self, path: str | Path) -> None:
        """Read the file now.

        Raises:
            OSError: If it cannot be read.
            ValueError: If it is malformed or holds no token.
        """
        self.path = Path(path).expanduser()
        self._stamp: tuple[int, int, int] | None = self._stamp_now()
        self._table = self._read()

    def table(self) -> Mapping[bytes, str]:
        """Return the current ``{digest: agent}`` table, re-reading the file if it changed."""
        try:
            stamp: tuple[int, int, int] | None = self._stamp_now()
        except OSError:
            stamp = None  # gone or unreadable: reading it below says which
        if stamp == self._stamp:
            return self._table
        self._stamp = stamp
        try:
            self._table = self._read()
        except (OSError, ValueError) as error:
            self._table = {}
            _note(f"token file not loaded, every token is refused until it is fixed: {error}")
        else:
            _note(f"token file reloaded: {len(self._table)} token(s) for {len(set(self._table.values()))} agent(s)")
        return self._table

    def agents(self) -> set[str]:
        """Return the agents the file currently grants."""
        return set(self.table().values())

    def _stamp_now(self) -> tuple[int, int, int]:
        info = self.path.stat()
        return info.st_mtime_ns, info.st_size, info.st_ino

    def _read(self) -> dict[bytes, str]:
        table = parse_token_lines(self.path.read_text(encoding="utf-8"), str(self.path))
        if os.name == "posix" and self.path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            _note(f"warning: {self.path} is open to other users; chmod 600 it")
        return table


TokenSource = Mapping[str, str] | TokenFile
"""Where HTTP tokens come from: ``{token: agent}``, or a token file."""


class AgentTokenVerifier:
    """Accept the configured bearer tokens; each grants exactly one agent's memory.

    The presented token is hashed and compared in constant time with every known digest
    (no early exit). The access token names the agent as its subject and in the
    ``agent_id`` claim; the SDK binds sessions to the subject, so a session opened with
    one agent's token is refused to another's.
    """

    def __init__(self, tokens: TokenSource) -> None:
        """Serve ``tokens``: a ``{token: agent}`` mapping, or a ``TokenFile`` read as it changes."""
        if isinstance(tokens, TokenFile):
            self._table: Callable[[], Mapping[bytes, str]] = tokens.table
        else:
            fixed = token_table(tokens)
            self._table = lambda: fixed

    async def verify_token(self, token: str) -> AccessToken | None:
        """Return an access grant naming the token's agent, ``None`` for an unknown token."""
        presented = token_digest(token)
        agent: str | None = None
        for digest, owner in self._table().items():
            if hmac.compare_digest(presented, digest):
                agent = owner
        if agent is None:
            return None
        return AccessToken(token=token, client_id="elephant-mcp", scopes=[], subject=agent, claims={AGENT_CLAIM: agent})


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


# -- the server -------------------------------------------------------------------------


class MemoryServer(MCPServer[Any]):
    """An ``MCPServer`` whose tool errors are each one readable line.

    The SDK reports refused arguments with pydantic's multi-line text (and its input
    values); here they become ``unknown argument(s): agent_id``, ``missing argument(s):
    text`` or ``limit: Input should be ...``. A crash names only its exception class:
    its text and traceback stay in the server log.
    """

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool by name; any failure is a ``ToolError`` with a one-line message."""
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as error:
            kind = type(error.__cause__).__name__ if error.__cause__ else "error"
            raise UnexpectedToolError(
                f"Error executing tool {name}: internal error ({kind}); the server log has the details"
            ) from error.__cause__
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_one_line(f"Error executing tool {name}: {arguments_problem(cause)}")) from cause
            raise ToolError(_one_line(str(error))) from cause


def arguments_problem(error: ValidationError) -> str:
    """Say in one line what is wrong with a tool's arguments (names, never values)."""
    unknown: list[str] = []
    missing: list[str] = []
    others: list[str] = []
    for problem, message in zip(error.errors(), error_messages(error), strict=True):
        where = ".".join(str(part) for part in problem.get("loc", ()))[:60]
        if problem["type"] == "extra_forbidden":
            unknown.append(where)
        elif problem["type"] == "missing":
            missing.append(where)
        else:
            others.append(message)
    parts = []
    if unknown:
        shown = ", ".join(unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        parts.append(f"unknown argument(s): {shown}")
    if missing:
        parts.append(f"missing argument(s): {', '.join(missing)}")
    parts.extend(others)
    return "; ".join(parts) or "invalid arguments"


def build_server(
    broker: Broker,
    *,
    agent: str | None = None,
    tokens: TokenSource | None = None,
    base_url: str = "http://127.0.0.1",
) -> MemoryServer:
    """Return an MCP server whose tools call ``broker`` for one agent, or for each token's agent.

    Args:
        broker: The memory every tool call uses.
        agent: Without ``tokens``: the one agent every call acts for (default: the
            broker's ``agent_id``, i.e. ``ELEPHANT_AGENT``, else ``default``).
        tokens: For HTTP: the bearer tokens requests must carry and the agent each grants;
            every call then acts for the agent of its request's token.
        base_url: Where the HTTP server is reached (required by the SDK's auth settings).

    Raises:
        ValueError: If ``agent`` and ``tokens`` are both given, or an agent id is invalid.
    """
    auth: dict[str, Any] = {}
    if tokens is None:
        pinned = check_agent(agent or broker.context.agent_id)

        def current_agent() -> str:
            return pinned

    else:
        if agent is not None:
            raise ValueError("the agent comes from each token; do not name one for the server as well")
        # A resource server with fixed tokens: no OAuth routes or metadata are served
        # (resource_server_url=None); the issuer URL is required by the model but unused.
        auth = {
            "token_verifier": AgentTokenVerifier(tokens),
            "auth": AuthSettings(issuer_url=AnyHttpUrl(base_url), resource_server_url=None),
        }
        current_agent = _agent_of_request

    writes = threading.Lock()

    def remember(
        text: Annotated[str, Field(description="What was said or learnt, in Chinese or English.")],
        speaker: Speaker = None,
        session_id: SessionId = None,
        source: Source = None,
    ) -> Annotated[CallToolResult, IngestReport]:
        """Remember a text: extract its facts and merge them into the knowledge graph.

        Use it for what the user tells you about themselves, other people, tools and plans.
        Facts keep a link to this text (an episode). A fact that contradicts what is known
        is recorded as a conflict, decided by policy or left open for `resolve_conflict`.
        Returns counts of new episodes, facts, entities and conflicts.
        """
        scope = current_agent()
        with writes:
            report = _call(
                "remember",
                lambda: broker.remember(text, speaker=speaker, agent_id=scope, session_id=session_id, source=source),
            )
        return _result(_ingest_text(report), report)

    def remember_facts(
        facts: Annotated[
            list[FactStatement],
            Field(
                min_length=1,
                max_length=MAX_GIVEN_FACTS,
                description="The facts: subject, predicate, object; optionally their types, confidence, negated, "
                "valid_from.",
            ),
        ],
        text: Annotated[
            str | None,
            Field(
                description="The text the facts were taken from, kept as their episode (what `recall` finds). "
                "Default: each fact, written as a sentence, is its own episode."
            ),
        ] = None,
        speaker: Speaker = None,
        session_id: SessionId = None,
        source: Source = None,
    ) -> Annotated[CallToolResult, IngestReport]:
        """Remember facts you have already extracted (subject, predicate, object), without the text being read.

        Use it when you know the structure: "Alice works at Acme" as subject Alice (Person),
        predicate "works at", object Acme (Organization). Names are matched with what memory
        knows, predicates with their synonyms; a fact that contradicts memory is recorded as a
        conflict, as with `remember`. Sending the same facts again adds nothing.
        Returns counts of new episodes, facts, entities and conflicts.
        """
        scope = current_agent()

        def run() -> IngestReport:
            rows = [{**fact.model_dump(), "episode": text} for fact in facts]
            return broker.remember_facts(rows, speaker=speaker, agent_id=scope, session_id=session_id, source=source)

        with writes:
            report = _call("remember_facts", run)
        return _result(_ingest_text(report), report)

    def recall(
        query: Annotated[str, Field(description="What to look for, in words (a topic, a name, a question).")],
        speaker: Speaker = None,
        limit: Annotated[int, Field(ge=1, le=100, description="How many episodes at most.")] = 10,
    ) -> Annotated[CallToolResult, Recalled]:
        """Find the remembered texts (episodes) most relevant to a query, best first.

        Fuses embedding similarity, keyword (BM25) matches and a walk over the people and things
        the query names: the same retrieval `ask` cites its episodes from. Use it to see
        what was actually said; use `ask` for an answer built from facts.
        """
        scope = current_agent()
        found = _call("recall", lambda: broker.recall(query, k=limit, speaker=speaker, agent_id=scope))
        return _result(describe_episodes(found), Recalled(episodes=found))

    def ask(
        question: Annotated[str, Field(description="The question, in Chinese or English.")],
        speaker: Speaker = None,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, Answer]:
        """Answer a question from memory, with the facts and episodes the answer rests on.

        Follows relations over several hops when needed (who founded the company where X
        works?). Each fact has an id, a confidence and the episodes it came from; cite them.
        Facts that used to be true are listed as history.
        """
        scope = current_agent()
        answer = _call("ask", lambda: broker.ask(question, speaker=speaker, agent_id=scope, session_id=session_id))
        return _result(describe_answer(answer), answer)

    def list_conflicts() -> Annotated[CallToolResult, ConflictList]:
        """List contradictions between facts: open ones awaiting a decision first, then decided ones.

        An open conflict holds back the text that caused it until `resolve_conflict` decides.
        """
        scope = current_agent()
        found = _call("list_conflicts", lambda: broker.conflicts(agent_id=scope))
        return _result(_conflicts_text(found), ConflictList(conflicts=found))

    def resolve_conflict(
        conflict_id: ConflictId,
        keep: Annotated[
            Literal["new", "old", "both"],
            Field(
                description="new: the new fact replaces the old (kept as history); old: reject the new fact; "
                "both: both hold."
            ),
        ],
    ) -> Annotated[CallToolResult, Conflict]:
        """Settle an open conflict; the text it held back is then remembered with the decision."""
        scope = current_agent()
        # Broker.resolve looks the id up in this agent's memory only: another agent's
        # conflict id is answered like an unknown one.
        with writes:
            conflict = _call("resolve_conflict", lambda: broker.resolve(conflict_id, keep, agent_id=scope))
        return _result(f"Conflict {conflict.id}: {conflict.decision}. {_conflict_line(conflict)}", conflict)

    def feedback(
        answer_id: AnswerId,
        verdict: Annotated[Literal["right", "wrong"], Field(description="Whether the answer was right.")],
        correction: Annotated[
            str | None,
            Field(description="What is true instead, in the user's words; remembered so it supersedes."),
            _checked("text", "correction"),
        ] = None,
    ) -> Annotated[CallToolResult, FeedbackReport]:
        """Tell memory an answer was right or wrong; the facts it cited become more or less certain.

        Use it when the user confirms or corrects something you answered from memory. A
        correction is remembered with high authority, so it replaces the wrong fact.
        """
        scope = current_agent()
        with writes:
            report = _call("feedback", lambda: broker.feedback(answer_id, verdict, correction, agent_id=scope))
        changed = len(report.lowered) if verdict == "wrong" else len(report.raised)
        added = f" The correction added {report.correction.facts} fact(s)." if report.correction else ""
        return _result(f"Answer {answer_id}: {verdict}; {changed} fact(s) updated.{added}", report)

    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    # Nothing is ever deleted: a retired fact stays as history, a rejected one as a record.
    writing = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    tools = [
        # getdoc, not __doc__: the model should read the docstring without its indentation.
        _refusing_unknown_arguments(Tool.from_function(tool, description=inspect.getdoc(tool), annotations=hints))
        for tool, hints in (
            (remember, writing),
            (remember_facts, writing),
            (recall, reading),
            (ask, reading),
            (list_conflicts, reading),
            (resolve_conflict, writing),
            (feedback, writing),
        )
    ]
    return MemoryServer(
        "elephant-broker",
        version=_version(),
        instructions=INSTRUCTIONS,
        lifespan=_warm_up_lifespan(broker),
        log_level="WARNING",
        tools=tools,
        **auth,
    )


def serve_stdio(broker: Broker, agent: str | None = None) -> None:
    """Serve the tools for ``agent`` over stdin/stdout until the client closes them."""
    build_server(broker, agent=agent).run("stdio")


def serve_http(broker: Broker, host: str, port: int, tokens: TokenSource, allowed_hosts: Iterable[str] = ()) -> None:
    """Serve the tools over streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    import uvicorn

    base = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    app = build_server(broker, tokens=tokens, base_url=base).streamable_http_app(
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


def _agent_of_request() -> str:
    """Return the agent of the current request's access token (HTTP)."""
    access = get_access_token()
    agent = (access.claims or {}).get(AGENT_CLAIM) if access is not None else None
    if not isinstance(agent, str) or not agent:
        # Unreachable behind the SDK's auth middleware; refuse rather than fall back.
        raise ToolError("this request carries no agent: send a bearer token")
    return agent


def _refusing_unknown_arguments(tool: Tool) -> Tool:
    """Make ``tool`` refuse arguments it does not declare (the SDK drops them silently).

    Its argument model gets ``extra="forbid"``, so its published schema also says
    ``additionalProperties: false``.
    """
    loose = tool.fn_metadata.arg_model
    strict = cast(
        type[ArgModelBase],
        type(loose.__name__, (loose,), {"model_config": ConfigDict(extra="forbid"), "__module__": __name__}),
    )
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool


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
            _note(f"memory not ready: {error}")

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


def _call(name: str, action: Callable[[], T]) -> T:
    """Run a broker call; expected failures become tool errors with one clear line.

    Bad input is explained to the client. A store or file failure is not: its text names
    hosts and paths of this machine, so it goes to the server log and the client learns
    only what failed.
    """
    try:
        return action()
    except ValidationError as error:
        raise ToolError(_one_line(error_messages(error)[0])) from error
    except StoreError as error:
        _note(f"{name}: {error}")
        raise ToolError("the memory store failed; the server log has the details") from error
    except OSError as error:
        _note(f"{name}: {error}")
        raise ToolError("the server could not read or write its data; the server log has the details") from error
    except ValueError as error:
        raise ToolError(_one_line(str(error))) from error


def _note(message: str) -> None:
    """Write one line to the server log (stderr: stdout may belong to the protocol)."""
    print(f"elephant mcp: {_one_line(message)}", file=sys.stderr, flush=True)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _result(text: str, value: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=value.model_dump(mode="json")
    )


def _ingest_text(report: IngestReport) -> str:
    text = (
        f"Remembered {report.episodes} episode(s): {report.facts} new fact(s), "
        f"{report.entities} new entit(ies), {report.conflicts} conflict(s)."
    )
    if report.reread:
        text += f" Read again with the model: {report.reread} episode(s) whose earlier reading had fallen back."
    if report.conflicts and not report.episodes:
        text += " The text contradicts memory and waits for review: see list_conflicts, then resolve_conflict."
    return " ".join([text, *(f"Note: {note}" for note in report.notes)])


def _conflict_line(conflict: Conflict) -> str:
    old, new = conflict.old_fact, conflict.new_fact
    return f"old: {sentence_of(old)} [{old.id}]; new: {sentence_of(new)} [{new.id}]"


def _conflicts_text(conflicts: list[Conflict]) -> str:
    if not conflicts:
        return "No conflicts."
    lines = []
    for conflict in conflicts:
        state = "open" if conflict.status == "open" else f"decided {conflict.decision} by {conflict.decided_by}"
        reason = f" ({conflict.reason})" if conflict.reason else ""
        lines.append(f"- {conflict.id} [{conflict.kind}, {state}]{reason}: {_conflict_line(conflict)}")
    return "\n".join(lines)
