"""The retrieval recipe: named recipes, and one clear error for every bad setting (no store)."""

from __future__ import annotations

import pytest
from elephant_broker.domain.retrieval import ANSWER, MAX_LIMIT, RECALL, RRF_K, EpisodeSearch, RecipeError
from pydantic import ValidationError


def test_named_recipes_use_the_textbook_fusion_and_cite_ten_episodes() -> None:
    assert RECALL.rrf_k == ANSWER.rrf_k == RRF_K == 60
    assert RECALL.limit == ANSWER.limit == 10
    assert set(RECALL.signals) == {"dense", "keywords", "spread"}
    assert RECALL.min_similarity is None
    assert ANSWER.min_similarity is not None and "dense" in ANSWER.signals
    assert RECALL.evidence == ANSWER.evidence == "ignore"  # measured: fusing the evidence cost @5


def test_with_limit_changes_only_the_limit() -> None:
    twenty = RECALL.with_limit(20)
    assert twenty.limit == 20
    assert twenty.model_dump(exclude={"limit"}) == RECALL.model_dump(exclude={"limit"})
    assert RECALL.limit == 10  # recipes are frozen values


@pytest.mark.parametrize("limit", [0, -1, MAX_LIMIT + 1])
def test_a_limit_out_of_range_is_one_clear_error(limit: int) -> None:
    with pytest.raises(RecipeError, match=r"^invalid episode search: limit: Input should be"):
        RECALL.with_limit(limit)


def test_an_unknown_signal_is_refused_by_name() -> None:
    with pytest.raises(RecipeError, match=r"signals\.1: Input should be 'dense', 'keywords' or 'spread'"):
        EpisodeSearch.of(signals=("dense", "telepathy"))


def test_every_problem_is_reported_in_one_message() -> None:
    with pytest.raises(RecipeError) as raised:
        EpisodeSearch.of(limit=0, rrf_k=0, fusion="max")
    message = str(raised.value)
    assert message.count(";") == 2
    assert "limit:" in message and "rrf_k:" in message and "fusion: Extra inputs are not permitted" in message


def test_inconsistent_recipes_are_refused() -> None:
    with pytest.raises(RecipeError, match="more than once"):
        EpisodeSearch.of(signals=("dense", "dense"))
    with pytest.raises(RecipeError, match="min_similarity needs the dense signal"):
        EpisodeSearch.of(signals=("keywords",), min_similarity=0.8)
    with pytest.raises(RecipeError, match="signals"):
        EpisodeSearch.of(signals=())


def test_the_error_is_a_value_error_and_hides_pydantics() -> None:
    with pytest.raises(ValueError) as raised:
        RECALL.with_limit(0)
    assert raised.value.__cause__ is None and not isinstance(raised.value, ValidationError)


def test_recipes_are_immutable() -> None:
    with pytest.raises(ValidationError):
        RECALL.limit = 3  # type: ignore[misc]
