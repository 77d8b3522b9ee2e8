"""Reading: turn one perceived text into quintuples, by the offline rules or a chat model.

Offline (no chat model) the rule-based extractor handles Chinese and English
declaratives and drops metaphors, hypotheticals, pure emotions and small talk. With a
chat model, the model fills the same ``Extraction`` schema through structured output;
first-person words are resolved to the speaker the same way in both modes.

A model that fails (timeout, HTTP error, a reply that does not parse) does not lose the
text: the rules read it, the reading's notes say so, and it is marked as read by the
rules because the model failed (``READ_FALLBACK``), so ingesting it again with a
working model reads it again and adds the model's facts.

A text that comes with its facts (``Perception.given_facts``: a facts file, a LangChain
``GraphDocument``) is not read at all: :func:`read_given` takes the facts as the
reading (``READ_GIVEN``), with first person resolved to the speaker as for a model's.

A long text is remembered as pieces cut at sentence ends (``language.chunks``), each
read with one model call. So that "He founded it in 2019" at the start of a piece is
still about someone, each piece after the first carries the end of the piece before it
(:func:`with_preceding`, ``Perception.preceding_text``): the model sees it in a
``<context>`` block to resolve references, and a fact that only the context states is
dropped (:func:`stated_in`). The offline rules read the piece alone.

A turn that corrects what its speaker just said ("不对，是21楼", "I meant Berlin, not
Munich"; ``language.corrections``) is read offline as the previous turn with the value
corrected, plus the previous turn's facts about the old value denied, so the old fact is
retired through the conflict path; the previous turn is the speaker's last one in the
session (:func:`correction_context`), given to the Reader as ``preceding_text``. A
correction that cannot be placed in the previous turn yields no facts.

With the LLM cache (``providers.llm_cache``) a piece read before with the same prompt
(speaker, text, context, schema) and model is not asked again; each reading counts what
the model cost (:class:`~elephant_broker.providers.chat_models.ModelUsage`: requests,
cache hits, tokens), which the ingest report carries (``IngestReport.model_*``). With a
user schema (``domain.user_schema``) the model is told the allowed types and predicates,
and both Readers' output is made to fit it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from elephant_broker.domain.user_schema import SchemaRules
from elephant_broker.language.corrections import (
    added_statement,
    corrected_statement,
    find_addition,
    find_additions,
    find_correction,
    same_shape,
    without_article,
)
from elephant_broker.language.extract import extract_quintuples, split_sentences
from elephant_broker.language.names import bounded_names, is_mentioned
from elephant_broker.language.pronouns import is_first_person, refers_back
from elephant_broker.language.relations import started_employment
from elephant_broker.language.segment import detect_language
from elephant_broker.prompts.reader import READER_SYSTEM_EN, READER_SYSTEM_ZH, READER_USER, READER_USER_WITH_CONTEXT
from elephant_broker.providers.chat_models import ModelError, ModelUsage, ask_model
from elephant_broker.schemas.models import (
    READ_FALLBACK,
    READ_GIVEN,
    Episode,
    Extraction,
    IngestReport,
    Perception,
    Quintuple,
    ReadBy,
)
from elephant_broker.store import GraphStore
from langchain_core.caches import BaseCache

logger = logging.getLogger(__name__)


PRECEDING_CHARS = 300
"""How much of the piece before a piece the model sees as context: its last whole sentences up to this
many characters (about two sentences; the piece itself is up to 1,500)."""


@dataclass(frozen=True)
class Reading:
    """What one reading of a text found, and how it was read."""

    quintuples: list[Quintuple]
    read_by: ReadBy
    notes: list[str] = field(default_factory=list)
    """A model that failed, and that the offline rules read the text instead; facts a schema left out."""
    usage: ModelUsage | None = None
    """What the chat model cost (LLM mode; None offline): requests, cache hits, tokens."""


def read(
    text: str,
    speaker: str,
    llm_spec: str = "",
    *,
    preceding: str | None = None,
    cache: BaseCache | None = None,
    schema: SchemaRules | None = None,
) -> Reading:
    """Read a text said by ``speaker``: with the chat model ``llm_spec``, else (or if it fails) with the rules.

    Args:
        text: The text (one episode).
        speaker: Who said it; first person resolves to them.
        llm_spec: The chat model as ``provider:model``; empty reads with the rules.
        preceding: The end of the text before this one: context for the model only.
        cache: Where the model's replies are kept (``providers.llm_cache``), or None.
        schema: The user schema's rules: the model is told them, and every reading is fitted to them.
    """
    notes: list[str] = []
    read_by: ReadBy = "rules"
    usage: ModelUsage | None = None
    if not llm_spec:
        quintuples = read_with_rules(text, speaker, preceding)
    else:
        usage = ModelUsage()
        try:
            quintuples = extract_with_llm(
                text, speaker, llm_spec, preceding=preceding, cache=cache, schema=schema, usage=usage
            )
            read_by = "model"
        except ModelError as error:
            logger.info("%s; reading with the offline rules", error)
            notes.append(
                f"{error}; the offline Reader read the text instead "
                "(ingest it again once the model works to add the model's facts)"
            )
            quintuples, read_by = extract_with_rules(text, speaker), READ_FALLBACK
    # 入职网易 is employment at an organisation: typed so before names are resolved.
    quintuples = [started_employment(quintuple) for quintuple in quintuples]
    if schema is not None:
        quintuples, left_out = schema.fit(quintuples)
        notes.extend(left_out)
    return Reading(quintuples, read_by, notes, usage)


def cost_report(usage: ModelUsage) -> IngestReport:
    """Return a report holding only what the model cost (``IngestReport.model_*``)."""
    return IngestReport(
        model_calls=usage.calls,
        model_cached=usage.cached,
        model_input_tokens=usage.input_tokens,
        model_output_tokens=usage.output_tokens,
    )


def read_given(facts: Sequence[Quintuple], speaker: str) -> Reading:
    """Take facts given with a text as its reading: nothing is extracted, the Reader is skipped.

    First-person names (我, I) become the speaker, as in a model's reading; everything
    after this (entity resolution, canonical predicates, conflicts, provenance) is the
    path every reading takes.
    """
    return Reading([_resolve_first_person(fact, speaker) for fact in facts], READ_GIVEN)


def read_with_rules(text: str, speaker: str, preceding: str | None = None) -> list[Quintuple]:
    """Read a text with the offline rules; a correction of ``preceding`` is read as the corrected statement.

    A text that opens by referring back ("her name's Ines", 她在杭州上班) is read after the end
    of ``preceding``, so the reference finds whom it names; only the facts it states are kept.
    A text that adds an item ("oh and kiwis too") is read as ``preceding`` said of the item.

    The corrected statement's facts are kept, and the facts of ``preceding`` about the
    replaced value come back denied (我家住12楼 -> 赵敏 不住 12楼), so the conflict path
    retires them. A correction that cannot be placed in ``preceding`` (or has none) yields
    nothing: its own words ("不对，是21楼") state no fact.
    """
    correction = find_correction(text)
    # An addition to an addition ("蟹也不行" after "还有猕猴桃") has lost what both add to.
    items = find_additions(text) if correction is None and preceding and find_addition(preceding) is None else []
    if items and preceding:
        # "oh and kiwis too" after "I'm allergic to hazelnuts": allergic to kiwis as well.
        before = extract_with_rules(preceding, speaker)
        # An item added to a list joins the list ("买点东西：排骨、青菜" / "还有酱油"), not the
        # place the list was bought at: objects that share their relation with another come first.
        relations = Counter((quintuple.subject, quintuple.predicate) for quintuple in before)
        before.sort(key=lambda quintuple: relations[(quintuple.subject, quintuple.predicate)] < 2)
        added: list[Quintuple] = []
        for item in items:  # "also shellfish. and latex too": each sentence adds one
            statement = added_statement(preceding, item, [quintuple.object for quintuple in before])
            if statement is not None:
                core = without_article(item)
                added += [
                    quintuple
                    for quintuple in extract_with_rules(statement, speaker)
                    if quintuple.object.endswith(core) or core.endswith(quintuple.object)
                ]
        if added:
            return added
    if correction is None:
        if preceding and refers_back(text):
            # "her name's Ines" after "my cousin lives in Porto": read on from the turn before, so
            # "her" is the cousin; only what this turn states is kept.
            read = extract_with_rules(f"{preceding_tail(preceding)}\n{text}", speaker)
            return [quintuple for quintuple in read if stated_in(quintuple, text, preceding, speaker)]
        return extract_with_rules(text, speaker)
    placed = corrected_statement(preceding, correction) if preceding else None
    if preceding is None or placed is None:
        return []
    statement, old = placed
    denied = [
        quintuple.model_copy(update={"negated": True})
        for quintuple in extract_with_rules(preceding, speaker)
        if not quintuple.negated and _same_value(old, quintuple.object)
    ]
    return [*extract_with_rules(statement, speaker), *denied]


def _same_value(replaced: str, stated: str) -> bool:
    """Whether a fact's object is the replaced value, or the part of it a fact keeps ("Tuesday" of "Tuesday at 10")."""
    replaced, stated = replaced.casefold(), stated.casefold()
    return replaced in stated or (len(stated) > 1 and replaced.startswith(stated))


