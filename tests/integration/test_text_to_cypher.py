"""Text-to-Cypher on a real embedded store, with a scripted model writing the queries."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, cast

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.answers import CitedAnswer
from elephant_broker.domain.graph_query import CACHE_FILE, GeneratedQuery, QueryCache, describe_schema, question_pattern
from elephant_broker.nodes.analyse_question import analyse_question
from elephant_broker.nodes.query_graph import query_graph
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.state import AnswerState
from elephant_broker.store import GraphStore, StoreError
from elephant_broker.store.readonly import UnsafeQueryError
from langgraph.runtime import Runtime

from tests.fakes import ScriptedChatModel
from tests.integration.plans import plan

EMPLOYER = (
    "MATCH (s:Entity)-[f:FACT]->(o:Entity) WHERE s.name = $p0 AND f.predicate_key = 'works_at' "
    "RETURN o.name AS employer, f.id AS fact_id"
)
EVERY_FACT = (
    "MATCH (s:Entity)-[f:FACT]->(o:Entity) "
    "RETURN s.name AS subject, f.predicate_key AS predicate, o.name AS object, f.id AS fact_id"
)


def generated(cypher: str) -> GeneratedQuery:
    return GeneratedQuery(cypher=cypher, explanation="scripted")


@pytest.fixture
def memory(context: Context) -> Broker:
    """Three facts remembered offline in scope ``test``; the context then switches to the fake model."""
    broker = Broker(context)
    for text in ("Alice works at Initech.", "Bob works at Globex.", "Alice uses Python."):
        broker.remember(text, speaker="narrator")
    context.llm = "fake:scripted"
    return broker


def ask(context: Context, question: str, **fields: Any) -> dict[str, Any]:
    """Run the node as the answer graph would: after ``analyse_question`` normalised the request."""
    runtime = Runtime(context=context)
    state = cast(AnswerState, {"question": question, **fields})
    state.update(analyse_question(state, runtime))  # type: ignore[typeddict-item]
    return query_graph(state, runtime)


def stored_ids(broker: Broker, agent_id: str | None = None) -> set[str]:
    return {fact.id for fact in broker.facts(agent_id=agent_id)}


# -- (a) a good query ------------------------------------------------------------------------


def test_a_generated_query_returns_rows_and_the_facts_they_name(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    scripted.queue(generated(EMPLOYER))
    result = ask(context, "Where does Alice work?")
    [row] = result["query_rows"]
    assert row["employer"] == "Initech"
    [fact] = result["found_facts"]
    assert fact.id == row["fact_id"] and fact.id in stored_ids(memory)
    assert (fact.subject, fact.predicate_key, fact.object) == ("Alice", "works_at", "Initech")
    # the prompt carried the schema, the parameters and the question
    system, user = scripted.calls[0]
    assert "$scope" in system[1]
    assert "works_at" in user[1] and '$p0 = "Alice"' in user[1] and "Where does Alice work?" in user[1]


def test_the_schema_summary_shows_this_scopes_predicates(memory: Broker, context: Context) -> None:
    schema = describe_schema(memory.store, "test")
    assert dict(schema.predicates) == {"works_at": 2, "uses": 1}
    assert {"Entity", "Episode"} <= set(schema.labels) and "FACT" in schema.relationship_types
    assert "predicate_key" in schema.properties["FACT"] and "embedding" not in schema.properties["Entity"]
    assert describe_schema(memory.store, "nobody").predicates == ()


# -- (b) writes, LOAD CSV and apoc are refused, repaired once, and change nothing -----------------

HOSTILE = [
    # (query, what the refusal says)
    ("CREATE (n:Entity {name: 'Mallory'}) RETURN n", "must start with MATCH"),
    ("MATCH (a:Entity) CREATE (n:Entity {name: 'Mallory'}) RETURN n", "CREATE is not allowed"),
    ("MATCH (a:Entity) MERGE (n:Entity {name: a.name}) RETURN n", "MERGE is not allowed"),
    ("MATCH (n) DETACH DELETE n", "DETACH is not allowed"),
    ("LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", "must start with MATCH"),
    ("MATCH (n) WITH n LIMIT 1 LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", "LOAD CSV is not allowed"),
    ("CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value", "apoc.load.json is not allowed"),
    ("MATCH (n) RETURN apoc.load.json('file:///etc/passwd') AS value", "apoc.load.json is not allowed"),
]


@pytest.mark.parametrize(("hostile", "named"), HOSTILE)
def test_hostile_queries_are_refused_repaired_once_and_change_nothing(
    memory: Broker, context: Context, scripted: ScriptedChatModel, hostile: str, named: str
) -> None:
    before = memory.counts()
    ids_before = stored_ids(memory)
    scripted.queue(generated(hostile), generated(hostile))
    result = ask(context, "Where does Alice work?")
    assert result["query_rows"] == [] and named in result["query_error"]
    assert len(scripted.calls) == 2
    repair_requests = [message for call in scripted.calls for message in call if "The query below failed" in message[1]]
    [repair] = repair_requests
    assert hostile in repair[1] and named in repair[1]
    assert memory.counts() == before and stored_ids(memory) == ids_before
    pattern = question_pattern("Where does Alice work?", ["Alice"]).text
    assert (
        QueryCache(Path(context.home) / CACHE_FILE).get(pattern, describe_schema(memory.store, "test").fingerprint)
        is None
    )


def test_a_refused_write_is_followed_by_its_repair(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    before = memory.counts()
    scripted.queue(generated("MATCH (s:Entity {name: $p0}) SET s.name = 'Mallory' RETURN s"), generated(EMPLOYER))
    result = ask(context, "Where does Alice work?")
    assert [row["employer"] for row in result["query_rows"]] == ["Initech"]
    assert "SET is not allowed" in scripted.calls[1][-1][1]
    assert memory.counts() == before


# -- (c) a broken query is repaired -----------------------------------------------------------


def test_a_query_the_database_rejects_is_repaired_and_the_repair_is_cached(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    broken = "MATCH (s:Entity)-[f:FACT]->(o:Entity) WHERE s.name = $p0 RETURN nosuchfunction(o.name) AS employer"
    scripted.queue(generated(broken), generated(EMPLOYER))
    result = ask(context, "Where does Alice work?")
    assert [row["employer"] for row in result["query_rows"]] == ["Initech"]
    assert "query_error" not in result
    repair = scripted.calls[1][-1][1]
    assert broken in repair and "nosuchfunction" in repair.split("<error>")[1]
    pattern = question_pattern("Where does Alice work?", ["Alice"]).text
    fingerprint = describe_schema(memory.store, "test").fingerprint
    assert QueryCache(Path(context.home) / CACHE_FILE).get(pattern, fingerprint) == EMPLOYER


# -- (d) the cache ---------------------------------------------------------------------------


def test_the_same_pattern_with_another_name_reuses_the_cached_query(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    scripted.queue(generated(EMPLOYER))
    assert [row["employer"] for row in ask(context, "Where does Alice work?")["query_rows"]] == ["Initech"]
    assert len(scripted.calls) == 1
    # nothing is queued: a model call now would fail
    result = ask(context, "where does Bob work")
    assert [row["employer"] for row in result["query_rows"]] == ["Globex"]
    assert len(scripted.calls) == 1
    assert [fact.object for fact in result["found_facts"]] == ["Globex"]


def test_a_query_with_the_name_as_a_literal_is_not_cached(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    literal = EMPLOYER.replace("$p0", "'Alice'")
    scripted.queue(generated(literal), generated(EMPLOYER))
    assert [row["employer"] for row in ask(context, "Where does Alice work?")["query_rows"]] == ["Initech"]
    assert [row["employer"] for row in ask(context, "Where does Bob work?")["query_rows"]] == ["Globex"]
    assert len(scripted.calls) == 2


def test_a_cached_query_that_fails_is_evicted_and_regenerated(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    cache = QueryCache(Path(context.home) / CACHE_FILE)
    pattern = question_pattern("Where does Alice work?", ["Alice"]).text
    fingerprint = describe_schema(memory.store, "test").fingerprint
    cache.put(pattern, fingerprint, "MATCH (n) RETURN nosuchfunction(n) AS employer")
    scripted.queue(generated(EMPLOYER))
    result = ask(context, "Where does Alice work?")
    assert [row["employer"] for row in result["query_rows"]] == ["Initech"]
    assert len(scripted.calls) == 1
    assert cache.get(pattern, fingerprint) == EMPLOYER


# -- (e) scope -------------------------------------------------------------------------------


def test_a_query_from_one_agent_never_returns_another_agents_facts(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    context.llm = ""
    memory.remember("Carol works at Umbrella.", speaker="narrator", agent_id="agent-b")
    context.llm = "fake:scripted"
    other = stored_ids(memory, "agent-b")
    assert len(other) == 1
    [other_id] = other
    scripted.queue(
        generated(EVERY_FACT),
        # ids of another agent's facts, named as literals, find nothing either
        generated(f"MATCH ()-[f:FACT]->() WHERE f.id = '{other_id}' RETURN f.id AS fact_id"),
        generated(f"RETURN '{other_id}' AS fact_id"),
    )
    everything = ask(context, "What do you know?")
    assert {row["object"] for row in everything["query_rows"]} == {"Initech", "Globex", "Python"}
    assert {fact.id for fact in everything["found_facts"]} == stored_ids(memory)
    assert ask(context, "What is fact one?")["query_rows"] == []
    named = ask(context, "What is fact two?")
    assert named["query_rows"] == [{"fact_id": other_id}] and named["found_facts"] == []
    # agent-b asking the same question reuses the cached query, and sees only its own facts
    theirs = ask(context, "What do you know?", agent_id="agent-b")
    assert [row["object"] for row in theirs["query_rows"]] == ["Umbrella"]
    assert [fact.id for fact in theirs["found_facts"]] == [other_id]
    assert len(scripted.calls) == 3


def test_a_query_that_names_another_scope_is_refused(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    scripted.queue(
        generated("MATCH (s:Entity {scope: 'agent-b'})-[f:FACT]->(o) RETURN o.name AS object"),
        generated("MATCH (s:Entity)-[f:FACT]->(o) WHERE f.scope = 'agent-b' RETURN o.name AS object"),
    )
    result = ask(context, "What does agent b know?")
    assert result["query_rows"] == []
    assert "may not choose its scope" in scripted.calls[1][-1][1]


@pytest.mark.parametrize(
    "escape",
    [
        "MATCH return = (ep:Episode) RETURN ep.text AS text",
        "MATCH where = (n:Entity) RETURN n.name AS text",
        "MATCH (ep:Episode) RETURN ep.text AS text // LIMIT 1",
    ],
)
def test_keyword_variables_and_comments_do_not_escape_the_scope(
    escape: str, memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    context.llm = ""
    memory.remember("Carol works at Umbrella.", speaker="narrator", agent_id="agent-b")
    context.llm = "fake:scripted"
    scripted.queue(generated(escape), generated(escape))
    result = ask(context, "List everything you remember.")
    seen = " ".join(str(value) for row in result["query_rows"] for value in row.values())
    assert "Carol" not in seen and "Umbrella" not in seen
    assert len(result["query_rows"]) <= context.cypher_limit


# -- the store layer itself, on every backend -------------------------------------------------


def test_generated_queries_cannot_see_another_scope(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    other = scope + "-other"
    graph.write_episode(plan(scope, "ep1", [("a", "A", "Concept"), ("b", "B", "Concept")], [("f1", "a", "r", "b")]))
    graph.write_episode(plan(other, "ep2", [("c", "C", "Concept"), ("d", "D", "Concept")], [("f2", "c", "r", "d")]))
    try:
        queries = [
            "MATCH (n) RETURN n.name AS name",
            "MATCH (n:Entity) RETURN n.name AS name",
            "MATCH ()-[f:FACT]->(o) RETURN o.name AS name",
            "MATCH (n) WHERE n.name IN ['A', 'B', 'C', 'D'] RETURN n.name AS name",
            "MATCH (ep:Episode)-[:MENTIONS]->(e) RETURN e.name AS name",
            "MATCH (a {name: 'A'}), (c {name: 'C'}) RETURN c.name AS name",
            "MATCH (n) WHERE (n)-[:FACT]->({name: 'D'}) RETURN n.name AS name",
            "MATCH (n:Entity) RETURN [(n)-[:FACT]->(m) | m.name][0] AS name",
        ]
        seen = {row["name"] for query in queries for row in graph.query_read_only(scope, query) if row["name"]}
        assert seen == {"A", "B"}
        assert graph.query_read_only(other, "MATCH (n:Entity) RETURN n.name AS name ORDER BY name") == [
            {"name": "C"},
            {"name": "D"},
        ]
        with pytest.raises(UnsafeQueryError):
            graph.query_read_only(scope, "MATCH (n {scope: $other}) RETURN n.name AS name", {"other": other})
        with pytest.raises(UnsafeQueryError):
            graph.query_read_only(scope, "CALL db.idx.fulltext.queryNodes('Entity', 'c') YIELD node RETURN node.name")
        # a caller-supplied $scope is overridden by the real one
        rows = graph.query_read_only(scope, "MATCH (n:Entity) RETURN n.name AS name", {"scope": other})
        assert {row["name"] for row in rows} == {"A", "B"}
    finally:
        graph.delete_scope(other)


def test_generated_queries_are_stopped_by_the_server_timeout(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    slow = "UNWIND range(1, 50000000) AS x WITH x WHERE x % 7 = 3 RETURN count(x) AS n"
    started = time.monotonic()
    with pytest.raises(StoreError, match="(?i)time"):
        graph.query_read_only(scope, slow, timeout_ms=20)
    assert time.monotonic() - started < 10
    assert graph.query_read_only(scope, "UNWIND range(1, 100) AS x RETURN count(x) AS n", timeout_ms=5000) == [
        {"n": 100}
    ]


# -- in the answer graph -------------------------------------------------------------------


def test_a_counting_question_gets_a_query_alongside_retrieval(
    memory: Broker, context: Context, scripted: ScriptedChatModel
) -> None:
    counting = "MATCH (:Entity)-[f:FACT]->(:Entity) WHERE f.predicate_key = 'works_at' RETURN count(f) AS employed"
    scripted.queue(
        generated(counting),
        CitedAnswer(answer="Two people work at a company.", in_memory=True),
    )
    answer = memory.ask("How many people work at a company?")
    assert answer.answer == "Two people work at a company."
    final_prompt = scripted.calls[-1][1][1]
    assert '{"employed": 2}' in final_prompt
    assert len(scripted.calls) == 2


def test_a_plain_lookup_makes_no_query(memory: Broker, context: Context, scripted: ScriptedChatModel) -> None:
    [alice_at_initech] = [fact for fact in memory.facts() if fact.object == "Initech"]
    scripted.queue(CitedAnswer(answer="Initech.", fact_ids=[alice_at_initech.id]))
    answer = memory.ask("Where does Alice work?")
    assert [fact.id for fact in answer.facts] == [alice_at_initech.id]
    assert len(scripted.calls) == 1  # only the answer: no generated query for a single lookup
