"""The embedded store's episode index: each episode's search terms and mentioned entities, beside the graph.

Two of a question's reads scanned a hub's whole adjacency in the graph to keep a few:

- **keywords**: FalkorDB's full-text procedure yields every match of a term before a
  query can count or cut them; at 100,000 facts a frequent word ("works", 总部) matches
  thousands of episodes, read twice and scored in Cypher — 40–80 ms a search, and a
  two-hop question runs two or three;
- **mentions**: the spread reads an entity's most recent mentions, and the graph keeps no
  order along a relationship, so a hub's thousands of ``MENTIONS`` were sorted by time to
  keep 200 — 25–65 ms a question.

Here each process keeps a scope's episodes in write order with two inverted lists —
term → row numbers, entity → row numbers — so a keyword search is BM25 over integer
arrays (a few milliseconds at 50,000 episodes) and an entity's latest mentions are the
tail of its list. The rows live in a SQLite file beside the server's data (the embedded
server's data directory is local by construction); a server reached by URL keeps both in
the graph, where every client sees them.

- The terms are ``episode_search_text`` (speaker and text, pre-segmented: words plus CJK
  bigrams, each once). Latin words are stemmed with the Snowball English stemmer
  (PyStemmer), as the graph's full-text index stems them; an episode holds each stem once.
- Okapi BM25 over the scope's episodes, k1 = 1.2, b = 0.75, idf = log(1 + (N − n + 0.5)
  / (n + 0.5)) — the graph's formula, so both paths rank alike; an episode's length is
  its number of terms (``search_length``).
- An episode's mentions are the entities its write linked it to; entity ids are
  ``entity_id(scope, key)``, as in the graph.

Consistency with the graph is the vector file's (``store/vectors.py``): an episode's row
is kept in one SQLite transaction *before* the graph write that stores it, once
(``INSERT OR IGNORE`` on scope and id); every hit is read back from the graph by id
within the scope, so the row of a write that failed never surfaces. What the graph
changes afterwards (an unmerge moves mentions to a new entity; a re-read adds some) the
rows do not follow, so the store uses an entity's list only while its length equals the
entity's ``mention_count`` in the graph, and asks the graph otherwise. Each process
catches up with rows other processes added (``seq > watermark``) before a read, and
forgets what it read when any process deleted a scope.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import Stemmer
from elephant_broker.store.sqlite_files import SidecarFile
from elephant_broker.store.terms import fulltext_terms

BM25_K1 = 1.2
BM25_B = 0.75
"""Okapi BM25's usual constants (Robertson & Zaragoza 2009), not tuned here."""

_SCHEMA = (
    # AUTOINCREMENT: a rowid is never reused, so "rows after my watermark" misses none.
    "CREATE TABLE IF NOT EXISTS episodes (seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, "
    "id TEXT NOT NULL, terms TEXT NOT NULL, length INTEGER NOT NULL, mentions TEXT NOT NULL, UNIQUE (scope, id))",
    "CREATE INDEX IF NOT EXISTS episodes_by_scope ON episodes (scope, seq)",
)


@dataclass(frozen=True)
class IndexedEpisode:
    """One episode as the index keeps it."""

    scope: str
    id: str
    search_text: str
    """``episode_search_text``: the segmented terms, space-separated."""
    mentions: Sequence[str] = ()
    """Ids of the entities the episode mentions."""


_stemmer_lock = threading.Lock()
_stemmer = Stemmer.Stemmer("english")
_stems: dict[str, str] = {}
"""Latin words stemmed so far in this process (a vocabulary, bounded by the language)."""


def index_terms(terms: Sequence[str]) -> list[str]:
    """The distinct index terms of segmented terms: Latin words stemmed, the rest as they are."""
    _learn_stems(terms)
    return list(dict.fromkeys(_stems.get(term, term) for term in terms))


def _learn_stems(terms: Iterable[str]) -> None:
    new = [term for term in set(terms).difference(_stems) if term.isascii() and term.isalpha()]
    if new:
        with _stemmer_lock:  # a Stemmer object is not safe across threads
            _stems.update(zip(new, _stemmer.stemWords(new), strict=True))


def _append(lists: dict[str, array[int]], key: str, row: int) -> None:
    found = lists.get(key)
    if found is None:
        lists[key] = array("i", (row,))
    else:
        found.append(row)


