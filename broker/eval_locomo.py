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

With ``answers``, the answers are scored too: token F1 (SQuAD's: lower case, no
punctuation or articles, bag of words) of ``ask``'s answer value against the gold answer,
per category 1-4 (an abstention scores 0), and for category 5 (adversarial: the memory does
not answer) the share of questions ``ask`` abstained on. Beside it, in the same run, an
extractive baseline that always answers: the sentence of the top dense turn sharing the
most words with the question. ``f1_without_abstention`` scores ``ask`` as if it never
abstained (an abstention replaced by that baseline's sentence from the closest memory
``ask`` listed), so the cost of abstaining on answerable questions is visible.
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from elephant_broker.broker.api import Broker
from elephant_broker.domain.retrieval import ANSWER
from elephant_broker.language.extract import split_sentences
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


UNANSWERABLE = 5
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def answer_tokens(text: str) -> list[str]:
    """SQuAD's answer normalisation: lower case, punctuation and articles removed, split on spaces."""
    text = "".join(ch for ch in text.casefold() if ch not in set(string.punctuation))
    return _ARTICLES.sub(" ", text).split()


def token_f1(predicted: str, gold: str) -> float:
    """Token-overlap F1 of an answer against the gold answer (0 when either is empty)."""
    said, wanted = answer_tokens(predicted), answer_tokens(gold)
    common = sum((Counter(said) & Counter(wanted)).values())
    if not common:
        return 0.0
    precision, recall = common / len(said), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def best_sentence(text: str, question: str) -> str:
    """The sentence of ``text`` sharing the most words with the question (the first on a tie)."""
    asked = set(answer_tokens(question))
    sentences = split_sentences(text) or [text]
    return max(sentences, key=lambda sentence: len(asked & set(answer_tokens(sentence))))


class AnswerScores:
    """Answer F1 by category and abstention counts, for one answerer."""

    def __init__(self) -> None:
        self.f1: dict[str, list[float]] = defaultdict(list)
        self.forced_f1: dict[str, list[float]] = defaultdict(list)
        self.abstained: Counter[str] = Counter()
        self.asked: Counter[str] = Counter()

    def add(self, category: int, answered: bool, f1: float = 0.0, forced_f1: float | None = None) -> None:
        """Count one question: whether it was answered, and (categories 1-4) its F1 with and without abstaining."""
        key = str(category)
        self.asked[key] += 1
        self.abstained[key] += not answered
        if category != UNANSWERABLE:
            self.f1[key].append(f1)
            self.forced_f1[key].append(f1 if forced_f1 is None else forced_f1)

    def summary(self) -> dict[str, Any]:
        """``{"f1", "f1_without_abstention", "abstained_unanswerable", "abstained_answerable", "by_category"}``."""
        answerable = [key for key in self.asked if key != str(UNANSWERABLE)]
        asked_answerable = sum(self.asked[key] for key in answerable)
        return {
            "f1": _mean([value for key in answerable for value in self.f1[key]]),
            "f1_without_abstention": _mean([value for key in answerable for value in self.forced_f1[key]]),
            "abstained_unanswerable": round(self.abstained[str(UNANSWERABLE)] / self.asked[str(UNANSWERABLE)], 4)
            if self.asked[str(UNANSWERABLE)]
            else None,
            "abstained_answerable": round(sum(self.abstained[key] for key in answerable) / asked_answerable, 4)
            if asked_answerable
            else None,
            "by_category": {
                key: {"questions": self.asked[key], "abstained": self.abstained[key]}
                | ({"f1": _mean(self.f1[key])} if key != str(UNANSWERABLE) else {})
                for key in sorted(self.asked)
            },
        }


def evaluate(
    broker: Broker,
    path: Path,
    ks: Sequence[int] = (5, 10),
    progress: Progress | None = None,
    *,
    answers: bool = False,
) -> dict[str, Any]:
    """Run the evaluation and return ``{"questions", "broker", "recall_baseline", "dense_baseline", ...}``.

    With ``answers``, also ``"answers": {"broker": ..., "extractive_baseline": ...}``
    (``AnswerScores.summary``), category 5 included.

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
    scored = ANSWERABLE | {UNANSWERABLE} if answers else ANSWERABLE
    total_questions = sum(1 for s in samples for q in s["qa"] if q.get("category") in scored)
    answer_scores = {"broker": AnswerScores(), "extractive_baseline": AnswerScores()}
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
        turn_texts = {turn.external_id: turn.text for turn in turns}
        for qa in sample["qa"]:
            category = qa.get("category")
            gold = {str(e) for e in qa.get("evidence") or []}
            if category not in scored or (category in ANSWERABLE and not gold):
                continue
            question = str(qa["question"])
            answer = broker.ask(question, agent_id=agent)
            query = np.asarray(embeddings.embed_query(question), dtype=np.float32)
            ranked_speaker = [turn_ids[i] for i in np.argsort(-(speaker_vectors @ query))[: max(ks)]]
            if answers:
                top_turn = turn_texts.get(ranked_speaker[0], "") if ranked_speaker else ""
                baseline = best_sentence(top_turn, question) if top_turn else ""
                gold_answer = str(qa.get("answer", ""))
                closest = (answer.episodes or answer.related.episodes)[:1]
                forced = best_sentence(closest[0].text, question) if closest else ""
                answer_scores["broker"].add(
                    category,
                    answer.answered,
                    token_f1(answer.value, gold_answer) if answer.answered else 0.0,
                    token_f1(answer.value if answer.answered else forced, gold_answer),
                )
                answer_scores["extractive_baseline"].add(category, True, token_f1(baseline, gold_answer))
            if category not in ANSWERABLE or not gold:
                done += 1
                if progress:
                    progress("asking", done, total_questions)
                continue
            # An answer that abstains still lists what it found, as related memories.
            ranked_broker = [ep.external_id for ep in (answer.episodes or answer.related.episodes)]
            ranked_recall = [ep.external_id for ep in broker.recall(question, k=max(ks), agent_id=agent)]
            ranked_dense = [turn_ids[i] for i in np.argsort(-(turn_vectors @ query))[: max(ks)]]
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
    result = {
        "questions": sum(len(rows) for rows in hits["broker"].values()),
        "broker": _summary(hits["broker"], ks),
        "recall_baseline": _summary(hits["recall"], ks),
        "dense_baseline": _summary(hits["dense_speaker"], ks),
        "dense_text_only_baseline": _summary(hits["dense"], ks),
    }
    if answers:
        result["answers"] = {name: scores.summary() for name, scores in answer_scores.items()}
    return result


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
