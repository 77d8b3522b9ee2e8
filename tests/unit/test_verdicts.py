"""The verdict patterns' own examples (language/data/verdicts.toml) run as tests."""

from __future__ import annotations

from typing import Any

import pytest
from elephant_broker.language.lexicon import data_file
from elephant_broker.language.verdicts import find_verdict

EXAMPLES = [
    pytest.param(example, id=f"{language}:{example['text']}")
    for language in ("en", "zh")
    for example in data_file("verdicts.toml")[language]["examples"]
]


@pytest.mark.parametrize("example", EXAMPLES)
def test_verdict_examples(example: dict[str, Any]) -> None:
    found = find_verdict(example["text"])
    if example.get("none"):
        assert found is None
        return
    assert found is not None and found.verdict == example["verdict"]
    assert found.rest == example.get("rest", "")
