r"""Sensitive values in a text: phone numbers, Chinese resident ID numbers, bank cards, e-mail addresses.

Each detector returns spans, validated rather than guessed: phone numbers by the
``phonenumbers`` library (Google's libphonenumber metadata: a number must be valid for
its region, tried for mainland China and the US unless written with a + country code);
an 18-character resident ID by its birth date and ISO 7064 MOD 11-2 check character;
a card number (13–19 digits, groups of 4 allowed) by the Luhn checksum; an e-mail by its
shape. Boundaries are "no letter or digit of the same script around", not ``\b``:
in ``电话13812345678`` the digits touch a Chinese character, which ``\b`` counts as a
word character (LangChain's PII detectors miss such values for that reason).

Where spans overlap, the kinds are preferred in ``KINDS`` order (an ID's digits are no
phone number; a card's are no phone number either).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

import phonenumbers

KINDS = ("email", "id", "card", "phone")
"""The kinds ``ELEPHANT_MASK`` may name, in the order overlapping spans are decided."""
PHONE_REGIONS = ("CN", "US")
"""Regions a number without a + country code is tried in."""

_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z])"
)
_RESIDENT_ID = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}\d{2}\d{2}\d{3}[0-9Xx](?![0-9A-Za-z])")
_CARD = re.compile(r"(?<![0-9A-Za-z-])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


@dataclass(frozen=True)
class Sensitive:
    """One sensitive value found in a text: its kind and where it is."""

    kind: str
    start: int
    end: int
    value: str


def find_sensitive(text: str, kinds: Iterable[str] = KINDS) -> list[Sensitive]:
    """Return the sensitive values of the asked kinds, in text order, without overlaps."""
    wanted = set(kinds)
    found: list[Sensitive] = []
    for kind in KINDS:
        if kind not in wanted:
            continue
        for span in _DETECTORS[kind](text):
            if not any(span.start < other.end and other.start < span.end for other in found):
                found.append(span)
    return sorted(found, key=lambda span: span.start)


def parse_kinds(spec: str) -> tuple[str, ...]:
    """Parse ``ELEPHANT_MASK`` ("phone,id,email,card"; "all"); empty means no masking.

    Raises:
        ValueError: Naming an unknown kind.
    """
    kinds = [part.strip().lower() for part in spec.split(",") if part.strip()]
    if kinds == ["all"]:
        return KINDS
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        raise ValueError(f"mask: unknown kind {unknown[0]!r}; use some of {', '.join(KINDS)} (or all)")
    return tuple(kind for kind in KINDS if kind in kinds)


def valid_resident_id(value: str) -> bool:
    """Whether an 18-character mainland resident ID has a real birth date and a right check character."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    try:
        born = date(int(value[6:10]), int(value[10:12]), int(value[12:14]))
    except ValueError:
        return False
    if born > date.today():
        return False
    total = sum(int(digit) * weight for digit, weight in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17].upper()


def passes_luhn(digits: str) -> bool:
    """Whether a digit string passes the Luhn checksum (card numbers)."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        digit = int(char)
        if position % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def _emails(text: str) -> list[Sensitive]:
    return [Sensitive("email", m.start(), m.end(), m.group()) for m in _EMAIL.finditer(text)]


def _resident_ids(text: str) -> list[Sensitive]:
    matches = _RESIDENT_ID.finditer(text)
    return [Sensitive("id", m.start(), m.end(), m.group()) for m in matches if valid_resident_id(m.group())]


def _cards(text: str) -> list[Sensitive]:
    found = []
    for match in _CARD.finditer(text):
        value = match.group()
        digits = re.sub(r"[ -]", "", value)
        grouped = not re.search(r"[ -]", value) or re.fullmatch(r"\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,3})?", value)
        if grouped and 13 <= len(digits) <= 19 and digits[0] in "3456" and passes_luhn(digits):
            found.append(Sensitive("card", match.start(), match.end(), value))
    return found


def _phones(text: str) -> list[Sensitive]:
    found: dict[tuple[int, int], Sensitive] = {}
    for region in PHONE_REGIONS:
        for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID):
            start, end = match.start, match.end
            if text[end : end + 1].isdigit() or (start and text[start - 1].isdigit()):
                continue  # part of a longer digit run
            found.setdefault((start, end), Sensitive("phone", start, end, match.raw_string))
    spans = sorted(found.values(), key=lambda span: (span.start, -span.end))
    kept: list[Sensitive] = []
    for span in spans:
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept


_DETECTORS = {"email": _emails, "id": _resident_ids, "card": _cards, "phone": _phones}
