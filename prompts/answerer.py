"""Prompts of the Answerer: multi-hop decomposition, per-hop reasoning, the final answer."""

ANSWER_SYSTEM = """You answer questions for an agent from its long-term memory.
Use only the facts, episodes and query result given. Cite the ids of the facts and episodes you used.
If they do not answer the question, set in_memory=false and say so plainly ("not in memory" / "记忆中没有")
instead of guessing. Answer in the language of the question, in one to three sentences."""

ANSWER_USER = """<question>{question}</question>
<speaker>{speaker}</speaker>
<steps>
{steps}
</steps>
<facts>
{facts}
</facts>
<episodes>
{episodes}
</episodes>
<query_result>
{query_result}
</query_result>"""

DECOMPOSE_SYSTEM = """You plan how to answer a question from a knowledge graph of facts.
If the question asks about something it only describes ("Where was the author of Dune born?",
"张三的导师在哪所大学任教？"), split it into simple sub-questions, one relation each, in order.
Later sub-questions refer to earlier answers as #1, #2 ("Who is the author of Dune?", "Where was #1 born?").
The last sub-question asks what the whole question asks. Use at most {max_hops} sub-questions.
If one lookup answers the question, set multi_hop=false and return no sub-questions.
Write the sub-questions in the language of the question."""

DECOMPOSE_USER = """<question>{question}</question>
<speaker>{speaker}</speaker>"""

REASON_SYSTEM = """You answer one sub-question of a multi-hop question from the facts given, and nothing else.
Return the entity that answers it, exactly as it is named in the facts, and the ids of the facts that say so.
If the facts do not answer it, set found=false."""

REASON_USER = """<sub_question>{question}</sub_question>
<facts>
{facts}
</facts>"""
