"""The ``elephant`` command line.

Every command that a script would read takes ``--json`` and prints exactly one JSON
value on stdout; progress bars and messages go to stderr. Errors (unreachable store,
bad URL, unreadable file, empty text) print one line and exit non-zero, without a
traceback.

Start-up laziness: a command imports what it uses inside its function (the broker, the
store, the language rules, the MCP SDK, the drawing code); the module top imports only
typer, rich and the other command modules, which follow the same rule. ``elephant
--help`` therefore loads no LangGraph, numpy, jieba, embedding model or database
driver, and each command pays only for its own needs (``tests/integration/test_cli_startup.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

try:  # typer >= 0.24 carries its own copy of click; older ones use click itself
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException, NoArgsIsHelpError, UsageError  # type: ignore[assignment]

from elephant_broker.broker.bench import bench_app
from elephant_broker.broker.cli_agent import audit, feedback, notes
from elephant_broker.broker.cli_common import (
    Options,
    context_from_options,
    fail_line,
    group_option,
    handle_errors,
    open_broker,
    print_json,
    print_notes,
    remember_group_options,
    stderr,
    stdout,
)
from elephant_broker.broker.cli_entities import entities_app
from elephant_broker.broker.cli_mcp import mcp as mcp_command
from elephant_broker.broker.cli_viz import viz

if TYPE_CHECKING:
    from elephant_broker.broker.api import Broker
    from elephant_broker.schemas.models import Perception
    from elephant_broker.store.embedded import EmbeddedFalkorDB

app = typer.Typer(
    name="elephant",
    help="ElephantBroker: knowledge-graph memory and question answering for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
server_app = typer.Typer(help="Manage the embedded FalkorDB server of $ELEPHANT_HOME.", no_args_is_help=True)
app.add_typer(server_app, name="server")
app.add_typer(entities_app, name="entities")
app.command("mcp")(mcp_command)
app.command("viz")(viz)
app.command("feedback")(feedback)
app.command("notes")(notes)
app.command("audit")(audit)
sources_app = typer.Typer(help="Sources of episodes and how much to trust them.")
app.add_typer(sources_app, name="sources")
eval_app = typer.Typer(help="Measure the broker on public datasets (give the file path).", no_args_is_help=True)
app.add_typer(eval_app, name="eval")
app.add_typer(bench_app, name="bench")


@app.callback()
def main(
    store: Annotated[
        str | None, typer.Option("--store", help="Store URL (embedded, falkordb://host:port, neo4j://...).")
    ] = None,
    llm: Annotated[str | None, typer.Option("--llm", help="Chat model as provider:model; empty for offline.")] = None,
    home: Annotated[
        str | None, typer.Option("--home", help="Data directory (default $ELEPHANT_HOME or ./.elephant).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or notes on stderr.")] = False,
) -> None:
    """Remember what agents perceive and answer questions with the facts behind each answer."""
    Options.store, Options.llm, Options.home, Options.quiet = store, llm, home, quiet


@app.command()
@handle_errors
def ingest(
    files: Annotated[
        list[Path] | None, typer.Argument(help=".txt/.md as text; .jsonl as turns {speaker, text, time?}.")
    ] = None,
    text: Annotated[str | None, typer.Option("--text", help="Text to remember.")] = None,
    facts_files: Annotated[
        list[Path] | None,
        typer.Option(
            "--facts",
            help="Facts already extracted, stored as given without reading (repeatable): .jsonl or .csv rows of "
            "subject, predicate, object and optional subject_type, object_type, confidence, negated, valid_from, "
            "source, time, episode.",
        ),
    ] = None,
    speaker: Annotated[
        str | None, typer.Option("--speaker", help="Who said it (first person resolves to this).")
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory this is.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="Session id (provenance).")] = None,
    source: Annotated[str | None, typer.Option("--source", help="Source name (provenance).")] = None,
    review: Annotated[
        str | None, typer.Option("--review", help="Contradictions: auto (decide by policy) or human (hold for review).")
    ] = None,
    derived_from: Annotated[
        list[str] | None,
        typer.Option("--derived-from", help="Id of a stored fact this text was concluded from (repeatable)."),
    ] = None,
    schema: Annotated[
        Path | None,
        typer.Option(
            "--schema",
            help="Entity types and predicates to keep (.toml or .json; default $ELEPHANT_SCHEMA): both Readers' "
            "facts are made to fit it.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print counts as one JSON object.")] = False,
) -> None:
    """Remember texts: extract facts and merge them into the graph (or take given facts: --facts)."""
    from elephant_broker.broker.ingest_files import TEXT_SUFFIXES, read_facts, read_perceptions
    from elephant_broker.domain.reading import with_preceding
    from elephant_broker.schemas.context import Context
    from elephant_broker.schemas.models import Perception

    defaults: dict[str, Any] = {
        "speaker": speaker,
        "agent_id": agent,
        "session_id": session,
        "source": source,
        "derived_from": derived_from or None,
    }
    perceptions: list[Perception] = []
    if text is not None:
        perceptions.append(Perception.model_validate({"text": text, **defaults}))
    for path in files or []:
        # Everything is read and validated before anything is written: bad input loses nothing.
        found = read_perceptions(path, **defaults)
        # A document's pieces are read each with the end of the one before as context (turns are not pieces).
        perceptions.extend(with_preceding(found) if path.suffix.lower() in TEXT_SUFFIXES else found)
    for path in facts_files or []:
        perceptions.extend(read_facts(path, **defaults))
    if not perceptions:
        raise ValueError("nothing to ingest: give --text TEXT, --facts FILE or one or more files")
    context = context_from_options()
    if review is not None:
        context = Context(**{**vars(context), "review_policy": review})
    if schema is not None:
        context = Context(**{**vars(context), "schema": str(schema)})
    broker = open_broker(context)
    report = _ingest_with_progress(broker, perceptions)
    print_notes(report.notes)
    if as_json:
        print_json(report.model_dump())
    else:
        stdout.print(
            f"Remembered {report.episodes} episode(s): {report.facts} new fact(s), "
            f"{report.entities} new entit(ies), {report.conflicts} conflict(s).",
            highlight=False,
        )
        if report.model_calls is not None:
            tokens = (report.model_input_tokens or 0) + (report.model_output_tokens or 0)
            stdout.print(
                f"Model: {report.model_calls} request(s), {report.model_cached} reading(s) from the cache, "
                f"{tokens:,} token(s).",
                highlight=False,
            )
        waiting = [c for c in broker.conflicts(agent_id=agent) if c.status == "open"]
        if waiting:
            stdout.print(
                f"{len(waiting)} conflict(s) await review: elephant conflicts; elephant resolve ID --keep new|old|both"
            )


def _ingest_with_progress(broker: Broker, perceptions: list[Perception]) -> Any:
    if Options.quiet or len(perceptions) < 2:
        return broker.remember_many(perceptions)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("ingesting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=stderr, transient=True) as progress:
        task = progress.add_task("ingest", total=len(perceptions))
        return broker.remember_many(perceptions, on_each=lambda _report: progress.advance(task))


@app.command()
@handle_errors
def ask(
    question: Annotated[str, typer.Argument(help="The question, in Chinese or English.")],
    speaker: Annotated[str | None, typer.Option("--speaker", help="Who asks (first person resolves to this).")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to search.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="Session id of the asker.")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Answer as memory stood then (ISO date or date-time).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print answer, facts and episodes as JSON.")] = False,
    reveal: Annotated[
        bool, typer.Option("--reveal", help="Show masked values in the answer (needs $ELEPHANT_VAULT_KEY).")
    ] = False,
) -> None:
    """Answer a question from memory, with the facts and episodes it rests on."""
    broker = open_broker()
    answer = broker.ask(question, speaker=speaker, agent_id=agent, session_id=session, as_of=as_of)
    if reveal:
        answer = answer.model_copy(
            update={"answer": broker.reveal(answer.answer, agent), "value": broker.reveal(answer.value, agent)}
        )
    print_notes(answer.notes)
    for reminder in answer.reminders:
        stderr.print(f"[yellow]reminder:[/] {reminder}", highlight=False, soft_wrap=True)
    if as_json:
        print_json(answer.model_dump(mode="json"))
        return
    stdout.print(answer.answer, highlight=False)
    for number, hop in enumerate(answer.hops, start=1):
        found = ", ".join(entity.name for entity in hop.answers) or ("—" if not hop.answered else "(evidence)")
        stdout.print(f"  [dim]hop {number}[/] {hop.question} → {found}", highlight=False)
    if answer.facts:
        stdout.print(_facts_table(answer.facts, title="evidence"))
    for episode in answer.episodes:
        stdout.print(f"  [dim]{episode.id}[/] {episode.speaker}: {episode.text}", highlight=False)
    if answer.related.facts:
        stdout.print(_facts_table(answer.related.facts, title="related (the answer does not rest on these)"))
    for episode in answer.related.episodes:
        stdout.print(f"  [dim]related {episode.id}[/] {episode.speaker}: {episode.text}", highlight=False)


@app.command()
@handle_errors
def facts(
    entity: Annotated[str | None, typer.Option("--entity", help="Only facts about this entity.")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id: whose memory to list.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many facts.")] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List stored facts."""
    found = open_broker().facts(entity, agent_id=agent, limit=limit)
    if as_json:
        print_json([fact.model_dump(mode="json") for fact in found])
    elif found:
        stdout.print(_facts_table(found))
    else:
        stdout.print("No facts stored yet." if entity is None else f"No facts about {entity}.")


