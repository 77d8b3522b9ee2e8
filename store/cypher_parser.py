"""A parser for the read subset of Cypher that generated queries may use.

Model-written Cypher is checked, scoped and bounded on a real parse (``store.readonly``,
``store.scoping``), never on keyword positions: what cannot be parsed here is refused.
The grammar (``GRAMMAR``, parsed LALR by ``lark``) covers ``MATCH`` / ``OPTIONAL MATCH``,
``WHERE``, ``WITH``, ``UNWIND``, ``RETURN``, ``UNION [ALL]``, schema ``CALL ... YIELD``
and the usual expressions, including pattern predicates, list and pattern
comprehensions and ``EXISTS`` / ``COUNT`` / ``COLLECT`` subqueries. Nothing that writes,
loads or runs other code has a rule, so ``SET``, ``MERGE``, ``LOAD CSV``, ``FOREACH`` or
``CALL { }`` fail to parse.

The tokenizer is this module's own, because a few Cypher tokens depend on what comes
*after* them, which an LALR(1) parser cannot see: a ``(`` whose ``)`` is followed by
``-[``, ``--`` or ``<-`` opens a node pattern (``NODE_OPEN``), not a parenthesised
expression, and the dashes and brackets of the relationship are ``REL_*`` tokens; a name
before ``(`` is a function (``FUNC``); ``x`` in ``[x IN list ...]`` is a comprehension
variable (``CVAR``). Clause and operator keywords are reserved: unquoted, they are never
names, so ``MATCH return = (n)`` does not parse. A keyword spelling is a name only as a
property key (``n.set``) or a map key (``{match: 1}``); backquoted names may be anything
but a backquote or a control character.

Comments are tokens of no meaning: ``ParsedQuery.render`` rebuilds the query from the
tokens alone, so a comment cannot hide or move anything the rewrite adds. Control
characters (NUL included) are refused anywhere, and so are queries longer than
``MAX_QUERY_CHARS``, nested deeper than ``MAX_DEPTH`` brackets or with a parse tree
deeper than ``MAX_TREE_DEPTH``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from elephant_broker.store.errors import UnsafeQueryError
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

MAX_QUERY_CHARS = 10_000
"""Longer generated queries are refused (a real one is a few hundred characters)."""
MAX_DEPTH = 32
"""Brackets nested deeper than this are refused."""
MAX_TREE_DEPTH = 160
"""Parse trees deeper than this are refused (``NOT NOT ... NOT``, ``1 + 1 + ... + 1``)."""


# Words that are never names when unquoted. The write and admin words have no rule in the
# grammar, so using one fails the parse wherever it stands.
KEYWORDS: frozenset[str] = frozenset(
    "MATCH OPTIONAL WHERE WITH RETURN UNWIND AS ORDER BY SKIP LIMIT ASC ASCENDING DESC DESCENDING DISTINCT "
    "UNION ALL CALL YIELD AND OR XOR NOT IN STARTS ENDS CONTAINS IS NULL TRUE FALSE CASE WHEN THEN ELSE END".split()
)
WRITE_KEYWORDS: frozenset[str] = frozenset(
    "CREATE MERGE DELETE DETACH SET REMOVE FOREACH LOAD CSV DROP USING PERIODIC FROM ON MANDATORY SCALAR "
    "CONSTRAINT INDEX ALTER GRANT DENY REVOKE START STOP TERMINATE SHOW USE FINISH INSERT".split()
)
# Reserved words that are still functions when a "(" follows: all(x IN l WHERE ...).
_FUNCTION_KEYWORDS = frozenset({"ALL"})
# Non-reserved words that open a subquery when a "{" follows; otherwise plain names.
_SUBQUERY_WORDS = {"EXISTS": "EXISTS_SUB", "COUNT": "COUNT_SUB", "COLLECT": "COLLECT_SUB"}

_PUNCTUATION = {
    "(": "LPAR",
    ")": "RPAR",
    "[": "LBRACKET",
    "]": "RBRACKET",
    "{": "LBRACE",
    "}": "RBRACE",
    ",": "COMMA",
    ".": "DOT",
    "..": "DOTDOT",
    ":": "COLON",
    "|": "PIPE",
    "=": "EQ",
    "<>": "NE",
    "<": "LT",
    ">": "GT",
    "<=": "LE",
    ">=": "GE",
    "=~": "REGEQ",
    "+": "PLUS",
    "-": "MINUS",
    "*": "STAR",
    "/": "SLASH",
    "%": "PERCENT",
    "^": "CARET",
    ";": "SEMI",
}
# A string: its own quote and a backslash only escaped, and only the escapes Cypher defines.
_ESCAPE = r"\\(?:[\\'\"nrtbf]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"
_STRING = rf"'(?:[^'\\]|{_ESCAPE})*'|\"(?:[^\"\\]|{_ESCAPE})*\""
_LEXEME = re.compile(
    "|".join(
        [
            r"(?P<SPACE>[ \t\r\n]+)",
            r"(?P<COMMENT>//[^\n]*|/\*.*?\*/)",
            rf"(?P<STRING>{_STRING})",
            r"(?P<BQNAME>`[^`]+`)",
            r"(?P<PARAM>\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+))",
            r"(?P<FLOAT>[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)",
            r"(?P<INT>[0-9]+)",
            # A dotted name directly before "(": a function or procedure name.
            r"(?P<FUNC>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?=[ \t\r\n]*\())",
            r"(?P<WORD>[A-Za-z_][A-Za-z0-9_]*)",
            r"(?P<PUNCT>\.\.|<>|<=|>=|=~|[()\[\]{},.:|=<>+\-*/%^;])",
        ]
    ),
    re.DOTALL,
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")

GRAMMAR = r"""
%declare MATCH OPTIONAL WHERE WITH RETURN UNWIND AS ORDER BY SKIP LIMIT ASC ASCENDING DESC DESCENDING DISTINCT
%declare UNION ALL CALL YIELD AND OR XOR NOT IN STARTS ENDS CONTAINS IS NULL TRUE FALSE CASE WHEN THEN ELSE END
%declare EXISTS_SUB COUNT_SUB COLLECT_SUB WRITE_KEYWORD
%declare IDENT BQNAME FUNC CVAR PARAM INT FLOAT STRING
%declare LPAR RPAR LBRACKET RBRACKET LBRACE RBRACE COMMA DOT DOTDOT COLON PIPE
%declare EQ NE LT GT LE GE REGEQ PLUS MINUS STAR SLASH PERCENT CARET SEMI
%declare NODE_OPEN REL_LT REL_DASH REL_GT REL_OPEN REL_CLOSE

