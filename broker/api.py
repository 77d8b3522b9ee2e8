"""The Python API: ``Broker`` remembers texts and answers questions over one store.

    from elephant_broker.broker.api import Broker
    from elephant_broker.language.sentences import sentence_of
    memory = Broker(agent_id="assistant")
    memory.remember("小李精通 Python。", speaker="小李")
    reply = memory.ask("小李会什么语言？")
    print(reply.answer, [sentence_of(fact) for fact in reply.facts])

It runs the same compiled graphs as ``langgraph dev`` and the CLI, with a ``Context``
built from keyword arguments and ``ELEPHANT_*`` environment variables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from elephant_broker.broker.reviews import ReviewDesk
from elephant_broker.domain.evidence import decay, link_entities
from elephant_broker.domain.given import given_perceptions, graph_document_facts
from elephant_broker.domain.identity import unmerge
from elephant_broker.domain.reading import with_preceding
from elephant_broker.domain.retrieval import RECALL, reciprocal_rank_fusion, search_episodes
from elephant_broker.domain.truth import parse_decision
from elephant_broker.domain.user_schema import load_user_schema
from elephant_broker.graphs.answer import graph as answer_graph
from elephant_broker.graphs.ingest_batch import graph as ingest_batch_graph
from elephant_broker.language.chunks import split_perception
from elephant_broker.language.names import normalize_name
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.language.question import analyse_question
from elephant_broker.providers.resources import get_embeddings, get_store, request_scope
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import (
    InvalidInput,
    check_conflict_id,
    check_merge_id,
    check_name,
    check_optional,
    check_text,
    error_line,
)
from elephant_broker.schemas.models import (
    DEFAULT_SPEAKER,
    Answer,
    Conflict,
    Entity,
    Episode,
    Fact,
    FactStatement,
    FactUpdate,
    GivenFact,
    IngestReport,
    MergeRecord,
    Perception,
    Question,
    RelatedMemories,
)
from elephant_broker.schemas.state import PerceptionBatch
from elephant_broker.store import GraphStore
from elephant_broker.store.base import now_ms
from pydantic import ValidationError

__all__ = ["Broker", "reciprocal_rank_fusion"]

BATCH_EPISODES = 64
"""Episodes remembered per batch (one store snapshot, one embedding call, one write); a
longer text is one batch of its own."""


class Broker:
    """A memory: perceive texts, ask questions, inspect what is stored."""

    def __init__(self, context: Context | None = None, **settings: Any) -> None:
        """Use ``context`` as given, or build one from keyword settings and the environment.

        ``schema=`` (a TOML/JSON file or a ``UserSchema``) is the entity types and
        predicates to keep (``domain.user_schema``); ``llm_cache=False`` reads without the
        LLM cache.

        Raises:
            ValueError: If a setting is malformed, e.g. the schema file (one line naming it).
        """
        self.context = context or Context(**settings)
        if self.context.schema:
            load_user_schema(self.context.schema)  # a bad schema file fails here, before anything is read
        self._desk: ReviewDesk | None = None

    @property
    def store(self) -> GraphStore:
        """The open graph store (started on first use)."""
        return get_store(self.context)

    def remember(self, text: str, **fields: Any) -> IngestReport:
        """Remember one text; ``fields`` are speaker, agent_id, session_id, source, time.

        A text over 1,500 characters becomes several episodes, split at sentence ends;
        one over 100,000 is refused (see :meth:`remember_many`).

        Raises:
            InvalidInput: One line naming the field that breaks its rule (``schemas.ids``);
                nothing is written.
        """
        try:
            perception = Perception(text=text, **fields)
        except ValidationError as error:
            raise InvalidInput.of(error) from None
        return self.remember_many([perception])

    def remember_many(
        self, perceptions: Iterable[Perception], on_each: Callable[[IngestReport], None] | None = None
    ) -> IngestReport:
        """Remember texts in batches; each batch of episodes is written atomically.

        A text longer than ``language.chunks.MAX_EPISODE_CHARS`` (1,500) is remembered
        as several episodes, cut at sentence ends, each with the text's speaker,
        session, source and time (an ``external_id`` gets ``#1``, ``#2`` ...), and each
        piece after the first is read with the end of the one before as context
        (``domain.reading.with_preceding``); a text
        longer than ``MAX_TEXT_CHARS`` (100,000) is a document, and is refused. Every
        text is checked before the first is written, so a refusal writes nothing.
        ``on_each`` gets one report per given text (its pieces summed; the notes of
        the run are in the returned total).

        The texts go through the batch ingest graph (``graphs.ingest_batch``) about
        ``BATCH_EPISODES`` episodes at a time, in order: the result is the one
        remembering them one by one gives (a text that contradicts an earlier one of
        the same batch is found and decided the same way), and a batch is written
        whole or not at all. A batch holds one agent's texts, and a text concluded
        from stored facts (``derived_from``) starts a new one, so the facts it names
        are written before it is read.

        Under the ``human`` review policy texts are remembered one episode at a time:
        an episode that contradicts memory is held until its conflicts are resolved
        (``resolve``); it counts in ``conflicts`` and is not yet in ``episodes``.

        Raises:
            ValueError: If a text is over ``MAX_TEXT_CHARS`` (nothing is written).
        """
        texts = [with_preceding(split_perception(perception)) for perception in perceptions]
        total = IngestReport()
        if self.context.review_policy == "human":
            for pieces in texts:
                report = IngestReport()
                for piece in pieces:
                    written, _ = self.remember_for_review(piece)
                    report = report + written
                total = total + report
                if on_each is not None:
                    on_each(report)
            return total
        for batch in self._batches(texts):
            pieces = [piece for split in batch for piece in split]
            result = ingest_batch_graph.invoke(PerceptionBatch(perceptions=pieces), context=self.context)
            reports: list[IngestReport] = result["reports"]
            total = total + result["report"]
            start = 0
            for split in batch:
                if on_each is not None:
                    on_each(sum(reports[start : start + len(split)], IngestReport()))
                start += len(split)
        return total

    def remember_facts(
        self,
        rows: Iterable[GivenFact | FactStatement | Mapping[str, Any]],
        *,
        on_each: Callable[[IngestReport], None] | None = None,
        **fields: Any,
    ) -> IngestReport:
        """Remember facts already extracted, without reading any text.

        Each row is a ``GivenFact`` or a mapping with its fields: ``subject``,
        ``predicate``, ``object``, and optionally ``subject_type``, ``object_type``,
        ``confidence``, ``negated``, ``valid_from``, ``source``, ``time`` and
        ``episode`` (or ``text``: the text that stated the fact). Rows with the same
        episode text, source and time are one episode; a row without one is an
        episode of its own, its fact written as a sentence (``domain.given``). The
        facts then take the path a text's facts take — entity resolution, canonical
        predicates, conflict review, provenance — in batches, as :meth:`remember_many`;
        remembering the same rows again adds nothing.

        Args:
            rows: The facts, in the order they were stated.
            on_each: Called with the report of each episode.
            **fields: speaker, agent_id, session_id, derived_from; and source and time
                for rows that give none.

        Raises:
            InvalidInput: One line naming the row (``rows[3]: subject is empty``) or
                the field that breaks its rule; every row is checked before anything
                is written, so nothing is.
        """
        checked: list[GivenFact] = []
        for number, row in enumerate(rows):
            try:
                if isinstance(row, GivenFact):
                    checked.append(row)
                elif isinstance(row, FactStatement):
                    checked.append(GivenFact.model_validate(row.model_dump()))
                else:
                    checked.append(GivenFact.model_validate(row))
            except ValidationError as error:
                raise InvalidInput(f"rows[{number}]: {error_line(error)}") from None
        return self._remember_given(checked, None, on_each, fields)

    def remember_graph_documents(
        self,
        documents: Iterable[Any],
        *,
        on_each: Callable[[IngestReport], None] | None = None,
        **fields: Any,
    ) -> IngestReport:
        """Remember LangChain ``GraphDocument``s (what ``LLMGraphTransformer`` produces), without reading them again.

        Each relationship is a fact: ``(Marie Curie:Person)-[WORKS_AT]->(Sorbonne:Organization)``
        is Marie Curie —works at→ Sorbonne; the document's ``source`` text is the episode
        of its facts and its ``metadata["source"]`` their source
        (``domain.given.graph_document_facts``). The facts then take the path a text's
        facts take, as :meth:`remember_facts`. Nodes no relationship touches carry no
        fact: the report's notes name them.

        Args:
            documents: ``langchain_neo4j.graphs.graph_document.GraphDocument`` (or
                ``langchain_community``'s, the same shape).
            on_each: Called with the report of each episode.
            **fields: speaker, agent_id, session_id, derived_from; and source and time
                for documents that give none.

        Raises:
            InvalidInput: One line naming the document and relationship whose fact
                breaks a rule; nothing is written.
        """
        try:
            mapped = graph_document_facts(documents)
        except ValueError as error:
            raise InvalidInput(str(error)) from None
        report = self._remember_given(mapped.rows, mapped.labels, on_each, fields)
        return report.model_copy(update={"notes": [*report.notes, *mapped.notes]})

    def _remember_given(
        self,
        rows: list[GivenFact],
        labels: list[str] | None,
        on_each: Callable[[IngestReport], None] | None,
        fields: dict[str, Any],
    ) -> IngestReport:
        """Turn checked rows into perceptions carrying their facts, then remember them as texts are."""
        unknown = set(fields) - {"speaker", "agent_id", "session_id", "source", "time", "derived_from"}
        if unknown:
            raise InvalidInput(f"unknown field(s): {', '.join(sorted(unknown))}")
        try:
            perceptions = given_perceptions(rows, labels=labels, **fields)
        except ValueError as error:
            raise InvalidInput(str(error)) from None
        return self.remember_many(perceptions, on_each) if perceptions else IngestReport()

    def _batches(self, texts: list[list[Perception]]) -> Iterator[list[list[Perception]]]:
        """Group texts (each a list of episode pieces) into batches of about ``BATCH_EPISODES`` episodes."""
        batch: list[list[Perception]] = []
        size, scope = 0, None
        for pieces in texts:
            own = request_scope(pieces[0].agent_id, self.context)
            if batch and (size + len(pieces) > BATCH_EPISODES or own != scope or pieces[0].derived_from):
                yield batch
                batch, size = [], 0
            batch.append(pieces)
            size, scope = size + len(pieces), own
        if batch:
            yield batch

    def remember_for_review(self, perception: Perception) -> tuple[IngestReport, list[Conflict]]:
        """Remember one text under the ``human`` policy, through the review desk.

        Returns:
            The report, and the open conflicts the episode is held for (none when it
            contradicted nothing and was written at once). A held episode counts only
            in ``conflicts``: the report counts what was written, and nothing is yet.
        """
        return self.review_desk.ingest(perception, self.context)

    def ask(self, question: str, **fields: Any) -> Answer:
        """Answer a question from memory; ``fields`` are speaker, agent_id, session_id, as_of.

        Raises:
            InvalidInput: One line naming the field that breaks its rule (``schemas.ids``).
        """
        try:
            request = Question(question=question, **fields)
        except ValidationError as error:
            raise InvalidInput.of(error) from None
        result = answer_graph.invoke(request, context=self.context)
        return Answer(
            answer=result["answer"],
            answered=result.get("answered", True),
            reason=result.get("reason"),
            value=result.get("value", ""),
            kind=result.get("kind"),
            related=result.get("related") or RelatedMemories(),
            facts=result.get("facts") or [],
            episodes=result.get("episodes") or [],
            history=result.get("history") or [],
            hops=result.get("hops") or [],
            notes=result.get("notes") or [],
        )

    def recall(self, query: str, k: int = 10, **fields: Any) -> list[Episode]:
        """Return the ``k`` episodes most relevant to a query, best first (hybrid retrieval).

        Dense search, the episode full-text index and a personalised-PageRank spread
        from the best matches and the entities the query names are fused by
        reciprocal rank: the retriever ``ask`` uses (``domain.retrieval``, recipe
        ``RECALL``). First person in the query is resolved to the speaker. ``fields``
        are speaker and agent_id.

        Raises:
            ValueError: If ``k`` is not from 1 to 100 (``domain.retrieval.RecipeError``).
        """
        recipe = RECALL.with_limit(k)
        scope = request_scope(fields.get("agent_id"), self.context)
        speaker = check_optional(fields.get("speaker"), "name", "speaker") or DEFAULT_SPEAKER
        question = resolve_first_person(check_text(query, "query"), speaker)
        embeddings = get_embeddings(self.context)
        anchors = link_entities(self.store, embeddings, scope, question, analyse_question(query, speaker))
        return search_episodes(self.store, embeddings, scope, question, anchors.values(), recipe)

    def facts(self, entity: str | None = None, agent_id: str | None = None, limit: int = 1000) -> list[Fact]:
        """List stored facts, optionally only those about one entity (any spelling of its name).

        Confidence is as of now: plans, prices and statuses have decayed with age, as in answers.
        """
        scope = request_scope(agent_id, self.context)
        entity = check_optional(entity, "name", "entity")
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
        scope = request_scope(agent_id, self.context)
        return unmerge(self.store, get_embeddings(self.context), scope, check_merge_id(merge_id))

    @property
    def review_desk(self) -> ReviewDesk:
        """Where runs paused for review here are kept (``$ELEPHANT_HOME/reviews.sqlite``)."""
        if self._desk is None:
            self._desk = ReviewDesk(self.context.home)
        return self._desk

    def conflicts(self, agent_id: str | None = None) -> list[Conflict]:
        """List conflicts: open ones awaiting review first (oldest first), then decided ones, newest first.

        Open conflicts are read from the store, so those paused through the LangGraph
        API (``langgraph dev``) are listed too.
        """
        scope = request_scope(agent_id, self.context)
        return [opened.conflict for opened in self.store.open_conflicts(scope)] + self.store.list_conflicts(scope)

    def resolve(self, conflict_id: str, keep: str, agent_id: str | None = None) -> Conflict:
        """Settle an open conflict: keep the ``new`` fact, the ``old`` one, or ``both``.

        Returns:
            The decided conflict as recorded.

        Only the conflicts of the caller's memory (``agent_id``, else the context's) are
        looked at: another agent's conflict id gets the same answer as an unknown one.

        Raises:
            ValueError: If the id is not an open conflict of this memory, its paused run
                is held by a LangGraph server (the message names the thread), or
                ``keep`` is not new/old/both.
        """
        decision, _ = parse_decision(keep)
        check_conflict_id(conflict_id)
        scope = request_scope(agent_id, self.context)
        try:
            asked = self.review_desk.resolve(conflict_id, decision, self.context, scope)
        except KeyError:
            raise ValueError(f"no open conflict {conflict_id!r} (see 'elephant conflicts')") from None
        recorded = [c for c in self.store.list_conflicts(scope) if c.id == conflict_id]
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
        scope = request_scope(agent_id, self.context)
        return self.store.set_source_authority(scope, check_name(name, "source"), authority)

    def counts(self, agent_id: str | None = None) -> dict[str, int]:
        """Return how many episodes, entities and facts the memory holds."""
        return self.store.counts(request_scope(agent_id, self.context))
