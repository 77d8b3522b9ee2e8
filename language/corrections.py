"""Corrections: a turn that takes back what its speaker just said, read as the corrected statement.

"不对，是21楼" after "我家住12楼" means 我家住21楼 — and no longer 12楼. ``find_correction``
recognises the construction (patterns in ``language/data/corrections.toml``, with examples
that run as tests) and gives the new value and, when said, the old one.
``corrected_statement`` rewrites the previous turn with the new value in place of the old
one — or, when the old one is not said, in place of the previous turn's last span of the
same kind (a number for a number, a name for a name, a time for a time). The Reader reads
that statement instead of the correction's own words, and the previous turn's facts about
the old value as denied, so the old fact is retired through the conflict path.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from elephant_broker.language.answer_spans import NAME, NUMBER, answer_spans
from elephant_broker.language.lexicon import data_file
from elephant_broker.language.segment import detect_language


@dataclass(frozen=True)
class Correction:
    """What a correction says: the right value, and the wrong one when it names it."""

    new: str
    old: str | None = None


@functools.cache
def _patterns(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in data_file("corrections.toml")[language]["patterns"])


def find_correction(text: str) -> Correction | None:
    """Return the correction a turn makes, or None when it makes none."""
    language = detect_language(text)
    for pattern in _patterns("zh" if language == "zh" else "en"):
        match = pattern.search(text)
        if match:
            new = _clean(match.group("new"))
            old = _clean(match.groupdict().get("old") or "")
            if new and new != old:
                return Correction(new, old or None)
    return None


def corrected_statement(previous: str, correction: Correction) -> tuple[str, str] | None:
    """Return the previous turn with the correction made, and the value it replaced; None when it cannot be placed.

    The old value is the one the correction names, if the previous turn holds it; else
    the previous turn's last span of the new value's kind.
    """
    language = "zh" if detect_language(previous) == "zh" else "en"
    old = correction.old
    if old is None or old not in previous:
        spans = [
            span for kind in _kinds_of(correction.new, language) for span in answer_spans(previous, kind, language)
        ]
        spans = [span for span in spans if span != correction.new]
        if not spans:
            return None
        old = max(spans, key=previous.rfind)  # the last one said
    start = previous.rfind(old)
    return previous[:start] + correction.new + previous[start + len(old) :], old


def _kinds_of(value: str, language: str) -> list[str]:
    """The kinds a value can be of, to find what it replaces: a time, a number, a name."""
    kinds = [kind for kind in ("Time", NUMBER, NAME) if value in answer_spans(value, kind, language)]
    return kinds or [NAME]


def _clean(value: str) -> str:
    return value.strip().strip("\"'“”‘’「」").strip()
