"""A user's schema: the entity types and predicates a memory keeps (``elephant ingest --schema FILE``).

The shape of the file (TOML or JSON), validated here; reading it and applying it to a
reading is ``domain.user_schema``. An entity type is one of the store's types
(``ENTITY_TYPES``: the store labels entities with them), with the user's own words for
it as aliases (``Thing`` with ``Drug``, ``Medicine``). A predicate is the user's own
relation name (``works_at``, ``treats``, 毕业于) with the wordings that mean it, whether it
holds one value at a time (``cardinality = "one"``: a new value contradicts the old one)
and whether its facts go stale (``time_sensitive``).

.. code-block:: toml

    unknown_predicates = "drop"        # or "keep"

    [[entity_types]]
    name = "Person"

    [[entity_types]]
    name = "Thing"
    aliases = ["Drug", "Medicine"]

    [[predicates]]
    name = "works_at"
    aliases = ["works for", "employed by", "就职于"]
    cardinality = "one"

    [[predicates]]
    name = "status"
    time_sensitive = true
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from elephant_broker.schemas.ids import check_name
from elephant_broker.schemas.models import ENTITY_TYPES, PREDICATE_MAX, TYPE_MAX
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

MAX_SCHEMA_ITEMS = 200
"""Most entity types or predicates one schema declares (each is listed in every Reader prompt)."""
MAX_ALIASES = 20
"""Most aliases of one entity type or predicate."""


def fold(word: str) -> str:
    """Return a word as schema names are compared: width and case folded, spaces and underscores one space."""
    text = unicodedata.normalize("NFKC", word).casefold().replace("_", " ").replace("-", " ")
    return " ".join(text.split())


class _Declared(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _a_bare_name(cls, data: object) -> object:
        return {"name": data} if isinstance(data, str) else data  # "Person" for {name = "Person"}

    @field_validator("aliases", check_fields=False)
    @classmethod
    def _aliases(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if len(value) > MAX_ALIASES:
            raise ValueError(f"at most {MAX_ALIASES} aliases, not {len(value)}")
        return tuple(dict.fromkeys(check_name(alias.strip(), "alias", PREDICATE_MAX) for alias in value))


class EntityTypeSpec(_Declared):
    """One entity type the memory keeps: a store type, and the user's words for it."""

    name: str = Field(description=f"One of the store's entity types: {', '.join(ENTITY_TYPES)}.")
    aliases: tuple[str, ...] = Field(
        default=(), description="Other names of the type the Reader may meet or use (Company, Drug, 人物)."
    )
    description: str = Field(default="", max_length=300, description="What belongs to the type, for the model.")

    @field_validator("name")
    @classmethod
    def _store_type(cls, value: str) -> str:
        known = {kind.casefold(): kind for kind in ENTITY_TYPES}
        kind = known.get(value.strip().casefold())
        if kind is None:
            raise ValueError(
                f"entity type {value!r} is not one the store keeps ({', '.join(ENTITY_TYPES)}); "
                f'declare the nearest one with aliases = ["{value.strip()}"]'
            )
        return kind


class PredicateSpec(_Declared):
    """One relation the memory keeps: its name, the wordings that mean it, how many values it holds."""

    name: str = Field(description="The relation as facts show it (works_at, treats, 毕业于).")
    aliases: tuple[str, ...] = Field(
        default=(), description="Other wordings of the relation (works for, employed by, 就职于)."
    )
    cardinality: Literal["one", "many"] = Field(
        default="many",
        description="one: a subject holds one value at a time (a new one contradicts the old); many: any number.",
    )
    time_sensitive: bool = Field(default=False, description="Whether its facts go stale (plans, prices, statuses).")
    description: str = Field(default="", max_length=300, description="What the relation means, for the model.")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value.strip(), "predicate", PREDICATE_MAX)


class UserSchema(BaseModel):
    """The entity types and predicates a memory keeps; both Readers' output is made to fit it.

    An empty list declares nothing about its kind: ``entity_types = []`` keeps every type,
    ``predicates = []`` every predicate.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    entity_types: tuple[EntityTypeSpec, ...] = Field(default=(), max_length=MAX_SCHEMA_ITEMS)
    predicates: tuple[PredicateSpec, ...] = Field(default=(), max_length=MAX_SCHEMA_ITEMS)
    unknown_predicates: Literal["drop", "keep"] = Field(
        default="drop",
        description="A fact whose predicate no declared one matches: drop it (the schema is the vocabulary) "
        "or keep it as read.",
    )

    @model_validator(mode="after")
    def _each_word_once(self) -> UserSchema:
        if not self.entity_types and not self.predicates:
            raise ValueError("the schema declares no entity_types and no predicates")
        for kind, items in (("entity type", self.entity_types), ("predicate", self.predicates)):
            owner: dict[str, str] = {}
            for item in items:
                for word in (item.name, *item.aliases):
                    folded = fold(word)
                    if folded in owner and (owner[folded] != item.name or word == item.name):
                        raise ValueError(f"{kind} word {word!r} is declared twice ({owner[folded]}, {item.name})")
                    owner[folded] = item.name
        for item in self.entity_types:
            for alias in item.aliases:
                if len(alias) > TYPE_MAX:
                    raise ValueError(f"entity type alias {alias[:20]!r}…: at most {TYPE_MAX} characters")
        return self
