"""Scripted fake chat models for testing LLM paths without a network."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, PrivateAttr


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model whose structured outputs are queued pydantic objects.

    ``with_structured_output(Schema)`` returns a runnable that pops the next queued
    object (checking it is a ``Schema``) and records the messages it was sent, so
    tests can assert both what the model was asked and what the graph did with it.
    """

    _outputs: deque[BaseModel] = PrivateAttr(default_factory=deque)
    _calls: list[Any] = PrivateAttr(default_factory=list)

    def __init__(self, outputs: Sequence[BaseModel] = (), **kwargs: Any) -> None:
        kwargs.setdefault("messages", iter([AIMessage(content="unused")]))
        super().__init__(**kwargs)
        self._outputs = deque(outputs)
        self._calls = []

    @property
    def calls(self) -> list[Any]:
        """The inputs of every structured call, in order."""
        return self._calls

    def queue(self, *outputs: BaseModel) -> None:
        """Append outputs to return."""
        self._outputs.extend(outputs)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """Accept tools (the fake ignores them)."""
        return self

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable:
        """Return a runnable that pops the next queued object of ``schema``."""

        def respond(messages: Any) -> BaseModel:
            self._calls.append(messages)
            if not self._outputs:
                raise AssertionError("ScriptedChatModel has no queued output left")
            output = self._outputs.popleft()
            if not isinstance(output, schema):
                raise AssertionError(f"queued {type(output).__name__}, asked for {schema.__name__}")
            return output

        return RunnableLambda(respond)


Step = AIMessage | Callable[[list[BaseMessage]], AIMessage]


class ScriptedToolModel(BaseChatModel):
    """A chat model that plays a script of turns, each a message or a function of the conversation.

    ``bind_tools`` records the tool names it was offered and returns the model itself,
    so ``create_agent`` can drive it like a real tool-calling model.
    """

    _steps: deque[Step] = PrivateAttr(default_factory=deque)
    _seen: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _tool_names: list[str] = PrivateAttr(default_factory=list)

    def __init__(self, steps: Sequence[Step], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._steps = deque(steps)

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-model"

    @property
    def seen(self) -> list[list[BaseMessage]]:
        """The conversation the model was sent on each turn."""
        return self._seen

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools bound to the model."""
        return self._tool_names

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:  # type: ignore[override]
        self._tool_names = [convert_to_openai_tool(tool)["function"]["name"] for tool in tools]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        self._seen.append(list(messages))
        if not self._steps:
            raise AssertionError("ScriptedToolModel has no turn left")
        step = self._steps.popleft()
        message = step(list(messages)) if callable(step) else step
        return ChatResult(generations=[ChatGeneration(message=message)])


def call(name: str, call_id: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])
