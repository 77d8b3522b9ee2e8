"""Store queries for entity identity: merge records, alias lookups and unmerge.

A mixin of ``GraphStore``: the Cypher here runs unchanged on FalkorDB and Neo4j and
goes through the backend's ``_read``/``_write_atomic``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from schemas.models import EpisodeWrite

if TYPE_CHECKING:
    Statement = tuple[str, dict[str, Any]]


class MergeQueries:
    """Identity queries shared by every backend."""

    def merge_statements(self, plan: EpisodeWrite) -> list[Statement]:
        """Return the statements that record the episode's merges (run in its transaction)."""
        return []
