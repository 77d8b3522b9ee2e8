"""The embedded store's episode index: keywords and mentions ranked as the graph does, safely, old memories included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import elephant_broker.store.episodes as episode_queries
import pytest
from elephant_broker.store import GraphStore, StoreError
from elephant_broker.store.base import entity_id
from elephant_broker.store.embedded import EmbeddedFalkorDB
from elephant_broker.store.falkordb_store import FalkorDBStore

from tests.integration.plans import EMBED, plan

DIMENSION = len(EMBED.embed_query("x"))
SCOPE = "index-test"
EPISODES = [
    ("ep1", [("ada", "Ada Lovelace", "Person"), ("engine", "Analytical Engine", "Thing")]),
    ("ep2", [("grace", "Grace Hopper", "Person"), ("cobol", "COBOL compilers", "Thing")]),
    ("ep3", [("alan", "Alan Turing", "Person"), ("bletchley", "Bletchley Park", "Place")]),
    ("ep4", [("ada2", "Ada programming language", "Thing")]),
    ("ep5", [("engines", "steam engines", "Thing"), ("park", "Hyde Park", "Place")]),
    ("ep6", [("hopper", "Edward Hopper paintings", "Thing")]),
    ("ep7", [("ada", "Ada Lovelace", "Person"), ("grace", "Grace Hopper", "Person")]),
    ("ep8", [("ada", "Ada Lovelace", "Person"), ("park", "Hyde Park", "Place")]),
]
QUESTIONS = [["ada"], ["engine"], ["park", "turing"], ["hopper", "compiler"], ["nothing"]]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    yield str(server.ensure_running())
    server.stop()


def open_graph(server: str, name: str, directory: Path | None) -> GraphStore:
    store = FalkorDBStore(unix_socket_path=server, graph=name, vector_dir=directory)
    store.ensure_schema(DIMENSION)
    return store


def write_all(store: GraphStore) -> None:
    for episode_id, entities in EPISODES:
        store.write_episode(plan(SCOPE, episode_id, entities, []))


def ranked(store: GraphStore, terms: list[str]) -> list[tuple[str, float]]:
    return [(episode.id, round(score, 6)) for episode, score in store.search_episodes_text(SCOPE, terms, k=10)]


def spread(store: GraphStore, keys: list[str]) -> list[tuple[str, float, list[str]]]:
    weights = {entity_id(SCOPE, key): float(number) for number, key in enumerate(keys, start=1)}
    return [(episode.id, score, mentioned) for episode, score, mentioned in store.episodes_mentioning(SCOPE, weights)]


def test_the_index_ranks_keywords_as_the_graphs_index_does(server: str, tmp_path: Path) -> None:
    in_file, in_graph = open_graph(server, "file", tmp_path / "own"), open_graph(server, "graph", None)
    try:
        assert in_file.episode_index is not None and in_graph.episode_index is None
        write_all(in_file)
        write_all(in_graph)
        for terms in QUESTIONS:
            assert ranked(in_file, terms) == ranked(in_graph, terms), terms
        assert [episode_id for episode_id, _ in ranked(in_file, ["engine"])] == ["ep5", "ep1"]  # stems; ties: newest
        for keys in (["ada"], ["ada", "grace"], ["park", "ada", "nobody"]):
            assert spread(in_file, keys) == spread(in_graph, keys), keys
        assert spread(in_file, ["ada", "grace"])[0] == (
            "ep7",
            3.0,
            sorted([entity_id(SCOPE, "ada"), entity_id(SCOPE, "grace")]),
        )
    finally:
        in_file.close()
        in_graph.close()


def test_a_failed_graph_write_leaves_no_keyword_hit_and_can_be_written_again(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_graph(server, "g", tmp_path / "own")
    try:
        episode_id, entities = EPISODES[0]

        def refuse(*_args: object, **_kwargs: object) -> list[dict[str, object]]:
            raise StoreError("the server went away")

        with monkeypatch.context() as patch:
            patch.setattr(store, "_write_atomic", refuse)
            with pytest.raises(StoreError):
                store.write_episode(plan(SCOPE, episode_id, entities, []))
        assert (
            store.episode_index is not None and store.episode_index.count(SCOPE) == 1
        )  # kept first, nothing refers to it
        assert ranked(store, ["lovelace"]) == []
        store.write_episode(plan(SCOPE, episode_id, entities, []))
        assert [episode_id for episode_id, _ in ranked(store, ["lovelace"])] == ["ep1"]
    finally:
        store.close()


def test_a_memory_the_index_lacks_is_indexed_from_the_graph_at_its_first_search(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A data directory from before the index (or one whose file was lost) is searched all the same."""
    monkeypatch.setattr(episode_queries, "INDEX_BATCH", 3)  # several rounds of reading and indexing
    old = open_graph(server, "g", None)  # writes as a release without the file did
    write_all(old)
    expected = {tuple(terms): ranked(old, terms) for terms in QUESTIONS}
    mentions = spread(old, ["ada", "park"])
    old.close()
    store = open_graph(server, "g", tmp_path / "own")
    try:
        assert store.episode_index is not None and store.episode_index.count(SCOPE) == 0
        for terms in QUESTIONS:
            assert ranked(store, terms) == expected[tuple(terms)], terms
        assert store.episode_index.count(SCOPE) == len(EPISODES)
        assert spread(store, ["ada", "park"]) == mentions  # the same latest mentions, oldest to newest kept
    finally:
        store.close()


def test_forgetting_a_scope_forgets_its_index(server: str, tmp_path: Path) -> None:
    store = open_graph(server, "g", tmp_path / "own")
    try:
        write_all(store)
        store.write_episode(plan("other", "other-ep", [("ada", "Ada Lovelace", "Person")], []))
        store.delete_scope(SCOPE)
        assert store.episode_index is not None and store.episode_index.count(SCOPE) == 0
        assert ranked(store, ["ada"]) == []
        assert [episode.id for episode, _ in store.search_episodes_text("other", ["ada"])] == ["other-ep"]
        store.drop_all()
        assert store.episode_index.count("other") == 0
    finally:
        store.close()


def test_mentions_the_graph_moved_since_are_read_from_the_graph(server: str, tmp_path: Path) -> None:
    """An unmerge moves mentions in the graph, not in the index: the entity's count no longer matches."""
    store = open_graph(server, "g", tmp_path / "own")
    try:
        write_all(store)
        assert [episode_id for episode_id, *_ in spread(store, ["ada"])] == ["ep8", "ep7", "ep1"]
        store._write_atomic(
            [
                (
                    "MATCH (:Episode {id: 'ep7'})-[r:MENTIONS]->(e:Entity {id: $ada}) "
                    "SET e.mention_count = e.mention_count - 1 DELETE r",
                    {"ada": entity_id(SCOPE, "ada")},
                )
            ]
        )
        assert [episode_id for episode_id, *_ in spread(store, ["ada"])] == ["ep8", "ep1"]
    finally:
        store.close()
