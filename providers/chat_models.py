"""The one place chat models are created and called (``ELEPHANT_LLM=provider:model``).

``openai`` and the OpenAI-compatible providers (DeepSeek, Qwen via DashScope's
compatible mode, Ollama, vLLM, or anything at ``OPENAI_BASE_URL``) use
``langchain_openai.ChatOpenAI``; any other provider goes through LangChain's
``init_chat_model``. API keys come from the environment only. Tests register scripted
fake models under a spec with ``register_chat_model`` instead of patching call sites.

Every node asks for structured output through :func:`ask_model`: a client timeout
(``ELEPHANT_LLM_TIMEOUT``, 60 s), one retry of a transport failure by the client, one
more attempt after a reply that does not parse, and a :class:`ModelError` naming the
model, its endpoint (never the key) and what went wrong. Callers fall back to the
offline path on that error and say so in the run's notes. A caller may give it a
cache (``providers.llm_cache``: a kept reply is returned without a request) and a
:class:`ModelUsage` that counts the requests sent, the replies taken from the cache and
the tokens the model reported (``AIMessage.usage_metadata``).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit, urlunsplit

from elephant_broker.providers.llm_cache import structured_key
from langchain_core.caches import BaseCache
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import Generation, LLMResult
from pydantic import BaseModel, SecretStr, ValidationError

# provider -> (default base URL, environment variable holding its API key)
OPENAI_COMPATIBLE: dict[str, tuple[str | None, str]] = {
    "openai": (None, "OPENAI_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "qwen": ("https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    "ollama": ("http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "vllm": ("http://localhost:8000/v1", "VLLM_API_KEY"),
}
OPENAI_DEFAULT_URL = "https://api.openai.com/v1"

DEFAULT_TIMEOUT_S = 60.0
"""Seconds a model request may take before it counts as failed (``ELEPHANT_LLM_TIMEOUT``)."""
CLIENT_RETRIES = 1
"""Retries of a timed-out, unreachable or 5xx/429 request, done by the provider's client."""
PARSE_ATTEMPTS = 2
"""Requests per call when the reply does not parse: the first, and one more."""
MAX_REQUESTS_PER_CALL = PARSE_ATTEMPTS + CLIENT_RETRIES
"""Worst case per ``ask_model`` call: a reply that does not parse, then a request retried by the client."""

FailureKind = Literal["timeout", "unreachable", "http", "malformed", "shape", "error"]
SchemaT = TypeVar("SchemaT", bound=BaseModel)

_KEY_LIKE = re.compile(r"\b(?:sk|pk|key)-[A-Za-z0-9_*\-]{6,}")

_registered: dict[str, BaseChatModel] = {}

OUTAGE_COOLDOWN_S = 60.0
"""After a model times out, cannot be reached or answers 5xx, calls to it fail at once for this long."""
_TRANSPORT_FAILURES: frozenset[str] = frozenset({"timeout", "unreachable"})
_outages: dict[str, tuple[float, ModelError]] = {}
_outages_lock = threading.Lock()


class ModelError(RuntimeError):
    """A chat model call failed: timed out, unreachable, an HTTP error, or a reply of the wrong shape.

    The message is one line naming the model and its endpoint (base URL only: no key,
    no user info, no query string) and what went wrong.
    """

    def __init__(self, message: str, *, kind: FailureKind, spec: str, endpoint: str) -> None:
        """Record the failure's kind, the model spec and its endpoint with the one-line message."""
        super().__init__(message)
        self.kind = kind
        self.spec = spec
        self.endpoint = endpoint


@dataclass
class ModelUsage:
    """What chat-model calls cost: requests sent, replies taken from a cache, tokens reported.

    ``calls`` counts requests as :func:`ask_model` sends them (a reply that did not parse
    and was asked again is two; a transport retry inside the provider's client is not
    seen). Tokens are the model's own counts (``usage_metadata``); a model that reports
    none adds none.
    """

    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: ModelUsage) -> ModelUsage:
        return ModelUsage(
            self.calls + other.calls,
            self.cached + other.cached,
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
        )


class _TokenCounter(BaseCallbackHandler):
    """Add the tokens each model reply reports to a :class:`ModelUsage`."""

    run_inline = True

    def __init__(self, usage: ModelUsage) -> None:
        super().__init__()
        self._usage = usage
        self._lock = threading.Lock()

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        """Count the reply's tokens: ``usage_metadata`` of its messages, else the provider's ``token_usage``."""
        found_in, found_out = 0, 0
        for generations in response.generations:
            for generation in generations:
                metadata = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
                found_in += int(metadata.get("input_tokens") or 0)
                found_out += int(metadata.get("output_tokens") or 0)
        if not found_in and not found_out:
            usage = (response.llm_output or {}).get("token_usage") or {}
            found_in, found_out = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        with self._lock:
            self._usage.input_tokens += found_in
            self._usage.output_tokens += found_out


