"""Reading: turn one perceived text into quintuples, by the offline rules or a chat model.

Offline (no chat model) the rule-based extractor handles Chinese and English
declaratives and drops metaphors, hypotheticals, pure emotions and small talk. With a
chat model, the model fills the same ``Extraction`` schema through structured output;
first-person words are resolved to the speaker the same way in both modes.

A model that fails (timeout, HTTP error, a reply that does not parse) does not lose the
text: the rules read it, the reading's notes say so, and it is marked as read by the
rules because the model failed (``READ_FALLBACK``), so ingesting it again with a
working model reads it again and adds the model's facts.

A text that comes with its facts (``Perception.given_facts``: a facts file, a LangChain
``GraphDocument``) is not read at all: :func:`read_given` takes the facts as the
reading (``READ_GIVEN``), with first person resolved to the speaker as for a model's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.names import bounded_names
from elephant_broker.language.pronouns import is_first_person
from elephant_broker.language.segment import detect_language
from elephant_broker.prompts.reader import READER_SYSTEM_EN, READER_SYSTEM_ZH, READER_USER
from elephant_broker.providers.chat_models import ModelError, ask_model
from elephant_broker.schemas.models import READ_FALLBACK, READ_GIVEN, Extraction, Quintuple, ReadBy

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reading:
    """What one reading of a text found, and how it was read."""

    quintuples: list[Quintuple]
    read_by: ReadBy
    notes: list[str] = field(default_factory=list)
    """A model that failed, and that the offline rules read the text instead."""


def read(text: str, speaker: str, llm_spec: str = "") -> Reading:
    """Read a text said by ``speaker``: with the chat model ``llm_spec``, else (or if it fails) with the rules."""
    if not llm_spec:
        return Reading(extract_with_rules(text, speaker), "rules")
    try:
        return Reading(extract_with_llm(text, speaker, llm_spec), "model")
    except ModelError as error:
        logger.info("%s; reading with the offline rules", error)
        note = (
            f"{error}; the offline Reader read the text instead "
            "(ingest it again once the model works to add the model's facts)"
        )
        return Reading(extract_with_rules(text, speaker), READ_FALLBACK, [note])


def read_given(facts: Sequence[Quintuple], speaker: str) -> Reading:
    """Take facts given with a text as its reading: nothing is extracted, the Reader is skipped.

    First-person names (我, I) become the speaker, as in a model's reading; everything
    after this (entity resolution, canonical predicates, conflicts, provenance) is the
    path every reading takes.
    """
    return Reading([_resolve_first_person(fact, speaker) for fact in facts], READ_GIVEN)


def extract_with_rules(text: str, speaker: str) -> list[Quintuple]:
    """Read the text with the offline rules; a rule that fails yields no facts, never an error."""
    try:
        return extract_quintuples(text, speaker)
    except Exception:
        # A rule that trips over an odd sentence must not lose the episode: it is
        # stored (and searchable) without facts, and the failure is logged.
        logger.exception("rule-based extraction failed; storing the episode without facts")
        return []


def extract_with_llm(text: str, speaker: str, llm_spec: str) -> list[Quintuple]:
    """Ask the chat model for quintuples in the ``Extraction`` schema.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    system = READER_SYSTEM_ZH if detect_language(text) == "zh" else READER_SYSTEM_EN
    extraction = ask_model(
        llm_spec, Extraction, [("system", system), ("user", READER_USER.format(speaker=speaker, text=text))]
    )
    return bounded_names([_resolve_first_person(q, speaker) for q in extraction.quintuples])


def _resolve_first_person(quintuple: Quintuple, speaker: str) -> Quintuple:
    # Models sometimes keep "我"/"I" despite the prompt; the graph must not.
    updates: dict[str, Any] = {}
    if is_first_person(quintuple.subject):
        updates.update(subject=speaker, subject_type="Person")
    if is_first_person(quintuple.object):
        updates.update(object=speaker, object_type="Person")
    return quintuple.model_copy(update=updates) if updates else quintuple
