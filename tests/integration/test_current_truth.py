"""Current truth: a correction or an ended relation retires the old fact, one turn at a time or in a batch."""

from __future__ import annotations

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.schemas.models import Perception


def remember(broker: Broker, turns: list[tuple[str, str]], batch: bool, agent: str) -> None:
    if batch:
        broker.remember_many(
            [Perception(text=text, speaker=speaker, session_id="s1", agent_id=agent) for speaker, text in turns]
        )
    else:
        for speaker, text in turns:
            broker.remember(text, speaker=speaker, session_id="s1", agent_id=agent)


@pytest.mark.parametrize("batch", [False, True], ids=["one-by-one", "batch"])
def test_a_correction_replaces_what_was_just_said(broker: Broker, batch: bool) -> None:
    agent = f"corrections-{batch}"
    remember(broker, [("赵敏", "我家住12楼，来了直接按电梯"), ("赵敏", "不对不对，是21楼，老是说反")], batch, agent)
    answer = broker.ask("我家住几楼？", speaker="赵敏", agent_id=agent)
    assert answer.answered and answer.value == "21楼"
    facts = {(f.object, f.negated): f.status for f in broker.facts(agent_id=agent)}
    assert facts[("21楼", False)] == "active"
    assert facts[("12楼", False)] == "rejected"  # it was wrong, not history
    # The correction's own words ("是21楼") state no fact of their own.
    assert all(f.subject == "赵敏" for f in broker.facts(agent_id=agent))


def test_an_english_correction_names_what_it_replaces(broker: Broker) -> None:
    broker.remember("Ruby's teacher this year is Mrs. Hollis", speaker="Dana", session_id="s1")
    broker.remember(
        "ugh actually I meant Mrs. Hallows. Hollis was last year's teacher", speaker="Dana", session_id="s1"
    )
    answer = broker.ask("What is Ruby's teacher called?", speaker="Dana")
    assert "Hallows" in answer.value


def test_a_correction_with_nothing_to_correct_adds_nothing(broker: Broker) -> None:
    report = broker.remember("不对，是21楼", speaker="赵敏", session_id="fresh")
    assert (report.episodes, report.facts) == (1, 0)


@pytest.mark.parametrize("batch", [False, True], ids=["one-by-one", "batch"])
def test_leaving_an_employer_retires_the_old_employer(broker: Broker, batch: bool) -> None:
    agent = f"employer-{batch}"
    remember(broker, [("王磊", "我在腾讯工作。"), ("王磊", "我上个月从腾讯离职了。")], batch, agent)
    facts = broker.facts(agent_id=agent)
    old = next(f for f in facts if f.object == "腾讯" and not f.negated)
    assert old.status == "superseded"
    assert any(f.object == "腾讯" and f.negated and f.status == "active" for f in facts)
    answer = broker.ask("我在哪家公司上班？", speaker="王磊", agent_id=agent)
    assert "腾讯" not in answer.value
