"""Routers are pure functions of plain state dicts."""

from __future__ import annotations

from nodes.routing import route_after_analyse, route_after_build, route_after_detect, route_request
from schemas.models import Episode, EpisodeWrite


def test_questions_go_to_the_answerer_and_texts_to_ingest() -> None:
    assert route_request({"question": "谁精通 Python？"}) == "answer"
    assert route_request({"text": "小李精通 Python。"}) == "ingest"
    assert route_request({"question": "", "text": "x"}) == "ingest"


def test_a_stored_episode_is_not_committed_again() -> None:
    episode = Episode(id="e", agent_id="a", session_id="s", speaker="u", source="t", text="x", created_at=0)
    assert route_after_build({"plan": EpisodeWrite(scope="a", episode=episode)}) == "detect_conflicts"
    assert route_after_build({"plan": None}) == "__end__"
    assert route_after_build({}) == "__end__"


def test_analysed_questions_go_to_retrieval() -> None:
    assert route_after_analyse({}) == "retrieve_evidence"


def test_contradictions_go_to_review_and_the_rest_is_committed() -> None:
    assert route_after_detect({"conflicts": []}) == "commit_episode"
    assert route_after_detect({}) == "commit_episode"
    assert route_after_detect({"conflicts": ["a conflict"]}) == "review_conflicts"  # type: ignore[list-item]
