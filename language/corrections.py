"""Corrections and additions: a turn that takes back, or adds to, what its speaker just said.

"不对，是21楼" after "我家住12楼" means 我家住21楼 — and no longer 12楼. ``find_correction``
recognises the construction (patterns in ``language/data/corrections.toml``, with examples
that run as tests) and gives the new value and, when said, the old one.
``corrected_statement`` rewrites the previous turn with the new value in place of the old
one — or, when the old one is not said, in place of the previous turn's last span of the
same kind (a number for a number, a name for a name, a time for a time). The Reader reads
that statement instead of the correction's own words, and the previous turn's facts about
the old value as denied, so the old fact is retired through the conflict path.

An addition ("oh and kiwis too", 还有猕猴桃, ``language/data/additions.toml``) names one more
item and no verb: ``find_addition`` gives the item, and ``added_statement`` says the previous
turn again with the item in place of the object it named last ("I'm allergic to hazelnuts" ->
"I'm allergic to kiwis"), read beside the previous turn's facts, not instead of them.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from elephant_broker.language import english
from elephant_broker.language.answer_spans import NAME, NUMBER, answer_spans
from elephant_broker.language.lexicon import data_file, words
from elephant_broker.language.segment import detect_language, pos_tag


@dataclass(frozen=True)
class Correction:
    """What a correction says: the right value, and the wrong one when it names it."""

    new: str
    old: str | None = None


@functools.cache
def _patterns(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in data_file("corrections.toml")[language]["patterns"])


def find_correction(text: str) -> Correction | None:
    """Return the correction a turn makes, or None when it makes none.

    A pattern of ``corrections.toml`` reads the construction; failing that, a turn that opens
    with a correction signal ("sorry typo", "correction —", 打错了) and then gives a value (a
    time, a number or code, a name) corrects to that value, and "not Y" / 不是Y names the old one.
    """
    language = "zh" if detect_language(text) == "zh" else "en"
    for pattern in _patterns(language):
        match = pattern.search(text)
        if match:
            new = _clean(match.group("new"))
            old = _clean(match.groupdict().get("old") or "")
            if new and new != old:
                return Correction(new, old or None)
    return _signalled_value(text, language)


def _signalled_value(text: str, language: str) -> Correction | None:
    """The value a turn opening with a correction signal gives, and the one it says it is not."""
    signal = _signal(language).search(text)
    if signal is None:
        return None
    rest = text[signal.end() :]
    if language == "en" and re.match(r"\s+to\b", rest):
        return None  # "I meant to call her yesterday": what was intended, nothing taken back
    denied = _denial(language).search(rest)
    said = rest[: denied.start()] if denied else rest
    values = [
        (said.find(span), span)
        for kind in ("Time", NUMBER)
        for span in answer_spans(said, kind, language)
        if said.find(span) >= 0
    ]
    if not values and language == "en" and (named := _EN_NAME_GIVEN.search(said)):
        # "correction — it's Marisol lol": a name said as what it is.
        values = [(named.start("name"), named.group("name"))]
    if not values:
        return None
    at, new = min(values, key=lambda found: (found[0], -len(found[1])))
    lead = _signal(language).sub("", said[:at]) if language == "zh" else ""
    # 其实是这样的，他明天来: the value must follow the signal (其实是九月初九, 打错了，应该是C305), or be
    # what something now is (不对，前天刚换过，现在是 X).
    if language == "zh" and len(re.sub(r"[\s，,：:。！!~是应该我了]", "", lead)) > 2 and not _NOW_IS.search(lead):
        return None
    old = None
    if denied:
        olds = [span for kind in ("Time", NUMBER) for span in answer_spans(denied.group("old"), kind, language)]
        olds = olds or answer_spans(denied.group("old"), NAME, language)  # "it's Marisol, not Marisa"
        old = max(olds, key=len) if olds else None
    return Correction(_clean(new), old if old != new else None)


_NOW_IS = re.compile(r"[，,]\s*(?:现在|如今|新的|已经)(?:是|为|改成了?|换成了?)\s*$")

_EN_NAME_GIVEN = re.compile(
    r"^\W*(?:(?:it|that|he|she)(?:'s| is| was)|its|(?:the |his |her )?name(?:'s| is))"
    r"\s+(?P<name>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
)


@functools.cache
def _signal(language: str) -> re.Pattern[str]:
    signals = "|".join(
        sorted(map(re.escape, data_file("corrections.toml")[language]["signals"]), key=len, reverse=True)
    )
    if language == "zh":
        # The signal opens the turn, or follows a short lead-in (稍等，刚才输错了 / 老师刚通知，改成…).
        return re.compile(rf"^\W{{0,3}}(?:[^。！!？?]{{0,7}}?)(?:{signals})")
    return re.compile(rf"(?i)^\W{{0,3}}(?:\w+[,!.]?\s+){{0,2}}?(?:{signals})\b[,!.:;—–-]*")


@functools.cache
def _denial(language: str) -> re.Pattern[str]:
    if language == "zh":
        return re.compile(r"[，,]?\s*(?:而)?不是(?P<old>[^，。,；;！!？?]{1,20})")
    return re.compile(r"(?i),?\s+not (?:the )?(?P<old>[^,;!?]{1,30}?)(?:[.,;!?](?:\s|$)|$)")


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
        # 555-0142 is one value: its parts 555 and 0142 are no candidates of their own.
        spans = [span for span in spans if not any(span != other and span in other for other in spans)]
        if not spans:
            return None
        # A value of the same shape as the new one (the 16th for the 14th, not 10am), else the last one said.
        old = max(spans, key=lambda span: (same_shape(span, correction.new), previous.rfind(span)))
        if old.casefold().startswith("the ") and not correction.new.casefold().startswith("the "):
            old = old[4:]  # "the 14th" -> "the 16th": the article stays
        elif len(old) > len(correction.new) and _shape(old).endswith(_shape(correction.new)):
            old = old[-len(correction.new) :]  # 农历九月初八 -> 九月初九: the qualifier stays
    start = previous.rfind(old)
    return previous[:start] + correction.new + previous[start + len(old) :], old


@functools.cache
def _addition_patterns(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in data_file("additions.toml")[language]["patterns"])


def find_addition(text: str) -> str | None:
    """Return the item a turn adds to what was just said ("oh and a fern too": a fern), None for other turns.

    The item must be a noun phrase: a verb or a pronoun in it makes the turn a statement of its own
    ("and I started Italian too").
    """
    language = "zh" if detect_language(text) == "zh" else "en"
    for pattern in _addition_patterns(language):
        match = pattern.search(text)
        if match is None:
            continue
        item = _clean(match.group("new"))
        if language == "zh":
            item = _ZH_COUNT.sub("", item)  # 还有一本英语小说: the count is no part of the item
        else:
            item = re.sub(r"(?i)^(?:[a-z]+ly\s+)+", "", item)  # "and apparently latex too": the adverb says how sure
        if item and not _says_something(item, language):
            return item
    return None


_ZH_COUNT = re.compile(
    r"^[一两二三四五六七八九十几\d]+(?:"
    + "|".join(sorted({*words("zh", "bare_measures"), *"门位种样份袋盏支顶包罐桶块"}, key=len, reverse=True))
    + ")"
)


def find_additions(text: str) -> list[str]:
    """Every item a turn adds, one per sentence ("also shellfish. and latex too"), in order; [] for other turns."""
    first = find_addition(text)
    if first is None:
        return []
    items = [first]
    for sentence in _SENTENCE_BREAK.split(text)[1:]:
        item = find_addition(sentence)
        if item is not None and item not in items:
            items.append(item)
    return items


_SENTENCE_BREAK = re.compile(r"(?<=[.!?。！？])\s*")


def _says_something(phrase: str, language: str) -> bool:
    """Whether a phrase holds a verb or a pronoun: a clause, no item."""
    if language == "zh":
        # 退烧贴, 交物业费: a verb before the noun it ends in names an item (a thing, a to-do);
        # a pronoun, a verb at the end or one marked done (去了北京) makes a clause.
        tagged = pos_tag(phrase)
        return (
            any(flag.startswith("r") for _, flag in tagged)
            or bool(tagged and tagged[-1][1].startswith("v"))
            or any(
                flag.startswith("v") and following in ("了", "过", "着")
                for (_, flag), (following, _) in itertools.pairwise(tagged)
            )
        )
    previous = ""
    for word in english.words(phrase):
        lowered = word.casefold()
        if previous in {"also", "still", "just", "now", "really"} and english.is_verb(lowered):
            return True  # "Ravi also plays squash": a verb after an adverb makes a clause
        previous = lowered
        if lowered in english.PRONOUNS or lowered.removesuffix("'s") in english.POSSESSIVES:
            return True
        if lowered in english.BE_FORMS | english.DO_FORMS | english.HAVE_FORMS:
            return True  # "Ravi also does karate": a clause of its own
        classes = english.word_classes(lowered)
        if "VERB" in classes and "NOUN" not in classes and "ADJ" not in classes:
            return True
    return False


def added_statement(previous: str, item: str, objects: list[str]) -> str | None:
    """Return the previous turn saying the added item in place of its first object; None when none is in it.

    ``objects`` are the objects of the previous turn's facts, in order; the first is what its
    main verb took ("I have a cactus in the kitchen": the cactus, not the kitchen). The
    item's article is left to the previous turn's own.
    """
    said = next((obj for obj in objects if obj and obj in previous and obj != item), None)
    if said is None:
        return None
    start = previous.find(said)
    return previous[:start] + without_article(item) + previous[start + len(said) :]


def without_article(phrase: str) -> str:
    """The phrase without a leading English article ("a little fern" -> "little fern")."""
    return re.sub(r"(?i)^(?:a|an|the|some)\s+", "", phrase)


def _kinds_of(value: str, language: str) -> list[str]:
    """The kinds a value can be of, to find what it replaces: a time, a number, a name."""
    kinds = [kind for kind in ("Time", NUMBER, NAME) if value in answer_spans(value, kind, language)]
    return kinds or [NAME]


def same_shape(value: str, other: str) -> bool:
    """Whether two values are written alike, numerals aside (12th ~ 15th, 九月初八 ~ 九月初九; not 今天).

    A value restated without its qualifier is alike too (农历九月初八 ~ 九月初九).
    """
    shapes = sorted((_shape(value), _shape(other)), key=len)
    return shapes[0] == shapes[1] or ("9" in shapes[0] and shapes[1].endswith(shapes[0]))


def _shape(value: str) -> str:
    """A value's shape: its numerals as 9 ("16th" and "14th" are alike, "10am" is not; 5836 and 5863 are)."""
    return re.sub(r"[\d一二三四五六七八九十百千零两]+", "9", value.casefold().removeprefix("the "))


def _clean(value: str) -> str:
    # "lanlan2021 😂": an emoji or symbol after the value is no part of it.
    value = _TRAILING_SYMBOLS.sub("", value.strip())
    return value.strip().strip("\"'“”‘’「」").strip()


_TRAILING_SYMBOLS = re.compile(r"[\s\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+$")
