"""The token vault: which value each masking token stands for, kept encrypted apart from the memory.

Masked values are replaced by tokens such as ``PHONE-048151623420`` before anything is read,
embedded or stored. A token is an HMAC of the value under a key derived from the vault
key, so the same value always gets the same token (the graph still links two mentions of
one phone number) and nobody without the key can test a guess against it. The vault file,
``<home>/vault.enc``, holds one Fernet-encrypted line (AES-128-CBC with HMAC-SHA256, the
``cryptography`` library) per token; the key never touches disk. Without the key the
tokens stay tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import threading
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VAULT_FILE = "vault.enc"
VAULT_KEY_VARIABLE = "ELEPHANT_VAULT_KEY"
TOKEN_DIGITS = 12
TOKEN_PATTERN = re.compile(r"\b(?:PHONE|ID|CARD|EMAIL)-\d{12}\b")
"""What a masking token looks like: the kind, a hyphen, 12 decimal digits. Digits, not hex or
letters: both Readers and the answer spans keep a letters-hyphen-digits code whole (in Chinese
text too), and a question for a number or code accepts it as the answer."""

_lock = threading.Lock()


class VaultError(ValueError):
    """The vault cannot be used: no key, or a key that does not open it."""


def _derive(secret: str, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(secret.encode("utf-8"))


class Vault:
    """Tokens and the values they stand for, in one data directory, under one key."""

    def __init__(self, home: str | Path, key: str) -> None:
        if not key:
            raise VaultError(f"{VAULT_KEY_VARIABLE} must hold the vault key")
        self.path = Path(home) / VAULT_FILE
        self._fernet = Fernet(base64.urlsafe_b64encode(_derive(key, b"elephant-broker vault")))
        self._token_key = _derive(key, b"elephant-broker tokens")
        self._values: dict[str, str] | None = None

    def token(self, kind: str, value: str) -> str:
        """Return the token for a value (normalised by the caller), keeping the pair in the vault."""
        digest = hmac.new(self._token_key, f"{kind}\x1f{value}".encode(), hashlib.sha256).digest()
        token = f"{kind.upper()}-{int.from_bytes(digest[:8], 'big') % 10**TOKEN_DIGITS:0{TOKEN_DIGITS}d}"
        values = self._load()
        if token not in values:
            line = self._fernet.encrypt(json.dumps({"token": token, "value": value}).encode("utf-8"))
            with _lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(descriptor, line + b"\n")
                finally:
                    os.close(descriptor)
            values[token] = value
        return token

    def reveal(self, text: str) -> str:
        """Return the text with every token this vault knows replaced by its value."""
        values = self._load()
        if any(match.group() not in values for match in TOKEN_PATTERN.finditer(text)):
            self._values = None  # another process may have added tokens since
            values = self._load()
        return TOKEN_PATTERN.sub(lambda match: values.get(match.group(), match.group()), text)

    def _load(self) -> dict[str, str]:
        if self._values is None:
            values: dict[str, str] = {}
            if self.path.exists():
                for line in self.path.read_bytes().splitlines():
                    if not line.strip():
                        continue
                    try:
                        pair = json.loads(self._fernet.decrypt(line))
                    except InvalidToken:
                        raise VaultError(f"{VAULT_KEY_VARIABLE} does not open {self.path}") from None
                    values[pair["token"]] = pair["value"]
            self._values = values
        return self._values
