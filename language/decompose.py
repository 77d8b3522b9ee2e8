"""Offline multi-hop decomposition: split a question into a chain of sub-questions.

A multi-hop question asks about something it only describes: "Where was *the author
of Dune* born?", "张三的导师在哪所大学任教？", "Where does *the person who founded Acme*
live?". The description is asked first ("Who is the author of Dune?"); its answer
fills the slot ``#1`` of the rest ("Where was #1 born?"). Chains nest: 小李的老板的妻子
住在哪 -> 小李的老板是谁 / #1的妻子是谁 / #2住在哪.

Recognised shapes, in Chinese and English (no model):
- possessive chains: X的R…, X's R…, my R…;
- "the R of X";
- relative clauses: 创立Acme的人…, 我喜欢的作家…, "the person who founded Acme",
  "the company (that) Alice works for".
A description is only split off when the rest still asks something about it: 张三的导师
是谁 and "Who is the author of Dune?" stay single-hop. The relation itself is matched
later, by the retrieval of each sub-question (lexicon keys and embedding similarity
between the question and stored predicates).
"""

from __future__ import annotations

import re

from elephant_broker.language import english as en
from elephant_broker.language import types as _types
from elephant_broker.language.extract_zh import tag as zh_tag
from elephant_broker.language.segment import detect_language, has_cjk

SLOT = re.compile(r"#(\d+)")
"""A reference to the answer of an earlier sub-question (1-based)."""

MAX_PARTS = 4
"""Chains longer than this are not split further (the hop budget is smaller anyway)."""

# fmt: off
_ZH_TRIVIAL_REST = re.compile(
    r"^(?:是|叫|在)?(?:谁|什么|啥|哪位|哪个|哪里|哪儿|什么人|什么名字|多少|几|什么时候|哪天|哪一年|哪)?"
    r"(?:型号|牌子|品牌|款|种)?(?:呢|啊|呀|吗)?$"
)
_ZH_PERSON_ROLES = frozenset({
    "人", "导师", "老板", "上司", "领导", "经理", "妻子", "老婆", "太太", "丈夫", "老公", "先生", "父亲", "爸爸",
    "母亲", "妈妈", "哥哥", "姐姐", "弟弟", "妹妹", "儿子", "女儿", "朋友", "同事", "同学", "室友", "邻居", "老师",
    "作者", "创始人", "董事长", "总裁", "校长", "导演", "教练", "医生", "男朋友", "女朋友", "搭档", "合伙人", "作家",
    "歌手", "演员", "主管", "师傅", "学生", "客户", "队长", "CEO", "CTO", "COO", "CFO",
})
_ZH_ENTITY_HEADS = tuple(sorted(_ZH_PERSON_ROLES | {
    "公司", "学校", "大学", "医院", "城市", "国家", "团队", "乐队", "品牌", "厂家", "厂商", "小说", "电影", "项目",
}, key=len, reverse=True))
"""Nouns for things a graph stores as entities: a description ending in one is looked up first."""
_ZH_OWNED = sorted(_ZH_PERSON_ROLES - {"人"} | {"公司", "学校"}, key=len, reverse=True)
_ZH_BARE_POSSESSIVE = re.compile(r"(我|你|他|她|我们|你们|他们)(" + "|".join(_ZH_OWNED) + ")")
_EN_PERSON_ROLES = frozenset({
    "person", "man", "woman", "one", "author", "writer", "boss", "manager", "wife", "husband", "father", "mother",
    "dad", "mom", "mum", "brother", "sister", "son", "daughter", "friend", "colleague", "coworker", "founder",
    "ceo", "cto", "director", "advisor", "adviser", "supervisor", "teacher", "mentor", "partner", "girlfriend",
    "boyfriend", "roommate", "neighbor", "neighbour", "owner", "creator", "inventor", "developer", "coach",
    "doctor", "president", "chairman", "leader", "student", "singer", "actor", "actress", "composer", "painter",
    "architect", "designer", "spouse", "parent", "child", "cousin", "uncle", "aunt",
})
# The Reader's person roles (fiancé, kid, landlord …) are roles a description may end in too.
_EN_PERSON_ROLES |= frozenset(role for role in _types.PERSON_ROLES if role.isascii() or not has_cjk(role))
_EN_HEADS = _EN_PERSON_ROLES | frozenset({
    "company", "firm", "city", "town", "country", "place", "school", "university", "college", "team", "band",
    "book", "movie", "film", "song", "album", "game", "product", "language", "tool", "organization", "organisation",
    "app", "restaurant", "shop", "store", "hotel", "club", "brand",
})
_EN_RELATION_NOUNS = _EN_HEADS | frozenset({
    "kids", "children", "parents", "employer", "hometown", "birthplace", "headquarters", "capital", "alma",
    "pet", "cat", "dog", "hamster", "rabbit", "bird",
})
"""Nouns a possessive or "of" description may end in: things a graph stores as entities.
"Melanie's reason for…" or "John's fitness" describe no entity and stay single-hop."""
# fmt: on
_EN_RELATIVE = frozenset({"who", "that", "which", "whom", "where"})
_EN_TRIVIAL_REST = re.compile(
    r"^(?:(?:who|what|which)(?:\s+(?:is|was|are|were))?|name|tell me|do you know)\s+#\d+(?:'s\s+(?:full\s+)?name)?"
    r"\s*[?.!]*$|^what(?:'s|\s+is|\s+was)\s+the\s+(?:full\s+)?name\s+of\s+#\d+\s*[?.!]*$",
    re.IGNORECASE,
)
_EN_CLAUSE_TAIL = en.PREPOSITIONS | en.PARTICLES
_QUESTION_MARKS = "？?!！。. "


