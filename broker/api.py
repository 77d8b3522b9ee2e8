"""The Python API: ``Broker`` remembers texts and answers questions over one store.

    from broker.api import Broker
    memory = Broker(agent_id="assistant")
    memory.remember("小李精通 Python。", speaker="小李")
    reply = memory.ask("小李会什么语言？")
    print(reply.answer, [fact.sentence() for fact in reply.facts])

It runs the same compiled graphs as ``langgraph dev`` and the CLI, with a ``Context``
built from keyword arguments and ``ELEPHANT_*`` environment variables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, cast

from broker.resources import get_embeddings, get_store, request_scope
from broker.reviews import ReviewDesk
from language.names import normalize_name
from language.pronouns import resolve_first_person
from language.question import analyse_question
from nodes.rank_episodes import rank_episodes, reciprocal_rank_fusion
from nodes.retrieve_evidence import decay, link_entities
from nodes.review_conflicts import parse_decision
from schemas.context import Context
from schemas.models import (
    DEFAULT_SPEAKER,
    Answer,
    Conflict,
    Entity,
    Episode,
    Fact,
    FactUpdate,
    IngestReport,
    MergeRecord,
    Perception,
    Question,
)
from schemas.state import AnswerInput, IngestInput
from store import GraphStore
from store.base import now_ms

__all__ = ["Broker", "reciprocal_rank_fusion"]


class Broker:
    """A memory: perceive texts, ask questions, inspect what is stored."""

    def __init__(self, context: Context | None = None, **settings: Any) -> None:
        """Use ``context`` as given, or build one from keyword settings and the environment."""
        self.context = context or Context(**settings)
        self._desk: ReviewDesk | None = None

    @property
    def store(self) -> GraphStore:
        """The open graph store (started on first use)."""
        return get_store(self.context)

    def remember(self, text: str, **fields: Any) -> IngestReport:
        """Remember one text; ``fields`` are speaker, agent_id, session_id, source, time."""
        return self.remember_many([Perception(text=text, **fields)])

    def remember_many(
        self, perceptions: Iterable[Perception], on_each: Callable[[IngestReport], None] | None = None
    ) -> IngestReport:
        """Remember texts one episode at a time; each episode is written atomically.

        Under the ``human`` review policy an episode that contradicts memory is held
        until its conflicts are resolved (``resolve``); it counts in ``conflicts``
        and is not yet in ``episodes``.
        """
        from graphs.ingest import graph

        total = IngestReport()
        for perception in perceptions:
            if self.context.review_policy == "human":
                report, _ = self.remember_for_review(perception)
            else:
                request = cast(IngestInput, perception.model_dump(exclude_none=True))
                result = graph.invoke(request, context=self.context)
                report = result.get("report") or IngestReport()
            total = total + report
            if on_each is not None:
                on_each(report)
        return total

    def remember_for_review(self, perception: Perception) -> tuple[IngestReport, list[Conflict]]:
        """Remember one text under the ``human`` policy, through the review desk.

        Returns:
            The report, and the open conflicts the episode is held for (none when it
            contradicted nothing and was written at once). A held episode counts only
            in ``conflicts``.
        """
        report, waiting = self.review_desk.ingest(perception, self.context)
        if waiting:
            report = IngestReport(conflicts=report.conflicts or len(waiting))
        return report, waiting

    def ask(self, question: str, **fields: Any) -> Answer:
        """Answer a question from memory; ``fields`` are speaker, agent_id, session_id, as_of."""
        from graphs.answer import graph

        request = cast(AnswerInput, Question(question=question, **fields).model_dump(exclude_none=True))
        result = graph.invoke(request, context=self.context)
        return Answer(
            answer=result["answer"],
            facts=result.get("facts") or [],
            episodes=result.get("episodes") or [],
            history=result.get("history") or [],
            hops=result.get("hops") or [],
        )

    def recall(self, query: str, k: int = 10, **fields: Any) -> list[Episode]:
        """Return the ``k`` episodes most relevant to a query, best first (hybrid retrieval).

        Dense search, the episode full-text index and a personalised-PageRank spread
        from the best matches and the entities the query names are fused by
        reciprocal rank (``nodes.rank_episodes``). First person in the query is
        resolved to the speaker. ``fields`` are speaker and agent_id.
        """
        scope = request_scope(fields.get("agent_id"), self.context)
        speaker = (fields.get("speaker") or "").strip() or DEFAULT_SPEAKER
        question = resolve_first_person(query, speaker)
        embeddings = get_embeddings(self.context)
        anchors = link_entities(self.store, embeddings, scope, question, analyse_question(query, speaker))
        return rank_episodes(self.store, embeddings, scope, question, list(anchors.values()), k=k)

    def facts(self, entity: str | None = None, agent_id: str | None = None, limit: int = 1000) -> list[Fact]:
        """List stored facts, optionally only those about one entity (any spelling of its name).

        Confidence is as of now: plans, prices and statuses have decayed with age, as in answers.
        """
        scope = request_scope(agent_id, self.context)
        if not entity:
            listed = self.store.list_facts(scope, None, limit)
        else:
            # A name may denote several entities (苹果 the fruit, 苹果公司) or a merged alias (北大).
            keys = self.store.entity_keys_for_name(scope, normalize_name(entity)) or [normalize_name(entity)]
            found = {fact.id: fact for key in keys for fact in self.store.list_facts(scope, key, limit)}
            listed = sorted(found.values(), key=lambda fact: (fact.created_at or 0, fact.id))[:limit]
        now = now_ms()
        return [decay(fact, now, self.context.decay_half_life_days) for fact in listed]

    def entities(self, agent_id: str | None = None, limit: int = 1000) -> list[Entity]:
        """List stored entities, most mentioned first."""
        return self.store.list_entities(request_scope(agent_id, self.context), limit)

    def merges(self, agent_id: str | None = None, limit: int = 1000) -> list[MergeRecord]:
        """List entity merge records, newest first (undone ones too: they are never deleted)."""
        return self.store.list_merges(request_scope(agent_id, self.context), limit)

    def unmerge(self, merge_id: str, agent_id: str | None = None) -> MergeRecord:
        """Undo one merge: the alias becomes its own entity again, with its facts and mentions.

        Raises:
            ValueError: If there is no such merge or it was already undone.
        """
        from nodes.resolve_entities import unmerge

        scope = request_scope(agent_id, self.context)
        return unmerge(self.store, get_embeddings(self.context), scope, merge_id)

    @property
    def review_desk(self) -> ReviewDesk:
        """Where paused reviews are kept (``$ELEPHANT_HOME/reviews.sqlite``)."""
        if self._desk is None:
            self._desk = ReviewDesk(self.context.home)
        return self._desk

    def conflicts(self, agent_id: str | None = None) -> list[Conflict]:
        """List conflicts: open ones awaiting review first, then decided ones, newest first."""
        scope = request_scope(agent_id, self.context)
        return self.review_desk.open_conflicts(scope) + self.store.list_conflicts(scope)

    def resolve(self, conflict_id: str, keep: str, agent_id: str | None = None) -> Conflict:
        """Settle an open conflict: keep the ``new`` fact, the ``old`` one, or ``both``.

        Returns:
            The decided conflict as recorded.

        Raises:
            ValueError: If the id is not an open conflict or ``keep`` is not new/old/both.
        """
        decision, _ = parse_decision(keep)
        try:
            # The paused run was started under the human policy; it must resume under it,
            # or the review node would re-decide automatically instead of reading the answer.
            asked = self.review_desk.resolve(conflict_id, decision, replace(self.context, review_policy="human"))
        except KeyError:
            raise ValueError(f"no open conflict {conflict_id!r} (see 'elephant conflicts')") from None
        recorded = [c for c in self.store.list_conflicts(request_scope(agent_id, self.context)) if c.id == conflict_id]
        # Not recorded yet when another conflict of the same episode is still open.
        return recorded[0] if recorded else asked

    def sources(self, agent_id: str | None = None) -> list[dict[str, Any]]:
        """List the sources episodes came from, with episode counts and authority."""
        scope = request_scope(agent_id, self.context)
        stored = self.store.source_authorities(scope)
        return [
            {**row, "authority": stored.get((row["name"] or "").lower(), self.context.authority_of(row["name"]))}
            for row in self.store.sources(scope)
        ]

    def set_source_authority(self, name: str, authority: float, agent_id: str | None = None) -> list[FactUpdate]:
        """Trust a source more or less; its facts and the facts derived from them follow."""
        return self.store.set_source_authority(request_scope(agent_id, self.context), name, authority)

    def counts(self, agent_id: str | None = None) -> dict[str, int]:
        """Return how many episodes, entities and facts the memory holds."""
        return self.store.counts(request_scope(agent_id, self.context))
