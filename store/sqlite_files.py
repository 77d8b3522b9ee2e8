"""SQLite files shared by several processes: switching them to write-ahead logging safely."""

from __future__ import annotations

import sqlite3
import time


def use_write_ahead_log(connection: sqlite3.Connection, timeout_s: float) -> None:
    """Put the connection's file in WAL mode, retrying for ``timeout_s`` while other processes hold it.

    Switching a new file to WAL takes an exclusive lock. When two processes open a new file
    together, each reads it and both ask to switch; SQLite answers one of them "database is
    locked" at once (waiting could deadlock), without calling its busy handler, and each
    attempt here also waits the connection's own busy timeout. Two ingests started on a
    fresh data directory met exactly that. A file already in WAL mode returns at once.

    Raises:
        sqlite3.OperationalError: If the file stays locked for ``timeout_s``, or on any other failure.
    """
    deadline = time.monotonic() + timeout_s
    pause = 0.005
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as error:
            message = str(error)
            if ("locked" not in message and "busy" not in message) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
