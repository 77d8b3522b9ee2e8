"""Offline answer composition from evidence (pure functions, no store)."""

from __future__ import annotations

import pytest
from elephant_broker.domain.answers import (
    NOT_IN_MEMORY_EN,
    NOT_IN_MEMORY_ZH,
    answers_in_itself,
    asked_relatives,
    asks_of_relatives_own,
    compose_answer,
    rank_answers,
)
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
        episode_ids=extra.pop("episode_ids", ["ep"]),
        score=extra.pop("score", 1.0),
        **extra,
    )


def analysis(**fields) -> QuestionAnalysis:
    return QuestionAnalysis(**{"language": "zh", **fields})


def test_no_evidence_gives_the_one_abstention_with_its_reason() -> None:
    for language, wording in (("zh", NOT_IN_MEMORY_ZH), ("en", NOT_IN_MEMORY_EN)):
        composed = compose_answer(analysis(language=language), [], [], [])
        assert (composed.text, composed.answered, composed.reason) == (wording, False, "nothing_found")
        assert composed.value == ""


def episode(text: str, speaker: str = "小红") -> Episode:
    return Episode(id="e", agent_id="a", session_id="s", speaker=speaker, source="x", text=text, created_at=0)


def test_an_episode_that_says_nothing_of_the_asked_kind_is_no_answer() -> None:
    # The closest memory is related, not an answer: nothing in it is a name.
    composed = compose_answer(analysis(answer_kind="Name"), [ME], [], [episode("我的猫很可爱。")], "小红的猫叫什么？")
    assert not composed.answered and composed.reason == "wrong_kind"
    assert "猫" not in composed.text


def test_a_sentence_that_says_the_asked_kind_is_read_out_and_quoted() -> None:
    said = episode("dentist moved my appointment to Friday at 3:30", speaker="Diego")
    asked = analysis(language="en", answer_type="Time", keywords=["time", "dentist", "appointment"], entities=["Diego"])
    composed = compose_answer(asked, [], [], [said], "What time is Diego's dentist appointment?", asker="Diego")
    assert composed.answered and composed.value == "Friday at 3:30"
    assert composed.sources == [said] and '"dentist moved my appointment to Friday at 3:30"' in composed.text


def test_a_sentence_about_someone_else_does_not_answer() -> None:
    # Julia's birthday is no answer about Kevin, nor another speaker's words about the asker.
    julia = episode("my birthday's October 3rd", speaker="Julia")
    asked = analysis(language="en", answer_type="Time", keywords=["birthday"], entities=["Kevin"])
    assert not compose_answer(asked, [], [], [julia], "When is Kevin's birthday?", asker="Ana").answered
    mine = analysis(language="en", answer_type="Time", keywords=["birthday"], entities=["Ana"])
    assert not compose_answer(mine, [], [], [julia], "When is Ana's birthday?", asker="Ana").answered
    hers = analysis(language="en", answer_type="Time", keywords=["birthday"], entities=["Julia"])
    assert compose_answer(hers, [], [], [julia], "When is my birthday?", asker="Julia").value == "October 3rd"


def test_a_sentence_sharing_too_few_words_with_the_question_does_not_answer() -> None:
    said = episode("my new manager is Karen", speaker="Zoe")
    asked = analysis(language="en", answer_kind="Name", keywords=["manager", "dog", "called"], entities=["Zoe"])
    assert not compose_answer(asked, [], [], [said], "What's my manager's dog called?", asker="Zoe").answered


def test_a_list_question_reads_what_the_sentence_lists() -> None:
    said = episode("这学期选了三门课：统计学、宏观经济学，还有日语", speaker="梁爽")
    asked = analysis(intent="list", keywords=["这学期", "选", "课"], entities=["梁爽"])
    composed = compose_answer(asked, [], [], [said], "梁爽这学期选了哪些课？", asker="梁爽")
    assert composed.value == "统计学、宏观经济学，还有日语"


def test_an_open_question_is_answered_by_the_sentence_that_says_it() -> None:
    said = episode("I drink green tea in the mornings now.", speaker="Ava")
    asked = analysis(language="en", keywords=["drink", "mornings"], entities=["Ava"])
    composed = compose_answer(asked, [], [], [said], "What does Ava drink in the mornings?", asker="Ava")
    assert composed.value == "I drink green tea in the mornings now"
    # A reason is the clause that gives it, and a wish answers nothing.
    why = analysis(language="en", answer_kind="Reason", keywords=["switch", "tea"], entities=["Ava"])
    because = episode("I switch to tea because coffee keeps me up.", speaker="Ava")
    assert compose_answer(why, [], [], [because], "", asker="Ava").value == "because coffee keeps me up"
    wish = episode("I wish I could drink coffee in the mornings.", speaker="Ava")
    assert not compose_answer(asked, [], [], [wish], "What does Ava drink in the mornings?", asker="Ava").answered


