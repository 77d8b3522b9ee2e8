"""Offline question analysis: stage one of answering without an LLM.

Given a question in Chinese or English, say which names it mentions (the entry
points into the graph), which content words may match predicates and objects,
what type of entity the answer should be, and what the asker wants (look a fact
up, get a recommendation, a list, or a yes/no). First-person questions ("我最爱
吃的是什么?", "Where do I live?") name the speaker, because the Reader stored
their first-person facts under the speaker's name (``"user"`` when unknown).

The answer type comes from the role noun of the question when there is one, not
from the bare wh-word: "Who is my employer?" / 我的雇主是谁 want an Organization,
"What exercise do I do?" / 我做什么运动 an Activity, "What car do I drive?" /
我开什么车 a Thing; 我的老板是谁 stays a Person. These are the types
``language.types.guess_type`` gives the answers (跑步, jogging -> Activity;
宝马, Toyota Corolla -> Thing, or Organization as the object of "works at").
"""

from __future__ import annotations

import re

from elephant_broker.language import english as en
from elephant_broker.language import types as _types
from elephant_broker.language.answer_spans import question_kind
from elephant_broker.language.decompose import is_multi_hop
from elephant_broker.language.extract_zh import FIRST_PERSON as _ZH_FIRST_PERSON
from elephant_broker.language.extract_zh import tag as _zh_tag
from elephant_broker.language.segment import detect_language, fold_width, has_cjk, is_latin, join_words
from elephant_broker.schemas.models import QuestionAnalysis

# fmt: off
_ZH_STOPWORDS = {
    "是", "的", "了", "吗", "呢", "吧", "啊", "什么", "哪", "哪个", "哪些", "哪几个", "哪几", "哪里", "哪儿",
    "谁", "怎么",
    "怎样", "如何", "为什么", "多少", "几", "该", "应该", "帮", "帮我", "请", "告诉", "知道", "一下", "可以",
    "能", "能不能", "要", "想", "我", "你", "他", "她", "它", "我们", "你们", "他们", "这", "那", "这个",
    "那个", "在", "和", "与", "或", "还是", "有没有", "是不是", "是否", "么", "呀", "一段", "一个", "时候",
    "地方", "一", "都", "也", "还", "就", "最好", "给", "把",
}
# Class nouns jieba tags as places or organisations; in a question they name the
# answer's type, not an entity to start from.
_ZH_GENERIC_NOUNS = {
    "城市", "国家", "地方", "公司", "学校", "大学", "单位", "省份", "地区", "语言", "工具",
}
# fmt: on
_EN_QUESTION_WORDS = {"what", "who", "whom", "whose", "where", "when", "why", "how", "which"}
_EN_SKIP = en.STOPWORDS | _EN_QUESTION_WORDS | {"tell", "know", "please", "name", "list", "give"}

