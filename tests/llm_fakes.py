"""A chat model that answers structured output through tool calling and reports token usage.

``tests.fakes.ScriptedChatModel`` replaces ``with_structured_output`` wholesale, so it
never reaches LangChain's generate path (callbacks, ``usage_metadata``, a model's own
``cache=``). This one is a real ``BaseChatModel``: ``with_structured_output`` is
LangChain's own (``bind_tools`` + ``PydanticToolsParser``), and every request reaches
:meth:`_generate`, which counts it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field


class ToolCallingModel(BaseChatModel):
    """Answers each request with the next queued tool-call arguments, reporting fixed token counts."""

    replies: list[dict[str, Any]] = Field(default_factory=list)
    requests: list[list[BaseMessage]] = Field(default_factory=list)
    input_tokens: int = 100
    output_tokens: int = 20

    @property
    def _llm_type(self) -> str:
        return "tool-calling-test-model"

    def queue(self, *replies: dict[str, Any]) -> None:
        """Append tool-call arguments to answer with."""
        self.replies.extend(replies)

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        """Bind the tools in OpenAI's format (the choice is ignored: the model always calls the first)."""
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self.requests.append(messages)
        if not self.replies:
            raise AssertionError("ToolCallingModel has no queued reply left")
        name = kwargs["tools"][0]["function"]["name"]
        message = AIMessage(
            content="",
            tool_calls=[{"name": name, "args": self.replies.pop(0), "id": f"call_{len(self.requests)}"}],
            usage_metadata={
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "total_tokens": self.input_tokens + self.output_tokens,
            },
            response_metadata={"model_name": "tool-calling-test-model"},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