def test_yes_no_follows_the_negation_of_the_matching_fact() -> None:
    facts = [fact("f1", "小周", "吃", "辣", negated=True)]
    assert compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周能吃辣吗？").text.startswith("不吃。")
    denied = [fact("f1", "小李", "是", "学生", negated=True)]
    assert compose_answer(analysis(intent="yes_no"), [ME], denied, [], "小李是学生吗？").value == "不是"
    facts = [fact("f1", "小周", "吃", "辣")]
    assert compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周能吃辣吗？").value == "是的"
    # The fact must state the asked relation about the named subject.
    caroline = Entity(id="id_Caroline", name="Caroline", type="Person")
    shared = [fact("f1", "Caroline", "shares", "photo")]
    made = analysis(language="en", intent="yes_no", keywords=["make", "bowl", "photo"])
    assert not compose_answer(made, [caroline], shared, [], "Did Caroline make the bowl in the photo?").answered
    unrelated = compose_answer(analysis(intent="yes_no"), [ME], facts, [], "小周会开飞机吗？")
    assert (unrelated.text, unrelated.reason) == (NOT_IN_MEMORY_ZH, "nothing_found")


def test_negated_and_ended_facts_are_never_the_answer() -> None:
    facts = [
        fact("f1", "Eve", "drink", "coffee", negated=True, score=2.0),
        fact("f2", "Eve", "drink", "tea", score=1.0),
    ]
    eve = Entity(id="eve", name="Eve", type="Person")
    assert compose_answer(analysis(language="en"), [eve], facts, [], "What do Eve drink?").value == "tea"
    assert [candidate.name for candidate in rank_answers(facts, [eve], None)] == ["tea"]
    left = [fact("f1", "Eve", "left", "Chicago", object_type="Place", score=2.0)]
    assert rank_answers(left, [eve], "Place") == []


def test_time_questions_answer_with_the_time_of_the_fact() -> None:
    facts = [fact("f1", "小周", "毕业于", "浙江大学", valid_from="2018年")]
    composed = compose_answer(analysis(answer_type="Time"), [ME], facts, [], "小周哪一年毕业？")
    assert composed.value == "2018年" and composed.support == facts


def test_an_answer_of_an_incompatible_kind_is_not_given() -> None:
    facts = [fact("f1", "小周", "喜欢", "西红柿", object_type="Food")]
    composed = compose_answer(analysis(answer_type="Person"), [ME], facts, [], "小周的老板是谁？")
    assert (composed.answered, composed.reason) == (False, "wrong_kind")
    # a city for "where do I work" is compatible: places and organisations overlap
    facts = [fact("f1", "小周", "在工作", "北京", object_type="Place")]
    assert compose_answer(analysis(answer_type="Organization"), [ME], facts, [], "").value == "北京"
    # a name is asked: an occupation is no name, a name given by 叫 is one even as a common word
    facts = [fact("f1", "小周", "男朋友", "平面设计", object_type="Concept")]
    assert not compose_answer(analysis(answer_kind="Name"), [ME], facts, [], "小周男朋友叫什么？").answered
    facts = [fact("f1", "小周猫", "叫", "年糕", object_type="Food")]
    assert compose_answer(analysis(answer_kind="Name"), [ME], facts, [], "小周的猫叫什么？").value == "年糕"
    # a number is asked: only a numeral answers
    facts = [fact("f1", "小周", "住", "顶楼", object_type="Place")]
    assert not compose_answer(analysis(answer_kind="Number"), [ME], facts, [], "小周住几楼？").answered
    facts = [fact("f1", "小周", "住", "21楼", object_type="Concept")]
    assert compose_answer(analysis(answer_kind="Number"), [ME], facts, [], "小周住几楼？").value == "21楼"
    # a person is no workplace: where my brother works is not my brother's name
    facts = [fact("f1", "Eve", "brother", "Bram", object_type="Person")]
    eve = Entity(id="eve", name="Eve", type="Person")
    assert not compose_answer(analysis(language="en", answer_type="Organization"), [eve], facts, [], "").answered
    # "which city" names the class: an employer answers "where", not "which city"
    facts = [fact("f1", "Eve", "works at", "Northbridge Labs", object_type="Organization")]
    asked = analysis(language="en", answer_type="Place", answer_kind="Place")
    assert not compose_answer(asked, [eve], facts, [], "Which city does Eve work in?").answered
    assert (
        compose_answer(analysis(language="en", answer_type="Place"), [eve], facts, [], "").value == "Northbridge Labs"
    )
    # a workplace is named: "new job downtown" is none
    facts = [fact("f1", "Eve", "started", "new job downtown", object_type="Concept")]
    eve = Entity(id="eve", name="Eve", type="Person")
    asked = analysis(language="en", answer_type="Organization")
    assert not compose_answer(asked, [eve], facts, [], "Where does Eve work?").answered


