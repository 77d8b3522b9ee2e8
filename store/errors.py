"""The errors every store backend raises."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The graph database could not be reached or refused an operation."""


class UnsafeQueryError(StoreError):
    """A generated query is not a plain read, or cannot be scoped with certainty."""