start: single_query (union single_query)*
union: UNION ALL?
single_query: _reading* return_clause
_reading: match_clause | unwind_clause | with_clause | call_clause
match_clause: OPTIONAL? MATCH pattern (COMMA pattern)* where?
unwind_clause: UNWIND expr AS variable
with_clause: WITH projection where?
return_clause: RETURN projection
call_clause: CALL FUNC LPAR arguments? RPAR (YIELD yield_item (COMMA yield_item)* where?)?
yield_item: name (AS variable)?
where: WHERE expr
projection: DISTINCT? projection_items order? skip? limit?
projection_items: STAR (COMMA projection_item)* | projection_item (COMMA projection_item)*
projection_item: expr (AS variable)?
order: ORDER BY sort_item (COMMA sort_item)*
sort_item: expr (ASC | ASCENDING | DESC | DESCENDING)?
skip: SKIP expr
limit: LIMIT expr

pattern: (variable EQ)? (chain | FUNC LPAR chain RPAR)
chain: node (relationship node)*
node: (LPAR | NODE_OPEN) variable? labels? properties? RPAR
expr_node: NODE_OPEN variable? labels? properties? RPAR
relationship: REL_LT? REL_DASH (REL_OPEN variable? rel_types? var_length? properties? REL_CLOSE)? REL_DASH REL_GT?
labels: (COLON name)+ | COLON name (PIPE name)+
rel_types: COLON name (PIPE COLON? name)*
var_length: STAR INT? (DOTDOT INT?)?
properties: map_literal
pattern_expr: expr_node (relationship node)+

?expr: expr OR xor_expr -> boolean
    | xor_expr
?xor_expr: xor_expr XOR and_expr -> boolean
    | and_expr
?and_expr: and_expr AND not_expr -> boolean
    | not_expr
?not_expr: NOT not_expr -> negation
    | comparison
?comparison: comparison comparator add_expr -> compare
    | comparison IS NOT? NULL -> null_check
    | add_expr
comparator: EQ | NE | LT | GT | LE | GE | REGEQ | IN | STARTS WITH | ENDS WITH | CONTAINS
?add_expr: add_expr (PLUS | MINUS) mul_expr -> arithmetic
    | mul_expr
?mul_expr: mul_expr (STAR | SLASH | PERCENT) power -> arithmetic
    | power
?power: power CARET unary -> arithmetic
    | unary
