"""The shapes the offline Reader's language rules share: a draft triple, per-text context, confidences."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

CLEAR = 0.9
FALLBACK = 0.7
HEDGED = 0.5
IMPLIED_SUBJECT = 0.6

_NAME_STRIP = " \t\r\n\"'“”‘’「」『』《》<>()（）[]【】{},，.。:：;；!！?？、~～…-—*"


@dataclass
class TextContext:
    """Per-text state: who "I" is and the last person mentioned (for he/she/他/她).

    ``named`` remembers what a possessed thing was called earlier in the same text
    ("I have a dog named Rex. I walk my dog daily": my dog is Rex), keyed by
    (owner, head noun).
    """

    me: str
    speaker_given: bool
    last_person: str | None = None
    named: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class Draft:
    """A candidate triple before name cleaning and typing."""

    subject: str
    predicate: str
    object: str
    negated: bool = False
    confidence: float = FALLBACK
    valid_from: str | None = None
    schedule: str | None = None
    subject_pos: str | None = None
    object_pos: str | None = None
    subject_type: str | None = None
    object_type: str | None = None
    extras: list[Draft] = field(default_factory=list)


def clean_name(name: str) -> str:
    """Strip surrounding punctuation, quotes and spaces from a name."""
    name = re.sub(r"\s+", " ", name).strip(_NAME_STRIP)
    return name
