"""The review desk: one per memory, scoped like everything else, the same for every surface.

Conflicts are looked up in the caller's memory only (another agent's id is answered
like an unknown one); a paused run keeps the policy it paused under and asks again
after an answer that names no decision; a conflict paused on another runtime's
checkpointer (as ``langgraph dev`` does) is listed by ``Broker.conflicts`` and
``resolve`` says where to resume it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.graphs.ingest import builder
from elephant_broker.schemas.context import Context
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

UNKNOWN_ID = "conflict_0123456789abcdef"
OLD = {"text": "我住在杭州。", "speaker": "小王"}
NEW = {"text": "我住在上海。", "speaker": "小王"}


@pytest.fixture
def human(context: Context) -> Broker:
    return Broker(replace(context, review_policy="human"))


def held_conflict(broker: Broker, agent: str) -> str:
    """Remember a fact, then a contradiction held for review; return the open conflict's id."""
    broker.remember(OLD["text"], speaker=OLD["speaker"], agent_id=agent)
    report = broker.remember(NEW["text"], speaker=NEW["speaker"], agent_id=agent)
    assert (report.episodes, report.conflicts) == (0, 1)
    [conflict] = broker.conflicts(agent_id=agent)
    assert conflict.status == "open"
    return conflict.id


def refusal(broker: Broker, conflict_id: str, agent: str) -> str:
    with pytest.raises(ValueError) as raised:
        broker.resolve(conflict_id, "new", agent_id=agent)
    return str(raised.value).replace(conflict_id, "ID")


# -- conflicts are looked up in the caller's memory ------------------------------------------


def test_another_agent_cannot_settle_or_see_a_conflict(human: Broker) -> None:
    conflict_id = held_conflict(human, "A")
    assert human.conflicts(agent_id="B") == []

    # The same answer as for an id that exists nowhere: no way to tell the two apart.
    assert refusal(human, conflict_id, "B") == refusal(human, UNKNOWN_ID, "B")
    assert "no open conflict" in refusal(human, conflict_id, "B")
    [still] = human.conflicts(agent_id="A")
    assert still.id == conflict_id and still.status == "open"
    assert human.counts(agent_id="A")["episodes"] == 1  # B's attempt wrote nothing

    decided = human.resolve(conflict_id, "new", agent_id="A")
    assert (decided.status, decided.decision, decided.decided_by) == ("decided", "keep_new", "human")
    assert human.counts(agent_id="A")["episodes"] == 2
    assert human.counts(agent_id="B") == {"episodes": 0, "entities": 0, "facts": 0}


def test_cli_resolve_is_scoped_to_the_agent(cli) -> None:
    cli("ingest", "--text", OLD["text"], "--speaker", OLD["speaker"], "--agent", "A")
    held = cli("--quiet", "ingest", "--text", NEW["text"], "--speaker", "小王", "--agent", "A", "--review", "human")
    assert "await review" in held.stdout
    [conflict] = json.loads(cli("conflicts", "--agent", "A", "--json").stdout)
    assert json.loads(cli("conflicts", "--agent", "B", "--json").stdout) == []

    other = cli("resolve", conflict["id"], "--keep", "new", "--agent", "B", check=False)
    unknown = cli("resolve", UNKNOWN_ID, "--keep", "new", "--agent", "B", check=False)
    assert other.returncode != 0 and "no open conflict" in other.stderr and "Traceback" not in other.stderr
    assert other.stderr.replace(conflict["id"], "ID") == unknown.stderr.replace(UNKNOWN_ID, "ID")
    [still] = json.loads(cli("conflicts", "--agent", "A", "--json").stdout)
    assert still["status"] == "open"

    # Resolved in a new process without --review: the run keeps the policy it paused under.
    decided = json.loads(cli("resolve", conflict["id"], "--keep", "old", "--agent", "A", "--json").stdout)
    assert (decided["decision"], decided["decided_by"]) == ("keep_old", "human")
    [recorded] = json.loads(cli("conflicts", "--agent", "A", "--json").stdout)
    assert (recorded["status"], recorded["decision"]) == ("decided", "keep_old")