def test_a_disputed_answer_is_withheld_as_contradicted() -> None:
    facts = [fact("f1", "小周", "住在", "杭州", object_type="Place", status="disputed")]
    composed = compose_answer(analysis(answer_type="Place"), [ME], facts, [], "小周住在哪里？")
    assert (composed.answered, composed.reason) == (False, "contradicted")


def test_parallel_answers_share_the_relation_of_the_best_one() -> None:
    facts = [
        fact("f1", "小周", "会说", "日语", score=1.0, object_type="Language"),
        fact("f2", "小周", "会说", "韩语", score=0.9, object_type="Language"),
        fact("f3", "小周", "住在", "杭州", score=0.9, object_type="Place"),
    ]
    composed = compose_answer(analysis(), [ME], facts, [], "")
    assert composed.value == "日语、韩语"
    assert [f.id for f in composed.support] == ["f1", "f2"]


def test_the_far_end_is_the_answer_not_the_entity_on_the_way() -> None:
    facts = [
        fact("f1", "小周", "同事", "王强", score=1.0, object_type="Person"),
        fact("f2", "王强", "住在", "深圳", score=0.8, object_type="Place"),
    ]
    ranked = rank_answers(facts, [ME], "Place")
    assert ranked[0].name == "深圳"
    assert [f.id for f in ranked[0].support] == ["f2", "f1"]


def test_through_another_person_only_a_link_the_question_names_connects() -> None:
    facts = [
        fact("f1", "小周", "同事", "王强", score=1.0, object_type="Person"),
        fact("f2", "王强", "住在", "深圳", score=0.8, object_type="Place"),
    ]
    # "Where does my colleague live?": the colleague link is named, so 深圳 is about 小周's colleague.
    assert rank_answers(facts, [ME], "Place", keywords=["同事", "住"])[0].connected
    # "Where does 小周 live?": 深圳 is 王强's home, not 小周's.
    assert not rank_answers(facts, [ME], "Place", keywords=["住"])[0].connected
    asked = analysis(answer_type="Place", keywords=["住"])
    assert not compose_answer(asked, [ME], facts, [], "小周住在哪里？").answered


def test_time_sensitive_confidence_halves_every_half_life() -> None:
    day = 86_400_000
    plan = fact("f1", "小周", "打算", "去日本", key="plans", confidence=0.8, created_at=0)
    assert decay(plan, 30 * day, 30).confidence == pytest.approx(0.4)
    assert decay(plan, 60 * day, 30).confidence == pytest.approx(0.2)
    lasting = fact("f2", "小周", "住在", "杭州", key="lives_in", confidence=0.8, created_at=0)
    assert decay(lasting, 60 * day, 30).confidence == 0.8


def test_a_question_about_my_relative_is_not_answered_with_my_own_facts() -> None:
    # 我老婆喜欢吃什么? The asker likes dumplings; nothing is known of his wife's food.
    own = [fact("f1", "小周", "爱吃", "饺子", object_type="Food")]
    asked = analysis(answer_type="Food", keywords=["老婆", "喜欢", "吃"])
    assert not compose_answer(asked, [ME], own, [], "小周老婆喜欢吃什么？", asker="小周").answered
    # ... but a fact about her answers, and so does one reached through the role.
    hers = [fact("f1", "小周老婆", "喜欢吃", "火锅", object_type="Food")]
    assert compose_answer(asked, [ME], hers, [], "小周老婆喜欢吃什么？", asker="小周").value == "火锅"
    eve = Entity(id="eve", name="Eve", type="Person")
    path = [
        fact("f1", "Eve", "brother", "Bram", object_type="Person"),
        fact("f2", "Bram", "works at", "Initech", object_type="Organization"),
        fact("f3", "Eve", "works at", "Globex", object_type="Organization", score=3.0),
    ]
    where = analysis(language="en", answer_type="Organization", keywords=["brother", "work"])
    assert compose_answer(where, [eve], path, [], "Where does Eve's brother work?", asker="Eve").value == "Initech"


