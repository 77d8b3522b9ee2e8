"""A user's schema applied to readings: allowed entity types, declared predicates, their cardinality.

The schema (``schemas.user_schema.UserSchema``, from a TOML or JSON file:
:func:`load_user_schema`) is told to the chat model (:meth:`SchemaRules.prompt`, in the
Reader's system message), and *both* Readers' quintuples are then made to fit it here
(:meth:`SchemaRules.fit`), so a memory holds the same vocabulary whichever Reader read:

- **Entity types.** A type the schema declares (by name or alias: ``Drug`` for
  ``Thing``) is kept; another one (mapped to the store's types first: ``Company`` is
  Organization) becomes the nearest declared type (:data:`NEAREST_TYPES`: a Tool or Food
  is a Thing, a Language a Tool, an Event an Activity and back), else ``Concept``, which
  is always allowed (it takes no side in identity resolution).
- **Predicates.** A predicate becomes the declared one it names, in this order: its
  words are a declared name or alias (case, width, ``_`` and ``-`` folded); its
  canonical key (``language.predicates.predicate_key``: 就职于, employed by and works for
  are all ``works_at``) is a declared wording's key; its embedding is within
  ``predicate_embedding_similarity`` (0.965) of a declared wording's. The fact then
  carries the declared name (``works_at`` reads "works at"). A predicate none of these
  reach is dropped — the schema is the vocabulary, as LangChain's ``LLMGraphTransformer``
  does in strict mode — unless the schema says ``unknown_predicates = "keep"``; the
  reading's notes say facts were left out.
- **Cardinality.** A predicate declared ``cardinality = "one"`` holds one value at a
  time: :func:`single_valued_keys` gives truth maintenance its canonical keys
  (``domain.truth``'s ``single_valued`` hook), beside the lexicon's own.

Given facts (``Perception.given_facts``) are stored as given: the schema applies to what
the Readers read.
"""

from __future__ import annotations

import json
import logging
import tomllib
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
from elephant_broker.domain.given import entity_type, relation_words
from elephant_broker.language.predicates import predicate_key
from elephant_broker.prompts.reader import READER_SCHEMA, READER_SCHEMA_SECTIONS
from elephant_broker.providers.embeddings import load_embeddings
from elephant_broker.providers.resources import get_predicate_matcher
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import error_line
from elephant_broker.schemas.models import Quintuple
from elephant_broker.schemas.user_schema import PredicateSpec, UserSchema, fold
from langchain_core.embeddings import Embeddings
from pydantic import ValidationError

logger = logging.getLogger(__name__)

SCHEMA_SUFFIXES = (".toml", ".json")
MAX_SCHEMA_BYTES = 1_000_000
"""A schema file larger than this is refused (it is read whole and listed in every prompt)."""

NEAREST_TYPES: dict[str, tuple[str, ...]] = {
    "Tool": ("Thing",),
    "Food": ("Thing",),
    "Language": ("Tool", "Thing"),
    "Event": ("Activity",),
    "Activity": ("Event",),
}
"""Where an undeclared type goes, nearest first, before ``Concept`` (types not listed go to ``Concept``)."""

DROPPED_NOTE = (
    "the schema left out facts whose predicate it does not declare "
    '(declare the wording as an alias, or set unknown_predicates = "keep" to keep them)'
)


