"""Given facts at the boundary: rows checked, types and relations mapped, rows grouped into episodes.

No store: these are the pure steps before the ingest graph (``schemas.models.GivenFact``,
``domain.given``, ``broker.ingest_files.read_facts``, ``domain.episodes.make_episode``).
The end-to-end behaviour (resolution, conflicts, provenance, re-import) is in
tests/integration/test_given_facts.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from elephant_broker.broker.ingest_files import read_facts
from elephant_broker.domain.episodes import make_episode
from elephant_broker.domain.given import (
    entity_type,
    given_perceptions,
    given_quintuple,
    graph_document_facts,
    relation_words,
)
from elephant_broker.schemas.ids import MAX_EPISODE_CHARS
from elephant_broker.schemas.models import GivenFact, Perception, Quintuple
from pydantic import ValidationError


@pytest.mark.parametrize(
    ("relation", "identifier", "words"),
    [
        ("WORKS_AT", False, "works at"),
        ("works_at", False, "works at"),
        ("worksAt", False, "works at"),
        ("born__in_", False, "born in"),
        ("works at", False, "works at"),
        ("CEO", False, "CEO"),  # a word, not an identifier
        ("co-founded", False, "co-founded"),
        ("毕业于", False, "毕业于"),
        ("SPOUSE", True, "spouse"),  # a graph relationship type is always an identifier
        ("HAS_CEO", True, "has ceo"),
        ("毕业于", True, "毕业于"),
    ],
)
def test_relations_written_as_identifiers_are_read_as_words(relation: str, identifier: bool, words: str) -> None:
    assert relation_words(relation, identifier=identifier) == words


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Person", "Person"),
        ("PERSON", "Person"),
        ("人物", "Person"),
        ("Company", "Organization"),
        ("organisation", "Organization"),
        ("GPE", "Place"),
        ("City", "Place"),
        ("programming_language", "Language"),
        ("Programming Language", "Language"),
        ("Software", "Tool"),
        ("Date", "Time"),
        ("Award", "Concept"),  # unknown: generic, takes no side in identity
    ],
)
def test_given_types_map_to_the_canonical_types(given: str, expected: str) -> None:
    assert entity_type(given, "anything") == expected


def test_a_missing_type_is_only_what_the_name_makes_certain() -> None:
    typed = {name: entity_type(None, name) for name in ("Paris", "Python", "2024-05-01", "小李", "Open AI", "Globex")}
    assert typed == {
        "Paris": "Place",
        "Python": "Language",
        "2024-05-01": "Time",
        "小李": "Person",
        "Open AI": "Concept",  # not a guess: Concept joins the typed entity of the name
        "Globex": "Concept",
    }
    fact = given_quintuple(GivenFact(subject="Alice", predicate="lives in", object="Paris"))
    assert (fact.subject_type, fact.object_type) == ("Concept", "Place")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"subject": "  ", "predicate": "uses", "object": "Python"}, "subject is empty"),
        ({"subject": "Ann", "predicate": "", "object": "Python"}, "predicate is empty"),
        ({"subject": "Ann", "predicate": "uses"}, "object: Field required"),
        ({"subject": "Ann\nIgnore", "predicate": "uses", "object": "Python"}, "subject: U+000A"),
        ({"subject": "A" * 201, "predicate": "uses", "object": "Python"}, "subject: at most 200 characters"),
        ({"subject": "Ann", "predicate": "p" * 101, "object": "Python"}, "predicate: at most 100 characters"),
        ({"subject": "Ann", "predicate": "uses", "object": "Py", "confidence": 1.5}, "confidence: Input should be"),
        ({"subject": "Ann", "predicate": "uses", "object": "Py", "agent_id": "B"}, "agent_id: Extra inputs"),
        ({"subject": "Ann", "predicate": "uses", "object": "Py", "episode": "x", "text": "y"}, "not both"),
        ({"subject": "Ann", "predicate": "uses", "object": {"a": 1}}, "object: must be a string, not dict"),
        ({"subject": "Ann", "predicate": "uses", "object": "Py", "episode": "a\x00b"}, "episode: U+0000"),
    ],
)
def test_bad_rows_are_refused_naming_the_field(row: dict, message: str) -> None:
    from elephant_broker.schemas.ids import error_line

    with pytest.raises(ValidationError) as raised:
        GivenFact.model_validate(row)
    assert message in error_line(raised.value)


def test_rows_are_tidied_only_where_nothing_is_lost() -> None:
    row = GivenFact.model_validate(
        {"subject": " Acme  Corp ", "predicate": "founded in", "object": 1990, "text": "", "subject_type": ""}
    )
    assert (row.subject, row.object, row.episode, row.subject_type) == ("Acme Corp", "1990", None, None)
    assert GivenFact.model_validate({"subject": "a", "predicate": "b", "object": "c", "text": "T"}).episode == "T"
    assert GivenFact(subject="a", predicate="b", object="c").confidence == 0.9


def test_rows_with_one_episode_text_are_one_episode_and_others_their_own() -> None:
    rows = [
        GivenFact(subject="Alice", predicate="works at", object="Acme", episode="Alice works at Acme in Paris."),
        GivenFact(subject="Bob", predicate="lives in", object="Oslo", source="crm"),
        GivenFact(subject="Acme", predicate="located in", object="Paris", episode="Alice works at Acme in Paris."),
        GivenFact(
            subject="Acme", predicate="located in", object="Paris", episode="Alice works at Acme in Paris.", time="2025"
        ),
    ]
    perceptions = given_perceptions(rows, speaker="Carol", source="import")
    assert [p.text for p in perceptions] == [
        "Alice works at Acme in Paris.",
        "Bob lives in Oslo.",  # no episode text: the fact as a sentence
        "Alice works at Acme in Paris.",  # another time: another episode
    ]
    assert [len(p.given_facts or []) for p in perceptions] == [2, 1, 1]
    assert [p.source for p in perceptions] == ["import", "crm", "import"]
    assert [p.time for p in perceptions] == [None, None, "2025"]
    assert {p.speaker for p in perceptions} == {"Carol"}
    assert perceptions[0].given_facts is not None and perceptions[0].given_facts[1].object_type == "Place"


def test_a_chinese_fact_without_text_reads_as_a_chinese_sentence() -> None:
    [perception] = given_perceptions([GivenFact(subject="小赵", predicate="工作", object="腾讯")])
    assert perception.text == "小赵在腾讯工作。"


def test_a_long_episode_text_is_cut_and_each_fact_goes_with_the_passage_naming_it() -> None:
    filler = "Nothing of note happened that day. " * 45  # longer than an episode
    text = f"Alice works at Acme. {filler}Bob lives in Oslo. {filler}Carol knows Dave."
    assert len(text) > MAX_EPISODE_CHARS
    rows = [
        GivenFact(subject="Bob", predicate="lives in", object="Oslo", episode=text),
        GivenFact(subject="Alice", predicate="works at", object="Acme", episode=text),
        GivenFact(subject="Zed", predicate="likes", object="tea", episode=text),  # named nowhere: the first piece
    ]
    perceptions = given_perceptions(rows)
    assert len(perceptions) >= 2 and all(len(p.text) <= MAX_EPISODE_CHARS for p in perceptions)
    placed = {fact.subject: p.text for p in perceptions for fact in p.given_facts or []}
    assert "Bob lives in Oslo" in placed["Bob"] and "Bob lives in Oslo" not in placed["Alice"]
    assert placed["Alice"] == placed["Zed"] == perceptions[0].text
    # every piece of the text is kept, unread: the pieces no fact goes with carry []
    assert all(p.given_facts is not None for p in perceptions)


def test_a_bad_default_is_named_as_itself_and_too_many_facts_name_the_first_row() -> None:
    with pytest.raises(ValueError, match=r"^speaker: U\+000A"):
        given_perceptions([GivenFact(subject="a", predicate="b", object="c")], speaker="x\ny")
    rows = [GivenFact(subject="a", predicate="b", object=f"o{i}", episode="One text.") for i in range(1001)]
    with pytest.raises(ValueError, match=r"^f\.csv:2: 1,001 facts share this episode text; at most 1,000"):
        given_perceptions(rows, labels=[f"f.csv:{i + 2}" for i in range(1001)])


def test_a_perception_with_given_facts_is_bounded_as_one_episode() -> None:
    fact = Quintuple(subject="a", predicate="b", object="c")
    with pytest.raises(ValidationError, match="at most 1,500 with given facts"):
        Perception(text="x" * 1501, given_facts=[fact])
    with pytest.raises(ValidationError, match="given_facts: at most 1,000 per text"):
        Perception(text="x", given_facts=[fact] * 1001)
    with pytest.raises(ValidationError, match="given_facts: fact 0's subject has 300 characters; at most 200"):
        Perception(text="x", given_facts=[fact.model_copy(update={"subject": "s" * 300})])
    assert Perception(text="x" * 1501).given_facts is None  # only texts with facts are bounded so


def test_an_episode_given_facts_is_the_same_episode_only_with_the_same_facts() -> None:
    one = Quintuple(subject="Alice", predicate="works at", object="Acme")
    two = Quintuple(subject="Acme", predicate="located in", object="Paris")
    episode = make_episode("s", "Alice works at Acme in Paris.", given=[one, two])
    assert make_episode("s", "Alice works at Acme in Paris.", given=[two, one]).id == episode.id
    assert make_episode("s", "Alice works at Acme in Paris.", given=[one]).id != episode.id
    assert make_episode("s", "Alice works at Acme in Paris.").id != episode.id  # the same text read
    # a text without given facts keeps the id it always had
    assert (
        make_episode("s", "Alice works at Acme in Paris.").id == make_episode("s", "Alice works at Acme in Paris.").id
    )


class _Node:
    def __init__(self, node_id: object, kind: str = "Node", **properties: object) -> None:
        self.id, self.type, self.properties = node_id, kind, properties


class _Relationship:
    def __init__(self, source: _Node, target: _Node, kind: str, **properties: object) -> None:
        self.source, self.target, self.type, self.properties = source, target, kind, properties


class _Document:
    def __init__(self, text: str, metadata: dict) -> None:
        self.page_content, self.metadata = text, metadata


class _GraphDocument:
    def __init__(self, nodes: list, relationships: list, source: _Document | None = None) -> None:
        self.nodes, self.relationships, self.source = nodes, relationships, source


def test_graph_documents_map_by_shape_without_langchain() -> None:
    ada = _Node("ada", "Person", name="Ada Lovelace")
    engine = _Node("Analytical Engine", "Machine")
    london = _Node("London", "City")
    document = _GraphDocument(
        [ada, engine, london, _Node("Babbage", "Person")],
        [
            _Relationship(ada, engine, "WROTE_ABOUT", confidence=0.7, note="ignored"),
            _Relationship(_Node("ada"), london, "LIVED_IN", valid_from="1835"),  # an end without its type
        ],
        _Document("Ada Lovelace wrote about the Analytical Engine and lived in London.", {"source": "notes\n1.txt"}),
    )
    mapped = graph_document_facts([document, _GraphDocument([london], [])])
    assert [(r.subject, r.subject_type, r.predicate, r.object, r.object_type) for r in mapped.rows] == [
        ("Ada Lovelace", "Person", "wrote about", "Analytical Engine", "Machine"),
        ("Ada Lovelace", "Person", "lived in", "London", "City"),
    ]
    assert [r.confidence for r in mapped.rows] == [0.7, 0.9] and mapped.rows[1].valid_from == "1835"
    assert {r.episode for r in mapped.rows} == {document.source.page_content}
    assert {r.source for r in mapped.rows} == {"notes 1.txt"}  # a metadata path, tidied into a name
    assert mapped.labels == ["documents[0].relationships[0]", "documents[0].relationships[1]"]
    assert mapped.notes == [
        "2 node(s) without a relationship carry no fact: Babbage, London",
        "1 document(s) without relationships: nothing of them is stored",
    ]


def test_a_graph_document_without_source_is_one_episode_of_its_facts_as_sentences() -> None:
    a, b, c = _Node("Alice", "Person"), _Node("Acme", "Company"), _Node("Paris", "City")
    mapped = graph_document_facts(
        [_GraphDocument([a, b, c], [_Relationship(a, b, "WORKS_AT"), _Relationship(b, c, "LOCATED_IN")])]
    )
    [perception] = given_perceptions(mapped.rows, labels=mapped.labels)
    assert perception.text == "Alice works at Acme. Acme is located in Paris."
    assert perception.given_facts is not None and len(perception.given_facts) == 2


def test_a_bad_graph_document_names_the_document_and_relationship() -> None:
    good, blank = _Node("Alice", "Person"), _Node("   ")
    with pytest.raises(ValueError, match=r"^documents\[1\]\.relationships\[0\]: object is empty"):
        graph_document_facts(
            [_GraphDocument([good], []), _GraphDocument([good, blank], [_Relationship(good, blank, "KNOWS")])]
        )


# -- facts files ---------------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_csv_facts_file_is_read_with_its_header_quotes_and_empty_cells(tmp_path: Path) -> None:
    path = write(
        tmp_path / "facts.csv",
        "\ufeffsubject,subject_type,predicate,object,object_type,confidence,episode\n"
        'Alice,Person,works at,"Acme, Inc.",Company,0.95,"Alice said: ""I work at Acme, Inc."""\n'
        "\n"
        "Bob,,lives in,Oslo,,,\n",
    )
    perceptions = read_facts(path, speaker="Carol", agent_id=None)
    assert [p.text for p in perceptions] == ['Alice said: "I work at Acme, Inc."', "Bob lives in Oslo."]
    assert {p.source for p in perceptions} == {"facts.csv"} and {p.speaker for p in perceptions} == {"Carol"}
    alice = (perceptions[0].given_facts or [])[0]
    assert (alice.object, alice.object_type, alice.confidence) == ("Acme, Inc.", "Organization", 0.95)


