"""The one place chat models are created (``ELEPHANT_LLM=provider:model``).

``openai`` and the OpenAI-compatible providers (DeepSeek, Qwen via DashScope's
compatible mode, Ollama, vLLM, or anything at ``OPENAI_BASE_URL``) use
``langchain_openai.ChatOpenAI``; any other provider goes through LangChain's
``init_chat_model``. API keys come from the environment only. Tests register scripted
fake models under a spec with ``register_chat_model`` instead of patching call sites.
"""

from __future__ import annotations

import os
from functools import lru_cache

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

# provider -> (default base URL, environment variable holding its API key)
OPENAI_COMPATIBLE: dict[str, tuple[str | None, str]] = {
    "openai": (None, "OPENAI_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "qwen": ("https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    "ollama": ("http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "vllm": ("http://localhost:8000/v1", "VLLM_API_KEY"),
}

_registered: dict[str, BaseChatModel] = {}


def register_chat_model(spec: str, model: BaseChatModel | None) -> None:
    """Make ``load_chat_model(spec)`` return ``model`` (None removes it); for tests and embedding."""
    if model is None:
        _registered.pop(spec, None)
    else:
        _registered[spec] = model
    _load_cached.cache_clear()


def reset_chat_models() -> None:
    """Forget cached models (after changing ``OPENAI_BASE_URL`` or keys at run time)."""
    _load_cached.cache_clear()


def load_chat_model(spec: str) -> BaseChatModel:
    """Return the chat model named by ``provider:model``.

    Raises:
        ValueError: If the spec has no provider or model part.
    """
    if spec in _registered:
        return _registered[spec]
    return _load_cached(spec)


@lru_cache(maxsize=8)
def _load_cached(spec: str) -> BaseChatModel:
    provider, _, model = spec.partition(":")
    if not provider or not model:
        raise ValueError(f"LLM must be given as provider:model (e.g. openai:gpt-4o-mini), not {spec!r}")
    provider = provider.lower()
    if provider in OPENAI_COMPATIBLE:
        from langchain_openai import ChatOpenAI

        default_url, key_variable = OPENAI_COMPATIBLE[provider]
        base_url = os.environ.get("OPENAI_BASE_URL") or default_url
        api_key = os.environ.get(key_variable) or os.environ.get("OPENAI_API_KEY") or "not-needed"
        return ChatOpenAI(model=model, base_url=base_url, api_key=SecretStr(api_key), temperature=0, max_retries=2)
    from langchain.chat_models import init_chat_model

    return init_chat_model(model, model_provider=provider, temperature=0)
