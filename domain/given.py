"""Given facts: facts a caller already has, turned into perceptions that skip the Reader.

A facts file (``elephant ingest --facts``), ``Broker.remember_facts`` rows, the MCP
tool ``remember_facts`` and LangChain ``GraphDocument``s (what ``LLMGraphTransformer``
produces) all arrive here as :class:`~elephant_broker.schemas.models.GivenFact` rows
and leave as ``Perception``s carrying their facts (``Perception.given_facts``). From there
they take the one ingest path every text takes — only the reading is skipped
(``domain.reading.read_given``): entity resolution, canonical predicates, conflict
review, provenance and idempotence are the usual ones, and there is no second write
path.

What this module decides:

- **Episodes.** Rows with the same episode text, source and time are one episode,
  placed where its first row is; a row without an episode text is an episode of its
  own, whose text is its fact written as a sentence (``language.sentences``). An
  episode text over ``MAX_EPISODE_CHARS`` is cut at sentence ends like any long text,
  and each fact goes with the first piece that mentions both its ends (else one end,
  else the first piece), so its provenance is the passage that states it.
- **Types.** Free type names (``Company``, ``PERSON``, ``GPE``, 人物) are mapped to
  ``ENTITY_TYPES`` through a table of synonyms (:data:`TYPE_SYNONYMS`); an unknown
  type is ``Concept`` (generic: it takes no side in identity); a missing one is what
  the name alone makes certain (gazetteers, dates, 小李-shaped names), else ``Concept``.
- **Predicates.** A relation written as an identifier (``WORKS_AT``, ``works_at``,
  ``worksAt``) is read as words (``works at``), so the predicate lexicon
  canonicalises it like any wording.
- **GraphDocuments.** :func:`graph_document_facts` maps each relationship to a row
  (node id or ``name`` property as the name, node type as the entity type, the
  source document's ``page_content`` as the episode and its ``metadata["source"]``
  as the source). Nodes no relationship touches carry no fact; the mapping says so
  in its notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from elephant_broker.language.chunks import split_long
from elephant_broker.language.names import is_mentioned
from elephant_broker.language.sentences import fact_sentence
from elephant_broker.language.types import CONCEPT, PERSON, TIME, gazetteer_type, is_time, looks_like_zh_person
from elephant_broker.schemas.ids import MAX_EPISODE_CHARS, NAME_MAX, error_line
from elephant_broker.schemas.models import (
    MAX_GIVEN_FACTS,
    FactStatement,
    GivenFact,
    Perception,
    Quintuple,
)
from pydantic import ValidationError

TYPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "Person": (
        "person", "people", "human", "individual", "per", "character", "人", "人物", "人员", "个人",
    ),
    "Organization": (
        "organization", "organisation", "org", "company", "corporation", "business", "firm", "enterprise",
        "institution", "university", "school", "college", "agency", "team", "club", "startup", "norp",
        "组织", "机构", "公司", "企业", "学校", "大学", "团队",
    ),
    "Place": (
        "place", "location", "loc", "gpe", "city", "country", "region", "state", "province", "address",
        "area", "geo", "geography", "facility", "fac", "地点", "地方", "位置", "城市", "国家", "地区",
    ),
    "Time": ("time", "date", "datetime", "year", "period", "时间", "日期", "年份"),
    "Tool": (
        "tool", "software", "application", "app", "framework", "library", "platform", "technology",
        "service", "database", "工具", "软件", "平台", "技术",
    ),
    "Language": ("language", "programminglanguage", "lang", "语言", "编程语言"),
    "Food": ("food", "dish", "drink", "beverage", "食物", "食品", "菜"),
    "Thing": ("thing", "object", "item", "product", "device", "物品", "东西", "产品"),
    "Event": ("event", "meeting", "conference", "事件", "会议"),
    "Activity": ("activity", "hobby", "sport", "活动", "爱好", "运动"),
    "Concept": ("concept", "topic", "idea", "field", "subject", "概念", "主题", "领域"),
}  # fmt: skip
"""Canonical entity type -> the type names that mean it (compared case-, space- and underscore-free)."""

_TYPE_OF: dict[str, str] = {
    synonym: kind for kind, synonyms in TYPE_SYNONYMS.items() for synonym in (kind.casefold(), *synonyms)
}
_TYPE_NOISE = re.compile(r"[\s_\-]+")
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*|[a-z]+(?:[A-Z][a-z0-9]*)+")
_CAMEL_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_CJK = re.compile(r"[\u3400-\u9fff]")
_DEFAULT_NODE_TYPE = "Node"
"""LangChain's ``Node.type`` when the transformer gave none: no type."""
_RELATIONSHIP_PROPERTIES = ("confidence", "negated", "valid_from")
"""Relationship properties read into a fact; others are left out."""


