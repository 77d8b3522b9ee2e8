"""Verdicts: whether a user's reply judges the agent's last answer right or wrong, and what it says instead.

Patterns are data (``language/data/verdicts.toml``, with examples that run as tests); a
reply is a verdict only when it opens with the judgement and the judgement ends there or
at punctuation ("That's wrong, …", 这个不对，…), so "that's wrong of him" or 不对劲 is none.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from elephant_broker.language.lexicon import data_file
from elephant_broker.language.segment import detect_language


@dataclass(frozen=True)
class Verdict:
    """A reply's judgement of the last answer, and the statement after it ("" when none)."""

    verdict: Literal["right", "wrong"]
    rest: str = ""


@functools.cache
def _patterns(language: str, verdict: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in data_file("verdicts.toml")[language][verdict])


def find_verdict(text: str) -> Verdict | None:
    """Return the verdict a reply opens with, or None when it judges nothing."""
    language = "zh" if detect_language(text) == "zh" else "en"
    for verdict in ("wrong", "right"):
        for pattern in _patterns(language, verdict):
            match = pattern.match(text)
            if match:
                return Verdict("wrong" if verdict == "wrong" else "right", (match.group("rest") or "").strip())
    return None
