"""Memory as text a model reads: answers, facts and episodes with the ids to cite.

One rendering for every surface that hands results to a model (the LangChain tools and
the MCP server), next to the structured result each of them also returns.
"""

from __future__ import annotations

from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.models import Answer, Episode, Fact

REASONS = {
    "nothing_found": "nothing in memory bears on the question",
    "wrong_kind": "memories bear on the question, but none says the kind of thing asked",
    "contradicted": "the memories that would answer contradict each other",
}
"""Why an answer was withheld, in words a model reads (``Answer.reason``)."""
EPISODE_TEXT_LIMIT = 400
"""Characters of an episode's text shown to the model (the structured result keeps all of it)."""


def describe_answer(answer: Answer) -> str:
    """Render an answer with the ids of the facts and episodes it rests on."""
    lines = [answer.answer]
    if answer.facts:
        lines += ["", "Facts:"]
        lines.extend(f"- {fact_line(fact)}" for fact in answer.facts)
    if answer.history:
        lines += ["", "No longer true:"]
        lines.extend(f"- {fact_line(fact)}" for fact in answer.history)
    if answer.episodes:
        lines += ["", "Sources:"]
        lines.extend(f"- {episode_line(episode)}" for episode in answer.episodes)
    if not answer.answered and answer.reason:
        lines += ["", f"Not answered: {REASONS.get(answer.reason, answer.reason)}."]
    if answer.related.facts or answer.related.episodes:
        # Close to the question but not an answer: the model may judge them, never quote them as one.
        lines += ["", "Related (not an answer):"]
        lines.extend(f"- {fact_line(fact)}" for fact in answer.related.facts)
        lines.extend(f"- {episode_line(episode)}" for episode in answer.related.episodes)
    if answer.notes:  # e.g. the chat model failed and the answer was composed offline
        lines += ["", *(f"Note: {note}" for note in answer.notes)]
    return "\n".join(lines)


def describe_episodes(episodes: list[Episode]) -> str:
    """Render recalled episodes, best first."""
    if not episodes:
        return "Nothing in memory matches."
    return "\n".join([f"{len(episodes)} episode(s), best first:", *(f"- {episode_line(e)}" for e in episodes)])


def fact_line(fact: Fact) -> str:
    """One fact as ``[id] statement (confidence, status, validity)``."""
    notes = [f"confidence {fact.confidence:.2f}"]
    if fact.status != "active":
        notes.append(fact.status)
    if fact.schedule:
        notes.append(fact.schedule)
    if fact.valid_from or fact.valid_to:
        notes.append(f"valid {fact.valid_from or '?'} to {fact.valid_to or 'now'}")
    return f"[{fact.id}] {sentence_of(fact)} ({', '.join(notes)})"


def episode_line(episode: Episode) -> str:
    """One episode as ``[id] speaker (session, time): text``, the text cut to a readable length."""
    text = " ".join(episode.text.split())
    if len(text) > EPISODE_TEXT_LIMIT:
        text = text[: EPISODE_TEXT_LIMIT - 1] + "…"
    when = f", {episode.time}" if episode.time else ""
    return f"[{episode.id}] {episode.speaker} (session {episode.session_id}{when}): {text}"
