"""``elephant eval locomo`` on a tiny conversation in LoCoMo's format (the real file is only read by path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker, reciprocal_rank_fusion
from elephant_broker.broker.eval_locomo import best_sentence, evaluate, load_conversations, token_f1, turns_of
from elephant_broker.schemas.models import Episode

SAMPLE = [
    {
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! Good to see you!"},
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "I work at a bakery in Boston."},
                {"speaker": "Caroline", "dia_id": "D1:3", "text": "I adopted a dog named Biscuit."},
                {"speaker": "Melanie", "dia_id": "D1:4", "text": "Thanks!", "blip_caption": "a cake with candles"},
            ],
            "session_2_date_time": "2:00 pm on 20 May, 2023",
            "session_2": [
                {"speaker": "Caroline", "dia_id": "D2:1", "text": "Thanks!"},
                {"speaker": "Melanie", "dia_id": "D2:2", "text": "I started painting sunsets last week."},
            ],
        },
        "qa": [
            {"question": "Where does Melanie work?", "answer": "a bakery", "evidence": ["D1:2"], "category": 4},
            {
                "question": "What is the name of Caroline's dog?",
                "answer": "Biscuit",
                "evidence": ["D1:3"],
                "category": 1,
            },
            {"question": "What did Melanie start?", "answer": "painting", "evidence": ["D2:2"], "category": 2},
            {"question": "What is Caroline's cat called?", "adversarial_answer": "x", "evidence": [], "category": 5},
        ],
    }
]


@pytest.fixture
def sample_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo_tiny.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    return path


def test_turns_keep_speaker_session_date_and_dia_id(sample_file: Path) -> None:
    turns = turns_of(load_conversations(sample_file)[0], "agent")
    assert [turn.external_id for turn in turns] == ["D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2"]
    assert turns[1].speaker == "Melanie" and turns[1].session_id == "session_1"
    assert turns[1].time == "1:56 pm on 8 May, 2023"
    assert "a cake with candles" in turns[3].text


def test_identical_turns_stay_separate_episodes(broker: Broker, sample_file: Path) -> None:
    turns = turns_of(load_conversations(sample_file)[0], "agent")
    assert broker.remember_many(turns).episodes == len(turns)  # "Thanks!" twice, two turns


def test_evaluation_reports_both_rankings_in_the_documented_shape(broker: Broker, sample_file: Path) -> None:
    result = evaluate(broker, sample_file, ks=(1, 3))
    assert result["questions"] == 3  # category 5 is skipped
    for name in ("broker", "recall_baseline", "dense_baseline", "dense_text_only_baseline"):
        figures = result[name]
        assert set(figures) == {"recall@1", "recall@3", "by_category"}
        assert 0.0 <= figures["recall@1"] <= figures["recall@3"] <= 1.0
        assert set(figures["by_category"]) == {"1", "2", "4"}
    assert result["broker"]["recall@3"] == 1.0  # six turns: every gold turn is among the episodes ask cites
    assert result["recall_baseline"]["recall@3"] == 1.0


def test_evaluation_measures_the_episodes_ask_cites(broker: Broker, sample_file: Path) -> None:
    result = evaluate(broker, sample_file, ks=(1,))
    cited = broker.ask("Where does Melanie work?", agent_id="locomo-tiny").episodes
    assert [episode.external_id for episode in cited][:1] == ["D1:2"]
    assert result["broker"]["by_category"]["4"]["recall@1"] == 1.0


def test_cut_offs_stop_at_what_an_answer_cites(broker: Broker, sample_file: Path) -> None:
    with pytest.raises(ValueError, match="from 1 to 10"):
        evaluate(broker, sample_file, ks=(5, 20))


def test_a_file_that_is_not_locomo_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"qa": []}', encoding="utf-8")
    with pytest.raises(ValueError, match="LoCoMo"):
        load_conversations(bad)


def test_reciprocal_rank_fusion_prefers_items_ranked_well_by_both() -> None:
    def episode(eid: str) -> Episode:
        return Episode(id=eid, agent_id="a", session_id="s", speaker="u", source="t", text=eid, created_at=0)

    a, b, c = episode("a"), episode("b"), episode("c")
    assert [e.id for e in reciprocal_rank_fusion([[a, b, c], [b, c]])] == ["b", "c", "a"]
    assert reciprocal_rank_fusion([]) == []


def test_cli_eval_json(cli, sample_file: Path) -> None:
    result = json.loads(cli("--quiet", "eval", "locomo", str(sample_file), "--k", "1,3", "--json").stdout)
    assert result["questions"] == 3 and "recall@3" in result["dense_baseline"]
    bad = cli("eval", "locomo", str(sample_file), "--k", "ten", check=False)
    assert bad.returncode != 0 and "--k" in bad.stderr
    too_deep = cli("eval", "locomo", str(sample_file), "--k", "5,20", check=False)
    assert too_deep.returncode != 0 and "from 1 to 10" in too_deep.stderr


def test_token_f1_is_squad_style() -> None:
    assert token_f1("a bakery", "The bakery") == 1.0
    assert token_f1("Biscuit, a dog", "Biscuit") == pytest.approx(2 / 3)
    assert token_f1("", "Biscuit") == 0.0 and token_f1("cat", "Biscuit") == 0.0
    assert (
        best_sentence("Hi there! I work at a bakery in Boston.", "Where do you work?")
        == "I work at a bakery in Boston."
    )


def test_answers_are_scored_by_category_beside_the_extractive_baseline(broker: Broker, sample_file: Path) -> None:
    result = evaluate(broker, sample_file, ks=(1, 3), answers=True)
    assert result["questions"] == 3  # recall still counts the answerable questions only
    ours, baseline = result["answers"]["broker"], result["answers"]["extractive_baseline"]
    for figures in (ours, baseline):
        assert set(figures) == {
            "f1",
            "f1_without_abstention",
            "abstained_unanswerable",
            "abstained_answerable",
            "by_category",
        }
        assert set(figures["by_category"]) == {"1", "2", "4", "5"}
        assert figures["by_category"]["5"]["questions"] == 1
    assert baseline["abstained_unanswerable"] == 0.0  # the baseline always answers
    # Caroline has no cat: ask abstains; the dog's name is answered exactly.
    assert ours["abstained_unanswerable"] == 1.0
    assert ours["by_category"]["1"]["f1"] == 1.0
    assert ours["f1"] >= ours["f1_without_abstention"] - 1e-9 or ours["abstained_answerable"] > 0


def test_cli_eval_answers_json(cli, sample_file: Path) -> None:
    result = json.loads(cli("--quiet", "eval", "locomo", str(sample_file), "--answers", "--json").stdout)
    assert 0.0 <= result["answers"]["broker"]["f1"] <= 1.0
    assert "extractive_baseline" in result["answers"]
    assert "answers" not in json.loads(cli("--quiet", "eval", "locomo", str(sample_file), "--json").stdout)
