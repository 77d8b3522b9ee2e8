"""The one typed state that Reader, Builder and Answerer share.

A request is either a perception (``text``) or a question (``question``); the broker
graph routes on which is present. Fields that accumulate (evidence gathered over
several retrieval hops) have reducers; everything else is replaced by the node that
owns it. The graphs take pydantic inputs (``Perception``, ``Question`` and
``BrokerInput``, whose optional fields have defaults and descriptions: Studio forms
and ``graph.as_tool()`` schemas show them) and return the output TypedDicts below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, NotRequired, Protocol, TypeVar

from pydantic import Field, model_validator
from typing_extensions import TypedDict

from schemas.models import (
    Conflict,
    Entity,
    Episode,
    EpisodeWrite,
    Fact,
    Hop,
    IngestReport,
    Perception,
    Question,
    QuestionAnalysis,
    Quintuple,
    ReadBy,
)


class _HasId(Protocol):
    id: str


ItemT = TypeVar("ItemT", bound=_HasId)


def merge_by_id(left: Sequence[ItemT] | None, right: Sequence[ItemT] | None) -> list[ItemT]:
    """Reducer: union two lists of items by ``id``, keeping order, newer items winning."""
    merged: dict[str, ItemT] = {item.id: item for item in left or []}
    for item in right or []:
        merged[item.id] = item
    return list(merged.values())


def add_notes(left: Sequence[str] | None, right: Sequence[str] | None) -> list[str]:
    """Reducer: append notes, each kept once, in the order they were first made."""
    return list(dict.fromkeys([*(left or []), *(right or [])]))


class IngestOutput(TypedDict):
    """What one ingest reports back."""

    report: IngestReport


class AnswerOutput(TypedDict):
    """The answer, the facts and episodes it rests on, and what used to be true."""

    answer: str
    facts: list[Fact]
    episodes: list[Episode]
    history: list[Fact]
    hops: list[Hop]
    notes: NotRequired[list[str]]


class BrokerInput(Perception, Question):
    """Either a perception (``text`` ...) or a question (``question`` ...), never both."""

    # Optional here, required in the parents: the broker takes one of the two (checked below);
    # the parents' field validators still bound whichever is given.
    text: str | None = Field(default=None, description="What to remember (send this or a question).")  # type: ignore[assignment]
    question: str | None = Field(default=None, description="What to ask (send this or a text).")  # type: ignore[assignment]

    @model_validator(mode="after")
    def _text_or_question(self) -> BrokerInput:
        if (self.text is None) == (self.question is None):
            raise ValueError("send either a text to remember or a question, not both or neither")
        return self


class BrokerOutput(TypedDict, total=False):
    """What the broker graph returns: an ingest's report, or an answer with its evidence."""

    report: IngestReport
    answer: str
    facts: list[Fact]
    episodes: list[Episode]
    history: list[Fact]
    hops: list[Hop]
    notes: list[str]


class Request(TypedDict, total=False):
    """The request as graph state: the fields of a perception or a question."""

    text: str
    question: str
    as_of: str | None
    speaker: str | None
    agent_id: str | None
    session_id: str | None
    source: str | None
    time: str | None
    external_id: str | None
    derived_from: list[str] | None


class IngestState(Request, total=False):
    """State of the ingest graph (Reader -> Builder -> review -> commit)."""

    # Reader
    quintuples: list[Quintuple]
    review_policy: str
    """The review policy the ingest started under; review reads it, so a resumed run keeps it."""
    read_by: ReadBy
    """How the text was read this time (the model, the rules, or the rules after the model failed)."""
    notes: Annotated[list[str], add_notes]
    """What went differently in this run (a model that failed and the fallback used), once each."""
    # Builder
    plan: EpisodeWrite | None
    report: IngestReport
    conflicts: list[Conflict]


class AnswerState(Request, total=False):
    """State of the answer graph (analyse -> retrieve or the multi-hop loop -> answer)."""

    notes: Annotated[list[str], add_notes]
    analysis: QuestionAnalysis
    sub_questions: list[str]
    hop_budget: int
    hops: list[Hop]
    anchors: list[Entity]
    facts: Annotated[list[Fact], merge_by_id]
    episodes: Annotated[list[Episode], merge_by_id]
    history: list[Fact]
    query_rows: list[dict[str, Any]]
    query_error: str | None
    answer: str


class BrokerState(IngestState, AnswerState, total=False):
    """State of the broker graph: the request, then what the ingest or answer subgraph returns."""
