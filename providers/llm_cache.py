"""The LLM cache: model replies kept in SQLite, so reading the same text again costs no request.

:class:`SqliteLLMCache` is a LangChain cache (``langchain_core.caches.BaseCache``): any
chat model takes it as ``cache=``, or a process as ``set_llm_cache``. The broker uses it
one level up, in ``providers.chat_models.ask_model``, on the *validated* structured reply:
a reply that did not parse is never kept (LangChain's model-level cache would keep it and
hand it back on the retry and ever after), a hit is certainly no request and no tokens
(LangChain's replays the stored message with its token counts), and it applies whatever
structured-output method the provider uses (JSON schema, tool calling, a registered model).

An entry is keyed by the prompt and a description of the call (``structured_key``): the
model (``provider:model`` and its endpoint), the output schema (its name and JSON schema)
and a format version, so another model, endpoint, prompt or schema misses. The file is
``<home>/cache/llm.sqlite`` (``open_llm_cache``): it holds readings of the memory's texts,
so it lives with the memory, readable by its owner only. A broken or locked cache file is
a miss, never an error: the cache only ever saves requests.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from elephant_broker.schemas.context import Context
from elephant_broker.store.sqlite_files import use_write_ahead_log
from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.load import dumps, loads
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, Generation, GenerationChunk
from pydantic import BaseModel

logger = logging.getLogger(__name__)

CACHE_FILE = Path("cache") / "llm.sqlite"
"""Where a home keeps its LLM cache."""
KEY_VERSION = 1
"""Part of every key: raised when what a cached reply means changes, so old entries miss."""
OPEN_CACHES = 8
"""Cache files one process keeps open (the least recently used is closed beyond this)."""
_REVIVABLE: list[type[Any]] = [
    Generation,
    GenerationChunk,
    ChatGeneration,
    ChatGenerationChunk,
    AIMessage,
    AIMessageChunk,
]
"""The only classes a cached entry may be rebuilt as (``langchain_core.load.loads`` allow-list)."""


class SqliteLLMCache(BaseCache):
    """A LangChain LLM cache in one SQLite file (WAL; one connection, used under a lock).

    Keys are a SHA-256 of the llm string and the prompt; the prompt itself is not stored.
    Several processes may share the file (SQLite locks it; a write that waits too long
    is skipped).
    """

    def __init__(self, path: str | Path) -> None:
        """Open (creating if needed) the cache file at ``path``, readable by its owner only.

        Raises:
            OSError: If the directory cannot be created.
            sqlite3.Error: If the file is not a SQLite database.
        """
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Created owner-only before SQLite opens it (its -wal and -shm files take the same mode).
        os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
        try:
            use_write_ahead_log(self._connection, timeout_s=5.0)
            with self._connection:
                self._connection.execute(
                    "CREATE TABLE IF NOT EXISTS llm_cache ("
                    "key TEXT PRIMARY KEY, llm TEXT NOT NULL, generations TEXT NOT NULL, created_at INTEGER NOT NULL)"
                )
        except sqlite3.Error:
            self._connection.close()
            raise

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """Return the generations kept for this prompt and model, or None (also when the file fails)."""
        try:
            with self._lock:
                row = self._connection.execute(
                    "SELECT generations FROM llm_cache WHERE key = ?", (_key(prompt, llm_string),)
                ).fetchone()
        except sqlite3.Error as error:
            logger.warning("LLM cache %s could not be read (%s); asking the model", self.path, error)
            return None
        if row is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # loads() is marked beta
                return [loads(item, allowed_objects=_REVIVABLE) for item in json.loads(row[0])]
        except Exception as error:  # an entry of an older format, or damaged: a miss
            logger.warning("LLM cache entry in %s is unreadable (%s); asking the model", self.path, error)
            return None

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Keep the generations for this prompt and model (a failed write is logged and skipped)."""
        payload = json.dumps([dumps(generation) for generation in return_val])
        try:
            with self._lock, self._connection:
                self._connection.execute(
                    "INSERT OR REPLACE INTO llm_cache (key, llm, generations, created_at) VALUES (?, ?, ?, ?)",
                    (_key(prompt, llm_string), llm_string, payload, int(time.time())),
                )
        except sqlite3.Error as error:
            logger.warning("LLM cache %s could not be written (%s)", self.path, error)

    def clear(self, **kwargs: Any) -> None:
        """Forget every entry."""
        with self._lock, self._connection:
            self._connection.execute("DELETE FROM llm_cache")

    def __len__(self) -> int:
        """Return how many entries the cache holds."""
        with self._lock:
            return int(self._connection.execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0])

    def close(self) -> None:
        """Close the file (the object must not be used afterwards)."""
        with self._lock:
            self._connection.close()


def _key(prompt: str, llm_string: str) -> str:
    return hashlib.sha256(f"{len(llm_string)}:{llm_string}\x00{prompt}".encode()).hexdigest()


def structured_key(
    spec: str, endpoint: str, schema: type[BaseModel], messages: Sequence[tuple[str, str]]
) -> tuple[str, str]:
    """Return the cache's ``(prompt, llm_string)`` for a structured-output call.

    Args:
        spec: The model as ``provider:model``.
        endpoint: Where it is served (``providers.chat_models.model_endpoint``): the same
            model name on another server is another model.
        schema: The pydantic model the reply fills; its JSON schema is part of the key.
        messages: The ``(role, text)`` pairs sent.
    """
    prompt = json.dumps([list(message) for message in messages], ensure_ascii=False)
    llm_string = json.dumps(
        {"v": KEY_VERSION, "model": spec, "endpoint": endpoint, "output": schema.__name__, "shape": _shape(schema)},
        sort_keys=True,
    )
    return prompt, llm_string


@lru_cache(maxsize=64)
def _shape(schema: type[BaseModel]) -> str:
    """A digest of the output schema's JSON schema: a changed schema is another call."""
    return hashlib.sha256(json.dumps(schema.model_json_schema(), sort_keys=True).encode()).hexdigest()[:16]


_open: OrderedDict[Path, SqliteLLMCache] = OrderedDict()
_open_lock = threading.Lock()


def open_llm_cache(home: str | Path) -> SqliteLLMCache | None:
    """Return the LLM cache of a data directory, opened once per process; None if it cannot be opened."""
    path = (Path(home).expanduser() / CACHE_FILE).resolve()
    with _open_lock:
        cache = _open.get(path)
        if cache is not None:
            _open.move_to_end(path)
            return cache
        try:
            cache = SqliteLLMCache(path)
        except (OSError, sqlite3.Error) as error:
            logger.warning("LLM cache %s cannot be opened (%s); reading without it", path, error)
            return None
        _open[path] = cache
        while len(_open) > OPEN_CACHES:
            _, oldest = _open.popitem(last=False)
            oldest.close()
        return cache


def llm_cache_for(context: Context) -> SqliteLLMCache | None:
    """Return the cache the Reader uses under these settings: None offline or with ``llm_cache`` off."""
    if not context.llm or not context.llm_cache:
        return None
    return open_llm_cache(context.home)


def close_llm_caches() -> None:
    """Close every cache file this process opened."""
    with _open_lock:
        while _open:
            _, cache = _open.popitem()
            cache.close()
