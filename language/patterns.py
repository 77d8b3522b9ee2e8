"""The offline Reader's construction patterns, kept as data: ``language/data/patterns.toml``.

A pattern is a regular expression over one sentence, written with named macros ({TITLE},
{PEOPLE}, {DATE} ...), whose named groups are the subject and the object of one relation:
the credit constructions of encyclopedic Chinese ("《W》由A执导，B、C领衔主演", "作者是Y"),
appositions ("X，中国国籍"), dates of founding. A group listed in ``lists`` holds several
names and gives one fact per name. Every pattern carries example sentences that run as tests
(``tests/unit/test_lexicon_examples.py``); the engine here holds no vocabulary.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from elephant_broker.language import types as _types
from elephant_broker.language.drafts import Draft
from elephant_broker.language.lexicon import Example, Language, data_file, example_of, words
from elephant_broker.language.occupations import is_occupation
from elephant_broker.language.segment import has_cjk, pos_tag

_MACRO = re.compile(r"\{([A-Z_]+)\}")
_GROUP_REF = re.compile(r"\{([a-z_]+)\}")
"""A group named in a predicate ("{role}"): the predicate is what the group matched."""
_TITLE = re.compile(r"《([^《》\n]{1,40})》")
TITLE_BEFORE = "@title"
"""A subject that is the last 《title》 before the match: "《W》，A作词，B作曲" names W once for every credit."""
_LIST_SEPARATORS = re.compile(r"以及|[、，,和与及]")
_MAX_MACRO_DEPTH = 8


@dataclass(frozen=True)
class Pattern:
    """One construction: where its ends are in a match, what relation it states, and examples."""

    id: str
    language: Language
    regex: re.Pattern[str]
    subject: tuple[str, ...]
    object: tuple[str, ...]
    lists: frozenset[str]
    predicate: str
    subject_type: str
    object_type: str
    confidence: float
    examples: tuple[Example, ...]


@functools.cache
def patterns(language: Language) -> tuple[Pattern, ...]:
    """Return the patterns of a language, compiled.

    Raises:
        ValueError: Naming the pattern whose fields or expression are malformed.
    """
    raw = data_file("patterns.toml")
    macros = {name: str(value) for name, value in raw.get("macros", {}).items()}
    compiled = [_pattern(entry, macros) for entry in raw.get("pattern", [])]
    return tuple(pattern for pattern in compiled if pattern.language == language)


def read_patterns(sentence: str, language: Language) -> list[Draft]:
    """Return a draft for every relation a pattern reads in the sentence (one per name of a list)."""
    drafts: list[Draft] = []
    for pattern in patterns(language):
        for match in pattern.regex.finditer(sentence):
            if pattern.subject == (TITLE_BEFORE,):
                titles = _TITLE.findall(sentence, 0, match.start())
                subjects = titles[-1:]
            else:
                subjects = _names(match, pattern.subject, pattern.lists, language, pattern.subject_type)
            objects = _names(match, pattern.object, pattern.lists, language, pattern.object_type)
            predicate = _predicate(pattern.predicate, match)
            if language == "zh":
                drafts += _places_said(match, (*pattern.subject, *pattern.object))
            for subject in subjects:
                for obj in objects:
                    drafts.append(
                        Draft(
                            subject=subject,
                            predicate=predicate,
                            object=obj,
                            confidence=pattern.confidence,
                            subject_type=pattern.subject_type,
                            object_type=pattern.object_type,
                        )
                    )
    return drafts


def _predicate(template: str, match: re.Match[str]) -> str:
    """The pattern's predicate, a named group ("{role}") replaced by what it matched."""
    return _GROUP_REF.sub(lambda ref: match.group(ref.group(1)) or "", template)


