"""The offline Chinese Reader on encyclopedic and news text: profiles, credits, descriptions of people.

Each case is an invented sentence of a construction such text uses; it asserts the facts read
from it and that the junk an earlier Reader made of it is gone.
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples

Pair = tuple[str, str]
Triple = tuple[str, str, str]


def pairs(text: str) -> set[Pair]:
    """The (subject, object) pairs read from ``text``, negated facts left out."""
    return {(q.subject, q.object) for q in extract_quintuples(text) if not q.negated}


def triples(text: str) -> set[Triple]:
    """The (subject, predicate, object) triples read from ``text``, negated facts left out."""
    return {(q.subject, q.predicate, q.object) for q in extract_quintuples(text) if not q.negated}


def subjects(text: str) -> set[str]:
    """Every subject read from ``text``."""
    return {q.subject for q in extract_quintuples(text)}


# --- a description before a person's name: an age, a post, a rank, an occupation ---------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("62岁的著名画家韩默住在杭州。", ("韩默", "住在", "杭州")),  # an age and an occupation
        ("时任青州知府的张文远住在杭州。", ("张文远", "住在", "杭州")),  # a post held then
        ("三子周衡娶了林悦。", ("周衡", "娶", "林悦")),  # a rank among siblings
    ],
)
def test_a_description_before_a_name_is_no_owner(text: str, expected: Triple) -> None:
    read = triples(text)
    assert expected in read
    assert subjects(text) == {expected[0]}  # no (62, 包含, 62岁的著名画家韩默), no (时任青州知府, 包含, …)


# --- function words at a name's edges -------------------------------------------------------


def test_a_conjunction_before_a_subject_is_cut() -> None:
    assert triples("而林舟是一名歌手。") == {("林舟", "是", "歌手")}


def test_a_set_phrase_before_a_proper_name_is_cut() -> None:
    assert subjects("总而言之西湖是杭州最美的地方。") == {"西湖"}


def test_a_leading_time_word_is_kept_when_it_is_the_name() -> None:
    """当代集团, 一加科技: the word opening the name is cut only when a proper name is left."""
    assert subjects("当代集团收购了蓝鲸电子。") <= {"当代集团"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("《远山》是一部剧情片，但由彼得·沃森执导。", ("远山", "彼得·沃森")),  # 但由 before a dotted name
        ("今日蓝鲸集团董事长邵明川表示，明年将推出新品。", ("蓝鲸集团", "邵明川")),  # a time word
        ("那么如今身为蓝鲸集团董事长的邵明川表示，明年将推出新品。", ("蓝鲸集团", "邵明川")),
        ("在《雨后》之后，许岚此次正式执导《归途》。", ("雨后", "许岚")),  # a pronoun after the name
    ],
)
def test_a_construction_cuts_its_names_at_function_words(text: str, expected: Pair) -> None:
    read = pairs(text)
    assert expected in read
    assert len(read) == 1, read


def test_a_listed_title_keeps_its_words() -> None:
    """《别逼我回家》: the title marks bound the name; 别 is no lead to cut."""
    assert pairs("许岚，女，执导影视作品有《别逼我回家》、《雨后》等。") == {("别逼我回家", "许岚"), ("雨后", "许岚")}


# --- a copula's complement must be a noun phrase ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "林舟是太棒了。",  # a verdict jieba takes for a name
        "林舟一直是体格瘦弱而性格倔强。",  # adjectives
        "《晚风》是梁柯和苏河写的歌。",  # a relative clause: someone wrote the song
        "这部片子拍得不错，林舟是不太适合的。",  # a negated verb
    ],
)
def test_a_copula_before_no_noun_phrase_states_no_kind(text: str) -> None:
    assert not any(predicate == "是" for _, predicate, _ in triples(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("林舟是一名退休教师。", ("林舟", "是", "退休教师")),  # a verb inside a compound noun, no clause
        ("林舟是一名歌手。", ("林舟", "是", "歌手")),
        ("西湖是杭州最美的地方。", ("西湖", "是", "杭州最美的地方")),  # an adjective before 的
    ],
)
def test_a_copula_before_a_noun_phrase_states_a_kind(text: str, expected: Triple) -> None:
    assert expected in triples(text)


# --- a profile: descriptions of its person are no subjects ----------------------------------


def test_coordinated_occupations_describe_the_profiles_person() -> None:
    read = pairs("林悦，女，1980年出生于杭州，中国内地女演员、歌手，毕业于南华戏剧学院。")
    assert read == {("林悦", "杭州"), ("林悦", "南华戏剧学院")}


@pytest.mark.parametrize(
    "text",
    [
        "方哲，男，汉族，1979年3月出生于宁波，中共党员，2001年毕业于东海大学。",
        "方哲，男，汉族，1979年3月出生于宁波，中共党员2001年毕业于东海大学。",  # in the clause of the verb
    ],
)
def test_a_party_membership_describes_the_profiles_person(text: str) -> None:
    assert pairs(text) == {("方哲", "宁波"), ("方哲", "东海大学")}


def test_a_nationality_names_nobody() -> None:
    read = pairs("方哲，男，中国国籍，1979年出生，中共党员，2001年毕业于东海大学。")
    assert ("方哲", "中国") in read
    assert not {subject for subject, _ in read} - {"方哲"}


def test_a_place_attribute_in_a_profile_is_the_persons() -> None:
    assert triples("方哲，男，祖籍浙江绍兴，出生于宁波。") == {
        ("方哲", "祖籍", "浙江绍兴"),
        ("方哲", "出生于", "宁波"),
    }


def test_a_lists_number_is_nobody() -> None:
    assert pairs("3、韩默，1975年出生于宁波。") == {("韩默", "宁波")}


def test_an_events_date_is_stated_in_its_own_clause() -> None:
    """1998年7月 is when she joined; the graduation has no date of its own."""
    read = triples("林悦，1998年7月加入中国共产党，北方大学毕业。")
    assert ("林悦", "加入", "中国共产党") in read
    assert not any(obj == "1998年7月" for _, _, obj in read)


def test_an_unreadable_subject_is_no_one_earlier() -> None:
    """年仅9岁 cannot be read as a subject; what follows is not said of the king before it."""
    read = triples("同年，老国王周衡去世，年仅9岁的周恒即位，是为明宗。")
    assert not any(subject == "周衡" and obj == "明宗" for subject, _, obj in read)
