"""Filters that keep non-facts out of memory: hypotheticals, metaphors, emotions, chit-chat.

The quintuple-memory design asks the Reader not to store "如果我有钱就买房",
"他像一头牛一样壮" (or "我的老板简直就是一座火山"), "我今天好开心" or "谢谢", and questions are not statements
either. Dreams ("我梦见自己住在巴黎", "I dreamt I was a pilot") and jokes ("开玩笑的",
"just kidding", "jk") state nothing about the world either; a joke marker also
takes back the sentence before it (``language.extract``). Wishes (希望, 想要,
"I want to") are dropped clause by clause by the readers, since the rest of the
sentence may still be a fact. Each check is conservative: an emotion verb with an
object ("我很喜欢吃西红柿", "I love sushi") is a preference and therefore a fact,
so it passes.
"""

from __future__ import annotations

import re

from elephant_broker.language import types as _types
from elephant_broker.language.english import expand_contractions
from elephant_broker.language.segment import cut, has_cjk

# --- questions ---------------------------------------------------------------
_EN_WH = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which)\b"
    r"|^(?:do|does|did|is|are|was|were|can|could|would|will|should|shall|have|has|may)"
    r"\s+(?:i|you|he|she|it|we|they|there|this|that|my|your|the|a|an)\b",
    re.IGNORECASE,
)
_ZH_QUESTION_START = ("谁", "什么", "哪", "为什么", "为啥", "怎么", "如何", "是否", "是不是", "有没有")
_ZH_QUESTION_END = ("吗", "呢", "么", "嘛")
_ZH_QUESTION_TAIL = ("什么", "谁", "哪里", "哪儿", "在哪", "多少", "几个", "怎么样", "如何", "为什么", "咋样")

# fmt: off
# --- small talk ----------------------------------------------------------------
_ZH_SMALL_TALK = (
    "你好", "您好", "大家好", "早上好", "早安", "上午好", "中午好", "下午好", "晚上好", "晚安", "谢谢", "多谢",
    "感谢", "谢啦", "再见", "拜拜", "回头见", "在吗", "在不在", "好的", "好吧", "好滴", "嗯", "嗯嗯", "哦",
    "噢", "行", "可以", "没问题", "收到", "知道了", "明白了", "不客气", "没关系", "辛苦了", "哈喽", "嗨", "对",
    "是的", "好", "ok", "OK",
)
_ZH_SMALL_TALK_FILLER = set("啊呀啦哈吧呢哦嘛了你您大家们的")
_EN_SMALL_TALK = re.compile(
    r"^(?:hi|hello|hey|hiya|yo|good (?:morning|afternoon|evening|night)|morning|"
    r"thanks?(?: you)?(?: (?:so|very) much)?(?: a lot)?|thx|ty|cheers|bye|goodbye|"
    r"see (?:you|ya)(?: later| soon| tomorrow)?|take care|ok|okay|k|sure|alright|"
    r"all right|got it|no problem|you'?re welcome|yes|yeah|yep|no|nope|nice|cool|"
    r"great|sounds good|of course|welcome|how are you|how'?s it going|nice to meet you)"
    r"(?:\s+(?:there|everyone|all|guys|again|man|buddy|friend|so much|for (?:your|the) help))*$",
    re.IGNORECASE,
)

# --- hypotheticals -------------------------------------------------------------
_ZH_HYPOTHETICAL = {
    "如果", "假如", "要是", "假设", "万一", "要不是", "倘若", "假使", "若是", "如若", "设想", "假若",
}
_EN_HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|imagine|wish|unless)\b"
    r"|\b(?:would|could|should|might|must)(?: not|n't)? have\b|\bwhat if\b|\bas if\b",
    re.IGNORECASE,
)

# --- dreams and jokes ------------------------------------------------------------
_ZH_DREAM = re.compile(r"梦见|梦到|梦里|梦中|做梦|做了(?:一)?个梦|在梦")
_EN_DREAM = re.compile(
    r"\b(?:dreamt|dreamed|dreaming)\b|\bdreams? (?:of|about|that)\b|\bin (?:my|a|his|her|their|our) dreams?\b",
    re.IGNORECASE,
)
_ZH_JOKE = re.compile(
    r"(?<!不)(?<!不是)(?<!没)(?<!没有)(?:开玩笑的|开个玩笑|是开玩笑|开玩笑(?:啦|呢|而已|罢了|哈)|(?:骗|逗)你的|逗你玩|说着玩的)"
)
_EN_JOKE = re.compile(
    r"(?<!not )(?<!n't )(?<!no )\b(?:just |only )?(?:kidding|joking)\b|\bjk\b|\bj/k\b",
    re.IGNORECASE,
)

