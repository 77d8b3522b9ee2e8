"""Feedback on answers and the notes the memory keeps about the agent (meta-cognition)."""

from __future__ import annotations

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.feedback import RIGHT_STEP, WRONG_FACTOR
from elephant_broker.schemas.ids import InvalidInput


def confidence(broker: Broker, fact_id: str) -> float:
    return next(fact.confidence for fact in broker.facts() if fact.id == fact_id)


def test_wrong_lowers_the_cited_facts_and_what_was_concluded_from_them(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", speaker="Peter")
    answer = broker.ask("Where does Ann work?")
    assert answer.answered and answer.id.startswith("ans_") and answer.reminders == []
    cited = answer.facts[0]
    broker.remember("Ann commutes to Austin.", speaker="Peter", derived_from=[cited.id])
    derived = next(fact for fact in broker.facts() if fact.derived_from == [cited.id])
    before = {cited.id: cited.confidence, derived.id: derived.confidence}

    report = broker.feedback(answer.id, "wrong")

    assert report.verdict == "wrong" and set(report.lowered) == {cited.id, derived.id} and report.raised == []
    for fact_id, was in before.items():
        assert confidence(broker, fact_id) == pytest.approx(was * WRONG_FACTOR)


def test_right_raises_the_cited_facts_a_bounded_step(broker: Broker) -> None:
    broker.remember("Ann lives in Oslo.", speaker="Peter")
    answer = broker.ask("Where does Ann live?")
    fact = answer.facts[0]
    report = broker.feedback(answer.id, "right")
    assert report.raised == [fact.id] and report.lowered == []
    expected = fact.confidence + RIGHT_STEP * (1 - fact.confidence)
    assert confidence(broker, fact.id) == pytest.approx(expected)
    for _ in range(20):
        broker.feedback(answer.id, "right")
    assert confidence(broker, fact.id) < 1.0


def test_a_correction_supersedes_the_wrong_fact(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", speaker="Peter")
    answer = broker.ask("Where does Ann work?", speaker="Peter")
    report = broker.feedback(answer.id, "wrong", correction="Ann works at Globex now.")
    assert report.correction is not None and report.correction.episodes == 1
    facts = {fact.object: fact for fact in broker.facts("Ann")}
    assert facts["Initech"].status == "superseded" and facts["Globex"].status == "active"
    assert "Globex" in broker.ask("Where does Ann work?").value
    assert broker.sources()[0]["authority"] >= 0.7
    assert {row["name"]: row["authority"] for row in broker.sources()}["correction"] == pytest.approx(0.95)


@pytest.mark.parametrize(
    ("answer_id", "verdict", "message"),
    [
        ("ans_zz", "wrong", "^answer_id: "),
        ("fact_0abc", "wrong", "^answer_id: "),
        ("ans_0abc", "maybe", "^verdict: right or wrong"),
        ("ans_0abc", "wrong", "^answer_id: no answer 'ans_0abc' in this memory"),
    ],
)
def test_bad_feedback_is_refused_in_one_line(broker: Broker, answer_id: str, verdict: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        broker.feedback(answer_id, verdict)


def test_another_agents_answer_is_unknown(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", agent_id="A")
    answer = broker.ask("Where does Ann work?", agent_id="A")
    with pytest.raises(InvalidInput, match="no answer"):
        broker.feedback(answer.id, "wrong", agent_id="B")
    assert broker.facts(agent_id="A")[0].confidence == answer.facts[0].confidence


def test_three_wrong_answers_of_a_kind_remind_on_the_fourth(broker: Broker) -> None:
    people = {"Ann": "Initech", "Bo": "Globex", "Cy": "Umbrella", "Di": "Hooli"}
    for person, employer in people.items():
        broker.remember(f"{person} works at {employer}. {person} lives in Oslo.", speaker="Peter")
    kinds = set()
    for person in ("Ann", "Bo", "Cy"):
        answer = broker.ask(f"Where does {person} work?")
        kinds.add(answer.kind)
        assert answer.reminders == []
        broker.feedback(answer.id, "wrong", correction=f"{person} works at Stark Industries now.")
    (kind,) = kinds

    fourth = broker.ask("Where does Di work?")
    assert fourth.kind == kind
    assert len(fourth.reminders) == 1
    assert "wrong 3 of 3 times" in fourth.reminders[0] and "Stark Industries" in fourth.reminders[0]
    other = broker.ask("Where does Di live?")
    assert other.kind != kind and other.reminders == []

    (note,) = broker.notes()
    assert (note.about, note.name, note.wrong, note.total) == ("question", kind, 3, 3)
    assert len(note.evidence) == 3


def test_right_answers_keep_a_kind_off_the_notes(broker: Broker) -> None:
    broker.remember("Ann works at Initech.", speaker="Peter")
    for verdict in ("wrong", "wrong", "wrong", "right", "right", "right", "right"):
        broker.feedback(broker.ask("Where does Ann work?").id, verdict)
    assert broker.notes() == []
