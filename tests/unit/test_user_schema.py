"""A user schema: loading it, fitting readings to it, telling it to the model, and its one-valued predicates."""

from __future__ import annotations

import hashlib
import json
import string
from pathlib import Path

import numpy as np
import pytest
from elephant_broker.domain.episodes import fact_identity
from elephant_broker.domain.truth import find_conflicts
from elephant_broker.domain.user_schema import DROPPED_NOTE, SchemaRules, load_user_schema
from elephant_broker.language.predicates import predicate_key
from elephant_broker.prompts import reader
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import Episode, EpisodeWrite, Fact, FactRow, Quintuple
from elephant_broker.schemas.user_schema import UserSchema
from elephant_broker.store.base import entity_id
from langchain_core.embeddings import Embeddings

SCHEMA_TOML = """
unknown_predicates = "drop"

[[entity_types]]
name = "Person"

[[entity_types]]
name = "organization"          # case does not matter
aliases = ["Company", "公司"]

[[entity_types]]
name = "Thing"
aliases = ["Drug", "Medicine"]
description = "medicines and devices"

[[entity_types]]
name = "Activity"

[[predicates]]
name = "works_at"
aliases = ["works for", "employed by"]
cardinality = "one"

[[predicates]]
name = "treats"
time_sensitive = true
description = "a medicine against a condition"

[[predicates]]
name = "lives in"
aliases = ["居住于"]
cardinality = "one"
"""


def write(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def schema(tmp_path: Path) -> UserSchema:
    return load_user_schema(str(write(tmp_path, "schema.toml", SCHEMA_TOML)))


class WordVectors(Embeddings):
    """A toy embedder: listed words get fixed vectors, any other word a random one of its own."""

    table = {"is on the payroll of": [0.99, 0.14], "works for": [1.0, 0.0], "cures": [0.6, 0.8]}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        if text in self.table:
            return [*self.table[text], *[0.0] * 62]
        own = np.random.default_rng(int(hashlib.sha1(text.encode()).hexdigest()[:8], 16)).normal(size=64)
        own[:2] = 0.0
        return list(own / np.linalg.norm(own))

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def quintuple(subject: str, predicate: str, obj: str, subject_type: str = "Person", object_type: str = "Concept"):
    return Quintuple(
        subject=subject, subject_type=subject_type, predicate=predicate, object=obj, object_type=object_type
    )


def test_toml_and_json_files_load_alike(tmp_path: Path, schema: UserSchema) -> None:
    as_json = write(tmp_path, "schema.json", json.dumps(schema.model_dump(mode="json"), ensure_ascii=False))
    assert load_user_schema(str(as_json)) == schema
    assert [kind.name for kind in schema.entity_types] == ["Person", "Organization", "Thing", "Activity"]
    works_at = schema.predicates[0]
    assert (works_at.name, works_at.cardinality, works_at.time_sensitive) == ("works_at", "one", False)
    short = write(tmp_path, "short.json", '{"entity_types": ["Person", "Place"], "predicates": ["lives in"]}')
    assert [p.name for p in load_user_schema(str(short)).predicates] == ["lives in"]  # bare names


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("a.yaml", "predicates: []", "use a .toml or .json file"),
        ("a.toml", "[[predicates]\nname=1", "not valid TOML"),
        ("a.json", "{", "not valid JSON"),
        ("a.toml", "", "declares no entity_types and no predicates"),
        ("a.toml", '[[entity_types]]\nname = "Drug"', "not one the store keeps"),
        ("a.toml", '[[predicates]]\nname = "treats"\ncardinality = "few"', "cardinality"),
        ("a.toml", '[[predicates]]\nname = "treats"\ncolour = "red"', "colour"),
        ("a.toml", 'unknown_predicates = "ask"\n[[predicates]]\nname = "treats"', "unknown_predicates"),
        ("a.toml", '[[predicates]]\nname = "treats"\n[[predicates]]\nname = "Treats"', "declared twice"),
        ("a.toml", '[[predicates]]\nname = "a"\naliases = ["b"]\n[[predicates]]\nname = "b"', "declared twice"),
    ],
)
def test_a_bad_file_is_refused_in_one_line_naming_it(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = write(tmp_path, name, content)
    with pytest.raises(ValueError, match=message) as caught:
        load_user_schema(str(path))
    assert str(path.name) in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="schema .*missing.toml"):
        load_user_schema(str(tmp_path / "missing.toml"))


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "s.toml", '[[predicates]]\nname = "treats"')
    assert [p.name for p in load_user_schema(str(path)).predicates] == ["treats"]
    path.write_text('[[predicates]]\nname = "treats"\n[[predicates]]\nname = "causes"', encoding="utf-8")
    assert [p.name for p in load_user_schema(str(path)).predicates] == ["treats", "causes"]


def test_entity_types_become_declared_ones(schema: UserSchema) -> None:
    rules = SchemaRules(schema)
    assert rules.entity_type("Person", "Alice") == "Person"
    assert rules.entity_type("company", "Acme") == "Organization"  # an alias
    assert rules.entity_type("公司", "华为") == "Organization"
    assert rules.entity_type("Drug", "Aspirin") == "Thing"
    assert rules.entity_type("Tool", "hammer") == "Thing"  # the nearest declared
    assert rules.entity_type("Language", "Python") == "Thing"  # Language -> Tool -> Thing
    assert rules.entity_type("Event", "the party") == "Activity"
    assert rules.entity_type("Place", "Paris") == "Concept"  # nothing near: Concept
    assert rules.entity_type("Condition", "fever") == "Concept"  # an unknown word
    assert rules.entity_type("GPE", "France") == "Concept"  # a Place, not declared
    types_free = SchemaRules(UserSchema(predicates=["treats"]))  # no types declared: every type stays
    assert types_free.entity_type("Place", "Paris") == "Place"
    assert types_free.entity_type("company", "Acme") == "Organization"


