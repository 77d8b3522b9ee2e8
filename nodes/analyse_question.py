"""Answerer, stage one: normalise the request and analyse what the question is about.

The request is read once, here: who asks (``DEFAULT_SPEAKER`` when no one is named),
whose memory is searched (the agent id, else the run's), the instant to answer as of,
and the question with first-person words resolved to the speaker, so 小李 asking
"我最爱吃什么" searches 小李's memories. Later nodes read these from the state.

Rule-based analysis (language, entity mentions, content keywords, expected answer
type, intent) works offline in Chinese and English.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.privacy import masker_for
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.language.question import analyse_question as analyse
from elephant_broker.providers.resources import request_scope
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.models import DEFAULT_SPEAKER, parse_instant
from elephant_broker.schemas.state import AnswerState
from langgraph.runtime import Runtime


def analyse_question(state: AnswerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Resolve speaker, scope and as-of, and analyse the question into entities, keywords and intent."""
    speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
    context = deployment(runtime.context)
    question = state["question"]
    update: dict[str, Any] = {}
    # A sensitive value asked about is searched for as its token (a Broker masked it already).
    masker = masker_for(context)
    if masker is not None and (masked := masker.mask(question)) != question:
        question = update["question"] = masked
    update |= {
        "asker": speaker,
        "scope": request_scope(state.get("agent_id"), context),
        "resolved_question": resolve_first_person(question, speaker),
        "analysis": analyse(question, speaker),
    }
    as_of = state.get("as_of")
    if as_of:
        update["as_of_ms"] = parse_instant(as_of)
    return update