CORRECTED_TURNS = 3
"""How many of the speaker's turns before a correction may be what it corrects."""


def correction_context(store: GraphStore, scope: str, episodes: Sequence[Episode]) -> list[str | None]:
    """For each episode that corrects, adds to or refers back to the turn before: the speaker's previous turn.

    None for the rest. The previous turn is the latest one before it in ``episodes`` with the
    same session and speaker, else the latest such turn stored (one read per such episode). A
    correction may come a turn or two after what it corrects ("我家住12楼" / "今天好冷" /
    "不对，是21楼"): it gets the latest of the last ``CORRECTED_TURNS`` turns it can be placed in.
    """
    found: list[str | None] = []
    for position, episode in enumerate(episodes):
        correction = find_correction(episode.text)
        adds = correction is None and find_addition(episode.text) is not None
        # Read with the turn before: a correction, an addition, a reference back.
        if correction is None and not adds and not refers_back(episode.text):
            found.append(None)
            continue
        earlier = [
            other.text
            for other in episodes[:position]
            if other.session_id == episode.session_id and other.speaker == episode.speaker and other.id != episode.id
        ][::-1][:CORRECTED_TURNS]
        if len(earlier) < CORRECTED_TURNS:
            stored = store.last_turns(scope, episode.session_id, episode.speaker, CORRECTED_TURNS + 1)
            earlier += [turn.text for turn in stored if turn.id != episode.id][: CORRECTED_TURNS - len(earlier)]
        chosen: str | None = None
        if correction is not None:
            placed = [(text, corrected_statement(text, correction)) for text in earlier]
            # "九月初九" corrects the turn that said 九月初八, not a later one that only said 今天.
            fitting = sorted(
                ((text, statement[1]) for text, statement in placed if statement is not None),
                key=lambda pair: not same_shape(pair[1], correction.new),
            )
            chosen = fitting[0][0] if fitting else None
        elif adds:
            # "oh and a frisbee" / "and the cooler too": each adds to the statement the additions follow,
            # one that said something (not "今天天气真好" said in between). Read until one is found.
            chosen = next(
                (
                    text
                    for text in earlier
                    if find_addition(text) is None and extract_with_rules(text, episode.speaker or "user")
                ),
                None,
            )
        found.append(chosen if chosen is not None else earlier[0] if earlier else None)
    return found


