"""Text-to-Cypher: answer a question with a read-only Cypher query a chat model writes.

Retrieval walks out from the entities a question names, which is right for "where
does 小李's colleague live" and wrong for counting, listing and filtering ("how many
people use Python", "who joined after 2020"): those are one query. With a chat model
configured, ``query_memory`` asks the model for that query, given a summary of the graph's
schema (labels, relationship types, property keys, and the predicate keys this agent's
memory actually holds).

Model text is untrusted, so it runs only through ``GraphStore.query_read_only``: a
syntactic read-only guard (writes, ``LOAD CSV``, ``apoc.*`` and other procedures are
refused), tenant scoping rewritten into every pattern (the model never sees or sets the
scope), a row limit, a server-side timeout, and the backend's read-only mode. A query
that is refused or fails gets exactly one repair attempt with the error; a second
failure gives up quietly (no rows, the error recorded), because a generated query only adds
evidence and must never break the answer.

Queries are cached by question *pattern*: the question with its quoted strings, the
names the analysis found, and its numbers replaced by ``$p0``, ``$p1``, ... (which become
the query's parameters), case-folded, whitespace-normalised, without end punctuation.
"Who does Alice work for?" and "who does Bob work for" share the pattern
``who does $p0 work for`` and so one query. The cache lives in
``$ELEPHANT_HOME/cypher_cache.sqlite``, keyed by pattern and a fingerprint of the
store-wide schema (and of the prompt), never by scope: queries carry no scope. A cached
query that fails is evicted and a new one generated; a query that writes one of the
question's values as a literal is used but not cached, since it would not generalise.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from elephant_broker.prompts.cypher import CYPHER_REPAIR, CYPHER_SYSTEM, CYPHER_USER
from elephant_broker.providers.chat_models import ModelError, ask_model, load_chat_model
from elephant_broker.schemas.models import Fact
from elephant_broker.store import GraphStore
from elephant_broker.store.base import Row, StoreError
from elephant_broker.store.readonly import UnsafeQueryError
from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

logger = logging.getLogger(__name__)

SCHEMA_LIMIT = 100
"""At most this many labels, types, keys or predicates are read for the schema summary."""
SCHEMA_SAMPLE = 50
"""Nodes or facts whose property keys are sampled per kind."""
CACHE_FILE = "cypher_cache.sqlite"
HIDDEN_PROPERTIES = frozenset({"embedding", "search_text", "scope"})
"""Properties never shown to the model or returned in rows (vectors, index text, the tenant)."""

_PROPERTY_SAMPLES = {
    "Entity": f"MATCH (n:Entity) WITH n LIMIT {SCHEMA_SAMPLE} UNWIND keys(n) AS key RETURN DISTINCT key",
    "Episode": f"MATCH (n:Episode) WITH n LIMIT {SCHEMA_SAMPLE} UNWIND keys(n) AS key RETURN DISTINCT key",
    "FACT": f"MATCH ()-[f:FACT]->() WITH f LIMIT {SCHEMA_SAMPLE} UNWIND keys(f) AS key RETURN DISTINCT key",
}
_PREDICATES = "MATCH ()-[f:FACT]->() RETURN f.predicate_key AS key, count(*) AS uses ORDER BY uses DESC, key"
# Quotes count only at word edges, so the apostrophes of "What's Alice's job" do not.
_QUOTED = re.compile(r"(?<!\w)'([^']+)'(?!\w)|(?<!\w)\"([^\"]+)\"(?!\w)|“([^”]+)”|「([^」]+)」|《([^》]+)》")
_PARAMETER_REFERENCE = re.compile(r"\$\w+")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_$.])\d+(?:\.\d+)?(?![A-Za-z0-9_.])")
_END_PUNCTUATION = "?？.。!！ "


class GeneratedQuery(BaseModel):
    """The model's query for a question."""

    cypher: str = Field(description="One read-only Cypher query, using parameters for the given values.")
    explanation: str = Field(description="One sentence: what the query returns.")


