"""Store reads for ingesting a batch of episodes: one query per kind, however many episodes.

A mixin of ``GraphStore`` (like ``store.merges``): which of the batch's episodes are
stored already, and the entity candidates of the batch's names (full-text hits,
nearest names by embedding, name similarities), each for every name at once with an
``UNWIND`` over the names. The Cypher runs unchanged on FalkorDB and Neo4j; the
full-text and vector index calls come from the backend's hooks. Every read filters
on ``scope``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from elephant_broker.store.vectors import VectorFile


class IngestReads:
    """Batched reads of the ingest pipeline, shared by every backend."""

    if TYPE_CHECKING:
        vectors: VectorFile | None

        def _read(
            self, query: str, params: dict[str, Any] | None = None, *, timeout_ms: int | None = None
        ) -> list[dict[str, Any]]: ...

        def _fulltext_query(self, terms: list[str]) -> tuple[str, str]: ...

        def _entity_fulltext_call(self, expression: str) -> str: ...

        def _vector_query(self, label: str, k_param: str, vector_param: str) -> str: ...

        def _cosine(self, stored: str, param: str) -> str: ...

        def _vector_similarity(self, score: float) -> float: ...

    def episode_readings(self, scope: str, episode_ids: Iterable[str]) -> dict[str, str]:
        """Return how each stored episode among these was read (``""`` if unrecorded); absent ones are left out."""
        ids = sorted(set(episode_ids))
        if not ids:
            return {}
        rows = self._read(
            "UNWIND $ids AS id MATCH (ep:Episode {id: id}) WHERE ep.scope = $scope "
            "RETURN ep.id AS id, coalesce(ep.read_by, '') AS read_by",
            {"scope": scope, "ids": ids},
        )
        return {row["id"]: str(row["read_by"]) for row in rows}

    def stored_fact_ids(self, scope: str, fact_ids: Iterable[str]) -> set[str]:
        """Return which of these fact ids are stored, each looked up through the fact id index."""
        ids = sorted(set(fact_ids))
        if not ids:
            return set()
        rows = self._read(
            # No labels on the ends: FalkorDB would scan every entity for each id.
            "UNWIND $ids AS id MATCH ()-[f:FACT {id: id}]->() WHERE f.scope = $scope RETURN f.id AS id",
            {"scope": scope, "ids": ids},
        )
        return {row["id"] for row in rows}

    def entities_by_terms(self, scope: str, terms: Mapping[str, Sequence[str]], k: int) -> dict[str, list[str]]:
        """Full-text search over entity names, for many names at once.

        Args:
            scope: The memory scope.
            terms: A name's key -> its safe full-text terms (``store.terms.fulltext_terms``).
            k: Entities kept per name, best first.

        Returns:
            A name's key -> the ids of the entities its terms find, best score first (ties by id).
        """
        queries = [{"key": key, "query": self._fulltext_query(list(words))[1]} for key, words in terms.items() if words]
        if not queries:
            return {}
        rows = self._read(
            f"UNWIND $queries AS q {self._entity_fulltext_call('q.query')} "
            "WITH q, node AS e, score WHERE e.scope = $scope "
            "RETURN q.key AS key, e.id AS id, score",
            {"scope": scope, "queries": queries},
        )
        found: dict[str, list[tuple[float, str]]] = {}
        for row in rows:
            found.setdefault(row["key"], []).append((-float(row["score"]), row["id"]))
        return {key: [eid for _, eid in sorted(hits)[:k]] for key, hits in found.items()}

    def entities_near(
        self, scope: str, vectors: Mapping[str, Sequence[float]], k: int, fetch: int = 128
    ) -> dict[str, list[tuple[str, float]]]:
        """Nearest entities by name embedding, for many names at once.

        A graph's vector index spans every scope, so ``fetch`` neighbours are taken per
        name before the scope filter: resolution needs the in-scope ones even in a store
        shared by many agents (and FalkorDB's index still holds recently deleted nodes).
        A store with a vector file searches the scope alone and needs no ``fetch``.

        Returns:
            A name's key -> ``(entity id, cosine similarity)`` of its ``k`` nearest, nearest first.
        """
        if self.vectors is not None:
            return self._entities_near_in_file(scope, vectors, k)
        queries = [{"key": key, "vector": list(map(float, vector))} for key, vector in vectors.items()]
        if not queries:
            return {}
        rows = self._read(
            f"UNWIND $queries AS q {self._vector_query('Entity', '$fetch', 'q.vector')} "
            "WITH q, node AS e, score WHERE e.scope = $scope "
            "RETURN q.key AS key, e.id AS id, score",
            {"scope": scope, "queries": queries, "fetch": max(fetch, k)},
        )
        found: dict[str, list[tuple[float, str]]] = {}
        for row in rows:
            found.setdefault(row["key"], []).append((-self._vector_similarity(float(row["score"])), row["id"]))
        return {key: [(eid, -negative) for negative, eid in sorted(hits)[:k]] for key, hits in found.items()}

    def _entities_near_in_file(
        self, scope: str, vectors: Mapping[str, Sequence[float]], k: int
    ) -> dict[str, list[tuple[str, float]]]:
        assert self.vectors is not None
        # The file searches the scope alone; spare hits cover vectors whose entity is gone (merged, failed write).
        found = self.vectors.nearest_many("Entity", scope, vectors, k + 4)
        ids = sorted({identifier for hits in found.values() for identifier, _ in hits})
        if not ids:
            return {}
        rows = self._read(
            "UNWIND $ids AS id MATCH (e:Entity {id: id}) WHERE e.scope = $scope RETURN e.id AS id",
            {"scope": scope, "ids": ids},
        )
        stored = {row["id"] for row in rows}
        kept = {key: [hit for hit in hits if hit[0] in stored][:k] for key, hits in found.items()}
        return {key: hits for key, hits in kept.items() if hits}

    def similarities_to(
        self, scope: str, candidates: Mapping[str, tuple[Sequence[str], Sequence[float]]]
    ) -> dict[str, dict[str, float]]:
        """Cosine similarity of entities' name embeddings to a vector, for many names at once.

        Args:
            scope: The memory scope.
            candidates: A name's key -> (entity ids, the name's vector).

        Returns:
            A name's key -> entity id -> similarity, computed in the store (only a number
            per entity crosses the wire); entities stored without an embedding are left out.
        """
        if self.vectors is not None:
            file = self.vectors
            return {
                key: scores
                for key, (ids, vector) in candidates.items()
                if ids and (scores := file.similarities("Entity", scope, ids, vector))
            }
        queries = [
            {"key": key, "ids": sorted(set(ids)), "vector": list(map(float, vector))}
            for key, (ids, vector) in candidates.items()
            if ids
        ]
        if not queries:
            return {}
        rows = self._read(
            "UNWIND $queries AS q UNWIND q.ids AS id "
            "MATCH (e:Entity {id: id}) WHERE e.scope = $scope AND e.embedding IS NOT NULL "
            f"RETURN q.key AS key, e.id AS id, {self._cosine('e.embedding', 'q.vector')} AS score",
            {"scope": scope, "queries": queries},
        )
        found: dict[str, dict[str, float]] = {}
        for row in rows:
            found.setdefault(row["key"], {})[row["id"]] = self._vector_similarity(float(row["score"]))
        return found
