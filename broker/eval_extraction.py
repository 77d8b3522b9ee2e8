"""``elephant eval extraction``: how well the Reader finds who-relates-to-what in a corpus.

Each sentence of a DuIE 2.0 (Chinese, JSON Lines) or WebNLG (English, a JSON array) file,
or each line of a statements file (JSON Lines of ``{"speaker", "text", "facts": [[subject,
predicate, object], ...]}``: what someone said, and the facts a careful memory keeps of it,
first person written as the speaker's name; ``[]`` when nothing should be kept) is read as
the broker reads a text, by the offline rules or by a chat model, and the entity pairs it
finds are scored against the gold triples:

- **Pairs, directed.** A quintuple counts as its (subject, object) pair; the predicate is
  not compared, because the corpora's relation names (DuIE's 48, WebNLG's 216 DBpedia
  properties) are not the broker's open predicates. A negated quintuple ("Ann no longer
  works at X") states that a pair does not hold, so it is no predicted pair.
- **Exact** matching compares names folded for width, case and spaces (NFKC, casefold,
  whitespace removed): "Serie B" matches "serie b" and "ＡＢＣ" matches "abc".
- **Lenient** matching lets one folded name contain the other, at each end: a predicted
  "the comics character Bolt" matches the gold "Bolt", and 《甄嬛传》 matches 甄嬛传.
- **WebNLG texts** are pre-tokenised ("A.F.C . Blackpool", "Pennsylvania ,", ``quotes''):
  they are joined back the way the text is written ("A.F.C. Blackpool") before reading,
  since a user's text comes as written. Gold names need no joining: spaces are folded away.
- **Precision** is the share of distinct predicted pairs of a sentence that match a gold
  pair of that sentence; **recall** the share of distinct gold pairs that some predicted
  pair matches; F1 their harmonic mean, over the whole file.

A sentence on which the Reader raises is counted under ``exceptions`` (it must be none: a
real ingest stores such a text without facts), scored as predicting nothing, and the run
goes on. ``sentences_per_s`` is the Reader's own time, not the file's loading.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from elephant_broker.domain.reading import read
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.schemas.models import DEFAULT_SPEAKER, Quintuple

Format = Literal["duie", "webnlg", "statements"]
FORMATS: tuple[Format, ...] = ("duie", "webnlg", "statements")
Pair = tuple[str, str]

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Sentence:
    """A sentence of a corpus, its gold (subject, object) pairs as written, and who said it."""

    text: str
    gold: tuple[Pair, ...]
    speaker: str = DEFAULT_SPEAKER


def fold(name: str) -> str:
    """Return a name folded for matching: NFKC width folding, case folding, no whitespace."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", name).casefold())


def corpus_format(name: str) -> Format:
    """Return ``name`` as a corpus format.

    Raises:
        ValueError: If it is not one of ``FORMATS``.
    """
    for known in FORMATS:
        if name == known:
            return known
    raise ValueError(f"--format must be one of {', '.join(FORMATS)}, not {name!r}")


def load_sentences(path: Path, file_format: str) -> list[Sentence]:
    """Read a corpus file: DuIE 2.0 JSON Lines, a WebNLG JSON array or statements JSON Lines.

    Raises:
        ValueError: Naming the file and the line or item that is not of the format,
            or the format when it is not one of ``FORMATS``.
    """
    file_format = corpus_format(file_format)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {path}: {error}") from error
    readers = {"duie": _duie, "webnlg": _webnlg, "statements": _statements}
    return list(readers[file_format](raw, path))


def _duie(raw: str, path: Path) -> Iterator[Sentence]:
    def sentence(item: Any) -> Sentence:
        gold = tuple((str(spo["subject"]), str(_value(spo["object"]))) for spo in item.get("spo_list") or [])
        return Sentence(str(item["text"]), gold)

    return _json_lines(raw, path, "a DuIE line", sentence)


def _statements(raw: str, path: Path) -> Iterator[Sentence]:
    def sentence(item: Any) -> Sentence:
        gold = tuple((str(subject), str(obj)) for subject, _predicate, obj in item["facts"])
        return Sentence(str(item["text"]), gold, str(item.get("speaker") or DEFAULT_SPEAKER))

    return _json_lines(raw, path, "a statements line", sentence)


def _json_lines(raw: str, path: Path, kind: str, sentence: Callable[[Any], Sentence]) -> Iterator[Sentence]:
    """One sentence per non-blank JSON line; a line that is not of the format names the file and line."""
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield sentence(json.loads(line))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"{path}:{number}: not {kind} ({error})") from error


def _value(slot: Any) -> Any:
    # DuIE objects are {"@value": ...} (with extra slots such as inWork on some predicates).
    return slot["@value"] if isinstance(slot, dict) else slot


