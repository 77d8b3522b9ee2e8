"""The ``GraphStore`` interface and the Cypher both backends share.

Everything the broker reads or writes goes through the methods here, and every
method takes the ``scope`` (the agent whose memory it is) as its first argument: the
query layer, not the caller, adds the scope filter to every pattern, so one agent can
never read another's memory by forgetting a ``WHERE``.

Backends differ only in how a statement is executed (``_read``/``_write_atomic``) and
in the few dialect hooks (vector literal, vector and full-text index calls); those
live in ``store/falkordb_store.py`` and ``store/neo4j_store.py``.
"""

from __future__ import annotations

import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple

from elephant_broker.schemas.ids import stable_id
from elephant_broker.schemas.models import (
    ENTITY_TYPES,
    AnswerRecord,
    Conflict,
    Entity,
    Episode,
    EpisodeWrite,
    Fact,
    FactUpdate,
)
from elephant_broker.store.answers import AnswerQueries, answer_statement, raise_confidence_statement
from elephant_broker.store.episode_index import EpisodeIndex, IndexedEpisode
from elephant_broker.store.episodes import (
    EPISODE_COLUMNS,
    EpisodeQueries,
    episode_search_text,
    episode_stats_statement,
    search_length,
)
from elephant_broker.store.errors import StoreError as StoreError  # re-exported: the backends raise it
from elephant_broker.store.ingest_reads import IngestReads
from elephant_broker.store.merges import MergeQueries
from elephant_broker.store.open_conflicts import OpenConflictQueries, close_conflicts_statement
from elephant_broker.store.readonly import check_read_only
from elephant_broker.store.sanitize import cypher_identifier
from elephant_broker.store.scoping import scope_query
from elephant_broker.store.terms import fulltext_terms
from elephant_broker.store.vectors import VectorFile, VectorKind, VectorRow

Statement = tuple[str, dict[str, Any]]
Row = dict[str, Any]


class WriteCounts(NamedTuple):
    """What one episode write created: the episode (1 or 0), new entities, new facts."""

    episodes: int
    entities: int
    facts: int


PATH_FANOUT = 100
"""Heaviest facts of each entity that paths of two and three facts are looked for through."""

STORE_LAYOUT_VERSION = 4
"""Version of the stored layout that :meth:`GraphStore.upgrade` brings older stores to."""


def now_ms() -> int:
    """Return the current time in milliseconds since the epoch."""
    return int(time.time() * 1000)


_ENTITY_COLUMNS = (
    "e.id AS id, e.key AS key, e.name AS name, e.type AS type, e.aliases AS aliases, "
    "e.mention_count AS mention_count, e.first_seen AS first_seen, e.last_seen AS last_seen"
)
_FACT_COLUMNS = (
    "f.id AS id, s.id AS subject_id, s.name AS subject, s.type AS subject_type, "
    "f.predicate AS predicate, f.predicate_key AS predicate_key, "
    "o.id AS object_id, o.name AS object, o.type AS object_type, f.weight AS weight, "
    "f.confidence AS confidence, f.negated AS negated, f.episode_ids AS episode_ids, "
    "f.created_at AS created_at, f.valid_from AS valid_from, f.valid_to AS valid_to, f.schedule AS schedule, "
    "f.status AS status, f.expired_at AS expired_at, f.authority AS authority, "
    "f.derived_from AS derived_from"
)


