"""``ElephantMemory``: the broker riding along with a LangChain agent, as agent middleware.

    from langchain.agents import create_agent
    from elephant_broker.broker.middleware import ElephantMemory

    agent = create_agent(model, tools, middleware=[ElephantMemory(agent_id="assistant")])

Before each model call the middleware asks memory the user's latest message and puts what
it found — the facts with their ids and confidence, the episodes they came from, and the
agent's own reminders (``Broker.notes``) — into the system message, within a token budget.
Around each step it records the cognitive events as episodes of matching sources:

- user messages (``user``): read for facts, like any text the user says;
- the model's answers (``assistant``) and reasoning (``reasoning``): kept as episodes linked to
  the memory answer the model had in hand, and so to the facts it cited
  (``Broker.record_reply``), but not read for facts — the model's own words are no evidence,
  and reading them would let it reinforce what it was told;
- tool calls (``tool-call:<name>``): kept as events, not read;
- tool results (``tool:<name>``): read for facts; a failed call counts toward the notes
  about that tool (``Broker.record_tool_call``);
- feedback: a user reply that judges the last answer ("that's wrong, …", 这个不对，…;
  ``language.verdicts``) is ``Broker.feedback`` on the memory answer the model was given,
  the rest of the reply its correction.

Memory trouble never stops the agent: a failed memory call is logged (one line, no
payload) and the step goes on without it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from elephant_broker.broker.api import Broker
from elephant_broker.language.sentences import sentence_of
from elephant_broker.language.verdicts import find_verdict
from elephant_broker.schemas.ids import MAX_EPISODE_CHARS, MAX_TEXT_CHARS
from elephant_broker.schemas.models import Answer
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.config import get_config
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

logger = logging.getLogger(__name__)

EVENTS = ("user", "assistant", "reasoning", "tool_call", "tool_result", "feedback")
"""The cognitive events the middleware can capture."""
INJECTED = ("facts", "episodes", "reminders")
"""What the middleware can put before the model."""
MEMORY_HEADER = "Memory (ElephantBroker). Cite the ids you use; memory may be incomplete."

_WORD = re.compile(r"[\u3400-\u9fff]|[A-Za-z0-9]+|[^\sA-Za-z0-9\u3400-\u9fff]")


def estimate_tokens(text: str) -> int:
    """Estimate a text's tokens the way BPE tokenizers roughly count: a Chinese character, a word or a sign each."""
    return len(_WORD.findall(text))


