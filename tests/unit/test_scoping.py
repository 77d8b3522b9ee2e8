"""Generated queries are pinned to the caller's scope, or refused when they cannot be."""

from __future__ import annotations

import time

import pytest
from elephant_broker.store.readonly import UnsafeQueryError, check_read_only
from elephant_broker.store.scoping import blank_literals, scope_query

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
    # comments are dropped from the rebuilt query (a gap holding one becomes a space or a line break)
    ("MATCH (n) // (m)-->(x)\nRETURN n", f"MATCH (n {{{S}}})\nRETURN n"),
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


# Keywords are reserved: a query that uses one as a variable does not parse, so a scanner
# that looks for clause words can no longer be steered around a pattern.
KEYWORD_VARIABLES = [
    "MATCH return = (ep:Episode) RETURN ep.text",
    "MATCH where = (n:Entity) RETURN n",
    "MATCH with = (n) RETURN with",
    "MATCH (match:Entity) RETURN match",
    "MATCH (n)-[return:FACT]->(m) RETURN return",
    "UNWIND [1] AS return RETURN return",
    "MATCH (n) WITH n AS where RETURN where",
    "MATCH (n) RETURN n.name AS limit",
    "MATCH (n) RETURN n AS union UNION MATCH (m) RETURN m AS union",
    "MATCH (set) RETURN set",
    "MATCH (n:Entity) RETURN n ORDER BY n.name DESC, return",
]

# Text the old keyword scanner could be fooled by; each rebuilt from the parse.
TRICKS = [
    # a comment is dropped, wherever it stands
    ("MATCH (n /* {scope: $other} */) RETURN n", f"MATCH (n {{{S}}} ) RETURN n"),
    ("MATCH (n //\n) RETURN n", f"MATCH (n {{{S}}}\n) RETURN n"),
    ("MATCH (n) RETURN n // LIMIT 1", f"MATCH (n {{{S}}}) RETURN n"),
    ("MATCH (n)/**/-[:FACT]->/**/(m) RETURN m", f"MATCH (n {{{S}}}) -[:FACT {{{S}}}]-> (m {{{S}}}) RETURN m"),
    # strings with escapes stay strings
    ("MATCH (n {name: 'x\\' }) MATCH (m'}) RETURN n", f"MATCH (n {{name: 'x\\' }}) MATCH (m', {S}}}) RETURN n"),
    (
        "MATCH (n) WHERE n.name = '\\u0027)-[:FACT]->(m' RETURN n",
        f"MATCH (n {{{S}}}) WHERE n.name = '\\u0027)-[:FACT]->(m' RETURN n",
    ),
    ('MATCH (n {name: "a\\"b"}) RETURN n', f'MATCH (n {{name: "a\\"b", {S}}}) RETURN n'),
    # a keyword spelling is a name as a property or a map key, and backquoted anywhere
    ("MATCH (n {match: 1}) RETURN n.return", f"MATCH (n {{match: 1, {S}}}) RETURN n.return"),
    ("MATCH (`return`) RETURN `return`", f"MATCH (`return` {{{S}}}) RETURN `return`"),
    # a backquoted type counts by its real text
    ("MATCH ()-[f:`FACT`]->() RETURN f", f"MATCH ( {{{S}}})-[f:`FACT` {{{S}}}]->( {{{S}}}) RETURN f"),
]

TRICKS_REFUSED = [
    "MATCH (n) RETURN n\x00",
    "MATCH (n)\x00-[:FACT]->(m) RETURN m",
    "MATCH (n {name: 'a\x00b'}) RETURN n",
    "MATCH (n)\u2028RETURN n",
    "MATCH (n\\u0029 RETURN n",
    "MATCH (n) WHERE n.name = '\\x41' RETURN n",
    "MATCH (n {name: 'unterminated}) RETURN n",
    "MATCH (n) RETURN n /* unterminated",
    "MATCH (n) RETURN n; MATCH (m) RETURN m",
    "MATCH (n) // comment\nSET n.x = 1 RETURN n",
    "MATCH (n) RETURN n.name UNION ALL CALL db.idx.fulltext.queryNodes('Entity', 'x') YIELD node RETURN node.name",
    "MATCH (n) RETURN [x IN range(1, 3) | apoc.text.join([], '')] AS x",
    "MATCH (n) RETURN size(x IN [1])",
    "MATCH (n) RETURN ``",
    "MATCH (n)-[:FACT|`FACT``x`]->(m) RETURN m",
    "MATCH (n) RETURN " + "(" * 40 + "1" + ")" * 40,
    "MATCH (n) WHERE " + " OR ".join(["n.name = 'x'"] * 1000) + " RETURN n",
]


@pytest.mark.parametrize("query", KEYWORD_VARIABLES)
def test_keywords_used_as_variables_are_refused(query: str) -> None:
    with pytest.raises(UnsafeQueryError) as refused:
        scope_query(query)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("query", "expected"), TRICKS)
def test_comments_strings_and_quoted_names_cannot_steer_the_rewrite(query: str, expected: str) -> None:
    assert scope_query(query) == expected


@pytest.mark.parametrize("query", TRICKS_REFUSED)
def test_control_characters_bad_escapes_and_oversized_queries_are_refused(query: str) -> None:
    with pytest.raises(UnsafeQueryError) as refused:
        scope_query(query)
    assert str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("MATCH (n) RETURN n // LIMIT 1", f"MATCH (n {{{S}}}) RETURN n LIMIT 5"),
        ("MATCH (n) RETURN n LIMIT /* 1 */ 500", f"MATCH (n {{{S}}}) RETURN n LIMIT 5"),
        ("MATCH (n) RETURN n LIMIT 2 // 500", f"MATCH (n {{{S}}}) RETURN n LIMIT 2"),
        (
            "MATCH (n) WITH n LIMIT 100 RETURN n ORDER BY n.name",
            f"MATCH (n {{{S}}}) WITH n LIMIT 100 RETURN n ORDER BY n.name LIMIT 5",
        ),
        (
            "MATCH (a) RETURN a AS x UNION MATCH (b) RETURN b AS x LIMIT 50",
            f"MATCH (a {{{S}}}) RETURN a AS x LIMIT 5 UNION MATCH (b {{{S}}}) RETURN b AS x LIMIT 5",
        ),
        (
            "MATCH (a) RETURN COUNT { MATCH (a)-->(b) RETURN b LIMIT 50 } AS c",
            f"MATCH (a {{{S}}}) RETURN COUNT {{ MATCH (a {{{S}}})-->(b {{{S}}}) RETURN b LIMIT 50 }} AS c LIMIT 5",
        ),
    ],
)
def test_the_limit_is_applied_on_the_parse(query: str, expected: str) -> None:
    assert scope_query(query, limit=5) == expected


def test_a_parse_takes_milliseconds() -> None:
    query = (
        "MATCH (s:Entity {name: $p0})-[f:FACT]->(o:Entity) WHERE f.predicate_key IN ['works_at', 'uses'] "
        "AND NOT (o)<-[:MENTIONS]-(:Episode {speaker: 'x'}) WITH s, f, o ORDER BY f.confidence DESC "
        "RETURN s.name AS subject, f.predicate AS predicate, o.name AS object, f.id AS fact_id, "
        "[(o)-[g:FACT]->(p) WHERE g.weight > 0.5 | p.name][0..3] AS next LIMIT 20"
    )
    scope_query(query)  # builds the parser once
    started = time.perf_counter()
    for _ in range(20):
        scope_query(query)
    assert (time.perf_counter() - started) / 20 < 0.05