def decompose(question: str) -> list[str]:
    """Return the sub-questions of a multi-hop question, or ``[]`` for a single-hop one.

    Later sub-questions refer to earlier answers as ``#1``, ``#2``…; the last
    sub-question asks what the whole question asks.
    """
    question = question.strip()
    if not question:
        return []
    chinese = detect_language(question) == "zh"
    split = _split_zh if chinese else _split_en
    if not chinese:
        question = en.expand_contractions(question)  # "Who's my employer?" asks one thing, of no "Who"
    parts: list[str] = []
    remaining = question
    while len(parts) < MAX_PARTS - 1:
        found = split(remaining, len(parts) + 1)
        if found is None:
            break
        first, remaining = found
        parts.append(first)
    if parts:
        named = _NAME_OF.match(remaining.strip(_QUESTION_MARKS))
        if named and named.group("whom"):
            remaining = f"Who is {named.group('whom')}?"  # "#1's husband's name": who #1's husband is
        elif named:
            # "我妹妹的名字是什么": the sister found is her name; no hop asks for it again.
            return parts if len(parts) > 1 else []
    return [*parts, remaining] if parts else []


_NAME_OF = re.compile(
    r"^(?:#\d+(?:的)?(?:名字|姓名|全名|大名)(?:是|叫)?(?:什么|啥)?(?:呢|啊)?"
    r"|(?:what(?:'s| is| was) )?(?:#\d+(?:'s|’s)|the name of #\d+) (?:full |first )?name"
    r"|(?:what(?:'s| is| was) )?the (?:full |first )?name of #\d+"
    r"|what(?:'s| is| was) (?P<whom>#\d+(?:'s|’s) [\w -]+?)(?:'s|’s) (?:full |first )?name)$",
    re.IGNORECASE,
)
"""The last part asks only for the name of what the hop before found (that is its answer)."""


def is_multi_hop(question: str) -> bool:
    """Whether the question describes something it then asks about (see ``decompose``)."""
    return bool(decompose(question))


_EN_DESCRIPTION = re.compile(r"^\s*(?:who|what)\s+(?:is|was|are|were)\s+(?P<description>.+?)\s*[?.!]*$", re.IGNORECASE)
_ZH_DESCRIPTION = re.compile(r"^(?P<description>.+?)(?:是|叫)(?:谁|什么|啥|哪位)[？?。]*$")


def description_of(question: str) -> str | None:
    """Return what a "who/what is …" sub-question describes: "Who is Alice's boss?" -> "Alice's boss"."""
    match = _ZH_DESCRIPTION.match(question.strip()) or _EN_DESCRIPTION.match(question.strip())
    return match.group("description") if match else None


