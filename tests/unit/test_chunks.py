"""Sentence-aware splitting of long texts, file chunks and per-call text bounds."""

from __future__ import annotations

import re

import pytest
from elephant_broker.broker.ingest_files import split_text
from elephant_broker.language.chunks import MAX_EPISODE_CHARS, MAX_TEXT_CHARS, split_long, split_perception
from elephant_broker.schemas.models import Perception
from pydantic import ValidationError

EN_SENTENCE = "Alice moved to Berlin in 2021 and works at Acme Corp. "
ZH_SENTENCE = "小李在阿里巴巴工作，周末喜欢去西湖边跑步。"


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _assert_pieces(text: str, pieces: list[str], limit: int) -> None:
    assert pieces, "a non-blank text gives at least one piece"
    assert all(0 < len(piece) <= limit for piece in pieces)
    assert all(piece == piece.strip() for piece in pieces)
    # Consecutive slices: nothing lost, nothing repeated (whitespace at the cuts aside).
    assert _squeeze("".join(pieces)) == _squeeze(text)


def test_a_text_that_fits_is_returned_unchanged() -> None:
    text = "  Alice works at Acme.  "
    assert split_long(text, 100) == [text]
    assert split_long("   \n ", 100) == []


@pytest.mark.parametrize(
    "text",
    [
        EN_SENTENCE * 100,
        ZH_SENTENCE * 200,
        "\n".join([EN_SENTENCE.strip(), ZH_SENTENCE] * 80),
        'He said "I am done." Then he left! Did he? ' * 120,
        "他说：“我走了。”然后就走了……真的吗？是的！" * 120,
    ],
    ids=["english", "chinese", "mixed-lines", "english-quotes", "chinese-quotes"],
)
def test_long_text_is_cut_at_sentence_ends(text: str) -> None:
    pieces = split_long(text, 500)
    _assert_pieces(text, pieces, 500)
    assert len(pieces) > 1
    enders = ("。", "！", "？", "；", "…", ".", "!", "?", '"', "”")
    assert all(piece.endswith(enders) for piece in pieces)


def test_sentences_are_packed_up_to_the_limit() -> None:
    pieces = split_long(EN_SENTENCE * 100, 500)
    per_piece = 500 // len(EN_SENTENCE)
    assert [piece.count("Alice") for piece in pieces[:-1]] == [per_piece] * (len(pieces) - 1)


def test_a_dot_inside_a_word_or_number_is_no_sentence_end() -> None:
    sentence = "Node.js 3.14 runs at example.com for Acme Corp. "
    pieces = split_long(sentence * 40, len(sentence) * 3)
    assert all(piece.endswith("Corp.") for piece in pieces)


@pytest.mark.parametrize(
    ("text", "ending"),
    [
        (("word " * 40 + "tail, ") * 30, ("word", "tail,")),
        ("，".join(["小李在阿里巴巴工作"] * 300), ("，", "作")),
    ],
    ids=["latin-words", "chinese-commas"],
)
def test_an_overlong_sentence_is_cut_after_a_comma_or_between_words(text: str, ending: tuple[str, ...]) -> None:
    pieces = split_long(text, 300)
    _assert_pieces(text, pieces, 300)
    assert all(piece.endswith(ending) for piece in pieces)
    assert all(len(piece) > 250 for piece in pieces[:-1])  # cut late, not at the first comma


@pytest.mark.parametrize("text", ["X" * 10_000, "张" * 10_000, "😀" * 3_001], ids=["latin", "chinese", "emoji"])
def test_a_text_without_any_break_is_hard_cut(text: str) -> None:
    pieces = split_long(text, MAX_EPISODE_CHARS)
    _assert_pieces(text, pieces, MAX_EPISODE_CHARS)
    assert [len(piece) for piece in pieces[:-1]] == [MAX_EPISODE_CHARS] * (len(pieces) - 1)


def test_the_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        split_long("text", 0)


def test_split_long_is_linear_on_a_megabyte() -> None:
    text = (EN_SENTENCE + ZH_SENTENCE) * 15_000  # about 1.1 MB, one paragraph
    pieces = split_long(text)
    _assert_pieces(text, pieces, MAX_EPISODE_CHARS)
    assert len(pieces) < len(text) / (MAX_EPISODE_CHARS - len(EN_SENTENCE + ZH_SENTENCE)) + 1


def test_file_chunks_split_a_long_paragraph_and_pack_the_rest() -> None:
    long_paragraph = EN_SENTENCE * 80
    document = f"Intro line.\n\n{long_paragraph}\n\nShort one.\n\nAnother short one."
    chunks = split_text(document)
    assert all(len(chunk) <= MAX_EPISODE_CHARS for chunk in chunks)
    assert len(chunks) >= 4
    assert chunks[0] == "Intro line."  # flushed before the long paragraph, not glued into it
    assert chunks[-1].endswith("Corp.\n\nShort one.\n\nAnother short one.")  # its tail packs with what follows
    assert _squeeze("".join(chunks)) == _squeeze(document)


def test_file_chunks_of_short_paragraphs_are_unchanged() -> None:
    assert split_text("One.\n\nTwo.\n\n\nThree.") == ["One.\n\nTwo.\n\nThree."]
    assert split_text("a" * 1000 + "\n\n" + "b" * 1000) == ["a" * 1000, "b" * 1000]


def test_a_perception_is_split_with_its_fields() -> None:
    perception = Perception(
        text=ZH_SENTENCE * 200, speaker="小李", session_id="s1", source="chat", time="2026-01-02", external_id="m7"
    )
    pieces = split_perception(perception)
    assert len(pieces) > 1
    assert [piece.external_id for piece in pieces] == [f"m7#{n}" for n in range(1, len(pieces) + 1)]
    for piece in pieces:
        assert (piece.speaker, piece.session_id, piece.source, piece.time) == ("小李", "s1", "chat", "2026-01-02")
        assert len(piece.text) <= MAX_EPISODE_CHARS
    assert "".join(piece.text for piece in pieces) == perception.text
    assert all(piece.external_id is None for piece in split_perception(Perception(text=EN_SENTENCE * 100)))


def test_a_short_perception_is_kept_as_it_is() -> None:
    perception = Perception(text="Alice works at Acme.", external_id="m1")
    assert split_perception(perception) == [perception]


def test_a_text_over_the_call_bound_is_refused_in_one_line() -> None:
    # Perception refuses it itself; split_perception keeps the bound for unvalidated input.
    with pytest.raises(ValidationError):
        Perception(text="x " * (MAX_TEXT_CHARS // 2 + 1))
    with pytest.raises(ValueError) as refused:
        split_perception(Perception.model_construct(text="x " * (MAX_TEXT_CHARS // 2 + 1)))
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("text: 100,002 characters; at most 100,000 per call")
    assert "ingest a file" in message