def test_predicates_become_the_declared_ones_or_are_dropped(schema: UserSchema) -> None:
    rules = SchemaRules(schema, WordVectors(), threshold=0.95)
    read = [
        quintuple("Alice", "works_at", "Acme", object_type="Company"),  # the name itself
        quintuple("Bob", "Employed By", "Acme"),  # an alias, case folded
        quintuple("Carol", "is employed at", "Initech"),  # the lexicon's works_at key
        quintuple("Dan", "is on the payroll of", "Globex"),  # nearest by embedding (0.99)
        quintuple("Aspirin", "treated", "headache", "Drug"),  # an inflection (predicate key "treat")
        quintuple("小李", "住在", "北京", object_type="Place"),  # 住在 and "lives in": one lexicon key, lives_in
        quintuple("Alice", "likes", "jazz", object_type="Activity"),  # nothing declared near
        quintuple("Erin", "cures", "fever"),  # nearest to "works for", but at 0.6
    ]
    fitted, notes = rules.fit(read)
    assert [(q.subject, q.subject_type, q.predicate, q.object, q.object_type) for q in fitted] == [
        ("Alice", "Person", "works at", "Acme", "Organization"),
        ("Bob", "Person", "works at", "Acme", "Concept"),
        ("Carol", "Person", "works at", "Initech", "Concept"),
        ("Dan", "Person", "works at", "Globex", "Concept"),
        ("Aspirin", "Thing", "treats", "headache", "Concept"),
        ("小李", "Person", "lives in", "北京", "Concept"),
    ]
    assert notes == [DROPPED_NOTE]
    kept, notes = SchemaRules(schema.model_copy(update={"unknown_predicates": "keep"})).fit(read[-2:])
    assert [q.predicate for q in kept] == ["likes", "cures"] and notes == []
    everything, _ = SchemaRules(UserSchema(entity_types=["Person"])).fit(read[-2:])  # no predicates declared
    assert [q.predicate for q in everything] == ["likes", "cures"]


def test_the_model_is_told_the_schema(schema: UserSchema) -> None:
    english = SchemaRules(schema).prompt("en")
    assert english.startswith("<schema>") and english.endswith("</schema>")
    assert "- Thing: Drug, Medicine (medicines and devices)" in english
    assert "- works_at: works for, employed by (one value at a time)" in english
    assert "- treats (changes over time: give valid_from when stated; a medicine against a condition)" in english
    assert "Leave out any fact none of these predicates expresses." in english
    chinese = SchemaRules(schema).prompt("zh")
    assert "- lives in: 居住于 (同一时间只有一个值)" in chinese and "不要抽取" in chinese
    only_types = SchemaRules(UserSchema(entity_types=["Person"])).prompt("en")
    assert "Predicates" not in only_types and "- Person" in only_types


def test_one_valued_predicates_reach_truth_maintenance(schema: UserSchema) -> None:
    rules = SchemaRules(schema)
    assert rules.single_valued_keys(predicate_key) == {"works_at", "lives_in"}
    assert rules.time_sensitive_keys(predicate_key) == {"treat"}
    # "treats" is not single-valued in the lexicon: a second object is no conflict ...
    scope, episode = (
        "s",
        Episode(id="ep2", agent_id="s", session_id="d", speaker="u", source="x", text="t", created_at=2),
    )
    row = FactRow(
        id=fact_identity(scope, "aspirin", "treat", "fever", False),
        subject_key="aspirin",
        object_key="fever",
        predicate="treats",
        predicate_key="treat",
    )
    plan = EpisodeWrite(scope=scope, episode=episode, facts=[row])
    stored = Fact(
        id="fact_old",
        subject="Aspirin",
        subject_id=entity_id(scope, "aspirin"),
        predicate="treats",
        predicate_key="treat",
        object="headache",
        object_id=entity_id(scope, "headache"),
        created_at=1,
    )
    assert find_conflicts(plan, [stored]) == []
    # ... unless a schema declares it one-valued.
    [conflict] = find_conflicts(plan, [stored], single_valued={"treat"})
    assert (conflict.kind, conflict.old_fact.id) == ("single_value", "fact_old")


@pytest.mark.parametrize(
    ("template", "keys"),
    [
        (reader.READER_USER_WITH_CONTEXT, {"speaker", "context", "text"}),
        (reader.READER_SCHEMA, {"entity_types", "predicates"}),
    ],
)
def test_reader_prompt_placeholders_match_their_callers(template: str, keys: set[str]) -> None:
    assert {name for _, name, _, _ in string.Formatter().parse(template) if name} == keys
    template.format(**dict.fromkeys(keys, "x"))
    assert reader.READER_SCHEMA_SECTIONS["en"].keys() == reader.READER_SCHEMA_SECTIONS["zh"].keys()


def test_a_schema_may_be_given_as_an_object_or_a_dict(schema: UserSchema) -> None:
    assert Context(schema=schema).schema is schema
    assert Context(schema={"predicates": ["treats"]}).schema == UserSchema(predicates=["treats"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="schema: .*cardinality"):
        Context(schema={"predicates": [{"name": "treats", "cardinality": "few"}]})  # type: ignore[arg-type]
