"""Occupations: "I am a nurse" answers "What is my job?".

A copula fact (Hannah —is→ nurse, 小赵 —是→ 护士) says what someone *is*; when the
object names an occupation it also says what they do for a living, so the Answerer
treats it as the ``works_as`` relation a job question asks for. Recognised by a
word list plus the suffixes most occupation nouns end in (-er/-ist/-ian, 师/员/家);
the list is only what the suffixes miss or get wrong.
"""

from __future__ import annotations

import re

OCCUPATION_KEY = "works_as"
"""The canonical relation of "works as", "担任", and of a copula with an occupation."""

# fmt: off
_OCCUPATIONS: frozenset[str] = frozenset(
    {
        "nurse", "doctor", "surgeon", "dentist", "pharmacist", "vet", "veterinarian", "chef", "cook", "pilot",
        "lawyer", "attorney", "judge", "accountant", "architect", "artist", "actor", "actress", "author",
        "journalist", "editor", "engineer", "scientist", "professor", "lecturer", "student", "postdoc",
        "analyst", "consultant", "secretary", "clerk", "cashier", "janitor", "plumber", "electrician",
        "carpenter", "mechanic", "farmer", "firefighter", "police officer", "officer", "soldier", "sailor",
        "librarian", "musician", "pianist", "violinist", "guitarist", "photographer", "translator",
        "interpreter", "barista", "bartender", "waiter", "waitress", "cleaner", "driver", "freelancer",
        "entrepreneur", "founder", "ceo", "cto", "cfo", "manager", "director", "intern", "tutor", "coach",
        "therapist", "psychologist", "psychiatrist", "paramedic", "midwife", "tailor", "baker", "butcher",
        "hairdresser", "barber", "model", "dancer", "singer", "writer", "poet", "novelist", "programmer",
        "developer", "designer", "researcher", "teacher", "data scientist", "product manager",
        "护士", "医生", "大夫", "律师", "会计", "老师", "教师", "教授", "讲师", "学生", "研究生", "博士生", "厨师",
        "司机", "飞行员", "工程师", "程序员", "设计师", "记者", "编辑", "作家", "演员", "歌手", "画家", "警察",
        "消防员", "军人", "农民", "工人", "店员", "收银员", "服务员", "快递员", "外卖员", "会计师", "建筑师",
        "产品经理", "项目经理", "经理", "总监", "实习生", "翻译", "导游", "保安", "秘书", "销售", "律师助理",
        "研究员", "科学家", "摄影师", "主持人", "公务员", "创业者", "自由职业者", "医学生", "药剂师", "牙医",
        "兽医", "理发师", "咖啡师", "运营", "客服", "分析师", "顾问", "讲解员", "图书管理员", "架构师", "CEO",
    }
)
# fmt: on
_EN_SUFFIX = re.compile(r"(?:[a-z]{3,}(?:er|or|ist|ian|ant|eer))$")
_ZH_SUFFIX = re.compile(r"[\u4e00-\u9fff]{1,5}(?:师|员|工|家|生|官|医)$")
# Words the suffixes would take for occupations but are not (a user, a river, a computer).
_NOT_OCCUPATIONS: frozenset[str] = frozenset(
    {
        "user", "member", "owner", "player", "fan", "beginner", "leader", "customer", "partner", "neighbor",
        "neighbour", "brother", "sister", "mother", "father", "daughter", "computer", "river", "number", "winter",
        "summer", "water", "paper", "letter", "monster", "flower", "tower", "server", "color", "colour", "error",
        "mirror", "door", "floor", "christian", "vegetarian", "italian", "canadian", "indian", "asian", "giant",
        "restaurant", "elephant", "plant", "pescatarian", "pet owner", "家", "大家", "老家", "国家",
        "专家级", "学生会", "医生家",
    }
)  # fmt: skip


def is_occupation(name: str) -> bool:
    """Whether a name is an occupation (nurse, data scientist, 护士, 软件工程师)."""
    text = re.sub(r"\s+", " ", name.strip()).casefold()
    for article in ("a ", "an ", "the ", "一名", "一个", "一位", "名"):
        text = text.removeprefix(article)
    if not text or text in _NOT_OCCUPATIONS:
        return False
    if text in _OCCUPATIONS or text.split(" ")[-1] in _OCCUPATIONS:
        return True
    last = text.split(" ")[-1]
    if last in _NOT_OCCUPATIONS:
        return False
    return bool(_EN_SUFFIX.fullmatch(last) or _ZH_SUFFIX.fullmatch(text))
