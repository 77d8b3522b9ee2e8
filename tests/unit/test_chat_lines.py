"""Chat lines the offline Reader reads as a person types them: left-out subjects, named relatives in
passing, a thing named after it was said, plans weighed, rates, and Chinese word-cut repairs.

Each case names the facts that matter by canonical predicate key, and the (subject, object)
pairs that must not be kept (precision before recall: a wrong fact is worse than none).
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.segment import pos_tag
from elephant_broker.language.sentences import fact_sentence

Keyed = tuple[str, str, str, bool]


def keyed(text: str, speaker: str = "Nell") -> set[Keyed]:
    return {(q.subject, predicate_key(q.predicate), q.object, q.negated) for q in extract_quintuples(text, speaker)}


def ends(text: str, speaker: str = "Nell") -> set[tuple[str, str]]:
    return {(q.subject, q.object) for q in extract_quintuples(text, speaker)}


# (text, facts that must be there, (subject, object) pairs that must not)
CASES: list[tuple[str, set[Keyed], set[tuple[str, str]]]] = [
    # A line that leaves out "I am" / "I have": a gerund, a few words, and a name.
    ("Been teaching at Ridgeview High for two years now.", {("Nell", "teaches_at", "Ridgeview High", False)}, set()),
    ("Currently renting in Harrogate, tiny place.", {("Nell", "lives_in", "Harrogate", False)}, set()),
    ("Doing customer support at Zendesk these days.", {("Nell", "works_at", "Zendesk", False)}, set()),
    # ... but a gerund that is the subject of a later verb, or names nothing, is no such line.
    ("Volunteering at Oxfam feels great.", set(), {("Nell", "Oxfam")}),
    ("Cooking dinner makes me happy.", set(), {("Nell", "dinner")}),
    # A plan weighed is no fact.
    ("Thinking about switching to Fastmail for my inbox.", set(), {("Nell", "Fastmail")}),
    ("I'm considering selling my kayak.", set(), {("Nell", "kayak")}),
    # "used to" before any verb: a past habit, stored denied; "like 3" and "a day" leave the thing.
    ("I used to eat like 3 donuts a day.", {("Nell", "eat", "3 donuts", True)}, {("Nell", "like 3 donuts a day")}),
    # Selling a thing ends having it.
    ("sold my old Vespa to a student", {("Nell", "has_part", "Nell's old Vespa", True)}, set()),
    # A named relative said in passing, even in a question or a request.
    ("any gift ideas for Dalia and her fiancé Omar?", {("Dalia", "fiancé", "Omar", False)}, set()),
    ("Mr. Lindqvist's wife Ada runs the bakery on our street.", {("Mr. Lindqvist", "wife", "Ada", False)}, set()),
    ("my cousin from Leeds, Harriet, is visiting", {("Nell", "cousin", "Harriet", False)}, set()),
    # A role in brackets after a name ("Ines (my cousin)") is the speaker's relative; a job got at a
    # place is work there.
    (
        "Ines (my cousin) landed a job at Spotify!",
        {("Nell", "cousin", "Ines", False), ("Ines", "works_at", "Spotify", False)},
        set(),
    ),
    # Two people's clauses after a comma.
    ("Zoe has piano on tuesdays, Ben has football", {("Ben", "has_part", "football", False)}, set()),
    # Where the speaker is after a move.
    ("We moved last month! We're in Aarhus now.", {("Nell", "lives_in", "Aarhus", False)}, set()),
    # A denied idiom states a relation of its own.
    ("I can't stand olives.", {("Nell", "dislikes", "olives", False)}, set()),
    # A manner adverb between a verb and its preposition.
    ("I react badly to ibuprofen.", {("Nell", "allergic_to", "ibuprofen", False)}, set()),
    # Chinese: 跳槽 is a verb; a place noun before the verb is where; a count before a colon list;
    # a noun after a measure word is a noun; 低脂/无糖 say which kind; 快递 + 员 is a job.
    ("我表姐跳槽去了京东。", {("Nell表姐", "跳槽去", "京东", False)}, {("Nell表姐跳槽", "京东")}),
    ("刚才夜市买了烤串、一袋橘子", {("Nell", "买", "烤串", False), ("Nell", "买", "橘子", False)}, set()),
    ("暑假我报了两个班：钢琴、书法", {("Nell", "报", "钢琴", False), ("Nell", "报", "书法", False)}, set()),
    ("我报的B2，她报的A1", {("Nell", "报", "B2", False)}, set()),
    ("最近改吃低脂酸奶了", {("Nell", "改吃", "低脂酸奶", False)}, {("Nell", "酸奶")}),
    (
        "我表哥以前在顺丰当快递员",
        {("Nell表哥", "works_as", "快递员", False), ("Nell表哥", "works_at", "顺丰", True)},
        set(),
    ),
]


@pytest.mark.parametrize(("text", "present", "absent"), CASES)
def test_chat_line(text: str, present: set[Keyed], absent: set[tuple[str, str]]) -> None:
    got = keyed(text)
    assert present <= got, got
    assert not absent & ends(text), ends(text)


def test_a_thing_named_after_it_was_said_is_the_named_thing() -> None:
    got = extract_quintuples("finally got the new car! 2021 Kia Sportage in grey", "Nell")
    assert [(q.predicate, q.object, q.object_type) for q in got] == [("got", "Kia Sportage", "Thing")]
    # An exclamation that is a person's name names no thing.
    assert {q.object for q in extract_quintuples("I met a guy at the bar. Great Scott!", "Nell")} == {"guy"}


def test_being_somewhere_is_living_there_only_after_a_move() -> None:
    assert ("Nell", "lives_in", "Aarhus", False) in keyed("Moved in March, we're in Aarhus now.")
    assert not any(key == "lives_in" for _, key, _, _ in keyed("We're in Aarhus now."))


def test_a_one_off_appointment_keeps_its_day_with_its_clock() -> None:
    (fact,) = extract_quintuples("约好了，周五上午十点在口腔医院拔牙", "Nell")
    assert fact.schedule == "周五上午十点"


def test_a_numeral_tag_without_a_numeral_is_a_noun() -> None:
    assert dict(pos_tag("一包大米"))["大米"] == "n"
    assert dict(pos_tag("出版年"))["年"] != "n"  # one character: left to jieba


def test_lasting_adjective_relations_read_with_is() -> None:
    assert fact_sentence("Nell", "allergic to", "penicillin") == "Nell is allergic to penicillin"
    assert fact_sentence("Nell", "married to", "Omar", negated=True) == "Nell is not married to Omar"
