"""Generated queries that try to escape their scope, bound or read-only mode, on the real store.

Two agents' memories share one embedded FalkorDB graph. Each attempt below is run as
agent ``mine`` through ``GraphStore.query_read_only``: it is either refused with a
one-line ``UnsafeQueryError``, or it runs and returns only ``mine``'s data, never more
rows than the limit, and the graph is unchanged afterwards.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from elephant_broker.domain.graph_query import json_safe
from elephant_broker.store import GraphStore, StoreError, open_store
from elephant_broker.store.embedded import EmbeddedFalkorDB
from elephant_broker.store.readonly import UnsafeQueryError

from tests.integration.plans import EMBED, plan

LIMIT = 3
REFUSED = "refused"
"""Refused by the guard, before the database sees the query."""
ROWS = "rows"
"""Runs and returns at least one row, all of the caller's own memory."""
NOTHING_ELSE = "nothing-else"
"""Runs; whatever it returns is the caller's own (often nothing at all)."""
BACKEND = "backend"
"""Scoped correctly, but FalkorDB lacks the syntax (Neo4j runs it): runs, or fails in the database."""

LONG_WHERE = " OR ".join(["n.name = 'Mallory'"] * 600)
DEEP = "(" * 40 + "1" + ")" * 40

ATTEMPTS: list[tuple[str, str, str]] = [
    # (family, query, expected outcome)
    ("keyword variable", "MATCH return = (ep:Episode) RETURN ep.text", REFUSED),
    ("keyword variable", "MATCH where = (n:Entity) RETURN n", REFUSED),
    ("keyword variable", "MATCH with = (n) RETURN with", REFUSED),
    ("keyword variable", "MATCH (match:Entity) RETURN match.name", REFUSED),
    ("keyword variable", "UNWIND [1] AS return RETURN return", REFUSED),
    ("keyword variable", "MATCH (n) RETURN n.name AS where", REFUSED),
    ("keyword variable", "MATCH (optional) RETURN optional.name", REFUSED),
    ("named path", "MATCH p = (a)-[:FACT]->(b) RETURN nodes(p) AS ns", ROWS),
    ("named path", "MATCH p = (ep:Episode)-[:MENTIONS]->(e) RETURN ep.text AS text, e.name AS name", ROWS),
    ("comment", "MATCH (n) RETURN n.name // LIMIT 1000", ROWS),
    ("comment", "MATCH (n) RETURN n.name LIMIT 1000 // lowered all the same", ROWS),
    ("comment", "MATCH (n /* {scope: $other} */) RETURN n.name", ROWS),
    ("comment", "MATCH (n //\n) RETURN n.name", ROWS),
    ("comment", "MATCH (n) RETURN n.name /* */ LIMIT 1000", ROWS),
    ("comment", "MATCH (n) RETURN n.name LIMIT /* 1 */ 1000", ROWS),
    ("comment", "MATCH (n) RETURN n.name /* LIMIT 1 */", ROWS),
    ("comment", "MATCH (n) // note\nMERGE (x:Intruder {id: 1}) RETURN x", REFUSED),
    ("NUL", "MATCH (n) RETURN n.name\x00 LIMIT 1", REFUSED),
    ("NUL", "MATCH (n)\x00-[:FACT]->(m) RETURN m.name", REFUSED),
    ("NUL", "MATCH (n) WHERE n.name = 'a\x00' RETURN n.name", REFUSED),
    ("control character", "MATCH (n)\x1b RETURN n.name", REFUSED),
    ("unicode escape", "MATCH (n\\u0029 RETURN n.name", REFUSED),
    ("unicode escape", "MATCH (小李) RETURN 小李", REFUSED),
    ("unicode escape", "MATCH (n) WHERE n.name = '\\u0027) MATCH (m' RETURN n.name", NOTHING_ELSE),
    ("unicode escape", "MATCH (n) WHERE n.name = '\\x41' RETURN n.name", REFUSED),
    ("string escape", "MATCH (n) WHERE n.name = 'x\\' RETURN n' RETURN n.name", NOTHING_ELSE),
    ("string escape", 'MATCH (n) WHERE n.name <> "a\\"b" RETURN n.name', ROWS),
    ("backquoted", "MATCH (a)-[f:`FACT`]->(b) RETURN f.id AS id, b.name AS name", ROWS),
    ("backquoted", "MATCH (`n`:`Entity`) RETURN `n`.name AS name", ROWS),
    ("backquoted", "MATCH (n {`scope`: $other}) RETURN n.name", REFUSED),
    ("backquoted", "RETURN `apoc.cypher.runFirstColumnSingle`('MATCH (n) RETURN n', {}) AS x", REFUSED),
    ("label expression", "MATCH (n:Entity:Person) RETURN n.name", ROWS),
    ("label expression", "MATCH (n:Entity|Episode) RETURN n.name", BACKEND),
    ("label expression", "MATCH (n:!Entity) RETURN n.name", REFUSED),
    ("label expression", "MATCH (n:Entity WHERE n.scope = $other) RETURN n.name", REFUSED),
    ("variable length", "MATCH (a {name: 'Alice'})-[*1..5]-(b) RETURN b.name", ROWS),
    ("variable length", "MATCH (a)-[:MENTIONS*]-(b) RETURN b.name", ROWS),
    ("variable length", "MATCH ((a)-[:FACT]->(b)){1,3} RETURN a.name", REFUSED),
    ("optional match", "OPTIONAL MATCH (n {name: 'Mallory'}) RETURN n.name", NOTHING_ELSE),
    ("optional match", "MATCH (a:Entity) OPTIONAL MATCH (a)-[f:FACT]->(b) RETURN a.name, b.name", ROWS),
    (
        "union",
        "MATCH (n:Entity) RETURN n.name AS name UNION MATCH (m) WHERE m.scope = $other RETURN m.name AS name",
        ROWS,
    ),
    ("union", "MATCH (n) RETURN n.name AS name UNION ALL MATCH ()-[f:FACT]->(o) RETURN o.name AS name", ROWS),
    (
        "union",
        "MATCH (n) RETURN n AS n UNION "
        "CALL db.idx.fulltext.queryNodes('Entity', 'Mallory') YIELD node RETURN node AS n",
        REFUSED,
    ),
    ("with then match", "MATCH (a) WITH a MATCH (b) WHERE b.name = 'Mallory' RETURN b.name", NOTHING_ELSE),
    ("with then match", "MATCH (a) WITH a LIMIT 1 MATCH (a)-[:FACT]->(b) RETURN b.name", NOTHING_ELSE),
    ("subquery", "MATCH (a) WHERE EXISTS { MATCH (a)-->(b {name: 'Oscorp'}) } RETURN a.name", BACKEND),
    ("subquery", "MATCH (a) WHERE COUNT { (a)-->() } > 0 RETURN a.name", BACKEND),
    ("subquery", "CALL { MATCH (n) RETURN n } RETURN n.name", REFUSED),
    ("subquery", "MATCH (n) CALL (n) { MATCH (m) RETURN m } RETURN m.name", REFUSED),
    ("subquery", "MATCH (n) RETURN {q: MATCH (m) RETURN m} AS x", REFUSED),
    ("comprehension", "MATCH (n:Entity) RETURN [(n)-[:FACT]->(m) | m.name] AS names", ROWS),
    ("comprehension", "MATCH (n) RETURN [x IN collect(n.name) WHERE x IS NOT NULL] AS names", ROWS),
    ("comprehension", "MATCH (n) WHERE (n)-[:FACT]->({name: 'Oscorp'}) RETURN n.name", NOTHING_ELSE),
    ("procedure", "CALL db.idx.fulltext.queryNodes('Entity', 'Mallory') YIELD node RETURN node.name", REFUSED),
    (
        "procedure",
        "CALL db.idx.vector.queryNodes('Entity', 'embedding', 5, vecf32($v)) YIELD node RETURN node",
        REFUSED,
    ),
    ("procedure", "CALL apoc.cypher.run('MATCH (n) RETURN n', {}) YIELD value RETURN value", REFUSED),
    ("procedure", "CALL db.labels() YIELD label RETURN label", ROWS),
    ("load csv", "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", REFUSED),
    ("apoc", "RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) RETURN n.name', {}) AS x", REFUSED),
    ("apoc", "RETURN apoc.`cypher`.runFirstColumnSingle('MATCH (n) RETURN n.name', {}) AS x", REFUSED),
    ("write", "MATCH (n) SET n.name = 'x' RETURN n", REFUSED),
    ("write", "MATCH (n) FOREACH (x IN [1] | SET n.y = x) RETURN n", REFUSED),
    ("write", "MATCH (n) DETACH DELETE n", REFUSED),
    ("write", "MATCH (n) RETURN n; MATCH (m) DETACH DELETE m", REFUSED),
    ("write", "MATCH (n) RETURN n.name\n;\nCREATE (x:Intruder)", REFUSED),
    ("scope override", "MATCH (n {scope: 'other'}) RETURN n.name", REFUSED),
    ("scope override", "MATCH (n {scope: $other}) RETURN n.name", REFUSED),
    ("scope override", "MATCH ()-[f:FACT {scope: $other}]->() RETURN f.id", REFUSED),
    ("scope override", "MATCH ()-[r:MENTIONS {scope: $other}]->() RETURN r", REFUSED),
    ("scope override", "MATCH (n $props) RETURN n.name", REFUSED),
    ("scope override", "MATCH (n) WHERE n.scope = $other RETURN n.name", NOTHING_ELSE),
    ("scope override", "MATCH ()-[f:FACT]->(o) WHERE f.scope <> $scope RETURN o.name", NOTHING_ELSE),
    ("scope parameter", "MATCH (n:Entity) RETURN n.name AS name", ROWS),  # run with params {"scope": other}
    ("id lookup", "MATCH (n) WHERE id(n) IN $ids RETURN n.name", NOTHING_ELSE),
    ("id lookup", "MATCH (n)-[*0..3]-(m) WHERE id(m) IN $ids RETURN m.name", NOTHING_ELSE),
    ("limit", "MATCH (n) RETURN n.name LIMIT $many", REFUSED),
    ("limit", "MATCH (n) RETURN n.name LIMIT 99999999999999999999", ROWS),
    ("limit", "MATCH (n) RETURN n.name AS name UNION ALL MATCH (m) RETURN m.name AS name LIMIT 1000", ROWS),
    ("huge", f"MATCH (n) WHERE {LONG_WHERE} RETURN n.name", REFUSED),
    ("deep nesting", f"RETURN {DEEP} AS x", REFUSED),
    ("malformed", "MATCH (n RETURN n", REFUSED),
    ("malformed", "MATCH (n)-[r:FACT->(m) RETURN m", REFUSED),
    ("malformed", "MATCH (n) RETURN n.name AS name UNION", REFUSED),
]


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GraphStore, str, str]]:
    """One embedded store holding two agents' memories: ``mine`` and ``other``."""
    home: Path = tmp_path_factory.mktemp("escapes")
    try:
        store = open_store(None, home)
        store.ensure_schema(len(EMBED.embed_query("x")))
        mine, other = f"mine-{uuid.uuid4().hex[:6]}", f"other-{uuid.uuid4().hex[:6]}"
        people = [
            ("alice", "Alice", "Person"),
            ("acme", "Acme", "Org"),
            ("bob", "Bob", "Person"),
            ("carol", "Carol", "Person"),
        ]
        store.write_episode(
            plan(
                mine,
                "ep-mine",
                people,
                [("f-mine-1", "alice", "works_at", "acme"), ("f-mine-2", "bob", "knows", "alice")],
            )
        )
        store.write_episode(
            plan(
                other,
                "ep-other",
                [("mallory", "Mallory", "Person"), ("oscorp", "Oscorp", "Org")],
                [("f-other", "mallory", "works_at", "oscorp")],
            )
        )
        yield store, mine, other
        store.close()
    finally:
        EmbeddedFalkorDB(home / "falkordb").stop()