def relation_word(description: str) -> str | None:
    """Return the relation noun ending a possessive description: "Alice's boss" -> "boss", 张三的导师 -> 导师."""
    if "的" in description:
        return description.rsplit("的", 1)[1].strip() or None
    owner, sep, role = description.rpartition("'s ")
    return role.strip().split()[-1] if sep and owner and role.strip() else None


def fill_slots(text: str, answers: list[str]) -> str | None:
    """Replace ``#n`` by the n-th answer; ``None`` when a referenced answer is missing."""
    missing = False

    def replace(match: re.Match[str]) -> str:
        nonlocal missing
        index = int(match.group(1)) - 1
        if 0 <= index < len(answers) and answers[index]:
            return answers[index]
        missing = True
        return match.group(0)

    filled = SLOT.sub(replace, text)
    return None if missing else filled


# -- Chinese ----------------------------------------------------------------------------


def _split_zh(question: str, slot: int) -> tuple[str, str] | None:
    """Split at the first 的 whose following noun phrase is described and then asked about."""
    # 我室友的女朋友 is 我的室友的女朋友: a pronoun owns a role noun without 的.
    question = _ZH_BARE_POSSESSIVE.sub(r"\1的\2", question)
    for match in re.finditer("的", question):
        owner, after = question[: match.start()], question[match.end() :]
        if not owner.strip() or owner.endswith(("是", "的")):
            continue
        role, rest = _zh_role(after)
        if not role:
            continue
        if _ZH_TRIVIAL_REST.match(rest.strip(_QUESTION_MARKS)):
            # "张三的导师是谁": a single fact, unless the noun phrase is two relations
            # (生产无人机的公司总部在哪里: the company, then its headquarters).
            head = next((noun for noun in _ZH_ENTITY_HEADS if role.startswith(noun) and role != noun), None)
            if head is None:
                continue
            role, rest = head, role[len(head) :] + rest
        wh = "谁" if role in _ZH_PERSON_ROLES or role.endswith(("人", "家", "师", "者")) else "什么"
        return f"{owner}的{role}是{wh}？", f"#{slot}{rest}"
    return None


def _zh_role(text: str) -> tuple[str, str]:
    """Return the leading noun phrase of ``text`` and what follows it."""
    role = ""
    for tok in zh_tag(text):
        noun = tok.f.startswith("n") and tok.f not in {"nr", "nrfg", "ns", "nt"} or tok.f == "x_latin"
        if not noun or not tok.w.strip():
            break
        role += tok.w
    return role, text[len(role) :]


# -- English ----------------------------------------------------------------------------

_WORD = re.compile(r"#\d+(?:'s|’s)?|[A-Za-z0-9][\w.&+-]*(?:'s|’s|')?|[^\sA-Za-z0-9]")


def _split_en(question: str, slot: int) -> tuple[str, str] | None:
    tokens = _WORD.findall(question)
    for finder in (_of_phrase, _relative_clause, _possessive):
        found = finder(tokens)
        if found is None:
            continue
        start, end, description, person = found
        # "my manager's husband": the description is "my manager", and its answer owns the rest.
        owned = end < len(tokens) + 1 and description.endswith(_POSSESSIVE_SUFFIXES)
        if owned:
            description = _strip_possessive(description)
        rest = _tidy(" ".join([*tokens[:start], f"#{slot}'s" if owned else f"#{slot}", *tokens[end:]]))
        if _EN_TRIVIAL_REST.match(rest):
            continue
        wh = "Who" if person else "What"
        return f"{wh} is {description}?", rest
    return None


def _of_phrase(tokens: list[str]) -> tuple[int, int, str, bool] | None:
    """``the R of X`` with X a name or an earlier answer."""
    for index, word in enumerate(tokens):
        if word.lower() != "the" or index + 3 >= len(tokens):
            continue
        role_end = index + 1
        while role_end < len(tokens) and _is_role_word(tokens[role_end]) and role_end - index <= 2:
            role_end += 1
        if role_end == index + 1 or role_end >= len(tokens) or tokens[role_end].lower() != "of":
            continue
        name_end = _name_run(tokens, role_end + 1)
        role = tokens[role_end - 1].lower()
        if name_end == role_end + 1 or role not in _EN_RELATION_NOUNS or en.possessive_owner(tokens[name_end - 1]):
            continue
        return index, name_end, " ".join(tokens[index:name_end]), role in _EN_PERSON_ROLES
    return None


