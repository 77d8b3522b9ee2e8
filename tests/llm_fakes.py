"""Model fakes: a chat model that answers structured output through tool calling and reports token
usage, and a loopback OpenAI-compatible server.

``tests.fakes.ScriptedChatModel`` replaces ``with_structured_output`` wholesale, so it
never reaches LangChain's generate path (callbacks, ``usage_metadata``, a model's own
``cache=``). This one is a real ``BaseChatModel``: ``with_structured_output`` is
LangChain's own (``bind_tools`` + ``PydanticToolsParser``), and every request reaches
:meth:`_generate`, which counts it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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


Reply = str | tuple[int, dict[str, Any]]
"""What a loopback endpoint answers: a completion's message content, or (HTTP status, error payload)."""


def schema_of(body: dict[str, Any]) -> str:
    """The structured-output schema a chat-completions request asks for ("" when none)."""
    return str(body.get("response_format", {}).get("json_schema", {}).get("name", ""))


class LoopbackOpenAI:
    """An OpenAI-compatible chat-completions server on a loopback port, in a thread.

    ``answer(body)`` decides each reply (it may sleep, to play a hanging model); a string is
    sent as a completion reporting ``usage`` (prompt, completion) tokens. Every request body is
    kept in ``requests``, its ``Authorization`` header under ``"_authorization"``.
    """

    def __init__(self, answer: Callable[[dict[str, Any]], Reply], usage: tuple[int, int] = (1, 1)) -> None:
        self.requests: list[dict[str, Any]] = []
        loopback = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                loopback.requests.append({**body, "_authorization": self.headers.get("Authorization")})
                reply = answer(body)
                if isinstance(reply, tuple):
                    self._send(*reply)
                    return
                prompt, completion = usage
                self._send(
                    200,
                    {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}
                        ],
                        "usage": {
                            "prompt_tokens": prompt,
                            "completion_tokens": completion,
                            "total_tokens": prompt + completion,
                        },
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up waiting (a hanging model)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