def test_a_relative_s_name_is_the_relative_not_a_thing_of_theirs() -> None:
    eve = Entity(id="eve", name="Eve", type="Person")
    facts = [
        fact("f1", "Eve", "daughter", "Mia", object_type="Person"),
        fact("f2", "Mia", "plays", "Violin Club", object_type="Organization", score=2.0),
    ]
    named = analysis(language="en", answer_kind="Name", keywords=["daughter", "name"])
    assert compose_answer(named, [eve], facts, [], "What's Eve's daughter's name?", asker="Eve").value == "Mia"
    # A description is no name: "Eve's younger brother" does not answer what he is called.
    described = [
        fact("f1", "Eve", "has", "Eve's younger brother"),
        fact("f2", "Eve's younger brother", "studies at", "Leeds Beckett", object_type="Organization"),
    ]
    brother = analysis(language="en", answer_kind="Name", keywords=["brother", "name"])
    assert not compose_answer(brother, [eve], described, [], "What's Eve's brother's name?", asker="Eve").answered
    # Read from what was said: asked for the relative's own name, only what a naming word
    # gives answers (邵欣怡), not another name in the sentence (萨克斯).
    said = [episode("我女儿叫邵欣怡，在学萨克斯", speaker="小周")]
    asked = analysis(answer_kind="Name", keywords=["女儿", "叫", "名字"])
    assert compose_answer(asked, [ME], [], said, "小周女儿叫什么名字？", asker="小周").value == "邵欣怡"


def test_a_fact_stating_the_asked_relation_outranks_a_nearer_one() -> None:
    ines = Entity(id="id_Ines", name="Ines", type="Person")
    facts = [
        fact("f1", "Ines", "be in", "Lisbon", object_type="Place", score=1.3),
        fact("f2", "Ines", "moved back to", "Porto", key="lives_in", score=0.8),
    ]
    where = analysis(language="en", answer_type="Place", keywords=["city", "living", "live"])
    assert compose_answer(where, [ines], facts, [], "Which city is Ines living in?").value == "Porto"


def test_the_bearer_of_the_name_asked_about_is_no_answer() -> None:
    dog = Entity(id="id_豆包", name="豆包", type="Concept")
    facts = [fact("f1", "小周狗", "叫", "豆包")]
    composed = compose_answer(analysis(keywords=["害怕"]), [dog], facts, [], "豆包害怕什么？")
    assert not composed.answered


def test_an_answer_must_state_what_is_asked() -> None:
    nora = Entity(id="id_Nora", name="Nora", type="Person")
    # Something thought of is no car had.
    thought = [fact("f1", "Nora", "thought about", "buying a Rivian", object_type="Thing")]
    car = analysis(language="en", answer_type="Thing", keywords=["car"])
    assert not compose_answer(car, [nora], thought, [], "What car does Nora have?").answered
    # An open question is answered by a fact of the asked relation, or of the class asked
    # ("What workshop …?": a workshop), not by whatever else is known of the person.
    iris = Entity(id="id_Iris", name="Iris", type="Person")
    other = [fact("f1", "Iris", "surrounded by", "old friends")]
    event = analysis(language="en", keywords=["event", "participate"])
    assert not compose_answer(event, [iris], other, [], "What event did Iris participate in?").answered
    went = [fact("f1", "Iris", "went to", "glass-blowing workshop")]
    workshop = analysis(language="en", keywords=["workshop", "attend"])
    source = episode("Went to a glass-blowing workshop on Saturday!", speaker="Iris").model_copy(update={"id": "ep"})
    composed = compose_answer(workshop, [iris], went, [source], "What workshop did Iris attend?")
    assert composed.value == "glass-blowing workshop"


def test_a_yes_no_object_only_similar_to_the_asked_one_needs_the_asked_relation() -> None:
    # 小周有签证吗: 加急件 may be close to 签证 in embedding space, and 签证 is inside the predicate
    # 签证办; that settles nothing about having a visa.
    facts = [fact("f1", "小周", "签证办", "加急件")]
    similar = Entity(id="id_加急件", name="加急件", type="Concept", score=0.6)
    asked = analysis(intent="yes_no", keywords=["有", "签证", "有签证"])
    assert not compose_answer(asked, [ME], facts, [], "小周有签证吗？", [ME, similar]).answered
    # Written in the question, the object is the one asked about, and a question word inside
    # the predicate settles it.
    written = analysis(intent="yes_no", keywords=["签证", "办", "加急件"])
    assert compose_answer(written, [ME], facts, [], "小周签证办加急件了吗？", [ME, similar]).value == "是的"


