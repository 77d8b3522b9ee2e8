"""Keep a long-lived broker process's start-up heap out of the garbage collector's way.

A question parses tens of thousands of short-lived objects out of store replies. With
CPython's default thresholds they set off collections in the middle of a question, and a
full collection walks every object the process holds: after the imports, the compiled
graphs and the embedding model, about 150,000, 30 to 100 ms each time (measured at 100k
facts, where these pauses were most of ``ask``'s p95). What is alive once the heavy
resources are loaded lives as long as the process, so it is frozen (``gc.freeze``: never
scanned again, never freed by the collector), and the youngest generation is collected
less often. Reference counting still frees everything that forms no cycle at once.
"""

from __future__ import annotations

import gc
import threading

YOUNG_GENERATION_THRESHOLD = 20_000
"""Allocations between collections of the youngest generation (CPython's default: 700)."""

_lock = threading.Lock()
_settled = False


def settle_heap() -> None:
    """Freeze everything allocated so far and collect the youngest generation less often; once per process.

    Called when the first store is opened (the embedding model and the graphs are loaded
    by then). Once only: what a process frozen later would hold could be garbage of its
    own making, never freed. A threshold the process set higher (or 0: collection off) is kept.
    """
    global _settled
    with _lock:
        if _settled:
            return
        _settled = True
        gc.freeze()
        young, middle, old = gc.get_threshold()
        if 0 < young < YOUNG_GENERATION_THRESHOLD:
            gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, old)