def snapshot(store: GraphStore, *scopes: str) -> tuple[Any, ...]:
    """Everything an escape could change: per-scope counts and the raw node and relationship counts."""
    raw = store._read("MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS nodes, count(r) AS edges", {})
    return (*(tuple(sorted(store.counts(scope).items())) for scope in scopes), raw[0]["nodes"], raw[0]["edges"])


def other_markers(store: GraphStore, other: str) -> set[str]:
    """Strings that appear only in the other agent's memory: its names, ids, texts and scope."""
    rows = store._read(
        "MATCH (n) WHERE n.scope = $s OPTIONAL MATCH (n)-[f:FACT]->() "
        "RETURN n.id AS id, n.name AS name, n.text AS text, f.id AS fact",
        {"s": other},
    )
    found = {str(value) for row in rows for value in row.values() if value}
    return found | {other, "Mallory", "Oscorp", "ep-other", "f-other"}


@pytest.mark.parametrize(
    ("family", "query", "outcome"), ATTEMPTS, ids=[f"{i:02d}-{a[0]}" for i, a in enumerate(ATTEMPTS)]
)
def test_generated_query_cannot_escape(
    graph: tuple[GraphStore, str, str], family: str, query: str, outcome: str
) -> None:
    store, mine, other = graph
    before = snapshot(store, mine, other)
    other_ids = [row["i"] for row in store._read("MATCH (n) WHERE n.scope = $s RETURN id(n) AS i", {"s": other})]
    params: dict[str, Any] = {
        "other": other,
        "ids": other_ids,
        "props": {"scope": other},
        "many": 1000,
        "v": EMBED.embed_query("Mallory"),
    }
    if family == "scope parameter":
        params["scope"] = other  # a caller-supplied $scope is overridden by the real one
    try:
        rows = store.query_read_only(mine, query, params, limit=LIMIT)
    except UnsafeQueryError as error:
        assert outcome == REFUSED, f"refused unexpectedly: {error}"
        assert str(error) and "\n" not in str(error)
        rows = []
    except StoreError as error:
        assert outcome == BACKEND, f"the database failed it: {error}"
        rows = []
    else:
        assert outcome != REFUSED, f"ran instead of being refused: {rows}"
        text = json.dumps(json_safe(rows), ensure_ascii=False)
        leaked = sorted(marker for marker in other_markers(store, other) if marker in text)
        assert not leaked, f"another agent's memory leaked: {leaked} in {text}"
        assert len(rows) <= LIMIT
        if outcome == ROWS:
            assert rows and text != "[]"
    assert snapshot(store, mine, other) == before


