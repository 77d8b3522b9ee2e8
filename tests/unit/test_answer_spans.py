"""The answer kinds, answer spans, relation words and corrections kept as data run their own examples."""

from __future__ import annotations

from typing import Any

import pytest
from elephant_broker.language.answer_spans import (
    addresses_someone,
    answer_spans,
    asks_about_now,
    asks_for_clock,
    calls_old,
    category_word,
    continues_previous,
    has_clock,
    is_light_word,
    is_said_of,
    question_kind,
    without_address,
)
from elephant_broker.language.corrections import (
    Correction,
    added_statement,
    corrected_statement,
    find_addition,
    find_additions,
    find_correction,
)
from elephant_broker.language.lexicon import data_file
from elephant_broker.language.question import analyse_question
from elephant_broker.language.relations import ended_relation, is_relation, started_employment
from elephant_broker.schemas.models import Quintuple

ANSWERS = data_file("answers.toml")
RELATIONS = data_file("relations.toml")
CORRECTIONS = data_file("corrections.toml")


@pytest.mark.parametrize(
    ("language", "example"),
    [(language, example) for language in ("en", "zh") for example in ANSWERS["kinds"][language]["examples"]],
)
def test_question_kind_examples(language: str, example: dict[str, str]) -> None:
    assert question_kind(example["question"], language) == (example["kind"] or None)


@pytest.mark.parametrize(
    ("language", "example"),
    [(language, example) for language in ("en", "zh") for example in ANSWERS["spans"][language]["examples"]],
)
def test_answer_span_examples(language: str, example: dict[str, str]) -> None:
    assert answer_spans(example["text"], example["kind"], language)[0] == example["span"]


@pytest.mark.parametrize("example", ANSWERS["address_openers"]["examples"])
def test_address_examples(example: dict[str, Any]) -> None:
    language = "en" if example["sentence"].isascii() else "zh"
    assert is_said_of(example["name"], example["sentence"], language) is example["about"]


def test_a_sentence_said_to_someone_by_name_is_told_apart() -> None:
    assert addresses_someone("That half marathon sounds brutal, Theo!", "en")
    assert addresses_someone("Hey Theo, I sold the boat.", "en")
    assert not addresses_someone("Yesterday, I sold the boat.", "en")
    assert not addresses_someone("I sold the boat to Theo.", "en")
    assert without_address("Hey Theo, I sold the boat.", "en") == "I sold the boat."
    assert without_address("I sold the boat, Theo!", "en") == "I sold the boat"
    assert without_address("I sold the boat.", "en") == "I sold the boat."


def test_every_data_table_says_what_it_is_for() -> None:
    tables = (
        *ANSWERS["kinds"].values(),
        *ANSWERS["spans"].values(),
        *(
            ANSWERS[name]
            for name in (
                "kind_nouns",
                "light_words",
                "category_words",
                "present_markers",
                "clock_questions",
                "old_markers",
                "continuation_openers",
            )
        ),
    )
    for table in (*tables, *RELATIONS.values()):
        assert table["doc"].strip()
    for language in ("en", "zh"):
        assert CORRECTIONS[language]["doc"].strip() and CORRECTIONS[language]["examples"]


@pytest.mark.parametrize(
    ("language", "example"),
    [("en" if example["question"].isascii() else "zh", example) for example in ANSWERS["category_words"]["examples"]],
)
def test_category_word_examples(language: str, example: dict[str, str]) -> None:
    assert category_word(example["question"], language) == example["noun"]


@pytest.mark.parametrize(
    ("language", "example"),
    [("en" if example["question"].isascii() else "zh", example) for example in ANSWERS["present_markers"]["examples"]],
)
def test_present_marker_examples(language: str, example: dict[str, Any]) -> None:
    assert asks_about_now(example["question"], language) == example["present"]


@pytest.mark.parametrize(
    ("language", "example"),
    [("en" if example["question"].isascii() else "zh", example) for example in ANSWERS["clock_questions"]["examples"]],
)
def test_clock_question_examples(language: str, example: dict[str, Any]) -> None:
    assert asks_for_clock(example["question"], language) == example["clock"]


