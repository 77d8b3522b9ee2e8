"""Which writing system a character belongs to: Latin letters with their accents, and CJK ideographs.

Names in English text are not ASCII only: José Mourinho, Ícolo e Bengo, Série C, Nguyễn.
The ranges are Unicode's Latin blocks (Basic Latin, Latin-1 Supplement, Latin Extended-A
and -B, Latin Extended Additional) without their symbols (× and ÷).
"""

from __future__ import annotations

LATIN_LETTERS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
"""The Latin letters, as the body of a regular-expression character class."""


def is_latin_letter(char: str) -> bool:
    """Return whether ``char`` is one Latin letter, accented or not."""
    return (
        len(char) == 1
        and char.isalpha()
        and (char.isascii() or "\u00c0" <= char <= "\u024f" or "\u1e00" <= char <= "\u1eff")
    )


def is_latin_word_char(char: str) -> bool:
    """Return whether ``char`` continues a Latin-script word (a Latin letter or an ASCII digit)."""
    return (char.isascii() and char.isalnum()) or is_latin_letter(char)
