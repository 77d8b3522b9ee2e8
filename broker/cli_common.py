"""Shared pieces of the ``elephant`` commands: consoles, global options, errors, JSON.

Start-up laziness: this module and the command modules import only typer, rich and
error classes at their top. The broker (LangGraph, the graphs, the language rules), the
run context and the store are imported when a command runs (``open_broker``,
``context_from_options``), so ``elephant --help`` and cheap commands do not pay for them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from elephant_broker.store.errors import StoreError
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from elephant_broker.broker.api import Broker
    from elephant_broker.schemas.context import Context

stdout = Console(soft_wrap=True)
stderr = Console(stderr=True, soft_wrap=True)

F = TypeVar("F", bound=Callable[..., Any])


class Options:
    """Global options, set by the ``elephant`` callback before any command runs."""

    store: str | None = None
    llm: str | None = None
    home: str | None = None
    quiet: bool = False


def context_from_options() -> Context:
    """Build the run context from the global options and the environment."""
    from elephant_broker.schemas.context import Context

    overrides: dict[str, Any] = {
        name: value
        for name, value in (("store", Options.store), ("llm", Options.llm), ("home", Options.home))
        if value is not None
    }
    return Context(**overrides)


def open_broker(context: Context | None = None, surface: str = "cli") -> Broker:
    """Return a ``Broker`` over ``context``, by default the one the global options give.

    The Python API is imported here, when a command runs: it loads LangGraph, the graphs
    and the language rules (about a second), which ``--help`` must not pay for.
    """
    from elephant_broker.broker.api import Broker

    return Broker(context if context is not None else context_from_options(), surface=surface)


def remember_group_options(ctx: typer.Context, **options: Any) -> None:
    """Keep a command group's own options (``elephant sources --agent B set ...``) for its subcommand."""
    ctx.obj = {**(ctx.obj or {}), **{name: value for name, value in options.items() if value not in (None, False)}}


def group_option(ctx: typer.Context, name: str, value: Any) -> Any:
    """Return a subcommand's option, or the one its group was given; the two may not disagree.

    ``elephant sources --agent B set paper 0.1`` must act for agent B: an option given
    to the group and silently dropped would act for the default agent instead.

    Raises:
        ValueError: If the group and the subcommand were given different values.
    """
    inherited = (ctx.obj or {}).get(name)
    if inherited is None or inherited is False:
        return value
    if value not in (None, False) and value != inherited:
        raise ValueError(f"--{name.replace('_', '-')} given twice with different values: {inherited!r} and {value!r}")
    return inherited


def fail(message: str, code: int = 1) -> None:
    """Print one ``error:`` line on stderr and exit with ``code`` (inside a command)."""
    print_error(message)
    raise typer.Exit(code)


def fail_line(message: str, code: int) -> None:
    """Print one ``error:`` line on stderr and end the process with ``code`` (outside a command)."""
    print_error(message)
    raise SystemExit(code)


def print_error(message: str) -> None:
    """Print ``message`` as one ``error:`` line on stderr."""
    # Driver errors span several lines; scripts and people want exactly one.
    one_line = " ".join(message.split())
    stderr.print(f"[bold red]error:[/] {escape(one_line)}", highlight=False, soft_wrap=True)


def print_notes(notes: list[str]) -> None:
    """Print each note (what went differently, e.g. a model fallback) as one ``note:`` line on stderr."""
    if Options.quiet:
        return
    for note in notes:
        stderr.print(f"[yellow]note:[/] {escape(' '.join(note.split()))}", highlight=False, soft_wrap=True)


def handle_errors(command: F) -> F:
    """Turn expected failures into one clear line on stderr and a non-zero exit."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except _store_and_model_errors() as error:
            fail(str(error))
        except ValidationError as error:
            from elephant_broker.schemas.ids import error_line

            fail(error_line(error))
        except (OSError, ValueError) as error:
            fail(str(error))
        except KeyboardInterrupt:
            fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def _store_and_model_errors() -> tuple[type[Exception], ...]:
    """Return ``StoreError``, and ``ModelError`` if the model providers are loaded.

    Evaluated only when a command raised. A model error cannot come from a process that
    never imported the providers, and importing them (langchain-core) to check would cost
    a second for nothing.
    """
    chat_models = sys.modules.get("elephant_broker.providers.chat_models")
    model_error: type[Exception] | None = getattr(chat_models, "ModelError", None)
    return (StoreError,) if model_error is None else (StoreError, model_error)


def print_json(value: Any) -> None:
    """Print one JSON value on stdout (UTF-8, not ASCII-escaped)."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()
