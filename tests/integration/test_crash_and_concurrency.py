"""Killing the process mid-ingest leaves no half episode; two processes share one store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from elephant_broker.store import open_store
from elephant_broker.store.embedded import EmbeddedFalkorDB

pytestmark = pytest.mark.slow

ELEPHANT = Path(sys.executable).with_name("elephant")


def write_turns(path: Path, prefix: str, count: int) -> None:
    lines = [json.dumps({"speaker": "tester", "text": f"{prefix}{i} lives in Town{i}."}) for i in range(count)]
    path.write_text("\n".join(lines) + "\n")


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ELEPHANT_", "NEO4J_"))}
    env["ELEPHANT_HOME"] = str(home)
    return env


def episode_integrity(home: Path) -> tuple[int, list[str]]:
    """Return the episode count and the ids of episodes that are not complete."""
    store = open_store(None, home)
    try:
        rows = store._read(
            "MATCH (ep:Episode) OPTIONAL MATCH (ep)-[m:MENTIONS]->(:Entity) "
            "WITH ep, count(m) AS mentions "
            "OPTIONAL MATCH (:Entity)-[f:FACT]->(:Entity) WHERE ep.id IN f.episode_ids "
            "RETURN ep.id AS id, mentions, count(f) AS facts"
        )
        orphans = store._read(
            "MATCH (:Entity)-[f:FACT]->(:Entity) UNWIND f.episode_ids AS eid "
            "OPTIONAL MATCH (ep:Episode {id: eid}) WITH f, ep WHERE ep IS NULL RETURN f.id AS id"
        )
    finally:
        store.close()
    broken = [row["id"] for row in rows if (row["mentions"], row["facts"]) != (2, 1)]
    return len(rows), broken + [row["id"] for row in orphans]


def test_kill_mid_ingest_leaves_whole_episodes_and_rerun_completes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    turns = tmp_path / "turns.jsonl"
    write_turns(turns, "Worker", 150)
    env = environment(home)
    try:
        process = subprocess.Popen(
            [str(ELEPHANT), "--quiet", "ingest", str(turns), "--json"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        server = EmbeddedFalkorDB(home / "falkordb")
        deadline = time.monotonic() + 120
        stored = 0
        while time.monotonic() < deadline and process.poll() is None:
            if server.ping():
                stored, _ = episode_integrity(home)
                if stored >= 10:
                    break
            time.sleep(0.2)
        assert process.poll() is None, "ingest finished before it could be killed; use more turns"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)

        stored, broken = episode_integrity(home)
        assert 10 <= stored < 150
        assert broken == []

        rerun = subprocess.run(
            [str(ELEPHANT), "--quiet", "ingest", str(turns), "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        report = json.loads(rerun.stdout)
        assert report["episodes"] == 150 - stored
        total, broken = episode_integrity(home)
        assert (total, broken) == (150, [])
    finally:
        EmbeddedFalkorDB(home / "falkordb").stop()


def test_two_processes_ingest_into_one_store_at_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = environment(home)
    files = []
    for name in ("alpha", "beta"):
        path = tmp_path / f"{name}.jsonl"
        write_turns(path, name.capitalize(), 15)
        files.append(path)
    try:
        processes = [
            subprocess.Popen(
                [str(ELEPHANT), "--quiet", "ingest", str(path), "--json"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for path in files
        ]
        outputs = [process.communicate(timeout=300) for process in processes]
        assert [process.returncode for process in processes] == [0, 0], outputs
        assert [json.loads(out)["episodes"] for out, _ in outputs] == [15, 15]
        total, broken = episode_integrity(home)
        assert (total, broken) == (30, [])
        # one server served both
        assert len(list((home / "falkordb").glob("falkordb.pid"))) == 1
    finally:
        EmbeddedFalkorDB(home / "falkordb").stop()
