"""The guard for generated Cypher: only plain reads get through.

Text-to-Cypher output is model text, so it is checked before it reaches a database,
and then run in the backend's read-only mode as well (FalkorDB ``GRAPH.RO_QUERY``,
Neo4j READ access plus an ``EXPLAIN`` query-type check). The guard is needed even so:
``GRAPH.RO_QUERY`` runs ``LOAD CSV`` (which would open ``file:///etc/passwd``),
and Neo4j procedures such as ``apoc.load.*`` or ``dbms.*`` read files, call out or
change settings without being "writes".

Two checks, both needed to pass: a keyword scan (string literals, comments and
backquoted names blanked, so ``MATCH (n {name: 'CREATE'})`` passes while
``MATCH (n) /* */ DETACH DELETE n`` does not), which names the refused clause, and a
real parse (``store.cypher_parser``), whose grammar holds reads only. The row bound is
applied on the parse too: the ``LIMIT`` of each outermost ``RETURN`` is lowered or added
there, and the query rebuilt from its tokens, so no comment can hide it.
"""

from __future__ import annotations

import re

from elephant_broker.store.cypher_parser import ParsedQuery, UnsafeQueryError, parse_query, subtree, token, tokens_of
from lark import Tree

LITERALS = re.compile(
    r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`]|``)*`|//[^\n]*|/\*.*?\*/",
    re.DOTALL,
)
"""String literals, comments and backquoted names: blanked before generated Cypher is scanned."""
# A keyword, not a property (n.set) or a map key ({set: 1}) of the same spelling.
_WRITE_CLAUSES = re.compile(
    r"(?<![\w.$])(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|FOREACH|LOAD\s+CSV|USING\s+PERIODIC|ALTER|GRANT"
    r"|DENY|REVOKE|START|STOP|TERMINATE|SHOW)\b(?!\s*:)",
    re.IGNORECASE,
)
_CALL = re.compile(r"\bCALL\s*(\{|[A-Za-z_][\w.]*)", re.IGNORECASE)
READ_PROCEDURES: frozenset[str] = frozenset(
    {
        "db.idx.fulltext.querynodes",
        "db.idx.vector.querynodes",
        "db.index.fulltext.querynodes",
        "db.index.vector.querynodes",
        "db.labels",
        "db.relationshiptypes",
        "db.propertykeys",
    }
)
"""Procedures a generated query may call (compared lower-case)."""
_FIRST_CLAUSE = re.compile(r"^\s*(MATCH|OPTIONAL\s+MATCH|WITH|UNWIND|RETURN|CALL)\b", re.IGNORECASE)

__all__ = ["LITERALS", "READ_PROCEDURES", "UnsafeQueryError", "apply_limit", "check_read_only", "with_limit"]


def check_read_only(query: str) -> str:
    """Return the query if it is a single plain read, else raise ``UnsafeQueryError``.

    Raises:
        UnsafeQueryError: For writes, schema or admin commands, ``LOAD CSV``, procedures
            outside ``READ_PROCEDURES``, subqueries, several statements, a query that
            does not start with a reading clause, or one outside the grammar of
            ``store.cypher_parser`` (keywords as variables, control characters...).
    """
    if not query or not query.strip():
        raise UnsafeQueryError("empty query")
    code = LITERALS.sub(" '' ", query)
    if ";" in code.strip().rstrip(";"):
        raise UnsafeQueryError("only one statement is allowed")
    if not _FIRST_CLAUSE.match(code):
        raise UnsafeQueryError("a generated query must start with MATCH, OPTIONAL MATCH, WITH, UNWIND, RETURN or CALL")
    found = _WRITE_CLAUSES.search(code)
    if found:
        raise UnsafeQueryError(f"not a read-only query: {found.group(1).upper()} is not allowed")
    for call in _CALL.finditer(code):
        target = call.group(1)
        if target == "{":
            raise UnsafeQueryError("subqueries (CALL { ... }) are not allowed in generated queries")
        if target.lower() not in READ_PROCEDURES:
            raise UnsafeQueryError(f"procedure {target} is not allowed in generated queries")
    parsed = parse_query(query)
    for clause in parsed.tree.find_data("call_clause"):
        name = str(token(clause, "FUNC"))
        if name.lower() not in READ_PROCEDURES:
            raise UnsafeQueryError(f"procedure {name} is not allowed in generated queries")
    return query.strip().rstrip(";").strip()


def with_limit(query: str, limit: int) -> str:
    """Bound what a query may return: add ``LIMIT`` to its outermost ``RETURN`` or lower a larger one.

    The query is parsed and rebuilt from its tokens (comments dropped).

    Raises:
        UnsafeQueryError: If the query does not parse, or a ``RETURN``'s ``LIMIT`` is not a number.
    """
    parsed = parse_query(query)
    apply_limit(parsed, limit)
    return parsed.render()


def apply_limit(parsed: ParsedQuery, limit: int) -> None:
    """Bound every outermost ``RETURN`` of a parsed query (each part of a ``UNION``) to ``limit`` rows.

    A ``LIMIT`` above ``limit`` is lowered, a missing one added after the clause's last token.

    Raises:
        ValueError: If ``limit`` is below 1.
        UnsafeQueryError: If a ``LIMIT`` there is not a number (a parameter's value is unchecked).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    for part in parsed.tree.children:
        if not isinstance(part, Tree) or part.data != "single_query":
            continue  # UNION between the parts
        returned = subtree(part, "return_clause")
        projection = subtree(returned, "projection") if returned is not None else None
        if returned is None or projection is None:
            raise UnsafeQueryError("a generated query must end with RETURN")
        own = subtree(projection, "limit")  # this clause's own, not one in a subquery
        if own is None:
            last = max(item.start_pos or 0 for item in tokens_of(returned))
            parsed.insert_after(last, f" LIMIT {int(limit)}")
            continue
        value = own.children[-1]
        number = token(value, "INT") if isinstance(value, Tree) and value.data == "literal" else None
        if number is None:
            raise UnsafeQueryError("a generated query's LIMIT must be a whole number")
        if int(number) > limit:
            parsed.replaced[number.start_pos or 0] = str(int(limit))