def entity_type(given: str | None, name: str) -> str:
    """Return the canonical type of a given name: its type mapped, or what the name alone says.

    Without a type, only what is certain of the name counts: the gazetteers (Python is
    a Language, Paris a Place), a date or a Chinese personal-name shape (小李).
    Otherwise ``Concept``, which fits any type in identity resolution, so an untyped
    name still joins the typed entity of that name; the Reader's weaker hints (a
    capitalised word that could be a given name) would split "Open AI" from OpenAI.

    Args:
        given: The type as given (``Company``, ``PERSON``, 人物), or None.
        name: The name it types.
    """
    if given is not None:
        return _TYPE_OF.get(_TYPE_NOISE.sub("", given.casefold()), CONCEPT)
    if is_time(name):
        return TIME
    return gazetteer_type(name) or (PERSON if looks_like_zh_person(name) else CONCEPT)


def relation_words(relation: str, *, identifier: bool = False) -> str:
    """Return a relation written as an identifier in words: ``WORKS_AT`` / ``worksAt`` -> ``works at``.

    Args:
        relation: The predicate or relationship type.
        identifier: Whether it is always an identifier (a graph relationship type,
            ``SPOUSE`` -> ``spouse``); otherwise only underscored or camel-case
            words are taken for one, and ``CEO`` or ``co-founded`` stay as written.
    """
    if (identifier and relation.isascii()) or _IDENTIFIER.fullmatch(relation):
        words = re.split(r"[_\s]+", _CAMEL_BREAK.sub(" ", relation))
        return " ".join(word.lower() for word in words if word) or relation
    return relation


def given_quintuple(fact: FactStatement) -> Quintuple:
    """Return a given fact as the quintuple a reading would have produced (types canonical)."""
    return Quintuple(
        subject=fact.subject,
        subject_type=entity_type(fact.subject_type, fact.subject),
        predicate=relation_words(fact.predicate),
        object=fact.object,
        object_type=entity_type(fact.object_type, fact.object),
        confidence=fact.confidence,
        negated=fact.negated,
        valid_from=fact.valid_from,
    )


def facts_text(facts: Sequence[Quintuple]) -> str:
    """Return facts written as sentences: the text of an episode given no text of its own."""
    sentences = []
    for fact in facts:
        sentence = fact_sentence(fact.subject, fact.predicate, fact.object, fact.negated)
        sentences.append(sentence + ("。" if _CJK.search(sentence) else "."))
    return " ".join(sentences)


