"""The offline Reader's lexicons, kept as data: ``language/data/<language>.toml``.

A lexicon is a named table of words (or jieba part-of-speech tags) with a ``doc`` saying
what the words are and why the rules need them, and ``examples``: texts, who said them and
the facts the whole Reader must keep or must not produce with them. Every example runs as a
test (``tests/unit/test_lexicon_examples.py``), so a lexicon cannot drift from what it is
for, and the rules' code holds no vocabulary.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

Language = Literal["en", "zh"]


@dataclass(frozen=True)
class Example:
    """A text, its speaker, and the (subject, object) pairs of positive facts kept or not."""

    speaker: str
    text: str
    keeps: tuple[tuple[str, str], ...] = ()
    drops: tuple[tuple[str, str], ...] = ()
    none: bool = False


@dataclass(frozen=True)
class Lexicon:
    """One lexicon: its name, language, what it is for, its entries and examples."""

    name: str
    language: Language
    doc: str
    entries: frozenset[str]
    examples: tuple[Example, ...] = field(default=())


@functools.cache
def data_file(name: str) -> dict[str, Any]:
    """Return one of the Reader's data files (``language/data/<name>``), parsed once; callers must not change it."""
    return tomllib.loads(resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8"))


@functools.cache
def lexicons(language: Language) -> dict[str, Lexicon]:
    """Return every lexicon of a language, by name.

    Raises:
        ValueError: If the data file has a table that is not a lexicon (no ``doc``, no
            ``words`` or ``tags``, an example without ``text``).
    """
    return {name: _lexicon(name, language, table) for name, table in data_file(f"{language}.toml").items()}


def words(language: Language, name: str) -> frozenset[str]:
    """Return the entries (words, phrases or tags) of one lexicon.

    Raises:
        KeyError: If the language has no lexicon of that name.
    """
    return lexicons(language)[name].entries


def mapping(language: Language, name: str) -> dict[str, str]:
    """Return a lexicon whose entries are written ``"key => value"`` as a mapping.

    Raises:
        KeyError: If the language has no lexicon of that name.
        ValueError: If an entry is not of the form ``"key => value"``.
    """
    pairs = {}
    for entry in words(language, name):
        key, arrow, value = entry.partition(" => ")
        if not arrow or not key or not value:
            raise ValueError(f"lexicon {language}.{name}: {entry!r} is not 'key => value'")
        pairs[key] = value
    return pairs


def _lexicon(name: str, language: Language, table: Any) -> Lexicon:
    try:
        entries = table.get("words", table.get("tags"))
        if not isinstance(table["doc"], str) or not isinstance(entries, list) or not entries:
            raise ValueError("needs a doc and a non-empty words or tags list")
        examples = tuple(example_of(example) for example in table.get("examples", []))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"lexicon {language}.{name}: {error}") from error
    return Lexicon(name, language, table["doc"].strip(), frozenset(str(entry) for entry in entries), examples)


def example_of(example: dict[str, Any]) -> Example:
    """Read one example table (``speaker`` defaults to "user").

    Raises:
        KeyError: If it has no ``text``.
    """
    return Example(
        speaker=str(example.get("speaker", "user")),
        text=str(example["text"]),
        keeps=tuple((str(subject), str(obj)) for subject, obj in example.get("keeps", [])),
        drops=tuple((str(subject), str(obj)) for subject, obj in example.get("drops", [])),
        none=bool(example.get("none", False)),
    )
