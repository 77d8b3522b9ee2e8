"""Scripted fake chat models for testing LLM paths without a network."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable, RunnableLambda
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
