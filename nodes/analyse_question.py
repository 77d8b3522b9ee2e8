"""Answerer, stage one: what is the question about and what does it want?

Rule-based analysis (language, entity mentions, content keywords, expected answer
type, intent) works offline in Chinese and English; first-person words are resolved
to the speaker, so 小李 asking "我最爱吃什么" searches 小李's memories.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from language.question import analyse_question as analyse
from schemas.context import RunContext
from schemas.models import DEFAULT_SPEAKER
from schemas.state import BrokerState


def analyse_question(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Analyse ``state["question"]`` into entities, keywords, answer type and intent."""
    speaker = (state.get("speaker") or "").strip() or DEFAULT_SPEAKER
    return {"analysis": analyse(state["question"], speaker)}
