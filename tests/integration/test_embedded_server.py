"""The embedded FalkorDB server: start, reuse across processes, survive restarts, recover from kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from elephant_broker.store import StoreError, embedded, open_store
from elephant_broker.store.embedded import EmbeddedFalkorDB
from elephant_broker.store.falkordb_store import FalkorDBStore, wire_params

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path):
    instance = EmbeddedFalkorDB(tmp_path / "falkordb")
    yield instance
    instance.stop()


def _write_marker(home: Path, value: str) -> None:
    store = open_store(None, home)
    store._write_atomic([("CREATE (:Marker {value: $value})", {"value": value})])
    store.close()


def _markers(home: Path) -> list[str]:
    store = open_store(None, home)
    rows = store._read("MATCH (m:Marker) RETURN m.value AS value ORDER BY value")
    store.close()
    return [row["value"] for row in rows]


def test_listens_only_on_a_private_unix_socket(server: EmbeddedFalkorDB) -> None:
    socket = server.ensure_running()
    assert socket == server.data_dir / "falkordb.sock"
    assert socket.is_socket()
    assert oct(socket.stat().st_mode & 0o777) == "0o700"
    config = (server.data_dir / "falkordb.log").read_text()
    assert "Ready to accept connections unix" in config
    assert "Ready to accept connections tcp" not in config


def test_second_process_reuses_the_running_server(server: EmbeddedFalkorDB, tmp_path: Path) -> None:
    server.ensure_running()
    pid = server._recorded_pid()
    _write_marker(tmp_path, "from parent")
    code = (
        "import sys; from store import open_store; s = open_store(None, sys.argv[1]); "
        "s._write_atomic([(\"CREATE (:Marker {value: 'from child'})\", {})]); "
        "print(len(s._read('MATCH (m:Marker) RETURN m')))"
    )
    child = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60, check=True
    )
    assert child.stdout.strip() == "2"
    assert server._recorded_pid() == pid
    assert _markers(tmp_path) == ["from child", "from parent"]


def test_data_survives_a_clean_restart(server: EmbeddedFalkorDB, tmp_path: Path) -> None:
    _write_marker(tmp_path, "before restart")
    assert server.stop()
    assert not server.ping()
    assert _markers(tmp_path) == ["before restart"]


def test_recovers_from_a_killed_server_with_stale_files(server: EmbeddedFalkorDB, tmp_path: Path) -> None:
    _write_marker(tmp_path, "written")
    time.sleep(1.2)  # appendfsync everysec: give the write its second
    pid = server._recorded_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    # kill -9 leaves the pid file and the socket file behind
    assert server.pid_file.exists() and server.socket_path.exists()
    assert not server.ping()
    assert _markers(tmp_path) == ["written"]
    assert server._recorded_pid() != pid


def test_stop_ends_a_server_that_no_longer_answers(server: EmbeddedFalkorDB) -> None:
    server.ensure_running()
    pid = server._recorded_pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)  # hung: alive, holding its socket, answering nothing
    try:
        assert not server.ping()
        assert server.stop(timeout=1.0)
        assert not _alive(pid)
        assert not server.socket_path.exists() and not server.pid_file.exists()
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        return b"redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_deep_data_directory_uses_a_short_socket_path(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    server = EmbeddedFalkorDB(deep / "falkordb")
    try:
        socket = server.ensure_running()
        assert len(str(socket)) <= 100
        assert EmbeddedFalkorDB(deep / "falkordb").socket_path == socket
        assert server.ping()
    finally:
        server.stop()


def test_rejects_an_unknown_fsync_policy(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="appendfsync"):
        EmbeddedFalkorDB(tmp_path, appendfsync="sometimes")


def test_float_lists_travel_as_short_text_and_come_back_at_float32_precision(tmp_path: Path) -> None:
    """Vectors go into the query text with 7 significant digits, exponents included."""
    values = [1e-10, -3.25e-05, 0.12345678912345678, 1.0, -0.5, 123456.789, 2.5e17]
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    store = FalkorDBStore(unix_socket_path=str(server.ensure_running()), graph="vectors")
    try:
        store._write_atomic([("CREATE (:V {x: vecf32($v), l: $v, n: [1, 2], s: $s})", {"v": values, "s": ["a"]})])
        row = store._read("MATCH (n:V) RETURN n.x AS x, n.l AS l, n.n AS n, n.s AS s")[0]
        assert row["l"] == pytest.approx(values, rel=1e-6)
        assert row["x"] == pytest.approx(values, rel=1e-6)
        assert (row["n"], row["s"]) == ([1, 2], ["a"])
        assert row["l"][3] == 1.0 and isinstance(row["l"][3], float)
        vector = [float(x) for x in np.random.default_rng(3).normal(size=384).astype(np.float32)]
        assert len(str(wire_params({"v": vector})["v"])) < len(str(vector)) * 0.7
        with pytest.raises(StoreError, match="NUL"):
            store._read("RETURN $x AS x", {"x": {"inner": ["ok", "bad\x00"]}})
    finally:
        store.close()
        server.stop()


def test_a_server_still_loading_its_data_is_waited_for_past_the_start_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large memory takes longer to load than a start takes: LOADING is progress, silence is not."""
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    answers = iter(["loading"] * 12 + ["ready"])
    monkeypatch.setattr(server, "_state", lambda: next(answers))
    assert server._wait_until_ready(None, timeout=0.1) is True  # 12 polls take longer than 0.1 s
    # Then it rebuilds its indexes without answering at all: a process still using CPU is busy, not hung.
    answers = iter(["down"] * 12 + ["ready"])
    ticks = iter(range(100))
    monkeypatch.setattr(server, "_state", lambda: next(answers))
    monkeypatch.setattr(embedded, "_process_alive", lambda _pid: True)
    monkeypatch.setattr(embedded, "_cpu_ticks", lambda _pid: next(ticks))
    assert server._wait_until_ready(12345, timeout=0.1) is True
    # A stopped or deadlocked server uses no CPU: it fails after the timeout.
    monkeypatch.setattr(server, "_state", lambda: "down")
    monkeypatch.setattr(embedded, "_cpu_ticks", lambda _pid: 7)
    began = time.monotonic()
    assert server._wait_until_ready(12345, timeout=0.2) is False
    assert time.monotonic() - began < 5


