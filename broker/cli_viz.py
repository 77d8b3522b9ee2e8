"""``elephant viz``: write a self-contained HTML picture of memory (a subgraph or an answer's evidence).

Registered in ``broker/cli.py`` as ``app.command("viz")(viz)``. The drawing itself is
``broker/viz.py``; this module only reads the options and reports what it wrote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from elephant_broker.broker.cli_common import Options, handle_errors, open_broker, print_json, stderr, stdout


@handle_errors
def viz(
    entity: Annotated[
        str | None, typer.Option("--entity", help="Draw this entity's neighbourhood (any spelling of its name).")
    ] = None,
    question: Annotated[
        str | None, typer.Option("--question", help="Answer this question and draw its evidence and hop chain.")
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="HTML file to write (opens offline).")] = Path(
        "elephant-graph.html"
    ),
    speaker: Annotated[
        str | None, typer.Option("--speaker", help="Who asks --question (first person resolves to this).")
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to draw.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="Session id of the asker (--question).")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Answer --question as memory stood then (ISO date or date-time).")
    ] = None,
    hops: Annotated[int, typer.Option("--hops", min=1, max=3, help="Steps from --entity to draw.")] = 2,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="At most this many entities.")] = 100,
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"output", "view", "nodes", "edges"} as one JSON object.')
    ] = False,
) -> None:
    """Draw memory as an HTML page: an entity's neighbourhood, an answer's evidence, or the busiest entities."""
    from elephant_broker.broker import viz as pictures

    if entity is not None and question is not None:
        raise ValueError("give --entity or --question, not both")
    broker = open_broker()
    if entity is not None:
        picture = pictures.neighbourhood(
            broker, entity, agent_id=agent, hops=hops, max_entities=limit, max_facts=max(2 * limit, 50)
        )
    elif question is not None:
        answer = broker.ask(question, speaker=speaker, agent_id=agent, session_id=session, as_of=as_of)
        picture = pictures.evidence(answer, question)
    else:
        picture = pictures.overview(broker, agent_id=agent, max_entities=limit, max_facts=max(3 * limit, 50))
    written = pictures.write_html(picture, output)
    if as_json:
        print_json(
            {"output": str(written), "view": picture.view, "nodes": len(picture.nodes), "edges": len(picture.edges)}
        )
        return
    stdout.print(
        f"Wrote {written}: {len(picture.nodes)} entities, {len(picture.edges)} facts ({picture.view} view).",
        highlight=False,
    )
    if not picture.nodes and not Options.quiet:
        stderr.print("note: nothing to draw yet (ingest something first)", highlight=False)
