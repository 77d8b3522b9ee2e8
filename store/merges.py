"""Store queries for entity identity: merge records, alias lookups and unmerge.

A mixin of ``GraphStore``: the Cypher here runs unchanged on FalkorDB and Neo4j and
goes through the backend's ``_read``/``_write_atomic``. Every value is a parameter;
the one label derived from data (the entity type of an entity re-created by unmerge)
goes through the allow-list sanitiser.

A merge is stored as ``(:Merge {scope, id, alias, alias_key, alias_type, into_key,
method, score, reason, episode_id, episode_ids, assertions, sole_episode_ids,
created_at, updated_at, undone_at})-[:MERGED_INTO]->(:Entity)``. ``assertions`` holds
``"episode_id|fact_id"`` strings: which facts reached the entity through the alias in
which episode, so unmerge can move exactly those (or split a fact that was also
asserted under another name). ``sole_episode_ids`` are the episodes that mentioned
the entity only through the alias: their ``MENTIONS`` move on unmerge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from elephant_broker.language.names import search_text
from elephant_broker.schemas.models import ENTITY_TYPES, EpisodeWrite, MergeRecord
from elephant_broker.store.sanitize import cypher_identifier

if TYPE_CHECKING:
    from elephant_broker.store.vectors import VectorFile

Statement = tuple[str, dict[str, Any]]

GENERIC_TYPES: tuple[str, ...] = ("Concept", "Thing")
"""Types a later, more specific type replaces on a stored entity (Concept -> Food)."""

_MERGE_COLUMNS = (
    "m.id AS id, m.alias AS alias, m.alias_key AS alias_key, m.alias_type AS alias_type, "
    "m.into_key AS into_key, e.name AS into_name, e.id AS into_id, m.method AS method, m.score AS score, "
    "m.reason AS reason, m.episode_id AS episode_id, m.episode_ids AS episode_ids, "
    "m.assertions AS assertions, m.sole_episode_ids AS sole_episode_ids, m.created_at AS created_at, "
    "m.updated_at AS updated_at, m.undone_at AS undone_at, m.restored_id AS restored_id"
)
_IDENTITY_COLUMNS = (
    "e.id AS id, e.key AS key, e.name AS name, e.type AS type, e.aliases AS aliases, "
    "e.alias_keys AS alias_keys, e.mention_count AS mention_count"
)


@dataclass
class EntityIdentity:
    """What identity resolution needs to know about a stored entity (including its key)."""

    id: str
    key: str
    name: str
    type: str = "Concept"
    aliases: list[str] = field(default_factory=list)
    alias_keys: list[str] = field(default_factory=list)
    mention_count: int = 0
    embedding: list[float] | None = None


@dataclass
class FactEnds:
    """A stored fact as unmerge sees it: its ends' keys and its provenance."""

    id: str
    subject_key: str
    object_key: str
    predicate_key: str
    negated: bool
    episode_ids: list[str]
    weight: int


@dataclass
class FactMove:
    """One fact to re-point from the merged entity to the restored one.

    ``new_id`` is None to move the whole fact (keeping its id); otherwise only the
    episodes in ``episode_ids`` move, as a new fact with ``new_id``, and the original
    keeps ``kept_episode_ids``.
    """

    fact_id: str
    side: str  # "subject" or "object"
    new_id: str | None = None
    episode_ids: list[str] = field(default_factory=list)
    kept_episode_ids: list[str] = field(default_factory=list)


@dataclass
class UnmergePlan:
    """Everything one unmerge writes, in one transaction."""

    scope: str
    merge_id: str
    into_key: str
    new_key: str
    new_id: str
    name: str
    type: str
    aliases: list[str]
    search_text: str
    embedding: list[float]
    first_seen: int | None
    last_seen: int | None
    mention_count: int
    episode_ids: list[str]
    sole_episode_ids: list[str]
    into_aliases: list[str]
    into_alias_keys: list[str]
    into_search_text: str
    moves: list[FactMove]
    now: int


