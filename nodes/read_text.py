"""Reader: turn one perceived text into quintuples.

Offline (no ``ELEPHANT_LLM``) the rule-based extractor handles Chinese and English
declaratives and drops metaphors, hypotheticals, pure emotions and small talk. With a
chat model, the model fills the same ``Extraction`` schema through structured output;
first-person words are resolved to the speaker the same way in both modes.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from broker.models import load_chat_model
from language.extract import extract_quintuples
from language.pronouns import is_first_person
from language.segment import detect_language
from prompts.reader import READER_SYSTEM_EN, READER_SYSTEM_ZH, READER_USER
from schemas.context import Context
from schemas.models import DEFAULT_SPEAKER, Extraction, Quintuple
from schemas.state import BrokerState

logger = logging.getLogger(__name__)


def read_text(state: BrokerState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Extract quintuples from ``state["text"]`` (rules offline, the LLM when configured)."""
    text = state["text"]
    speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
    if runtime.context.llm:
        quintuples = extract_with_llm(text, speaker, runtime.context.llm)
    else:
        try:
            quintuples = extract_quintuples(text, speaker)
        except Exception:
            # A rule that trips over an odd sentence must not lose the episode: it is
            # stored (and searchable) without facts, and the failure is logged.
            logger.exception("rule-based extraction failed; storing the episode without facts")
            quintuples = []
    return {"quintuples": quintuples}


def extract_with_llm(text: str, speaker: str, llm_spec: str) -> list[Quintuple]:
    """Ask the chat model for quintuples in the ``Extraction`` schema."""
    model = load_chat_model(llm_spec).with_structured_output(Extraction)
    system = READER_SYSTEM_ZH if detect_language(text) == "zh" else READER_SYSTEM_EN
    result = model.invoke([("system", system), ("user", READER_USER.format(speaker=speaker, text=text))])
    extraction = result if isinstance(result, Extraction) else Extraction.model_validate(result)
    return [_resolve_first_person(q, speaker) for q in extraction.quintuples]


def _resolve_first_person(quintuple: Quintuple, speaker: str) -> Quintuple:
    # Models sometimes keep "我"/"I" despite the prompt; the graph must not.
    updates: dict[str, Any] = {}
    if is_first_person(quintuple.subject):
        updates.update(subject=speaker, subject_type="Person")
    if is_first_person(quintuple.object):
        updates.update(object=speaker, object_type="Person")
    return quintuple.model_copy(update=updates) if updates else quintuple
