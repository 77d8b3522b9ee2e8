"""Filters that keep non-facts out of memory: hypotheticals, metaphors, emotions, chit-chat.

The quintuple-memory design asks the Reader not to store "如果我有钱就买房",
"他像一头牛一样壮" (or "我的老板简直就是一座火山"), "我今天好开心" or "谢谢", and questions are not statements
either. Dreams ("我梦见自己住在巴黎", "I dreamt I was a pilot") and jokes ("开玩笑的",
"just kidding", "jk") state nothing about the world either; a joke marker also
takes back the sentence before it (``language.extract``). Wishes (希望, 想要,
"I want to") are dropped clause by clause by the readers, since the rest of the
sentence may still be a fact. Each check is conservative: an emotion verb with an
object ("我很喜欢吃西红柿", "I love sushi") is a preference and therefore a fact,
so it passes.
"""

from __future__ import annotations

import re

from elephant_broker.language import types as _types
from elephant_broker.language.english import expand_contractions
from elephant_broker.language.lexicon import Language, words
from elephant_broker.language.segment import cut, has_cjk

# The vocabulary lives in language/data/<language>.toml (``language.lexicon``); the regular
# expressions here are the grammar that joins it.


def _one_of(language: Language, name: str, suffix: str = "") -> str:
    """The words of a lexicon as a regex alternation, longest first, each followed by ``suffix``."""
    return "|".join(re.escape(word) + suffix for word in sorted(words(language, name), key=lambda w: (-len(w), w)))


# --- questions ---------------------------------------------------------------
_EN_WH = re.compile(
    r"^(?:" + _one_of("en", "question_words") + r")\b"
    r"|^(?:" + _one_of("en", "question_auxiliaries") + r")"
    r"\s+(?:" + _one_of("en", "question_subjects") + r")\b",
    re.IGNORECASE,
)
_ZH_QUESTION_START = tuple(words("zh", "question_openers"))
_ZH_QUESTION_END = tuple(words("zh", "question_particles"))
_ZH_QUESTION_TAIL = tuple(words("zh", "question_tails"))

# --- small talk ----------------------------------------------------------------
_ZH_SMALL_TALK = words("zh", "small_talk")
_ZH_SMALL_TALK_LONGEST_FIRST = sorted(_ZH_SMALL_TALK, key=lambda phrase: (-len(phrase), phrase))
_ZH_SMALL_TALK_FILLER = words("zh", "small_talk_fillers")
_ZH_THANKS = tuple(words("zh", "thanks"))
_EN_SMALL_TALK = re.compile(
    r"^(?:good (?:morning|afternoon|evening|night)|"
    r"thanks?(?: you)?(?: (?:so|very) much)?(?: a lot)?|"
    r"see (?:you|ya)(?: later| soon| tomorrow)?|you'?re welcome|how'?s it going|"
    + _one_of("en", "small_talk")
    + r")(?:\s+(?:"
    + _one_of("en", "small_talk_trailers")
    + r"))*$",
    re.IGNORECASE,
)

# --- hypotheticals -------------------------------------------------------------
_ZH_HYPOTHETICAL = words("zh", "hypothetical_markers")
_EN_HYPOTHETICAL = re.compile(
    r"\b(?:" + _one_of("en", "hypothetical_markers") + r")\b"
    r"|\b(?:would|could|should|might|must)(?: not|n't)? have\b",
    re.IGNORECASE,
)

# --- dreams and jokes ------------------------------------------------------------
_ZH_DREAM = re.compile(_one_of("zh", "dream_markers"))
_EN_DREAM = re.compile(
    r"\b(?:dreamt|dreamed|dreaming)\b|\bdreams? (?:of|about|that)\b|\bin (?:my|a|his|her|their|our) dreams?\b",
    re.IGNORECASE,
)
_ZH_JOKE = re.compile(r"(?<!不)(?<!不是)(?<!没)(?<!没有)(?:" + _one_of("zh", "joke_markers") + r")")
_EN_JOKE = re.compile(
    r"(?<!not )(?<!n't )(?<!no )\b(?:just |only )?(?:kidding|joking)\b|\bjk\b|\bj/k\b",
    re.IGNORECASE,
)

