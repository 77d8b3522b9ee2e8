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

VERB_BASES: frozenset[str] = frozenset(
    """
    accept achieve add admire adopt advise afford agree aim allow analyse analyze answer
    appear apply appreciate argue arrange arrive ask attend avoid bake be bear beat become
    begin believe belong borrow break bring build buy call care carry catch cause celebrate
    change chat check choose clean climb close code collect come compete complete contain
    continue control cook cost count cover create cross cry cut dance date deal decide
    define delete deliver depend deploy describe design destroy develop die direct discover
    discuss dislike do download draw dream dress drink drive drop earn eat edit employ
    enjoy enter establish explain explore fail fall feed feel fight fill find finish fit
    fix fly follow forget forgive found fund gain get give go graduate grow guess hang
    happen hate have head hear help hide hire hit hold hope host hunt hurt identify ignore
    improve include increase install introduce invent invest invite join jump keep kill
    know lack land last laugh launch lead learn leave lend let lie like listen live lose
    love maintain make manage marry matter mean measure meet mention migrate mind miss
    move need note notice obtain offer open order organise organize own paint participate
    pay perform pick plan plant play prefer prepare present prevent print produce program
    promise protect prove provide publish pull purchase push put quit raise reach read
    realise realize receive recommend record reduce refuse relax release rely remember
    remove rent repair repeat replace reply report represent require research rest retire
    return ride ring rise run run save say see seem sell send serve set settle share shop
    show sign sing sit skate ski sleep smoke solve speak spend stand start stay steal stop
    store study submit succeed suffer suggest supervise support swim switch take talk
    teach tell tend test thank think throw train translate travel treat try turn type
    understand upgrade use visit vote wait wake walk want wash watch wear win wish work
    worry write jog hike cycle bike meditate exercise surf knit sew dive divorce engage
    """.split()
)

# fmt: off
IRREGULAR: dict[str, str] = {
    "am": "be", "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be", "has": "have",
    "had": "have", "having": "have", "does": "do", "did": "do", "done": "do", "went": "go", "gone": "go",
    "goes": "go", "wrote": "write", "written": "write", "ate": "eat", "eaten": "eat", "drank": "drink",
    "drunk": "drink", "spoke": "speak", "spoken": "speak", "knew": "know", "known": "know", "took": "take",
    "taken": "take", "made": "make", "gave": "give", "given": "give", "got": "get", "gotten": "get",
    "bought": "buy", "built": "build", "taught": "teach", "thought": "think", "brought": "bring",
    "found": "find", "left": "leave", "met": "meet", "ran": "run", "saw": "see", "seen": "see", "sold": "sell",
    "told": "tell", "grew": "grow", "grown": "grow", "became": "become", "began": "begin", "begun": "begin",
    "chose": "choose", "chosen": "choose", "drove": "drive", "driven": "drive", "fell": "fall",
    "fallen": "fall", "felt": "feel", "flew": "fly", "flown": "fly", "forgot": "forget", "forgotten": "forget",
    "held": "hold", "kept": "keep", "led": "lead", "lost": "lose", "paid": "pay", "rode": "ride",
    "ridden": "ride", "sang": "sing", "sung": "sing", "sat": "sit", "slept": "sleep", "spent": "spend",
    "stood": "stand", "swam": "swim", "understood": "understand", "won": "win", "wore": "wear", "worn": "wear",
    "came": "come", "said": "say", "heard": "hear", "sent": "send", "lent": "lend", "meant": "mean",
    "rose": "rise", "risen": "rise", "stole": "steal", "stolen": "steal", "threw": "throw", "thrown": "throw",
    "woke": "wake", "woken": "wake", "hung": "hang", "hid": "hide", "hidden": "hide", "broke": "break",
    "broken": "break", "caught": "catch", "fought": "fight", "dreamt": "dream", "learnt": "learn",
    "founded": "found", "lives": "live", "studies": "study", "flies": "fly", "tries": "try", "dies": "die",
    "lying": "lie", "dying": "die", "ties": "tie",
}

# Simple past of the irregular base verbs (the regular ones take -ed).
IRREGULAR_PAST: dict[str, str] = {
    "be": "was", "have": "had", "do": "did", "go": "went", "write": "wrote", "eat": "ate", "drink": "drank",
    "speak": "spoke", "know": "knew", "take": "took", "make": "made", "give": "gave", "get": "got",
    "buy": "bought", "build": "built", "teach": "taught", "think": "thought", "bring": "brought",
    "find": "found", "leave": "left", "meet": "met", "run": "ran", "see": "saw", "sell": "sold", "tell": "told",
    "grow": "grew", "become": "became", "begin": "began", "choose": "chose", "drive": "drove", "fall": "fell",
    "feel": "felt", "fly": "flew", "forget": "forgot", "hold": "held", "keep": "kept", "lead": "led",
    "lose": "lost", "pay": "paid", "ride": "rode", "sing": "sang", "sit": "sat", "sleep": "slept",
    "spend": "spent", "stand": "stood", "swim": "swam", "understand": "understood", "win": "won", "wear": "wore",
    "come": "came", "say": "said", "hear": "heard", "send": "sent", "lend": "lent", "mean": "meant",
    "rise": "rose", "steal": "stole", "throw": "threw", "wake": "woke", "hang": "hung", "hide": "hid",
    "break": "broke", "catch": "caught", "fight": "fought", "dream": "dreamt",
    "bear": "bore", "beat": "beat", "cost": "cost", "cut": "cut", "hit": "hit", "hurt": "hurt", "let": "let",
    "put": "put", "quit": "quit", "read": "read", "set": "set", "shut": "shut", "deal": "dealt",
    "draw": "drew", "feed": "fed", "forgive": "forgave", "upset": "upset",
}
# Final consonants doubled before -ed ("stop" -> "stopped", "prefer" -> "preferred").
DOUBLE_FINAL: frozenset[str] = frozenset(
    {
        "admit", "beg", "chat", "clap", "commit", "control", "drop", "fit", "grab", "hug", "jog", "nod", "occur",
        "plan", "plug", "prefer", "refer", "rob", "rub", "ship", "shop", "skip", "slip", "step", "stop", "submit",
        "swap", "tap", "trip", "wrap",
    }
)

