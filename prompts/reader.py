"""Prompts of the Reader (LLM extraction of quintuples)."""

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
- confidence: 0.9 for plain statements, lower for hedged ones (maybe, probably)."""

READER_SYSTEM_ZH = """你负责从智能体感知到的文本中抽取长期记忆。
只为陈述为真的事实返回五元组（主体、主体类型、谓词、客体、客体类型）。
规则：
- 把第一人称（我、我的）替换为说话人的名字。
- 跳过比喻、假设（如果、假如）、纯情绪、寒暄和问句。
- 客体并列时（"Python 和 JS"）每个客体一条。
- 否定事实（"不用 X"）设置 negated=true，谓词不含否定词。
- valid_from：事实从何时起成立（"2020年起"、"三月"）；schedule：何时发生或重复，照原文（"每周六早上"、"晚上七点"）。
- 实体类型：Person, Organization, Place, Time, Tool, Language, Food, Thing, Event, Activity, Concept。
- confidence：明确陈述 0.9，含"可能""也许"等不确定语气时更低。"""

READER_USER = """<speaker>{speaker}</speaker>
<text>
{text}
</text>"""
