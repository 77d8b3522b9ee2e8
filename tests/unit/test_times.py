"""Relative times resolved against when they were said (language.times)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from elephant_broker.language.times import parse_said_at, resolve_relative_time, said_at

SAID = datetime(2023, 7, 15, 13, 56, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    ("phrase", "date"),
    [
        ("yesterday", "14 July 2023"),
        ("last Friday", "14 July 2023"),
        ("3 days ago", "12 July 2023"),
        ("last week", "the week before 15 July 2023"),
        ("this past weekend", "the weekend before 15 July 2023"),
        ("上周末", "2023年7月15日的前一个周末"),
        ("two weeks ago", "the week of 26 June 2023"),
        ("last month", "June 2023"),
        ("next month", "August 2023"),
        ("last year", "2022"),
        ("昨天", "2023年7月14日"),
        ("前天", "2023年7月13日"),
        ("上周", "2023年7月15日的前一周"),
        ("上个月", "2023年6月"),
        ("去年", "2022年"),
        ("3天前", "2023年7月12日"),
    ],
)
def test_a_relative_time_is_the_date_it_names(phrase: str, date: str) -> None:
    assert resolve_relative_time(phrase, SAID) == date


@pytest.mark.parametrize(
    "phrase",
    # Written dates name their own time (a birthday recurs); a bare weekday or month may lie
    # before or after the day it was said; unreadable phrases keep their words.
    ["in 2019", "5月8号", "Friday", "周五", "in March", "every Saturday", "a while ago", "last summer"],
)
def test_other_times_keep_their_words(phrase: str) -> None:
    assert resolve_relative_time(phrase, SAID) == phrase


def test_nothing_is_resolved_without_a_moment_of_saying() -> None:
    assert resolve_relative_time("yesterday", None) == "yesterday"
    assert resolve_relative_time(None, SAID) is None


def test_when_a_text_was_said_is_read_from_iso_or_free_text() -> None:
    assert parse_said_at("2023-05-08") == datetime(2023, 5, 8, tzinfo=UTC)
    assert parse_said_at("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_said_at("sometime") is None
    # Unreadable: when it was stored.
    assert said_at("sometime", 1_688_428_800_000) == datetime(2023, 7, 4, tzinfo=UTC)