@pytest.mark.parametrize(
    ("language", "example"),
    [("en" if example["question"].isascii() else "zh", example) for example in ANSWERS["old_markers"]["examples"]],
)
def test_old_marker_examples(language: str, example: dict[str, Any]) -> None:
    keywords = analyse_question(example["question"]).keywords
    assert calls_old(example["sentence"], example["question"], keywords, language) == example["old"]


@pytest.mark.parametrize(
    ("language", "example"),
    [("en" if example["text"].isascii() else "zh", example) for example in ANSWERS["continuation_openers"]["examples"]],
)
def test_continuation_opener_examples(language: str, example: dict[str, Any]) -> None:
    assert continues_previous(example["text"], language) == example["opens"]


def test_each_sentence_of_a_turn_may_add_an_item() -> None:
    assert find_additions("also kiwis. and apparently mango too, found out last week") == ["kiwis", "mango"]
    assert find_additions("I started Italian too") == []


def test_a_clock_is_told_from_a_day() -> None:
    assert has_clock("六点半") and has_clock("早上7:05") and has_clock("Friday at 3 pm")
    assert not has_clock("下周三") and not has_clock("October 3rd")


def test_light_words_tie_no_fact_to_a_question() -> None:
    assert is_light_word("getting", "en") and is_light_word("觉得", "zh")
    assert not is_light_word("makes", "en") and not is_light_word("running", "en")


def test_a_question_that_names_no_special_kind_has_none() -> None:
    assert question_kind("Where does Alice live?", "en") is None
    assert question_kind("小李住在哪里？", "zh") is None


def test_names_are_proper_names_or_what_a_naming_word_introduces() -> None:
    assert answer_spans("we just run the loop at Riverside Park now", "Place", "en") == ["Riverside Park"]
    assert answer_spans("I think we should go", "Person", "en") == []  # "I" is capitalised, not a name
    assert answer_spans("我有一条狗，名字叫旺财。", "Name", "zh") == ["旺财"]
    assert "三亚" in answer_spans("婚礼在三亚办", "Place", "zh")
    # What a naming word introduces comes first, before a tagger's guess of the same length.
    assert answer_spans("我女儿叫邵欣怡，在学萨克斯", "Name", "zh")[0] == "邵欣怡"


@pytest.mark.parametrize("table", ["naming", "ending", "employment_start"])
def test_relation_word_examples(table: str) -> None:
    assert all(is_relation(predicate, table) for predicate in RELATIONS[table]["match"])
    assert not any(is_relation(predicate, table) for predicate in RELATIONS[table]["miss"])


def test_an_ended_relation_is_the_negation_of_its_family() -> None:
    left = Quintuple(subject="王磊", predicate="离职", object="腾讯", object_type="Organization")
    assert ended_relation(left).model_dump(include={"predicate", "negated"}) == {"predicate": "工作", "negated": True}
    moved = Quintuple(subject="Sofia", predicate="left", object="Chicago", object_type="Place")
    assert (ended_relation(moved).predicate, ended_relation(moved).negated) == ("lives in", True)
    # What is no organisation or place keeps its words: quitting coffee is no lost address.
    coffee = Quintuple(subject="Ava", predicate="quit", object="coffee", object_type="Food")
    assert ended_relation(coffee) == coffee
    going = Quintuple(subject="Sofia", predicate="left for", object="Denver", object_type="Place")
    assert ended_relation(going) == going


def test_a_start_at_an_employer_is_employment_there() -> None:
    joined = Quintuple(subject="周宁", predicate="入职", object="网易", object_type="Person")
    assert started_employment(joined).model_dump(include={"predicate", "object_type"}) == {
        "predicate": "工作",
        "object_type": "Organization",
    }
    starts = Quintuple(subject="Omar", predicate="starts at", object="Globex", object_type="Concept")
    assert started_employment(starts).predicate == "works at"
    # A time or a place started at is no employer.
    school = Quintuple(subject="class", predicate="starts at", object="9am", object_type="Time")
    assert started_employment(school) == school
    not_yet = Quintuple(subject="Ava", predicate="starts at", object="Acme", object_type="Organization", negated=True)
    assert started_employment(not_yet) == not_yet


@pytest.mark.parametrize(
    ("language", "example"),
    [(language, example) for language in ("en", "zh") for example in CORRECTIONS[language]["examples"]],
)
def test_correction_examples(language: str, example: dict[str, Any]) -> None:
    found = find_correction(example["text"])
    if example.get("none"):
        assert found is None
    else:
        assert found == Correction(example["new"], example.get("old"))


