"""The picture of memory without a browser: rows from facts, layout, and the page's HTML."""

from __future__ import annotations

import math
import re

from elephant_broker.broker.viz import (
    ACTIVE_EDGE,
    PATH_EDGE,
    RETIRED_EDGE,
    Picture,
    edge_from_fact,
    edge_slots,
    evidence,
    layout,
    picture_from_facts,
    plot_data,
    render_html,
    type_colour,
)
from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.models import Answer, Entity, Fact, Hop

EVIL = "<script>alert(1)</script>"
EVIL_IMG = '<img src=x onerror="document.body.dataset.pwned=1">'


def _fact(fid: str, subject: str, predicate: str, obj: str, **fields: object) -> Fact:
    data: dict[str, object] = {
        "id": fid,
        "subject": subject,
        "subject_id": f"ent_{subject}",
        "subject_type": "Person",
        "predicate": predicate,
        "predicate_key": predicate,
        "object": obj,
        "object_id": f"ent_{obj}",
        "object_type": "Place",
        **fields,
    }
    return Fact.model_validate(data)


def test_every_fact_end_becomes_one_node_and_repeated_facts_are_drawn_once() -> None:
    lives = _fact("f1", "Alice", "lives in", "Berlin")
    works = _fact("f2", "Alice", "works at", "Acme", object_type="Organization")
    lonely = Entity(id="ent_Bob", name="Bob", type="Person", mention_count=4, aliases=["Bobby"])
    picture = picture_from_facts([lives, works, lives], title="t", entities=[lonely], focus_ids=["ent_Alice"])
    assert [node.name for node in picture.nodes] == ["Alice", "Berlin", "Acme", "Bob"]
    assert [edge.id for edge in picture.edges] == ["f1", "f2"]
    by_name = {node.name: node for node in picture.nodes}
    assert by_name["Acme"].type == "Organization"
    assert by_name["Bob"].mentions == 4 and by_name["Bob"].aliases == ("Bobby",)
    assert by_name["Alice"].focus and not by_name["Berlin"].focus


def test_an_edge_carries_what_the_hover_shows() -> None:
    fact = _fact(
        "f1",
        "Alice",
        "likes",
        "Java",
        negated=True,
        confidence=0.8345,
        weight=3,
        status="superseded",
        valid_from="2024-01",
        created_at=1_700_000_000_000,
        episode_ids=["ep_1", "ep_2"],
    )
    edge = edge_from_fact(fact, "ent_Alice", "ent_Java")
    assert edge.label == "not likes"
    assert edge.sentence == sentence_of(fact)
    assert (edge.confidence, edge.weight, edge.status) == (0.835, 3, "superseded")
    assert edge.valid == "2024-01"
    assert edge.stored == "2023-11-14 22:13:20 UTC"
    assert edge.episodes == "ep_1, ep_2"
    assert edge.retired
    chinese = edge_from_fact(_fact("f2", "小李", "喜欢", "Java", negated=True), "a", "b")
    assert chinese.label == "不喜欢"


def test_superseded_facts_are_dashed_grey_and_the_chain_is_blue() -> None:
    facts = [
        _fact("old", "Alice", "lives in", "Paris", status="superseded"),
        _fact("new", "Alice", "lives in", "Berlin"),
        _fact("hop", "Berlin", "is in", "Germany"),
    ]
    picture = picture_from_facts(facts, title="t", path_ids=["hop"])
    positions = layout([node.id for node in picture.nodes], [(e.source, e.target) for e in picture.edges])
    nodes, edges = plot_data(picture, positions)
    assert edges["colour"] == [RETIRED_EDGE, ACTIVE_EDGE, PATH_EDGE]
    assert edges["dash"] == [[6, 4], [], []]
    assert edges["width"][2] > edges["width"][1]
    assert nodes["colour"] == [type_colour("Person"), type_colour("Place"), type_colour("Place"), type_colour("Place")]
    assert type_colour("Spaceship") not in {type_colour("Person"), type_colour("Place")}


