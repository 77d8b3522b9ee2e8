"""Chinese rule-based triple reader (used by ``language.extract``).

jieba's part-of-speech tags are the backbone, corrected where they mislead:
relation verbs it calls nouns or adjectives (精通, 任教) are re-tagged, 用 is a verb
rather than a preposition, names like 小李 / 老王 are glued back together, times
(2023年, 去年, 从2020年起) become single tokens, and 不用 / 没有 are split into a
negation and a verb. A sentence is cut into clauses at commas; each clause is
read as

    [time] subject [adverbs] [negation] [在/于/对 + NP] verb-run [object] (verb-run [object])*

with a special path for the copula 是 (attribute and inverse-attribute forms) and
for naming with 叫 / 名叫 / 名字叫 (the name, not the kind, becomes the entity).
Verb-object words jieba glues (喝茶, 打篮球, 弹钢琴) are split when the rest is a
dictionary noun; activity verbs (跑步, 游泳) without an object become habits
(习惯) or, after 会/喜欢, the liked or mastered activity; dishes cut at their
cooking verb (番茄 + 炒 + 蛋) are glued back. A clause without a subject inherits
the previous clause's subject, or the speaker; after a wish (希望, 想要) nothing
that continues it is read.

More corrections: frequencies and clock times (每周六, 每个月, 七点) are adverbs,
never part of the subject, and not a ``valid_from`` either (that says since when);
每个人 is everyone, not the speaker; school and company names jieba cuts before their
head are glued (实验 + 小学, 杭州 + 第二 + 中学). Studying at a school is 就读于
(在复旦大学读书 -> (S, 就读于, 复旦大学)); at a city the verb stays (在杭州上学 ->
(S, 上学, 杭州)). An attribute noun straight after its owner is the predicate:
我老家在湖南长沙 / 我老家是长沙 -> (S, 老家, ...), and 我的工作是护士 ->
(S, 职业, 护士), since the verb 工作 would read "works at".

Jobs and places of work: 我在一家银行做会计 -> (S, 职业, 会计) and (S, 工作, 银行);
在浙大读研究生 -> (S, 就读于, 浙大); 在复旦大学教书 -> (S, 任教, 复旦大学); a person
在 a company (小林现在在京东) works there, (S, 工作, 京东), while 在北京 / 在复旦 stay 在.
A company's 总部 is the company's: 蓝鲸集团总部位于深圳 -> (蓝鲸集团, 总部位于, 深圳),
总部迁到了杭州 -> (蓝鲸集团, 总部迁到, 杭州). A changed attribute reads like 是:
星河科技的CEO换成了李明远 -> (星河科技, CEO, 李明远). A name before its kind is named
like one after it: 养了一只叫豆豆的柯基 -> (S, 柯基, 豆豆). Modals jieba glues to short
names are cut off (小美会 -> 小美 + 会, 老 + 陈爱 -> 老陈 + 爱, 小 + 美的 -> 小美 + 的).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from elephant_broker.language import types as _types
from elephant_broker.language.drafts import CLEAR, FALLBACK, HEDGED, IMPLIED_SUBJECT, Draft, TextContext
from elephant_broker.language.lexicon import mapping, words
from elephant_broker.language.occupations import is_occupation
from elephant_broker.language.segment import (
    has_cjk,
    is_kin_nickname,
    is_latin,
    is_punct,
    is_split_full_name,
    join_words,
    pos_tag,
    word_freq,
    word_tag,
)

# fmt: off
# The word lists live in language/data/zh.toml (``language.lexicon``): each table's doc says
# what its words are for, and its examples run as tests.
FIRST_PERSON = words("zh", "first_person")
THIRD_PERSON = words("zh", "third_person")
THING_PRONOUNS = words("zh", "thing_pronouns")
UNRESOLVABLE = words("zh", "unresolvable")
DEMONSTRATIVES = words("zh", "demonstratives")
NEGATIONS = words("zh", "negations")
HEDGES = words("zh", "hedge_adverbs")
HEDGE_VERBS = words("zh", "hedge_verbs")
# Adverbs and aspect words that say nothing about the relation itself.
ADVERBS = words("zh", "adverbs")
KEEP_ADVERBS = words("zh", "kept_adverbs")
ASPECT = words("zh", "aspect_markers")
PARTICLES = words("zh", "particles")
COPULAS = words("zh", "copulas")
COORDINATORS = words("zh", "coordinators")
CONTINUATIONS = words("zh", "continuations")
# Prepositions whose phrase may carry the object of an objectless verb (在清华大学任教).
LOCATIVE_PREPS = words("zh", "locative_prepositions")
# Verb complements glued to the verb when an object follows (住在, 搬到, 毕业于).
COMPLEMENTS = words("zh", "verb_complements")
# Words jieba tags as something else but that act as verbs here.
VERB_WORDS = words("zh", "verb_words")
ADVERBIAL_ADJECTIVES = words("zh", "adverbial_adjectives")
BARE_MEASURES = words("zh", "bare_measures")
# Verbs whose complement may be a bare activity verb (喜欢游泳, 会开车).
CATENATIVES = words("zh", "catenatives")
# Objectless verbs whose place/organisation comes in a 在-phrase (在X工作).
LOCATIVE_VERBS = words("zh", "locative_verbs")
# Verbs whose object comes in a 对-phrase (对尘螨过敏, 对摄影感兴趣).
PREPOSITION_FRAMES = words("zh", "preposition_frames")
# 把 (and its written form 将): the object put before the verb it is disposed of by.
DISPOSAL_MARKERS = words("zh", "disposal_markers")
# Result complements (卖掉, 修好, 弄丢): a thing-subject with one of them and no object is what was done to.
RESULT_COMPLEMENTS = words("zh", "result_complements")
# Nouns that stand in for a list the colon after them gives (买点东西：排骨、青菜).
PLACEHOLDER_NOUNS = words("zh", "placeholder_nouns")
# Reporting for duty (报到): at an employer, the start of work there.
DUTY_VERBS = words("zh", "duty_verbs")
# Motion verbs that, before a place and a verb of working or living there, say where (去华为上班).
MOTION_COVERBS = words("zh", "motion_coverbs")
PLACE_MODIFIERS = words("zh", "place_modifiers")
# Relation verbs clear enough to earn full confidence.
CLEAR_VERBS = words("zh", "clear_verbs")
# Generic classifier nouns stripped after a known name ("Python 脚本" -> "Python").
GENERIC_HEADS = words("zh", "generic_heads")
NOMINAL_FLAGS = words("zh", "nominal_tags")
VERB_FLAGS = words("zh", "verb_tags")
REQUEST_STARTS = tuple(sorted(words("zh", "request_starts")))
_CLAUSE_SPLIT = re.compile(r"[，,：:]")
_NAME_PREFIX = words("zh", "name_prefixes")
_MODALS = words("zh", "modal_verbs")
_CLAUSE_OPENERS = words("zh", "clause_openers")
_INDEFINITES = words("zh", "indefinites")
_NAME_TAIL_WORDS = words("zh", "name_tail_characters")
_VERB_MEASURE = re.compile(r"^(.+?)([一两几半][杯个只本份次趟下碗瓶件辆台])$")
# Transitive verb heads jieba glues to their object (喝茶, 打篮球, 弹钢琴, 养猫): split
# when the rest is a noun, so 我只喝茶 reads like 我只喝咖啡 does.
VO_HEADS = words("zh", "vo_heads")
VO_SINGLE_OBJECTS = words("zh", "vo_single_objects")
# Activities done without an object: 我每天早上跑步 -> (speaker, 习惯, 跑步).
ACTIVITY_VERBS = words("zh", "activity_verbs")
# Habit markers; a bare activity verb with one of these, or none at all, is a habit.
HABIT_WORDS = words("zh", "habit_words")
# Events stated with a time (我2015年结婚) and, for the symmetric ones, a partner
# (我和妻子在2015年结婚).
EVENT_VERBS = words("zh", "event_verbs")
SYMMETRIC_EVENTS = words("zh", "symmetric_events")
# Wishes are not facts: 我希望以后住在海边 / 我想要一台新电脑 state nothing yet.
WISH_VERBS = words("zh", "wish_verbs")
# Doing a job: 我在银行做会计 -> (S, 职业, 会计) and (S, 工作, 银行).
JOB_VERBS = words("zh", "job_verbs")
OCCUPATION = "职业"
WORKS_AT = "工作"
# Studying somewhere: 在复旦大学读书 -> (S, 就读于, 复旦大学) when the place is a school.
STUDY_VERBS = words("zh", "study_verbs")
STUDIES_AT = "就读于"
# 在浙大读研究生 / 在复旦念大学: a study verb with the degree as its object.
STUDY_HEADS = words("zh", "study_heads")
DEGREES = words("zh", "degrees")
# Teaching somewhere: 在复旦大学教书 -> (S, 任教, 复旦大学).
TEACH_VERBS = words("zh", "teach_verbs")
TEACHES_AT = "任教"
# Attribute nouns whose value follows 是 (我老家是长沙, 我生日是5月3日): the owner has
# the attribute, the value is its object; with 在 only those whose value is a place
# (我老家在湖南长沙 -> (S, 老家, 湖南长沙); 我公司在望京 only says where the company is).
ATTRIBUTE_NOUNS = words("zh", "attribute_nouns")
PLACE_ATTRIBUTES = words("zh", "place_attributes")
# 每周六 / 每个月 / 每天早上: how often, an adverb (jieba tags some of them as nouns or idioms).
_EVERY_TIME = re.compile(
    r"^每(?:个)?(?:天|日|晚|夜|周|星期|礼拜|月|年|季度|周末)"
    r"[一二三四五六日天末]?(?:早上|早晨|上午|中午|下午|傍晚|晚上)?$"
)
_CLOCK_TIME = re.compile(r"^[\d一二三四五六七八九十两]+点(?:半|钟|整|[\d一二三四五六七八九十]+分?)?$")
_COLON_CLOCK = re.compile(r"^\d{1,2}:\d{2}$")
# 去一次 / 看两遍: how many times, never the object.
_VERB_COUNT = re.compile(r"^[\d一二两三四五六七八九十几]+[次趟回遍下]$")
# Where a company's headquarters is, or moved: 蓝鲸集团总部位于深圳 / 总部迁到了杭州.
HEADQUARTERS = "总部"
_HQ_VERBS = mapping("zh", "headquarters_verbs")
# Verbs of change that give an attribute a new value: 星河科技的CEO换成了李明远.
CHANGE_VERBS = words("zh", "change_verbs")
# Naming verbs: 我的猫叫咪咪, 我女儿名叫李小雨, (一只猫，)名字叫旺财.
NAMING_VERBS = words("zh", "naming_verbs")
CALLING_MARKERS = words("zh", "calling_markers")
DEGREE_ADVERBS = words("zh", "degree_adverbs")
PERSON_ASPECT_NOUNS = words("zh", "person_aspect_nouns")
# A dish is one name: 番茄炒蛋, 青椒炒肉, 红烧肉 stays whole.
_COOKING = words("zh", "cooking_characters")
_INGREDIENT_ENDS = words("zh", "ingredient_endings")


# fmt: on
@dataclass
class Tok:
    """One token: the word and its (corrected) tag."""

    w: str
    f: str


_WRITTEN_DATE = re.compile(r"\d{2,4}年(?:\d{1,2}月)?(?:\d{1,2}[日号])?|\d{1,2}月\d{1,2}[日号]")


def _tag_around_dates(clause: str) -> list[tuple[str, str]]:
    """Tag a clause with jieba, each written date one time token.

    Left to jieba, a date's last character can join the next word: 2月26日出生 -> 26 + 日出 + 生.
    """
    tagged: list[tuple[str, str]] = []
    start = 0
    for date in _WRITTEN_DATE.finditer(clause):
        tagged += pos_tag(clause[start : date.start()])
        tagged.append((date.group(), "TIME"))
        start = date.end()
    return tagged + pos_tag(clause[start:])


_REFLEXIVES = words("zh", "reflexives")


def _merge_privative_modifiers(toks: list[Tok]) -> list[Tok]:
    """低脂 + 酸奶 -> 低脂酸奶: a two-character 无/低/零 word before a noun says which kind it is.

    jieba tags such words as verbs (低脂/v), which would make them part of the predicate (改吃低脂).
    """
    out: list[Tok] = []
    for tok in toks:
        if out and tok.f.startswith("n") and len(out[-1].w) == 2 and out[-1].w[0] in "无低零脱" and has_cjk(out[-1].w):
            modifier = out.pop()
            out.append(Tok(modifier.w + tok.w, tok.f))
        else:
            out.append(tok)
    return out


def _merge_occupation_suffix(toks: list[Tok]) -> list[Tok]:
    """快递 + 员 -> 快递员: a lone 员/师/工 that jieba cut off a word it does not know makes the word a person's job."""
    out: list[Tok] = []
    for tok in toks:
        if out and tok.w in {"员", "师", "工"} and tok.f in {"zg", "ng", "k", "n"} and out[-1].f in {"v", "vn", "n"}:
            job = out.pop()
            out.append(Tok(job.w + tok.w, "n"))
        else:
            out.append(tok)
    return out


