"""English rule-based triple reader (used by ``language.extract``).

No tagger ships offline, so a clause is read with word lists and light morphology
(``language.english``):

    [time/hedge] subject [aux/adverbs/negation] verb [complement] [particle] object
        ([and|to] verb object)*

Predicates keep the verb group as written, so a fact reads back as a sentence
("Alice works at Acme Corp"); ``language.predicates.predicate_key`` folds the
wordings for matching. Auxiliaries, adverbs and negation are not part of the
relation (negation sets ``negated``). By shape of the verb group:

* no auxiliary: the verb as written plus gerund, "to"-verb or particle: "works
  at", "wrote", "love eating" (first person keeps "love"), "never eats" -> "eats";
* do-support, modals, "used to": the base verb as written: "does not use" ->
  "use", "no longer use" -> "use", "can speak" -> "speak";
* progressive (be + -ing): the simple tense and person of the "be": "is using" ->
  "uses", "am/are using" -> "use", "was using" -> "used", "has been living in" ->
  "lives in";
* perfect (have + participle): the simple past: "has written" -> "wrote", "have
  lived in" -> "lived in";
* passive with an agent: the active verb in the tense of the "be", agent first:
  "Dune was written by Frank Herbert" -> (Frank Herbert, wrote, Dune), "is used
  by" -> "uses".

Copular forms keep their compact predicates: "X is Y" -> (X, is, Y); "was born
in" -> "born in"; "is interested in" -> "interested in"; "is from" -> "come
from"; "has been to" -> "go to". Attribute statements put the owner first: "X's
Y is Z", "the Y of X is Z", "Z is the Y of X" and "Z is X's Y" all give (X, Y, Z).
Entity types and confidence are still judged on the lemma ("work at", "write"),
which is what the hints in ``language.types`` are written for.

Phrasal verbs keep all their particles ("grew up in Texas", "hangs out with
Tom"); a gerund keeps the preposition its verb takes ("enjoys listening to
jazz"). Frequency phrases and clock times ("every Saturday morning", "twice a
week", "at 7 am") end an object and become the fact's ``schedule`` (dates: ``valid_from``), which is
what "when" questions are answered from. Without an object an activity verb gives
an ability ("can", "swim") or a habit ("does", "running"), an event participle its
date ("married in", "June 2016"), and a wish ("want", "hope", "would like")
nothing at all. A relational noun after "be" is the relation: "is an expert in
Rust" -> (expert in, Rust), "is a big fan of jazz" -> (a big fan of, jazz).

Changes of state give the old value negated under the same key as the new one,
so the new fact can supersede it: "stopped using Slack" / "gave up Photoshop" ->
(use, ..., negated), "quit my job at Deloitte" -> (work at, Deloitte, negated),
and a second clause with its own subject is read too ("... and now I use
Discord", ", she now uses Discord"; she is the subject of the clause before).
Moving out retires the old home: "moved out of / away from Chicago (to Seattle)"
and "left Boston for Denver" give (live in, old, negated) and (moved to, new);
"left Google for Meta" changes employer the same way. A tool a thing is made with
is a tool used: "building a plugin system with Wasmtime" also gives (uses,
Wasmtime); a purpose ("use Vim for coding") is no relation, and how well ("knows
Lua well", "speaks French a little") is no part of the object. "is employed by X"
stays a relation of its subject (works_at), and an employer is an Organization.
Capitalised words joined by "&" are one name ("Tiffany & Co", "AT&T").
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field

from elephant_broker.language import english as en
from elephant_broker.language import types as _types
from elephant_broker.language.drafts import CLEAR, FALLBACK, HEDGED, IMPLIED_SUBJECT, Draft, TextContext, clean_name
from elephant_broker.language.lexicon import mapping, words
from elephant_broker.language.occupations import is_occupation
from elephant_broker.language.predicates import PREDICATE_LEXICON, predicate_key

# The vocabulary lives in language/data/en.toml (``language.lexicon``): each table's doc says
# what its words are for, and its examples run as tests.
SUBJECT_PRONOUNS = words("en", "subject_pronouns")
THIRD_PERSON = words("en", "third_person_pronouns")
DROPPED = words("en", "dropped_subjects")
LEAD_FILLERS = words("en", "lead_fillers")
HEDGE_VERBS = words("en", "hedge_verbs")
CLEAR_VERBS = words("en", "clear_verbs")
# Words after which the next word is a noun even if it could be a verb ("my work").
NOUN_DETERMINERS = (en.DETERMINERS - words("en", "non_noun_determiners")) | en.POSSESSIVES
REPORTING_VERBS = words("en", "reporting_verbs")
GET_FORMS = words("en", "get_forms")
TAIL_PREPS = words("en", "tail_prepositions")
REQUEST_STARTS = tuple(sorted(words("en", "request_starts")))
NOT_ADVERBS = words("en", "not_adverbs")
# Verbs that name an activity when they have no object: "I run every morning" ->
# (Alice, does, running); "I can't swim" -> (Alice, can, swim, negated).
ACTIVITY_VERBS = words("en", "activity_verbs")
# Events whose date is the fact when nothing else follows: "I got married in June 2016".
EVENT_WORDS = words("en", "event_words")
DATED_EVENTS = words("en", "dated_events")
_LEAD_INS = words("en", "lead_ins")
# Complements of "be" that describe the moment, not the subject ("I'm not kidding").
STATE_WORDS = words("en", "state_words")
WISH_VERBS = words("en", "wish_verbs")
CONTEMPLATION_VERBS = words("en", "contemplation_verbs")
# Verbs whose gerund keeps its preposition before an ordinary noun: "enjoy listening to jazz".
PREP_GERUNDS = frozenset((verb, prep) for verb, prep in (pair.split(" ", 1) for pair in words("en", "prep_gerunds")))
# Adverbial particles that may be followed by a preposition: "grew up in", "hang out with".
ADVERB_PARTICLES = words("en", "adverb_particles")
PLACE_CLASSES = words("en", "place_classes")
NAME_CLASSES = words("en", "name_classes")
PHRASAL_PREPS = words("en", "phrasal_prepositions")
NAMING_WORDS = words("en", "naming_words")
NAMING_VERBS = words("en", "naming_verbs")
CHAT_FILLERS = words("en", "chat_fillers")
TIME_LEAD_INS = words("en", "time_lead_ins")
GREETINGS = words("en", "small_talk") | {"thanks", "thank", "congrats", "congratulations", "dear"}
INDIRECT_PRONOUNS = words("en", "indirect_pronouns")
_TIME_UNITS = words("en", "recurring_time_units")
_APPROXIMATORS = words("en", "approximators")
_NUMBER_WORDS = words("en", "number_words")
_WEEKDAYS = words("en", "weekdays")
_DAY_PARTS = words("en", "day_parts")
# How well something is done is no part of what: "knows Lua (very) well", "speaks French a little".
MANNER_WORDS = words("en", "manner_words")
INTENSIFIERS = words("en", "manner_intensifiers")
# Verbs that end a habit or use: "stopped using Slack" is a negated "use Slack".
CESSATION_VERBS = words("en", "cessation_verbs")
INCEPTION_VERBS = words("en", "inception_verbs")
# Objects whose place is the employer: "quit my job at Deloitte" -> no longer works at Deloitte.
JOB_NOUNS = words("en", "job_nouns")
# Nouns that stand in for the list a colon gives ("things to pack: a tent, a headlamp").
PLACEHOLDER_NOUNS = words("en", "placeholder_nouns")
# Objects of "go to" whose place is a school: "went to college at Stanford" -> studied at Stanford.
SCHOOL_NOUNS = words("en", "school_nouns")
# Verbs of making whose "with <tool>" is an instrument: "build a plugin system with Wasmtime"
# uses Wasmtime. After these software and data verbs any unknown name is taken for a tool ...
TOOL_VERBS = words("en", "tool_verbs")
# ... after these, done with people as often, only a known tool or language is ("write it with Tom").
MAKING_VERBS = TOOL_VERBS | words("en", "making_verbs")
# Nouns after "is (a)" that relate the subject to what follows: "an expert in Rust", "a fan of jazz".
RELATIONAL_NOUNS = words("en", "relational_nouns")
_CLOCK = re.compile(r"^\d{1,2}(?:am|pm)?$", re.IGNORECASE)
_TOOLISH = {_types.TOOL, _types.LANGUAGE}
_RELATIONAL_PREPS = words("en", "relational_prepositions")
_MERIDIEM = words("en", "meridiem")
# Base wordings the type hints of ``language.types`` know, for keys also reached by participles.
_KEY_BASES = {"works_at": "work at"}


@dataclass
class Subject:
    """A resolved subject name and the link facts its possessive form implies."""

    name: str
    type: str | None = None
    extras: list[Draft] = field(default_factory=list)
    referred: bool = False  # "it" stood for it: the thing the clause before was about


@dataclass
class State:
    """What carries from one clause to the next inside a sentence."""

    subjects: list[Subject]
    valid_from: str | None = None
    hedged: bool = False
    implied: bool = False
    irrealis: bool = False  # a wish was stated ("I want to ..."): what continues it is no fact
    persons: set[str] = field(default_factory=set)  # names he/she was found to refer to
    objects: list[str] = field(default_factory=list)  # what the clause before was about
    first_person: bool = False  # the clause before had "I" as its subject


# --- small helpers -----------------------------------------------------------------------


def _lw(ws: list[str], i: int) -> str:
    return ws[i].lower() if 0 <= i < len(ws) else ""


def _is_adverb(word: str) -> bool:
    w = word.lower()
    if w in en.ADVERBS:
        return True
    return (
        w.endswith("ly") and len(w) > 4 and w not in NOT_ADVERBS and not en.is_verb(w) and not en.is_capitalised(word)
    )


def _clock_at(ws: list[str], i: int) -> int:
    """Return the end of a clock time at ``i`` ("at 7 am", "around 6:30", "at noon"), or ``i``."""
    j = i + 1 if _lw(ws, i) in {"at", "around", "by", "before", "after", "until", "till"} else i
    if _lw(ws, j) in {"noon", "midnight"}:
        return j + 1 if j > i else i
    if not _CLOCK.match(_lw(ws, j)):
        return i
    end = j + 1
    minutes = _lw(ws, end) == ":" and _lw(ws, end + 1)[:2].isdigit()
    if minutes:
        end += 2
    if _lw(ws, end) in _MERIDIEM:
        end += 1
    elif not (minutes or _lw(ws, end - 1).endswith(("am", "pm"))):
        return i  # a bare number ("at 7") may be an age, a count or an address
    return end


def _time_at(ws: list[str], i: int) -> int:
    """Return the end of a time phrase starting at ``i`` ("in 2020", "last year", "at 7 am"), or ``i``."""
    clock = _clock_at(ws, i)
    if clock > i:
        return clock
    for m in range(min(6, len(ws) - i), 0, -1):
        phrase = " ".join(ws[i : i + m])
        if _types.is_time(phrase) and not (m == 1 and ws[i].lower() in {"may", "march", "today"} and i > 0):
            end = i + m
            if _lw(ws, end) == "," and _YEAR.fullmatch(_lw(ws, end + 1)) and _DAY.search(phrase):
                end += 2  # "March 15, 1932": the year after the day's comma
            return end
    return i


_YEAR = re.compile(r"[12]\d{3}")
_DAY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?$")


def _frequency_at(ws: list[str], i: int) -> int:
    """Return the end of a frequency phrase at ``i`` ("every morning", "twice a week"), or ``i``."""
    w0, w1, w2 = _lw(ws, i), _lw(ws, i + 1), _lw(ws, i + 2)
    end = i
    if w0 in {"every", "each"}:
        if w1.rstrip("s") in _TIME_UNITS:
            end = i + 2
        elif (w1 in {"other", "single"} or w1.isdigit() or w1 in _NUMBER_WORDS) and w2.rstrip("s") in _TIME_UNITS:
            end = i + 3
    elif (w0 in {"once", "twice"} or w1 == "times") and (w1 in {"a", "per"} or w2 in {"a", "per"}):
        j = i + (2 if w0 in {"once", "twice"} else 3)
        if _lw(ws, j).rstrip("s") in _TIME_UNITS:
            end = j + 1
    elif w0 == "on" and w1.endswith("s") and w1.rstrip("s") in _TIME_UNITS:
        end = i + 2  # "on weekends", "on Mondays"
    elif w0 == "on" and w1 in _WEEKDAYS and w2.endswith("s") and w2.rstrip("s") in _DAY_PARTS:
        end = i + 3  # "on Tuesday evenings"
    elif w0 == "at" and w1 in {"night", "weekends"}:
        end = i + 2
    elif w0 in {"a", "per"} and w1 in _TIME_UNITS and i > 0 and _counted(ws[i - 1]):
        end = i + 2  # "4 coffees a day", "two lessons per week": how often, not part of the thing
    elif i > 0 and _is_bare_day_parts(w0):
        end = i + 1  # "works evenings", "works weekends": a bare plural day part says when
    # "every Saturday morning", "on Sunday evenings", "every Monday and Thursday": one phrase.
    while end > i:
        if _lw(ws, end).rstrip("s") in _TIME_UNITS:
            end += 1
        elif _lw(ws, end) in {"and", "or", ","} and _lw(ws, end + 1).rstrip("s") in _WEEKDAYS:
            end += 2
        else:
            break
    return end


def _counted(word: str) -> bool:
    """Whether a word ends a counted thing ("coffees", "3"): what "a day" after it says the rate of."""
    lw = word.lower()
    return lw.isdigit() or (lw.endswith("s") and not lw.endswith("ss") and not _is_verbish(word))


def _is_bare_day_parts(word: str) -> bool:
    """Whether a lower-case word is a plural day part said alone ("nights", "weekends"): when something recurs."""
    return word.endswith("s") and word[:-1] in _DAY_PARTS | {"weekend", "weekday"}


def _manner_at(ws: list[str], i: int) -> int:
    """Return the end of a manner phrase at ``i`` ("well", "very well", "a little"), or ``i``."""
    j = i + 1 if _lw(ws, i) in INTENSIFIERS else i
    if _lw(ws, j) in MANNER_WORDS:
        return j + 1
    if j == i and _lw(ws, i) == "a" and _lw(ws, i + 1) in {"little", "bit"}:
        after = _lw(ws, i + 2)
        if not after or after in {",", ";", "and", "but", "now", "too"} or _time_at(ws, i + 2) > i + 2:
            return i + 2  # "speaks French a little" (but "has a little cat")
    return i


def _is_verbish(word: str) -> bool:
    """A word that starts a new verb phrase (not a name, not a gerund used as a noun)."""
    w = word.lower()
    if en.is_capitalised(word):
        return False
    if w in en.BE_FORMS | en.DO_FORMS | en.HAVE_FORMS | en.MODALS | {"not", "never"}:
        return True
    return en.is_verb(w) and not w.endswith("ing")


def _aux_is_auxiliary(ws: list[str], k: int) -> bool:
    """Whether do/have at ``k`` is an auxiliary (followed by a verb, negation or adverb)."""
    j = k + 1
    while j < len(ws) and (ws[j].lower() in {"not", "never", "n't", "no", "longer"} or _is_adverb(ws[j])):
        j += 1
    if j >= len(ws):
        return False
    nxt = ws[j].lower()
    if ws[k].lower() in en.HAVE_FORMS:
        return nxt == "been" or en.is_participle(nxt) or nxt in en.IRREGULAR and en.IRREGULAR[nxt] != nxt
    return (en.is_verb(nxt) and not en.is_capitalised(ws[j])) or j > k + 1


# --- names -------------------------------------------------------------------------------


def _strip_determiners(words: list[str]) -> list[str]:
    while words and words[0].lower() in en.DETERMINERS and len(words) > 1 and not _opens_a_title(words):
        words = words[1:]
    if len(words) > 2 and words[0].lower() in {"like", "about", "around"} and _is_number(words[1]):
        words = words[1:]  # "like 4 coffees": the number is a guess, the thing is the same
    return words


_TITLE_JOINERS = frozenset({"of", "the", "and", "in", "on", "for", "to", "a", "an", "at", "from", "with"})


def _opens_a_title(words: list[str]) -> bool:
    """Whether a capital "A"/"An" is the first word of a title ("A Severed Wasp", "A Fortress of Grey Ice").

    Only before words that are all capitalised but for a title's small words: "A Chinese
    company" is a company, not a name.
    """
    rest = words[1:]
    return (
        words[0] in {"A", "An"}
        and bool(rest)
        and en.is_capitalised(rest[0])
        and en.is_capitalised(rest[-1])
        and all(en.is_capitalised(word) or word in _TITLE_JOINERS for word in rest)
    )


def _joins_a_name(words: list[str], i: int) -> bool:
    """Whether the "&" at ``i`` is inside a name: capitalised words on both sides ("Smith & Sons")."""
    return 0 < i < len(words) - 1 and en.is_capitalised(words[i - 1]) and en.is_capitalised(words[i + 1])


def _split_list(words: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w == "&" and _joins_a_name(words, i):
            parts[-1].append(words[i])  # "Tiffany & Co", "Johnson & Johnson": one name
        elif w in {"and", "or", ",", "&", "nor"}:
            parts.append([])
        elif w == "as" and _lw(words, i + 1) == "well" and _lw(words, i + 2) == "as":
            parts.append([])
            i += 2
        elif w in {"both", "either", "neither"} and not parts[-1]:
            pass
        else:
            parts[-1].append(words[i])
        i += 1
    return [p for p in parts if p]


def _possessed(owner: str, head: str) -> str:
    return f"{owner}'s {head}"


def _name_of(words: list[str], ctx: TextContext) -> str | None:
    """Resolve a noun phrase to a name: pronouns, "my X", determiners."""
    words = [w for w in words if w not in {",", ";", ":"}]
    if not words:
        return None
    written_in_capitals = len(words) == 1 and len(words[0]) > 1 and words[0].isupper()  # "the US", "IT": names
    if len(words) == 1 and not written_in_capitals:
        w = words[0].lower()
        if w in en.FIRST_PERSON:
            return ctx.me
        if w in THIRD_PERSON or w == "her":
            return ctx.last_person
        if w in {"they", "them"} and ctx.last_group:
            return ctx.last_group
        if w in DROPPED or w in en.DETERMINERS or w in en.POSSESSIVES:
            return None
    first = words[0].lower()
    if first == "my" and len(words) > 1:
        head = " ".join(words[1:])
        return ctx.named.get((ctx.me, head.lower())) or _possessed(ctx.me, head)
    if first == "their" and len(words) > 1 and ctx.last_group:
        return _possessed(ctx.last_group, " ".join(words[1:]))
    if first in {"his", "her", "their", "its"} and len(words) > 1:
        return _possessed(ctx.last_person, " ".join(words[1:])) if ctx.last_person and first != "its" else None
    described = _described_name(words, ctx)
    if described:
        return described
    words = _without_name_class(words)
    words = _without_place_class(words)
    words = _strip_determiners(words)
    if len(words) == 1 and words[0].lower() in DROPPED and not (len(words[0]) > 1 and words[0].isupper()):
        return None
    return " ".join(words) if words else None


def _described_name(words: list[str], ctx: TextContext) -> str | None:
    """The name "the <noun>" refers back to: "the memorial" after "the Baku Turkish Martyrs Memorial"."""
    if len(words) != 2 or words[0].lower() not in {"the", "this"} or not words[1].isalpha():
        return None
    head = words[1].casefold()
    if en.is_capitalised(words[1]) and "NOUN" not in en.word_classes(head):
        return None  # "the Beatles": a name of its own; "the Institute": a common noun, capitalised
    named = next((name for name in reversed(ctx.mentioned) if head in _heads(name)), None)
    if named is None and head in PLACE_CLASSES and ctx.places:
        return ctx.places[-1]  # "Velka is the capital of Norland. Ostra is in the country": Norland
    return named


def _heads(name: str) -> set[str]:
    """The nouns a name may be called by: its last word, and the word before its "of" ("Institute of Technology")."""
    words = name.casefold().split()
    if len(words) < 2:
        return set()
    heads = {words[-1]}
    if "of" in words[1:]:
        heads.add(words[words.index("of", 1) - 1])
    return heads


def _without_place_class(words: list[str]) -> list[str]:
    """The names in "the city of Abilene", "the cities of X and Y"; else the words as they are.

    A determiner, a lower-case kind of place (``PLACE_CLASSES``), "of" and a capitalised name.
    """
    if (
        len(words) > 3
        and words[0].lower() in en.DETERMINERS
        and words[1] in PLACE_CLASSES
        and words[2] == "of"
        and en.is_capitalised(words[3])
    ):
        return words[3:]
    return words


def _without_name_class(words: list[str]) -> list[str]:
    """The name in "the comic character Bolt" or "the Hoofdklasse league"; else the words as they are.

    After "the", lower-case words before a name say what kind of thing it is ("the club
    SSD Potenza Calcio", "the river Ganges"), and so does a kind of group or place after it
    (``NAME_CLASSES``): the name is what a memory finds the thing by.
    """
    described = _described_before(words)
    if described:
        return described
    titled = next((k for k, w in enumerate(words[:3]) if en.is_capitalised(w)), 0)
    if titled and all(w.isalpha() and w.islower() for w in words[:titled]):
        role = " ".join(words[:titled])
        if is_occupation(role) or words[titled - 1] in _types.PERSON_ROLES:
            return words[titled:]  # "by engineer Ida Marsh": a role written before the name, as a title
    if len(words) < 3 or words[0].lower() != "the":
        return words
    rest = words[1:]
    if rest[-1] in NAME_CLASSES and all(en.is_capitalised(w) or w[:1].isdigit() for w in rest[:-1]):
        return rest[:-1]
    kind = 0
    while kind < len(rest) and rest[kind].isalpha() and rest[kind].islower():
        kind += 1
    name = rest[kind:]
    if 1 <= kind <= 3 and name and en.is_capitalised(name[0]) and all(not w.islower() for w in name[-1:]):
        if rest[kind - 1] not in en.STOPWORDS and rest[kind - 1] not in en.PREPOSITIONS:
            return name
    return words


def _placed_name(words: list[str], ctx: TextContext) -> Subject | None:
    """A name and where it is, as a subject: "Acharya Institute of Technology in Bangalore, India".

    The subject is the name; (name, located in, place) comes with it, places written
    "A, B" each within the next.
    """
    if "in" not in words[1:-1]:
        return None
    at = words.index("in", 1)
    name, place = words[:at], _strip_determiners(words[at + 1 :])  # "… in the US"
    if not all(en.is_capitalised(w) or w in _NAME_JOINERS for w in name) or not en.is_capitalised(name[-1]):
        return None
    if not all(en.is_capitalised(w) or w == "," for w in place) or _time_at(words, at) > at:
        return None
    subject = " ".join(_strip_determiners(name))
    places = _object_names(place, ctx)
    if not places:
        return None
    objects, within = _within_chain("located in", places, CLEAR, ctx)
    links = [
        Draft(subject, "located in", where, confidence=CLEAR, object_type=_types.PLACE) for where in objects
    ] + within
    return Subject(subject, None, links)


def _described_before(words: list[str]) -> list[str] | None:
    """The name after a description that opens a sentence: "Retired American fighter pilot Buzz Aldrin".

    The description starts with a word the English word list knows (a name's first word
    usually is not) and ends in a lower-case noun right before the name; a description of
    at most four words.
    """
    if len(words) < 3 or not en.is_capitalised(words[0]) or not en.word_classes(words[0].lower()):
        return None
    if words[0].lower() in en.POSSESSIVES | en.DETERMINERS:
        return None  # "Our group Connected Activists": an owner's thing, read as such
    end = len(words)
    while end > 0 and (en.is_capitalised(words[end - 1]) or words[end - 1] in _NAME_JOINERS):
        end -= 1
    name, kind = words[end:], words[:end]
    if not name or not 1 <= len(kind) <= 4 or not en.is_capitalised(name[0]):
        return None
    last = kind[-1]
    if not (last.isalpha() and last.islower() and "NOUN" in en.word_classes(last)):
        return None
    return name


def _object_names(words: list[str], ctx: TextContext) -> list[str]:
    names: list[str] = []
    words = _without_place_class(words)  # "the cities of Saranac Lake and Lake Placid": each a name
    for part in _split_list(words):
        name = _name_of(part, ctx)
        if name:
            names.append(name)
    if _is_place_chain(words, names):
        ctx.within[names[0]] = names[1:]
    return names


def _is_place_chain(words: list[str], names: list[str]) -> bool:
    """Whether names are written as a place and what it lies in: "Buffalo, Erie County, New York".

    Only commas between capitalised names, no "and": a list of things is joined by "and"
    ("Tom, Ann and Bob"). Whether the names are places is the verb's to say (``_emit``).
    """
    while words and words[-1] == ",":
        words = words[:-1]
    if len(names) < 2 or words.count(",") != len(names) - 1:
        return False
    return not any(w.lower() in {"and", "or", "&", "nor"} for w in words) and all(
        en.is_capitalised(name) for name in names
    )


_LOCATIVE_ENDS = frozenset({"in", "at", "from", "near"})


def _within_chain(predicate: str, objects: list[str], conf: float, ctx: TextContext) -> tuple[list[str], list[Draft]]:
    """Split "in Buffalo, Erie County, New York" into the place (Buffalo) and what each part lies in.

    Said after a locative verb ("located in", "born in", "part of"), names written
    "A, B, C" place A within B and B within C; the subject is in A, and only A.
    """
    words = predicate.lower().split()
    if not objects or not words or (words[-1] not in _LOCATIVE_ENDS and words[-2:] != ["part", "of"]):
        return objects, []
    chain = ctx.within.get(objects[0])
    if not chain or objects[1 : 1 + len(chain)] != chain:
        return objects, []
    places = [objects[0], *chain]
    links = [
        Draft(inner, "located in", outer, confidence=conf, subject_type=_types.PLACE, object_type=_types.PLACE)
        for inner, outer in zip(places, places[1:], strict=False)
    ]
    return [objects[0], *objects[1 + len(chain) :]], links


def _owner_split(words: list[str], ctx: TextContext) -> tuple[str, str] | None:
    """Split "X's Y", "my Y" or "the Y of X" into (owner, attribute); None otherwise."""
    words = [w for w in words if w != ","]
    if len(words) < 2:
        return None
    first = words[0].lower()
    # The last possessive owns the rest: "my brother's wife" -> (Alice's brother, wife).
    for i in range(len(words) - 2, -1, -1):
        owner = en.possessive_owner(words[i])
        if owner and words[i].endswith("s'") and all(en.is_capitalised(w) for w in words[: i + 2]):
            break  # "Baku Turkish Martyrs' Memorial": a plural possessive inside a name is part of it
        if owner:
            owner_name = _name_of([*words[:i], owner], ctx)
            if owner_name:
                return owner_name, " ".join(words[i + 1 :])
            break
    if first == "my" or (first == "our" and _appositive(" ".join(words[1:]))):
        # "our dog Biscuit": a named member of the speaker's household is the speaker's, as "my dog Biscuit"
        return ctx.me, " ".join(words[1:])
    if first in {"his", "her"} and ctx.last_person:
        return ctx.last_person, " ".join(words[1:])
    if first == "their" and ctx.last_group:
        return ctx.last_group, " ".join(words[1:])  # "Kell Harriers play in Tarsk. Their ground is …"
    if first == "its" and ctx.topic:
        return ctx.topic, " ".join(words[1:])
    lowered = [w.lower() for w in words]
    if "of" in lowered:
        k = lowered.index("of")
        head = _strip_determiners(words[:k])
        tail = words[k + 1 :]
        if head and tail and head[0].lower() not in en.DETERMINERS and len(head) <= 3:
            # "University of Washington" is a name, not an attribute of Washington;
            # "the CEO of Acme" is an attribute although CEO is capitalised.
            if not all(en.is_capitalised(w) for w in head) or head[-1].lower() in _types.PERSON_ROLES:
                owner_name = _name_of(tail, ctx)
                if owner_name:
                    return owner_name, " ".join(head)
    return None


def _appositive(head: str) -> tuple[str, str] | None:
    """Split "dog Rex" / "best friend Sarah Lee" into (kind, name); None otherwise."""
    parts = head.split()
    k = len(parts)
    while k > 0 and en.is_capitalised(parts[k - 1]) and parts[k - 1].replace("-", "").isalpha():
        k -= 1
    if k == 0 or k == len(parts) or len(parts) - k > 3:
        return None
    kind = parts[:k]
    if any(en.is_capitalised(p) or not p.replace("-", "").isalpha() for p in kind):
        return None
    if kind[-1].lower() in en.PREPOSITIONS:
        return None  # "my meeting with Tom" is a meeting, not a person called Tom
    classes = en.word_classes(kind[-1].lower())
    # "my old Jetta" is the Jetta itself, no kind "old" named Jetta; after another word the last
    # one is the head noun even if it can be an adjective ("her first film Harbor Lights").
    noun = "NOUN" in classes and ("ADJ" not in classes or len(kind) > 1)
    if not noun and not _is_person_role(kind[-1].lower()):
        return None
    return " ".join(kind).lower(), " ".join(parts[k:])


def _is_person_role(kind: str) -> bool:
    """Whether a kind names a person by relation: "friend", and "best friend", "older sister" as well."""
    return kind in _types.PERSON_ROLES or kind.rsplit(" ", 1)[-1] in _types.PERSON_ROLES


def _subjects(words: list[str], ctx: TextContext) -> list[Subject]:
    placed = _placed_name(words, ctx) if "and" not in words else None
    if placed:
        return [placed]
    words = [w for w in words if w != ","]
    while words and words[-1].lower() in {"both", "all", "each", "together", "too", "also"}:
        words = words[:-1]
    if not words:
        return []
    lowered = [w.lower() for w in words]
    if "and" in lowered and "of" not in lowered and not any(en.possessive_owner(w) for w in words):
        out: list[Subject] = []
        for part in _split_list(words):
            for subject in _subjects(part, ctx):
                out.append(subject)
                # "Peter and his wife": his refers to the name just before.
                if subject.name != ctx.me and (
                    subject.type == _types.PERSON or _types.guess_type(subject.name) == _types.PERSON
                ):
                    ctx.last_person = subject.name
        return out
    split = _owner_split(words, ctx)
    if split:
        owner, head = split
        appositive = _appositive(head)
        if appositive:
            # "My colleague Tom lives in Chicago": Tom is the subject, plus (me, colleague, Tom).
            kind, name = appositive
            ctx.named[(owner, kind)] = name
            is_person = _is_person_role(kind)
            link = Draft(
                owner,
                kind,
                name,
                confidence=CLEAR,
                object_type=_types.PERSON if is_person else None,
                subject_type=_types.PERSON if owner == ctx.me else None,
            )
            return [Subject(name, _types.PERSON if is_person else None, [link])]
        if (owner, head.lower()) in ctx.named:
            return [Subject(ctx.named[(owner, head.lower())])]
        name = _possessed(owner, head)
        role = _is_person_role(head.lower())
        link = Draft(
            owner,
            head.lower() if role else "has",
            name,
            confidence=CLEAR,
            object_type=_types.PERSON if role else None,
            subject_type=_types.PERSON if owner == ctx.me else None,
        )
        return [Subject(name, _types.PERSON if role else None, [link])]
    if lowered == ["it"] and ctx.topic:
        return [Subject(ctx.topic, referred=True)]
    resolved = _name_of(words, ctx)
    if not resolved:
        return []
    is_person = resolved == ctx.me or lowered[0] in THIRD_PERSON
    return [Subject(resolved, _types.PERSON if is_person else None)]


# --- clause structure ------------------------------------------------------------------------


def _subject_end(ws: list[str], i: int) -> int:
    if _lw(ws, i) in SUBJECT_PRONOUNS:
        return i + 1
    if _is_verbish(ws[i]) or _lw(ws, i) in {"no", "not", "never"}:
        return i  # "... but now uses Node.js": no subject, the previous one carries on.
    j = i
    n = len(ws)
    while j < n:
        w = ws[j]
        lw = w.lower()
        if w == "," and _places_the_subject(ws, i, j):
            j += 1  # "Acharya Institute of Technology in Bangalore, India was ...": the place goes on
            continue
        if w in {",", ";", ":"}:
            break
        if j > i:
            prev = ws[j - 1]
            after_det = prev.lower() in NOUN_DETERMINERS or en.possessive_owner(prev) is not None
            if lw in en.BE_FORMS | en.DO_FORMS | en.HAVE_FORMS | en.MODALS | en.HEDGES | {"not", "never"}:
                break
            if lw == "no" and _lw(ws, j + 1) == "longer":
                break  # "Quinn no longer uses Slack": the negation starts the verb group
            if not after_det and lw in en.ADVERBS:
                break
            if not en.is_capitalised(w) and not after_det:
                if en.is_verb(lw) and not lw.endswith("ing"):
                    break
                if _is_adverb(w) and not lw.endswith("ing"):
                    break
                if (
                    (lw.endswith("s") or lw.endswith("ed"))
                    and en.is_capitalised(prev)
                    and lw not in en.STOPWORDS
                    and not lw.endswith("ss")
                ):
                    break  # "Alice tweets ...": an unknown word after a name is its verb.
        j += 1
    return j


def _places_the_subject(ws: list[str], i: int, comma: int) -> bool:
    """Whether the comma at ``comma`` goes on placing a subject "X in A, B" before its verb."""
    words = ws[i:comma]
    if "in" not in words[1:] or not en.is_capitalised(words[-1]) or not _name_then_verb(ws, comma + 1):
        return False
    at = len(words) - 1 - words[::-1].index("in")
    return all(en.is_capitalised(w) for w in words[at + 1 :])


def _take_object(ws: list[str], k: int) -> int:
    j = k
    n = len(ws)
    while j < n:
        w = ws[j]
        lw = w.lower()
        if w in {";", ":"} or (j == k and lw in en.PREPOSITIONS and lw not in {"like"}):
            break
        if j > k and lw in CHAT_FILLERS:
            break  # "her name is Ines btw", "a new kettle lol": the aside to the listener is no part of it
        if w == ",":
            # A list comma ("Python, Go and Rust") continues the object; any other ends it.
            nxt_end = j + 1
            while (
                nxt_end < n
                and ws[nxt_end] not in {",", ";"}
                and not _is_verbish(ws[nxt_end])
                and ws[nxt_end].lower() not in en.CLAUSE_WORDS
            ):
                nxt_end += 1
            named_first = any(en.is_capitalised(word) for word in ws[k:j])
            if (
                j > k
                and nxt_end > j + 1
                and nxt_end - j <= 5
                # After a name, an item in lower case describes it ("a Corolla, blue, 90k km");
                # a place after it is where it lies ("Taylor County, Texas, in the United States").
                and (
                    not named_first
                    or en.is_capitalised(ws[j + 1])
                    or ws[j + 1].lower() in en.PREPOSITIONS | {"and", "or"}
                )
                and (
                    nxt_end >= n
                    or ws[nxt_end] == ","
                    or "and" in [x.lower() for x in ws[j + 1 : nxt_end]]
                    or "or" in [x.lower() for x in ws[j + 1 : nxt_end]]
                )
            ):
                j += 1
                continue
            break
        if j > k and (lw in en.CLAUSE_WORDS or lw in {"named", "called"}):
            break
        if lw in {"and", "or", "&"}:
            nxt = ws[j + 1] if j + 1 < n else ""
            if not nxt or _is_verbish(nxt) or nxt.lower() in SUBJECT_PRONOUNS or _is_adverb(nxt):
                break
            if j == k:
                break
            j += 1
            continue
        if lw == "to" and j > k and j + 1 < n and en.is_base_verb(ws[j + 1]):
            break
        if j > k and lw in en.PREPOSITIONS and lw != "of" and not _names_its_purpose(ws, j):
            break
        if j > k and _time_at(ws, j) > j and not en.is_capitalised(w) and not _model_year(ws, j):
            break
        if _frequency_at(ws, j) > j:
            break  # "go jogging every morning": how often, not what
        if j > k and _manner_at(ws, j) > j:
            break  # "knows Lua well": how well, not what
        if j > k and lw in {"now", "today", "anymore", "too", "either", "again", "already", "though"}:
            break
        if j > k and lw in {"right", "just"} and _lw(ws, j + 1) == "now":
            break  # "staying in Lyon right now"
        if (
            j > k
            and _lw(ws, j + 1) in {"by", "in", "at", "from", "with"}
            and ws[j - 1].islower()
            and _is_participle(w, fronted=False)
        ):
            break  # "a film directed by Paul Dunmore": the participle phrase describes the object
        if j > k and lw == "any" and _lw(ws, j + 1) == "more":
            break
        if j > k and _is_adverb(w) and w.lower().endswith("ly") and ws[j - 1].lower() not in NOUN_DETERMINERS:
            break
        j += 1
    return j


def _names_its_purpose(ws: list[str], j: int) -> bool:
    """Whether the "for" at ``j`` is inside an institution's name ("the Foundation for Rural Schools")."""
    return (
        _lw(ws, j) == "for"
        and j > 0
        and en.is_capitalised(ws[j - 1])
        and ws[j - 1].lower() in _types.ORG_SUFFIXES_EN
        and j + 1 < len(ws)
        and en.is_capitalised(ws[j + 1])
    )


def _says_without_subject(ws: list[str]) -> bool:
    """Whether a line starts with a past-tense verb and no subject, after adverbs ("finally switched from …").

    A participle that opens a description ("Founded in 1998, …", "Given the rain, …") is no such line.
    """
    i = 0
    while i < len(ws) - 1 and _is_adverb(ws[i]):
        i += 1
    if i + 1 >= len(ws):
        return False
    verb, following = ws[i].lower(), _lw(ws, i + 1)
    if verb in en.BE_FORMS | en.HAVE_FORMS | en.DO_FORMS:
        return False  # "Been a busy week", "Had a blast": a state said in passing, not a thing done
    past = en.is_verb(verb) and not verb.endswith(("ing", "s")) and en.lemma(verb) != verb
    # A participle that is no past form ("Given the rain, …", "Written in 1954, …") or is also an
    # adjective ("Retired pilot Buzz Aldrin …") opens a description.
    past = past and en.past_from_participle(verb) == verb and "ADJ" not in en.word_classes(verb)
    if following in {"in", "on", "at"}:
        # "Started at Shopify last week" is the speaker's; "Founded in 1998, the firm …" describes
        # what the clause after the comma names.
        return past and "," not in ws[i + 2 :]
    # "Really made me think": what is left out is "it", not the speaker.
    return past and following not in {"by", ",", "me", "us", "myself"}


def _left_out_subject(ws: list[str]) -> list[str]:
    """What a chat line that leaves out "I am"/"I have" leaves out, else nothing.

    "Been working at Dell for a year" leaves out "I have"; "currently living in Porto" and
    "doing support at Dell these days" leave out "I am": a gerund, at most a few words it
    takes, and a preposition before a name — where one works, lives or studies. A gerund
    that is the subject of a verb later in the line ("Working at Dell pays well", "Helping
    others brings joy") is no such line, nor is one said without a name.
    """
    i = 0
    while i < len(ws) - 1 and (_is_adverb(ws[i]) or _is_adverb(ws[i].lower())):
        i += 1
    if i + 1 >= len(ws) or (en.is_capitalised(ws[i]) and i > 0):
        return []
    first = ws[i].lower()
    if first == "been" and en.is_gerund(ws[i + 1]) and not en.is_capitalised(ws[i + 1]):
        return ["I", "have"]
    if not en.is_gerund(first) or first in en.BE_FORMS | en.HAVE_FORMS:
        return []
    rest = [w.lower() for w in ws[i + 1 :]]
    if any(w in en.BE_FORMS | en.MODALS | en.DO_FORMS | en.HAVE_FORMS for w in rest):
        return []
    if any(w.endswith("s") and en.is_verb(w) and en.lemma(w) != w and "VERB" in en.word_classes(w) for w in rest[1:]):
        return []  # "Working at Dell pays well": the gerund is the subject of what follows
    # A name within the next few words, before the clause ends: "doing spin at Equinox these days".
    ahead = list(itertools.takewhile(lambda w: w not in {",", ";", ":"}, ws[i + 1 : i + 7]))
    return ["I", "am"] if any(en.is_capitalised(w) and w != "I" for w in ahead) else []


def _called_by_anyone(ws: list[str], verb: int, ctx: TextContext) -> list[Draft]:
    """What "everyone calls her Hattie" says of him: who calls him is no one to remember, what he is called is."""
    while verb < len(ws) - 1 and _is_adverb(ws[verb]):
        verb += 1
    if verb >= len(ws) or en.lemma(ws[verb].lower()) not in NAMING_VERBS:
        return []
    end = _take_object(ws, verb + 1)
    obj_words = ws[verb + 1 : end]
    if len(obj_words) < 2 or not en.is_capitalised(obj_words[-1]):
        return []
    return _called(obj_words, False, CLEAR, ctx)


def _called(obj_words: list[str], neg: bool, confidence: float, ctx: TextContext) -> list[Draft]:
    """(who or what is called, called, the name) for "call him Bubba", "named her Luna", "call my dog Rex".

    The name is the capitalised run at the end; what is named before it must resolve (a
    pronoun to the last person, "it" to the topic, "my dog" to the speaker's dog), else nothing.
    """
    split = len(obj_words)
    while split > 0 and en.is_capitalised(obj_words[split - 1]):
        split -= 1
    named, name = obj_words[:split], " ".join(obj_words[split:])
    if not named or not name:
        return []
    pronoun = named[0].lower() if len(named) == 1 else ""
    if pronoun == "it":
        who = ctx.topic
    elif pronoun in {"him", "her"}:
        # The person last named, as subject or not ("My friend Tom is great. We call him Bubba").
        people = (name for name in reversed(ctx.mentioned) if _types.guess_type(name) == _types.PERSON)
        who = ctx.last_person or next(people, None)
    else:
        who = _name_of(named, ctx)
    if not who or who == ctx.me and named[0].lower() not in en.FIRST_PERSON:
        return []
    return [Draft(who, "called", name, negated=neg, confidence=confidence)]


def _model_year(ws: list[str], j: int) -> bool:
    """Whether a year inside a noun phrase modifies its noun, not a time.

    "a 2015 Corolla", "my old 1998 Volvo" name a model; "the 2014 season", "the 2019 edition" a
    noun the year qualifies (a determiner before, a noun after).
    """
    if not _YEAR.fullmatch(ws[j]) or j + 1 >= len(ws):
        return False
    after = ws[j + 1]
    qualifies = (
        j > 0 and _lw(ws, j - 1) in en.DETERMINERS and after.isalpha() and "NOUN" in en.word_classes(after.lower())
    )
    return en.is_capitalised(after) or qualifies


def _skip_tail(ws: list[str], j: int, state: State) -> tuple[int, str | None]:
    """Skip trailing prepositional phrases and times after an object; return a time if any.

    How often counts as when: "I go swimming every Saturday morning" keeps "every
    Saturday morning", which is what a "when" question is answered from. Adjacent
    phrases stay together ("every day at 7 am"); a date elsewhere wins over a frequency.
    """
    found: str | None = None
    found_end = -1
    frequency = False
    n = len(ws)
    while j < n:
        end = _time_at(ws, j)
        is_frequency = _frequency_at(ws, j) > max(j, end - 1)
        if is_frequency:
            end = _frequency_at(ws, j)  # "on Tuesday evenings" recurs; "on Tuesday" is a date
        elif end > j:
            while _lw(ws, end) in _DAY_PARTS:
                end += 1  # "on Tuesday evening"
        if end > j:
            phrase = " ".join(ws[j:end]).replace(" ,", ",")  # "on March 3, 1961"
            if found and found_end == j:
                found = f"{found} {phrase}"
            elif found is None or (frequency and not is_frequency):
                found = phrase
                frequency = is_frequency
            found_end = j = end
            continue
        lw = ws[j].lower()
        if lw in {"now", "anymore", "too", "either", "again", "already", "though", "a", "lot", "any", "more"}:
            j += 1
            continue
        if _is_adverb(ws[j]):
            j += 1
            continue
        if _manner_at(ws, j) > j:
            j = _manner_at(ws, j)
            continue
        if lw in NAMING_WORDS:
            j = _take_object(ws, j + 1)
            continue
        if lw in en.PREPOSITIONS and not (lw == "to" and j + 1 < n and en.is_base_verb(ws[j + 1])):
            j = _take_object(ws, j + 1)
            continue
        break
    return j, found


def _instruments(objects: list[str], base: str, ctx: TextContext) -> bool:
    """Whether the names after "with" are tools or languages rather than company.

    After a software verb they are typed as the object of "use" (an unknown
    capitalised name is then a tool); after other making verbs only a known tool or
    language counts. A known person ("with Tom", "with my sister", someone named
    earlier) is company either way.
    """
    people = {ctx.me, ctx.last_person, *ctx.named.values()}
    hint = "use" if base in TOOL_VERBS else None
    return bool(objects) and all(
        obj not in people
        and "'s " not in obj
        and _types.guess_type(obj) != _types.PERSON
        and _types.guess_type(obj, None, hint) in _TOOLISH
        for obj in objects
    )


def _place_within(
    ws: list[str],
    start: int,
    objects: list[str],
    obj_words: list[str],
    predicate: str,
    conf: float,
    ctx: TextContext,
) -> tuple[list[Draft], int]:
    """(place, located in, Y) for "in Y" right after an object that is a place, and where Y ends.

    The object is a place when the verb says where ("located at", "play in"), a kind of
    place is written before it ("the city of Antwerp") or it is a known place; "met Tom in
    Paris" places the meeting, not Tom.
    """
    if not objects or _lw(ws, start) != "in" or _time_at(ws, start) > start:
        return [], start
    place = objects[-1]
    locative = predicate.lower().split()[-1:] in (["in"], ["at"], ["from"])
    if not (locative or any(w in PLACE_CLASSES for w in obj_words) or _types.guess_type(place) == _types.PLACE):
        return [], start
    names, stop = _names_after(ws, start, ctx)
    if not names or not en.is_capitalised(place):
        return [], start
    return _emit([Subject(place, _types.PLACE)], "located in", names, False, min(conf, FALLBACK), None, ctx), stop


def _tail_relations(
    ws: list[str],
    start: int,
    end: int,
    subjects: list[Subject],
    predicate: str,
    neg: bool,
    state: State,
    valid_from: str | None,
    ctx: TextContext,
    head: str = "",
) -> list[Draft]:
    """Facts carried by prepositional phrases after the object.

    "Emma studied physics at Oxford" also says (Emma, studied at, Oxford); only
    named objects count, so "use Slack at work" adds nothing. Two readings depend on
    the verb: leaving a job at a place ends working there ("quit my job at Deloitte"
    -> (work at, Deloitte, negated)), and a tool made with is a tool used ("building
    a plugin system with Wasmtime" -> (uses, Wasmtime)). ``head`` is the last word of
    the object.
    """
    drafts: list[Draft] = []
    verb = predicate.split(" ")[0]
    base = en.lemma(verb)
    j = start
    while j < end:
        lw = ws[j].lower()
        if (
            lw == "as"
            and _lw(ws, j + 1) in {"a", "an"}
            and (base in {"work", "join", "start"} or predicate_key(predicate) == "works_at")
        ):
            # "joined Veltrix as a data analyst": the job taken there.
            stop = _take_object(ws, j + 1)
            kind = " ".join(ws[j + 2 : stop]).lower()
            if is_occupation(kind) and not neg:
                conf = _confidence("work", state, clear=True)
                drafts += _emit(subjects, "works as", [kind], neg, conf, valid_from, ctx, "work as")
            j = max(stop, j + 1)
            continue
        if lw in TAIL_PREPS and _time_at(ws, j) == j:
            stop = _take_object(ws, j + 1)
            obj_words = _strip_determiners(ws[j + 1 : stop])
            named = bool(obj_words) and (
                en.is_capitalised(obj_words[0]) or _types.guess_type(" ".join(obj_words)) != _types.CONCEPT
            )
            if lw == "for" and obj_words and obj_words[0].islower() and en.is_gerund(obj_words[0]):
                named = False  # "use Vim for coding": a purpose, no relation
            if named:
                conf = _confidence(base, state)
                objects = _object_names(obj_words, ctx)
                if base in CESSATION_VERBS | {"leave"} and head in JOB_NOUNS and lw in {"at", "with", "for"}:
                    wording = f"work {lw}" if not neg else f"works {lw}"
                    drafts += _emit(subjects, wording, objects, not neg, conf, valid_from, ctx, f"work {lw}")
                elif base in {"get", "land", "start", "take"} and head in JOB_NOUNS and lw in {"at", "with"}:
                    # "got the job at Figma", "landed a role at Mozilla": works there now.
                    wording = f"work {lw}" if neg else f"works {lw}"
                    drafts += _emit(subjects, wording, objects, neg, conf, valid_from, ctx, f"work {lw}")
                elif base == "do" and head in JOB_NOUNS and lw in {"at", "for"}:
                    # "doing freelance work for Quillon Press": the one the work is done for is the employer.
                    wording = f"work {lw}" if neg else f"works {lw}"
                    drafts += _emit(subjects, wording, objects, neg, conf, valid_from, ctx, f"work {lw}")
                elif base == "go" and head in SCHOOL_NOUNS and lw in {"at", "to"}:
                    # "went to college at Stanford" -> studied at Stanford.
                    wording = "study at" if neg else ("studied at" if verb == "went" else "studies at")
                    drafts += _emit(subjects, wording, objects, neg, conf, valid_from, ctx, "study at")
                elif lw == "with" and base in MAKING_VERBS and _instruments(objects, base, ctx):
                    wording = "use" if neg else ("used" if verb == en.past_tense(base) else "uses")
                    drafts += _emit(subjects, wording, objects, neg, min(conf, FALLBACK), valid_from, ctx, "use")
                elif base == "have" and lw == "in":
                    pass  # "has a home ground in Rome": where the thing had is, not a relation of the subject
                else:
                    drafts += _emit(
                        subjects, f"{verb} {lw}", objects, neg, min(conf, FALLBACK), valid_from, ctx, f"{base} {lw}"
                    )
            j = max(stop, j + 1)
        else:
            j += 1
    return drafts


def _relational_noun(ws: list[str], k: int) -> tuple[str, int] | None:
    """Read "(a) [adjectives] <relational noun> <preposition>" at ``k`` after a "be".

    Returns the predicate and the index of the object, or None. The predicate keeps
    the wording ``language.predicates`` knows when there is one ("a big fan of" is
    ``likes``, "expert in" is ``skilled_in``); otherwise it is the noun and its
    preposition ("member of"), so that adjectives do not split one relation into many.
    """
    j = k + 1 if _lw(ws, k) in {"a", "an"} else k
    first = j
    while j < len(ws) and j - first < 3 and _lw(ws, j) not in RELATIONAL_NOUNS:
        w = ws[j]
        if en.is_capitalised(w) or not w.replace("-", "").isalpha() or w.lower() in en.STOPWORDS:
            return None
        j += 1
    prep = _lw(ws, j + 1)
    if _lw(ws, j) not in RELATIONAL_NOUNS or prep not in _RELATIONAL_PREPS or _time_at(ws, j + 1) > j + 1:
        return None
    words = [w.lower() for w in ws[k : j + 2]]
    noun_and_prep = f"{words[-2]} {prep}"
    for wording in (" ".join(words), " ".join(words[first - k :]), noun_and_prep):
        if predicate_key(wording) in PREDICATE_LEXICON:
            return wording, j + 2
    return noun_and_prep, j + 2


def _verb_as_written(word: str, base: str, be: str | None, have: str | None) -> str:
    """The verb of a relation as the sentence states it, without its auxiliaries.

    A verb with no auxiliary, or after do-support, a modal or "used to", is kept as
    written ("works", "wrote", "use" in "does not use"). Auxiliary constructions
    become the simple tense they state: the progressive takes the tense and person
    of its "be" ("is using" -> "uses", "am using" -> "use", "was using" -> "used";
    "has been living" -> "lives"), the perfect becomes the simple past ("has
    written" -> "wrote").
    """
    if be in en.BE_FORMS and en.is_gerund(word):
        tense = (have or "have") if be == "been" else be
        if tense in {"is", "has"}:
            return en.third_person(base)
        if tense in {"was", "were", "had"}:
            return en.past_tense(base)
        return base
    if have and en.is_participle(word):
        return en.past_from_participle(word)
    return word


def _passive_active(participle: str, be: str | None) -> str:
    """The active verb of a passive, in the tense of its auxiliary ("was written" -> "wrote")."""
    if be in {"is", "are", "am", "gets", "becomes"}:
        return en.third_person(en.lemma(participle))
    if be in {"be", "being", "get", "become", "getting"}:
        return en.lemma(participle)
    return en.past_from_participle(participle)


def _confidence(core: str, state: State, clear: bool = False) -> float:
    conf = CLEAR if clear or core.split(" ")[0] in CLEAR_VERBS else FALLBACK
    if state.implied:
        conf = min(conf, IMPLIED_SUBJECT)
    if state.hedged:
        conf = min(conf, HEDGED)
    return conf


def _typed(draft: Draft, base: str | None, ctx: TextContext) -> Draft:
    """Fill the end types the way ``language.extract.finish`` would from the base form."""
    if base is None:
        return draft
    subject, obj = clean_name(draft.subject), clean_name(draft.object)
    if draft.subject_type is None and subject != ctx.me:
        draft.subject_type = _types.guess_type(subject, draft.subject_pos, base, role="subject")
    if draft.object_type is None and obj != ctx.me:
        draft.object_type = _types.guess_type(obj, draft.object_pos, base)
    return draft


def _emit(
    subjects: list[Subject],
    predicate: str,
    objects: list[str],
    neg: bool,
    conf: float,
    valid_from: str | None,
    ctx: TextContext,
    base: str | None = None,
) -> list[Draft]:
    """Draft (subject, predicate, object) for every subject and object.

    ``base`` is the lemma form of a verb predicate ("work at" for "works at"); when
    given, the ends are typed from it here, because the type hints in
    ``language.types`` are written for base forms.
    """
    drafts: list[Draft] = []
    objects, places = _within_chain(predicate, objects, conf, ctx)
    for subject in subjects:
        produced = [
            _typed(
                Draft(
                    subject.name,
                    predicate,
                    obj,
                    negated=neg,
                    confidence=conf,
                    valid_from=valid_from,
                    subject_type=subject.type,
                    object_type=_types.PERSON if obj == ctx.me else None,
                ),
                base,
                ctx,
            )
            for obj in objects
        ]
        if produced:
            produced[-1].extras.extend(subject.extras)
            produced[-1].extras.extend(places)
            subject.extras, places = [], []
        drafts += produced
    return drafts


def _event_with(
    owner: str, attr: str, obj_words: list[str], when: str | None, neg: bool, conf: float, ctx: TextContext
) -> list[Draft]:
    """A dated event shared with someone: "My meeting with Tom is on Friday" -> (me, meeting with, Tom).

    The date says when the event is, so it goes to ``valid_from``; it is no value of the
    event, and certainly not of Tom.
    """
    words = attr.split()
    lowered = [w.lower() for w in words]
    if "with" not in lowered[1:-1] or not obj_words or _time_at(obj_words, 0) != len(obj_words):
        return []
    m = lowered.index("with")
    if any(en.is_capitalised(w) for w in words[:m]):
        return []
    return [
        Draft(
            owner,
            " ".join(lowered[: m + 1]),
            name,
            negated=neg,
            confidence=conf,
            valid_from=when or " ".join(obj_words),
            subject_type=_types.PERSON if owner == ctx.me else None,
        )
        for name in _object_names(words[m + 1 :], ctx)
    ]


def _copula(
    subj_words: list[str],
    subjects: list[Subject],
    obj_words: list[str],
    neg: bool,
    state: State,
    ctx: TextContext,
    when: str | None = None,
) -> list[Draft]:
    conf = _confidence("be", state, clear=True)
    objects = [obj for obj in _object_names(obj_words, ctx) if obj.lower() not in STATE_WORDS]
    if not objects:
        return []
    split = _owner_split(subj_words, ctx) if subj_words else None
    if split and _appositive(split[1]):
        split = None  # "My dog Rex is three": about Rex (the subject already), not an attribute
    if split and _roles_of_named(obj_words, ctx):
        # "The Flemish department of Mobility is the owner of Antwerp Airport": what the
        # subject is to Antwerp Airport, not a value of the department's.
        split = None
    event = _event_with(*split, obj_words, when, neg, conf, ctx) if split else []
    if event:
        return event
    if split and split[1].lower() == "name" and "'s " in split[0]:
        # "My cat's name is Whiskers" -> (me, cat, Whiskers), like "my cat is called Whiskers".
        owner, _, kind = split[0].partition("'s ")
        split = (owner, kind)
    if split:
        owner, attr = split
        value_is_name = all(
            obj == ctx.me or en.is_capitalised(obj) or _types.guess_type(obj) != _types.CONCEPT for obj in objects
        )
        indefinite = bool(obj_words) and obj_words[0].lower() in {"a", "an"}
        if not indefinite and not (attr.lower() in _types.PERSON_ROLES and not value_is_name):
            # "My favourite food is sushi" -> (me, favourite food, sushi).
            return [
                Draft(
                    owner,
                    attr,
                    obj,
                    negated=neg,
                    confidence=conf,
                    valid_from=state.valid_from,
                    subject_type=_types.PERSON if owner == ctx.me else None,
                    object_type=_types.PERSON if attr.lower() in _types.PERSON_ROLES else None,
                )
                for obj in objects
            ]
    # "Frank Herbert is the author of Dune" / "Bob is my brother" -> (owner, attribute, subject).
    items = _split_list(obj_words)
    roles = [_owner_split(obj_words, ctx)] if len(items) == 1 else [_owner_split(item, ctx) for item in items]
    if len(items) == 2 and roles[1] is not None and roles[0] is None and _is_bare_role(items[0], items[1]):
        # "the operating organisation and owner of Antwerp Airport": both roles are of it.
        roles[0] = (roles[1][0], " ".join(_strip_determiners(items[0])).lower())
    if len(items) > 1 and roles[0] is not None and not all(roles):
        after = obj_words.index(items[0][0]) + len(items[0])
        if after < len(obj_words) and obj_words[after] == ",":
            # "the leader of Cleveland, United States": what follows the comma places the
            # owner (Cleveland); it is not a second thing the subject is.
            roles = roles[:1]
        else:
            # "the chancellor of the College of William and Mary": whether the "and" ends
            # the owner's name or joins a second role is not clear, and a wrong name is worse than none.
            return []
    if all(roles) and not (obj_words and obj_words[0].lower() in {"a", "an"}):
        # "the CEO of Apple and the chairman of Nike": each role, of each subject.
        return [
            Draft(
                owner,
                attr,
                s.name,
                negated=neg,
                confidence=conf,
                valid_from=state.valid_from,
                subject_type=_types.PERSON if owner == ctx.me else None,
                object_type=_types.PERSON if attr.lower() in _types.PERSON_ROLES else s.type,
            )
            for owner, attr in (role for role in roles if role is not None)
            for s in subjects
        ]
    return _emit(subjects, "is", objects, neg, conf, state.valid_from, ctx)


def _roles_of_named(obj_words: list[str], ctx: TextContext) -> bool:
    """Whether a copula's complement is "the <role> of <name>" (one role or two joined by "and")."""
    if not obj_words or obj_words[0].lower() != "the":
        return False
    items = _split_list(obj_words)
    last = _owner_split(items[-1], ctx)
    return last is not None and en.is_capitalised(last[0]) and (len(items) == 1 or _is_bare_role(items[0], items[-1]))


def _is_bare_role(first: list[str], second: list[str]) -> bool:
    """Whether ``first`` is a role without its "of", sharing the one of ``second`` ("the founder and CEO of")."""
    words = _strip_determiners(first)
    return (
        0 < len(words) <= 3
        and all(w.isalpha() and w.islower() for w in words)
        and "of" in [w.lower() for w in second[1:4]]
    )


def _read_predicates(ws: list[str], k: int, subj_words: list[str], state: State, ctx: TextContext) -> list[Draft]:
    drafts: list[Draft] = []
    n = len(ws)
    subjects = state.subjects
    passive_before: str | None = None
    while k < n:
        neg = False
        be: str | None = None
        if passive_before and _is_participle(ws[k] if k < n else "", fronted=False) and not _is_verbish(_lw(ws, k + 1)):
            be = passive_before  # "… and launched in 1931": "was" left out
        passive_before = None
        have: str | None = None  # perfect auxiliary: "has written", "has been living"
        modal: str | None = None
        while k < n:
            lw = ws[k].lower()
            if lw in {"not", "never", "n't", "cannot"}:
                neg = True
                modal = "can" if lw == "cannot" else modal
            elif lw == "no" and _lw(ws, k + 1) == "longer":
                neg = True
                k += 1
            elif lw in en.HEDGES:
                state.hedged = True
            elif lw in en.BE_FORMS:
                be = lw
            elif lw in en.MODALS or lw in {"and", ","}:
                modal = lw if lw in en.MODALS else modal
            elif lw == "used" and _lw(ws, k + 1) == "to":
                k += 1
            elif lw in en.DO_FORMS | en.HAVE_FORMS and _aux_is_auxiliary(ws, k):
                if lw in en.HAVE_FORMS:
                    have = lw
            elif _is_adverb(ws[k]) or lw in {"both", "all", "each", "together"}:
                pass
            elif lw in GET_FORMS and (en.is_participle(_lw(ws, k + 1)) or _lw(ws, k + 1) == "born"):
                be = lw  # "got married", "became known": a copula-like get.
            else:
                break
            k += 1
        if k >= n:
            break
        w = ws[k]
        lw = w.lower()
        valid_from = state.valid_from
        if be and lw in NAMING_WORDS:
            # "My daughter is called Lily" -> (me, daughter, Lily), as "My daughter is Lily".
            end = _take_object(ws, k + 1)
            obj_words = ws[k + 1 : end]
            named = _copula(subj_words, subjects, obj_words, neg, state, ctx)
            for draft in named:
                ctx.named[(draft.subject, draft.predicate.lower())] = draft.object
            drafts += named
            k, _ = _skip_tail(ws, end, state)
            break
        if be and not en.is_gerund(lw):
            # A regular participle before a date is one too ("was inaugurated on 28 September 2013").
            dated_participle = _is_participle(lw, fronted=False) and _time_at(ws, k + 1) > k + 1
            if en.is_participle(lw) or lw == "born" or dated_participle:
                k += 1
                dated = _time_at(ws, k)
                if dated > k and _lw(ws, dated) == "by" and lw != "born":
                    # "was written in 1954 by Margaret Ellery": when, then who.
                    valid_from, k = " ".join(ws[k:dated]), dated
                if _lw(ws, k) == "by" and lw != "born":
                    # Passive: "Dune was written by Frank Herbert" -> (Frank Herbert, wrote, Dune).
                    end = _take_object(ws, k + 1)
                    agents = _object_names(ws[k + 1 : end], ctx)
                    k, tail_time = _skip_tail(ws, end, state)
                    base = en.lemma(lw)
                    conf = _confidence(base, state, clear=True)
                    kept = _KEY_BASES.get(predicate_key(f"{lw} by"))
                    if kept:
                        # "Ethan is employed by Initech" -> (Ethan, employed by, Initech): the
                        # lexicon reads this passive as a relation of its subject (works_at).
                        valid = tail_time or valid_from
                        drafts += _emit(subjects, f"{lw} by", agents, neg, conf, valid, ctx, kept)
                        break
                    for agent in agents:
                        for subject in subjects:
                            drafts.append(
                                _typed(
                                    Draft(
                                        agent,
                                        _passive_active(lw, be),
                                        subject.name,
                                        negated=neg,
                                        confidence=conf,
                                        valid_from=tail_time or valid_from,
                                        object_type=subject.type,
                                    ),
                                    base,
                                    ctx,
                                )
                            )
                    if agents:
                        for subject in subjects:
                            # "The Baku Memorial in Azerbaijan was designed by …": where it is, too.
                            drafts[-1].extras.extend(subject.extras)
                            subject.extras = []
                    if not _continues(ws, k):
                        break
                    # "… was built by Ida Marsh and launched in 1931": the next participle is passive too.
                    passive_before = be
                    k += 1
                    continue
                predicate = "born" if lw == "born" else lw
                if _lw(ws, k) in en.PARTICLES and _time_at(ws, k) == k or (_lw(ws, k) in {"in", "on"} and lw == "born"):
                    predicate += " " + _lw(ws, k)
                    k += 1
                clear = True
                base = _KEY_BASES.get(predicate_key(predicate), predicate)  # "employed at" types as "work at"
            elif lw in {"on", "in", "at"} and _time_at(ws, k) > k + 1:
                # "My birthday is on March 3rd": the date is the value, as in "is March 3rd".
                end = _time_at(ws, k)
                date_words = ws[k + 1 : end]
                when = " ".join(ws[k:end])
                k, _ = _skip_tail(ws, end, state)
                drafts += _copula(subj_words, subjects, date_words, neg, state, ctx, when)
                break
            elif lw in en.PARTICLES and lw not in {"of", "as", "by", "like"}:
                # "is from" -> come from; "has been to" -> go to; else "be in", "be at" ...
                if lw == "to" and be != "been":
                    break  # "is to the west", "is to be held": no "has been to"
                predicate = {"from": "come from", "to": "go to"}.get(lw, f"be {lw}")
                k += 1
                clear = True
                base = predicate
            elif relational := _relational_noun(ws, k):
                # "Leo is an expert in Rust" -> (Leo, expert in, Rust), not (Leo, is, expert).
                predicate, k = relational
                clear = True
                base = predicate
            elif (
                _lw(ws, k + 1) in en.PARTICLES
                and lw not in en.DETERMINERS | en.POSSESSIVES
                and not en.is_capitalised(w)
                and en.possessive_owner(w) is None
                and not w.isdigit()
                and _time_at(ws, k + 1) == k + 1  # "was promoted in August 2017": when, not "promoted in"
            ):
                # Adjective + preposition: "is interested in", "is good at", "is married to".
                predicate = f"{lw} {_lw(ws, k + 1)}"
                k += 2
                clear = True
                base = predicate
            else:
                end = _take_object(ws, k)
                obj_words = ws[k:end]
                k, tail_time = _skip_tail(ws, end, state)
                if tail_time:
                    state.valid_from = tail_time
                dimension = _dimension(obj_words)
                if dimension:
                    # "The Kell Canal is 48 miles long" -> (Kell Canal, length, 48 miles).
                    attribute, value = dimension
                    conf = _confidence("be", state, clear=True)
                    drafts += _emit(subjects, attribute, [value], neg, conf, state.valid_from, ctx, attribute)
                    if not _continues(ws, k):
                        break
                    k += 1
                    continue
                role_of = _role_of_named(ws, end, obj_words, ctx)
                if role_of:
                    # "Mumbai is the largest city in India" -> (India, largest city, Mumbai), as
                    # "the leader of Cleveland" is Cleveland's; not (Mumbai, is, largest city).
                    role, owners, k = role_of
                    k, _ = _skip_tail(ws, k, state)
                    conf = _confidence("be", state, clear=True)
                    drafts += [
                        Draft(owner, role, s.name, negated=neg, confidence=conf, valid_from=state.valid_from)
                        for owner in owners
                        for s in subjects
                    ]
                    if not _continues(ws, k):
                        break
                    k += 1
                    continue
                drafts += _copula(subj_words, subjects, obj_words, neg, state, ctx)
                workplace = _workplace(ws, end, obj_words, ctx)
                if workplace:
                    # "Clara is a pediatric nurse at St. Mary's Hospital": she also works there.
                    wording, places, k = workplace
                    conf = _confidence("work", state, clear=True)
                    drafts += _emit(subjects, wording, places, neg, conf, state.valid_from, ctx, wording)
                elif origin := _origin(ws, end, obj_words, ctx):
                    # "Kell Pie is a dish from Tarsk in Norland": it comes from Tarsk, which is in Norland.
                    places, stop = origin
                    conf = _confidence("come", state, clear=True)
                    drafts += _emit(subjects, "come from", places, neg, conf, state.valid_from, ctx, "come from")
                    within, after_place = _place_within(ws, stop, places, [], "come from", conf, ctx)
                    drafts += within
                    k, _ = _skip_tail(ws, max(stop, after_place), state)
                if not _continues(ws, k):
                    break
                k += 1
                continue
        else:
            if not (en.is_verb(lw) or (lw not in en.STOPWORDS and lw.isalpha() and not en.is_capitalised(w))):
                break
            base = en.lemma(lw)
            weighs_doing = base in CONTEMPLATION_VERBS and (
                en.is_gerund(_lw(ws, k + 1)) or (_lw(ws, k + 1) in {"about", "of"} and en.is_gerund(_lw(ws, k + 2)))
            )
            wishes = base in WISH_VERBS or (modal in {"would", "should"} and base in {"like", "love", "prefer"})
            if weighs_doing or wishes:
                # "I want to live in Paris", "I'd love a dog", "thinking about moving to Oslo": a wish
                # or a plan weighed states nothing yet.
                state.irrealis = True
                break
            predicate = _verb_as_written(lw, base, be, have)
            clear = base in CLEAR_VERBS
            k += 1
            if base in REPORTING_VERBS:
                # "Bob said (that) he knows Rust": read the reported clause instead.
                start = k
                if _lw(ws, start + 1) == "that" and (_lw(ws, start) in en.PRONOUNS or en.is_capitalised(ws[start])):
                    start += 1  # "told me that ..."
                if _lw(ws, start) == "that":
                    start += 1
                if _looks_like_clause(ws, start):
                    if base in {"think", "guess", "believe", "feel"}:
                        state.hedged = True
                    return drafts + _read_clause(ws[start:], state, ctx)
            ceased = base in CESSATION_VERBS or (base == "give" and _lw(ws, k) == "up")
            after = k + 1 if base == "give" else k
            if base in INCEPTION_VERBS and k < n and en.is_gerund(ws[k]) and _lw(ws, k + 1) not in {"to", "on"}:
                # "started working at Kestrel Foods": the gerund is the relation, and holds now.
                lw = base = en.lemma(ws[k])
                predicate = en.third_person(base)
                clear = True
                be = have = None
                k += 1
            if ceased and after < n and en.is_gerund(ws[after]):
                # "stopped using Slack", "gave up smoking": the gerund is what is no longer
                # done, so it is the relation, negated ("never stopped using Vim" still uses it).
                neg = not neg
                lw = base = en.lemma(ws[after])
                predicate = base if neg else en.third_person(base)
                clear = True
                be = have = None
                k = after + 1
                ceased = False
            gerund = False
            complement = ""
            if k < n and en.is_gerund(ws[k]):
                complement = " " + ws[k].lower()
                k += 1
                gerund = True
            elif _lw(ws, k) == "to" and k + 1 < n and en.is_base_verb(ws[k + 1]):
                complement = " to " + ws[k + 1].lower()
                k += 2
            if not complement and _is_adverb(_lw(ws, k)) and _lw(ws, k + 1) in en.PARTICLES and k + 2 < n:
                # "react badly to latex": how, then the verb's own preposition.
                complement = " " + _lw(ws, k)
                k += 1
            prep_gerund = gerund and (en.lemma(complement.strip()), _lw(ws, k)) in PREP_GERUNDS
            recurring = _frequency_at(ws, k)
            if not complement and recurring > k and _lw(ws, recurring) in en.PARTICLES:
                # "works evenings at the depot": when it recurs, then where.
                valid_from, k = valid_from or " ".join(ws[k:recurring]), recurring
            if (
                _lw(ws, k) in en.PARTICLES
                and _time_at(ws, k) == k
                and _frequency_at(ws, k) == k
                # "has about 120 singers": a count, not "has about"
                and not (base == "have" and _lw(ws, k) in _APPROXIMATORS and _is_number(_lw(ws, k + 1)))
                and not (_lw(ws, k) == "to" and k + 1 < n and en.is_base_verb(ws[k + 1]))
                and not (gerund and not prep_gerund and not en.is_capitalised(ws[k + 1] if k + 1 < n else ""))
            ):
                # After a gerund only a named object keeps the particle ("love living in Paris",
                # but "hate waiting in line" is about waiting), unless the verb takes it
                # ("enjoy listening to jazz").
                complement += " " + _lw(ws, k)
                k += 1
            elif _lw(ws, k) in ADVERB_PARTICLES and _lw(ws, k + 1) in PHRASAL_PREPS and not gerund:
                complement += " " + _lw(ws, k)  # "moved back to Boston"
                k += 1
            if (
                complement.split(" ")[-1] in ADVERB_PARTICLES
                and (_lw(ws, k) in PHRASAL_PREPS or (complement.endswith(" out") and _lw(ws, k) == "of"))
                and _time_at(ws, k) == k
                and _frequency_at(ws, k) == k
            ):
                complement += " " + _lw(ws, k)  # "grew up in Texas", "hang out with Tom", "moved out of"
                k += 1
            predicate += complement
            base += complement
        born_on = predicate == "born on" and _time_at(ws, k - 1) > k
        if born_on or (predicate == "born" and _time_at(ws, k) > k):
            # "born on March 15, 1932 in Wheeler, Texas": the date, then the place.
            predicate = "born on"
            date_end = _time_at(ws, k - 1) if born_on else _time_at(ws, k)
            date = " ".join(ws[k:date_end]).replace(" ,", ",")
            drafts += _emit(subjects, predicate, [date], neg, CLEAR, None, ctx, predicate)
            if _lw(ws, date_end) != "in" or _time_at(ws, date_end) > date_end:
                k, _ = _skip_tail(ws, date_end, state)
                if not _continues(ws, k):
                    break
                k += 1
                continue
            predicate = base = "born in"
            k = date_end + 1
        end = _take_object(ws, k)
        obj_words = ws[k:end]
        if not be and base in NAMING_VERBS and len(obj_words) >= 2 and en.is_capitalised(obj_words[-1]):
            # "we all call him Bubba", "I call my dog Rex": the one called, then the name;
            # neither the caller (we) nor a glued "Emma's dog Rex" is the fact.
            drafts += _called(obj_words, neg, _confidence(base, state, clear=True), ctx)
            k, _ = _skip_tail(ws, end, state)
            if not _continues(ws, k):
                break
            k += 1
            continue
        if len(obj_words) >= 2 and obj_words[0].lower() in INDIRECT_PRONOUNS:
            obj_words = obj_words[1:]  # "taught myself Python": Python is what was taught
        had_as = _had_as(ws, k) if base == "have" and not be else None
        if had_as:
            # "Ajoblanco has bread as an ingredient" -> (Ajoblanco, ingredient, bread).
            role, what, end = had_as
            drafts += _emit(subjects, role, what, neg, _confidence("have", state, clear=True), valid_from, ctx)
            k, _ = _skip_tail(ws, end, state)
            if not _continues(ws, k):
                break
            k += 1
            continue
        measure = (_measure_at(ws, k) or _count_at(ws, k)) if base == "have" and not be else None
        if measure:
            # "The airport has a runway length of 3800" -> (airport, runway length, 3800).
            conf = _confidence("have", state, clear=True)
            while measure:
                attribute, value, end = measure
                drafts += _emit(subjects, attribute, [value], neg, conf, valid_from, ctx)
                # "an elevation of 210 metres (above sea level) and a runway length of 1,533 metres": both had.
                following = end
                while following < n and following - end < 4 and ws[following].islower() and ws[following] != "and":
                    following += 1
                measure = (
                    (_measure_at(ws, following + 1) or _count_at(ws, following + 1))
                    if _lw(ws, following) == "and"
                    else None
                )
                end = following if measure else end
            if _lw(ws, end) == "and" and end + 1 < n and not _is_verbish(ws[end + 1]):
                # "70634 members and a home ground": what follows the "and" is had too.
                k = end + 1
                end = _take_object(ws, k)
                obj_words = ws[k:end]
            else:
                k, _ = _skip_tail(ws, end, state)
                if not _continues(ws, k):
                    break
                k += 1
                continue
        if obj_words and _lw(ws, end) in NAMING_WORDS and not be:
            # "I have a cat named Whiskers" -> (me, cat, Whiskers): the name is the entity.
            name_end = end + 1
            while name_end < n and name_end - end <= 3 and en.is_capitalised(ws[name_end]):
                name_end += 1
            kind = " ".join(_strip_determiners(obj_words)).lower()
            if name_end > end + 1 and kind not in DROPPED and not en.is_capitalised(obj_words[-1]):
                drafts += _named(subjects, kind, " ".join(ws[end + 1 : name_end]), neg, state, ctx)
                k, _ = _skip_tail(ws, name_end, state)
                if not _continues(ws, k):
                    break
                k += 1
                continue
        if obj_words and _time_at(obj_words, 0) == len(obj_words) and predicate.split(" ")[-1] not in en.PARTICLES:
            # "Henry retired last year": a bare time after the verb says when, not what.
            valid_from = " ".join(obj_words)
            obj_words = []
        if not obj_words and " " in predicate and en.is_gerund(predicate.split(" ")[-1]):
            # "I love hiking": the gerund is what is loved.
            predicate, activity = predicate.rsplit(" ", 1)
            base = base.rsplit(" ", 1)[0]
            obj_words = [activity]
        tail_start = end
        k, tail_time = _skip_tail(ws, end, state)
        objects = _object_names(obj_words, ctx)
        if not be and ceased and objects and all(_types.guess_type(o) in _TOOLISH for o in objects):
            # "I gave up Photoshop", "quit Slack": no longer uses it.
            neg = not neg
            predicate, base, clear = ("use" if neg else "uses"), "use", True
        conf = _confidence(base, state, clear=clear)
        valid = tail_time or valid_from
        is_activity = False
        if not obj_words and not objects:
            objectless = _objectless(lw, base, be, have, modal, neg, valid)
            if objectless:
                predicate, obj, base = objectless
                objects = [obj]
                is_activity = base in {"know how to", "do"}
        produced = _emit(subjects, predicate, objects, neg, conf, valid, ctx, base)
        for draft in produced:
            if is_activity and draft.object in objects:
                draft.object_type = _types.ACTIVITY
        drafts += produced
        within, after_place = _place_within(ws, tail_start, objects, obj_words, predicate, conf, ctx)
        if within:
            # "serves the city of Antwerp in Belgium", "located at Ícolo e Bengo in Angola":
            # the "in" places the place, not the subject.
            drafts += within
            tail_start = after_place
            if k < after_place:
                k, _ = _skip_tail(ws, after_place, state)
        if objects and (not be or en.is_gerund(lw)):
            # Not after a passive or copula ("born in Seattle in 2019"); a progressive is
            # an ordinary verb ("is building a plugin system with Wasmtime").
            head = obj_words[-1].lower() if obj_words else ""
            drafts += _tail_relations(ws, tail_start, k, subjects, predicate, neg, state, valid, ctx, head)
        if not _continues(ws, k):
            break
        k += 1
    return drafts


_DATE = re.compile(r"\d{4}|\d{1,2}(?:st|nd|rd|th)?\b")


def _objectless(
    word: str, base: str, be: str | None, have: str | None, modal: str | None, neg: bool, when: str | None
) -> tuple[str, str, str] | None:
    """The fact a verb states without an object: (predicate, object, base) or None.

    * an event with a date: "I got married in June 2016" -> (married in, June 2016),
      like "born in"; "I am married" -> (is, married);
    * an ability: "I can't swim" -> (know how to, swim), negated like 我不会游泳;
    * a habit: "I run every morning" / "I don't smoke" -> (does, running) / (do, smoking).
    """
    if (word in EVENT_WORDS or (word in DATED_EVENTS and be)) and not have:
        date = _DATE.search(when or "")
        if date:
            parts = (when or "").split(" ", 1)
            stated = parts[0].lower() in {"in", "on"} and len(parts) > 1
            prep, rest = (parts[0].lower(), parts[1]) if stated else ("in", when or "")
            return f"{word} {prep}", rest, f"{en.lemma(word)} {prep}"
        if be and be not in {"been", "being"} and word in EVENT_WORDS:
            return "is", word, "be"
        return None
    if base not in ACTIVITY_VERBS or be or have:
        return None
    if modal in {"can", "could"}:
        # "I can't swim" reads back as "Gina does not know how to swim".
        wording = "know how to" if neg else ("knows how to" if modal == "can" else "knew how to")
        return wording, base, "know how to"
    if modal is None and word in {base, en.third_person(base)}:
        return ("do" if neg else "does", en.gerund(base), "do")
    return None


def _is_number(word: str) -> bool:
    """Whether a word is written as a number or a code of digits ("3800", "1,533", "-3.3528", "0-7156-3648-0")."""
    return word[:1].isdigit() or (word[:1] == "-" and word[1:2].isdigit())


def _count_at(ws: list[str], k: int) -> tuple[str, str, int] | None:
    """Read "23900 members" / "16,000 students" after "has" as (number of members, 23900, end).

    The count is written in digits and what is counted is a plural noun (with at most one
    word before it): "has 3 kids" -> (number of kids, 3).
    """
    approximate = _lw(ws, k) in _APPROXIMATORS and _is_number(_lw(ws, k + 1))
    if approximate:
        k += 1  # "about 120 singers": the count, kept approximate
    if not _is_number(_lw(ws, k)):
        return None
    end = k + 1
    while end < len(ws) and end - k <= 2 and ws[end].isalpha() and ws[end].islower() and ws[end] not in en.STOPWORDS:
        end += 1
    counted = [w.lower() for w in ws[k + 1 : end]]
    if not counted or en.singular(counted[-1]) == counted[-1] or _lw(ws, end) == "of":
        return None  # "18 grams of carbs": a measure of something else
    return "number of " + " ".join(counted), f"{ws[k - 1].lower()} {ws[k]}" if approximate else ws[k], end


def _had_as(ws: list[str], k: int) -> tuple[str, list[str], int] | None:
    """Read "bread as an ingredient" / "chili pepper as one of its ingredients" after "has".

    Returns (role, the names had in it, end). The role is a lower-case noun phrase after
    "as" and a determiner; its head noun, singular, is the predicate.
    """
    end = _take_object(ws, k)
    if end <= k or _lw(ws, end) != "as":
        return None
    j = end + 1
    if [_lw(ws, j), _lw(ws, j + 1)] == ["one", "of"]:
        j += 2
    determined = _lw(ws, j) in en.DETERMINERS | en.POSSESSIVES
    j += determined
    start = j
    while j < len(ws) and j - start < 3 and ws[j].isalpha() and ws[j].islower() and ws[j] not in en.STOPWORDS:
        j += 1
    if j == start or (j < len(ws) and ws[j] not in {",", "and", ";"}):
        return None
    head = en.singular(ws[j - 1])
    if not determined and head == ws[j - 1]:
        return None  # "as ingredients" names a role; "as usual", "as well" do not
    # Adjectives say how important the role is, not which: "one of its important ingredients".
    role = [w for w in ws[start : j - 1] if "NOUN" in en.word_classes(w)] + [head]
    names = [name for name in (_strip_determiners(part) for part in _split_list(ws[k:end])) if name]
    return " ".join(role), [" ".join(name) for name in names], j


def _workplace(ws: list[str], end: int, obj_words: list[str], ctx: TextContext) -> tuple[str, list[str], int] | None:
    """Where "a nurse at St. Mary's Hospital" works: ("works at", names, where they end), else None.

    After "is a/an/the <occupation>", "at"/"for" a name is the employer and "in" a name the
    place of work.
    """
    if len(obj_words) < 2 or obj_words[0].lower() not in {"a", "an", "the"} or _lw(ws, end) not in {"at", "for", "in"}:
        return None
    kind = obj_words[1:]
    lower_case = all(w.isalpha() and w.islower() for w in kind)
    if not ((lower_case and is_occupation(" ".join(kind[-2:]))) or is_occupation(kind[-1])):
        return None
    names, stop = _names_after(ws, end, ctx)
    if not names:
        return None
    return ("works in" if _lw(ws, end) == "in" else "works at"), names, stop


_DIMENSIONS = mapping("en", "dimension_adjectives")


def _dimension(obj_words: list[str]) -> tuple[str, str] | None:
    """Read "48 miles long" / "about 9 feet high" as (length, 48 miles), else None."""
    if len(obj_words) < 3 or obj_words[-1].lower() not in _DIMENSIONS:
        return None
    measure = obj_words[:-1]
    number = 1 if measure[0].lower() in _APPROXIMATORS else 0
    if not _is_number(measure[number].lower()) or not all(w.isalpha() for w in measure[number + 1 :]):
        return None
    return _DIMENSIONS[obj_words[-1].lower()], " ".join(measure)


def _origin(ws: list[str], end: int, obj_words: list[str], ctx: TextContext) -> tuple[list[str], int] | None:
    """Where "a dish from Tarsk" comes from: (places, where they end), else None.

    After "is a/an/the <kind>", "from" and places (or "the country of" a place) say where the
    subject comes from; "a colleague from Acme" names no place, so no origin.
    """
    if len(obj_words) < 2 or obj_words[0].lower() not in {"a", "an", "the"} or _lw(ws, end) != "from":
        return None
    kind = [w.lower() for w in obj_words[1:]]
    if not all(w.isalpha() for w in kind) or any(w != w.lower() for w in obj_words[1:]):
        return None
    at = end + 1 if _lw(ws, end + 1) == "the" else end
    written_as_place = _lw(ws, at + 1) in PLACE_CLASSES and _lw(ws, at + 2) == "of"  # "the country of Norland"
    names, stop = _names_after(ws, at + 2 if written_as_place else end, ctx)
    if not names:
        return None
    # "a friend from Leeds", "a colleague from Acme": for a person, only a known place is where they come from.
    personal = kind[-1] in _types.PERSON_ROLES or is_occupation(" ".join(kind))
    if personal and not all(_types.guess_type(name) == _types.PLACE for name in names):
        return None
    return names, stop


def _role_of_named(
    ws: list[str], end: int, obj_words: list[str], ctx: TextContext
) -> tuple[str, list[str], int] | None:
    """The role a copula's subject has in a named thing: (role, owners, where they end), else None.

    "the largest city in India", "an ingredient in Arròs negre", "the operating organisation
    for Al Asad Airbase": a common noun (with at most two words before it) and "in"/"for" a
    name. An occupation there is a workplace (``_workplace``), a relational noun the
    subject's own relation ("an expert in Rust"), "for" after "a" a purpose ("a gift for Tom"),
    "a city in France" or "a company in Leeds" a kind of place or group and where it is.
    """
    prep = _lw(ws, end)
    if len(obj_words) < 2 or obj_words[0].lower() not in {"a", "an", "the"} or prep not in {"in", "for"}:
        return None
    kind = [w.lower() for w in obj_words[1:]]
    if len(kind) > 3 or not all(w.isalpha() and w == w.lower() and w not in en.STOPWORDS for w in kind):
        return None
    head = kind[-1]
    if head in RELATIONAL_NOUNS or is_occupation(" ".join(kind)) or is_occupation(head):
        return None
    if obj_words[0].lower() in {"a", "an"} and (head in PLACE_CLASSES or head in NAME_CLASSES):
        return None  # "Paris is a city in France", "a firm in Leeds": what it is, and where
    if "NOUN" not in en.word_classes(head) or (prep == "for" and obj_words[0].lower() != "the"):
        return None
    names, stop = _names_after(ws, end, ctx)
    if not names or not all(en.is_capitalised(name) for name in names):
        return None
    return " ".join(kind), names, stop


def _names_after(ws: list[str], preposition: int, ctx: TextContext) -> tuple[list[str], int]:
    """The capitalised names of the object after the preposition at ``preposition``, and where it ends."""
    stop = _take_object(ws, preposition + 1)
    names = _object_names(_strip_determiners(ws[preposition + 1 : stop]), ctx)
    return [name for name in names if en.is_capitalised(name)], stop


def _measure_at(ws: list[str], k: int) -> tuple[str, str, int] | None:
    """Read "a runway length of 3800 metres" / "an ISSN number of 1046-8188" at ``k``.

    Returns (attribute, value, end). The value starts with a digit and keeps the unit
    words written after it ("210 metres above sea level"), up to "and", a comma or the
    end; "a lot of friends", "a team of engineers" name what is had, no measure.
    """
    if _lw(ws, k) not in {"a", "an", "the"}:
        return None
    at = next((j for j in range(k + 2, min(k + 5, len(ws))) if _lw(ws, j) == "of" or _is_number(ws[j])), None)
    if at is None:
        return None
    # "a runway length of 3800", or the value right after the attribute: "the ISBN number 0-7156-3648-0".
    value_at = at + 1 if _lw(ws, at) == "of" else at
    if value_at >= len(ws) or not _is_number(ws[value_at]):
        return None
    attribute = ws[k + 1 : at]
    # Lower-case words or acronyms: "a Tesla Model 3" is a car, not a model numbered 3.
    if not attribute or any(not (w.isupper() or (w.isalpha() and w.islower())) or w in en.STOPWORDS for w in attribute):
        return None
    end = value_at + 1
    while end < len(ws) and end - value_at <= 3 and ws[end].isalpha() and ws[end].islower():
        if ws[end] in en.STOPWORDS or ws[end] in en.PREPOSITIONS:
            break
        end += 1
    return " ".join(w if w.isupper() else w.lower() for w in attribute), " ".join(ws[value_at:end]), end


def _named(subjects: list[Subject], kind: str, name: str, neg: bool, state: State, ctx: TextContext) -> list[Draft]:
    """(owner, kind, name) for a thing introduced with its name ("a cat named Whiskers")."""
    drafts: list[Draft] = []
    for subject in subjects:
        ctx.named[(subject.name, kind)] = name
        drafts.append(
            Draft(
                subject.name,
                kind,
                name,
                negated=neg,
                confidence=_confidence("have", state, clear=True),
                valid_from=state.valid_from,
                subject_type=subject.type,
                object_type=_types.PERSON if kind in _types.PERSON_ROLES else None,
            )
        )
        drafts[-1].extras.extend(subject.extras)
        subject.extras = []
    return drafts


def _continues(ws: list[str], k: int) -> bool:
    """Whether the word at ``k`` links another verb phrase of the same subject."""
    lw = _lw(ws, k)
    nxt = ws[k + 1] if k + 1 < len(ws) else ""
    if lw == "to" and nxt and en.is_base_verb(nxt):
        return True  # purpose: "use n8n to build workflows"
    return (
        lw in {"and", ",", "but", "or", "then"}
        and bool(nxt)
        and (_is_verbish(nxt) or _is_adverb(nxt) or nxt.lower() in {"no", "not", "never"})
    )


def _addresses_someone(ws: list[str]) -> bool:
    """Whether a clause only greets or thanks someone by name ("Hey Anneliese", "Thanks, Bruno"): no subject in it."""
    if not ws or ws[0].lower() not in GREETINGS:
        return False
    rest = [w for w in ws[1:] if w != ","]
    return bool(rest) and len(rest) <= 3 and all(en.is_capitalised(w) for w in rest)


def _read_clause(ws: list[str], state: State, ctx: TextContext) -> list[Draft]:
    if _addresses_someone(ws):
        return []
    i = 0
    n = len(ws)
    while i < n:
        lw = ws[i].lower()
        end = max(_time_at(ws, i), _frequency_at(ws, i))  # "In 2019, ...", "Every morning I ..."
        led = _time_at(ws, i + 1) if i == 0 and lw in TIME_LEAD_INS else i + 1
        if led > i + 1:
            # "Starting Monday I'm the nurse there": from when the statement holds, not a verb.
            state.valid_from = " ".join(ws[i + 1 : led])
            i = led
            continue
        if end > i and not (end < n and ws[end].lower() in en.BE_FORMS):
            state.valid_from = " ".join(ws[i:end])
            i = end
            continue
        if lw in en.HEDGES:
            state.hedged = True
        elif lw == "i" and _lw(ws, i + 1) in HEDGE_VERBS and i + 2 < n and _lw(ws, i + 2) not in en.PREPOSITIONS:
            state.hedged = True
            i += 1
            if _lw(ws, i + 1) == "that":
                i += 1
        elif lw in LEAD_FILLERS and i + 1 < n and not (lw in {"the"} or _lw(ws, i + 1) in en.BE_FORMS):
            pass
        elif ws[i] == ",":
            pass
        else:
            break
        i += 1
    if i >= n:
        return []
    end = _subject_end(ws, i)
    subj_words = ws[i:end]
    if len(subj_words) == 1 and subj_words[0].lower() in {"he", "she"} and len(state.subjects) == 1:
        # "Quinn no longer uses Slack, she now uses Discord": she is the subject of the
        # clause before, even when the name is not a known given name.
        previous = state.subjects[0].name
        if (
            not state.first_person
            and all(en.is_capitalised(w) and w.isalpha() for w in previous.split())
            and _types.guess_type(previous) in {_types.PERSON, _types.CONCEPT}
            # "Acme hired Tom, he ...": a known person in between is the likelier referent.
            and not any(_types.guess_type(obj) == _types.PERSON for obj in state.objects)
        ):
            ctx.last_person = previous
            state.persons.add(previous)
    if subj_words:
        state.first_person = len(subj_words) == 1 and subj_words[0].lower() in en.FIRST_PERSON
        subjects = _subjects(subj_words, ctx)
        if not subjects:
            return _called_by_anyone(ws, end, ctx)
        state.subjects = subjects
        state.implied = False
    elif not state.subjects:
        if not ctx.speaker_given:
            return []
        state.subjects = [Subject(ctx.me, _types.PERSON)]
        state.implied = True
    for subject in state.subjects:
        if subject.type == _types.PERSON and subject.name != ctx.me and "'s " not in subject.name:
            ctx.last_person = subject.name
        elif _types.guess_type(subject.name) == _types.PERSON:
            ctx.last_person = subject.name
    drafts = _read_predicates(ws, end, subj_words, state, ctx)
    if not drafts and subj_words:
        # "my cousin Marguerite, everybody calls her Mags", "my cousin, Harriet, is visiting": a
        # clause that states nothing else still says whose relative the name is.
        drafts = [
            link
            for subject in state.subjects
            for link in subject.extras
            if link.object == subject.name and "'s " not in subject.name
        ]
        for subject in state.subjects:
            subject.extras = []
    if any(subject.referred for subject in state.subjects):
        # "It has 500 employees" is said of Acme; "It is great", "it was fun" may be said of
        # anything (the day, the trip): only a named or counted object is kept.
        drafts = [draft for draft in drafts if _names_something(draft.object)]
    for subject in state.subjects:
        if _may_be_topic(subject, ctx) and any(draft.subject == subject.name for draft in drafts):
            ctx.topic = subject.name
    return drafts


def _may_be_topic(subject: Subject, ctx: TextContext) -> bool:
    """Whether "it" may refer to a subject later: a named thing that said something, not a person.

    A single word the English word list knows is no name at the start of a clause
    ("Thanks, it was great", "Yeah, it's special to me").
    """
    name = subject.name
    if subject.type == _types.PERSON or name == ctx.me or not en.is_capitalised(name) or "'s " in name:
        return False
    first = name.split()[0].lower()
    if _types.guess_type(name) == _types.PERSON or first in en.STOPWORDS or first in _LEAD_INS:
        return False  # "Our kids", "Yeah": no name
    return " " in name or not en.word_classes(first)


def _names_something(phrase: str) -> bool:
    """Whether a phrase is a name or a count ("Boston", "500 employees"), not a description ("great")."""
    first = phrase.split()[0] if phrase.split() else ""
    return en.is_capitalised(first) or any(ch.isdigit() for ch in first)


def _looks_like_clause(ws: list[str], i: int) -> bool:
    """Whether ``ws[i:]`` reads as subject + verb ("he knows Rust"), not a bare object."""
    if i >= len(ws) or _lw(ws, i) in {"me", "him", "us", "them"}:
        return False
    end = _subject_end(ws, i)
    while end < len(ws) and _is_adverb(ws[end]) and _manner_at(ws, end) == end:
        end += 1  # "he really knows ...", but "(knows) Lua very well" has no verb
    if end == i or end >= len(ws):
        return False
    nxt = ws[end]
    return _is_verbish(nxt) or nxt.lower() in en.HEDGES


def _starts_clause(ws: list[str], i: int) -> bool:
    """Whether a new clause with its own subject pronoun starts at ``i`` ("and now I use ...")."""
    if _lw(ws, i) in {"and", "but", "so"}:
        i += 1
    while i < len(ws) and _lw(ws, i) in {"now", "then", "today", "nowadays", "currently", "later"}:
        i += 1
    if _lw(ws, i) in {"everyone", "everybody"}:
        return i + 1 < len(ws) and _is_verbish(ws[i + 1])  # "my cousin Marguerite, everybody calls her Mags"
    return _lw(ws, i) in _CLAUSE_SUBJECTS and i + 1 < len(ws)


def _and_starts_clause(ws: list[str], i: int, current: list[str]) -> bool:
    """Whether "and" at ``i`` joins a second clause with its own subject and verb.

    "I left Deloitte and now I work at KPMG": the clause before has its verb already,
    and a pronoun plus verb follows. "My brother and I both love hiking" has no verb
    before "and", so there "and I" is part of the subject.
    """
    if not any(_is_verbish(w) for w in current[1:]):
        return False
    if current and current[-1] == "," and _names_a_subject(ws, i + 1):
        return True  # "I'm allergic to shellfish, and my husband Omar is vegetarian"
    if not _starts_clause(ws, i):
        return False
    j = i + 1
    while j < len(ws) - 1 and _lw(ws, j) not in _CLAUSE_SUBJECTS:
        j += 1
    if j >= len(ws) - 1:
        return False
    nxt = ws[j + 1]
    return _is_verbish(nxt) or _is_adverb(nxt) or nxt.lower() in en.HEDGES


_CLAUSE_SUBJECTS = frozenset({"i", "he", "she", "we", "they", "everyone", "everybody"})
"""Subjects that open a clause of their own after a comma or "and" ("…, everybody calls her Mags")."""


def _names_a_subject(ws: list[str], i: int) -> bool:
    """Whether a possessive or capitalised noun phrase and its verb start at ``i`` ("my husband Omar is")."""
    first = _lw(ws, i)
    if first not in {"my", "our", "his", "her", "their"} and not en.is_capitalised(ws[i] if i < len(ws) else ""):
        return False
    return _looks_like_clause(ws, i)


def _clauses(ws: list[str]) -> list[list[str]]:
    """Cut at clause words; relative clauses are read as clauses of their own, or dropped.

    A relative clause after a name says something of that name, and becomes a clause of
    its own: "Live Nation, which is based in Dublin, Ireland" (Live Nation is based in
    Dublin, Ireland), "Stuart Parker who plays for Runcorn", "the United States, where
    Barack Obama is the leader" (Barack Obama is the leader of the United States), "Berlin,
    where my sister lives" (my sister lives in Berlin). Other relative clauses (whose,
    when; "which Herbert wrote", whose verb has a subject of its own; one after a common
    noun) are dropped. A relative clause ends at a comma that the main clause's verb
    follows ("Anna, who is my sister, lives in Rome"); until then what follows is still
    its own (", Ireland", ", in the United States").
    """
    out: list[list[str]] = [[]]
    relatives: list[_Relative] = []
    skipping = False
    for i, w in enumerate(ws):
        lw = w.lower()
        starts = lw in {"because", "but", "although", "though", "while", "whereas", "so", "since", "cause"}
        if lw == "since" and _time_at(ws, i) > i:
            starts = False
        if lw == "so" and _lw(ws, i + 1) not in SUBJECT_PRONOUNS:
            starts = False
        if lw == "but" and i + 1 < len(ws) and _is_verbish(ws[i + 1]):
            starts = False  # "I like tea but hate coffee": same subject, keep reading
        if lw == "which" and _lw(ws, i - 1) == "of" and (of_which := _the_role_of_which(out[-1])):
            # "South Africa, the capital of which is Cape Town": as "whose capital is Cape Town".
            cut, role = of_which
            antecedent = _relative_antecedent(out[-1][:cut], [*out[-1][:cut], "whose", *role], cut)
            del out[-1][cut:]
            skipping = True
            if antecedent:
                relatives.append(_Relative("whose", antecedent, list(role)))
            continue
        if lw in {"which", "who", "whom", "whose", "where", "when"} and out[-1]:
            skipping = True
            antecedent = _relative_antecedent(out[-1], ws, i)
            if antecedent:
                relatives.append(_Relative(lw, antecedent))
            continue
        if starts and out[-1]:
            out.append([])
            skipping = False
            continue
        if (
            w == ";"
            or (
                w == ","
                and (
                    _starts_clause(ws, i + 1)
                    or (_says_without_subject(ws[i + 1 :]) and not _name_and_aside(out[-1]))
                    # "Zoe has piano, Ben has football": a name and its verb after a comma
                    or (
                        bool(out[-1])
                        and any(_is_verbish(word) for word in out[-1])
                        and _name_then_verb(ws, i + 1)
                        and _types.guess_type(ws[i + 1]) != _types.PLACE  # "New York City, U.S. Manhattan is"
                    )
                )
            )
            or (lw == "and" and _and_starts_clause(ws, i, out[-1]))
        ):
            # "I don't use Python any more, I moved to Node.js": a comma splice.
            out.append([])
            skipping = False
            continue
        if skipping:
            if w == "," and _resumes_main_clause(ws, i + 1):
                skipping = False
            elif relatives and relatives[-1].open:
                relatives[-1].words.append(w)
            continue
        if relatives:
            relatives[-1].open = False
        out[-1].append(w)
    detached = [clause for relative in relatives for clause in relative.as_clauses()]
    return [c for c in out if c] + detached


def _name_and_aside(words: list[str]) -> bool:
    """Whether the words are a name, a comma and an aside without a verb ("Tom, in the end").

    The comma after such an aside leads back to the name's own verb ("Tom, in the end,
    moved to Leeds"): what follows is Tom's, not a clause that leaves out "I".
    """
    name = _leading_name(words)
    if not name or _lw(words, len(name)) != "," or _is_adverb(name[0]) or name[0].lower() in en.STOPWORDS:
        return False
    return not any(_is_verbish(word) for word in words[len(name) + 1 :])


def _the_role_of_which(words: list[str]) -> tuple[int, list[str]] | None:
    """Where "(,) the <noun> of" before "which" starts, and the noun ("the capital of which"), else None."""
    if len(words) < 3 or words[-1].lower() != "of":
        return None
    the = next((k for k in range(len(words) - 2, max(len(words) - 5, -1), -1) if words[k].lower() == "the"), None)
    role = words[the + 1 : -1] if the is not None else []
    if not role or not all(w.isalpha() and w.islower() for w in role):
        return None
    cut = the - 1 if the and words[the - 1] == "," else the
    return (cut, role) if cut else None


@dataclass
class _Relative:
    """A relative clause after a name: its word (which, who, where), the name, its words so far."""

    kind: str
    antecedent: list[str]
    words: list[str] = field(default_factory=list)
    open: bool = True

    def as_clauses(self) -> list[list[str]]:
        """The clauses it states of its name (none when it states nothing readable)."""
        if self.kind == "whose":
            clause = self._of_what_it_has()
            return [clause] if clause else []
        if self.kind != "where":
            return [[*self.antecedent, *self.words]] if self.words else []
        # "where Barack Obama is the leader and the African Americans are one of the ethnic groups": two.
        parts: list[list[str]] = [[]]
        for k, word in enumerate(self.words):
            rest = self.words[k + 1 :]
            if word.lower() == "and" and parts[-1] and (_has_own_subject(rest) or _lw(rest, 0) == "the"):
                parts.append([])
                continue
            parts[-1].append(word)
        return [clause for clause in (self._in_the_place(part) for part in parts if part) if clause]

    def _in_the_place(self, words: list[str]) -> list[str] | None:
        be = next((k for k, w in enumerate(words) if w.lower() in en.BE_FORMS), None)
        if be is not None and be > 0 and _lw(words, be + 1) in {"the", "a", "an", "one"}:
            role = words[be + 2 :]
            if _lw(words, be + 1) == "one" and [w.lower() for w in role[:2]] == ["of", "the"]:
                role = [*role[2:-1], en.singular(role[-1].lower())] if len(role) > 2 else []  # one of the groups
            if 1 <= len(role) <= 2 and not any(en.is_capitalised(w) for w in role):
                if _lw(words, be + 1) in {"a", "an"} and is_occupation(" ".join(role).lower()):
                    return [*words, "in", *self.antecedent]  # "where Tom is a baker": he works there
                # "where X is the leader", "where John Roberts is a leader": X is the leader (of it)
                return [*words[:be], words[be], "the", *role, "of", *self.antecedent]
        if be is not None and _lw(words, 0) == "the" and 2 <= be <= 3 and be + 1 < len(words):
            role = words[1:be]
            if not any(en.is_capitalised(w) for w in role):
                return ["the", *role, "of", *self.antecedent, *words[be:]]  # the currency (of it) is Y
        if len(words) >= 2 and _is_verbish(words[-1]) and words[-1].lower() not in en.BE_FORMS:
            return [*words, "in", *self.antecedent]  # my sister lives (in it)
        if _has_own_subject(words) and not any(w.lower() in _LOCATIVE_ENDS for w in words):
            # "California, where Alan Shepard died on March 3 1961": he died on that day in California.
            return [*words, "in", *self.antecedent]
        return None

    def _of_what_it_has(self) -> list[str] | None:
        # "Athens, whose mayor is Giorgos Kaminis": the mayor of Athens is Giorgos Kaminis.
        words = self.words
        verb = next((k for k, w in enumerate(words) if _is_verbish(w)), None)
        if verb is None or not 1 <= verb <= 3 or verb + 1 >= len(words):
            return None
        if any(en.is_capitalised(w) or not w.replace("-", "").isalpha() for w in words[:verb]):
            return None
        return ["the", *words[:verb], "of", *self.antecedent, *words[verb:]]


def _has_own_subject(words: list[str]) -> bool:
    """Whether a clause opens with a name or a personal pronoun and its verb ("Alan Shepard died …", "she met Sam")."""
    if not words:
        return False
    if words[0].lower() in SUBJECT_PRONOUNS and words[0].lower() not in {"it", "there"}:
        return len(words) > 1 and _is_verbish(words[1])
    return _name_then_verb(words, 0)


_POSSESSIVE_OPENERS = frozenset({"my", "our", "his", "her", "their"})


def _appositions(ws: list[str]) -> tuple[list[str], list[list[str]]]:
    """Read a name's appositions between commas: one that names it, one that describes it.

    "My wife, Clara, is a nurse" reads as "My wife Clara is a nurse" (Clara is the wife);
    "Samuel Adeyemi, a Nigerian-born architect, designed the library" reads without the
    description, which becomes a clause of its own ("Samuel Adeyemi is a Nigerian-born
    architect"). A description at the end of the sentence ("Thornby, a small village near
    York") is read only as that clause.
    """
    described: list[list[str]] = []
    k = 1
    while k < len(ws) - 1:
        if ws[k] != ",":
            k += 1
            continue
        name = _leading_name(ws[k + 1 :])
        after = k + 1 + len(name)
        if name and _names_a_relative(ws[:k]) and (after == len(ws) or ws[after] in {",", "who", "which"}):
            role = _without_role_modifier(ws[:k])  # "my best friend from school, Dalia": my best friend Dalia
            ws = [*role, *ws[k + 1 : after], *ws[after + 1 :]] if _lw(ws, after) == "," else [*role, *ws[k + 1 :]]
            continue
        aside_of = _trailing_name(ws[:k]) if _lw(ws, k + 1) in en.PREPOSITIONS else []
        close = next((j for j in range(k + 2, len(ws)) if ws[j] == ","), len(ws))
        if (
            aside_of
            and k + 2 < close < len(ws)
            and not any(_is_verbish(w) for w in ws[k + 2 : close])
            and _resumes_main_clause(ws, close + 1)
        ):
            # "Tom, in the end, moved to Leeds": the aside is dropped, the name keeps its verb;
            # "Al Asad Airbase, in Iraq, has a runway …", "Ajoblanco, from Spain, has bread …":
            # where the name is (from) is said of it too.
            named = ws[k + 3] if _lw(ws, k + 2) == "the" and k + 3 < close else ws[k + 2]
            if _lw(ws, k + 1) in {"in", "from"} and en.is_capitalised(named):
                described.append([*aside_of, "is", *ws[k + 1 : close]])
            ws = [*ws[:k], *ws[close + 1 :]]
            continue
        # "Dunmore, the largest city in Norland, lies on …" as "Samuel Adeyemi, a … architect, designed …"
        described_name = _trailing_name(ws[:k]) if _lw(ws, k + 1) in {"a", "an", "the"} else []
        if described_name:
            close = next((j for j in range(k + 2, len(ws)) if ws[j] == ","), len(ws))
            definite = _lw(ws, k + 1) == "the"
            if (
                definite
                and (
                    close == len(ws)  # "…, the Orla Arena was completed": the sentence's own subject
                    or not ws[k + 2 : close]
                    or not (ws[k + 2].islower() or ws[k + 2].lower() in _types.PERSON_ROLES)  # "the CEO of …"
                    or any(_is_verbish(w) or w.lower() in en.CLAUSE_WORDS for w in ws[k + 2 : close])
                )
            ):
                k += 1
                continue
            if close == len(ws) or _resumes_main_clause(ws, close + 1):
                described.append([*described_name, "is", *ws[k + 1 : close]])
                ws = [*ws[:k], *ws[close + 1 :]]
                continue
        k += 1
    return ws, described


def _without_role_modifier(words: list[str]) -> list[str]:
    """A possessive role without the phrase after it ("my friend from college" -> "my friend")."""
    for at in range(2, len(words)):
        if words[at].lower() in en.PREPOSITIONS and words[at - 1].lower() in _types.PERSON_ROLES:
            return words[:at]
    return words


def _names_a_relative(words: list[str]) -> bool:
    """Whether the words are a possessive and a common noun or two ("my wife", "our best friend from college").

    The possessive may be a name's ("Ida Marsh's first film, Harbor Lights, won …").
    """
    owner_end = next((k for k, w in enumerate(words[:4]) if en.possessive_owner(w)), None)
    if owner_end is not None and all(en.is_capitalised(w) for w in words[: owner_end + 1]):
        rest = words[owner_end + 1 :]
        return 0 < len(rest) <= 3 and all(w.isalpha() and w.islower() for w in rest)
    if not words or words[0].lower() not in _POSSESSIVE_OPENERS or len(words) > 6:
        return False
    rest = _without_role_modifier(words)[1:]  # "my cousin from Leeds": the place modifies the role
    return bool(rest) and not any(en.is_capitalised(word) or word == "," for word in rest)


_NOUN_PHRASE_ENDS = frozenset({"who", "which", "that", "where", "whose", "and", "or", "but"})


def _reduced_relative_of_subject(ws: list[str]) -> tuple[list[str], list[list[str]]]:
    """Take "based in Edinburgh" out of "Greenleaf Books is an independent publisher based in Edinburgh".

    After a copula the participle phrase describes the subject itself (the publisher is
    Greenleaf Books): it becomes a clause of the subject, and the object ends before it.
    """
    name = _leading_name(ws)
    be = len(name)
    if not name or _lw(ws, be) not in en.BE_FORMS or _lw(ws, be + 1) not in {"a", "an", "the"}:
        return ws, []
    for k in range(be + 2, len(ws) - 1):
        if ws[k] in {",", ";"} or ws[k].lower() in _NOUN_PHRASE_ENDS:
            break
        if _is_participle(ws[k], fronted=False) and _lw(ws, k + 1) in en.PREPOSITIONS and not en.is_capitalised(ws[k]):
            end = next((j for j in range(k + 2, len(ws)) if ws[j] in {",", ";"}), len(ws))
            return [*ws[:k], *ws[end:]], [[*name, ws[be], *ws[k:end]]]
    return ws, []


def _participial_clauses(ws: list[str]) -> tuple[list[str], list[list[str]]]:
    """Take out participle phrases said of a name, each as a clause of that name.

    "Born in Burbank, California, Eric Flint wrote 1634" and "Elliot See, born in Dallas,
    has died" say where someone was born; the phrase becomes "Eric Flint was born in
    Burbank, California", and the rest of the sentence is read without it.
    """
    if _is_participle(ws[0] if ws else "", fronted=True) and (_lw(ws, 1) in en.PREPOSITIONS or _lw(ws, 0) == "born"):
        # "Born in …", "Founded in 1998, …", "Operated by …"; not "Given the rain, …"
        # The name may follow "the": "Located in Dublin, the 3Arena was completed in 1987".
        def named_at(k: int) -> int:
            # "the 3Arena", "the painter Ida Marsh": a determiner and a lower-case kind before the name
            if _lw(ws, k + 1) != "the":
                return k + 1
            at = k + 2
            while at < min(len(ws), k + 5) and ws[at].isalpha() and ws[at].islower():
                at += 1
            return at if _name_then_verb(ws, at) else k + 1

        comma = next((k for k in range(len(ws) - 1, 0, -1) if ws[k] == "," and _name_then_verb(ws, named_at(k))), None)
        if comma is not None:
            name = _leading_name(ws[named_at(comma) :])
            return ws[comma + 1 :], [[*name, "was", ws[0].lower(), *ws[1:comma]]]
    for k in range(1, len(ws) - 2):
        # "Buzz Aldrin, also called Edwin E. Aldrin Jr., graduated …": an adverb may lead the participle.
        participle = k + 2 if _is_adverb(ws[k + 1]) and not en.is_capitalised(ws[k + 1]) else k + 1
        if ws[k] == "," and _is_participle(_lw(ws, participle) or "", fronted=False):
            close = next((j for j in range(participle + 1, len(ws)) if ws[j] == ","), None)
            name = _strip_determiners(_trailing_name(ws[:k], _NAME_JOINERS))  # "The Chapel of Kell, built in …"
            if close is not None and name and _resumes_main_clause(ws, close + 1):
                return [*ws[:k], *ws[close + 1 :]], [[*name, "was", *ws[k + 1 : close]]]
    return ws, []


def _without_fronted_phrase(ws: list[str]) -> list[str]:
    """The sentence without a verbless phrase fronted before its subject, else as it is.

    "From Spain, Ajoblanco has bread as an ingredient", "A popular food in Indonesia, Beef
    kway teow originates from Singapore", "Containing raisins, Bionico is found in Jalisco":
    the phrase describes the subject; the clause after the comma is what the sentence states.
    Not a name ("Anna, my sister, lives in Rome"), a pronoun or a time ("In 2019, ...").
    """
    comma = next((k for k, w in enumerate(ws[:10]) if w == ","), None)
    if comma is None or _time_at(ws, 0) >= comma:
        return ws
    front, rest = ws[:comma], ws[comma + 1 :]
    first = front[0].lower()
    readings = en.word_classes(first)
    opens_a_phrase = (
        first in en.PREPOSITIONS
        or first in en.DETERMINERS
        or en.is_gerund(first)
        or _is_participle(front[0], fronted=True)  # "Given the rain, …" (one said of a name is read before)
        or (len(front) == 1 and "ADV" in readings)
        # "Part of Columbian cuisine": a noun and what it is part of; one word ("Tom,") may be a name
        or ("NOUN" in readings and any(w.lower() in en.PREPOSITIONS for w in front[1:]))
    )
    if not opens_a_phrase or first in en.PRONOUNS or any(_is_verbish(w) for w in front[1:]):
        return ws
    if not rest or not en.is_capitalised(rest[0]) or rest[0].lower() in en.PRONOUNS:
        return ws
    return rest if _looks_like_clause(rest, 0) else ws


def _is_participle(word: str, *, fronted: bool) -> bool:
    """Whether a word opens a participle phrase: "born", or a past participle of a known verb."""
    if fronted and not en.is_capitalised(word):
        return False
    w = word.lower()
    if w in en.BE_FORMS or w in en.HAVE_FORMS:
        return False
    # "Founded in 1998, …", "Written in 1954 by …": a regular or irregular past participle.
    return w == "born" or (w.endswith("ed") and (en.is_verb(w) or en.is_inflected_verb(w))) or en.is_participle(w)


def _name_then_verb(ws: list[str], i: int) -> bool:
    """Whether a capitalised name starts at ``i`` and a verb follows it."""
    name = _leading_name(ws[i:])
    return bool(name) and _is_verbish(_lw(ws, i + len(name)) or "")


def _leading_name(words: list[str]) -> list[str]:
    end = 0
    while end < len(words) and en.is_capitalised(words[end]):
        end += 1
    return words[:end]


def _trailing_name(words: list[str], joiners: frozenset[str] = frozenset()) -> list[str]:
    """The run of capitalised words that ends ``words`` (with ``joiners`` inside it: "College of William and Mary")."""
    start = len(words)
    while start > 0 and (en.is_capitalised(words[start - 1]) or words[start - 1] in joiners):
        start -= 1
    while start < len(words) and not en.is_capitalised(words[start]):
        start += 1
    return words[start:]


_NAME_JOINERS = frozenset({"of", "&", "and"})


def _relative_antecedent(before: list[str], ws: list[str], i: int) -> list[str] | None:
    """The name a relative clause at ``i`` says something of, else None.

    which/who must be followed by the clause's verb (a subject relative), where by a clause.
    """
    kind = ws[i].lower()
    if kind in {"which", "who"}:
        if not _is_verbish(_lw(ws, i + 1) or ""):
            return None
    elif kind == "whose":
        if i + 1 >= len(ws) or en.is_capitalised(ws[i + 1]):
            return None
    elif kind != "where":
        return None
    words = before[:-1] if before and before[-1] == "," else before
    return _trailing_name(words, _NAME_JOINERS) or None


def _resumes_main_clause(ws: list[str], i: int) -> bool:
    """Whether the words after a relative clause's comma are the main clause's verb phrase."""
    j = i
    while j < len(ws) and _is_adverb(ws[j]):
        j += 1
    # A verb the list lacks ("debuted", "overlooks") still resumes it: lemminflect knows the verb.
    return j < len(ws) and (_is_verbish(ws[j]) or (ws[j].islower() and _verb_by_lexicon(ws[j])))


def _verb_by_lexicon(word: str) -> bool:
    """Whether lemminflect reads a word as a past tense or a third-person verb form ("debuted", "overlooks")."""
    bases = en.word_classes(word).get("VERB", ())
    if word.endswith("ed"):
        return en.is_inflected_verb(word)
    return word.endswith("s") and any(base in {word[:-1], word[:-2]} for base in bases)


# "switched from Slack (to Discord)": Slack is no longer used; "moved from Boston": no longer lived in.
_LEFT_BEHIND = mapping("en", "left_behind")


def _is_schedule(phrase: str) -> bool:
    """Whether a time phrase says when something recurs (every Saturday morning, at 7 am), not since when."""
    ws = phrase.split(" ")
    if len(ws) == 1 and _is_bare_day_parts(ws[0].lower()):
        return True  # "works evenings"
    return _frequency_at(ws, 0) > 0 or _clock_at(ws, 0) > 0 or bool(re.match(r"on \w+days\b", phrase.lower()))


def _leaving_says_no_longer(draft: Draft) -> None:
    """Turn "switched from X" into "does not use X", so the change retires the old fact."""
    verb, _, preposition = draft.predicate.partition(" ")
    meaning = _LEFT_BEHIND.get(f"{en.lemma(verb)} {preposition}".strip())
    if meaning and not draft.negated:
        draft.predicate, draft.negated = meaning, True
    elif not preposition and not draft.negated and _is_employer(draft):
        # "I left Deloitte and joined KPMG": a change of employer, which retires works_at Deloitte.
        if en.lemma(verb) == "leave":
            draft.predicate, draft.negated, draft.object_type = "work at", True, _types.ORGANIZATION
        elif en.lemma(verb) == "join":
            draft.predicate, draft.object_type = "works at", _types.ORGANIZATION


def relatives_named_in(sentence: str, ctx: TextContext) -> list[Draft]:
    """The relatives a sentence that states nothing else names ("any ideas for Dalia and her fiancé Omar?")."""
    return _named_relatives(en.words(en.expand_contractions(sentence.strip())), [], ctx)


def _named_relatives(ws: list[str], drafts: list[Draft], ctx: TextContext) -> list[Draft]:
    """Relatives named in passing, whatever the sentence says of them: "a gift for Dalia and her fiancé Omar".

    An owner (my; a name's 's; his/her after one person's name in the sentence), a person role
    and a capitalised name: the name is the owner's relative. Links the clauses read already
    are not said twice.
    """
    said = {(d.subject, d.predicate, d.object) for top in drafts for d in (top, *top.extras)}
    found: list[Draft] = []
    for i, word in enumerate(ws[:-2]):
        lw = word.lower()
        role = ws[i + 1].lower()
        if role not in _types.PERSON_ROLES or not en.is_capitalised(ws[i + 2]) or ws[i + 2] == "I":
            continue
        if lw == "my" and ctx.speaker_given:
            owner = ctx.me
        elif lw in {"his", "her"}:
            people = {
                w
                for at, w in enumerate(ws[:i])
                if w.isalpha()
                and en.is_capitalised(w)
                and w != "I"
                and w.lower() not in en.STOPWORDS
                and (at > 0 or _types.guess_type(w) == _types.PERSON)
                and _types.guess_type(w) in {_types.PERSON, _types.CONCEPT}
            }
            if len(people) != 1:
                continue  # no one, or more than one, the pronoun may mean
            owner = people.pop()
        elif (name := en.possessive_owner(word)) and en.is_capitalised(word):
            title = ws[i - 1] if i > 0 and ws[i - 1].rstrip(".").lower() in {"mr", "mrs", "ms", "dr", "miss"} else ""
            owner = f"{title} {name}".strip()
        else:
            continue
        name_words = _leading_name(ws[i + 2 :])
        if not name_words or name_words[0].lower() in _types.PERSON_ROLES:
            continue
        named = " ".join(name_words)
        named = en.possessive_owner(named) or named  # "my daughter Sara's birthday": Sara
        if any(named in (subject, obj) and predicate == role for subject, predicate, obj in said):
            continue
        found.append(
            Draft(
                owner,
                role,
                named,
                confidence=CLEAR,
                subject_type=_types.PERSON,
                object_type=_types.PERSON,
            )
        )
    return found


_NEGATED_IDIOMS = mapping("en", "negated_idioms")


_MOVED = re.compile(r"\b(?:moved|relocated|moving (?:in|out)|moved in)\b", re.IGNORECASE)


def _where_moved(drafts: list[Draft], ctx: TextContext) -> None:
    """In a turn that says the speaker moved, "we're in Porto now" says where the speaker lives."""
    if not ctx.speaker_given or not _MOVED.search(ctx.text):
        return
    for draft in drafts:
        if (
            (draft.subject == ctx.me or draft.subject.casefold() == "we")
            and not draft.negated
            and en.lemma(draft.predicate.split(" ")[0]) == "be"
            and draft.predicate.endswith(" in")
            and en.is_capitalised(draft.object)
            and _types.guess_type(draft.object) in {_types.PLACE, _types.CONCEPT}
        ):
            draft.predicate, draft.object_type = "lives in", _types.PLACE


def _is_employer(draft: Draft) -> bool:
    """A company, by type or by a capitalised name no gazetteer types otherwise (Deloitte, KPMG)."""
    if draft.object_type == _types.ORGANIZATION or _types.guess_type(draft.object) == _types.ORGANIZATION:
        return True
    return en.is_capitalised(draft.object) and _types.guess_type(draft.object) == _types.CONCEPT


def _leaving_for(drafts: list[Draft]) -> None:
    """Read "left X for Y" as a move or a change of employer when X is a place or a company.

    "I left Boston for Denver" -> (live in, Boston, negated) and (moved to, Denver);
    "Bob left Google for Meta" -> (work at, Google, negated) and (works at, Meta).
    """
    for new in drafts:
        verb, _, preposition = new.predicate.partition(" ")
        if en.lemma(verb) != "leave" or preposition != "for" or new.negated:
            continue
        for old in drafts:
            if old.subject != new.subject or old.predicate != verb or old.negated:
                continue
            kind = old.object_type or _types.guess_type(old.object)
            if kind == _types.PLACE:
                old.predicate, old.negated = "live in", True
                new.predicate = "moved to"
                if new.object_type in {None, _types.CONCEPT, _types.ORGANIZATION}:
                    new.object_type = _types.PLACE
            elif kind == _types.ORGANIZATION and _types.guess_type(new.object, None, "work at") == _types.ORGANIZATION:
                old.predicate, old.negated = "work at", True
                new.predicate, new.object_type = "works at", _types.ORGANIZATION


def _placeholder_lead() -> str:
    nouns = "|".join(sorted(PLACEHOLDER_NOUNS, key=len, reverse=True))
    return (
        rf"^\s*(?:(?:my|our|the)\s+)?(?:(?:{nouns})\s+(?:(?:i|we)\s+(?:need|have|want)\s+)?to\s+(?P<verb>[a-z]+)"
        r"|(?P<gerund>[a-z]+ing)\s+list)(?P<rest>[^:]*):"
    )


_PLACEHOLDER_LEAD = re.compile(_placeholder_lead(), re.IGNORECASE)
_PLACEHOLDER_LIST = re.compile(_placeholder_lead() + r"\s*(?P<items>[^:]+)$", re.IGNORECASE)


def opens_a_list(lead: str) -> bool:
    """Whether a text up to a colon stands in for the list after it ("things to pack for camping:")."""
    match = _PLACEHOLDER_LEAD.match(lead)
    if match is not None and "VERB" in en.word_classes(_listing_verb(match)):
        return True
    # "allergies for the form:": a fragment statement reads what follows the colon.
    return lead.rstrip().endswith(":") and _said_in_full(f"{lead} item") != f"{lead} item"


def _listing_verb(match: re.Match[str]) -> str:
    """The verb a list's lead-in stands for: "things to pack" and "packing list" both pack."""
    if match.group("verb"):
        return match.group("verb").lower()
    gerund = match.group("gerund").lower()
    return next(iter(en.word_classes(gerund).get("VERB", ())), en.lemma(gerund))


def _listed_in_place(text: str) -> str:
    """Say a placeholder's list as the speaker's: "things to pack: tent, headlamp" -> "I pack tent, headlamp"."""
    match = _PLACEHOLDER_LIST.match(text)
    if match is None or not opens_a_list(text[: match.end("rest") + 1]):
        return text
    # What the list is for ("for camping") stays in the episode; the facts are the items.
    return f"I {_listing_verb(match)} {match.group('items').strip()}"


@functools.cache
def _fragments() -> tuple[tuple[re.Pattern[str], str], ...]:
    table = mapping("en", "fragment_statements")
    return tuple((re.compile(pattern), statement) for pattern, statement in table.items())


def _said_in_full(text: str) -> str:
    """A verbless fragment as the statement it stands for: "first day at Acme tomorrow" -> "I start at Acme"."""
    for pattern, statement in _fragments():
        match = pattern.search(text)
        if match is not None:
            return statement.replace("{x}", match.group("x"))
    return text


def _speaker_or_nobody(state: State, ctx: TextContext) -> bool:
    """Whether the clauses so far had no subject or the speaker alone."""
    return all(subject.name == ctx.me for subject in state.subjects)


def _takes_a_plural_verb(clause: list[str]) -> bool:
    """Whether a clause's subject — a name, or "my"/"our" and a plural noun — takes a plural verb.

    "Kell Harriers play in Tarsk", "my parents live in Leeds": the subject is a group, which a
    following "they"/"their" stands for. "I", "we" and "you" take the same forms and are no group.
    """
    if not clause or clause[0].lower() in SUBJECT_PRONOUNS:
        return False
    end = _subject_end(clause, 0)
    subject, verb = clause[:end], _lw(clause, end)
    if not subject or "and" in [w.lower() for w in subject] or not verb:
        return False
    named = all(en.is_capitalised(w) for w in subject)
    possessed = subject[0].lower() in {"my", "our"} and en.singular(subject[-1].lower()) != subject[-1].lower()
    base_form = en.is_verb(verb) and en.lemma(verb) == verb and verb not in en.MODALS
    plural_verb = verb in {"are", "were", "have"} or base_form
    return (named or possessed) and plural_verb


def _remember_places(drafts: list[Draft], ctx: TextContext) -> None:
    """Note the names these drafts read as places: objects of where-relations, owners of a capital or city."""
    for draft in (d for top in drafts for d in (top, *top.extras)):
        last = draft.predicate.lower().split(" ")[-1]
        # The subject first: in (Alba Iulia, located in, Romania) the later, wider place is Romania.
        if draft.subject_type == _types.PLACE or last in PLACE_CLASSES or last == "capital":
            ctx.places.append(draft.subject)
        if draft.object_type == _types.PLACE or last in _LOCATIVE_ENDS:
            ctx.places.append(draft.object)


def read_sentence(sentence: str, ctx: TextContext) -> list[Draft]:
    """Read the triples of one English sentence.

    Args:
        sentence: One sentence that passed the non-fact filters.
        ctx: Per-text state (speaker name, last person for he/she).

    Returns:
        Draft triples, link facts attached as extras.
    """
    text = en.expand_contractions(sentence.strip()).strip(" .!?;:…\"'“”")
    if text.lower().startswith(REQUEST_STARTS):
        # "need a gift for Dalia and her fiancé Omar": asks for something, names who is whose.
        return _named_relatives(en.words(text), [], ctx)
    if ctx.speaker_given:
        text = _said_in_full(_listed_in_place(text))
    words = en.words(text)
    if ctx.speaker_given and _says_without_subject(words):
        # A chat line that leaves out "I" ("just bought a second-hand Corolla", "Went to the gym
        # today") is the speaker's own doing.
        words = ["I", *words]
    elif ctx.speaker_given and (left_out := _left_out_subject(words)):
        words = [*left_out, words[0].lower() if not en.is_capitalised(words[0].lower()) else words[0], *words[1:]]
    # Appositions and participle phrases said of a name come out of the sentence as clauses of their own.
    ws, described = _appositions(words)
    ws, participial = _participial_clauses(ws)
    ws = _without_fronted_phrase(ws)
    ws, reduced = _reduced_relative_of_subject(ws)
    for number, description in enumerate(described):
        # "Veltrix, a bakery chain based in Tarsk, has …": the description's participle phrase too.
        described[number], more = _reduced_relative_of_subject(description)
        reduced += more
    state = State(subjects=[])
    drafts: list[Draft] = []
    for number, clause in enumerate([*_clauses(ws), *participial, *described, *reduced]):
        if (
            number
            and ctx.speaker_given
            and _says_without_subject(clause)
            and (not drafts or _speaker_or_nobody(state, ctx))
        ):
            # "so that happened, moved to Fargo in May": the clause after the comma is the speaker's too.
            clause = ["I", *clause]
        read = _read_clause(clause, state, ctx)
        state.objects = [draft.object for draft in read]
        drafts += read
        if read and len(state.subjects) == 1 and _takes_a_plural_verb(clause):
            ctx.last_group = state.subjects[0].name  # "Kell Harriers play in Tarsk. They have …"
        # Named as soon as said: "my cousin Marguerite, everybody calls her Mags" (her is Marguerite).
        for draft in (d for top in read for d in (top, *top.extras)):
            for name in (draft.subject, draft.object):
                if en.is_capitalised(name) and "'s " not in name and name not in ctx.mentioned:
                    ctx.mentioned.append(name)
    _remember_places(drafts, ctx)
    _leaving_for(drafts)
    _where_moved(drafts, ctx)
    drafts += _named_relatives(words, drafts, ctx)
    for draft in (d for top in drafts for d in (top, *top.extras)):
        _leaving_says_no_longer(draft)
        if draft.negated and (idiom := _NEGATED_IDIOMS.get(draft.predicate.lower())):
            draft.predicate, draft.negated = idiom, False  # "can't stand cilantro": a dislike, stated
        if draft.valid_from and _is_schedule(draft.valid_from):
            draft.schedule, draft.valid_from = draft.valid_from, None
        if (
            predicate_key(draft.predicate) == "works_at"
            and draft.object_type in {None, _types.CONCEPT}
            and en.is_capitalised(draft.object)
        ):
            draft.object_type = _types.ORGANIZATION  # "works at Tiffany & Co": an employer, unless a person
        # A name he/she referred to is a person, though no gazetteer knows it.
        if draft.subject in state.persons and draft.subject_type in {None, _types.CONCEPT}:
            draft.subject_type = _types.PERSON
        if draft.object in state.persons and draft.object_type in {None, _types.CONCEPT}:
            draft.object_type = _types.PERSON
    return drafts
