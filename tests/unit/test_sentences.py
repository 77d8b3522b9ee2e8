"""Facts read back as sentences (language.sentences via Fact.sentence)."""

from __future__ import annotations

import pytest
from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.models import Fact


def sentence(subject: str, predicate: str, obj: str, negated: bool = False) -> str:
    return sentence_of(
        Fact(id="f", subject=subject, predicate=predicate, predicate_key="k", object=obj, negated=negated)
    )


@pytest.mark.parametrize(
    ("subject", "predicate", "obj", "negated", "expected"),
    [
        ("Paul", "is", "vegetarian", True, "Paul is not vegetarian"),
        ("Paul", "uses", "Slack", True, "Paul does not use Slack"),
        ("Paul", "lives in", "Boston", True, "Paul does not live in Boston"),
        ("Paul", "works at", "Acme", False, "Paul works at Acme"),
        # A base form as the Reader stored it reads inflected: "be on" is "is on".
        ("Tom's flight", "be on", "the 16th", False, "Tom's flight is on the 16th"),
        ("Ben", "run at", "Riverside Park", False, "Ben runs at Riverside Park"),
        ("Frank Herbert", "wrote", "Dune", False, "Frank Herbert wrote Dune"),
        ("Jake", "dog", "Biscuit", False, "Jake's dog is Biscuit"),
        ("Acme", "CEO", "Bob", False, "Acme's CEO is Bob"),
        ("Zoe", "inbox", "Zoe's inbox", False, "Zoe has an inbox"),
        ("小赵", "工作", "腾讯", False, "小赵在腾讯工作"),
        ("小赵", "上班", "腾讯", True, "小赵不在腾讯上班"),
        ("小李", "精通", "Python", False, "小李精通 Python"),
        ("小赵", "用", "Python", True, "小赵不用 Python"),
        ("小何", "老家", "湖南长沙", False, "小何的老家是湖南长沙"),
        ("小美", "猫", "豆豆", False, "小美的猫是豆豆"),
        ("小吴", "儿子", "小吴儿子", False, "小吴有儿子"),
        # An attribute of several words reads as one: whose, then what it is.
        ("Omar", "gym membership", "Gold", False, "Omar's gym membership is Gold"),
        ("Lena", "phone number", "020 7946 0958", False, "Lena's phone number is 020 7946 0958"),
        ("Amy", "take care of", "Rex", False, "Amy takes care of Rex"),
        ("周宁", "儿子生日", "5月8号", False, "周宁的儿子生日是5月8号"),
        ("小李", "用", "Python3", False, "小李用 Python3"),
        # 对 brings the object before the verbs that take it so.
        ("小周", "过敏", "尘螨", False, "小周对尘螨过敏"),
        ("小周", "感兴趣", "摄影", True, "小周对摄影不感兴趣"),
    ],
)
def test_facts_read_as_sentences(subject: str, predicate: str, obj: str, negated: bool, expected: str) -> None:
    assert sentence(subject, predicate, obj, negated) == expected


def test_verb_forms_are_not_taken_for_role_nouns() -> None:
    assert sentence("Olivia", "adores", "sushi") == "Olivia adores sushi"
    assert sentence("Bob", "founded", "Acme") == "Bob founded Acme"


def test_passive_predicates_get_their_auxiliary() -> None:
    assert sentence("Frank Herbert", "born in", "Tacoma") == "Frank Herbert was born in Tacoma"
    assert sentence("Ethan", "employed by", "Initech") == "Ethan is employed by Initech"
    assert sentence("Ethan", "employed by", "Initech", negated=True) == "Ethan is not employed by Initech"
