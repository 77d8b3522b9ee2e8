"""Question kinds the blind probes found missing: jobs, hobbies, schooling, dislikes, schedules, names."""

from __future__ import annotations

import pytest
from elephant_broker.broker.api import Broker

CASES = [
    ("Hannah", ["I am a nurse.", "I live in Leeds."], "What do I do for a living?", "nurse"),
    ("Hannah", ["I am a nurse."], "What is my job?", "nurse"),
    ("Bob", ["Sarah is a data scientist.", "Sarah lives in Austin."], "What does Sarah do?", "data scientist"),
    ("小赵", ["我是一名护士。", "我住在成都。"], "我的职业是什么？", "护士"),
    ("王芳", ["我在一家银行做会计。"], "我是做什么工作的？", "会计"),
    ("Bob", ["Sarah works at Microsoft."], "Where is Sarah employed?", "Microsoft"),
    ("Bob", ["Henry resides in Denver."], "Where does Henry live?", "Denver"),
    ("Sam", ["I love playing chess."], "What do I enjoy doing?", "playing chess"),
    ("Bob", ["Mason enjoys painting watercolors."], "What is Mason's hobby?", "painting watercolors"),
    ("Mia", ["I graduated from the University of Michigan."], "Where did I go to college?", "University of Michigan"),
    ("助理", ["徐丽不喜欢吃香菜。"], "徐丽讨厌吃什么？", "香菜"),
    ("Mark", ["I go swimming every Saturday morning."], "When do I go swimming?", "every Saturday morning"),
    ("Grace", ["I have yoga class every Tuesday evening."], "When do I go to yoga?", "every Tuesday evening"),
    ("小孙", ["我每周三下午去健身房。"], "我什么时候去健身房？", "每周三下午"),
    ("小陈", ["我妹妹叫陈晓雨。"], "我妹妹的名字是什么？", "陈晓雨"),
    ("小吴", ["我儿子喜欢踢足球。"], "我儿子爱踢什么？", "足球"),
    ("Zoe", ["Zoe knows Lua well.", "Zoe uses Neovim.", "Neovim plugins can be written in Lua or Vimscript."],
     "Which language should I pick for a Neovim plugin?", "Use Lua"),
]  # fmt: skip


@pytest.mark.parametrize(("speaker", "memories", "question", "answer"), CASES, ids=[c[2] for c in CASES])
def test_question_kind(broker: Broker, speaker: str, memories: list[str], question: str, answer: str) -> None:
    for memory in memories:
        broker.remember(memory, speaker=speaker)
    reply = broker.ask(question, speaker=speaker)
    assert reply.answer.startswith(answer), reply.answer
    assert reply.facts, "an answer rests on stored facts"


def test_a_denied_place_is_no_answer(broker: Broker) -> None:
    broker.remember("I live in Chicago.", speaker="Mia")
    broker.remember("I moved from Chicago to Seattle.", speaker="Mia")
    assert broker.ask("Where do I live?", speaker="Mia").answer.startswith("Seattle.")


@pytest.mark.parametrize(
    ("memory", "time", "question", "answer"),
    [
        ("I went to a pottery class yesterday.", "1:56 pm on 8 May, 2023", "When did I go to a pottery class?",
         "7 May 2023"),
        ("我上个月去了成都。", "2024-03-15", "我什么时候去的成都？", "2024年2月"),
    ],
)  # fmt: skip
def test_a_relative_time_is_answered_as_the_date_it_named(
    broker: Broker, memory: str, time: str, question: str, answer: str
) -> None:
    """ "Yesterday", said on 8 May 2023, is 7 May 2023 when asked about later."""
    broker.remember(memory, speaker="Lena", time=time)
    reply = broker.ask(question, speaker="Lena")
    assert reply.value == answer, reply.answer


def test_a_start_at_a_new_employer_retires_the_old_one(broker: Broker) -> None:
    broker.remember("I work at Initrode.", speaker="Dan")
    broker.remember("Resigned on Friday; I start at Globex next week.", speaker="Dan")
    broker.remember("我在京东上班。", speaker="周宁")
    broker.remember("上周我入职网易了。", speaker="周宁")
    assert broker.ask("Where do I work now?", speaker="Dan").value == "Globex"
    assert broker.ask("我现在在哪家公司工作？", speaker="周宁").value == "网易"
