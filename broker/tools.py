"""LangChain tools over a broker: ``remember``, ``recall`` and ``ask``.

    from langchain.agents import create_agent
    from elephant_broker.broker.api import Broker
    from elephant_broker.broker.tools import memory_tools

    memory = Broker(agent_id="assistant")
    agent = create_agent("openai:gpt-4o-mini", tools=memory_tools(memory, speaker="小李"))

Each tool answers the model with readable text that names fact and episode ids (so
it can cite them, or pass them back as ``derived_from``), and hands the structured
result to the program as the ``ToolMessage`` artifact (``response_format=
"content_and_artifact"``): an ``IngestReport`` for ``remember``, a list of
``Episode`` for ``recall`` and an ``Answer`` for ``ask``. Who speaks and whose memory
is searched are bound when the tools are made, not chosen by the model, so one agent
cannot read or write another agent's memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from elephant_broker.broker.api import Broker
from elephant_broker.broker.describe import describe_answer, describe_episodes, fact_line
from elephant_broker.graphs.ingest import graph as ingest_graph
from elephant_broker.language.chunks import split_perception
from elephant_broker.language.sentences import sentence_of
from elephant_broker.providers.resources import request_scope
from elephant_broker.schemas.ids import check_optional, check_text, error_messages
from elephant_broker.schemas.models import Answer, Conflict, Episode, Fact, IngestReport, Perception
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError

REMEMBER_DESCRIPTION = (
    "Store something worth remembering in long-term memory: a fact, a preference, a plan, a decision, "
    "or a correction ('I don't use Python any more, I moved to Node.js'). Pass the text in the speaker's "
    "own words; first person (I/我) is understood as the speaker. Chinese and English both work. "
    "Returns the ids of the facts extracted and how any contradiction with earlier memories was settled. "
    "Do not store small talk, questions or hypotheticals."
)
RECALL_DESCRIPTION = (
    "Find the stored texts (episodes) most relevant to a query, best first, with their ids, speaker, "
    "session and time. Use it to see what was actually said; use `ask` for a direct answer."
)
ASK_DESCRIPTION = (
    "Answer a question from long-term memory (earlier sessions included), in Chinese or English. "
    "Returns the answer with the facts it rests on (id, statement, confidence), what used to be true, "
    "and the source texts. Questions that chain facts ('Where was the author of Dune born?') are "
    "answered hop by hop. If the answer says memory holds nothing about it, do not guess."
)


class RememberInput(BaseModel):
    """Arguments of the ``remember`` tool."""

    text: str = Field(min_length=1, description="What to remember, as said or written (one message or passage).")
    speaker: str | None = Field(
        default=None,
        description="Who said or wrote it, only when it is not the person you are talking with.",
    )
    source: str | None = Field(
        default=None,
        description="Where it comes from (chat, email, a document or site name); trusted sources weigh more.",
    )
    time: str | None = Field(default=None, description="When it was said, if not now (ISO 8601 date or date-time).")
    derived_from: list[str] | None = Field(
        default=None,
        description="For your own conclusions: ids of the stored facts (fact_...) you concluded this from.",
    )


class RecallInput(BaseModel):
    """Arguments of the ``recall`` tool."""

    query: str = Field(min_length=1, description="What to look for, in words (a topic, a name, a question).")
    k: int = Field(default=5, ge=1, le=50, description="How many episodes to return at most.")


class AskInput(BaseModel):
    """Arguments of the ``ask`` tool."""

    question: str = Field(min_length=1, description="The question, in Chinese or English.")
    as_of: str | None = Field(
        default=None,
        description="Answer as memory stood at this moment (ISO date or date-time); omit for now.",
    )


def memory_tools(
    broker: Broker,
    *,
    speaker: str | None = None,
    agent_id: str | None = None,
    session_id: str | None = None,
) -> list[BaseTool]:
    """Return the ``remember``, ``recall`` and ``ask`` tools bound to one broker.

    Args:
        broker: The memory the tools read and write.
        speaker: Who the agent talks with; first person in remembered texts and in
            questions resolves to this name (default: ``user``).
        agent_id: Whose memory the tools use (default: the broker's context agent).
        session_id: The conversation the remembered texts belong to (default: ``default``).

    Returns:
        Three tools for ``langchain.agents.create_agent(model, tools=...)``.

    Raises:
        ValueError: When a bound speaker, agent or session breaks the rules of
            ``schemas.ids`` (checked here, once, not at every call the model makes).
    """
    bound = {
        "speaker": check_optional(speaker, "name", "speaker"),
        "agent_id": check_optional(agent_id, "id", "agent_id"),
        "session_id": check_optional(session_id, "id", "session_id"),
    }

    def remember(
        text: str,
        speaker: str | None = None,
        source: str | None = None,
        time: str | None = None,
        derived_from: list[str] | None = None,
    ) -> tuple[str, IngestReport]:
        fields: dict[str, Any] = {**bound, "speaker": speaker or bound["speaker"], "source": source, "time": time}
        try:
            # A long text is several episodes, cut as Broker.remember cuts it.
            pieces = split_perception(Perception(text=text, derived_from=derived_from, **fields))
            report = IngestReport()
            facts: list[Fact] | None = []
            conflicts: list[Conflict] = []
            for piece in pieces:
                written, stored, waiting = _remember(broker, piece)
                report, conflicts = report + written, conflicts + waiting
                facts = None if stored is None or facts is None else facts + stored
        except ValueError as error:  # a blank text, an unknown fact id in derived_from
            raise _tool_error(error) from error
        return describe_report(report, facts, conflicts), report

    def recall(query: str, k: int = 5) -> tuple[str, list[Episode]]:
        try:
            episodes = broker.recall(check_text(query, "query"), k=k, **_given(bound))
        except ValueError as error:
            raise _tool_error(error) from error
        return describe_episodes(episodes), episodes

    def ask(question: str, as_of: str | None = None) -> tuple[str, Answer]:
        try:
            answer = broker.ask(question, **_given({**bound, "as_of": as_of}))
        except ValueError as error:  # a blank question, an unreadable as_of
            raise _tool_error(error) from error
        return describe_answer(answer), answer

    def tool(func: Any, schema: type[BaseModel], description: str) -> BaseTool:
        return StructuredTool.from_function(
            func=func,
            name=func.__name__,
            description=description,
            args_schema=schema,
            response_format="content_and_artifact",
            # Mistakes the model can fix come back to it as the tool's answer, not as a crash.
            handle_tool_error=True,
        )

    return [
        tool(remember, RememberInput, REMEMBER_DESCRIPTION),
        tool(recall, RecallInput, RECALL_DESCRIPTION),
        tool(ask, AskInput, ASK_DESCRIPTION),
    ]


def _tool_error(error: ValueError) -> ToolException:
    """Turn a request the model can fix into a short message it can read."""
    if isinstance(error, ValidationError):
        return ToolException("; ".join(error_messages(error)))
    return ToolException(" ".join(str(error).splitlines()))


def _given(fields: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value is not None}


def _remember(broker: Broker, perception: Perception) -> tuple[IngestReport, list[Fact] | None, list[Conflict]]:
    """Remember one text; return the report, the stored facts of the text and its conflicts.

    Outside human review the ingest graph is streamed, so the ids of the episode's
    facts can be read from its plan (the report alone has only counts); the facts are
    then read back from the store. Under the ``human`` policy the text goes through the
    review desk like ``Broker.remember``: the conflicts returned are the open ones it
    is held for, and the stored facts are not known (``None``).
    """
    if broker.context.review_policy == "human":
        report, waiting = broker.remember_for_review(perception)
        return report, None, waiting
    perception = broker.masked(perception)
    fact_ids: list[str] = []
    conflicts: list[Conflict] = []
    output: dict[str, Any] = {}
    stream = ingest_graph.stream(perception, context=broker.context, stream_mode=["updates", "values"])
    for mode, chunk in cast(Iterator[tuple[str, Any]], stream):
        if mode == "values":
            output = chunk  # the last one is what invoke() would return
            continue
        for update in chunk.values():
            plan = (update or {}).get("plan")
            if plan is not None:  # the planned episode, re-planned by review
                fact_ids = [row.id for row in plan.facts]
            conflicts = (update or {}).get("conflicts") or conflicts
    scope = request_scope(perception.agent_id, broker.context)
    report = output.get("report") or IngestReport()
    broker.audit("remember", scope, session=perception.session_id, ids=[*report.episode_ids, *fact_ids])
    return report, broker.store.facts_by_ids(scope, fact_ids), conflicts


def describe_report(report: IngestReport, facts: list[Fact] | None, conflicts: list[Conflict]) -> str:
    """Render what one ``remember`` did, with the ids of the facts it stored."""
    if not report.episodes and conflicts:
        lines = ["Held for review: this text contradicts memory, and nothing of it is stored until a person decides."]
        lines.extend(
            f"- open conflict {c.id}: old: {sentence_of(c.old_fact)}; new: {sentence_of(c.new_fact)}" for c in conflicts
        )
        return "\n".join(lines)
    if not report.episodes and not report.reread:
        return "Already remembered: the same text from the same speaker, session and source is stored."
    # A re-read: the text was stored before, read by the rules because the model failed.
    done = "Remembered" if report.episodes else "Read again with the model"
    lines = [
        f"{done}: {_count(report.facts, 'new fact')}, {_count(report.entities, 'new entity', 'new entities')}, "
        f"{_count(report.conflicts, 'contradiction')} with earlier memories."
    ]
    lines.extend(f"Note: {note}" for note in report.notes)
    if facts:
        lines.append("Facts in this text:")
        lines.extend(f"- {fact_line(fact)}" for fact in facts)
    elif facts is not None:
        lines.append("No facts were found in it; the text itself is kept and can be recalled.")
    kept = {"keep_new": "the new statement", "keep_old": "the old statement", "keep_both": "both"}
    for conflict in conflicts:
        lines.append(
            f"Conflict {conflict.id}: old: {sentence_of(conflict.old_fact)}; new: {sentence_of(conflict.new_fact)}; "
            f"kept {kept.get(conflict.decision or '', 'both')} ({conflict.reason})."
        )
    return "\n".join(lines)


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"
