"""``elephant entities``, ``entities merges`` and ``entities unmerge`` through the console script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_merge_listed_and_unmerged_from_the_command_line(cli, tmp_path: Path) -> None:
    turns = tmp_path / "chat.jsonl"
    turns.write_text(
        "\n".join(
            json.dumps(turn, ensure_ascii=False)
            for turn in [
                {"speaker": "小明", "text": "小明毕业于北京大学。"},
                {"speaker": "小红", "text": "小红毕业于北大。"},
                {"speaker": "Bob", "text": "Bob is learning JavaScript."},
                {"speaker": "Alice", "text": "Alice likes JS."},
                {"speaker": "小王", "text": "我最爱吃苹果。"},
                {"speaker": "小李", "text": "小李在苹果公司上班。"},
            ]
        ),
        encoding="utf-8",
    )
    report = json.loads(cli("ingest", str(turns), "--json").stdout)
    assert report["episodes"] == 6

    entities = json.loads(cli("entities", "--json").stdout)
    assert isinstance(entities, list)
    for item in entities:  # the JSON shape is a list of Entity objects
        assert {"id", "name", "type", "aliases", "mention_count", "first_seen", "last_seen"} <= set(item)
    by_name = {item["name"]: item for item in entities}
    assert "北大" in by_name["北京大学"]["aliases"] and "JS" in by_name["JavaScript"]["aliases"]
    assert "北大" not in by_name and "JS" not in by_name
    assert by_name["苹果"]["id"] != by_name["苹果公司"]["id"]

    merges = json.loads(cli("entities", "merges", "--json").stdout)
    by_alias = {record["alias"]: record for record in merges}
    assert set(by_alias) == {"北大", "JS"}
    pku = by_alias["北大"]
    assert pku["into_name"] == "北京大学" and pku["method"] == "fulltext" and pku["undone_at"] is None
    assert len(pku["episode_ids"]) == 1 and len(pku["fact_ids"]) == 1
    assert "abbreviation" in pku["reason"]
    table = cli("entities", "merges").stdout
    assert "北大" in table and "active" in table

    [before] = [f for f in json.loads(cli("facts", "--entity", "北大", "--json").stdout) if f["subject"] == "小红"]
    assert before["object"] == "北京大学"

    undone = json.loads(cli("entities", "unmerge", pku["id"], "--json").stdout)
    assert undone["id"] == pku["id"] and undone["undone_at"] is not None and undone["restored_id"]

    [after] = [f for f in json.loads(cli("facts", "--entity", "北大", "--json").stdout) if f["subject"] == "小红"]
    assert after["object"] == "北大" and after["object_id"] == undone["restored_id"]
    for field in ("id", "weight", "confidence", "episode_ids", "predicate", "status"):
        assert after[field] == before[field], field
    entities = {item["name"]: item for item in json.loads(cli("entities", "--json").stdout)}
    assert "北大" in entities and "北大" not in entities["北京大学"]["aliases"]

    merges = {record["alias"]: record for record in json.loads(cli("entities", "merges", "--json").stdout)}
    assert merges["北大"]["undone_at"] is not None and merges["JS"]["undone_at"] is None  # kept, marked

    human = cli("entities", "unmerge", merges["JS"]["id"]).stdout
    assert "Unmerged 'JS' from 'JavaScript'" in human

    again = cli("entities", "unmerge", pku["id"], "--json", check=False)
    assert again.returncode != 0 and "already undone" in again.stderr and again.stdout == ""
    missing = cli("entities", "unmerge", "mrg_nope", check=False)
    assert missing.returncode != 0 and missing.stderr.startswith("error:")
