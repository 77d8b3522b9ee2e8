"""The audit log: one JSON line per read or write of a memory, appended to ``<home>/audit.jsonl``.

A record says who (agent, session, surface: python, cli, mcp, api, middleware), when,
which operation, which ids it touched, and the SHA-256 of any query text (a question, a
search, a generated Cypher query) — never the text itself, so the log holds no secret and
no value masking hid. Lines are appended with one ``write`` on a file opened for
appending, so writers in several processes never interleave within a line; nothing in
this module rewrites or truncates the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from elephant_broker.schemas.context import Context
from pydantic import BaseModel, Field

AUDIT_FILE = "audit.jsonl"
SURFACES = ("python", "cli", "mcp", "api", "middleware")
"""Where a call came in: the Python API, the command line, an MCP tool, the HTTP API, the agent middleware."""

_lock = threading.Lock()


class AuditRecord(BaseModel):
    """One access to a memory."""

    at: str = Field(description="When, ISO 8601 in UTC.")
    surface: str
    agent: str
    session: str | None = None
    operation: str
    ids: list[str] = Field(default_factory=list, description="Episodes, facts, answers, conflicts touched.")
    query_sha256: list[str] = Field(default_factory=list, description="Hashes of the query texts, never the texts.")


def digest(text: str) -> str:
    """Return the SHA-256 hex digest of a text (what the log keeps of a query)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AuditLog:
    """Append-only access records of one data directory."""

    def __init__(self, home: str | Path) -> None:
        self.path = Path(home) / AUDIT_FILE

    def append(
        self,
        *,
        surface: str,
        agent: str,
        operation: str,
        session: str | None = None,
        ids: Iterable[str] = (),
        queries: Iterable[str] = (),
        hashes: Iterable[str] = (),
    ) -> AuditRecord:
        """Record one access; ``queries`` are hashed here, ``hashes`` are digests already made."""
        record = AuditRecord(
            at=datetime.now(UTC).isoformat(timespec="milliseconds"),
            surface=surface,
            agent=agent,
            session=session,
            operation=operation,
            ids=list(dict.fromkeys(ids)),
            query_sha256=[*(digest(text) for text in queries), *hashes],
        )
        line = (record.model_dump_json() + "\n").encode("utf-8")
        with _lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(descriptor, line)
            finally:
                os.close(descriptor)
        return record

    def records(self, agent: str | None = None, since: datetime | None = None) -> Iterator[AuditRecord]:
        """Yield the records, oldest first, optionally of one agent and from an instant on."""
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    continue
                record = AuditRecord.model_validate(json.loads(line))
                if agent is not None and record.agent != agent:
                    continue
                if since is not None and datetime.fromisoformat(record.at) < since:
                    continue
                yield record


def audit_api_run(
    run_context: object,
    context: Context,
    operation: str,
    scope: str,
    *,
    session: str | None = None,
    ids: Iterable[str] = (),
    queries: Iterable[str] = (),
    hashes: Iterable[str] = (),
) -> None:
    """Record a graph run that reached the graphs without a ``Broker`` (surface ``api``).

    A ``Broker`` runs the graphs with a full ``Context`` and records its own calls; a run
    through the LangGraph API (``langgraph dev``, a LangGraph server) carries only the run's
    choices (a ``RunContext``) or nothing, and is recorded here, by the graph's last node.
    """
    if isinstance(run_context, Context) or not context.audit:
        return
    AuditLog(context.home).append(
        surface="api", agent=scope, operation=operation, session=session, ids=ids, queries=queries, hashes=hashes
    )


def audit_rows(records: Iterable[AuditRecord]) -> list[dict[str, Any]]:
    """Return records as JSON-ready dicts (the ``elephant audit --json`` list)."""
    return [record.model_dump(mode="json") for record in records]
