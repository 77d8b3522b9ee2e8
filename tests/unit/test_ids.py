"""The boundary rules of ``schemas.ids`` and the unambiguous id encoding."""

from __future__ import annotations

import hashlib
import re

import pytest
from elephant_broker.broker.ingest_files import read_perceptions, source_name
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import (
    check_conflict_id,
    check_fact_ids,
    check_id,
    check_merge_id,
    check_name,
    check_text,
    error_line,
    stable_id,
)
from elephant_broker.schemas.models import Perception, Question
from elephant_broker.store.base import entity_id
from pydantic import ValidationError

# Pairs of part lists that the old "\x1f".join(parts) hashed alike.
COLLIDING = [
    pytest.param(("a\x1fb", "c"), ("a", "b\x1fc"), id="separator-moves"),
    pytest.param(("agent\x1fA", "key"), ("agent", "A\x1fkey"), id="scope-borrows-key"),
    pytest.param(("a\x1f", "b"), ("a", "\x1fb"), id="separator-at-edges"),
    pytest.param(("a\x1f\x1fb",), ("a", "", "b"), id="empty-part"),
    pytest.param(("a\x1b\x1fb",), ("a\x1b", "b"), id="escape-before-separator"),
    pytest.param(("a\x1b_b",), ("a\x1fb",), id="escaped-form-written-out"),
    pytest.param(("a\x1b\x1b", "b"), ("a\x1b", "\x1bb"), id="double-escape"),
    pytest.param(("x" * 5 + "\x1f", ""), ("x" * 5, "\x1f"), id="trailing-separator"),
]


@pytest.mark.parametrize(("left", "right"), COLLIDING)
def test_stable_id_tells_apart_parts_the_plain_join_confused(left: tuple[str, ...], right: tuple[str, ...]) -> None:
    assert left != right
    assert stable_id("x_", *left, length=40) != stable_id("x_", *right, length=40)


@pytest.mark.parametrize(
    "parts",
    [("default", "小李"), ("a", "b", "", "c"), ("agent-7", "Bob\\", "a\\1b", "' OR 1=1"), ("only",), ("", "")],
)
def test_stable_id_keeps_the_ids_of_ordinary_values(parts: tuple[str, ...]) -> None:
    # Stores made before the encoding hold "\x1f".join(parts) ids: they must still match.
    old = hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:20]
    assert stable_id("p_", *parts, length=20) == "p_" + old


def test_entity_ids_of_two_agents_no_longer_meet() -> None:
    assert entity_id("A\x1fx", "y") != entity_id("A", "x\x1fy")
    assert entity_id("default", "acme") == "ent_" + hashlib.sha1(b"default\x1facme").hexdigest()[:16]


def test_stable_id_hashes_a_lone_surrogate_instead_of_crashing() -> None:
    assert re.fullmatch(r"e_[0-9a-f]{8}", stable_id("e_", "\ud800", length=8))


@pytest.mark.parametrize(
    "value", ["default", "agent-7", "小李", "alice@example.com", "team:ops.v2", "a_b", "Ωmega", "x"]
)
def test_ids_that_are_accepted(value: str) -> None:
    assert check_id(value) == value
    assert Context(agent_id=value).agent_id == value


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (" alice", "U+0020"),
        ("alice ", "U+0020"),
        ("ali\tce", "U+0009"),
        ("alice\u200b", "U+200B"),
        ("alice\u202e", "U+202E"),
        ("a\x00", "U+0000"),
        ("a\x1fb", "U+001F"),
        ("", "empty"),
        ("x" * 129, "at most 128"),
        ("-alice", "start with a letter"),
        ("alice.", "not end with punctuation"),
        ("a/b", "'/'"),
        ("../etc", "'/'"),
        ("e\u0301", "NFC"),
        ("$scope", "'$'"),
    ],
)
def test_ids_that_are_refused_name_the_field(value: str, why: str) -> None:
    with pytest.raises(ValueError, match="^agent_id[: ]") as caught:
        check_id(value)
    assert why in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="agent_id"):
        Context(agent_id=value)


@pytest.mark.parametrize("value", ["Mary Ann", "小李", "O'Brien", "Bob\\", "a\\1b", "{0}", "' OR 1=1", "👩‍💻 dev"])
def test_names_that_are_accepted(value: str) -> None:
    assert check_name(value) == value


@pytest.mark.parametrize(
    "value",
    [
        " Bob",
        "Bob ",
        "Mary  Ann",
        "Bob\n",
        "Bob\r\nagent_id: B",
        "\u200bBob",
        "Bob\u00a0",
        "   ",
        "\ufffe",
        "Bob\u200d",
    ],
)
def test_names_that_are_refused(value: str) -> None:
    with pytest.raises(ValueError, match="^speaker"):
        check_name(value, "speaker")


