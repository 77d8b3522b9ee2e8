"""Every lexicon of the offline Reader (language/data/*.toml) is data with examples; each example runs here.

An example is a text, who said it, and the (subject, object) pairs of positive facts the
whole Reader must keep or must not produce with it, or ``none``: nothing may be kept.
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.lexicon import Example, Lexicon, lexicons, words
from elephant_broker.language.patterns import Pattern, patterns, read_patterns

EXAMPLES = [
    pytest.param(lexicon, example, id=f"{lexicon.language}.{lexicon.name}.{number}")
    for language in ("en", "zh")
    for lexicon in lexicons(language).values()
    for number, example in enumerate(lexicon.examples)
]
PATTERN_EXAMPLES = [
    pytest.param(pattern, example, id=f"{pattern.id}.{number}")
    for language in ("en", "zh")
    for pattern in patterns(language)
    for number, example in enumerate(pattern.examples)
]


def test_every_lexicon_says_what_it_is_for_and_shows_it() -> None:
    for language in ("en", "zh"):
        for lexicon in lexicons(language).values():
            assert lexicon.doc and lexicon.entries, lexicon.name
            assert lexicon.examples, f"{language}.{lexicon.name} has no example"


@pytest.mark.parametrize(("lexicon", "example"), EXAMPLES)
def test_lexicon_example(lexicon: Lexicon, example: Example) -> None:
    pairs = {(q.subject, q.object) for q in extract_quintuples(example.text, example.speaker) if not q.negated}
    if example.none:
        assert pairs == set()
    assert set(example.keeps) <= pairs
    assert not set(example.drops) & pairs


def test_a_lexicon_is_read_as_its_entries() -> None:
    assert "we" in words("en", "group_first_person")
    assert "nr" in words("zh", "name_tags")
    with pytest.raises(KeyError):
        words("en", "no such lexicon")


@pytest.mark.parametrize(("pattern", "example"), PATTERN_EXAMPLES)
def test_pattern_example(pattern: Pattern, example: Example) -> None:
    # The pattern itself reads the pair, and the whole Reader keeps it.
    read = {(draft.subject, draft.object) for draft in read_patterns(example.text, pattern.language)}
    assert set(example.keeps) <= read
    kept = {(q.subject, q.object) for q in extract_quintuples(example.text, example.speaker) if not q.negated}
    assert set(example.keeps) <= kept


def test_a_malformed_pattern_is_refused_with_its_id() -> None:
    from elephant_broker.language.patterns import _pattern

    macros = {"NAME": "[A-Z][a-z]+"}
    good = {
        "id": "en.test",
        "language": "en",
        "match": "(?P<a>{NAME}) met (?P<b>{NAME})",
        "subject": "a",
        "object": "b",
        "predicate": "met",
        "subject_type": "Person",
        "object_type": "Person",
        "confidence": 0.9,
        "examples": [{"text": "Ann met Bob."}],
    }
    assert _pattern(good, macros).regex.search("Ann met Bob").group("b") == "Bob"
    for broken, message in [
        ({**good, "object": "c"}, "no group 'c'"),
        ({**good, "examples": []}, "at least one example"),
        ({**good, "match": "(?P<a>{NAME}"}, "en.test"),
        ({**good, "match": "{LOOP}"}, "deeper than"),
    ]:
        with pytest.raises(ValueError, match=message):
            _pattern(broken, {**macros, "LOOP": "a{LOOP}"})


def test_a_credit_list_names_the_title_before_it_and_each_role() -> None:
    read = read_patterns("《晚风》是一首民谣，梁柯作词，苏河作曲，叶青演唱。", "zh")
    assert {(d.subject, d.predicate, d.object) for d in read} >= {
        ("晚风", "作词", "梁柯"),
        ("晚风", "作曲", "苏河"),
        ("晚风", "演唱", "叶青"),
    }
    assert read_patterns("梁柯作词，苏河作曲。", "zh") == []  # no title: nothing to credit
