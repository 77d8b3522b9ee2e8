"""A copula whose object is a role of something: "X is the leader of Y" is Y's leader X."""

from __future__ import annotations

from elephant_broker.language.extract import extract_quintuples


def _facts(text: str, speaker: str = "Nadia") -> set[tuple[str, str, str]]:
    return {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, speaker) if not q.negated}


def test_a_role_of_a_place_followed_by_its_country_is_about_the_place() -> None:
    # The country after the comma places Cleveland: it is not what Frank Jackson is.
    assert _facts("Frank Jackson is the leader of Cleveland, United States.") == {
        ("Cleveland", "leader", "Frank Jackson")
    }


def test_two_roles_joined_by_and_are_each_read() -> None:
    assert _facts("Tim Cook is the CEO of Apple and the chairman of Nike.") == {
        ("Apple", "CEO", "Tim Cook"),
        ("Nike", "chairman", "Tim Cook"),
    }


def test_an_and_that_may_be_inside_the_owners_name_keeps_nothing() -> None:
    # "College of William" and "Mary" would both be wrong names.
    facts = _facts("Robert Gates is the chancellor of the College of William and Mary.")
    assert not any(obj == "Mary" or subject.endswith("William") for subject, _, obj in facts)


def test_a_plain_role_is_still_read() -> None:
    assert ("Dune", "author", "Frank Herbert") in _facts("Frank Herbert is the author of Dune.")
    assert ("Nadia", "brother", "Bob") in _facts("Bob is my brother.")
