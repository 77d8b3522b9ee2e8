"""Names as English text writes them: accented letters, initialisms with dots, bracketed asides."""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples, split_sentences
from elephant_broker.language.names import is_mentioned
from elephant_broker.language.script import is_latin_letter


def _pairs(text: str, speaker: str = "Nadia") -> set[tuple[str, str]]:
    return {(q.subject, q.object) for q in extract_quintuples(text, speaker) if not q.negated}


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("José Mourinho manages Chelsea.", ("José Mourinho", "Chelsea")),
        (
            "Angola International Airport is located at Ícolo e Bengo.",
            ("Angola International Airport", "Ícolo e Bengo"),
        ),
        ("Zoë Martín lives in Zürich.", ("Zoë Martín", "Zürich")),
        ("The club plays in Série C.", None),
    ],
)
def test_accented_letters_stay_in_names(text: str, pair: tuple[str, str] | None) -> None:
    pairs = _pairs(text)
    if pair is not None:
        assert pair in pairs
    # no name cut at an accented letter ("Jos Mourinho", "colo e Bengo", "S rie C")
    assert all(name in text for found in pairs for name in found)


def test_a_name_is_not_mentioned_inside_a_longer_accented_word() -> None:
    assert not is_mentioned("Jos", "José joined us")
    assert is_mentioned("José", "did José join?")
    assert is_latin_letter("é") and is_latin_letter("ễ") and not is_latin_letter("中") and not is_latin_letter("×")


def test_an_initialism_dot_ends_a_sentence_only_before_a_word_that_opens_one() -> None:
    assert split_sentences("Marco coaches A.S. Livorno Calcio.") == ["Marco coaches A.S. Livorno Calcio."]
    assert split_sentences("I moved to the U.S. Then I joined Stripe.") == [
        "I moved to the U.S.",
        "Then I joined Stripe.",
    ]
    assert ("Marco", "A.S. Livorno Calcio") in _pairs("Marco coaches A.S. Livorno Calcio.")
    assert ("J.R.R. Tolkien", "Hobbit") in _pairs("J.R.R. Tolkien wrote The Hobbit.")
    assert ("Nadia", "Stripe") in _pairs("I moved to the U.S. Then I joined Stripe.")


def test_a_names_bracketed_aside_is_read_beside_the_sentence() -> None:
    assert _pairs("Andrews County Airport is located in Texas (United States).") == {
        ("Andrews County Airport", "Texas")
    }
    assert ("Akron Summit Assault", "Premier Development League") in _pairs(
        "Akron Summit Assault (which has 3000 members) plays in the Premier Development League."
    )


def test_a_common_nouns_bracketed_aside_names_it() -> None:
    assert {("Anna", "Paris"), ("Nadia", "Anna")} <= _pairs("My sister (Anna) lives in Paris.")
