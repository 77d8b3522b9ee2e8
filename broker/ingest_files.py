"""Read files into perceptions: ``.txt``/``.md`` as text, ``.jsonl`` as conversation turns.

A file is read and validated completely before anything is ingested, and a bad line
is reported with its file and line number, so bad input loses nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from schemas.models import Perception

TEXT_SUFFIXES = {".txt", ".md", ".markdown"}
TURN_SUFFIXES = {".jsonl"}
MAX_CHUNK_CHARS = 1500
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def read_perceptions(path: Path, **defaults: Any) -> list[Perception]:
    """Return the perceptions in a file; ``defaults`` fill speaker/agent/session/source.

    Raises:
        ValueError: For an unsupported suffix, empty text or a malformed line.
        OSError: If the file cannot be read.
    """
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES | TURN_SUFFIXES:
        raise ValueError(f"{path}: unsupported file type {suffix or '(none)'}; use .txt, .md or .jsonl")
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error.reason})") from error
    base = {key: value for key, value in defaults.items() if value is not None}
    base.setdefault("source", path.name)
    if suffix in TURN_SUFFIXES:
        return _read_turns(path, content, base)
    chunks = split_text(content)
    if not chunks:
        raise ValueError(f"{path}: empty text")
    return [Perception.model_validate({"text": chunk, **base}) for chunk in chunks]


def split_text(content: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """Split a document into paragraph-aligned chunks of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for paragraph in (part.strip() for part in _PARAGRAPH_BREAK.split(content)):
        if not paragraph:
            continue
        if current and len(current) + len(paragraph) + 2 > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return chunks


def _read_turns(path: Path, content: str, base: dict[str, Any]) -> list[Perception]:
    turns: list[Perception] = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from error
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise ValueError(f"{path}:{number}: each line needs a JSON object with a string 'text'")
        fields = {
            **base,
            **{k: record[k] for k in ("speaker", "time", "session_id", "source", "agent_id") if k in record},
        }
        try:
            turns.append(
                Perception.model_validate(
                    {"text": record["text"], **{k: (str(v) if v is not None else None) for k, v in fields.items()}}
                )
            )
        except ValidationError as error:
            raise ValueError(f"{path}:{number}: {error.errors()[0]['msg']}") from error
    if not turns:
        raise ValueError(f"{path}: no turns")
    return turns
