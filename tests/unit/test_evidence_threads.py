"""The answer graph's episode-ranking threads: one pool per process, so a forked child is not stuck."""

from __future__ import annotations

import os

from elephant_broker.domain import evidence


def test_a_child_forked_after_the_threads_started_gets_threads_of_its_own() -> None:
    assert evidence._episode_searches().submit(lambda: 1).result(timeout=10) == 1
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            code = 0 if evidence._episode_searches().submit(lambda: 2).result(timeout=10) == 2 else 1
        except BaseException:
            code = 1
        os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