# --- metaphors and similes ------------------------------------------------------
_ZH_METAPHOR = re.compile(
    r"像.{1,15}(?:一样|一般|似的)|简直(?:就)?(?:是|像)|跟.{1,10}似的|个.{1,8}似的|"
    + _one_of("zh", "simile_markers")
    + r"|是(?:一|个|一个|一头|一只|一条|一台|一颗|一座)?(?:"
    + _one_of("zh", "metaphor_nouns")
    + r")(?:$|[，。！!,])"
)
# Figurative vehicles: "X是一座火山" is a metaphor when X is a person or a workplace-like
# thing (我的老板, 办公室, 这份工作); 富士山是一座火山 / 楼下是菜市场 stay literal. The
# figurative-only ones (噩梦, 定时炸弹) are metaphors whatever the subject.
_ZH_VEHICLE = re.compile(
    r"^(?P<subject>.*?)(?:简直|真的|真|就|完全|根本|整个|简直就)*(?:是|成了|变成了?)"
    r"(?:一|个|一个|一座|一场|一颗|一枚|一只|一片|一台|一头|一口)?"
    r"(?P<vehicle>" + _one_of("zh", "figurative_vehicles") + r")"
    r"(?:$|[，。！!,])"
)
_ZH_FIGURATIVE_ONLY = words("zh", "figurative_only")
_ZH_FIGURATIVE_SUBJECTS = tuple(words("zh", "figurative_subjects"))
_EN_METAPHOR = re.compile(
    r"\b(?:is|are|was|were|'s|'re|am)\s+(?:like|as)\s+(?:a|an|the)\b"
    r"|\bas\s+\w+\s+as\s+(?:a|an)\b"
    r"|\b(?:is|are|was|were|'s|'re|am)\s+(?:a|an|my|our|the)\s+(?:\w+\s+)?"
    r"(?:" + _one_of("en", "metaphor_vehicles") + r")\b"
    # "a nightmare" only as a verdict: "I had a nightmare" is an event, not a metaphor.
    r"|\b(?:is|are|was|were|'s|'re|am)\s+(?:a|an)\s+(?:total\s+|complete\s+|absolute\s+|real\s+|living\s+)?"
    r"nightmare\b"
    r"|\b(?:like a|like an)\s+\w+\s*$",
    re.IGNORECASE,
)

# --- pure emotions ------------------------------------------------------------------
_ZH_EMOTION_WORDS = words("zh", "emotion_words")
_ZH_EMOTION_FILLER = words("zh", "emotion_fillers")
# Characters jieba may glue to an emotion word ("好开心", "累死"): peeled off (str.strip takes them as a set).
_ZH_EMOTION_PREFIXES = "".join(sorted(words("zh", "emotion_degree_prefixes")))
_ZH_EMOTION_SUFFIXES = "".join(sorted(words("zh", "emotion_suffixes")))
_EN_EMOTION = re.compile(
    r"^(?:(?:i|we|he|she|they)\s+(?:am|'m|are|'re|is|'s|was|were|feel|feels|felt)"
    r"(?:\s+(?:" + _one_of("en", "emotion_degrees") + r"))*\s+)?"
    r"(?:" + _one_of("en", "emotion_states") + r")"
    r"(?:\s+(?:" + _one_of("en", "emotion_times") + r"))?$"
    r"|^(?:" + _one_of("en", "stretched_interjections", "+") + "|" + _one_of("en", "interjections") + r")(?:\s+\w+)?$",
    re.IGNORECASE,
)