def test_a_list_gathers_every_one_of_the_kind_whatever_the_verb() -> None:
    oskar = Entity(id="id_Oskar", name="Oskar", type="Person")
    facts = [
        fact("f1", "Oskar", "studies", "Italian", object_type="Language", score=1.0),
        fact("f2", "Oskar", "picked up", "Greek", object_type="Language", score=0.9),
        fact("f3", "Oskar", "lives in", "Leeds", object_type="Place", score=0.9),
    ]
    listed = analysis(language="en", intent="list", answer_type="Language", keywords=["languages", "studying"])
    assert compose_answer(listed, [oskar], facts, [], "Which languages is Oskar studying?").value == "Italian, Greek"
    # One thing asked: only what the best answer's relation reaches.
    one = analysis(language="en", answer_type="Language", keywords=["language", "studying"])
    assert compose_answer(one, [oskar], facts, [], "Which language is Oskar studying?").value == "Italian"


def test_a_class_asked_is_not_answered_by_an_amount() -> None:
    """ "What hotel am I staying at?": a stay of 6 days is how long, no hotel."""
    eve = Entity(id="eve", name="Eve", type="Person")
    stays = fact("f1", "Eve", "stays", "6 days", object_type="Concept")
    asked = QuestionAnalysis(language="en", entities=["Eve"], keywords=["hotel", "stay"], intent="lookup")
    composed = compose_answer(asked, [eve], [stays], [], "What hotel is Eve staying at?", asker="Eve")
    assert composed.value is None or "6 days" not in composed.value, composed.text


def said(text: str, speaker: str, episode_id: str, time: str = "2023-05-08") -> Episode:
    return Episode(
        id=episode_id, agent_id="a", session_id="s", speaker=speaker, source="x", text=text, time=time, created_at=0
    )


def test_an_open_question_is_answered_from_words_about_its_topic() -> None:
    # What Omar loves, read from a turn about his garden, says nothing of what he loves about sailing.
    omar = Entity(id="id_Omar", name="Omar", type="Person")
    garden = said("I love my tomato plants, they keep me sane.", "Omar", "e1")
    loves = [fact("f1", "Omar", "loves", "tomato plants", episode_ids=["e1"])]
    sailing = analysis(language="en", keywords=["love", "sailing", "brother"], entities=["Omar"])
    question = "What does Omar love about sailing with his brother?"
    assert not compose_answer(sailing, [omar], loves, [garden], question, asker="Lena").answered
    # Said in a turn about the topic, it answers; an item added in the next turn joins it.
    about = said("Sailing with my brother is the best, I love the quiet out there.", "Omar", "e2")
    more = said("oh and the sunsets too", "Omar", "e3", time="2023-05-08T00:01")
    found = [
        fact("f2", "Omar", "loves", "the quiet", episode_ids=["e2"]),
        fact("f3", "Omar", "loves", "the sunsets", episode_ids=["e3"], score=0.9),
    ]
    listing = analysis(language="en", intent="list", keywords=["love", "sailing", "brother"], entities=["Omar"])
    composed = compose_answer(listing, [omar], found, [about, more], question, asker="Lena")
    assert composed.value == "the quiet, the sunsets"


def test_an_open_question_quotes_the_closest_words_of_whom_it_asks_about() -> None:
    asked = analysis(language="en", keywords=["realize", "relay", "race"], entities=["Halima"])
    question = "What did Halima realize after the relay race?"
    own = said("After the relay race I realized rest matters as much as training.", "Halima", "e1")
    composed = compose_answer(asked, [], [], [own], question, asker="Sam")
    assert composed.answered and composed.value == "After the relay race I realized rest matters as much as training"
    assert composed.sources == [own] and "Based on what Halima said" in composed.text
    # The closest words are someone else's: her friend's race says nothing of Halima's.
    friend = said("My relay race was tough, but I realized how much I love running.", "Teodor", "e2")
    reply = said("That relay race sounds amazing, Teo!", "Halima", "e3")
    assert not compose_answer(asked, [], [], [friend, reply], question, asker="Sam").answered
    # Words said to the listener ("your race") or that only greet someone are not about the speaker.
    to_friend = said("Your relay race made me realize I should train more.", "Teodor", "e4")
    assert not compose_answer(asked, [], [], [to_friend], question, asker="Sam").answered
    # Too little in common with the question is no answer either.
    far = said("I realized I left my keys at home.", "Halima", "e5")
    assert not compose_answer(asked, [], [], [far], question, asker="Sam").answered


