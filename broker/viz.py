"""Pictures of memory: a self-contained HTML view of a subgraph or of an answer's evidence.

``elephant viz`` draws entities as coloured circles (colour = entity type) and facts as
labelled arrows (label = predicate); hovering shows a fact's confidence, weight,
status, validity, storage time and source episodes. Superseded and rejected facts are
dashed and grey; the chain of a multi-hop answer is drawn thick and blue.

Three layers, so most of it is testable without a browser or a store:

* reading a bounded subgraph through the store's ordinary reads — an entity's
  neighbourhood (``neighbourhood``), an answer's evidence (``evidence``), the most
  mentioned entities (``overview``); none of them loads the whole graph;
* turning ``Entity``/``Fact`` objects into plain node and edge rows (``picture_from_facts``)
  and placing them (``layout``, a seeded force-directed layout): pure functions;
* writing the page (``render_html``) with Bokeh and its JavaScript inlined
  (``Resources(mode="inline")``): the file opens offline and has no CDN link.

Every string that came from a user (names, predicates, questions, answers) reaches the
page either HTML-escaped or as data the canvas draws as text, never as markup. The
``<body>`` carries ``data-nodes``/``data-edges``, and a small script sets
``data-rendered`` once Bokeh has drawn its canvas, so a headless browser can check it.
"""

from __future__ import annotations

import html
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from elephant_broker.broker.api import Broker
from elephant_broker.language.names import normalize_name
from elephant_broker.language.sentences import sentence_of
from elephant_broker.providers.resources import request_scope
from elephant_broker.schemas.models import Answer, Entity, Fact

TYPE_COLOURS: dict[str, str] = {
    "Person": "#4e79a7",
    "Organization": "#f28e2b",
    "Place": "#59a14f",
    "Time": "#b07aa1",
    "Tool": "#e15759",
    "Language": "#76b7b2",
    "Food": "#edc948",
    "Thing": "#9c755f",
    "Event": "#ff9da7",
    "Activity": "#8cd17d",
    "Concept": "#bab0ac",
}
"""Node colour per entity type (Tableau 10 and one more); other types get ``OTHER_COLOUR``."""

OTHER_COLOUR = "#79706e"
ACTIVE_EDGE = "#555555"
RETIRED_EDGE = "#b8b8b8"
PATH_EDGE = "#1f6fd1"
RETIRED_STATUSES = frozenset({"superseded", "rejected"})

NODE_RADIUS = 0.045
"""Node radius in layout units (y spans [-1, 1]); arrows stop at the rim."""


@dataclass(frozen=True)
class Node:
    """One entity as drawn."""

    id: str
    name: str
    type: str
    mentions: int | None = None
    aliases: tuple[str, ...] = ()
    focus: bool = False


@dataclass(frozen=True)
class Edge:
    """One fact as drawn: an arrow from subject to object, labelled with the predicate."""

    id: str
    source: str
    target: str
    label: str
    sentence: str
    confidence: float
    weight: int
    status: str
    valid: str
    stored: str
    episodes: str
    on_path: bool = False

    @property
    def retired(self) -> bool:
        """Whether the fact is no longer current truth (drawn dashed and grey)."""
        return self.status in RETIRED_STATUSES


@dataclass
class Picture:
    """What one page shows: a title, nodes, edges and a few lines of notes."""

    title: str
    subtitle: str = ""
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    view: str = "overview"


# -- from entities and facts to rows (pure) --------------------------------------------


