"""Relative times resolved against when they were said: "yesterday", said on 8 May 2023, is 7 May 2023.

A fact's time is kept as the Reader found it ("last week", 上个月); when the episode
that stated it has a time (or was stored at a known moment), a phrase that depends on
that moment is written out as the date it names, at the precision it has: a day
("7 May 2023", 2023年5月7日), a week ("the week before 8 May 2023"), a month ("June
2023") or a year ("2022"). Phrases that do not depend on the moment ("in 2019", "every
Saturday") and phrases no parser reads ("a while ago", "last summer") stay as written.

Parsing is dateparser's (English and Chinese relative expressions, and free-text
timestamps such as LoCoMo's "1:56 pm on 8 May, 2023"). A phrase is relative when two
different moments of saying give it different dates, so no list of relative words is
kept here.
"""

from __future__ import annotations

import functools
import logging
import re
from datetime import UTC, datetime, timedelta
from typing import Any

logger = logging.getLogger(__name__)

_LANGUAGES = ["en", "zh"]
_PROBE_SHIFT = timedelta(days=400)
"""How far the second moment of saying lies from the first: more than a year, so a year phrase moves too."""
_MAX_PHRASE = 40
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_AGO = re.compile(r"\bago\b|[天周年]前$|个月前$|星期前$")
_LAST_WEEK = frozenset({"last week", "the week before", "the previous week", "上周", "上个星期", "上星期", "上礼拜"})
_LAST_WEEKEND = frozenset(
    {"last weekend", "this past weekend", "the past weekend", "the weekend before", "上周末", "上个周末"}
)
"""Phrases dateparser does not read, said as the speaker meant them: the weekend before the day said."""


@functools.cache
def _dateparser() -> Any:
    # dateparser loads its language data on first use (~0.3 s); the CLI does not pay it
    # for commands that read no times (an import cost, not a cycle).
    import dateparser  # noqa: PLC0415

    return dateparser


def parse_said_at(text: str | None) -> datetime | None:
    """When an episode was said, from its time: ISO 8601 or free text ("1:56 pm on 8 May, 2023"); None if unreadable."""
    if not text or len(text) > 80:
        return None
    moment: datetime | None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        moment = _parse(text, datetime(2000, 1, 1))
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def said_at(time: str | None, stored_at_ms: int) -> datetime:
    """When a text was said: its own time when readable, else when it was stored (ms since the epoch)."""
    return parse_said_at(time) or datetime.fromtimestamp(stored_at_ms / 1000, UTC)


def resolve_relative_time(phrase: str | None, when_said: datetime | None) -> str | None:
    """The date a relative time phrase names, said at ``when_said``; the phrase itself when it is not relative.

    Args:
        phrase: The time phrase of a fact ("yesterday", "last week", 去年, "in 2019").
        when_said: When the text that holds it was said (``said_at``); None leaves the phrase as it is.

    Returns:
        The phrase written out at its precision ("7 May 2023", "the week before 8 May
        2023", "June 2023", "2022"; in Chinese 2023年5月7日 …), or the phrase unchanged.
    """
    if not phrase or when_said is None or len(phrase) > _MAX_PHRASE:
        return phrase
    if any(ch.isdigit() for ch in phrase) and not _AGO.search(phrase):
        return phrase  # a written date ("in 2019", 生日是5月8号) names its time itself, every year or once
    base = when_said.replace(tzinfo=None)
    if " ".join(phrase.casefold().split()) in _LAST_WEEKEND:
        return f"{_day(base, True)}的前一个周末" if not phrase.isascii() else f"the weekend before {_day(base, False)}"
    found = _parse_with_period(phrase, base)
    if found is None:
        return phrase
    moment, period = found
    ahead = _parse_with_period(phrase, base, prefer="future")
    if ahead is None or ahead[0] != moment:
        return phrase  # "Friday", "in March": before or after the day it was said, the words do not say
    other = _parse_with_period(phrase, base - _PROBE_SHIFT)
    if other is not None and other[0] == moment:
        return phrase  # the same date whenever said: not relative
    chinese = not phrase.isascii()
    if period == "week":
        return _week(phrase, moment, base, chinese)
    if period == "month":
        return f"{moment.year}年{moment.month}月" if chinese else f"{_MONTHS[moment.month - 1]} {moment.year}"
    if period == "year":
        return f"{moment.year}年" if chinese else str(moment.year)
    return _day(moment, chinese)


def _day(moment: datetime, chinese: bool) -> str:
    if chinese:
        return f"{moment.year}年{moment.month}月{moment.day}日"
    return f"{moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


def _week(phrase: str, moment: datetime, base: datetime, chinese: bool) -> str:
    if " ".join(phrase.casefold().split()) in _LAST_WEEK:
        # "last week" is best said as the speaker meant it: the week before the day it was said.
        return f"{_day(base, True)}的前一周" if chinese else f"the week before {_day(base, False)}"
    monday = moment - timedelta(days=moment.weekday())
    return f"{_day(monday, True)}那一周" if chinese else f"the week of {_day(monday, False)}"


def _parse(text: str, base: datetime) -> datetime | None:
    found = _parse_with_period(text, base)
    return found[0] if found else None


@functools.lru_cache(maxsize=64)
def _parser(base: datetime, prefer: str) -> Any:
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": prefer, "RETURN_TIME_AS_PERIOD": True}
    return _dateparser().date.DateDataParser(languages=_LANGUAGES, settings=settings)


def _parse_with_period(text: str, base: datetime, prefer: str = "past") -> tuple[datetime, str] | None:
    try:
        data = _parser(base, prefer).get_date_data(text)
    except Exception as error:  # noqa: BLE001 - a phrase no parser reads keeps its words
        logger.debug("time phrase not parsed: %s", type(error).__name__)
        return None
    if data is None or data.date_obj is None:
        return None
    moment = data.date_obj.replace(tzinfo=None)
    return moment, str(data.period or "day")
