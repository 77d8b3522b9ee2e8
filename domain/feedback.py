"""Feedback on answers and what the memory learns from it about the agent (meta-cognition).

Every kept answer (``AnswerRecord``) cites facts. A *wrong* verdict halves the confidence
of those facts and of every fact concluded from them (``GraphStore.derived_closure``: the
propagation distrusted sources use); *right* closes a bounded step of their gap to full
confidence, so praise never makes a fact certain. A correction is remembered by the caller
as an episode of the high-authority ``CORRECTION_SOURCE``, so the normal conflict path
lets it supersede what it corrects.

Notes are error patterns: per question kind (from verdicts) and per tool (from failed
calls), each count weighed by age with the decay half-life of time-sensitive facts, so an
old bad record fades. A pattern with enough recent wrong answers, and wrong at least half
the time, becomes a reminder attached to the next question of that kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from elephant_broker.domain.evidence import half_life_factor
from elephant_broker.language.segment import has_cjk
from elephant_broker.schemas.models import AgentNote, AnswerRecord, FactUpdate, Verdict
from elephant_broker.store import GraphStore

WRONG_FACTOR = 0.5
"""A wrong verdict multiplies the cited facts' confidence (and their conclusions') by this."""
RIGHT_STEP = 0.2
"""A right verdict closes this share of each cited fact's gap to confidence 1."""
NOTE_MIN_WEIGHT = 2.5
"""Age-weighed wrong answers a pattern needs to become a note: about three recent ones."""
NOTE_MIN_SHARE = 0.5
"""And the share of its judged answers that were wrong (weighed alike)."""
OPEN_KIND = "open"
"""The kind of a question that asks for no particular kind of thing."""


@dataclass(frozen=True)
class ToolCall:
    """One call of a tool as the memory saw it (recorded by the agent middleware)."""

    tool: str
    ok: bool
    created_at: int
    episode_id: str | None = None


def feedback_updates(
    store: GraphStore, scope: str, record: AnswerRecord, verdict: Verdict
) -> tuple[list[FactUpdate], list[str]]:
    """Return (confidence cuts, facts to raise) for a verdict on an answer.

    Wrong: every cited fact and every fact derived from them is cut by ``WRONG_FACTOR``.
    Right: the cited facts are raised by ``RIGHT_STEP`` (nothing is cut).
    """
    cited = list(dict.fromkeys(record.fact_ids))
    if verdict == "right":
        return [], cited
    lowered = [*cited, *(fid for fid in store.derived_closure(scope, cited) if fid not in cited)]
    return [FactUpdate(fact_id=fid, confidence_factor=WRONG_FACTOR) for fid in lowered], []


def agent_notes(
    answers: Sequence[AnswerRecord], calls: Iterable[ToolCall], now: int, half_life_days: float
) -> list[AgentNote]:
    """Return the agent's error patterns, worst first: question kinds, then tools."""
    notes: list[AgentNote] = []
    by_kind: dict[str, list[AnswerRecord]] = {}
    for record in answers:
        if record.verdict is not None:
            by_kind.setdefault(record.kind or OPEN_KIND, []).append(record)
    for kind, records in by_kind.items():
        records.sort(key=lambda record: record.feedback_at or record.created_at, reverse=True)
        marks = [(record.verdict == "wrong", record.feedback_at or record.created_at) for record in records]
        correction = next((record.correction for record in records if record.correction), None)
        wrong_ids = [record.id for record in records if record.verdict == "wrong"]
        note = _note("question", kind, marks, now, half_life_days, wrong_ids, correction)
        if note is not None:
            notes.append(note)
    by_tool: dict[str, list[ToolCall]] = {}
    for call in calls:
        by_tool.setdefault(call.tool, []).append(call)
    for tool, tool_calls in by_tool.items():
        tool_calls.sort(key=lambda call: call.created_at, reverse=True)
        marks = [(not call.ok, call.created_at) for call in tool_calls]
        failed = [call.episode_id for call in tool_calls if not call.ok and call.episode_id]
        note = _note("tool", tool, marks, now, half_life_days, failed, None)
        if note is not None:
            notes.append(note)
    return sorted(notes, key=lambda note: (note.about != "question", -note.weight, note.name))


def reminders_for(kind: str | None, question: str, notes: Iterable[AgentNote]) -> list[str]:
    """Return the reminders of the notes about questions of this kind, in the question's language."""
    wanted = kind or OPEN_KIND
    chinese = has_cjk(question)
    return [_reminder(note, chinese) for note in notes if note.about == "question" and note.name == wanted]


def _note(
    about: str,
    name: str,
    marks: Sequence[tuple[bool, int]],
    now: int,
    half_life_days: float,
    evidence: list[str],
    correction: str | None,
) -> AgentNote | None:
    weights = [(wrong, half_life_factor(now, at, half_life_days)) for wrong, at in marks]
    wrong_weight = sum(weight for wrong, weight in weights if wrong)
    total_weight = sum(weight for _, weight in weights)
    if wrong_weight < NOTE_MIN_WEIGHT or wrong_weight < NOTE_MIN_SHARE * total_weight:
        return None
    note = AgentNote(
        about="question" if about == "question" else "tool",
        name=name,
        wrong=sum(1 for wrong, _ in marks if wrong),
        total=len(marks),
        weight=round(wrong_weight, 3),
        last_correction=correction,
        evidence=evidence[:10],
    )
    return note.model_copy(update={"reminder": _reminder(note, False)})


def _reminder(note: AgentNote, chinese: bool) -> str:
    if note.about == "tool":
        if chinese:
            return f"工具 {note.name} 最近 {note.total} 次调用中失败了 {note.wrong} 次。"
        return f"calls of the tool {note.name} failed {note.wrong} of {note.total} times."
    if chinese:
        said = f"；最近一次更正：{note.last_correction}" if note.last_correction else ""
        return f"这类问题（{note.name}）的回答 {note.total} 次中错了 {note.wrong} 次{said}"
    said = f"; the last correction said: {note.last_correction}" if note.last_correction else ""
    return f"answers to questions like this ({note.name}) were wrong {note.wrong} of {note.total} times{said}"
