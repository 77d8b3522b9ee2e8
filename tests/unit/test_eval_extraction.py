"""``elephant eval extraction``: corpus loading and the pair-matching rules, with a scripted Reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.broker.eval_extraction import Sentence, detokenized, evaluate_extraction, fold, load_sentences
from elephant_broker.schemas.models import Quintuple


def _q(subject: str, obj: str) -> Quintuple:
    return Quintuple(subject=subject, predicate="relates to", object=obj)


def test_names_fold_for_width_case_and_spaces() -> None:
    assert fold("Serie  B") == fold("serie b") == "serieb"
    assert fold("ＡＢＣ 公司") == "abc公司"


def test_exact_and_lenient_matching_of_directed_pairs() -> None:
    sentences = [
        Sentence("one", (("Bolt", "Chris Williams"), ("A.C. Cesena", "Cesena"))),
        Sentence("two", (("甄嬛传", "流潋紫"),)),
    ]
    readings = {
        # exact; lenient only (a longer name); reversed (wrong direction); junk
        "one": [_q("bolt", "chris  williams"), _q("the comics character Bolt", "Chris Williams")],
        "two": [_q("流潋紫", "甄嬛传"), _q("《甄嬛传》", "流潋紫"), _q("天气", "很好")],
    }
    result = evaluate_extraction(sentences, lambda text, _speaker: readings[text])
    assert result["sentences"] == 2 and result["exceptions"] == 0
    assert (result["predicted_pairs"], result["gold_pairs"]) == (5, 3)
    # exact: 1 of 5 predicted pairs right, 1 of 3 gold pairs found
    assert result["exact"] == {"precision": 0.2, "recall": pytest.approx(0.3333), "f1": pytest.approx(0.25)}
    # lenient: bolt pair twice, 《甄嬛传》 once = 3 of 5; gold found: Bolt and 甄嬛传 = 2 of 3
    assert result["lenient"]["precision"] == 0.6 and result["lenient"]["recall"] == pytest.approx(0.6667)
    assert result["unmatched_share"] == 0.4


def test_a_sentence_that_breaks_the_reader_is_counted_and_the_run_goes_on() -> None:
    def reader(text: str, _speaker: str) -> list[Quintuple]:
        if text == "bad":
            raise RecursionError("deep")
        return [_q("A", "B")]

    result = evaluate_extraction([Sentence("bad", (("A", "B"),)), Sentence("ok", (("A", "B"),))], reader)
    assert result["exceptions"] == 1 and result["exact"]["recall"] == 0.5 and result["exact"]["precision"] == 1.0


def test_both_corpus_formats_load_and_a_malformed_line_is_named(tmp_path: Path) -> None:
    duie = tmp_path / "sample.jsonl"
    line = {
        "text": "《晴空》是李雷创作的小说",
        "spo_list": [
            {
                "predicate": "作者",
                "subject": "晴空",
                "object": {"@value": "李雷"},
                "subject_type": "图书作品",
                "object_type": {"@value": "人物"},
            }
        ],
    }
    duie.write_text(json.dumps(line, ensure_ascii=False) + "\n\n", encoding="utf-8")
    assert load_sentences(duie, "duie") == [Sentence("《晴空》是李雷创作的小说", (("晴空", "李雷"),))]
    webnlg = tmp_path / "sample.json"
    webnlg.write_text(json.dumps([{"text": "Aland is in Brovia .", "triple_list": [["Aland", "country", "Brovia"]]}]))
    assert load_sentences(webnlg, "webnlg") == [Sentence("Aland is in Brovia.", (("Aland", "Brovia"),))]
    duie.write_text('{"text": "x"}\n{"spo_list": []}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"sample.jsonl:2: not a DuIE line"):
        load_sentences(duie, "duie")
    with pytest.raises(ValueError, match="--format"):
        load_sentences(webnlg, "csv")


def test_statements_are_read_as_their_speaker_said_them(tmp_path: Path) -> None:
    statements = tmp_path / "said.jsonl"
    lines = [
        {"speaker": "Mira", "text": "I work at Siemens.", "facts": [["Mira", "works at", "Siemens"]]},
        {"speaker": "Mira", "text": "My boss is a volcano today.", "facts": []},
    ]
    statements.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    loaded = load_sentences(statements, "statements")
    assert loaded == [
        Sentence("I work at Siemens.", (("Mira", "Siemens"),), "Mira"),
        Sentence("My boss is a volcano today.", (), "Mira"),
    ]
    heard: list[tuple[str, str]] = []

    def reader(text: str, speaker: str) -> list[Quintuple]:
        heard.append((text, speaker))
        return [_q(speaker, "Siemens")] if "Siemens" in text else [_q("boss", "volcano")]

    result = evaluate_extraction(loaded, reader)
    assert heard == [("I work at Siemens.", "Mira"), ("My boss is a volcano today.", "Mira")]
    # The metaphor's pair is a wrong fact: precision 1/2, recall 1/1.
    assert result["exact"]["precision"] == 0.5 and result["exact"]["recall"] == 1.0
    statements.write_text('{"speaker": "Mira", "text": "hi"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"said.jsonl:1: not a statements line"):
        load_sentences(statements, "statements")


@pytest.mark.parametrize(
    ("tokenised", "written"),
    [
        ("The manager of A.F.C . Blackpool is Tom Reed .", "The manager of A.F.C. Blackpool is Tom Reed."),
        ("It is in Rome , Italy ( Europe ) ; it 's 5 % .", "It is in Rome, Italy (Europe); it's 5%."),
        (
            "Its motto is `` Nurture Excellence '' and it does n't move .",
            'Its motto is "Nurture Excellence" and it doesn\'t move.',
        ),
        ("The Martyrs ' Memorial is here .", "The Martyrs' Memorial is here."),
    ],
)
def test_webnlg_texts_are_read_as_written(tokenised: str, written: str) -> None:
    assert detokenized(tokenised) == written
