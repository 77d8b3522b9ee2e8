"""``elephant demo``: remember a short conversation, then answer questions about it.

It runs offline on whatever store is configured (the embedded FalkorDB by default),
under its own agent id so it never mixes with real memories; running it again adds
nothing, because re-ingested episodes are recognised.
"""

from __future__ import annotations

from elephant_broker.broker.api import Broker
from elephant_broker.language.sentences import sentence_of
from elephant_broker.schemas.models import Perception
from rich.console import Console
from rich.table import Table

CONVERSATION: list[tuple[str, str, str]] = [
    # (session, speaker, text)
    ("s1", "小李", "小李精通 Python。"),
    ("s1", "小李", "小李目前在用 n8n 搭建自动化工作流。"),
    ("s1", "小李", "n8n的 Code 节点支持Python 和 JS 脚本。"),
    ("s1", "小李", "如果明天下雨，我就不去公园了。"),
    ("s2", "小王", "我最喜欢吃西红柿。"),
    ("s2", "小王", "我住在杭州。"),
    ("s2", "小王", "哈哈，今天好开心！"),
    ("s3", "Alice", "I work at Acme Corp."),
    ("s3", "Alice", "Frank Herbert wrote Dune."),
    ("s3", "Alice", "Frank Herbert was born in Tacoma."),
    ("s3", "Alice", "Thanks, that's great!"),
    ("s4", "小李", "张三的导师是李四。"),
    ("s4", "小李", "李四在清华大学任教。"),
]

QUESTIONS: list[tuple[str, str]] = [
    # (speaker, question) -- asked in a new session
    ("小李", "帮我在 n8n 写一段脚本，该用什么语言？"),
    ("小王", "我最爱吃的是什么？"),
    ("小王", "我住在哪里？"),
    ("Alice", "Where do I work?"),
    ("Alice", "Who wrote Dune?"),
    # multi-hop: answered through a chain of sub-questions, the path cited as evidence
    ("Alice", "Where was the author of Dune born?"),
    ("小李", "张三的导师在哪所大学任教？"),
]


def run_demo(broker: Broker, *, agent_id: str = "demo", console: Console | None = None, quiet: bool = False) -> None:
    """Ingest the scripted conversation and print each question with its answer and evidence."""
    console = console or Console()
    perceptions = [
        Perception(text=text, speaker=speaker, session_id=session, agent_id=agent_id, source="demo")
        for session, speaker, text in CONVERSATION
    ]
    report = broker.remember_many(perceptions)
    counts = broker.counts(agent_id=agent_id)
    console.print(
        f"[bold]Ingested[/] {len(perceptions)} turns -> {report.episodes} new episode(s), {report.facts} new fact(s), "
        f"{report.entities} new entit(ies). Memory of agent '{agent_id}' now holds {counts['episodes']} episodes, "
        f"{counts['entities']} entities, {counts['facts']} facts.",
        highlight=False,
    )
    for speaker, question in QUESTIONS:
        answer = broker.ask(question, speaker=speaker, agent_id=agent_id, session_id="demo-questions")
        console.rule(f"[bold]{speaker}[/] asks: {question}")
        console.print(f"[green]answer:[/] {answer.answer}", highlight=False)
        for number, hop in enumerate(answer.hops, start=1):
            found = ", ".join(entity.name for entity in hop.answers) or "—"
            console.print(f"  [dim]hop {number}:[/] {hop.question} → {found}", highlight=False)
        table = Table("fact", "confidence", "weight", "episodes", box=None, show_header=True)
        for fact in answer.facts:
            table.add_row(sentence_of(fact), f"{fact.confidence:.2f}", str(fact.weight), ", ".join(fact.episode_ids))
        if answer.facts:
            console.print(table)
        for episode in answer.episodes:
            console.print(
                f"  [dim]episode {episode.id} ({episode.session_id}, {episode.speaker}):[/] {episode.text}",
                highlight=False,
            )
