"""Tenant scoping for generated Cypher: every pattern is pinned to ``$scope``.

A model-written query cannot be trusted to filter by agent, so the query layer does
it: every node pattern gets ``scope: $scope`` in its property map, and so does every
``FACT`` relationship pattern (the only relationship type that carries a scope)::

    MATCH (n:Entity {name: $x})-[f:FACT]->()
    MATCH (n:Entity {name: $x, scope: $scope})-[f:FACT {scope: $scope}]->( {scope: $scope})

Pinning the nodes is what keeps a query inside one agent's memory: the broker never
writes a relationship between nodes of two scopes, so a path that starts at a pinned
node stays in its scope, even through the unpinned middle of ``-[*1..3]-``.

The rewrite works on the query with string literals, comments and backquoted names
blanked (``store.readonly``'s pattern, keeping every offset), so text inside a string
is never mistaken for a pattern. It fails closed: a shape it cannot scope with
certainty raises ``UnsafeQueryError`` rather than running unscoped. Refused are
pattern parentheses that are not plain node patterns (quantified paths, inline
``WHERE``, label wildcards), relationship brackets it cannot parse, ``scope`` keys
set to anything but ``$scope``, procedures that return nodes of every scope
(full-text and vector index calls), and namespaced functions outside a small list
(``apoc.cypher.runFirstColumn`` would run a query the rewrite never sees).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from store.readonly import LITERALS, UnsafeQueryError

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

# Tokens of blanked code: backquoted names (blanked to underscores), parameters,
# words, numbers, then any other single character.
_TOKEN = re.compile(r"`_*`|\$\w+|[A-Za-z_]\w*|\d+(?:\.\d+)?|\S")
_NAME = r"(?:[A-Za-z_]\w*|`_*`)"
_NODE_HEAD = re.compile(rf"\s*(?:{_NAME})?\s*(?::\s*{_NAME}(?:\s*[:|&]\s*{_NAME})*)?\s*")
_RELATIONSHIP_HEAD = re.compile(
    rf"\s*(?:{_NAME})?\s*(?::\s*(?P<types>{_NAME}(?:\s*\|\s*:?\s*{_NAME})*))?\s*"
    r"(?P<length>\*\s*\d*\s*(?:\.\.\s*\d*)?)?\s*"
)
_MAP_KEY = re.compile(rf"\s*(?P<key>{_NAME})\s*:")
# Text before "(" that ends a relationship: "-", "->" after "]" or another "-".
_ARROW_BEFORE = re.compile(r"[\]-]\s*->?\s*\Z")
# Text after ")" that starts a relationship: "-[", "--", "->", "<-".
_ARROW_AFTER = re.compile(r"\s*(?:<\s*-|-\s*[-\[>])")

# Words that end a clause's pattern part or start a clause (OPTIONAL MATCH counts as MATCH).
_CLAUSES = frozenset({"MATCH", "WHERE", "WITH", "RETURN", "UNWIND", "ORDER", "SKIP", "LIMIT", "YIELD", "UNION"})
# Words that may stand before "(" without making it a function call.
_KEYWORDS = _CLAUSES | frozenset(
    "OPTIONAL AND OR XOR NOT DISTINCT IN AS CASE WHEN THEN ELSE END BY ASC DESC ASCENDING DESCENDING "
    "CONTAINS STARTS ENDS IS NULL".split()
)
_SUBQUERY_WORDS = frozenset({"EXISTS", "COUNT", "COLLECT"})


@dataclass
class _Group:
    """One bracketed span of the query: ``(...)``, ``[...]`` or ``{...}``."""

    kind: str
    """``query`` (the whole text), ``subquery`` (``EXISTS {``), ``map``, ``call``, ``paren``,
    ``list`` or ``relationship``."""
    start: int
    end: int = -1
    clause: str | None = None
    """The last clause word seen directly inside this group."""
    in_pattern: bool = False
    """A ``paren`` that stands where only a pattern can (right after MATCH, or between
    the comma-separated patterns of a MATCH clause)."""
    maps: list[_Group] = field(default_factory=list)
    """Map literals directly inside this group."""


def scope_query(query: str) -> str:
    """Return ``query`` with every node pattern and ``FACT`` pattern pinned to ``$scope``.

    Args:
        query: A single read query, already accepted by ``check_read_only``.

    Returns:
        The query with ``scope: $scope`` added to each pattern's property map.

    Raises:
        UnsafeQueryError: If the query has a shape that cannot be scoped with certainty.
    """
    code = blank_literals(query)
    groups = _groups(code)
    insertions: list[tuple[int, str]] = []
    for group in groups:
        if group.kind == "paren" and _is_node_pattern(code, group):
            insertions.extend(_node_insertion(code, query, group))
        elif group.kind == "relationship":
            insertions.extend(_relationship_insertion(code, query, group))
    scoped = query
    for position, text in sorted(insertions, reverse=True):
        scoped = scoped[:position] + text + scoped[position:]
    return scoped


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


def _groups(code: str) -> list[_Group]:
    """Split blanked code into its bracketed groups, checking calls on the way.

    Raises:
        UnsafeQueryError: For unbalanced brackets, a refused procedure or function, or a
            clause inside a map (which means a subquery this scanner does not know).
    """
    root = _Group("query", 0, len(code))
    stack = [root]
    done: list[_Group] = []
    tokens = [(match.group(0), match.start()) for match in _TOKEN.finditer(code)]
    for index, (token, position) in enumerate(tokens):
        previous = tokens[index - 1][0] if index else ""
        following = tokens[index + 1][0] if index + 1 < len(tokens) else ""
        top = stack[-1]
        word = token.upper()
        # A clause word, unless it is a property (n.match), a map key (match: 1) or a label
        # (:Match). The WITH of STARTS WITH counts too, which is harmless: it is never in a
        # MATCH pattern.
        is_label = previous == ":" and following != "("
        if word in _CLAUSES and previous != "." and following != ":" and not is_label:
            if top.kind not in ("query", "subquery"):
                if word == "MATCH":
                    raise UnsafeQueryError("cannot scope a MATCH nested in an expression this way")
            else:
                top.clause = word
        elif word == "CALL" and previous not in (".", ":"):
            _check_procedure(tokens, index + 1)
        if (token == "(" and previous == ")") or (token == "{" and previous in ("-", ">")):
            # Juxtaposed patterns and {m,n} after a relationship: quantified path syntax.
            raise UnsafeQueryError("quantified path patterns are not allowed in generated queries")
        if token == "(":
            name = _callee(tokens, index)
            if name is None:
                in_pattern = previous.upper() == "MATCH" or (
                    top.kind in ("query", "subquery")
                    and ((previous in (",", "=") and top.clause == "MATCH") or (previous == "{" and top.clause is None))
                )
                stack.append(_Group("paren", position, in_pattern=in_pattern))
            else:
                stack.append(_Group("call", position))
        elif token == "[":
            stack.append(_Group("relationship" if _after_node(tokens, index) else "list", position))
        elif token == "{":
            stack.append(_Group("subquery" if previous.upper() in _SUBQUERY_WORDS else "map", position))
        elif token in ")]}":
            group = stack.pop() if len(stack) > 1 else None
            if group is None or code[group.start] + token not in ("()", "[]", "{}"):
                raise UnsafeQueryError("unbalanced brackets in a generated query")
            group.end = position
            if group.kind == "map":
                stack[-1].maps.append(group)
            done.append(group)
    if len(stack) != 1:
        raise UnsafeQueryError("unbalanced brackets in a generated query")
    return done


def _callee(tokens: list[tuple[str, int]], index: int) -> str | None:
    """Return the function or procedure name before the ``(`` at ``index``, if it is a call.

    Raises:
        UnsafeQueryError: For a backquoted function name (its real name is hidden) or a
            namespaced function outside ``FUNCTION_NAMESPACES``.
    """
    parts: list[str] = []
    cursor = index - 1
    while cursor >= 0 and re.fullmatch(_NAME, tokens[cursor][0]):
        parts.insert(0, tokens[cursor][0])
        if cursor >= 1 and tokens[cursor - 1][0] == ".":
            cursor -= 2
            continue
        cursor -= 1
        break
    if not parts or (len(parts) == 1 and parts[0].upper() in _KEYWORDS):
        return None
    name = ".".join(parts)
    if cursor >= 0 and tokens[cursor][0].upper() == "CALL":
        return name  # a procedure, checked by _check_procedure
    if "`" in name:
        raise UnsafeQueryError("backquoted function names are not allowed in generated queries")
    if len(parts) > 1 and parts[0].lower() not in FUNCTION_NAMESPACES:
        raise UnsafeQueryError(f"function {name} is not allowed in generated queries")
    return name


def _check_procedure(tokens: list[tuple[str, int]], index: int) -> None:
    """Refuse a ``CALL`` unless it names one of ``SCHEMA_PROCEDURES``.

    Raises:
        UnsafeQueryError: For any other procedure, or a ``CALL`` without a plain name.
    """
    parts: list[str] = []
    while index < len(tokens) and re.fullmatch(r"[A-Za-z_]\w*", tokens[index][0]):
        parts.append(tokens[index][0])
        if index + 1 < len(tokens) and tokens[index + 1][0] == ".":
            index += 2
            continue
        break
    name = ".".join(parts)
    if name.lower() not in SCHEMA_PROCEDURES:
        raise UnsafeQueryError(
            f"procedure {name or 'call'} is not allowed in a scoped query: match the nodes with a pattern instead"
        )


def _after_node(tokens: list[tuple[str, int]], index: int) -> bool:
    """Whether the ``[`` at ``index`` follows ``)-`` or ``)<-``: a relationship, not a list."""
    before = [token for token, _ in tokens[max(0, index - 3) : index]]
    return before[-2:] == [")", "-"] or before[-3:] == [")", "<", "-"]


def _is_node_pattern(code: str, group: _Group) -> bool:
    """Whether a bare parenthesis is a node pattern (else an expression like ``(a + b)``).

    Raises:
        UnsafeQueryError: If it stands where a pattern must be but is no plain node pattern.
    """
    in_pattern = (
        group.in_pattern
        or _ARROW_BEFORE.search(code, 0, group.start) is not None
        or _ARROW_AFTER.match(code, group.end + 1) is not None
    )
    if not in_pattern:
        return False
    if _pattern_map(code, group, _NODE_HEAD) is False:
        raise UnsafeQueryError(f"cannot scope the pattern ({code[group.start + 1 : group.end].strip()})")
    return True


def _pattern_map(code: str, group: _Group, head: re.Pattern[str]) -> _Group | None | bool:
    """Parse a pattern's inside as ``head`` plus an optional property map.

    Returns:
        The property map group, None when there is none, or False when the inside is
        not ``head`` optionally followed by one map.
    """
    matched = head.match(code, group.start + 1, group.end)
    if matched is None:
        return False
    rest = matched.end()
    if rest == group.end:
        return None
    candidates = [item for item in group.maps if item.start == rest]
    if candidates and not code[candidates[0].end + 1 : group.end].strip():
        return candidates[0]
    return False


def _node_insertion(code: str, query: str, group: _Group) -> list[tuple[int, str]]:
    """Return where to insert the scope into a node pattern."""
    pattern_map = _pattern_map(code, group, _NODE_HEAD)
    if isinstance(pattern_map, _Group):
        return _map_insertion(code, query, pattern_map)
    end = group.start + 1 + len(code[group.start + 1 : group.end].rstrip())
    return [(end, " {" + _SCOPE_ENTRY + "}")]


def _relationship_insertion(code: str, query: str, group: _Group) -> list[tuple[int, str]]:
    """Return where to insert the scope into a relationship pattern (FACT only).

    Raises:
        UnsafeQueryError: If the brackets are not a plain relationship pattern.
    """
    text = code[group.start + 1 : group.end]
    head = _RELATIONSHIP_HEAD.match(code, group.start + 1, group.end)
    pattern_map = _pattern_map(code, group, _RELATIONSHIP_HEAD)
    if head is None or pattern_map is False:
        raise UnsafeQueryError(f"cannot scope the relationship pattern [{text.strip()}]")
    types = {re.sub(r"[\s:]", "", name) for name in (head.group("types") or "").split("|") if name.strip()}
    if any("`" in name for name in types):
        # The real type is hidden by blanking: read it from the query itself.
        types = {name.strip("`") for name in re.split(r"\s*\|\s*:?\s*", query[head.start("types") : head.end("types")])}
    scoped = bool(types) and types <= SCOPED_RELATIONSHIP_TYPES
    if isinstance(pattern_map, _Group):
        insertions = _map_insertion(code, query, pattern_map)
        return insertions if scoped else []
    if not scoped:
        return []
    end = group.start + 1 + len(text.rstrip())
    return [(end, " {" + _SCOPE_ENTRY + "}")]


def _map_insertion(code: str, query: str, pattern_map: _Group) -> list[tuple[int, str]]:
    """Return where to add ``scope: $scope`` to a pattern's property map (nothing if present).

    Raises:
        UnsafeQueryError: If the map sets ``scope`` to anything but ``$scope``, or has an
            entry that is not ``key: value``.
    """
    entries = _top_level_entries(code, pattern_map.start + 1, pattern_map.end)
    has_scope = False
    for start, end in entries:
        key = _MAP_KEY.match(code, start, end)
        if key is None:
            entries_text = query[pattern_map.start + 1 : pattern_map.end]
            raise UnsafeQueryError(f"cannot scope the property map {{{entries_text}}}")
        if query[key.start("key") : key.end("key")].strip("`") == SCOPE_PARAMETER:
            if query[key.end() : end].strip() != f"${SCOPE_PARAMETER}":
                raise UnsafeQueryError("a generated query may not choose its scope: leave scope out of patterns")
            has_scope = True
    if has_scope:
        return []
    if not entries:
        return [(pattern_map.start + 1, _SCOPE_ENTRY)]
    last = entries[-1][1]
    return [(entries[-1][0] + len(code[entries[-1][0] : last].rstrip()), ", " + _SCOPE_ENTRY)]


def _top_level_entries(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """Return the spans between the top-level commas of ``code[start:end]`` (blank ones dropped)."""
    spans: list[tuple[int, int]] = []
    depth, begin = 0, start
    for position in range(start, end):
        char = code[position]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            spans.append((begin, position))
            begin = position + 1
    spans.append((begin, end))
    return [(left, right) for left, right in spans if code[left:right].strip()]
