"""First-person words and their resolution to the speaker.

An agent hears "我精通 Python" from 小李 and later 小李 asks "我会什么语言？": both
must mean 小李. The Reader maps first-person subjects/objects to the speaker entity;
the Answerer rewrites the question the same way before embedding it.
"""

from __future__ import annotations

import re

FIRST_PERSON_WORDS: frozenset[str] = frozenset({"我", "我自己", "本人", "俺", "i", "me", "myself"})
"""Whole names that mean the speaker (compared case-folded)."""

_ZH_FIRST_PERSON = re.compile(r"我(?!们)|俺(?!们)")
_EN_POSSESSIVE = re.compile(r"\b(my|mine)\b", re.IGNORECASE)
_EN_FIRST_PERSON = re.compile(r"\b(I|me|myself)\b", re.IGNORECASE)
_EN_I_AM = re.compile(r"\bI(?:'m| am)\b", re.IGNORECASE)


_SPEAKS_OF_SELF = re.compile(r"[我咱俺]|本人|\b(?:I|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)


def speaks_of_self(text: str) -> bool:
    """Return whether a text says anything in the first person (我, 咱们, I, my, we ...)."""
    return _SPEAKS_OF_SELF.search(text) is not None


def is_first_person(name: str) -> bool:
    """Return whether a whole name is a first-person word (我, I, me ...)."""
    return name.strip().casefold() in FIRST_PERSON_WORDS


def resolve_first_person(text: str, speaker: str) -> str:
    """Replace first-person words in ``text`` with the speaker's name.

    Args:
        text: A question or statement (Chinese or English).
        speaker: Who is speaking.

    Returns:
        The text in third person: 我最爱吃什么 -> 小王最爱吃什么, "What do I like" ->
        "What do Alice like" (grammar is not the point; matching is).
    """
    # Function replacements: a name is data, never a template (Bob\ and a\1b are names).
    text = _ZH_FIRST_PERSON.sub(lambda _: speaker, text)
    text = _EN_I_AM.sub(lambda _: f"{speaker} is", text)
    text = _EN_POSSESSIVE.sub(lambda _: f"{speaker}'s", text)
    return _EN_FIRST_PERSON.sub(lambda _: speaker, text)
