"""The offline Reader's last check, precision first: a triple is kept only when both ends are things to remember.

A wrong fact in memory is worse than a missing one (the episode is stored and found by
retrieval anyway), so every quintuple the language rules read passes these checks, each a
rule over a construction, its words in ``language/data/<language>.toml``
(``language.lexicon``):

- **Group first person.** "we" / "our family" / 我们家 as a subject is the speaker: what the
  group did or has, the speaker did or has.
- **Hedged statements** (可能, 打算, maybe, I think: the rules' ``HEDGED`` confidence) are
  no fact.
- **English ends.** A subject is the speaker, a name (a run of capitalised words, with
  connectors such as "of" inside; a sentence's first word counts unless it is a lead-in or
  a time word, only an adjective or adverb, a plural common noun or an -ing verb), a
  gazetteer name of a tool, language, place or organisation, or a named owner's relative,
  named part or thing of a known kind ("Peter's wife", "n8n's Code node", "Mia's dog"). An
  object in lower case is a noun phrase: no clause words (pronouns, possessives, finite
  verbs, wh-words), no opening degree word, not a bare verb (unless an activity), not a bare
  adjective (unless a lasting state after a copula: "vegan"); a leading amount and a
  trailing time phrase are cut ("a bit of Dutch", "Kyoto last summer"). A predicate that is
  a feeling ("excited to"), a verdict ("awesome") or holds an action ("had to") is no
  relation. Word classes come from ``lemminflect``'s English lexicon.
- **Chinese ends.** A subject is the speaker, a 《title》, a gazetteer or person-shaped
  name, or a phrase jieba tags with a proper-name tag and no verb; an object is not made
  only of time, number, adverb, place-word or adjective tags, does not open with a degree
  adverb (挺舒服), and does not open a clause (在成都工作). "不再 / 已经不 / 不是" before the
  object makes the fact negated, and a hedge or plan word (打算) drops it. The generic
  subject-verb-object reading (the rules' ``FALLBACK`` confidence) is kept only about
  people, their relatives and things, and organisations: on document text it mostly reads
  modifiers and clauses as relations.
- **Constructions** read by ``language.patterns`` (《W》由A执导) bound their names
  themselves; only the checks above that are not about names apply to them, and the rules'
  own reading of that sentence is not used.
"""

from __future__ import annotations

import functools
import re

from elephant_broker.language import types as _types
from elephant_broker.language.drafts import FALLBACK, HEDGED, TextContext
from elephant_broker.language.english import STOPWORDS, word_classes
from elephant_broker.language.lexicon import Language, words
from elephant_broker.language.predicates import predicate_key
from elephant_broker.language.relations import ended_family_surfaces, is_relation
from elephant_broker.language.segment import has_cjk, is_kin_nickname, is_split_full_name, numeral_or_noun, pos_tag
from elephant_broker.schemas.models import Quintuple

