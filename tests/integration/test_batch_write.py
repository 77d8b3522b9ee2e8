"""``GraphStore.write_episodes``: many episodes in one transaction, as if written one by one.

The same plans are written one by one into one scope and as one batch into another;
everything the store holds must then be the same (ids differ only by their scope
prefix). A batch that fails part-way writes nothing, and writing it again adds nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from elephant_broker.schemas.models import Conflict, EpisodeWrite, Fact, FactUpdate, MergeRecord
from elephant_broker.store import GraphStore, StoreError
from elephant_broker.store.base import entity_id

from tests.integration.plans import plan


def batch(scope: str) -> list[EpisodeWrite]:
    """Five episodes whose effects overlap: shared entities and facts, merges, updates, a conflict."""
    p = f"{scope}-"  # merge, conflict and episode ids are global: keep each scope's apart
    people = [("a", "Alpha", "Concept"), ("b", "Beta", "Person")]
    first = plan(scope, p + "ep1", people, [(p + "f1", "a", "likes", "b")])
    first.facts[0].confidence = 0.6
    second = plan(
        scope,
        p + "ep2",
        [("a", "alpha", "Concept"), ("c", "Gamma", "Food")],
        [(p + "f1", "a", "likes", "b"), (p + "f2", "a", "eats", "c")],
        [merge(p + "m1", "AA", "a", p + "ep2", [p + "f2"])],
    )
    second.entities.append(second.entities[0].model_copy(update={"key": "b", "name": "Beta", "type": "Person"}))
    second.facts[0].confidence, second.facts[1].confidence = 0.9, 0.5
    third = plan(scope, p + "ep3", [("b", "Bee", "Person"), ("c", "Gamma", "Food")], [])
    old = Fact(id=p + "f2", subject="Alpha", predicate="eats", object="Gamma", predicate_key="eats")
    new = old.model_copy(update={"id": p + "f3"})
    third.fact_updates = [
        FactUpdate(fact_id=p + "f2", status="superseded", valid_to="2025-01-01", expired_at=5),
        FactUpdate(fact_id=p + "f1", confidence_factor=0.5),
    ]
    third.conflicts = [
        Conflict(id=p + "x1", kind="single_value", subject="Alpha", predicate_key="eats", old_fact=old, new_fact=new)
    ]
    # f1 again after its confidence was halved: 0.7 beats 0.9 x 0.5, as it would one by one.
    fourth = plan(scope, p + "ep4", [("a", "Alpha", "Tool"), ("b", "Beta", "Person")], [(p + "f1", "a", "likes", "b")])
    fourth.facts[0].confidence = 0.7
    fourth.merges = [merge(p + "m1", "AA", "a", p + "ep4", [p + "f1"]), merge(p + "m2", "A.", "a", p + "ep4", [])]
    # The first episode again (a re-read): nothing new but its reading.
    again = first.model_copy(update={"read_by": "model"})
    return [first, second, third, fourth, again]


def merge(merge_id: str, alias: str, into: str, episode: str, facts: list[str]) -> MergeRecord:
    return MergeRecord(
        id=merge_id,
        alias=alias,
        alias_key=alias.lower(),
        into_key=into,
        method="fulltext",
        score=0.9,
        episode_id=episode,
        episode_ids=[episode],
        fact_ids=facts,
        sole_episode_ids=[episode],
    )


def snapshot(graph: GraphStore, scope: str) -> dict[str, Any]:
    """Everything a scope holds, with its scope prefix taken out of ids and without write times."""

    def local(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(f"{scope}-", "")
        if isinstance(value, list):
            return [local(item) for item in value]
        return value

    queries = {
        "episodes": "MATCH (ep:Episode) WHERE ep.scope = $scope "
        "RETURN ep.id AS id, ep.read_by AS read_by, ep.text AS text ORDER BY ep.created_at",
        "entities": "MATCH (e:Entity) WHERE e.scope = $scope RETURN e.key AS key, e.name AS name, e.type AS type, "
        "labels(e) AS labels, e.aliases AS aliases, e.alias_keys AS alias_keys, e.search_text AS search_text, "
        "e.mention_count AS mentions, e.embedding IS NULL AS no_vector ORDER BY key",
        "mentions": "MATCH (ep:Episode)-[:MENTIONS]->(e:Entity) WHERE e.scope = $scope "
        "RETURN ep.id AS episode, e.key AS key ORDER BY episode, key",
        "facts": "MATCH (s:Entity)-[f:FACT]->(o:Entity) WHERE f.scope = $scope RETURN f.id AS id, s.key AS s, "
        "o.key AS o, f.weight AS weight, f.episode_ids AS episodes, round(f.confidence * 1000) AS confidence, "
        "f.status AS status, f.valid_to AS valid_to, f.expired_at AS expired_at, f.created_at AS created_at "
        "ORDER BY id",
        "merges": "MATCH (m:Merge)-[:MERGED_INTO]->(e:Entity) WHERE m.scope = $scope RETURN m.id AS id, "
        "e.key AS into, m.episode_ids AS episodes, m.assertions AS assertions, m.sole_episode_ids AS sole "
        "ORDER BY id",
        "conflicts": "MATCH (x:Conflict) WHERE x.scope = $scope RETURN x.id AS id, x.episode_id AS episode",
    }
    found = {name: graph._read(query, {"scope": scope}) for name, query in queries.items()}
    if graph.vectors is not None:  # the embedded store keeps vectors in its vector file
        kept = graph.vectors.ids("Entity", scope)
        for row in found["entities"]:
            row["no_vector"] = entity_id(scope, row["key"]) not in kept
    return {name: [{key: local(value) for key, value in row.items()} for row in rows] for name, rows in found.items()}


def test_a_batch_leaves_what_writing_its_episodes_one_by_one_leaves(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    batched = scope + "-batch"
    try:
        one_by_one = [graph.write_episode(p) for p in batch(scope)]
        counts = graph.write_plans(batch(batched))
        assert counts == one_by_one
        assert [tuple(c) for c in counts] == [(1, 2, 1), (1, 1, 1), (1, 0, 0), (1, 0, 0), (0, 0, 0)]
        expected = snapshot(graph, scope)
        assert snapshot(graph, batched) == expected
        facts = {row["id"]: row for row in expected["facts"]}
        assert facts["f1"]["confidence"] == 700 and facts["f1"]["weight"] == 3
        assert facts["f2"]["status"] == "superseded"
        alpha = next(row for row in expected["entities"] if row["key"] == "a")
        assert alpha["type"] == "Tool" and alpha["aliases"] == ["alpha", "AA", "A."]
        assert alpha["mentions"] == 3
    finally:
        graph.delete_scope(batched)


def test_writing_a_batch_again_adds_nothing(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    first = graph.write_episodes(batch(scope))
    assert tuple(first) == (4, 3, 2)
    before = snapshot(graph, scope)
    assert tuple(graph.write_episodes(batch(scope))) == (0, 0, 0)
    after = snapshot(graph, scope)
    assert after == before


def test_a_batch_that_fails_part_way_writes_nothing(
    store: tuple[GraphStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, scope = store
    original = graph.episode_statements

    def failing(plans: list[EpisodeWrite], write_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        # Fails at run time, after every episode, entity, fact and merge of the batch was written.
        return [*original(plans, write_id), ("UNWIND [0] AS x CREATE (:Broken {v: 1 / x})", {})]

    monkeypatch.setattr(graph, "episode_statements", failing)
    with pytest.raises(StoreError):
        graph.write_episodes(batch(scope))
    monkeypatch.undo()
    assert graph.counts(scope) == {"episodes": 0, "entities": 0, "facts": 0}
    assert graph._read("MATCH (n) WHERE n.scope = $scope RETURN count(n) AS n", {"scope": scope}) == [{"n": 0}]
    assert graph._read("MATCH (n:Broken) RETURN count(n) AS n") == [{"n": 0}]
    assert tuple(graph.write_episodes(batch(scope))) == (4, 3, 2)


def test_episodes_of_a_batch_keep_their_order(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    plans = [plan(scope, f"{scope}-turn{i}", [], []) for i in range(30)]
    graph.write_episodes(plans[:15])
    graph.write_episodes(plans[15:])
    rows = graph._read(
        "MATCH (ep:Episode) WHERE ep.scope = $scope RETURN ep.id AS id ORDER BY ep.created_at", {"scope": scope}
    )
    assert [row["id"] for row in rows] == [p.episode.id for p in plans]
