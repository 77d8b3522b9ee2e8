"""langgraph.json: every graph entry imports, is a compiled graph Studio can load, and is described.

``langgraph validate`` checks only the shape of the file; this also imports each
entry the way ``langgraph dev`` does, without starting a server.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from langgraph.graph.state import CompiledStateGraph

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "langgraph.json"


def entries() -> dict[str, dict[str, Any]]:
    return json.loads(CONFIG.read_text(encoding="utf-8"))["graphs"]


def load(reference: str) -> Any:
    """Import ``module.path:attribute`` or ``./file.py:attribute`` (both forms langgraph dev accepts)."""
    target, _, attribute = reference.rpartition(":")
    if "/" in target:
        spec = importlib.util.spec_from_file_location(Path(target).stem, ROOT / target)
        assert spec is not None and spec.loader is not None, reference
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    return getattr(module, attribute)


def test_config_lists_the_graphs_and_installs_the_project() -> None:
    config = json.loads(CONFIG.read_text(encoding="utf-8"))
    assert set(config["graphs"]) == {"broker", "ingest", "ingest_batch", "answer"}
    assert "." in config["dependencies"]


@pytest.mark.parametrize("graph_id", sorted(entries()))
def test_entry_imports_a_described_compiled_graph(graph_id: str) -> None:
    entry = entries()[graph_id]
    assert isinstance(entry, dict) and set(entry) == {"path", "description"}, "use the {path, description} form"
    assert len(entry["description"].strip()) >= 40, "Studio shows the description: say what the graph does"
    graph = load(entry["path"])
    assert isinstance(graph, CompiledStateGraph)
    assert graph.name == graph_id
    # langgraph dev refuses a graph compiled with its own checkpointer.
    assert graph.checkpointer is None
    # Studio renders its input form and the run-settings form from these, each field with its description.
    fields = graph.get_input_jsonschema()["properties"]
    assert fields and all(field.get("description") for field in fields.values()), graph_id
    run_settings = set(graph.get_context_jsonschema()["properties"])
    assert {"agent_id", "review_policy"} <= run_settings and not {"home", "store", "llm"} & run_settings


def test_langgraph_cli_accepts_the_config() -> None:
    config = pytest.importorskip("langgraph_cli.config", reason="langgraph-cli is not installed (the studio extra)")
    validated = config.validate_config_file(CONFIG)
    assert set(validated["graphs"]) == set(entries())
