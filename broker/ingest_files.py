"""Read files into perceptions: ``.txt``/``.md`` as text, ``.jsonl`` as turns, facts files as given facts.

A facts file (``elephant ingest --facts``) is ``.jsonl`` or ``.csv`` rows of facts
already extracted (:func:`read_facts`); its perceptions carry their facts and are not read.

A file is read and validated completely before anything is ingested, and a bad line
is reported with its file and line number, so bad input loses nothing. Values follow
the boundary rules of ``schemas.ids`` (a NUL in a text, a speaker with a line break
are refused), and a file never chooses whose memory it is written to.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from elephant_broker.domain.given import given_perceptions
from elephant_broker.language.chunks import MAX_EPISODE_CHARS, split_long
from elephant_broker.schemas.ids import NAME_MAX, describe_character, error_line, forbidden_in_text
from elephant_broker.schemas.models import GivenFact, Perception
from pydantic import ValidationError

TEXT_SUFFIXES = {".txt", ".md", ".markdown"}
TURN_SUFFIXES = {".jsonl"}
TURN_FIELDS = ("speaker", "time", "session_id", "source", "external_id")
"""What a turn line may set besides its text (never ``agent_id``: see ``_read_turns``)."""
FACT_SUFFIXES = {".jsonl", ".csv"}
FACT_FIELDS = (*GivenFact.model_fields, "text")
"""The columns (keys) of a facts file: subject, predicate and object required; ``text`` is ``episode``."""
REQUIRED = ("subject", "predicate", "object")
MAX_CHUNK_CHARS = MAX_EPISODE_CHARS
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def read_perceptions(path: Path, **defaults: Any) -> list[Perception]:
    """Return the perceptions in a file; ``defaults`` fill speaker/agent/session/source.

    Raises:
        ValueError: For an unsupported suffix, empty text, a forbidden character or a
            malformed line, as one line naming the file (and line).
        OSError: If the file cannot be read.
    """
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES | TURN_SUFFIXES:
        raise ValueError(f"{path}: unsupported file type {suffix or '(none)'}; use .txt, .md or .jsonl")
    content = _text_of(path, "utf-8")
    base = _defaults_of(path, defaults)
    if suffix in TURN_SUFFIXES:
        return _read_turns(path, content, base)
    # Checked on the whole file first, so the message can say on which line.
    at = forbidden_in_text(content)
    if at >= 0:
        line = content.count("\n", 0, at) + 1
        raise ValueError(f"{path}:{line}: text: {describe_character(content[at])} is not allowed in a text")
    chunks = split_text(content)
    if not chunks:
        raise ValueError(f"{path}: empty text")
    try:
        return [Perception.model_validate({"text": chunk, **base}) for chunk in chunks]
    except ValidationError as error:
        raise ValueError(f"{path}: {error_line(error)}") from None


def source_name(path: Path) -> str:
    """Return the default source of a file: its name, made a valid source name.

    The name is the broker's own default, not the caller's value, so it is tidied
    (invisible characters dropped, runs of whitespace made one space, cut to length)
    instead of refusing a file for what it is called.
    """
    shown = " ".join("".join(char for char in path.name if char.isprintable()).split())
    return shown[:NAME_MAX].strip() or "file"


def split_text(content: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """Split a document into chunks of at most ``limit`` characters.

    Paragraphs (blank-line separated) are packed together while they fit; a paragraph
    longer than ``limit`` is cut at sentence ends (``language.chunks.split_long``),
    its last piece packed with what follows. No chunk exceeds ``limit``.
    """
    chunks: list[str] = []
    current = ""
    for paragraph in (part.strip() for part in _PARAGRAPH_BREAK.split(content)):
        if not paragraph:
            continue
        *whole, paragraph = split_long(paragraph, limit)
        if whole:
            if current:
                chunks.append(current)
            chunks.extend(whole)
            current = ""
        if current and len(current) + len(paragraph) + 2 > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return chunks


def _read_turns(path: Path, content: str, base: dict[str, Any]) -> list[Perception]:
    """Return one perception per JSON line; the first bad line refuses the whole file.

    A line naming an ``agent_id`` is refused rather than obeyed or ignored: the caller
    (``--agent``, the Broker's agent) decides whose memory a file is written to, so a
    file from elsewhere cannot write into another agent, and refusing (nothing written)
    tells the caller that the file expected otherwise instead of silently re-homing it.
    Values of the turn fields are strings (numbers are read as their text); lines end
    at line feeds only, so a U+2028 inside a JSON string does not split a line.
    """
    turns: list[Perception] = []
    for number, record in _json_lines(path, content, "turn", "a JSON object with a string 'text'"):
        if not isinstance(record.get("text"), str):
            raise ValueError(f"{path}:{number}: each line needs a JSON object with a string 'text'")
        if "agent_id" in record:
            raise ValueError(
                f"{path}:{number}: a file may not choose the agent (agent_id); the caller's agent (--agent) is used"
            )
        fields = dict(base)
        for name in TURN_FIELDS:
            value = record.get(name)
            if isinstance(value, bool) or not isinstance(value, str | int | float | None):
                raise ValueError(f"{path}:{number}: {name} must be a string, not {type(value).__name__}")
            if name in record:
                fields[name] = None if value is None else str(value)
        try:
            turns.append(Perception.model_validate({"text": record["text"], **fields}))
        except ValidationError as error:
            raise ValueError(f"{path}:{number}: {error_line(error)}") from None
    if not turns:
        raise ValueError(f"{path}: no turns")
    return turns


def read_facts(path: Path, **defaults: Any) -> list[Perception]:
    """Return the perceptions that remember a facts file: rows of given facts, ``.jsonl`` or ``.csv``.

    Each JSON line is an object, each CSV row (after a header row naming the columns)
    a fact, with the fields of ``schemas.models.GivenFact``: ``subject``,
    ``predicate``, ``object``, and optionally ``subject_type``, ``object_type``,
    ``confidence``, ``negated``, ``valid_from``, ``source``, ``time`` and ``episode``
    (or ``text``). An empty CSV cell is an absent value. Rows become episodes as
    ``domain.given.given_perceptions`` groups them; ``defaults`` fill speaker, agent,
    session and source (the file's name when no ``--source``), a row's own source and
    time winning.

    Raises:
        ValueError: For an unsupported suffix, an unknown or missing column, a row
            that breaks a rule (``facts.csv:7: subject is empty``), or no rows at all,
            as one line naming the file (and line); nothing of the file is returned.
        OSError: If the file cannot be read.
    """
    suffix = path.suffix.lower()
    if suffix not in FACT_SUFFIXES:
        raise ValueError(f"{path}: unsupported facts file type {suffix or '(none)'}; use .jsonl or .csv")
    # utf-8-sig: a spreadsheet's CSV export often starts with a byte-order mark.
    content = _text_of(path, "utf-8-sig")
    base = _defaults_of(path, defaults)
    records = _fact_lines(path, content) if suffix == ".jsonl" else _fact_rows(path, content)
    rows: list[GivenFact] = []
    labels: list[str] = []
    for line, record in records:
        where = f"{path}:{line}"
        _check_fact_fields(where, record)
        try:
            rows.append(GivenFact.model_validate(record))
        except ValidationError as error:
            raise ValueError(f"{where}: {error_line(error)}") from None
        labels.append(where)
    if not rows:
        raise ValueError(f"{path}: no facts")
    return given_perceptions(rows, labels=labels, **base)


def _text_of(path: Path, encoding: str) -> str:
    """Read a file as text; a file that is not UTF-8 is refused in one line naming it."""
    try:
        return path.read_text(encoding=encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error.reason})") from error


def _defaults_of(path: Path, defaults: dict[str, Any]) -> dict[str, Any]:
    """The fields given for every record of a file: those set, and the file's name as the source by default."""
    base = {key: value for key, value in defaults.items() if value is not None}
    base.setdefault("source", source_name(path))
    return base


def _check_fact_fields(where: str, record: dict[str, Any]) -> None:
    """Refuse a row naming the agent or a field a fact does not have, before its values are read."""
    if "agent_id" in record:
        raise ValueError(f"{where}: a file may not choose the agent (agent_id); the caller's agent (--agent) is used")
    unknown = [name for name in record if name not in FACT_FIELDS]
    if unknown:
        shown = ", ".join(repr(name[:40]) for name in unknown[:5])
        raise ValueError(f"{where}: unknown field(s) {shown}; a fact has {', '.join(FACT_FIELDS)}")


def _fact_lines(path: Path, content: str) -> list[tuple[int, dict[str, Any]]]:
    """Return ``(line number, object)`` per non-blank JSON line of a facts file."""
    return list(_json_lines(path, content, "fact", "a JSON object with subject, predicate and object"))


def _json_lines(path: Path, content: str, kind: str, shape: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` per non-blank line; a line that is not a JSON object refuses the file.

    Lines end at line feeds only, so a U+2028 inside a JSON string does not split a line.
    """
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from error
        except RecursionError:
            # json's decoder recurses per nesting level: a record is a flat object, so refuse the depth.
            raise ValueError(f"{path}:{number}: not a {kind} (JSON nested too deeply)") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}:{number}: each line needs {shape}")
        yield number, record


def _fact_rows(path: Path, content: str) -> list[tuple[int, dict[str, Any]]]:
    """Return ``(line number, cells by column)`` per non-blank CSV row; empty cells are left out.

    The line number is where the row starts (a quoted cell may hold line breaks).
    """
    reader = csv.reader(io.StringIO(content, newline=""))
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise ValueError(f"{path}:1: no header row (subject,predicate,object,...)")
        columns = [cell.strip().casefold() for cell in header]
        if "" in columns:
            raise ValueError(f"{path}:1: column {columns.index('') + 1} of the header has no name")
        repeated = sorted({name for name in columns if columns.count(name) > 1})
        if repeated:
            raise ValueError(f"{path}:1: column {repeated[0]!r} appears twice")
        _check_fact_fields(f"{path}:1", dict.fromkeys(columns))
        missing = [name for name in REQUIRED if name not in columns]
        if missing:
            raise ValueError(f"{path}:1: missing column(s) {', '.join(missing)}")
        records: list[tuple[int, dict[str, Any]]] = []
        start = reader.line_num + 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(columns):
                raise ValueError(f"{path}:{line}: {len(cells)} cells, but the header names {len(columns)} columns")
            # An empty optional cell is an absent value; an empty name is refused as "subject is empty".
            kept = {name: cell for name, cell in zip(columns, cells, strict=True) if cell.strip() or name in REQUIRED}
            records.append((line, kept))
    except csv.Error as error:
        raise ValueError(f"{path}:{reader.line_num}: not valid CSV ({error})") from None
    return records
