"""Bring your own facts, end to end: facts files through the CLI, rows, GraphDocuments and MCP.

Given facts skip the Reader and nothing else: a given name is resolved against the
entities memory holds (an abbreviation merges, a spelling joins), its predicate is
canonicalised (``employed_by`` and ``WORKS_AT`` are ``works_at``), a contradiction
opens a conflict decided (or held for a person) as a read one is, each fact's
provenance is the episode that carried it, and importing the same facts again adds
nothing. A bad row refuses the whole input before anything is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.broker.mcp_server import build_server
from elephant_broker.providers.resources import close_stores
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import InvalidInput
from elephant_broker.schemas.models import Fact, IngestReport, Perception, Quintuple
from mcp.client import Client

from tests.integration.conftest import RunCli

ZERO = {"episodes": 0, "facts": 0, "entities": 0, "conflicts": 0, "reread": 0, "notes": []}

# Three given facts over a memory that knows 小明 studied at 北京大学 and Alice works at OpenAI:
# 北大 merges into 北京大学 (abbreviation), Open AI is OpenAI (one key), employed_by is works_at,
# and Alice's new employer contradicts the old one (works_at holds one value at a time).
ROWS: list[dict[str, Any]] = [
    {
        "subject": "小红",
        "subject_type": "人物",
        "predicate": "毕业于",
        "object": "北大",
        "object_type": "University",
        "episode": "小红说她毕业于北大。",
    },
    {
        "subject": "Bob",
        "subject_type": "PERSON",
        "predicate": "employed_by",
        "object": "Open AI",
        "object_type": "Company",
        "source": "crm",
        "time": "2025-01-10T09:00:00",
    },
    {"subject": "Alice", "predicate": "works at", "object": "Globex", "object_type": "Organization"},
]
SEED = [("小明毕业于北京大学。", "小明"), ("Alice works at OpenAI.", "Alice")]


def by_subject(facts: list[Fact]) -> dict[str, list[Fact]]:
    found: dict[str, list[Fact]] = {}
    for fact in facts:
        found.setdefault(fact.subject, []).append(fact)
    return found


def check_memory(broker: Broker, agent: str = "test", default_source: str = "direct") -> None:
    """Memory after SEED and ROWS: resolution, canonical predicates, the conflict, provenance."""
    facts = by_subject(broker.facts(agent_id=agent))
    [xiaohong] = facts["小红"]
    assert (xiaohong.object, xiaohong.predicate, xiaohong.predicate_key) == ("北京大学", "毕业于", "studied_at")
    assert xiaohong.subject_type == "Person" and xiaohong.object_id == facts["小明"][0].object_id
    [merge] = broker.merges(agent_id=agent)
    assert (merge.alias, merge.into_name, merge.method) == ("北大", "北京大学", "fulltext")
    assert merge.fact_ids == [xiaohong.id]

    [bob] = facts["Bob"]
    assert (bob.predicate, bob.predicate_key, bob.object, bob.subject_type) == (
        "employed by",
        "works_at",
        "OpenAI",
        "Person",
    )
    openai = [e for e in broker.entities(agent_id=agent) if e.name == "OpenAI"]
    assert len(openai) == 1 and "Open AI" in openai[0].aliases and openai[0].type == "Organization"

    alice = {fact.object: fact for fact in facts["Alice"]}
    assert (alice["OpenAI"].status, alice["Globex"].status) == ("superseded", "active")
    [conflict] = broker.conflicts(agent_id=agent)
    assert (conflict.kind, conflict.predicate_key, conflict.decision, conflict.decided_by) == (
        "single_value",
        "works_at",
        "keep_new",
        "auto",
    )
    assert (conflict.old_fact.object, conflict.new_fact.object) == ("OpenAI", "Globex")

    # Provenance: each given fact rests on the episode that carried it, stored as given.
    episodes = {
        fact.subject: broker.store.episodes_by_ids(agent, fact.episode_ids) for fact in (xiaohong, bob, alice["Globex"])
    }
    assert all(len(found) == 1 for found in episodes.values())
    assert (episodes["小红"][0].text, episodes["小红"][0].source) == ("小红说她毕业于北大。", default_source)
    assert (episodes["Bob"][0].text, episodes["Bob"][0].source) == ("Bob is employed by Open AI.", "crm")
    assert episodes["Bob"][0].time == "2025-01-10T09:00:00"
    assert episodes["Alice"][0].text == "Alice works at Globex."
    assert {broker.store.episode_reading(agent, found[0].id) for found in episodes.values()} == {"given"}


def test_given_rows_are_resolved_canonicalised_reviewed_and_traced(broker: Broker) -> None:
    for text, speaker in SEED:
        broker.remember(text, speaker=speaker)
    before = broker.counts()
    report = broker.remember_facts(ROWS)
    assert report == IngestReport(episodes=3, facts=3, entities=3, conflicts=1)  # 小红, Bob, Globex
    check_memory(broker)

    after = broker.counts()
    assert after["episodes"] == before["episodes"] + 3
    assert broker.remember_facts(ROWS) == IngestReport()  # re-import adds nothing
    assert broker.remember_facts(list(reversed(ROWS))) == IngestReport()  # nor in another order
    assert broker.counts() == after
    assert {fact.weight for fact in broker.facts()} == {1}


def test_a_given_contradiction_is_decided_as_the_same_contradiction_read(broker: Broker) -> None:
    broker.remember("Alice lives in Paris.", agent_id="read")
    broker.remember("Alice lives in Berlin.", agent_id="read")
    broker.remember("Alice lives in Paris.", agent_id="given")
    broker.remember_facts([{"subject": "Alice", "predicate": "lives in", "object": "Berlin"}], agent_id="given")

    def outcome(agent: str) -> tuple[Any, ...]:
        [conflict] = broker.conflicts(agent_id=agent)
        statuses = sorted((fact.object, fact.status) for fact in broker.facts(agent_id=agent))
        return conflict.kind, conflict.predicate_key, conflict.decision, conflict.old_fact.object, statuses

    assert (
        outcome("given")
        == outcome("read")
        == (
            "single_value",
            "lives_in",
            "keep_new",
            "Paris",
            [("Berlin", "active"), ("Paris", "superseded")],
        )
    )


def test_a_negated_given_fact_is_a_negation_conflict(broker: Broker) -> None:
    broker.remember("Quinn uses Slack.", speaker="Quinn")
    report = broker.remember_facts([{"subject": "Quinn", "predicate": "uses", "object": "Slack", "negated": True}])
    assert report.conflicts == 1
    [conflict] = broker.conflicts()
    assert conflict.kind == "negation" and conflict.new_fact.negated


def test_under_human_review_a_given_contradiction_is_held_until_resolved(context: Context) -> None:
    broker = Broker(Context(**{**vars(context), "review_policy": "human"}))
    broker.remember("Alice lives in Paris.")
    held = broker.remember_facts([{"subject": "Alice", "predicate": "lives in", "object": "Berlin", "source": "hr"}])
    assert held == IngestReport(conflicts=1)  # nothing written yet
    assert [fact.object for fact in broker.facts()] == ["Paris"]
    [waiting] = [c for c in broker.conflicts() if c.status == "open"]
    assert (waiting.kind, waiting.new_fact.object) == ("single_value", "Berlin")
    decided = broker.resolve(waiting.id, "new")
    assert (decided.decision, decided.decided_by) == ("keep_new", "human")
    facts = {fact.object: fact for fact in broker.facts()}
    assert (facts["Paris"].status, facts["Berlin"].status) == ("superseded", "active")
    [episode] = broker.store.episodes_by_ids("test", facts["Berlin"].episode_ids)
    assert (episode.text, episode.source) == ("Alice lives in Berlin.", "hr")


def test_a_bad_row_refuses_all_rows_and_writes_nothing(broker: Broker) -> None:
    rows = [*ROWS, {"subject": "Dana", "predicate": "likes", "object": " "}]
    with pytest.raises(InvalidInput, match=r"^rows\[3\]: object is empty$"):
        broker.remember_facts(rows)
    with pytest.raises(InvalidInput, match=r"^speaker: U\+000A"):
        broker.remember_facts(ROWS, speaker="a\nb")
    with pytest.raises(InvalidInput, match=r"^unknown field\(s\): colour"):
        broker.remember_facts(ROWS, colour="red")
    assert broker.counts() == {"episodes": 0, "entities": 0, "facts": 0} or not any(broker.counts().values())


def test_given_facts_skip_the_reader_and_first_person_is_the_speaker(broker: Broker) -> None:
    text = "我住在杭州，我精通 Python。"  # the Reader would find two facts here
    fact = Quintuple(subject="我", subject_type="Person", predicate="精通", object="Python", object_type="Language")
    assert broker.remember_many([Perception(text=text, speaker="小王", given_facts=[fact])]).facts == 1
    [stored] = broker.facts()
    assert (stored.subject, stored.predicate_key, stored.object) == ("小王", "skilled_in", "Python")
    # [] keeps a text unread: stored and searchable, with no facts
    assert broker.remember_many([Perception(text="小李住在北京。", given_facts=[])]).episodes == 1
    assert len(broker.facts()) == 1
    assert "小李住在北京。" in [episode.text for episode in broker.recall("小李住在哪里")]


def test_graph_documents_from_langchain_are_remembered_like_given_facts(broker: Broker) -> None:
    graph_document = pytest.importorskip("langchain_neo4j.graphs.graph_document")
    from langchain_core.documents import Document

    node, relationship, document_of = graph_document.Node, graph_document.Relationship, graph_document.GraphDocument
    broker.remember("Marie Curie lives in Warsaw.")
    broker.remember("小明毕业于北京大学。")
    curie, sorbonne = node(id="Marie Curie", type="Person"), node(id="Sorbonne", type="Organization")
    paris, prize = node(id="Paris", type="City"), node(id="Nobel Prize", type="Award")
    text = "Marie Curie worked at the Sorbonne and lived in Paris."
    documents = [
        document_of(
            nodes=[curie, sorbonne, paris, prize],
            relationships=[
                relationship(source=curie, target=sorbonne, type="WORKS_AT", properties={"confidence": 0.95}),
                relationship(source=node(id="Marie Curie"), target=paris, type="LIVES_IN"),
            ],
            source=Document(page_content=text, metadata={"source": "wiki/Marie_Curie"}),
        ),
        document_of(
            nodes=[node(id="小红", type="Person"), node(id="北大", type="University")],
            relationships=[relationship(source=node(id="小红", type="Person"), target=node(id="北大"), type="毕业于")],
        ),
    ]
    report = broker.remember_graph_documents(documents, speaker="importer")
    assert (report.episodes, report.facts, report.conflicts) == (2, 3, 1)
    assert report.notes == ["1 node(s) without a relationship carry no fact: Nobel Prize"]

    facts = {(fact.subject, fact.object): fact for fact in broker.facts()}
    works = facts[("Marie Curie", "Sorbonne")]
    assert (works.predicate, works.predicate_key, works.confidence, works.object_type) == (
        "works at",
        "works_at",
        0.95,
        "Organization",
    )
    assert facts[("Marie Curie", "Paris")].object_type == "Place"
    assert (facts[("Marie Curie", "Warsaw")].status, facts[("Marie Curie", "Paris")].status) == ("superseded", "active")
    [conflict] = broker.conflicts()
    assert (conflict.kind, conflict.predicate_key, conflict.new_fact.object) == ("single_value", "lives_in", "Paris")
    assert facts[("小红", "北京大学")].predicate_key == "studied_at"  # 北大 resolved into 北京大学
    [merge] = broker.merges()
    assert (merge.alias, merge.into_name) == ("北大", "北京大学")

    [episode] = broker.store.episodes_by_ids("test", works.episode_ids)
    assert (episode.text, episode.source, episode.speaker) == (text, "wiki/Marie_Curie", "importer")
    assert facts[("Marie Curie", "Paris")].episode_ids == works.episode_ids  # one document, one episode
    [sentences] = broker.store.episodes_by_ids("test", facts[("小红", "北京大学")].episode_ids)
    assert sentences.text == "小红毕业于北大。"  # no source document: its facts as sentences

    counts = broker.counts()
    again = broker.remember_graph_documents(documents, speaker="importer")
    assert (again.episodes, again.facts, again.entities, again.conflicts) == (0, 0, 0, 0)
    assert broker.counts() == counts


def test_a_bad_graph_document_writes_nothing(broker: Broker) -> None:
    graph_document = pytest.importorskip("langchain_neo4j.graphs.graph_document")
    node, relationship = graph_document.Node, graph_document.Relationship
    good = graph_document.GraphDocument(
        nodes=[], relationships=[relationship(source=node(id="A"), target=node(id="B"), type="KNOWS")]
    )
    bad = graph_document.GraphDocument(
        nodes=[], relationships=[relationship(source=node(id="A"), target=node(id="x" * 300), type="KNOWS")]
    )
    with pytest.raises(InvalidInput, match=r"^documents\[1\]\.relationships\[0\]: object: at most 200 characters"):
        broker.remember_graph_documents([good, bad])
    assert not any(broker.counts().values())


def test_the_mcp_tool_remembers_given_facts_for_the_servers_agent(broker: Broker) -> None:
    broker.remember("Alice works at OpenAI.", agent_id="A")
    server = build_server(broker, agent="A")
    results: dict[str, Any] = {}

    async def scenario() -> None:
        async with Client(server) as client:
            facts = [
                {"subject": "Bob", "subject_type": "Person", "predicate": "WORKS_AT", "object": "Open AI"},
                {"subject": "Alice", "predicate": "works at", "object": "Globex", "object_type": "Company"},
            ]
            text = "Bob works at Open AI; Alice moved to Globex."
            results["first"] = await client.call_tool(
                "remember_facts", {"facts": facts, "text": text, "source": "chat"}
            )
            results["again"] = await client.call_tool(
                "remember_facts", {"facts": facts, "text": text, "source": "chat"}
            )
            results["bad"] = await client.call_tool(
                "remember_facts", {"facts": [{"subject": "", "predicate": "p", "object": "o"}]}
            )
            results["agent"] = await client.call_tool("remember_facts", {"facts": facts, "agent_id": "B"})

    anyio.run(scenario)
    first = results["first"]
    assert not first.is_error, first.content
    assert {k: first.structured_content[k] for k in ("episodes", "facts", "conflicts")} == {
        "episodes": 1,
        "facts": 2,
        "conflicts": 1,
    }
    assert results["again"].structured_content["episodes"] == 0
    bad_text = results["bad"].content[0].text
    assert results["bad"].is_error and "subject is empty" in bad_text and "\n" not in bad_text
    assert results["agent"].is_error and "unknown argument(s): agent_id" in results["agent"].content[0].text

    facts = {fact.subject + "/" + fact.object: fact for fact in broker.facts(agent_id="A")}
    assert facts["Bob/OpenAI"].predicate_key == "works_at"
    assert facts["Alice/OpenAI"].status == "superseded" and facts["Alice/Globex"].status == "active"
    [episode] = broker.store.episodes_by_ids("A", facts["Bob/OpenAI"].episode_ids)
    assert (episode.text, episode.source) == ("Bob works at Open AI; Alice moved to Globex.", "chat")
    assert broker.facts(agent_id="test") == []


# -- the CLI -------------------------------------------------------------------------------------


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n", encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    import csv

    columns = ["subject", "subject_type", "predicate", "object", "object_type", "confidence", "source", "time", "text"]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({**{name: row.get(name, "") for name in columns}, "text": row.get("episode", "")})
    return path


def home_broker(tmp_path: Path) -> Broker:
    """The CLI's memory, opened in this process (the CLI's embedded server is reused)."""
    return Broker(Context(home=str(tmp_path / "home"), store="embedded", llm="", agent_id="default"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_elephant_ingest_facts_end_to_end(cli: RunCli, tmp_path: Path, kind: str) -> None:
    for text, speaker in SEED:
        cli("ingest", "--text", text, "--speaker", speaker)
    path = (write_jsonl if kind == "jsonl" else write_csv)(tmp_path / f"facts.{kind}", ROWS)
    report = json.loads(cli("ingest", "--facts", str(path), "--json").stdout)
    assert report == {"episodes": 3, "facts": 3, "entities": 3, "conflicts": 1, "reread": 0, "notes": []}
    try:
        check_memory(home_broker(tmp_path), agent="default", default_source=f"facts.{kind}")
    finally:
        close_stores()
    [conflict] = json.loads(cli("conflicts", "--json").stdout)
    assert (conflict["kind"], conflict["decision"]) == ("single_value", "keep_new")

    facts = json.loads(cli("facts", "--json").stdout)
    assert json.loads(cli("ingest", "--facts", str(path), "--json").stdout) == ZERO  # re-import adds nothing
    assert json.loads(cli("facts", "--json").stdout) == facts
    human = cli("ingest", "--facts", str(path)).stdout
    assert "Remembered 0 episode(s): 0 new fact(s)" in human


@pytest.mark.slow
def test_a_bad_facts_file_fails_with_file_line_and_field_and_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    good = write_jsonl(tmp_path / "good.jsonl", ROWS[:1])
    bad = write_csv(tmp_path / "bad.csv", [*ROWS, {"subject": "Dana", "predicate": "", "object": "tea"}])
    result = cli("ingest", "--facts", str(good), "--facts", str(bad), "--text", "Eve likes tea.", check=False)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f"{bad}:5: predicate is empty" in result.stderr
    unknown = write_csv(tmp_path / "unknown.csv", ROWS)
    unknown.write_text(unknown.read_text(encoding="utf-8").replace("confidence", "certainty", 1), encoding="utf-8")
    result = cli("ingest", "--facts", str(unknown), check=False)
    assert result.returncode != 0 and f"{unknown}:1: unknown field(s) 'certainty'" in result.stderr
    assert json.loads(cli("facts", "--json").stdout) == []
    assert json.loads(cli("entities", "--json").stdout) == []
