"""Node ``read_text``: normalise the request once, then read the text into quintuples.

The request is checked and completed here, before anything is read: the text's bound,
the memory scope, the episode record (speaker, session and source with their
defaults), the facts it was derived from, the review policy, and whether the episode
needs writing at all. Later nodes read these from the state. The reading itself is
``domain.reading.read`` (the rules offline, the chat model when configured, the rules
again when the model fails); a text given with its facts (``given_facts``) is not read, its
facts are the reading (``domain.reading.read_given``). An episode already stored and
read as well as it can be is not read again. The Reader gets the piece's
``preceding_text`` as context, the LLM cache of the data directory and the user schema;
in LLM mode the node starts the run's report with what the model cost (the ``report``
reducer keeps those counts through the later nodes' reports).
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.episodes import check_derived_from, make_episode, needs_writing
from elephant_broker.domain.privacy import masker_for
from elephant_broker.domain.reading import correction_context, cost_report, read, read_given
from elephant_broker.domain.user_schema import schema_rules
from elephant_broker.providers.chat_models import ModelUsage
from elephant_broker.providers.llm_cache import llm_cache_for
from elephant_broker.providers.resources import get_store, request_scope
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.ids import EPISODE_TOO_LONG_HINT, MAX_EPISODE_CHARS, check_text
from elephant_broker.schemas.models import READ_GIVEN, Quintuple
from elephant_broker.schemas.state import IngestState
from langgraph.runtime import Runtime


def read_text(state: IngestState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Normalise the request and extract quintuples from its text (rules offline, the LLM when configured)."""
    # One episode is read at a time: graph input (langgraph dev, a compiled graph) that
    # did not come through Broker.remember's splitting is bounded here, before any reading.
    text = check_text(state["text"], "text", MAX_EPISODE_CHARS, EPISODE_TOO_LONG_HINT)
    context = deployment(runtime.context)
    store = get_store(context)
    scope = request_scope(state.get("agent_id"), context)
    # Facts given with the text (a facts file, a GraphDocument) replace its reading.
    facts = state.get("given_facts")
    given = None if facts is None else [Quintuple.model_validate(fact) for fact in facts]
    # Sensitive values become tokens before anything is read or stored (a Broker did it already).
    masker = masker_for(context)
    if masker is not None:
        text = masker.mask(text)
        given = None if given is None else [masker.mask_quintuple(fact) for fact in given]
    episode = make_episode(
        scope,
        text,
        speaker=state.get("speaker"),
        session_id=state.get("session_id"),
        source=state.get("source"),
        time=state.get("time"),
        external_id=state.get("external_id"),
        given=given,
    )
    update: dict[str, Any] = {
        # The policy is fixed when the ingest starts: a run resumed after a review pause keeps it.
        "review_policy": context.review_policy,
        "scope": scope,
        "episode": episode,
        # Checked before the already-stored shortcut: a bad id is refused, never passed over.
        "derived_from_ids": check_derived_from(store, scope, state.get("derived_from") or []),
    }
    if context.llm:
        # Written on every run in LLM mode, so a reused thread does not report an earlier run's cost.
        update["report"] = cost_report(ModelUsage())
    if not needs_writing(store, scope, episode.id, context.llm):
        # Stored, and read as well as it can be: nothing to read, resolve or write.
        read_by = READ_GIVEN if given is not None else "model" if context.llm else "rules"
        return {**update, "needs_writing": False, "quintuples": [], "read_by": read_by}
    if given is not None:
        reading = read_given(given, episode.speaker)
    else:
        # A correction ("I meant …") is read against the speaker's previous turn in the session.
        preceding = state.get("preceding_text") or correction_context(store, scope, [episode])[0]
        reading = read(
            text,
            episode.speaker,
            context.llm,
            preceding=preceding,
            cache=llm_cache_for(context),
            schema=schema_rules(context),
        )
    update |= {"needs_writing": True, "quintuples": reading.quintuples, "read_by": reading.read_by}
    if reading.usage is not None:
        update["report"] = cost_report(reading.usage)
    if reading.notes:
        update["notes"] = reading.notes
    return update