# -- a paused run on any checkpointer (the LangGraph API's, here an in-memory one) -------------


def paused_elsewhere(context: Context, thread: str, agent: str = "A") -> tuple[Any, dict[str, Any]]:
    """Pause a contradiction on a checkpointer the review desk does not hold."""
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": thread}}
    Broker(context).remember(OLD["text"], speaker=OLD["speaker"], agent_id=agent)
    result = graph.invoke({**NEW, "agent_id": agent}, config, context=replace(context, review_policy="human"))
    [pending] = result["__interrupt__"]
    return graph, pending.value


def test_a_bad_answer_asks_again_and_a_good_one_settles(context: Context) -> None:
    graph, asked = paused_elsewhere(context, "thread-1")
    config: Any = {"configurable": {"thread_id": "thread-1"}}
    human = replace(context, review_policy="human")

    again = graph.invoke(Command(resume="maybe"), config, context=human)
    [pending] = again["__interrupt__"]
    assert "new, old or both" in pending.value["error"] and "'maybe'" in pending.value["error"]
    assert {k: v for k, v in pending.value.items() if k not in ("error", "suggestion")} == {
        k: v for k, v in asked.items() if k != "suggestion"
    }
    assert graph.get_state(config).next == ("review_conflicts",)
    [listed] = Broker(context).conflicts(agent_id="A")
    assert listed.status == "open"  # still on the desk, still unwritten
    assert Broker(context).counts(agent_id="A")["episodes"] == 1

    done = graph.invoke(Command(resume={"decision": "keep_new", "reason": "moved"}), config, context=human)
    assert "__interrupt__" not in done
    [recorded] = Broker(context).conflicts(agent_id="A")
    assert (recorded.status, recorded.decision, recorded.reason) == ("decided", "keep_new", "moved")


def test_a_resumed_run_keeps_the_policy_it_paused_under(context: Context) -> None:
    graph, _ = paused_elsewhere(context, "thread-2")
    config: Any = {"configurable": {"thread_id": "thread-2"}}
    # The resuming run names no policy (auto): the person's answer still decides. Auto
    # would have kept the newer fact; the reviewer keeps the old one.
    graph.invoke(Command(resume="keep_old"), config, context=replace(context, review_policy="auto"))
    [recorded] = Broker(context).conflicts(agent_id="A")
    assert (recorded.decision, recorded.decided_by) == ("keep_old", "human")
    assert {f.object: f.status for f in Broker(context).facts(agent_id="A")} == {"杭州": "active", "上海": "rejected"}


def test_a_conflict_paused_elsewhere_is_listed_and_resolve_says_where(context: Context) -> None:
    _, asked = paused_elsewhere(context, "server-thread-7")
    broker = Broker(context)
    [listed] = broker.conflicts(agent_id="A")
    assert (listed.id, listed.status) == (asked["conflict_id"], "open")
    assert broker.conflicts(agent_id="B") == []

    with pytest.raises(ValueError) as raised:
        broker.resolve(listed.id, "new", agent_id="A")
    message = str(raised.value)
    assert "server-thread-7" in message and '"resume": "keep_new"' in message and "\n" not in message
    assert broker.conflicts(agent_id="A")[0].status == "open"
    assert refusal(broker, listed.id, "B") == refusal(broker, UNKNOWN_ID, "B")


def test_deciding_a_conflict_takes_it_off_the_desk_wherever_it_was_paused(context: Context) -> None:
    paused_elsewhere(context, "abandoned-thread")
    # The same text again, decided by policy in another run: the abandoned pause is stale.
    Broker(context).remember(NEW["text"], speaker=NEW["speaker"], agent_id="A")
    assert [(c.status, c.decided_by) for c in Broker(context).conflicts(agent_id="A")] == [("decided", "auto")]