def test_a_relative_time_answer_is_dated_by_when_it_was_said() -> None:
    maria = Entity(id="id_Maria", name="Maria", type="Person")
    turn = said("I donated my old car to a shelter yesterday.", "Maria", "e1", time="22 December, 2022")
    donated = [fact("f1", "Maria", "donated at", "yesterday", object_type="Time", episode_ids=["e1"])]
    asked = analysis(language="en", answer_type="Time", keywords=["donate", "car"], entities=["Maria"])
    composed = compose_answer(asked, [maria], donated, [turn], "When did Maria donate her car?")
    assert composed.value == "21 December 2022"


def test_a_turn_says_when_no_one_sentence_of_it_does() -> None:
    turn = said(
        "I gave a talk at a school in town. It was last week and the kids loved it.", "Bram", "e1", "8 May, 2023"
    )
    asked = analysis(language="en", answer_type="Time", keywords=["give", "talk", "school"], entities=["Bram"])
    composed = compose_answer(asked, [], [], [turn], "When did Bram give a talk at a school?", asker="Sam")
    assert composed.value == "the week before 8 May 2023"
    # Two times in the turn: which one is asked, the turn does not say.
    two = said(
        "I gave a talk at a school in town. It was last week; next Friday I fly out.", "Bram", "e2", "8 May, 2023"
    )
    assert not compose_answer(asked, [], [], [two], "When did Bram give a talk at a school?", asker="Sam").answered


def test_asked_about_something_of_a_relatives_the_relative_is_no_answer() -> None:
    # 我同事的鹦鹉叫什么: the parrot's name is asked; the colleague's own name is only the way there.
    relatives = asked_relatives("小周同事的鹦鹉叫什么？", "小周")
    assert asks_of_relatives_own("小周同事的鹦鹉叫什么？", relatives)
    assert not asks_of_relatives_own("小周同事叫什么？", relatives)
    # 表哥 + 嫂: a relative of the relative's, not the cousin himself.
    assert asks_of_relatives_own("小周表哥嫂叫什么？", asked_relatives("小周表哥嫂叫什么？", "小周"))
    assert asks_of_relatives_own(
        "What's Eve's uncle's parrot called?", asked_relatives("What's Eve's uncle's parrot called?", "Eve")
    )
    assert not asks_of_relatives_own(
        "What is Eve's uncle's full name?", asked_relatives("What is Eve's uncle's full name?", "Eve")
    )
    asked = analysis(answer_kind="Name", keywords=["同事", "鹦鹉"], entities=["小周"])
    role = [fact("f1", "小周", "同事", "韩梅")]
    said = [episode("我同事韩梅养了只鹦鹉", speaker="小周"), episode("那只鹦鹉叫芝麻", speaker="小周")]
    composed = compose_answer(asked, [ME], role, said, "小周同事的鹦鹉叫什么？", asker="小周")
    assert composed.value != "韩梅"


def test_a_sentence_quoted_whole_must_say_what_is_not_only_what_is_not() -> None:
    # A denial says what is not drunk; a sentence giving the name asked about says only the name.
    assert not answers_in_itself("I don't drink soda anymore, too much sugar", "Ava", [], "en")
    assert answers_in_itself("Switched to oat lattes and love them", "Ava", [], "en")
    assert not answers_in_itself(
        "At the groomer she's known as Captain Waffles, long story", "Ava", ["Captain Waffles"], "en"
    )
    assert not answers_in_itself("on the vet's forms she is registered as Duchess Plum", "Ava", ["Duchess Plum"], "en")


def test_a_listed_sentence_takes_the_items_added_in_the_next_turns() -> None:
    first = said("周末要准备的：帐篷、睡袋", "梁爽", "e1", time="2023-05-08T10:00")
    second = said("噢，还有营地灯", "梁爽", "e2", time="2023-05-08T10:01")
    third = said("对了还有驱蚊液", "梁爽", "e3", time="2023-05-08T10:02")
    asked = analysis(intent="list", keywords=["周末", "准备"], entities=["梁爽"])
    composed = compose_answer(asked, [], [], [first, second, third], "梁爽周末要准备哪些东西？", asker="梁爽")
    assert composed.value == "帐篷、睡袋、营地灯、驱蚊液"