def test_layout_is_deterministic_bounded_and_keeps_nodes_apart() -> None:
    ids = [f"n{i}" for i in range(12)]
    links = [(ids[i], ids[i + 1]) for i in range(11)]
    first = layout(ids, links, seed=3)
    assert first == layout(ids, links, seed=3)
    assert all(abs(x) <= 1.6 + 1e-9 and abs(y) <= 1.0 + 1e-9 for x, y in first.values())
    gaps = [math.dist(first[a], first[b]) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    assert min(gaps) > 0.05
    assert layout([], []) == {} and layout(["only"], []) == {"only": (0.0, 0.0)}


def test_parallel_edges_are_spread_and_a_single_edge_is_straight() -> None:
    facts = [
        _fact("a", "Alice", "lives in", "Berlin"),
        _fact("b", "Alice", "works in", "Berlin"),
        _fact("c", "Alice", "was born in", "Berlin"),
        _fact("d", "Bob", "lives in", "Berlin"),
    ]
    picture = picture_from_facts(facts, title="t")
    slots = edge_slots(picture.edges)
    assert slots[3] == 0.0
    assert sorted(abs(slot) for slot in slots[:3]) == [0.0, 1.0, 1.0] and len(set(slots[:3])) == 3
    positions = layout([node.id for node in picture.nodes], [(e.source, e.target) for e in picture.edges])
    _, edges = plot_data(picture, positions)
    label_points = {(round(x, 6), round(y, 6)) for x, y in zip(edges["lx"][:3], edges["ly"][:3], strict=True)}
    assert len(label_points) == 3


def test_a_multi_hop_answer_marks_the_chain_and_lists_the_hops() -> None:
    author = _fact("f1", "Dune", "author", "Frank Herbert", subject_type="Thing", object_type="Person")
    born = _fact("f2", "Frank Herbert", "born in", "Tacoma", subject_type="Person")
    stray = _fact("f3", "Frank Herbert", "wrote", "Children of Dune", subject_type="Person", object_type="Thing")
    dune = Entity(id="ent_Dune", name="Dune", type="Thing")
    frank = Entity(id="ent_Frank Herbert", name="Frank Herbert", type="Person")
    tacoma = Entity(id="ent_Tacoma", name="Tacoma", type="Place")
    answer = Answer(
        answer="Tacoma.",
        facts=[author, born],
        hops=[
            Hop(question="Who is the author of Dune?", anchors=[dune], facts=[author], answers=[frank], answered=True),
            Hop(
                question="Where was Frank Herbert born?",
                anchors=[frank],
                facts=[born, stray],
                answers=[tacoma],
                answered=True,
            ),
        ],
    )
    picture = evidence(answer, "Where was the author of Dune born?")
    assert picture.title == "Tacoma." and picture.view == "question"
    assert {edge.id: edge.on_path for edge in picture.edges} == {"f1": True, "f2": True}
    assert picture.notes == [
        "hop 1: Who is the author of Dune? → Frank Herbert",
        "hop 2: Where was Frank Herbert born? → Tacoma",
    ]
    assert {node.name for node in picture.nodes} == {"Dune", "Frank Herbert", "Tacoma"}


def test_the_page_is_self_contained_and_reports_its_counts() -> None:
    picture = picture_from_facts(
        [_fact("f1", "Alice", "lives in", "Berlin"), _fact("f2", "Alice", "lives in", "Paris", status="superseded")],
        title="Alice: neighbourhood",
    )
    page = render_html(picture)
    assert 'data-nodes="3"' in page and 'data-edges="2"' in page
    assert '<p id="summary">3 entities, 2 facts</p>' in page
    # The library is inlined: no script or stylesheet is fetched from anywhere.
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"<link[^>]*\bhref=", page)
    assert "Bokeh" in page and "embed_items" in page
    assert "dataset.rendered" in page


def test_names_questions_and_answers_cannot_inject_markup() -> None:
    fact = _fact("f1", EVIL, EVIL_IMG, "Berlin")
    picture = picture_from_facts(
        [fact], title=EVIL, subtitle=EVIL_IMG, notes=[f"hop 1: {EVIL} → {EVIL_IMG}"], entities=[]
    )
    page = render_html(picture)
    assert EVIL not in page
    assert EVIL_IMG not in page
    assert "<img" not in page
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in page
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in page
    # Exactly our own scripts: Bokeh's data, its inlined library and the render check.
    opened = re.findall(r"<script\b", page)
    closed = re.findall(r"</script>", page)
    assert len(opened) == len(closed)


def test_an_empty_picture_still_renders() -> None:
    page = render_html(Picture(title="memory overview"))
    assert 'data-nodes="0"' in page and "0 entities, 0 facts" in page
