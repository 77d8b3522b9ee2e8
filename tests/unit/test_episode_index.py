"""The embedded store's episode index: BM25 over one scope, stems, latest mentions, other processes' writes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from elephant_broker.language.names import search_text
from elephant_broker.store.episode_index import BM25_B, BM25_K1, EpisodeIndex, IndexedEpisode, index_terms


def put(file: EpisodeIndex, scope: str, *episodes: tuple[str, str], mentions: Sequence[str] = ()) -> int:
    return file.put(IndexedEpisode(scope, identifier, search_text(text), mentions) for identifier, text in episodes)


def test_bm25_is_the_okapi_formula_over_the_scope(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("e1", "garden"), ("e2", "garden roses"), ("e3", "weather today"), ("e4", "the bus was late"))
    put(file, "b", *[(f"b{n}", "garden party") for n in range(20)])  # another scope's statistics stay apart
    lengths = {"e1": 1, "e2": 2, "e3": 2, "e4": 4}
    average = sum(lengths.values()) / 4
    idf = math.log(1 + (4 - 2 + 0.5) / (2 + 0.5))

    def expected(identifier: str) -> float:
        return idf * (BM25_K1 + 1) / (1 + BM25_K1 * (1 - BM25_B + BM25_B * lengths[identifier] / average))

    hits = file.search("a", ["garden"], k=10)
    assert [identifier for identifier, _ in hits] == ["e1", "e2"]  # the shorter episode first
    for identifier, score in hits:
        assert score == pytest.approx(expected(identifier))


def test_words_match_by_stem_and_chinese_by_segment(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("en", "She teaches chemistry at the college"), ("zh", "孟明霞在杭州工作"), ("x", "nothing here"))
    assert index_terms(["teaches", "teaching", "北京"]) == ["teach", "北京"]
    assert [identifier for identifier, _ in file.search("a", ["teach"], k=5)] == ["en"]
    assert [identifier for identifier, _ in file.search("a", search_text("杭州").split(" "), k=5)] == ["zh"]
    assert file.search("a", ["missing"], k=5) == []
    assert file.search("nobody", ["teach"], k=5) == []


def test_words_are_split_as_questions_are(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("e1", "a well-known café, rated 3.5"), ("e2", "nothing"))
    assert [identifier for identifier, _ in file.search("a", ["known"], k=5)] == ["e1"]
    assert [identifier for identifier, _ in file.search("a", ["5"], k=5)] == ["e1"]


def test_a_term_in_most_episodes_is_left_out_when_a_rarer_one_is_asked(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("s1", "caroline hello"), ("s2", "caroline sure"), ("s3", "caroline adoption agencies"), ("o", "ok"))
    # "caroline" is in three of four: it says nothing about which episode is meant.
    assert [identifier for identifier, _ in file.search("a", ["caroline", "adoption"], k=5)] == ["s3"]
    # Asked alone, it is all there is.
    assert {identifier for identifier, _ in file.search("a", ["caroline"], k=5)} == {"s1", "s2", "s3"}


def test_ties_go_to_the_episode_kept_last_and_k_cuts(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", *[(f"e{n}", "same words") for n in range(5)], *[(f"o{n}", "other text") for n in range(5)])
    assert [identifier for identifier, _ in file.search("a", ["same"], k=3)] == ["e4", "e3", "e2"]


def test_an_episode_is_indexed_once(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    assert put(file, "a", ("e1", "garden")) == 1
    assert put(file, "a", ("e1", "something else entirely"), ("e2", "garden")) == 1
    assert file.count("a") == 2 and file.ids("a") == {"e1", "e2"}
    assert [identifier for identifier, _ in file.search("a", ["something"], k=5)] == []


def test_a_reader_catches_up_with_another_writer_and_forgets_deleted_scopes(tmp_path: Path) -> None:
    # Two objects on one file stand for two processes: each keeps its own postings.
    writer, reader = EpisodeIndex(tmp_path / "k.sqlite3"), EpisodeIndex(tmp_path / "k.sqlite3")
    put(writer, "a", ("e1", "garden roses"), ("e2", "weather"))
    assert [identifier for identifier, _ in reader.search("a", ["roses"], k=5)] == ["e1"]
    put(writer, "a", ("e3", "roses and tulips"))
    assert {identifier for identifier, _ in reader.search("a", ["roses"], k=5)} == {"e1", "e3"}
    writer.delete_scope("a")
    assert reader.search("a", ["roses"], k=5) == []
    put(writer, "a", ("e9", "roses again"))
    assert [identifier for identifier, _ in reader.search("a", ["roses"], k=5)] == ["e9"]
    writer.clear()
    assert reader.search("a", ["roses"], k=5) == [] and reader.count("a") == 0


def test_query_syntax_in_a_term_is_only_a_word(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("e1", "garden"))
    assert file.search("a", ['garden" OR "x', "*", "NEAR("], k=5) == []


def test_an_entitys_latest_mentions_are_summed_by_weight(tmp_path: Path) -> None:
    file = EpisodeIndex(tmp_path / "k.sqlite3")
    put(file, "a", ("old", "first"), mentions=["hub"])
    put(file, "a", *[(f"h{n}", "turn") for n in range(4)], mentions=["hub"])
    put(file, "a", ("both", "turn"), mentions=["hub", "rare"])
    put(file, "a", ("rare", "turn"), mentions=["rare", "rare"])  # a mention counts once
    put(file, "b", ("other scope", "turn"), mentions=["rare"])
    assert file.mention_counts("a", ["hub", "rare", "none"]) == {"hub": 6, "rare": 2}
    found = file.episodes_mentioning("a", {"hub": 1.0, "rare": 5.0}, limit=4, per_entity=3)
    # "both" gets both weights; then "rare"; then the hub's latest (its 3 latest: both, h3, h2).
    assert [(identifier, score) for identifier, score, _ in found] == [
        ("both", 6.0),
        ("rare", 5.0),
        ("h3", 1.0),
        ("h2", 1.0),
    ]
    assert found[0][2] == ["hub", "rare"] and found[1][2] == ["rare"]
    assert file.episodes_mentioning("a", {"nobody": 1.0}, limit=4, per_entity=3) == []
