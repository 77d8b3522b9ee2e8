"""Answerer, stage three: write the answer from the gathered evidence, and cite it.

A thin adapter over ``domain.answers.write_answer``: offline the answer is composed
from the graph, with a chat model the model writes it and cites fact and episode ids.
This node writes the answer graph's output: the answer, exactly the facts and episodes
it rests on (the evidence gathered before stays in ``found_facts``/``episode_rankings``),
and what used to be true.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.answers import write_answer
from elephant_broker.providers.audit import audit_api_run
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import AnswerState
from langgraph.runtime import Runtime


def answer_question(state: AnswerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Write the answer (composed offline, or by the configured chat model)."""
    context = deployment(runtime.context)
    history = state.get("superseded", [])
    reply = write_answer(
        state["question"],
        state["resolved_question"],
        state["asker"],
        state["analysis"],
        state.get("anchors", []),
        state.get("found_facts", []),
        state.get("episode_rankings", []),
        hops=state.get("hops", []),
        sub_questions=state.get("sub_questions", []),
        history=history,
        query_rows=state.get("query_rows", []),
        llm_spec=context.llm,
    )
    audit_api_run(
        runtime.context,
        context,
        "ask",
        state["scope"],
        session=state.get("session_id"),
        ids=[*(fact.id for fact in reply.facts), *(episode.id for episode in reply.episodes)],
        queries=[state["question"]],
        hashes=[state["query_sha256"]] if state.get("query_sha256") else [],
    )
    update: dict[str, Any] = {
        "answer": reply.answer,
        "answered": reply.answered,
        "value": reply.value,
        "facts": reply.facts,
        "episodes": reply.episodes,
        "related": reply.related,
        "history": history if reply.answered else [],
    }
    if reply.reason:
        update["reason"] = reply.reason
    if reply.kind:
        update["kind"] = reply.kind
    if reply.notes:
        update["notes"] = reply.notes
    return update
