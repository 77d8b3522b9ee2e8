"""Entity identity through the whole ingest pipeline (offline and LLM mode), zh and en."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.identity import IdentityVerdict, IdentityVerdicts
from elephant_broker.providers.chat_models import register_chat_model
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Extraction, Quintuple

from tests.fakes import ScriptedChatModel


def entity(broker: Broker, name: str):
    found = [e for e in broker.entities() if e.name == name]
    assert len(found) == 1, [e.name for e in broker.entities()]
    return found[0]


def test_openai_spellings_are_one_entity(broker: Broker) -> None:
    broker.remember("Alice works at OpenAI.", speaker="Alice")
    broker.remember("小张在 Open AI 工作。", speaker="小张")
    broker.remember("小王在OpenAI公司工作。", speaker="小王")
    openai = entity(broker, "OpenAI")
    assert openai.type == "Organization"
    assert set(openai.aliases) == {"Open AI", "OpenAI公司"}
    assert openai.mention_count == 3
    assert {f.subject for f in broker.facts("open ai")} == {"Alice", "小张", "小王"}
    assert broker.merges() == []  # same key: no merge to record


def test_python_spellings_are_one_entity(broker: Broker) -> None:
    broker.remember("我喜欢 Python。", speaker="小王")
    broker.remember("I use python.", speaker="Bob")
    python = entity(broker, "Python")
    assert python.aliases == ["python"] and python.type == "Language"
    assert {f.subject for f in broker.facts("PYTHON")} == {"小王", "Bob"}


@pytest.mark.parametrize("fruit_first", [True, False])
def test_the_fruit_and_the_company_stay_apart(broker: Broker, fruit_first: bool) -> None:
    texts = [("我最爱吃苹果。", "小王"), ("小李在苹果公司上班。", "小李")]
    for text, speaker in texts if fruit_first else texts[::-1]:
        broker.remember(text, speaker=speaker)
    fruit, company = entity(broker, "苹果"), entity(broker, "苹果公司")
    assert fruit.id != company.id
    assert (fruit.type, company.type) == ("Food", "Organization")
    facts = {(f.subject, f.object, f.object_id) for f in broker.facts()}
    assert ("小王", "苹果", fruit.id) in facts and ("小李", "苹果公司", company.id) in facts
    # either spelling lists the facts of both things called 苹果
    assert {f.subject for f in broker.facts("苹果")} == {"小王", "小李"}
    # a new mention of each goes to the right one
    broker.remember("小张也爱吃苹果。", speaker="小张")
    broker.remember("小赵在苹果公司工作。", speaker="小赵")
    objects = {(f.subject, f.object_id) for f in broker.facts()}
    assert ("小张", fruit.id) in objects and ("小赵", company.id) in objects
    assert len([e for e in broker.entities() if e.name in ("苹果", "苹果公司")]) == 2


def test_abbreviation_merge_is_recorded_and_undone(broker: Broker) -> None:
    broker.remember("小明毕业于北京大学。", speaker="小明", session_id="s1")
    broker.remember("小红毕业于北大。", speaker="小红", session_id="s1")
    broker.remember("小明毕业于北大。", speaker="小明", session_id="s2")
    pku = entity(broker, "北京大学")
    assert "北大" in pku.aliases
    assert not [e for e in broker.entities() if e.name == "北大"]
    facts = {f.subject: f for f in broker.facts("北大")}
    assert set(facts) == {"小明", "小红"} and all(f.object == "北京大学" for f in facts.values())
    shared = facts["小明"]
    assert shared.weight == 2 and len(shared.episode_ids) == 2  # the same fact, said both ways

    [record] = broker.merges()
    assert (record.alias, record.into_name, record.method) == ("北大", "北京大学", "fulltext")
    assert 0.87 <= record.score <= 1.0 and "abbreviation" in record.reason
    assert len(record.episode_ids) == 2  # the second mention came through the alias table
    assert set(record.fact_ids) == {facts["小红"].id, shared.id}
    assert record.undone_at is None

    # the answer uses the merged entity
    reply = broker.ask("小红毕业于哪里？", speaker="小红")
    assert "北京大学" in reply.answer

    undone = broker.unmerge(record.id)
    assert undone.undone_at is not None and undone.restored_id
    [listed] = broker.merges()
    assert listed.undone_at is not None  # marked, never deleted

    restored, pku = entity(broker, "北大"), entity(broker, "北京大学")
    assert restored.id == undone.restored_id and restored.type == "Organization"
    assert "北大" not in pku.aliases
    after = {(f.subject, f.object): f for f in broker.facts()}
    # 小红's fact came only through 北大: it moved whole, keeping id, weight, confidence and provenance
    moved = after[("小红", "北大")]
    assert (moved.id, moved.weight, moved.confidence, moved.episode_ids) == (
        facts["小红"].id,
        facts["小红"].weight,
        facts["小红"].confidence,
        facts["小红"].episode_ids,
    )
    assert moved.object_id == restored.id
    # 小明's fact was said both ways: each name keeps the episode that used it
    kept, split = after[("小明", "北京大学")], after[("小明", "北大")]
    assert kept.id == shared.id and kept.weight == 1 and split.weight == 1
    assert sorted(kept.episode_ids + split.episode_ids) == sorted(shared.episode_ids)
    assert split.confidence == shared.confidence
    # mentions moved with the episodes that used the alias only
    rows = broker.store._read(
        "MATCH (ep:Episode)-[:MENTIONS]->(e:Entity) WHERE ep.scope = $scope AND e.name IN ['北大', '北京大学'] "
        "RETURN ep.text AS text, e.name AS name",
        {"scope": "test"},
    )
    assert sorted((row["text"], row["name"]) for row in rows) == [
        ("小明毕业于北京大学。", "北京大学"),
        ("小明毕业于北大。", "北大"),
        ("小红毕业于北大。", "北大"),
    ]
    assert restored.mention_count == 2 and pku.mention_count == 1

    # after the unmerge, 北大 is its own entity: a new mention goes there, with no new merge
    broker.remember("小刚毕业于北大。", speaker="小刚")
    assert {f.subject for f in broker.facts("北大") if f.object_id == restored.id} == {"小明", "小红", "小刚"}
    assert len(broker.merges()) == 1
    with pytest.raises(ValueError, match="already undone"):
        broker.unmerge(record.id)
    with pytest.raises(ValueError, match="no merge"):
        broker.unmerge("mrg_0123456789abcdef")
    with pytest.raises(ValueError, match="not a merge id"):
        broker.unmerge("mrg_missing")


def test_acronym_merge_in_english(broker: Broker) -> None:
    broker.remember("Bob is learning JavaScript.", speaker="Bob")
    broker.remember("Alice likes JS.", speaker="Alice")
    js = entity(broker, "JavaScript")
    assert "JS" in js.aliases
    [record] = broker.merges()
    assert (record.alias, record.into_name, record.method) == ("JS", "JavaScript", "fulltext")
    assert "acronym" in record.reason
    assert {f.subject for f in broker.facts("JS")} == {"Bob", "Alice"}
    broker.unmerge(record.id)
    assert {f.subject for f in broker.facts("JS")} == {"Alice"}
    assert {f.subject for f in broker.facts("JavaScript")} == {"Bob"}


def test_unrelated_and_near_names_stay_apart(broker: Broker) -> None:
    for text, speaker in [
        ("Bob is learning JavaScript.", "Bob"),
        ("Carol is learning Java.", "Carol"),
        ("小明毕业于北京大学。", "小明"),
        ("小王住在北京。", "小王"),
        ("Dave uses GPT-4.", "Dave"),
        ("Erin uses GPT-3.5.", "Erin"),
    ]:
        broker.remember(text, speaker=speaker)
    names = {e.name for e in broker.entities()}
    assert {"JavaScript", "Java", "北京大学", "北京", "GPT-4", "GPT-3.5"} <= names
    assert broker.merges() == []


def test_reingesting_an_episode_adds_nothing(broker: Broker) -> None:
    broker.remember("小明毕业于北京大学。", speaker="小明")
    broker.remember("小红毕业于北大。", speaker="小红")
    before = (broker.counts(), broker.merges())
    again = broker.remember("小红毕业于北大。", speaker="小红")
    assert (again.episodes, again.facts, again.entities) == (0, 0, 0)
    assert (broker.counts(), broker.merges()) == before


# -- LLM mode ----------------------------------------------------------------------------------


@pytest.fixture
def scripted(context: Context) -> Iterator[ScriptedChatModel]:
    model = ScriptedChatModel()
    register_chat_model("fake:identity", model)
    context.llm = "fake:identity"
    yield model
    register_chat_model("fake:identity", None)


def extraction(subject: str, subject_type: str, predicate: str, obj: str, obj_type: str) -> Extraction:
    return Extraction(
        quintuples=[
            Quintuple(subject=subject, subject_type=subject_type, predicate=predicate, object=obj, object_type=obj_type)
        ]
    )


def test_llm_adjudicates_a_translation(scripted: ScriptedChatModel, broker: Broker) -> None:
    scripted.queue(extraction("小王", "Person", "就职于", "微软", "Organization"))
    broker.remember("小王就职于微软。", speaker="小王")
    assert scripted.calls and len(scripted.calls) == 1  # nothing stored yet: no adjudication

    scripted.queue(
        extraction("Alice", "Person", "works at", "Microsoft", "Organization"),
        IdentityVerdicts(verdicts=[IdentityVerdict(pair=1, same=True, reason="Chinese name of Microsoft")]),
    )
    broker.remember("Alice works at Microsoft.", speaker="Alice")
    prompt = scripted.calls[-1][1][1]
    assert '"name": "Microsoft"' in prompt and '"known_entity": "微软"' in prompt
    [record] = broker.merges()
    assert (record.alias, record.into_name, record.method) == ("Microsoft", "微软", "llm")
    assert "Chinese name of Microsoft" in record.reason
    assert {f.subject for f in broker.facts("Microsoft")} == {"小王", "Alice"}


def test_llm_says_apart_and_types_keep_a_person_from_a_company(scripted: ScriptedChatModel, broker: Broker) -> None:
    scripted.queue(extraction("Henry Ford", "Person", "founded", "Ford", "Organization"))
    broker.remember("Henry Ford founded Ford.", speaker="narrator")
    # A person called Ford is not the company (types), and the model says he is not Henry Ford.
    scripted.queue(
        extraction("Ford", "Person", "likes", "jazz", "Concept"),
        IdentityVerdicts(verdicts=[IdentityVerdict(pair=1, same=False, reason="a neighbour, not the industrialist")]),
    )
    broker.remember("Ford (my neighbour) likes jazz.", speaker="narrator")
    asked = scripted.calls[-1][1][1]
    assert '"name": "Ford", "type": "Person", "known_entity": "Henry Ford"' in asked
    assert '"known_type": "Organization"' not in asked  # incompatible types are never even asked
    fords = [e for e in broker.entities() if e.name == "Ford"]
    assert sorted(e.type for e in fords) == ["Organization", "Person"]
    assert broker.merges() == []
    assert len({f.subject_id for f in broker.facts("Ford")}) == 2
