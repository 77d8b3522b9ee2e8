"""``elephant entities``: list entities and merge records (``entities merges``), undo one (``unmerge ID``)."""

from __future__ import annotations

from typing import Annotated

import typer
from elephant_broker.broker.cli_common import (
    group_option,
    handle_errors,
    open_broker,
    print_json,
    remember_group_options,
    stdout,
)
from rich.table import Table

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
        remember_group_options(ctx, agent=agent, as_json=as_json)
        return
    found = open_broker().entities(agent_id=agent, limit=limit)
    if as_json:
        print_json([entity.model_dump(mode="json") for entity in found])
        return
    table = Table("name", "type", "mentions", "aliases", "id")
    for entity in found:
        table.add_row(entity.name, entity.type, str(entity.mention_count), ", ".join(entity.aliases), entity.id)
    stdout.print(table)


@entities_app.command("merges")
@handle_errors
def merges(
    ctx: typer.Context,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to list.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many records.")] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List merge records: which name was merged into which entity, how, and whether undone."""
    agent, as_json = group_option(ctx, "agent", agent), group_option(ctx, "as_json", as_json)
    found = open_broker().merges(agent_id=agent, limit=limit)
    if as_json:
        print_json([record.model_dump(mode="json") for record in found])
        return
    table = Table("id", "alias", "into", "method", "score", "episodes", "facts", "status", "reason")
    for record in found:
        status = "undone" if record.undone_at is not None else "active"
        table.add_row(
            record.id,
            record.alias,
            record.into_name or record.into_key,
            record.method,
            f"{record.score:.3f}",
            str(len(record.episode_ids)),
            str(len(record.fact_ids)),
            status,
            record.reason,
        )
    stdout.print(table)


@entities_app.command("unmerge")
@handle_errors
def unmerge(
    ctx: typer.Context,
    merge_id: Annotated[str, typer.Argument(help="Id of the merge record (see `elephant entities merges`).")],
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to change.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the updated merge record as JSON.")] = False,
) -> None:
    """Undo a merge: the alias becomes its own entity again, with the facts and mentions that came through it."""
    agent, as_json = group_option(ctx, "agent", agent), group_option(ctx, "as_json", as_json)
    record = open_broker().unmerge(merge_id, agent_id=agent)
    if as_json:
        print_json(record.model_dump(mode="json"))
        return
    stdout.print(
        f"Unmerged {record.alias!r} from {record.into_name or record.into_key!r}: "
        f"{len(record.fact_ids)} fact(s) and {len(record.episode_ids)} episode(s) moved back to "
        f"entity {record.restored_id}."
    )
