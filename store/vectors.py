"""The embedded store's vectors: one SQLite file per graph beside the server's data, searched in process.

FalkorDB reads every vector out of the query text and inserts it into its HNSW index
inside the write: for a batch of chat turns that was four fifths of the store's write
time, and vectors in a remote server's query text cost as much to parse again on every
search. The embedded server's data directory is local by construction, so the embedded
store keeps episode, entity and fact vectors here instead (float32 blobs keyed by kind,
scope and id) and the graph keeps none. A server reached by URL (FalkorDB or Neo4j)
keeps vectors in the graph, where every client can see them.

Consistency with the graph:

- Vectors are written, in one SQLite transaction, *before* the graph write that needs
  them. A graph write that fails or is killed leaves vectors nothing refers to; every
  search re-reads its hits from the graph by id within the scope, so those never
  surface, and writing the same episode again finds its vectors already there.
- A vector is never replaced (``INSERT OR IGNORE``): the graph too keeps an episode's,
  entity's and fact's first vector (``ON CREATE``).
- Each process searches an in-memory matrix per (kind, scope), read on first use and
  caught up before every search with the rows other processes added since (an indexed
  ``seq > watermark`` read that usually returns nothing). A deletion bumps a counter
  that makes every process re-read the scopes it holds.
- Vectors read by id (to score a hub's facts) are remembered, most recently used first:
  a kept vector never changes, so only that counter makes them stale.

Search is exact (one matrix product): at 100,000 episodes of 384 floats it takes a few
milliseconds, and it answers within one scope, where the graph's shared index fetched
neighbours across every agent's memory and filtered afterwards. The products run on one
BLAS thread: OpenBLAS's idle threads spin for about a tenth of a second after each call,
which cost ~100 ms of CPU a question (taken from the store server and everything else on
the machine) to save ~1 ms.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from elephant_broker.store.errors import StoreError
from elephant_broker.store.sqlite_files import SidecarFile
from threadpoolctl import ThreadpoolController

VectorKind = Literal["Episode", "Entity", "Fact"]
_IDS_PER_LOOKUP = 500  # below SQLite's bound on a statement's parameters
_blas_lock = threading.Lock()
_blas: ThreadpoolController | None = None


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """Run a product on one BLAS thread (the loaded libraries are looked up once per process).

    The limit is process-wide: products are serialised under a lock so that two threads'
    limits never interleave and leave it set, or lifted, behind another's back.
    """
    global _blas
    with _blas_lock:
        if _blas is None:
            _blas = ThreadpoolController()
        with _blas.limit(limits=1, user_api="blas"):
            yield


LOOKUP_CACHE_VECTORS = 20_000
"""Vectors read by id kept in memory, most recently used (about 30 MB of 384-float rows)."""

_SCHEMA = (
    # AUTOINCREMENT: a rowid is never reused, so "rows after my watermark" misses none.
    "CREATE TABLE IF NOT EXISTS vectors (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
    "scope TEXT NOT NULL, id TEXT NOT NULL, vector BLOB NOT NULL, UNIQUE (kind, scope, id))",
    "CREATE INDEX IF NOT EXISTS vectors_by_scope ON vectors (kind, scope, seq)",
)

VectorRow = tuple[VectorKind, str, str, Sequence[float]]
"""(kind, scope, id, vector): one vector to keep."""


@dataclass
class _Matrix:
    """One (kind, scope)'s vectors as this process last read them: unit rows, ids alike ordered."""

    ids: list[str] = field(default_factory=list)
    rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))  # the first len(ids) are used
    watermark: int = 0

    def extend(self, ids: list[str], vectors: np.ndarray) -> None:
        if not ids:
            return
        size = len(self.ids)
        if size == 0:
            self.rows = np.zeros((max(len(ids), 64), vectors.shape[1]), dtype=np.float32)
        needed = size + len(ids)
        if needed > len(self.rows):
            grown = np.zeros((max(needed, 2 * len(self.rows)), self.rows.shape[1]), dtype=np.float32)
            grown[:size] = self.rows[:size]
            self.rows = grown
        self.rows[size:needed] = vectors
        self.ids.extend(ids)