def _possessive(tokens: list[str]) -> tuple[int, int, str, bool] | None:
    """``X's R`` / ``my R`` followed by more question; R may itself own more (``my boss's wife``)."""
    for index, word in enumerate(tokens):
        owner = en.possessive_owner(word)
        first_person = word.lower() in {"my", "our"}
        if not (first_person or (owner and (owner[:1].isupper() or owner.startswith("#")))):
            continue
        start = index
        while start > 0 and (tokens[start - 1][:1].isupper() or tokens[start - 1].startswith("#")) and not first_person:
            if tokens[start - 1].lower() in _QUESTION_STARTERS:
                break
            start -= 1
        role_end = index + 1
        while role_end < len(tokens) and role_end - index <= 3:  # "my uni best friend's"
            plain = _strip_possessive(tokens[role_end])
            following = _strip_possessive(tokens[role_end + 1]).lower() if role_end + 1 < len(tokens) else ""
            # "swim coach", "dance teacher": a verb before a role word names the role's kind
            modifies_role = plain == tokens[role_end] and plain.isalpha() and following in _EN_PERSON_ROLES
            if not (_is_role_word(plain) or modifies_role):
                break
            role_end += 1
            if plain != tokens[role_end - 1]:
                break  # "manager's": the role ends here and owns what follows
        role = _strip_possessive(tokens[role_end - 1]).lower() if role_end > index + 1 else ""
        if role not in _EN_RELATION_NOUNS:
            continue
        return start, role_end, " ".join(tokens[start:role_end]), role in _EN_PERSON_ROLES
    return None


_POSSESSIVE_SUFFIXES = ("'s", "’s", "s'")


def _strip_possessive(word: str) -> str:
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word[:-1] if word.endswith("s'") else word


def _relative_clause(tokens: list[str]) -> tuple[int, int, str, bool] | None:
    """``the HEAD who VERB … Name`` or ``the HEAD (that) Name VERB (prep)``."""
    for index, word in enumerate(tokens):
        if word.lower() != "the" or index + 3 >= len(tokens):
            continue
        head = tokens[index + 1].lower()
        if head not in _EN_HEADS:
            continue
        cursor = index + 2
        if tokens[cursor].lower() in _EN_RELATIVE:
            cursor += 1
        if cursor >= len(tokens):
            continue
        if _is_name(tokens[cursor]):
            # Object gap: "the company (that) Alice works for".
            end = _name_run(tokens, cursor)
            if end >= len(tokens) or not en.is_verb(tokens[end].lower()):
                continue
            end += 1
            while end < len(tokens) and tokens[end].lower() in _EN_CLAUSE_TAIL:
                end += 1
        elif cursor > index + 2 and en.is_verb(tokens[cursor].lower()):
            # Subject gap: "the person who founded Acme", "the man who lives in Denver".
            end = cursor + 1
            while end < len(tokens) and not _is_name(tokens[end]) and tokens[end] not in "?.!,":
                end += 1
            if end >= len(tokens) or not _is_name(tokens[end]):
                continue
            end = _name_run(tokens, end)
        else:
            continue
        return index, end, " ".join(tokens[index:end]), head in _EN_PERSON_ROLES
    return None


_QUESTION_STARTERS = frozenset({"who", "what", "where", "when", "which", "how", "why", "whose", "is", "does", "did"})


def _is_role_word(word: str) -> bool:
    lowered = word.lower()
    return (
        word.isalpha()
        and (word.islower() or lowered in _EN_PERSON_ROLES)
        and lowered not in en.STOPWORDS
        and lowered not in en.PREPOSITIONS
        and (lowered in _EN_HEADS or not en.is_verb(lowered))
    )


def _is_name(word: str) -> bool:
    return word.startswith("#") or (word[:1].isupper() and word.lower() not in _QUESTION_STARTERS | {"i"})


def _name_run(tokens: list[str], start: int) -> int:
    end = start
    while end < len(tokens) and _is_name(tokens[end]):
        end += 1
    return end


def _tidy(text: str) -> str:
    text = re.sub(r"\s+([?.!,;:])", r"\1", text)
    return text[:1].upper() + text[1:]