def register_chat_model(spec: str, model: BaseChatModel | None) -> None:
    """Make ``load_chat_model(spec)`` return ``model`` (None removes it); for tests and embedding."""
    if model is None:
        _registered.pop(spec, None)
    else:
        _registered[spec] = model
    reset_chat_models()


def reset_chat_models() -> None:
    """Forget cached models and known outages (after changing ``OPENAI_BASE_URL`` or keys at run time)."""
    _load_cached.cache_clear()
    with _outages_lock:
        _outages.clear()


def llm_timeout() -> float:
    """Return the model request timeout in seconds (``ELEPHANT_LLM_TIMEOUT``, default 60).

    Raises:
        ValueError: If the variable is not a positive number.
    """
    raw = os.environ.get("ELEPHANT_LLM_TIMEOUT", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"ELEPHANT_LLM_TIMEOUT must be a positive number of seconds, not {raw!r}")
    return seconds


def load_chat_model(spec: str) -> BaseChatModel:
    """Return the chat model named by ``provider:model``, with a timeout and bounded retries.

    Raises:
        ValueError: If the spec has no provider or model part, or the timeout setting is malformed.
    """
    if spec in _registered:
        return _registered[spec]
    return _load_cached(spec, llm_timeout())


@lru_cache(maxsize=8)
def _load_cached(spec: str, timeout: float) -> BaseChatModel:
    provider, _, model = spec.partition(":")
    if not provider or not model:
        raise ValueError(f"LLM must be given as provider:model (e.g. openai:gpt-4o-mini), not {spec!r}")
    provider = provider.lower()
    if provider in OPENAI_COMPATIBLE:
        from langchain_openai import ChatOpenAI

        default_url, key_variable = OPENAI_COMPATIBLE[provider]
        base_url = os.environ.get("OPENAI_BASE_URL") or default_url
        api_key = os.environ.get(key_variable) or os.environ.get("OPENAI_API_KEY") or "not-needed"
        return ChatOpenAI(
            model=model,
            base_url=base_url,
            api_key=SecretStr(api_key),
            temperature=0,
            timeout=timeout,
            max_retries=CLIENT_RETRIES,
        )
    from langchain.chat_models import init_chat_model

    chat = init_chat_model(model, model_provider=provider, temperature=0)
    # Provider classes name these settings differently, and some lack them; pass the
    # ones this class declares (a second, offline construction) rather than guess.
    declared = type(chat).model_fields
    limits: dict[str, Any] = {}
    for name in ("timeout", "request_timeout", "default_request_timeout"):
        if name in declared:
            limits[name] = timeout
            break
    if "max_retries" in declared:
        limits["max_retries"] = CLIENT_RETRIES
    return init_chat_model(model, model_provider=provider, temperature=0, **limits) if limits else chat


def ask_model(
    spec: str,
    schema: type[SchemaT],
    messages: Sequence[tuple[str, str]],
    *,
    model: BaseChatModel | None = None,
    cache: BaseCache | None = None,
    usage: ModelUsage | None = None,
) -> SchemaT:
    """Ask the chat model for one ``schema`` object, within bounded time and requests.

    A timeout, an unreachable endpoint or an HTTP error is retried once by the client;
    a reply that is not JSON, or JSON of another shape, is asked again once. At most
    ``MAX_REQUESTS_PER_CALL`` requests are sent.

    With a ``cache``, a reply kept for the same model, endpoint, schema and messages is
    returned without any request (also while the model is down), and a reply that
    validated is kept (``providers.llm_cache.structured_key``); a reply that failed is not.

    Args:
        spec: The model as ``provider:model`` (loaded with ``load_chat_model``).
        schema: The pydantic model the reply must fill.
        messages: ``(role, text)`` pairs.
        model: The chat model to use instead of loading ``spec`` (``spec`` still names it).
        cache: Where replies are kept (a LangChain ``BaseCache``), or None.
        usage: Counts the requests sent, the cache hits and the tokens reported.

    Raises:
        ModelError: If the model fails; the message names the model and its endpoint.
    """
    model = model if model is not None else load_chat_model(spec)
    key = structured_key(spec, model_endpoint(spec, model), schema, messages) if cache is not None else None
    if cache is not None and key is not None:
        kept = _cached_reply(cache, key, schema)
        if kept is not None:
            if usage is not None:
                usage.cached += 1
            return kept
    _raise_if_out(spec)
    runnable = model.with_structured_output(schema)
    config: Any = {"callbacks": [_TokenCounter(usage)]} if usage is not None else None
    for attempt in range(1, PARSE_ATTEMPTS + 1):
        if usage is not None:
            usage.calls += 1
        try:
            result = runnable.invoke(list(messages), config=config)
            reply = result if isinstance(result, schema) else schema.model_validate(result)
        except (AssertionError, AttributeError, ImportError, NameError, TypeError):
            raise  # a defect in the caller, not a failing model: never hidden by a fallback
        except Exception as error:
            failure = describe_failure(error, spec, model)
            if failure.kind in ("malformed", "shape") and attempt < PARSE_ATTEMPTS:
                continue
            if _is_outage(failure, error):
                with _outages_lock:
                    _outages[spec] = (time.monotonic() + OUTAGE_COOLDOWN_S, failure)
            raise failure from error
        if cache is not None and key is not None:
            cache.update(*key, [Generation(text=reply.model_dump_json())])
        return reply
    raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover


def _cached_reply(cache: BaseCache, key: tuple[str, str], schema: type[SchemaT]) -> SchemaT | None:
    """Return the reply kept under ``key`` as a ``schema`` object; None when there is none or it no longer fits."""
    kept = cache.lookup(*key)
    if not kept:
        return None
    try:
        return schema.model_validate_json(kept[0].text)
    except ValidationError:
        return None  # kept under an older shape of the schema: ask again (the new reply replaces it)


def _raise_if_out(spec: str) -> None:
    """Fail at once while a model is known to be down, instead of waiting out another timeout.

    A multi-hop question makes several model calls and a long ingest one per chunk; a
    dead endpoint would cost each of them the whole timeout and retry. After an outage
    the calls fail fast (and fall back offline) until the cool-down has passed.
    """
    with _outages_lock:
        outage = _outages.get(spec)
        if outage is None:
            return
        until, failure = outage
        if time.monotonic() >= until:
            del _outages[spec]
            return
    raise ModelError(
        f"{failure} (not asked again for {OUTAGE_COOLDOWN_S:g} s)",
        kind=failure.kind,
        spec=failure.spec,
        endpoint=failure.endpoint,
    )


def _is_outage(failure: ModelError, error: BaseException) -> bool:
    if failure.kind in _TRANSPORT_FAILURES:
        return True
    status = getattr(error, "status_code", None) or getattr(getattr(error, "response", None), "status_code", None)
    return failure.kind == "http" and isinstance(status, int) and (status >= 500 or status == 429)


def describe_failure(error: BaseException, spec: str, model: Any = None) -> ModelError:
    """Classify a model call's exception as a one-line :class:`ModelError`."""
    endpoint = model_endpoint(spec, model)
    where = f"model {spec} at {endpoint}"
    names = {cls.__name__ for cls in type(error).__mro__}
    status = getattr(error, "status_code", None) or getattr(getattr(error, "response", None), "status_code", None)
    kind: FailureKind
    # The reply checks first: a client may attach the (successful) HTTP response to them.
    if isinstance(error, ValidationError) and any(item["type"] == "json_invalid" for item in error.errors()):
        kind, what = "malformed", "replied with malformed JSON"
    elif isinstance(error, json.JSONDecodeError) or "OutputParserException" in names:
        kind, what = "malformed", f"replied with output that does not parse{_detail(error)}"
    elif isinstance(error, ValidationError):
        first = error.errors()[0]
        field = ".".join(str(part) for part in first.get("loc", ())) or "reply"
        kind, what = "shape", f"replied with JSON of the wrong shape ({field}: {first.get('msg')})"
    elif names & {"APITimeoutError", "TimeoutException", "TimeoutError", "ReadTimeout", "Timeout"}:
        kind, what = "timeout", f"did not answer within {_seconds(model)} (timed out)"
    elif isinstance(status, int) and status >= 400:
        kind, what = "http", f"answered HTTP {status}{_detail(error)}"
    elif names & {"APIConnectionError", "ConnectError", "ConnectionError"}:
        kind, what = "unreachable", f"could not be reached{_detail(error)}"
    else:
        kind, what = "error", f"failed ({type(error).__name__}{_detail(error)})"
    return ModelError(f"{where} {what}", kind=kind, spec=spec, endpoint=endpoint)


def model_endpoint(spec: str, model: Any = None) -> str:
    """Return where a model is served, as a URL without credentials or query ("provider default" if unknown)."""
    url: Any = None
    for attribute in ("openai_api_base", "base_url", "anthropic_api_url", "endpoint", "api_base"):
        url = getattr(model, attribute, None)
        if isinstance(url, str) and url:
            break
        url = None
    if url is None and spec.partition(":")[0].lower() == "openai":
        url = OPENAI_DEFAULT_URL
    if url is None:
        return "its provider's default endpoint"
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _redact(text: str) -> str:
    # A provider may echo (part of) the key in its error text; it never reaches a message.
    secrets = {os.environ.get(name, "") for _, name in OPENAI_COMPATIBLE.values()}
    for secret in filter(lambda value: len(value) >= 6, secrets):
        text = text.replace(secret, "***")
    return _KEY_LIKE.sub("***", text)


def _seconds(model: Any) -> str:
    value = getattr(model, "request_timeout", None)
    if value is None:
        value = getattr(model, "timeout", None)
    return f"{value:g} s" if isinstance(value, int | float) else "the time limit"


def _detail(error: BaseException) -> str:
    # The first line of the client's message, shortened: enough to recognise, never a dump.
    text = _redact(" ".join(str(error).split()))
    if not text:
        return ""
    return f": {text[:160]}{'…' if len(text) > 160 else ''}"