def test_texts_keep_tabs_and_line_breaks_and_refuse_other_controls() -> None:
    assert check_text("line one\r\n\tline two") == "line one\r\n\tline two"
    for bad in ("a\x00b", "a\x1bb", "a\x7fb", "a\ud800b", "a\uffffb"):
        with pytest.raises(ValueError, match="^text: U\\+"):
            check_text(bad)


def test_shaped_ids() -> None:
    assert check_fact_ids(["fact_0123abcd"]) == ["fact_0123abcd"]
    assert check_conflict_id("conflict_0123456789abcdef")
    assert check_merge_id("mrg_0123456789abcdef")
    for check, bad in (
        (check_conflict_id, "conflict_XYZ"),
        (check_merge_id, "mrg_12\n"),
        (check_conflict_id, "fact_1234"),
        (lambda value: check_fact_ids([value]), "fact_12 OR 1=1"),
    ):
        with pytest.raises(ValueError, match="not a (fact|conflict|merge) id"):
            check(bad)
    with pytest.raises(ValueError, match="at most 100 fact ids"):
        check_fact_ids(["fact_1"] * 101)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"agent_id": "B "}, "agent_id"),
        ({"session_id": "s\n1"}, "session_id"),
        ({"speaker": "Bob\x00"}, "speaker"),
        ({"source": " wiki"}, "source"),
        ({"time": "2026\x00"}, "time"),
        ({"external_id": "D1:3\r\n"}, "external_id"),
        ({"derived_from": ["x"]}, "derived_from"),
        ({"text": "a\x00b"}, "text"),
    ],
)
def test_perception_refuses_with_one_line_naming_the_field(fields: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Perception.model_validate({"text": "hello", **fields})
    line = error_line(caught.value)
    assert line.startswith(f"{field}:") and "\n" not in line


def test_question_checks_its_fields() -> None:
    with pytest.raises(ValidationError, match="question: U\\+0000"):
        Question(question="who\x00")
    with pytest.raises(ValidationError, match="as_of: at most 100"):
        Question(question="who", as_of="2" * 101)
    with pytest.raises(ValidationError, match="as_of: not an ISO date"):
        Question(question="who", as_of="yesterday")
    # Only None means "not given": an explicitly empty id is refused (an unset shell variable
    # passed as --agent "$AGENT" must not fall back to the default agent's memory).
    assert Question(question="who", agent_id=None, speaker=None).agent_id is None
    with pytest.raises(ValidationError, match="agent_id is empty"):
        Question(question="who", agent_id="")
    with pytest.raises(ValidationError, match="speaker is empty"):
        Question(question="who", speaker="")


@pytest.mark.parametrize("speaker", ["Bob\\", "a\\1b", "x\\g<0>y", "\\"])
def test_first_person_takes_the_speaker_literally(speaker: str) -> None:
    assert resolve_first_person("我住在哪里？ Where do I live, my friend?", speaker) == (
        f"{speaker}住在哪里？ Where do {speaker} live, {speaker}'s friend?"
    )


def test_a_file_name_becomes_a_valid_source(tmp_path: object) -> None:
    from pathlib import Path

    assert source_name(Path("notes  v2\u200b.txt")) == "notes v2.txt"
    assert source_name(Path("\u200b")) == "file"
    assert check_name(source_name(Path("x" * 250 + ".txt")), "source")


def test_a_turn_line_may_not_choose_the_agent(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "turns.jsonl"
    path.write_text('{"speaker": "Ann", "text": "Hi."}\n{"speaker": "Bo", "text": "Yo.", "agent_id": "B"}\n')
    with pytest.raises(ValueError, match=r"turns.jsonl:2: a file may not choose the agent"):
        read_perceptions(path, agent_id="A")


def test_a_turn_line_with_a_line_separator_inside_a_string_stays_one_line(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "turns.jsonl"
    path.write_text('{"speaker": "Ann", "text": "one\u2028two"}\n{"speaker": 7, "text": "Yo."}\n', encoding="utf-8")
    turns = read_perceptions(path)
    assert [turn.text for turn in turns] == ["one\u2028two", "Yo."] and turns[1].speaker == "7"
    path.write_text('{"speaker": ["Ann"], "text": "Hi."}\n')
    with pytest.raises(ValueError, match=r"turns.jsonl:1: speaker must be a string, not list"):
        read_perceptions(path)


def test_a_nul_in_a_text_file_is_reported_with_its_line(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "notes.txt"
    path.write_text("Alice works at Acme.\n\nBob lives in\x00 Paris.\n")
    with pytest.raises(ValueError, match=r"notes.txt:3: text: U\+0000"):
        read_perceptions(path)