def tag(clause: str) -> list[Tok]:
    """Tag a clause with jieba and apply the corrections described in the module docstring."""
    raw = [Tok(w, "x_latin" if f == "eng" or (f == "x" and is_latin(w)) else f) for w, f in _tag_around_dates(clause)]
    toks: list[Tok] = []
    for tok in raw:
        measure = _VERB_MEASURE.match(tok.w) if tok.f.startswith("v") else None
        vo_object = _vo_object(tok.w)
        if vo_object:
            toks += [Tok(tok.w[0], "v"), vo_object]  # 喝茶 -> 喝 + 茶
        elif tok.w[:2] in {"不太", "不大"} or tok.w[:3] == "不怎么":
            cut_at = 3 if tok.w[:3] == "不怎么" else 2
            toks.append(Tok(tok.w[:cut_at], "NEG"))  # 不太会 -> 不太 + 会
            if tok.w[cut_at:]:
                toks.append(Tok(tok.w[cut_at:], "v" if tok.w[cut_at:] in VERB_WORDS | _MODALS else tok.f))
        elif (
            len(tok.w) >= 2
            and tok.w[0] in LOCATIVE_PREPS
            and tok.f.startswith("n")
            and any(word in clause for word in sorted(PREPOSITION_FRAMES))
            and tok.w[0] not in "".join(t.w for t in raw if t is not tok)
        ):
            # 我女儿对虾过敏: jieba's 对虾 (a prawn) is 对 + 虾 before a verb that takes 对.
            toks += [Tok(tok.w[0], "p"), Tok(tok.w[1:], "n")]
        elif tok.w in {"每", "每个"}:
            toks.append(Tok(tok.w, "EVERY"))
        elif _EVERY_TIME.match(tok.w):
            toks.append(Tok(tok.w, "d"))  # 每周六: how often, not part of the subject
        elif _CLOCK_TIME.match(tok.w):
            toks.append(Tok(tok.w, "t"))  # 七点 / 8点半: a time of day, like 早上
        elif len(tok.w) >= 2 and tok.w.endswith("叫") and tok.f.startswith("v") and _is_noun_word(tok.w[:-1]):
            toks += [Tok(tok.w[:-1], "n"), Tok("叫", "v")]  # 猫叫咪咪 -> 猫 + 叫
        elif len(tok.w) >= 2 and tok.w[0] in "很挺超太真只也都还就才再又" and tok.w[1:] in VERB_WORDS:
            # jieba glues degree adverbs to some verbs: 很感兴趣 -> 很 + 感兴趣.
            toks += [Tok(tok.w[0], "d"), Tok(tok.w[1:], "v")]
        elif measure:
            # ... and numerals to verbs: 喝一杯 -> 喝 + 一杯.
            toks += [Tok(measure.group(1), "v"), Tok(measure.group(2), "m")]
        elif _glued_tail(tok):
            # jieba's HMM glues the next word to short names: 小李会 -> 小李 + 会, 王芳爱 -> 王芳 + 爱.
            toks += [Tok(tok.w[:2], "NAME"), Tok(tok.w[2], _tail_flag(tok.w[2]))]
        elif len(tok.w) == 2 and tok.w[0] == "我" and tok.w[1] in _NAME_TAIL_WORDS:
            # ... and to 我: 我会 is "I can", not jieba's noun "our association".
            toks += [Tok("我", "ME"), Tok(tok.w[1], _tail_flag(tok.w[1]))]
        elif len(tok.w) >= 2 and tok.w[-1] in ASPECT and tok.w[:-1] in VERB_WORDS and tok.f.startswith("v"):
            toks += [Tok(tok.w[:-1], "v"), Tok(tok.w[-1], "ASP")]  # 去过 -> 去 + 过
        elif tok.w in {"我家"}:
            toks.append(Tok("我", "ME"))
        elif tok.w in _REFLEXIVES and toks and (toks[-1].w in FIRST_PERSON or toks[-1].f in _PERSON_NAME_FLAGS):
            continue  # 我自己平时只喝绿茶, 小王自己开车: "oneself" only stresses who
        elif is_kin_nickname(tok.w):
            toks.append(Tok(tok.w, "NAME"))  # 军哥 / 梅姐: a name with a kin word, not 大哥 or 表姐
        elif tok.w.endswith("人") and len(tok.w) > 2 and _types.guess_type(tok.w[:-1]) == _types.PLACE:
            toks.append(Tok(tok.w, "n"))  # 杭州人 is a demonym, not a person's name.
        # Split 不用 / 没去 into negation + verb.
        elif len(tok.w) >= 2 and tok.w[0] in "不没" and tok.w != "没有" and tok.w[1:] in VERB_WORDS | _MODALS:
            toks += [Tok(tok.w[0], "NEG"), Tok(tok.w[1:], "v")]
        else:
            toks.append(tok)
    toks = _merge_latin(toks)
    toks = _merge_privative_modifiers(toks)
    toks = _merge_occupation_suffix(toks)
    toks = _merge_names(toks)
    toks = _merge_institutions(toks)
    toks = _merge_place_ends(toks)
    toks = _merge_times(toks)
    toks = _merge_dishes(toks)
    toks = _merge_every(toks)
    toks = _split_weekdays(toks)
    # 科技报 + 到: jieba's word ends where 报到 starts (我下周三去星澜科技报到).
    for k in range(len(toks) - 1):
        if toks[k].w.endswith("报") and len(toks[k].w) > 1 and toks[k + 1].w == "到":
            toks[k : k + 2] = [Tok(toks[k].w[:-1], "n"), Tok("报到", "v")]
    # 我哥 as one word (jieba takes it for a name): 我 + 哥哥.
    toks = [
        part
        for tok in toks
        for part in (
            [Tok(tok.w[0], "ME"), Tok(tok.w[1] * 2, "n")]
            if len(tok.w) == 2 and tok.w[0] in FIRST_PERSON and tok.w[1] * 2 in _types.PERSON_ROLES
            else [tok]
        )
    ]
    for k, tok in enumerate(toks):
        if len(tok.w) == 1 and k and toks[k - 1].w in FIRST_PERSON and tok.w * 2 in _types.PERSON_ROLES:
            tok.w, tok.f = tok.w * 2, "n"  # 我姐 is 我姐姐, 我哥 我哥哥: the kin word said once
            continue
        if tok.w in _types.PERSON_ROLES and tok.f.startswith("v"):
            tok.f = "n"  # 邻居: jieba's verb is the neighbour
            continue
        if k and toks[k - 1].w in JOB_VERBS | COPULAS and tok.f.startswith("v") and is_occupation(tok.w):
            tok.f = "n"  # 做会计: jieba's verb 会计 is the accountant here
            continue
        if tok.w in ACTIVITY_VERBS and tok.f not in {"NAME", "TIME"}:
            tok.f = "VERB"
            continue
        if tok.w in FIRST_PERSON:
            tok.f = "ME"
        elif tok.w in NEGATIONS:
            tok.f = "NEG"
        elif tok.w in HEDGES:
            tok.f = "HEDGE"
        elif tok.w in COPULAS:
            tok.f = "COP"
        elif tok.w in COORDINATORS:
            tok.f = "c"
        elif tok.w in VERB_WORDS and tok.f in {"vn", "n"} and len(tok.w) > 1:
            tok.f = "vn"  # 工作: a verb after a subject, a noun in 新工作; position decides.
        elif tok.w in VERB_WORDS and tok.f not in {"NAME", "TIME"}:
            tok.f = "VERB"
        elif tok.f == "x_latin" or is_latin(tok.w):
            tok.f = "x_latin" if tok.f not in {"nz", "nt", "TIME"} else tok.f
        elif tok.w in KEEP_ADVERBS:
            tok.f = "MOST"
        elif tok.w in ADVERBS:
            tok.f = "d"
        elif tok.f == "ad" and k + 1 < len(toks) and (toks[k + 1].f[:1] == "v" or toks[k + 1].f == "p"):
            tok.f = "d"  # 正式从阿里离职, 认真学: an adjective used as an adverb before a verb or preposition
        elif tok.w in BARE_MEASURES and k and toks[k - 1].f == "ASP" and k + 1 < len(toks):
            tok.f = "m"  # 换了部手机: a measure word without its 一 counts, it names nothing
        elif tok.w in ADVERBIAL_ADJECTIVES and k + 1 < len(toks) and toks[k + 1].f in {"v", "VERB"}:
            tok.f = "d"  # 早订了房间, 多吃蔬菜: an adjective right before a verb says how or when
        elif tok.w in ASPECT and tok.f in {"ul", "ug", "uz", "t", "u"}:
            tok.f = "ASP"
    return _chosen_as_said(toks)


def _chosen_as_said(toks: list[Tok]) -> list[Tok]:
    """我选的C1 is 我选的是C1: a verb's 的 before a name that ends the clause, with no copula, states it."""
    if (
        len(toks) >= 4
        and toks[-2].w == "的"
        and toks[-3].f in {"v", "VERB"}
        and toks[-1].f in {"x_latin", "NAME", "nz", "nt"}
        and not any(tok.f == "COP" for tok in toks)
    ):
        return [*toks[:-1], Tok("是", "COP"), toks[-1]]
    return toks


def _is_noun_word(word: str) -> bool:
    """Whether jieba reads ``word`` alone as one noun (or a gazetteer name)."""
    if _types.gazetteer_type(word):
        return True
    tag = word_tag(word)
    return tag is not None and tag[:1] == "n" and tag not in {"nr", "nrfg", "nrt"}


def _vo_object(word: str) -> Tok | None:
    """The object of a glued verb-object compound (喝茶 -> 茶), or None."""
    if len(word) < 2 or word[0] not in VO_HEADS or word in VERB_WORDS or word in ACTIVITY_VERBS:
        return None
    rest = word[1:]
    if len(rest) == 1:
        return Tok(rest, "n") if rest in VO_SINGLE_OBJECTS and word_freq(word) < 2000 else None
    # 打篮球 splits; 学生会 / 打火机 / 写字楼 are words of their own (their rest is no word).
    rest_freq = word_freq(rest)
    if rest_freq >= 50 and word_freq(word) * 5 < rest_freq and _is_noun_word(rest):
        return Tok(rest, "n")
    return None


def _merge_every(toks: list[Tok]) -> list[Tok]:
    """每 + 周末 / 个月 -> one frequency adverb (每周末), which says how often, not who."""
    out: list[Tok] = []
    for tok in toks:
        if out and out[-1].f == "EVERY" and tok.w in {"人", "人都"}:
            # 每个人: everyone, not the speaker; 我们每个人: each of us, the subject before it.
            after_subject = len(out) >= 2 and (out[-2].f in {"r", "ME", "NAME", "nr"} or out[-2].f.startswith("n"))
            out[-1] = Tok(out[-1].w + "人", "d" if after_subject else "r")
            if tok.w == "人都":
                out.append(Tok("都", "d"))
            continue
        if out and out[-1].f == "EVERY" and tok.f in {"t", "m", "q", "n", "TIME", "zg"} and len(tok.w) <= 3:
            out[-1] = Tok(out[-1].w + tok.w, "d")
            continue
        out.append(tok)
    for tok in out:
        if tok.f == "EVERY":
            tok.f = "d"
    return out


_WEEK_WORDS = words("zh", "week_words")


def _split_weekdays(toks: list[Tok]) -> list[Tok]:
    """每周 + 一开 + 例会 -> 每周一 + 开 + 例会: jieba glues the weekday to the verb after it."""
    out: list[Tok] = []
    for tok in toks:
        if (
            out
            and out[-1].w in _WEEK_WORDS
            and len(tok.w) >= 2
            and tok.w[0] in "一二三四五六日天"
            and tok.w[1:] in VERB_WORDS
        ):
            out[-1] = Tok(out[-1].w + tok.w[0], "d" if out[-1].w.startswith("每") else "t")
            out.append(Tok(tok.w[1:], "v"))
            continue
        out.append(tok)
    return out


def _foodish(word: str) -> bool:
    return word in _types.FOODS or (has_cjk(word) and word[-1] in _INGREDIENT_ENDS)


def _merge_dishes(toks: list[Tok]) -> list[Tok]:
    """Glue a dish name jieba cuts at its cooking verb: 番茄 + 炒 + 蛋 -> 番茄炒蛋."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt and nxt.w[:1] in _COOKING and tok.f.startswith("n") and _foodish(tok.w):
            if len(nxt.w) == 1 and i + 2 < len(toks) and toks[i + 2].f.startswith("n") and _foodish(toks[i + 2].w):
                out.append(Tok(tok.w + nxt.w + toks[i + 2].w, "n"))  # 番茄 + 炒 + 鸡蛋
                i += 3
                continue
            if len(nxt.w) >= 2 and _foodish(nxt.w[1:]):
                out.append(Tok(tok.w + nxt.w, "n"))  # 番茄 + 炒蛋
                i += 2
                continue
        out.append(tok)
        i += 1
    return out


def _merge_latin(toks: list[Tok]) -> list[Tok]:
    """Glue latin pieces jieba splits at a joiner: GPT + - + 4 -> GPT-4, li.ming@qq.com, zhou_piano88."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if (
            out
            and tok.w in {"-", "_", ".", "@", "+"}
            and i + 1 < len(toks)
            and out[-1].w[-1:].isascii()
            and out[-1].w[-1:].isalnum()
            and is_latin(toks[i + 1].w)
        ):
            out[-1] = Tok(out[-1].w + tok.w + toks[i + 1].w, out[-1].f)
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def _glued_tail(tok: Tok) -> bool:
    """A three-character name ending in a modal, verb or 的 that jieba glued on (小美会, 王芳爱)."""
    if len(tok.w) != 3 or tok.w[2] not in _NAME_TAIL_WORDS | {"的"}:
        return False
    if tok.w[0] in _NAME_PREFIX:
        return tok.w[1] in _types.SURNAMES_ZH or tok.f in {"nr", "nrfg"}
    return tok.f in {"nr", "nrfg"} and tok.w[0] in _types.SURNAMES_ZH


