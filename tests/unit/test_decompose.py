"""Offline decomposition of multi-hop questions, slot filling, plan checks and the loop's routers."""

from __future__ import annotations

import pytest
from elephant_broker.domain.hops import is_valid_chain
from elephant_broker.language.decompose import decompose, fill_slots
from elephant_broker.language.question import analyse_question
from elephant_broker.nodes.routing import (
    route_after_analyse,
    route_after_decompose,
    route_after_multi_hop,
    route_after_reason,
)
from elephant_broker.schemas.models import Entity, Hop


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("张三的导师在哪所大学任教？", ["张三的导师是谁？", "#1在哪所大学任教？"]),
        ("小李的老板的妻子住在哪？", ["小李的老板是谁？", "#1的妻子是谁？", "#2住在哪？"]),
        ("创立Acme的人住在哪里？", ["创立Acme的人是谁？", "#1住在哪里？"]),
        ("我喜欢的作家出生在哪里？", ["我喜欢的作家是谁？", "#1出生在哪里？"]),
        ("Where was the author of Dune born?", ["Who is the author of Dune?", "Where was #1 born?"]),
        ("Where does Alice's boss live?", ["Who is Alice's boss?", "Where does #1 live?"]),
        ("Where does my boss live?", ["Who is my boss?", "Where does #1 live?"]),
        (
            "Where does the person who founded Acme live?",
            ["Who is the person who founded Acme?", "Where does #1 live?"],
        ),
        (
            "Where is the company Alice works for headquartered?",
            ["What is the company Alice works for?", "Where is #1 headquartered?"],
        ),
    ],
)
def test_multi_hop_questions_split_into_a_chain(question: str, parts: list[str]) -> None:
    assert decompose(question) == parts
    assert analyse_question(question).multi_hop


@pytest.mark.parametrize(
    "question",
    [
        "张三的导师是谁？",
        "我的猫叫什么？",
        "小李最喜欢的编程语言是什么？",
        "小王的生日是哪天？",
        "Who is the author of Dune?",
        "Who is my boss?",
        "Who's my employer?",  # "Who's" is "Who is", no possessive of "Who"
        "What is my favorite food?",
        "What is the capital of France?",
        "Where did Caroline go last weekend?",
        "When did Caroline go to the LGBTQ support group?",
        "",
    ],
)
def test_single_lookups_stay_whole(question: str) -> None:
    assert decompose(question) == []
    assert not analyse_question(question).multi_hop


def test_slots_are_filled_from_earlier_answers_or_refused() -> None:
    assert fill_slots("Where was #1 born?", ["Frank Herbert"]) == "Where was Frank Herbert born?"
    assert fill_slots("#2住在哪？", ["王总", "刘芳"]) == "刘芳住在哪？"
    assert fill_slots("Where was #2 born?", ["Frank Herbert"]) is None
    assert fill_slots("Where was #1 born?", [""]) is None


def test_a_model_plan_must_refer_only_to_earlier_answers() -> None:
    assert is_valid_chain(["Who wrote Dune?", "Where was #1 born?"])
    assert not is_valid_chain(["Where was #1 born?", "Who wrote Dune?"])  # forward reference
    assert not is_valid_chain(["Who wrote Dune?", "Where was #2 born?"])  # self reference
    assert not is_valid_chain(["Who wrote Dune?"])  # one part is no chain
    assert not is_valid_chain(["Who wrote Dune?", ""])
    assert not is_valid_chain([f"q{n} #1" if n else "q" for n in range(9)])  # longer than any budget


def _hop(answered: bool) -> Hop:
    return Hop(question="q", answered=answered, answers=[Entity(id="e", name="E")] if answered else [])


def test_the_loop_routes() -> None:
    multi = {"analysis": analyse_question("Where was the author of Dune born?")}
    single = {"analysis": analyse_question("Who is the author of Dune?")}
    assert route_after_analyse(multi) == "multi_hop"  # type: ignore[arg-type]
    assert route_after_analyse(single) == "retrieve_evidence"  # type: ignore[arg-type]
    assert route_after_decompose({"sub_questions": ["a", "#1 b"]}) == "retrieve_hop"
    assert route_after_decompose({"sub_questions": []}) == "__end__"
    two = {"sub_questions": ["a", "#1 b"], "hop_budget": 3}
    one_answered = {**two, "hops": [_hop(True)]}
    both_answered = {**two, "hops": [_hop(True), _hop(True)]}
    broken = {**two, "hops": [_hop(False)]}
    spent = {"sub_questions": ["a", "#1 b", "#2 c"], "hop_budget": 1, "hops": [_hop(True)]}
    assert route_after_reason(one_answered) == "retrieve_hop"  # type: ignore[arg-type]
    for finished in (both_answered, broken, spent):
        assert route_after_reason(finished) == "__end__"  # type: ignore[arg-type]
    # after the loop: answer from a whole chain, otherwise retrieve the whole question
    assert route_after_multi_hop(both_answered) == "answer_question"  # type: ignore[arg-type]
    for fallback in (broken, spent, {"sub_questions": [], "hops": []}, {}):
        assert route_after_multi_hop(fallback) == "retrieve_evidence"  # type: ignore[arg-type]
