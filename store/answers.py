"""Store queries for kept answers and the feedback on them.

A mixin of ``GraphStore``; the Cypher runs unchanged on FalkorDB and Neo4j, every value
a parameter. An answer is ``(:Answer {scope, id, kind, created_at, verdict, record})``,
``record`` the ``AnswerRecord`` as JSON: feedback needs the facts it cited, meta-cognition
the kinds of question answered wrongly. A tool call is ``(:ToolCall {scope, id, tool, ok,
created_at, episode_id})``, for the notes about tools. Feedback changes the answer's verdict and the
cited facts' confidence in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from elephant_broker.schemas.models import AnswerRecord

Statement = tuple[str, dict[str, Any]]


class AnswerQueries:
    """Answer records shared by every backend."""

    if TYPE_CHECKING:

        def _read(self, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]: ...

        def _write_atomic(
            self, statements: Sequence[Statement], *, result: Statement | None = None
        ) -> list[dict[str, Any]]: ...

    def record_answer(self, scope: str, record: AnswerRecord) -> None:
        """Keep an answer so feedback can reach what it cited."""
        self._write_atomic([answer_statement(scope, record)])

    def answer_record(self, scope: str, answer_id: str) -> AnswerRecord | None:
        """Return one kept answer of this scope, or None."""
        rows = self._read(
            "MATCH (a:Answer {id: $id}) WHERE a.scope = $scope RETURN a.record AS record",
            {"scope": scope, "id": answer_id},
        )
        return AnswerRecord.model_validate_json(rows[0]["record"]) if rows else None

    def judged_answers(self, scope: str, limit: int = 1000) -> list[AnswerRecord]:
        """Return the answers that received feedback, newest first."""
        rows = self._read(
            "MATCH (a:Answer) WHERE a.scope = $scope AND a.verdict IS NOT NULL "
            "RETURN a.record AS record ORDER BY a.created_at DESC LIMIT $limit",
            {"scope": scope, "limit": limit},
        )
        return [AnswerRecord.model_validate_json(row["record"]) for row in rows]

    def record_tool_call(self, scope: str, call_id: str, tool: str, ok: bool, created_at: int, episode_id: str) -> None:
        """Keep one tool call's outcome (the agent middleware records them) for meta-cognition."""
        self._write_atomic(
            [
                (
                    "MERGE (c:ToolCall {scope: $scope, id: $id}) "
                    "SET c.tool = $tool, c.ok = $ok, c.created_at = $at, c.episode_id = $episode",
                    {"scope": scope, "id": call_id, "tool": tool, "ok": ok, "at": created_at, "episode": episode_id},
                )
            ]
        )

    def tool_calls(self, scope: str, limit: int = 1000) -> list[dict[str, Any]]:
        """Return recorded tool calls, newest first: tool, ok, created_at, episode_id."""
        return self._read(
            "MATCH (c:ToolCall) WHERE c.scope = $scope RETURN c.tool AS tool, c.ok AS ok, "
            "c.created_at AS created_at, c.episode_id AS episode_id ORDER BY c.created_at DESC LIMIT $limit",
            {"scope": scope, "limit": limit},
        )


def raise_confidence_statement(scope: str, fact_ids: Sequence[str], step: float, now: int) -> Statement:
    """Return the statement that closes ``step`` of each fact's gap to full confidence."""
    return (
        "UNWIND $ids AS fid MATCH ()-[f:FACT {id: fid}]->() WHERE f.scope = $scope "
        "SET f.confidence = f.confidence + $step * (1.0 - f.confidence), f.updated_at = $now",
        {"scope": scope, "ids": list(fact_ids), "step": step, "now": now},
    )


def answer_statement(scope: str, record: AnswerRecord) -> Statement:
    """Return the statement that writes (or rewrites) one answer record."""
    return (
        "MERGE (a:Answer {scope: $scope, id: $id}) "
        "SET a.kind = $kind, a.created_at = $created_at, a.verdict = $verdict, a.record = $record",
        {
            "scope": scope,
            "id": record.id,
            "kind": record.kind,
            "created_at": record.created_at,
            "verdict": record.verdict,
            "record": record.model_dump_json(),
        },
    )
