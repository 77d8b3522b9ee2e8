"""Notes about the agent fade with age (domain.feedback.agent_notes)."""

from __future__ import annotations

from elephant_broker.domain.feedback import ToolCall, agent_notes, reminders_for
from elephant_broker.schemas.models import AnswerRecord

DAY = 86_400_000
NOW = 1_800_000_000_000


def judged(number: int, kind: str, verdict: str, age_days: float) -> AnswerRecord:
    at = int(NOW - age_days * DAY)
    return AnswerRecord(
        id=f"ans_{number:04x}",
        question="q",
        kind=kind,
        answered=True,
        agent_id="a",
        created_at=at,
        verdict=verdict,  # type: ignore[arg-type]
        feedback_at=at,
    )


def test_recent_wrong_answers_make_a_note_and_old_ones_fade() -> None:
    recent = [judged(n, "Time", "wrong", 1) for n in range(3)]
    (note,) = agent_notes(recent, [], NOW, half_life_days=30)
    assert (note.name, note.wrong, note.total) == ("Time", 3, 3) and note.weight > 2.5
    old = [judged(n, "Time", "wrong", 90) for n in range(3)]
    assert agent_notes(old, [], NOW, half_life_days=30) == []


def test_a_kind_mostly_right_is_no_note() -> None:
    records = [judged(n, "Person", "wrong", 0) for n in range(3)]
    records += [judged(10 + n, "Person", "right", 0) for n in range(4)]
    assert agent_notes(records, [], NOW, half_life_days=30) == []


def test_reminders_speak_the_questions_language_and_tools_have_notes() -> None:
    notes = agent_notes([judged(n, "Place", "wrong", 0) for n in range(3)], [], NOW, 30)
    assert reminders_for("Place", "她住在哪里？", notes)[0].startswith("这类问题（Place）的回答 3 次中错了 3 次")
    assert reminders_for("Place", "Where does she live?", notes)[0].startswith("answers to questions like this")
    assert reminders_for("Time", "When?", notes) == []
    calls = [ToolCall("search", False, NOW - n) for n in range(3)] + [ToolCall("search", True, NOW)]
    (tool_note,) = agent_notes([], calls, NOW, 30)
    assert (tool_note.about, tool_note.name, tool_note.wrong, tool_note.total) == ("tool", "search", 3, 4)
