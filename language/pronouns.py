"""First-person words and their resolution to the speaker.

An agent hears "我精通 Python" from 小李 and later 小李 asks "我会什么语言？": both
must mean 小李. The Reader maps first-person subjects/objects to the speaker entity;
the Answerer rewrites the question the same way before embedding it.
"""

from __future__ import annotations

import re

from elephant_broker.language.lexicon import words
from elephant_broker.language.segment import has_cjk, pos_tag
from elephant_broker.language.types import PERSON, guess_type

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


_SPEAKS_TO_LISTENER = re.compile(r"[你您]|\b(?:you|your|yours|yourself|yourselves)\b", re.IGNORECASE)


def speaks_to_listener(text: str) -> bool:
    """Return whether a text says anything in the second person (你, 您, you, your ...)."""
    return _SPEAKS_TO_LISTENER.search(text) is not None


_PERSON_NAME_TAGS = frozenset({"nr", "nrfg", "nrt"})
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』")


def names_others(text: str) -> bool:
    """Whether a Chinese text names people or works (张三, 《活着》) and says nothing in the first person.

    Chinese leaves out a clause's subject when it is the topic already; in a chat turn that
    says nothing else the topic is the speaker (最近在学 Rust), in a text about someone else
    it is them (2014年，常来离开濮阳…，在合伙人的协助下创立…).
    """
    if not has_cjk(text) or speaks_of_self(_QUOTED.sub("", text)):
        return False  # a quotation's 我 is whoever is quoted (他说“我养你啊”), not the speaker
    if "《" in text:
        return True
    prepositions = words("zh", "subject_prepositions")
    tagged = pos_tag(text)

    def adverbial(i: int) -> bool:
        # 从朝阳搬到海淀: jieba tags the place after a preposition (or with it, 从朝阳) as a name.
        word = tagged[i][0]
        return (i > 0 and tagged[i - 1][0] in prepositions) or any(word.startswith(p) for p in prepositions)

    return any(flag in _PERSON_NAME_TAGS and not adverbial(i) for i, (_, flag) in enumerate(tagged))


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


_EN_OPENING_WORD = re.compile(r"[A-Za-z]+")


def opens_with_reference(text: str) -> bool:
    """Whether a text opens by referring back to someone it does not name ("her name's Ines", 她在杭州上班).

    Such a turn is about whoever the turn before it named: read alone, "he" is no one. The
    lead-ins a chat line may open with ("oh", "btw", 对了) are passed over.
    """
    stripped = text.strip()
    if has_cjk(stripped[:12]):
        opening = stripped.lstrip("，,。.！!~ 哦噢嗯啊诶")
        for lead in sorted(words("zh", "clause_openers"), key=len, reverse=True):
            if opening.startswith(lead):
                opening = opening[len(lead) :].lstrip("，,、 ")
                break
        return opening[:1] in words("zh", "third_person")
    for word in _EN_OPENING_WORD.findall(stripped)[:4]:
        lowered = word.casefold()
        if lowered in words("en", "lead_ins") or lowered in words("en", "chat_fillers"):
            continue
        return lowered in words("en", "third_person_pronouns") | {"his", "her", "hers"}
    return False


def refers_back(text: str) -> bool:
    """Whether a text refers to someone it does not name: it opens so, or says he/she before naming anyone.

    "I'm a nurse in the ER, he bartends at a pub" / 我在医院上班，她是小学老师: "he" is whom the turn
    before named (my roommate Omar, 我老婆). A name or a relative ("my brother", 我哥) said
    before the pronoun is its referent, and the turn stands alone.
    """
    if opens_with_reference(text):
        return True
    stripped = text.strip()
    if has_cjk(stripped[:12]):
        roles = words("zh", "person_roles")
        said: list[tuple[str, str]] = []
        for word, tag in pos_tag(stripped):
            if word in words("zh", "third_person"):
                # 我哥 as 我哥哥: a kin word said once is the relative too.
                return not any(
                    flag in _PERSON_NAME_TAGS or before in roles or before * 2 in roles for before, flag in said
                )
            said.append((word, tag))
        return False
    found = _EN_OPENING_WORD.findall(stripped)
    pronouns = words("en", "third_person_pronouns") | {"his", "her", "hers"}
    for position, word in enumerate(found):
        if word.casefold() in pronouns:
            earlier = found[:position]
            # A name: capitalised where a sentence does not need it (or a known given name), no acronym (ER).
            named = any(
                other[:1].isupper() and other != "I" and not other.isupper() and (at or guess_type(other) == PERSON)
                for at, other in enumerate(earlier)
            )
            return not named and not any(other.casefold() in words("en", "person_roles") for other in earlier)
    return False