def given_perceptions(
    rows: Sequence[GivenFact], *, labels: Sequence[str] | None = None, **defaults: Any
) -> list[Perception]:
    """Return the perceptions that remember the rows: one per episode, each carrying its facts.

    Args:
        rows: The checked rows, in order.
        labels: How to name each row in an error (``facts.csv:7``); default ``rows[i]``.
        **defaults: Perception fields for every episode (speaker, agent_id, session_id,
            derived_from) and the source and time of rows that give none.

    Raises:
        ValueError: One line naming the first row of an episode that cannot be one
            (over ``MAX_GIVEN_FACTS`` facts, a default breaking its rule); nothing is
            remembered, as nothing is returned.
    """
    try:  # the defaults first, so a bad one is named as itself, not as a row's
        Perception.model_validate({**defaults, "text": "-"})
    except ValidationError as error:
        raise ValueError(error_line(error)) from None
    names = list(labels) if labels is not None else [f"rows[{index}]" for index in range(len(rows))]
    groups: dict[tuple[object, ...], list[int]] = {}
    for index, row in enumerate(rows):
        source, time = row.source or defaults.get("source"), row.time or defaults.get("time")
        key: tuple[object, ...] = ("text", row.episode, source, time) if row.episode else ("row", index)
        groups.setdefault(key, []).append(index)
    perceptions: list[Perception] = []
    for members in groups.values():
        first = rows[members[0]]
        if len(members) > MAX_GIVEN_FACTS:
            raise ValueError(
                f"{names[members[0]]}: {len(members):,} facts share this episode text; "
                f"at most {MAX_GIVEN_FACTS:,} per episode"
            )
        facts = [given_quintuple(rows[index]) for index in members]
        fields = {
            **defaults,
            "source": first.source or defaults.get("source"),
            "time": first.time or defaults.get("time"),
        }
        for piece, placed in place_facts(first.episode or facts_text(facts), facts):
            try:
                perceptions.append(Perception.model_validate({**fields, "text": piece, "given_facts": placed}))
            except ValidationError as error:
                raise ValueError(f"{names[members[0]]}: {error_line(error)}") from None
    return perceptions


def place_facts(text: str, facts: Sequence[Quintuple]) -> list[tuple[str, list[Quintuple]]]:
    """Cut an episode text into episodes of at most ``MAX_EPISODE_CHARS`` and give each its facts.

    A fact goes with the first piece that mentions both its ends, else one of them, else
    the first piece. A piece no fact goes with is still stored (it is part of the text),
    with no facts and unread.
    """
    pieces = split_long(text, MAX_EPISODE_CHARS)
    if len(pieces) <= 1:
        return [(text, list(facts))]
    placed: list[list[Quintuple]] = [[] for _ in pieces]
    for fact in facts:
        mentions = [(is_mentioned(fact.subject, piece), is_mentioned(fact.object, piece)) for piece in pieces]
        both = [i for i, ends in enumerate(mentions) if all(ends)]
        either = [i for i, ends in enumerate(mentions) if any(ends)]
        placed[(both or either or [0])[0]].append(fact)
    return list(zip(pieces, placed, strict=True))


@dataclass
class GraphDocumentFacts:
    """What a list of GraphDocuments gives: checked rows, how to name each, and notes."""

    rows: list[GivenFact] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    """``documents[i].relationships[j]`` for each row, for error messages."""
    notes: list[str] = field(default_factory=list)
    """Nodes and documents that carry no fact."""


