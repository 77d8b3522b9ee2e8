"""Tenant scoping for generated Cypher: every pattern is pinned to ``$scope``.

A model-written query cannot be trusted to filter by agent, so the query layer does
it: every node pattern gets ``scope: $scope`` in its property map, and so does every
``FACT`` relationship pattern (the only relationship type that carries a scope)::

    MATCH (n:Entity {name: $x})-[f:FACT]->()
    MATCH (n:Entity {name: $x, scope: $scope})-[f:FACT {scope: $scope}]->( {scope: $scope})

Pinning the nodes is what keeps a query inside one agent's memory: the broker never
writes a relationship between nodes of two scopes, so a path that starts at a pinned
node stays in its scope, even through the unpinned middle of ``-[*1..3]-``.

The rewrite works on a real parse (``store.cypher_parser``), not on keyword
positions: it walks the parse tree, pins every node pattern wherever it stands (``MATCH``,
``OPTIONAL MATCH``, pattern predicates, pattern comprehensions, ``EXISTS`` / ``COUNT`` /
``COLLECT`` subqueries, ``shortestPath``) and rebuilds the query from its tokens, so a
comment cannot hide a pattern or the ``LIMIT``. It fails closed: what does not parse is
refused with ``UnsafeQueryError`` rather than run unscoped; so are ``scope`` keys set to
anything but ``$scope``, procedures that return nodes of every scope (full-text and
vector index calls), and namespaced functions outside a small list
(``apoc.cypher.runFirstColumn`` would run a query the rewrite never sees).
"""

from __future__ import annotations

import re

from elephant_broker.store.cypher_parser import (
    ParsedQuery,
    UnsafeQueryError,
    name_text,
    parse_query,
    subtree,
    token,
    tokens_of,
)
from elephant_broker.store.readonly import LITERALS, apply_limit
from lark import Token, Tree

SCOPE_PARAMETER = "scope"
"""The parameter that holds the caller's scope; ``query_read_only`` always supplies it."""

SCOPED_RELATIONSHIP_TYPES: frozenset[str] = frozenset({"FACT"})
"""Relationship types stored with a ``scope`` property (MENTIONS and MERGED_INTO have none)."""

SCHEMA_PROCEDURES: frozenset[str] = frozenset({"db.labels", "db.relationshiptypes", "db.propertykeys"})
"""Procedures a scoped query may call: they name the schema and return no stored data."""

FUNCTION_NAMESPACES: frozenset[str] = frozenset(
    {"date", "datetime", "localdatetime", "localtime", "time", "duration", "point", "vector", "vec"}
)
"""Namespaces of the dotted functions a scoped query may call (temporal, spatial, vector maths)."""

_SCOPE_ENTRY = f"{SCOPE_PARAMETER}: ${SCOPE_PARAMETER}"
_QUANTIFIERS = frozenset({"all", "any", "none", "single"})
_PATH_FUNCTIONS = frozenset({"shortestpath", "allshortestpaths"})


def scope_query(query: str, limit: int | None = None) -> str:
    """Return ``query`` with every node pattern and ``FACT`` pattern pinned to ``$scope``.

    The query is parsed (``store.cypher_parser``) and rebuilt from its tokens, so
    comments are gone and nothing outside a real pattern is touched.

    Args:
        query: A single read query, usually already accepted by ``check_read_only``.
        limit: If given, also bound every outermost ``RETURN`` to this many rows
            (``store.readonly.apply_limit``).

    Returns:
        The query with ``scope: $scope`` added to each pattern's property map.

    Raises:
        UnsafeQueryError: If the query does not parse, calls a procedure or function that
            reaches data the rewrite never sees, or sets ``scope`` in a pattern.
    """
    parsed = parse_query(query)
    check_calls(parsed, SCHEMA_PROCEDURES)
    for tree in parsed.tree.iter_subtrees():
        if tree.data in ("node", "expr_node"):
            _pin(parsed, tree, always=True)
        elif tree.data == "relationship":
            _pin(parsed, tree, always=False)
        elif tree.data in ("function_call", "count_star", "quantifier", "pattern"):
            _check_function(tree)
    if limit is not None:
        apply_limit(parsed, limit)
    return parsed.render()


def blank_literals(query: str) -> str:
    """Blank string literals, comments and backquoted names, keeping every offset.

    Strings keep their quotes (``'  '``), backquoted names become ``` `___` ```, and
    comments become spaces, so positions in the result are positions in the query.
    """

    def blank(match: re.Match[str]) -> str:
        text = match.group(0)
        if text[0] in "'\"":
            return text[0] + " " * (len(text) - 2) + text[0]
        if text[0] == "`":
            return "`" + "_" * (len(text) - 2) + "`"
        return re.sub(r"\S", " ", text)

    return LITERALS.sub(blank, query)


