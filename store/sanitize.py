"""The one sanitiser for Cypher labels and relationship types.

Values always travel as query parameters, but labels and relationship types cannot be
parameters in Cypher. Every identifier that reaches query text goes through
``cypher_identifier``: it must be on an allow-list *and* match a strict pattern, so a
hostile string (backticks, braces, comments, unicode look-alikes) can never reach a
query, even if the allow-list is one day built from data.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


class UnsafeIdentifierError(ValueError):
    """Raised when a label or relationship type is not allowed in query text."""


def cypher_identifier(name: str, allowed: Collection[str]) -> str:
    """Return ``name`` quoted for Cypher if it is allowed, else raise.

    Args:
        name: The label or relationship type to put in query text.
        allowed: The identifiers this call site may use.

    Returns:
        The identifier wrapped in backticks, ready to paste.

    Raises:
        UnsafeIdentifierError: If ``name`` is not on the allow-list or is not a plain
            ASCII identifier.
    """
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        raise UnsafeIdentifierError(f"not a plain identifier: {name!r}")
    if name not in allowed:
        raise UnsafeIdentifierError(f"identifier not allowed here: {name!r}")
    return f"`{name}`"
