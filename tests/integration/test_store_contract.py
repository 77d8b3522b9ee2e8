"""The GraphStore contract, run on every backend (Neo4j only when NEO4J_URI is set)."""

from __future__ import annotations

import elephant_broker.store.base as store_base
import pytest
from elephant_broker.language.names import search_text
from elephant_broker.store import GraphStore, StoreError

from tests.integration.plans import EMBED, plan


def test_episode_write_creates_entities_mentions_and_facts(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(
        plan(
            scope,
            "ep1",
            [("小李", "小李", "Person"), ("python", "Python", "Language")],
            [("f1", "小李", "精通", "python")],
        )
    )
    assert graph.counts(scope) == {"episodes": 1, "entities": 2, "facts": 1}
    assert graph.episode_exists(scope, "ep1")
    [fact] = graph.list_facts(scope)
    assert (fact.subject, fact.predicate, fact.object) == ("小李", "精通", "Python")
    assert fact.episode_ids == ["ep1"] and fact.weight == 1
    assert fact.subject_type == "Person" and fact.object_type == "Language"
    rows = graph._read(
        "MATCH (ep:Episode {id: 'ep1'})-[:MENTIONS]->(e:Entity:Language) WHERE e.scope = $scope RETURN e.name AS name",
        {"scope": scope},
    )
    assert rows == [{"name": "Python"}]


def test_repeating_a_fact_from_a_new_episode_reinforces_it(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    entities = [("小李", "小李", "Person"), ("python", "Python", "Language")]
    graph.write_episode(plan(scope, "ep1", entities, [("f1", "小李", "精通", "python")]))
    graph.write_episode(
        plan(
            scope,
            "ep2",
            [("小李", "小李", "Person"), ("python", "python", "Language")],
            [("f1", "小李", "精通", "python")],
        )
    )
    [fact] = graph.list_facts(scope)
    assert fact.weight == 2
    assert fact.episode_ids == ["ep1", "ep2"]
    entities_by_key = graph.entities_by_keys(scope, ["小李", "python"])
    assert entities_by_key["小李"].mention_count == 2
    # first spelling is the name; the new spelling is kept as an alias
    assert entities_by_key["python"].name == "Python"
    assert entities_by_key["python"].aliases == ["python"]
    assert entities_by_key["python"].first_seen <= entities_by_key["python"].last_seen


def test_scopes_are_isolated(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    other = scope + "-other"
    try:
        graph.write_episode(
            plan(scope, "ep1", [("a", "Alpha", "Concept"), ("b", "Beta", "Concept")], [("f1", "a", "likes", "b")])
        )
        graph.write_episode(
            plan(other, "ep9", [("a", "Alpha", "Concept"), ("c", "Gamma", "Concept")], [("f9", "a", "likes", "c")])
        )
        assert graph.counts(scope) == {"episodes": 1, "entities": 2, "facts": 1}
        assert [f.object for f in graph.list_facts(other)] == ["Gamma"]
        assert not graph.episode_exists(scope, "ep9")
        alpha = graph.entities_by_keys(scope, ["a"])["a"]
        assert {f.object for f, _ in graph.facts_touching(scope, [alpha.id])} == {"Beta"}
        assert all(e.name != "Gamma" for e, _ in graph.search_entities_vector(scope, EMBED.embed_query("Gamma"), k=5))
    finally:
        graph.delete_scope(other)


def test_fulltext_finds_chinese_inside_longer_names(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(
        plan(
            scope,
            "ep1",
            [("北京大学", "北京大学", "Organization"), ("张三", "张三", "Person")],
            [("f1", "张三", "就读于", "北京大学")],
        )
    )
    names = [entity.name for entity, _ in graph.search_entities_text(scope, search_text("北京"))]
    assert "北京大学" in names
    assert graph.search_entities_text(scope, "   ") == []


def test_vector_search_returns_cosine_similarity(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(plan(scope, "ep1", [("西红柿", "西红柿", "Food"), ("杭州", "杭州", "Place")], []))
    hits = graph.search_entities_vector(scope, EMBED.embed_documents(["番茄"])[0], k=2)
    assert hits[0][0].name == "西红柿"
    assert 0.9 < hits[0][1] <= 1.0001
    episodes = graph.search_episodes_vector(scope, EMBED.embed_query("西红柿 杭州"), k=1)
    assert episodes[0][0].id == "ep1"


def test_facts_touching_walks_both_directions(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(
        plan(
            scope,
            "ep1",
            [("a", "A", "Concept"), ("b", "B", "Concept"), ("c", "C", "Concept")],
            [("f1", "a", "r", "b"), ("f2", "c", "r", "b")],
        )
    )
    b = graph.entities_by_keys(scope, ["b"])["b"]
    found = graph.facts_touching(scope, [b.id])
    assert {fact.id for fact, _ in found} == {"f1", "f2"}
    assert all(similarity is None for _, similarity in found)
    # Scored in the store against a query vector: a fact's own sentence is its nearest.
    scored = dict(
        (fact.id, similarity)
        for fact, similarity in graph.facts_touching(scope, [b.id], similar_to=EMBED.embed_documents(["a r b"])[0])
    )
    assert scored["f1"] == pytest.approx(1.0, abs=1e-3)
    assert scored["f2"] is not None and scored["f2"] < scored["f1"]


def test_failed_episode_write_leaves_nothing(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    good = plan(scope, "ep1", [("a", "A", "Concept"), ("b", "B", "Concept")], [("f1", "a", "r", "b")])
    statements = graph.episode_statements([good])
    # A statement that fails at run time, after the episode and entities were written.
    statements.append(
        (
            "UNWIND [0] AS x CREATE (:Broken {v: 1 / x})"
            if graph.backend == "falkordb"
            else "UNWIND [0] AS x CREATE (:Broken {v: 1 / x})",
            {},
        )
    )
    with pytest.raises(StoreError):
        graph._write_atomic(statements)
    assert graph.counts(scope) == {"episodes": 0, "entities": 0, "facts": 0}
    assert not graph.episode_exists(scope, "ep1")


def test_reads_are_read_only(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    with pytest.raises(StoreError):
        graph._read("CREATE (:Intruder {scope: $scope})", {"scope": scope})
    assert graph._read("MATCH (n:Intruder) RETURN count(n) AS n")[0]["n"] == 0


def test_schema_creation_is_idempotent(store: tuple[GraphStore, str]) -> None:
    graph, _ = store
    graph.ensure_schema(384)
    graph.ensure_schema(384)


def test_values_are_parameters_not_query_text(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    hostile = "x'}) DETACH DELETE n //"
    graph.write_episode(
        plan(scope, "ep1", [(hostile, hostile, "Concept"), ("b", "B", "Concept")], [("f1", hostile, "r`) DELETE", "b")])
    )
    assert graph.entities_by_keys(scope, [hostile])[hostile].name == hostile
    assert graph.counts(scope)["facts"] == 1


def test_name_similarity_is_computed_in_the_store(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(plan(scope, "ep1", [("西红柿", "西红柿", "Food"), ("杭州", "杭州", "Place")], []))
    ids = {name: entity.id for name, entity in graph.entities_by_keys(scope, ["西红柿", "杭州"]).items()}
    vector = EMBED.embed_documents(["番茄"])[0]
    scores = graph.similarities_to(scope, {"番茄": (list(ids.values()), vector)})["番茄"]
    assert set(scores) == set(ids.values())
    assert scores[ids["西红柿"]] > scores[ids["杭州"]]
    assert 0.9 < scores[ids["西红柿"]] <= 1.0001
    assert graph.similarities_to(scope + "-other", {"番茄": (list(ids.values()), vector)}) == {}


def test_generated_queries_run_read_only_bounded_and_scoped(store: tuple[GraphStore, str]) -> None:
    from elephant_broker.store.readonly import UnsafeQueryError

    graph, scope = store
    graph.write_episode(plan(scope, "ep1", [("a", "A", "Concept"), ("b", "B", "Concept")], [("f1", "a", "r", "b")]))
    rows = graph.query_read_only(scope, "MATCH (e:Entity) WHERE e.scope = $scope RETURN e.name AS name", limit=1)
    assert len(rows) == 1 and rows[0]["name"] in {"A", "B"}
    for hostile in ("MATCH (e:Entity) DETACH DELETE e", "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l"):
        with pytest.raises(UnsafeQueryError):
            graph.query_read_only(scope, hostile)
    assert graph.counts(scope)["entities"] == 2


def test_connecting_paths_are_shortest_first_and_scoped(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    people = [("li", "小李", "Person"), ("n8n", "n8n", "Tool"), ("py", "Python", "Language"), ("js", "JS", "Language")]
    graph.write_episode(
        plan(
            scope,
            "ep1",
            people,
            [("f1", "li", "使用", "n8n"), ("f2", "n8n", "支持", "py"), ("f3", "n8n", "支持", "js")],
        )
    )
    ids = {key: entity.id for key, entity in graph.entities_by_keys(scope, ["li", "py", "js", "n8n"]).items()}
    [path] = graph.connecting_paths(scope, [ids["li"], ids["py"]])
    assert path in (["f1", "f2"], ["f2", "f1"])  # along the chain, from either end
    assert graph.connecting_paths(scope, [ids["li"], ids["n8n"]]) == [["f1"]]
    assert graph.connecting_paths(scope, [ids["li"], ids["py"]], max_length=1) == []
    assert graph.connecting_paths(scope, [ids["li"]]) == []
    # another agent's copy of the same chain is not reachable from this scope
    assert graph.connecting_paths(scope + "-other", [ids["li"], ids["py"]]) == []


def test_connecting_paths_of_three_facts_and_the_fanout_of_a_hub(
    store: tuple[GraphStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, scope = store
    nodes = [(key, key.upper(), "Concept") for key in ("a", "x", "y", "b", "hub", "c")]
    chain = [("f1", "a", "r", "x"), ("f2", "x", "r", "y"), ("f3", "y", "r", "b")]
    # The hub's own heavy facts, and one light fact to c at the end of its list.
    spokes = [(f"h{i}", "hub", "r", f"s{i}") for i in range(4)]
    graph.write_episode(plan(scope, "ep1", [*nodes, *[(f"s{i}", f"S{i}", "Concept") for i in range(4)]], chain))
    graph.write_episode(plan(scope, "ep2", [], spokes))
    graph.write_episode(plan(scope, "ep3", [], spokes))  # twice: weight 2
    graph.write_episode(plan(scope, "ep4", [], [("hc", "hub", "r", "c"), ("ca", "c", "r", "a")]))
    ids = {key: entity.id for key, entity in graph.entities_by_keys(scope, ["a", "b", "hub", "c"]).items()}
    assert graph.connecting_paths(scope, [ids["a"], ids["b"]]) in ([["f1", "f2", "f3"]], [["f3", "f2", "f1"]])
    assert graph.connecting_paths(scope, [ids["a"], ids["b"]], max_length=2) == []
    assert graph.connecting_paths(scope, [ids["hub"], ids["a"]]) in ([["hc", "ca"]], [["ca", "hc"]])
    # Past the hub's fan-out its light fact is not walked: no path, rather than a walk of every fact.
    monkeypatch.setattr(store_base, "PATH_FANOUT", 4)
    assert graph.connecting_paths(scope, [ids["hub"], ids["a"]]) == []
    # A direct fact is always found, however many facts an end has.
    assert graph.connecting_paths(scope, [ids["hub"], ids["c"]]) == [["hc"]]


def test_upgrade_turns_old_list_fact_vectors_into_vectors_once(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    graph.write_episode(plan(scope, "ep1", [("a", "A", "Concept"), ("b", "B", "Concept")], [("f1", "a", "r", "b")]))
    graph.upgrade()
    assert graph.upgrade() is False  # the layout version is recorded: nothing scanned again
    vector = EMBED.embed_documents(["a r b"])[0]
    # A store written before layout 2 held plain lists, and no layout version.
    graph._write_atomic(
        [
            ("MATCH ()-[f:FACT {id: 'f1'}]->() SET f.embedding = $vector", {"vector": vector}),
            ("MATCH (m:StoreMeta) DELETE m", {}),
        ]
    )
    assert graph.upgrade() is True
    [(fact, similarity)] = graph.facts_touching(scope, [fact_end(graph, scope, "a")], similar_to=vector)
    assert fact.id == "f1" and similarity == pytest.approx(1.0, abs=1e-3)
    assert graph.upgrade() is False


def test_superseded_facts_are_found_past_a_subjects_heavier_facts(store: tuple[GraphStore, str]) -> None:
    """History is read by status and predicate: a hub's many heavier facts do not hide a retired one."""
    graph, scope = store
    others = [(f"x{n}", f"X{n}", "Concept") for n in range(60)]
    graph.write_episode(
        plan(
            scope,
            "ep1",
            [("hub", "Hub", "Concept"), ("old", "Old", "Concept"), ("new", "New", "Concept"), *others],
            [
                ("retired", "hub", "uses", "old"),
                ("current", "hub", "uses", "new"),
                ("other-retired", "hub", "likes", "old"),
                ("incoming-retired", "old", "uses", "hub"),
                *[(f"f{n}", "hub", "knows", f"x{n}") for n in range(60)],
            ],
        )
    )
    graph._write_atomic(
        [
            ("MATCH ()-[f:FACT]->() WHERE f.id STARTS WITH 'f' SET f.weight = 5", {}),
            (
                "MATCH ()-[f:FACT]->() WHERE f.id IN ['retired', 'other-retired', 'incoming-retired'] "
                "SET f.status = 'superseded', f.expired_at = 1",
                {},
            ),
        ]
    )
    hub = fact_end(graph, scope, "hub")
    assert "retired" not in {fact.id for fact, _ in graph.facts_touching(scope, [hub], limit=50, history=True)}
    assert [fact.id for fact in graph.superseded_facts(scope, [(hub, "uses")])] == ["retired"]
    assert graph.superseded_facts(f"{scope}-other", [(hub, "uses")]) == []
    assert graph.superseded_facts(scope, []) == []


def test_facts_touching_can_leave_out_hubs(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for number in range(3):  # "hub" is mentioned by three episodes, "a" and "b" by one each
        entities = [("hub", "Hub", "Concept"), ("a", "A", "Concept"), ("b", "B", "Concept")][: 3 if number == 0 else 1]
        facts = [("f1", "a", "r", "hub"), ("f2", "b", "r", "a")] if number == 0 else []
        graph.write_episode(plan(scope, f"ep{number}", entities, facts))
    hub, a = fact_end(graph, scope, "hub"), fact_end(graph, scope, "a")
    assert {fact.id for fact, _ in graph.facts_touching(scope, [hub, a])} == {"f1", "f2"}
    assert {fact.id for fact, _ in graph.facts_touching(scope, [hub], max_mentions=2)} == set()
    assert {fact.id for fact, _ in graph.facts_touching(scope, [hub, a], max_mentions=2)} == {"f1", "f2"}  # via "a"
    assert {fact.id for fact, _ in graph.facts_touching(scope, [hub], max_mentions=3)} == {"f1"}


def fact_end(graph: GraphStore, scope: str, key: str) -> str:
    return graph.entities_by_keys(scope, [key])[key].id


def test_a_speakers_turns_before_and_after_an_episode(store: tuple[GraphStore, str]) -> None:
    """What a correction corrects, and what corrects an episode: the same speaker's turns in the session."""
    graph, scope = store
    for episode_id, created in (("t1", 10), ("t2", 20), ("t3", 30), ("t4", 40)):
        write = plan(scope, episode_id, [], [])
        graph.write_episode(
            write.model_copy(update={"episode": write.episode.model_copy(update={"created_at": created})})
        )
    other = plan(scope, "elsewhere", [], [])
    graph.write_episode(
        other.model_copy(update={"episode": other.episode.model_copy(update={"created_at": 25, "session_id": "s2"})})
    )
    [second] = graph.episodes_by_ids(scope, ["t2"])
    assert [turn.id for turn in graph.next_turns(scope, second, 2)] == ["t3", "t4"]
    assert [turn.id for turn in graph.last_turns(scope, "s", "tester", 3)] == ["t4", "t3", "t2"]
    assert graph.last_turns(scope, "s", "someone else", 3) == []
    [last] = graph.episodes_by_ids(scope, ["t4"])
    assert graph.next_turns(scope, last) == []
