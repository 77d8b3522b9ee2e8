"""The guard for generated Cypher: only plain reads get through.

Text-to-Cypher output is model text, so it is checked before it reaches a database,
and then run in the backend's read-only mode as well (FalkorDB ``GRAPH.RO_QUERY``,
Neo4j READ access plus an ``EXPLAIN`` query-type check). The guard is needed even so:
``GRAPH.RO_QUERY`` happily runs ``LOAD CSV`` (it tried to open ``file:///etc/passwd``),
and Neo4j procedures such as ``apoc.load.*`` or ``dbms.*`` read files, call out or
change settings without being "writes".

String literals, comments and backquoted names are blanked before scanning, so
``MATCH (n {name: 'CREATE'})`` passes while ``MATCH (n) /* */ DETACH DELETE n`` does not.
"""

from __future__ import annotations

import re

from store.base import StoreError

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
_LIMIT = re.compile(r"\bLIMIT\s+(\d+|\$\w+)\s*$", re.IGNORECASE)


class UnsafeQueryError(StoreError):
    """A generated query is not a plain read."""


def check_read_only(query: str) -> str:
    """Return the query if it is a single plain read, else raise ``UnsafeQueryError``.

    Raises:
        UnsafeQueryError: For writes, schema or admin commands, ``LOAD CSV``, procedures
            outside ``READ_PROCEDURES``, subqueries, several statements, or a query that
            does not start with a reading clause.
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
    return query.strip().rstrip(";").strip()


def with_limit(query: str, limit: int) -> str:
    """Bound what a query may return: append ``LIMIT`` or lower a larger trailing one.

    Raises:
        UnsafeQueryError: If the trailing ``LIMIT`` is a parameter (its value is unchecked).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    match = _LIMIT.search(query)
    if match is None:
        return f"{query} LIMIT {int(limit)}"
    if not match.group(1).isdigit():
        raise UnsafeQueryError("a generated query's LIMIT must be a number")
    if int(match.group(1)) <= limit:
        return query
    return f"{query[: match.start(1)]}{int(limit)}"
