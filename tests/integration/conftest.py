"""Fixtures of the integration tests: the console script in an isolated data directory."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from elephant_broker.store.embedded import EmbeddedFalkorDB

ELEPHANT = Path(sys.executable).with_name("elephant")

RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[RunCli]:
    """Run ``elephant`` with its own ``ELEPHANT_HOME``; the embedded server is stopped afterwards."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_"))}
    env["ELEPHANT_HOME"] = str(tmp_path / "home")

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [str(ELEPHANT), *args], capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path
        )
        if check:
            assert result.returncode == 0, result.stderr
        return result

    yield run
    EmbeddedFalkorDB(tmp_path / "home" / "falkordb").stop()