def picture_from_facts(
    facts: Iterable[Fact],
    *,
    title: str,
    subtitle: str = "",
    entities: Iterable[Entity] = (),
    focus_ids: Iterable[str] = (),
    path_ids: Iterable[str] = (),
    notes: Iterable[str] = (),
    view: str = "overview",
) -> Picture:
    """Build the node and edge rows of a page from facts and (optionally) known entities.

    Every end of every fact becomes a node; ``entities`` add nodes with no drawn fact
    and fill in mention counts and aliases. A fact id seen twice is drawn once.

    Args:
        facts: The facts to draw.
        title: The page title (an answer, or what the view is of).
        subtitle: One line under the title (the question, the entity asked about).
        entities: Entities to draw even without facts, and whose details to show.
        focus_ids: Entity ids to outline (the entity asked about, the answer).
        path_ids: Fact ids to draw as the answer's chain.
        notes: Lines shown under the title (hop chain, caps that were hit).
        view: ``entity``, ``question`` or ``overview`` (kept on the page for scripts).
    """
    focus, path = set(focus_ids), set(path_ids)
    known = {entity.id: entity for entity in entities}
    nodes: dict[str, Node] = {}

    def add_node(node_id: str, name: str, type_: str | None) -> None:
        if node_id in nodes:
            return
        entity = known.get(node_id)
        nodes[node_id] = Node(
            id=node_id,
            name=entity.name if entity else name,
            type=(entity.type if entity else type_) or "Concept",
            mentions=entity.mention_count if entity else None,
            aliases=tuple(entity.aliases) if entity else (),
            focus=node_id in focus,
        )

    edges: dict[str, Edge] = {}
    for fact in facts:
        if fact.id in edges:
            continue
        source = fact.subject_id or f"name:{fact.subject}"
        target = fact.object_id or f"name:{fact.object}"
        add_node(source, fact.subject, fact.subject_type)
        add_node(target, fact.object, fact.object_type)
        edges[fact.id] = edge_from_fact(fact, source, target, on_path=fact.id in path)
    for entity in known.values():
        add_node(entity.id, entity.name, entity.type)
    return Picture(
        title=title,
        subtitle=subtitle,
        nodes=list(nodes.values()),
        edges=list(edges.values()),
        notes=list(notes),
        view=view,
    )


def edge_from_fact(fact: Fact, source: str, target: str, *, on_path: bool = False) -> Edge:
    """Return the drawn form of a fact: label, hover texts and style inputs."""
    negation = ("not " if fact.predicate.isascii() else "不") if fact.negated else ""
    valid = " – ".join(part for part in (fact.valid_from, fact.valid_to) if part) or "–"
    return Edge(
        id=fact.id,
        source=source,
        target=target,
        label=negation + fact.predicate,
        sentence=sentence_of(fact),
        confidence=round(float(fact.confidence), 3),
        weight=int(fact.weight),
        status=fact.status,
        valid=valid,
        stored=format_ms(fact.created_at),
        episodes=", ".join(fact.episode_ids) or "–",
        on_path=on_path,
    )


def format_ms(ms: int | None) -> str:
    """Render milliseconds since the epoch as an ISO UTC time to the second ("–" when unknown)."""
    if ms is None:
        return "–"
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def type_colour(entity_type: str) -> str:
    """Return the fill colour of an entity type."""
    return TYPE_COLOURS.get(entity_type, OTHER_COLOUR)


# -- layout (pure) ----------------------------------------------------------------------