@dataclass
class QuestionPattern:
    """A question with its values lifted out: the cache key and the query's parameters."""

    text: str
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GraphSchema:
    """What the model is told about the graph, read from the store."""

    labels: tuple[str, ...]
    relationship_types: tuple[str, ...]
    property_keys: tuple[str, ...]
    """Every property key of the store (all scopes): part of the fingerprint only."""
    properties: dict[str, tuple[str, ...]]
    """Property keys seen on Entity, Episode and FACT in this scope."""
    predicates: tuple[tuple[str, int], ...]
    """Predicate keys of this scope's facts with their counts, most used first."""

    @property
    def fingerprint(self) -> str:
        """Hash of the store-wide schema and the prompt: a cached query is valid while it holds."""
        shape = [self.labels, self.relationship_types, self.property_keys, CYPHER_SYSTEM]
        return hashlib.sha1(json.dumps(shape, ensure_ascii=False).encode()).hexdigest()[:16]

    def summary(self) -> str:
        """Render the schema for the prompt."""
        lines = [
            f"Node labels: {', '.join(self.labels) or '(none yet)'}",
            f"Relationship types: {', '.join(self.relationship_types) or '(none yet)'}",
            "Patterns: (:Entity)-[:FACT]->(:Entity), (:Episode)-[:MENTIONS]->(:Entity)",
        ]
        lines += [f"{kind} properties: {', '.join(keys)}" for kind, keys in self.properties.items() if keys]
        predicates = ", ".join(f"{key} ({uses})" for key, uses in self.predicates)
        lines.append(f"Predicate keys in this memory (f.predicate_key, with counts): {predicates or '(none yet)'}")
        return "\n".join(lines)


class QueryCache:
    """Question pattern -> generated query, in a small SQLite file.

    Every operation opens its own connection (nodes run in worker threads), and a
    cache that cannot be read or written behaves as empty: it is never a reason to fail.
    """

    def __init__(self, path: Path) -> None:
        """Use the cache file at ``path`` (created on first write)."""
        self.path = path

    @classmethod
    def in_home(cls, home: str) -> QueryCache:
        """Use the cache file of a data directory (``$ELEPHANT_HOME/cypher_cache.sqlite``)."""
        return cls(Path(home).expanduser() / CACHE_FILE)

    def get(self, pattern: str, fingerprint: str) -> str | None:
        """Return the cached query for a pattern, or None."""
        rows = self._execute("SELECT cypher FROM queries WHERE pattern = ? AND fingerprint = ?", (pattern, fingerprint))
        return rows[0][0] if rows else None

    def put(self, pattern: str, fingerprint: str, cypher: str) -> None:
        """Remember the query that answered a pattern."""
        self._execute(
            "INSERT OR REPLACE INTO queries (pattern, fingerprint, cypher, created_at) VALUES (?, ?, ?, ?)",
            (pattern, fingerprint, cypher, int(time.time())),
        )

    def evict(self, pattern: str, fingerprint: str) -> None:
        """Forget a pattern's query (it failed)."""
        self._execute("DELETE FROM queries WHERE pattern = ? AND fingerprint = ?", (pattern, fingerprint))

    def _execute(self, statement: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(self.path, timeout=5)) as db, db:
                db.execute(
                    "CREATE TABLE IF NOT EXISTS queries (pattern TEXT NOT NULL, fingerprint TEXT NOT NULL, "
                    "cypher TEXT NOT NULL, created_at INTEGER, PRIMARY KEY (pattern, fingerprint))"
                )
                return db.execute(statement, values).fetchall()
        except (sqlite3.Error, OSError) as error:
            logger.warning("text-to-Cypher cache at %s is unusable: %s", self.path, error)
            return []


class TextToCypherError(Exception):
    """Text-to-Cypher has no rows to give: the model failed, or a query and its one repair both did."""


@dataclass
class QueryOutcome:
    """What a generated query gave: rows and the facts they name, or why there are none."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    """The rows as JSON-safe dicts, at most the row limit."""
    facts: list[Fact] = field(default_factory=list)
    """The stored facts whose ids the rows name, in row order."""
    error: str | None = None
    """Why there are no rows, when the query and its repair (or the model) failed."""
    note: str | None = None
    """For the answer's notes: the chat model failed, and retrieval answered alone."""
    cypher: str | None = None
    """The query that gave the rows (for the audit log, which keeps only its hash)."""