def load_user_schema(source: str | Path | UserSchema) -> UserSchema:
    """Return the schema a setting names: a ``UserSchema`` as it is, or the TOML/JSON file at a path.

    A file is read again only when it changes (size or modification time).

    Raises:
        ValueError: One line naming the file and what is wrong with it (missing, not
            TOML/JSON, a field breaking its rule).
    """
    if isinstance(source, UserSchema):
        return source
    path = Path(source).expanduser()
    try:
        stat = path.stat()
    except OSError as error:
        raise ValueError(f"schema {path}: {error.strerror or error}") from None
    return _read_schema(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _read_schema(path: str, _mtime_ns: int, size: int) -> UserSchema:
    where = f"schema {path}"
    suffix = Path(path).suffix.lower()
    if suffix not in SCHEMA_SUFFIXES:
        raise ValueError(f"{where}: use a .toml or .json file, not {suffix or 'one without a suffix'}")
    if size > MAX_SCHEMA_BYTES:
        raise ValueError(f"{where}: {size:,} bytes; at most {MAX_SCHEMA_BYTES:,}")
    try:
        content = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{where}: cannot be read ({error})") from None
    data: Any
    try:
        data = tomllib.loads(content) if suffix == ".toml" else json.loads(content)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{where}: not valid {suffix[1:].upper()} ({error})") from None
    try:
        return UserSchema.model_validate(data)
    except ValidationError as error:
        raise ValueError(f"{where}: {error_line(error)}") from None


class SchemaRules:
    """A schema made ready to apply: word and key tables, and declared wordings embedded on first need."""

    def __init__(self, schema: UserSchema, embeddings: Embeddings | None = None, threshold: float = 0.965) -> None:
        """Index the schema's words; ``embeddings`` (with a ``threshold`` of at most 1) enables nearest matching.

        Args:
            schema: The schema.
            embeddings: The model that embeds predicates, or None for words and keys only.
            threshold: Cosine from which a predicate takes the nearest declared wording.
        """
        self.schema = schema
        self.threshold = threshold
        self._embeddings = embeddings if threshold <= 1.0 else None
        self._types: dict[str, str] = {}
        for kind in schema.entity_types:
            for word in (kind.name, *kind.aliases):
                self._types.setdefault(fold(word), kind.name)
        self._words: dict[str, PredicateSpec] = {}
        self._keys: dict[str, PredicateSpec] = {}
        self._wordings: list[tuple[PredicateSpec, str]] = []
        for spec in schema.predicates:
            for word in (spec.name, *spec.aliases):
                words = relation_words(word)
                self._words.setdefault(fold(words), spec)
                self._keys.setdefault(predicate_key(words), spec)
                self._wordings.append((spec, words))
        self._matrix: np.ndarray | None = None
        self._nearest: dict[str, PredicateSpec | None] = {}

    # -- entity types -----------------------------------------------------------------------

    def entity_type(self, kind: str, name: str) -> str:
        """Return the declared type a read type becomes (itself, an alias's type, the nearest declared, Concept)."""
        declared = self._types.get(fold(kind))
        if declared is not None:
            return declared
        canonical = entity_type(kind, name)  # Company -> Organization, an unknown word -> Concept
        if not self.schema.entity_types or canonical == "Concept" or fold(canonical) in self._types:
            return canonical
        for nearer in NEAREST_TYPES.get(canonical, ()):
            if fold(nearer) in self._types:
                return nearer
        return "Concept"

    # -- predicates -------------------------------------------------------------------------

    def predicates_of(self, surfaces: Sequence[str]) -> dict[str, PredicateSpec | None]:
        """Return the declared predicate each surface predicate names (None: none), embedding the rest at once."""
        found: dict[str, PredicateSpec | None] = {}
        unmatched: list[str] = []
        for surface in dict.fromkeys(surfaces):
            words = relation_words(surface)
            spec = self._words.get(fold(words)) or self._keys.get(predicate_key(words))
            if spec is None and surface in self._nearest:
                spec = self._nearest[surface]
            elif spec is None:
                unmatched.append(surface)
            found[surface] = spec
        if unmatched and self._embeddings is not None and self._wordings:
            vectors = np.asarray(self._embeddings.embed_documents(unmatched), dtype=np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            similarities = vectors @ self._declared_matrix().T
            for surface, row in zip(unmatched, similarities, strict=True):
                best = int(row.argmax())
                self._nearest[surface] = self._wordings[best][0] if row[best] >= self.threshold else None
                found[surface] = self._nearest[surface]
        return found

    def _declared_matrix(self) -> np.ndarray:
        if self._matrix is None:
            assert self._embeddings is not None
            matrix = np.asarray(self._embeddings.embed_documents([words for _, words in self._wordings]), np.float32)
            self._matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        return self._matrix

    # -- a reading --------------------------------------------------------------------------

    def fit(self, quintuples: Sequence[Quintuple]) -> tuple[list[Quintuple], list[str]]:
        """Return the quintuples made to fit the schema, and the notes on what was left out."""
        specs = self.predicates_of([q.predicate for q in quintuples]) if self.schema.predicates else {}
        fitted: list[Quintuple] = []
        dropped = 0
        for quintuple in quintuples:
            update: dict[str, Any] = {
                "subject_type": self.entity_type(quintuple.subject_type, quintuple.subject),
                "object_type": self.entity_type(quintuple.object_type, quintuple.object),
            }
            if self.schema.predicates:
                spec = specs.get(quintuple.predicate)
                if spec is not None:
                    update["predicate"] = relation_words(spec.name)
                elif self.schema.unknown_predicates == "drop":
                    dropped += 1
                    continue
            fitted.append(quintuple.model_copy(update=update))
        if dropped:
            logger.info("the schema left out %d fact(s) whose predicate it does not declare", dropped)
        return fitted, [DROPPED_NOTE] if dropped else []

    def prompt(self, language: Literal["zh", "en"]) -> str:
        """Return the schema's part of the Reader's system message, in the text's language."""
        words = READER_SCHEMA_SECTIONS[language]
        types = ""
        if self.schema.entity_types:
            lines = [words["entity_types"]]
            for kind in self.schema.entity_types:
                line = f"- {kind.name}" + (f": {', '.join(kind.aliases)}" if kind.aliases else "")
                lines.append(line + (f" ({kind.description})" if kind.description else ""))
            types = "\n".join(lines)
        predicates = ""
        if self.schema.predicates:
            lines = [words["predicates"]]
            for spec in self.schema.predicates:
                line = f"- {spec.name}" + (f": {', '.join(spec.aliases)}" if spec.aliases else "")
                notes = [words["one"]] if spec.cardinality == "one" else []
                notes += [words["time_sensitive"]] if spec.time_sensitive else []
                notes += [spec.description] if spec.description else []
                lines.append(line + (f" ({'; '.join(notes)})" if notes else ""))
            lines.append(words[self.schema.unknown_predicates])
            predicates = "\n".join(lines)
        text = READER_SCHEMA.format(entity_types=types, predicates=predicates)
        return "\n".join(line for line in text.splitlines() if line)

    # -- truth maintenance ------------------------------------------------------------------

    def single_valued_keys(self, key_of: Callable[[str], str]) -> frozenset[str]:
        """Return the canonical keys of the predicates declared ``cardinality = "one"``."""
        return frozenset(key_of(relation_words(p.name)) for p in self.schema.predicates if p.cardinality == "one")

    def time_sensitive_keys(self, key_of: Callable[[str], str]) -> frozenset[str]:
        """Return the canonical keys of the predicates declared ``time_sensitive``."""
        return frozenset(key_of(relation_words(p.name)) for p in self.schema.predicates if p.time_sensitive)


def schema_rules(context: Context) -> SchemaRules | None:
    """Return the rules of the context's schema (None without one), built once per schema and embedder.

    Raises:
        ValueError: If the schema file is missing or malformed (:func:`load_user_schema`).
    """
    if not context.schema:
        return None
    return _rules(load_user_schema(context.schema), context.embeddings, context.predicate_embedding_similarity)


@lru_cache(maxsize=8)
def _rules(schema: UserSchema, embeddings: str, threshold: float) -> SchemaRules:
    return SchemaRules(schema, load_embeddings(embeddings), threshold)


def single_valued_keys(context: Context) -> frozenset[str]:
    """Return the predicate keys the context's schema declares one-valued (for ``domain.truth``'s hook)."""
    rules = schema_rules(context)
    return rules.single_valued_keys(get_predicate_matcher(context).key) if rules is not None else frozenset()
