"""Switching a shared SQLite file to WAL waits for the process that holds it, within a bound."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from elephant_broker.store.errors import StoreError
from elephant_broker.store.sqlite_files import use_write_ahead_log
from elephant_broker.store.vectors import VectorFile


def _hold_exclusive(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE IF NOT EXISTS t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def test_the_switch_retries_where_the_busy_handler_would_not_wait(tmp_path: Path) -> None:
    # A connection without a busy timeout stands for the case SQLite does not wait on
    # (two processes each holding the new file and both asking to switch it).
    path = tmp_path / "shared.sqlite3"
    holder = _hold_exclusive(path)
    waiting = sqlite3.connect(path, timeout=0, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        waiting.execute("PRAGMA journal_mode=WAL").fetchall()
    releaser = threading.Timer(0.3, holder.rollback)
    releaser.start()
    try:
        use_write_ahead_log(waiting, timeout_s=10)
        assert waiting.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        releaser.join()
        holder.close()


def test_the_switch_waits_until_the_other_connection_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    holder = _hold_exclusive(path)
    releaser = threading.Timer(0.3, holder.rollback)
    releaser.start()
    try:
        waiting = sqlite3.connect(path, isolation_level=None)
        use_write_ahead_log(waiting, timeout_s=10)
        assert waiting.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        releaser.join()
        holder.close()


def test_the_switch_gives_up_after_its_timeout(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    holder = _hold_exclusive(path)
    try:
        waiting = sqlite3.connect(path, timeout=0, isolation_level=None)
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            use_write_ahead_log(waiting, timeout_s=0.3)
        assert 0.25 <= time.monotonic() - started < 3
    finally:
        holder.rollback()
        holder.close()


def test_a_vector_file_opens_while_another_process_is_creating_it(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite3"
    path.touch()
    holder = _hold_exclusive(path)
    releaser = threading.Timer(0.3, holder.rollback)
    releaser.start()
    try:
        vectors = VectorFile(path)
        assert vectors.put([("Fact", "agent", "f1", [1.0, 0.0, 0.0])]) == 1
    finally:
        releaser.join()
        holder.close()


def _open_and_write(path: str, start: float) -> str:
    while time.time() < start:
        time.sleep(0.001)
    try:
        VectorFile(path).put([("Fact", "agent", f"f{os.getpid()}", [1.0, 0.5, 0.25])])
    except StoreError as error:
        return str(error)
    return "ok"


def test_processes_starting_together_on_a_new_file_all_open_it(tmp_path: Path) -> None:
    # Before the switch waited, about half of such starts failed with "database is locked".
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        for trial in range(5):
            path = str(tmp_path / f"vectors-{trial}.sqlite3")
            start = time.time() + 0.2
            assert pool.starmap(_open_and_write, [(path, start)] * 4) == ["ok"] * 4