BE_FORMS: frozenset[str] = frozenset(
    {
        "am", "is", "are", "was", "were", "be", "been", "being",
    }
)
DO_FORMS: frozenset[str] = frozenset(
    {
        "do", "does", "did",
    }
)
HAVE_FORMS: frozenset[str] = frozenset(
    {
        "have", "has", "had",
    }
)
MODALS: frozenset[str] = frozenset(
    {
        "will", "would", "can", "could", "shall", "should", "may", "might", "must", "gonna",
    }
)
NEGATIONS: frozenset[str] = frozenset(
    {
        "not", "never", "n't", "no",
    }
)
PRONOUNS: frozenset[str] = frozenset(
    {
        "i", "you", "he", "she", "it", "we", "they", "this", "that", "there", "me", "him", "her", "us", "them",
        "someone", "everyone", "nobody", "somebody", "these", "those",
    }
)
FIRST_PERSON: frozenset[str] = frozenset(
    {
        "i", "me", "myself", "mine",
    }
)
POSSESSIVES: frozenset[str] = frozenset(
    {
        "my", "our", "your", "his", "her", "its", "their",
    }
)
DETERMINERS: frozenset[str] = frozenset(
    {
        "a", "an", "the", "some", "any", "this", "that", "these", "those", "every", "each", "another",
        "several", "many", "few", "all", "both", "lots", "much",
    }
)
ADVERBS: frozenset[str] = frozenset(
    """
    currently also really usually still now often always sometimes just recently already
    mostly mainly actually generally typically definitely totally absolutely rarely
    frequently occasionally even only primarily regularly normally basically constantly
    finally soon then first later once nowadays lately daily personally quite very so too
    obviously certainly honestly clearly truly deeply strongly particularly especially
    almost hardly barely mostly originally initially eventually today again ever
    """.split()
)
HEDGES: frozenset[str] = frozenset(
    {
        "maybe", "probably", "perhaps", "possibly", "likely", "apparently", "supposedly", "presumably",
    }
)
PREPOSITIONS: frozenset[str] = frozenset(
    {
        "at", "in", "to", "for", "from", "with", "on", "about", "into", "of", "as", "by", "up", "out", "off",
        "over", "after", "under", "near", "onto", "through", "around", "towards", "toward", "within", "without",
        "across", "during", "since", "before", "behind", "beside", "between", "like", "than", "via", "per",
    }
)
# Prepositions that may be attached to a verb as part of the relation ("work at").
PARTICLES: frozenset[str] = frozenset(
    {
        "at", "in", "to", "for", "from", "with", "on", "about", "into", "as", "by", "up", "out", "off", "over",
        "after", "of", "onto", "towards", "toward",
    }
)
CLAUSE_WORDS: frozenset[str] = frozenset(
    {
        "because", "but", "which", "who", "whom", "whose", "when", "while", "where", "although", "though",
        "unless", "until", "whereas", "so", "if", "cause", "since", "that", "than", "yet", "whenever",
        "wherever",
    }
)
# fmt: on
STOPWORDS: frozenset[str] = frozenset(
    """
    a an the and or but if of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then
    once here there when where why how all any both each few more most other some such no
    nor not only own same so than too very s t can will just don should now i me my myself
    we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this
    that these those am is are was were be been being have has had having do does did
    doing would could might must shall may also please tell know let us
    """.split()
)

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
    )
)

WORD_RE = re.compile(
    r"[A-Z][A-Za-z]*&[A-Z][A-Za-z]*(?:['’]s?)?"  # AT&T, R&D, H&M: one name
    r"|[A-Za-z0-9][A-Za-z0-9+#]*(?:[.\-'’][A-Za-z0-9+#]+)*\+*(?:['’]s?)?|[,;:&]"
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
        if candidate in VERB_BASES:
            return candidate
    return w


@functools.lru_cache(maxsize=8192)
def is_inflected_verb(word: str) -> bool:
    """Return True for a past, participle or -ing form by the English word list ("faced", "focusing").

    ``lemma`` knows the verbs of ``VERB_BASES``; this asks ``lemminflect``'s lexicon, so a
    verb outside that list is not inflected a second time ("faceds").
    """
    import lemminflect  # loads its word list on first use

    w = word.lower()
    return any(base != w for base in lemminflect.getAllLemmas(w).get("VERB", ())) and not w.endswith("s")


def is_verb(word: str) -> bool:
    """Return True when ``word`` is a known verb in some inflected form."""
    w = word.lower()
    if w in IRREGULAR or w in VERB_BASES:
        return True
    return lemma(w) in VERB_BASES and lemma(w) != w


def is_gerund(word: str) -> bool:
    """Return True for the -ing form of a known verb ("eating", "using")."""
    w = word.lower()
    return w.endswith("ing") and is_verb(w) and lemma(w) != w


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


_DOUBLE_BEFORE_ING = frozenset({"run", "swim", "jog", "sit", "get", "put", "cut", "hit", "win", "dig", "begin", "set"})


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
