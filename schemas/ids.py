"""What an id, a name or a text may contain, checked once at every entry point; and how ids are built.

Every surface (``Perception`` and ``Question``, ``Broker`` methods through
``request_scope``, ``Context.agent_id`` / ``ELEPHANT_AGENT``, CLI options, MCP
arguments, LangChain tools, graph input) checks with these functions, so one rule
holds everywhere. Values are refused, never repaired: " alice" is not silently read
as "alice", because two spellings that look alike must not reach the same memory
while the review desk keeps them apart (or the other way round).

The rules:

- **agent_id, session_id** (``check_id``): 1-128 characters, NFC-normalised;
  letters, digits and combining marks of any script (``小李``, ``agent-7``) plus
  ``_ - . : @``; starting with a letter or digit and not ending with punctuation. No
  whitespace, control, format (zero-width, bidi) or other symbol characters.
- **speaker, source** (``check_name``): 1-200 characters of printable text (any
  script, punctuation and symbols; ``Mary Ann``, ``O'Brien``, a backslash); single
  inner spaces only; no leading or trailing whitespace or joiner; no control, format (except
  the zero-width joiners scripts and emoji need), surrogate, line or paragraph
  separator or non-character code points.
- **time** (``check_name``, at most 100 characters) and **external_id** (at most 200):
  the same printable-text rule.
- **text, question** (``check_text``): not blank; no control characters except tab,
  line feed and carriage return (NUL breaks the store mid-ingest), no lone
  surrogates, no U+FFFE/U+FFFF.
- **fact, conflict and merge ids** (``check_fact_id``, ``check_conflict_id``,
  ``check_merge_id``): the shapes the broker makes, ``fact_``/``conflict_``/``mrg_``
  followed by lower-case hex digits.

Errors are ``ValueError`` with one line that starts with the field's name (``agent_id: ...``).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from pydantic import ValidationError

ID_MAX = 128
"""Longest agent or session id."""
NAME_MAX = 200
"""Longest speaker, source or external id."""
TIME_MAX = 100
"""Longest ``time`` (an ISO date-time or free text such as "1:56 pm on 8 May, 2023")."""
DERIVED_FROM_MAX = 100
"""Most fact ids one text may be derived from."""
MAX_EPISODE_CHARS = 1_500
"""The longest text stored as one episode; longer ones are split (``language.chunks.split_long``)."""
MAX_TEXT_CHARS = 100_000
"""The longest text one ``remember`` call accepts (about 70 episodes); a longer one is
refused: it is a document, and ``elephant ingest FILE`` reads documents."""
MAX_QUESTION_CHARS = 2_000
"""The longest question answered; a longer one is refused rather than searched for."""
TEXT_TOO_LONG_HINT = " per call — ingest a file instead (elephant ingest FILE)"
EPISODE_TOO_LONG_HINT = " per episode — Broker.remember, the tools and elephant ingest split longer texts"

ID_PUNCTUATION = frozenset("_-.:@")
"""The only non-alphanumeric characters of an agent or session id."""

_JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: invisible, but Persian, Indic scripts and emoji sequences need them."""
_TEXT_CONTROLS = frozenset("\t\n\r")
_SHAPED_IDS = {
    "fact": re.compile(r"fact_[0-9a-f]{1,64}"),
    "conflict": re.compile(r"conflict_[0-9a-f]{1,64}"),
    "merge": re.compile(r"mrg_[0-9a-f]{1,64}"),
    "answer": re.compile(r"ans_[0-9a-f]{1,64}"),
}

SEPARATOR = "\x1f"
"""What ``stable_id`` puts between parts: US (unit separator), what ids were always joined with."""
ESCAPE = "\x1b"
"""``stable_id``'s escape character: a control character no validated value contains."""


