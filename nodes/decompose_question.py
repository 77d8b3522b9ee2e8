"""Answerer, multi-hop: split a question that describes what it asks about into a chain.

"Where was the author of Dune born?" becomes "Who is the author of Dune?" and "Where
was #1 born?"; ``#1`` is filled with the first answer before the second is asked.
Offline, patterns do this (``language.decompose``: 的-chains, "of the", possessives,
relative clauses); with a chat model, the model plans the chain and the patterns are
the fallback for a plan that does not hold together, and for a model that fails. The hop budget (``max_hops``)
is fixed here, so the loop's routers stay pure functions of the state.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from language.decompose import SLOT, decompose
from prompts.answerer import DECOMPOSE_SYSTEM, DECOMPOSE_USER
from providers.chat_models import ModelError, ask_model
from schemas.context import MAX_HOPS_LIMIT, Context, RunContext, deployment
from schemas.models import DEFAULT_SPEAKER
from schemas.state import BrokerState


class Decomposition(BaseModel):
    """The chat model's plan for a question."""

    multi_hop: bool = Field(description="Whether the question needs more than one lookup.")
    sub_questions: list[str] = Field(
        default_factory=list, description="Simple sub-questions in order; #1, #2 refer to earlier answers."
    )


def decompose_question(state: BrokerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Plan the sub-questions of a multi-hop question and fix the hop budget."""
    context = deployment(runtime.context)
    question = state["question"]
    sub_questions: list[str] = []
    notes: list[str] = []
    if context.llm:
        try:
            plan = plan_with_llm(question, state.get("speaker") or DEFAULT_SPEAKER, context)
        except ModelError as error:
            notes.append(f"{error}; the question was split by the offline patterns")
        else:
            if not plan.multi_hop:
                return {"sub_questions": [], "hop_budget": context.max_hops, "hops": []}
            sub_questions = [part.strip() for part in plan.sub_questions]
            if not is_valid_chain(sub_questions):
                sub_questions = []
    if not sub_questions:
        sub_questions = decompose(question)
    update: dict[str, Any] = {"sub_questions": sub_questions, "hop_budget": context.max_hops, "hops": []}
    if notes:
        update["notes"] = notes
    return update


def plan_with_llm(question: str, speaker: str, context: Context) -> Decomposition:
    """Ask the chat model for the sub-questions.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    messages = [
        ("system", DECOMPOSE_SYSTEM.format(max_hops=context.max_hops)),
        ("user", DECOMPOSE_USER.format(question=question, speaker=speaker)),
    ]
    return ask_model(context.llm, Decomposition, messages)


def is_valid_chain(sub_questions: list[str]) -> bool:
    """Whether a plan can run: two to ``MAX_HOPS_LIMIT`` parts, each slot naming an earlier part."""
    if not 2 <= len(sub_questions) <= MAX_HOPS_LIMIT:
        return False
    for position, part in enumerate(sub_questions, start=1):
        if not part:
            return False
        if any(not 1 <= int(number) < position for number in SLOT.findall(part)):
            return False
    return True
