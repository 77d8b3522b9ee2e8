"""Store reads for ranking episodes: full text, mentions of entities, and their neighbourhood.

A mixin of ``GraphStore`` (like ``store.merges``): the Cypher here runs unchanged on
FalkorDB and Neo4j through the backend's ``_read``; only the full-text call differs
and comes from the backend's ``_episode_fulltext_call`` hook. Every read filters on
``scope`` and is bounded by a ``LIMIT`` or by the ids it is given, so ranking never
loads the whole graph.

Episodes are full-text indexed on ``search_text``: the speaker and the text,
pre-segmented by ``language.names.search_text`` (jieba tokens plus CJK bigrams),
because FalkorDB's tokenizer does not split Chinese. A store with an episode index (the
embedded one, ``store.episode_index``) ranks keywords and reads an entity's latest
mentions there instead, and reads the episodes it finds from the graph.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from elephant_broker.language.names import search_text
from elephant_broker.schemas.models import Episode
from elephant_broker.store.episode_index import EpisodeIndex, IndexedEpisode

EPISODE_COLUMNS = (
    "ep.id AS id, ep.agent_id AS agent_id, ep.session_id AS session_id, ep.speaker AS speaker, "
    "ep.source AS source, ep.text AS text, ep.time AS time, ep.external_id AS external_id, "
    "ep.created_at AS created_at"
)

MENTIONS_PER_ENTITY = 200
"""Most recent mentions of one entity the spread reads: a round bound on the work a hub costs."""
BM25_HITS_PER_TERM = 1000
"""Matches of one term scored per keyword search, its shortest episodes (see ``search_episodes_text``)."""
INDEX_BATCH = 2_000
"""Episodes read from the graph, and indexed, per round when an episode index catches up with it."""
BM25_K1 = 1.2
BM25_B = 0.75
"""Okapi BM25's usual constants (Robertson & Zaragoza 2009), not tuned here."""


def search_length(search_text: str) -> int:
    """Return an episode's length in indexed terms, as BM25 counts it (the store splits on spaces alike)."""
    return len(search_text.split(" "))