def layout(
    node_ids: Sequence[str],
    links: Iterable[tuple[str, str]],
    *,
    iterations: int = 300,
    seed: int = 7,
    gravity: float = 1.0,
    aspect: float = 1.6,
) -> dict[str, tuple[float, float]]:
    """Place nodes with a seeded Fruchterman–Reingold layout, y in [-1, 1] and x in ±``aspect``.

    The same nodes and links always give the same picture. A weak pull towards the
    centre keeps disconnected parts of the subgraph from drifting apart.
    """
    count = len(node_ids)
    if count == 0:
        return {}
    if count == 1:
        return {node_ids[0]: (0.0, 0.0)}
    index = {node_id: i for i, node_id in enumerate(node_ids)}
    adjacency = np.zeros((count, count))
    for source, target in links:
        i, j = index.get(source), index.get(target)
        if i is not None and j is not None and i != j:
            adjacency[i, j] = adjacency[j, i] = 1.0
    rng = np.random.default_rng(seed)
    angles = np.linspace(0.0, 2.0 * math.pi, count, endpoint=False)
    position = np.column_stack([np.cos(angles), np.sin(angles)]) + rng.normal(0.0, 0.02, (count, 2))
    ideal = 1.0 / math.sqrt(count)
    temperature, cooling = 0.2, 0.2 / (iterations + 1)
    for _ in range(iterations):
        delta = position[:, None, :] - position[None, :, :]
        distance = np.clip(np.linalg.norm(delta, axis=-1), 0.01, None)
        # Repulsion between every pair, attraction along links (networkx's formulation).
        strength = ideal * ideal / distance**2 - adjacency * distance / ideal
        displacement = np.einsum("ijk,ij->ik", delta, strength) - gravity * position
        length = np.clip(np.linalg.norm(displacement, axis=-1), 0.01, None)
        position += displacement * (np.minimum(length, temperature) / length)[:, None]
        temperature -= cooling
    position -= position.mean(axis=0)
    position /= max(float(np.abs(position).max()), 1e-9)
    # Pages are wider than tall: use the width.
    position[:, 0] *= aspect
    return {node_id: (float(x), float(y)) for node_id, (x, y) in zip(node_ids, position, strict=True)}