def query_memory(
    store: GraphStore,
    scope: str,
    question: str,
    names: Sequence[str],
    speaker: str,
    llm_spec: str,
    cache: QueryCache,
    *,
    limit: int,
    timeout_ms: int | None = None,
) -> QueryOutcome:
    """Answer a question with a generated read-only Cypher query, cached by question pattern.

    Args:
        store: The graph store (queries run through ``query_read_only``, pinned to ``scope``).
        scope: The tenant scope; the model never sees or sets it.
        question: The question as asked.
        names: The entity names its analysis found (they become parameters).
        speaker: Who asks (the ``$speaker`` parameter).
        llm_spec: The chat model as ``provider:model``.
        cache: Where queries are cached by question pattern.
        limit: Rows a query may return.
        timeout_ms: Server-side timeout of each query.

    Returns:
        The rows and the facts they name; when the schema cannot be read, or both the
        query and its repair fail, no rows and the error.
    """
    pattern = question_pattern(question, names)
    parameters = {**pattern.parameters, "speaker": speaker}
    try:
        schema = describe_schema(store, scope, timeout_ms)
    except StoreError as error:
        return gave_up(f"cannot read the graph schema: {error}")

    def run(cypher: str) -> list[Row]:
        return store.query_read_only(scope, cypher, parameters, limit=limit, timeout_ms=timeout_ms)

    cached = cache.get(pattern.text, schema.fingerprint)
    if cached is not None:
        try:
            return _results(store, scope, run(cached), limit, cached)
        except (UnsafeQueryError, StoreError) as error:
            logger.info("cached query for %r failed (%s); generating a new one", pattern.text, error)
            cache.evict(pattern.text, schema.fingerprint)
    messages = [
        ("system", CYPHER_SYSTEM),
        (
            "user",
            CYPHER_USER.format(
                schema=schema.summary(),
                parameters=_describe_parameters(parameters),
                speaker=speaker,
                question=question,
            ),
        ),
    ]
    try:
        cypher, rows = generate_and_run(load_chat_model(llm_spec), messages, run, spec=llm_spec)
    except TextToCypherError as failure:
        if isinstance(failure.__cause__, ModelError):
            # Not a bad query but a failing model: retrieval answers alone, and the answer says so.
            logger.info("text-to-Cypher skipped: %s", failure.__cause__)
            return QueryOutcome(error=str(failure), note=f"{failure.__cause__}; answered without a generated query")
        return gave_up(str(failure))
    if is_reusable(cypher, parameters):
        cache.put(pattern.text, schema.fingerprint, cypher)
    return _results(store, scope, rows, limit, cypher)


def gave_up(error: str) -> QueryOutcome:
    """Record that text-to-Cypher has no rows to give, and why (logged, never raised)."""
    logger.warning("text-to-Cypher gave up: %s", error)
    return QueryOutcome(error=error)


def generate_and_run(
    model: BaseChatModel, messages: list[tuple[str, str]], run: Callable[[str], list[Row]], *, spec: str = ""
) -> tuple[str, list[Row]]:
    """Ask the model for a query and run it; on a refusal or error, ask once more with the error.

    Returns:
        The query that ran and its rows.

    Raises:
        TextToCypherError: If the model fails, or the query and its one repair both fail.
    """
    first = _ask(model, messages, spec)
    try:
        return first.cypher, run(first.cypher)
    except (UnsafeQueryError, StoreError) as error:
        logger.info("generated query failed (%s); asking for a repair", error)
        repair = CYPHER_REPAIR.format(query=first.cypher, error=str(error))
    second = _ask(model, [*messages, ("assistant", first.cypher), ("user", repair)], spec)
    try:
        return second.cypher, run(second.cypher)
    except (UnsafeQueryError, StoreError) as error:
        raise TextToCypherError(f"generated query failed after one repair: {error}") from error


def _ask(model: BaseChatModel, messages: list[tuple[str, str]], spec: str = "") -> GeneratedQuery:
    """Return the model's structured query (bounded time and requests: ``providers.chat_models.ask_model``).

    Raises:
        TextToCypherError: If the model call fails (network, refusal, malformed output);
            its cause is the ``ModelError`` when the model failed.
    """
    try:
        return ask_model(spec or "the configured model", GeneratedQuery, messages, model=model)
    except Exception as error:
        # Text-to-Cypher only adds evidence: a model outage must not fail the answer.
        raise TextToCypherError(f"the model did not produce a query: {error}") from error


def question_pattern(question: str, names: Sequence[str] = ()) -> QuestionPattern:
    """Lift a question's values out into ``$p0``, ``$p1``, ... parameters.

    Values are quoted strings, the given names (the analysis's entity mentions, longest
    first, so 北京大学 wins over 北京) and numbers; the same value always gets the same
    placeholder. The remaining text is case-folded, whitespace-normalised and stripped
    of end punctuation, so trivially different wordings share a pattern.

    Args:
        question: The question as asked.
        names: Entity names mentioned in it.

    Returns:
        The pattern text and the parameters its placeholders stand for.
    """
    spans: list[tuple[int, int, Any]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= left or start >= right for left, right, _ in spans)

    for match in _QUOTED.finditer(question):
        value = next(group for group in match.groups() if group is not None)
        spans.append((match.start(), match.end(), value))
    for name in sorted({name for name in names if name.strip()}, key=len, reverse=True):
        for match in re.finditer(re.escape(name), question):
            if free(match.start(), match.end()):
                spans.append((match.start(), match.end(), name))
    for match in _NUMBER.finditer(question):
        if free(match.start(), match.end()):
            number = float(match.group()) if "." in match.group() else int(match.group())
            spans.append((match.start(), match.end(), number))
    placeholders: dict[Any, str] = {}
    pieces: list[str] = []
    cursor = 0
    for start, end, value in sorted(spans, key=lambda span: span[0]):
        name = placeholders.setdefault(value, f"p{len(placeholders)}")
        pieces += [question[cursor:start].casefold(), f"${name}"]
        cursor = end
    pieces.append(question[cursor:].casefold())
    text = " ".join("".join(pieces).split()).rstrip(_END_PUNCTUATION)
    return QuestionPattern(text, {name: value for value, name in placeholders.items()})


