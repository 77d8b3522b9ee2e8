"""Generated queries are pinned to the caller's scope, or refused when they cannot be."""

from __future__ import annotations

import pytest

from store.readonly import UnsafeQueryError, check_read_only
from store.scoping import blank_literals, scope_query

S = "scope: $scope"

SCOPED = [
    # node patterns: bare, labelled, with a map, anonymous, several labels
    ("MATCH (n) RETURN n", f"MATCH (n {{{S}}}) RETURN n"),
    ("MATCH (n:Entity) RETURN n.name", f"MATCH (n:Entity {{{S}}}) RETURN n.name"),
    ("MATCH (n:Entity {name: $x}) RETURN n", f"MATCH (n:Entity {{name: $x, {S}}}) RETURN n"),
    ("MATCH (n:Entity {}) RETURN n", f"MATCH (n:Entity {{{S}}}) RETURN n"),
    ("MATCH (n:Entity:Person) RETURN n", f"MATCH (n:Entity:Person {{{S}}}) RETURN n"),
    ("MATCH (n:Person|Place) RETURN n", f"MATCH (n:Person|Place {{{S}}}) RETURN n"),
    ("MATCH () RETURN count(*)", f"MATCH ( {{{S}}}) RETURN count(*)"),
    ("MATCH (`my node`:Entity) RETURN `my node`", f"MATCH (`my node`:Entity {{{S}}}) RETURN `my node`"),
    # FACT relationships carry a scope; MENTIONS and untyped ones do not (their ends are pinned)
    (
        "MATCH ()-[r:FACT]->() RETURN r.id",
        f"MATCH ( {{{S}}})-[r:FACT {{{S}}}]->( {{{S}}}) RETURN r.id",
    ),
    (
        "MATCH (s)-[f:FACT {predicate_key: 'uses'}]->(o) RETURN f.id AS fact_id",
        f"MATCH (s {{{S}}})-[f:FACT {{predicate_key: 'uses', {S}}}]->(o {{{S}}}) RETURN f.id AS fact_id",
    ),
    (
        "MATCH (a)<-[:FACT]-(b) RETURN a",
        f"MATCH (a {{{S}}})<-[:FACT {{{S}}}]-(b {{{S}}}) RETURN a",
    ),
    (
        "MATCH (a)-[:FACT*1..3]-(b) RETURN b",
        f"MATCH (a {{{S}}})-[:FACT*1..3 {{{S}}}]-(b {{{S}}}) RETURN b",
    ),
    (
        "MATCH (ep:Episode)-[:MENTIONS]->(e) RETURN ep.text",
        f"MATCH (ep:Episode {{{S}}})-[:MENTIONS]->(e {{{S}}}) RETURN ep.text",
    ),
    ("MATCH (a)-[r]-(b) RETURN r", f"MATCH (a {{{S}}})-[r]-(b {{{S}}}) RETURN r"),
    ("MATCH (a)-->(b)<--(c) RETURN c", f"MATCH (a {{{S}}})-->(b {{{S}}})<--(c {{{S}}}) RETURN c"),
    ("MATCH (a)-[:FACT|MENTIONS]-(b) RETURN b", f"MATCH (a {{{S}}})-[:FACT|MENTIONS]-(b {{{S}}}) RETURN b"),
    # comma-separated patterns, path variables, OPTIONAL MATCH, several MATCH clauses, UNION
    ("MATCH (a), (b) RETURN a, b", f"MATCH (a {{{S}}}), (b {{{S}}}) RETURN a, b"),
    ("MATCH p = (a)-->(b) RETURN p", f"MATCH p = (a {{{S}}})-->(b {{{S}}}) RETURN p"),
    (
        "MATCH (a:Entity) OPTIONAL MATCH (a)-[f:FACT]->(b) RETURN a, b",
        f"MATCH (a:Entity {{{S}}}) OPTIONAL MATCH (a {{{S}}})-[f:FACT {{{S}}}]->(b {{{S}}}) RETURN a, b",
    ),
    (
        "MATCH (a) WITH a MATCH (a)-->(b) RETURN b",
        f"MATCH (a {{{S}}}) WITH a MATCH (a {{{S}}})-->(b {{{S}}}) RETURN b",
    ),
    (
        "MATCH (a:Person) RETURN a.name AS n UNION MATCH (b:Place) RETURN b.name AS n",
        f"MATCH (a:Person {{{S}}}) RETURN a.name AS n UNION MATCH (b:Place {{{S}}}) RETURN b.name AS n",
    ),
    ("UNWIND $names AS x MATCH (e {name: x}) RETURN e", f"UNWIND $names AS x MATCH (e {{name: x, {S}}}) RETURN e"),
    # patterns inside expressions: predicates, comprehensions, EXISTS subqueries, shortestPath
    (
        "MATCH (a) WHERE (a)-[:FACT]->(:Place) RETURN a",
        f"MATCH (a {{{S}}}) WHERE (a {{{S}}})-[:FACT {{{S}}}]->(:Place {{{S}}}) RETURN a",
    ),
    (
        "MATCH (a) WHERE NOT (a)-->() RETURN a",
        f"MATCH (a {{{S}}}) WHERE NOT (a {{{S}}})-->( {{{S}}}) RETURN a",
    ),
    (
        "MATCH (a) RETURN [(a)<-[:MENTIONS]-(ep) | ep.text] AS texts",
        f"MATCH (a {{{S}}}) RETURN [(a {{{S}}})<-[:MENTIONS]-(ep {{{S}}}) | ep.text] AS texts",
    ),
    (
        "MATCH (a) WHERE EXISTS { MATCH (a)-->(b:Place) } RETURN a",
        f"MATCH (a {{{S}}}) WHERE EXISTS {{ MATCH (a {{{S}}})-->(b:Place {{{S}}}) }} RETURN a",
    ),
    (
        "MATCH (a) WHERE COUNT { (a)-->() } > 2 RETURN a",
        f"MATCH (a {{{S}}}) WHERE COUNT {{ (a {{{S}}})-->( {{{S}}}) }} > 2 RETURN a",
    ),
    (
        "MATCH (a {name: $x}), (b {name: $y}) RETURN shortestPath((a)-[*]-(b)) AS p",
        f"MATCH (a {{name: $x, {S}}}), (b {{name: $y, {S}}}) RETURN shortestPath((a {{{S}}})-[*]-(b {{{S}}})) AS p",
    ),
    (
        "MATCH (a) RETURN size((a)-[:FACT]->()) AS degree",
        f"MATCH (a {{{S}}}) RETURN size((a {{{S}}})-[:FACT {{{S}}}]->( {{{S}}})) AS degree",
    ),
    # a map value that calls a function, and a multi-line query
    (
        "MATCH (e:Entity {name: toLower($x)}) RETURN e",
        f"MATCH (e:Entity {{name: toLower($x), {S}}}) RETURN e",
    ),
    (
        "MATCH (s:Entity)\n  -[f:FACT]->\n  (o)\nRETURN o",
        f"MATCH (s:Entity {{{S}}})\n  -[f:FACT {{{S}}}]->\n  (o {{{S}}})\nRETURN o",
    ),
]

