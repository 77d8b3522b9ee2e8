"""Settling a long-lived process's heap: start-up objects frozen, young collections less frequent."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import elephant_broker.providers.heap as heap
import pytest
from elephant_broker.providers.heap import YOUNG_GENERATION_THRESHOLD, settle_heap


@pytest.fixture
def restored_gc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(heap, "_settled", False)
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored_gc")
def test_what_is_alive_is_frozen_and_the_young_generation_waits_longer() -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    kept = [[index] for index in range(1000)]
    settle_heap()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (YOUNG_GENERATION_THRESHOLD, 10, 10)


@pytest.mark.usefixtures("restored_gc")
def test_a_threshold_the_process_chose_is_kept() -> None:
    gc.set_threshold(0, 10, 10)  # collection off
    settle_heap()
    assert gc.get_threshold() == (0, 10, 10)


@pytest.mark.usefixtures("restored_gc")
def test_a_higher_threshold_is_kept_and_the_heap_is_settled_once() -> None:
    gc.unfreeze()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD * 5, 10, 10)
    settle_heap()
    assert gc.get_threshold() == (YOUNG_GENERATION_THRESHOLD * 5, 10, 10)
    frozen = gc.get_freeze_count()
    later = [[index] for index in range(1000)]
    settle_heap()
    assert gc.get_freeze_count() == frozen and later