def extract_with_rules(text: str, speaker: str) -> list[Quintuple]:
    """Read the text with the offline rules; a rule that fails yields no facts, never an error."""
    try:
        return extract_quintuples(text, speaker)
    except Exception:
        # A rule that trips over an odd sentence must not lose the episode: it is
        # stored (and searchable) without facts, and the failure is logged.
        logger.exception("rule-based extraction failed; storing the episode without facts")
        return []


def extract_with_llm(
    text: str,
    speaker: str,
    llm_spec: str,
    *,
    preceding: str | None = None,
    cache: BaseCache | None = None,
    schema: SchemaRules | None = None,
    usage: ModelUsage | None = None,
) -> list[Quintuple]:
    """Ask the chat model for quintuples in the ``Extraction`` schema (one call).

    With ``preceding``, the model sees it as context and only facts :func:`stated_in` the
    text are kept. ``cache`` and ``usage`` go to ``ask_model``.

    Raises:
        ModelError: If the model fails (``providers.chat_models.ask_model``).
    """
    language = detect_language(text)
    system = READER_SYSTEM_ZH if language == "zh" else READER_SYSTEM_EN
    if schema is not None:
        system = f"{system}\n\n{schema.prompt(language)}"
    if preceding:
        user = READER_USER_WITH_CONTEXT.format(speaker=speaker, context=preceding, text=text)
    else:
        user = READER_USER.format(speaker=speaker, text=text)
    extraction = ask_model(llm_spec, Extraction, [("system", system), ("user", user)], cache=cache, usage=usage)
    found = [_resolve_first_person(q, speaker) for q in extraction.quintuples]
    if preceding:
        found = [q for q in found if stated_in(q, text, preceding, speaker)]
    return bounded_names(found)