# Parentheses that are not patterns are left alone, and so is text inside strings and comments.
EXPRESSIONS_LEFT_ALONE = [
    ("RETURN count(n), toLower(x), (1 + 2) * 3", "RETURN count(n), toLower(x), (1 + 2) * 3"),
    ("RETURN date.truncate('day', datetime()) AS d", "RETURN date.truncate('day', datetime()) AS d"),
    (
        "MATCH (n) WHERE (n.age > 3 AND (n.name = 'x (y)')) RETURN (n)",
        f"MATCH (n {{{S}}}) WHERE (n.age > 3 AND (n.name = 'x (y)')) RETURN (n)",
    ),
    ("MATCH (n) WITH n, (n.a) - (n.b) AS d RETURN d", f"MATCH (n {{{S}}}) WITH n, (n.a) - (n.b) AS d RETURN d"),
    ("MATCH (n {name: 'a)-[:FACT]->(b'}) RETURN n", f"MATCH (n {{name: 'a)-[:FACT]->(b', {S}}}) RETURN n"),
    ("MATCH (n) // (m)-->(x)\nRETURN n", f"MATCH (n {{{S}}}) // (m)-->(x)\nRETURN n"),
    (
        "MATCH (n) RETURN [x IN n.aliases WHERE x <> '' | toUpper(x)]",
        f"MATCH (n {{{S}}}) RETURN [x IN n.aliases WHERE x <> '' | toUpper(x)]",
    ),
    (
        "MATCH (n) RETURN n {.name, .id} AS m, {a: (1)} AS k",
        f"MATCH (n {{{S}}}) RETURN n {{.name, .id}} AS m, {{a: (1)}} AS k",
    ),
    ("MATCH (n) RETURN all(x IN [1, 2] WHERE x > 0)", f"MATCH (n {{{S}}}) RETURN all(x IN [1, 2] WHERE x > 0)"),
    ("MATCH (n) RETURN n.aliases[0], collect(n)[0..2]", f"MATCH (n {{{S}}}) RETURN n.aliases[0], collect(n)[0..2]"),
    ("CALL db.labels() YIELD label RETURN label", "CALL db.labels() YIELD label RETURN label"),
]

