"""The one sanitiser for labels and relationship types rejects every hostile string."""

from __future__ import annotations

import pytest
from elephant_broker.schemas.models import ENTITY_TYPES
from elephant_broker.store.sanitize import UnsafeIdentifierError, cypher_identifier

HOSTILE = [
    "",
    " ",
    "Person`",
    "`Person`",
    "Person` DETACH DELETE n //",
    "Person:Admin",
    "Person)-[:X]->(",
    "Person{x:1}",
    "Person /* c */",
    "Person\n",
    "Person;",
    "1Person",
    "_Person",
    "Pérson",
    "Ｐerson",  # full-width look-alike
    "Person\u200b",  # zero-width space
    "人物",
    "a" * 65,
    "$label",
    "Person' OR '1'='1",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_identifiers_are_rejected(name: str) -> None:
    with pytest.raises(UnsafeIdentifierError):
        cypher_identifier(name, {name, "Person"})


@pytest.mark.parametrize("name", ENTITY_TYPES)
def test_allowed_types_are_quoted(name: str) -> None:
    assert cypher_identifier(name, ENTITY_TYPES) == f"`{name}`"


def test_plain_identifier_off_the_allow_list_is_rejected() -> None:
    with pytest.raises(UnsafeIdentifierError, match="not allowed"):
        cypher_identifier("Admin", ENTITY_TYPES)


def test_non_strings_are_rejected() -> None:
    with pytest.raises(UnsafeIdentifierError):
        cypher_identifier(None, ENTITY_TYPES)  # type: ignore[arg-type]