def episode_stats_statement(write_id: str, episode_ids: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """Add the episodes a write created (marked with ``write_id``) to their scope's BM25 statistics.

    One ``EpisodeStats`` node per scope holds the episode count and the summed
    ``search_length``, so a keyword search reads two numbers instead of counting the
    memory. Episodes are only ever removed with their whole scope (and its node).
    """
    return (
        "UNWIND $ids AS id MATCH (ep:Episode {id: id}) WHERE ep.write_id = $write "
        "WITH ep.scope AS scope, count(ep) AS added, sum(ep.search_length) AS length "
        "MERGE (x:EpisodeStats {scope: scope}) ON CREATE SET x.episodes = 0, x.length = 0 "
        "SET x.episodes = x.episodes + added, x.length = x.length + length",
        {"write": write_id, "ids": sorted(set(episode_ids))},
    )


@functools.lru_cache(maxsize=8192)
def episode_search_text(speaker: str, text: str) -> str:
    """Return what an episode is full-text indexed under: its speaker's name and its words.

    The speaker is part of a turn's meaning ("what did Caroline say about X" should
    prefer Caroline's turns), as it is of the episode's embedding ("speaker: text").
    """
    # Remembered: a write segments each episode for the keyword file and for the graph.
    return search_text(f"{speaker} {text}")


class EpisodeQueries:
    """Episode retrieval queries shared by every backend."""

    if TYPE_CHECKING:

        def _read(self, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]: ...

        def _episode_fulltext_call(self, term: str) -> str: ...

        episode_index: EpisodeIndex | None

        def _write_atomic(
            self,
            statements: Sequence[tuple[str, dict[str, Any]]],
            *,
            result: tuple[str, dict[str, Any]] | None = None,
        ) -> list[dict[str, Any]]: ...

    def search_episodes_text(self, scope: str, terms: Iterable[str], k: int = 20) -> list[tuple[Episode, float]]:
        """Full-text search over episodes for any of ``terms``, best first, as (episode, BM25 score).

        The index finds the episodes of each term (stemmed on FalkorDB); the score is
        computed here, in the store, as Okapi BM25 over the scope's episodes with the
        standard k1 = 1.2, b = 0.75. Each term counts once per episode (``search_text``
        lists distinct terms). Both backends score alike this way: FalkorDB's own
        score for an OR query does not add up the terms that match.

        A term found in more than half the scope's episodes is left out when another
        term is not: its Robertson-Spärck Jones weight, log((N - n + 0.5) / (n + 0.5)),
        is not positive, so it says nothing about which episodes match. In a
        conversation memory that is typically the name of someone who speaks in most
        turns (episodes are indexed with their speaker); kept, it fills the ranking's
        tail with that speaker's shortest turns. When every term is that common (a
        memory of one or two episodes), all are kept: nothing better is asked.

        A term's matches are scored up to the ``BM25_HITS_PER_TERM`` shortest episodes
        (its document frequency, for the weight, counts them all). A term counts once
        per episode, so its contribution falls with the episode's length alone; an
        episode past the cut loses at most the contribution of the last one kept, a
        term matching thousands of episodes adds little, and scoring every match made a
        frequent word cost more than the rest of the question (static index pruning,
        in the manner of impact-ordered postings).

        The terms must already be safe full-text terms (``store.terms.fulltext_terms``):
        letters, digits and CJK only.
        """
        wanted = list(dict.fromkeys(term for term in terms if term))
        if not wanted:
            return []
        if self.episode_index is not None:
            return self._search_index(self.episode_index, scope, wanted, k)
        rows = self._read(
            # Collection statistics kept by every episode write (``episode_stats_statement``), not
            # recounted: over a large memory the count alone cost more than the search.
            "OPTIONAL MATCH (x:EpisodeStats {scope: $scope}) "
            "WITH coalesce(x.episodes, 0) AS n, "
            "CASE WHEN x.episodes > 0 THEN toFloat(x.length) / x.episodes ELSE 1.0 END AS avgdl "
            "UNWIND $terms AS term "
            f"CALL {{ WITH term {self._episode_fulltext_call('term')} WHERE node.scope = $scope "
            "RETURN count(node) AS df } "
            # Shortest first: with each term counted once, that is its BM25 contribution's order.
            # A top-k per term, not a sort of all its matches: a frequent word matches thousands.
            f"CALL {{ WITH term {self._episode_fulltext_call('term')} WHERE node.scope = $scope "
            "WITH node ORDER BY node.search_length, node.created_at DESC, node.id LIMIT $per_term "
            "RETURN collect(node) AS hits } "
            "WITH n, avgdl, df, hits WHERE df > 0 "
            "WITH n, avgdl, collect({hits: hits, df: df, common: 2 * df > n}) AS matched "
            "WITH n, avgdl, matched, any(t IN matched WHERE NOT t.common) AS informative "
            "UNWIND matched AS t "
            "WITH n, avgdl, t WHERE NOT (informative AND t.common) "
            "WITH n, avgdl, t.hits AS hits, log(1.0 + (n - t.df + 0.5) / (t.df + 0.5)) AS idf "
            "UNWIND hits AS ep "
            "WITH ep, sum(idf * ($k1 + 1.0) / (1.0 + $k1 * (1.0 - $b + $b * ep.search_length / avgdl))) "
            "AS score "
            # Cut, then project: the columns (text included) of thousands of hits cost more than the sum.
            "WITH ep, score ORDER BY score DESC, ep.created_at DESC, ep.id LIMIT $k "
            f"RETURN {EPISODE_COLUMNS}, score",
            {"terms": wanted, "scope": scope, "k": k, "k1": BM25_K1, "b": BM25_B, "per_term": BM25_HITS_PER_TERM},
        )
        return [(_episode(row), float(row["score"])) for row in rows]

    def _search_index(self, index: EpisodeIndex, scope: str, terms: list[str], k: int) -> list[tuple[Episode, float]]:
        self._index_missing_episodes(index, scope)
        hits = index.search(scope, terms, k + 8)  # a few spare: a failed write's episode is not in the graph
        found = self._episodes_by_id(scope, [identifier for identifier, _ in hits])
        return [(found[identifier], score) for identifier, score in hits if identifier in found][:k]

    def _episodes_by_id(self, scope: str, ids: list[str]) -> dict[str, Episode]:
        """The scope's episodes of these ids (ids of no episode of the scope are left out)."""
        if not ids:
            return {}
        rows = self._read(
            f"UNWIND $ids AS id MATCH (ep:Episode {{id: id}}) WHERE ep.scope = $scope RETURN {EPISODE_COLUMNS}",
            {"ids": ids, "scope": scope},
        )
        return {row["id"]: _episode(row) for row in rows}

    def _index_missing_episodes(self, index: EpisodeIndex, scope: str) -> None:
        """Index the scope's episodes the episode index lacks (a memory from before the index, or a lost file).

        Run once per scope and process, before its first read there: the index is
        written before the graph, so it holds at least the graph's episodes unless it
        was made after them or lost.
        """
        if scope in index.checked_scopes:
            return
        if index.count(scope) < self.episode_count(scope):
            indexed = index.ids(scope)
            ids = self._read("MATCH (ep:Episode) WHERE ep.scope = $scope RETURN ep.id AS id", {"scope": scope})
            missing = sorted({row["id"] for row in ids} - indexed)
            rows: list[dict[str, Any]] = []
            # By id, a batch at a time: one query over a large memory's every episode and
            # mention could outlast the server's patience.
            for start in range(0, len(missing), INDEX_BATCH):
                rows += self._read(
                    "UNWIND $ids AS id MATCH (ep:Episode {id: id}) WHERE ep.scope = $scope "
                    # Unlabelled far end: with a labelled one FalkorDB scans every entity first.
                    "OPTIONAL MATCH (ep)-[:MENTIONS]->(e) "
                    "RETURN ep.id AS id, ep.speaker AS speaker, ep.text AS text, ep.created_at AS created_at, "
                    "collect(e.id) AS mentions",
                    {"ids": missing[start : start + INDEX_BATCH], "scope": scope},
                )
            # Oldest first: an entity's latest mentions are the end of its list.
            rows.sort(key=lambda row: (row["created_at"] or 0, row["id"]))
            for start in range(0, len(rows), INDEX_BATCH):
                index.put(
                    IndexedEpisode(
                        scope, row["id"], episode_search_text(row["speaker"] or "", row["text"] or ""), row["mentions"]
                    )
                    for row in rows[start : start + INDEX_BATCH]
                )
        index.checked_scopes.add(scope)

    def episodes_mentioning(
        self,
        scope: str,
        weights: dict[str, float],
        limit: int = 100,
        per_entity: int = MENTIONS_PER_ENTITY,
        *,
        degrees: Mapping[str, int] | None = None,
    ) -> list[tuple[Episode, float, list[str]]]:
        """Return episodes that mention any of these entities, by summed entity weight.

        Args:
            scope: The agent whose memory is read.
            weights: Entity id -> weight; an episode scores the sum over the entities it mentions.
            limit: At most this many episodes, best first (ties: newest first).
            per_entity: At most this many episodes per entity, its most recent: a hub
                mentioned by thousands of turns gives each a share too small to rank,
                and reading them all would cost more than the rest of the question.

            degrees: The entities' ``mention_count`` as the caller read it (read here if not given).

        Returns:
            ``(episode, score, ids of the given entities it mentions)``. The aggregation
            runs in the store, from each entity (id index) to its mentions — or, with an
            episode index whose lists agree with the graph's counts, over those lists.
        """
        rows_in = [{"id": entity_id, "weight": float(weight)} for entity_id, weight in sorted(weights.items())]
        if not rows_in:
            return []
        if self.episode_index is not None:
            found = self._mentioning_from_index(self.episode_index, scope, weights, limit, per_entity, degrees)
            if found is not None:
                return found
        rows = self._read(
            "UNWIND $anchors AS a "
            "MATCH (e:Entity {id: a.id}) WHERE e.scope = $scope "
            # Unlabelled far end: with a labelled one FalkorDB scans every episode first.
            "CALL { WITH e MATCH (e)<-[:MENTIONS]-(ep) WHERE ep.scope = $scope "
            "RETURN ep ORDER BY ep.created_at DESC, ep.id DESC LIMIT $per_entity } "
            "WITH ep, sum(a.weight) AS score, collect(e.id) AS mentioned "
            "ORDER BY score DESC, ep.created_at DESC, ep.id LIMIT $limit "
            f"RETURN {EPISODE_COLUMNS}, score, mentioned",
            {"scope": scope, "anchors": rows_in, "limit": limit, "per_entity": per_entity},
        )
        return [(_episode(row), float(row["score"]), sorted(row["mentioned"] or [])) for row in rows]

    def _mentioning_from_index(
        self,
        index: EpisodeIndex,
        scope: str,
        weights: dict[str, float],
        limit: int,
        per_entity: int,
        degrees: Mapping[str, int] | None,
    ) -> list[tuple[Episode, float, list[str]]] | None:
        """``episodes_mentioning`` over the index's lists, or None when one disagrees with the graph.

        An entity's list is the episodes whose writes linked them; an unmerge or a re-read
        changes the graph's links afterwards, and the entity's ``mention_count`` with them.
        """
        self._index_missing_episodes(index, scope)
        graph = degrees if degrees is not None else self.mention_counts(scope, weights)
        listed = index.mention_counts(scope, weights)
        if any(listed.get(entity, 0) != graph.get(entity, 0) for entity in weights):
            return None
        hits = index.episodes_mentioning(scope, weights, limit + 8, per_entity)
        found = self._episodes_by_id(scope, [identifier for identifier, _, _ in hits])
        return [(found[identifier], score, mentioned) for identifier, score, mentioned in hits if identifier in found][
            :limit
        ]

    def adjacent_episodes(self, scope: str, episode_ids: Iterable[str]) -> dict[str, list[Episode]]:
        """Return, for each of these episodes, the turns just before and after it in its session.

        Turns are ordered by when they were stored (then id); episodes sent without a
        session share the default one. Each lookup reads one session through the
        ``session_id`` index.
        """
        ids = sorted(set(episode_ids))
        if not ids:
            return {}
        found: dict[str, list[Episode]] = {}
        for before, order in ((True, "DESC"), (False, "ASC")):
            comparison = "<" if before else ">"
            rows = self._read(
                "UNWIND $ids AS id "
                "MATCH (s:Episode {id: id}) WHERE s.scope = $scope "
                # Through a variable, so the session_id index is used (a property of s is not).
                "WITH s, s.session_id AS session "
                "MATCH (ep:Episode) WHERE ep.session_id = session AND ep.scope = $scope "
                f"AND (ep.created_at {comparison} s.created_at "
                f"OR (ep.created_at = s.created_at AND ep.id {comparison} s.id)) "
                f"WITH s, ep ORDER BY ep.created_at {order}, ep.id {order} "
                "WITH s, collect(ep)[0] AS ep "
                f"RETURN s.id AS seed, {EPISODE_COLUMNS}",
                {"scope": scope, "ids": ids},
            )
            for row in rows:
                found.setdefault(row["seed"], []).append(_episode(row))
        return found

    def last_turns(self, scope: str, session_id: str, speaker: str, limit: int = 1) -> list[Episode]:
        """Return the speaker's latest stored turns in a session (by when stored), latest first.

        Read through the ``session_id`` index: what a correction ("I meant …") corrects.
        """
        rows = self._read(
            "MATCH (ep:Episode) WHERE ep.session_id = $session AND ep.scope = $scope AND ep.speaker = $speaker "
            f"WITH ep ORDER BY ep.created_at DESC, ep.id DESC LIMIT $limit RETURN {EPISODE_COLUMNS}",
            {"scope": scope, "session": session_id, "speaker": speaker, "limit": limit},
        )
        return [_episode(row) for row in rows]

    def next_turns(self, scope: str, episode: Episode, limit: int = 3) -> list[Episode]:
        """Return the speaker's next turns after this episode in its session (by when stored), first first.

        Read through the ``session_id`` index: what may correct the episode a turn or two later.
        """
        rows = self._read(
            "MATCH (ep:Episode) WHERE ep.session_id = $session AND ep.scope = $scope AND ep.speaker = $speaker "
            "AND (ep.created_at > $created OR (ep.created_at = $created AND ep.id > $id)) "
            f"WITH ep ORDER BY ep.created_at ASC, ep.id ASC LIMIT $limit RETURN {EPISODE_COLUMNS}",
            {
                "scope": scope,
                "session": episode.session_id,
                "speaker": episode.speaker,
                "created": episode.created_at,
                "id": episode.id,
                "limit": limit,
            },
        )
        return [_episode(row) for row in rows]

    def mentions_of_episodes(self, scope: str, episode_ids: Iterable[str]) -> dict[str, list[str]]:
        """Return the ids of the entities each of these episodes mentions."""
        ids = sorted(set(episode_ids))
        if not ids:
            return {}
        rows = self._read(
            "UNWIND $ids AS id MATCH (ep:Episode {id: id}) WHERE ep.scope = $scope "
            "MATCH (ep)-[:MENTIONS]->(e:Entity) WHERE e.scope = $scope "
            "RETURN ep.id AS episode, collect(DISTINCT e.id) AS entities",
            {"scope": scope, "ids": ids},
        )
        return {row["episode"]: sorted(row["entities"] or []) for row in rows}

    def mention_counts(self, scope: str, entity_ids: Iterable[str]) -> dict[str, int]:
        """Return how many episodes of the scope mention each of these entities.

        Read from the count every write keeps on the entity (one per ``MENTIONS`` link
        created; an unmerge moves its share), not by walking the links: a hub is
        mentioned by thousands of episodes. Entities mentioned by none are left out.
        """
        ids = sorted(set(entity_ids))
        if not ids:
            return {}
        rows = self._read(
            "UNWIND $ids AS id MATCH (e:Entity {id: id}) WHERE e.scope = $scope AND e.mention_count > 0 "
            "RETURN e.id AS id, e.mention_count AS n",
            {"scope": scope, "ids": ids},
        )
        return {row["id"]: int(row["n"]) for row in rows}

    def index_episode_text(self, scope: str | None = None, batch: int = 500) -> int:
        """Give episodes stored before the episode full-text index their ``search_text``.

        Args:
            scope: One agent's episodes, or every agent's when None (the migration run
                when a process first opens a store).
            batch: Episodes read and written per round.

        Returns:
            How many episodes were updated (0 once every episode has it).
        """
        where = "ep.search_text IS NULL" + ("" if scope is None else " AND ep.scope = $scope")
        done = 0
        while True:
            rows = self._read(
                f"MATCH (ep:Episode) WHERE {where} "
                "RETURN ep.id AS id, ep.scope AS scope, ep.speaker AS speaker, ep.text AS text LIMIT $batch",
                {"scope": scope, "batch": batch},
            )
            if not rows:
                return done
            updates = [
                {
                    "id": row["id"],
                    "scope": row["scope"],
                    "search_text": (indexed := episode_search_text(row["speaker"] or "", row["text"] or "")),
                    "search_length": search_length(indexed),
                }
                for row in rows
            ]
            self._write_atomic(
                [
                    (
                        "UNWIND $rows AS r MATCH (ep:Episode {id: r.id}) WHERE ep.scope = r.scope "
                        "SET ep.search_text = r.search_text, ep.search_length = r.search_length",
                        {"rows": updates},
                    )
                ]
            )
            done += len(rows)

    def count_episode_stats(self) -> None:
        """Recount every scope's BM25 statistics and each episode's ``search_length`` from scratch.

        For stores written before the statistics were kept (``GraphStore.upgrade``):
        one pass over the episodes, idempotent.
        """
        self._write_atomic(
            [
                (
                    "MATCH (ep:Episode) WHERE ep.search_length IS NULL "
                    "SET ep.search_length = size(split(coalesce(ep.search_text, ''), ' '))",
                    {},
                ),
                ("MATCH (x:EpisodeStats) DELETE x", {}),
                (
                    "MATCH (ep:Episode) WITH ep.scope AS scope, count(ep) AS n, sum(ep.search_length) AS length "
                    "CREATE (:EpisodeStats {scope: scope, episodes: n, length: length})",
                    {},
                ),
            ]
        )

    def episode_count(self, scope: str) -> int:
        """Return how many episodes the scope holds."""
        rows = self._read("MATCH (x:EpisodeStats {scope: $scope}) RETURN x.episodes AS n", {"scope": scope})
        return int(rows[0]["n"] or 0) if rows else 0


def _episode(row: dict[str, Any]) -> Episode:
    # Columns a query returns beside the episode's own: its score, what it mentions, its seed.
    return Episode(**{name: value for name, value in row.items() if name not in ("score", "mentioned", "seed")})
