"""The offline Reader: rule-based quintuple extraction for Chinese and English text.

This is what the ingest graph uses when no LLM is configured. It splits a text
into sentences, drops the ones that state no fact (questions, small talk,
hypotheticals, metaphors, pure emotions; see ``language.filters``), and reads
(subject, predicate, object) triples off the rest with jieba part-of-speech tags
for Chinese (``language.extract_zh``) and word lists plus light morphology for
English (``language.extract_en``).

Conventions shared by both languages:

* First person (我/俺/本人, I/me/myself) becomes the speaker's name, or
  ``"user"`` when no speaker is known; so do 我们 / we / our family (a group that
  includes the speaker), and "our team" is the speaker's team.
* Attribute statements put the owner first: "A的B是C" / "A's B is C" /
  "the B of A is C" / "C is the B of A" all give (A, B, C). So "张三的导师是李四"
  is (张三, 导师, 李四) and "Frank Herbert is the author of Dune" is
  (Dune, author, Frank Herbert). A first-person owner keeps its modifiers in the
  attribute: "我最爱的水果是西红柿" -> (speaker, 最爱的水果, 西红柿).
* A possessed subject of an ordinary verb ("n8n的 Code 节点支持 Python") becomes
  one name that starts with the owner ("n8n Code节点"; English "n8n's Code node")
  plus a link fact from the owner: (n8n, 包含/has, n8n Code节点), or the role word
  for people ("我的朋友" -> (speaker, 朋友, ...)).
* A name given to a possessed thing becomes the entity, linked from the owner by
  the kind of thing: "我的猫叫咪咪" / "我养了一只猫，叫咪咪" / "I have a cat named
  Whiskers" / "My cat's name is Whiskers" -> (speaker, 猫/cat, 咪咪/Whiskers), like
  "我女儿叫李小雨" -> (speaker, 女儿, 李小雨). An appositive name is the subject of
  the rest: "My colleague Tom lives in Chicago" -> (Tom, lives in, Chicago) plus
  (speaker, colleague, Tom); later "my cat" in the same text is that name. A link
  fact (我, 女儿, 我女儿) is only kept next to a fact of the possessed entity.
* Activities without an object: an ability is a predicate of knowing how, with
  the activity as the object, (小王, 会, 游泳) / (Gina, knows how to, swim),
  negated for 不会 / can't (English "know how to", so it reads "Gina does not
  know how to swim"); a habit (bare present or with 每天 / every morning / 经常) is
  (speaker, 习惯, 跑步) in Chinese and (Alice, does, running) in English ("do"
  when negated: "I don't smoke"); liked or done activities keep their verb
  (喜欢游泳 -> (S, 喜欢, 游泳), "I go jogging" -> (S, goes, jogging)). Glued
  verb-object words are split (喝茶 -> 喝 + 茶, 打篮球 -> 打 + 篮球). Activities
  are typed Activity, the type a "what exercise / 什么运动" question asks for.
* Events without an object: a symmetric event with two subjects links them,
  time in ``valid_from``: "我和妻子在2015年结婚" -> (speaker, 结婚, speaker妻子);
  alone, a stated date is the object, as in 出生于1990年: "我2019年结婚了" ->
  (S, 结婚于, 2019年), "I got married in June 2016" -> (S, married in, June 2016),
  both with the time in ``valid_from`` too; "I am married" -> (S, is, married).
* Not facts: dreams (梦见, "I dreamt"), jokes (开玩笑的, "just kidding", "jk"; the
  sentence before a joke marker is taken back too) and wishes (希望, 想要, 想,
  "I want to", "I'd love") yield nothing. 自己 is the clause's own subject.
* he/she/他/她 resolve to the last person named in the same text; other pronouns
  (it, they, 这个, 他们) and unresolvable ones drop the fact rather than store a
  pronoun as an entity. A clause without a subject continues the previous
  clause's subject, or (when a speaker is given) is about the speaker.
* Predicates keep their surface form in Chinese (喜欢吃, 住在, 毕业于; aspect
  particles and adverbs dropped, 最 kept) and are kept as written in English
  ("works at", "wrote", "born in"; the copula is "is"); ``language.predicates``
  maps every wording to one canonical key.
* Confidence is 0.9 for the clear patterns (copula, attribute, known relation
  verbs), 0.7 for the generic subject-verb-object fallback, 0.6 for a subject
  implied from the speaker. A hedged statement (可能/也许/maybe/probably/I think)
  is no fact at all.
* Precision first: every triple passes ``language.acceptance`` last, which keeps it
  only when both ends are things a memory can hold (names, the speaker, a named
  owner's relative or thing, noun phrases; not clauses, moods or time phrases).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from elephant_broker.language import english, extract_en, extract_zh
from elephant_broker.language import types as _types
from elephant_broker.language.acceptance import settle
from elephant_broker.language.drafts import Draft, TextContext, clean_name
from elephant_broker.language.filters import is_non_factual
from elephant_broker.language.lexicon import Language
from elephant_broker.language.lexicon import words as lexicon_words
from elephant_broker.language.names import bounded_names
from elephant_broker.language.patterns import read_patterns
from elephant_broker.language.question import class_type
from elephant_broker.language.segment import detect_language, fold_width, has_cjk, is_punct
from elephant_broker.schemas.models import Quintuple

MAX_CJK_CHARS = 30
MAX_EN_WORDS = 8

_SENTENCE_END = re.compile(r"[。！？!?；;\n]+|(?<=[.])\s+|\s+[—–]+\s+|(?<=[a-z]):\s+")
_DASH_BREAK = re.compile(r"\s+[—–]+\s+")
_DASH_PAIR_AHEAD = re.compile(r"(?:[^—–。！？!?；;\n.]|\.(?!\s))+?\s+[—–]+\s+\S")
"""Sentence ends, and the breaks after an English lead-in ("Quick update — I moved", "Correction: my
dog is Rex"): what comes before them is said about nothing the rest names."""


_INITIALISM = re.compile(r"(?:^|\s)(?:[A-Z]\.)+[A-Z]\.$")
_NEXT_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _continues_a_name(text: str, position: int) -> bool:
    """Whether the word at ``position`` goes on a name: capitalised, and not a word that opens a sentence."""
    match = _NEXT_WORD.match(text, position)
    if match is None:
        return False
    word = match.group()
    return word[:1].isupper() and word.lower() not in lexicon_words("en", "sentence_openers")


_ASIDE = re.compile(r"(\S*)(\s*\([^()]*\))")


_PARTICIPLE_ASIDE = re.compile(r"\s*\(\s*((?:born|[a-z]+ed)\b[^()]*?)\s*\)")


_RELATIVE_ASIDE = re.compile(
    r"\s*\(\s*(?:which|who|whose (?P<whose>[a-z]+) is|the (?P<of_which>[a-z]+) of which is)"
    r"\s+(?P<rest>[^()]+?)\s*\)"
)
"""A relative clause in brackets after a name: "(which has 3000 members)", "(the leader of which is X)"."""

_NAME_BEFORE = re.compile(r"(?:[A-Z0-9][\w.'’-]*\s+(?:(?:of|and|the|&)\s+)?)*[A-Z0-9][\w.'’-]*(?=\s*$)")
"""The capitalised name that ends a text ("… where Akron Summit Assault")."""


_DASH_ASIDE = re.compile(r"\s+(?:[—–]|--?)\s+([^—–]+?)\s+(?:[—–]|--?)\s+")


def _dash_asides(sentence: str) -> tuple[str, list[str]]:
    """The sentence without its asides between dashes, and the asides ("X — aside — rest")."""
    asides = [match.group(1) for match in _DASH_ASIDE.finditer(sentence)]
    return (_DASH_ASIDE.sub(" ", sentence), asides) if asides else (sentence, [])


def _without_heading(sentence: str) -> str:
    """A Chinese sentence without the section heading or list number glued before it.

    Text copied from a page keeps its headings: 人物简介谢礼立，男，… and 公司简介上海星酷…成立于
    2010年 begin with a heading (lexicon ``heading_nouns``) right before the name the sentence
    is about; "3、" numbers an item. A heading noun elsewhere is kept (他的个人简介很长).
    """
    numbered = _LIST_NUMBER.match(sentence)
    if numbered:
        sentence = sentence[numbered.end() :]
    for noun in _heading_nouns():
        at = sentence.find(noun, 0, 6 + len(noun))
        if at >= 0 and not _ZH_PUNCT.search(sentence[: at + len(noun)]):
            rest = sentence[at + len(noun) :]
            if rest and not _ZH_PUNCT.match(rest) and not rest.startswith(("是", "的", "很", "为")):
                return rest
    return sentence


@functools.cache
def _heading_nouns() -> tuple[str, ...]:
    """The heading nouns, longest first (人物简介 is cut whole, not at 简介 within it)."""
    return tuple(sorted(lexicon_words("zh", "heading_nouns"), key=len, reverse=True))


_LIST_NUMBER = re.compile(r"^\s*\d{1,2}\s*[、.．]\s*(?!\d)")
_ZH_PUNCT = re.compile(r"[，,。；;：:！!？?、\s]")


_OWNED_ROLE = re.compile(r"(?:my|our|his|her|their) (?P<role>[a-z]+(?:-[a-z]+)*)", re.IGNORECASE)


def _without_name_asides(sentence: str) -> tuple[str, list[str]]:
    """Drop the bracketed asides that follow a name or a number, keep those after a common noun.

    An aside that is a participle phrase says something of the name, and is read as one
    between commas: "William Anders (born in 1933 in Hong Kong) flew" -> "William Anders,
    born in 1933 in Hong Kong, flew"; one that is a relative clause is returned as a sentence
    of its own ("Chicago (the leader of which is Rahm Emanuel)": the leader of Chicago is
    Rahm Emanuel).
    """

    def aside(match: re.Match[str]) -> str:
        if not match.group(1)[:1].isupper():
            return match.group()
        role = _OWNED_ROLE.fullmatch(match.group(2).strip(" ()"))
        if role and role.group("role").casefold() in _types.PERSON_ROLES:
            return f"{role.group(0)} {match.group(1)}"  # "Ines (my cousin) got the job": my cousin Ines got it
        participle = _PARTICIPLE_ASIDE.fullmatch(match.group(2))
        if participle:
            return f"{match.group(1)}, {participle.group(1)},"
        relative = _RELATIVE_ASIDE.fullmatch(match.group(2))
        name = _NAME_BEFORE.search(sentence, 0, match.start(2))
        if relative and name:
            # "Akron Summit Assault (which has 3000 members)": Akron Summit Assault has 3000 members.
            noun = relative.group("whose") or relative.group("of_which")
            said = f"the {noun} of {name.group()} is" if noun else name.group()
            asides.append(f"{said} {relative.group('rest')}")
        return match.group(1)

    asides: list[str] = []
    return _ASIDE.sub(aside, sentence), asides


def split_sentences(text: str) -> list[str]:
    """Split a text into sentences on Chinese and English sentence ends.

    A dot ends a sentence only when followed by whitespace and not preceded by a
    common abbreviation (Dr., Inc., e.g.), so "Node.js" and "Dr. Smith" survive.

    Args:
        text: Any text.

    Returns:
        Non-empty sentences, each keeping its closing punctuation.
    """
    sentences: list[str] = []
    start = 0
    closing_dash = False
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if match.group().startswith(":") and extract_en.opens_a_list(text[start : match.start() + 1]):
            continue  # "things to pack for camping: a tent, a stove": the list is what the lead-in stands for
        if _DASH_BREAK.fullmatch(match.group()):
            # "My neighbour Tom — we call him Tubs — lives in Leeds": a pair of dashes in one
            # sentence encloses an aside (read by ``_dash_asides``); a lone one ends a lead-in.
            if closing_dash:
                closing_dash = False
                continue
            if _DASH_PAIR_AHEAD.match(text, end):
                closing_dash = True
                continue
        if match.group().isspace():
            before = text[start : match.start()]
            last_word = re.split(r"\s+", before.strip())[-1].rstrip(".").lower() if before.strip() else ""
            if last_word in lexicon_words("en", "abbreviations") or len(last_word) == 1:
                continue
            if _INITIALISM.search(before) and (_continues_a_name(text, end) or text[end : end + 1].islower()):
                # "A.S. Livorno Calcio", "AEK Athens F.C. has 69618 members": the dot closes the
                # initialism, not the sentence
                continue
        piece = text[start:end].strip()
        if piece:
            sentences.append(piece)
        start = end
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def acceptable(name: str) -> bool:
    """Return True when ``name`` can be an entity: not empty, not a clause."""
    if not name or is_punct(name):
        return False
    if has_cjk(name):
        return len(re.findall(r"[\u3400-\u9fff]", name)) <= MAX_CJK_CHARS
    return len(name.split()) <= MAX_EN_WORDS


def finish(draft: Draft, sentence: str, ctx: TextContext) -> list[Quintuple]:
    """Turn a draft (and its extras) into validated quintuples.

    Args:
        draft: The candidate triple.
        sentence: The source sentence, kept as the span.
        ctx: Per-text state; updated with the last person seen.

    Returns:
        Zero or more quintuples: none when a name is empty, too long or the
        subject equals the object.
    """
    out: list[Quintuple] = []
    for index, item in enumerate([draft, *draft.extras]):
        subject = clean_name(item.subject)
        obj = clean_name(item.object)
        predicate = clean_name(item.predicate)
        valid = bool(acceptable(subject) and acceptable(obj) and predicate) and not is_punct(predicate)
        if not valid or subject.casefold() == obj.casefold():
            if index == 0:
                # The link facts ("我女儿" -> (我, 女儿, 我女儿)) only make sense next to a
                # relation of the possessed thing; alone they are degenerate self-links.
                break
            continue
        subject_type = item.subject_type or (
            _types.PERSON
            if subject == ctx.me
            else _types.guess_type(subject, item.subject_pos, predicate, role="subject")
        )
        object_type = item.object_type or (
            _types.PERSON if obj == ctx.me else _types.guess_type(obj, item.object_pos, predicate)
        )
        if subject_type == _types.PERSON and subject != ctx.me:
            ctx.last_person = subject
        out.append(
            Quintuple(
                subject=subject,
                subject_type=subject_type,
                predicate=predicate,
                object=obj,
                object_type=object_type,
                confidence=item.confidence,
                negated=item.negated,
                valid_from=_clock(item.valid_from),
                schedule=_clock(item.schedule),
                source_span=sentence.strip(),
            )
        )
    return out


_CLOCK_SPACES = re.compile(r"(?<=\d) : (?=\d{2}\b)")


def _clock(time: str | None) -> str | None:
    """A time phrase as written: "at 2:30", not the words' "at 2 : 30"."""
    return _CLOCK_SPACES.sub(":", time) if time else time


def extract_quintuples(text: str, speaker: str | None = None) -> list[Quintuple]:
    """Extract quintuples from a text without any model.

    Args:
        text: One perceived text: a chat turn, a paragraph, a document.
        speaker: Who wrote or said it; first-person words become this name
            (``"user"`` when None).

    Returns:
        The extracted quintuples in sentence order, duplicates removed. Sentences
        that state no fact contribute nothing, nor do names longer than
        ``language.names.MAX_NAME_CHARS``.
    """
    text = fold_width(text)  # ＤｅｅｐＳｅｅｋ is DeepSeek
    me = speaker.strip() if speaker and speaker.strip() else "user"
    ctx = TextContext(me=me, speaker_given=bool(speaker and speaker.strip()), text=text)
    seen: set[tuple[str, str, str, bool]] = set()
    out: list[Quintuple] = []
    previous = ""
    thing_said: Draft | None = None  # what the last sentence said the speaker did with a thing it did not name
    for sentence in split_sentences(text):
        reason = is_non_factual(sentence)
        if reason == "joke":
            # "I'm the Queen of England. Just kidding." takes back the sentence before.
            out = [q for q in out if q.source_span != previous.strip()]
        previous = sentence
        reader = extract_zh if detect_language(sentence) == "zh" else extract_en
        language: Language = "zh" if reader is extract_zh else "en"
        if reason == "question" and language == "en" and ctx.speaker_given:
            # "any ideas for Dalia and her fiancé Omar?" asks, and says who is whose.
            for draft in extract_en.relatives_named_in(sentence, ctx):
                out += [q for read in finish(draft, sentence, ctx) if (q := settle(read, ctx, sentence)) is not None]
        if reason:
            continue
        # An English name's aside in brackets is said beside the sentence, not in it: read
        # without it, "located in Texas (United States)" is located in Texas, not in "Texas
        # United States". After a common noun the brackets name it ("my sister (Anna)"): kept.
        read_text, bracketed = _without_name_asides(sentence) if language == "en" else (_without_heading(sentence), [])
        # "My neighbour Rupert — we call him Ru — lives in Exeter": Rupert lives in Exeter, and the
        # aside between dashes is said of him after it, not a break in the sentence.
        main, asides = _dash_asides(read_text) if language == "en" else (read_text, [])
        asides += bracketed
        drafts: list[Draft] = []
        for part in (main, *asides):
            # A sentence a construction pattern reads is not read by the rules as well.
            delimited = read_patterns(part, language)
            drafts += delimited or reader.read_sentence(part, ctx)
        if not drafts and thing_said is not None and (name := _name_fragment(sentence)):
            # "got the new car! 2021 Kia Sportage in grey": the name alone says which car.
            if _types.guess_type(name) != _types.PERSON:
                kind = class_type(thing_said.object.split()[-1])  # a car's name names a Thing
                drafts = [replace(thing_said, object=name, object_type=kind, extras=[])]
                # Once named, "new car" says nothing the name does not.
                out = [q for q in out if not (q.subject == me and q.object == clean_name(thing_said.object))]
        thing_said = next((d for d in drafts if d.subject == me and not d.negated and _unnamed_thing(d.object)), None)
        if language == "zh":
            # 我表弟陆振国: a name a role introduced is a person's, though jieba cuts it (陆 + 振国).
            ctx.mentioned += [
                draft.object
                for draft in drafts
                if draft.predicate in _types.PERSON_ROLES
                and draft.object_type == _types.PERSON
                and 2 <= len(draft.object) <= 4
                and draft.object[0] in _types.SURNAMES_ZH
            ]
        for draft in drafts:
            for read in finish(draft, sentence, ctx):
                if reader is extract_en:
                    read = _speaker_in_third_person(read, sentence, me)
                if _is_function_word(read.subject) or _is_function_word(read.object):
                    continue  # "It is great", "they live there", "love is": no entity to remember
                quintuple = settle(read, ctx, sentence, delimited=bool(delimited))
                if quintuple is None:
                    continue
                key = (quintuple.subject, quintuple.predicate, quintuple.object, quintuple.negated)
                if key not in seen:
                    seen.add(key)
                    out.append(quintuple)
    return bounded_names(out)


_NAME_FRAGMENT = re.compile(
    r"^(?:(?:19|20)\d{2}\s+)?(?P<name>[A-Z][\w-]*(?:\s+[A-Z\d][\w-]*){0,3})"
    r"(?:\s+(?:in|with)\s+[a-z][a-z ]{0,30})?[\s!.]*$"
)


def _name_fragment(sentence: str) -> str | None:
    """The name a verbless sentence is ("2021 Kia Sportage in grey" -> "Kia Sportage"), else None."""
    match = _NAME_FRAGMENT.match(sentence.strip())
    if match is None:
        return None
    name = match.group("name")
    if any(english.is_verb(word) and not english.is_capitalised(word) for word in name.split()):
        return None
    return None if name.split()[0].casefold() in english.STOPWORDS else name


def _unnamed_thing(name: str) -> bool:
    """Whether an object is a thing said by its kind ("new car"), no name."""
    words = name.split()
    return 0 < len(words) <= 3 and all(word.isalpha() and word.islower() for word in words)


_ZH_FUNCTION_WORDS = frozenset({"你们", "他们", "她们", "它们", "大家", "它", "这", "那", "这个", "那个", "是"})
_FIRST_PERSON_PLURAL = frozenset({"we", "us"})
"""Kept as an entity of their own ("我们的数据库", "we moved to Boston"): a group that includes the speaker."""


def _is_function_word(name: str) -> bool:
    """Whether an extracted end is a pronoun or function word rather than a name ("it", "is", 他们).

    Case matters: "US" and "IT" are names, and so is "Will"; "It" and "They" are not.
    """
    written = name.strip()
    folded = written.lower()
    if not written or folded in _ZH_FUNCTION_WORDS:
        return True
    if folded in english.PRONOUNS - _FIRST_PERSON_PLURAL and not written.isupper():
        return True
    return written == folded and folded in english.STOPWORDS - _FIRST_PERSON_PLURAL


_FIRST_PERSON_PROGRESSIVE = re.compile(r"\bI(?:\s+am|'m)\s+([a-z]+ing)\b")
_FIRST_PERSON_VERB = re.compile(
    r"\bI\s+(?:(?:[a-z]+ly|only|also|still|just|often|always|never|even|sometimes|mostly|mainly)\s+)?([a-z]+)\b"
)


def _speaker_in_third_person(quintuple: Quintuple, sentence: str, me: str) -> Quintuple:
    """Inflect a first-person verb for the speaker it now belongs to.

    "I play the guitar" is stored as (Dan, plays, guitar): the fact is shown as a
    sentence about Dan, and "Dan play guitar" reads as broken English.
    """
    if quintuple.subject != me:
        return quintuple
    first, _, rest = quintuple.predicate.partition(" ")
    if quintuple.negated or first in english.MODALS or first in {"does", "do"}:
        return quintuple  # "does not drink", "can swim": no -s to add
    progressive = _FIRST_PERSON_PROGRESSIVE.search(sentence)
    # "I don't drink coffee; I only drink tea": any first-person clause may state the verb.
    stated = first not in {"am", "was", "do"} and any(
        match.group(1) == first for match in _FIRST_PERSON_VERB.finditer(sentence)
    )
    if not stated and not (progressive and english.lemma(progressive.group(1)) == first):
        return quintuple
    if english.lemma(first) != first or english.is_inflected_verb(first):  # already past or inflected ("used")
        return quintuple
    inflected = english.third_person(first)
    return quintuple.model_copy(update={"predicate": f"{inflected} {rest}".strip()})
