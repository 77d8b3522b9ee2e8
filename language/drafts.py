"""The shapes the offline Reader's language rules share: a draft triple, per-text context, confidences."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from elephant_broker.language.pronouns import names_others

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

    ``topic`` is the last thing (no person) a clause was about, what "it" and "its" refer
    to in the next one ("Acme is in Boston. It has 500 employees"); ``mentioned`` lists the
    names read so far, for "the memorial" after "the Baku Turkish Martyrs Memorial";
    ``within`` the places a place name was written with ("Buffalo, Erie County, New York":
    Buffalo -> [Erie County, New York]); ``places`` the names read as places, in order, for
    "the country" after "… is located in Norland"; ``last_group`` the last subject that took a
    plural verb ("Kell Harriers play in Tarsk", "my parents live in Leeds"), what "they" and
    "their" stand for next.

    ``names_others`` holds when the text speaks of no one in the first person and names
    people or works (张三, 《活着》): its subjectless clauses then continue what it is
    about, not what the speaker did (a biography, a news item, a synopsis). It tags the
    whole text, so it is worked out only when a clause with no subject asks.
    """

    me: str
    speaker_given: bool
    text: str = ""
    topic: str | None = None
    mentioned: list[str] = field(default_factory=list)
    within: dict[str, list[str]] = field(default_factory=dict)
    places: list[str] = field(default_factory=list)
    last_person: str | None = None
    last_group: str | None = None
    named: dict[tuple[str, str], str] = field(default_factory=dict)

    @functools.cached_property
    def names_others(self) -> bool:
        """Whether the text is about others: ``language.pronouns.names_others`` of it."""
        return names_others(self.text)


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


_CLOSING = {")": "(", "）": "（", "]": "[", "】": "【"}


def clean_name(name: str) -> str:
    """Strip surrounding punctuation, quotes and spaces from a name.

    A closing bracket whose opening one is inside the name stays: 新英语读本(第4册),
    Olympic Stadium (Athens).
    """
    name = re.sub(r"\s+", " ", name)
    stripped = name.strip(_NAME_STRIP)
    right = name.rstrip(_NAME_STRIP)
    closing = name[len(right) : len(right) + 1]
    if closing in _CLOSING and stripped.count(_CLOSING[closing]) > stripped.count(closing):
        return stripped + closing
    return stripped
