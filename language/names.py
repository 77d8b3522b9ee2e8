"""Name normalisation: the exact-match key every entity is stored under.

Two surface forms that differ only in case, full/half width, spacing, punctuation or
a corporate suffix (OpenAI / Open AI / OpenAI公司 / openai inc.) get the same key, so
the Builder merges them without any model. Fuzzier identity (aliases, embeddings, an
LLM) is layered on top of this key, never instead of it.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterable

from elephant_broker.language.script import is_latin_word_char
from elephant_broker.language.segment import tokens
from elephant_broker.schemas.models import Quintuple

logger = logging.getLogger(__name__)

MAX_NAME_CHARS = 200
"""The longest entity name: a longer "name" is a clause, a paste or an attack, not a thing.
Quintuples naming one are dropped before identity resolution (``bounded_names``)."""

# Longest first so "有限责任公司" is stripped before "公司".
CORPORATE_SUFFIXES: tuple[str, ...] = (
    "股份有限公司",
    "有限责任公司",
    "有限公司",
    "集团公司",
    "公司",
    "incorporated",
    "corporation",
    "company",
    "limited",
    "inc",
    "corp",
    "ltd",
    "llc",
    "gmbh",
    "co",
)

_SUFFIX_SET = frozenset(CORPORATE_SUFFIXES)
_LONGEST_SUFFIX = max(map(len, CORPORATE_SUFFIXES))
_PUNCTUATION = re.compile(r"[\s\W_]+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")
_PLUS = re.compile(r"(?<=[a-z0-9+])\s*\+")
_SHARP = re.compile(r"(?<=\b[a-z])#")


@functools.lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """Return the matching key of a surface name (cached: resolution asks for the same names again and again).

    Args:
        name: An entity name as written.

    Returns:
        The NFKC-folded, case-folded name without spaces, punctuation or trailing
        corporate suffixes (stacked ones too: "Zed Corp, Inc." is ``zed``, 华为技术有限
        公司 is 华为技术); a suffix is kept where stripping it would leave nothing or
        only another suffix ("Company Ltd", "Co. Inc."), and the plain folded name is
        returned when nothing else remains.
    """
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    # C++ and C# are not C: spell the symbols out before punctuation goes.
    folded = _SHARP.sub("sharp", _PLUS.sub("plus", folded))
    compact = _PUNCTUATION.sub("", folded)
    words = [word for word in _PUNCTUATION.split(folded) if word]
    # The key is compact[:end]; the last word still in it is words[last][:last_end].
    # Indices, not slices, so a name of thousands of stacked suffixes stays linear.
    end, last = len(compact), len(words) - 1
    last_end = len(words[last]) if words else 0
    while last >= 0:
        suffix = _trailing_suffix(words[last], last_end, is_only_word=last == 0)
        if suffix is None:
            break
        rest = end - len(suffix)
        if rest == 0 or (rest <= _LONGEST_SUFFIX and compact[:rest] in _SUFFIX_SET):
            break
        end, last_end = rest, last_end - len(suffix)
        if last_end == 0:
            last -= 1
            last_end = len(words[last])
    return compact[:end] or folded


def _trailing_suffix(word: str, end: int, is_only_word: bool) -> str | None:
    """Return the corporate suffix ``word[:end]`` ends with, if any (longest first).

    A Latin suffix must be the whole word and follow another word ("Costco" keeps its
    "co"); a Chinese one may be glued to the name (阿里巴巴有限公司).
    """
    for suffix in CORPORATE_SUFFIXES:
        if suffix.isascii():
            if not is_only_word and end == len(suffix) and word.startswith(suffix):
                return suffix
        elif word.endswith(suffix, 0, end):
            return suffix
    return None


def bounded_names(quintuples: Iterable[Quintuple]) -> list[Quintuple]:
    """Return the quintuples whose subject and object are short enough to be names.

    Every Reader (the rules and a chat model) passes its quintuples through here, so
    no stage after it (full-text search, embeddings, the store) sees an unbounded name.
    Each dropped quintuple is logged as a warning.
    """
    kept: list[Quintuple] = []
    for quintuple in quintuples:
        longest = max(len(quintuple.subject), len(quintuple.object))
        if longest > MAX_NAME_CHARS:
            logger.warning(
                "dropped a fact whose name is %d characters (at most %d): %.40r ...",
                longest,
                MAX_NAME_CHARS,
                quintuple.subject if len(quintuple.subject) > MAX_NAME_CHARS else quintuple.object,
            )
            continue
        kept.append(quintuple)
    return kept


def display_name(name: str) -> str:
    """Tidy a surface name for display: NFKC width folding and single spaces."""
    text = unicodedata.normalize("NFKC", name)
    return re.sub(r"\s+", " ", text).strip(" \t\"'“”‘’「」《》()（）")


def search_text(text: str) -> str:
    """Return the pre-segmented terms a full-text index stores (or is queried with).

    Word tokens plus character bigrams of Chinese runs, so a search for 北京 finds
    北京大学 even though FalkorDB's full-text engine cannot segment Chinese itself.
    """
    terms = list(tokens(text))
    for run in _CJK_RUN.findall(text):
        terms.extend(run[i : i + 2] for i in range(len(run) - 1))
        if len(run) == 1:
            terms.append(run)
    return " ".join(dict.fromkeys(term.lower() for term in terms if term.strip()))


def entity_search_text(name: str) -> str:
    """The full-text terms of an entity name: its words, plus the initials of a Latin name.

    "Carnegie Mellon University" is also indexed as ``cmu``, so a later mention of CMU
    finds it as a candidate (the resolver then checks the acronym, types and similarity);
    no word of the two names is shared, so plain full-text search never would.
    """
    terms = search_text(name)
    words = name_words(name)
    capitalised = [word for word in words if word[:1].isupper() and all(map(is_latin_word_char, word))]
    if 2 <= len(capitalised) <= 6 and all(word in capitalised or word.casefold() in _STOPWORDS for word in words):
        terms = " ".join(dict.fromkeys([*terms.split(" "), *sorted(_initials(words))]))
    return terms


def fold_text(text: str) -> str:
    """Fold text for mention matching: width, case, punctuation to single spaces.

    Spaces between Latin words survive (so word boundaries can be checked) while
    spaces between Chinese characters are removed.
    """
    # Names and fact sentences recur across questions (a hub's facts are folded for
    # each): short texts are kept; long ones (turns, documents) would only fill the cache.
    return _fold_short(text) if len(text) <= _FOLD_CACHED_LENGTH else _fold(text)


_FOLD_CACHED_LENGTH = 200


def _fold(text: str) -> str:
    folded = _PUNCTUATION.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return _CJK_SPACE.sub("", folded)


_fold_short = functools.lru_cache(maxsize=65536)(_fold)


def is_mentioned(name: str, text: str) -> bool:
    """Return whether ``name`` occurs in ``text`` as a whole word (Latin) or substring (Chinese).

    "JS" is not mentioned in "adjust", while 张三 is mentioned in 张三的导师是谁.
    """
    needle, haystack = fold_text(name), fold_text(text)
    if not needle:
        return False
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        before = haystack[start - 1] if start else " "
        after = haystack[end] if end < len(haystack) else " "
        if not (is_latin_word_char(needle[0]) and is_latin_word_char(before)) and not (
            is_latin_word_char(needle[-1]) and is_latin_word_char(after)
        ):
            return True
        start = haystack.find(needle, start + 1)
    return False


# -- identity: type classes, identity keys and lexical name relations ------------------

TYPE_CLASSES: dict[str, str] = {
    "Person": "person",
    "Organization": "org",
    "Tool": "org",
    "Language": "org",
    "Place": "place",
    "Time": "time",
    "Food": "food",
    "Event": "event",
    "Activity": "event",
}
"""Entity type -> identity class. Types missing here (Concept, Thing, unknown) are
*generic*: they merge with any class. Organisations share a class with the tools and
languages they make (Python the language and Python the tool are one thing; OpenAI
typed Tool in one sentence and Organization in the next is one thing), while a
Person, an Organization, a Place, a Food ... of the same name stay apart."""

GENERIC_CLASS = ""


def type_class(entity_type: str | None) -> str:
    """Return the identity class of an entity type (``""`` for generic types).

    Args:
        entity_type: A canonical entity type such as ``Person`` or ``Concept``.

    Returns:
        The class name (``person``, ``org``, ``place``, ``time``, ``food``, ``event``)
        or ``""`` when the type says nothing about identity.
    """
    return TYPE_CLASSES.get(entity_type or "", GENERIC_CLASS)


def classes_compatible(left: str, right: str) -> bool:
    """Return whether two identity classes may denote the same thing (generic fits all)."""
    return left == right or left == GENERIC_CLASS or right == GENERIC_CLASS


def identity_key(name_key: str, cls: str) -> str:
    """Return the entity key of a name key in a class: ``苹果`` or ``苹果#food``.

    The plain name key belongs to the first entity stored under that name; a later
    entity of an incompatible class (苹果公司, an Organization, after 苹果 the
    fruit) is stored under the class-qualified key instead, so both keep their facts.
    """
    return f"{name_key}#{cls}" if cls else name_key


def mention_key(name: str, entity_type: str | None) -> str:
    """Return the resolution unit of a mention: its name key qualified by its class."""
    return identity_key(normalize_name(display_name(name)), type_class(entity_type))


_STOPWORDS = frozenset({"of", "the", "and", "for", "de", "la", "&"})
_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_NUMERONYM = re.compile(r"^([a-z])(\d{1,2})([a-z])$")
_DIGITS = re.compile(r"\d+")
_CJK_ONLY = re.compile(r"^[\u3400-\u9fff]+$")

GENERIC_HEADS_ZH: tuple[str, ...] = (
    "大学",
    "学院",
    "集团",
    "科技",
    "技术",
    "控股",
    "股份",
    "医院",
    "中学",
    "小学",
    "研究院",
    "研究所",
    "市",
    "省",
    "县",
)
"""Chinese head words a name is often shortened by (清华大学 -> 清华, 上海市 -> 上海)."""

ABBREVIATED_HEADS_ZH: tuple[str, ...] = (
    "大学",
    "学院",
    "中学",
    "小学",
    "医院",
    "中心",
    "集团",
    "银行",
    "公司",
    "院",
    "所",
    "校",
    "会",
    "局",
    "部",
    "厅",
    "委",
    "台",
    "国",
)
"""Endings of the institution and state names Chinese abbreviates by skipping characters
(北京大学 -> 北大, 中国科学院 -> 中科院, 中华人民共和国 -> 中国). Other names that
merely contain a shorter word in order (中国文学 / 中文, 数据科学 / 数学) are not
abbreviations of it."""

GENERIC_HEADS_EN: frozenset[str] = frozenset(
    {
        "university",
        "college",
        "institute",
        "school",
        "city",
        "group",
        "holdings",
        "technologies",
        "technology",
        "labs",
        "lab",
        "motors",
        "foundation",
        "language",
    }
)
"""English head words a name is often shortened by (Stanford University -> Stanford)."""


def name_words(name: str) -> list[str]:
    """Split a Latin name into words: spaces, hyphens, dots and camelCase humps.

    ``JavaScript`` gives ``["Java", "Script"]``, ``New York City`` three words.
    """
    words: list[str] = []
    for chunk in re.split(r"[\s\-_./]+", unicodedata.normalize("NFKC", name).strip()):
        if chunk:
            words.extend(_CAMEL_PART.findall(chunk) or [chunk])
    return words


def _initials(words: list[str]) -> set[str]:
    letters = [word for word in words if word[:1].isalpha()]
    full = "".join(word[0] for word in letters).casefold()
    content = "".join(word[0] for word in letters if word.casefold() not in _STOPWORDS).casefold()
    return {full, content} - {""}


def _is_subsequence(short: str, long: str) -> bool:
    position = 0
    for char in short:
        position = long.find(char, position) + 1
        if position == 0:
            return False
    return True


def name_relation(left: str, right: str) -> str | None:
    """Return how two names are lexically related as full form and short form, if at all.

    Args:
        left: One surface name.
        right: The other surface name.

    Returns:
        ``"acronym"`` (JS / JavaScript, NYC / New York City), ``"numeronym"``
        (k8s / Kubernetes), ``"abbreviation"`` (北大 / 北京大学: the short form takes
        characters of the long one in order, skipping some, from its first character),
        ``"head"`` (清华 / 清华大学, Stanford / Stanford University: the long form is the
        short one plus a generic head word), or ``None``. A relation is evidence, not a
        verdict: the resolver still checks types and embedding similarity.
    """
    a, b = display_name(left), display_name(right)
    key_a, key_b = normalize_name(a), normalize_name(b)
    if not key_a or not key_b or key_a == key_b:
        return None
    short, long = (a, b) if len(key_a) < len(key_b) else (b, a)
    short_key, long_key = normalize_name(short), normalize_name(long)
    if short_key.isascii() and long_key.isascii():
        long_words = name_words(long)
        if short_key.isalpha() and 2 <= len(short_key) <= 6 and len(long_words) >= 2:
            if short_key in _initials(long_words):
                return "acronym"
        numeronym = _NUMERONYM.match(short_key)
        if numeronym and long_key.isalpha():
            first, count, last = numeronym.groups()
            if long_key[0] == first and long_key[-1] == last and len(long_key) == int(count) + 2:
                return "numeronym"
        short_words = [word.casefold() for word in short.split()]
        long_words_folded = [word.casefold() for word in long.split()]
        if (
            short_words
            and len(long_words_folded) > len(short_words)
            and long_words_folded[: len(short_words)] == short_words
            and all(word in GENERIC_HEADS_EN for word in long_words_folded[len(short_words) :])
        ):
            return "head"
        return None
    if _CJK_ONLY.match(short_key) and _CJK_ONLY.match(long_key) and len(short_key) >= 2:
        if long_key.startswith(short_key):
            rest = long_key[len(short_key) :]
            return "head" if rest in GENERIC_HEADS_ZH else None
        if (
            short_key[0] == long_key[0]
            and _is_subsequence(short_key, long_key)
            and long_key.endswith(ABBREVIATED_HEADS_ZH)
        ):
            return "abbreviation"
    return None


def digits_differ(left: str, right: str) -> bool:
    """Return whether two names carry different numbers (GPT-4 / GPT-3.5, 2023年 / 2024年).

    Names with different digit runs are never the same entity by similarity alone; a
    numeronym (k8s) is the exception :func:`name_relation` reports itself.
    """
    return _DIGITS.findall(normalize_name(left)) != _DIGITS.findall(normalize_name(right))


def may_be_alias(left: str, right: str) -> bool:
    """Return whether two names give any hint of being one thing, beyond embedding similarity.

    True for a lexical relation (:func:`name_relation`), for names in different scripts
    (微软 / Microsoft: a translation is possible), and for names sharing a stem: one
    Latin key a prefix of the other (Postgres / PostgreSQL, Go / Golang), a shared word of
    three letters or more (Musk / Elon Musk), or a shared first two Chinese characters
    (阿里 / 阿里巴巴). Used to decide which uncertain pairs are worth an LLM call; 小王 /
    小李 or Docker / Kubernetes are not.
    """
    if name_relation(left, right):
        return True
    a, b = normalize_name(display_name(left)), normalize_name(display_name(right))
    if not a or not b or a == b:
        return bool(a) and a == b
    cjk_a, cjk_b = bool(_CJK_RUN.search(a)), bool(_CJK_RUN.search(b))
    if cjk_a != cjk_b:
        return True
    if cjk_a:
        return a[:2] == b[:2] and len(a) >= 2 and len(b) >= 2
    short, long = sorted((a, b), key=len)
    if long.startswith(short) and len(short) >= 2:
        return True
    words_a = {w.casefold() for w in name_words(left) if len(w) >= 3}
    words_b = {w.casefold() for w in name_words(right) if len(w) >= 3}
    return bool(words_a & words_b)
