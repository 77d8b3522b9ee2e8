"""Answer kinds and answer spans: what a question asks for, and where a sentence says it.

``question_kind`` names the kind of answer a question wants when the entity types of the
question analysis do not (a Number, a Name, a State). ``answer_spans`` finds the parts of a
sentence that are answers of a kind: times and numbers by the patterns of
``language/data/answers.toml``; people, places, organisations and names as proper names —
capitalised word runs in English, the words jieba tags as names in Chinese. The patterns
are data with examples that run as tests (``tests/unit/test_answer_spans.py``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from elephant_broker.language import english as en
from elephant_broker.language.lexicon import data_file
from elephant_broker.language.names import is_mentioned
from elephant_broker.language.relations import relation_words
from elephant_broker.language.segment import pos_tag
from elephant_broker.language.types import gazetteer_type

NUMBER = "Number"
NAME = "Name"
STATE = "State"
REASON = "Reason"
CONNECTION = "Connection"
CLAUSE_KINDS = frozenset({STATE, REASON})
"""Kinds answered by a clause, never by an entity."""
NAMED_KINDS = frozenset({"Person", "Place", "Organization", NAME})
"""Kinds answered by a proper name."""
# jieba's name tags, by the kinds of answer they can be.
_ZH_NAME_TAGS = {
    "Person": frozenset({"nr", "nrfg", "nrt"}),
    "Place": frozenset({"ns"}),
    "Organization": frozenset({"nt", "nz", "ns"}),
    NAME: frozenset({"nr", "nrfg", "nrt", "nz"}),
}
_EN_NAME_RUN = re.compile(r"\b[A-Z][\w'’&.-]*(?:\s+(?:of |de |van |von |the )?[A-Z][\w'’&.-]*)*")


def _data() -> dict[str, Any]:
    return data_file("answers.toml")


@functools.cache
def _word_set(table: str, language: str) -> frozenset[str]:
    return frozenset(_data()[table][language])


@functools.cache
def _kind_patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    table = _data()["kinds"][language]
    return tuple(
        (re.compile(pattern, re.IGNORECASE), kind)
        for kind, patterns in table.items()
        if kind not in ("doc", "examples")
        for pattern in patterns
    )


@functools.cache
def _span_patterns(language: str, kind: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in _data()["spans"][language].get(kind, ()))


def is_kind_noun(word: str, language: str) -> bool:
    """Whether a question word names the kind of answer wanted (city, time, 名字) rather than its topic."""
    return word.casefold() in _word_set("kind_nouns", language)


def is_light_word(word: str, language: str) -> bool:
    """Whether a question word is too general to tie a fact to the question (get, 有)."""
    return word.casefold() in _word_set("light_words", language)


_EN_ANY_NAME = r"[A-Z][\w'’-]*"


@functools.cache
def _addressing(name: str | None, language: str) -> re.Pattern[str]:
    """Where a sentence speaks to someone by name: ``name``, or (``None``, English) any capitalised word."""
    openers = "|".join(
        re.escape(word) for word in sorted(_word_set("address_openers", language), key=len, reverse=True)
    )
    spoken_to = rf"(?i:{re.escape(name)})" if name else _EN_ANY_NAME
    # At the start, after greetings or thanks ("Hey Mel!", "Thanks, Mel,"), or said alone when the
    # name is known ("Mel, look"); or after a comma at the very end ("Great news, Mel!").
    lead = "{0,2}" if name else "{1,2}"
    return re.compile(
        rf"^\W*(?:(?i:{openers})[\s,，!！]*){lead}{spoken_to}\s*(?:[,，!！?？.。:：~]+\s*|$)"
        rf"|[,，]\s*{spoken_to}\s*[!！?？.。~]*\s*$"
    )


def is_said_of(name: str, sentence: str, language: str) -> bool:
    """Whether a sentence names someone other than only by speaking to them ("Hey Mel!" is not about Mel)."""
    if not is_mentioned(name, sentence):
        return False
    return is_mentioned(name, _addressing(name, language).sub(" ", sentence))


def addresses_someone(sentence: str, language: str) -> bool:
    """Whether a sentence speaks to someone by name ("That sounds great, Mel!", "Hey Jo, ...")."""
    return language == "en" and _addressing(None, language).search(sentence) is not None


def without_address(sentence: str, language: str) -> str:
    """A sentence without the name it is said to ("Hey Jo, I moved" -> "I moved"); unchanged in Chinese."""
    if language != "en":
        return sentence
    return _addressing(None, language).sub("", sentence).strip() or sentence


def asks_about_now(question: str, language: str) -> bool:
    """Whether a question asks how things are now (目前在哪上班, "which gym do I go to these days")."""
    folded = question.casefold()
    markers = _word_set("present_markers", language)
    if language == "zh":
        return any(marker in folded for marker in markers)
    return any(re.search(rf"\b{re.escape(marker)}\b", folded) for marker in markers)


_CLOCK = re.compile(r"\d{1,2}[:：]\d{2}|[\d一二三四五六七八九十两]点|\b\d{1,2}\s*(?i:am|pm)\b|\bnoon\b|\bmidnight\b")


def calls_old(sentence: str, question: str, keywords: Sequence[str], language: str) -> bool:
    """Whether a sentence calls what the question asks about old (old work email, 旧号), and the question does not."""
    markers = _word_set("old_markers", language)
    if language == "zh":
        said_old = [marker for marker in markers if marker in question]
        return not said_old and any(
            re.search(rf"{re.escape(marker)}.{{0,3}}{re.escape(word[:2])}", sentence)
            for marker in markers
            for word in keywords
            if len(word) >= 2
        )
    folded_question = question.casefold()
    if any(re.search(rf"\b{re.escape(marker)}\b", folded_question) for marker in markers):
        return False
    folded = sentence.casefold()
    return any(
        re.search(rf"\b{re.escape(marker)}\s+(?:[a-z]+\s+){{0,2}}{re.escape(word.casefold())}", folded)
        for marker in markers
        for word in keywords
    )


_ZH_QUESTION_WORDS = ("什么", "啥", "哪", "谁", "几")
_EN_ASKED_VERB = re.compile(
    r"^\s*(?:what|which)(?:\s+[a-z]+)?\s+(?:do|does|did)\s+(?:i|you|we|he|she|they|[A-Z]\w+)\s+"
    r"(?:usually |often |always |normally |still |now )?(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)


def asked_verb(question: str, language: str) -> str | None:
    """The verb a "what do I drink?" / 听什么歌 question asks the object of, unless too general (do, 干)."""
    if language == "zh":
        tagged = pos_tag(question)
        at = next((i for i, (word, _) in enumerate(tagged) if word.startswith(_ZH_QUESTION_WORDS)), None)
        verb = next((word for word, tag in reversed(tagged[:at]) if tag.startswith("v")), None) if at else None
    else:
        match = _EN_ASKED_VERB.match(question)
        verb = en.lemma(match.group("verb").casefold()) if match else None
    return None if verb is None or is_light_word(verb, language) else verb


def continues_previous(text: str, language: str) -> bool:
    """Whether a turn opens by going on from the one before ("then …", 然后…)."""
    opening = text.strip().casefold()
    openers = _word_set("continuation_openers", language)
    if language == "zh":
        return opening.startswith(tuple(openers))
    return any(re.match(rf"{re.escape(opener)}\b", opening) for opener in openers)


def asks_for_clock(question: str, language: str) -> bool:
    """Whether a question asks for a clock time (几点, "what time"), not only a day."""
    return any(re.search(pattern, question, re.IGNORECASE) for pattern in _data()["clock_questions"][language])


def has_clock(span: str) -> bool:
    """Whether a time span holds a clock time (六点半, 7:05, 3 pm)."""
    return _CLOCK.search(span) is not None


_FUNCTION_TAGS = frozenset({"x", "u", "ul", "uj", "uz", "ug", "uv", "ud", "y", "p", "c", "r", "v", "m", "q"})


def category_word(question: str, language: str) -> str | None:
    """The class a question names right after its question word (car in "what car", 乐器 in 什么乐器)."""
    table = _data()["category_words"]
    if language != "zh":
        for pattern in table["en"]:
            match = re.search(pattern, question, re.IGNORECASE)
            if match and match.group("noun").casefold() not in en.STOPWORDS:
                return match.group("noun").casefold()
        return None
    for opener in sorted(table["zh"], key=len, reverse=True):
        at = question.find(opener)
        if at == -1:
            continue
        following = pos_tag(question[at + len(opener) :])
        # Any content word: jieba tags some nouns oddly (相机 as an adverb).
        if following and following[0][1] not in _FUNCTION_TAGS:
            return following[0][0]
        return None
    return None


def question_kind(question: str, language: str) -> str | None:
    """Return Number, Name, State, Reason or Connection when the question asks for one, else None."""
    for pattern, kind in _kind_patterns(language):
        if pattern.search(question):
            return kind
    return None


def answer_spans(sentence: str, kind: str, language: str) -> list[str]:
    """Return the spans of ``sentence`` that are answers of ``kind``, longest first.

    For a Name, what a naming word introduces comes before every other span.

    Times and numbers come from the kind's patterns; people, places, organisations and
    names are proper names. Other kinds have no spans (a State is answered by the
    sentence itself).
    """
    named: list[str] = []
    if kind in NAMED_KINDS:
        found = _zh_names(sentence, kind) if language == "zh" else _en_names(sentence)
        # What a naming word introduces is a name for certain (叫邵欣怡); a tagger's guess
        # (萨克斯 tagged as a's name) comes after it. For a person, place or organisation it is
        # the name of the thing before the naming word (新公司叫蓝帆科技), which is no name itself.
        named = named_after_naming_word(sentence, language)
        if kind == NAME:
            found.extend(named)
        elif named:
            named = [name for name in named if _is_proper(name, language)]
            found = [span for span in found if not _before_naming_word(span, sentence, language)] + named
    else:
        # A pattern's group "span" is the answer when it has one (一台 | 电钢琴).
        found = [
            (match.group("span") if "span" in pattern.groupindex else match.group(0)).strip()
            for pattern in _span_patterns(language, kind)
            for match in pattern.finditer(sentence)
        ]
    spans = [span for span in dict.fromkeys(found) if span]
    # A span inside a longer one is the same answer cut short.
    kept = [span for span in spans if not any(span != other and span in other for other in spans)]
    # Named spans first, then names a gazetteer knows to be of the kind (大连, not the tagger's 离海).
    return sorted(kept, key=lambda span: (span in named, gazetteer_type(span) == kind, len(span)), reverse=True)


_FIRST_PERSON_WORDS = frozenset({"I", "I'm", "I've", "I'd", "I'll"})


def _en_names(sentence: str) -> list[str]:
    names = []
    for match in _EN_NAME_RUN.finditer(sentence):
        words = match.group(0).split()
        # A sentence's first word and "I" are capitalised without being names.
        while words and (words[0].casefold() in en.STOPWORDS or words[0] in _FIRST_PERSON_WORDS):
            words = words[1:]
        while words and words[-1] in _FIRST_PERSON_WORDS:
            words = words[:-1]  # "called Marisa I think": the name ends before "I"
        if words:
            names.append(" ".join(words).rstrip(".'’"))
    return names


def _is_proper(name: str, language: str) -> bool:
    """Whether a name a naming word introduced is a proper name (蓝帆科技, Orbis), not a common word (猫)."""
    if language != "zh":
        return name[:1].isupper()
    return len(name) >= 2 and not any(tag.startswith(("v", "r", "a", "d")) for _, tag in pos_tag(name)[:1])


def _before_naming_word(span: str, sentence: str, language: str) -> bool:
    """Whether a span is what a naming word right after it names (新单位 in 新单位叫…)."""
    at = sentence.find(span)
    if at == -1:
        return False
    after = sentence[at + len(span) :].lstrip()
    return any(after.casefold().startswith(word.casefold()) for word in relation_words("naming", language))


def named_after_naming_word(sentence: str, language: str) -> list[str]:
    """The word a naming word introduces: 叫 + 年糕, named + Pepper — a name even when a common word."""
    if language == "zh":
        # Found in the text, not among jieba's words: it glues 猫叫 into one.
        names = []
        for entry in sorted(relation_words("naming", "zh"), key=len, reverse=True):
            start = sentence.find(entry)
            if start == -1:
                continue
            # The name runs to the clause's end (旺财, which jieba splits), when that is short.
            rest = _CLAUSE_END.split(sentence[start + len(entry) :], maxsplit=1)[0].strip()
            words = [word for word, _tag in pos_tag(rest)] if len(rest) > _MAX_ZH_NAME else [rest]
            if words and _is_word(words[0]):
                names.append(words[0])
        return names
    tokens = sentence.split()
    folded = [token.casefold() for token in tokens]
    found = []
    for entry in relation_words("naming", "en"):
        words = entry.split()
        for i in range(len(tokens) - len(words)):
            if folded[i : i + len(words)] == words and folded[i + len(words)] not in en.STOPWORDS:
                found.append((i + len(words), tokens[i + len(words)].strip(",.;:!?\"'")))
    return list(dict.fromkeys(name for _, name in sorted(found)))


_CLAUSE_END = re.compile(r"[，。,.;；!！?？、\s]")
_MAX_ZH_NAME = 6


def _is_word(word: str) -> bool:
    return any(ch.isalnum() for ch in word)


def _zh_names(sentence: str, kind: str) -> list[str]:
    tags = _ZH_NAME_TAGS[kind]
    names = [word for word, tag in pos_tag(sentence) if tag in tags and len(word) > 1]
    # Latin names inside Chinese text (在 Google 上班) are names too.
    names.extend(_en_names(sentence))
    return names


_LEAD_IN_TAGS = ("f", "d", "v", "u", "p", "c", "y", "r", "x", "ul", "uj", "m")
"""Tags of words that lead into a list without being in it: 里 | 还有 | 了 (a count like 三门 is kept after a colon)."""


def strip_lead_in(text: str, chinese: bool) -> str:
    """Cut the words that lead into what a sentence lists (里还有 | 鸡蛋、西红柿; the | tent, …)."""
    text = text.strip(" ，,：:。.!！")
    if chinese:
        tagged = pos_tag(text)
        start = 0
        while start < len(tagged) - 1 and tagged[start][1] in _LEAD_IN_TAGS:
            start += 1
        return "".join(word for word, _tag in tagged[start:]).strip()
    words = text.split()
    while len(words) > 1 and words[0].casefold() in en.STOPWORDS:
        words = words[1:]
    return " ".join(words)