class MergeQueries:
    """Identity queries shared by every backend."""

    if TYPE_CHECKING:

        def _read(self, query: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]: ...

        def _write_atomic(
            self, statements: Sequence[Statement], *, result: Statement | None = None
        ) -> list[dict[str, Any]]: ...

        def _optional_vector(self, expression: str) -> str: ...

        vectors: VectorFile | None

    # -- writes in the episode's transaction -----------------------------------------------

    def merge_statements(self, plans: Sequence[EpisodeWrite], stamps: Sequence[int]) -> list[Statement]:
        """Return the statements that record the plans' merges (run in their transaction).

        They run after the episodes' entities exist: a merge record is created (or, for
        an alias seen again, extended with the new episodes and their facts) and linked
        to the entity, the alias's key and words are added to the entity's
        ``alias_keys`` and search text, and a generic stored type (Concept) is replaced
        by the first specific one. The alias itself joins the entity's ``aliases`` with
        its other spellings (``GraphStore.episode_statements``). The plans' rows are
        folded into one row per merge record and one per entity, in plan order
        (``stamps`` are the plans' write times), so the records read as if the plans
        had been written one by one.
        """
        statements: list[Statement] = []
        records: dict[str, dict[str, Any]] = {}
        keyed: dict[tuple[str, str], dict[str, Any]] = {}
        for plan, now in zip(plans, stamps, strict=True):
            episode = plan.episode.id
            for merge in plan.merges:
                record = records.setdefault(
                    merge.id,
                    {
                        "scope": plan.scope,
                        "id": merge.id,
                        "alias": merge.alias,
                        "alias_key": merge.alias_key,
                        "alias_type": merge.alias_type,
                        "into_key": merge.into_key,
                        "method": merge.method,
                        "score": float(merge.score),
                        "reason": merge.reason,
                        "episode_id": episode,
                        "created_at": now,
                        "episode_ids": [],
                        "assertions": [],
                        "sole": [],
                    },
                )
                record["updated_at"] = now
                # An episode counts once: writing it again (a re-read) adds nothing.
                if episode not in record["episode_ids"]:
                    record["episode_ids"].append(episode)
                    record["assertions"].extend(f"{episode}|{fact_id}" for fact_id in merge.fact_ids)
                    record["sole"].extend([episode] if episode in merge.sole_episode_ids else [])
                entity = keyed.setdefault(
                    (plan.scope, merge.into_key), {"scope": plan.scope, "key": merge.into_key, "terms": []}
                )
                if merge.alias_key not in [key for key, _ in entity["terms"]]:
                    entity["terms"].append([merge.alias_key, search_text(merge.alias)])
        if records:
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (e:Entity {scope: r.scope, key: r.into_key}) "
                    "MERGE (m:Merge {id: r.id}) "
                    "ON CREATE SET m.scope = r.scope, m.alias = r.alias, m.alias_key = r.alias_key, "
                    "m.alias_type = r.alias_type, m.into_key = r.into_key, m.method = r.method, "
                    "m.score = r.score, m.reason = r.reason, m.episode_id = r.episode_id, "
                    "m.created_at = r.created_at, m.episode_ids = [], m.assertions = [], m.sole_episode_ids = [] "
                    # Episodes the record already holds (written before, re-read now) add nothing.
                    "WITH r, e, m, [x IN r.episode_ids WHERE NOT x IN m.episode_ids] AS added "
                    "SET m.updated_at = r.updated_at, m.episode_ids = m.episode_ids + added, "
                    "m.assertions = m.assertions + [a IN r.assertions WHERE split(a, '|')[0] IN added], "
                    "m.sole_episode_ids = m.sole_episode_ids + [x IN r.sole WHERE x IN added] "
                    "MERGE (m)-[:MERGED_INTO]->(e)",
                    {"rows": list(records.values())},
                )
            )
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (e:Entity {scope: r.scope, key: r.key}) "
                    "WITH e, [t IN r.terms WHERE NOT t[0] IN coalesce(e.alias_keys, [])] AS new "
                    "SET e.alias_keys = coalesce(e.alias_keys, []) + [t IN new | t[0]], "
                    "e.search_text = coalesce(e.search_text, '') + reduce(s = '', t IN new | s + ' ' + t[1])",
                    {"rows": list(keyed.values())},
                )
            )
        specific: dict[tuple[str, str], dict[str, Any]] = {}
        for plan in plans:
            for row in plan.entities:
                if row.type not in GENERIC_TYPES:
                    specific.setdefault((plan.scope, row.key), {"scope": plan.scope, "key": row.key, "type": row.type})
        if specific:
            statements.append(
                (
                    "UNWIND $rows AS r "
                    "MATCH (e:Entity {scope: r.scope, key: r.key}) "
                    "WHERE e.type IN $generic "
                    "SET e.type = r.type",
                    {"rows": list(specific.values()), "generic": list(GENERIC_TYPES)},
                )
            )
        return statements

    # -- reads for resolution --------------------------------------------------------------

    def identities_by_keys(self, scope: str, keys: Iterable[str]) -> dict[str, EntityIdentity]:
        """Return the stored entities whose key is one of ``keys``, by key."""
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        rows = self._read(
            f"MATCH (e:Entity) WHERE e.scope = $scope AND e.key IN $keys RETURN {_IDENTITY_COLUMNS}",
            {"scope": scope, "keys": wanted},
        )
        return {row["key"]: _identity(row) for row in rows}

    def identities_by_ids(
        self, scope: str, ids: Iterable[str], with_embeddings: bool = False
    ) -> dict[str, EntityIdentity]:
        """Return the stored entities with these ids, by id (with their name embeddings if asked)."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        extra = ", e.embedding AS embedding" if with_embeddings and self.vectors is None else ""
        rows = self._read(
            f"MATCH (e:Entity) WHERE e.scope = $scope AND e.id IN $ids RETURN {_IDENTITY_COLUMNS}{extra}",
            {"scope": scope, "ids": wanted},
        )
        if with_embeddings and self.vectors is not None:
            kept = self.vectors.vectors("Entity", scope, [row["id"] for row in rows])
            for row in rows:
                row["embedding"] = kept[row["id"]].tolist() if row["id"] in kept else None
        return {row["id"]: _identity(row) for row in rows}

    def active_merges(self, scope: str, alias_keys: Iterable[str]) -> list[MergeRecord]:
        """Return the merges not undone whose alias key is one of ``alias_keys`` (the alias table)."""
        wanted = sorted(set(alias_keys))
        if not wanted:
            return []
        rows = self._read(
            "MATCH (m:Merge)-[:MERGED_INTO]->(e:Entity) "
            "WHERE m.scope = $scope AND m.alias_key IN $keys AND m.undone_at IS NULL "
            f"RETURN {_MERGE_COLUMNS} ORDER BY m.created_at DESC",
            {"scope": scope, "keys": wanted},
        )
        return [_merge(row) for row in rows]

    def entity_keys_for_name(self, scope: str, name_key: str) -> list[str]:
        """Return the keys of every entity a name key denotes: its own, class variants, merged aliases."""
        rows = self._read(
            "MATCH (e:Entity) WHERE e.scope = $scope AND (e.key = $key OR e.key STARTS WITH $prefix) "
            "RETURN e.key AS key ORDER BY e.mention_count DESC",
            {"scope": scope, "key": name_key, "prefix": name_key + "#"},
        )
        keys = [row["key"] for row in rows]
        keys += [merge.into_key for merge in self.active_merges(scope, [name_key])]
        return list(dict.fromkeys(keys))

    # -- merge records -----------------------------------------------------------------------

    def list_merges(self, scope: str, limit: int = 1000) -> list[MergeRecord]:
        """List merge records, newest first, undone ones included (they are never deleted)."""
        rows = self._read(
            "MATCH (m:Merge)-[:MERGED_INTO]->(e:Entity) WHERE m.scope = $scope "
            f"RETURN {_MERGE_COLUMNS} ORDER BY m.created_at DESC, m.id LIMIT $limit",
            {"scope": scope, "limit": limit},
        )
        return [_merge(row) for row in rows]

    def get_merge(self, scope: str, merge_id: str) -> tuple[MergeRecord, list[tuple[str, str]]] | None:
        """Return one merge record and its ``(episode_id, fact_id)`` assertions, or None."""
        rows = self._read(
            f"MATCH (m:Merge {{id: $id}})-[:MERGED_INTO]->(e:Entity) WHERE m.scope = $scope RETURN {_MERGE_COLUMNS}",
            {"scope": scope, "id": merge_id},
        )
        if not rows:
            return None
        assertions = [tuple(item.split("|", 1)) for item in rows[0].get("assertions") or [] if "|" in item]
        return _merge(rows[0]), [(episode, fact) for episode, fact in assertions]

    def facts_with_ends(self, scope: str, fact_ids: Iterable[str]) -> list[FactEnds]:
        """Return stored facts by id with their ends' keys (what unmerge plans from)."""
        wanted = sorted(set(fact_ids))
        if not wanted:
            return []
        rows = self._read(
            "UNWIND $ids AS id MATCH (s)-[f:FACT {id: id}]->(o) WHERE f.scope = $scope "
            "RETURN f.id AS id, s.key AS subject_key, o.key AS object_key, f.predicate_key AS predicate_key, "
            "f.negated AS negated, f.episode_ids AS episode_ids, f.weight AS weight",
            {"scope": scope, "ids": wanted},
        )
        return [
            FactEnds(
                id=row["id"],
                subject_key=row["subject_key"],
                object_key=row["object_key"],
                predicate_key=row["predicate_key"],
                negated=bool(row["negated"]),
                episode_ids=list(row["episode_ids"] or []),
                weight=int(row["weight"] or 0),
            )
            for row in rows
        ]

    def apply_unmerge(self, plan: UnmergePlan) -> None:
        """Undo one merge in one transaction: all of it or nothing."""
        if self.vectors is not None:
            # Before the graph, as an episode write's: the restored entity's name vector and
            # a split fact's copy of its sentence vector.
            split = {move.fact_id: move.new_id for move in plan.moves if move.new_id is not None}
            facts = self.vectors.vectors("Fact", plan.scope, split)
            self.vectors.put(
                [
                    ("Entity", plan.scope, plan.new_id, plan.embedding),
                    *(
                        ("Fact", plan.scope, new_id, facts[old].tolist())
                        for old, new_id in split.items()
                        if old in facts
                    ),
                ]
            )
        self._write_atomic(self.unmerge_statements(plan))

    def unmerge_statements(self, plan: UnmergePlan) -> list[Statement]:
        """Build the statements of an unmerge.

        A relationship cannot be re-pointed in Cypher, so each moved fact is created
        on the restored entity with every property copied (``SET g = properties(f)``)
        and the old one deleted; a fact also asserted under another name is split
        instead (the copy takes the alias's episodes, the original keeps the rest).
        The merge record is marked undone and linked to the restored entity.
        """
        label = cypher_identifier(plan.type if plan.type in ENTITY_TYPES else "Concept", ENTITY_TYPES)
        base = {"scope": plan.scope, "into": plan.into_key, "new": plan.new_key}
        statements: list[Statement] = [
            (
                "MERGE (n:Entity {scope: $scope, key: $new}) "
                "ON CREATE SET n.id = $id, n.name = $name, n.type = $type, n.aliases = $aliases, "
                "n.alias_keys = [], n.mention_count = 0, n.first_seen = $first_seen, "
                f"n.search_text = $search_text, n.embedding = {self._optional_vector('$embedding')} "
                f"SET n.mention_count = n.mention_count + $mentions, n.last_seen = $last_seen, n:{label}",
                {
                    **base,
                    "id": plan.new_id,
                    "name": plan.name,
                    "type": plan.type,
                    "aliases": plan.aliases,
                    "first_seen": plan.first_seen,
                    "last_seen": plan.last_seen,
                    "search_text": plan.search_text,
                    "embedding": plan.embedding if self.vectors is None else [],
                    "mentions": plan.mention_count,
                },
            )
        ]
        for side, pattern, created in (
            ("subject", "(e:Entity {scope: $scope, key: $into})-[f:FACT {id: r.id}]->(x:Entity)", "(n)-[g:FACT]->(x)"),
            ("object", "(x:Entity)-[f:FACT {id: r.id}]->(e:Entity {scope: $scope, key: $into})", "(x)-[g:FACT]->(n)"),
        ):
            moved = [{"id": move.fact_id} for move in plan.moves if move.side == side and move.new_id is None]
            if moved:
                statements.append(
                    (
                        f"UNWIND $rows AS r MATCH {pattern} WHERE f.scope = $scope "
                        f"MATCH (n:Entity {{scope: $scope, key: $new}}) CREATE {created} "
                        "SET g = properties(f) DELETE f",
                        {**base, "rows": moved},
                    )
                )
            split = [
                {
                    "id": move.fact_id,
                    "new_id": move.new_id,
                    "moved": move.episode_ids,
                    "kept": move.kept_episode_ids,
                }
                for move in plan.moves
                if move.side == side and move.new_id is not None
            ]
            if split:
                statements.append(
                    (
                        f"UNWIND $rows AS r MATCH {pattern} WHERE f.scope = $scope "
                        f"MATCH (n:Entity {{scope: $scope, key: $new}}) CREATE {created} "
                        "SET g = properties(f) "
                        "SET g.id = r.new_id, g.episode_ids = r.moved, g.weight = size(r.moved), "
                        "g.split_from = f.id, g.updated_at = $now "
                        "SET f.episode_ids = r.kept, f.weight = size(r.kept), f.updated_at = $now",
                        {**base, "rows": split, "now": plan.now},
                    )
                )
        if plan.episode_ids:
            statements.append(
                (
                    "UNWIND $episodes AS eid MATCH (ep:Episode {id: eid}) WHERE ep.scope = $scope "
                    "MATCH (n:Entity {scope: $scope, key: $new}) MERGE (ep)-[:MENTIONS]->(n)",
                    {**base, "episodes": plan.episode_ids},
                )
            )
        if plan.sole_episode_ids:
            statements.append(
                (
                    "UNWIND $episodes AS eid "
                    "MATCH (ep:Episode {id: eid})-[r:MENTIONS]->(e:Entity {scope: $scope, key: $into}) "
                    "WHERE ep.scope = $scope DELETE r",
                    {**base, "episodes": plan.sole_episode_ids},
                )
            )
        statements.append(
            (
                "MATCH (e:Entity {scope: $scope, key: $into}) "
                "SET e.aliases = $aliases, e.alias_keys = $alias_keys, e.search_text = $search_text, "
                "e.mention_count = CASE WHEN e.mention_count > $sole THEN e.mention_count - $sole ELSE 1 END",
                {
                    **base,
                    "aliases": plan.into_aliases,
                    "alias_keys": plan.into_alias_keys,
                    "search_text": plan.into_search_text,
                    "sole": len(plan.sole_episode_ids),
                },
            )
        )
        statements.append(
            (
                "MATCH (m:Merge {id: $merge_id}) WHERE m.scope = $scope "
                "MATCH (n:Entity {scope: $scope, key: $new}) "
                "SET m.undone_at = $now, m.restored_id = n.id, m.restored_key = n.key "
                "MERGE (m)-[:RESTORED_AS]->(n)",
                {**base, "merge_id": plan.merge_id, "now": plan.now},
            )
        )
        return statements