def edge_geometry(
    start: tuple[float, float], end: tuple[float, float], slot: float, radius: float = NODE_RADIUS
) -> dict[str, Any]:
    """Return the polyline, arrowhead and label position of one edge.

    ``slot`` bends parallel edges between the same two nodes apart (0 is straight); a
    fact from an entity to itself is drawn as a small loop above the node.
    """
    (x0, y0), (x1, y1) = start, end
    if math.isclose(x0, x1) and math.isclose(y0, y1):
        turn = np.linspace(-0.25 * math.pi, 1.25 * math.pi, 24)
        loop = radius * (1.4 + 0.5 * abs(slot))
        cx, cy = x0, y0 + radius + loop * 0.7
        xs = [cx + loop * math.cos(a) for a in turn]
        ys = [cy + loop * math.sin(a) for a in turn]
        return {"xs": xs, "ys": ys, "head": (xs[-2], ys[-2], xs[-1], ys[-1]), "label": (cx, cy + loop)}
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    nx_, ny_ = -dy / length, dx / length
    bend = slot * min(0.12, 0.35 * length)
    cx, cy = (x0 + x1) / 2 + nx_ * bend, (y0 + y1) / 2 + ny_ * bend
    steps = np.linspace(0.0, 1.0, 16 if slot else 2)
    xs = [float((1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t**2 * x1) for t in steps]
    ys = [float((1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t**2 * y1) for t in steps]
    # The arrow points along the curve's last tangent and stops at the target's rim.
    tx, ty = x1 - cx, y1 - cy
    tangent = math.hypot(tx, ty) or 1.0
    hx, hy = x1 - tx / tangent * radius, y1 - ty / tangent * radius
    tip = (hx - tx / tangent * 0.01, hy - ty / tangent * 0.01, hx, hy)
    label = (0.25 * x0 + 0.5 * cx + 0.25 * x1, 0.25 * y0 + 0.5 * cy + 0.25 * y1)
    return {"xs": xs, "ys": ys, "head": tip, "label": label}


def edge_slots(edges: Sequence[Edge]) -> list[float]:
    """Spread parallel edges (same two nodes, either direction) symmetrically: 0, ±1, ±2 …."""
    groups: dict[frozenset[str], list[int]] = defaultdict(list)
    for i, edge in enumerate(edges):
        groups[frozenset((edge.source, edge.target))].append(i)
    slots = [0.0] * len(edges)
    for members in groups.values():
        middle = (len(members) - 1) / 2
        for rank, i in enumerate(members):
            slot = rank - middle
            # Opposite directions flip the normal: keep the spread consistent for both.
            edge = edges[i]
            slots[i] = slot if edge.source <= edge.target else -slot
    return slots


def plot_data(picture: Picture, positions: dict[str, tuple[float, float]]) -> tuple[dict[str, list], dict[str, list]]:
    """Return the node and edge columns handed to Bokeh (one list per column)."""
    degree: dict[str, int] = defaultdict(int)
    for edge in picture.edges:
        degree[edge.source] += 1
        degree[edge.target] += 1
    nodes: dict[str, list] = defaultdict(list)
    for node in picture.nodes:
        x, y = positions[node.id]
        nodes["id"].append(node.id)
        nodes["name"].append(node.name)
        nodes["type"].append(node.type)
        nodes["colour"].append(type_colour(node.type))
        nodes["mentions"].append("–" if node.mentions is None else str(node.mentions))
        nodes["aliases"].append(", ".join(node.aliases) or "–")
        nodes["degree"].append(degree[node.id])
        nodes["outline"].append(3.5 if node.focus else 1.0)
        nodes["x"].append(x)
        nodes["y"].append(y)
        nodes["label_y"].append(y - NODE_RADIUS * 1.5)
    edges: dict[str, list] = defaultdict(list)
    for edge, slot in zip(picture.edges, edge_slots(picture.edges), strict=True):
        geometry = edge_geometry(positions[edge.source], positions[edge.target], slot)
        colour = PATH_EDGE if edge.on_path else RETIRED_EDGE if edge.retired else ACTIVE_EDGE
        for name, value in (
            ("id", edge.id),
            ("label", edge.label),
            ("sentence", edge.sentence),
            ("confidence", edge.confidence),
            ("weight", edge.weight),
            ("status", edge.status),
            ("valid", edge.valid),
            ("stored", edge.stored),
            ("episodes", edge.episodes),
            ("colour", colour),
            ("dash", [6, 4] if edge.retired else []),
            ("width", 3.5 if edge.on_path else 1.6),
            ("xs", geometry["xs"]),
            ("ys", geometry["ys"]),
        ):
            edges[name].append(value)
        hx0, hy0, hx1, hy1 = geometry["head"]
        edges["hx0"].append(hx0)
        edges["hy0"].append(hy0)
        edges["hx1"].append(hx1)
        edges["hy1"].append(hy1)
        edges["lx"].append(geometry["label"][0])
        edges["ly"].append(geometry["label"][1])
    return dict(nodes), dict(edges)


# -- the page ---------------------------------------------------------------------------

_EMPTY_NODES = ("id", "name", "type", "colour", "mentions", "aliases", "degree", "outline", "x", "y", "label_y")
_EMPTY_EDGES = (
    *("id", "label", "sentence", "confidence", "weight", "status", "valid", "stored", "episodes"),
    *("colour", "dash", "width", "xs", "ys", "hx0", "hy0", "hx1", "hy1", "lx", "ly"),
)

_STYLE = """
html, body { margin: 0; height: 100%; font-family: system-ui, "Noto Sans CJK SC", sans-serif; color: #222; }
body { display: flex; flex-direction: column; }
header { padding: 10px 16px 6px; border-bottom: 1px solid #ddd; }
header h1 { font-size: 18px; margin: 0 0 4px; font-weight: 600; }
header p { margin: 2px 0; font-size: 13px; color: #555; }
header ol { margin: 4px 0; padding-left: 20px; font-size: 13px; color: #333; }
#summary { font-weight: 600; color: #222; }
.key span { margin-right: 14px; white-space: nowrap; }
.swatch { display: inline-block; width: 22px; height: 0; vertical-align: middle; margin-right: 4px; }
main { flex: 1; min-height: 0; position: relative; }
#graph { position: absolute; inset: 0; }
"""

# Sets data-rendered (and data-drawn-nodes from Bokeh's own document) once a canvas
# with a size exists: Bokeh draws inside shadow roots, so they are searched too.
_RENDER_CHECK = """
(function () {
  function canvases(root) {
    var found = Array.prototype.slice.call(root.querySelectorAll("canvas"));
    root.querySelectorAll("*").forEach(function (el) {
      if (el.shadowRoot) { found = found.concat(canvases(el.shadowRoot)); }
    });
    return found;
  }
  var tries = 0;
  function check() {
    var drawn = canvases(document).filter(function (c) { return c.width > 0 && c.height > 0; });
    var docs = (window.Bokeh && window.Bokeh.documents) || [];
    var source = docs.length ? docs[0].get_model_by_name("entities") : null;
    if (drawn.length && source) {
      document.body.dataset.drawnNodes = String(source.get_length() || 0);
      document.body.dataset.canvases = String(drawn.length);
      document.body.dataset.rendered = "true";
    } else if (++tries < 200) {
      setTimeout(check, 50);
    } else {
      document.body.dataset.rendered = "false";
    }
  }
  window.addEventListener("load", function () { setTimeout(check, 0); });
})();
"""


def render_html(picture: Picture, *, seed: int = 7) -> str:
    """Return the page: title, notes, key, and the Bokeh plot with its JS and CSS inlined."""
    from bokeh.embed import components
    from bokeh.models import ColumnDataSource, DataRange1d, HoverTool
    from bokeh.models.annotations import Arrow, LabelSet, Legend, LegendItem
    from bokeh.models.annotations.arrows import VeeHead
    from bokeh.plotting import figure
    from bokeh.resources import Resources

    positions = layout([node.id for node in picture.nodes], [(e.source, e.target) for e in picture.edges], seed=seed)
    node_columns, edge_columns = plot_data(picture, positions)
    nodes = ColumnDataSource({name: node_columns.get(name, []) for name in _EMPTY_NODES}, name="entities")
    edges = ColumnDataSource({name: edge_columns.get(name, []) for name in _EMPTY_EDGES}, name="facts")

    plot = figure(
        sizing_mode="stretch_both",
        match_aspect=True,
        tools="pan,wheel_zoom,box_zoom,reset,save",
        active_scroll="wheel_zoom",
        toolbar_location="above",
        # Data ranges (not fixed ones), so match_aspect keeps circles round and offsets true.
        x_range=DataRange1d(range_padding=0.12),
        y_range=DataRange1d(range_padding=0.12),
    )
    plot.axis.visible = False
    plot.grid.visible = False
    plot.outline_line_color = None
    lines = plot.multi_line(
        xs="xs", ys="ys", line_color="colour", line_width="width", line_dash="dash", line_alpha=0.9, source=edges
    )
    lines.hover_glyph = None
    plot.add_layout(
        # Only the head is drawn (the line is the hoverable multi_line); Bokeh's stubs name
        # the body's alpha ``body_line_alpha``, the runtime of 3.x still ``line_alpha``.
        Arrow(  # type: ignore[call-arg]
            end=VeeHead(size=11, fill_color="colour", line_color="colour"),
            x_start="hx0",
            y_start="hy0",
            x_end="hx1",
            y_end="hy1",
            line_alpha=0.0,
            source=edges,
        )
    )
    circles = plot.circle(
        x="x",
        y="y",
        radius=NODE_RADIUS,
        fill_color="colour",
        line_color="#333333",
        line_width="outline",
        source=nodes,
    )
    plot.add_layout(
        LabelSet(
            x="lx",
            y="ly",
            text="label",
            source=edges,
            text_font_size="11px",
            text_color="#333333",
            text_align="center",
            text_baseline="middle",
            background_fill_color="white",
            background_fill_alpha=0.85,
        )
    )
    plot.add_layout(
        LabelSet(
            x="x",
            y="label_y",
            text="name",
            source=nodes,
            text_font_size="13px",
            text_font_style="bold",
            text_align="center",
            text_baseline="top",
        )
    )
    # One legend entry per entity type present, drawn from points that are never shown
    # (NaN positions), so a thick focus outline does not leak into the key.
    present = sorted({node.type for node in picture.nodes}, key=lambda t: (t not in TYPE_COLOURS, t))
    if present:
        key = ColumnDataSource(
            {
                "x": [math.nan] * len(present),
                "y": [math.nan] * len(present),
                "type": present,
                "colour": [type_colour(t) for t in present],
            }
        )
        swatches = plot.scatter(x="x", y="y", size=11, fill_color="colour", line_color="#333333", source=key)
        items = [LegendItem(label=t, renderers=[swatches], index=i) for i, t in enumerate(present)]  # type: ignore[list-item]
        # Outside the plot, on the right: it never hides a node.
        plot.add_layout(Legend(items=items, title="entity type", label_text_font_size="11px"), "right")
    plot.add_tools(
        HoverTool(
            renderers=[circles],
            tooltips=[
                ("entity", "@name"),
                ("type", "@type"),
                ("mentions", "@mentions"),
                ("aliases", "@aliases"),
                ("facts drawn", "@degree"),
                ("id", "@id"),
            ],
        ),
        HoverTool(
            renderers=[lines],
            line_policy="interp",
            tooltips=[
                ("fact", "@sentence"),
                ("confidence", "@confidence{0.00}"),
                ("weight", "@weight"),
                ("status", "@status"),
                ("valid", "@valid"),
                ("stored", "@stored"),
                ("episodes", "@episodes"),
                ("id", "@id"),
            ],
        ),
    )
    script, div = components(plot)
    # Only the core bundle: the page needs no widgets, tables, WebGL or MathJax (1.3 MB, not 4).
    return _page(picture, Resources(mode="inline", components=["bokeh"]).render(), script, div)


def _page(picture: Picture, resources: str, script: str, div: str) -> str:
    """Assemble the HTML page around Bokeh's resources, script and div; all our text escaped."""
    esc = html.escape
    summary = f"{len(picture.nodes)} entities, {len(picture.edges)} facts"
    notes = "".join(f"<li>{esc(note)}</li>" for note in picture.notes)
    key = (
        f'<p class="key"><span><i class="swatch" style="border-top:2px solid {ACTIVE_EDGE}"></i>active fact</span>'
        f'<span><i class="swatch" style="border-top:2px dashed {RETIRED_EDGE}"></i>superseded / rejected</span>'
        + (
            f'<span><i class="swatch" style="border-top:4px solid {PATH_EDGE}"></i>the answer\'s chain</span>'
            if any(edge.on_path for edge in picture.edges)
            else ""
        )
        + "<span>hover an entity or a fact for details</span></p>"
    )
    counts = json.dumps({"nodes": len(picture.nodes), "edges": len(picture.edges)})
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(picture.title)}</title>\n"
        f"<style>{_STYLE}</style>\n{resources}\n</head>\n"
        f'<body data-nodes="{len(picture.nodes)}" data-edges="{len(picture.edges)}" data-view="{esc(picture.view)}">\n'
        f"<header>\n<h1>{esc(picture.title)}</h1>\n"
        + (f'<p class="subtitle">{esc(picture.subtitle)}</p>\n' if picture.subtitle else "")
        + f'<p id="summary">{summary}</p>\n'
        + (f"<ol>{notes}</ol>\n" if notes else "")
        + f"{key}\n</header>\n"
        f'<main><div id="graph">{div}</div></main>\n'
        f'<script type="application/json" id="elephant-counts">{counts}</script>\n'
        f"{script}\n<script>{_RENDER_CHECK}</script>\n</body>\n</html>\n"
    )