?unary: (PLUS | MINUS) unary -> sign
    | postfix
?postfix: postfix DOT name -> property
    | postfix LBRACKET expr RBRACKET -> index
    | postfix LBRACKET expr? DOTDOT expr? RBRACKET -> slice
    | postfix COLON name -> has_labels
    | atom
?atom: literal
    | PARAM -> parameter
    | variable
    | function_call
    | count_star
    | quantifier
    | case_expr
    | list_literal
    | list_comprehension
    | pattern_comprehension
    | map_literal
    | map_projection
    | LPAR expr RPAR -> paren
    | pattern_expr
    | EXISTS_SUB LBRACE subquery RBRACE -> exists_subquery
    | COUNT_SUB LBRACE subquery RBRACE -> count_subquery
    | COLLECT_SUB LBRACE subquery RBRACE -> collect_subquery
literal: INT | FLOAT | STRING | TRUE | FALSE | NULL
function_call: FUNC LPAR DISTINCT? arguments? RPAR
arguments: expr (COMMA expr)*
count_star: FUNC LPAR STAR RPAR
quantifier: FUNC LPAR CVAR IN expr (WHERE expr)? RPAR
case_expr: CASE expr? case_alternative+ (ELSE expr)? END
case_alternative: WHEN expr THEN expr
list_literal: LBRACKET arguments? RBRACKET
list_comprehension: LBRACKET CVAR IN expr (WHERE expr)? (PIPE expr)? RBRACKET
pattern_comprehension: LBRACKET pattern_expr (WHERE expr)? PIPE expr RBRACKET
map_literal: LBRACE (map_entry (COMMA map_entry)*)? RBRACE
map_entry: name COLON expr
map_projection: variable LBRACE (projection_entry (COMMA projection_entry)*)? RBRACE
projection_entry: DOT name | DOT STAR | name COLON expr | variable
subquery: _reading+ return_clause? | pattern (COMMA pattern)* where?
variable: IDENT | BQNAME
name: IDENT | BQNAME
"""
"""The grammar of the accepted read subset (terminals come from this module's tokenizer)."""


@dataclass(frozen=True)
class Lexeme:
    """One token of a query: its grammar terminal, its text and where it stands."""

    type: str
    text: str
    start: int
    end: int


@dataclass
class ParsedQuery:
    """A parsed query: its tokens and parse tree, plus edits to render it with.

    Parse-tree tokens carry the index of their lexeme in ``start_pos``.
    """

    text: str
    lexemes: list[Lexeme]
    tree: Tree[Token]
    replaced: dict[int, str] = field(default_factory=dict)
    """Lexeme index -> text that replaces the lexeme."""
    inserted: dict[int, list[str]] = field(default_factory=dict)
    """Lexeme index -> texts written right after the lexeme."""

    def insert_after(self, index: int, text: str) -> None:
        """Write ``text`` right after the lexeme at ``index`` when rendering."""
        self.inserted.setdefault(index, []).append(text)

    def render(self) -> str:
        """Rebuild the query from its tokens and the edits.

        Whitespace between tokens is kept; a gap holding a comment becomes one space
        (or one line break), and a trailing ``;`` is dropped.
        """
        pieces: list[str] = []
        for index, lexeme in enumerate(self.lexemes):
            if index:
                gap = self.text[self.lexemes[index - 1].end : lexeme.start]
                if gap.strip():
                    gap = "\n" if "\n" in gap else " "
                pieces.append(gap)
            pieces.append(self.replaced.get(index, lexeme.text))
            pieces.extend(self.inserted.get(index, ()))
        return "".join(pieces)


def name_text(token: Token) -> str:
    """Return the real text of a name token (a backquoted name without its quotes)."""
    value = str(token)
    return value[1:-1] if value.startswith("`") else value


def subtree(tree: Tree[Token], data: str) -> Tree[Token] | None:
    """Return the first direct sub-tree of ``tree`` built by rule (or alias) ``data``, if any."""
    return next((child for child in tree.children if isinstance(child, Tree) and child.data == data), None)


def token(tree: Tree[Token], kind: str) -> Token | None:
    """Return the first direct child token of ``tree`` of terminal ``kind``, if any."""
    return next((child for child in tree.children if isinstance(child, Token) and child.type == kind), None)


def tokens_of(tree: Tree[Token]) -> list[Token]:
    """Return the tokens under ``tree`` in query order."""
    return sorted(tree.scan_values(lambda value: isinstance(value, Token)), key=lambda token: token.start_pos or 0)


def parse_query(query: str) -> ParsedQuery:
    """Parse one generated read query.

    Raises:
        UnsafeQueryError: If the query is empty, too long, nested too deep, holds a
            control character, or is not in the accepted read subset (one line each).
    """
    if not query or not query.strip():
        raise UnsafeQueryError("empty query")
    if len(query) > MAX_QUERY_CHARS:
        raise UnsafeQueryError(f"a generated query may be at most {MAX_QUERY_CHARS} characters long")
    control = _CONTROL.search(query)
    if control is not None:
        raise UnsafeQueryError(f"control character U+{ord(control.group(0)):04X} in a generated query")
    lexemes = _classify(_lex(query))
    if lexemes and lexemes[-1].type == "SEMI":
        lexemes.pop()
    if any(lexeme.type == "SEMI" for lexeme in lexemes):
        raise UnsafeQueryError("only one statement is allowed")
    tokens = [Token(lexeme.type, lexeme.text, start_pos=index) for index, lexeme in enumerate(lexemes)]
    try:
        tree = _parser().parse(tokens)  # type: ignore[arg-type]
    except UnexpectedInput as error:
        raise UnsafeQueryError(_syntax_message(error, lexemes)) from None
    if _depth(tree) > MAX_TREE_DEPTH:
        raise UnsafeQueryError(f"a generated query may nest expressions at most {MAX_TREE_DEPTH} deep")
    return ParsedQuery(query, lexemes, tree)


def _depth(tree: Tree[Token]) -> int:
    """Return how deep the parse tree is (walked without recursion: it may be very deep)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return deepest


def _syntax_message(error: UnexpectedInput, lexemes: list[Lexeme]) -> str:
    """Say in one line where and why a query does not parse."""
    token = error.token if isinstance(error, UnexpectedToken) else None
    if token is None or token.type == "$END":
        return "cannot parse the generated query: it ends too early (a read must end with RETURN)"
    lexeme = lexemes[token.start_pos or 0]
    if lexeme.type == "WRITE_KEYWORD":
        return f"not a read-only query: {lexeme.text.upper()} is not allowed"
    if lexeme.type == "LBRACE" and _previous_word(lexemes, token.start_pos or 0) == "CALL":
        return "subqueries (CALL { ... }) are not allowed in generated queries"
    shown = lexeme.text if len(lexeme.text) <= 40 else lexeme.text[:37] + "..."
    return f"cannot parse the generated query at offset {lexeme.start} ({shown!r}): not in the allowed read subset"


def _previous_word(lexemes: list[Lexeme], index: int) -> str:
    return lexemes[index - 1].text.upper() if index else ""


class _GivenTokens(Lexer):
    """Hands the parser the tokens this module's tokenizer made."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:  # type: ignore[override]
        yield from data


@cache
def _parser() -> Lark:
    """Build the LALR parser once."""
    return Lark(GRAMMAR, parser="lalr", lexer=_GivenTokens, maybe_placeholders=False, strict=True)


def _lex(query: str) -> list[Lexeme]:
    """Split ``query`` into lexemes (comments and whitespace dropped), typing words and punctuation.

    Raises:
        UnsafeQueryError: For a character that starts no token, or an unterminated string,
            name or comment.
    """
    lexemes: list[Lexeme] = []
    position = 0
    while position < len(query):
        match = _LEXEME.match(query, position)
        if match is None:
            char = query[position]
            what = "an unterminated string, name or comment" if char in "'\"`/" else f"the character {char!r}"
            raise UnsafeQueryError(f"cannot parse the generated query at offset {position}: {what}")
        kind, text = match.lastgroup or "", match.group(0)
        if kind == "PUNCT":
            kind = _PUNCTUATION[text]
        if kind not in ("SPACE", "COMMENT"):
            lexemes.append(Lexeme(kind, text, match.start(), match.end()))
        position = match.end()
    return lexemes


def _classify(lexemes: list[Lexeme]) -> list[Lexeme]:
    """Give words and pattern brackets their grammar terminals (see the module docstring).

    Raises:
        UnsafeQueryError: For unbalanced or too deeply nested brackets, or a relationship
            pattern that is not ``-[...]-`` shaped.
    """
    partner, enclosing = _brackets(lexemes)
    types = [lexeme.type for lexeme in lexemes]
    texts = [lexeme.text for lexeme in lexemes]

    def at(index: int) -> str:
        return types[index] if 0 <= index < len(types) else ""

    for index, kind in enumerate(types):
        word = texts[index].upper()
        if kind == "FUNC":
            if word in WRITE_KEYWORDS:
                types[index] = "WRITE_KEYWORD"
            elif word in KEYWORDS and word not in _FUNCTION_KEYWORDS:
                types[index] = word
        elif kind == "WORD":
            map_key = at(index - 1) in ("LBRACE", "COMMA") and at(index + 1) == "COLON"
            if at(index - 1) == "DOT" or (map_key and at(enclosing[index]) == "LBRACE"):
                types[index] = "IDENT"
            elif word in _SUBQUERY_WORDS and at(index + 1) == "LBRACE":
                types[index] = _SUBQUERY_WORDS[word]
            elif word in KEYWORDS:
                types[index] = word
            elif word in WRITE_KEYWORDS:
                types[index] = "WRITE_KEYWORD"
            elif (
                at(index + 1) == "WORD"
                and texts[index + 1].upper() == "IN"
                and (at(index - 1) == "LBRACKET" or (at(index - 1) == "LPAR" and at(index - 2) == "FUNC"))
            ):
                types[index] = "CVAR"  # [x IN list ...] and all(x IN list WHERE ...)
            else:
                types[index] = "IDENT"
    for index in range(len(types)):
        if types[index] == "LPAR" and at(index - 1) != "FUNC" and _arrow_at(types, partner[index] + 1):
            _mark_chain(types, partner, index)
    return [Lexeme(kind, lexeme.text, lexeme.start, lexeme.end) for kind, lexeme in zip(types, lexemes, strict=True)]


def _brackets(lexemes: list[Lexeme]) -> tuple[dict[int, int], list[int]]:
    """Match every bracket with its partner (both ways) and find each token's innermost opener.

    Returns:
        The partners, and per lexeme the index of the innermost open bracket (-1 if none).

    Raises:
        UnsafeQueryError: For unbalanced brackets or nesting deeper than ``MAX_DEPTH``.
    """
    pairs = {"LPAR": "RPAR", "LBRACKET": "RBRACKET", "LBRACE": "RBRACE"}
    partner: dict[int, int] = {}
    enclosing: list[int] = []
    stack: list[int] = []
    for index, lexeme in enumerate(lexemes):
        enclosing.append(stack[-1] if stack else -1)
        if lexeme.type in pairs:
            stack.append(index)
            if len(stack) > MAX_DEPTH:
                raise UnsafeQueryError(f"a generated query may nest brackets at most {MAX_DEPTH} deep")
        elif lexeme.type in pairs.values():
            if not stack or pairs[lexemes[stack[-1]].type] != lexeme.type:
                raise UnsafeQueryError(f"unbalanced brackets in a generated query (offset {lexeme.start})")
            opener = stack.pop()
            partner[opener], partner[index] = index, opener
    if stack:
        raise UnsafeQueryError("unbalanced brackets in a generated query")
    return partner, enclosing


def _arrow_at(types: list[str], index: int) -> bool:
    """Whether a relationship starts at ``index``: ``-[``, ``--`` or ``<-`` followed by ``-`` or ``[``."""
    following = types[index : index + 3]
    if following[:1] == ["MINUS"]:
        return following[1:2] in (["MINUS"], ["LBRACKET"])
    return following[:2] == ["LT", "MINUS"] and following[2:3] in (["MINUS"], ["LBRACKET"])


def _mark_chain(types: list[str], partner: dict[int, int], opener: int) -> None:
    """Mark the node and relationship tokens of the pattern chain that starts at ``opener``.

    Raises:
        UnsafeQueryError: If a relationship is not ``<-[...]->``-shaped or not followed by a node.
    """
    while True:
        types[opener] = "NODE_OPEN"
        cursor = partner[opener] + 1
        if not _arrow_at(types, cursor):
            return
        if types[cursor] == "LT":
            types[cursor] = "REL_LT"
            cursor += 1
        types[cursor] = "REL_DASH"
        cursor += 1
        if types[cursor] == "LBRACKET":
            closer = partner[cursor]
            types[cursor], types[closer] = "REL_OPEN", "REL_CLOSE"
            cursor = closer + 1
        if cursor >= len(types) or types[cursor] != "MINUS":
            raise UnsafeQueryError("cannot parse a relationship pattern in the generated query")
        types[cursor] = "REL_DASH"
        cursor += 1
        if cursor < len(types) and types[cursor] == "GT":
            types[cursor] = "REL_GT"
            cursor += 1
        if cursor >= len(types) or types[cursor] != "LPAR":
            raise UnsafeQueryError("a relationship pattern in the generated query must end at a node")
        opener = cursor