def _wait_for_rewrites(client, done: int) -> dict:
    deadline = time.monotonic() + 30
    while True:
        info = client.info("persistence")
        idle = not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]
        if (idle and info["aof_rewrites"] >= done) or time.monotonic() > deadline:
            return info
        time.sleep(0.05)


def test_a_new_store_snapshots_its_indexes_before_any_data(tmp_path: Path) -> None:
    """Commands logged after an index with no snapshot since replay without it: 8,000 facts took 142 s to load.

    So the indexes a new store creates go into a snapshot at once; data written after them
    replays with working indexes, and a store whose indexes exist does not snapshot again.
    """
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    try:
        store = open_store(None, tmp_path)
        store.ensure_schema(8)
        client = embedded._client(server.socket_path, timeout=5)
        info = _wait_for_rewrites(client, 1)
        assert info["aof_rewrites"] == 1 and info["aof_last_bgrewrite_status"] == "ok"
        store._write_atomic([("UNWIND range(1, 300) AS i CREATE (:Entity {id: 'e' + toString(i), scope: 'a'})", {})])
        store._write_atomic(
            [
                (
                    "UNWIND range(1, 300) AS i MATCH (s:Entity {id: 'e' + toString(i)}) "
                    "MATCH (o:Entity {id: 'e' + toString(301 - i)}) CREATE (s)-[:FACT {id: 'f' + toString(i)}]->(o)",
                    {},
                )
            ]
        )
        store.ensure_schema(8)  # every index exists: nothing new to snapshot
        assert _wait_for_rewrites(client, 1)["aof_rewrites"] == 1
        store.close()
        client.close()
        base = [path.name for path in (server.data_dir / "appendonlydir").glob("*.base.rdb")]
        assert base == ["appendonly.aof.2.base.rdb"]  # the snapshot taken after the indexes
        assert server.stop()
        store = open_store(None, tmp_path)
        assert store._read("MATCH ()-[f:FACT]->() RETURN count(f) AS n") == [{"n": 300}]
        indexed = store._read("CALL db.indexes() YIELD label, properties RETURN label, properties")
        assert {"label": "Entity", "properties": ["key", "id", "search_text"]} in indexed
        store.close()
    finally:
        server.stop()


def test_a_start_that_replayed_a_long_log_compacts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    try:
        server.ensure_running()
        client = embedded._client(server.socket_path, timeout=5)
        client.execute_command("GRAPH.QUERY", "elephant", "UNWIND range(1, 200) AS i CREATE (:Marker {value: i})")
        client.close()
        assert server.stop()
        logged = server._replayed_bytes()
        assert logged > 0
        monkeypatch.setattr(embedded, "REPLAY_COMPACT_BYTES", logged - 1)
        server.ensure_running()
        client = embedded._client(server.socket_path, timeout=5)
        assert _wait_for_rewrites(client, 1)["aof_rewrites"] == 1
        client.close()
        assert server._replayed_bytes() < logged
        assert server.stop()
        # a start with little to replay leaves the log as it is
        server.ensure_running()
        client = embedded._client(server.socket_path, timeout=5)
        assert client.info("persistence")["aof_rewrites"] == 0
        assert client.execute_command("GRAPH.QUERY", "elephant", "MATCH (m:Marker) RETURN count(m)")[1] == [[200]]
        client.close()
    finally:
        server.stop()


def test_a_running_servers_log_larger_than_its_snapshot_is_compacted_when_a_process_reaches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older release's directory, its server still running: compacted before any restart replays it."""
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    try:
        server.ensure_running()
        client = embedded._client(server.socket_path, timeout=5)
        client.execute_command("GRAPH.QUERY", "elephant", "UNWIND range(1, 200) AS i CREATE (:Marker {value: i})")
        logged = server._replayed_bytes()
        assert logged > server._log_bytes("*.base.*")
        monkeypatch.setattr(embedded, "REPLAY_COMPACT_BYTES", 0)
        EmbeddedFalkorDB(tmp_path / "falkordb").ensure_running()  # another process reaching the server
        assert _wait_for_rewrites(client, 1)["aof_rewrites"] == 1
        assert server._replayed_bytes() < logged
        # now the snapshot holds everything: reaching the server again compacts nothing
        EmbeddedFalkorDB(tmp_path / "falkordb").ensure_running()
        time.sleep(0.2)
        assert _wait_for_rewrites(client, 1)["aof_rewrites"] == 1
        client.close()
    finally:
        server.stop()
