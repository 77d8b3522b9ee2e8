"""What the tools tell a model about a remember and an answer: re-reads and notes included."""

from __future__ import annotations

from elephant_broker.broker.describe import describe_answer
from elephant_broker.broker.mcp_server import _ingest_text
from elephant_broker.broker.tools import describe_report
from elephant_broker.schemas.models import Answer, Episode, IngestReport, RelatedMemories

NOTE = "model openai:m at http://127.0.0.1:9/v1 timed out; the offline Reader read the text instead"


def test_a_reread_is_not_reported_as_already_remembered() -> None:
    report = IngestReport(episodes=0, reread=1, facts=2, entities=1, notes=[])
    text = describe_report(report, [], [])
    assert text.startswith("Read again with the model: 2 new facts, 1 new entity")
    assert "Already remembered" not in text
    assert "Read again with the model: 1 episode(s)" in _ingest_text(report)


def test_a_stored_text_read_well_is_already_remembered() -> None:
    assert describe_report(IngestReport(), [], []).startswith("Already remembered")


def test_notes_reach_the_model() -> None:
    report = IngestReport(episodes=1, facts=1, entities=2, notes=[NOTE])
    assert f"Note: {NOTE}" in describe_report(report, [], [])
    assert _ingest_text(report).endswith(f"Note: {NOTE}")
    answer = Answer(answer="Initech.", notes=["the answer was composed offline"])
    assert describe_answer(answer).splitlines()[-1] == "Note: the answer was composed offline"


def test_an_abstention_says_why_and_lists_the_related_memories_apart() -> None:
    related = Episode(
        id="ep_1", agent_id="a", session_id="s", speaker="Lena", source="chat", text="I quit Siemens.", created_at=0
    )
    answer = Answer(
        answer="Not in memory: nothing stored answers this.",
        answered=False,
        reason="wrong_kind",
        related=RelatedMemories(episodes=[related]),
    )
    lines = describe_answer(answer).splitlines()
    assert lines[0] == "Not in memory: nothing stored answers this."
    assert "Not answered: memories bear on the question, but none says the kind of thing asked." in lines
    assert lines.index("Related (not an answer):") < next(i for i, line in enumerate(lines) if "[ep_1]" in line)
    assert "Facts:" not in lines and "Sources:" not in lines
