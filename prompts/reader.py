"""Prompts of the Reader (LLM extraction of quintuples).

``READER_SYSTEM_*`` is the system message; a user schema adds ``READER_SCHEMA_*`` to it
(``domain.user_schema``). The user message is ``READER_USER``, or
``READER_USER_WITH_CONTEXT`` for a piece of a long text, which shows the end of the piece
before it as context only (``domain.reading``).
"""

READER_SYSTEM_EN = """You extract long-term memories from what an agent perceived.
Return quintuples (subject, subject_type, predicate, object, object_type) for facts stated as true.
Rules:
- Replace first-person words (I, me, my) with the speaker's name.
- Skip metaphors, hypotheticals (if/would), pure emotions, small talk and questions.
- One quintuple per object when objects are listed ("Python and JS" gives two).
- Set negated=true for negated facts ("does not use X") and keep the predicate without the negation.
- valid_from: when the fact became true, if stated ("since 2020", "in March"); schedule: when it recurs
  or happens, as written ("every Saturday morning", "at 7 am", "on Friday").
- Entity types: Person, Organization, Place, Time, Tool, Language, Food, Thing, Event, Activity, Concept.
- confidence: 0.9 for plain statements, lower for hedged ones (maybe, probably).
- <context>, when given, is the text just before <text>: use it only to know whom or what a word
  refers to (he, she, it, the company). Extract facts stated in <text> only, never facts stated only in <context>.
- source_span: the sentence of <text> the fact comes from, copied exactly."""

READER_SYSTEM_ZH = """你负责从智能体感知到的文本中抽取长期记忆。
只为陈述为真的事实返回五元组（主体、主体类型、谓词、客体、客体类型）。
规则：
- 把第一人称（我、我的）替换为说话人的名字。
- 跳过比喻、假设（如果、假如）、纯情绪、寒暄和问句。
- 客体并列时（"Python 和 JS"）每个客体一条。
- 否定事实（"不用 X"）设置 negated=true，谓词不含否定词。
- valid_from：事实从何时起成立（"2020年起"、"三月"）；schedule：何时发生或重复，照原文（"每周六早上"、"晚上七点"）。
- 实体类型：Person, Organization, Place, Time, Tool, Language, Food, Thing, Event, Activity, Concept。
- confidence：明确陈述 0.9，含"可能""也许"等不确定语气时更低。
- 若给出 <context>，它是紧接在 <text> 之前的文字：只用它判断"他""她""它""该公司"等指的是谁或什么。
  只抽取 <text> 中陈述的事实，不要抽取只在 <context> 中陈述的事实。
- source_span：事实所在的 <text> 原句，逐字照抄。"""

READER_USER = """<speaker>{speaker}</speaker>
<text>
{text}
</text>"""

READER_USER_WITH_CONTEXT = """<speaker>{speaker}</speaker>
<context>
{context}
</context>
<text>
{text}
</text>"""

READER_SCHEMA = """<schema>
{entity_types}
{predicates}
</schema>"""
"""The user schema's part of the system message; each section is empty when the schema declares none."""

READER_SCHEMA_SECTIONS = {
    "en": {
        "entity_types": "Entity types: use only these, by the name before a colon (the words after it are other "
        "names of the type); anything else is Concept.",
        "predicates": "Predicates: write each predicate exactly as one of these names (the words after a colon "
        "mean the same).",
        "drop": "Leave out any fact none of these predicates expresses.",
        "keep": "A fact none of these predicates expresses keeps a predicate in your own words.",
        "one": "one value at a time",
        "time_sensitive": "changes over time: give valid_from when stated",
    },
    "zh": {
        "entity_types": "实体类型：只用以下类型，填冒号前的名称（冒号后是该类型的其他叫法）；其他一律为 Concept。",
        "predicates": "谓词：每个谓词照抄以下名称之一（冒号后的说法意思相同）。",
        "drop": "不属于上述任何谓词的事实不要抽取。",
        "keep": "不属于上述任何谓词的事实，谓词用你自己的说法。",
        "one": "同一时间只有一个值",
        "time_sensitive": "会随时间变化：若有说明请给出 valid_from",
    },
}
"""The words of ``READER_SCHEMA``'s sections, by language."""
