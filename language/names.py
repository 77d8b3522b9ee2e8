"""Name normalisation: the exact-match key every entity is stored under.

Two surface forms that differ only in case, full/half width, spacing, punctuation or
a corporate suffix (OpenAI / Open AI / OpenAI公司 / openai inc.) get the same key, so
the Builder merges them without any model. Fuzzier identity (aliases, embeddings, an
LLM) is layered on top of this key, never instead of it.
"""

from __future__ import annotations

import re
import unicodedata

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

_PUNCTUATION = re.compile(r"[\s\W_]+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")


def normalize_name(name: str) -> str:
    """Return the matching key of a surface name.

    Args:
        name: An entity name as written.

    Returns:
        The NFKC-folded, case-folded name without spaces, punctuation or a trailing
        corporate suffix; the plain folded name when stripping would leave nothing.
    """
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    compact = _PUNCTUATION.sub("", folded)
    for suffix in CORPORATE_SUFFIXES:
        if compact.endswith(suffix) and len(compact) > len(suffix):
            # Only strip a latin suffix at a word boundary ("Costco" keeps its "co").
            if suffix.isascii():
                words = _PUNCTUATION.split(folded)
                words = [word for word in words if word]
                if len(words) < 2 or words[-1] != suffix:
                    continue
            compact = compact[: -len(suffix)]
            break
    return compact or folded


def display_name(name: str) -> str:
    """Tidy a surface name for display: NFKC width folding and single spaces."""
    text = unicodedata.normalize("NFKC", name)
    return re.sub(r"\s+", " ", text).strip(" \t\"'“”‘’「」《》()（）")


def search_text(text: str) -> str:
    """Return the pre-segmented terms a full-text index stores (or is queried with).

    Word tokens plus character bigrams of Chinese runs, so a search for 北京 finds
    北京大学 even though FalkorDB's full-text engine cannot segment Chinese itself.
    """
    from language.segment import tokens

    terms = list(tokens(text))
    for run in _CJK_RUN.findall(text):
        terms.extend(run[i : i + 2] for i in range(len(run) - 1))
        if len(run) == 1:
            terms.append(run)
    return " ".join(dict.fromkeys(term.lower() for term in terms if term.strip()))


def fold_text(text: str) -> str:
    """Fold text for mention matching: width, case, punctuation to single spaces.

    Spaces between Latin words survive (so word boundaries can be checked) while
    spaces between Chinese characters are removed.
    """
    folded = _PUNCTUATION.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return _CJK_SPACE.sub("", folded)


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
        if not (_latin_word(needle[0]) and _latin_word(before)) and not (
            _latin_word(needle[-1]) and _latin_word(after)
        ):
            return True
        start = haystack.find(needle, start + 1)
    return False


def _latin_word(char: str) -> bool:
    return char.isascii() and char.isalnum()
