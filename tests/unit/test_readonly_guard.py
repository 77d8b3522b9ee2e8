"""The guard for generated Cypher refuses everything but plain reads."""

from __future__ import annotations

import pytest
from elephant_broker.store.readonly import UnsafeQueryError, check_read_only, with_limit

SAFE = [
    "MATCH (n:Entity) RETURN n.name LIMIT 5",
    "MATCH (n {name: 'CREATE (x)'}) RETURN n",  # the keyword is inside a string
    'MATCH (n) WHERE n.note = "DELETE everything" RETURN n',
    "MATCH (n) RETURN n.set, n.start, n.create_time",  # properties named like keywords
    "MATCH (s)-[f:FACT]->(o) WHERE f.scope = $scope RETURN s.name, f.predicate, o.name",
    "OPTIONAL MATCH (n:Entity) WITH n RETURN count(n)",
    "UNWIND $names AS name MATCH (e:Entity {name: name}) RETURN e",
    "CALL db.idx.fulltext.queryNodes('Entity', 'python') YIELD node RETURN node.name",
    "MATCH (n) RETURN {set: 1, merge: 2} AS m",
    "MATCH (n) RETURN n // a trailing comment with DELETE in it",
    "MATCH (n) RETURN n;",
]

HOSTILE = [
    "CREATE (n:Intruder)",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) SET n.name = 'x'",
    "MATCH (n) REMOVE n.name",
    "MERGE (n:X {id: 1})",
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
    "load  csv from 'file:///etc/passwd' as l return l",
    "MATCH (n) RETURN n; MATCH (m) DETACH DELETE m",
    "MATCH (n) /* hide */ DELETE n",
    "CALL apoc.load.json('http://example.invalid/x') YIELD value RETURN value",
    "CALL apoc.cypher.runWrite('CREATE (n)', {}) YIELD value RETURN value",
    "CALL dbms.setConfigValue('x', 'y')",
    "CALL db.idx.fulltext.createNodeIndex('X', 'y')",
    "CALL { CREATE (n) } RETURN 1",
    "MATCH (n) CALL { WITH n RETURN n } RETURN n",
    "MATCH (n) FOREACH (x IN [1] | SET n.y = x)",
    "DROP INDEX x",
    "SHOW DATABASES",
    "GRAPH.DELETE elephant",
    "",
    "   ",
    "RETURN 1 UNION CALL dbms.procedures()",
]


@pytest.mark.parametrize("query", SAFE)
def test_plain_reads_pass(query: str) -> None:
    assert check_read_only(query) == query.strip().rstrip(";").strip()


@pytest.mark.parametrize("query", HOSTILE)
def test_everything_else_is_refused(query: str) -> None:
    with pytest.raises(UnsafeQueryError):
        check_read_only(query)


def test_results_are_bounded() -> None:
    assert with_limit("MATCH (n) RETURN n", 50) == "MATCH (n) RETURN n LIMIT 50"
    assert with_limit("MATCH (n) RETURN n LIMIT 10", 50) == "MATCH (n) RETURN n LIMIT 10"
    assert with_limit("MATCH (n) RETURN n LIMIT 5000", 50) == "MATCH (n) RETURN n LIMIT 50"
    with pytest.raises(UnsafeQueryError):
        with_limit("MATCH (n) RETURN n LIMIT $many", 50)


def test_no_comment_hides_or_moves_the_limit() -> None:
    assert with_limit("MATCH (n) RETURN n // trailing", 50) == "MATCH (n) RETURN n LIMIT 50"
    assert with_limit("MATCH (n) RETURN n LIMIT 5000 // note", 50) == "MATCH (n) RETURN n LIMIT 50"
    assert with_limit("MATCH (n) RETURN n /* LIMIT 1 */", 50) == "MATCH (n) RETURN n LIMIT 50"
    assert with_limit("MATCH (n) RETURN n LIMIT /* x */ 5000", 50) == "MATCH (n) RETURN n LIMIT 50"
    assert with_limit("MATCH (n) RETURN n;", 50) == "MATCH (n) RETURN n LIMIT 50"
    with pytest.raises(UnsafeQueryError):
        with_limit("MATCH (n) RETURN n LIMIT 1 + 1", 50)


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n) RETURN n // note\nMERGE (m:Intruder) RETURN m",
        "MATCH (n) RETURN n\x00",
        "MATCH (return) RETURN return",
        "MATCH (n) RETURN n UNION MATCH (m)",
        "MATCH (n) RETURN n\n;\nMATCH (m) RETURN m",
    ],
)
def test_what_does_not_parse_as_a_read_is_refused(query: str) -> None:
    with pytest.raises(UnsafeQueryError) as refused:
        check_read_only(query)
    assert "\n" not in str(refused.value)