def _names(
    match: re.Match[str], groups: tuple[str, ...], lists: frozenset[str], language: Language, kind: str
) -> list[str]:
    for group in groups:
        value = match.group(group)
        if not value:
            continue
        if group not in lists:
            name = value.strip()
            if language == "zh" and kind == "Person":
                # A group before the pattern's marker (温鹏程之妻) ends with its person: the name
                # nearest the marker is theirs (温氏股份前任董事长温鹏程 -> 温鹏程, not 温氏).
                before_marker = match.end(group) < match.end()
                name = _person_span(name, nearest_end=before_marker)
            elif language == "zh" and not _in_title_marks(match, group):
                name = _without_description(_without_lead(_without_place_modifier(name)))
            return [name] if name else []
        # A list of titles keeps each title's words ("《A》、《B》和《C》"): the marks bound the title.
        parts = [part.strip().removesuffix("等") for part in _LIST_SEPARATORS.split(value)]
        if language == "zh":
            parts = [_zh_list_name(part, kind) for part in parts]
        names = [part.strip("《》") for part in parts]
        return [name for name in names if name]
    return []


def _in_title_marks(match: re.Match[str], group: str) -> bool:
    """Whether a group is a title the sentence writes in 《》: its words are the title's, none to cut."""
    start, end = match.span(group)
    return match.string[start - 1 : start] == "《" and match.string[end : end + 1] == "》"


def _zh_list_name(part: str, kind: str) -> str:
    """One name of a Chinese list: a person's name cut from its span, a 《title》 whole, else no lead."""
    if kind == "Person":
        return _person_span(part, nearest_end=True)  # 台湾导演林合隆: a list's name ends its part
    if part.startswith("《") and part.endswith("》"):
        return part  # 《别逼我结婚》: a title's own words are no lead to cut
    return _without_lead(part)


_FUNCTION_TAGS = ("r", "p", "u", "c", "d", "t")
"""Tags of function words (pronouns, prepositions, particles, conjunctions, adverbs, time words): they open no name.

A verb is not among them: 创新工场 opens with one. It is cut only before a proper name (身为北京…公司).
"""
_PROPER_TAGS = ("nr", "ns", "nt", "nz", "eng")


_PERSON_TAGS = ("nr", "nz")
_TRAILING_TAGS = ("t", "d", "p", "v", "u", "c", "f", "m", "q", "y", "r")
"""Tags of words that follow a name without being part of it: 韩雪宁 | 日前, 林舟 | 表示, 元奎 | 此次."""


def _person_span(text: str, *, nearest_end: bool = False) -> str:
    """Cut a Chinese span to the person's name jieba finds in it ("歌手林舟" -> 林舟, "韩雪宁日前" -> 韩雪宁).

    From the first word tagged a person's name, at most four characters (cut between
    words), without trailing time words, adverbs, verbs and particles (a name jieba
    splits, 周 + 明远, stays whole). A span in which jieba finds no name is kept whole when
    it is a rare name jieba cuts apart (吴忠 + 焕), and is no name ("") when it holds a
    preposition, adverb, particle, conjunction or pronoun: a clause the pattern ran into
    (住在成都).
    """
    if "·" in text or "•" in text or "・" in text:
        return _transliterated_name(text)
    tagged = pos_tag(text)
    named = [index for index, (_, tag) in enumerate(tagged) if tag.startswith(_PERSON_TAGS)]
    people = [index for index in named if tagged[index][1].startswith("nr")]
    between = range(people[0] + 1, people[-1]) if people else range(0)
    if nearest_end and len(people) > 1 and any(not tagged[i][1].startswith(_PERSON_TAGS) for i in between):
        # 董事长温鹏程: other words stand between the names; 伊藤 | 寿浩 is one name.
        last = people[-1]
        if last > 0 and people[-2] == last - 1 and len(tagged[last - 1][0]) == 1:
            last -= 1  # a surname jieba tags alone (周 + 明远) opens the name
        named = [index for index in named if index >= last]
    if named and not tagged[named[0]][1].startswith("nr"):
        # 华语乐坛著名女歌手徐千雅: a description (common nouns, adjectives) before the name is no part of it.
        person = next((index for index in named if tagged[index][1].startswith("nr")), None)
        if person is not None and any(tag in {"n", "a"} for _, tag in tagged[:person]):
            named = [person]
    if not named or not tagged[named[0]][1].startswith("nr"):
        return _unknown_name(tagged)
    before = tagged[named[0] - 1] if named[0] > 0 else ("", "")
    if len(tagged[named[0]][0]) == 2 and before[0] in _types.SURNAMES_ZH and before[1] in {"n", "ng", "nr"}:
        named[0] -= 1  # 马 | 天宇: a surname jieba reads as a common noun opens the name (not 向 | 天宇)
    # At most a name's length, cut between words ("蒋丽莎剖腹生女" -> 蒋丽莎, "吴忠焕执导" -> 吴忠焕) ...
    end = named[0] + 1
    length = len(tagged[named[0]][0])
    while end < len(tagged) and has_cjk(tagged[end][0]) and length + len(tagged[end][0]) <= _LONGEST_NAME:
        if length >= 2 and _is_common_word(tagged[end]):
            break  # 王颖 | 主演: a common noun of its own follows a whole name (王 + 学兵 is one)
        length += len(tagged[end][0])
        end += 1
    # ... without the time words, adverbs, verbs and particles after it ("陈浩民在" -> 陈浩民).
    while end > named[0] + 1 and tagged[end - 1][1].startswith(_TRAILING_TAGS):
        end -= 1
    name = "".join(word for word, _ in tagged[named[0] : end])
    return name if len(name) > 1 else ""  # one character is no one's whole name (石井 | 裕 | 也)


