"""The embedded store's vector file: scoped exact search, first vector kept, other processes' rows seen."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import elephant_broker.store.vectors as vectors
import numpy as np
import pytest
from elephant_broker.store.errors import StoreError
from elephant_broker.store.vectors import VectorFile


def unit(*values: float) -> list[float]:
    vector = np.asarray(values, dtype=np.float32)
    return (vector / np.linalg.norm(vector)).tolist()


def test_nearest_answers_within_the_scope_only(tmp_path: Path) -> None:
    file = VectorFile(tmp_path / "v.sqlite3")
    file.put(
        [
            ("Episode", "alice", "a-near", unit(1, 0.1, 0)),
            ("Episode", "alice", "a-far", unit(0, 1, 0)),
            ("Episode", "bob", "b-exact", unit(1, 0, 0)),  # nearer, but another agent's
            ("Entity", "alice", "a-entity", unit(1, 0, 0)),  # nearer, but another kind
        ]
    )
    hits = file.nearest("Episode", "alice", unit(1, 0, 0), 5)
    assert [identifier for identifier, _ in hits] == ["a-near", "a-far"]
    assert hits[0][1] == pytest.approx(float(np.dot(unit(1, 0.1, 0), unit(1, 0, 0))), abs=1e-6)
    assert hits[1][1] == pytest.approx(0.0, abs=1e-6)
    assert file.nearest("Episode", "alice", unit(1, 0, 0), 1) == hits[:1]
    assert file.nearest("Episode", "nobody", unit(1, 0, 0), 3) == []
    assert file.path.stat().st_mode & 0o777 == 0o600  # owner-only, like the server's files


def test_a_kept_vector_is_never_replaced_and_empty_ones_are_not_kept(tmp_path: Path) -> None:
    file = VectorFile(tmp_path / "v.sqlite3")
    assert file.put([("Fact", "s", "f1", unit(1, 0)), ("Fact", "s", "f2", []), ("Fact", "s", "f3", [0.0, 0.0])]) == 1
    file.put([("Fact", "s", "f1", unit(0, 1))])  # as the graph keeps a fact's first vector (ON CREATE)
    assert file.similarities("Fact", "s", ["f1", "f2", "f3", "f9"], unit(1, 0)) == {"f1": pytest.approx(1.0)}
    assert file.ids("Fact", "s") == {"f1"}


def test_vectors_are_kept_as_unit_vectors(tmp_path: Path) -> None:
    file = VectorFile(tmp_path / "v.sqlite3")
    file.put([("Entity", "s", "e", [3.0, 4.0])])
    assert file.vectors("Entity", "s", ["e"])["e"].tolist() == pytest.approx([0.6, 0.8])
    assert file.nearest("Entity", "s", [6.0, 8.0], 1) == [("e", pytest.approx(1.0))]


def test_rows_another_process_adds_are_searched_without_reopening(tmp_path: Path) -> None:
    """Two handles on one file stand for two processes: each catches up before it searches."""
    mine, theirs = VectorFile(tmp_path / "v.sqlite3"), VectorFile(tmp_path / "v.sqlite3")
    mine.put([("Episode", "s", "first", unit(0, 1))])
    assert [hit[0] for hit in theirs.nearest("Episode", "s", unit(1, 0), 5)] == ["first"]
    mine.put([("Episode", "s", "second", unit(1, 0))])
    assert [hit[0] for hit in theirs.nearest("Episode", "s", unit(1, 0), 5)] == ["second", "first"]


def test_a_forgotten_scope_disappears_from_every_handle(tmp_path: Path) -> None:
    mine, theirs = VectorFile(tmp_path / "v.sqlite3"), VectorFile(tmp_path / "v.sqlite3")
    mine.put([("Episode", "s", "e1", unit(1, 0)), ("Episode", "t", "e2", unit(1, 0))])
    assert theirs.nearest("Episode", "s", unit(1, 0), 5)  # read into its matrix
    mine.delete_scope("s")
    assert theirs.nearest("Episode", "s", unit(1, 0), 5) == []
    assert [hit[0] for hit in theirs.nearest("Episode", "t", unit(1, 0), 5)] == ["e2"]
    mine.put([("Episode", "t", "e3", unit(1, 0))])
    mine.clear()
    assert mine.count() == 0 and theirs.nearest("Episode", "t", unit(1, 0), 5) == []


def test_vectors_read_by_id_are_remembered_until_any_handle_deletes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = VectorFile(tmp_path / "v.sqlite3"), VectorFile(tmp_path / "v.sqlite3")
    monkeypatch.setattr(vectors, "LOOKUP_CACHE_VECTORS", 2)
    mine.put([("Fact", "s", f"f{index}", unit(1, index)) for index in range(3)])
    expected = {f"f{index}": pytest.approx(float(np.dot(unit(1, index), unit(1, 0)))) for index in range(3)}
    assert theirs.similarities("Fact", "s", ["f0", "f1", "f2"], unit(1, 0)) == expected
    assert theirs.similarities("Fact", "s", ["f2", "f0", "f1"], unit(1, 0)) == expected  # some remembered, some read
    assert len(theirs._recent) == 2
    mine.delete_scope("s")
    assert theirs.similarities("Fact", "s", ["f0", "f1", "f2"], unit(1, 0)) == {}
    mine.put([("Fact", "s", "f1", unit(0, 1))])  # the same id again, after the deletion
    assert theirs.similarities("Fact", "s", ["f1"], unit(0, 1)) == {"f1": pytest.approx(1.0)}


def test_another_embedding_model_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    file = VectorFile(tmp_path / "v.sqlite3")
    file.put([("Episode", "s", "e1", unit(1, 0, 0))])
    with pytest.raises(StoreError, match="3 dimensions and the embedding model gives 2"):
        file.put([("Episode", "s", "e2", unit(1, 0))])
    with pytest.raises(StoreError, match="dimensions in one write"):
        file.put([("Episode", "s", "e3", unit(1, 0)), ("Episode", "s", "e4", unit(1, 0, 0))])
    assert file.ids("Episode", "s") == {"e1"}


def test_many_queries_are_answered_at_once(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    file = VectorFile(tmp_path / "v.sqlite3")
    file.put([("Entity", "s", f"e{number}", vector.tolist()) for number, vector in enumerate(vectors)])
    queries = {"a": vectors[7].tolist(), "b": vectors[123].tolist()}
    found = file.nearest_many("Entity", "s", queries, 3)
    unit_rows = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for key, query in queries.items():
        expected = np.argsort(-(unit_rows @ (np.asarray(query) / np.linalg.norm(query))))[:3]
        assert [identifier for identifier, _ in found[key]] == [f"e{index}" for index in expected]


def test_a_forked_process_opens_its_own_connection(tmp_path: Path) -> None:
    """The parent's connection and matrices are used before the fork; the child must not share the connection."""
    path = tmp_path / "v.sqlite3"
    parent = VectorFile(path)
    parent.put([("Episode", "s", "from-parent", unit(0, 1))])
    assert parent.nearest("Episode", "s", unit(0, 1), 1)[0][0] == "from-parent"
    process = multiprocessing.get_context("fork").Process(target=_reuse_in_child, args=(parent,))
    process.start()
    process.join(30)
    assert process.exitcode == 0
    assert [hit[0] for hit in parent.nearest("Episode", "s", unit(1, 0), 2)] == ["from-child", "from-parent"]


def _reuse_in_child(file: VectorFile) -> None:
    file.put([("Episode", "s", "from-child", unit(1, 0))])
    assert file.nearest("Episode", "s", unit(1, 0), 1)[0][0] == "from-child"


def test_products_run_on_one_blas_thread_and_leave_the_process_setting_alone(tmp_path: Path) -> None:
    """Idle OpenBLAS threads spin after each call: the file's products use one, and put the setting back."""
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController()
    before = [pool["num_threads"] for pool in controller.info() if pool["user_api"] == "blas"]
    with vectors._one_blas_thread():
        assert {pool["num_threads"] for pool in ThreadpoolController().info() if pool["user_api"] == "blas"} <= {1}
    file = VectorFile(tmp_path / "v.sqlite3")
    file.put([("Episode", "s", f"e{index}", unit(1, index, 2)) for index in range(50)])
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda _: file.nearest("Episode", "s", unit(1, 0, 0), 3), range(40)))
    assert all(hits == found[0] for hits in found) and len(found[0]) == 3
    after = [pool["num_threads"] for pool in ThreadpoolController().info() if pool["user_api"] == "blas"]
    assert after == before
