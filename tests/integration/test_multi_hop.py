"""The multi-hop loop end to end: offline patterns, the hop budget, fallback, and scripted models."""

from __future__ import annotations

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.answers import NOT_IN_MEMORY_EN, CitedAnswer
from elephant_broker.domain.hops import Decomposition, HopAnswer
from elephant_broker.language.sentences import sentence_of
from elephant_broker.providers.resources import request_scope
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Answer, Fact

from tests.fakes import ScriptedChatModel


def _remember(broker: Broker, *texts: str) -> dict[tuple[str, str], Fact]:
    for text in texts:
        broker.remember(text)
    return {(fact.subject, fact.object): fact for fact in broker.facts()}


def _assert_cited_ids_exist(broker: Broker, answer: Answer) -> None:
    stored = {fact.id for fact in broker.facts()}
    assert {fact.id for fact in answer.facts} <= stored
    episode_ids = [episode.id for episode in answer.episodes]
    found = broker.store.episodes_by_ids(request_scope(None, broker.context), episode_ids)
    assert len(found) == len(episode_ids)


def test_chinese_chain_answers_with_the_connecting_path(broker: Broker) -> None:
    facts = _remember(
        broker, "张三的导师是李四。", "李四在清华大学任教。", "王五的导师是赵六。", "赵六在北京大学任教。"
    )
    answer = broker.ask("张三的导师在哪所大学任教？")
    assert answer.answer.startswith("清华大学")
    assert "北京大学" not in answer.answer
    assert [hop.question for hop in answer.hops] == ["张三的导师是谁？", "李四在哪所大学任教？"]
    assert all(hop.answered for hop in answer.hops)
    assert answer.hops[0].answers[0].name == "李四"
    path = [facts[("张三", "李四")].id, facts[("李四", "清华大学")].id]
    assert [fact.id for fact in answer.facts[:2]] == path
    _assert_cited_ids_exist(broker, answer)


def test_english_chain_through_of_the(broker: Broker) -> None:
    _remember(
        broker,
        "The author of Dune is Frank Herbert.",
        "Frank Herbert was born in Tacoma.",
        "The author of Emma is Jane Austen.",
        "Jane Austen was born in Steventon.",
    )
    answer = broker.ask("Where was the author of Dune born?")
    assert answer.answer.startswith("Tacoma")
    assert [hop.question for hop in answer.hops] == ["Who is the author of Dune?", "Where was Frank Herbert born?"]
    assert {fact.object for fact in answer.facts} >= {"Frank Herbert", "Tacoma"}
    _assert_cited_ids_exist(broker, answer)


def test_relative_clause_finds_the_described_person_first(broker: Broker) -> None:
    # Without the loop, "founded Acme" matches Bob and is taken as the answer.
    _remember(broker, "Bob founded Acme.", "Bob lives in Denver.", "Carol works at Acme.", "Carol lives in Boston.")
    answer = broker.ask("Where does the person who founded Acme live?")
    assert answer.answer.startswith("Denver")
    assert answer.hops[0].answers[0].name == "Bob"


def test_three_hops(broker: Broker) -> None:
    _remember(broker, "小李的老板是王总。", "王总的妻子是刘芳。", "刘芳住在苏州。", "王总住在杭州。")
    answer = broker.ask("小李的老板的妻子住在哪？")
    assert [hop.answers[0].name for hop in answer.hops[:2]] == ["王总", "刘芳"]
    assert answer.answer.startswith("苏州")


def test_the_hop_budget_stops_the_loop_and_falls_back(context: Context) -> None:
    context.max_hops = 1
    broker = Broker(context)
    _remember(broker, "张三的导师是李四。", "李四在清华大学任教。")
    answer = broker.ask("张三的导师在哪所大学任教？")
    assert len(answer.hops) == 1  # one sub-question, then the budget was spent
    assert answer.answer.startswith("清华大学")  # the whole-question retrieval still connects them


def test_a_broken_chain_falls_back_to_whole_question_retrieval(broker: Broker) -> None:
    _remember(broker, "Frank Herbert was born in Tacoma.")
    answer = broker.ask("Where was the author of Dune born?")
    assert len(answer.hops) == 1 and not answer.hops[0].answered
    assert "Tacoma" not in answer.answer  # no author is known, so no birthplace is claimed


def test_max_hops_is_checked() -> None:
    with pytest.raises(ValueError, match="max_hops"):
        Context(max_hops=0)
    with pytest.raises(ValueError, match="max_hops"):
        Context(max_hops=99)