_LONGEST_NAME = 4
"""A Chinese person's name, surname included, is at most four characters (曾鲍笑薇)."""


def _is_common_word(tagged_word: tuple[str, str]) -> bool:
    """A common noun of two characters or more (主演, 理由): after a whole name, a word of its own."""
    word, tag = tagged_word
    return len(word) >= 2 and tag == "n"


def _unknown_name(tagged: list[tuple[str, str]]) -> str:
    """A span with no name jieba knows: kept whole as a rare name (吴忠 + 焕, 木随风), unless it is a clause.

    A clause is a span holding a preposition, adverb, particle, conjunction or pronoun (住在成都);
    a span that says what someone is (女演员, 中国国籍) names nobody either. (One that is only a
    verb may be a name: 连战.)
    """
    if any(tag.startswith(("p", "d", "u", "c", "r")) for _, tag in tagged):
        return ""
    if _describes_someone(tagged):
        return ""
    return "".join(word for word, _ in tagged)


def _describes_someone(tagged: list[tuple[str, str]]) -> bool:
    """Whether a span with no name in it says what someone is: 女演员, 中共党员, 中国影视女演员, 中国国籍.

    Its last word is an occupation or a person's attribute (国籍, 籍贯); a rare name jieba cuts
    apart (吴忠 + 焕) and a body named as an author (杭州饮食旅店业同业公会) end in neither.
    """
    last = tagged[-1][0]
    return is_occupation(last) or len(tagged) > 1 and last in words("zh", "attribute_nouns")


_NAME_DOTS = re.compile(r"[·•・]")


def _transliterated_name(text: str) -> str:
    """A foreign name written with dots (维克·阿姆斯特朗) without the words around it.

    jieba cuts such a name into pieces it tags as anything, so only the function words
    before its first piece (由, 但由, 在) and after its last (等, 推荐理由 stays: a verb may be
    a piece) are cut, by part of speech.
    """
    tagged = pos_tag(text)
    dots = [index for index, (word, _) in enumerate(tagged) if _NAME_DOTS.fullmatch(word)]
    if not dots:
        return text  # a dot jieba glued to a word: no pieces to find the name's edges by
    start = 0
    while start < dots[0] - 1 and tagged[start][1].startswith(_FUNCTION_TAGS):
        start += 1
    end = dots[-1] + 2
    while end < len(tagged) and not tagged[end][1].startswith(("u", "p", "c", "d", "y")):
        end += 1
    return "".join(word for word, _ in tagged[start:end])