def describe_schema(store: GraphStore, scope: str, timeout_ms: int | None = None) -> GraphSchema:
    """Read the schema summary: store-wide labels, types and keys, this scope's properties and predicates.

    Every read goes through ``query_read_only``, so it is bounded and pinned to the scope.

    Raises:
        StoreError: If the store cannot be read.
    """

    def column(query: str) -> list[Any]:
        rows = store.query_read_only(scope, query, limit=SCHEMA_LIMIT, timeout_ms=timeout_ms)
        return [next(iter(row.values())) for row in rows]

    def visible(keys: Iterable[Any]) -> tuple[str, ...]:
        return tuple(sorted(str(key) for key in keys if key not in HIDDEN_PROPERTIES))

    predicates = store.query_read_only(scope, _PREDICATES, limit=SCHEMA_LIMIT, timeout_ms=timeout_ms)
    return GraphSchema(
        labels=tuple(sorted(column("CALL db.labels() YIELD label RETURN label"))),
        relationship_types=tuple(
            sorted(column("CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType"))
        ),
        property_keys=visible(column("CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey")),
        properties={kind: visible(column(query)) for kind, query in _PROPERTY_SAMPLES.items()},
        predicates=tuple((str(row["key"]), int(row["uses"])) for row in predicates if row["key"]),
    )


def is_reusable(cypher: str, parameters: dict[str, Any]) -> bool:
    """Whether a query may be cached: it names none of the question's values as a literal.

    A query that wrote ``'Alice'`` instead of ``$p0`` answers only the question it was
    written for; cached, it would answer "who does Bob work for" about Alice.
    """
    # Strict on purpose: a value anywhere in the text (a literal, a comment) means "not
    # reusable"; the cost of a false alarm is one more model call later.
    text = _PARAMETER_REFERENCE.sub(" ", cypher).casefold()
    for value in parameters.values():
        if isinstance(value, str):
            if value.casefold() in text:
                return False
        elif re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w.])", text):
            return False
    return True


def facts_named_by(store: GraphStore, scope: str, rows: list[Row]) -> list[Fact]:
    """Return the stored facts whose ids rows give in ``fact_id`` or ``fact_ids``, in row order.

    The ids are model-chosen data, so the facts are read back in the scope: an id from
    another agent's memory finds nothing.
    """
    wanted: list[str] = []
    for row in rows:
        single, several = row.get("fact_id"), row.get("fact_ids")
        candidates = [single, *(several if isinstance(several, list | tuple) else [several])]
        wanted.extend(value for value in candidates if isinstance(value, str) and value not in wanted)
    if not wanted:
        return []
    return store.facts_by_ids(scope, wanted)


def json_safe(value: Any) -> Any:
    """Turn a query result value into plain JSON data (nodes and relationships become their properties)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items() if key not in HIDDEN_PROPERTIES}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(item) for item in value]
    nodes, edges = getattr(value, "nodes", None), getattr(value, "edges", None)
    if callable(nodes) and callable(edges):  # a FalkorDB path
        return {"nodes": json_safe(nodes()), "relationships": json_safe(edges())}
    properties = getattr(value, "properties", None)
    if isinstance(properties, dict):  # a FalkorDB node or edge
        return json_safe(properties)
    return str(value)  # temporal values and anything else the drivers return


def _results(store: GraphStore, scope: str, rows: list[Row], limit: int, cypher: str) -> QueryOutcome:
    rows = rows[:limit]  # with_limit bounds only the last part of a UNION
    try:
        facts = facts_named_by(store, scope, rows)
    except (UnsafeQueryError, StoreError) as error:
        logger.warning("could not read the facts a generated query named: %s", error)
        facts = []
    return QueryOutcome(rows=[json_safe(row) for row in rows], facts=facts, cypher=cypher)


def _describe_parameters(parameters: dict[str, Any]) -> str:
    return "\n".join(f"${name} = {json.dumps(value, ensure_ascii=False)}" for name, value in parameters.items())