ADDITIONS = data_file("additions.toml")


@pytest.mark.parametrize(
    ("language", "example"),
    [(language, example) for language in ("en", "zh") for example in ADDITIONS[language]["examples"]],
)
def test_addition_examples(language: str, example: dict[str, Any]) -> None:
    assert find_addition(example["text"]) == (None if example.get("none") else example["new"])


def test_an_addition_takes_the_place_of_the_last_object() -> None:
    assert added_statement("我对尘螨过敏", "猕猴桃", ["尘螨"]) == "我对猕猴桃过敏"
    assert added_statement("I keep a cactus on the shelf", "a little fern", ["cactus", "shelf"]) == (
        "I keep a little fern on the shelf"
    )
    assert added_statement("I keep a cactus", "a fern", ["tea"]) is None


def test_a_correction_is_placed_in_the_previous_turn() -> None:
    assert corrected_statement("我家住12楼，来了直接按电梯", Correction("21楼")) == (
        "我家住21楼，来了直接按电梯",
        "12楼",
    )
    assert corrected_statement("周六聚餐定在海底捞了", Correction("巴奴", "海底捞")) == ("周六聚餐定在巴奴了", "海底捞")
    placed = corrected_statement("Ruby's teacher this year is Mrs. Hollis", Correction("Mrs. Hallows"))
    assert placed == ("Ruby's teacher this year is Mrs. Hallows", "Mrs. Hollis")
    # Nothing of the kind to replace: the correction cannot be placed.
    assert corrected_statement("I love this weather", Correction("21")) is None


def test_a_corrected_code_replaces_the_whole_code() -> None:
    """A phone or train number is one value: the correction replaces it whole, not its last digits."""
    assert corrected_statement("my boss's cell is 617-555-0199, call after 5", Correction("617-555-0198")) == (
        "my boss's cell is 617-555-0198, call after 5",
        "617-555-0199",
    )
    assert corrected_statement("下周回成都，车次是K1132", Correction("K1123")) == ("下周回成都，车次是K1123", "K1132")


def test_a_correction_replaces_the_value_of_its_own_shape() -> None:
    """ "it's the 16th" after "on the 14th at 10am" replaces the day, not the hour said last."""
    placed = corrected_statement("the vet visit is on the 12th at 9am", Correction("15th"))
    assert placed == ("the vet visit is on the 15th at 9am", "12th")
    # A code with letters is one value, corrected whole.
    assert corrected_statement("router password is maple1987 btw", Correction("maple1978")) == (
        "router password is maple1978 btw",
        "maple1987",
    )


def test_what_a_naming_word_introduces_is_the_name_of_the_kind_asked() -> None:
    """新单位叫蓝帆科技: the organisation is 蓝帆科技, not 新单位; a known city before a tagger's guess."""
    assert answer_spans("新单位叫蓝帆科技，离家近", "Organization", "zh")[0] == "蓝帆科技"
    assert answer_spans("现在住香洲区这边，离沙滩走路五分钟 珠海真不错", "Place", "zh")[0] == "珠海"


def test_where_home_is_asks_where_one_lives() -> None:
    from elephant_broker.language.question import analyse_question

    assert "lives in" in analyse_question("where's home for you these days?", "Nadia").keywords
    assert "lives in" in analyse_question("我家如今住在哪？", "林悦").keywords


def test_a_correction_signal_may_follow_a_short_lead_in_and_other_signals() -> None:
    """稍等，刚才输错了，应该是… / 嗯不对，我记错了，是…: the value after the signals is the correction."""
    assert find_correction("嗯不对，我记错了，是162，去年的数") == Correction("162")
    assert find_correction("稍等，刚才输错了，应该是 5836") == Correction("5836")
    assert corrected_statement("我的体重是58，上周量的", Correction("56")) == ("我的体重是56，上周量的", "58")


def test_an_order_or_room_number_is_asked_as_a_number() -> None:
    assert question_kind("what's my locker number at the gym?", "en") == "Number"
    assert answer_spans("the parcel tracking # is ZX-40917, fyi", "Number", "en") == ["ZX-40917"]
