"""The pieces of a long text: the end of each piece is the next one's context, and no fact comes from it."""

from __future__ import annotations

from elephant_broker.domain.reading import PRECEDING_CHARS, preceding_tail, stated_in, with_preceding
from elephant_broker.language.chunks import split_perception
from elephant_broker.schemas.models import Perception, Quintuple


def test_the_tail_is_whole_sentences_within_the_bound() -> None:
    text = "Alice Chen founded Lumen Labs in 2019. " + "The lab studies light and lenses. " * 20 + "She is its CEO."
    tail = preceding_tail(text)
    assert tail.endswith("She is its CEO.") and len(tail) <= PRECEDING_CHARS
    assert tail.startswith("The lab studies")  # a sentence start, not the middle of one
    assert preceding_tail("Short. Text.") == "Short. Text."
    chinese = "小李在杭州工作。" * 10 + "他喜欢西湖。"
    assert preceding_tail(chinese, 20) == "小李在杭州工作。他喜欢西湖。"


def test_a_long_last_sentence_gives_its_end_from_a_word_start() -> None:
    sentence = "word " * 100 + "end"
    tail = preceding_tail(sentence, 50)
    assert len(tail) <= 50 and tail.endswith("end") and tail.startswith("word")
    assert len(preceding_tail("长" * 400, 50)) == 50


def test_each_piece_after_the_first_carries_the_end_of_the_one_before() -> None:
    long = Perception(text="Alice Chen founded Lumen Labs. " * 60 + "She moved to Berlin.", speaker="Bob")
    pieces = with_preceding(split_perception(long))
    assert len(pieces) == 2
    assert pieces[0].preceding_text is None
    assert pieces[1].preceding_text == preceding_tail(pieces[0].text)
    # Not part of the public schema nor of an unset dump, and not of the episode: the text is.
    assert "preceding_text" not in Perception.model_json_schema()["properties"]
    assert "preceding_text" not in pieces[0].model_dump()
    given = Perception(text="x", given_facts=[])
    assert with_preceding([long, given])[1].preceding_text is None  # given facts are not read


def test_only_facts_stated_in_the_piece_are_kept() -> None:
    context = "Alice Chen founded Lumen Labs in 2019."
    text = "She moved to Berlin in 2021. The company followed."

    def fact(subject: str, obj: str, span: str = "") -> Quintuple:
        return Quintuple(subject=subject, predicate="p", object=obj, source_span=span)

    assert stated_in(fact("Alice Chen", "Berlin", "She moved to Berlin in 2021."), text, context, "Bob")
    assert not stated_in(fact("Alice Chen", "Lumen Labs", context), text, context, "Bob")  # the context's sentence
    assert stated_in(fact("Lumen Labs", "Berlin"), text, context, "Bob")  # no span: an end is named here
    assert not stated_in(fact("Alice Chen", "Lumen Labs"), text, context, "Bob")  # neither end is
    assert stated_in(fact("Bob", "Lumen Labs"), text, context, "Bob")  # the speaker is in every piece
