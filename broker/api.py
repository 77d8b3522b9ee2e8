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

import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from elephant_broker.broker.reviews import ReviewDesk
from elephant_broker.domain.evidence import decay, link_entities
from elephant_broker.domain.feedback import (
    OPEN_KIND,
    RIGHT_STEP,
    ToolCall,
    agent_notes,
    feedback_updates,
    reminders_for,
)
from elephant_broker.domain.given import given_perceptions, graph_document_facts
from elephant_broker.domain.identity import unmerge
from elephant_broker.domain.privacy import masker_for
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
from elephant_broker.providers.audit import SURFACES, AuditLog
from elephant_broker.providers.resources import get_embeddings, get_store, request_scope
from elephant_broker.providers.vault import VAULT_KEY_VARIABLE, Vault
from elephant_broker.schemas.context import CORRECTION_SOURCE, Context
from elephant_broker.schemas.ids import (
    InvalidInput,
    check_answer_id,
    check_conflict_id,
    check_merge_id,
    check_name,
    check_optional,
    check_text,
    error_line,
)
from elephant_broker.schemas.models import (
    DEFAULT_SPEAKER,
    AgentNote,
    Answer,
    AnswerRecord,
    Conflict,
    Entity,
    Episode,
    Fact,
    FactStatement,
    FactUpdate,
    FeedbackReport,
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

    def __init__(
        self,
        context: Context | None = None,
        *,
        surface: str = "python",
        vault_key: str | None = None,
        **settings: Any,
    ) -> None:
        """Use ``context`` as given, or build one from keyword settings and the environment.

        ``schema=`` (a TOML/JSON file or a ``UserSchema``) is the entity types and
        predicates to keep (``domain.user_schema``); ``llm_cache=False`` reads without the
        LLM cache; ``mask="phone,email"`` masks those values (``domain.privacy``) with the
        vault key ``vault_key`` (default ``$ELEPHANT_VAULT_KEY``). ``surface`` is what the
        audit log says the calls came through (python, cli, mcp, api, middleware).

        Raises:
            ValueError: If a setting is malformed, e.g. the schema file (one line naming it),
                or masking is asked for without a vault key.
        """
        self.context = context or Context(**settings)
        if self.context.schema:
            load_user_schema(self.context.schema)  # a bad schema file fails here, before anything is read
        if surface not in SURFACES:
            raise ValueError(f"surface must be one of {', '.join(SURFACES)}, not {surface!r}")
        self.surface = surface
        self._desk: ReviewDesk | None = None
        self._audit = AuditLog(self.context.home) if self.context.audit else None
        key = vault_key if vault_key is not None else os.environ.get(VAULT_KEY_VARIABLE, "")
        self._vault = Vault(self.context.home, key) if key else None
        # A broker masks with the key it was given (or the environment's), never with one
        # another broker of the process brought: no key, no masking broker.
        self._masker = masker_for(self.context, key)

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
        texts = [with_preceding(split_perception(self.masked(perception))) for perception in perceptions]
        total = self._remember_texts(texts, on_each)
        for scope, ids in _episodes_by_scope(texts, total, self.context).items():
            self.audit("remember", scope, ids=ids, session=texts[0][0].session_id if texts else None)
        return total

    def _remember_texts(
        self, texts: list[list[Perception]], on_each: Callable[[IngestReport], None] | None
    ) -> IngestReport:
        """Remember texts already split into episode pieces (see :meth:`remember_many`)."""
        total = IngestReport()
        if self.context.review_policy == "human":
            for pieces in texts:
                report = IngestReport()
                for piece in pieces:
                    written, _ = self.review_desk.ingest(piece, self.context)  # masked above; audited by the caller
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
        report, held = self.review_desk.ingest(self.masked(perception), self.context)
        scope = request_scope(perception.agent_id, self.context)
        self.audit("remember", scope, ids=[*report.episode_ids, *(c.id for c in held)], session=perception.session_id)
        return report, held

    def ask(self, question: str, **fields: Any) -> Answer:
        """Answer a question from memory; ``fields`` are speaker, agent_id, session_id, as_of.

        Raises:
            InvalidInput: One line naming the field that breaks its rule (``schemas.ids``).
        """
        try:
            request = Question(question=question, **fields)
        except ValidationError as error:
            raise InvalidInput.of(error) from None
        if self._masker is not None:
            request = request.model_copy(update={"question": self._masker.mask(request.question)})
        result = answer_graph.invoke(request, context=self.context)
        answer = Answer(
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
        scope = request_scope(request.agent_id, self.context)
        record = AnswerRecord(
            id=f"ans_{uuid.uuid4().hex[:24]}",
            question=request.question,
            kind=answer.kind or OPEN_KIND,
            answered=answer.answered,
            value=answer.value,
            fact_ids=[fact.id for fact in answer.facts],
            episode_ids=[episode.id for episode in answer.episodes],
            agent_id=scope,
            session_id=request.session_id,
            speaker=request.speaker,
            created_at=now_ms(),
        )
        self.store.record_answer(scope, record)
        reminders = reminders_for(record.kind, request.question, self._notes(scope))
        self.audit(
            "ask",
            scope,
            session=request.session_id,
            ids=[record.id, *record.fact_ids, *record.episode_ids],
            queries=[request.question],
            hashes=[result["query_sha256"]] if result.get("query_sha256") else [],
        )
        return answer.model_copy(update={"id": record.id, "reminders": reminders})

    def feedback(
        self, answer_id: str, verdict: str, correction: str | None = None, agent_id: str | None = None
    ) -> FeedbackReport:
        """Say an answer was right or wrong, optionally with the correct statement.

        Wrong halves the confidence of the facts the answer cited and of the facts
        concluded from them; right closes a fifth of their gap to full confidence. A
        correction is remembered as the asker's own words from the high-authority source
        ``correction``, so it supersedes what it contradicts through the conflict path.
        Feedback on an answer replaces the verdict given before (the confidence changes
        of both stay).

        Raises:
            InvalidInput: A malformed id, a verdict other than right/wrong, a bad
                correction text, or an id that is no answer of this memory.
        """
        try:
            if verdict not in ("right", "wrong"):
                raise ValueError(f"verdict: right or wrong, not {verdict!r}")
            text = check_optional(correction, "text", "correction")
        except ValueError as error:
            raise InvalidInput(str(error)) from None
        scope, record = self._answer_record(answer_id, agent_id)
        lowered, raised = feedback_updates(self.store, scope, record, "right" if verdict == "right" else "wrong")
        judged = record.model_copy(
            update={
                "verdict": verdict,
                "correction": self.masked_text(text) if text else None,
                "feedback_at": now_ms(),
            }
        )
        self.store.apply_feedback(scope, judged, lowered, raised, RIGHT_STEP)
        corrected = None
        if text:
            corrected = self.remember(
                text,
                speaker=record.speaker,
                agent_id=scope,
                session_id=record.session_id,
                source=CORRECTION_SOURCE,
            )
        touched = [update.fact_id for update in lowered] + raised
        self.audit("feedback", scope, session=record.session_id, ids=[answer_id, *touched])
        return FeedbackReport(
            answer_id=answer_id,
            verdict=judged.verdict or "wrong",
            lowered=[update.fact_id for update in lowered],
            raised=raised,
            correction=corrected,
        )

    def record_reply(self, answer_id: str, episode_ids: Iterable[str], agent_id: str | None = None) -> None:
        """Link what the agent said (its episodes) to the memory answer it had in hand, and so to its facts.

        Raises:
            InvalidInput: A malformed id, or an id that is no answer of this memory.
        """
        scope, record = self._answer_record(answer_id, agent_id)
        replies = list(dict.fromkeys([*record.reply_episode_ids, *episode_ids]))
        self.store.record_answer(scope, record.model_copy(update={"reply_episode_ids": replies}))
        self.audit("reply", scope, session=record.session_id, ids=[answer_id, *replies])

    def notes(self, agent_id: str | None = None) -> list[AgentNote]:
        """List what the memory learnt about the agent: question kinds and tools with a poor record."""
        scope = request_scope(agent_id, self.context)
        found = self._notes(scope)
        self.audit("notes", scope, ids=[item for note in found for item in note.evidence])
        return found

    def record_tool_call(
        self,
        tool: str,
        result: str,
        *,
        ok: bool = True,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
    ) -> IngestReport:
        """Remember a tool's result as an episode from the source ``tool:<name>`` and keep how the call went.

        Failed calls count toward the agent's notes about that tool (:meth:`notes`).
        """
        name = check_name(tool, "tool")
        scope = request_scope(agent_id, self.context)
        report = self.remember(
            result,
            speaker=name,
            agent_id=scope,
            session_id=session_id,
            source=f"tool:{name}",
            external_id=call_id,
        )
        call = call_id or uuid.uuid4().hex
        episode = report.episode_ids[0] if report.episode_ids else ""
        self.store.record_tool_call(scope, call, name, ok, now_ms(), episode)
        return report

    def reveal(self, text: str, agent_id: str | None = None) -> str:
        """Return a text with masking tokens replaced by their values: only with the vault key.

        Raises:
            ValueError: Without the vault key, or with one that does not open the vault.
        """
        if self._vault is None:
            raise ValueError(f"reveal: needs the vault key in {VAULT_KEY_VARIABLE}")
        self.audit("reveal", request_scope(agent_id, self.context))
        return self._vault.reveal(text)

    def _answer_record(self, answer_id: str, agent_id: str | None) -> tuple[str, AnswerRecord]:
        """Return the scope and the kept answer an id names in it; another agent's id is unknown here."""
        try:
            check_answer_id(answer_id)
        except ValueError as error:
            raise InvalidInput(str(error)) from None
        scope = request_scope(agent_id, self.context)
        record = self.store.answer_record(scope, answer_id)
        if record is None:
            raise InvalidInput(f"answer_id: no answer {answer_id!r} in this memory")
        return scope, record

    def _notes(self, scope: str) -> list[AgentNote]:
        calls = [
            ToolCall(row["tool"], bool(row["ok"]), int(row["created_at"]), row["episode_id"] or None)
            for row in self.store.tool_calls(scope)
        ]
        return agent_notes(self.store.judged_answers(scope), calls, now_ms(), self.context.decay_half_life_days)

    def masked(self, perception: Perception) -> Perception:
        """Return the perception as memory will see it: sensitive values as tokens when masking is on."""
        return self._masker.mask_perception(perception) if self._masker is not None else perception

    def masked_text(self, text: str) -> str:
        """Return a text (a question, a query) as memory will see it when masking is on."""
        return self._masker.mask(text) if self._masker is not None else text

    def audit(
        self,
        operation: str,
        scope: str,
        *,
        session: str | None = None,
        ids: Iterable[str] = (),
        queries: Iterable[str] = (),
        hashes: Iterable[str] = (),
    ) -> None:
        """Append one audit record of this broker's surface (query texts are hashed, never kept).

        Every method of the broker records itself; other code of the surfaces that reads the
        store through ``Broker.store`` (the visualisation, the LangChain tools) calls this.
        """
        if self._audit is not None:
            self._audit.append(
                surface=self.surface,
                agent=scope,
                operation=operation,
                session=session,
                ids=ids,
                queries=queries,
                hashes=hashes,
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
        query = self.masked_text(check_text(query, "query"))
        question = resolve_first_person(query, speaker)
        embeddings = get_embeddings(self.context)
        anchors = link_entities(self.store, embeddings, scope, question, analyse_question(query, speaker))
        found = search_episodes(self.store, embeddings, scope, question, anchors.values(), recipe)
        self.audit("recall", scope, ids=[episode.id for episode in found], queries=[query])
        return found

    def facts(self, entity: str | None = None, agent_id: str | None = None, limit: int = 1000) -> list[Fact]:
        """List stored facts, optionally only those about one entity (any spelling of its name).

        Confidence is as of now: plans, prices and statuses have decayed with age, as in answers.
        """
        scope = request_scope(agent_id, self.context)
        entity = check_optional(entity, "name", "entity")
        entity = self.masked_text(entity) if entity else entity  # a value asked about is stored as its token
        if not entity:
            listed = self.store.list_facts(scope, None, limit)
        else:
            # A name may denote several entities (苹果 the fruit, 苹果公司) or a merged alias (北大).
            keys = self.store.entity_keys_for_name(scope, normalize_name(entity)) or [normalize_name(entity)]
            found = {fact.id: fact for key in keys for fact in self.store.list_facts(scope, key, limit)}
            listed = sorted(found.values(), key=lambda fact: (fact.created_at or 0, fact.id))[:limit]
        now = now_ms()
        self.audit("facts", scope, ids=[fact.id for fact in listed], queries=[entity] if entity else [])
        return [decay(fact, now, self.context.decay_half_life_days) for fact in listed]

    def entities(self, agent_id: str | None = None, limit: int = 1000) -> list[Entity]:
        """List stored entities, most mentioned first."""
        scope = request_scope(agent_id, self.context)
        found = self.store.list_entities(scope, limit)
        self.audit("entities", scope, ids=[entity.id for entity in found])
        return found

    def merges(self, agent_id: str | None = None, limit: int = 1000) -> list[MergeRecord]:
        """List entity merge records, newest first (undone ones too: they are never deleted)."""
        scope = request_scope(agent_id, self.context)
        found = self.store.list_merges(scope, limit)
        self.audit("merges", scope, ids=[merge.id for merge in found])
        return found

    def unmerge(self, merge_id: str, agent_id: str | None = None) -> MergeRecord:
        """Undo one merge: the alias becomes its own entity again, with its facts and mentions.

        Raises:
            ValueError: If there is no such merge or it was already undone.
        """
        scope = request_scope(agent_id, self.context)
        undone = unmerge(self.store, get_embeddings(self.context), scope, check_merge_id(merge_id))
        self.audit("unmerge", scope, ids=[merge_id])
        return undone

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
        found = [opened.conflict for opened in self.store.open_conflicts(scope)] + self.store.list_conflicts(scope)
        self.audit("conflicts", scope, ids=[conflict.id for conflict in found])
        return found

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
        self.audit("resolve", scope, ids=[conflict_id])
        # Not recorded yet when another conflict of the same episode is still open.
        return recorded[0] if recorded else asked

    def sources(self, agent_id: str | None = None) -> list[dict[str, Any]]:
        """List the sources episodes came from, with episode counts and authority."""
        scope = request_scope(agent_id, self.context)
        self.audit("sources", scope)
        stored = self.store.source_authorities(scope)
        return [
            {**row, "authority": stored.get((row["name"] or "").lower(), self.context.authority_of(row["name"]))}
            for row in self.store.sources(scope)
        ]

    def set_source_authority(self, name: str, authority: float, agent_id: str | None = None) -> list[FactUpdate]:
        """Trust a source more or less; its facts and the facts derived from them follow."""
        scope = request_scope(agent_id, self.context)
        updates = self.store.set_source_authority(scope, check_name(name, "source"), authority)
        self.audit("set_source_authority", scope, ids=[update.fact_id for update in updates])
        return updates

    def counts(self, agent_id: str | None = None) -> dict[str, int]:
        """Return how many episodes, entities and facts the memory holds."""
        scope = request_scope(agent_id, self.context)
        self.audit("counts", scope)
        return self.store.counts(scope)


def _episodes_by_scope(texts: list[list[Perception]], report: IngestReport, context: Context) -> dict[str, list[str]]:
    """Group the episode ids a remember call wrote by memory scope (for the audit log)."""
    scopes = list(dict.fromkeys(request_scope(pieces[0].agent_id, context) for pieces in texts if pieces))
    if len(scopes) != 1:
        # Texts of several agents in one call: each scope is recorded, the ids with none of them.
        return {scope: [] for scope in scopes}
    return {scopes[0]: report.episode_ids}
