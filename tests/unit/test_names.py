"""Name keys, mention matching, canonical predicates and first-person resolution."""

from __future__ import annotations

import pytest
from elephant_broker.language.names import entity_search_text, fold_text, is_mentioned, normalize_name, search_text
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.pronouns import is_first_person, resolve_first_person


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("OpenAI", "Open AI"),
        ("OpenAI", "OpenAI公司"),
        ("OpenAI", "openai inc."),
        ("Python", "python"),
        ("Ｐｙｔｈｏｎ", "Python"),
        ("阿里巴巴", "阿里巴巴有限公司"),
        ("Acme Corp.", "ACME"),
        ("Node.js", "nodejs"),
        ("北京大学", "北京 大学"),
    ],
)
def test_spellings_of_one_name_share_a_key(left: str, right: str) -> None:
    assert normalize_name(left) == normalize_name(right)


@pytest.mark.parametrize(("left", "right"), [("Costco", "Cost"), ("张三", "张老三"), ("Java", "JavaScript")])
def test_different_names_keep_different_keys(left: str, right: str) -> None:
    assert normalize_name(left) != normalize_name(right)


def test_a_bare_suffix_is_not_stripped_to_nothing() -> None:
    assert normalize_name("公司") == "公司"
    assert normalize_name("Inc.") == "inc"


@pytest.mark.parametrize(
    ("stacked", "plain"),
    [
        ("Zed Corp Inc", "Zed Corp"),
        ("Zed Corp Inc", "Zed"),
        ("Zed Corp, Inc.", "Zed"),
        ("Huawei Technologies Co., Ltd.", "Huawei Technologies"),
        ("Acme Holdings Corp. Ltd. LLC", "Acme Holdings"),
        ("华为技术有限公司", "华为技术"),
        ("阿里巴巴股份有限公司", "阿里巴巴公司"),
        ("微软（中国）有限公司", "微软中国"),
        ("Acme Corp 公司", "Acme"),
    ],
)
def test_stacked_corporate_suffixes_are_all_stripped(stacked: str, plain: str) -> None:
    assert normalize_name(stacked) == normalize_name(plain)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Company Ltd", "companyltd"),
        ("Co. Inc.", "coinc"),
        ("Inc Inc", "incinc"),
        ("有限公司", "有限公司"),
        ("有限公司有限公司", "有限公司有限公司"),
        ("Costco Inc", "costco"),
        ("Costco", "costco"),
    ],
)
def test_stripping_never_leaves_only_a_suffix(name: str, key: str) -> None:
    assert normalize_name(name) == key


def test_any_number_of_stacked_suffixes_is_stripped() -> None:
    assert normalize_name("Zed " + "Inc " * 60_000) == "zed"
    assert normalize_name("有限公司" * 60_000) == "有限公司有限公司"  # stops before a bare suffix


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("张三", "张三的导师在哪所大学任教？", True),
        ("n8n", "帮我在 n8n 写一段脚本", True),
        ("JS", "please adjust the script", False),
        ("JS", "Does it support JS?", True),
        ("Frank Herbert", "Where was frank  herbert born?", True),
        ("Dune", "Who wrote Dune?", True),
        ("Dune", "dunes are sandy", False),
        ("北京", "我住在北京大学附近", True),
        ("", "anything", False),
    ],
)
def test_mentions(name: str, text: str, expected: bool) -> None:
    assert is_mentioned(name, text) is expected


def test_fold_text_keeps_latin_word_boundaries_and_joins_chinese() -> None:
    assert fold_text("Hello,  World！ 你 好") == "hello world 你好"


def test_search_text_has_bigrams_for_chinese() -> None:
    terms = search_text("北京大学").split()
    assert "北京" in terms and "大学" in terms


@pytest.mark.parametrize(
    ("surfaces", "key"),
    [
        (["喜欢", "爱", "最爱", "loves", "likes", "enjoys"], "likes"),
        (["喜欢吃", "爱吃", "最爱吃"], "likes_eating"),
        (["住在", "居住在", "lives in"], "lives_in"),
        (["works at", "is employed by", "就职于"], "works_at"),
        (["was born in", "出生于"], "born_in"),
    ],
)
def test_wordings_of_a_relation_share_a_predicate_key(surfaces: list[str], key: str) -> None:
    assert {predicate_key(surface) for surface in surfaces} == {key}


def test_unknown_predicates_keep_their_normalised_surface() -> None:
    assert predicate_key("Plays  Chess With") == "play_chess_with"
    assert predicate_key("played chess with") == "play_chess_with"
    assert predicate_key("下棋") == "下棋"


def test_first_person_is_resolved_to_the_speaker() -> None:
    assert resolve_first_person("我最爱吃的是什么？", "小王") == "小王最爱吃的是什么？"
    assert resolve_first_person("我们明天见", "小王") == "我们明天见"
    assert resolve_first_person("Where do I work? My office", "Alice") == "Where do Alice work? Alice's office"
    assert is_first_person(" Me ") and is_first_person("我") and not is_first_person("我们")


def test_latin_names_are_also_indexed_by_their_initials() -> None:
    assert entity_search_text("Carnegie Mellon University").split(" ")[-1] == "cmu"
    assert "mit" in entity_search_text("Massachusetts Institute of Technology").split(" ")
    assert entity_search_text("北京大学") == search_text("北京大学")  # no initials for Chinese
    assert entity_search_text("machine learning") == search_text("machine learning")  # not a proper name