def stable_id(prefix: str, *parts: str, length: int) -> str:
    """Return ``prefix`` and ``length`` hex digits of a hash of ``parts``, encoded unambiguously.

    Joining parts with a separator is ambiguous when a part contains it
    (``("a<US>b", "c")`` and ``("a", "b<US>c")`` join alike, so two agents could share
    an episode). Inside each part ESC becomes ESC ESC and the separator ESC ``_``;
    reading the joined text left to right, ESC always starts a two-character escape and
    a bare separator always ends a part, so distinct part lists give distinct texts.

    ESC, not the backslash, is the escape character on purpose: every id made before
    this encoding was the plain join, and escaping only changes parts that contain
    ESC or the separator. Validation refuses both in ids, names and texts, so data that
    could be stored keeps its id; only values that used to collide get new ones.

    Args:
        prefix: What the id starts with (``ep_``, ``fact_``, ``ent_`` ...).
        *parts: What makes two things the same thing (at least one part).
        length: How many hex digits of the SHA-1 digest to keep.

    Returns:
        The id.
    """
    if not parts:
        raise ValueError("stable_id needs at least one part")
    encoded = SEPARATOR.join(part.replace(ESCAPE, ESCAPE + ESCAPE).replace(SEPARATOR, ESCAPE + "_") for part in parts)
    # surrogatepass: a lone surrogate (refused at the boundary) still hashes instead of crashing.
    return prefix + hashlib.sha1(encoded.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def check_id(value: str, field: str = "agent_id", limit: int = ID_MAX) -> str:
    """Return an agent or session id unchanged if it follows the id rule (module docstring).

    Raises:
        ValueError: Naming the field and what is wrong.
    """
    _check_length(value, field, limit)
    for char in value:
        if char not in ID_PUNCTUATION and unicodedata.category(char)[0] not in "LNM":
            raise ValueError(f"{field}: {describe_character(char)} is not allowed; use letters, digits and _ - . : @")
    if unicodedata.category(value[0])[0] not in "LN" or value[-1] in ID_PUNCTUATION:
        raise ValueError(f"{field}: must start with a letter or digit and not end with punctuation: {value!r}")
    if not unicodedata.is_normalized("NFC", value):
        raise ValueError(f"{field}: must be in Unicode NFC form (composed accents): {value!r}")
    return value


def check_name(value: str, field: str = "speaker", limit: int = NAME_MAX) -> str:
    """Return a speaker, source, time or external id unchanged if it is printable text (module docstring).

    Raises:
        ValueError: Naming the field and what is wrong.
    """
    _check_length(value, field, limit)
    for char in value:
        if char != " " and char not in _JOINERS and _invisible_or_control(char):
            raise ValueError(f"{field}: {describe_character(char)} is not allowed")
    if value != value.strip() or value[0] in _JOINERS or value[-1] in _JOINERS:
        raise ValueError(f"{field}: must not start or end with whitespace or a joiner: {_shorten(value)!r}")
    if "  " in value:
        raise ValueError(f"{field}: must not contain two spaces in a row: {_shorten(value)!r}")
    return value


def check_text(value: str, field: str = "text", limit: int | None = None, hint: str = "") -> str:
    """Return a text or question unchanged if it is not blank, not too long and holds no forbidden character.

    Args:
        value: The text.
        field: Its name, for the message.
        limit: The most characters it may have (None: no bound here).
        hint: What to do instead when it is too long, added to the message.

    Raises:
        ValueError: Naming the field and what is wrong.
    """
    # Blank is "nothing a reader can see": whitespace and invisible format characters
    # (zero-width spaces and joiners, bidi marks) alone say nothing.
    if all(char.isspace() or unicodedata.category(char) == "Cf" for char in value):
        raise ValueError(f"{field} is empty")
    if limit is not None and len(value) > limit:
        raise ValueError(f"{field}: {len(value):,} characters; at most {limit:,}{hint}")
    at = forbidden_in_text(value)
    if at >= 0:
        raise ValueError(f"{field}: {describe_character(value[at])} is not allowed in a text")
    return value


def forbidden_in_text(value: str) -> int:
    """Return the index of the first character a text may not hold, or -1 when there is none."""
    for index, char in enumerate(value):
        if char not in _TEXT_CONTROLS and (_control(char) or _noncharacter(char)):
            return index
    return -1


def check_optional(value: str | None, check: str, field: str) -> str | None:
    """Apply a check to an optional value: ``None`` means "not given"; anything else must follow the rule.

    ``check`` is ``"id"`` or ``"name"``. An empty or whitespace-only value is refused, not
    read as absent: ``--agent "$AGENT"`` with ``AGENT`` unset must not quietly use the
    default agent's memory (``ELEPHANT_AGENT=""`` is refused the same way).
    """
    if value is None:
        return None
    return check_id(value, field) if check == "id" else check_name(value, field)


def check_fact_ids(values: Iterable[str], field: str = "derived_from") -> list[str]:
    """Return fact ids unchanged if each has the shape ``fact_<hex>`` and there are not too many.

    Raises:
        ValueError: Naming the field and the first bad id.
    """
    ids = list(values)
    if len(ids) > DERIVED_FROM_MAX:
        raise ValueError(f"{field}: at most {DERIVED_FROM_MAX} fact ids, not {len(ids)}")
    for value in ids:
        _check_shape(value, "fact", field)
    return ids


def check_conflict_id(value: str, field: str = "conflict_id") -> str:
    """Return a conflict id unchanged if it has the shape ``conflict_<hex>``.

    Raises:
        ValueError: Naming the field.
    """
    return _check_shape(value, "conflict", field)


def check_answer_id(value: str, field: str = "answer_id") -> str:
    """Return an answer id unchanged if it has the shape ``ans_<hex>``.

    Raises:
        ValueError: Naming the field.
    """
    return _check_shape(value, "answer", field)


def check_merge_id(value: str, field: str = "merge_id") -> str:
    """Return a merge id unchanged if it has the shape ``mrg_<hex>``.

    Raises:
        ValueError: Naming the field.
    """
    return _check_shape(value, "merge", field)


class InvalidInput(ValueError):
    """A request broke a boundary rule; the message is one line naming the field (``agent_id: ...``)."""

    @classmethod
    def of(cls, error: ValidationError) -> InvalidInput:
        """Return the first error of a pydantic validation as one line."""
        return cls(error_line(error))


def error_line(error: ValidationError) -> str:
    """Return the first error of a pydantic validation as one line: ``field: what is wrong``."""
    return error_messages(error)[0]


def error_messages(error: ValidationError) -> list[str]:
    """Return every error of a pydantic validation, each as one line naming its field.

    A rule's own message already names the field (``speaker: ...``) and is kept as it
    is, without pydantic's "Value error, " prefix; other messages get the field in front.
    """
    messages = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()))
        cause = (item.get("ctx") or {}).get("error")
        message = str(cause) if isinstance(cause, ValueError) else str(item.get("msg", ""))
        field = where.split(".")[0]
        if where and not message.startswith((f"{field}:", f"{field} ")):
            message = f"{where}: {message}"
        # Values are shown with repr(), so only a foreign message can hold a line break.
        messages.append(" ".join(message.splitlines()))
    return messages or [str(error).splitlines()[0]]