def test_a_hidden_or_missing_limit_still_bounds_the_rows(graph: tuple[GraphStore, str, str]) -> None:
    store, mine, _ = graph
    assert store.counts(mine)["entities"] > LIMIT
    for query in (
        "MATCH (n) RETURN n.name // LIMIT 1000",
        "MATCH (n) RETURN n.name /* */ LIMIT 1000",
        "MATCH (n) RETURN n.name AS name UNION ALL MATCH (m) RETURN m.name AS name LIMIT 1000",
    ):
        assert len(store.query_read_only(mine, query, limit=LIMIT)) == LIMIT
    assert len(store.query_read_only(mine, "MATCH (n) RETURN n.name LIMIT 2", limit=LIMIT)) == 2


def test_the_pinned_scope_finds_the_own_memory(graph: tuple[GraphStore, str, str]) -> None:
    store, mine, other = graph
    rows = store.query_read_only(mine, "MATCH (a)-[f:FACT]->(b) RETURN a.name AS a, b.name AS b ORDER BY a", limit=10)
    assert rows == [{"a": "Alice", "b": "Acme"}, {"a": "Bob", "b": "Alice"}]
    theirs = store.query_read_only(other, "MATCH (a)-[f:FACT]->(b) RETURN a.name AS a, b.name AS b", limit=10)
    assert theirs == [{"a": "Mallory", "b": "Oscorp"}]


def test_there_are_enough_attempts() -> None:
    assert len(ATTEMPTS) >= 40
    assert len({family for family, _, _ in ATTEMPTS}) >= 20
