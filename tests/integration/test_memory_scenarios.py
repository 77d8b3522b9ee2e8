"""Perceive-then-ask scenarios in Chinese and English, through the whole offline pipeline."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.providers.resources import close_stores
from elephant_broker.schemas.context import Context
from elephant_broker.store.embedded import EmbeddedFalkorDB

from tests.integration.scenarios import EN, ZH

ABSTAINED = re.compile(
    r"No stored fact|Nothing in memory|Memory does not say|nothing in memory|没有.*(记忆|事实|记录|信息)", re.I
)
CLAIM_END = re.compile(r"依据[:：]|Based on memory[:：]?|the closest memory|相关的记忆", re.I)
NEGATIVE = {"unknown", "hypothetical"}

KNOWN_GAPS: dict[str, str] = {}


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    home: Path = tmp_path_factory.mktemp("scenarios")
    yield Broker(Context(home=str(home), store="embedded", llm="", agent_id="scenarios"))
    close_stores()
    EmbeddedFalkorDB(home / "falkordb").stop()


def _cases() -> list:
    params = []
    for case in ZH + EN:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[case[0]])] if case[0] in KNOWN_GAPS else []
        params.append(pytest.param(*case, id=case[0], marks=marks))
    return params


@pytest.mark.parametrize(("case_id", "category", "speaker", "memories", "question", "accept", "reject"), _cases())
def test_scenario(
    memory: Broker,
    case_id: str,
    category: str,
    speaker: str,
    memories: list[str],
    question: str,
    accept: list[str],
    reject: list[str],
) -> None:
    agent = f"scenario-{case_id}"
    for text in memories:
        memory.remember(text, speaker=speaker, agent_id=agent)
    answer = memory.ask(question, speaker=speaker, agent_id=agent).answer
    claim = CLAIM_END.split(answer, maxsplit=1)[0].lower()
    if category in NEGATIVE:
        assert ABSTAINED.search(answer) or not any(word.lower() in claim for word in reject), answer
    else:
        assert not ABSTAINED.search(answer), answer
        assert any(word.lower() in claim for word in accept), answer
        assert not any(word.lower() in claim for word in reject), answer