REFUSED = [
    # a query may not pick its own scope, however it spells the key
    "MATCH (n {scope: 'agent-b'}) RETURN n",
    "MATCH (n {`scope`: 'agent-b'}) RETURN n",
    "MATCH (n {name: 'x', scope: $other}) RETURN n",
    "MATCH ()-[f:FACT {scope: 'agent-b'}]->() RETURN f",
    # pattern shapes the rewrite does not understand
    "MATCH (n:Entity WHERE n.name = 'x') RETURN n",
    "MATCH ((a)-[:FACT]->(b)){1,3} RETURN a",
    "MATCH (x)-->((a)-[:FACT]->(b))+ RETURN a",
    "MATCH (a)-[:FACT]->{1,3}(b) RETURN b",
    "MATCH (a) ((b)-->(c))+ RETURN c",
    "MATCH (n:%) RETURN n",
    "MATCH (n:!Entity) RETURN n",
    "MATCH (n $props) RETURN n",
    "MATCH (小李) RETURN 小李",
    "MATCH ()-[r:FACT WHERE r.weight > 1]->() RETURN r",
    "MATCH ()-[r:FACT $props]->() RETURN r",
    "MATCH (n {name}) RETURN n",
    # procedures and functions that reach data the rewrite never sees
    "CALL db.idx.fulltext.queryNodes('Entity', 'python') YIELD node RETURN node.name",
    "CALL db.index.vector.queryNodes('entity_embedding', 5, $v) YIELD node RETURN node",
    "MATCH (n) CALL (n) { MATCH (m) RETURN m } RETURN m",
    "RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) RETURN n', {}) AS x",
    "RETURN apoc.`cypher`.runFirstColumnSingle('MATCH (n) RETURN n', {}) AS x",
    "RETURN `apoc.cypher.runFirstColumnSingle`('MATCH (n) RETURN n', {}) AS x",
    "RETURN gds.util.asNode(1) AS x",
    "MATCH (n) RETURN {q: MATCH (m) RETURN m}",
    # malformed
    "MATCH (n RETURN n",
    "MATCH (n)) RETURN n",
    "MATCH (n)-[r:FACT->(m) RETURN m",
]


@pytest.mark.parametrize(("query", "expected"), SCOPED + EXPRESSIONS_LEFT_ALONE)
def test_every_pattern_is_pinned_to_the_scope(query: str, expected: str) -> None:
    assert scope_query(query) == expected


@pytest.mark.parametrize(("query", "expected"), SCOPED + EXPRESSIONS_LEFT_ALONE)
def test_scoped_queries_are_still_plain_reads_and_scoping_twice_changes_nothing(query: str, expected: str) -> None:
    scoped = scope_query(query)
    assert check_read_only(scoped) == scoped.strip()
    assert scope_query(scoped) == scoped


@pytest.mark.parametrize("query", REFUSED)
def test_shapes_that_cannot_be_scoped_are_refused(query: str) -> None:
    with pytest.raises(UnsafeQueryError):
        scope_query(query)


def test_an_explicit_scope_parameter_is_kept_not_duplicated() -> None:
    query = "MATCH (n:Entity {scope: $scope, name: $x})-[f:FACT {`scope`: $scope}]->(m) RETURN m"
    assert scope_query(query) == (
        f"MATCH (n:Entity {{scope: $scope, name: $x}})-[f:FACT {{`scope`: $scope}}]->(m {{{S}}}) RETURN m"
    )


def test_blanking_keeps_offsets_and_hides_strings_comments_and_quoted_names() -> None:
    query = "MATCH (n {name: 'a (b)'}) /* (c) */ RETURN n.`x (y)` // (d)"
    blanked = blank_literals(query)
    assert len(blanked) == len(query)
    assert blanked.count("(") == 1 and blanked.index("(") == query.index("(")
    assert "'" + " " * 5 + "'" in blanked and "`_____`" in blanked
