"""Reading with the text before: a long text's pieces, and chat turns that refer back to or add to the turn before."""

from __future__ import annotations

from elephant_broker.domain.reading import PRECEDING_CHARS, preceding_tail, read_with_rules, stated_in, with_preceding
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


def _pairs(quintuples: list[Quintuple]) -> set[tuple[str, str, str]]:
    return {(q.subject, q.predicate, q.object) for q in quintuples}


def test_a_turn_that_refers_back_is_read_after_the_turn_before() -> None:
    """ "Her name's Ines" alone names no one; after "My cousin lives in Porto" it names the cousin."""
    read = read_with_rules("Her name's Ines btw.", "Nadia", preceding="My cousin lives in Porto.")
    assert ("Nadia", "cousin", "Ines") in _pairs(read)
    assert all(q.object != "Porto" for q in read), "the turn before is context, not stated again"
    assert read_with_rules("Her name's Ines btw.", "Nadia") == []
    chinese = read_with_rules("他在杭州上班。", "林悦", preceding="我表哥李明轩住在苏州。")
    assert _pairs(chinese) == {("李明轩", "上班", "杭州")}


def test_a_turn_that_adds_an_item_says_the_turn_before_of_it() -> None:
    """ "还有猫毛" after "我对尘螨过敏": allergic to cat hair as well, and nothing else is said again."""
    assert _pairs(read_with_rules("对了还有猫毛，一碰就打喷嚏", "林悦", preceding="我对尘螨过敏")) == {
        ("林悦", "过敏", "猫毛")
    }
    english = read_with_rules("oh and a little fern by the window", "Nadia", preceding="I have a cactus in the kitchen")
    assert ("Nadia", "has", "little fern") in _pairs(english)
    # A turn with its own verb is its own statement, and an addition to an addition is not guessed.
    own = read_with_rules("and I started Italian too", "Nadia", preceding="I'm learning Spanish")
    assert ("Nadia", "started", "Italian") in _pairs(own)
    assert all(
        q.object != "蟹" or q.predicate != "过敏" for q in read_with_rules("蟹也一样", "林悦", preceding="还有虾")
    )


def test_a_turn_that_says_he_before_naming_anyone_is_read_after_the_turn_before() -> None:
    """ "I'm a nurse, he bartends at a pub": he is the roommate the turn before named."""
    read = read_with_rules(
        "I'm a nurse in the ER, he bartends at The Rusty Anchor",
        "Nadia",
        preceding="me and my roommate Omar work nights",
    )
    assert ("Omar", "Rusty Anchor") in {(q.subject, q.object) for q in read}
    chinese = read_with_rules("我在医院上班，她是小学老师", "林悦", preceding="我和我老婆是大学同学")
    assert ("林悦老婆", "小学老师") in {(q.subject, q.object) for q in chinese}
