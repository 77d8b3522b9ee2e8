"""Graph structure: the drawing is stable, schemas are narrow, no checkpointer is baked in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from elephant_broker.graphs import answer, broker, ingest, ingest_batch
from elephant_broker.schemas.state import BrokerInput
from pydantic import ValidationError

SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.mark.parametrize(
    "module", [ingest, ingest_batch, answer, broker], ids=["ingest", "ingest_batch", "answer", "broker"]
)
def test_graph_drawing_matches_snapshot(module) -> None:
    drawing = module.graph.get_graph(xray=True).draw_mermaid()
    snapshot = SNAPSHOTS / f"{module.__name__.split('.')[-1]}.mmd"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":  # regenerate, review the diff, commit
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(drawing)
    assert snapshot.exists(), f"missing {snapshot}; run with UPDATE_SNAPSHOTS=1 and commit it"
    assert drawing == snapshot.read_text()


def described(schema: dict) -> bool:
    """Whether every field of a JSON schema has a description (Studio shows it beside the field)."""
    return all(field.get("description") for field in schema["properties"].values())


def test_answer_graph_has_a_narrow_public_schema() -> None:
    input_schema = answer.graph.get_input_jsonschema()
    assert set(input_schema["properties"]) == {"question", "speaker", "agent_id", "session_id", "as_of"}
    assert input_schema["required"] == ["question"]
    assert described(input_schema)
    assert set(answer.graph.get_output_jsonschema()["properties"]) == {
        "answer",
        "answered",
        "reason",
        "value",
        "kind",
        "related",
        "facts",
        "episodes",
        "history",
        "hops",
        "notes",
        "query_sha256",  # LLM mode: the hash of the generated query, for the audit log
    }


def test_batch_ingest_graph_takes_perceptions_and_reports_per_text() -> None:
    schema = ingest_batch.graph.get_input_jsonschema()
    assert set(schema["properties"]) == {"perceptions"}
    assert schema["required"] == ["perceptions"]
    assert described(schema)
    assert set(ingest_batch.graph.get_output_jsonschema()["properties"]) == {"report", "reports"}


def test_ingest_graph_takes_a_perception() -> None:
    schema = ingest.graph.get_input_jsonschema()
    assert set(schema["properties"]) == {
        "text",
        "speaker",
        "agent_id",
        "session_id",
        "source",
        "time",
        "external_id",
        "derived_from",
        "given_facts",
    }
    assert schema["required"] == ["text"]
    assert described(schema)


def test_broker_graph_takes_either_and_returns_what_ingest_or_answer_return() -> None:
    schema = broker.graph.get_input_jsonschema()
    assert set(schema["properties"]) == set(ingest.graph.get_input_jsonschema()["properties"]) | set(
        answer.graph.get_input_jsonschema()["properties"]
    )
    assert "required" not in schema and described(schema)
    assert set(broker.graph.get_output_jsonschema()["properties"]) == set(
        ingest.graph.get_output_jsonschema()["properties"]
    ) | set(answer.graph.get_output_jsonschema()["properties"])


def test_broker_input_is_a_text_or_a_question() -> None:
    assert BrokerInput(question="Where does Alice work?").text is None
    assert BrokerInput(text="Alice works at Acme.", speaker="Alice").question is None
    for neither_or_both in ({}, {"text": "Alice works at Acme.", "question": "Where does Alice work?"}):
        with pytest.raises(ValidationError, match="either a text to remember or a question"):
            BrokerInput(**neither_or_both)
    with pytest.raises(ValidationError, match="question is empty"):  # the bounds of Question still apply
        BrokerInput(question=" ")


@pytest.mark.parametrize("module", [ingest, answer, broker])
def test_exported_graphs_have_no_checkpointer(module) -> None:
    assert module.graph.checkpointer is None
    assert module.builder is not None