def _pin(parsed: ParsedQuery, pattern: Tree[Token], always: bool) -> None:
    """Add ``scope: $scope`` to a node pattern, or to a relationship whose types all carry a scope.

    Raises:
        UnsafeQueryError: If the pattern's property map sets ``scope`` to anything but ``$scope``.
    """
    properties = subtree(pattern, "properties")
    entries = subtree(properties, "map_literal") if properties is not None else None
    has_scope = entries is not None and _has_scope_entry(entries)
    if not always:
        types = subtree(pattern, "rel_types")
        names = {name_text(name) for name in _names(types)} if types is not None else set()
        if not names or not names <= SCOPED_RELATIONSHIP_TYPES:
            return  # its ends are pinned, and the broker never links two scopes
    if has_scope:
        return
    if entries is not None:
        filled = subtree(entries, "map_entry") is not None
        parsed.insert_after(_index(token(entries, "RBRACE")) - 1, f", {_SCOPE_ENTRY}" if filled else _SCOPE_ENTRY)
        return
    # A typed relationship always has brackets, so REL_CLOSE is there when it is pinned.
    closer = token(pattern, "RPAR" if always else "REL_CLOSE")
    parsed.insert_after(_index(closer) - 1, f" {{{_SCOPE_ENTRY}}}")


def _has_scope_entry(entries: Tree[Token]) -> bool:
    """Whether a pattern's property map holds ``scope: $scope``.

    Raises:
        UnsafeQueryError: If it sets ``scope`` to anything else.
    """
    found = False
    # Only the map's own entries: a map nested in a value is data, not a property of the pattern.
    for entry in entries.children:
        if not isinstance(entry, Tree):
            continue
        key, value = entry.children[0], entry.children[-1]
        if isinstance(key, Tree) and name_text(_names(key)[0]) == SCOPE_PARAMETER:
            pinned = isinstance(value, Tree) and value.data == "parameter" and value.children == [f"${SCOPE_PARAMETER}"]
            if not pinned:
                raise UnsafeQueryError("a generated query may not choose its scope: leave scope out of patterns")
            found = True
    return found


def check_calls(parsed: ParsedQuery, procedures: frozenset[str]) -> None:
    """Refuse a ``CALL`` of any procedure outside ``procedures`` (compared lower-case).

    Raises:
        UnsafeQueryError: For another procedure, e.g. a full-text or vector index call
            (it returns nodes of every scope).
    """
    for clause in parsed.tree.find_data("call_clause"):
        name = str(token(clause, "FUNC"))
        if name.lower() not in procedures:
            raise UnsafeQueryError(
                f"procedure {name} is not allowed in a scoped query: match the nodes with a pattern instead"
            )


def _check_function(tree: Tree[Token]) -> None:
    """Refuse a function outside the allowed namespaces, or a call shape its name does not have.

    Raises:
        UnsafeQueryError: For ``apoc.*`` and other namespaces outside ``FUNCTION_NAMESPACES``
            (``apoc.cypher.runFirstColumn`` runs a query the rewrite never sees), ``f(*)``
            other than ``count(*)``, ``f(x IN list ...)`` other than ``all/any/none/single``,
            and a path function other than ``shortestPath`` in a ``MATCH``.
    """
    function = token(tree, "FUNC")
    if function is None:
        return  # a pattern without a path function
    name = str(function)
    if "." in name and name.split(".")[0].lower() not in FUNCTION_NAMESPACES:
        raise UnsafeQueryError(f"function {name} is not allowed in generated queries")
    allowed = {"count_star": {"count"}, "quantifier": _QUANTIFIERS, "pattern": _PATH_FUNCTIONS}.get(tree.data)
    if allowed is not None and name.lower() not in allowed:
        raise UnsafeQueryError(f"{name}(...) is not allowed in this form in generated queries")


def _names(tree: Tree[Token]) -> list[Token]:
    """Return the name tokens of a ``labels``, ``rel_types`` or ``name`` tree."""
    return [item for item in tokens_of(tree) if item.type in ("IDENT", "BQNAME")]


def _index(item: Token | None) -> int:
    """Return the lexeme index a parse-tree token carries (fails closed if there is none).

    Raises:
        UnsafeQueryError: If the token is missing, which the grammar rules out.
    """
    if item is None or item.start_pos is None:
        raise UnsafeQueryError("cannot scope the generated query")
    return item.start_pos