class GraphStore(MergeQueries, EpisodeQueries, OpenConflictQueries, IngestReads, AnswerQueries, ABC):
    """A Cypher graph database holding episodes, entities and facts."""

    #: Short name shown in messages and tests ("falkordb", "neo4j").
    backend: str = "cypher"

    #: Where vectors are kept when not in the graph (the embedded store's vector file);
    #: None: in the graph, on nodes and facts, with the backend's vector index.
    vectors: VectorFile | None = None

    #: Where episodes' search terms and mentions are also indexed, for keyword search and
    #: an entity's latest mentions (the embedded store's episode index); None: the graph only.
    episode_index: EpisodeIndex | None = None

    # -- execution, per backend ------------------------------------------------------

    @abstractmethod
    def _read(self, query: str, params: dict[str, Any] | None = None, *, timeout_ms: int | None = None) -> list[Row]:
        """Run a read-only query and return its rows as dicts (stopped by the server after ``timeout_ms``)."""

    @abstractmethod
    def _write_atomic(self, statements: Sequence[Statement], *, result: Statement | None = None) -> list[Row]:
        """Run write statements in one transaction: all of them or none.

        ``result``, when given, runs last in the same transaction and its rows are returned.
        """

    @abstractmethod
    def _schema_statements(self, dimension: int) -> list[str]:
        """Return the idempotent index/constraint statements of this dialect."""

    @abstractmethod
    def _vector(self, expression: str) -> str:
        """Wrap a list-valued expression as this dialect's vector value."""

    @abstractmethod
    def _vector_query(self, label: str, k_param: str, vector_param: str) -> str:
        """Return a ``CALL ... YIELD node, score`` clause for a vector search."""

    @abstractmethod
    def _cosine(self, stored: str, param: str) -> str:
        """Return an expression scoring a stored vector against a parameter, like the vector index does."""

    def _optional_vector(self, expression: str) -> str:
        """A vector value, or null for an empty list (never store a zero-length vector)."""
        return f"CASE WHEN size({expression}) = 0 THEN null ELSE {self._vector(expression)} END"

    @abstractmethod
    def _vector_similarity(self, score: float) -> float:
        """Turn the backend's vector score into cosine similarity."""

    @abstractmethod
    def _fulltext_query(self, terms: list[str]) -> tuple[str, str]:
        """Return the ``CALL ... YIELD node, score`` clause and the query string."""

    @abstractmethod
    def _entity_fulltext_call(self, expression: str) -> str:
        """Return a ``CALL ... YIELD node, score`` clause finding the entities of a full-text query expression."""

    @abstractmethod
    def _episode_fulltext_call(self, term: str) -> str:
        """Return a ``CALL ... YIELD node`` clause finding the episodes of one full-text term expression."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (an embedded server keeps running for reuse)."""

    @abstractmethod
    def drop_all(self) -> None:
        """Delete every node and relationship, vectors included (tests and benchmarks)."""

    # -- schema ----------------------------------------------------------------------

    def ensure_schema(self, dimension: int) -> bool:
        """Create constraints and indexes once; safe to call on every start.

        Returns:
            Whether a statement may have created something (False: everything existed).
        """
        # A list, not a generator: every statement is applied, not only those up to the first that creates.
        created = [self._apply_schema_statement(statement) for statement in self._schema_statements(dimension)]
        return any(created)

    def _apply_schema_statement(self, statement: str) -> bool:
        """Apply one idempotent schema statement; return whether it may have created something."""
        self._write_atomic([(statement, {})])
        return True

    def upgrade(self) -> bool:
        """Bring data stored by an older release to today's layout, once per store.

        The layout version lives on one ``StoreMeta`` node, so a process opening an
        up-to-date store pays one lookup, not a scan of every episode and fact. Each
        step is idempotent (two processes opening an old store at once both finish).

        Returns:
            True if anything had to be upgraded.
        """
        rows = self._read("MATCH (m:StoreMeta {id: 'layout'}) RETURN m.version AS version")
        version = int(rows[0]["version"] or 0) if rows else 0
        if version >= STORE_LAYOUT_VERSION:
            return False
        # 1: episodes carry ``search_text`` (the episode full-text index).
        self.index_episode_text()
        # 2: fact sentence vectors are stored as vectors, scored in the store.
        self._upgrade_fact_vectors()
        # 3: BM25 statistics kept per scope (``EpisodeStats``) and each episode's length.
        self.count_episode_stats()
        # 4: a store with a vector file keeps its vectors there, not in the graph.
        if self.vectors is not None:
            self._move_vectors_out()
        self._write_atomic(
            [("MERGE (m:StoreMeta {id: 'layout'}) SET m.version = $version", {"version": STORE_LAYOUT_VERSION})]
        )
        return True

    def _upgrade_fact_vectors(self) -> None:
        """Turn fact vectors stored as plain lists into this dialect's vector type (nothing to do by default)."""

    def _move_vectors_out(self, batch: int = 2_000) -> None:
        """Move vectors an older release kept in the graph to the vector file, a batch at a time.

        Each batch is copied to the file first and then removed from the graph, so a
        process killed in between copies it again (a vector already kept stays).
        """
        assert self.vectors is not None
        kinds: tuple[tuple[VectorKind, str], ...] = (
            ("Episode", "(n:Episode {props})"),
            ("Entity", "(n:Entity {props})"),
            # No labels on the ends: FalkorDB would scan every entity for each id.
            ("Fact", "()-[n:FACT {props}]->()"),
        )
        for kind, pattern in kinds:
            while True:
                rows = self._read(
                    f"MATCH {pattern.format(props='')} WHERE n.embedding IS NOT NULL "
                    "RETURN n.id AS id, n.scope AS scope, n.embedding AS vector LIMIT $batch",
                    {"batch": batch},
                )
                if not rows:
                    break
                self.vectors.put([(kind, row["scope"], row["id"], row["vector"]) for row in rows])
                self._write_atomic(
                    [
                        (
                            f"UNWIND $ids AS id MATCH {pattern.format(props='{id: id}')} SET n.embedding = null",
                            {"ids": [row["id"] for row in rows]},
                        )
                    ]
                )
        self._drop_vector_indexes()

    def _drop_vector_indexes(self) -> None:
        """Drop the graph's vector indexes once their vectors live in the vector file (nothing by default)."""

    # -- writes ----------------------------------------------------------------------

    def write_episode(self, plan: EpisodeWrite) -> WriteCounts:
        """Write an episode with its entities, mentions and facts in one transaction (a batch of one).

        Writing the same episode again (a re-read after a failed reading) adds what is
        new and changes nothing else: a fact gains weight once per episode, an entity
        one mention per episode.

        Returns:
            What this write created, counted inside the transaction (see :meth:`write_plans`).
        """
        return self.write_plans([plan])[0]

    def write_episodes(self, plans: Sequence[EpisodeWrite]) -> WriteCounts:
        """Write many episodes in one transaction: all of them or none.

        The plans are written as if each had been written on its own, in the order
        given (see :meth:`write_plans`); the result is what the whole batch created.
        """
        counts = self.write_plans(plans)
        return WriteCounts(
            episodes=sum(c.episodes for c in counts),
            entities=sum(c.entities for c in counts),
            facts=sum(c.facts for c in counts),
        )

    def write_plans(self, plans: Sequence[EpisodeWrite]) -> list[WriteCounts]:
        """Write episode plans in one transaction and return what each one created.

        One statement per kind of row (episodes, entities, mentions, facts, fact
        updates, conflicts, merges, types, aliases), each ``UNWIND``-ing the rows of
        every plan in plan order. Both backends apply the rows of an ``UNWIND`` one
        after another, each seeing what the rows before it wrote, so a fact asserted by
        two plans gains weight twice and an entity mentioned by two plans counts two
        mentions, as when the plans are written one by one. The few effects that cross
        kinds are ordered explicitly: aliases are added in plan order by one statement,
        and a confidence lowered by an earlier plan's update is not raised back by a
        later plan's weaker assertion (:func:`_fact_rows`).

        Returns:
            One count per plan, counted inside the transaction (``MERGE ... ON CREATE``
            marks each node and fact with a one-off write id, read and cleared before it
            commits), so concurrent writers never both count the same entity. An entity
            or a fact counts for the first plan that holds it.
        """
        plans = list(plans)
        if not plans:
            return []
        write_id = uuid.uuid4().hex
        if self.vectors is not None:
            # Before the graph: a write that fails leaves vectors nothing refers to, never the reverse.
            self.vectors.put(plan_vectors(plans))
        if self.episode_index is not None:
            self.episode_index.put(plan_index_rows(plans))  # before the graph too, for the same reason
        rows = self._write_atomic(self.episode_statements(plans, write_id), result=self._created_by(plans, write_id))
        row = rows[0] if rows else {}
        episodes = set(row.get("episodes") or [])
        entities = {(scope, key) for scope, key in row.get("entities") or []}
        facts = set(row.get("facts") or [])
        counts: list[WriteCounts] = []
        for plan in plans:
            new_entities = {(plan.scope, entity.key) for entity in plan.entities} & entities
            new_facts = {fact.id for fact in plan.facts} & facts
            counts.append(WriteCounts(int(plan.episode.id in episodes), len(new_entities), len(new_facts)))
            episodes.discard(plan.episode.id)
            entities -= new_entities
            facts -= new_facts
        return counts

    def _created_by(self, plans: Sequence[EpisodeWrite], write_id: str) -> Statement:
        """The statement that lists, and unmarks, what one write created (run last in its transaction).

        Each lookup goes through an index (episode id, entity key, fact id), one per
        written row, so counting costs no more than the write.
        """
        return (
            # Three independent subqueries: one chain of WITHs would carry each list
            # through every later row (quadratic in the batch on FalkorDB).
            "CALL { UNWIND $episode_ids AS id MATCH (ep:Episode {id: id}) WHERE ep.write_id = $write "
            "SET ep.write_id = null RETURN collect(id) AS episodes } "
            "CALL { UNWIND $entities AS k MATCH (e:Entity {key: k[1]}) WHERE e.scope = k[0] AND e.write_id = $write "
            "SET e.write_id = null RETURN collect(k) AS entities } "
            # No labels on the ends: FalkorDB would scan every entity for each id.
            "CALL { UNWIND $facts AS id MATCH ()-[f:FACT {id: id}]->() WHERE f.write_id = $write "
            "SET f.write_id = null RETURN collect(id) AS facts } "
            "RETURN episodes, entities, facts",
            {
                "write": write_id,
                "episode_ids": sorted({plan.episode.id for plan in plans}),
                "entities": [
                    list(pair) for pair in sorted({(plan.scope, row.key) for plan in plans for row in plan.entities})
                ],
                "facts": sorted({row.id for plan in plans for row in plan.facts}),
            },
        )

    def episode_statements(self, plans: Sequence[EpisodeWrite], write_id: str | None = None) -> list[Statement]:
        """Build the parameterised statements that write episode plans, in order.

        Args:
            plans: Episodes with their entities, facts, decisions and merges.
            write_id: Marks what the statements create, for :meth:`write_plans` to count;
                a fresh one when not given.

        One statement per kind of row, and one row per thing a statement merges (an
        episode, an entity, a fact, a merge record): the rows of the plans are folded
        into it here, in plan order, so that the result is the one writing the plans
        one by one gives. A backend may apply the rows of one ``UNWIND ... MERGE`` in
        any order (FalkorDB applies the rows that match before those that create), so
        no statement relies on the order of its rows. Each plan is stamped with its own
        write time (one millisecond apart, in plan order), so the episodes of a batch
        keep the order of a conversation.
        """
        plans = list(plans)
        write = write_id or uuid.uuid4().hex
        stamps = write_stamps(len(plans))
        in_graph = self.vectors is None
        episode_rows = _episode_rows(plans, stamps, in_graph)
        statements: list[Statement] = [
            (
                "UNWIND $rows AS r "
                "MERGE (ep:Episode {id: r.id}) "
                "ON CREATE SET ep.scope = r.scope, ep.agent_id = r.agent_id, "
                "ep.session_id = r.session_id, ep.speaker = r.speaker, ep.source = r.source, "
                "ep.external_id = r.external_id, ep.search_text = r.search_text, "
                "ep.search_length = r.search_length, "
                "ep.text = r.text, ep.time = r.time, ep.created_at = r.now, ep.write_id = $write, "
                f"ep.embedding = {self._optional_vector('r.embedding')} "
                # How it was read this time: a re-read by a working model replaces a fallback.
                "SET ep.read_by = r.read_by",
                {"write": write, "rows": episode_rows},
            ),
            episode_stats_statement(write, [row["id"] for row in episode_rows]),
        ]
        entities = _entity_rows(plans, stamps, in_graph)
        if entities:
            # One statement per set of known types the rows are given (labels are not
            # parameters; another type is kept in ``e.type`` only): a handful of statements,
            # against a conditional clause per type on every row.
            by_types: dict[tuple[str, ...], list[Row]] = {}
            for row in entities:
                known = tuple(sorted(kind for kind in row.pop("types") if kind in ENTITY_TYPES))
                by_types.setdefault(known, []).append(row)
            for types, rows in by_types.items():
                labels = "".join(f":{cypher_identifier(name, ENTITY_TYPES)}" for name in types)
                add_labels = f", e{labels}" if labels else ""
                statements.append(
                    (
                        "UNWIND $rows AS r "
                        "MERGE (e:Entity {scope: r.scope, key: r.key}) "
                        "ON CREATE SET e.id = r.id, e.name = r.name, e.type = r.type, e.aliases = [], "
                        "e.mention_count = 0, e.first_seen = r.first_seen, e.search_text = r.search_text, "
                        f"e.write_id = $write, e.embedding = {self._optional_vector('r.embedding')} "
                        f"SET e.last_seen = r.last_seen{add_labels}",
                        {"write": write, "rows": rows},
                    )
                )
            mentions = {(plan.episode.id, plan.scope, row.key): None for plan in plans for row in plan.entities}
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (ep:Episode {id: r[0]}) "
                    "MATCH (e:Entity {scope: r[1], key: r[2]}) "
                    # Counted with the mention, so writing the episode again counts nothing twice.
                    "MERGE (ep)-[:MENTIONS]->(e) ON CREATE SET e.mention_count = e.mention_count + 1",
                    {"rows": [list(mention) for mention in mentions]},
                )
            )
        facts = _fact_rows(plans, stamps, in_graph)
        if facts:
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (s:Entity {scope: r.scope, key: r.subject_key}) "
                    "MATCH (o:Entity {scope: r.scope, key: r.object_key}) "
                    "MERGE (s)-[f:FACT {id: r.id}]->(o) "
                    "ON CREATE SET f.scope = r.scope, f.predicate = r.predicate, "
                    "f.predicate_key = r.predicate_key, f.weight = 0, f.confidence = r.confidence, "
                    "f.negated = r.negated, f.episode_ids = [], f.created_at = r.learnt, "
                    "f.valid_from = r.valid_from, f.schedule = r.schedule, f.status = r.status, "
                    "f.authority = r.authority, f.write_id = $write, "
                    f"f.derived_from = r.derived_from, f.embedding = {self._optional_vector('r.embedding')} "
                    # Weight counts episodes: an episode written again adds none.
                    "WITH f, r, [x IN r.episode_ids WHERE NOT x IN f.episode_ids] AS added "
                    "SET f.weight = f.weight + size(added), f.episode_ids = f.episode_ids + added, "
                    "f.updated_at = r.now, "
                    "f.confidence = CASE WHEN r.confidence > f.confidence THEN r.confidence ELSE f.confidence END, "
                    "f.authority = CASE WHEN r.authority > f.authority THEN r.authority ELSE f.authority END",
                    {"write": write, "rows": facts},
                )
            )
        updates = _fold_updates(
            _update_row(plan.scope, now, update)
            for plan, now in zip(plans, stamps, strict=True)
            for update in plan.fact_updates
        )
        if updates:
            statements.append(fact_updates_statement(updates))
        conflicts = {
            conflict.id: {
                **conflict.model_dump(include={"id", "kind", "subject", "predicate_key", "status", "decision"}),
                **conflict.model_dump(include={"decided_by", "reason", "decided_at"}),
                "scope": plan.scope,
                "episode_id": plan.episode.id,
                "created_at": conflict.created_at or now,
                "old_fact_id": conflict.old_fact.id,
                "new_fact_id": conflict.new_fact.id,
                # The whole record, so the review history survives later changes.
                "record": conflict.model_dump_json(),
            }
            for plan, now in zip(plans, stamps, strict=True)
            for conflict in plan.conflicts
        }
        if conflicts:
            statements.append(
                (
                    "UNWIND $rows AS c "
                    "MERGE (x:Conflict {id: c.id}) "
                    "SET x.scope = c.scope, x.kind = c.kind, x.subject = c.subject, "
                    "x.predicate_key = c.predicate_key, x.old_fact_id = c.old_fact_id, "
                    "x.new_fact_id = c.new_fact_id, x.status = c.status, x.decision = c.decision, "
                    "x.decided_by = c.decided_by, x.reason = c.reason, x.created_at = c.created_at, "
                    "x.decided_at = c.decided_at, x.episode_id = c.episode_id, x.record = c.record",
                    {"rows": list(conflicts.values())},
                )
            )
            # Decided now: off the review desk, in the same transaction as the decision
            # (also when another run paused on the same conflict and was left waiting).
            decided: dict[str, list[str]] = {}
            for row in conflicts.values():
                decided.setdefault(row["scope"], []).append(row["id"])
            statements.extend(close_conflicts_statement(scope, ids) for scope, ids in decided.items())
        statements.extend(self.merge_statements(plans, stamps))
        aliases = _alias_rows(plans)
        if aliases:
            # The spellings and the merged names, in plan order, each added once.
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (e:Entity {scope: r.scope, key: r.key}) "
                    "SET e.aliases = reduce(acc = coalesce(e.aliases, []), a IN r.aliases | "
                    "CASE WHEN a = e.name OR a IN acc THEN acc ELSE acc + a END)",
                    {"rows": aliases},
                )
            )
        return statements

    def delete_scope(self, scope: str) -> None:
        """Forget everything one agent's memory holds (other scopes are untouched)."""
        self._write_atomic([("MATCH (n) WHERE n.scope = $scope DETACH DELETE n", {"scope": scope})])
        if self.vectors is not None:
            self.vectors.delete_scope(scope)
        if self.episode_index is not None:
            self.episode_index.delete_scope(scope)

    # -- reads -----------------------------------------------------------------------

    def query_read_only(
        self,
        scope: str,
        query: str,
        params: dict[str, Any] | None = None,
        limit: int = 100,
        timeout_ms: int | None = None,
    ) -> list[Row]:
        """Run a generated (untrusted) query: checked, scoped, bounded, and executed read-only.

        The query is refused unless it is a plain read (``store.readonly``); every node
        pattern and ``FACT`` pattern is then pinned to ``$scope`` (``store.scoping``), so
        the query sees only this agent's memory whether or not it filters by scope, and
        a query that cannot be pinned safely is refused. It gets a ``LIMIT``, runs in the
        backend's read-only mode, and with ``timeout_ms`` is stopped by the server after
        that many milliseconds.

        Args:
            scope: The agent whose memory the query may read; passed as ``$scope``.
            query: One Cypher read, usually written by a model.
            params: Query parameters (a ``scope`` entry is overridden).
            limit: At most this many rows are returned.
            timeout_ms: Server-side time limit in milliseconds; None for none.

        Raises:
            UnsafeQueryError: If the query is not a plain read or cannot be scoped.
            StoreError: If the database refuses or fails it (a timeout included).
        """
        safe = scope_query(check_read_only(query), limit=limit)
        values = {**(params or {}), "scope": scope}
        self._check_read_plan(safe, values)
        # Each part of a UNION has its own LIMIT, so the rows are cut to the bound as well.
        return self._read(safe, values, timeout_ms=timeout_ms)[:limit]

    def _check_read_plan(self, query: str, params: dict[str, Any]) -> None:
        """Backend hook: ask the database whether the query is read-only (Neo4j EXPLAIN)."""

    def episode_exists(self, scope: str, episode_id: str) -> bool:
        """Return whether this episode was already stored."""
        return self.episode_reading(scope, episode_id) is not None

    def episode_reading(self, scope: str, episode_id: str) -> str | None:
        """Return how a stored episode was read (``EpisodeWrite.read_by``; "" if unrecorded), None if not stored."""
        return self.episode_readings(scope, [episode_id]).get(episode_id)

    def entities_by_keys(self, scope: str, keys: Iterable[str]) -> dict[str, Entity]:
        """Return the stored entities whose key is one of ``keys``, by key."""
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        rows = self._read(
            f"MATCH (e:Entity) WHERE e.scope = $scope AND e.key IN $keys RETURN {_ENTITY_COLUMNS}",
            {"scope": scope, "keys": wanted},
        )
        return {row["key"]: _entity(row) for row in rows}

    def search_entities_text(self, scope: str, text: str, k: int = 10) -> list[tuple[Entity, float]]:
        """Full-text search over entity names (segmented, so Chinese works)."""
        terms = fulltext_terms(text)
        if not terms:
            return []
        call, query_string = self._fulltext_query(terms)
        rows = self._read(
            f"{call} WITH node AS e, score WHERE e.scope = $scope "
            f"WITH e, score ORDER BY score DESC LIMIT $k RETURN {_ENTITY_COLUMNS}, score",
            {"query": query_string, "scope": scope, "k": k},
        )
        return [(_entity(row), float(row["score"])) for row in rows]

    def search_entities_vector(self, scope: str, vector: Sequence[float], k: int = 10) -> list[tuple[Entity, float]]:
        """Nearest entities by name embedding, as (entity, cosine similarity)."""
        rows = self._nearest("Entity", "e", _ENTITY_COLUMNS, scope, vector, k)
        return [(_entity(row), similarity) for row, similarity in rows]

    def search_entities_vector_many(
        self, scope: str, vectors: Sequence[Sequence[float]], k: int = 10
    ) -> list[list[tuple[Entity, float]]]:
        """``search_entities_vector`` for several vectors: with a vector file, one product and one read."""
        if self.vectors is None:
            return [self.search_entities_vector(scope, vector, k) for vector in vectors]
        found = self._nearest_many_in_file("Entity", "e", _ENTITY_COLUMNS, scope, vectors, k)
        return [[(_entity(row), similarity) for row, similarity in rows] for rows in found]

    def search_episodes_vector(self, scope: str, vector: Sequence[float], k: int = 10) -> list[tuple[Episode, float]]:
        """Nearest episodes by text embedding, as (episode, cosine similarity)."""
        rows = self._nearest("Episode", "ep", EPISODE_COLUMNS, scope, vector, k)
        return [(Episode(**_without(row, "score")), similarity) for row, similarity in rows]

    def _nearest(
        self, label: Literal["Entity", "Episode"], alias: str, columns: str, scope: str, vector: Sequence[float], k: int
    ) -> list[tuple[Row, float]]:
        if self.vectors is not None:
            return self._nearest_in_file(label, alias, columns, scope, vector, k)
        # The vector index spans every scope: fetch four times k, keep the scope's, best k.
        rows = self._read(
            f"{self._vector_query(label, '$fetch', '$vector')} "
            f"WITH node AS {alias}, score WHERE {alias}.scope = $scope "
            f"RETURN {columns}, score ORDER BY score LIMIT $fetch",
            {"scope": scope, "vector": list(map(float, vector)), "fetch": k * 4},
        )
        hits = [(row, self._vector_similarity(float(row["score"]))) for row in rows]
        hits.sort(key=lambda hit: hit[1], reverse=True)
        return hits[:k]

    def _nearest_in_file(
        self, label: Literal["Entity", "Episode"], alias: str, columns: str, scope: str, vector: Sequence[float], k: int
    ) -> list[tuple[Row, float]]:
        return self._nearest_many_in_file(label, alias, columns, scope, [vector], k)[0]

    def _nearest_many_in_file(
        self,
        label: Literal["Entity", "Episode"],
        alias: str,
        columns: str,
        scope: str,
        vectors: Sequence[Sequence[float]],
        k: int,
    ) -> list[list[tuple[Row, float]]]:
        # The file searches the scope alone (one product for every vector); the graph says
        # which hits still exist (a failed write's vectors never do). A few spare hits cover those.
        assert self.vectors is not None
        found = self.vectors.nearest_many(label, scope, {str(n): vector for n, vector in enumerate(vectors)}, k + 8)
        ids = sorted({identifier for hits in found.values() for identifier, _ in hits})
        if not ids:
            return [[] for _ in vectors]
        node = cypher_identifier(label, ("Entity", "Episode"))
        rows = self._read(
            f"UNWIND $ids AS id MATCH ({alias}:{node} {{id: id}}) WHERE {alias}.scope = $scope RETURN {columns}",
            {"ids": ids, "scope": scope},
        )
        by_id = {row["id"]: row for row in rows}
        return [
            [(by_id[identifier], score) for identifier, score in found.get(str(n), []) if identifier in by_id][:k]
            for n in range(len(vectors))
        ]

    def facts_touching(
        self,
        scope: str,
        entity_ids: Iterable[str],
        limit: int = 200,
        *,
        as_of: int | None = None,
        history: bool = False,
        similar_to: Sequence[float] | None = None,
        max_mentions: int | None = None,
    ) -> list[tuple[Fact, float | None]]:
        """Return facts with an end in ``entity_ids``, heaviest first, each with its similarity to a vector.

        Args:
            scope: The agent whose memory is read.
            entity_ids: Entities the facts must touch.
            limit: At most this many facts per direction.
            as_of: Milliseconds since the epoch: return what the broker believed then
                (created before, not yet retired) instead of current truth.
            history: Also return superseded facts (what used to be true).
            similar_to: A query vector: each fact's sentence embedding is scored against
                it in the store (cosine similarity; None for a fact stored without one).
                Vectors never cross the wire: a hub's hundreds of facts would be
                hundreds of 384-float lists to parse per question.
            max_mentions: Leave out the entities of ``entity_ids`` mentioned by more episodes
                than this (hubs: their ``mention_count``, kept by every write).

        Each end starts from the entity id index (``UNWIND`` over the ids), so the work
        grows with the facts of these entities, not with the graph.
        """
        ids = sorted(set(entity_ids))
        if not ids:
            return []
        if as_of is not None:
            # A fact rejected later (a denial) was believed until then; one rejected on
            # arrival (it lost its review) never was, and has no expired_at.
            condition = (
                "f.created_at <= $as_of AND (f.expired_at > $as_of "
                "OR (f.expired_at IS NULL AND f.status <> 'rejected'))"
            )
        else:
            condition = "f.status IN $statuses"
        statuses = ["active", "superseded"] if history else ["active"]
        # Sent only when the graph scores facts (the vector file scores them here): 384 floats
        # as query text, once for both directions.
        vector = [float(x) for x in similar_to] if similar_to is not None and self.vectors is None else None
        similarity = (
            f"CASE WHEN f.embedding IS NULL THEN null ELSE {self._cosine('f.embedding', '$vector')} END"
            if vector is not None
            else "null"
        )
        found: dict[str, tuple[Fact, float | None]] = {}
        hubs_left_out = "" if max_mentions is None else " AND coalesce({end}.mention_count, 0) <= $max_mentions"
        # The far end is unlabelled: with a label, FalkorDB scans every entity before expanding.
        for end in ("s", "o"):
            rows = self._read(
                f"UNWIND $ids AS id MATCH ({end}:Entity {{id: id}}) WHERE {end}.scope = $scope"
                f"{hubs_left_out.format(end=end)} "
                f"MATCH (s)-[f:FACT]->(o) WHERE f.scope = $scope AND {condition} "
                # Cut before scoring: a hub's thousands of facts are sorted, only the kept scored.
                "WITH s, f, o ORDER BY f.weight DESC, f.confidence DESC LIMIT $limit "
                f"RETURN {_FACT_COLUMNS}, {similarity} AS similarity",
                {
                    "scope": scope,
                    "ids": ids,
                    "limit": limit,
                    "as_of": as_of,
                    "statuses": statuses,
                    "vector": vector,
                    "max_mentions": max_mentions,
                },
            )
            for row in rows:
                score = row.pop("similarity")
                found[row["id"]] = (_fact(row), None if score is None else self._vector_similarity(float(score)))
        if similar_to is not None and self.vectors is not None:
            scores = self.vectors.similarities("Fact", scope, found, similar_to)
            return [(fact, scores.get(fact.id)) for fact, _ in found.values()]
        return list(found.values())

    def superseded_facts(self, scope: str, about: Iterable[tuple[str | None, str]], limit: int = 50) -> list[Fact]:
        """Return superseded facts of these (subject id, predicate key) pairs, most recently retired first.

        What an answer's history needs ("uses Node.js now; used Python before"): read from
        each subject's outgoing facts with the status and predicate checked before any sort,
        so a subject with thousands of facts returns its few retired ones, not its heaviest.
        """
        pairs = sorted({(subject, predicate) for subject, predicate in about if subject and predicate})
        if not pairs:
            return []
        rows = self._read(
            "UNWIND $about AS a MATCH (s:Entity {id: a[0]}) WHERE s.scope = $scope "
            # The far end is unlabelled: with a label, FalkorDB scans every entity before expanding.
            "MATCH (s)-[f:FACT]->(o) WHERE f.scope = $scope AND f.status = 'superseded' AND f.predicate_key = a[1] "
            "WITH s, f, o ORDER BY f.expired_at DESC, f.id LIMIT $limit "
            f"RETURN {_FACT_COLUMNS}",
            {"scope": scope, "about": [list(pair) for pair in pairs], "limit": limit},
        )
        return [_fact(row) for row in rows]

    def connecting_paths(
        self, scope: str, entity_ids: Iterable[str], max_length: int = 3, limit: int = 5
    ) -> list[list[str]]:
        """Return the shortest chains of active facts (at most three) between any two of the entities.

        Each path is a list of fact ids from one entity to the other; only paths of the
        shortest length that connects anything are returned, heaviest first, at most
        ``limit``. The search meets in the middle, in at most three reads, each
        starting from the id index: direct facts between the entities (all of them);
        then each entity's ``PATH_FANOUT`` heaviest facts, whose far ends two entities
        share (length two); then the facts joining one entity's far ends to
        another's (length three). A hub's lightest facts are left out of the longer
        paths: walking all of them (thousands, and their neighbours' in turn) cost
        half a second per question at 100k facts, and a path through a fact stated
        once among thousands is rarely the one a question is about.
        """
        ids = sorted(set(entity_ids))
        length = min(int(max_length), 3)
        if len(ids) < 2 or length < 1:
            return []
        active = "f.scope = $scope AND f.status = 'active'"
        direct = self._read(
            "UNWIND $ids AS id MATCH (a:Entity {id: id}) WHERE a.scope = $scope "
            # Far end unlabelled: with a label FalkorDB scans every entity first.
            f"MATCH (a)-[f:FACT]-(b) WHERE {active} AND b.id IN $ids AND a.id < b.id "
            "RETURN DISTINCT f.id AS id, f.weight AS weight",
            {"scope": scope, "ids": ids},
        )
        if direct or length < 2:
            return _heaviest([([row["id"]], [float(row["weight"] or 0)]) for row in direct], limit)
        near: dict[str, dict[str, tuple[str, float]]] = {entity: {} for entity in ids}
        for row in self._read(
            "UNWIND $ids AS id MATCH (a:Entity {id: id}) WHERE a.scope = $scope "
            f"CALL {{ WITH a MATCH (a)-[f:FACT]-(b) WHERE {active} "
            "RETURN f, b ORDER BY f.weight DESC, f.id LIMIT $fanout } "
            "RETURN a.id AS anchor, f.id AS fact, f.weight AS weight, b.id AS other",
            {"scope": scope, "ids": ids, "fanout": PATH_FANOUT},
        ):
            # One fact per far end: the heaviest (rows come heaviest first).
            near[row["anchor"]].setdefault(row["other"], (row["fact"], float(row["weight"] or 0)))
        pairs = [(a, b) for index, a in enumerate(ids) for b in ids[index + 1 :]]
        two = [
            ([near[a][middle][0], near[b][middle][0]], [near[a][middle][1], near[b][middle][1]])
            for a, b in pairs
            for middle in sorted(near[a].keys() & near[b].keys())
            if near[a][middle][0] != near[b][middle][0]
        ]
        if two or length < 3:
            return _heaviest(two, limit)
        frontier = sorted({other for reached in near.values() for other in reached} - set(ids))
        if not frontier:
            return []
        bridges = self._read(
            "UNWIND $frontier AS id MATCH (x:Entity {id: id}) WHERE x.scope = $scope "
            f"MATCH (x)-[f:FACT]-(y) WHERE {active} AND y.id IN $frontier AND x.id < y.id "
            "RETURN DISTINCT x.id AS x, y.id AS y, f.id AS fact, f.weight AS weight",
            {"scope": scope, "frontier": frontier},
        )
        three = []
        for row in bridges:
            weight = float(row["weight"] or 0)
            for a, b in pairs:
                for first, last in ((row["x"], row["y"]), (row["y"], row["x"])):
                    if first in near[a] and last in near[b]:
                        facts = [near[a][first][0], row["fact"], near[b][last][0]]
                        if len(set(facts)) == 3:
                            three.append((facts, [near[a][first][1], weight, near[b][last][1]]))
        return _heaviest(three, limit)

    def active_facts_about(self, scope: str, subject_ids: Iterable[str], predicate_keys: Iterable[str]) -> list[Fact]:
        """Return active facts whose subject and canonical predicate are among those given."""
        ids, keys = sorted(set(subject_ids)), sorted(set(predicate_keys))
        if not ids or not keys:
            return []
        rows = self._read(
            "UNWIND $ids AS id MATCH (s:Entity {id: id}) WHERE s.scope = $scope "
            "MATCH (s)-[f:FACT]->(o) WHERE f.scope = $scope AND f.predicate_key IN $keys AND f.status = 'active' "
            f"RETURN {_FACT_COLUMNS}",
            {"scope": scope, "ids": ids, "keys": keys},
        )
        return [_fact(row) for row in rows]

    def derived_closure(self, scope: str, fact_ids: Iterable[str], depth: int = 5) -> list[str]:
        """Return the ids of facts concluded from these facts, directly or through others."""
        frontier, seen = set(fact_ids), set(fact_ids)
        found: list[str] = []
        for _ in range(depth):
            if not frontier:
                break
            rows = self._read(
                "MATCH (:Entity)-[d:FACT]->(:Entity) "
                "WHERE d.scope = $scope AND any(x IN d.derived_from WHERE x IN $ids) RETURN d.id AS id",
                {"scope": scope, "ids": sorted(frontier)},
            )
            frontier = {row["id"] for row in rows} - seen
            seen |= frontier
            found.extend(sorted(frontier))
        return found

    def source_authorities(self, scope: str) -> dict[str, float]:
        """Return the authorities set with ``set_source_authority`` (lower-case names)."""
        rows = self._read(
            "MATCH (x:Source) WHERE x.scope = $scope RETURN x.name AS name, x.authority AS authority",
            {"scope": scope},
        )
        return {row["name"]: float(row["authority"]) for row in rows}

    def sources(self, scope: str) -> list[dict[str, Any]]:
        """Return every source with how many episodes came from it."""
        rows = self._read(
            "MATCH (ep:Episode) WHERE ep.scope = $scope RETURN ep.source AS name, count(ep) AS episodes ORDER BY name",
            {"scope": scope},
        )
        return [{"name": row["name"], "episodes": int(row["episodes"])} for row in rows]

    def set_source_authority(self, scope: str, name: str, authority: float) -> list[FactUpdate]:
        """Trust a source more or less; facts resting only on it (and facts derived from those) follow.

        Lowering a source's authority from a to b multiplies the confidence of every
        fact whose episodes all come from it by b/a, and does the same to the facts
        concluded from those facts. Raising it never inflates confidence.

        Returns:
            The updates applied, in one transaction.
        """
        if not 0.0 <= authority <= 1.0:
            raise ValueError(f"authority must be between 0 and 1, not {authority}")
        name = name.strip().lower()
        rows = self._read(
            "MATCH (:Entity)-[f:FACT]->(:Entity) WHERE f.scope = $scope "
            "UNWIND f.episode_ids AS eid MATCH (ep:Episode {id: eid}) WHERE ep.scope = $scope "
            "WITH f, collect(DISTINCT toLower(ep.source)) AS sources WHERE sources = [$name] "
            "RETURN f.id AS id, f.authority AS authority",
            {"scope": scope, "name": name},
        )
        updates: list[FactUpdate] = []
        lowered: dict[float, list[str]] = {}
        for row in rows:
            previous = float(row["authority"] if row["authority"] is not None else authority)
            factor = authority / previous if 0 < authority < previous else None
            if authority == 0:
                factor = 0.01
            updates.append(FactUpdate(fact_id=row["id"], authority=authority, confidence_factor=factor))
            if factor is not None:
                lowered.setdefault(factor, []).append(row["id"])
        for factor, ids in lowered.items():
            updates.extend(
                FactUpdate(fact_id=fid, confidence_factor=factor) for fid in self.derived_closure(scope, ids)
            )
        now = now_ms()
        statements: list[Statement] = [
            (
                "MERGE (x:Source {scope: $scope, name: $name}) SET x.authority = $authority, x.updated_at = $now",
                {"scope": scope, "name": name, "authority": authority, "now": now},
            )
        ]
        if updates:
            statements.append(fact_update_statement(scope, now, updates))
        self._write_atomic(statements)
        return updates

    def apply_feedback(
        self, scope: str, record: AnswerRecord, lowered: Sequence[FactUpdate], raised: Sequence[str], step: float
    ) -> None:
        """Keep a verdict on an answer and change its facts' confidence, in one transaction."""
        now = now_ms()
        statements: list[Statement] = [answer_statement(scope, record)]
        if lowered:
            statements.append(fact_update_statement(scope, now, lowered))
        if raised:
            statements.append(raise_confidence_statement(scope, raised, step, now))
        self._write_atomic(statements)

    def list_conflicts(self, scope: str, limit: int = 1000) -> list[Conflict]:
        """Return recorded (decided) conflicts, newest first (open ones: ``open_conflicts``)."""
        rows = self._read(
            "MATCH (x:Conflict) WHERE x.scope = $scope RETURN x.record AS record "
            "ORDER BY x.created_at DESC, x.id LIMIT $limit",
            {"scope": scope, "limit": limit},
        )
        return [Conflict.model_validate_json(row["record"]) for row in rows if row["record"]]

    def episodes_by_ids(self, scope: str, ids: Iterable[str]) -> list[Episode]:
        """Return the stored episodes with these ids (in no particular order)."""
        wanted = sorted(set(ids))
        if not wanted:
            return []
        rows = self._read(
            f"MATCH (ep:Episode) WHERE ep.scope = $scope AND ep.id IN $ids RETURN {EPISODE_COLUMNS}",
            {"scope": scope, "ids": wanted},
        )
        return [Episode(**row) for row in rows]

    def facts_by_ids(self, scope: str, ids: Iterable[str]) -> list[Fact]:
        """Return the facts of this scope with these ids, in the order given (unknown ids are skipped)."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        rows = self._read(
            # From the FACT id index; labelled ends made FalkorDB scan every entity first.
            f"UNWIND $ids AS id MATCH (s)-[f:FACT {{id: id}}]->(o) WHERE f.scope = $scope RETURN {_FACT_COLUMNS}",
            {"scope": scope, "ids": wanted},
        )
        by_id = {row["id"]: _fact(row) for row in rows}
        return [by_id[fact_id] for fact_id in wanted if fact_id in by_id]

    def list_facts(self, scope: str, entity_key: str | None = None, limit: int = 1000) -> list[Fact]:
        """List facts, optionally only those about one entity (by key)."""
        where = "f.scope = $scope"
        if entity_key is not None:
            where += " AND (s.key = $key OR o.key = $key)"
        rows = self._read(
            f"MATCH (s:Entity)-[f:FACT]->(o:Entity) WHERE {where} "
            f"RETURN {_FACT_COLUMNS} ORDER BY f.created_at, f.id LIMIT $limit",
            {"scope": scope, "key": entity_key, "limit": limit},
        )
        return [_fact(row) for row in rows]

    def list_entities(self, scope: str, limit: int = 1000) -> list[Entity]:
        """List entities, most mentioned first."""
        rows = self._read(
            f"MATCH (e:Entity) WHERE e.scope = $scope RETURN {_ENTITY_COLUMNS} "
            "ORDER BY e.mention_count DESC, e.name LIMIT $limit",
            {"scope": scope, "limit": limit},
        )
        return [_entity(row) for row in rows]

    def counts(self, scope: str) -> dict[str, int]:
        """Return how many episodes, entities and facts this scope holds."""
        patterns = {
            "episodes": "MATCH (n:Episode) WHERE n.scope = $scope",
            "entities": "MATCH (n:Entity) WHERE n.scope = $scope",
            "facts": "MATCH (:Entity)-[n:FACT]->(:Entity) WHERE n.scope = $scope",
        }
        counts = {}
        for name, pattern in patterns.items():
            rows = self._read(f"{pattern} RETURN count(n) AS n", {"scope": scope})
            counts[name] = int(rows[0]["n"]) if rows else 0
        return counts


def fact_update_statement(scope: str, now: int, updates: Sequence[FactUpdate]) -> Statement:
    """Return the statement that applies fact updates (status, validity, trust)."""
    return fact_updates_statement(_fold_updates(_update_row(scope, now, update) for update in updates))


def fact_updates_statement(rows: Sequence[Row]) -> Statement:
    """Return the statement that applies fact update rows (:func:`_update_row`), one row per fact."""
    return (
        "UNWIND $updates AS u "
        # No labels on the ends: the fact id index finds the fact (with them, FalkorDB scans every entity).
        "MATCH ()-[f:FACT {id: u.fact_id}]->() WHERE f.scope = u.scope "
        "SET f.status = coalesce(u.status, f.status), f.valid_to = coalesce(u.valid_to, f.valid_to), "
        "f.expired_at = coalesce(u.expired_at, f.expired_at), f.authority = coalesce(u.authority, f.authority), "
        "f.confidence = f.confidence * coalesce(u.confidence_factor, 1.0), f.updated_at = u.now",
        {"updates": list(rows)},
    )


def _update_row(scope: str, now: int, update: FactUpdate) -> Row:
    return {**update.model_dump(), "scope": scope, "now": now}


_stamp_lock = threading.Lock()
_last_stamp = 0


def write_stamps(count: int) -> list[int]:
    """Return ``count`` write times in milliseconds, increasing, and later than any given before.

    Episodes are ordered by when they were written (a conversation's turns, for the
    retrieval walk along a session), so the episodes of one batch, written at once, get
    consecutive milliseconds, and a batch written within a millisecond of the previous
    one still comes after it.
    """
    global _last_stamp
    with _stamp_lock:
        start = max(now_ms(), _last_stamp + 1)
        _last_stamp = start + count - 1
    return list(range(start, start + count))


def plan_vectors(plans: Sequence[EpisodeWrite]) -> list[VectorRow]:
    """The vectors of episode plans, for a store that keeps them out of the graph (in plan order)."""
    rows: list[VectorRow] = []
    for plan in plans:
        if plan.episode_embedding:
            rows.append(("Episode", plan.scope, plan.episode.id, plan.episode_embedding))
        rows.extend(
            ("Entity", plan.scope, entity_id(plan.scope, entity.key), entity.embedding)
            for entity in plan.entities
            if entity.embedding
        )
        rows.extend(("Fact", plan.scope, fact.id, fact.embedding) for fact in plan.facts if fact.embedding)
    return rows


def plan_index_rows(plans: Sequence[EpisodeWrite]) -> list[IndexedEpisode]:
    """The episodes of plans as the episode index keeps them, for a store that has one (in plan order)."""
    return [
        IndexedEpisode(
            plan.scope,
            plan.episode.id,
            episode_search_text(plan.episode.speaker, plan.episode.text),
            [entity_id(plan.scope, row.key) for row in plan.entities],
        )
        for plan in plans
    ]


def _episode_rows(plans: Sequence[EpisodeWrite], stamps: Sequence[int], vectors: bool = True) -> list[Row]:
    """One row per episode: as its first plan describes it, read as its last plan says (vectors if asked)."""
    rows: dict[str, Row] = {}
    for plan, now in zip(plans, stamps, strict=True):
        episode = plan.episode
        row = rows.setdefault(
            episode.id,
            {
                "id": episode.id,
                "scope": plan.scope,
                "agent_id": episode.agent_id,
                "session_id": episode.session_id,
                "speaker": episode.speaker,
                "source": episode.source,
                "text": episode.text,
                "search_text": (indexed := episode_search_text(episode.speaker, episode.text)),
                "search_length": search_length(indexed),
                "time": episode.time,
                "external_id": episode.external_id,
                "now": now,
                "embedding": (plan.episode_embedding or []) if vectors else [],
            },
        )
        row["read_by"] = plan.read_by
    return list(rows.values())


def _entity_rows(plans: Sequence[EpisodeWrite], stamps: Sequence[int], vectors: bool = True) -> list[Row]:
    """One row per entity of the plans: as its first plan names it, with every type it is given.

    Writing the plans one by one creates an entity from its first plan's row, stamps
    ``last_seen`` with its last plan's time and adds a label for every row's type.
    """
    rows: dict[tuple[str, str], Row] = {}
    for plan, now in zip(plans, stamps, strict=True):
        for entity in plan.entities:
            row = rows.get((plan.scope, entity.key))
            if row is None:
                row = rows[(plan.scope, entity.key)] = {
                    **entity.model_dump(include={"key", "name", "type", "search_text"}),
                    "scope": plan.scope,
                    "id": entity_id(plan.scope, entity.key),
                    "first_seen": now,
                    "embedding": (entity.embedding or []) if vectors else [],
                    "types": [],
                }
            row["last_seen"] = now
            if entity.type not in row["types"]:
                row["types"].append(entity.type)
    return list(rows.values())


def _fact_rows(plans: Sequence[EpisodeWrite], stamps: Sequence[int], vectors: bool = True) -> list[Row]:
    """One row per fact of the plans: created as its first plan states it, asserted by every plan.

    ``episode_ids`` lists the asserting episodes in plan order (each once); the
    confidence and authority are the highest asserted. Fact updates are written after
    every fact, so an assertion that follows an update lowering the same fact's
    confidence (facts concluded from a rejected one) would be compared with the
    confidence from before the update: its confidence is divided by the factors of
    the updates before it, which makes the confidence after the updates the one
    writing the plans one by one gives (the larger of two values scales alike).
    """
    rows: dict[str, Row] = {}
    factors: dict[str, float] = {}
    for plan, now in zip(plans, stamps, strict=True):
        for fact in plan.facts:
            confidence = fact.confidence / factors.get(fact.id, 1.0)  # factors are in (0, 1]
            row = rows.get(fact.id)
            if row is None:
                row = rows[fact.id] = {
                    **fact.model_dump(exclude={"is_new", "embedding"}),
                    "scope": plan.scope,
                    "learnt": plan.episode.learnt_at(),
                    "embedding": (fact.embedding or []) if vectors else [],
                    "episode_ids": [],
                }
            if plan.episode.id not in row["episode_ids"]:
                row["episode_ids"].append(plan.episode.id)
            row["confidence"] = max(row["confidence"], confidence)
            row["authority"] = max(row["authority"], fact.authority)
            row["now"] = now
        for update in plan.fact_updates:
            if update.confidence_factor is not None:
                factors[update.fact_id] = factors.get(update.fact_id, 1.0) * update.confidence_factor
    return list(rows.values())


def _fold_updates(rows: Iterable[Row]) -> list[Row]:
    """Fold fact update rows into one per fact: later values win, confidence factors multiply."""
    folded: dict[str, Row] = {}
    for row in rows:
        done = folded.get(row["fact_id"])
        if done is None:
            folded[row["fact_id"]] = dict(row)
            continue
        for name in ("status", "valid_to", "expired_at", "authority"):
            if row[name] is not None:
                done[name] = row[name]
        if row["confidence_factor"] is not None:
            done["confidence_factor"] = (done["confidence_factor"] or 1.0) * row["confidence_factor"]
        done["now"] = row["now"]
    return list(folded.values())


def _alias_rows(plans: Sequence[EpisodeWrite]) -> list[Row]:
    """One row per entity: the names it is given, in plan order (its spellings, then the names merged into it)."""
    rows: dict[tuple[str, str], Row] = {}
    for plan in plans:
        named = [(row.key, row.name) for row in plan.entities] + [(m.into_key, m.alias) for m in plan.merges]
        for key, name in named:
            row = rows.setdefault((plan.scope, key), {"scope": plan.scope, "key": key, "aliases": []})
            if name not in row["aliases"]:
                row["aliases"].append(name)
    return list(rows.values())


def entity_id(scope: str, key: str) -> str:
    """Return the id of the entity stored under ``key`` in ``scope``.

    Stable per (scope, key), so two processes creating the same entity agree on it;
    unambiguous (``schemas.ids.stable_id``), so no scope and key of another agent share it.
    """
    return stable_id("ent_", scope, key, length=16)


def _without(row: Row, *names: str) -> Row:
    return {name: value for name, value in row.items() if name not in names}


def _entity(row: Row) -> Entity:
    data = _without(row, "score", "key")
    data["aliases"] = list(data.get("aliases") or [])
    data["mention_count"] = int(data.get("mention_count") or 0)
    return Entity(**data)


def _fact(row: Row) -> Fact:
    data = dict(row)
    data["episode_ids"] = list(data.get("episode_ids") or [])
    data["negated"] = bool(data.get("negated"))
    data["weight"] = int(data.get("weight") or 0)
    data["derived_from"] = list(data.get("derived_from") or [])
    return Fact(**data)


def _heaviest(paths: Iterable[tuple[list[str], list[float]]], limit: int) -> list[list[str]]:
    """Return the paths (fact ids, their weights) heaviest first, each once, at most ``limit``."""
    unique = {tuple(facts): sum(weights) for facts, weights in paths}
    ordered = sorted(unique.items(), key=lambda item: (-item[1], item[0]))
    return [list(facts) for facts, _ in ordered[: max(int(limit), 0)]]
