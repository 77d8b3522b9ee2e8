"""Masking sensitive values before the memory reads, embeds or stores anything.

``ELEPHANT_MASK`` names the kinds (``language.pii``); each value found is replaced by its
vault token (``providers.vault``), in texts, given facts and questions alike, so a
question about a phone number finds the memory that holds its token. Values are
normalised before they are tokenised (a phone number to E.164, an e-mail to lower case,
a card to its digits), so two spellings of one value are one token and one entity.

``masker_for`` gives the masker of a data directory: the one a ``Broker`` made with its key,
else one made with ``ELEPHANT_VAULT_KEY``. The graphs' entry nodes mask with it too, so runs
that reach the graphs without a ``Broker`` (the LangGraph API of ``langgraph dev``) are masked
alike; what a ``Broker`` masked already is left as it is (tokens are not masked again).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import phonenumbers
from elephant_broker.language.pii import PHONE_REGIONS, find_sensitive, parse_kinds
from elephant_broker.providers.vault import TOKEN_PATTERN, VAULT_KEY_VARIABLE, Vault
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Perception, Quintuple


class Masker:
    """Replaces the configured kinds of sensitive value with vault tokens."""

    def __init__(self, kinds: Sequence[str], vault: Vault) -> None:
        self.kinds = tuple(kinds)
        self.vault = vault

    def mask(self, text: str) -> str:
        """Return the text with each sensitive value replaced by its token."""
        tokens = [match.span() for match in TOKEN_PATTERN.finditer(text)]
        spans = [
            span
            for span in find_sensitive(text, self.kinds)
            if not any(span.start < end and start < span.end for start, end in tokens)  # masked already
        ]
        if not spans:
            return text
        pieces, at = [], 0
        for span in spans:
            pieces += [text[at : span.start], self.vault.token(span.kind, normalised(span.kind, span.value))]
            at = span.end
        return "".join([*pieces, text[at:]])

    def mask_perception(self, perception: Perception) -> Perception:
        """Return the perception with its text and given facts masked."""
        update: dict[str, object] = {"text": self.mask(perception.text)}
        if perception.preceding_text:
            update["preceding_text"] = self.mask(perception.preceding_text)
        if perception.given_facts:
            update["given_facts"] = [self.mask_quintuple(fact) for fact in perception.given_facts]
        return perception.model_copy(update=update)

    def mask_quintuple(self, fact: Quintuple) -> Quintuple:
        """Return a given quintuple with its names masked."""
        return fact.model_copy(update={"subject": self.mask(fact.subject), "object": self.mask(fact.object)})


def normalised(kind: str, value: str) -> str:
    """Return the canonical spelling a value is tokenised under."""
    if kind == "phone":
        for region in PHONE_REGIONS:
            try:
                number = phonenumbers.parse(value, region)
            except phonenumbers.NumberParseException:
                continue
            if phonenumbers.is_valid_number(number):
                return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        return "".join(char for char in value if char.isdigit() or char == "+")
    if kind == "email":
        return value.lower()
    if kind == "card":
        return "".join(char for char in value if char.isdigit())
    return value.upper()


_maskers: dict[tuple[str, tuple[str, ...]], Masker] = {}
_maskers_lock = threading.Lock()


def masker_for(context: Context, key: str | None = None) -> Masker | None:
    """Return the masker of the context's data directory, or None when masking is off.

    ``key`` (a ``Broker``'s key; "" for none) makes the masker of that directory with it;
    ``None`` (the graphs' nodes) uses the one made before in this process, else one made
    with ``ELEPHANT_VAULT_KEY``.

    Raises:
        ValueError: An unknown kind in ``mask``, or masking without any vault key.
    """
    kinds = parse_kinds(context.mask)
    if not kinds:
        return None
    place = (str(Path(context.home).expanduser().resolve()), kinds)
    with _maskers_lock:
        if key is None and place in _maskers:
            return _maskers[place]
        secret = os.environ.get(VAULT_KEY_VARIABLE, "") if key is None else key
        if not secret:
            raise ValueError(f"mask: masking {', '.join(kinds)} needs the vault key in {VAULT_KEY_VARIABLE}")
        masker = Masker(kinds, Vault(context.home, secret))
        _maskers[place] = masker
        return masker