# --- metaphors and similes ------------------------------------------------------
_ZH_METAPHOR = re.compile(
    r"像.{1,15}(?:一样|一般|似的)|仿佛|好像是|犹如|宛如|宛若|如同|好比|简直(?:就)?(?:是|像)|就像是|活像|活脱脱"
    r"|跟.{1,10}似的|个.{1,8}似的"
    r"|是(?:一|个|一个|一头|一只|一条|一台|一颗|一座)?(?:机器|机器人|狐狸|老狐狸|猪|狮子|老虎|太阳"
    r"|小太阳|天使|魔鬼|石头|木头|工具人|活字典|百科全书|夜猫子|铁人)(?:$|[，。！!,])"
)
# Figurative vehicles: "X是一座火山" is a metaphor when X is a person or a workplace-like
# thing (我的老板, 办公室, 这份工作); 富士山是一座火山 / 楼下是菜市场 stay literal. The
# figurative-only ones (噩梦, 定时炸弹) are metaphors whatever the subject.
_ZH_VEHICLE = re.compile(
    r"^(?P<subject>.*?)(?:简直|真的|真|就|完全|根本|整个|简直就)*(?:是|成了|变成了?)"
    r"(?:一|个|一个|一座|一场|一颗|一枚|一只|一片|一台|一头|一口)?"
    r"(?P<vehicle>火山|黑洞|噩梦|战场|迷宫|动物园|火药桶|过山车|监狱|蒸笼|冰窖|定时炸弹|无底洞|垃圾场|菜市场)"
    r"(?:$|[，。！!,])"
)
_ZH_FIGURATIVE_ONLY = {"噩梦", "定时炸弹", "火药桶", "无底洞"}
_ZH_FIGURATIVE_SUBJECTS = (
    "他", "她", "我", "你", "他们", "她们", "我们", "工作", "生活", "公司", "办公室", "单位", "宿舍", "家里", "教室",
    "会议室", "房间", "婚姻", "考试", "项目", "股市", "脾气", "加班", "通勤", "地铁", "早高峰", "人生", "职场", "心情",
    "部门", "团队", "老家", "学校", "食堂",
)  # fmt: skip
_EN_METAPHOR = re.compile(
    r"\b(?:is|are|was|were|'s|'re|am)\s+(?:like|as)\s+(?:a|an|the)\b"
    r"|\bas\s+\w+\s+as\s+(?:a|an)\b"
    r"|\b(?:is|are|was|were|'s|'re|am)\s+(?:a|an|my|our|the)\s+(?:\w+\s+)?"
    r"(?:rock|sunshine|angel|monster|beast|machine|snake|fox|pig|lion|night owl|"
    r"walking encyclopedia|rockstar|rock star|ninja|wizard|dinosaur|couch potato|"
    r"shining star|ray of sunshine|volcano|robot|"
    # Figurative places and states: "my inbox is a black hole", "the office is a zoo".
    r"black hole|zoo|jungle|circus|gold ?mine|time bomb|dumpster fire|war zone|roller ?coaster|"
    r"minefield|pressure cooker|train ?wreck|piece of cake|breeze|bottomless pit|sauna|oven|freezer|"
    r"pigsty|battlefield|ghost town|madhouse|maze)\b"
    # "a nightmare" only as a verdict: "I had a nightmare" is an event, not a metaphor.
    r"|\b(?:is|are|was|were|'s|'re|am)\s+(?:a|an)\s+(?:total\s+|complete\s+|absolute\s+|real\s+|living\s+)?"
    r"nightmare\b"
    r"|\b(?:like a|like an)\s+\w+\s*$",
    re.IGNORECASE,
)

# --- pure emotions ------------------------------------------------------------------
_ZH_EMOTION_WORDS = (
    "开心", "高兴", "快乐", "难过", "伤心", "郁闷", "烦", "心烦", "烦躁", "生气", "愤怒", "激动", "兴奋",
    "失望", "沮丧", "焦虑", "紧张", "害怕", "累", "疲惫", "无聊", "爽", "幸福", "委屈", "崩溃", "感动", "难受",
    "痛苦", "满意", "舒服", "糟糕", "绝望", "尴尬", "哈哈", "哈哈哈", "呵呵", "嘿嘿", "唉", "哎", "哇", "哇塞",
    "天哪", "我的天", "卧槽", "呜呜", "耶", "嘻嘻", "哼", "惨", "棒", "太棒", "好棒",
)
_ZH_EMOTION_FILLER = {
    "我", "我们", "他", "她", "你", "今天", "现在", "真", "真的", "好", "太", "很", "非常", "特别", "超",
    "超级", "有点", "有些", "挺", "十分", "极了", "死", "了", "啊", "呀", "啦", "哦", "吧", "呢", "的", "得",
    "要", "快", "都", "也", "又", "心情", "感觉", "觉得", "实在", "最近", "一直", "好像", "简直", "这么",
    "那么", "多", "么", "不", "是", "让", "人", "心里", "还", "蛮", "比较", "一点", "有", "点", "这", "今晚",
    "昨天", "此刻",
}
# fmt: on
_EN_EMOTION = re.compile(
    r"^(?:(?:i|we|he|she|they)\s+(?:am|'m|are|'re|is|'s|was|were|feel|feels|felt)"
    r"(?:\s+(?:so|very|really|super|totally|quite|pretty|a bit|kind of|extremely|too|just|"
    r"feeling|incredibly|such))*\s+)?"
    r"(?:happy|sad|glad|angry|upset|excited|tired|bored|annoyed|frustrated|depressed|"
    r"anxious|nervous|scared|thrilled|exhausted|lonely|grumpy|stressed|relieved|"
    r"overjoyed|miserable|furious|delighted|down|blue|great|awesome|terrible|awful|"
    r"fine|good|bad|okay|ok)"
    r"(?:\s+(?:today|now|right now|tonight|lately|again|these days|this morning))?$"
    r"|^(?:ugh+|wow+|lol+|lmao|haha+|hahaha+|omg|oh my god|yay+|oops|damn|meh|argh+|"
    r"hooray|ouch|phew|sigh|aww+|oh no|whoa|yikes|ha|hmm+|oh)(?:\s+\w+)?$",
    re.IGNORECASE,
)

