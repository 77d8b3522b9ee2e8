"""Each prompt's placeholders match the keys its node passes to ``str.format``."""

from __future__ import annotations

import string

import pytest
from elephant_broker.prompts import answerer, cypher, reader


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize(
    ("template", "keys"),
    [
        (reader.READER_USER, {"speaker", "text"}),
        (reader.READER_SYSTEM_EN, set()),
        (reader.READER_SYSTEM_ZH, set()),
        (answerer.ANSWER_SYSTEM, set()),
        (answerer.ANSWER_USER, {"question", "speaker", "steps", "facts", "episodes", "query_result"}),
        (answerer.DECOMPOSE_SYSTEM, {"max_hops"}),
        (answerer.DECOMPOSE_USER, {"question", "speaker"}),
        (answerer.REASON_SYSTEM, set()),
        (answerer.REASON_USER, {"question", "facts"}),
        (cypher.CYPHER_SYSTEM, set()),
        (cypher.CYPHER_USER, {"schema", "parameters", "speaker", "question"}),
        (cypher.CYPHER_REPAIR, {"query", "error"}),
    ],
)
def test_placeholders_match_the_node(template: str, keys: set[str]) -> None:
    assert placeholders(template) == keys
    # and formatting with exactly those keys works (no stray braces)
    template.format(**dict.fromkeys(keys, "x"))
