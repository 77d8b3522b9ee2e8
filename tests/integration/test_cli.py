"""End-to-end tests of the ``elephant`` console script (the contract scripts rely on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.domain.answers import NOT_IN_MEMORY_ZH

pytestmark = pytest.mark.slow


def test_ingest_and_ask_json_contract(cli, tmp_path: Path) -> None:
    turns = tmp_path / "chat.jsonl"
    turns.write_text(
        "\n".join(
            json.dumps({"speaker": "小李", "text": text}, ensure_ascii=False)
            for text in [
                "小李精通 Python。",
                "小李目前在用 n8n 搭建自动化工作流。",
                "n8n的 Code 节点支持Python 和 JS 脚本。",
            ]
        ),
        encoding="utf-8",
    )
    report = json.loads(cli("ingest", str(turns), "--json").stdout)
    assert report == {
        "episodes": 3,
        "facts": report["facts"],
        "entities": report["entities"],
        "conflicts": 0,
        "reread": 0,
        "notes": [],
    }
    assert all(isinstance(report[key], int) for key in report if key != "notes")
    assert report["facts"] >= 4 and report["entities"] >= 4

    answer = json.loads(cli("ask", "帮我在 n8n 写一段脚本，该用什么语言？", "--speaker", "小李", "--json").stdout)
    assert isinstance(answer["answer"], str) and "Python" in answer["answer"]
    for fact in answer["facts"]:
        assert {"subject", "predicate", "object", "confidence", "episode_ids"} <= set(fact)
    assert any(f["subject"] == "小李" and f["object"] == "Python" for f in answer["facts"])
    for episode in answer["episodes"]:
        assert {"id", "text", "speaker", "session_id"} <= set(episode)
    assert (answer["answered"], answer["reason"], answer["value"]) == (True, None, "Python")
    assert set(answer["related"]) == {"facts", "episodes"}

    # Not in memory: one wording, a machine-readable reason, the closest memories apart.
    unknown = json.loads(cli("ask", "小李的生日是哪天？", "--json").stdout)
    assert (unknown["answered"], unknown["value"], unknown["facts"]) == (False, "", [])
    assert unknown["reason"] in ("nothing_found", "wrong_kind", "contradicted")
    assert unknown["answer"] == NOT_IN_MEMORY_ZH
    assert unknown["kind"] == "Time"

    facts = json.loads(cli("facts", "--entity", "小李", "--json").stdout)
    assert any(f["object"] == "Python" for f in facts)
    assert json.loads(cli("conflicts", "--json").stdout) == []

    again = json.loads(cli("ingest", str(turns), "--json").stdout)
    assert again == {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 0, "reread": 0, "notes": []}


def test_text_option_and_human_output(cli) -> None:
    out = cli("ingest", "--text", "I work at Acme Corp.", "--speaker", "Alice", "--agent", "a1").stdout
    assert "Remembered 1 episode" in out
    answer = cli("ask", "Where do I work?", "--speaker", "Alice", "--agent", "a1").stdout
    assert "Acme" in answer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--store", "mysql://localhost/x", "facts"], "unsupported store URL"),
        (["--store", "bolt://127.0.0.1:1", "facts"], "cannot reach Neo4j"),
        (["--store", "falkordb://127.0.0.1:1", "facts"], "cannot reach FalkorDB"),
        (["ingest", "no-such-file.txt"], "no-such-file.txt"),
        (["ingest", "--text", "   "], "text is empty"),
        (["ingest"], "nothing to ingest"),
        (["ask", "  "], "question is empty"),
    ],
)
def test_errors_are_one_clear_line(cli, args: list[str], message: str) -> None:
    result = cli(*args, check=False)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_bad_jsonl_line_is_reported_and_nothing_is_written(cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "a", "text": "小李精通 Python。"}\n{"speaker": "a"}\n', encoding="utf-8")
    result = cli("ingest", str(bad), check=False)
    assert result.returncode != 0 and "bad.jsonl:2" in result.stderr
    assert json.loads(cli("facts", "--json").stdout) == []


def test_markdown_file_is_ingested_as_text(cli, tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nFrank Herbert wrote Dune.\n\nFrank Herbert was born in Tacoma.\n", encoding="utf-8")
    report = json.loads(cli("ingest", str(doc), "--json").stdout)
    assert report["episodes"] == 1 and report["facts"] >= 2
    answer = json.loads(cli("ask", "Who wrote Dune?", "--json").stdout)
    assert "Frank Herbert" in answer["answer"]
    assert answer["episodes"][0]["text"].startswith("# Notes")


def test_human_review_across_commands(cli) -> None:
    cli("ingest", "--text", "我住在杭州。", "--speaker", "小王")
    held = json.loads(
        cli("ingest", "--text", "我住在上海。", "--speaker", "小王", "--review", "human", "--json").stdout
    )
    assert held == {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 1, "reread": 0, "notes": []}
    [conflict] = json.loads(cli("conflicts", "--json").stdout)
    assert conflict["status"] == "open" and conflict["kind"] == "single_value"
    assert conflict["old_fact"]["object"] == "杭州" and conflict["new_fact"]["object"] == "上海"
    decided = json.loads(cli("resolve", conflict["id"], "--keep", "new", "--json").stdout)
    assert (decided["status"], decided["decision"], decided["decided_by"]) == ("decided", "keep_new", "human")
    answer = json.loads(cli("ask", "我住在哪里？", "--speaker", "小王", "--json").stdout)
    assert answer["answer"].startswith("上海")
    assert [fact["object"] for fact in answer["history"]] == ["杭州"]
    then = json.loads(cli("ask", "我住在哪里？", "--speaker", "小王", "--as-of", "2000-01-01", "--json").stdout)
    assert then["facts"] == []
    missing = cli("resolve", conflict["id"], "--keep", "new", check=False)
    assert missing.returncode != 0 and "no open conflict" in missing.stderr
    bad = cli("ask", "我住在哪里？", "--as-of", "yesterday", check=False)
    assert bad.returncode != 0 and "ISO" in bad.stderr and "Traceback" not in bad.stderr


def test_sources_and_derived_facts(cli) -> None:
    cli("ingest", "--text", "Globex的CEO是李四。", "--source", "rumours")
    [ceo] = json.loads(cli("facts", "--json").stdout)
    cli("ingest", "--text", "李四住在纽约。", "--derived-from", ceo["id"], "--source", "assistant")
    sources = {row["name"]: row for row in json.loads(cli("sources", "--json").stdout)}
    assert sources["rumours"] == {"name": "rumours", "episodes": 1, "authority": 0.7}
    updates = json.loads(cli("sources", "set", "rumours", "0.35", "--json").stdout)
    assert len(updates) == 2
    confidences = {f["object"]: f["confidence"] for f in json.loads(cli("facts", "--json").stdout)}
    assert confidences == {"李四": pytest.approx(0.45), "纽约": pytest.approx(0.45)}
    bad = cli("ingest", "--text", "李四很忙。", "--derived-from", "fact_0123456789abcdef0123", check=False)
    assert bad.returncode != 0 and "does not hold" in bad.stderr
    malformed = cli("ingest", "--text", "李四很忙。", "--derived-from", "fact_nope", check=False)
    assert malformed.returncode != 0 and "not a fact id" in malformed.stderr


def test_multi_hop_answer_shows_its_hops(cli) -> None:
    cli("ingest", "--text", "张三的导师是李四。")
    cli("ingest", "--text", "李四在清华大学任教。")
    answer = json.loads(cli("ask", "张三的导师在哪所大学任教？", "--json").stdout)
    assert answer["answer"].startswith("清华大学")
    assert [hop["question"] for hop in answer["hops"]] == ["张三的导师是谁？", "李四在哪所大学任教？"]
    assert [entity["name"] for entity in answer["hops"][0]["answers"]] == ["李四"]
    human = cli("ask", "张三的导师在哪所大学任教？").stdout
    assert "hop 1 张三的导师是谁？ → 李四" in human


def test_demo_answers_every_scripted_question(cli) -> None:
    out = cli("demo").stdout
    for expected in ("建议用 Python", "西红柿", "杭州", "Acme Corp", "Frank Herbert", "Tacoma", "清华大学"):
        assert expected in out, expected
    assert "hop 2: 李四在哪所大学任教？ → 清华大学" in out
    again = cli("demo").stdout  # re-running adds nothing
    assert "0 new episode(s)" in again


def test_eval_extraction_json_contract(cli, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(
        json.dumps(
            [
                {
                    "text": "Mira Chen works at Zorblat Industries.",
                    "triple_list": [["Mira Chen", "employer", "Zorblat Industries"]],
                },
                {"text": "The weather was fine .", "triple_list": []},
            ]
        ),
        encoding="utf-8",
    )
    result = json.loads(cli("eval", "extraction", str(corpus), "--format", "webnlg", "--json").stdout)
    assert {"sentences", "exceptions", "sentences_per_s", "exact", "lenient"} <= result.keys()
    assert result["sentences"] == 2 and result["exceptions"] == 0
    assert set(result["exact"]) == set(result["lenient"]) == {"precision", "recall", "f1"}
    assert result["exact"]["recall"] == 1.0  # the one gold pair, read by the offline rules
    refused = cli("eval", "extraction", str(corpus), "--format", "csv", check=False)
    assert refused.returncode != 0 and "--format" in refused.stderr


def test_feedback_notes_and_audit_json_contract(cli) -> None:
    cli("ingest", "--text", "Ann works at Initech.", "--speaker", "Peter")
    answer = json.loads(cli("ask", "Where does Ann work?", "--json").stdout)
    assert answer["id"].startswith("ans_") and answer["reminders"] == []
    fact_id = answer["facts"][0]["id"]

    report = json.loads(
        cli("feedback", answer["id"], "wrong", "--correction", "Ann works at Globex now.", "--json").stdout
    )
    assert report["answer_id"] == answer["id"] and report["verdict"] == "wrong"
    assert report["lowered"] == [fact_id] and report["raised"] == []
    assert report["correction"]["episodes"] == 1 and report["correction"]["conflicts"] == 1
    assert json.loads(cli("ask", "Where does Ann work?", "--json").stdout)["value"] == "Globex"
    assert json.loads(cli("notes", "--json").stdout) == []

    records = json.loads(cli("audit", "--json").stdout)
    # The text ingest also lists open conflicts, to say whether any await review: a read like any other.
    operations = ["remember", "conflicts", "ask", "remember", "feedback", "ask", "notes"]
    assert [record["operation"] for record in records] == operations
    for record in records:
        assert set(record) == {"at", "surface", "agent", "session", "operation", "ids", "query_sha256"}
        assert record["surface"] == "cli" and record["agent"] == "default"
    assert answer["id"] in records[2]["ids"] and len(records[2]["query_sha256"]) == 1

    bad = cli("feedback", answer["id"], "maybe", check=False)
    assert bad.returncode != 0 and bad.stderr.strip().endswith("verdict: right or wrong, not 'maybe'")
    unknown = cli("feedback", "ans_0123", "right", check=False)
    assert unknown.returncode != 0 and "no answer 'ans_0123'" in unknown.stderr
    assert len(json.loads(cli("audit", "--json").stdout)) == len(records)
