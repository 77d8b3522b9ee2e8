"""English word lists and light morphology for the offline reader and question analyser.

There is no tagger for English in the offline build, so verbs are recognised from
a list of common base forms plus regular inflection (-s, -ed, -ing) and a table of
irregular forms. ``lemma`` maps an inflected verb to its base ("wrote" -> "write",
"using" -> "use"); the reader uses it to recognise verbs and to type entities, and
the question analyser adds it to the keywords. Stored predicates keep the verb as
written, so the reverse direction is here too: ``third_person`` ("use" -> "uses"),
``past_tense`` ("write" -> "wrote") and ``past_from_participle`` ("written" ->
"wrote") rebuild a simple tense when the sentence used an auxiliary construction
("is using", "has written", "was written by").
"""

from __future__ import annotations

import functools
import re

from elephant_broker.language.lexicon import mapping
from elephant_broker.language.lexicon import words as lexicon_words
from elephant_broker.language.script import LATIN_LETTERS

# The word lists live in language/data/en.toml (``language.lexicon``): each table's doc says
# what its words are for, and its examples run as tests.
VERB_BASES: frozenset[str] = lexicon_words("en", "verb_bases")


IRREGULAR: dict[str, str] = mapping("en", "irregular_forms")
# Simple past of the irregular base verbs (the regular ones take -ed).
IRREGULAR_PAST: dict[str, str] = mapping("en", "irregular_past")
# Final consonants doubled before -ed ("stop" -> "stopped", "prefer" -> "preferred").
DOUBLE_FINAL: frozenset[str] = lexicon_words("en", "doubled_finals")
BE_FORMS: frozenset[str] = lexicon_words("en", "be_forms")
DO_FORMS: frozenset[str] = lexicon_words("en", "do_forms")
HAVE_FORMS: frozenset[str] = lexicon_words("en", "have_forms")
MODALS: frozenset[str] = lexicon_words("en", "modals")
NEGATIONS: frozenset[str] = lexicon_words("en", "negations")
PRONOUNS: frozenset[str] = lexicon_words("en", "pronouns")
FIRST_PERSON: frozenset[str] = lexicon_words("en", "first_person")
POSSESSIVES: frozenset[str] = lexicon_words("en", "possessives")
DETERMINERS: frozenset[str] = lexicon_words("en", "determiners")
ADVERBS: frozenset[str] = lexicon_words("en", "adverbs")
HEDGES: frozenset[str] = lexicon_words("en", "hedges")
PREPOSITIONS: frozenset[str] = lexicon_words("en", "prepositions")
# Prepositions that may be attached to a verb as part of the relation ("work at").
PARTICLES: frozenset[str] = lexicon_words("en", "verb_particles")
CLAUSE_WORDS: frozenset[str] = lexicon_words("en", "clause_connectives")
STOPWORDS: frozenset[str] = lexicon_words("en", "stopwords")

CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), repl)
    for pattern, repl in (
        (r"\bcan[’']t\b", "can not"),
        (r"\bwon[’']t\b", "will not"),
        (r"\bain[’']t\b", "is not"),
        (r"\b(\w+)n[’']t\b", r"\1 not"),
        (r"\b(I)[’']m\b", r"\1 am"),
        (r"\b(\w+)[’']re\b", r"\1 are"),
        (r"\b(\w+)[’']ve\b", r"\1 have"),
        (r"\b(\w+)[’']ll\b", r"\1 will"),
        (r"\b(I|you|he|she|we|they)[’']d\b", r"\1 would"),
        (r"\b(he|she|it|that|there|what|who|where)[’']s\b", r"\1 is"),
        # "her name's Ines": a name has no possessions worth saying.
        (r"\b((?:nick)?name)[’']s\b", r"\1 is"),
        # After a noun, 's before a participle of have, or before an adverb, a preposition or
        # an article, is the verb ("my cousin's really into fencing", "Ben's aunt's been
        # teaching me"); before a noun it stays the possessive ("Ada's wedding party").
        (r"\b([a-z]+)[’']s (?=(?:been|got)\b)", r"\1 has "),
        (
            r"\b([a-z]+)[’']s (?=(?:really|so|very|super|totally|pretty|always|never|still|now|also|just|not"
            r"|into|in|at|from|on|a|an|the|being|going|getting|doing)\b)",
            r"\1 is ",
        ),
        # ... and before a verb in -ing that takes a number, a preposition or an object ("my grandma's
        # turning 90", "Bo's moving to Oslo"); "Ada's wedding party" is still hers.
        (
            r"\b([a-z]+)[’']s (?=[a-z]+ing (?:\d|(?:to|for|in|at|on|from|with|back|up|out|over|away|a|an|the"
            r"|my|his|her|our|their|me|him|us|them|this|next|tomorrow|tonight)\b))",
            r"\1 is ",
        ),
    )
)

