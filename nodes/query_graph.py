"""Answerer, LLM mode: answer a counting, listing or filtering question with a generated Cypher query.

A thin adapter over ``domain.graph_query.query_memory`` (text-to-Cypher: a read-only,
scoped, bounded query the chat model writes, cached by question pattern). It runs beside
``retrieve_evidence`` and only adds evidence: the rows, and the facts they name join
``found_facts``. Offline it does nothing; a failure leaves no rows and the error.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.graph_query import QueryCache, gave_up, query_memory
from elephant_broker.providers.audit import digest
from elephant_broker.providers.resources import get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import AnswerState
from elephant_broker.store.base import StoreError
from langgraph.runtime import Runtime


def query_graph(state: AnswerState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Answer the question with a generated read-only Cypher query (LLM mode only).

    Returns:
        ``query_rows`` (JSON-safe dicts, at most the limit) and, as ``found_facts``, the
        facts whose ids the rows name; with no model configured, nothing. When both the
        query and its repair fail, no rows and the error as ``query_error``.
    """
    context = deployment(runtime.context)
    if not context.llm:
        return {}
    try:
        store = get_store(context)
    except StoreError as error:
        outcome = gave_up(f"cannot read the graph schema: {error}")
    else:
        outcome = query_memory(
            store,
            state["scope"],
            state["question"],
            state["analysis"].entities,
            state["asker"],
            context.llm,
            QueryCache.in_home(context.home),
            limit=context.cypher_limit,
            timeout_ms=context.cypher_timeout_ms,
        )
    update: dict[str, Any] = {"query_rows": outcome.rows}
    if outcome.error is None:
        update["found_facts"] = outcome.facts
    else:
        update["query_error"] = outcome.error
    if outcome.cypher is not None:
        update["query_sha256"] = digest(outcome.cypher)
    if outcome.note is not None:
        update["notes"] = [outcome.note]
    return update
