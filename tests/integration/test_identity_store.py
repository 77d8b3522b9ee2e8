"""The identity queries of the store (merge records, alias table, unmerge), on every backend."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from elephant_broker.domain.identity import unmerge
from elephant_broker.schemas.models import MergeRecord
from elephant_broker.store import GraphStore, StoreError

from tests.integration.plans import EMBED, plan

HOSTILE = "北大'}) DETACH DELETE n //"


def write(
    graph: GraphStore,
    scope: str,
    episode_id: str,
    entities: list[tuple[str, str, str]],
    facts: list[tuple[str, str, str, str]],
    merges: Sequence[MergeRecord] = (),
) -> None:
    """Write one episode: entities (key, name, type), facts (id, subject key, predicate, object key)."""
    graph.write_episode(plan(scope, episode_id, entities, facts, merges, confidence=0.9, authority=0.6))


def merge(record_id: str, episode_id: str, fact_ids: list[str], sole: bool = True) -> MergeRecord:
    return MergeRecord(
        id=record_id,
        alias=HOSTILE,
        alias_key="北大",
        alias_type="Organization",
        into_key="北京大学",
        method="embedding",
        score=0.95,
        reason="test",
        episode_id=episode_id,
        episode_ids=[episode_id],
        fact_ids=fact_ids,
        sole_episode_ids=[episode_id] if sole else [],
    )


@pytest.fixture
def merged(store: tuple[GraphStore, str]) -> tuple[GraphStore, str]:
    """北京大学 stored by ep1; ep2 reaches it through the alias (recorded); ep3 through the alias table."""
    graph, scope = store
    pku = ("北京大学", "北京大学", "Organization")
    write(graph, scope, "ep1", [("小明", "小明", "Person"), pku], [("f1", "小明", "graduated", "北京大学")])
    write(
        graph,
        scope,
        "ep2",
        [("小红", "小红", "Person"), ("北京大学", HOSTILE, "Organization")],
        [("f2", "小红", "studies", "北京大学")],
        [merge("m1", "ep2", ["f2"])],
    )
    write(
        graph,
        scope,
        "ep3",
        [("小明", "小明", "Person"), ("北京大学", HOSTILE, "Organization")],
        [("f1", "小明", "graduated", "北京大学")],
        [merge("m1", "ep3", ["f1"])],
    )
    return graph, scope


def test_merge_records_accumulate_and_feed_the_alias_table(merged: tuple[GraphStore, str]) -> None:
    graph, scope = merged
    [record] = graph.list_merges(scope)
    assert (record.id, record.alias, record.into_name, record.method) == ("m1", HOSTILE, "北京大学", "embedding")
    assert record.episode_ids == ["ep2", "ep3"] and record.fact_ids == ["f2", "f1"]
    assert record.episode_id == "ep2" and record.undone_at is None and record.created_at
    assert [m.id for m in graph.active_merges(scope, ["北大"])] == ["m1"]
    assert graph.active_merges(scope, ["清华"]) == []
    pku = graph.identities_by_keys(scope, ["北京大学"])["北京大学"]
    assert pku.alias_keys == ["北大"] and pku.aliases == [HOSTILE]
    assert pku.mention_count == 3
    assert graph.entity_keys_for_name(scope, "北大") == ["北京大学"]
    assert (
        "北大"
        in graph._read(
            "MATCH (e:Entity {key: '北京大学'}) WHERE e.scope = $scope RETURN e.search_text AS s", {"scope": scope}
        )[0]["s"]
    )
    assert graph.counts(scope) == {"episodes": 3, "entities": 3, "facts": 2}


def test_writing_an_episode_again_adds_nothing_to_its_merge_record(merged: tuple[GraphStore, str]) -> None:
    graph, scope = merged
    # A re-read (the first reading fell back to the rules) writes the same episode again.
    write(
        graph,
        scope,
        "ep3",
        [("小明", "小明", "Person"), ("北京大学", HOSTILE, "Organization")],
        [("f1", "小明", "graduated", "北京大学")],
        [merge("m1", "ep3", ["f1"])],
    )
    [record] = graph.list_merges(scope)
    assert record.episode_ids == ["ep2", "ep3"] and record.fact_ids == ["f2", "f1"]
    assert graph.identities_by_keys(scope, ["北京大学"])["北京大学"].mention_count == 3


def nearest_names(graph: GraphStore, scope: str, name: str, k: int) -> list[tuple[str, float]]:
    """The keys of the entities nearest ``name`` by name embedding, with their similarity."""
    hits = graph.entities_near(scope, {name: EMBED.embed_documents([name])[0]}, k).get(name, [])
    identities = graph.identities_by_ids(scope, [entity_id for entity_id, _ in hits])
    return [(identities[entity_id].key, similarity) for entity_id, similarity in hits]


def test_identity_neighbours_stay_in_scope(merged: tuple[GraphStore, str]) -> None:
    graph, scope = merged
    hits = nearest_names(graph, scope, "北大", k=2)
    assert hits[0][0] == "北京大学" and 0.9 < hits[0][1] <= 1.0001
    assert nearest_names(graph, scope + "-other", "北大", k=8) == []


def test_unmerge_moves_and_splits_facts_keeping_provenance(merged: tuple[GraphStore, str]) -> None:
    graph, scope = merged
    before = {f.id: f for f in graph.list_facts(scope)}
    assert before["f1"].episode_ids == ["ep1", "ep3"] and before["f1"].weight == 2

    record = unmerge(graph, EMBED, scope, "m1")
    assert record.undone_at is not None and record.restored_id
    after = {(f.subject, f.object): f for f in graph.list_facts(scope)}
    # f2 came only through the alias: moved whole, same id and properties
    moved = after[("小红", HOSTILE)]
    assert (moved.id, moved.weight, moved.confidence, moved.episode_ids) == ("f2", 1, 0.9, ["ep2"])
    assert moved.object_id == record.restored_id
    authority = graph._read(
        "MATCH ()-[f:FACT {id: 'f2'}]->() WHERE f.scope = $scope RETURN f.authority AS a", {"scope": scope}
    )
    assert authority == [{"a": 0.6}]
    # f1 was said through both names: split by episode
    kept, split = after[("小明", "北京大学")], after[("小明", HOSTILE)]
    assert (kept.id, kept.episode_ids, kept.weight) == ("f1", ["ep1"], 1)
    assert split.id != "f1" and (split.episode_ids, split.weight, split.confidence) == (["ep3"], 1, 0.9)
    # mentions: ep2 and ep3 mentioned 北京大学 only through the alias
    rows = graph._read(
        "MATCH (ep:Episode)-[:MENTIONS]->(e:Entity) WHERE ep.scope = $scope AND e.type = 'Organization' "
        "RETURN ep.id AS ep, e.key AS key ORDER BY ep",
        {"scope": scope},
    )
    assert [(row["ep"], row["key"]) for row in rows] == [("ep1", "北京大学"), ("ep2", "北大"), ("ep3", "北大")]
    identities = graph.identities_by_keys(scope, ["北京大学", "北大"])
    assert identities["北京大学"].alias_keys == [] and identities["北京大学"].aliases == []
    assert identities["北京大学"].mention_count == 1
    assert (identities["北大"].name, identities["北大"].mention_count) == (HOSTILE, 2)
    assert graph.active_merges(scope, ["北大"]) == []
    [listed] = graph.list_merges(scope)
    assert listed.undone_at is not None and listed.restored_id == record.restored_id
    assert graph.counts(scope) == {"episodes": 3, "entities": 4, "facts": 3}
    # the restored entity has a name embedding: it is found by similarity
    assert nearest_names(graph, scope, HOSTILE, k=1)[0][0] == "北大"
    with pytest.raises(ValueError, match="already undone"):
        unmerge(graph, EMBED, scope, "m1")


def test_a_failed_unmerge_changes_nothing(merged: tuple[GraphStore, str]) -> None:
    graph, scope = merged
    found = graph.get_merge(scope, "m1")
    assert found is not None
    facts_before = sorted((f.id, f.subject, f.object, f.weight) for f in graph.list_facts(scope))

    original = graph.unmerge_statements

    def broken(plan):  # type: ignore[no-untyped-def]
        return [*original(plan), ("UNWIND [0] AS x CREATE (:Broken {v: 1 / x})", {})]

    graph.unmerge_statements = broken  # type: ignore[method-assign]
    with pytest.raises(StoreError):
        unmerge(graph, EMBED, scope, "m1")
    assert sorted((f.id, f.subject, f.object, f.weight) for f in graph.list_facts(scope)) == facts_before
    assert graph.get_merge(scope, "m1")[0].undone_at is None  # type: ignore[index]
    assert graph.counts(scope)["entities"] == 3
