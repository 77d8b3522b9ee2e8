"""Boundary holes a blind hostile tester found on first contact, held shut through the CLI and the Python API.

Each test names the mechanism, not the payload: group options reach their subcommands,
an explicitly empty id is refused like any other bad id, a turn file cannot exhaust
the JSON decoder, invisible text is empty, and every refusal is one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import InvalidInput

from tests.integration.conftest import RunCli

pytestmark = pytest.mark.slow


def _one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def test_a_group_option_reaches_its_subcommand(cli: RunCli) -> None:
    cli("ingest", "--agent", "B", "--source", "paper", "--speaker", "Bob", "--text", "Bob likes tea.")
    cli("ingest", "--source", "paper", "--speaker", "Dee", "--text", "Dee likes figs.")
    cli("sources", "--agent", "B", "set", "paper", "0.1")
    [theirs] = json.loads(cli("sources", "--json", "--agent", "B").stdout)
    [mine] = json.loads(cli("sources", "--json").stdout)
    assert theirs["authority"] == pytest.approx(0.1) and mine["authority"] == pytest.approx(0.7)
    # Given twice with different values, it is refused rather than guessed.
    line = _one_error_line(cli("sources", "--agent", "B", "set", "paper", "0.2", "--agent", "C", check=False))
    assert "--agent given twice" in line


def test_a_group_agent_cannot_undo_another_agents_merge(cli: RunCli) -> None:
    cli("ingest", "--text", "小明毕业于北京大学。")
    cli("ingest", "--text", "小红在北大读书。")
    merges = json.loads(cli("entities", "merges", "--json").stdout)
    if not merges:
        pytest.skip("no merge was made to try to undo")
    [record] = merges
    _one_error_line(cli("entities", "--agent", "B", "unmerge", record["id"], check=False))
    [after] = json.loads(cli("entities", "merges", "--json").stdout)
    assert after["undone_at"] is None


@pytest.mark.parametrize("option", ["--agent", "--speaker", "--session", "--source"])
def test_an_explicitly_empty_id_is_refused_and_nothing_is_written(cli: RunCli, option: str) -> None:
    line = _one_error_line(cli("ingest", option, "", "--text", "Bob likes tea.", check=False))
    assert "empty" in line
    assert json.loads(cli("facts", "--json").stdout) == []


def test_deeply_nested_json_is_one_line_and_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    turns = tmp_path / "deep.jsonl"
    turns.write_text('{"speaker": "Ann", "text": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")
    line = _one_error_line(cli("ingest", str(turns), check=False))
    assert "deep.jsonl:1" in line
    assert json.loads(cli("facts", "--json").stdout) == []


def test_invisible_text_is_empty(cli: RunCli) -> None:
    line = _one_error_line(cli("ingest", "--text", "\u200b\u200b\u2060", check=False))
    assert "text is empty" in line


@pytest.mark.parametrize(
    "arguments",
    [("facts", "--limit", "0"), ("sources", "set", "paper", "notanumber"), ("no-such-command",)],
)
def test_bad_options_are_one_line(cli: RunCli, arguments: tuple[str, ...]) -> None:
    result = cli(*arguments, check=False)
    assert result.returncode == 2
    _one_error_line(result)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda broker: broker.remember("x \ud800", speaker="Ann"), "text"),
        (lambda broker: broker.remember("I like tea.", speaker="Al\u200bice"), "speaker"),
        (lambda broker: broker.ask("Where?", as_of="not-a-date"), "as_of"),
        (lambda broker: broker.ask("Where?", agent_id=""), "agent_id"),
    ],
)
def test_python_api_refusals_are_one_line(context: Context, call, field: str) -> None:  # type: ignore[no-untyped-def]
    broker = Broker(context)
    with pytest.raises(InvalidInput) as refused:
        call(broker)
    message = str(refused.value)
    assert message.startswith(field) and "\n" not in message
    assert broker.counts() == {"episodes": 0, "entities": 0, "facts": 0}
