"""Routers are pure functions of plain state dicts."""

from __future__ import annotations

from elephant_broker.nodes.routing import route_after_analyse, route_after_build, route_after_detect, route_request
from elephant_broker.schemas.models import Episode, EpisodeWrite


def test_questions_go_to_the_answerer_and_texts_to_ingest() -> None:
    assert route_request({"question": "谁精通 Python？"}) == "answer"
    assert route_request({"text": "小李精通 Python。"}) == "ingest"
    assert route_request({"question": "", "text": "x"}) == "ingest"


def test_a_stored_episode_is_not_committed_again() -> None:
    episode = Episode(id="e", agent_id="a", session_id="s", speaker="u", source="t", text="x", created_at=0)
    plan = EpisodeWrite(scope="a", episode=episode)
    assert route_after_build({"needs_writing": True, "plan": plan}) == "detect_conflicts"
    assert route_after_build({"needs_writing": False}) == "__end__"
    # A plan left in the state by an earlier run on the same thread is not written again.
    assert route_after_build({"needs_writing": False, "plan": plan}) == "__end__"


def test_analysed_questions_go_to_retrieval() -> None:
    assert route_after_analyse({}) == "retrieve_evidence"


def test_contradictions_go_to_review_and_the_rest_is_committed() -> None:
    assert route_after_detect({"conflicts": []}) == "commit_episode"
    assert route_after_detect({"conflicts": ["a conflict"]}) == "review_conflicts"  # type: ignore[list-item]
