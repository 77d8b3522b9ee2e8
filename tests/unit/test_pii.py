"""Sensitive values are found by validation (checksums, libphonenumber), next to Chinese text too."""

from __future__ import annotations

import pytest
from elephant_broker.domain.privacy import Masker, normalised
from elephant_broker.language.pii import find_sensitive, parse_kinds, passes_luhn, valid_resident_id
from elephant_broker.providers.vault import TOKEN_PATTERN, Vault, VaultError


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "我的电话13812345678，邮箱是ann.lee@example.com。",
            [("phone", "13812345678"), ("email", "ann.lee@example.com")],
        ),
        ("Call (415) 555-0132 or +44 20 7946 0958.", [("phone", "(415) 555-0132"), ("phone", "+44 20 7946 0958")]),
        ("身份证号11010519491231002X。", [("id", "11010519491231002X")]),
        ("卡号 6222 0212 3456 7890 128，有效期到明年。", [("card", "6222 0212 3456 7890 128")]),
        ("Card 4111-1111-1111-1111 expires.", [("card", "4111-1111-1111-1111")]),
        # Not sensitive: years, prices, order numbers, a card or ID with a wrong check digit.
        ("I was born in 1987; order 12345678 cost 13800 yuan.", []),
        ("身份证号110105194912310021。", []),
        ("Card 4111 1111 1111 1112.", []),
        ("Room 2024, floor 12, call ext. 911.", []),
    ],
)
def test_detectors(text: str, found: list[tuple[str, str]]) -> None:
    assert [(span.kind, span.value) for span in find_sensitive(text)] == found


def test_checksums_and_kinds() -> None:
    assert valid_resident_id("11010519491231002X") and not valid_resident_id("11010519491331002X")
    assert passes_luhn("4111111111111111") and not passes_luhn("4111111111111112")
    assert parse_kinds("email, phone") == ("email", "phone") and parse_kinds("all") == ("email", "id", "card", "phone")
    assert parse_kinds("") == ()
    with pytest.raises(ValueError, match="unknown kind 'ssn'"):
        parse_kinds("phone,ssn")


def test_one_value_is_one_token_and_only_the_key_reveals_it(tmp_path) -> None:
    vault = Vault(tmp_path, "key-one")
    masker = Masker(("phone", "email"), vault)
    first = masker.mask("Ring 138 1234 5678 or mail Ann@Example.com.")
    second = masker.mask("我的手机是13812345678。")
    tokens = TOKEN_PATTERN.findall(first)
    assert len(tokens) == 2 and tokens[0] in second and "1234" not in first
    assert masker.mask(first) == first  # tokens are not masked again
    assert Vault(tmp_path, "key-one").reveal(first) == "Ring +8613812345678 or mail ann@example.com."
    assert normalised("card", "4111-1111-1111-1111") == "4111111111111111"
    assert b"13812345678" not in (tmp_path / "vault.enc").read_bytes()
    with pytest.raises(VaultError, match="does not open"):
        Vault(tmp_path, "key-two").reveal(first)
    with pytest.raises(VaultError, match="ELEPHANT_VAULT_KEY"):
        Vault(tmp_path, "")
    # Another key gives other tokens: a token says nothing about its value without the key.
    assert TOKEN_PATTERN.findall(Masker(("phone",), Vault(tmp_path / "other", "key-two")).mask(second)) != tokens[:1]