class ElephantMemory(AgentMiddleware):  # type: ignore[type-arg]
    """Long-term memory for a ``create_agent`` agent: recall before the model, record after each step."""

    def __init__(
        self,
        broker: Broker | None = None,
        *,
        agent_id: str | None = None,
        session_id: str | None = None,
        user: str = "user",
        assistant: str = "assistant",
        capture: Iterable[str] = EVENTS,
        inject: Iterable[str] = INJECTED,
        budget_tokens: int = 600,
    ) -> None:
        """Ride along with an agent.

        Args:
            broker: The memory (default: one from ``ELEPHANT_*``, audited as ``middleware``).
            agent_id: Whose memory (default: the broker's).
            session_id: The conversation (default: the run's ``thread_id``, else "default").
            user: The user's name as speaker (first person in their messages resolves to it).
            assistant: The agent's name as speaker of its answers.
            capture: Which events to record (``EVENTS``).
            inject: What to put before the model (``INJECTED``); empty for nothing.
            budget_tokens: The most tokens of memory put before the model (estimated).

        Raises:
            ValueError: An unknown event or injection, or a budget below 1.
        """
        super().__init__()
        self.capture = frozenset(capture)
        self.inject = frozenset(inject)
        if unknown := (self.capture - set(EVENTS)) | (self.inject - set(INJECTED)):
            raise ValueError(f"unknown capture or inject item(s): {', '.join(sorted(unknown))}")
        if budget_tokens < 1:
            raise ValueError(f"budget_tokens must be at least 1, not {budget_tokens}")
        self.broker = broker if broker is not None else Broker(surface="middleware")
        self.agent_id = agent_id
        self.session_id = session_id
        self.user = user
        self.assistant = assistant
        self.budget_tokens = budget_tokens
        self._recorded: set[str] = set()
        self._own_episodes: set[str] = set()
        self._last_answer: dict[str, Answer] = {}
        self._asked: dict[str, tuple[str, Answer]] = {}

    # -- hooks ---------------------------------------------------------------------------

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Record the user's messages not recorded yet (feedback on the last answer among them)."""
        session = self._session()
        for message in state.get("messages", []):
            if isinstance(message, HumanMessage) and _key(message) not in self._recorded:
                self._recorded.add(_key(message))
                self._user_message(message.text, session)
        return None

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Async form of :meth:`before_model` (memory calls run in a worker thread)."""
        return await asyncio.to_thread(self.before_model, state, runtime)

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        """Put memory before the model, call it, and record what it answered."""
        session = self._session()
        request, answer = self._with_memory(request, session)
        response = handler(request)
        self._record_response(response, answer, session)
        return response

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> Any:
        """Async form of :meth:`wrap_model_call`."""
        session = self._session()
        request, answer = await asyncio.to_thread(self._with_memory, request, session)
        response = await handler(request)
        await asyncio.to_thread(self._record_response, response, answer, session)
        return response

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]]
    ) -> ToolMessage | Command[Any]:
        """Run the tool and record its result (a raised error counts as a failed call)."""
        session = self._session()
        try:
            result = handler(request)
        except Exception as error:
            self._tool_result(request.tool_call, f"error: {type(error).__name__}: {error}", False, session)
            raise
        if isinstance(result, ToolMessage):
            self._tool_result(request.tool_call, result.text, result.status != "error", session)
        return result

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]]
    ) -> ToolMessage | Command[Any]:
        """Async form of :meth:`wrap_tool_call`."""
        session = self._session()
        try:
            result = await handler(request)
        except Exception as error:
            message = f"error: {type(error).__name__}: {error}"
            await asyncio.to_thread(self._tool_result, request.tool_call, message, False, session)
            raise
        if isinstance(result, ToolMessage):
            ok = result.status != "error"
            await asyncio.to_thread(self._tool_result, request.tool_call, result.text, ok, session)
        return result

    # -- what goes before the model -----------------------------------------------------

    def _with_memory(self, request: ModelRequest, session: str) -> tuple[ModelRequest, Answer | None]:
        last = _last_human(request.messages)
        question = last.text.strip() if last is not None else ""
        if last is None or not question or not self.inject:
            return request, None
        asked = self._asked.get(session)
        if asked is not None and asked[0] == _key(last):
            answer: Answer | None = asked[1]  # the same turn (after a tool call): asked once
        else:
            answer = self._guarded("ask", lambda: self.broker.ask(question, speaker=self.user, **self._where(session)))
            if answer is not None:
                self._asked[session] = (_key(last), answer)
        if answer is None:
            return request, None
        block = self.memory_block(answer)
        if not block:
            return request, answer
        existing = request.system_message.text if request.system_message is not None else ""
        system = SystemMessage(content=f"{existing}\n\n{block}" if existing else block)
        return request.override(system_message=system), answer

    def memory_block(self, answer: Answer) -> str:
        """Return the memory put before the model for an answer: facts, episodes, reminders, within the budget."""
        lines: list[str] = []
        if "reminders" in self.inject:
            lines += [f"- reminder: {reminder}" for reminder in answer.reminders]
        if "facts" in self.inject:
            facts = [*answer.facts, *answer.related.facts]
            lines += [
                f"- [{fact.id}] {sentence_of(fact)} (confidence {fact.confidence:.2f})"
                for fact in dict((fact.id, fact) for fact in facts).values()
            ]
        if "episodes" in self.inject:
            episodes = [*answer.episodes, *answer.related.episodes]
            lines += [
                f"- [{episode.id}] {episode.speaker}: {episode.text}"
                for episode in dict((episode.id, episode) for episode in episodes).values()
                if episode.id not in self._own_episodes
            ]
        kept, used = [], estimate_tokens(MEMORY_HEADER)
        for line in lines:
            cost = estimate_tokens(line)
            if used + cost > self.budget_tokens:
                break
            kept.append(line)
            used += cost
        return "\n".join([MEMORY_HEADER, *kept]) if kept else ""

    # -- what is recorded ----------------------------------------------------------------

    def _user_message(self, text: str, session: str) -> None:
        if not text.strip():
            return
        judged = find_verdict(text)
        last = self._last_answer.get(session)
        if judged is not None and last is not None and last.id and "feedback" in self.capture:
            correction = judged.rest if judged.verdict == "wrong" and judged.rest else None
            self._guarded(
                "feedback",
                lambda: self.broker.feedback(last.id, judged.verdict, correction, agent_id=self.agent_id),
            )
            self._last_answer.pop(session, None)
            return
        if "user" in self.capture:
            self._remember(text, self.user, "user", session, read=True)

    def _record_response(self, response: ModelResponse, answer: Answer | None, session: str) -> None:
        said: list[str] = []
        for message in response.result:
            if not isinstance(message, AIMessage):
                continue
            if "reasoning" in self.capture:
                for block in message.content_blocks:
                    thought = block.get("reasoning") if block["type"] == "reasoning" else None
                    if thought:
                        said += self._remember(str(thought), self.assistant, "reasoning", session)
            if "tool_call" in self.capture:
                for call in message.tool_calls:
                    arguments = json.dumps(call.get("args", {}), ensure_ascii=False, sort_keys=True)
                    text = f"{call['name']}({arguments})"
                    self._remember(text, self.assistant, f"tool-call:{call['name']}", session)
            if message.text.strip() and "assistant" in self.capture:
                said += self._remember(message.text, self.assistant, "assistant", session)
        if answer is not None and answer.id and said:
            # The claim cites what it used: the memory answer's record holds the cited facts.
            self._guarded("record_reply", lambda: self.broker.record_reply(answer.id, said, agent_id=self.agent_id))
        if answer is not None and answer.answered and answer.id:
            self._last_answer[session] = answer

    def _tool_result(self, call: Any, text: str, ok: bool, session: str) -> None:
        if "tool_result" not in self.capture or not text.strip():
            return
        name, call_id = str(call.get("name") or "tool"), call.get("id")
        report = self._guarded(
            "record_tool_call",
            lambda: self.broker.record_tool_call(
                name, text[:MAX_TEXT_CHARS], ok=ok, call_id=call_id, **self._where(session)
            ),
        )
        if report is not None:
            self._own_episodes.update(report.episode_ids)

    def _remember(self, text: str, speaker: str, source: str, session: str, *, read: bool = False) -> list[str]:
        """Remember one event; return its episode ids (none when memory failed or held it)."""
        fields: dict[str, Any] = {"speaker": speaker, "source": source, **self._where(session)}
        limit = MAX_TEXT_CHARS
        if not read:
            fields["given_facts"] = []  # kept as an event, not read for facts
            limit = MAX_EPISODE_CHARS  # an event is one episode
        report = self._guarded("remember", lambda: self.broker.remember(text[:limit], **fields))
        if report is None:
            return []
        self._own_episodes.update(report.episode_ids)
        return list(report.episode_ids)

    # -- plumbing ------------------------------------------------------------------------

    def _where(self, session: str) -> dict[str, Any]:
        return {"agent_id": self.agent_id, "session_id": session}

    def _session(self) -> str:
        if self.session_id:
            return self.session_id
        try:
            thread = get_config().get("configurable", {}).get("thread_id")
        except RuntimeError:  # called outside a run
            thread = None
        return str(thread) if thread else "default"

    def _guarded(self, operation: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as error:  # memory trouble must not stop the agent
            logger.warning("memory %s failed (%s); the agent goes on without it", operation, type(error).__name__)
            return None


def _key(message: BaseMessage) -> str:
    return message.id or f"{type(message).__name__}:{message.text}"


def _last_human(messages: list[Any]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None