# Answer types by wh-phrase, most specific first.
_ZH_ANSWER_TYPES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), t)
    for p, t in (
        (r"什么(?:编程)?语言|哪(?:种|门|个|一种|些|几种)(?:编程)?语言|用什么写", _types.LANGUAGE),
        (
            r"哪(?:家|个|所|些)(?:公司|大学|学校|单位|机构|银行|医院)|什么(?:公司|大学|学校|单位|机构)"
            r"|在哪(?:里|儿)?(?:工作|上班|任教|读书|上学|就读|实习)|雇主|东家|工作单位|母校"
            r"|(?:公司|单位|学校|大学)(?:是|叫)(?:什么|哪)",
            _types.ORGANIZATION,
        ),
        # The role noun, not the bare wh-word, says what is wanted: 什么运动 is an activity,
        # 什么车 a thing (the types guess_type gives 跑步 and 宝马).
        (
            r"(?:什么|哪(?:个|种|项|些|样))(?:运动|体育|爱好|活动|锻炼|球类|球)|运动习惯|兴趣爱好"
            r"|(?:运动|爱好|锻炼)(?:是|有)(?:什么|哪)",
            _types.ACTIVITY,
        ),
        (
            r"(?:什么|哪(?:辆|台|部|款|个|种|把|些))(?:牌子的)?(?:车|汽车|相机|乐器|琴|手机|电脑|笔记本|平板)"
            r"|(?:开|骑)(?:的是)?什么|(?:车|相机|乐器|手机|电脑|笔记本|平板)(?:是|叫)?(?:什么|哪)(?:型号|牌子|款)?",
            _types.THING,
        ),
        (
            r"什么(?:工具|软件|框架|平台|数据库|库|系统|应用)|哪(?:个|款|种|些)(?:工具|软件|框架|平台|数据库)",
            _types.TOOL,
        ),
        (r"吃什么|喝什么|什么(?:食物|菜|水果|饮料|零食)|(?:爱|喜欢)吃(?:的)?(?:是)?什么|(?:爱|喜欢)吃哪", _types.FOOD),
        (r"什么时候|何时|哪(?:一)?年|几月|几号|哪天|哪一天|多久|什么时间|几点", _types.TIME),
        (r"谁|哪位|什么人", _types.PERSON),
        (r"哪里|在哪|哪儿|去哪|哪个(?:城市|国家|省|地方)|哪座城市|什么地方|哪国", _types.PLACE),
        (r"用什么|用哪个", _types.TOOL),
        # No wh-phrase, but the class noun still says what is wanted (推荐一个工具).
        (r"工具|软件|框架", _types.TOOL),
        (r"语言", _types.LANGUAGE),
    )
)
_EN_ANSWER_TYPES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), t)
    for p, t in (
        (r"\b(?:what|which)(?: programming)? languages?\b|\bin what language\b", _types.LANGUAGE),
        (
            r"\b(?:what|which) (?:company|companies|university|school|college|organi[sz]ation|employer|firm)\b"
            r"|\bwhere (?:does|do|did) .{1,40}?\b(?:work|study|teach|intern)\b|\bwho .{1,20}\bwork (?:for|at)\b"
            r"|\b(?:who|what)(?: is|'s| was| are) (?:my|his|her|their|our|the|\w+'s) (?:current |former |new )?"
            r"(?:employer|company|workplace|firm|school|university|college|alma mater)\b|\bwho employs\b",
            _types.ORGANIZATION,
        ),
        # The role noun, not the bare wh-word, says what is wanted.
        (
            r"\b(?:what|which) (?:kinds? of |types? of |sorts? of )?(?:exercises?|sports?|hobby|hobbies|"
            r"activity|activities|workouts?|pastimes?)\b",
            _types.ACTIVITY,
        ),
        (
            r"\b(?:what|which) (?:kinds? of |types? of |brands? of |models? of |make of )?(?:cars?|vehicles?|"
            r"cameras?|bikes?|motorbikes?|instruments?)\b"
            r"|\bwhat (?:do|does|did) .{1,30}?\bdrive\b",
            _types.THING,
        ),
        (r"\b(?:what|which) (?:tools?|software|framework|app|platform|database|library|editor)\b", _types.TOOL),
        (
            r"\b(?:what|which) (?:food|dish|fruit|snack|drink)\b|\bwhat (?:does|do|did) .{1,30}?\b(?:eat|drink)\b"
            r"|\bfavou?rite (?:foods?|dish(?:es)?|fruits?|drinks?|meals?|snacks?)\b",
            _types.FOOD,
        ),
        (
            # "when" asks for a time when it is the question's word, not in a clause after another
            # ("Who helps her when she is down?").
            r"^(?:(?!\b(?:what|who|whom|whose|where|why|how|which)\b).)*\bwhen\b"
            r"|\bwhat (?:year|date|time|day|month)\b|\bwhich (?:year|date|day|month)\b|\bhow long ago\b",
            _types.TIME,
        ),
        (r"^\s*(?:who|whom|whose)\b|\b(?:who|whom)\b", _types.PERSON),
        (r"\bwhere\b|\b(?:what|which) (?:city|country|town|place|state|province)\b", _types.PLACE),
        (r"\bwhat (?:does|do|did) .{1,30}?\buse\b", _types.TOOL),
        (r"\b(?:tools?|software|apps?|frameworks?)\b", _types.TOOL),
        (r"\blanguages?\b", _types.LANGUAGE),
    )
)