def stated_in(quintuple: Quintuple, text: str, preceding: str, speaker: str) -> bool:
    """Whether a fact read from a piece with context is stated in the piece, not only in its context.

    Its ``source_span`` decides when it is found in one of them (in the piece first);
    otherwise the piece must name one of its ends (the speaker counts: "I" is in every piece).
    """
    span = " ".join(quintuple.source_span.split())
    if span:
        if span in " ".join(text.split()):
            return True
        if span in " ".join(preceding.split()):
            return False
    return any(name == speaker or is_mentioned(name, text) for name in (quintuple.subject, quintuple.object))


def preceding_tail(text: str, limit: int = PRECEDING_CHARS) -> str:
    """Return the end of a text as context for the text after it: its last whole sentences, at most ``limit`` chars.

    A last sentence longer than ``limit`` gives its last ``limit`` characters, from a word start when it has spaces.
    """
    text = text.strip()
    start = len(text)
    for sentence in reversed(split_sentences(text)):
        found = text.rfind(sentence, 0, start)
        if found < 0 or len(text) - found > limit:
            break
        start = found
    if start == len(text):  # even the last sentence is too long
        start = len(text) - limit
        space = text.find(" ", start, len(text) - 1)
        if 0 <= space < len(text) - limit // 2:
            start = space + 1
    return text[max(start, 0) :].strip()


def with_preceding(pieces: Sequence[Perception]) -> list[Perception]:
    """Give each piece of one text after the first the end of the piece before it (``preceding_text``).

    The first keeps its own (a caller's); a piece given with its facts is not read, so gets none.
    """
    pieces = list(pieces)
    for number in range(1, len(pieces)):
        if pieces[number].given_facts is None:
            tail = preceding_tail(pieces[number - 1].text)
            pieces[number] = pieces[number].model_copy(update={"preceding_text": tail or None})
    return pieces


def _resolve_first_person(quintuple: Quintuple, speaker: str) -> Quintuple:
    # Models sometimes keep "我"/"I" despite the prompt; the graph must not.
    updates: dict[str, Any] = {}
    if is_first_person(quintuple.subject):
        updates.update(subject=speaker, subject_type="Person")
    if is_first_person(quintuple.object):
        updates.update(object=speaker, object_type="Person")
    return quintuple.model_copy(update=updates) if updates else quintuple
