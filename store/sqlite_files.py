"""SQLite files shared by several processes: write-ahead logging switched on safely, and the store's sidecar files."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from elephant_broker.store.errors import StoreError


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


class SidecarFile:
    """A SQLite file beside the embedded server's data, shared by every process that opens the store.

    One connection per thread and process (sqlite3 objects cross neither), write-ahead
    logging, commits synced to disk (the graph write that follows may survive a power cut,
    and what it refers to must too), and deleted rows overwritten, not just unlinked
    (``secure_delete``: a forgotten memory's bytes do not stay in the file). A ``meta``
    table counts deletions, so each process can tell that rows it holds in memory may be
    gone (:meth:`_check_deletions`). Subclasses give the file's name for messages, its
    schema, and what to forget (:meth:`_forget`, run under ``self._lock``).
    """

    #: What the file is, in error messages ("vector file").
    noun = "file"
    #: Statements run on every new connection (``CREATE ... IF NOT EXISTS``).
    schema: tuple[str, ...] = ()
    busy_timeout_s = 60

    def __init__(self, path: Path | str) -> None:
        """Open (creating if needed) the file at ``path``.

        Raises:
            StoreError: If the file cannot be created or read.
        """
        self.path = Path(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._seen_deletions = -1
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Owner-only, like the server's own files: the rows can be read back into text.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
            self._connection()
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the {self.noun} {self.path}: {error}") from error

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None and self._local.pid == os.getpid():
            return connection
        connection = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        use_write_ahead_log(connection, self.busy_timeout_s)
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA secure_delete=ON")
        for statement in (*self.schema, *_META):
            connection.execute(statement)
        self._local.connection, self._local.pid = connection, os.getpid()
        return connection

    def _execute(self, statement: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        try:
            return self._connection().execute(statement, params)
        except sqlite3.Error as error:
            raise StoreError(f"cannot read the {self.noun} {self.path}: {error}") from error

    def _write(self, statement: str, rows: Sequence[Sequence[object]]) -> int:
        """Run ``statement`` for each row in one transaction; return how many rows it changed."""
        try:
            connection = self._connection()
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                before = connection.total_changes
                connection.executemany(statement, rows)
                return connection.total_changes - before
        except sqlite3.Error as error:
            raise StoreError(f"cannot write the {self.noun} {self.path}: {error}") from error

    def _delete(self, statement: str, params: Sequence[object]) -> None:
        """Delete rows and count the deletion, in one transaction; then forget what this process holds."""
        try:
            connection = self._connection()
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                connection.execute(statement, params)
                connection.execute("UPDATE meta SET value = value + 1 WHERE name = 'deletions'")
        except sqlite3.Error as error:
            raise StoreError(f"cannot write the {self.noun} {self.path}: {error}") from error
        with self._lock:
            self._forget()

    def _check_deletions(self) -> None:
        """Forget what this process holds if any process deleted rows since it last looked (they may be gone)."""
        deletions = int(self._execute("SELECT value FROM meta WHERE name = 'deletions'").fetchone()[0])
        with self._lock:
            if deletions != self._seen_deletions:
                self._forget()
                self._seen_deletions = deletions

    def _forget(self) -> None:
        """Drop what this process holds in memory from the file (called under ``self._lock``; nothing by default)."""

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None and self._local.pid == os.getpid():
            connection.close()
        self._local.connection = None


_META = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "INSERT OR IGNORE INTO meta (name, value) VALUES ('deletions', 0)",
)