_ZH_RECOMMEND = re.compile(r"该用|应该|推荐|建议|最好用|选哪|哪个好|哪种好|适合|该选|怎么选|用哪个比较")
_EN_RECOMMEND = re.compile(
    r"\bshould (?:i|we)\b|\bwhich should\b|\brecommend|\bsuggest|\bwhat(?:'s| is) the best\b|\bbest way\b"
    r"|\badvi[cs]e\b|\bwould you use\b",
    re.IGNORECASE,
)
_ZH_LIST = re.compile(r"哪些|哪几|有(?:些)?什么|有哪些|都有|都用|都会|列出|列举")
_EN_LIST = re.compile(
    r"^\s*(?:what|which|who) are\b|^\s*list\b|\bwhich ones\b|\bname (?:all|some)\b|\ball the\b"
    r"|\bon (?:my|the|his|her|our|their|\w+'s) (?:[\w-]+ ){0,2}list\b",
    re.IGNORECASE,
)
_ZH_YES_NO = re.compile(r"是否|是不是|有没有|会不会|能不能|对不对|吗\s*[？?]?\s*$")
_ZH_WH = re.compile(r"什么|谁|哪|怎么|如何|为什么|多少|几")
_EN_YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|does|do|did|can|could|has|have|had|will|would|should|am)\b", re.IGNORECASE
)
_EN_FIRST_PERSON = {"i", "me", "my", "mine", "myself"}
# "What is my job?" asks for works_as, which a copula fact with an occupation also is.
_ZH_OCCUPATION = re.compile(
    r"职业|(?:做|干)什么(?:工作|的|职业|行业)|(?:是|当)(?:干|做)什么的|什么工作|工作是什么|哪一?行"
)
_EN_OCCUPATION = re.compile(
    r"\b(?:job|occupation|profession|career|line of work)\b|\bdo for (?:a )?(?:living|work)\b"
    r"|^\s*what (?:does|do|did) \w+(?: \w+)? do\s*[?？]?\s*$",
    re.IGNORECASE,
)
# A hobby is what someone likes doing; a college is where someone studied.
_ZH_HOBBY = re.compile(r"爱好|兴趣|业余(?:时间)?(?:喜欢)?(?:做|干)什么|平时(?:喜欢)?(?:做|干)什么")
_EN_HOBBY = re.compile(r"\b(?:hobby|hobbies|pastimes?|free time|spare time|for fun)\b", re.IGNORECASE)
_ZH_SCHOOL = re.compile(
    r"(?:在|去)哪(?:里|儿|所|个)?(?:大学|学校)?(?:读|上|念)(?:的)?(?:大学|书|学|研究生)|毕业于哪|母校"
)
_EN_SCHOOL = re.compile(
    r"\b(?:go|went) to (?:college|university|school|grad school)\b|\b(?:alma mater|graduate from)\b", re.IGNORECASE
)
# "Where's home for me?", 我家如今住在哪: where one lives, said by its home.
_ZH_HOME = re.compile(r"(?:我|他|她|\w{1,4})家(?:现在|目前|如今)?(?:住)?在哪")
_EN_HOME = re.compile(
    r"\bwhere(?:'s| is) home\b|\bwhat do I call home\b|\bwhere(?:'s| is) (?:my|his|her|their) home\b", re.IGNORECASE
)
# (zh, en) question patterns, and the wording of the relation they ask for.
_ASKED_RELATIONS: tuple[tuple[dict[bool, re.Pattern[str]], str], ...] = (
    ({True: _ZH_OCCUPATION, False: _EN_OCCUPATION}, "works as"),  # language.occupations.OCCUPATION_KEY
    ({True: _ZH_HOBBY, False: _EN_HOBBY}, "like"),
    ({True: _ZH_SCHOOL, False: _EN_SCHOOL}, "studied at"),
    ({True: _ZH_HOME, False: _EN_HOME}, "lives in"),
)
_ZH_AGGREGATE = re.compile(
    r"多少|几(?:个|位|家|种|次|本|门|年)|哪些|所有|全部|列出|列举|统计|总共|一共|最多|最少|之前|之后|以来"
)
_EN_AGGREGATE = re.compile(
    r"\bhow (?:many|much|often)\b|\b(?:count|number of|total|list|all|every|most|least|fewest)\b"
    r"|\b(?:before|after|since) (?:\d{4}|last|this)\b",
    re.IGNORECASE,
)


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = item.casefold()
        if item and key not in seen:
            seen.add(key)
            out.append(item)
    return out


