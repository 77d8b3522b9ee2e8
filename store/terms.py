"""Full-text terms: what a keyword search asks for and what an index holds, split alike everywhere."""

from __future__ import annotations

import re

_FULLTEXT_TERM = re.compile(r"[^\w]+", re.UNICODE)


def fulltext_terms(text: str) -> list[str]:
    """Split text into safe full-text terms (letters, digits, CJK only).

    Anything that could carry query syntax (quotes, operators, wildcards) is
    dropped, so the terms can be joined into a full-text query string safely. The
    graph's full-text index splits stored text at the same characters, and the
    embedded store's episode index splits with this function.
    """
    return [term for term in _FULLTEXT_TERM.split(text.lower()) if term]