def test_llm_mode_decomposes_reasons_and_cites(scripted: ScriptedChatModel, context: Context) -> None:
    broker = Broker(context)
    facts = _remember(broker, "The author of Dune is Frank Herbert.", "Frank Herbert was born in Tacoma.")
    context.llm = "fake:scripted"
    author, birthplace = facts[("Dune", "Frank Herbert")], facts[("Frank Herbert", "Tacoma")]
    scripted.queue(
        Decomposition(multi_hop=True, sub_questions=["Who wrote Dune?", "Where was #1 born?"]),
        HopAnswer(found=True, answer="Frank Herbert", fact_ids=[author.id]),
        HopAnswer(found=True, answer="Tacoma", fact_ids=[birthplace.id]),
        CitedAnswer(answer="Frank Herbert, who wrote Dune, was born in Tacoma.", fact_ids=[author.id, birthplace.id]),
    )
    answer = Broker(context).ask("Where was the author of Dune born?")
    assert answer.answer == "Frank Herbert, who wrote Dune, was born in Tacoma."
    assert [hop.question for hop in answer.hops] == ["Who wrote Dune?", "Where was Frank Herbert born?"]
    assert [fact.id for fact in answer.facts] == [author.id, birthplace.id]
    assert len(scripted.calls) == 4
    second_hop_prompt = scripted.calls[2][1][1]
    assert "Where was Frank Herbert born?" in second_hop_prompt and f"[{birthplace.id}]" in second_hop_prompt
    final_prompt = scripted.calls[3][1][1]
    assert "1. Who wrote Dune? -> Frank Herbert" in final_prompt
    _assert_cited_ids_exist(broker, answer)


def test_llm_hop_answer_without_a_retrieved_citation_breaks_the_chain(
    scripted: ScriptedChatModel, context: Context
) -> None:
    broker = Broker(context)
    _remember(broker, "The author of Dune is Frank Herbert.", "Frank Herbert was born in Tacoma.")
    context.llm = "fake:scripted"
    scripted.queue(
        Decomposition(multi_hop=True, sub_questions=["Who wrote Dune?", "Where was #1 born?"]),
        HopAnswer(found=True, answer="Isaac Asimov", fact_ids=["fact_invented"]),
        CitedAnswer(answer="Isaac Asimov was born in Petrovichi.", in_memory=True, fact_ids=["fact_invented"]),
    )
    answer = Broker(context).ask("Where was the author of Dune born?")
    assert len(answer.hops) == 1 and not answer.hops[0].answered
    # The final answer cites nothing that was retrieved: it is replaced, not passed on.
    assert answer.answer == NOT_IN_MEMORY_EN
    assert answer.facts == [] and answer.episodes == []
    assert len(scripted.calls) == 3


def test_an_unusable_llm_plan_falls_back_to_patterns(scripted: ScriptedChatModel, context: Context) -> None:
    broker = Broker(context)
    facts = _remember(broker, "张三的导师是李四。", "李四在清华大学任教。")
    context.llm = "fake:scripted"
    advisor, school = facts[("张三", "李四")], facts[("李四", "清华大学")]
    scripted.queue(
        Decomposition(multi_hop=True, sub_questions=["#2在哪所大学任教？", "张三的导师是谁？"]),
        HopAnswer(found=True, answer="李四", fact_ids=[advisor.id]),
        HopAnswer(found=True, answer="清华大学", fact_ids=[school.id]),
        CitedAnswer(answer="清华大学。", fact_ids=[advisor.id, school.id]),
    )
    answer = Broker(context).ask("张三的导师在哪所大学任教？")
    assert [hop.question for hop in answer.hops] == ["张三的导师是谁？", "李四在哪所大学任教？"]
    assert answer.answer == "清华大学。"


def test_llm_plan_longer_than_the_budget_stops_after_max_hops(scripted: ScriptedChatModel, context: Context) -> None:
    broker = Broker(context)
    facts = _remember(broker, "张三的导师是李四。", "李四的导师是王五。", "王五的导师是赵六。", "赵六在北京大学任教。")
    context.llm = "fake:scripted"
    context.max_hops = 2
    scripted.queue(
        Decomposition(
            multi_hop=True,
            sub_questions=["张三的导师是谁？", "#1的导师是谁？", "#2的导师是谁？", "#3在哪所大学任教？"],
        ),
        HopAnswer(found=True, answer="李四", fact_ids=[facts[("张三", "李四")].id]),
        HopAnswer(found=True, answer="王五", fact_ids=[facts[("李四", "王五")].id]),
        CitedAnswer(answer="记忆中没有", in_memory=False),
    )
    answer = Broker(context).ask("张三的导师的导师的导师在哪所大学任教？")
    assert [hop.answers[0].name for hop in answer.hops] == ["李四", "王五"]
    assert len(scripted.calls) == 4  # plan, two hops, then the fallback's answer: no third hop


def test_a_question_naming_both_ends_is_answered_with_the_path(broker: Broker) -> None:
    _remember(broker, "小李使用n8n。", "n8n支持Python。", "小王使用Excel。")
    answer = broker.ask("小李和Python有什么关系？")
    assert answer.answer == "记忆中的联系：小李使用 n8n；n8n 支持 Python。"
    assert {(fact.subject, fact.object) for fact in answer.facts} == {("小李", "n8n"), ("n8n", "Python")}
    unconnected = broker.ask("How is 小王 connected to Python?")
    assert "connected" not in unconnected.answer  # no chain links them, so none is claimed
    assert all("Python" not in sentence_of(fact) for fact in unconnected.facts)