def _identity(row: dict[str, Any]) -> EntityIdentity:
    return EntityIdentity(
        id=row["id"],
        key=row["key"],
        name=row["name"],
        type=row.get("type") or "Concept",
        aliases=list(row.get("aliases") or []),
        alias_keys=list(row.get("alias_keys") or []),
        mention_count=int(row.get("mention_count") or 0),
        embedding=[float(x) for x in row["embedding"]] if row.get("embedding") else None,
    )


def _merge(row: dict[str, Any]) -> MergeRecord:
    assertions = [item.split("|", 1)[1] for item in row.get("assertions") or [] if "|" in item]
    return MergeRecord(
        id=row["id"],
        alias=row["alias"],
        alias_key=row["alias_key"],
        alias_type=row.get("alias_type") or "Concept",
        into_key=row["into_key"],
        into_name=row.get("into_name"),
        into_id=row.get("into_id"),
        method=row["method"],
        score=min(max(float(row.get("score") or 0.0), 0.0), 1.0),
        reason=row.get("reason") or "",
        episode_id=row.get("episode_id"),
        episode_ids=list(dict.fromkeys(row.get("episode_ids") or [])),
        fact_ids=list(dict.fromkeys(assertions)),
        sole_episode_ids=list(dict.fromkeys(row.get("sole_episode_ids") or [])),
        created_at=row.get("created_at"),
        updated_at=row.get("updated_at"),
        undone_at=row.get("undone_at"),
        restored_id=row.get("restored_id"),
    )