_STRIP = " \t\r\n。！？!?.,，、；;：:~～…\"'“”‘’()（）[]【】"


def _is_question(sentence: str, zh: bool) -> bool:
    raw = sentence.rstrip(" \t。.!！~～…")
    if raw.endswith(("?", "？")):
        return True
    text = sentence.strip(_STRIP)
    if zh:
        return (
            text.endswith(_ZH_QUESTION_END) or text.startswith(_ZH_QUESTION_START) or text.endswith(_ZH_QUESTION_TAIL)
        )
    return bool(_EN_WH.match(text))


def _is_small_talk(text: str, zh: bool) -> bool:
    if zh:
        rest = text
        for phrase in _ZH_SMALL_TALK_LONGEST_FIRST:
            if rest.startswith(phrase):
                rest = rest[len(phrase) :].strip(_STRIP)
                break
        else:
            return False
        # Thanks followed by a short object ("谢谢你的帮助") is still politeness.
        if text.startswith(_ZH_THANKS):
            return len(rest) <= 8
        return all(ch in _ZH_SMALL_TALK_FILLER for ch in rest) or rest in _ZH_SMALL_TALK
    return bool(_EN_SMALL_TALK.match(text))


def _is_emotion(text: str, zh: bool) -> bool:
    if not zh:
        return bool(_EN_EMOTION.match(expand_contractions(text)))
    words = [w for w in cut(text) if w.strip(_STRIP)]
    if not words:
        return False
    has_emotion = False
    for word in words:
        if word in _ZH_EMOTION_FILLER:
            continue
        # jieba may glue a degree word to the emotion ("好开心", "太难过"): peel it.
        core = word.lstrip(_ZH_EMOTION_PREFIXES).rstrip(_ZH_EMOTION_SUFFIXES)
        if word in _ZH_EMOTION_WORDS or core in _ZH_EMOTION_WORDS:
            has_emotion = True
            continue
        return False
    return has_emotion


def _zh_figurative(text: str) -> bool:
    """我的老板是一座火山 / 办公室就是个动物园: a figurative vehicle said of a person or workplace."""
    match = _ZH_VEHICLE.search(text)
    if match is None:
        return False
    if match.group("vehicle") in _ZH_FIGURATIVE_ONLY:
        return True
    subject = match.group("subject").rstrip("的")
    if not subject:
        return False
    return (
        subject.endswith(_ZH_FIGURATIVE_SUBJECTS)
        or any(subject.endswith(role) for role in _types.PERSON_ROLES if has_cjk(role))
        or _types.looks_like_zh_person(subject)
    )


def is_non_factual(sentence: str) -> str | None:
    """Say why a sentence states no fact, or None when it may state one.

    Args:
        sentence: One sentence (the extractor splits texts first).

    Returns:
        ``"question"``, ``"small_talk"``, ``"hypothetical"``, ``"dream"``,
        ``"joke"``, ``"metaphor"`` or ``"emotion"``; None when the sentence should
        go on to extraction.
    """
    text = sentence.strip(_STRIP)
    if not text:
        return "small_talk"
    zh = has_cjk(text)
    # Small talk first: "在吗" / "How are you?" are greetings more than questions.
    if _is_small_talk(text, zh):
        return "small_talk"
    if _is_question(sentence, zh):
        return "question"
    if zh:
        if any(word in _ZH_HYPOTHETICAL for word in cut(text)):
            return "hypothetical"
    elif _EN_HYPOTHETICAL.search(text):
        return "hypothetical"
    if (_ZH_DREAM if zh else _EN_DREAM).search(text):
        return "dream"
    if (_ZH_JOKE if zh else _EN_JOKE).search(expand_contractions(text) if not zh else text):
        return "joke"
    if (_ZH_METAPHOR if zh else _EN_METAPHOR).search(text) or zh and _zh_figurative(text):
        return "metaphor"
    if _is_emotion(text, zh):
        return "emotion"
    return None