WORD_RE = re.compile(
    r"[A-Z][A-Za-z]*&[A-Z][A-Za-z]*(?:['’]s?)?"  # AT&T, R&D, H&M: one name
    r"|(?:[A-Z]\.){2,}(?=\s|$)"  # A.S., U.S., J.R.R.: an initialism keeps its closing dot
    r"|[A-Z][a-z]{0,2}\.(?=\s+[A-Z])"  # Steven T. Seagle, St. Mary's, Dr. Lee: an initial or title keeps its dot
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"  # 16,000 / 1,533.5: one number
    rf"|[{LATIN_LETTERS}0-9][{LATIN_LETTERS}0-9+#]*(?:[.\-'’][{LATIN_LETTERS}0-9+#]+)*\+*(?:['’]s?)?|[,;:&]"
)
_VOWELS = set("aeiou")


def expand_contractions(text: str) -> str:
    """Expand contractions ("doesn't" -> "does not", "I'm" -> "I am")."""
    for pattern, repl in CONTRACTIONS:
        text = pattern.sub(repl, text)
    return text


def words(text: str) -> list[str]:
    """Split English text into words and the separators , ; : &.

    Possessive ``'s`` stays on its word ("Alice's"); dotted names stay whole
    ("Node.js", "U.S"), and so do names glued by an ampersand ("AT&T"); a trailing
    sentence dot is dropped.
    """
    return [w.replace("’", "'") for w in WORD_RE.findall(text)]


def possessive_owner(word: str) -> str | None:
    """Return the owner of a possessive word ("Alice's" -> "Alice"), else None."""
    if word.endswith("'s") and len(word) > 2:
        return word[:-2]
    if word.endswith("s'") and len(word) > 2:
        return word[:-1]
    return None


def lemma(word: str) -> str:
    """Return the base form of a verb, or the lower-cased word when unsure.

    Args:
        word: A verb form such as "wrote", "uses", "moved", "studying".

    Returns:
        The base form ("write", "use", "move", "study"). Words that are not
        recognisably inflected verbs are returned lower-cased unchanged.
    """
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if w in VERB_BASES:
        return w
    prefixed = _verb_prefix(w)
    if prefixed:
        return f"{prefixed[0]}-{lemma(prefixed[1])}"  # "co-wrote" -> "co-write"
    candidates: list[str] = []
    if w.endswith("ies"):
        candidates.append(w[:-3] + "y")
    if w.endswith("es"):
        candidates += [w[:-1], w[:-2]]
    if w.endswith("s") and not w.endswith("ss"):
        candidates.append(w[:-1])
    if w.endswith("ied"):
        candidates.append(w[:-3] + "y")
    if w.endswith("ed"):
        candidates += [w[:-1], w[:-2]]
        if len(w) > 4 and w[-3] == w[-4]:
            candidates.append(w[:-3])
    if w.endswith("ing") and len(w) > 4:
        stem = w[:-3]
        candidates += [stem, stem + "e"]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            candidates.append(stem[:-1])
    for candidate in candidates:
        if candidate in VERB_BASES and not (w.endswith("ed") and len(candidate) < 3):  # "bed" is no past of "be"
            return candidate
    return w


@functools.lru_cache(maxsize=16384)
def word_classes(word: str) -> dict[str, tuple[str, ...]]:
    """Return ``lemminflect``'s readings of a lower-case word: universal POS tag -> lemmas (empty when unknown).

    "tired" -> {ADJ: (tired,), VERB: (tire,)}; an unknown word (most names) -> {}. The
    word list loads on the first call; most commands never read English.
    """
    import lemminflect

    return dict(lemminflect.getAllLemmas(word))


def singular(noun: str) -> str:
    """Return the singular of a lower-case noun by the English word list ("ingredients" -> "ingredient")."""
    readings = word_classes(noun.lower()).get("NOUN", ())
    return readings[0] if readings else noun


def is_inflected_verb(word: str) -> bool:
    """Return True for a past, participle or -ing form by the English word list ("faced", "focusing").

    ``lemma`` knows the verbs of ``VERB_BASES``; this asks ``lemminflect``'s lexicon, so a
    verb outside that list is not inflected a second time ("faceds").
    """
    w = word.lower()
    return any(base != w for base in word_classes(w).get("VERB", ())) and not w.endswith("s")


