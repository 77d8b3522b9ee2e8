"""``elephant feedback``, ``notes`` and ``audit``: what the memory learns about the agent, and who read what.

Registered in ``broker/cli.py``. ``feedback`` judges an answer by the id ``ask --json``
gave it; ``notes`` lists the agent's error patterns; ``audit`` reads the append-only
access log of the data directory (``providers.audit``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer
from elephant_broker.broker.cli_common import Options, handle_errors, open_broker, print_json, stdout
from rich.table import Table


@handle_errors
def feedback(
    answer_id: Annotated[str, typer.Argument(help="The answer's id (ask --json gives it as 'id').")],
    verdict: Annotated[str, typer.Argument(help="right or wrong.")],
    correction: Annotated[
        str | None, typer.Option("--correction", help="What is true instead; remembered so it supersedes.")
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory answered.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what changed as JSON.")] = False,
) -> None:
    """Say an answer was right or wrong: the facts it cited become more or less certain."""
    report = open_broker().feedback(answer_id, verdict, correction=correction, agent_id=agent)
    if as_json:
        print_json(report.model_dump(mode="json"))
        return
    changed = f"{len(report.lowered)} fact(s) less certain" if verdict == "wrong" else f"{len(report.raised)} more"
    added = f"; the correction added {report.correction.facts} fact(s)" if report.correction else ""
    stdout.print(f"{answer_id}: {report.verdict}, {changed}{added}.", highlight=False)


@handle_errors
def notes(
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List what the memory learnt about the agent: question kinds and tools with a poor record."""
    found = open_broker().notes(agent_id=agent)
    if as_json:
        print_json([note.model_dump(mode="json") for note in found])
        return
    if not found:
        stdout.print("No notes: no kind of question or tool has a poor record.")
        return
    table = Table("about", "name", "wrong", "of", "reminder")
    for note in found:
        table.add_row(note.about, note.name, str(note.wrong), str(note.total), note.reminder)
    stdout.print(table)


@handle_errors
def audit(
    agent: Annotated[str | None, typer.Option("--agent", help="Only this agent's records.")] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Only records from this date or date-time on (ISO 8601, UTC).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List who read and wrote the memory of this data directory, oldest first."""
    from elephant_broker.broker.cli_common import context_from_options
    from elephant_broker.providers.audit import AuditLog, audit_rows

    start = None
    if since is not None:
        try:
            start = datetime.fromisoformat(since)
        except ValueError:
            raise ValueError(f"--since: an ISO 8601 date or date-time, not {since!r}") from None
        start = start if start.tzinfo else start.replace(tzinfo=UTC)
    records = list(AuditLog(context_from_options().home).records(agent=agent, since=start))
    if as_json:
        print_json(audit_rows(records))
        return
    table = Table("at", "surface", "agent", "session", "operation", "ids")
    for record in records:
        ids = ", ".join(record.ids[:3]) + (f" (+{len(record.ids) - 3})" if len(record.ids) > 3 else "")
        table.add_row(record.at, record.surface, record.agent, record.session or "", record.operation, ids)
    if not Options.quiet or records:
        stdout.print(table)