_QUOTES = " \t\"'“”‘’([{（【《「『-—–*"
_YEAR_TAIL = re.compile(r"\s+(?:in|since|from|by|until|till)\s+(?:\d{4}|\d{4}s)$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"^(?P<owner>.+?)['’]s (?P<head>.+)$")
_PERSON_TAGS = frozenset({"nr", "nrfg", "nrt", "nrf"})
_NAME_WORD_TAGS = _PERSON_TAGS | {"ns", "nt", "nz", "eng"}
_CONTRACTION = re.compile(r"['’](?:d|ll|re|ve|m)$", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[，,；;。！!？?]")


def settle(quintuple: Quintuple, ctx: TextContext, sentence: str, *, delimited: bool = False) -> Quintuple | None:
    """Return the quintuple as memory should keep it (subject or object tidied), or None to drop it.

    ``delimited`` is for a triple a construction pattern read (``language.patterns``): the
    pattern has already bounded both names (《W》 由A执导), so they are not judged as names again.
    """
    if quintuple.confidence <= HEDGED:
        return None
    zh = has_cjk(sentence)
    language: Language = "zh" if zh else "en"
    update: dict[str, object] = {}
    if zh and (marked := _FOOTNOTED.fullmatch(quintuple.subject)) and marked.group(1).endswith(_institution_heads()):
        # 上海聚润化工有限公司1位于…: a page's footnote number glued to an institution's name
        quintuple = quintuple.model_copy(update={"subject": marked.group(1)})
    if zh and (doubled := _DOUBLED_NAME.fullmatch(quintuple.subject)):
        # 朱茵朱茵，1971年出生于香港: a heading that names the person, then the sentence naming them again
        quintuple = quintuple.model_copy(update={"subject": doubled.group(1)})
    if zh and (before := _before_preposition(quintuple.subject)) is not None:
        if not before and ctx.names_others:
            return None  # 在X中，…: a text about others left out its subject, which is not the speaker
        quintuple = quintuple.model_copy(update={"subject": before or ctx.me})
    if _is_group(quintuple.subject, language, ctx.me):
        update["subject"] = ctx.me
    elif not zh and (owned := _group_possessive(quintuple.subject, ctx.me)):
        update["subject"] = owned
    if not zh:
        trimmed = _trim_english_object(quintuple.object)
        if trimmed != quintuple.object:
            update["object"] = trimmed
    settled = quintuple.model_copy(update=update) if update else quintuple
    if settled.subject.casefold() == settled.object.casefold() or not settled.object:
        return None
    if zh:
        if not delimited and not (_zh_subject(settled, ctx, sentence) and _zh_object(settled, ctx, sentence)):
            return None
        if is_relation(settled.predicate, "naming") and "的" in settled.object:
            return None  # 在一家叫"青禾"的咨询公司上班: the name belongs to the noun after 的, not the subject
        if not delimited and settled.confidence <= FALLBACK and not _zh_trusted(settled, ctx):
            return None  # the generic subject-verb-object reading, trusted only about people and named things
        if _zh_clause_has(settled, sentence, "hedges"):
            return None
        no_longer = _zh_clause_has(settled, sentence, "no_longer") or _zh_in_the_past(settled, sentence)
        if not settled.negated and (no_longer or _zh_not_at(settled, sentence)):
            settled = settled.model_copy(update={"negated": True})
        return settled
    if not delimited and not (_en_subject(settled.subject, ctx, sentence) and _en_object(settled, ctx, sentence)):
        return None
    if _en_mood(settled.predicate):
        return None
    if not settled.negated and _en_used_to(settled, sentence):
        settled = settled.model_copy(update={"negated": True})  # "I used to live in Chicago": not now
    return settled


_MISTAKEN_NAME_TAGS = frozenset({"nr", "nrfg", "nrt", "ns"})
_BARE_NUMBER = re.compile(r"[\d.,，]+")
_DOUBLED_NAME = re.compile(r"([\u4e00-\u9fff]{2,4})\1")
_FOOTNOTED = re.compile(r"(.*[\u4e00-\u9fff])\d{1,2}")


@functools.cache
def _institution_heads() -> tuple[str, ...]:
    return tuple(words("zh", "institution_heads"))


def _before_preposition(subject: str) -> str | None:
    """A Chinese subject cut where a preposition opens an adverbial; None when none does.

    马超从朝阳 -> 马超; 从朝阳 -> "" (the subject was left out: the speaker).

    The preposition is a word of jieba's segmentation, or opens one it mistook for a name
    (从朝阳, tagged as a person); inside a common word (现在, 对象, 从前) it opens nothing.
    """
    prepositions = words("zh", "subject_prepositions")
    cuts: list[int] = []
    at = 0
    for word, tag in pos_tag(subject):
        opens = next((p for p in prepositions if word.startswith(p)), None)
        if opens is not None and (word == opens or tag in _MISTAKEN_NAME_TAGS):
            cuts.append(at)
        at += len(word)
    if not cuts:
        return None
    return subject[: min(cuts)].strip()


def _is_group(subject: str, language: Language, me: str) -> bool:
    """We / our family / 我们家, also as the reader writes "my family": "<speaker>'s family"."""
    group = words(language, "group_first_person")
    folded = subject.casefold()
    if folded in group:
        return True
    owner = f"{me.casefold()}'s "
    return folded.startswith(owner) and f"my {folded[len(owner) :]}" in group


# -- English ------------------------------------------------------------------------------


def _readings(word: str) -> frozenset[str]:
    """Universal POS tags the English word list gives a lower-case word (empty when unknown: a name)."""
    return frozenset(word_classes(word))


def _name_token(token: str) -> bool:
    return any(char.isupper() or char.isdigit() for char in token)


def _is_name(name: str, sentence: str | None = None) -> bool:
    """A run of capitalised words (connectors inside), "I" excepted; see the module doc for a sentence's first word."""
    tokens = name.split()
    if not tokens or not _name_token(tokens[0]):
        return False
    connectors = words("en", "name_connectors")
    if _foreign_name_with_kind(tokens):
        return True
    if not _name_token(tokens[-1]):
        return False
    if any(token == "I" or not (_name_token(token) or token.casefold() in connectors) for token in tokens):
        return False
    if any(_CONTRACTION.search(token) for token in tokens):
        return False  # That'd, We'll: a pronoun and a verb
    if sentence is None or not sentence.lstrip(_QUOTES).startswith(tokens[0]):
        return True
    first = re.sub(r"['’]s$", "", tokens[0].casefold().rstrip(".,"))
    if first in words("en", "lead_ins") or _is_time_word(first):
        return False
    readings = _readings(first)
    if readings and readings <= {"ADJ", "ADV"}:
        return False  # Glad, Honestly, Just: only an adjective or adverb ("Peter", "Will" are verbs too)
    if len(tokens) == 1 and first.endswith("s") and _plural_noun(first):
        return False  # Setbacks, Stories: a common noun in the plural
    return not (first.endswith("ing") and "VERB" in readings)


def _foreign_name_with_kind(tokens: list[str]) -> bool:
    """Whether a name is a word no English word list knows, then lower-case words: "Bandeja paisa".

    A dish or a thing named in another language keeps its lower-case words; a known word
    before them is a description, at the start of a sentence or not ("Chocolate cake").
    """
    first, rest = tokens[0], tokens[1:]
    if not 1 <= len(rest) <= 2 or not first.isalpha() or not first[:1].isupper():
        return False
    if _readings(first.casefold()) or first.casefold() in STOPWORDS:
        return False
    return all(token.isalpha() and token.islower() for token in rest)


def _is_time_word(word: str) -> bool:
    """Tomorrow, Yesterday, Monday, Spring: time, not a name, at the start of a sentence."""
    return word in words("en", "time_units") or word in words("en", "trailing_adverbials")


def _plural_noun(word: str) -> bool:
    return any(lemma != word for lemma in word_classes(word).get("NOUN", ()))


_NAMED_KINDS = (_types.TOOL, _types.LANGUAGE, _types.ORGANIZATION, _types.PLACE)
"""Gazetteer types whose entries are names ("python", "kubernetes"), unlike activities and foods."""


def _en_subject(subject: str, ctx: TextContext, sentence: str) -> bool:
    if subject == ctx.me or _is_name(subject, sentence) or _types.gazetteer_type(subject) in _NAMED_KINDS:
        return True
    possessive = _POSSESSIVE.match(subject)
    if possessive is None:
        return False
    owner, head = possessive.group("owner"), possessive.group("head").split()
    # A named part ("n8n's Code node"), a relative ("Peter's wife") or a thing of a known kind ("Mia's dog").
    owned = (
        any(_name_token(word) for word in head)
        or head[-1].casefold() in words("en", "owned_kinds")
        or head[-1].casefold() in _types.PERSON_ROLES
    )
    return owned and (owner == ctx.me or _is_name(owner, sentence))


def _group_possessive(subject: str, me: str) -> str | None:
    """Return "<speaker>'s team" for "Our team", as "my team" is named; None for other subjects."""
    first, _, rest = subject.partition(" ")
    if first.casefold() == "our" and rest:
        return f"{me}'s {rest}"
    return None


def _after_determiner(word: str, sentence: str) -> bool:
    """Whether ``word`` follows an article or possessive in the sentence ("a nurse", "my best friend")."""
    pattern = rf"\b(?:a|an|the|my|his|her|their|our|your|one)\s+(?:\w+\s+)?{re.escape(word)}\b"
    return re.search(pattern, sentence, re.IGNORECASE) is not None


def _en_object(quintuple: Quintuple, ctx: TextContext, sentence: str) -> bool:
    obj = quintuple.object
    if obj == ctx.me or _is_name(obj) or _types.gazetteer_type(obj) or _types.is_time(obj):
        return True
    possessive = _POSSESSIVE.match(obj)
    phrase = possessive.group("head") if possessive else obj
    if possessive and not (possessive.group("owner") == ctx.me or _is_name(possessive.group("owner"))):
        return False
    tokens = [token.casefold() for token in phrase.split()]
    if not tokens or any(token in words("en", "clause_words") for token in tokens):
        return False
    if tokens[0] in words("en", "intensifiers") or tokens[0] in words("en", "lead_ins"):
        return False  # "so much", "ok": an amount or a reply, not a thing
    if any(token in words("en", "comparison_words") for token in tokens[:2]) and re.search(
        rf"\b{re.escape(phrase)}\s+(?:as|to)\b", sentence, re.IGNORECASE
    ):
        # "the exact same car as my dad": which car is said only by what it is compared to
        # ("Chris and I went to the same school" is one school, theirs).
        return False
    first = _readings(tokens[0])
    predicate = quintuple.predicate.casefold().split()
    copula = bool(predicate) and predicate[-1] in words("en", "copulas")
    if len(tokens) == 1 and "ADJ" in first and copula and not _after_determiner(tokens[0], sentence):
        # "is great" (no article before it) is a verdict; "is a great" would name a thing.
        return tokens[0] in words("en", "durable_states")
    if not first or "NOUN" in first or "PROPN" in first or "NUM" in first:
        return True
    if quintuple.object_type == _types.ACTIVITY or (tokens[0].endswith("ing") and "VERB" in first):
        return True  # "knows how to swim", "loves chasing squirrels": an activity
    if "ADJ" in first and len(tokens) == 1:
        return copula and tokens[0] in words("en", "durable_states")
    # An adjective or numeral opening a noun phrase ("mechanical engineering"); a bare verb or adverb does not.
    return "ADJ" in first and len(tokens) > 1


def _en_mood(predicate: str) -> bool:
    """Whether the predicate is a feeling ("excited to", "exhausted after") or holds an action ("had to")."""
    folded = predicate.casefold()
    head = folded.split()
    if not head or folded in words("en", "state_relations"):
        return False
    if _readings(head[0]) and _readings(head[0]) <= {"ADJ", "ADV"}:
        # "awesome", "nice": a verdict is no relation; "largest city", "current tenant" name an attribute.
        return not (len(head) > 1 and "NOUN" in _readings(head[-1]))
    return head[0] in words("en", "feelings") or any(
        f" {phrase} " in f" {folded} " for phrase in words("en", "modal_phrases")
    )


def _trim_english_object(obj: str) -> str:
    """Cut a leading quantity ("bit of Japanese") and a trailing time phrase or adverb ("Kyoto last summer")."""
    tokens = obj.split()
    if len(tokens) > 2 and tokens[0].casefold() in words("en", "quantity_heads") and tokens[1].casefold() == "of":
        obj = " ".join(tokens[2:])
    trimmed = _YEAR_TAIL.sub("", obj)
    tails = sorted(words("en", "trailing_adverbials"), key=len, reverse=True)
    determiners, units = words("en", "time_determiners"), words("en", "time_units")
    changed = True
    while changed:
        changed = False
        tokens = trimmed.split()
        if len(tokens) < 2:
            break
        lowered = [token.casefold() for token in tokens]
        if lowered[-1].rstrip("s") in units and lowered[-2] in determiners and len(tokens) > 2:
            trimmed, changed = " ".join(tokens[:-2]), True
            continue
        for tail in tails:
            size = len(tail.split())
            if len(tokens) > size and " ".join(lowered[-size:]) == tail:
                trimmed, changed = " ".join(tokens[:-size]), True
                break
    return trimmed


# -- Chinese ------------------------------------------------------------------------------


def _zh_named(name: str, ctx: TextContext, sentence: str = "") -> bool:
    if name == ctx.me or f"《{name}》" in sentence or _types.gazetteer_type(name) or _zh_person_shape(name):
        return True  # a title in 《》 is a name whatever its words
    if name in ctx.mentioned:
        return True  # introduced as someone's relative or colleague in this text (我表弟陆振国)
    if not has_cjk(name):
        return _is_name(name)
    if _types.suffix_type(name) in (_types.ORGANIZATION, _types.PLACE):
        return True  # 星河科技, 实验小学, 滨江区
    tagged = pos_tag(name)
    tags = [tag for _, tag in tagged]
    if tags and tags[-1] not in _PERSON_TAGS and any(tag in _PERSON_TAGS for tag in tags):
        return False  # 大学室友张扬合伙: a person's name inside a longer phrase is no name of it
    return any(tag in words("zh", "name_tags") for tag in tags) and not any(tag.startswith("v") for tag in tags)


def _zh_person_shape(name: str) -> bool:
    """A Chinese person's name by its shape: 小李, 王老师, or a kin-word nickname (军哥)."""
    return _types.looks_like_zh_person(name) or is_kin_nickname(name) or is_split_full_name(name)


def _zh_subject(quintuple: Quintuple, ctx: TextContext, sentence: str) -> bool:
    subject = quintuple.subject
    if _zh_named(subject, ctx, sentence):
        return True
    # An owner's relative or thing: 李强女儿, 我们公司, 小王的猫 (a noun after a speaker, group or name).
    head = _speakers_thing(subject, ctx.me)
    if head is not None:
        return _zh_noun(head)
    for role in _types.PERSON_ROLES:
        if subject.endswith(role) and len(subject) > len(role):
            owner = subject[: -len(role)].rstrip("的")
            return bool(owner) and _zh_named(owner, ctx)
    return False


def _speakers_thing(subject: str, me: str) -> str | None:
    """The head after the speaker or a group the speaker is in (小王猫 -> 猫, 我们的公司 -> 公司), else None."""
    for owner in sorted([me, *words("zh", "group_first_person")], key=len, reverse=True):
        if subject.startswith(owner) and len(subject) > len(owner):
            return subject[len(owner) :].lstrip("的")
    return None


def _zh_person(name: str, ctx: TextContext) -> bool:
    """The speaker, or one word jieba tags a person's name (张伟, 小李 by its shape)."""
    if name == ctx.me or _zh_person_shape(name):
        return True
    tagged = pos_tag(name)
    return len(tagged) == 1 and tagged[0][1] in _PERSON_TAGS


def _zh_trusted(quintuple: Quintuple, ctx: TextContext) -> bool:
    """Whether the generic reading may speak about this subject: people, their relatives and things, named things.

    The speaker (小王), a person (张伟), the speaker's or a group's thing (我们公司) or a
    person's relative or thing (小王女朋友, 王强的公司), an organisation its name says is one
    (蓝鲸集团, OpenAI公司); and a name that is one word (大疆, 比亚迪) when the object is a
    name or a short noun phrase (大疆生产无人机), not a clause read off a long sentence.
    """
    subject = quintuple.subject
    if _zh_person(subject, ctx) or _types.suffix_type(subject) == _types.ORGANIZATION:
        return True
    tagged = pos_tag(subject)
    named = _types.gazetteer_type(subject) is not None or (len(tagged) == 1 and tagged[0][1] in _NAME_WORD_TAGS)
    if named and (len(pos_tag(quintuple.object)) <= 2 or _types.gazetteer_type(quintuple.object)):
        return True
    if _speakers_thing(subject, ctx.me) is not None:
        return True
    owner = "".join(word for word, _ in tagged[:1])
    return len(tagged) > 1 and tagged[0][1] in _PERSON_TAGS and _zh_noun(subject[len(owner) :].lstrip("的"))


def _zh_noun(head: str) -> bool:
    tagged = pos_tag(head)
    return bool(tagged) and all(tag.startswith(("n", "eng", "x", "s")) or tag == "vn" for _, tag in tagged)


def _zh_object(quintuple: Quintuple, ctx: TextContext, sentence: str) -> bool:
    obj = quintuple.object
    if _BARE_NUMBER.fullmatch(obj) and predicate_key(quintuple.predicate) == "has_part":
        return False  # 我家有2只猫 -> (有, 2): an amount had, no thing (a 手机号 13800001111 is a value)
    if not has_cjk(obj) or _zh_named(obj, ctx, sentence) or _types.is_time(obj):
        return True
    if obj.startswith(tuple(words("zh", "degree_adverbs"))):
        return False  # 挺舒服, 很方便: a verdict
    tagged = pos_tag(obj)
    at = sentence.find(obj)
    if len(tagged) == 1 and at > 0:
        # 一箱苹果 …: the count before the object in the sentence says it is a noun, whatever jieba tags it alone.
        tagged = [(obj, numeral_or_noun(obj, tagged[0][1], pos_tag(sentence[:at])[-1][0]))]
    tags = [tag for _, tag in tagged]
    if not tags or tags[0] in words("zh", "opening_tags"):
        return False  # 在成都工作: a clause, not a thing
    if any(word in words("zh", "unresolved_pronouns") for word, _ in tagged):
        return False  # 他的办公室, 我们学您: a pronoun left in an object was never resolved (or is quoted speech)
    if tags[0] == "a" and len(tagged[0][0]) == 1 and all(tag in words("zh", "non_entity_tags") for tag in tags[1:]):
        return False  # 住了快三年: how nearly how long, no thing lived in
    return not all(tag in words("zh", "non_entity_tags") for tag in tags)


def _zh_before_object(quintuple: Quintuple, sentence: str) -> str:
    """The clause of ``sentence`` up to the object (from the last clause break before it)."""
    at = sentence.find(quintuple.object)
    if at < 0:
        return ""
    start = max((match.end() for match in _CLAUSE_BREAK.finditer(sentence, 0, at)), default=0)
    return sentence[start:at]


def _zh_clause_has(quintuple: Quintuple, sentence: str, lexicon: str) -> bool:
    """Whether a word of ``lexicon`` is a token of the clause before the object, or of the predicate."""
    entries = words("zh", lexicon)
    texts = {_zh_before_object(quintuple, sentence), quintuple.predicate} - {""}
    return any(word in entries for text in texts for word, _ in pos_tag(text))


@functools.cache
def _ending_keys() -> frozenset[str]:
    return frozenset(predicate_key(surface) for surface in ended_family_surfaces())


def _zh_in_the_past(quintuple: Quintuple, sentence: str) -> bool:
    """以前在招商银行当柜员 / 我曾经住在北京 / 我原来骑的是电驴: where one worked or lived, or what one had, before.

    Other relations said of the past stay (以前在杭州上学), and so does a 过 experience.
    """
    verbs = words("zh", "past_state_verbs")
    state = quintuple.predicate in verbs or quintuple.predicate[:2] in verbs  # 喜欢喝: 喜欢
    if predicate_key(quintuple.predicate) not in _ending_keys() and not state:
        return False
    markers = words("zh", "past_markers")
    said = [word for word, _ in pos_tag(_zh_before_object(quintuple, sentence))]
    if any("过" in word for word in said if word not in markers) or "过" in quintuple.predicate:
        return False
    return not markers.isdisjoint(said[:3])


def _en_used_to(quintuple: Quintuple, sentence: str) -> bool:
    """A past state or habit ("I used to live in Chicago", "used to drink tea"), not accustomed ("I'm used to it")."""
    folded = sentence.casefold()
    end = folded.find(quintuple.object.casefold())
    before = " " + _en_last_clause(folded[: end if end >= 0 else len(folded)])
    for phrase in words("en", "past_habitual"):
        at = before.find(f" {phrase} ")
        if at >= 0:
            previous = before[:at].split()[-1:]
            accustomed = words("en", "accustomed_before")
            # "I'm used to": the contraction's ending is the form of be.
            return not (previous and (previous[0] in accustomed or previous[0].endswith(("'m", "'re", "'s"))))
    return False


@functools.cache
def _en_clause_break() -> re.Pattern[str]:
    conjunctions = "|".join(re.escape(word) for word in sorted(words("en", "clause_conjunctions")))
    return re.compile(rf"[,;]| (?:{conjunctions}) ")


def _en_last_clause(text: str) -> str:
    """The last clause of a lower-case text: after its last comma, semicolon or clause conjunction."""
    return _en_clause_break().split(text)[-1]


def _zh_not_at(quintuple: Quintuple, sentence: str) -> bool:
    """不在北京住了 / 不是常州: the negation sits right before the object, not on the verb."""
    return _zh_before_object(quintuple, sentence).endswith(("不在", "不是"))