@dataclass
class _ScopeIndex:
    """One scope's episodes as this process last read them, in the order they were kept."""

    ids: list[str] = field(default_factory=list)
    lengths: array[int] = field(default_factory=lambda: array("i"))
    total_length: int = 0
    postings: dict[str, array[int]] = field(default_factory=dict)
    """Index term -> rows holding it."""
    mentions: dict[str, array[int]] = field(default_factory=dict)
    """Entity id -> rows mentioning it, oldest first."""
    watermark: int = 0

    def add(self, rows: Sequence[tuple[str, str, int, str]]) -> None:
        """Append episodes, as (id, index terms, length, mentioned entity ids), in the order they were kept."""
        row = len(self.ids)
        for identifier, terms, length, mentions in rows:
            self.ids.append(identifier)
            self.lengths.append(length)
            self.total_length += length
            for term in terms.split(" "):
                _append(self.postings, term, row)
            for entity in mentions.split(" ") if mentions else ():
                _append(self.mentions, entity, row)
            row += 1


class EpisodeIndex(SidecarFile):
    """The episode index of one graph: rows kept in a SQLite file, searched in process."""

    noun = "episode index"
    schema = _SCHEMA

    def __init__(self, path: Path | str) -> None:
        """Open (creating if needed) the index file at ``path``.

        Raises:
            StoreError: If the file cannot be created or read.
        """
        self._scopes: dict[str, _ScopeIndex] = {}
        self.checked_scopes: set[str] = set()
        """Scopes this process has checked hold every episode the graph holds (see the store)."""
        super().__init__(path)

    # -- writes ----------------------------------------------------------------------

    def put(self, episodes: Iterable[IndexedEpisode]) -> int:
        """Index episodes in one transaction (an episode already indexed stays as it is); return how many were new.

        Raises:
            StoreError: If the file cannot be written.
        """
        # Split as questions are (``fulltext_terms``: "well-known" is "well" and "known"), and
        # long as the graph counts it (``search_length``: its space-separated terms).
        given = [(episode, fulltext_terms(episode.search_text)) for episode in episodes]
        if not given:
            return 0
        _learn_stems(term for _, terms in given for term in terms)
        records = [
            (
                episode.scope,
                episode.id,
                " ".join(dict.fromkeys(_stems.get(term, term) for term in terms)),
                len(episode.search_text.split(" ")),
                " ".join(dict.fromkeys(episode.mentions)),
            )
            for episode, terms in given
        ]
        return self._write(
            "INSERT OR IGNORE INTO episodes (scope, id, terms, length, mentions) VALUES (?, ?, ?, ?, ?)", records
        )

    def delete_scope(self, scope: str) -> None:
        """Forget one scope's episodes."""
        self._delete("DELETE FROM episodes WHERE scope = ?", (scope,))

    def clear(self) -> None:
        """Forget every scope's episodes."""
        self._delete("DELETE FROM episodes", ())

    def _forget(self) -> None:
        self._scopes.clear()
        self.checked_scopes.clear()

    # -- reads -----------------------------------------------------------------------

    def count(self, scope: str) -> int:
        """How many of the scope's episodes are indexed."""
        return int(self._execute("SELECT count(*) FROM episodes WHERE scope = ?", (scope,)).fetchone()[0])

    def ids(self, scope: str) -> set[str]:
        """The ids of the scope's indexed episodes."""
        return {row[0] for row in self._execute("SELECT id FROM episodes WHERE scope = ?", (scope,))}

    def search(self, scope: str, terms: Sequence[str], k: int) -> list[tuple[str, float]]:
        """Return the ``k`` episodes of the scope best matching any of ``terms``, as (id, BM25 score), best first.

        ``terms`` are segmented as ``episode_search_text`` segments (``search_text``).
        A term held by more than half the scope's episodes is left out when another
        term is not: its Robertson–Spärck Jones weight, log((N − n + 0.5) / (n + 0.5)),
        is not positive, so it says nothing about which episodes match (in a
        conversation memory, the name of whoever speaks in most turns). When every
        term is that common, all are kept. Ties go to the episode kept last.
        """
        if not terms or k <= 0:
            return []
        wanted = index_terms(list(terms))
        index = self._caught_up(scope)
        with self._lock:
            size = len(index.ids)
            matched = {
                term: np.frombuffer(index.postings[term], dtype=np.int32).copy()
                for term in wanted
                if term in index.postings
            }
            lengths = np.frombuffer(index.lengths, dtype=np.int32)[:size].astype(np.float64)
            average = index.total_length / size if size else 1.0
            ids = index.ids[:size]
        if not matched:
            return []
        informative = {term: rows for term, rows in matched.items() if 2 * len(rows) <= size}
        weights = np.zeros(size, dtype=np.float64)
        for rows in (informative or matched).values():
            frequency = len(rows)
            weights[rows] += math.log(1.0 + (size - frequency + 0.5) / (frequency + 0.5))
        hit = np.flatnonzero(weights)
        scores = weights[hit] * (BM25_K1 + 1.0) / (1.0 + BM25_K1 * (1.0 - BM25_B + BM25_B * lengths[hit] / average))
        return [(ids[hit[index]], float(scores[index])) for index in _best(scores, hit, k)]

    def mention_counts(self, scope: str, entity_ids: Iterable[str]) -> dict[str, int]:
        """How many indexed episodes mention each of these entities (entities none mention are left out)."""
        index = self._caught_up(scope)
        with self._lock:
            return {entity: len(index.mentions[entity]) for entity in set(entity_ids) if entity in index.mentions}

    def episodes_mentioning(
        self, scope: str, weights: Mapping[str, float], limit: int, per_entity: int
    ) -> list[tuple[str, float, list[str]]]:
        """Return episodes mentioning any of these entities, by summed entity weight, best first.

        Each entity contributes its ``per_entity`` most recent mentions. Ties go to the
        episode kept last.

        Returns:
            ``(episode id, score, ids of the given entities it mentions)``.
        """
        if limit <= 0 or per_entity <= 0:
            return []
        index = self._caught_up(scope)
        with self._lock:
            tails = {
                entity: np.frombuffer(index.mentions[entity], dtype=np.int32)[-per_entity:].copy()
                for entity in weights
                if entity in index.mentions
            }
            ids = index.ids[: len(index.ids)]
        if not tails:
            return []
        entities = sorted(tails)
        rows = np.concatenate([tails[entity] for entity in entities])
        owners = np.concatenate([np.full(len(tails[entity]), number) for number, entity in enumerate(entities)])
        gains = np.array([float(weights[entity]) for entity in entities])[owners]
        unique, position = np.unique(rows, return_inverse=True)
        scores = np.bincount(position, weights=gains)
        best = _best(scores, unique, limit)
        # Which entities each kept episode came from: one pass over the (row, entity)
        # pairs of the kept rows, not a search of every tail per episode.
        kept = np.zeros(len(unique), dtype=bool)
        kept[best] = True
        mentioned: dict[int, list[str]] = {}
        for number, owner in zip(position[kept[position]].tolist(), owners[kept[position]].tolist(), strict=True):
            mentioned.setdefault(number, []).append(entities[owner])
        return [(ids[unique[number]], float(scores[number]), mentioned[number]) for number in best.tolist()]

    def _caught_up(self, scope: str) -> _ScopeIndex:
        """The scope's index with every episode kept so far, by this process or another."""
        self._check_deletions()
        with self._lock:
            index = self._scopes.setdefault(scope, _ScopeIndex())
            watermark = index.watermark
        rows = self._execute(
            "SELECT seq, id, terms, length, mentions FROM episodes WHERE scope = ? AND seq > ? ORDER BY seq",
            (scope, watermark),
        ).fetchall()
        if rows:
            with self._lock:
                if index.watermark == watermark:  # another thread may have caught up meanwhile
                    index.add([row[1:] for row in rows])
                    index.watermark = rows[-1][0]
        return index


def _best(scores: np.ndarray, rows: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` best scores, best first; among equal scores, the later row first."""
    take = min(k, len(scores))
    if take <= 0:
        return np.zeros(0, dtype=np.int64)
    if take < len(scores):
        # Every position scoring at least the k-th best, ties at the cut included.
        candidates = np.flatnonzero(scores >= -np.partition(-scores, take - 1)[take - 1])
    else:
        candidates = np.arange(len(scores))
    return candidates[np.lexsort((-rows[candidates], -scores[candidates]))][:take]
