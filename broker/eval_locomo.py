"""``elephant eval locomo``: evidence recall@k on LoCoMo conversations, against a dense baseline.

Every turn of every conversation is ingested as an episode (speaker, session, session
date as time, ``dia_id`` as the episode's ``external_id``), one agent id per
conversation. For each answerable question (categories 1-4; 5 is adversarial) the
episodes ``ask`` itself cites (``Broker.ask(...).episodes``, best first: the one
retriever of ``domain.retrieval`` with the ``ANSWER`` recipe) are compared with the gold
evidence turns: recall = |gold ∩ top-k| / |gold|, averaged over questions, overall and
per category. An answer cites at most ``ANSWER.limit`` (10) episodes, so the cut-offs
stop there; ``Broker.recall`` (the same retriever, recipe ``RECALL``) is reported beside
it as ``recall_baseline``.
The baseline ranks the same turns, embedded as "speaker: text", by cosine similarity to
the question with the same embedder, computed in the same run, so the figures are
comparable on any machine; the text alone (no speaker) is reported as a weaker reference.
The dataset is read from the path given; nothing is downloaded or copied. Running again
with the same data directory (``--home``) reuses the stored turns: only the questions
are asked again.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from elephant_broker.broker.api import Broker
from elephant_broker.domain.retrieval import ANSWER
from elephant_broker.providers.resources import get_embeddings
from elephant_broker.schemas.models import Perception

ANSWERABLE = {1, 2, 3, 4}
_SESSION = re.compile(r"^session_(\d+)$")

Progress = Callable[[str, int, int], None]


def load_conversations(path: Path) -> list[dict[str, Any]]:
    """Read a LoCoMo JSON file (a list of samples with ``conversation`` and ``qa``).

    Raises:
        ValueError: If the file is not in LoCoMo's format.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error.msg})") from error
    if not isinstance(data, list) or not all(isinstance(s, dict) and "conversation" in s and "qa" in s for s in data):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo samples with 'conversation' and 'qa'")
    return data


def turns_of(sample: dict[str, Any], agent_id: str) -> list[Perception]:
    """Return one perception per turn, in session order, with the turn's dia_id kept."""
    conversation = sample["conversation"]
    sessions = sorted((int(match.group(1)), key) for key in conversation if (match := _SESSION.match(key)) is not None)
    turns: list[Perception] = []
    for _, key in sessions:
        when = conversation.get(f"{key}_date_time")
        for turn in conversation[key]:
            text = str(turn.get("text") or "").strip()
            if turn.get("blip_caption"):
                # Shared photos are part of what was said ("[shares a photo of ...]").
                text = f"{text} [shares a photo: {turn['blip_caption']}]".strip()
            if not text:
                continue
            turns.append(
                Perception(
                    text=text,
                    speaker=turn.get("speaker"),
                    session_id=key,
                    time=when,
                    source="locomo",
                    agent_id=agent_id,
                    external_id=turn.get("dia_id"),
                )
            )
    return turns


def evaluate(
    broker: Broker, path: Path, ks: Sequence[int] = (5, 10), progress: Progress | None = None
) -> dict[str, Any]:
    """Run the evaluation and return ``{"questions", "broker", "recall_baseline", "dense_baseline", ...}``.

    Raises:
        ValueError: If a cut-off is below 1 or above what an answer cites (``ANSWER.limit``).
    """
    ks = sorted(set(ks))
    if not ks or ks[0] < 1 or ks[-1] > ANSWER.limit:
        raise ValueError(f"cut-offs must be from 1 to {ANSWER.limit} (the episodes an answer cites), not {ks}")
    samples = load_conversations(path)
    hits: dict[str, dict[str, list[dict[int, float]]]] = {
        "broker": defaultdict(list),
        "recall": defaultdict(list),
        "dense": defaultdict(list),
        "dense_speaker": defaultdict(list),
    }
    embeddings = get_embeddings(broker.context)
    total_questions = sum(1 for s in samples for q in s["qa"] if q.get("category") in ANSWERABLE)
    done = 0
    for index, sample in enumerate(samples):
        agent = f"locomo-{sample.get('sample_id') or index}"
        turns = turns_of(sample, agent)
        ingested = 0

        def report_ingest(_report: Any, agent: str = agent, total: int = len(turns)) -> None:
            nonlocal ingested
            ingested += 1
            if progress:
                progress(f"ingesting {agent}", ingested, total)

        # A data directory reused from an earlier run skips the turns it holds (turns
        # stored before the episode full-text index were indexed when the store opened).
        broker.remember_many(turns, on_each=report_ingest)
        turn_ids = [turn.external_id for turn in turns]
        turn_vectors = np.asarray(embeddings.embed_documents([turn.text for turn in turns]), dtype=np.float32)
        # The baseline embeds "speaker: text" (who said it is part of a chat turn); the
        # text alone is reported too, as a weaker reference.
        speaker_vectors = np.asarray(
            embeddings.embed_documents([f"{turn.speaker}: {turn.text}" for turn in turns]), dtype=np.float32
        )
        for qa in sample["qa"]:
            category = qa.get("category")
            gold = {str(e) for e in qa.get("evidence") or []}
            if category not in ANSWERABLE or not gold:
                continue
            question = str(qa["question"])
            ranked_broker = [ep.external_id for ep in broker.ask(question, agent_id=agent).episodes]
            ranked_recall = [ep.external_id for ep in broker.recall(question, k=max(ks), agent_id=agent)]
            query = np.asarray(embeddings.embed_query(question), dtype=np.float32)
            ranked_dense = [turn_ids[i] for i in np.argsort(-(turn_vectors @ query))[: max(ks)]]
            ranked_speaker = [turn_ids[i] for i in np.argsort(-(speaker_vectors @ query))[: max(ks)]]
            for name, ranked in (
                ("broker", ranked_broker),
                ("recall", ranked_recall),
                ("dense", ranked_dense),
                ("dense_speaker", ranked_speaker),
            ):
                hits[name][str(category)].append({k: len(gold & set(filter(None, ranked[:k]))) / len(gold) for k in ks})
            done += 1
            if progress:
                progress("asking", done, total_questions)
    return {
        "questions": done,
        "broker": _summary(hits["broker"], ks),
        "recall_baseline": _summary(hits["recall"], ks),
        "dense_baseline": _summary(hits["dense_speaker"], ks),
        "dense_text_only_baseline": _summary(hits["dense"], ks),
    }


def _summary(by_category: dict[str, list[dict[int, float]]], ks: Sequence[int]) -> dict[str, Any]:
    everything = [recalls for rows in by_category.values() for recalls in rows]
    summary: dict[str, Any] = {f"recall@{k}": _mean([r[k] for r in everything]) for k in ks}
    summary["by_category"] = {
        category: {f"recall@{k}": _mean([r[k] for r in rows]) for k in ks} | {"questions": len(rows)}
        for category, rows in sorted(by_category.items())
    }
    return summary


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0
