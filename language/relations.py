"""Relation words read on a fact's predicate: naming relations, and relations that ended.

``language/data/relations.toml`` holds the words. A naming predicate (叫, named) makes its
object a name even when it is a common word; an ending predicate (left, 离职, quit) says
the relation no longer holds. ``ended_relation`` rewrites a fact that states an ending as
the negation of the relation it ended, chosen by what was left (an organisation: works at;
a place: lives in), so it meets the old fact in the conflict path and retires it.
"""

from __future__ import annotations

import functools

from elephant_broker.language.lexicon import data_file
from elephant_broker.schemas.models import Quintuple


@functools.cache
def relation_words(table: str, language: str) -> frozenset[str]:
    """The words of a relation table (``naming``, ``ending``, ``employment_start``) in one language."""
    return frozenset(data_file("relations.toml")[table][language])


def is_relation(predicate: str, table: str) -> bool:
    """Whether a fact's surface predicate is of a relation table (``naming``, ``ending``).

    English predicates match whole ("left", not "left for", which goes somewhere), Chinese
    on a leading substring (戒 in 戒烟, 以前 in 以前住在).
    """
    folded = " ".join(predicate.split()).casefold()
    if not folded:
        return False
    if folded[:1].isascii():
        return folded in relation_words(table, "en")
    return any(folded.startswith(entry) for entry in relation_words(table, "zh"))


def ended_relation(quintuple: Quintuple) -> Quintuple:
    """A fact that states an ending (王磊 离职 腾讯), as the negation of the relation it ended (王磊 不在腾讯工作).

    Facts of other predicates, negated ones, and endings of things of no family's type
    (quit coffee) are returned as they are.
    """
    if quintuple.negated or not is_relation(quintuple.predicate, "ending"):
        return quintuple
    family = data_file("relations.toml")["ending"]["families"].get(quintuple.object_type)
    if family is None:
        return quintuple
    return quintuple.model_copy(update={"predicate": family[_language_of(quintuple)], "negated": True})


def started_employment(quintuple: Quintuple) -> Quintuple:
    """A fact that states a start at an employer (周宁 入职 网易), as the employment it started (周宁 在网易工作).

    The object is an organisation whatever its name was typed (a Reader may take a new
    company's name for a person); a date or a place started at is no employer and stays as it is.
    """
    if quintuple.negated or not is_relation(quintuple.predicate, "employment_start"):
        return quintuple
    if quintuple.object_type in ("Time", "Place"):
        return quintuple
    relation = data_file("relations.toml")["employment_start"]["relation"]
    return quintuple.model_copy(update={"predicate": relation[_language_of(quintuple)], "object_type": "Organization"})


def _language_of(quintuple: Quintuple) -> str:
    """The language a fact's predicate is written in, for a rewritten relation's wording."""
    return "en" if quintuple.predicate.strip()[:1].isascii() else "zh"


def ended_family_surfaces() -> tuple[str, ...]:
    """The relations an ending can end, as written (works at, 工作, lives in, 住在)."""
    families = data_file("relations.toml")["ending"]["families"].values()
    return tuple(surface for family in families for surface in (family["en"], family["zh"]))