def _webnlg(raw: str, path: Path) -> Iterator[Sentence]:
    try:
        items = json.loads(raw)
    except ValueError as error:
        raise ValueError(f"{path}: not JSON ({error})") from error
    if not isinstance(items, list):
        raise ValueError(f"{path}: a WebNLG file is a JSON array of sentences")
    for number, item in enumerate(items):
        try:
            gold = tuple((str(triple[0]), str(triple[2])) for triple in item.get("triple_list") or [])
            yield Sentence(detokenized(str(item["text"])), gold)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError(f"{path}: item {number} is not a WebNLG sentence ({error})") from error


_QUOTED = re.compile(r"``\s*(.*?)\s*''")
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?)%]|'s\b|'(?=\s|$)|n't\b)")
_SPACE_AFTER = re.compile(r"\(\s+")


def detokenized(text: str) -> str:
    """Join a Penn-Treebank-tokenised text back as written: "Rome , Italy ." -> "Rome, Italy.".

    Quotes written ``like this'' become "like this"; no space before , . ; : ! ? ) % 's n't
    nor after (.
    """
    text = _QUOTED.sub(r'"\1"', text)
    text = _SPACE_BEFORE.sub(r"\1", text)
    return _SPACE_AFTER.sub("(", text)


def folded_pairs(pairs: Iterable[Pair]) -> list[Pair]:
    """Return the distinct pairs, folded (``fold``), in order."""
    return list(dict.fromkeys((fold(subject), fold(obj)) for subject, obj in pairs))


def _matches(predicted: Pair, gold: Pair, lenient: bool) -> bool:
    if not lenient:
        return predicted == gold
    return all(bool(p) and bool(g) and (p in g or g in p) for p, g in zip(predicted, gold, strict=True))


@dataclass
class Tally:
    """Counts for one matching rule over a file."""

    predicted: int = 0
    correct: int = 0
    gold: int = 0
    found: int = 0

    def add(self, predicted: list[Pair], gold: list[Pair], lenient: bool) -> None:
        """Count one sentence's folded, distinct pairs."""
        self.predicted += len(predicted)
        self.gold += len(gold)
        self.correct += sum(1 for pair in predicted if any(_matches(pair, truth, lenient) for truth in gold))
        self.found += sum(1 for truth in gold if any(_matches(pair, truth, lenient) for pair in predicted))

    def scores(self) -> dict[str, float]:
        """Return precision, recall and F1 (0 when there is nothing to divide)."""
        precision = self.correct / self.predicted if self.predicted else 0.0
        recall = self.found / self.gold if self.gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


Reader = Callable[[str, str], list[Quintuple]]
"""Reads (text, speaker) into quintuples."""


def rules_reader(text: str, speaker: str = DEFAULT_SPEAKER) -> list[Quintuple]:
    """The offline Reader, unguarded: an exception is the evaluation's to count."""
    return extract_quintuples(text, speaker)


def model_reader(llm_spec: str) -> Reader:
    """The chat-model Reader (a model that fails falls back to the rules, as in ingest)."""
    return lambda text, speaker: read(text, speaker, llm_spec).quintuples


def evaluate_extraction(
    sentences: Iterable[Sentence], reader: Reader = rules_reader, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Read every sentence and score its pairs.

    Returns:
        ``{"sentences", "exceptions", "sentences_per_s", "exact": {"precision", "recall",
        "f1"}, "lenient": {…}, "predicted_pairs", "gold_pairs", "unmatched_share"}``;
        ``unmatched_share`` is the share of predicted pairs matching no gold pair even
        leniently.
    """
    exact, lenient = Tally(), Tally()
    count = exceptions = 0
    reading = 0.0
    for sentence in sentences:
        count += 1
        began = time.perf_counter()
        try:
            quintuples = reader(sentence.text, sentence.speaker)
        except Exception:  # noqa: BLE001 - counted: a sentence that breaks the Reader is the finding
            quintuples = []
            exceptions += 1
        reading += time.perf_counter() - began
        predicted = folded_pairs((q.subject, q.object) for q in quintuples if not q.negated)
        gold = folded_pairs(sentence.gold)
        exact.add(predicted, gold, lenient=False)
        lenient.add(predicted, gold, lenient=True)
        if progress:
            progress(count)
    unmatched = lenient.predicted - lenient.correct
    return {
        "sentences": count,
        "exceptions": exceptions,
        "sentences_per_s": round(count / reading, 1) if reading else None,
        "exact": exact.scores(),
        "lenient": lenient.scores(),
        "predicted_pairs": exact.predicted,
        "gold_pairs": exact.gold,
        "unmatched_share": round(unmatched / lenient.predicted, 4) if lenient.predicted else 0.0,
    }
