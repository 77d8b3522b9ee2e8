"""Corrections to jieba's cut that the Reader and the answer spans share (``language.segment``)."""

from __future__ import annotations

from elephant_broker.language.segment import _merge_split_words, is_kin_nickname


def test_a_lone_surname_character_and_a_noun_character_are_one_unknown_word() -> None:
    # jieba's cut of a place it does not know: one surname-like character, then one noun character.
    assert _merge_split_words([("住", "v"), ("汶", "nr"), ("川", "n"), ("这边", "r")]) == [
        ("住", "v"),
        ("汶川", "nz"),
        ("这边", "r"),
    ]
    # A name prefix before a noun, a surname before a verb, longer words: left as cut.
    assert _merge_split_words([("小", "nr"), ("猫", "n")]) == [("小", "nr"), ("猫", "n")]
    assert _merge_split_words([("王", "nr"), ("说", "v")]) == [("王", "nr"), ("说", "v")]
    assert _merge_split_words([("王伟", "nr"), ("家", "n")]) == [("王伟", "nr"), ("家", "n")]


def test_a_kin_word_nickname_is_told_from_dictionary_words() -> None:
    assert is_kin_nickname("军哥") and is_kin_nickname("芳姐")
    assert not any(is_kin_nickname(word) for word in ("大哥", "表姐", "二哥", "空姐", "小哥", "哥哥", "姐姐"))