def graph_document_facts(documents: Iterable[Any]) -> GraphDocumentFacts:
    """Map LangChain ``GraphDocument``s to given-fact rows, one per relationship.

    Duck-typed, so the classes of ``langchain_neo4j.graphs.graph_document`` and of
    ``langchain_community.graphs.graph_document`` (the same shape) both work, without
    either being a dependency. A relationship ``(source)-[TYPE]->(target)`` is the fact
    source —type in words→ target; a node's name is its ``name`` property when it has
    one, else its id; its type is the entity type (``Node``, LangChain's default, means
    none: guessed). The relationship's ``confidence``, ``negated`` and ``valid_from``
    properties are kept. The document's ``source`` Document gives the episode text
    (``page_content``) and source (``metadata["source"]``); without one, the
    document's facts written as sentences are its episode.

    Raises:
        ValueError: One line naming the document and relationship whose fact breaks a
            rule (a blank name, a name over 200 characters ...).
    """
    found = GraphDocumentFacts()
    isolated: list[str] = []
    empty = 0
    for number, document in enumerate(documents):
        nodes = list(getattr(document, "nodes", None) or [])
        relationships = list(getattr(document, "relationships", None) or [])
        # A relationship's ends may repeat a node without its type or name: the node list has them.
        typed = {str(getattr(node, "id", "")): _node_type(node) for node in nodes}
        named = {str(getattr(node, "id", "")): _node_name(node) for node in nodes}
        touched: set[str] = set()
        episode, source = _document_origin(document, f"documents[{number}]")
        rows: list[GivenFact] = []
        for index, relationship in enumerate(relationships):
            label = f"documents[{number}].relationships[{index}]"
            start, end = getattr(relationship, "source", None), getattr(relationship, "target", None)
            properties = _properties(relationship)
            start_id, end_id = str(getattr(start, "id", "")), str(getattr(end, "id", ""))
            row = {
                "subject": _named(start) or named.get(start_id) or _tidy(start_id),
                "subject_type": _node_type(start) or typed.get(start_id),
                "predicate": relation_words(_tidy(getattr(relationship, "type", "")), identifier=True),
                "object": _named(end) or named.get(end_id) or _tidy(end_id),
                "object_type": _node_type(end) or typed.get(end_id),
                "source": source,
                **{name: properties[name] for name in _RELATIONSHIP_PROPERTIES if properties.get(name) is not None},
            }
            touched |= {start_id, end_id}
            try:
                rows.append(GivenFact.model_validate(row))
            except ValidationError as error:
                raise ValueError(f"{label}: {error_line(error)}") from None
            found.labels.append(label)
        if not rows:
            empty += 1
        if rows and episode is None:
            episode = facts_text([given_quintuple(row) for row in rows])
        found.rows.extend(row.model_copy(update={"episode": episode}) for row in rows)
        isolated.extend(_node_name(node) for node in nodes if str(getattr(node, "id", "")) not in touched)
    if isolated:
        shown = ", ".join(isolated[:5]) + (f" and {len(isolated) - 5} more" if len(isolated) > 5 else "")
        found.notes.append(f"{len(isolated)} node(s) without a relationship carry no fact: {shown}")
    if empty:
        found.notes.append(f"{empty} document(s) without relationships: nothing of them is stored")
    return found


def _document_origin(document: Any, label: str) -> tuple[str | None, str | None]:
    """Return a document's episode text (its source's ``page_content``) and source name (``metadata``)."""
    origin = getattr(document, "source", None)
    if origin is None:
        return None, None
    text = getattr(origin, "page_content", None)
    metadata = getattr(origin, "metadata", None)
    source = metadata.get("source") if isinstance(metadata, Mapping) else None
    if text is not None and not isinstance(text, str):
        raise ValueError(f"{label}.source.page_content: must be a string, not {type(text).__name__}")
    # A metadata source is usually a path or a URL: tidied into a source name (like a file
    # name), not refused, since the caller did not choose its spelling.
    name = _tidy(source)[:NAME_MAX].strip() if source is not None else ""
    return (text if text and text.strip() else None), (name or None)


def _node_name(node: Any) -> str:
    """Return a node's name: its ``name`` property when it is text, else its id."""
    return _named(node) or _tidy(getattr(node, "id", ""))


def _named(node: Any) -> str:
    """Return a node's ``name`` property when it is text, else ""."""
    name = _properties(node).get("name")
    return _tidy(name) if isinstance(name, str) else ""


def _node_type(node: Any) -> str | None:
    kind = getattr(node, "type", None)
    return None if not isinstance(kind, str) or not kind.strip() or kind == _DEFAULT_NODE_TYPE else _tidy(kind)


def _properties(item: Any) -> Mapping[str, Any]:
    properties = getattr(item, "properties", None)
    return properties if isinstance(properties, Mapping) else {}


def _tidy(value: Any) -> str:
    """Return a model's name or type as one line of single spaces (as the Reader tidies a model's names)."""
    return " ".join(str(value if value is not None else "").split())
