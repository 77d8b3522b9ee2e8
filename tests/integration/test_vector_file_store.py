"""The embedded store keeps vectors in its vector file: none in the graph, same answers, old stores moved over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from elephant_broker.store import GraphStore, StoreError, open_store
from elephant_broker.store.base import entity_id
from elephant_broker.store.embedded import EmbeddedFalkorDB
from elephant_broker.store.falkordb_store import FalkorDBStore

from tests.integration.plans import EMBED, plan

DIMENSION = len(EMBED.embed_query("x"))
SCOPE = "vectors-test"

PLANS = [
    (
        "ep1",
        [("ada", "Ada Lovelace", "Person"), ("engine", "Analytical Engine", "Thing")],
        [("f1", "ada", "designed", "engine")],
    ),
    ("ep2", [("grace", "Grace Hopper", "Person"), ("cobol", "COBOL", "Thing")], [("f2", "grace", "created", "cobol")]),
    (
        "ep3",
        [("alan", "Alan Turing", "Person"), ("bletchley", "Bletchley Park", "Place")],
        [("f3", "alan", "worked_at", "bletchley")],
    ),
]


def write_all(store: GraphStore, scope: str = SCOPE) -> None:
    # Episode and fact ids are unique across scopes in a store, as the broker's are.
    prefix = "" if scope == SCOPE else f"{scope}-"
    for episode_id, entities, facts in PLANS:
        facts = [(prefix + fid, subject, predicate, obj) for fid, subject, predicate, obj in facts]
        store.write_episode(plan(scope, prefix + episode_id, entities, facts))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    yield str(server.ensure_running())
    server.stop()


def searches(store: GraphStore) -> dict[str, list[str]]:
    """What a few vector reads answer, as ids (the same questions for every store)."""
    episode = EMBED.embed_query("who wrote the first computer program for a machine?")
    entity = EMBED.embed_query("Turing")
    ada = entity_id(SCOPE, "ada")
    [(_, similarity)] = [
        hit for hit in store.facts_touching(SCOPE, [ada], similar_to=EMBED.embed_query("Ada designed the engine"))
    ]
    return {
        "episodes": [episode.id for episode, _ in store.search_episodes_vector(SCOPE, episode, k=3)],
        "entities": [entity.name for entity, _ in store.search_entities_vector(SCOPE, entity, k=2)],
        "near": [identifier for identifier, _ in store.entities_near(SCOPE, {"q": entity}, k=2, fetch=8)["q"]],
        "similar": list(store.similarities_to(SCOPE, {"q": ([ada, entity_id(SCOPE, "alan")], entity)})["q"]),
        "fact_similarity": [f"{similarity:.2f}"],
        "with_embedding": [str(store.identities_by_ids(SCOPE, [ada], with_embeddings=True)[ada].embedding is not None)],
    }


def assert_same_or_more(exact: dict[str, list[str]], indexed: dict[str, list[str]]) -> None:
    """The file's exact search answers what the graph's index answers, in the same order, and what it misses.

    FalkorDB's HNSW index can return fewer neighbours than asked for (one entity of six,
    for k=8, on this small graph); exact search returns k whenever the scope holds k.
    """
    for read, found in indexed.items():
        assert exact[read][: len(found)] == found, read
    assert len(exact["entities"]) == 2 and len(exact["near"]) == 2


def test_the_embedded_store_keeps_no_vector_in_the_graph(tmp_path: Path) -> None:
    store = open_store(None, tmp_path)
    try:
        store.ensure_schema(DIMENSION)
        store.upgrade()
        write_all(store)
        assert store.vectors is not None
        assert store.vectors.count() == 3 + 6 + 3  # episodes, entities, facts
        in_graph = store._read(
            "MATCH (n) WHERE n.embedding IS NOT NULL RETURN count(n) AS n "
            "UNION ALL MATCH ()-[f]->() WHERE f.embedding IS NOT NULL RETURN count(f) AS n"
        )
        assert [row["n"] for row in in_graph] == [0, 0]
        kinds = store._read("CALL db.indexes() YIELD types RETURN types")
        assert not any("VECTOR" in kind for row in kinds for kinds_of in row["types"].values() for kind in kinds_of)
        found = searches(store)
        assert found["episodes"][0] == "ep1" and found["entities"][0] == "Alan Turing"
        assert found["near"][0] == entity_id(SCOPE, "alan") and found["with_embedding"] == ["True"]
    finally:
        store.close()
        EmbeddedFalkorDB(tmp_path / "falkordb").stop()


def test_vector_reads_answer_alike_from_the_file_and_from_the_graph(server: str, tmp_path: Path) -> None:
    in_file = FalkorDBStore(unix_socket_path=server, graph="file", vector_dir=tmp_path / "vectors")
    in_graph = FalkorDBStore(unix_socket_path=server, graph="graph")
    try:
        for store in (in_file, in_graph):
            store.ensure_schema(DIMENSION)
            write_all(store)
        assert in_graph.vectors is None
        assert_same_or_more(searches(in_file), searches(in_graph))
    finally:
        in_file.close()
        in_graph.close()


def test_several_names_are_searched_as_each_would_be_alone(server: str, tmp_path: Path) -> None:
    in_file = FalkorDBStore(unix_socket_path=server, graph="file", vector_dir=tmp_path / "vectors")
    in_graph = FalkorDBStore(unix_socket_path=server, graph="graph")
    names = [EMBED.embed_query(name) for name in ("Turing", "Hopper", "a steam engine")]
    try:
        for store in (in_file, in_graph):
            store.ensure_schema(DIMENSION)
            write_all(store)
            write_all(store, "other")  # nearer names of another agent never come back
            alone = [store.search_entities_vector(SCOPE, vector, k=2) for vector in names]
            together = store.search_entities_vector_many(SCOPE, names, k=2)
            assert [[entity.id for entity, _ in hits] for hits in together] == [
                [entity.id for entity, _ in hits] for hits in alone
            ]
            mine = {entity_id(SCOPE, key) for _, entities, _ in PLANS for key, _, _ in entities}
            assert all(entity.id in mine for hits in together for entity, _ in hits)
        assert [entity.name for entity, _ in in_file.search_entities_vector_many(SCOPE, names, k=1)[0]] == [
            "Alan Turing"
        ]
        assert in_file.search_entities_vector_many(SCOPE, [], k=2) == []
    finally:
        in_file.close()
        in_graph.close()


def test_another_agents_nearer_memories_never_crowd_out_this_ones(server: str, tmp_path: Path) -> None:
    store = FalkorDBStore(unix_socket_path=server, graph="g", vector_dir=tmp_path / "vectors")
    try:
        store.ensure_schema(DIMENSION)
        for number in range(12):  # another agent, the same words again and again
            store.write_episode(plan("other", f"o{number}", [("ada", "Ada Lovelace", "Person")], []))
        write_all(store)
        hits = store.search_episodes_vector(SCOPE, EMBED.embed_query("Ada Lovelace"), k=2)
        assert len(hits) == 2 and hits[0][0].id == "ep1"
        assert all(episode.agent_id == SCOPE for episode, _ in hits)
    finally:
        store.close()


def test_a_failed_graph_write_leaves_nothing_searchable_and_can_be_written_again(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FalkorDBStore(unix_socket_path=server, graph="g", vector_dir=tmp_path / "vectors")
    try:
        store.ensure_schema(DIMENSION)
        episode_id, entities, facts = PLANS[0]

        def refuse(*_args: object, **_kwargs: object) -> list[dict[str, object]]:
            raise StoreError("the server went away")

        with monkeypatch.context() as patch:
            patch.setattr(store, "_write_atomic", refuse)
            with pytest.raises(StoreError):
                store.write_episode(plan(SCOPE, episode_id, entities, facts))
        assert store.vectors is not None and store.vectors.count("Episode") == 1  # kept first, nothing refers to it
        question = EMBED.embed_query("Ada Lovelace")
        assert store.search_episodes_vector(SCOPE, question) == []
        assert store.search_entities_vector(SCOPE, question) == []
        store.write_episode(plan(SCOPE, episode_id, entities, facts))
        assert [episode.id for episode, _ in store.search_episodes_vector(SCOPE, question)] == ["ep1"]
    finally:
        store.close()


def test_an_older_store_moves_its_vectors_out_of_the_graph_once(server: str, tmp_path: Path) -> None:
    """A store written by a release that kept vectors in the graph answers the same after the upgrade."""
    old = FalkorDBStore(unix_socket_path=server, graph="g")
    old.ensure_schema(DIMENSION)
    old.upgrade()
    write_all(old)
    before = searches(old)
    old._write_atomic([("MATCH (m:StoreMeta) SET m.version = 3", {})])
    old.close()

    store = FalkorDBStore(unix_socket_path=server, graph="g", vector_dir=tmp_path / "vectors")
    try:
        store.ensure_schema(DIMENSION)
        assert store.upgrade() is True
        assert store.upgrade() is False
        assert store.vectors is not None and store.vectors.count() == 12
        assert store._read("MATCH (n) WHERE n.embedding IS NOT NULL RETURN count(n) AS n")[0]["n"] == 0
        assert store._read("MATCH ()-[f:FACT]->() WHERE f.embedding IS NOT NULL RETURN count(f) AS n")[0]["n"] == 0
        kinds = store._read("CALL db.indexes() YIELD types RETURN types")
        assert not any("VECTOR" in kind for row in kinds for kinds_of in row["types"].values() for kind in kinds_of)
        assert_same_or_more(searches(store), before)
    finally:
        store.close()


def test_forgetting_a_scope_forgets_its_vectors(server: str, tmp_path: Path) -> None:
    store = FalkorDBStore(unix_socket_path=server, graph="g", vector_dir=tmp_path / "vectors")
    try:
        store.ensure_schema(DIMENSION)
        write_all(store)
        write_all(store, scope="kept")
        store.delete_scope(SCOPE)
        assert store.vectors is not None
        assert store.vectors.ids("Episode", SCOPE) == set() and store.vectors.ids("Episode", "kept") == {
            "kept-ep1",
            "kept-ep2",
            "kept-ep3",
        }
        store.drop_all()
        assert store.vectors.count() == 0
    finally:
        store.close()


def test_a_long_lived_process_searches_what_another_process_wrote_since(cli, tmp_path: Path) -> None:
    """An agent's broker (an MCP server, say) and a CLI ingest share one data directory."""
    cli("ingest", "--text", "The lighthouse keeper painted the tower red.", "--agent", "a1")
    store = open_store(None, tmp_path / "home")
    try:
        question = EMBED.embed_query("What colour did the keeper paint the tower?")
        first = store.search_episodes_vector("a1", question, k=5)
        assert len(first) == 1  # read into this process's matrix
        cli("ingest", "--text", "Our ferry to the island leaves at noon on Sundays.", "--agent", "a1")
        after = store.search_episodes_vector("a1", EMBED.embed_query("When does the ferry leave?"), k=5)
        assert len(after) == 2 and "ferry" in after[0][0].text
        assert store.search_episodes_vector("a2", question, k=5) == []  # another agent's memory
    finally:
        store.close()
