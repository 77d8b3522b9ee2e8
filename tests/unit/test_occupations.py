"""Occupation nouns: a copula with one answers a job question."""

from __future__ import annotations

import pytest
from elephant_broker.domain.evidence import affirmed_relations, relations_of
from elephant_broker.language.occupations import OCCUPATION_KEY, is_occupation
from elephant_broker.schemas.models import Fact


@pytest.mark.parametrize(
    "name",
    ["nurse", "a nurse", "software engineer", "data scientist", "accountant", "护士", "一名护士", "软件工程师",
     "产品经理", "大学生", "pilot", "barista"],
)  # fmt: skip
def test_occupations(name: str) -> None:
    assert is_occupation(name)


@pytest.mark.parametrize(
    "name", ["vegetarian", "computer", "Python", "dog", "老家", "北京", "brother", "user", "Italian", "", "家"]
)
def test_not_occupations(name: str) -> None:
    assert not is_occupation(name)


def _fact(predicate_key: str, obj: str, negated: bool = False) -> Fact:
    return Fact(id="f", subject="Hannah", predicate="is", predicate_key=predicate_key, object=obj, negated=negated)


def test_a_copula_with_an_occupation_also_states_the_job() -> None:
    assert relations_of(_fact("is_a", "nurse")) == {"is_a", OCCUPATION_KEY}
    assert relations_of(_fact("is_a", "vegetarian")) == {"is_a"}
    assert relations_of(_fact("is_a", "nurse", negated=True)) == {"is_a"}  # "not a nurse" names no job
    assert relations_of(_fact("lives_in", "Leeds")) == {"lives_in"}


def test_a_negated_fact_affirms_nothing_but_a_dislike() -> None:
    assert affirmed_relations(_fact("lives_in", "Chicago", negated=True)) == set()  # no answer to "where"
    assert affirmed_relations(_fact("likes_eating", "香菜", negated=True)) == {"dislikes"}
    assert relations_of(_fact("likes_eating", "香菜", negated=True)) == {"likes_eating", "dislikes"}
