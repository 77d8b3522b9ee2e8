"""Offline answer composition from evidence (pure functions, no store)."""

from __future__ import annotations

import pytest
from elephant_broker.domain.answers import compose_answer, rank_answers
from elephant_broker.domain.evidence import decay
from elephant_broker.schemas.models import Entity, Episode, Fact, QuestionAnalysis

ME = Entity(id="me", name="小周", type="Person")


def fact(fid: str, subject: str, predicate: str, obj: str, **extra) -> Fact:
    ids = {"小周": "me", "王强": "wq", "Eve": "eve"}
    return Fact(
        id=fid,
        subject=subject,
        subject_id=ids.get(subject, "id_" + subject),
        predicate=predicate,
        predicate_key=extra.pop("key", predicate),
        object=obj,
        object_id=ids.get(obj, "id_" + obj),
        episode_ids=["ep"],
        score=extra.pop("score", 1.0),
        **extra,
    )


def analysis(**fields) -> QuestionAnalysis:
    return QuestionAnalysis(**{"language": "zh", **fields})


def test_no_evidence_says_so_in_the_question_language() -> None:
    assert compose_answer(analysis(), [], [], []) == "记忆中没有与这个问题相关的信息。"
    assert compose_answer(analysis(language="en"), [], [], []) == "I have nothing in memory about that."


def test_no_fact_but_a_similar_episode_quotes_it() -> None:
    episode = Episode(
        id="e", agent_id="a", session_id="s", speaker="小红", source="x", text="我的猫叫咪咪。", created_at=0
    )
    assert "「我的猫叫咪咪。」" in compose_answer(analysis(), [ME], [], [episode])


def test_yes_no_follows_the_negation_of_the_matching_fact() -> None:
    facts = [fact("f1", "小周", "吃", "辣", negated=True)]
    assert compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周能吃辣吗？").startswith("不吃。")
    denied = [fact("f1", "小李", "是", "学生", negated=True)]
    assert compose_answer(analysis(intent="yes_no"), [ME], denied, [], "小李是学生吗？").startswith("不是。")
    facts = [fact("f1", "小周", "吃", "辣")]
    assert compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周能吃辣吗？").startswith("是的。")
    unrelated = compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周会开飞机吗？")
    assert unrelated.startswith("记忆中没有能确认这一点的事实")


def test_negated_facts_are_never_the_answer() -> None:
    facts = [
        fact("f1", "Eve", "drink", "coffee", negated=True, score=2.0),
        fact("f2", "Eve", "drink", "tea", score=1.0),
    ]
    eve = Entity(id="eve", name="Eve", type="Person")
    answer = compose_answer(analysis(language="en"), [eve], facts, [], "What do Eve drink?")
    assert answer.startswith("tea.")
    assert [candidate.name for candidate in rank_answers(facts, [eve], None)] == ["tea"]


def test_time_questions_answer_with_the_time_of_the_fact() -> None:
    facts = [fact("f1", "小周", "毕业于", "浙江大学", valid_from="2018年")]
    answer = compose_answer(analysis(answer_type="Time"), [ME], facts, [], "小周哪一年毕业？")
    assert answer.startswith("2018年。")


def test_an_answer_of_an_incompatible_type_is_not_given() -> None:
    facts = [fact("f1", "小周", "喜欢", "西红柿", object_type="Food")]
    answer = compose_answer(analysis(answer_type="Person"), [ME], facts, [], "小周的老板是谁？")
    assert answer.startswith("记忆中没有直接回答这个问题的事实")
    # a city for "where do I work" is compatible: places and organisations overlap
    facts = [fact("f1", "小周", "在工作", "北京", object_type="Place")]
    assert compose_answer(analysis(answer_type="Organization"), [ME], facts, [], "").startswith("北京。")


def test_parallel_answers_share_the_relation_of_the_best_one() -> None:
    facts = [
        fact("f1", "小周", "会说", "日语", score=1.0, object_type="Language"),
        fact("f2", "小周", "会说", "韩语", score=0.9, object_type="Language"),
        fact("f3", "小周", "住在", "杭州", score=0.9, object_type="Place"),
    ]
    answer = compose_answer(analysis(), [ME], facts, [], "")
    assert answer.startswith("日语、韩语。")
    assert "杭州" not in answer.split("。")[0]


def test_the_far_end_is_the_answer_not_the_entity_on_the_way() -> None:
    facts = [
        fact("f1", "小周", "同事", "王强", score=1.0, object_type="Person"),
        fact("f2", "王强", "住在", "深圳", score=0.8, object_type="Place"),
    ]
    ranked = rank_answers(facts, [ME], "Place")
    assert ranked[0].name == "深圳"
    assert [f.id for f in ranked[0].support] == ["f2", "f1"]


def test_time_sensitive_confidence_halves_every_half_life() -> None:
    day = 86_400_000
    plan = fact("f1", "小周", "打算", "去日本", key="plans", confidence=0.8, created_at=0)
    assert decay(plan, 30 * day, 30).confidence == pytest.approx(0.4)
    assert decay(plan, 60 * day, 30).confidence == pytest.approx(0.2)
    lasting = fact("f2", "小周", "住在", "杭州", key="lives_in", confidence=0.8, created_at=0)
    assert decay(lasting, 60 * day, 30).confidence == 0.8