def _tail_flag(word: str) -> str:
    if word == "的":
        return "uj"
    if word in VERB_WORDS | _MODALS:
        return "v"
    return "p" if word in LOCATIVE_PREPS or word in {"把", "被"} else "d"


def _merge_names(toks: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        after = toks[i + 2] if i + 2 < len(toks) else None
        # 小 + 李 -> 小李; 小 + 美 -> 小美 (jieba: 美/j); 王 + 老师 -> 王老师.
        if (
            nxt
            and tok.w in _NAME_PREFIX
            and len(nxt.w) == 1
            and (nxt.w in _types.SURNAMES_ZH or nxt.f in {"j", "nr", "nrfg"})
        ):
            out.append(Tok(tok.w + nxt.w, "NAME"))
            i += 2
            continue
        # 老 + 陈爱 -> 老陈 + 爱; 小 + 美的 -> 小美 + 的; 小 + 红会 + 弹 -> 小红 + 会 + 弹.
        if (
            nxt
            and tok.w in _NAME_PREFIX
            and len(nxt.w) == 2
            and nxt.w[1] in _NAME_TAIL_WORDS | {"的"}
            and (
                nxt.f in {"nr", "nrfg"}
                or nxt.w[0] in _types.SURNAMES_ZH
                or nxt.f in {"n", "j"}
                and after is not None
                and (after.f.startswith("v") or after.w in VERB_WORDS)
            )
        ):
            out += [Tok(tok.w + nxt.w[0], "NAME"), Tok(nxt.w[1], _tail_flag(nxt.w[1]))]
            i += 2
            continue
        if nxt and len(tok.w) == 1 and tok.w in _types.SURNAMES_ZH and nxt.w in _types.PERSON_TITLES_ZH:
            out.append(Tok(tok.w + nxt.w, "NAME"))
            i += 2
            continue
        if nxt is not None and _given_name_after_surname(tok, nxt, after, out[-1] if out else None):
            out.append(Tok(tok.w + nxt.w, "NAME"))  # 邹 + 海涛 + 住在: a name jieba cut in two
            i += 2
            continue
        if tok.f in {"nr", "nrfg"} or _types.looks_like_zh_person(tok.w) and tok.f not in {"ns", "nt"}:
            if tok.w not in _types.FOODS and _types.gazetteer_type(tok.w) is None and not _ends_like_a_place(tok.w):
                tok = Tok(tok.w, "NAME")
        if tok.f == "NAME" and i == 0 and len(toks) == 2 and _third_name_character(tok, toks[1]):
            # 谢礼立，男，汉族: jieba cuts a clause that is only a name into 谢礼 + 立.
            out.append(Tok(tok.w + toks[1].w, "NAME"))
            break
        if tok.f == "NAME" and out and _surname_alone(out[-1]) and len(tok.w) <= 2:
            out[-1] = Tok(out[-1].w + tok.w, "NAME")  # 唐 + 秀英: one name jieba tagged in two
            i += 1
            continue
        if (
            len(out) >= 2
            and _surname_alone(out[-1])
            and out[-2].w in _types.PERSON_ROLES
            and tok.f in {"nz", "n", "ng", "j", "a", "nr", "ns"}
            and len(tok.w) <= 2
            and tok.w not in _types.PERSON_ROLES
        ):
            out[-1] = Tok(out[-1].w + tok.w, "NAME")  # 我表哥 + 李 + 振华: a role names the person after it
            i += 1
            continue
        out.append(tok)
        i += 1
    return out


def _given_name_after_surname(tok: Tok, nxt: Tok, after: Tok | None, before: Tok | None) -> bool:
    """Whether a lone surname and the one or two characters after it are a person's name.

    jieba cuts names it does not know into a surname and a word (邹 + 海涛, 钱 + 秀英). Read
    as a name only where a subject stands — at the start of a clause, after a role (我奶奶) or
    a coordinator (和) — and before its verb or preposition (住, 在, 对), so 王府井 stays a word.
    """
    if after is None or len(tok.w) != 1 or tok.w not in _types.SURNAMES_ZH:
        return False
    if tok.f.startswith("v") or not 1 <= len(nxt.w) <= 2 or not is_split_full_name(tok.w + nxt.w):
        return False
    at_subject = before is None or is_punct(before.w) or before.w in _types.PERSON_ROLES | COORDINATORS
    return at_subject and (after.f.startswith("v") or after.f in {"p", "d"} or after.w in VERB_WORDS)


_ADMINISTRATIVE_ENDS = ("省", "市", "县", "区", "村", "路", "街", "镇", "乡")
"""Place endings no given name has (梧桐村, 石坝街); 山, 国, 城 do end names (周振国)."""


def _ends_like_a_place(word: str) -> bool:
    """Whether a word jieba tags a person's name ends as a place's name does (梧桐村/nr)."""
    return len(word) >= 3 and word.endswith(_ADMINISTRATIVE_ENDS)


def _surname_alone(tok: Tok) -> bool:
    return tok.f == "NAME" and len(tok.w) == 1 and tok.w in _types.SURNAMES_ZH


def _third_name_character(name: Tok, rest: Tok) -> bool:
    """Whether ``rest`` ends a surname-initial two-character name cut short (a clause of nothing else)."""
    return (
        len(name.w) == 2
        and name.w[0] in _types.SURNAMES_ZH
        and len(rest.w) == 1
        and has_cjk(rest.w)
        and rest.w not in _NAME_TAIL_WORDS | ASPECT | PARTICLES
    )


_INSTITUTION_HEADS = words("zh", "institution_heads")
_ORDINAL = re.compile(r"^第[一二三四五六七八九十百\d]+$")


def _institution_modifier(tok: Tok) -> bool:
    if _ORDINAL.match(tok.w):
        return True
    return (
        tok.f in {"n", "vn", "nz", "ns", "j", "nt"}
        and tok.w not in _types.PERSON_ROLES
        and tok.w not in ATTRIBUTE_NOUNS
        and tok.w not in _INSTITUTION_HEADS
        and not is_latin(tok.w)
    )


def _merge_institutions(toks: list[Tok]) -> list[Tok]:
    """Glue a school or company name jieba cuts before its head: 实验 + 小学, 第一 + 中学, 杭州 + 第二中学.

    A role or attribute noun before the head is an owner, not a name (我儿子学校).
    """
    out: list[Tok] = []
    for tok in toks:
        if tok.w in _INSTITUTION_HEADS and out and _institution_modifier(out[-1]):
            name = out.pop().w + tok.w
            if _ORDINAL.match(name[: -len(tok.w)]) and out and out[-1].f in {"ns", "nz", "j"}:
                name = out.pop().w + name  # 杭州 + 第二中学
            out.append(Tok(name, "nt"))
            continue
        out.append(tok)
    return out


def _merge_place_ends(toks: list[Tok]) -> list[Tok]:
    """Glue an administrative ending jieba cuts off a place's name: 梧桐 + 村, 江口 + 镇 (a place, ns).

    Only after a two-character noun or name that is no role or attribute (我们村 is the speaker's village).
    """
    out: list[Tok] = []
    for tok in toks:
        if (
            tok.w in _ADMINISTRATIVE_ENDS
            and out
            and len(out[-1].w) == 2
            and has_cjk(out[-1].w)
            and out[-1].f in {"n", "ns", "nr", "nz", "j", "NAME"}
            and out[-1].w not in _types.PERSON_ROLES
            and out[-1].w not in ATTRIBUTE_NOUNS
        ):
            out.append(Tok(out.pop().w + tok.w, "ns"))
            continue
        out.append(tok)
    return out


_TIME_TOKENS = 8


def _merge_times(toks: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        # A full date is six tokens (1938 年 3 月 10 日), with a time of day more.
        for j in range(min(len(toks), i + _TIME_TOKENS), i, -1):
            text = "".join(t.w for t in toks[i:j])
            if _types.is_time(text) and not (j - i == 1 and toks[i].f in {"m"} and not text.isdigit()):
                out.append(Tok(text, "TIME"))
                i = j
                break
        else:
            out.append(toks[i])
            i += 1
    return out


def _is_nominal(tok: Tok) -> bool:
    return tok.f in NOMINAL_FLAGS or tok.f.startswith("n")


def _is_verb(tok: Tok) -> bool:
    return tok.f in VERB_FLAGS or tok.f == "COP"


_PERSON_HEADS = frozenset({"NAME", "nr", "nrfg", "nrt", "ME", "r"})
"""Heads of a noun phrase that names someone (张伟, 他): such a clause is a new subject."""


def _is_name_like(tok: Tok) -> bool:
    return tok.f in {"NAME", "nr", "nrfg", "ns", "nt", "nz", "x_latin", "ME", "n", "nrt", "j", "r", "l"}


# --- names -------------------------------------------------------------------------------


def _surface(toks: list[Tok], ctx: TextContext) -> str:
    words = [ctx.me if t.f == "ME" else t.w for t in toks]
    return join_words(words)


def _resolve_single(tok: Tok, ctx: TextContext) -> str | None:
    if tok.f == "ME":
        return ctx.me
    if tok.w in THIRD_PERSON:
        return ctx.last_person
    if tok.w in UNRESOLVABLE:
        return None
    return tok.w


def _strip_np(toks: list[Tok]) -> list[Tok]:
    """Drop leading numerals/classifiers/demonstratives and trailing particles."""
    toks = list(toks)
    while toks and (
        toks[0].w in DEMONSTRATIVES
        or toks[0].f in {"m", "q", "mq", "uj", "d", "t", "TIME"}
        or toks[0].w in {"的", "一个", "一名", "一位", "一只", "一段", "一些", "一款"}
    ):
        if toks[0].f in {"m", "TIME", "t"} and len(toks) == 1:
            break
        toks = toks[1:]
    # 教我们数学: a leading pronoun before another noun is the indirect object.
    if len(toks) >= 2 and toks[0].f in {"r", "ME"} and toks[1].w != "的" and _is_nominal(toks[1]):
        toks = toks[1:]
    while toks and (toks[-1].w in PARTICLES or toks[-1].w == "的" or toks[-1].f in {"ASP", "y", "uj", "c"}):
        toks = toks[:-1]
    # AWS上 / 公司里: a trailing locative particle after a name is not part of it.
    if len(toks) >= 2 and toks[-1].w in {"上", "里", "中", "内", "下", "里面", "上面"}:
        toks = toks[:-1]
    # "Python 脚本" -> "Python": the classifier only says what kind of thing Python is.
    if len(toks) >= 2 and toks[-1].w in GENERIC_HEADS:
        head = join_words([t.w for t in toks[:-1]])
        if all(is_latin(t.w) for t in toks[:-1]) or _types.gazetteer_type(head):
            toks = toks[:-1]
    return toks


def _split_coordination(toks: list[Tok]) -> list[list[Tok]]:
    parts: list[list[Tok]] = [[]]
    for tok in toks:
        if tok.f == "c" and tok.w in COORDINATORS:
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]


def _object_names(toks: list[Tok], ctx: TextContext) -> list[tuple[str, str | None]]:
    names: list[tuple[str, str | None]] = []
    for part in _split_coordination(toks):
        part = _proper_head(_strip_np(part))
        if not part:
            continue
        if len(part) == 1 and _VERB_COUNT.match(part[0].w):
            continue
        if len(part) == 1:
            resolved = _resolve_single(part[0], ctx)
            if resolved:
                names.append((resolved, part[0].f))
            continue
        if any(t.w in UNRESOLVABLE for t in part[:1]):
            continue
        names.append((_surface(part, ctx), None))
    return names


_PLACE_OR_BODY_FLAGS = frozenset({"ns", "nt"})


def _proper_head(part: list[Tok]) -> list[Tok]:
    """An object phrase without the description before its place or organisation's name.

    毕业于中国八大美院之一的西安美术学院 -> 西安美术学院, 来到风景秀丽的杭州 -> 杭州: what
    comes before 的 describes the named place or body; it is no part of its name. A person
    before 的 owns what follows, and stays.
    """
    last_de = max((k for k, tok in enumerate(part) if tok.w == "的"), default=-1)
    head = part[last_de + 1 :]
    if last_de < 1 or not head or head[0].f not in _PLACE_OR_BODY_FLAGS:
        return part
    if any(tok.f in _PERSON_HEADS | _PERSON_NAME_FLAGS for tok in part[:last_de]):
        return part  # 司马师的城西军营: an owner, whose the camp is
    return head if all(_is_nominal(tok) and tok.f != "r" for tok in head) else part


@dataclass
class Subject:
    """A resolved subject and the link facts its possessive form implies."""

    name: str
    pos: str | None
    extras: list[Draft]
    type: str | None = None
    # For "owner + attribute noun" subjects (我老家): whose attribute, and which.
    owner: str | None = None
    attribute: str | None = None
    owner_pos: str | None = None


_EDGE_FLAGS = frozenset({"c", "t", "TIME", "ASP", "u", "uj", "ul", "uz", "ug", "uv", "ud", "y", "e"})
"""Tags of words that never open or close a name: conjunctions, time words, aspect, particles.

A preposition closes none either (陈浩民在); one that opens the phrase makes it an adverbial
with the subject left out (在浙江卫视), which ``language.acceptance`` reads as such.
"""
_PROPER_FLAGS = frozenset({"NAME", "nr", "nrfg", "nrt", "ns", "nt", "nz", "x_latin"})
_PERSONAL_PRONOUNS = FIRST_PERSON | THIRD_PERSON | UNRESOLVABLE | {"自己"}


def _without_function_edges(toks: list[Tok]) -> list[Tok]:
    """A noun phrase without the function words at its edges (而陈坤 -> 陈坤, 元奎此次 -> 元奎).

    Cut by part of speech: a conjunction, time word or particle opens or closes no name;
    nor does a set phrase before a proper name (按理说汉唐), nor a pronoun that is no person
    after a name (此次). What opens a phrase is cut only when a name or person is left (当代 +
    集团 is a name of its own), and the phrase is kept whole when no nominal word of two
    characters or more would be left: then jieba has cut a name into pieces (张 + 地).
    """
    start, end = 0, len(toks)
    while start < end and (
        toks[start].f in _EDGE_FLAGS or _set_phrase_before_name(toks, start) or _number_before_name(toks, start)
    ):
        start += 1
    if not any(tok.f in _PROPER_FLAGS | {"ME", "r"} for tok in toks[start:]):
        start = 0
    while end > start and (
        toks[end - 1].f in _EDGE_FLAGS | {"p"}
        or (toks[end - 1].f == "r" and end - 1 > start and toks[end - 1].w not in _PERSONAL_PRONOUNS)
    ):
        end -= 1
    kept = toks[start:end]
    if not any((_is_nominal(tok) or tok.f == "ME") and len(tok.w) >= 2 for tok in kept):
        return toks
    return kept


def _set_phrase_before_name(toks: list[Tok], k: int) -> bool:
    """Whether ``toks[k]`` is a set phrase (jieba's l) right before a proper name: 按理说 + 汉唐."""
    return toks[k].f == "l" and k + 1 < len(toks) and toks[k + 1].f in _PROPER_FLAGS


_NUMBERED_NAME_FLAGS = frozenset({"NAME", "nr", "nrfg", "ns", "nt"})


def _number_before_name(toks: list[Tok], k: int) -> bool:
    """Whether ``toks[k]`` is a bare number glued before a person's, place's or body's name: 536 + 成都.

    A list's or a page's number, not part of the name; a brand that opens with a number goes
    on in a common word or abbreviation (58 + 同城, 360 + 公司).
    """
    return toks[k].w.isdigit() and k + 1 < len(toks) and toks[k + 1].f in _NUMBERED_NAME_FLAGS


def _split_owner(toks: list[Tok]) -> tuple[list[Tok], list[Tok], bool] | None:
    """Split "A的B" (or 我妈妈) into owner A and the rest; None when there is no owner.

    Returns (owner, rest, direct) where ``direct`` says the owner is followed straight
    by 的 (张三的导师) rather than by modifiers (我最爱的水果).
    """
    if len(toks) < 2:
        return None
    if "的" in [t.w for t in toks]:
        k = [t.w for t in toks].index("的")
        owner = toks[:k]
        if _kin_of(owner):
            return owner, toks[k + 1 :], True  # 我姐姐的丈夫: the sister is the owner, whole
        if owner and toks[0].w.isdigit():
            return None  # 87红楼梦首播的…: a number (a list's, a page's) owns nothing
        if owner and all(_is_name_like(t) and t.f not in {"a", "m"} for t in owner):
            return owner, toks[k + 1 :], True
        if any(_is_verb_like(t) and owner[i].f[:1] in {"n", "e", "x"} for i, t in enumerate(owner[1:])):
            # 韩国公司生产的镜片, 李世农所在的牢房: a noun then its verb is a relative clause, no owner
            # (我最爱的水果 is the speaker's favourite: an adverb before the verb)
            return None
        if _is_name_like(toks[0]) and toks[0].f in {"ME", "NAME", "nr", "nrfg", "r", "x_latin", "nz", "nt", "ns"}:
            return toks[:1], toks[1:], False
        return None
    # 我妈妈 / 我朋友 / 我老家: a pronoun or name straight before a role or attribute noun is a possessive.
    if toks[0].f in {"ME", "r", "NAME", "nr"} and toks[1].w in _types.PERSON_ROLES:
        return toks[:1], toks[1:], True
    # ... but 我们公司 is "our company", a name of its own, so only one person owns an attribute.
    if (
        (toks[0].f in {"ME", "NAME", "nr"} or toks[0].w in THIRD_PERSON)
        and len(toks) == 2
        and toks[1].w in ATTRIBUTE_NOUNS
    ):
        return toks[:1], toks[1:], True
    return None


_PERSON_NAME_FLAGS = frozenset({"NAME", "nr", "nrfg", "nrt"})
_NUMERAL_FLAGS = frozenset({"m", "mq"})


def _described_person(toks: list[Tok]) -> Tok | None:
    """The person's name at the end of a noun phrase that only describes them, else None.

    96岁的资深演员侯焕玲 (an age), 时任扬州刺史的文钦 (a post held then), 三子胡观 (a rank
    among siblings), 女歌手林悦 (an occupation): the words before the name say who the person
    is, they own nothing. A person before the name (我的朋友小张, 张三李四) keeps the owner reading;
    a one-character "name" is jieba's guess inside a longer word (合肥群鑫投资).
    """
    if len(toks) < 2 or toks[-1].f not in _PERSON_NAME_FLAGS or len(toks[-1].w) < 2:
        return None
    modifiers = toks[:-1]
    if any(tok.f in _PERSON_HEADS | _PERSON_NAME_FLAGS or tok.f == "c" for tok in modifiers):
        return None
    describes = any(
        tok.w == "的" or tok.f in _NUMERAL_FLAGS or tok.w.isdigit() or is_occupation(tok.w) for tok in modifiers
    )
    return toks[-1] if describes else None


def _kin_of(owner: list[Tok]) -> bool:
    """Whether an owner is itself "someone's role" without 的 (我姐姐, 张三妈妈): owned whole."""
    return len(owner) == 2 and owner[0].f in {"ME", "NAME", "nr", "nrfg"} and owner[1].w in _types.PERSON_ROLES


def _kin_link(owner: list[Tok], ctx: TextContext) -> list[Draft]:
    """The link a possessive owner states: 我姐姐 -> (我, 姐姐, 我姐姐); nothing for any other owner."""
    if not _kin_of(owner):
        return []
    person = _resolve_single(owner[0], ctx)
    if person is None:
        return []
    return [
        Draft(
            person,
            owner[1].w,
            _surface(owner, ctx),
            confidence=CLEAR,
            object_type=_types.PERSON,
            subject_pos=_pos(owner[:1]),
            subject_type=_types.PERSON if owner[0].f == "ME" else None,
        )
    ]


def _pos(toks: list[Tok]) -> str | None:
    """The jieba-style tag of a one-token name (our NAME tag reads as nr)."""
    if len(toks) != 1:
        return None
    return "nr" if toks[0].f == "NAME" else toks[0].f


def _owner_name(owner: list[Tok], ctx: TextContext) -> str | None:
    if len(owner) == 1:
        return _resolve_single(owner[0], ctx)
    return _surface(owner, ctx)


def _subject(toks: list[Tok], ctx: TextContext) -> list[Subject]:
    toks = [t for t in toks if t.f not in {"d", "MOST"}]
    while toks and (toks[0].w in DEMONSTRATIVES):
        toks = toks[1:]
    toks = _without_function_edges(toks)
    if not toks or all(tok.f in _NUMERAL_FLAGS or tok.w.isdigit() for tok in toks):
        return []  # 3、朱茵: a list's number is nobody
    # 我和小王都喜欢火锅: one subject per coordinated name (only without 的). Only a
    # coordinator splits, so each part is read once, without one (a conjunction that
    # does not coordinate, 而 or 因为, used to send the same tokens back here forever).
    if any(t.f == "c" and t.w in COORDINATORS for t in toks):
        subjects: list[Subject] = []
        parts = _split_coordination(toks)
        me_too = any(len(part) == 1 and part[0].f == "ME" for part in parts)
        for part in parts:
            if me_too and len(part) == 1 and part[0].w in _types.PERSON_ROLES:
                # 我和妻子: the bare role is the speaker's (我妻子).
                part = [Tok("我", "ME"), part[0]]
            for subject in _subject(part, ctx):
                subjects.append(subject)
                # 陈明和他的妻子: 他 is the name just before.
                if subject.name != ctx.me and (subject.type == _types.PERSON or subject.pos in {"NAME", "nr", "nrfg"}):
                    ctx.last_person = subject.name
        return subjects
    if len(toks) >= 2 and toks[-1].w in PERSON_ASPECT_NOUNS and toks[-2].f in _PERSON_NAME_FLAGS:
        toks = toks[:-1]  # 孟凡宇人特别靠谱: said of 孟凡宇 as a person
    words = [t.w for t in toks]
    # Appositive: 我的朋友小张 -> 小张, plus (我, 朋友, 小张).
    if len(toks) >= 2 and toks[-1].f in {"NAME", "nr", "nrfg"} and toks[-2].w in _types.PERSON_ROLES:
        name = toks[-1].w
        extras: list[Draft] = []
        split = _split_owner(toks[:-1])
        if split:
            owner = _owner_name(split[0], ctx)
            if owner:
                extras.append(Draft(owner, toks[-2].w, name, confidence=CLEAR, object_type=_types.PERSON))
        return [Subject(name, "NAME", extras, _types.PERSON)]
    described = _described_person(toks)
    if described is not None:
        # 96岁的资深演员侯焕玲 / 时任扬州刺史的文钦: the age or post describes the person, it owns nothing.
        return [Subject(described.w, "NAME", [])]
    split = _split_owner(toks)
    if split and split[1]:
        owner_toks, rest, _direct = split
        owner = _owner_name(owner_toks, ctx)
        if owner is None:
            return []
        rest = [t for t in rest if t.w != "的"] if _direct else rest
        head = _surface(rest, ctx)
        name = join_words([owner, head])
        owner_is_person = (
            owner == ctx.me
            or _pos(owner_toks) in {"nr", "nrfg"}
            or owner_toks[0].w in THIRD_PERSON | {"我们", "咱们", "他们", "她们"}
        )
        # A person's role word names the link (我的朋友 -> 朋友); a person otherwise
        # has the thing (王强的公司 -> 有); a thing contains its part (n8n的节点 -> 包含).
        link = head if head in _types.PERSON_ROLES else ("有" if owner_is_person else "包含")
        link_type = _types.PERSON if head in _types.PERSON_ROLES else None
        extras = [
            *_kin_link(owner_toks, ctx),
            Draft(
                owner,
                link,
                name,
                confidence=CLEAR,
                object_type=link_type,
                subject_pos=_pos(owner_toks),
                subject_type=_types.PERSON if owner_is_person else None,
            ),
        ]
        attribute = head if head in ATTRIBUTE_NOUNS and not link_type else None
        return [Subject(name, None, extras, link_type, owner, attribute, _pos(owner_toks))]
    if len(toks) == 1:
        resolved = _resolve_single(toks[0], ctx)
        if resolved is None:
            return []
        is_me = toks[0].f == "ME" or resolved == ctx.me
        return [Subject(resolved, toks[0].f, [], _types.PERSON if is_me or toks[0].w in THIRD_PERSON else None)]
    if words[0] in UNRESOLVABLE:
        return []
    return [Subject(_surface(toks, ctx), None, [])]


# --- clause reading -----------------------------------------------------------------------


@dataclass
class State:
    """What carries from one clause to the next inside a sentence."""

    subjects: list[Subject]
    valid_from: str | None
    hedged: bool
    implied: bool = False
    blocked: bool = False
    # The last thing introduced as an object (养了一只猫), which a following 叫咪咪 names.
    nameable: Draft | None = None
    renamed: bool = False
    # A wish (希望, 想要) was stated: the clauses that continue it state nothing either.
    irrealis: bool = False
    # The clause being read: a date stated in an earlier one is no date of this one's event.
    clause: str = ""


def _take_subject(toks: list[Tok], i: int) -> int:
    """Return the end index of the subject noun phrase starting at ``i``."""
    j = i
    n = len(toks)
    while j < n:
        tok = toks[j]
        if tok.w == "的" and j > i and j + 1 < n and _is_nominal(toks[j + 1]):
            j += 1
            continue
        if tok.f == "c" and j > i and j + 1 < n and (_is_name_like(toks[j + 1]) or toks[j + 1].f == "ME"):
            j += 1
            continue
        if tok.f == "vn" and j > i and toks[j - 1].f in {"r", "ME", "NAME", "nr", "x_latin", "nz", "nt", "ns"}:
            break  # 他研究人工智能: a noun-verb right after a name is the verb.
        if tok.f == "vn" and j > i and (j + 1 >= n or toks[j + 1].w in COMPLEMENTS or toks[j + 1].f == "ASP"):
            break  # 数据库部署在AWS上: a noun-verb before 在/了 is the verb.
        if tok.f == "vn" and j > i and tok.w in VERB_WORDS and j + 1 < n and toks[j + 1].f == "VERB":
            break  # 我表姐跳槽去了京东: a known verb before another verb is the verb, not part of the subject
        if tok.f == "a" and not (j + 1 < n and (_is_nominal(toks[j + 1]) or toks[j + 1].w == "的")):
            break
        if _is_nominal(tok) and tok.f != "TIME":
            j += 1
            continue
        break
    return j


def _take_object(toks: list[Tok], i: int) -> int:
    j = i
    n = len(toks)
    while j < n:
        tok = toks[j]
        nxt = toks[j + 1] if j + 1 < n else None
        if tok.w == "的" and j > i and nxt is not None and _is_nominal(nxt):
            j += 1
            continue
        if tok.f == "c" and j > i and nxt is not None and (_is_nominal(nxt) or nxt.f == "ME"):
            j += 1
            continue
        if tok.f == "a" and j > i and nxt is not None and _is_verb(nxt):
            break
        if tok.f in {"TIME", "t"}:
            # 用了五年的Java: a duration modifying the object; 打算明年去: an adverbial.
            if nxt is not None and nxt.w == "的" or j == i and (nxt is None or nxt.w in PARTICLES):
                j += 1
                continue
            break
        if (
            tok.f == "vn"
            and j > i
            and toks[j - 1].f in {"ns", "nt", "NAME", "nr", "x_latin", "nz"}
            and (nxt is None or not _is_nominal(nxt) or tok.w in VERB_WORDS and toks[j - 1].f == "x_latin")
        ):
            # 去日本旅游: the trailing noun-verb is a purpose, not part of the place;
            # 用 VS Code 编辑代码: a second verb with its own object.
            break
        if _is_nominal(tok) and tok.f != "r" or tok.f == "ME" or (tok.f == "r" and j == i):
            j += 1
            continue
        break
    return j


def _confidence(verbs: list[str], state: State, clear: bool = False) -> float:
    core = "".join(v for v in verbs if v != "最")
    conf = CLEAR if clear or core in CLEAR_VERBS or any(v in CLEAR_VERBS for v in verbs) else FALLBACK
    if state.implied:
        conf = min(conf, IMPLIED_SUBJECT)
    if state.hedged:
        conf = min(conf, HEDGED)
    return conf


def _emit(
    state: State, predicate: str, obj_toks: list[Tok], neg: bool, conf: float, ctx: TextContext, valid_from: str | None
) -> list[Draft]:
    drafts: list[Draft] = []
    for subject in state.subjects:
        for name, pos in _object_names(obj_toks, ctx):
            if name == "自己":
                name, pos = subject.name, subject.pos  # 自己 is the clause's subject
            draft = Draft(
                subject.name,
                predicate,
                name,
                negated=neg,
                confidence=conf,
                valid_from=valid_from,
                subject_pos=subject.pos,
                object_pos=pos,
                subject_type=subject.type,
            )
            if name == ctx.me:
                draft.object_type = _types.PERSON
            elif pos == "ACT":
                draft.object_type = _types.ACTIVITY
            drafts.append(draft)
            if pos not in {"NAME", "nr", "nrfg", "ME", "ACT", "TIME", "x_latin"} and len(obj_toks) <= 3:
                state.nameable = draft
                state.renamed = False
        if drafts:
            # The link facts ride on the first relation from this subject.
            drafts[-1].extras.extend(subject.extras)
            subject.extras = []
    return drafts


def _read_copula(toks: list[Tok], k: int, state: State, ctx: TextContext) -> list[Draft] | None:
    """Read "A是B" and its attribute forms; ``k`` is the index of 是."""
    left = toks[:k]
    neg = False
    while left and left[-1].f in {"NEG", "d", "HEDGE", "MOST"}:
        if left[-1].f == "NEG":
            neg = True
        left = left[:-1]
    right = toks[k + 1 :]
    while right and right[-1].w in PARTICLES:
        right = right[:-1]
    if not right or right[0].w in DEGREE_ADVERBS and "的" not in [tok.w for tok in right]:
        return []  # 兔头是真的辣, 这家店是很好吃: a verdict, not what the thing is (是很辣的火锅 names one)
    # 她主要是做后端的: an emphatic 是 in front of a verb phrase; read the verb phrase.
    # (张伟的爱好是打篮球 names the hobby instead: an attribute, read below.)
    subj_toks = [t for t in left if t.f not in {"TIME", "HEDGE", "d", "MOST"}]
    owned = _split_owner(subj_toks) if subj_toks else None
    if _is_verb(right[0]) and right[0].f != "COP" and (right[-1].w == "的" or not (owned and owned[1])):
        rest = right[:-1] if right[-1].w == "的" else right
        if subj_toks:
            subjects = _subject(subj_toks, ctx)
            if not subjects:
                return []
            state.subjects = subjects
        elif not state.subjects:
            return None
        return _read_predicates(subj_toks + rest, len(subj_toks), state, ctx, neg)
    # 我们公司用的是钉钉 / 我最爱吃的是西红柿: "S V的是O" means S V O.
    if len(left) >= 2 and left[-1].w == "的" and _is_verb(left[-2]):
        v_end = len(left) - 1
        v_start = v_end
        while v_start > 0 and (_is_verb(left[v_start - 1]) or left[v_start - 1].f == "MOST"):
            v_start -= 1
        subj_toks = [t for t in left[:v_start] if t.f not in {"d", "NEG", "HEDGE", "TIME"}]
        subjects = _subject(subj_toks, ctx) if subj_toks else state.subjects
        if not subjects:
            return []
        state.subjects = subjects
        verbs = [t.w for t in left[v_start:v_end]]
        return _emit(state, "".join(verbs), right, neg, _confidence(verbs, state), ctx, state.valid_from)
    subj_toks = [t for t in left if t.f not in {"TIME", "HEDGE", "d"}]
    for t in left:
        if t.f == "TIME":
            state.valid_from = t.w
    if not subj_toks and not state.subjects:
        return []
    conf = _confidence(["是"], state, clear=True)
    obj_parts = _object_names(right, ctx)
    if not obj_parts:
        return []
    # A的B是C -> (A, B, C) when C names the value (张三的导师是李四, 我最爱的水果是西红柿).
    split = _split_owner(subj_toks) if subj_toks else None
    appositive = (
        len(subj_toks) >= 2 and subj_toks[-1].f in _PERSON_NAME_FLAGS and subj_toks[-2].w in _types.PERSON_ROLES
    )
    if split and split[1] and not appositive:
        owner_toks, rest, direct = split
        owner = _owner_name(owner_toks, ctx)
        if owner is None:
            return []
        attr_toks = [t for t in rest if t.w != "的"] if direct else rest
        attr = _surface(attr_toks, ctx)
        if attr == "工作" and all(_types.guess_type(name, pos) != _types.ORGANIZATION for name, pos in obj_parts):
            attr = "职业"  # 我的工作是护士: the occupation; the verb 工作 would read "works at 护士"
        obj_is_name = all(
            _types.guess_type(name, pos) != _types.CONCEPT or (pos or "") in {"NAME", "nr", "x_latin"}
            for name, pos in obj_parts
        )
        # 我的电脑是一台MacBook: an indefinite complement describes the thing owned.
        indefinite = bool(right) and (right[0].f in {"m", "mq"} or right[0].w in _INDEFINITES)
        if indefinite or attr in _types.PERSON_ROLES and not obj_is_name:
            # 我妈妈是医生: a property of the mother, not her identity.
            subjects = _subject(subj_toks, ctx)
            state.subjects = subjects
            if not _names_a_kind(right):
                return []
            return _emit(state, "是", right, neg, conf, ctx, state.valid_from)
        drafts = [
            Draft(
                owner,
                attr,
                name,
                negated=neg,
                confidence=conf,
                valid_from=state.valid_from,
                object_pos=pos,
                subject_pos=_pos(owner_toks),
                subject_type=_types.PERSON if owner == ctx.me else None,
                object_type=_types.PERSON if attr in _types.PERSON_ROLES else None,
            )
            for name, pos in obj_parts
        ]
        state.subjects = [Subject(owner, owner_toks[0].f if len(owner_toks) == 1 else None, [])]
        return [*_kin_link(owner_toks, ctx), *drafts]
    subjects = _subject(subj_toks, ctx) if subj_toks else state.subjects
    if not subjects:
        return []
    state.subjects = subjects
    # 北京是中国的首都 -> (中国, 首都, 北京): the inverse attribute form.
    stripped = _strip_np(right)
    words = [t.w for t in stripped]
    if "的" in words:
        d = words.index("的")
        owner_toks, head = stripped[:d], stripped[d + 1 :]
        if owner_toks and head and len(head) <= 2 and all(_is_name_like(t) and t.f not in {"a"} for t in owner_toks):
            owner = _owner_name(owner_toks, ctx)
            head_name = _surface(head, ctx)
            if owner and all(t.f.startswith("n") for t in head):
                return [
                    Draft(
                        owner,
                        head_name,
                        s.name,
                        negated=neg,
                        confidence=conf,
                        valid_from=state.valid_from,
                        subject_pos=_pos(owner_toks),
                        object_pos=s.pos,
                        object_type=_types.PERSON if head_name in _types.PERSON_ROLES else s.type,
                        subject_type=_types.PERSON if owner == ctx.me else None,
                    )
                    for s in subjects
                ]
    if not _names_a_kind(right):
        return []  # 是不太适合的 / 是胡力写的词: a verdict or a clause says what the subject is like, not what it is
    return _emit(state, "是", right, neg, conf, ctx, state.valid_from)


_DEGREE_ADVERBS = tuple(sorted(words("zh", "degree_adverbs")))
_KIND_HEAD_FLAGS = frozenset({"NAME", "x_latin", "ME", "TIME", "j", "l", "vn", "m", "mq", "r", "g", "eng"})
"""Tags that may close a noun phrase besides jieba's nouns (n, nr, ns, ...): a name, an abbreviation, a number."""
_CLAUSE_FLAGS = frozenset({"COP", "NEG", "p"})
"""Tags no noun phrase holds anywhere: a second copula (还是), a negation, a preposition (被洗脑的)."""


def _names_a_kind(obj: list[Tok]) -> bool:
    """Whether a copula's complement is a noun phrase, the kind the subject is (一名歌手, 独立的工作室).

    Not a verdict (不太适合的, 体格柔弱而性格强烈, 太棒了), nor a relative clause
    (胡力写的词: someone wrote the words), nor a verb phrase (专业生产船舶漆). A coordination
    is one only when every part is: a part that is no noun phrase means the cut was wrong.
    """
    while obj and (obj[-1].w in PARTICLES or obj[-1].f in {"ASP", "y", "uj", "ul"}):
        obj = obj[:-1]
    parts = _split_coordination(obj)
    return bool(parts) and all(_is_noun_phrase(_strip_np(part)) for part in parts)


def _is_noun_phrase(part: list[Tok]) -> bool:
    """A phrase with a nominal head, no clause words, and no verb before its last 的."""
    if not part:
        return False
    head = part[-1]
    if not (head.f.startswith("n") or head.f in _KIND_HEAD_FLAGS):
        return False
    if any(tok.f in _CLAUSE_FLAGS for tok in part):
        return False
    last_de = max((k for k, tok in enumerate(part) if tok.w == "的"), default=0)
    if any(_is_verb(tok) for tok in part[:last_de]):  # 退休教师 has a verb, but no clause before a 的
        return False
    return not (len(part) == 1 and _is_verdict(head.w))


def _is_verdict(word: str) -> bool:
    """A degree adverb before an adjective that jieba took for one word (太棒了 as a name): a verdict."""
    adverb = next((adverb for adverb in _DEGREE_ADVERBS if word.startswith(adverb) and len(word) > len(adverb)), None)
    if adverb is None:
        return False
    rest = [tag for _, tag in pos_tag(word[len(adverb) :])]
    return bool(rest) and rest[0].startswith("a") and all(tag.startswith(("a", "u", "y")) for tag in rest)


def _read_predicates(toks: list[Tok], pos: int, state: State, ctx: TextContext, neg_in: bool = False) -> list[Draft]:
    """Read one or more verb-object pairs starting at ``pos`` for the current subjects."""
    drafts: list[Draft] = []
    n = len(toks)
    neg_carry = neg_in
    while pos < n:
        neg = neg_carry
        neg_carry = False
        prefix: list[str] = []
        loc: list[Tok] = []
        loc_prep = ""
        disposed: list[Tok] = []
        valid_from = state.valid_from
        progressive = False
        # Pre-verbal material: adverbs, negation, times, hedges, 在-progressive, PP.
        while pos < n:
            tok = toks[pos]
            nxt = toks[pos + 1] if pos + 1 < n else None
            if tok.f == "TIME":
                valid_from = tok.w
                state.valid_from = tok.w
            elif tok.w in {"在", "于"} and nxt is not None and nxt.f == "TIME":
                valid_from = nxt.w  # 在2015年结婚: when, not where.
                state.valid_from = nxt.w
                pos += 1
            elif tok.f in {"t", "zg"} or tok.w in {"每", "每天", "每周", "每周末", "每年", "每月"}:
                pass  # 早上 / 每周末: when it happens, not since when.
            elif (
                tok.w in {"正在", "正", "在"}
                and nxt is not None
                and (_is_verb(nxt) or _is_bare_verb_noun(toks, pos + 1))
            ):
                progressive = True  # 在用 / 在读研: doing it now
            elif tok.f == "NEG":
                if tok.w == "没有" and nxt is not None and not _is_verb(nxt):
                    neg = True
                    tok_have = Tok("有", "VERB")
                    toks = [*toks[:pos], tok_have, *toks[pos + 1 :]]
                    n = len(toks)
                    break
                neg = True
            elif tok.f == "HEDGE":
                state.hedged = True
            elif (
                tok.f == "n"
                and nxt is not None
                and _is_verb(nxt)
                and pos + 2 < n
                and _is_nominal(toks[pos + 2])
                and not drafts
            ):
                pass  # 我现在全栈转 Node.js: a bare noun before verb + object is a manner/topic adverbial.
            elif tok.f == "MOST":
                prefix.append(tok.w)
            elif tok.f in {"d", "c"} or (
                tok.w in CONTINUATIONS
                and nxt is not None
                and _is_verb(nxt)
                and not (tok.w in {"去", "来"} and nxt.w in ACTIVITY_VERBS)  # 去爬山: goes hiking
            ):
                pass
            elif tok.w in DISPOSAL_MARKERS and tok.f == "p" and nxt is not None and _is_nominal(nxt) and not disposed:
                # 小狗把我的耳机咬坏了: the object comes before the verb.
                end = _take_object(toks, pos + 1)
                if end > pos + 1 and end < n and _is_verb_like(toks[end]):
                    disposed, pos = toks[pos + 1 : end], end
                    continue
                break
            elif tok.w in MOTION_COVERBS and nxt is not None and _is_nominal(nxt) and _goes_to_work_at(toks, pos):
                # 下周去华为上班: going somewhere to work (study, live) there says where.
                end = _take_object(toks, pos + 1)
                loc, loc_prep, pos = toks[pos + 1 : end], "在", end
                continue
            elif (
                tok.w in LOCATIVE_PREPS
                and tok.f in {"p", "VERB", "c", "v"}
                and nxt is not None
                and tok.w not in VERB_WORDS - {"在"}
            ):
                end = _take_object(toks, pos + 1)
                # 在腾讯公司工作: the trailing noun-verb is the verb, not part of the place; before
                # another verb it is the phrase's noun (对学科发展作出了贡献: the field's development).
                if (
                    end > pos + 1
                    and toks[end - 1].f == "vn"
                    and (end == n or not (_is_nominal(toks[end]) or toks[end].f in {"v", "VERB"}))
                ):
                    end -= 1
                after = end
                while after < n and toks[after].f in {"d", "NEG", "MOST", "HEDGE"}:
                    after += 1
                if end > pos + 1 and after < n and _is_verb_like(toks[after]):
                    loc = toks[pos + 1 : end]
                    loc_prep = tok.w
                    pos = end
                    continue
                if tok.w == "在" and end > pos + 1:
                    # 我在北京: 在 is the verb itself.
                    break
                break
            else:
                break
            pos += 1
        if pos >= n:
            break
        # Verb run: 喜欢吃, 会说, 住在, 毕业于.
        verbs: list[str] = []
        while pos < n:
            tok = toks[pos]
            nxt = toks[pos + 1] if pos + 1 < n else None
            if _is_verb_like(tok) and (
                not verbs
                or tok.f != "vn"
                or nxt is None
                or not _is_nominal(nxt)
                or verbs[-1] in {"会", "想", "要", "喜欢", "爱", "讨厌"}
            ):
                if tok.f == "COP" and verbs:
                    break
                verbs.append(tok.w)
            elif tok.f == "NEG" and not verbs:
                neg = True
            elif verbs and tok.f in {"TIME", "t", "d"} and nxt is not None and _is_verb(nxt) and nxt.f != "COP":
                # 打算明年去德国: the time sits inside the verb run.
                if tok.f == "TIME":
                    valid_from = tok.w
                    state.valid_from = tok.w
            elif verbs and tok.f == "ASP":
                progressive = True  # 跑步了 / 游过泳: one occasion, not a habit
            elif verbs and tok.w in COMPLEMENTS and nxt is not None and (_is_nominal(nxt) or nxt.f == "ME"):
                verbs.append(tok.w)
                pos += 1
                break
            elif not verbs and tok.w == "在" and nxt is not None and (_is_nominal(nxt)):
                verbs.append("在")
                pos += 1
                break
            else:
                break
            pos += 1
        if not verbs:
            break
        if verbs[0] in WISH_VERBS:
            # 我希望以后住在海边 / 我想要一台新电脑: a wish states nothing yet.
            state.irrealis = True
            break
        if verbs[0] in NAMING_VERBS and state.nameable is not None and any(d is state.nameable for d in drafts):
            # 我们养了一只狗叫豆豆: the name is the dog's.
            found = _name_after(toks[pos:], ctx)
            if found:
                drafts += _rename(state, found[0], ctx)
            break
        if verbs == ["是"] or verbs[-1] in COPULAS:
            sub = _read_copula([Tok(s.name, "NAME") for s in state.subjects[:1]] + toks[pos - 1 :], 1, state, ctx)
            drafts += sub or []
            break
        # S V的是 O.
        if pos + 1 < n and toks[pos].w == "的" and toks[pos + 1].f == "COP":
            pos += 2
        while pos < n and toks[pos].f in {"ASP"}:
            pos += 1
        predicate = "".join(prefix + verbs)
        named = _named_kind(toks, pos) if verbs[-1] not in NAMING_VERBS else None
        if named:
            # 养了一只叫豆豆的柯基 -> (S, 养, 柯基) renamed to (S, 柯基, 豆豆), like 一只柯基，叫豆豆.
            name_toks, kind_toks, _end = named
            kind = [Tok(_surface(kind_toks, ctx), "n")]
            new = _emit(state, predicate, kind, neg, _confidence(verbs, state), ctx, valid_from)
            drafts += new
            if new and state.nameable is new[-1]:
                drafts += _rename(state, _surface(name_toks, ctx), ctx)
            break
        # 把我的耳机咬坏了 心疼: the object came before the verb; what follows it is no second one.
        if disposed and (verbs[-1] in COMPLEMENTS or verbs[-1][-1:] in COMPLEMENTS):
            break  # 把年号改为开元: what it became is said of the thing disposed of, not of the subject
        end = pos if disposed else _take_object(toks, pos)
        obj = toks[pos:end]
        if verbs == ["在"] and any(_is_verb(tok) for tok in toks[end:]):
            # 在《雨后》等电影中饰演…, 在娱乐圈真是左右逢源: a 在-phrase before the clause's verb
            # says where that happens; 在 is no verb of its own.
            break
        if not obj and verbs[-1] in SYMMETRIC_EVENTS and len(state.subjects) >= 2:
            # 我和老公2010年在杭州认识: the event links the two; 在杭州 only says where.
            drafts += _read_event(verbs[-1], neg, valid_from, state, ctx) or []
            break
        if not obj and disposed:
            obj = disposed
        elif not obj and loc:
            obj = loc
            if verbs[-1] in STUDY_VERBS and _is_school(loc):
                predicate = STUDIES_AT  # 在复旦大学读书: studies at the school
            elif verbs[-1] in TEACH_VERBS and _is_school(loc):
                predicate = TEACHES_AT  # 在复旦大学教书: teaches at the school
            elif verbs[-1] in DUTY_VERBS and not _types.is_school(_surface(loc, ctx)):
                predicate = WORKS_AT  # 去中信银行报到: reporting for duty at an employer (at a school, to study)
        elif (
            loc
            and loc_prep == "在"
            and verbs[-1] in STUDY_HEADS
            and len(obj) == 1
            and obj[0].w in DEGREES
            and _is_school(loc)
        ):
            # 在浙大读研究生 -> (S, 就读于, 浙大); 在上海读研究生 keeps (S, 读, 研究生).
            predicate, obj = STUDIES_AT, loc
        elif not obj and len(verbs) >= 2 and verbs[0] in CATENATIVES and verbs[-1] not in COMPLEMENTS:
            # 我喜欢游泳 / 我不会开车: the last verb is the activity that is liked.
            predicate = "".join(prefix + verbs[:-1])
            obj = [Tok(verbs[-1], "ACT")]
        elif not obj and verbs[-1] in EVENT_VERBS:
            event = _read_event(verbs[-1], neg, valid_from, state, ctx)
            if event is not None:
                drafts += event
                break
        elif not obj and verbs == [verbs[-1]] and verbs[-1] in ACTIVITY_VERBS and not progressive:
            # 我每天早上跑步 / 我不抽烟: a habit, (speaker, 习惯, 跑步).
            if valid_from is None or any(t.w in HABIT_WORDS or t.w.startswith("每") for t in toks[:pos]):
                predicate = "习惯"
                obj = [Tok(verbs[-1], "ACT")]
        job = verbs[-1] in JOB_VERBS and len(obj) <= 2 and is_occupation(join_words([t.w for t in obj]))
        if job and verbs[-1] != "担任":
            predicate = "".join(prefix) + OCCUPATION  # 我做会计 / 我当老师: the occupation
        if job and loc and loc_prep == "在":
            # 我在一家银行做会计: and the place of work.
            drafts += _emit(state, WORKS_AT, loc, neg, _confidence([WORKS_AT], state), ctx, valid_from)
        if obj and _HQ_VERBS.get("".join(verbs)) and any(_is_headquarters(s) for s in state.subjects):
            # 蓝鲸集团(的)总部位于深圳 -> (蓝鲸集团, 总部位于, 深圳): the company's, not the building's.
            predicate = _HQ_VERBS["".join(verbs)]
            for subject in state.subjects:
                if _is_headquarters(subject):
                    subject.name = subject.owner or subject.name[: -len(HEADQUARTERS)].strip()
                    subject.pos, subject.extras, subject.type = None, [], _types.ORGANIZATION
        if obj and verbs == ["在"] and _at_employer(state, obj, ctx):
            predicate = "".join(prefix) + WORKS_AT  # 小林现在在京东: works there
        if obj and verbs == ["在"] and all(s.attribute in PLACE_ATTRIBUTES for s in state.subjects):
            # 我老家在湖南长沙: the place is the value of the owner's attribute.
            drafts += _emit_attribute(state, obj, neg, _confidence(["是"], state, clear=True), ctx, valid_from)
        elif obj:
            clear = loc_prep == "在" and verbs[-1] in LOCATIVE_VERBS
            drafts += _emit(state, predicate, obj, neg, _confidence(verbs, state, clear), ctx, valid_from)
        pos = end
        while pos < n and (toks[pos].w in PARTICLES or toks[pos].f in {"ASP", "uj", "y"}):
            pos += 1
        # Serial verbs (用 n8n 搭建工作流) keep the subject; anything else ends the clause.
        if pos < n and not (
            _is_verb_like(toks[pos])
            or toks[pos].f in {"d", "NEG", "MOST", "c", "TIME", "HEDGE"}
            or toks[pos].w in LOCATIVE_PREPS
            or toks[pos].w in CONTINUATIONS
        ):
            break
    return drafts


def _is_headquarters(subject: Subject) -> bool:
    return subject.name.endswith(HEADQUARTERS) and len(subject.name) > len(HEADQUARTERS)


def _named_kind(toks: list[Tok], pos: int) -> tuple[list[Tok], list[Tok], int] | None:
    """[一只] 叫 <name> 的 <kind> at ``pos``: the name, the kind and the end; None otherwise."""
    j = pos
    while j < len(toks) and (toks[j].f in {"m", "q", "mq"} or toks[j].w in _INDEFINITES):
        j += 1
    if j >= len(toks) or toks[j].w not in NAMING_VERBS:
        return None
    words = [t.w for t in toks]
    if "的" not in words[j + 1 :]:
        return None
    k = words.index("的", j + 1)
    end = _take_object(toks, k + 1)
    name_toks, kind_toks = toks[j + 1 : k], toks[k + 1 : end]
    if not name_toks or not kind_toks or len(name_toks) > 3 or any(_is_verb(t) for t in name_toks):
        return None
    return name_toks, kind_toks, end


def _at_employer(state: State, obj: list[Tok], ctx: TextContext) -> bool:
    """Whether 在 + ``obj`` says where people work: a company, not a school (在复旦) or a place (在北京)."""
    if not state.subjects or not all(
        s.type == _types.PERSON or s.pos in {"NAME", "nr", "nrfg", "ME"} for s in state.subjects
    ):
        return False
    names = _object_names(obj, ctx)
    return bool(names) and all(
        _types.guess_type(name, pos) == _types.ORGANIZATION and not _types.is_school(name) for name, pos in names
    )


def _is_bare_verb_noun(toks: list[Tok], i: int) -> bool:
    """A known verb tagged as a noun with no noun after it (我在读研, 我在工作): a verb, not a place."""
    tok = toks[i]
    return tok.f == "vn" and tok.w in VERB_WORDS and (i + 1 >= len(toks) or not _is_nominal(toks[i + 1]))


def _is_school(loc: list[Tok]) -> bool:
    """Whether a 在-phrase names a school or other organisation (复旦大学, 复旦, 北航), not a place."""
    if len(loc) == 1 and loc[0].f in {"nt", "j"}:
        return True
    name = join_words([t.w for t in loc])
    return _types.guess_type(name, loc[0].f if len(loc) == 1 else None) == _types.ORGANIZATION


def _emit_attribute(
    state: State, obj_toks: list[Tok], neg: bool, conf: float, ctx: TextContext, valid_from: str | None
) -> list[Draft]:
    """(owner, attribute, value) for subjects like 我老家: (小何, 老家, 湖南长沙), no link fact."""
    drafts: list[Draft] = []
    for subject in state.subjects:
        if subject.owner is None or subject.attribute is None:
            continue
        for name, pos in _object_names(obj_toks, ctx):
            drafts.append(
                Draft(
                    subject.owner,
                    subject.attribute,
                    name,
                    negated=neg,
                    confidence=conf,
                    valid_from=valid_from,
                    subject_pos=subject.owner_pos,
                    object_pos=pos,
                    subject_type=_types.PERSON if subject.owner == ctx.me else None,
                )
            )
        subject.extras = []
    return drafts


def _goes_to_work_at(toks: list[Tok], pos: int) -> bool:
    """Whether a motion verb at ``pos`` goes to a place to work, study or live there, and nothing more.

    去华为上班 / 到北京定居 say where one works or lives; 去菜市场买排骨 says only what is done there
    (the verb after the place takes an object of its own), and is read as before.
    """
    end = _take_object(toks, pos + 1)
    after = end
    while after < len(toks) and toks[after].f in {"d", "MOST"}:
        after += 1
    if end == pos + 1 or after >= len(toks) or toks[after].w not in LOCATIVE_VERBS:
        return False
    rest = after + 1
    while rest < len(toks) and (toks[rest].f in {"ASP", "y", "ul"} or toks[rest].w in PARTICLES):
        rest += 1
    return rest == len(toks) or not _is_nominal(toks[rest])


def _is_verb_like(tok: Tok) -> bool:
    return _is_verb(tok) or tok.f == "vn"


def _read_event(verb: str, neg: bool, valid_from: str | None, state: State, ctx: TextContext) -> list[Draft] | None:
    """An event verb without an object: 我和妻子在2015年结婚 / 我1990年出生.

    With two coordinated subjects a symmetric event links them: (我, 结婚, 妻子),
    time in ``valid_from``. Alone, a date stated in the same clause becomes the object in the
    于-form the language already uses (出生于1990年): (我, 结婚于, 2015年). None otherwise.
    """
    conf = _confidence([verb], state, clear=True)
    subjects = state.subjects
    if verb in SYMMETRIC_EVENTS and len(subjects) >= 2:
        first = subjects[0]
        return [
            Draft(
                first.name,
                verb,
                other.name,
                negated=neg,
                confidence=conf,
                valid_from=valid_from,
                subject_pos=first.pos,
                object_pos=other.pos,
                subject_type=first.type,
                object_type=other.type,
            )
            for other in subjects[1:]
        ]
    date = _WRITTEN_DATE.search(valid_from or "")
    if date is None or date.group() not in state.clause:
        return None  # 1982年7月入党，杭州大学普通班毕业: the date is the joining's, not the graduating's
    drafts = [
        Draft(
            subject.name,
            verb + "于",
            date.group(),
            negated=neg,
            confidence=conf,
            valid_from=valid_from,
            subject_pos=subject.pos,
            subject_type=subject.type,
            object_type=_types.TIME,
        )
        for subject in subjects
    ]
    for draft, subject in zip(drafts, subjects, strict=True):
        draft.extras.extend(subject.extras)
        subject.extras = []
    return drafts


_NAME_FILLERS = words("zh", "name_fillers")


def _name_after(toks: list[Tok], ctx: TextContext) -> tuple[str, str | None] | None:
    """The name that follows a naming verb: every word up to the clause end (旺 + 财 -> 旺财)."""
    while toks and (toks[-1].w in PARTICLES or toks[-1].f in {"ASP", "y"} or len(toks) > 1 and toks[-1].f in "oe"):
        toks = toks[:-1]  # 老太君哈哈: the laugh is no part of the name (咪咪 alone is one)
    if not toks or any(_is_verb(t) and t.f != "VERB" for t in toks[1:]) or toks[0].f in {"ME", "NEG"}:
        return None
    name = _surface(toks, ctx)
    cjk = len(re.findall(r"[\u3400-\u9fff]", name))
    if cjk > 6 or (not cjk and len(name.split()) > 3):
        return None
    pos = "NAME" if len(toks) > 1 and all(t.f in {"NAME", "nr", "nrfg"} for t in toks) else _pos(toks)
    return name, pos


def _rename(state: State, name: str, ctx: TextContext) -> list[Draft]:
    """Turn (S, 养, 猫) into (S, 猫, 咪咪): the name, not the kind, becomes the entity.

    A second name for the same kind (两只猫，一只叫花花，一只叫球球) adds a new fact,
    which is returned; the first rewrites the draft in place.
    """
    draft = state.nameable
    if draft is None:
        return []
    if state.renamed:
        extra = Draft(
            draft.subject,
            draft.predicate,
            name,
            negated=draft.negated,
            confidence=draft.confidence,
            valid_from=draft.valid_from,
            subject_pos=draft.subject_pos,
            subject_type=draft.subject_type,
            object_type=draft.object_type,
        )
        ctx.named[(draft.subject, draft.predicate)] = name
        return [extra]
    head = draft.object
    draft.predicate = head
    draft.object = name
    draft.object_pos = None
    draft.object_type = _types.PERSON if head in _types.PERSON_ROLES else None
    ctx.named[(draft.subject, head)] = name
    state.renamed = True
    return []


def _read_calling(toks: list[Tok], k: int, state: State, ctx: TextContext) -> list[Draft] | None:
    """(the one named before, 叫, name) for 大家都叫他军哥 / 我们都管她叫老太君; None for other clauses.

    The pronoun after the naming verb, or after a calling marker (管她叫), is what is called;
    who calls it (我们、大家、全家) is no party to the fact. Nothing when no one was named before.
    """
    left, after = toks[:k], toks[k + 1 :]
    pronouns = THIRD_PERSON | THING_PRONOUNS
    if len(after) > 1 and after[0].w in pronouns:
        callers, name_toks, pronoun = left, after[1:], after[0].w
    elif len(left) >= 2 and left[-1].w in pronouns and left[-2].w in CALLING_MARKERS:
        callers, name_toks, pronoun = left[:-2], after, left[-1].w
    else:
        return None
    if any(_is_verb(tok) or tok.f in {"NEG", "COP"} for tok in callers):
        return None
    found = _name_after(name_toks, ctx)
    if pronoun in THING_PRONOUNS:
        # 我家猫叫奶油泡芙，平时叫它泡芙: 它 is the pet (or thing) the clauses are about.
        thing = next((s.name for s in state.subjects if s.type != _types.PERSON and s.name != ctx.me), None)
        if thing is None or found is None:
            return []
        return [Draft(thing, toks[k].w, found[0], confidence=_confidence([toks[k].w], state, clear=True))]
    if ctx.last_person is None or found is None:
        return []
    name, pos = found
    role = ctx.last_person[len(ctx.me) :] if ctx.last_person.startswith(ctx.me) else ""
    if role in _types.PERSON_ROLES:
        # 我奶奶…，我们都管她叫老太君: her name, as 我奶奶叫老太君 gives it.
        return [
            Draft(ctx.me, role, name, confidence=_confidence([toks[k].w], state, clear=True), object_type=_types.PERSON)
        ]
    return [
        Draft(
            ctx.last_person,
            toks[k].w,
            name,
            confidence=_confidence([toks[k].w], state, clear=True),
            valid_from=state.valid_from,
            object_pos=pos,
            subject_type=_types.PERSON,
            object_type=_types.PERSON,
        )
    ]


def _read_naming(toks: list[Tok], state: State, ctx: TextContext) -> list[Draft] | None:
    """Read 叫 / 名叫 / 名字叫 clauses; None when the clause names nothing this way.

    * 我的猫叫咪咪 / 我女儿名叫李小雨 -> (owner, 猫/女儿, name), like A的B是C;
    * (我养了一只猫，)叫咪咪 / 名字叫旺财 / 它叫咪咪 -> the object just introduced is
      renamed: (speaker, 养, 猫) becomes (speaker, 猫, 咪咪).
    """
    k = next((k for k, tok in enumerate(toks) if tok.w in NAMING_VERBS and _is_verb(tok)), None)
    if k is None:
        return None
    calling = _read_calling(toks, k, state, ctx)
    if calling is not None:
        return calling
    left = [t for t in toks[:k] if t.f not in {"d", "HEDGE", "MOST"}]
    found = _name_after(toks[k + 1 :], ctx)
    if found is None:
        return None
    name, pos = found
    if all(t.w in _NAME_FILLERS or t.f in {"m", "mq", "q"} for t in left):
        if state.nameable is None:
            return None if not left else []
        return _rename(state, name, ctx)
    split = _split_owner(left)
    if not split or not split[1]:
        return None
    owner_toks, rest, direct = split
    rest = [t for t in rest if t.w not in _NAME_FILLERS or t.w == "名字" and len(rest) == 1]
    owner = _owner_name(owner_toks, ctx)
    if owner is None or not rest or any(_is_verb(t) for t in rest):
        return None
    head = _surface(rest, ctx)
    ctx.named[(owner, head)] = name
    is_role = head in _types.PERSON_ROLES
    state.subjects = [Subject(name, pos, [], _types.PERSON if is_role else None)]
    state.nameable = None
    return [
        *_kin_link(owner_toks, ctx),
        Draft(
            owner,
            head,
            name,
            confidence=_confidence(["叫"], state, clear=True),
            valid_from=state.valid_from,
            subject_pos=_pos(owner_toks),
            object_pos=pos,
            subject_type=_types.PERSON if owner == ctx.me else None,
            object_type=_types.PERSON if is_role else None,
        ),
    ]


def _read_clause(clause: str, state: State, ctx: TextContext) -> list[Draft]:
    toks = [t for t in tag(clause) if not is_punct(t.w) or t.w in {"、", "/", "&"}]
    for t in toks:
        if t.w == "、":
            t.f = "c"
    i = 0
    # Leading times, hedges and "我觉得".
    while i < len(toks):
        tok = toks[i]
        if tok.f == "TIME":
            state.valid_from = tok.w
        elif tok.f == "t" and i + 1 < len(toks):
            pass  # 周末 / 早上: when it usually happens, not since when.
        elif tok.f == "HEDGE" or tok.f == "d" or tok.w in _CLAUSE_OPENERS:
            if tok.f == "HEDGE":
                state.hedged = True
        elif tok.f == "ME" and i + 1 < len(toks) and toks[i + 1].w in HEDGE_VERBS and i + 2 < len(toks):
            state.hedged = True
            i += 1
        elif tok.w in HEDGE_VERBS and i + 1 < len(toks):
            state.hedged = True
        else:
            break
        i += 1
    toks = toks[i:]
    if not toks:
        return []
    toks, placed = _place_modifier(toks)
    if placed is not None:
        drafts = _read_clause_words(toks, state, ctx)
        subject = state.subjects[0].name if state.subjects and not state.implied else None
        if drafts and subject:
            verb, place = placed
            drafts[0].extras.append(Draft(subject, verb, place, confidence=CLEAR, object_type=_types.PLACE))
        return drafts
    return _read_clause_words(toks, state, ctx)


_PLACE_HEADS = frozenset({"ns", "NAME", "nt", "nz", "x_latin"})


def _place_modifier(toks: list[Tok]) -> tuple[list[Tok], tuple[str, str] | None]:
    """Take 位于深圳的 off 位于深圳的蓝鲸电子成立于2003年: the clause is about 蓝鲸电子, which is in 深圳.

    The thing may be a role and a name (生于江口县的画家邹海涛): the name is the subject.

    Returns the clause without the modifier, and (verb, place) when there was one.
    """
    # Also any "V于" verb (生于江口县的作家…): the verb says how the thing relates to the place.
    placing = toks[0].w in PLACE_MODIFIERS or (len(toks[0].w) >= 2 and toks[0].w.endswith("于") and _is_verb(toks[0]))
    if len(toks) < 4 or not placing:
        return toks, None
    k = next((k for k, tok in enumerate(toks) if tok.w == "的"), None)
    if k is None or k < 2 or k + 1 >= len(toks) or not _is_nominal(toks[k + 1]):
        return toks, None
    place = toks[1:k]
    if place[0].f not in _PLACE_HEADS or not all(tok.f in _PLACE_HEADS | {"f", "s"} for tok in place):
        return toks, None
    if toks[0].w not in PLACE_MODIFIERS and not any(tok.f in _PLACE_HEADS for tok in toks[k + 1 : k + 4]):
        return toks, None  # 生于长白山脚下的一个小山村: the place itself, no named thing in it
    return toks[k + 1 :], (toks[0].w, "".join(tok.w for tok in place))


def _read_clause_words(toks: list[Tok], state: State, ctx: TextContext) -> list[Draft]:
    named = _read_naming(toks, state, ctx)
    if named is not None:
        return named
    passive = _agent_passive(toks, state, ctx)
    if passive is not None:
        return passive
    toks = _change_as_copula(toks)
    # The copula path first: the first 是 with a verb-free (or 的-ending) left side.
    k = next((k for k, tok in enumerate(toks) if tok.f == "COP" and k > 0), None)
    if k is not None:
        left = toks[:k]
        has_verb = any(_is_verb(t) for t in left)
        if not has_verb or left[-1].w == "的" or "的" in [t.w for t in left] and not _is_verb(left[0]):
            result = _read_copula(toks, k, state, ctx)
            for draft in (d for top in result or [] for d in (top, *top.extras)):
                if draft.predicate in _types.PERSON_ROLES and draft.object_type == _types.PERSON:
                    ctx.last_person = draft.object  # 我邻居王建国是个热心人，大家都叫他…: 他 is 王建国
            if result is not None:
                if not result and not state.subjects:
                    state.blocked = True
                return result
    placed = _place_attribute_of_topic(toks, state)
    if placed is not None:
        # 谢顺光，男，祖籍江西都昌，…: the topic's attribute and its value, said without a verb.
        attribute, value = placed
        drafts = _emit(state, attribute, value, False, _confidence(["是"], state, clear=True), ctx, state.valid_from)
        for draft in drafts:
            draft.object_type = _types.PLACE
        return drafts
    end = _take_subject(toks, 0)
    subj_toks = toks[:end]
    if _describes_topic(subj_toks, end == len(toks), state):
        # 谢礼立，男，汉族，中共党员，毕业于天津大学 / 我朋友，一个程序员，在阿里上班: a bare
        # noun phrase between the topic and its verbs describes the topic; it is no new subject.
        return []
    if end < len(toks) and _describes_person_topic(subj_toks, state):
        subj_toks = []  # 谢礼立，…，中共党员1960年毕业于天津大学: still 谢礼立 who graduated
    if (
        ctx.speaker_given
        and not state.subjects
        and len(subj_toks) == 1
        and subj_toks[0].f == "n"
        and _types.guess_type(subj_toks[0].w) == _types.PLACE
    ):
        subj_toks = []  # 刚才菜场买了土豆: a common noun of place before the verb is where, the speaker who
    if subj_toks:
        subjects = _subject(subj_toks, ctx)
        if not subjects:
            # 她叫王丽，在银行上班: an unknown 她 must not turn the next clause into the speaker's,
            # nor 年仅15岁的朱厚照继位，是为明武宗 the next one into the emperor's before him.
            state.blocked = True
            state.subjects = []
            return []
        state.subjects = subjects
        state.implied = False
    elif state.irrealis:
        return []  # 我希望住在海边，养一条狗: still the wish.
    elif not state.subjects:
        if not ctx.speaker_given or ctx.names_others or state.blocked:
            return []
        # A subjectless statement in a chat turn is about the speaker ("最近在学 Rust").
        state.subjects = [Subject(ctx.me, "ME", [], _types.PERSON)]
        state.implied = True
    for subject in state.subjects:
        if subject.type == _types.PERSON and subject.name != ctx.me:
            ctx.last_person = subject.name
        elif subject.pos in {"NAME", "nr", "nrfg"}:
            ctx.last_person = subject.name
    drafts = _read_predicates(toks, end, state, ctx)
    if not drafts and subj_toks and ctx.speaker_given and _done_to_thing(toks, end, state):
        # 旧电脑卖掉了，现在用ThinkPad: the computer is what was sold, no agent; what follows is the speaker's.
        state.subjects = []
        return []
    if not drafts and not state.implied:
        # 我同事孟凡宇人特别靠谱: nothing read of him, but who he is to the speaker was said.
        for subject in state.subjects:
            said = [
                extra
                for extra in subject.extras
                if extra.predicate in _types.PERSON_ROLES
                and extra.object != join_words([extra.subject, extra.predicate])
            ]
            drafts += said
            subject.extras = [extra for extra in subject.extras if extra not in said]
    return drafts


_AGENT_MARKERS = frozenset({"由", "被"})
_PASSIVE_ADVERBIALS = frozenset({"于", "在", "以", "从"})


def _agent_passive(toks: list[Tok], state: State, ctx: TextContext) -> list[Draft] | None:
    """Read "X(是)由Y(于T)(在P)创办(的)" / "X被Y(以…)收购(了)" as (Y, 创办, X), when T; None if no such clause.

    The agent is the subject, as in the active voice (Y创办了X), so both say one fact. Only
    a clause that ends with its verb: one with an object after it (被公司派到上海) is read
    by the rules.
    """
    marker = next((k for k, tok in enumerate(toks) if tok.w in _AGENT_MARKERS and tok.f == "p"), None)
    if not marker:
        return None
    end = len(toks)
    while end > marker and toks[end - 1].f in {"ASP", "uj", "ul", "y", "x"}:
        end -= 1  # 收购了, 创办的
    if end <= marker + 2 or not _is_verb(toks[end - 1]) or toks[end - 1].f == "COP":
        return None
    verb = toks[end - 1].w
    patient = toks[:marker]
    if patient and patient[-1].f == "COP":
        patient = patient[:-1]  # 是由
    if not patient or any(_is_verb(tok) for tok in patient) or _take_subject(patient, 0) != len(patient):
        return None
    between = toks[marker + 1 : end - 1]
    cut = next((k for k, tok in enumerate(between) if tok.w in _PASSIVE_ADVERBIALS or tok.f == "TIME"), len(between))
    agent, adverbials = between[:cut], between[cut:]
    when = next((tok.w for tok in adverbials if tok.f == "TIME"), None)
    if (
        not agent
        or any(tok.f in {"r", "ME"} or tok.w == "的" for tok in agent)
        or any(is_punct(tok.w) for tok in between)
    ):
        return None  # 由尚德王的长兄金桥王子: a description, no name
    if any(tok.w in {"《", "》"} for tok in patient) or any(tok.w == "的" for tok in patient if patient[0].f != "ME"):
        return None  # a work's credits are the credit patterns' (《W》由X执导); 某某的王位 is no name
    agents = _subject([Tok(join_words([tok.w for tok in agent]), "NAME" if len(agent) > 1 else agent[0].f)], ctx)
    if not agents:
        return None
    state.subjects = agents
    drafts = _emit(state, verb, patient, False, _confidence([verb], state, clear=True), ctx, when or state.valid_from)
    # What the clause is about is the thing done to: 松岩科技由孟雪松创办，总部设在江口县 (its seat).
    state.subjects = _subject(patient, ctx)
    state.implied = False
    return drafts


def _done_to_thing(toks: list[Tok], end: int, state: State) -> bool:
    """Whether a clause says what was done to its subject, a thing: a result verb and no object (卖掉了, 修好了)."""
    if not state.subjects or any(s.type == _types.PERSON or s.pos in _PERSON_NAME_FLAGS for s in state.subjects):
        return False
    rest = [tok for tok in toks[end:] if tok.f not in {"ASP", "ul", "y", "d"}]
    return len(rest) == 1 and _is_verb_like(rest[0]) and rest[0].w.endswith(tuple(RESULT_COMPLEMENTS))


def _describes_topic(phrase: list[Tok], whole_clause: bool, state: State) -> bool:
    """Whether a clause that is only a noun phrase describes the topic named before it.

    Not when it names people (张伟; 苏有朋、周华健三人: a new subject), nor when the topic
    was only assumed to be the speaker. Coordinated descriptions describe it too (中国影视女演员、歌手).
    """
    if not phrase or not whole_clause or not state.subjects or state.implied:
        return False
    if any(tok.f == "c" for tok in phrase):
        return not any(tok.f in _PERSON_HEADS | _PERSON_NAME_FLAGS for tok in phrase)
    return phrase[-1].f not in _PERSON_HEADS


_VALUE_BREAKS = frozenset({"COP", "NEG", "p", "ASP", "uj", "VERB", "r", "ME"})
"""Tags a place value holds none of: what has them is a clause (老家在湖南 reads 在), not a place."""


def _place_attribute_of_topic(toks: list[Tok], state: State) -> tuple[str, list[Tok]] | None:
    """(attribute, value) of a clause that is a place attribute and its value: 祖籍江西都昌, 籍贯湖南长沙.

    Only of a person the text is already about (谢顺光，男，祖籍江西都昌); the value opens with a
    place or name and is no clause (no copula, preposition, 的 or relation verb). None otherwise.
    """
    if len(toks) < 2 or toks[0].w not in PLACE_ATTRIBUTES or not _about_a_person(state):
        return None
    value = toks[1:]
    if value[0].f not in _PROPER_FLAGS - {"x_latin"} or any(tok.f in _VALUE_BREAKS for tok in value):
        return None
    return toks[0].w, value


def _about_a_person(state: State) -> bool:
    """Whether the clauses so far are about named people (谢礼立，男，…), not an assumed speaker."""
    return (
        bool(state.subjects)
        and not state.implied
        and all(subject.type == _types.PERSON or subject.pos in _PERSON_NAME_FLAGS for subject in state.subjects)
    )


def _describes_person_topic(phrase: list[Tok], state: State) -> bool:
    """Whether a noun phrase before a clause's verbs is an occupation said of the person the text is about.

    谢礼立，男，中共党员1960年毕业于天津大学: the party member is 谢礼立. A relative (妻子毕业于…)
    or a name is a new subject, and so is anything said about someone only assumed.
    """
    if not phrase or not _about_a_person(state):
        return False
    if any(tok.f in _PERSON_HEADS | _PERSON_NAME_FLAGS or tok.w in _types.PERSON_ROLES for tok in phrase):
        return False
    return is_occupation(phrase[-1].w)


def _change_as_copula(toks: list[Tok]) -> list[Tok]:
    """A的B换成了C reads like A的B是C: the attribute's new value (星河科技的CEO换成了李明远)."""
    if any(t.f == "COP" for t in toks):
        return toks
    k = next((k for k, t in enumerate(toks) if t.w in CHANGE_VERBS), None)
    if k is None or k < 3 or "的" not in [t.w for t in toks[:k]] or any(_is_verb(t) for t in toks[:k]):
        return toks
    split = _split_owner([t for t in toks[:k] if t.f not in {"d", "TIME", "HEDGE"}])
    if not split or not split[1] or not split[2]:
        return toks
    rest = toks[k + 1 :]
    while rest and rest[0].f in {"ASP", "ul"}:
        rest = rest[1:]
    return [*toks[:k], Tok("是", "COP"), *rest]


def _placeholder_list() -> re.Pattern[str]:
    nouns = "|".join(sorted(PLACEHOLDER_NOUNS, key=len, reverse=True))
    return re.compile(rf"(?:点|些|一些|几样|几件)?(?:{nouns})[：:]\s*(?=[^，,。；;：:]+$)")


_PLACEHOLDER_LIST = _placeholder_list()


def _listed_in_place(text: str) -> str:
    """买点东西：排骨、青菜 -> 买排骨、青菜: the list after the colon is what the verb takes.

    So too when the colon follows the verb itself (要买：鸡蛋、牛奶), or the verb and the class
    of what it took (报了兴趣班：围棋、书法 -> 报了围棋、书法).
    """
    replaced = _PLACEHOLDER_LIST.sub("", text, count=1)
    if replaced != text:
        return replaced
    colon = next((at for at, char in enumerate(text) if char in "：:"), -1)
    if colon <= 0 or colon == len(text) - 1:
        return text
    items = re.split(r"[，,。；;]", text[colon + 1 :])[0]
    # 他曾说："…": what was said is no list of things; a list of single activities (游泳、编程) is.
    said = [pos_tag(item) for item in re.split(r"[、和及与]", items) if item.strip()]
    if not said or any(
        word in '“”"「' or (len(item) > 1 and tag.startswith(("v", "r"))) or tag.startswith("r")
        for item in said
        for word, tag in item
    ):
        return text
    tagged = pos_tag(text[:colon])
    last = tagged[-1] if tagged else ("", "")
    before = [tag for _, tag in tagged[:-1] if tag not in {"ul", "uz", "m", "q", "mq"}]  # 报了两门课：…
    took = bool(before) and before[-1].startswith("v")
    after_le = len(tagged) >= 3 and tagged[-2][1] == "ul" and tagged[-3][1].startswith("v")
    if len(last[0]) <= 3 and (last[1].startswith("n") and took or last[1].startswith("v") and after_le):
        return text[: colon - len(last[0])] + text[colon + 1 :]  # 报了兴趣班：…, the class said before the list
    if last[1].startswith("v"):
        return text[:colon] + text[colon + 1 :]
    return text


def _is_time_clause(clause: str) -> bool:
    """当我还是学生的时候 / 毕业以后: a time qualifier, not a statement."""
    return clause.startswith("当") or clause.endswith(("的时候", "时候", "以后", "之后", "以前", "之前", "期间"))


_BARE_KIN = tuple(sorted(words("zh", "bare_kin"), key=len, reverse=True))


def read_sentence(sentence: str, ctx: TextContext) -> list[Draft]:
    """Read the triples of one Chinese sentence.

    Args:
        sentence: One sentence that passed the non-fact filters.
        ctx: Per-text state (speaker name, last person for 他/她).

    Returns:
        Draft triples, link facts attached as extras.
    """
    text = _listed_in_place(sentence.strip().rstrip("。！？!?；;.~～…"))
    if ctx.speaker_given and text.startswith(_BARE_KIN) and not text.startswith(tuple(FIRST_PERSON)):
        text = "我" + text  # 儿子的钢琴老师是周老师, said in chat: the speaker's son
    if text.startswith(REQUEST_STARTS):
        return []
    state = State(subjects=[], valid_from=None, hedged=False)
    drafts: list[Draft] = []
    for clause in _CLAUSE_SPLIT.split(text):
        if clause.strip() and not _is_time_clause(clause.strip()):
            state.clause = clause.strip()
            read = _read_clause(clause.strip(), state, ctx)
            schedule = _schedule_of(clause.strip())
            for draft in (d for top in read for d in (top, *top.extras)) if schedule else ():
                draft.schedule = draft.schedule or schedule
            drafts += read
    # 对学科发展作出了重要贡献: a light verb's meaning is its object; no fact is read from it.
    return [draft for draft in drafts if not draft.predicate.endswith(_LIGHT_VERBS)]


_LIGHT_VERBS = tuple(sorted(words("zh", "light_verbs")))


def _schedule_of(clause: str) -> str | None:
    """每周三下午 / 每天晚上七点 / 周末 / 周五上午十点: when the clause's action recurs or is set for, as written.

    The run of time words holding a recurring time or a clock time is the schedule, with the
    day it is on (周五上午十点 is one appointment, not a date and a clock apart).
    """
    toks = tag(clause)
    run: list[str] = []
    timed = False
    i = 0
    while i < len(toks):
        word = toks[i].w
        if word.isdigit() and i + 2 < len(toks) and toks[i + 1].w in {":", "："} and toks[i + 2].w.isdigit():
            word, i = f"{word}:{toks[i + 2].w}", i + 2  # 7:05, which the tagger cuts in three
        clock = bool(_CLOCK_TIME.match(word) or _COLON_CLOCK.match(word))
        recurring = bool(_EVERY_TIME.match(word)) or word == "天天" or word[:1] == "每"
        if clock or recurring or toks[i].f in {"TIME", "t"} or word in {"周末", "平时", "工作日"}:
            run.append(word)
            timed = timed or clock or recurring or word in {"周末", "平时", "工作日"}
        elif run:
            if timed:
                break
            run = []
        i += 1
    return "".join(run) if timed else None
