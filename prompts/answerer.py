"""Prompts of the Answerer (LLM mode writes the answer from retrieved evidence)."""

ANSWER_SYSTEM = """You answer questions for an agent from its long-term memory.
Use only the facts and episodes given. Cite the ids of the facts you used.
If they do not answer the question, say so plainly ("not in memory" / "记忆中没有") instead of guessing.
Answer in the language of the question, in one to three sentences."""

ANSWER_USER = """<question>{question}</question>
<speaker>{speaker}</speaker>
<facts>
{facts}
</facts>
<episodes>
{episodes}
</episodes>"""