def class_type(noun: str) -> str | None:
    """The entity type a "what <noun>" question asks for ("car" -> Thing), or None."""
    return _answer_type(f"what {noun}", zh=False)


def _answer_type(question: str, zh: bool) -> str | None:
    for pattern, answer_type in _ZH_ANSWER_TYPES if zh else _EN_ANSWER_TYPES:
        if pattern.search(question):
            return answer_type
    return None


_EN_CLASS_ASKED = re.compile(
    r"^\s*(?:what|which)\s+(?:kinds? of\s+|sorts? of\s+|types? of\s+)?(?P<noun>[a-z]+)\s+"
    r"(?:do|does|did|am|are|is|was|were|have|has|had|can|could|will|would)\b",
    re.IGNORECASE,
)


def _asks_for_plural_class(question: str) -> bool:
    """Whether a plural class noun asks for all of its kind ("Which languages am I learning?", "What plants …?")."""
    match = _EN_CLASS_ASKED.match(question)
    if match is None:
        return False
    noun = match.group("noun").casefold()
    return noun.endswith("s") and not noun.endswith("ss") and en.singular(noun) != noun


def _intent(question: str, zh: bool) -> str:
    if (_ZH_RECOMMEND if zh else _EN_RECOMMEND).search(question):
        return "recommend"
    if (_ZH_LIST if zh else _EN_LIST).search(question) or not zh and _asks_for_plural_class(question):
        return "list"
    if zh:
        if _ZH_YES_NO.search(question) and not (
            _ZH_WH.search(question) and not re.search(r"是否|是不是|有没有|会不会|能不能", question)
        ):
            return "yes_no"
    elif _EN_YES_NO.match(question):
        return "yes_no"
    return "lookup"


def _zh_terms(question: str) -> tuple[list[str], list[str], bool]:
    toks = _zh_tag(question)
    entities: list[str] = []
    keywords: list[str] = []
    first_person = False
    latin_run: list[str] = []
    verb_run: list[str] = []

    def flush_latin() -> None:
        if latin_run:
            entities.append(join_words(latin_run))
            latin_run.clear()

    def flush_verbs() -> None:
        # 最/爱/吃 -> also 最爱, 爱吃, 最爱吃, so predicates written either way match.
        for size in range(2, len(verb_run) + 1):
            for start in range(len(verb_run) - size + 1):
                compound = "".join(verb_run[start : start + size])
                keywords.append(compound)
                if compound.startswith("最") and len(compound) > 2:
                    keywords.append(compound[1:])
        verb_run.clear()

    for tok in toks:
        word, flag = tok.w, tok.f
        if flag == "ME" or word in _ZH_FIRST_PERSON or word.startswith("帮我"):
            first_person = True
        if flag == "x_latin" or (is_latin(word) and not has_cjk(word)):
            flush_verbs()
            if word.strip(" ,.?!"):
                latin_run.append(word)
            continue
        flush_latin()
        if flag in {"MOST"} or flag in {"VERB", "v", "vn", "vd", "vi"} and word not in _ZH_STOPWORDS:
            verb_run.append(word)
        else:
            flush_verbs()
        if word in _ZH_STOPWORDS or flag in {"x", "ME", "NEG", "uj", "ul", "y", "p", "c", "d", "m", "q", "r"}:
            continue
        if word in _ZH_GENERIC_NOUNS:
            keywords.append(word)
            continue
        if flag in {"NAME", "nr", "nrfg", "ns", "nt", "nz", "nrt"} or _types.gazetteer_type(word):
            entities.append(word)
            continue
        if flag == "TIME":
            entities.append(word)
            continue
        if flag == "MOST":
            continue
        if flag.startswith(("n", "v", "a")) or flag in {"VERB", "l", "j", "i"}:
            keywords.append(word)
            if word.startswith("最") and len(word) > 1:
                keywords.append(word[1:])
    flush_latin()
    flush_verbs()
    return entities, keywords, first_person


