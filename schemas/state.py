"""Graph states: one per graph, each with its input and output, and their reducers.

The Reader, Builder and Answerer share one typed request (``Request``: a perception's
or a question's fields). The ingest graph works on ``IngestState``, the answer graph on
``AnswerState`` and its multi-hop subgraph on ``HopState``; the broker graph's
``BrokerState`` holds only the request and what either subgraph returns, and routes on
whether a ``question`` is present. Fields that accumulate (evidence gathered over
several hops and branches, run notes) have reducers; every other field is written by
the one node that owns it. The graphs take pydantic inputs (``Perception``,
``Question``, ``BrokerInput``, whose optional fields have defaults and descriptions:
Studio forms and ``graph.as_tool()`` schemas show them) and return the output
TypedDicts below.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Annotated, Any, NotRequired, Protocol, TypeVar

from elephant_broker.schemas.models import (
    MODEL_COUNTS,
    AbstainReason,
    Conflict,
    Entity,
    EntityRow,
    Episode,
    EpisodeWrite,
    Fact,
    Hop,
    IngestReport,
    MergeRecord,
    Perception,
    Question,
    QuestionAnalysis,
    Quintuple,
    ReadBy,
    RelatedMemories,
)
from pydantic import BaseModel, Field, model_validator
from typing_extensions import TypedDict


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


def keep_model_cost(left: IngestReport | None, right: IngestReport) -> IngestReport:
    """Reducer: the newer report, carrying the model counts of the one before when it has none.

    The read node writes a report holding only what the chat model cost the reading
    (LLM mode; it writes one on every run, so a thread reused for another text starts
    from that run's counts); the nodes after it write the report of the write, which
    does not count model calls. The final report has both.
    """
    if left is None or right.model_calls is not None or left.model_calls is None:
        return right
    return right.model_copy(update={name: getattr(left, name) for name in MODEL_COUNTS})


class IngestOutput(TypedDict):
    """What one ingest reports back."""

    report: IngestReport


class AnswerOutput(TypedDict):
    """The answer, the facts and episodes it rests on, and what used to be true."""

    answer: str
    answered: bool
    reason: NotRequired[AbstainReason]
    value: str
    kind: NotRequired[str]
    related: RelatedMemories
    facts: list[Fact]
    episodes: list[Episode]
    history: list[Fact]
    hops: list[Hop]
    notes: NotRequired[list[str]]
    query_sha256: NotRequired[str]


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
    answered: bool
    reason: AbstainReason
    value: str
    kind: str
    related: RelatedMemories
    facts: list[Fact]
    episodes: list[Episode]
    history: list[Fact]
    hops: list[Hop]
    notes: list[str]
    query_sha256: str


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
    given_facts: list[Quintuple] | None
    """Facts given with the text (``Perception.given_facts``): stored as given, the text is not read."""
    preceding_text: str | None
    """The end of the text before this one (``Perception.preceding_text``): context for the Reader only."""


class IngestState(Request, total=False):
    """State of the ingest graph (read -> resolve -> build -> detect -> [review] -> commit).

    The request fields are the graph's input. ``read_text`` normalises the request once
    and writes the fields of its group on every run, so later nodes read them with
    ``state[...]`` and never recompute them; each later group is written by the node
    named, on every run that reaches it (a thread reused for another text overwrites
    them all). ``plan`` is written only for an episode that needs writing, and the
    routers send only such an episode past ``build_facts``.
    """

    # read_text: the request, normalised
    review_policy: str
    """The review policy the ingest started under; review reads it, so a resumed run keeps it."""
    scope: str
    """The memory scope: the request's ``agent_id``, else the context's."""
    episode: Episode
    """The episode record: its id, and the speaker, session and source with their defaults."""
    derived_from_ids: list[str]
    """The stored facts the text was concluded from (``derived_from``, checked, sorted, once each)."""
    needs_writing: bool
    """False when the episode is stored and needs no new reading: the run then writes nothing."""
    # read_text: the reading
    quintuples: list[Quintuple]
    read_by: ReadBy
    """How the text was read this time (the model, the rules, or the rules after the model failed)."""
    notes: Annotated[list[str], add_notes]
    """What went differently in this run (a model that failed and the fallback used), once each."""
    # resolve_entities
    entities: list[EntityRow]
    """One row per resolved entity key, with the mention keys that reach it."""
    merges: list[MergeRecord]
    """The merges the resolution made (written with the episode, so they can be undone)."""
    # build_facts (plan: only when the episode needs writing), review_conflicts, commit_episode
    plan: EpisodeWrite
    """The episode's write, without vectors; review folds its decisions in."""
    report: Annotated[IngestReport, keep_model_cost]
    """What the ingest added; ``read_text`` first records what the model cost (LLM mode)."""
    conflicts: list[Conflict]
    """What the episode contradicts (detect_conflicts), then the same conflicts decided (review_conflicts)."""


class PerceptionBatch(BaseModel):
    """Texts to remember together, in order: the input of the batch ingest graph."""

    perceptions: list[Perception] = Field(
        description="The texts, in the order they were perceived; all for one agent (agent_id)."
    )


class IngestBatchOutput(TypedDict):
    """What one batch ingest reports back: the batch's totals and one report per text."""

    report: IngestReport
    reports: list[IngestReport]


class IngestBatchState(TypedDict, total=False):
    """State of the batch ingest graph (read -> resolve -> plan -> settle -> commit), one write per batch.

    ``perceptions`` is the input. Each node writes its group once, as lists aligned with
    ``episodes`` (the batch's episodes that need writing, in order), except ``plans``,
    which ``settle_batch`` replaces with the reviewed plans (as ``review_conflicts``
    does in the one-episode graph).
    """

    perceptions: list[Perception]
    # read_batch
    scope: str
    """The memory scope, the same for every text of the batch."""
    episodes: list[Episode]
    """The episodes that need writing, in order (a stored one, read well, is left out)."""
    positions: list[int]
    """The perception each episode came from (for the per-text reports)."""
    derived_from_ids: list[list[str]]
    quintuples: list[list[Quintuple]]
    read_by: list[ReadBy]
    notes: Annotated[list[str], add_notes]
    """What went differently in this run (a model that failed and the fallback used), once each."""
    # resolve_batch
    entities: list[list[EntityRow]]
    merges: list[list[MergeRecord]]
    # plan_batch, then settle_batch
    plans: list[EpisodeWrite]
    """Each episode's write, without vectors; ``settle_batch`` folds its decisions in."""
    conflicts: list[Conflict]
    """Every conflict of the batch, decided (settle_batch)."""
    # read_batch (what the model cost, LLM mode), then commit_batch (the totals)
    report: Annotated[IngestReport, keep_model_cost]
    reports: list[IngestReport]


class HopInput(TypedDict, total=False):
    """What the multi-hop loop is given: the question and the request as ``analyse_question`` resolved it."""

    question: str
    asker: str
    scope: str
    as_of_ms: int


class HopState(HopInput, total=False):
    """State of the multi-hop subgraph (decompose -> (retrieve_hop -> reason_hop)*).

    ``decompose_question`` writes the chain, its budget and an empty ``hops``; each
    ``retrieve_hop`` appends a hop and adds its evidence to ``found_facts`` and
    ``episode_rankings``; ``reason_hop`` records the latest hop's answer.
    """

    sub_questions: list[str]
    """The chain's sub-questions; ``#1``, ``#2`` stand for earlier answers (none: one lookup)."""
    hop_budget: int
    """Sub-questions asked at most (``max_hops``), fixed when the chain is planned."""
    hops: list[Hop]
    """The sub-questions asked so far, with their evidence and answers, in order."""
    found_facts: Annotated[list[Fact], merge_by_id]
    """Every hop's evidence, in the order found."""
    episode_rankings: Annotated[list[list[Episode]], operator.add]
    """Every hop's episodes, one ranking per hop (best first)."""
    notes: Annotated[list[str], add_notes]


class HopOutput(TypedDict, total=False):
    """What the multi-hop subgraph hands back to the answer graph."""

    sub_questions: list[str]
    hops: list[Hop]
    found_facts: list[Fact]
    episode_rankings: list[list[Episode]]
    notes: list[str]


class AnswerState(TypedDict, total=False):
    """State of the answer graph (analyse -> retrieve, or the multi-hop subgraph -> answer).

    The request fields are the graph's input. ``analyse_question`` normalises the request
    once (``asker``, ``scope``, ``as_of_ms``, ``resolved_question``, ``analysis``); later
    nodes read those. Evidence accumulates in ``found_facts`` and ``episode_rankings``
    (written by ``retrieve_evidence``, ``query_graph`` and the multi-hop subgraph);
    ``answer_question`` writes the output: the answer and exactly the ``facts`` and
    ``episodes`` it cites. No update carries a None: a key with nothing to say is left out.
    """

    # the request (the fields of schemas.models.Question)
    question: str
    speaker: str | None
    agent_id: str | None
    session_id: str | None
    as_of: str | None
    # analyse_question: the request, normalised
    asker: str
    """Who asks: the request's speaker, or ``DEFAULT_SPEAKER``."""
    scope: str
    """The memory scope: the request's ``agent_id``, else the context's."""
    as_of_ms: int
    """The ``as_of`` instant in epoch milliseconds; absent when the question is about now."""
    resolved_question: str
    """The question with first-person words resolved to the asker."""
    analysis: QuestionAnalysis
    # the multi_hop subgraph (HopOutput)
    sub_questions: list[str]
    hops: list[Hop]
    # retrieve_evidence
    anchors: list[Entity]
    """The entities the whole question was linked to; ``score`` is the link weight."""
    superseded: list[Fact]
    """What used to be true about the evidence (not read when answering as of a past instant)."""
    # query_graph
    query_rows: list[dict[str, Any]]
    query_error: str
    query_sha256: str
    """The hash of the generated query that ran (the audit log keeps it, never the query)."""
    # evidence: retrieve_evidence, query_graph and the multi_hop subgraph add to it
    found_facts: Annotated[list[Fact], merge_by_id]
    episode_rankings: Annotated[list[list[Episode]], operator.add]
    """One ranking of episodes per retrieval (the whole question, each hop); the answer fuses them."""
    # answer_question: the output
    answer: str
    answered: bool
    reason: AbstainReason
    """Why the answer was withheld; absent when answered."""
    value: str
    """The answer alone, without its evidence."""
    kind: str
    """What kind of thing the question asks for."""
    related: RelatedMemories
    """Memories close to the question that the answer does not rest on."""
    facts: list[Fact]
    """The facts the answer cites, best first (the chain's path first)."""
    episodes: list[Episode]
    """The episodes the answer cites, best first."""
    history: list[Fact]
    notes: Annotated[list[str], add_notes]
    """What went differently in this run (a model that failed and the fallback used), once each."""


class BrokerState(Request, BrokerOutput, total=False):
    """State of the broker graph: the request, then what the ingest or answer subgraph returns."""