def is_verb(word: str) -> bool:
    """Return True when ``word`` is a known verb in some inflected form ("co-wrote" as "wrote")."""
    w = word.lower()
    if w in IRREGULAR or w in VERB_BASES:
        return True
    prefixed = _verb_prefix(w)
    if prefixed:
        return is_verb(prefixed[1])
    return lemma(w) in VERB_BASES and lemma(w) != w


_VERB_PREFIXES = frozenset({"co", "re", "pre", "over", "under", "out", "mis", "cross"})


def _verb_prefix(word: str) -> tuple[str, str] | None:
    """Split a verb written with a hyphenated prefix ("co-wrote", "re-opened"), else None."""
    prefix, hyphen, stem = word.partition("-")
    if not hyphen or prefix not in _VERB_PREFIXES or not stem.isalpha():
        return None
    stem_base = IRREGULAR.get(stem, stem)
    return (prefix, stem) if stem_base in VERB_BASES or lemma(stem) in VERB_BASES else None


def is_gerund(word: str) -> bool:
    """Return True for the -ing form of a known verb ("eating", "using")."""
    w = word.lower()
    return w.endswith("ing") and is_verb(w) and lemma(w) != w


def is_gerund_phrase(text: str) -> bool:
    """Return True for a phrase led by a gerund with more words after it ("buying a Rivian", "painting watercolors")."""
    words = text.split()
    return len(words) > 1 and is_gerund(words[0])


def is_participle(word: str) -> bool:
    """Return True for a past participle of a known verb ("written", "founded")."""
    w = word.lower()
    if w in IRREGULAR and IRREGULAR[w] != w and not w.endswith("s"):
        return not w.endswith("ing")
    return w.endswith(("ed", "en")) and is_verb(w)


def is_base_verb(word: str) -> bool:
    """Return True when ``word`` is itself a base verb form ("cook", "build")."""
    return word.lower() in VERB_BASES


def is_capitalised(word: str) -> bool:
    """Return True for a word starting with an upper-case letter."""
    return word[:1].isupper()


def third_person(base: str) -> str:
    """Return the third-person singular present of a base verb ("use" -> "uses").

    Args:
        base: A base verb form such as "use", "study", "teach", "go".

    Returns:
        The -s form ("uses", "studies", "teaches", "goes"; "is", "has", "does").
    """
    w = base.lower()
    special = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if w in special:
        return special[w]
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ies"
    if w.endswith(("s", "sh", "ch", "x", "z", "o")):
        return w + "es"
    return w + "s"


def past_tense(base: str) -> str:
    """Return the simple past of a base verb ("write" -> "wrote", "use" -> "used").

    Args:
        base: A base verb form.

    Returns:
        The irregular past when known, else the regular -ed form ("studied",
        "stopped", "moved", "worked").
    """
    w = base.lower()
    if w in IRREGULAR_PAST:
        return IRREGULAR_PAST[w]
    if w.endswith("e"):
        return w + "d"
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ied"
    if w in DOUBLE_FINAL:
        return w + w[-1] + "ed"
    return w + "ed"


_DOUBLE_BEFORE_ING = lexicon_words("en", "doubled_before_ing")


def gerund(base: str) -> str:
    """Return the -ing form of a base verb ("swim" -> "swimming", "hike" -> "hiking").

    Args:
        base: A base verb form.

    Returns:
        The present participle, lower-cased.
    """
    w = base.lower()
    if w.endswith("ie"):
        return w[:-2] + "ying"
    if w.endswith("e") and not w.endswith(("ee", "ye", "oe")) and len(w) > 2:
        return w[:-1] + "ing"
    if w in DOUBLE_FINAL or w in _DOUBLE_BEFORE_ING:
        return w + w[-1] + "ing"
    return w + "ing"


def past_from_participle(word: str) -> str:
    """Return the simple past that goes with a past participle ("written" -> "wrote").

    Regular participles are their own past ("founded", "used"); irregular ones are
    mapped through their base ("eaten" -> "ate", "been" -> "was", "found" -> "found").

    Args:
        word: A past participle as written.

    Returns:
        The simple past form, lower-cased.
    """
    w = word.lower()
    if w.endswith("ed"):
        return w
    base = lemma(w)
    return past_tense(base) if base in IRREGULAR_PAST else w