class VectorFile(SidecarFile):
    """Vectors of one graph, kept in a SQLite file, searched exactly in process."""

    noun = "vector file"
    schema = _SCHEMA

    def __init__(self, path: Path | str) -> None:
        """Open (creating if needed) the vector file at ``path``.

        Raises:
            StoreError: If the file cannot be created or read.
        """
        self._matrices: dict[tuple[str, str], _Matrix] = {}
        # Vectors read by id (a hub's facts, scored for every question that reaches them).
        # A kept vector never changes, so only a deletion makes an entry stale.
        self._recent: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
        super().__init__(path)

    # -- writes ----------------------------------------------------------------------

    def put(self, rows: Iterable[VectorRow]) -> int:
        """Keep vectors in one transaction (a vector already kept for the same id stays); return how many were usable.

        Empty, zero and non-finite vectors are not kept: nothing can be compared with them.

        Raises:
            StoreError: If a vector's length differs from the vectors already kept (another
                embedding model), or the file cannot be written.
        """
        given = [(kind, scope, identifier, vector) for kind, scope, identifier, vector in rows if len(vector)]
        if not given:
            return 0
        dimensions = {len(vector) for *_, vector in given}
        if len(dimensions) > 1:
            raise StoreError(f"vectors of {sorted(dimensions)} dimensions in one write")
        (dimension,) = dimensions
        matrix = np.asarray([vector for *_, vector in given], dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1)
        usable = np.isfinite(norms) & (norms > 0)  # others have nothing to compare with: kept without a vector
        matrix = matrix[usable] / norms[usable, None]
        kept = [given[index] for index in np.flatnonzero(usable)]
        records = [
            (kind, scope, identifier, row.tobytes())
            for (kind, scope, identifier, _), row in zip(kept, matrix, strict=True)
        ]
        if not records:
            return 0
        self._check_dimension(dimension)
        self._write("INSERT OR IGNORE INTO vectors (kind, scope, id, vector) VALUES (?, ?, ?, ?)", records)
        return len(records)

    def _check_dimension(self, dimension: int) -> None:
        row = self._execute("SELECT length(vector) FROM vectors LIMIT 1").fetchone()
        if row and row[0] != dimension * 4:
            raise StoreError(
                f"this memory's vectors have {row[0] // 4} dimensions and the embedding model gives {dimension}: "
                "use the model the memory was built with, or a new data directory"
            )

    def delete_scope(self, scope: str) -> None:
        """Forget every vector of one scope."""
        self._delete("DELETE FROM vectors WHERE scope = ?", (scope,))

    def clear(self) -> None:
        """Forget every vector of the graph."""
        self._delete("DELETE FROM vectors", ())

    def _forget(self) -> None:
        self._matrices.clear()
        self._recent.clear()

    # -- reads -----------------------------------------------------------------------

    def vectors(self, kind: VectorKind, scope: str, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Return the kept unit vectors of these ids (ids without one are left out)."""
        found, matrix = self._lookup(kind, scope, ids)
        return dict(zip(found, matrix, strict=True))

    def similarities(
        self, kind: VectorKind, scope: str, ids: Iterable[str], vector: Sequence[float]
    ) -> dict[str, float]:
        """Cosine similarity of each id's vector to ``vector`` (ids without one are left out)."""
        query = _unit(vector)
        found, matrix = self._lookup(kind, scope, ids)
        if not found or matrix.shape[1] != len(query):
            return {}
        with _one_blas_thread():
            scores = matrix @ query
        return dict(zip(found, scores.tolist(), strict=True))

    def _lookup(self, kind: VectorKind, scope: str, ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        # One buffer for all rows: a hub's hundreds of facts without an array object each.
        wanted = sorted(set(ids))
        self._check_deletions()
        kept: dict[str, bytes] = {}
        with self._lock:
            for identifier in wanted:
                blob = self._recent.get((kind, scope, identifier))
                if blob is not None:
                    kept[identifier] = blob
                    self._recent.move_to_end((kind, scope, identifier))
        missing = [identifier for identifier in wanted if identifier not in kept]
        read: dict[str, bytes] = {}
        for start in range(0, len(missing), _IDS_PER_LOOKUP):
            chunk = missing[start : start + _IDS_PER_LOOKUP]
            marks = ",".join("?" * len(chunk))
            read.update(
                self._execute(
                    f"SELECT id, vector FROM vectors WHERE kind = ? AND scope = ? AND id IN ({marks})",
                    (kind, scope, *chunk),
                )
            )
        if read:
            with self._lock:
                for identifier, blob in read.items():
                    self._recent[(kind, scope, identifier)] = blob
                while len(self._recent) > LOOKUP_CACHE_VECTORS:
                    self._recent.popitem(last=False)
        kept.update(read)
        found = [identifier for identifier in wanted if identifier in kept]
        if not found:
            return [], np.zeros((0, 0), dtype=np.float32)
        return found, np.frombuffer(b"".join(kept[identifier] for identifier in found), dtype=np.float32).reshape(
            len(found), -1
        )

    def nearest(self, kind: VectorKind, scope: str, vector: Sequence[float], k: int) -> list[tuple[str, float]]:
        """Return the ``k`` ids of the scope nearest ``vector``, as (id, cosine similarity), nearest first."""
        return self.nearest_many(kind, scope, {"": vector}, k).get("", [])

    def nearest_many(
        self, kind: VectorKind, scope: str, vectors: Mapping[str, Sequence[float]], k: int
    ) -> dict[str, list[tuple[str, float]]]:
        """Return, for each query key, the ``k`` nearest ids of the scope (one matrix product for all)."""
        if not vectors or k <= 0:
            return {}
        matrix = self._caught_up(kind, scope)
        with self._lock:
            # No copy: another thread only appends, so the first ``size`` ids and rows stay as read.
            ids, size = matrix.ids, len(matrix.ids)
            rows = matrix.rows[:size]
        keys = list(vectors)
        queries = np.stack([_unit(vectors[key]) for key in keys])
        if not size or rows.shape[1] != queries.shape[1]:
            return {key: [] for key in keys}
        with _one_blas_thread():
            # Rows times queries, not queries times rows: OpenBLAS runs the tall-by-few
            # product about twice as fast for a handful of queries (the same for one).
            scores = np.ascontiguousarray((rows @ queries.T).T)
        take = min(k, size)
        found: dict[str, list[tuple[str, float]]] = {}
        for number, key in enumerate(keys):
            row = scores[number]
            best = np.argpartition(-row, take - 1)[:take] if take < size else np.arange(size)
            best = best[np.argsort(-row[best], kind="stable")]
            found[key] = [(ids[index], float(row[index])) for index in best]
        return found

    def _caught_up(self, kind: VectorKind, scope: str) -> _Matrix:
        """The (kind, scope) matrix with every row kept so far, by this process or another."""
        self._check_deletions()
        with self._lock:
            matrix = self._matrices.setdefault((kind, scope), _Matrix())
            watermark = matrix.watermark
        rows = self._execute(
            "SELECT seq, id, vector FROM vectors WHERE kind = ? AND scope = ? AND seq > ? ORDER BY seq",
            (kind, scope, watermark),
        ).fetchall()
        if rows:
            vectors = np.frombuffer(b"".join(row[2] for row in rows), dtype=np.float32)
            with self._lock:
                if matrix.watermark == watermark:  # another thread may have caught up meanwhile
                    matrix.extend([row[1] for row in rows], vectors.reshape(len(rows), -1))
                    matrix.watermark = rows[-1][0]
        return matrix

    def ids(self, kind: VectorKind, scope: str) -> set[str]:
        """The ids of one scope with a kept vector of this kind."""
        return {row[0] for row in self._execute("SELECT id FROM vectors WHERE kind = ? AND scope = ?", (kind, scope))}

    def count(self, kind: VectorKind | None = None) -> int:
        """How many vectors are kept (of one kind, or all)."""
        if kind is None:
            return int(self._execute("SELECT count(*) FROM vectors").fetchone()[0])
        return int(self._execute("SELECT count(*) FROM vectors WHERE kind = ?", (kind,)).fetchone()[0])


def _unit(vector: Sequence[float]) -> np.ndarray:
    values = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(values))
    return values / norm if norm else values