def write_html(picture: Picture, path: str | Path, *, seed: int = 7) -> Path:
    """Write the page of a picture to ``path`` (UTF-8) and return the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_html(picture, seed=seed), encoding="utf-8")
    return target


# -- reading a bounded subgraph -----------------------------------------------------------


def neighbourhood(
    broker: Broker,
    name: str,
    *,
    agent_id: str | None = None,
    hops: int = 2,
    max_facts: int = 200,
    max_entities: int = 100,
) -> Picture:
    """Draw the facts within ``hops`` steps of an entity (any spelling of its name).

    Each step reads the facts touching the current frontier (active and superseded,
    heaviest first) and stops adding once ``max_facts`` facts or ``max_entities``
    entities are drawn, so a hub entity cannot pull in the whole graph.

    Raises:
        ValueError: If no entity has that name.
    """
    scope = request_scope(agent_id, broker.context)
    store = broker.store
    key = normalize_name(name)
    found = store.entities_by_keys(scope, store.entity_keys_for_name(scope, key) or [key])
    if not found:
        raise ValueError(f"no entity named {name!r} in memory (see 'elephant entities')")
    roots = list(found.values())
    seen = {entity.id for entity in roots}
    frontier = set(seen)
    facts: dict[str, Fact] = {}
    capped = False
    for _ in range(max(hops, 1)):
        if not frontier:
            break
        reached: set[str] = set()
        for fact, _embedding in store.facts_touching(scope, frontier, limit=max_facts, history=True):
            if fact.id in facts:
                continue
            ends = {end for end in (fact.subject_id, fact.object_id) if end}
            if len(facts) >= max_facts or len(seen | reached | ends) > max_entities:
                capped = True
                continue
            facts[fact.id] = fact
            reached |= ends
        frontier = reached - seen
        seen |= reached
    notes = [f"capped at {max_facts} facts / {max_entities} entities"] if capped else []
    broker.audit("viz", scope, ids=[*(entity.id for entity in roots), *facts], queries=[name])
    names = ", ".join(sorted({entity.name for entity in roots}))
    return picture_from_facts(
        facts.values(),
        title=f"{names}: neighbourhood",
        subtitle=f"facts up to {hops} step(s) from {name}",
        entities=roots,
        focus_ids=seen & {entity.id for entity in roots},
        notes=notes,
        view="entity",
    )


def evidence(answer: Answer, question: str) -> Picture:
    """Draw an answer's evidence: its facts, what used to be true, and the hop chain.

    For a multi-hop answer, each hop's facts that link the hop's anchors to its answers
    form the chain (drawn thick and blue), listed under the title as
    "sub-question → answer".
    """
    path: list[Fact] = []
    notes: list[str] = []
    focus: list[Entity] = []
    for number, hop in enumerate(answer.hops, start=1):
        anchors = {entity.id for entity in hop.anchors}
        answers = {entity.id for entity in hop.answers}
        for fact in hop.facts:
            ends = {fact.subject_id, fact.object_id}
            if ends & anchors and ends & answers:
                path.append(fact)
        found = ", ".join(entity.name for entity in hop.answers) or "not found"
        notes.append(f"hop {number}: {hop.question} → {found}")
        focus.extend([*hop.anchors, *hop.answers])
    return picture_from_facts(
        [*answer.facts, *path, *answer.history],
        title=answer.answer,
        subtitle=f"question: {question}",
        entities=focus,
        focus_ids=[entity.id for entity in focus],
        path_ids=[fact.id for fact in path],
        notes=notes,
        view="question",
    )


def overview(broker: Broker, *, agent_id: str | None = None, max_entities: int = 100, max_facts: int = 300) -> Picture:
    """Draw the most mentioned entities and the facts among them (both capped)."""
    scope = request_scope(agent_id, broker.context)
    entities = broker.store.list_entities(scope, max_entities)
    ids = {entity.id for entity in entities}
    touching = broker.store.facts_touching(scope, ids, limit=max_facts, history=True)
    among = [fact for fact, _ in touching if fact.subject_id in ids and fact.object_id in ids][:max_facts]
    broker.audit("viz", scope, ids=[fact.id for fact in among])
    return picture_from_facts(
        among,
        title="memory overview",
        subtitle=f"the {len(entities)} most mentioned entities and the facts among them",
        entities=entities,
        notes=[f"capped at {max_entities} entities"] if len(entities) >= max_entities else [],
        view="overview",
    )