def _check_length(value: str, field: str, limit: int) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{field}: must be a string, not {type(value).__name__}")
    if not value:
        raise ValueError(f"{field} is empty")
    if len(value) > limit:
        raise ValueError(f"{field}: at most {limit} characters, not {len(value)}")


def _check_shape(value: str, kind: str, field: str) -> str:
    if not isinstance(value, str) or _SHAPED_IDS[kind].fullmatch(value) is None:
        example = {"fact": "fact_", "conflict": "conflict_", "merge": "mrg_", "answer": "ans_"}[kind]
        raise ValueError(f"{field}: not a {kind} id ({example} and hex digits): {_shorten(str(value))!r}")
    return value


def _control(char: str) -> bool:
    """Return whether a character is a C0/C1 control character or a lone surrogate."""
    return unicodedata.category(char) in ("Cc", "Cs")


def _noncharacter(char: str) -> bool:
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _invisible_or_control(char: str) -> bool:
    """Return whether a character is not printable text: controls, format, separators but space."""
    return unicodedata.category(char) in ("Cc", "Cs", "Cf", "Zl", "Zp", "Zs") or _noncharacter(char)


def describe_character(char: str) -> str:
    """Name a character for an error message: ``U+0000 (control character)``, ``U+00A0 (NO-BREAK SPACE)``."""
    category = unicodedata.category(char)
    name = unicodedata.name(char, "") or {"Cc": "control character", "Cs": "lone surrogate"}.get(category, "")
    shown = f"{char!r} " if category[0] in "LNPS" else ""
    return f"{shown}U+{ord(char):04X}{f' ({name})' if name else ''}"


def _shorten(value: str, limit: int = 60) -> str:
    return value if len(value) <= limit else value[:limit] + "…"
