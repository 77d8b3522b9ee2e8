"""Process-wide resources the nodes share: the open store and the embeddings.

Graph state holds only data and the run ``Context`` only settings, so nodes reach
clients through these cached getters. The first call for a store URL opens it (and
starts the embedded server) and creates its indexes; later calls reuse it.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path

from elephant_broker.language.predicates import PredicateMatcher
from elephant_broker.providers.embeddings import embedding_dimension, load_embeddings
from elephant_broker.providers.heap import settle_heap
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import check_optional
from elephant_broker.store import GraphStore, open_store
from langchain_core.embeddings import Embeddings

_stores: dict[tuple[str, str, str], GraphStore] = {}
_lock = threading.Lock()


def get_embeddings(context: Context) -> Embeddings:
    """Return the embeddings model the context names."""
    return load_embeddings(context.embeddings)


def get_store(context: Context) -> GraphStore:
    """Return the open store for the context, opening it and its schema once."""
    key = (context.store or "embedded", str(Path(context.home).expanduser().resolve()), context.embeddings)
    with _lock:
        store = _stores.get(key)
        if store is None:
            store = open_store(context.store, context.home)
            store.ensure_schema(embedding_dimension(get_embeddings(context)))
            # Data stored by an older release is brought to today's layout (once per store).
            store.upgrade()
            _stores[key] = store
            # The model, the graphs and the store are loaded: what is alive now lives as long as the process.
            settle_heap()
        return store


def close_stores() -> None:
    """Close every store this process opened (embedded servers keep running)."""
    with _lock:
        for store in _stores.values():
            store.close()
        _stores.clear()


def request_scope(agent_id: str | None, context: Context) -> str:
    """Return the memory scope of a request: its agent id, else the context default.

    An id is checked, not trimmed (``schemas.ids.check_id``): " alice" is refused
    rather than read as "alice", the same rule as on ``Perception`` and ``Context``.

    Raises:
        ValueError: ``agent_id: ...`` when the id breaks the rule.
    """
    return check_optional(agent_id, "id", "agent_id") or context.agent_id


def user_cache_dir() -> Path:
    """Return this user's cache directory for what depends on the code and models only, not on a memory.

    ``$XDG_CACHE_HOME/elephant``, else ``~/.cache/elephant``: the predicate lexicon's
    vectors are the same for every home, so a new home (each evaluation run, each
    test) does not embed the lexicon again.
    """
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "elephant"


@lru_cache(maxsize=8)
def _matcher(embeddings_spec: str, threshold: float, cache_dir: str) -> PredicateMatcher:
    return PredicateMatcher(load_embeddings(embeddings_spec), threshold, Path(cache_dir), model=embeddings_spec)


def get_predicate_matcher(context: Context) -> PredicateMatcher:
    """Return the predicate canonicaliser for the context's embeddings (lexicon vectors cached on disk)."""
    return _matcher(context.embeddings, context.predicate_embedding_similarity, str(user_cache_dir()))