def _en_terms(question: str) -> tuple[list[str], list[str], bool]:
    ws = en.words(en.expand_contractions(question))
    entities: list[str] = []
    keywords: list[str] = []
    first_person = any(w.lower() in _EN_FIRST_PERSON for w in ws)
    run: list[str] = []

    def flush() -> None:
        if run:
            entities.append(" ".join(run))
            run.clear()

    for i, raw in enumerate(ws):
        owner = en.possessive_owner(raw)
        word = owner or raw
        lw = word.lower()
        starts = i == 0
        named = (
            word[:1].isupper() and not (starts and (lw in _EN_SKIP or lw in en.BE_FORMS | en.DO_FORMS))
        ) and lw != "i"
        gazetteer = _types.gazetteer_type(word) and (lw not in _types.AMBIGUOUS_LOWER or word[:1].isupper())
        techy = any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word) or "." in word.strip(".")
        if named or gazetteer or techy:
            run.append(word)
            if owner:
                flush()
            continue
        flush()
        if lw in _EN_SKIP or lw in en.BE_FORMS or not lw.replace("-", "").isalpha() or len(lw) < 2:
            continue
        keywords.append(lw)
        base = en.lemma(lw)
        if base != lw:
            keywords.append(base)
        if base in en.VERB_BASES:
            # Stored predicates are written forms ("wrote", "studies at"): add the forms
            # that do not contain the base, so substring matching still finds them.
            keywords += [f for f in (en.third_person(base), en.past_tense(base)) if base not in f and len(f) > 3]
    flush()
    return entities, keywords, first_person


def analyse_question(question: str, speaker: str | None = None) -> QuestionAnalysis:
    """Analyse a question without a model.

    Args:
        question: The question, Chinese or English.
        speaker: Who asks; named among the entities when the question is in the
            first person (我/我的/帮我, I/my/me). ``"user"`` when None, matching
            what the Reader stores first-person facts under.

    Returns:
        Language, entities (names mentioned), keywords (content words, with
        verb-run compounds for Chinese; for English lemmas, plus the -s and past
        forms that do not contain the lemma: "studies", "wrote"), the expected
        answer type (``None`` when no wh-phrase says) and the intent.
    """
    question = fold_width(question)  # 谁喜欢ＤｅｅｐＳｅｅｋ？ asks about DeepSeek, as the Reader stored it
    language = detect_language(question)
    zh = language == "zh"
    entities, keywords, first_person = _zh_terms(question) if zh else _en_terms(question)
    if first_person:
        entities.append(speaker.strip() if speaker and speaker.strip() else "user")
    for patterns, relation in _ASKED_RELATIONS:
        asking = patterns[zh].search(question)
        if asking:
            # "do for a living" asks for a job, not where one lives.
            phrase = asking.group(0).casefold()
            asked = {form for word in en.words(phrase) for form in (word, en.lemma(word))}
            keywords = [k for k in keywords if k.casefold() not in asked and not (zh and k in phrase)]
            keywords.append(relation)
    entity_keys = {e.casefold() for e in entities}
    keywords = [k for k in keywords if k.casefold() not in entity_keys]
    return QuestionAnalysis(
        language=language,
        entities=_dedupe(entities),
        keywords=_dedupe(keywords),
        answer_type=_answer_type(question, zh),
        answer_kind=question_kind(question, "zh" if zh else "en"),
        intent=_intent(question, zh),  # type: ignore[arg-type]
        multi_hop=is_multi_hop(question),
        aggregate=bool((_ZH_AGGREGATE if zh else _EN_AGGREGATE).search(question)),
    )
