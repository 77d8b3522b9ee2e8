"""Text-to-Cypher without a database: patterns, the cache, the repair loop, result shaping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.domain.graph_query import (
    GeneratedQuery,
    GraphSchema,
    QueryCache,
    TextToCypherError,
    generate_and_run,
    is_reusable,
    json_safe,
    question_pattern,
)
from elephant_broker.language.question import analyse_question
from elephant_broker.nodes.query_graph import query_graph
from elephant_broker.prompts.cypher import CYPHER_REPAIR
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.state import AnswerState
from elephant_broker.store.base import Row, StoreError
from elephant_broker.store.readonly import UnsafeQueryError
from langgraph.runtime import Runtime

from tests.fakes import ScriptedChatModel

# -- question patterns ---------------------------------------------------------------


def test_names_become_parameters_so_questions_about_different_people_share_a_pattern() -> None:
    alice = question_pattern("Where does Alice work?", ["Alice"])
    bob = question_pattern("where does Bob  work", ["Bob"])
    assert alice.text == bob.text == "where does $p0 work"
    assert alice.parameters == {"p0": "Alice"} and bob.parameters == {"p0": "Bob"}


def test_quotes_numbers_and_repeated_values_get_placeholders_in_order() -> None:
    pattern = question_pattern("Did Alice say 'hello' to Bob 3 times, and did Bob reply?", ["Alice", "Bob"])
    assert pattern.text == "did $p0 say $p1 to $p2 $p3 times, and did $p2 reply"
    assert pattern.parameters == {"p0": "Alice", "p1": "hello", "p2": "Bob", "p3": 3}


def test_apostrophes_are_not_quotes_and_unlinked_words_stay_in_the_pattern() -> None:
    pattern = question_pattern("What's Alice's job at Initech?", ["Alice"])
    assert pattern.text == "what's $p0's job at initech"
    assert pattern.parameters == {"p0": "Alice"}


def test_the_longest_chinese_name_wins() -> None:
    pattern = question_pattern("小李在北京大学读了几年？", ["北京", "北京大学", "小李"])
    assert pattern.text == "$p0在$p1读了几年"
    assert pattern.parameters == {"p0": "小李", "p1": "北京大学"}


def test_only_queries_that_use_parameters_for_the_values_are_reused() -> None:
    parameters = {"p0": "Alice", "p1": 3, "speaker": "user"}
    assert is_reusable("MATCH (s:Entity) WHERE s.name = $p0 RETURN s LIMIT $p1", parameters)
    assert not is_reusable("MATCH (s:Entity) WHERE s.name = 'alice' RETURN s", parameters)
    assert not is_reusable("MATCH (s:Entity) WHERE s.name = $p0 RETURN s LIMIT 3", parameters)
    assert not is_reusable('MATCH (s:Entity) WHERE s.name = $p0 AND s.speaker = "user" RETURN s', parameters)


# -- cache and schema fingerprint ----------------------------------------------------


def test_the_cache_round_trips_evicts_and_is_keyed_by_fingerprint(tmp_path: Path) -> None:
    cache = QueryCache(tmp_path / "home" / "cypher_cache.sqlite")
    assert cache.get("where does $p0 work", "f1") is None
    cache.put("where does $p0 work", "f1", "MATCH (n) RETURN n")
    assert cache.get("where does $p0 work", "f1") == "MATCH (n) RETURN n"
    assert cache.get("where does $p0 work", "f2") is None
    # a second instance (another process) sees the same file
    assert QueryCache(tmp_path / "home" / "cypher_cache.sqlite").get("where does $p0 work", "f1") is not None
    cache.evict("where does $p0 work", "f1")
    assert cache.get("where does $p0 work", "f1") is None


def test_an_unusable_cache_is_a_miss_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "blocked").write_text("a file where the cache directory should be")
    cache = QueryCache(tmp_path / "blocked" / "cypher_cache.sqlite")
    cache.put("p", "f", "MATCH (n) RETURN n")
    assert cache.get("p", "f") is None


def test_the_fingerprint_ignores_what_one_scope_holds_but_follows_the_store_schema() -> None:
    def schema(labels: tuple[str, ...], predicates: tuple[tuple[str, int], ...]) -> GraphSchema:
        return GraphSchema(labels, ("FACT",), ("id", "name"), {"Entity": ("id", "name")}, predicates)

    agent_a = schema(("Entity", "Person"), (("works_at", 3),))
    agent_b = schema(("Entity", "Person"), (("uses", 1), ("likes", 2)))
    assert agent_a.fingerprint == agent_b.fingerprint
    assert schema(("Entity", "Person", "Place"), ()).fingerprint != agent_a.fingerprint
    assert "works_at (3)" in agent_a.summary() and "Entity properties: id, name" in agent_a.summary()


# -- the generate / repair loop ------------------------------------------------------


def test_a_refused_query_is_repaired_once_with_the_error() -> None:
    model = ScriptedChatModel(
        [
            GeneratedQuery(cypher="MATCH (n) DETACH DELETE n", explanation="x"),
            GeneratedQuery(cypher="ok", explanation="y"),
        ]
    )
    ran: list[str] = []

    def run(cypher: str) -> list[Row]:
        ran.append(cypher)
        if cypher != "ok":
            raise UnsafeQueryError("not a read-only query: DELETE is not allowed")
        return [{"n": 1}]

    assert generate_and_run(model, [("system", "s"), ("user", "u")], run) == ("ok", [{"n": 1}])
    assert ran == ["MATCH (n) DETACH DELETE n", "ok"]
    first, second = model.calls
    assert first == [("system", "s"), ("user", "u")]
    assert second[:3] == [("system", "s"), ("user", "u"), ("assistant", "MATCH (n) DETACH DELETE n")]
    assert second[3][1] == CYPHER_REPAIR.format(
        query="MATCH (n) DETACH DELETE n", error="not a read-only query: DELETE is not allowed"
    )


def test_a_second_failure_gives_up_without_a_third_call() -> None:
    model = ScriptedChatModel([GeneratedQuery(cypher=f"q{i}", explanation="") for i in range(3)])

    def run(cypher: str) -> list[Row]:
        raise StoreError(f"syntax error in {cypher}")

    with pytest.raises(TextToCypherError, match="syntax error in q1"):
        generate_and_run(model, [("user", "u")], run)
    assert len(model.calls) == 2


def test_a_model_failure_is_a_text_to_cypher_error() -> None:
    with pytest.raises(TextToCypherError, match="did not produce a query"):
        generate_and_run(ScriptedChatModel(), [("user", "u")], lambda cypher: [])


# -- results and modes ---------------------------------------------------------------


class _FakeNode:
    def __init__(self, properties: dict[str, object]) -> None:
        self.properties = properties


class _FakePath:
    def nodes(self) -> list[_FakeNode]:
        return [_FakeNode({"name": "A"}), _FakeNode({"name": "B"})]

    def edges(self) -> list[_FakeNode]:
        return [_FakeNode({"id": "f1", "embedding": [0.1]})]


def test_rows_become_plain_json_without_vectors_or_scope() -> None:
    row = {
        "node": _FakeNode({"name": "Alice", "embedding": [0.1, 0.2], "scope": "a", "search_text": "alice"}),
        "path": _FakePath(),
        "score": float("nan"),
        "when": object(),
        "ids": ("f1", "f2"),
    }
    safe = json_safe(row)
    json.dumps(safe)
    assert safe["node"] == {"name": "Alice"}
    assert safe["path"] == {"nodes": [{"name": "A"}, {"name": "B"}], "relationships": [{"id": "f1"}]}
    assert safe["score"] is None and safe["ids"] == ["f1", "f2"] and isinstance(safe["when"], str)


def test_offline_mode_returns_nothing_and_touches_neither_model_nor_store(
    scripted: ScriptedChatModel, tmp_path: Path
) -> None:
    # An unreachable store: any attempt to open it would be recorded as an error.
    context = Context(home=str(tmp_path), store="falkordb://127.0.0.1:9", llm="", agent_id="a")
    assert query_graph(_analysed("Where does Alice work?"), Runtime(context=context)) == {}
    assert scripted.calls == []
    assert not (tmp_path / "cypher_cache.sqlite").exists()


def test_an_unreachable_store_is_recorded_not_raised(scripted: ScriptedChatModel, tmp_path: Path) -> None:
    context = Context(home=str(tmp_path), store="falkordb://127.0.0.1:9", llm="fake:scripted", agent_id="a")
    result = query_graph(_analysed("Where does Alice work?"), Runtime(context=context))
    assert result["query_rows"] == [] and "127.0.0.1:9" in result["query_error"]
    assert scripted.calls == []


def _analysed(question: str) -> AnswerState:
    """The state the node sees in the answer graph: the request as ``analyse_question`` normalised it."""
    return {
        "question": question,
        "asker": "user",
        "scope": "a",
        "resolved_question": question,
        "analysis": analyse_question(question, "user"),
    }