_STRIP = " \t\r\n。！？!?.,，、；;：:~～…\"'“”‘’()（）[]【】"


def _is_question(sentence: str, zh: bool) -> bool:
    raw = sentence.rstrip(" \t。.!！~～…")
    if raw.endswith(("?", "？")):
        return True
    text = sentence.strip(_STRIP)
    if zh:
        return (
            text.endswith(_ZH_QUESTION_END) or text.startswith(_ZH_QUESTION_START) or text.endswith(_ZH_QUESTION_TAIL)
        )
    return bool(_EN_WH.match(text))


def _is_small_talk(text: str, zh: bool) -> bool:
    if zh:
        rest = text
        for phrase in sorted(_ZH_SMALL_TALK, key=len, reverse=True):
            if rest.startswith(phrase):
                rest = rest[len(phrase) :].strip(_STRIP)
                break
        else:
            return False
        # Thanks followed by a short object ("谢谢你的帮助") is still politeness.
        if text.startswith(("谢谢", "感谢", "多谢")):
            return len(rest) <= 8
        return all(ch in _ZH_SMALL_TALK_FILLER for ch in rest) or rest in _ZH_SMALL_TALK
    return bool(_EN_SMALL_TALK.match(text))


def _is_emotion(text: str, zh: bool) -> bool:
    if not zh:
        return bool(_EN_EMOTION.match(expand_contractions(text)))
    words = [w for w in cut(text) if w.strip(_STRIP)]
    if not words:
        return False
    has_emotion = False
    for word in words:
        if word in _ZH_EMOTION_FILLER:
            continue
        # jieba may glue a degree word to the emotion ("好开心", "太难过"): peel it.
        core = word.lstrip("好太真超很挺").rstrip("了啊呀啦死")
        if word in _ZH_EMOTION_WORDS or core in _ZH_EMOTION_WORDS:
            has_emotion = True
            continue
        return False
    return has_emotion


def _zh_figurative(text: str) -> bool:
    """我的老板是一座火山 / 办公室就是个动物园: a figurative vehicle said of a person or workplace."""
    match = _ZH_VEHICLE.search(text)
    if match is None:
        return False
    if match.group("vehicle") in _ZH_FIGURATIVE_ONLY:
        return True
    subject = match.group("subject").rstrip("的")
    if not subject:
        return False
    return (
        subject.endswith(_ZH_FIGURATIVE_SUBJECTS)
        or any(subject.endswith(role) for role in _types.PERSON_ROLES if has_cjk(role))
        or _types.looks_like_zh_person(subject)
    )


def is_non_factual(sentence: str) -> str | None:
    """Say why a sentence states no fact, or None when it may state one.

    Args:
        sentence: One sentence (the extractor splits texts first).

    Returns:
        ``"question"``, ``"small_talk"``, ``"hypothetical"``, ``"dream"``,
        ``"joke"``, ``"metaphor"`` or ``"emotion"``; None when the sentence should
        go on to extraction.
    """
    text = sentence.strip(_STRIP)
    if not text:
        return "small_talk"
    zh = has_cjk(text)
    # Small talk first: "在吗" / "How are you?" are greetings more than questions.
    if _is_small_talk(text, zh):
        return "small_talk"
    if _is_question(sentence, zh):
        return "question"
    if zh:
        if any(word in _ZH_HYPOTHETICAL for word in cut(text)):
            return "hypothetical"
    elif _EN_HYPOTHETICAL.search(text):
        return "hypothetical"
    if (_ZH_DREAM if zh else _EN_DREAM).search(text):
        return "dream"
    if (_ZH_JOKE if zh else _EN_JOKE).search(expand_contractions(text) if not zh else text):
        return "joke"
    if (_ZH_METAPHOR if zh else _EN_METAPHOR).search(text) or zh and _zh_figurative(text):
        return "metaphor"
    if _is_emotion(text, zh):
        return "emotion"
    return None