def test_a_jsonl_facts_file_is_read_line_by_line(tmp_path: Path) -> None:
    path = write(
        tmp_path / "facts.jsonl",
        '{"subject": "小明", "predicate": "毕业于", "object": "北大", "text": "小明毕业于北大。", "source": "hr"}\n\n'
        '{"subject": "Bob", "predicate": "WORKS_AT", "object": "Initech", "negated": true, "time": "2025-01-10"}\n',
    )
    perceptions = read_facts(path, source="import")
    assert [(p.text, p.source, p.time) for p in perceptions] == [
        ("小明毕业于北大。", "hr", None),
        ("Bob does not work at Initech.", "import", "2025-01-10"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("f.csv", "subject,predicate,object\nAlice,works at,Acme\n ,works at,Acme\n", "f.csv:3: subject is empty"),
        ("f.csv", "subject,predicate,object\nAlice,works at,Acme,extra\n", "f.csv:2: 4 cells, but the header names 3"),
        ("f.csv", "subject,predicate,object,colour\n", "f.csv:1: unknown field(s) 'colour'"),
        ("f.csv", "subject,predicate,object,agent_id\n", "f.csv:1: a file may not choose the agent"),
        ("f.csv", "subject,predicate\nAlice,works at\n", "f.csv:1: missing column(s) object"),
        ("f.csv", "subject,predicate,object,\n", "f.csv:1: column 4 of the header has no name"),
        ("f.csv", "subject,object,Subject,predicate\n", "f.csv:1: column 'subject' appears twice"),
        ("f.csv", "", "f.csv:1: no header row"),
        ("f.csv", "subject,predicate,object\n", "f.csv: no facts"),
        ("f.csv", 'subject,predicate,object,text\nA,b,c,"two\nlines"\nBob,x,,\n', "f.csv:4: object is empty"),
        ("f.csv", "subject,predicate,object,confidence\nA,b,c,high\n", "f.csv:2: confidence: Input should be"),
        ("f.jsonl", '{"subject": "A", "predicate": "b", "object": "c"}\n[1]\n', "f.jsonl:2: each line needs a JSON"),
        ("f.jsonl", '{"subject": "A", "predicate": "b", "object": "c"\n', "f.jsonl:1: not valid JSON"),
        ("f.jsonl", '{"subject": "A", "predicate": "b", "object": "c", "agent_id": "B"}\n', "may not choose the agent"),
        ("f.jsonl", '{"subject": "A", "predicate": "b", "obj": "c"}\n', "f.jsonl:1: unknown field(s) 'obj'"),
        ("f.txt", "subject,predicate,object\n", "unsupported facts file type .txt; use .jsonl or .csv"),
    ],
)
def test_a_bad_facts_file_fails_with_one_line_naming_file_line_and_field(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = write(tmp_path / name, content)
    with pytest.raises(ValueError) as raised:
        read_facts(path)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)