@app.command()
@handle_errors
def conflicts(
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the agent's contradictions: open ones awaiting review, then decided ones.

    Open ones include runs paused through the LangGraph API (langgraph dev) on the same store.
    """
    from elephant_broker.language.sentences import sentence_of

    found = open_broker().conflicts(agent_id=agent)
    if as_json:
        print_json([conflict.model_dump(mode="json") for conflict in found])
        return
    if not found:
        stdout.print("No conflicts.")
        return
    table = Table()
    table.add_column("id", no_wrap=True, min_width=len(found[0].id))  # resolve needs it whole
    for heading in ("status", "kind", "old", "new", "decision", "reason"):
        table.add_column(heading, overflow="fold")
    for conflict in found:
        table.add_row(
            conflict.id,
            conflict.status,
            conflict.kind,
            sentence_of(conflict.old_fact),
            sentence_of(conflict.new_fact),
            f"{conflict.decision or ''} {('(' + conflict.decided_by + ')') if conflict.decided_by else ''}".strip(),
            conflict.reason,
        )
    stdout.print(table)


@app.command()
@handle_errors
def resolve(
    conflict_id: Annotated[str, typer.Argument(help="Id of an open conflict (see 'elephant conflicts').")],
    keep: Annotated[str, typer.Option("--keep", help="Which fact is true now: new, old or both.")],
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decided conflict as JSON.")] = False,
) -> None:
    """Settle an open conflict of the agent's memory; the paused episode is then written with the decision.

    A run paused through the LangGraph API (langgraph dev) is resumed there: the error names its thread.
    """
    from elephant_broker.language.sentences import sentence_of

    conflict = open_broker().resolve(conflict_id, keep, agent_id=agent)
    if as_json:
        print_json(conflict.model_dump(mode="json"))
    else:
        old, new = sentence_of(conflict.old_fact), sentence_of(conflict.new_fact)
        stdout.print(f"{conflict.id}: {conflict.decision} (old: {old}; new: {new})", highlight=False)


@app.command()
@handle_errors
def demo(
    agent: Annotated[str, typer.Option("--agent", help="Agent id the demo remembers under.")] = "demo",
) -> None:
    """Remember a short scripted conversation and answer questions about it."""
    from elephant_broker.broker.demo import run_demo

    run_demo(open_broker(), agent_id=agent, console=stdout, quiet=Options.quiet)


@server_app.command("status")
@handle_errors
def server_status(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Say whether the embedded server of the data directory is running."""
    server = _embedded_server()
    running = server.ping()
    if as_json:
        print_json({"running": running, "data_dir": str(server.data_dir), "socket": str(server.socket_path)})
    else:
        state = "running" if running else "not running"
        stdout.print(f"embedded FalkorDB in {server.data_dir}: {state}", highlight=False)


@server_app.command("stop")
@handle_errors
def server_stop() -> None:
    """Stop the embedded server (the next command starts it again)."""
    server = _embedded_server()
    stopped = server.stop()
    stdout.print("stopped" if stopped else "was not running")


@sources_app.callback(invoke_without_command=True)
@handle_errors
def sources(
    ctx: typer.Context,
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the sources episodes came from, with their authority."""
    if ctx.invoked_subcommand is not None:
        remember_group_options(ctx, agent=agent, as_json=as_json)
        return
    found = open_broker().sources(agent_id=agent)
    if as_json:
        print_json(found)
        return
    table = Table("source", "episodes", "authority")
    for row in found:
        table.add_row(str(row["name"]), str(row["episodes"]), f"{row['authority']:.2f}")
    stdout.print(table)


@sources_app.command("set")
@handle_errors
def sources_set(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Source name as given at ingest (--source).")],
    authority: Annotated[float, typer.Argument(help="Trust from 0 (unreliable) to 1 (authoritative).")],
    agent: Annotated[str | None, typer.Option("--agent", help="Agent id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the fact updates as JSON.")] = False,
) -> None:
    """Trust a source more or less; its facts, and facts derived from them, follow."""
    agent, as_json = group_option(ctx, "agent", agent), group_option(ctx, "as_json", as_json)
    broker = open_broker()
    updates = broker.set_source_authority(name, authority, agent_id=agent)
    known = {str(source["name"]).lower() for source in broker.sources(agent_id=agent)}
    if name.lower() not in known and not Options.quiet:
        # Allowed (a source may be trusted before it is heard from), but a typo should not pass unseen.
        stderr.print(f"note: no episode comes from source {name!r} yet; known: {', '.join(sorted(known)) or 'none'}")
    if as_json:
        print_json([update.model_dump(mode="json") for update in updates])
    else:
        lowered = sum(1 for update in updates if update.confidence_factor)
        stdout.print(f"{name}: authority {authority:.2f}; {len(updates)} fact(s) updated, {lowered} less certain.")


@eval_app.command("locomo")
@handle_errors
def eval_locomo(
    file: Annotated[Path, typer.Argument(help="A LoCoMo JSON file (a list of conversations with 'qa').")],
    k: Annotated[
        str, typer.Option("--k", help="Comma-separated cut-offs, 1 to 10 (an answer cites at most 10 episodes).")
    ] = "5,10",
    answers: Annotated[
        bool,
        typer.Option("--answers", help="Also score the answers: token F1 by category, abstention on category 5."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Evidence recall@k of the episodes ask cites, beside recall and a dense baseline (same embedder, same run)."""
    from elephant_broker.broker.eval_locomo import evaluate

    try:
        ks = [int(part) for part in k.split(",") if part.strip()]
    except ValueError as error:
        raise ValueError(f"--k must be comma-separated whole numbers, not {k!r}") from error
    if not ks or min(ks) < 1:
        raise ValueError("--k needs at least one cut-off of 1 or more")
    broker = open_broker()
    if Options.quiet:
        result = evaluate(broker, file, ks, answers=answers)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=stderr, transient=True) as bar:
            task = bar.add_task("loading", total=None)

            def update(stage: str, done: int, total: int) -> None:
                bar.update(task, description=stage, completed=done, total=total)

            result = evaluate(broker, file, ks, progress=update, answers=answers)
    if as_json:
        print_json(result)
        return
    table = Table("", *(f"recall@{cut}" for cut in sorted(set(ks))), title=f"{result['questions']} questions")
    for name in ("broker", "recall_baseline", "dense_baseline", "dense_text_only_baseline"):
        table.add_row(name, *(f"{result[name][f'recall@{cut}']:.3f}" for cut in sorted(set(ks))))
    stdout.print(table)
    if answers:
        scored = Table("", "F1 (1-4)", "F1 never abstaining", "abstained on 5", "abstained on 1-4", title="answers")
        for name, figures in result["answers"].items():
            abstained = figures["abstained_unanswerable"]
            scored.add_row(
                name,
                f"{figures['f1']:.3f}",
                f"{figures['f1_without_abstention']:.3f}",
                "—" if abstained is None else f"{abstained:.1%}",
                f"{figures['abstained_answerable'] or 0:.1%}",
            )
        stdout.print(scored)


@eval_app.command("extraction")
@handle_errors
def eval_extraction(
    file: Annotated[Path, typer.Argument(help="A DuIE 2.0 or statements JSON Lines file, or a WebNLG JSON array.")],
    file_format: Annotated[str, typer.Option("--format", help="duie, webnlg or statements.")],
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Score only the first N sentences.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Precision, recall and F1 of the Reader's entity pairs against a corpus (offline rules unless --llm)."""
    from elephant_broker.broker.eval_extraction import (
        evaluate_extraction,
        load_sentences,
        model_reader,
        rules_reader,
    )

    sentences = load_sentences(file, file_format)[:limit]
    llm = context_from_options().llm
    result = evaluate_extraction(sentences, model_reader(llm) if llm else rules_reader)
    result["reader"] = "model" if llm else "rules"
    if as_json:
        print_json(result)
        return
    table = Table("matching", "precision", "recall", "F1", title=f"{result['sentences']} sentences, {file_format}")
    for rule in ("exact", "lenient"):
        table.add_row(rule, *(f"{result[rule][name]:.3f}" for name in ("precision", "recall", "f1")))
    stdout.print(table)
    stdout.print(
        f"{result['predicted_pairs']} predicted pairs, {result['gold_pairs']} gold; "
        f"{result['unmatched_share']:.0%} of predicted pairs match nothing; "
        f"{result['exceptions']} sentence(s) raised; {result['sentences_per_s']} sentences/s"
    )


def _embedded_server() -> EmbeddedFalkorDB:
    from elephant_broker.store.embedded import EmbeddedFalkorDB
    from elephant_broker.store.factory import describe_store

    context = context_from_options()
    if context.store not in ("", "embedded"):
        raise ValueError(f"the store is {describe_store(context.store)}, not the embedded server")
    return EmbeddedFalkorDB(Path(context.home) / "falkordb")


def _facts_table(found: list[Any], title: str | None = None) -> Table:
    table = Table("subject", "predicate", "object", "conf.", "weight", "episodes", "status", title=title)
    for fact in found:
        predicate = f"not {fact.predicate}" if fact.negated else fact.predicate
        status = fact.status + (f" (until {fact.valid_to})" if fact.valid_to else "")
        table.add_row(
            fact.subject,
            predicate,
            fact.object,
            f"{fact.confidence:.2f}",
            str(fact.weight),
            str(len(fact.episode_ids)),
            status,
        )
    return table


def run() -> None:
    """Console-script entry point."""
    # jieba and tokenizers print to stderr on import; keep the CLI's output clean.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        code = app(standalone_mode=False)
    except NoArgsIsHelpError as error:
        stdout.print(error.ctx.get_help() if error.ctx else "", highlight=False, markup=False)
        raise SystemExit(2) from None
    except ClickException as error:
        # A bad option or argument is one line too, like every other error (not click's boxed usage).
        where = f" (see '{error.ctx.command_path} --help')" if isinstance(error, UsageError) and error.ctx else ""
        fail_line(f"{error.format_message()}{where}", error.exit_code)
    except typer.Abort:
        fail_line("interrupted", 130)
    if isinstance(code, int) and code:
        raise SystemExit(code)