def _without_description(text: str) -> str:
    """A name without the description before its 的 (中国八大美院之一的西安美术学院 -> 西安美术学院).

    Only when a proper name follows the 的 and no person precedes it: 张三的公司 is whose.
    """
    before, _, name = text.rpartition("的")
    if not before or len(name) < 2:
        return text
    tagged = pos_tag(name)
    if not tagged[0][1].startswith(("ns", "nt", "nz")):
        return text
    people = words("zh", "first_person") | words("zh", "third_person")
    if any(tag.startswith("nr") or word in people for word, tag in pos_tag(before)):
        return text
    return name


def _without_place_modifier(text: str) -> str:
    """A name without the place said of it before 的 (位于深圳的蓝鲸电子 -> 蓝鲸电子)."""
    return _place_modifier(text)[0]


def _place_modifier(text: str) -> tuple[str, tuple[str, str] | None]:
    """Split 位于深圳的蓝鲸电子 into the name and (verb, place); a text without one is the name."""
    verb = next((verb for verb in words("zh", "place_modifiers") if text.startswith(verb)), None)
    if verb is None or "的" not in text:
        return text, None
    place, name = text[len(verb) :].split("的", 1)
    if len(name) < 2 or not place:
        return text, None
    return name, (verb, place)


def _places_said(match: re.Match[str], groups: tuple[str, ...]) -> list[Draft]:
    """The places a construction's names carry before 的 (位于深圳的蓝鲸电子: 蓝鲸电子 位于 深圳)."""
    found: list[Draft] = []
    for group in groups:
        value = match.group(group) if group in match.re.groupindex else None
        name, placed = _place_modifier(value.strip()) if value else ("", None)
        if placed is not None:
            found.append(Draft(name, placed[0], placed[1], confidence=0.85, object_type="Place"))
    return found


def _without_lead(text: str) -> str:
    """Cut a Chinese span's leading function words (就是, 今日, 那么如今), and a verb before a proper name (身为北京…).

    Only when a proper name is left: 一加科技, 当代集团 and 今日头条公司 open with such a word,
    and the rest (科技, 集团) names nothing. A transliterated name (维克·阿姆斯特朗) is whole:
    jieba cuts it apart.
    """
    if "·" in text or "•" in text:
        return text
    tagged = pos_tag(text)
    start = 0
    while start < len(tagged) - 1 and (
        tagged[start][1].startswith(_FUNCTION_TAGS)
        or (tagged[start][1].startswith("v") and tagged[start + 1][1].startswith(_PROPER_TAGS))
    ):
        start += 1
    if not any(tag.startswith(_PROPER_TAGS) for _, tag in tagged[start:]):
        return text
    return "".join(word for word, _ in tagged[start:])


def _expand(expression: str, macros: dict[str, str]) -> str:
    for _ in range(_MAX_MACRO_DEPTH):
        expanded = _MACRO.sub(lambda found: macros[found.group(1)], expression)
        if expanded == expression:
            return expanded
        expression = expanded
    raise ValueError(f"macros nest deeper than {_MAX_MACRO_DEPTH}: {expression[:80]}")


def _pattern(entry: dict[str, Any], macros: dict[str, str]) -> Pattern:
    name = str(entry.get("id", "?"))
    try:
        regex = re.compile(_expand(str(entry["match"]), macros))
        subject, obj = tuple(str(entry["subject"]).split("|")), tuple(str(entry["object"]).split("|"))
        referenced = _GROUP_REF.findall(str(entry["predicate"]))
        for group in (*subject, *obj, *referenced):
            if group not in regex.groupindex and group != TITLE_BEFORE:
                raise ValueError(f"no group {group!r} in the expression")
        examples = tuple(example_of(example) for example in entry.get("examples", []))
        if not examples:
            raise ValueError("a pattern needs at least one example")
        return Pattern(
            id=name,
            language=entry["language"],
            regex=regex,
            subject=subject,
            object=obj,
            lists=frozenset(entry.get("lists", [])),
            predicate=str(entry["predicate"]),
            subject_type=str(entry["subject_type"]),
            object_type=str(entry["object_type"]),
            confidence=float(entry["confidence"]),
            examples=examples,
        )
    except (KeyError, TypeError, ValueError, re.error) as error:
        raise ValueError(f"pattern {name}: {error}") from error
