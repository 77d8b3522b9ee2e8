"""Size bounds of what the broker reads, and sentence-aware splitting of long texts.

An episode is what one extraction, one embedding and one provenance link cover, so it
stays short (:data:`MAX_EPISODE_CHARS`). A longer text is cut where a reader would
pause: after a sentence end (。！？；… or . ! ? before a space or a closing quote), at
a line break, else after the last comma or space, and only as a last resort in the
middle of a word. The pieces are consecutive slices of the text, so joining them gives
the text back except for the whitespace at each cut: nothing is lost or repeated.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from elephant_broker.schemas.ids import MAX_EPISODE_CHARS, MAX_QUESTION_CHARS, MAX_TEXT_CHARS, TEXT_TOO_LONG_HINT
from elephant_broker.schemas.models import Perception

__all__ = ["MAX_EPISODE_CHARS", "MAX_QUESTION_CHARS", "MAX_TEXT_CHARS", "split_long", "split_perception"]

# A sentence ends after a run of Chinese enders, or of . ! ? followed (after any closing
# quotes or brackets) by whitespace or the end of the text ("Node.js" and "3.14" go on).
_SENTENCE_END = re.compile(
    r"(?:[。！？；…]+|[.!?]+(?=[\"'”’」』)）\]]*(?:\s|$)))[\"'”’」』)）\]]*|\n+",
)
# Inside an over-long sentence: after a comma, colon or semicolon, or at whitespace.
_CLAUSE_END = re.compile(r"[,，、;:：]+|\s+")


def split_long(text: str, limit: int = MAX_EPISODE_CHARS) -> list[str]:
    """Split a text into pieces of at most ``limit`` characters, at sentence ends where possible.

    Args:
        text: Any text.
        limit: The longest piece, in characters (at least 1).

    Returns:
        ``[text]`` unchanged when it fits (or ``[]`` when it is blank); otherwise the
        stripped pieces, in order, each as long as whole sentences allow.

    Raises:
        ValueError: If ``limit`` is smaller than 1.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    if not text.strip():
        return []
    if len(text) <= limit:
        return [text]
    sentence_ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    pieces: list[str] = []
    start = _skip_space(text, 0)
    while start < len(text):
        stop = start + limit
        if stop >= len(text):
            end = len(text)
        else:
            end = _last_cut(text, start, stop, sentence_ends)
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
        start = _skip_space(text, end)
    return pieces


def split_perception(perception: Perception, limit: int = MAX_EPISODE_CHARS) -> list[Perception]:
    """Return the episodes a perceived text is remembered as: itself, or its pieces.

    A text over ``limit`` characters is split by :func:`split_long`; every piece keeps
    the speaker, session, source, time and derivation, and an ``external_id`` gets the
    piece's number (``turn-7#1``, ``turn-7#2``) so each episode still names its origin.

    Raises:
        ValueError: If the text is longer than :data:`MAX_TEXT_CHARS` (one line, naming
            the field): refused whole, nothing of it is remembered.
    """
    size = len(perception.text)
    if size > MAX_TEXT_CHARS:
        raise ValueError(f"text: {size:,} characters; at most {MAX_TEXT_CHARS:,}{TEXT_TOO_LONG_HINT}")
    pieces = split_long(perception.text, limit)
    if len(pieces) <= 1:
        return [perception]
    origin = perception.external_id
    return [
        perception.model_copy(update={"text": piece, "external_id": f"{origin}#{number}" if origin else None})
        for number, piece in enumerate(pieces, start=1)
    ]


def _last_cut(text: str, start: int, stop: int, sentence_ends: list[int]) -> int:
    """Return where the piece starting at ``start`` ends, at most at ``stop``."""
    index = bisect_right(sentence_ends, stop) - 1
    if index >= 0 and sentence_ends[index] > start:
        return sentence_ends[index]
    clause_end = None
    for match in _CLAUSE_END.finditer(text, start, stop):
        clause_end = match.end() if not match.group().isspace() else match.start()
    if clause_end is not None and clause_end > start:
        return clause_end
    return stop


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position
