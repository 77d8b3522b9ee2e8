"""Reader: turn one perceived text into quintuples.

Offline (no ``ELEPHANT_LLM``) the rule-based extractor handles Chinese and English
declaratives and drops metaphors, hypotheticals, pure emotions and small talk. With a
chat model, the model fills the same ``Extraction`` schema through structured output;
first-person words are resolved to the speaker the same way in both modes.

A model that fails (timeout, HTTP error, a reply that does not parse) does not lose the
text: the rules read it, the run's notes say so, and the episode is stored as read by
the rules because the model failed, so ingesting it again with a working model reads
it again and adds the model's facts. An episode already stored and read as well as it
can be is not sent to the model again.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from domain.episodes import make_episode, needs_writing
from language.extract import extract_quintuples
from language.names import bounded_names
from language.pronouns import is_first_person
from language.segment import detect_language
from prompts.reader import READER_SYSTEM_EN, READER_SYSTEM_ZH, READER_USER
from providers.chat_models import ModelError, ask_model
from providers.resources import get_store, request_scope
from schemas.context import RunContext, deployment
from schemas.ids import EPISODE_TOO_LONG_HINT, MAX_EPISODE_CHARS, check_text
from schemas.models import DEFAULT_SPEAKER, READ_FALLBACK, Extraction, Quintuple
from schemas.state import BrokerState

logger = logging.getLogger(__name__)


def read_text(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Extract quintuples from ``state["text"]`` (rules offline, the LLM when configured)."""
    # One episode is read at a time: graph input (langgraph dev, a compiled graph) that
    # did not come through Broker.remember's splitting is bounded here, before any reading.
    text = check_text(state["text"], "text", MAX_EPISODE_CHARS, EPISODE_TOO_LONG_HINT)
    speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
    context = deployment(runtime.context)
    # The policy is fixed when the ingest starts: a run resumed after a review pause keeps it.
    update: dict[str, Any] = {"review_policy": context.review_policy}
    if not context.llm:
        return {**update, "quintuples": extract_with_rules(text, speaker), "read_by": "rules"}
    scope = request_scope(state.get("agent_id"), context)
    if not needs_writing(get_store(context), scope, make_episode(state, scope).id, context.llm):
        # Stored, and read by the model already: build_facts skips it, so do not ask again.
        return {**update, "quintuples": [], "read_by": "model"}
    try:
        return {**update, "quintuples": extract_with_llm(text, speaker, context.llm), "read_by": "model"}
    except ModelError as error:
        logger.info("%s; reading with the offline rules", error)
        note = (
            f"{error}; the offline Reader read the text instead "
            "(ingest it again once the model works to add the model's facts)"
        )
        return {**update, "quintuples": extract_with_rules(text, speaker), "read_by": READ_FALLBACK, "notes": [note]}


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
