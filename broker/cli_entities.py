"""``elephant entities``: list entities, and undo merges (``entities unmerge ID``)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from broker.api import Broker
from broker.cli_common import context_from_options, handle_errors, print_json, stdout

entities_app = typer.Typer(help="Entities: list them, undo a merge.")


@entities_app.callback(invoke_without_command=True)
@handle_errors
def entities(
    ctx: typer.Context,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to list.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many entities.")] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List stored entities with their types and aliases."""
    if ctx.invoked_subcommand is not None:
        return
    found = Broker(context_from_options()).entities(agent_id=agent, limit=limit)
    if as_json:
        print_json([entity.model_dump(mode="json") for entity in found])
        return
    table = Table("name", "type", "mentions", "aliases", "id")
    for entity in found:
        table.add_row(entity.name, entity.type, str(entity.mention_count), ", ".join(entity.aliases), entity.id)
    stdout.print(table)
