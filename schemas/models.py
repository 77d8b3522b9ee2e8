"""Pydantic models for what the broker extracts, stores and returns.

These are the public shapes: the LLM's structured output (``Quintuple``), the rows
kept in the graph (``Entity``, ``Fact``, ``Episode``) and the inputs/outputs of the
graphs (``Perception``, ``Question``, ``Answer``). Graph state lives in ``state.py``.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, date, datetime, time
from typing import Literal

from elephant_broker.schemas.ids import (
    MAX_EPISODE_CHARS,
    MAX_QUESTION_CHARS,
    MAX_TEXT_CHARS,
    NAME_MAX,
    TEXT_TOO_LONG_HINT,
    TIME_MAX,
    check_fact_ids,
    check_name,
    check_optional,
    check_text,
)
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

FactStatus = Literal["active", "superseded", "rejected", "disputed"]
"""active: current truth; superseded: was true, replaced (history); rejected: lost a review."""

DEFAULT_SPEAKER = "user"
"""Who said a text when the caller does not say; first person (我/I) resolves to it."""


class Quintuple(BaseModel):
    """One extracted statement: (subject, subject_type, predicate, object, object_type).

    Plus how sure the extractor is, whether the statement is negated, an optional
    time qualifier and the span of text it came from.
    """

    subject: str = Field(description="Who or what the statement is about, as written.")
    subject_type: str = Field(
        default="Concept", description="Entity type of the subject (Person, Organization, Place, Tool, Language, ...)."
    )
    predicate: str = Field(description="The relation, as written (e.g. 精通, works at).")
    object: str = Field(description="The other end of the relation, as written.")
    object_type: str = Field(default="Concept", description="Entity type of the object.")
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    negated: bool = Field(default=False, description="True for 'A 不是 B' / 'A does not use B'.")
    valid_from: str | None = Field(default=None, description="When the fact became true, if stated.")
    schedule: str | None = Field(
        default=None,
        description="When it recurs or happens, as written: every Saturday morning, 每周三下午, at 7 am, on Friday.",
    )
    source_span: str = Field(default="", description="The sentence the statement came from.")

    @field_validator("subject", "predicate", "object")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        # A model may copy control characters (NUL, line breaks) into a name; a name never
        # needs them, and the store must never receive them, so they become spaces.
        value = " ".join("".join(" " if unicodedata.category(char) == "Cc" else char for char in value).split())
        if not value:
            raise ValueError("must not be blank")
        return value


class Extraction(BaseModel):
    """What the Reader returns for one text (the LLM's structured-output schema)."""

    quintuples: list[Quintuple] = Field(default_factory=list)


PREDICATE_MAX = 100
"""Longest predicate of a given fact (``works at``, 毕业于 ...)."""
TYPE_MAX = 64
"""Longest entity type of a given fact, before it is mapped to one of ``ENTITY_TYPES``."""
MAX_GIVEN_FACTS = 1_000
"""Most facts one text may be given (``Perception.given_facts``); more are refused."""


def _given_name(value: object, field: str, limit: int) -> str:
    """Check one name of a given fact: outer spaces dropped, inner runs made one, then the name rule.

    Spreadsheet cells and JSON values often carry a space after a comma or a doubled
    one; those are not part of a name. Anything else the name rule refuses (a line
    break, a control or invisible character, over ``limit`` characters) is refused,
    naming the field: a fact is never stored under a name other than the one given.
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # a year or a number as the other end: its text
    if not isinstance(value, str):
        raise ValueError(f"{field}: must be a string, not {type(value).__name__}")
    return check_name(" ".join(part for part in value.strip(" ").split(" ") if part), field, limit)


class FactStatement(BaseModel):
    """One fact as a caller gives it, already extracted: who or what, the relation, the other end.

    The boundary shape of given facts (``elephant ingest --facts``, ``Broker.remember_facts``,
    the MCP tool ``remember_facts``): names are checked (outer and doubled spaces dropped,
    nothing else repaired); a blank one is refused naming its field. Types are free text
    here (``Company``, ``PERSON``, 人物) and are mapped to ``ENTITY_TYPES`` when the fact
    is stored (``domain.given``).
    """

    model_config = ConfigDict(extra="forbid")

    subject: str = Field(description="Who or what the fact is about (a name).")
    subject_type: str | None = Field(
        default=None,
        description="Its type: Person, Organization, Place, Time, Tool, Language, Food, Thing, Event, Activity, "
        "Concept, or a common synonym (Company, Location, 人物 ...). Omitted: what the name makes certain "
        "(Paris: Place, Python: Language), else Concept.",
    )
    predicate: str = Field(description="The relation, in words (works at, 毕业于, lives in).")
    object: str = Field(description="The other end of the relation (a name).")
    object_type: str | None = Field(default=None, description="The object's type, like subject_type.")
    confidence: float = Field(
        default=0.9, ge=0.0, le=1.0, description="How sure the fact is, 0 to 1 (default 0.9, a clear statement)."
    )
    negated: bool = Field(default=False, description="True when the fact says the relation does not hold.")
    valid_from: str | None = Field(default=None, description="When the fact became true in the world, if known.")

    @field_validator("subject", "object", mode="before")
    @classmethod
    def _names(cls, value: str, info: ValidationInfo) -> str:
        return _given_name(value, str(info.field_name), NAME_MAX)

    @field_validator("predicate", mode="before")
    @classmethod
    def _predicate(cls, value: str) -> str:
        return _given_name(value, "predicate", PREDICATE_MAX)

    @field_validator("subject_type", "object_type", mode="before")
    @classmethod
    def _types(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or isinstance(value, str) and not value.strip():
            return None  # an empty cell: no type given
        return _given_name(value, str(info.field_name), TYPE_MAX)

    @field_validator("valid_from", mode="before")
    @classmethod
    def _valid_from(cls, value: str | None) -> str | None:
        return None if value is None or value == "" else _given_name(value, "valid_from", TIME_MAX)


class GivenFact(FactStatement):
    """A given fact with where it was stated: one row of a facts file, or one fact for ``remember_facts``.

    ``episode`` is the text that stated it (``text`` is accepted as its other name): rows
    with the same episode text, source and time are one episode; a row without one is an
    episode of its own, whose text is the fact written as a sentence. ``time`` is when it
    was stated (the episode's time: as-of answers and recency use it); ``valid_from`` is
    when it became true.
    """

    source: str | None = Field(default=None, description="Where the fact came from; its authority weighs in review.")
    time: str | None = Field(default=None, description="When it was stated (ISO 8601 or free text).")
    episode: str | None = Field(
        default=None,
        description="The text that stated the fact, stored as its episode (default: the fact as a sentence).",
    )

    @model_validator(mode="before")
    @classmethod
    def _text_is_the_episode(cls, data: object) -> object:
        if isinstance(data, dict) and "text" in data:
            data = dict(data)
            text = data.pop("text")
            if data.get("episode") in (None, ""):
                data["episode"] = text
            elif text not in (None, ""):
                raise ValueError("episode: give the episode text as episode or as text, not both")
        return data

    @field_validator("source", mode="before")
    @classmethod
    def _source(cls, value: str | None) -> str | None:
        return None if value is None or value == "" else _given_name(value, "source", NAME_MAX)

    @field_validator("time", mode="before")
    @classmethod
    def _time(cls, value: str | None) -> str | None:
        return None if value is None or value == "" else _given_name(value, "time", TIME_MAX)

    @field_validator("episode", mode="before")
    @classmethod
    def _episode(cls, value: str | None) -> str | None:
        if value is None or isinstance(value, str) and not value.strip():
            return None  # an empty cell: the fact's own sentence is its episode
        if not isinstance(value, str):
            raise ValueError(f"episode: must be a string, not {type(value).__name__}")
        return check_text(value.strip(), "episode", MAX_TEXT_CHARS)


# Descriptions of the request fields the ingest and answer graphs share (Studio forms, tool schemas).
_SPEAKER_HELP = 'Who speaks; first person ("I", "我") means them (default: user).'
_AGENT_HELP = "Whose memory to use (default: the run's agent_id)."


class Addressed(BaseModel):
    """The checks of who a request is from and whose memory it uses (a perception's, a question's).

    Each request declares its own fields, so its main one (``text``, ``question``) comes
    first in forms and tool schemas; the boundary rules of schemas/ids.py are shared:
    refused, never repaired, so nothing odd is stored.
    """

    model_config = ConfigDict(extra="forbid")

    @field_validator("agent_id", "session_id", check_fields=False)
    @classmethod
    def _ids(cls, value: str | None, info: ValidationInfo) -> str | None:
        return check_optional(value, "id", str(info.field_name))

    @field_validator("speaker", check_fields=False)
    @classmethod
    def _speaker(cls, value: str | None) -> str | None:
        return check_optional(value, "name", "speaker")


class Perception(Addressed):
    """One thing an agent perceived: the public input of the ingest graph."""

    text: str = Field(description="What was said or read, in Chinese or English.")
    speaker: str | None = Field(default=None, description=_SPEAKER_HELP)
    agent_id: str | None = Field(default=None, description=_AGENT_HELP)
    session_id: str | None = Field(default=None, description='The conversation it belongs to (default: "default").')
    source: str | None = Field(
        default=None, description="Where it came from (a channel, a document); its authority weighs in review."
    )
    time: str | None = Field(default=None, description="When it was said (ISO 8601 or free text).")
    external_id: str | None = Field(
        default=None, description="The caller's id for this text (a turn id, a message id); kept on the episode."
    )
    derived_from: list[str] | None = Field(
        default=None,
        description="Ids of stored facts this text was concluded from (an agent's own reasoning); "
        "its facts then lose confidence when those facts are rejected or their source is distrusted.",
    )
    given_facts: list[Quintuple] | None = Field(
        default=None,
        description="Facts already extracted from the text: stored as given (entity resolution, canonical "
        "predicates, conflict review and provenance as usual) and the text is not read; [] stores the text "
        "without facts. At most 1,000, and the text at most 1,500 characters.",
    )
    # Set by the Broker and the CLI when they cut a long text; kept out of the JSON schema so
    # Studio forms and tool schemas (langgraph dev's /mcp) stay narrow, and out of dumps when unset.
    preceding_text: SkipJsonSchema[str | None] = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The end of the text just before this one (the previous piece of a long text): the "
        "Reader sees it only to know whom or what a word refers to, takes no fact from it, and it is "
        "neither stored nor part of the episode's identity.",
    )

    @field_validator("text")
    @classmethod
    def _text_is_text(cls, value: str) -> str:
        return check_text(value, "text", MAX_TEXT_CHARS, TEXT_TOO_LONG_HINT)

    @field_validator("given_facts")
    @classmethod
    def _given_facts(cls, value: list[Quintuple] | None) -> list[Quintuple] | None:
        if value is None:
            return None
        if len(value) > MAX_GIVEN_FACTS:
            raise ValueError(f"given_facts: at most {MAX_GIVEN_FACTS:,} per text, not {len(value):,}")
        for number, fact in enumerate(value):
            for field, limit in (("subject", NAME_MAX), ("predicate", PREDICATE_MAX), ("object", NAME_MAX)):
                size = len(getattr(fact, field))
                if size > limit:
                    raise ValueError(f"given_facts: fact {number}'s {field} has {size:,} characters; at most {limit}")
        return value

    @model_validator(mode="after")
    def _given_facts_fit_one_episode(self) -> Perception:
        # A text with given facts is one episode: split, its facts would be copied to every piece.
        if self.given_facts is not None and self.text is not None and len(self.text) > MAX_EPISODE_CHARS:
            raise ValueError(
                f"text: {len(self.text):,} characters; at most {MAX_EPISODE_CHARS:,} with given facts "
                "(Broker.remember_facts splits a longer text and places each fact)"
            )
        return self

    @field_validator("preceding_text")
    @classmethod
    def _preceding_text(cls, value: str | None) -> str | None:
        return check_text(value, "preceding_text", MAX_EPISODE_CHARS) if value else None

    @field_validator("source")
    @classmethod
    def _source(cls, value: str | None) -> str | None:
        return check_optional(value, "name", "source")

    @field_validator("time")
    @classmethod
    def _time(cls, value: str | None) -> str | None:
        return check_name(value, "time", TIME_MAX) if value else None

    @field_validator("external_id")
    @classmethod
    def _external_id(cls, value: str | None) -> str | None:
        return check_name(value, "external_id") if value else None

    @field_validator("derived_from")
    @classmethod
    def _derived_from(cls, value: list[str] | None) -> list[str] | None:
        return check_fact_ids(value) if value is not None else None


class Episode(BaseModel):
    """One perceived text as stored (seed name: cognitive event)."""

    id: str
    agent_id: str
    session_id: str
    speaker: str
    source: str
    text: str
    time: str | None = None
    external_id: str | None = None
    created_at: int = Field(description="Milliseconds since the epoch when the broker stored it.")
    corrected_to: str | None = Field(
        default=None,
        description="What the episode says once its speaker's next turn corrected it (set when answering, not stored).",
    )

    def learnt_at(self) -> int:
        """When memory learnt what this episode says (ms since the epoch).

        Its ``time`` when that is an ISO date or date-time in the past — imported history
        ("Fiona lives in Dublin", said 2025-01-10) is learnt when it was said, so as-of
        answers, decay and recency follow the conversation — else when it was stored.
        """
        if self.time:
            try:
                return min(parse_instant(self.time), self.created_at)
            except ValueError:
                pass  # free text ("last summer") dates nothing
        return self.created_at


class Entity(BaseModel):
    """A canonical thing the memory knows about."""

    id: str
    name: str
    type: str = "Concept"
    aliases: list[str] = Field(default_factory=list)
    mention_count: int = 0
    first_seen: int | None = None
    last_seen: int | None = None
    score: float | None = Field(default=None, description="How strongly a question links to it, when linked.")


class Fact(BaseModel):
    """Subject -predicate-> object, with provenance, confidence and time."""

    id: str
    subject: str
    subject_id: str | None = None
    subject_type: str | None = None
    predicate: str
    predicate_key: str
    object: str
    object_id: str | None = None
    object_type: str | None = None
    weight: int = 1
    confidence: float = 0.8
    negated: bool = False
    episode_ids: list[str] = Field(default_factory=list)
    created_at: int | None = None
    valid_from: str | None = None
    schedule: str | None = None
    valid_to: str | None = None
    status: FactStatus = "active"
    expired_at: int | None = Field(default=None, description="When the broker retired it (ms since the epoch).")
    authority: float | None = Field(default=None, description="Authority of the most authoritative source.")
    derived_from: list[str] = Field(default_factory=list, description="Facts this one was concluded from.")
    score: float | None = Field(default=None, description="Retrieval score, when ranked for a question.")


class Question(Addressed):
    """The public input of the answer graph (also the MCP/LangChain tool schema)."""

    question: str = Field(description="The question, in Chinese or English.")
    speaker: str | None = Field(default=None, description=_SPEAKER_HELP)
    agent_id: str | None = Field(default=None, description=_AGENT_HELP)
    session_id: str | None = Field(default=None, description="The conversation it is asked in.")
    as_of: str | None = Field(
        default=None, description="Answer as the memory stood then (ISO date or date-time); default: now."
    )

    @field_validator("question")
    @classmethod
    def _question_is_text(cls, value: str) -> str:
        return check_text(value, "question", MAX_QUESTION_CHARS)

    @field_validator("as_of")
    @classmethod
    def _as_of_is_a_time(cls, value: str | None) -> str | None:
        if value is not None:
            check_name(value, "as_of", TIME_MAX)
            try:
                parse_instant(value)
            except ValueError as error:
                raise ValueError(f"as_of: {error}") from None
        return value


def parse_instant(text: str) -> int:
    """Return milliseconds since the epoch for an ISO date or date-time.

    A bare date means the end of that day (UTC): "as of 2026-03-01" includes what
    was learnt on March 1st. A date-time without a zone is taken as UTC.

    Raises:
        ValueError: If the text is not an ISO 8601 date or date-time.
    """
    try:
        if len(text.strip()) == 10:
            moment = datetime.combine(date.fromisoformat(text.strip()), time.max, tzinfo=UTC)
        else:
            moment = datetime.fromisoformat(text.strip())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError as error:
        raise ValueError(f"not an ISO date or date-time: {text!r}") from error
    return int(moment.timestamp() * 1000)


class QuestionAnalysis(BaseModel):
    """Stage one of answering: what the question is about and what it wants."""

    language: Literal["zh", "en"] = "en"
    entities: list[str] = Field(default_factory=list, description="Names mentioned in the question.")
    keywords: list[str] = Field(default_factory=list, description="Content words, for matching predicates.")
    answer_type: str | None = Field(default=None, description="Expected entity type of the answer.")
    answer_kind: str | None = Field(
        default=None, description="Number, Name or State when the question asks for one (answer_type is then a hint)."
    )
    intent: Literal["lookup", "recommend", "list", "yes_no"] = "lookup"
    multi_hop: bool = Field(
        default=False, description="Whether the question describes what it asks about (the author of Dune)."
    )
    aggregate: bool = Field(
        default=False, description="Whether it counts, lists or filters (how many, 哪些, after 2020): one query."
    )


class Hop(BaseModel):
    """One step of a multi-hop question: a sub-question, its evidence and its answer."""

    question: str = Field(description="The sub-question, with earlier answers filled in.")
    analysis: QuestionAnalysis | None = None
    anchors: list[Entity] = Field(default_factory=list, description="Entities the sub-question starts from.")
    facts: list[Fact] = Field(default_factory=list, description="Evidence retrieved for the sub-question.")
    answers: list[Entity] = Field(default_factory=list, description="What answers it (fills the next slot).")
    answered: bool = False


AbstainReason = Literal["nothing_found", "wrong_kind", "contradicted"]
"""Why an answer was withheld: nothing in memory bears on the question; memories bear on it
but none is of the kind asked (a city when a name is asked); or they contradict each other."""


class RelatedMemories(BaseModel):
    """The closest memories to a question, listed beside the answer and never inside its text."""

    facts: list[Fact] = Field(default_factory=list)
    episodes: list[Episode] = Field(default_factory=list)


class Answer(BaseModel):
    """The public output of the answer graph: the answer and what it rests on."""

    answer: str
    answered: bool = Field(default=True, description="False when memory does not answer the question.")
    reason: AbstainReason | None = Field(default=None, description="Why it was not answered (None when answered).")
    value: str = Field(default="", description="The answer alone, without its evidence; empty when not answered.")
    kind: str | None = Field(default=None, description="What kind of thing the question asks for (Person, Time ...).")
    facts: list[Fact] = Field(default_factory=list, description="The facts the answer rests on, best first.")
    episodes: list[Episode] = Field(default_factory=list, description="The episodes the answer cites, best first.")
    related: RelatedMemories = Field(
        default_factory=RelatedMemories,
        description="Other memories close to the question (the answer does not rest on them).",
    )
    history: list[Fact] = Field(default_factory=list, description="Superseded facts: what used to be true.")
    hops: list[Hop] = Field(default_factory=list, description="The sub-questions of a multi-hop question, in order.")
    notes: list[str] = Field(
        default_factory=list,
        description="What went differently, e.g. the model failed and the offline answer is given.",
    )
    id: str = Field(default="", description="The answer's id, for feedback (``ans_<hex>``); empty if not kept.")
    reminders: list[str] = Field(
        default_factory=list,
        description="The agent's own poor record on questions of this kind (meta-cognition notes).",
    )


Verdict = Literal["right", "wrong"]
"""What a user said of an answer."""


class AnswerRecord(BaseModel):
    """An answer as kept for feedback: what was asked and which memories it cited."""

    id: str
    question: str
    kind: str = Field(description="The kind of thing asked for (Person, Time ...; open when none).")
    answered: bool
    value: str = ""
    fact_ids: list[str] = Field(default_factory=list)
    episode_ids: list[str] = Field(default_factory=list)
    agent_id: str
    session_id: str | None = None
    speaker: str | None = None
    created_at: int = Field(description="Milliseconds since the epoch when it was answered.")
    verdict: Verdict | None = None
    correction: str | None = None
    feedback_at: int | None = None
    reply_episode_ids: list[str] = Field(
        default_factory=list, description="The episodes of what the agent said with this answer in hand."
    )


class FeedbackReport(BaseModel):
    """What one piece of feedback changed (the ``elephant feedback --json`` contract)."""

    answer_id: str
    verdict: Verdict
    lowered: list[str] = Field(default_factory=list, description="Facts whose confidence fell (cited and derived).")
    raised: list[str] = Field(default_factory=list, description="Facts whose confidence rose (cited).")
    correction: IngestReport | None = Field(default=None, description="What the correction text added.")


class AgentNote(BaseModel):
    """Something the memory learnt about the agent itself: an error pattern with its record."""

    about: Literal["question", "tool"] = Field(description="Answers to questions of a kind, or calls of a tool.")
    name: str = Field(description="The question kind (Person, Time, open ...) or the tool's name.")
    wrong: int = Field(description="Wrong answers (or failed calls) on record.")
    total: int = Field(description="Answers judged (or calls made) on record.")
    weight: float = Field(description="Wrong ones weighed by age (the note fades with the decay half-life).")
    last_correction: str | None = None
    evidence: list[str] = Field(default_factory=list, description="The answers or episodes behind it, newest first.")
    reminder: str = Field(default="", description="What an agent is told when a new question is of this kind.")


def _absent(value: object) -> bool:
    return value is None


class IngestReport(BaseModel):
    """Counts of what one ingest call added (the CLI's ``--json`` contract).

    The ``model_*`` counts are what the chat model cost the Reader; they are present when
    a model is configured (LLM mode) and left out of the report, and of its JSON,
    offline. Entity adjudication's calls (``identity_llm_*``) are not in them.
    """

    episodes: int = Field(default=0, description="Episodes written (a run held for review writes none yet).")
    facts: int = Field(default=0, description="Facts the write created (a repeated fact only gains weight).")
    entities: int = Field(default=0, description="Entities the write created.")
    conflicts: int = 0
    reread: int = Field(default=0, description="Stored episodes read again because their earlier reading had failed.")
    notes: list[str] = Field(
        default_factory=list, description="What went differently, e.g. the model failed and the offline Reader read."
    )
    model_calls: int | None = Field(
        default=None,
        ge=0,
        exclude_if=_absent,
        description="LLM mode: requests the Reader sent to the chat model (one per text piece read; a reply "
        "that did not parse and was asked again counts twice; a reading found in the LLM cache counts none).",
    )
    model_cached: int | None = Field(
        default=None,
        ge=0,
        exclude_if=_absent,
        description="LLM mode: text pieces whose reading came from the LLM cache, without a request.",
    )
    model_input_tokens: int | None = Field(
        default=None,
        ge=0,
        exclude_if=_absent,
        description="LLM mode: prompt (input) tokens of those requests, as the model reported them.",
    )
    model_output_tokens: int | None = Field(
        default=None,
        ge=0,
        exclude_if=_absent,
        description="LLM mode: completion (output) tokens of those requests, as the model reported them.",
    )

    episode_ids: list[str] = Field(
        default_factory=list,
        exclude=True,
        description="The episodes written or read again (for the audit log and the middleware; not in the JSON).",
    )

    def __eq__(self, other: object) -> bool:
        """Reports are equal when what they report is (the JSON contract); episode ids are bookkeeping."""
        if not isinstance(other, IngestReport):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]  # mutable, like every pydantic model

    def __add__(self, other: IngestReport) -> IngestReport:
        """Sum two reports (used to total a multi-episode ingest); notes are kept once each.

        A model count absent from both (offline) stays absent; absent from one counts as 0.
        """
        return IngestReport(
            episodes=self.episodes + other.episodes,
            facts=self.facts + other.facts,
            entities=self.entities + other.entities,
            conflicts=self.conflicts + other.conflicts,
            reread=self.reread + other.reread,
            notes=list(dict.fromkeys([*self.notes, *other.notes])),
            episode_ids=[*self.episode_ids, *other.episode_ids],
            **{name: _sum_present(getattr(self, name), getattr(other, name)) for name in MODEL_COUNTS},
        )


MODEL_COUNTS: tuple[str, ...] = ("model_calls", "model_cached", "model_input_tokens", "model_output_tokens")
"""The ``IngestReport`` fields that count what the chat model cost the Reader."""


def _sum_present(left: int | None, right: int | None) -> int | None:
    return None if left is None and right is None else (left or 0) + (right or 0)


ENTITY_TYPES: tuple[str, ...] = (
    "Person",
    "Organization",
    "Place",
    "Time",
    "Tool",
    "Language",
    "Food",
    "Thing",
    "Event",
    "Activity",
    "Concept",
)
"""Canonical entity types; each is also a secondary node label (``:Entity:Person``)."""


class EntityRow(BaseModel):
    """One entity the Builder will MERGE (by scope and key) for an episode."""

    key: str
    name: str
    type: str = "Concept"
    search_text: str = ""
    embedding: list[float] | None = None
    is_new: bool = True
    mention_keys: list[str] = Field(
        default_factory=list,
        description="Mentions of the episode resolved to this entity, as language.names.mention_key values.",
    )


class FactRow(BaseModel):
    """One fact the Builder will MERGE (by id) for an episode."""

    id: str
    subject_key: str
    object_key: str
    predicate: str
    predicate_key: str
    confidence: float = 0.8
    negated: bool = False
    valid_from: str | None = None
    schedule: str | None = None
    authority: float = 0.7
    status: FactStatus = "active"
    derived_from: list[str] = Field(default_factory=list)
    embedding: list[float] | None = None
    is_new: bool = True


MergeMethod = Literal["key", "alias", "fulltext", "embedding", "llm"]


class MergeRecord(BaseModel):
    """One surface name resolved into an existing entity: what, into what, how sure, when.

    Kept so a merge can be explained and undone (``elephant entities unmerge ID``).
    """

    id: str
    alias: str = Field(description="The surface name as written in the episode.")
    alias_key: str = Field(description="normalize_name(alias).")
    alias_type: str = "Concept"
    into_key: str = Field(description="Key of the entity it was merged into.")
    method: MergeMethod
    score: float = Field(ge=0.0, le=1.0)
    reason: str = ""
    episode_id: str | None = Field(default=None, description="The episode of the first merge.")
    created_at: int | None = None
    undone_at: int | None = None
    into_name: str | None = Field(default=None, description="Name of the entity it was merged into.")
    into_id: str | None = Field(default=None, description="Id of the entity it was merged into.")
    episode_ids: list[str] = Field(default_factory=list, description="Episodes whose mention came through it.")
    fact_ids: list[str] = Field(default_factory=list, description="Facts that reached the entity through it.")
    sole_episode_ids: list[str] = Field(
        default_factory=list, description="Episodes that mentioned the entity only through this alias."
    )
    updated_at: int | None = None
    restored_id: str | None = Field(default=None, description="The entity unmerge re-created for the alias.")


ConflictKind = Literal["negation", "single_value", "supersession"]
ConflictDecision = Literal["keep_new", "keep_old", "keep_both"]


class Conflict(BaseModel):
    """A new fact contradicting a stored one (same subject and canonical predicate)."""

    id: str
    kind: ConflictKind
    subject: str
    predicate_key: str
    old_fact: Fact
    new_fact: Fact
    status: Literal["open", "decided"] = "open"
    decision: ConflictDecision | None = None
    decided_by: Literal["auto", "human"] | None = None
    reason: str = ""
    created_at: int | None = None
    decided_at: int | None = None


class FactUpdate(BaseModel):
    """A change to a stored fact (review decisions, distrusted sources, propagation)."""

    fact_id: str
    status: FactStatus | None = None
    valid_to: str | None = None
    expired_at: int | None = None
    authority: float | None = None
    confidence_factor: float | None = Field(
        default=None, gt=0.0, le=1.0, description="Multiply the stored confidence by this (lowering only)."
    )


ReadBy = Literal["model", "rules", "rules (model failed)", "given"]
"""How an episode's text was read: by the chat model, by the offline rules, by the
rules because the model failed (such an episode is read again by a working model), or
not at all: its facts were given with it (``Perception.given_facts``)."""
READ_FALLBACK: ReadBy = "rules (model failed)"
READ_GIVEN: ReadBy = "given"


class EpisodeWrite(BaseModel):
    """Everything one episode adds to the graph, written in one transaction."""

    scope: str
    episode: Episode
    read_by: ReadBy = Field(default="rules", description="How the text was read (stored on the episode).")
    episode_embedding: list[float] | None = None
    entities: list[EntityRow] = Field(default_factory=list)
    facts: list[FactRow] = Field(default_factory=list)
    merges: list[MergeRecord] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    fact_updates: list[FactUpdate] = Field(default_factory=list)
