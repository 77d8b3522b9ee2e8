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
from typing import Any, cast

from broker.resources import get_store, request_scope
from language.names import normalize_name
from schemas.context import Context
from schemas.models import Answer, Entity, Fact, IngestReport, Perception, Question
from schemas.state import AnswerInput, IngestInput
from store import GraphStore


class Broker:
    """A memory: perceive texts, ask questions, inspect what is stored."""

    def __init__(self, context: Context | None = None, **settings: Any) -> None:
        """Use ``context`` as given, or build one from keyword settings and the environment."""
        self.context = context or Context(**settings)

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
        """Remember texts one episode at a time; each episode is written atomically."""
        from graphs.ingest import graph

        total = IngestReport()
        for perception in perceptions:
            request = cast(IngestInput, perception.model_dump(exclude_none=True))
            result = graph.invoke(request, context=self.context)
            report = result.get("report") or IngestReport()
            total = total + report
            if on_each is not None:
                on_each(report)
        return total

    def ask(self, question: str, **fields: Any) -> Answer:
        """Answer a question from memory; ``fields`` are speaker, agent_id, session_id."""
        from graphs.answer import graph

        request = cast(AnswerInput, Question(question=question, **fields).model_dump(exclude_none=True))
        result = graph.invoke(request, context=self.context)
        return Answer(answer=result["answer"], facts=result.get("facts") or [], episodes=result.get("episodes") or [])

    def facts(self, entity: str | None = None, agent_id: str | None = None, limit: int = 1000) -> list[Fact]:
        """List stored facts, optionally only those about one entity (any spelling of its name)."""
        key = normalize_name(entity) if entity else None
        return self.store.list_facts(request_scope(agent_id, self.context), key, limit)

    def entities(self, agent_id: str | None = None, limit: int = 1000) -> list[Entity]:
        """List stored entities, most mentioned first."""
        return self.store.list_entities(request_scope(agent_id, self.context), limit)

    def conflicts(self, agent_id: str | None = None) -> list[dict[str, Any]]:
        """List recorded conflicts (none are recorded until the review stage exists)."""
        return []

    def counts(self, agent_id: str | None = None) -> dict[str, int]:
        """Return how many episodes, entities and facts the memory holds."""
        return self.store.counts(request_scope(agent_id, self.context))
