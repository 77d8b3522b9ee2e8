"""Facts read back as sentences, the way the Answerer cites them.

A stored fact is (subject, surface predicate, object, negated); pasted together it can
read badly — "Paul not is vegetarian", 小赵工作腾讯, "Jake dog Biscuit". These rules
write it the way a person would: the negation where the language puts it, a place
before the verbs that take one (在腾讯工作), a role noun as a possessive (Jake's dog is
Biscuit, 小何的老家是长沙), and the link to an unnamed role as having one (小吴有儿子).
"""

from __future__ import annotations

import re

from elephant_broker.language.english import (
    PREPOSITIONS,
    STOPWORDS,
    VERB_BASES,
    is_base_verb,
    lemma,
    third_person,
    word_classes,
)
from elephant_broker.language.lexicon import words
from elephant_broker.language.segment import pos_tag, word_tag
from elephant_broker.schemas.models import Fact

_COPULAS = frozenset({"is", "are", "was", "were", "am"})
_STATE_RELATIONS = words("en", "state_relations")
_PARTICIPLES = {
    "born": "was", "raised": "was", "headquartered": "is", "based": "is", "located": "is", "married": "is",
    "employed": "is", "named": "is", "called": "is",
}  # fmt: skip
# Chinese verbs that take their place before them: 在腾讯工作, not 工作腾讯.
_ZH_PLACE_VERBS = frozenset({"工作", "上班", "读书", "上学", "念书", "实习", "任教", "就读", "住", "生活"})
# Chinese verbs whose object comes before them after 对: 对尘螨过敏, not 过敏尘螨.
_ZH_TOWARD_VERBS = frozenset({"过敏", "感兴趣", "好奇", "上瘾"})
_MIXED_SCRIPT_BOUNDARY = re.compile(r"(?<=[\u3400-\u9fff])(?=[A-Za-z])|(?<=[A-Za-z])(?=[\u3400-\u9fff])")


def sentence_of(fact: Fact) -> str:
    """Return a stored fact as a short readable statement."""
    return fact_sentence(fact.subject, fact.predicate, fact.object, fact.negated)


def fact_sentence(subject: str, predicate: str, obj: str, negated: bool = False) -> str:
    """Return a fact as a short sentence in the language of its predicate."""
    latin = all(ord(ch) < 0x2E80 for ch in predicate)  # accents too, nothing CJK
    text = _english(subject, predicate, obj, negated) if latin else _chinese(subject, predicate, obj, negated)
    # Space Latin words off from Chinese: 小李精通 Python, not 小李精通Python (numbers stay: 5月18号).
    return _MIXED_SCRIPT_BOUNDARY.sub(" ", text)


def _english(subject: str, predicate: str, obj: str, negated: bool) -> str:
    if obj in (f"{subject}'s {predicate}", f"{subject} {predicate}") and not negated:
        article = "an" if predicate[:1].lower() in "aeiou" else "a"
        return f"{subject} has {article} {predicate}"  # not "Zoe inbox Zoe's inbox"
    if _is_english_noun(predicate):
        return f"{subject}'s {predicate} is {'not ' if negated else ''}{obj}"  # Jake's dog is Biscuit
    if predicate.casefold() in _STATE_RELATIONS:
        predicate = f"is {predicate}"  # Ann is allergic to penicillin, not "Ann allergic to"
    verb, _, rest = predicate.partition(" ")
    if verb in _PARTICIPLES:
        # "born in", "employed by" are passives: Frank Herbert was born in Tacoma.
        predicate = f"{_PARTICIPLES[verb]} {predicate}"
        verb, _, rest = predicate.partition(" ")
    if negated and verb in _COPULAS:
        predicate = f"{verb} not {rest}".strip()  # Paul is not vegetarian
    elif negated:
        predicate = f"does not {lemma(verb)} {rest}".strip()  # Quinn does not use Slack
    elif is_base_verb(verb) and lemma(verb) == verb and subject.casefold() not in STOPWORDS:
        predicate = f"{third_person(verb)} {rest}".strip()  # Ben runs at the park, not "Ben run at"
    return f"{subject} {predicate} {obj}"


def _chinese(subject: str, predicate: str, obj: str, negated: bool) -> str:
    negation = "不" if negated else ""
    if obj == f"{subject}{predicate}" and not negated:
        return f"{subject}有{predicate}"  # the link to 小吴儿子 reads 小吴有儿子
    if predicate in _ZH_PLACE_VERBS:
        return f"{subject}{negation}在{obj}{predicate}"  # 小赵在腾讯工作
    if predicate in _ZH_TOWARD_VERBS:
        return f"{subject}对{obj}{negation}{predicate}"  # 小周对尘螨过敏, 对摄影不感兴趣
    if _is_chinese_noun(predicate):
        return f"{subject}的{predicate}{negation}是{obj}"  # 小何的老家是湖南长沙
    return f"{subject}{negation}{predicate}{obj}"


def _is_english_noun(predicate: str) -> bool:
    """A predicate that is no verb form: a role or attribute (dog, brother, hometown, phone number)."""
    if " " in predicate:
        return _is_english_noun_phrase(predicate.split(" "))
    if predicate.isupper() and predicate.isalpha():
        return True  # CEO, CTO
    if predicate.endswith("s") and not predicate.endswith("ss") or predicate.endswith("ed"):
        return False  # adores, moved: verb forms the lemmatiser does not know
    return predicate.isalpha() and predicate.islower() and lemma(predicate) == predicate and predicate not in VERB_BASES


def _is_english_noun_phrase(words: list[str]) -> bool:
    """Words that name an attribute ("phone number", "gym membership"): no verb form, no preposition, a noun last."""
    if not all(word.isalpha() and word.islower() for word in words):
        return False
    if any(word in PREPOSITIONS or word in STOPWORDS or word.endswith(("ed", "ing")) for word in words):
        return False
    if words[0] in VERB_BASES and "NOUN" not in word_classes(words[0]):
        return False  # "take care", "be into": a verb first
    classes = word_classes(words[-1])
    return not classes or "NOUN" in classes


def _is_chinese_noun(predicate: str) -> bool:
    tag = word_tag(predicate)
    if tag is None and len(predicate) > 2:
        # 女儿生日: a compound of nouns is an attribute too.
        tags = [flag for _word, flag in pos_tag(predicate)]
        return bool(tags) and all(flag[:1] in {"n", "t"} and flag != "nr" for flag in tags)
    return tag is not None and tag[:1] in {"n", "t"} and tag != "nr"
