"""The ingest graph's streamed updates: what Studio and ``stream_mode="updates"`` show, step by step.

No node update holds a ``None`` (Studio would show ``null``) or an ``Overwrite`` wrapper
(serialised as ``{"value": ...}``); a key with nothing to say is left out.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.graphs.ingest import graph
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import EpisodeWrite, IngestReport
from langgraph.types import Overwrite

NEW = {"text": "小李住在北京。", "speaker": "小李"}
CONFLICTING = {"text": "小李住在上海。", "speaker": "小李"}


def stream(request: dict[str, Any], context: Context) -> list[tuple[str, dict[str, Any]]]:
    """Run one ingest and return its updates as ``(node, update)``, checking each is clean."""
    steps: list[tuple[str, dict[str, Any]]] = []
    for chunk in graph.stream(request, context=context, stream_mode="updates"):
        for node, update in chunk.items():
            assert isinstance(update, dict) and update, f"{node} streamed {update!r}"
            for key, value in update.items():
                assert value is not None, f"{node} streamed {key}=None"
                assert not isinstance(value, Overwrite), f"{node} streamed {key} as an Overwrite"
                assert not (isinstance(value, dict) and set(value) == {"value"}), f"{node} streamed {key}={value!r}"
            steps.append((node, update))
    return steps


def test_streamed_updates_hold_no_null_and_no_wrapper(context: Context) -> None:
    new = stream(NEW, context)
    assert [node for node, _ in new] == [
        "read_text",
        "resolve_entities",
        "build_facts",
        "detect_conflicts",
        "commit_episode",
    ]
    assert new[-1][1]["report"] == IngestReport(episodes=1, facts=1, entities=2)

    # A repeat writes nothing: no plan is streamed, and the run ends after build_facts.
    repeat = stream(NEW, context)
    assert [node for node, _ in repeat] == ["read_text", "resolve_entities", "build_facts"]
    assert repeat[0][1]["needs_writing"] is False
    assert all("plan" not in update for _, update in repeat)
    assert repeat[-1][1] == {"report": IngestReport()}

    conflicting = stream(CONFLICTING, context)
    assert [node for node, _ in conflicting] == [
        "read_text",
        "resolve_entities",
        "build_facts",
        "detect_conflicts",
        "review_conflicts",
        "commit_episode",
    ]
    updates = dict(conflicting)
    assert [conflict.kind for conflict in updates["detect_conflicts"]["conflicts"]] == ["single_value"]
    [decided] = updates["review_conflicts"]["conflicts"]
    assert (decided.decision, decided.decided_by) == ("keep_new", "auto")
    reviewed = updates["review_conflicts"]["plan"]
    assert isinstance(reviewed, EpisodeWrite) and reviewed.conflicts == [decided]
    assert updates["commit_episode"] == {"report": IngestReport(episodes=1, facts=1, entities=1, conflicts=1)}
