"""Truth maintenance: conflicts by kind, auto and human review, history, as-of, authority."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.schemas.context import Context
from elephant_broker.schemas.models import parse_instant


def facts_by_object(broker: Broker, agent: str | None = None) -> dict[str, str]:
    return {f"{'not ' if f.negated else ''}{f.object}": f.status for f in broker.facts(agent_id=agent)}


@pytest.fixture
def human(context: Context) -> Broker:
    context.review_policy = "human"
    return Broker(context)


# -- detection is scoped ------------------------------------------------------------------


def test_unrelated_and_multi_valued_facts_never_conflict(broker: Broker) -> None:
    broker.remember("我住在杭州。", speaker="小王")
    assert broker.remember("我住在上海。", speaker="小李").conflicts == 0  # another subject
    broker.remember("我喜欢 Python。", speaker="小王")
    assert broker.remember("我喜欢 Go。", speaker="小王").conflicts == 0  # likes holds many values
    assert broker.remember("我在阿里巴巴工作。", speaker="小王").conflicts == 0  # another predicate
    assert broker.conflicts() == []


# -- policy auto ------------------------------------------------------------------------


def test_new_value_of_a_single_valued_predicate_supersedes_under_auto(broker: Broker) -> None:
    broker.remember("我住在杭州。", speaker="小王")
    report = broker.remember("我住在上海。", speaker="小王")
    assert (report.episodes, report.conflicts) == (1, 1)
    assert facts_by_object(broker) == {"杭州": "superseded", "上海": "active"}
    [conflict] = broker.conflicts()
    assert (conflict.kind, conflict.status, conflict.decision, conflict.decided_by) == (
        "single_value",
        "decided",
        "keep_new",
        "auto",
    )
    assert "confidence x authority x recency" in conflict.reason
    [old] = [f for f in broker.facts() if f.object == "杭州"]
    assert old.valid_to and old.expired_at
    answer = broker.ask("我住在哪里？", speaker="小王")
    assert answer.answer.startswith("上海")
    assert [f.object for f in answer.history] == ["杭州"]
    assert "以前：小王住在杭州" in answer.answer


@pytest.mark.parametrize(
    ("first", "second", "kind", "statuses"),
    [
        ("I live in Boston.", "I moved to Denver.", "supersession", {"Boston": "superseded", "Denver": "active"}),
        (
            "Alice is a student.",
            "Alice is not a student.",
            "negation",
            {"student": "rejected", "not student": "active"},
        ),
        ("I use Vim.", "I no longer use Vim.", "supersession", {"Vim": "superseded", "not Vim": "active"}),
    ],
)
def test_english_conflicts_under_auto(
    broker: Broker, first: str, second: str, kind: str, statuses: dict[str, str]
) -> None:
    broker.remember(first, speaker="Eve")
    assert broker.remember(second, speaker="Eve").conflicts == 1
    [conflict] = broker.conflicts()
    assert (conflict.kind, conflict.decision, conflict.decided_by) == (kind, "keep_new", "auto")
    assert facts_by_object(broker) == statuses


@pytest.mark.parametrize(
    ("speaker", "first", "second", "question", "answer", "old"),
    [
        ("小林", "我在美团工作。", "我已经不在美团工作了，现在在京东。", "我在哪里工作？", "京东", "美团"),
        (None, "星河科技的CEO是王建国。", "星河科技的CEO换成了李明远。", "星河科技的CEO是谁？", "李明远", "王建国"),
        (None, "蓝鲸集团总部位于深圳。", "蓝鲸集团总部迁到了杭州。", "蓝鲸集团的总部在哪里？", "杭州", "深圳"),
        ("Nora", "I work at Deloitte.", "I left Deloitte and joined KPMG.", "Where do I work?", "KPMG", "Deloitte"),
        ("Mia", "I live in Chicago.", "I moved out of Chicago to Seattle.", "Where do I live?", "Seattle", "Chicago"),
        ("Quinn", "I use Slack.", "I stopped using Slack and now I use Discord.", "What do I use?", "Discord", "Slack"),
        ("Dan", "I use Vim.", "I've switched from Vim to Emacs.", "What do I use?", "Emacs", "Vim"),
    ],
)
def test_a_change_said_in_one_sentence_retires_the_old_value(
    broker: Broker, speaker: str | None, first: str, second: str, question: str, answer: str, old: str
) -> None:
    broker.remember(first, speaker=speaker)
    assert broker.remember(second, speaker=speaker).conflicts >= 1
    reply = broker.ask(question, speaker=speaker)
    head = reply.answer.split("。")[0].split(". ")[0]
    assert head.startswith(answer) and old not in head, reply.answer
    assert {f.status for f in broker.facts() if f.object == old and not f.negated} == {"superseded"}


def test_negation_conflict_under_auto(broker: Broker) -> None:
    broker.remember("小李是学生。")
    report = broker.remember("小李不是学生。")
    assert report.conflicts == 1
    [conflict] = broker.conflicts()
    assert conflict.kind == "negation" and conflict.decision == "keep_new"
    # a plain negation corrects the record: the old statement was wrong, not merely past
    assert facts_by_object(broker) == {"学生": "rejected", "not 学生": "active"}


def test_explicit_supersession_retires_the_old_fact_and_asserts_the_new(broker: Broker) -> None:
    broker.remember("小李精通 Python。", speaker="小李")
    broker.remember("我在用 Python 写脚本。", speaker="小李")
    report = broker.remember("我不用 Python 了，我现在全栈转 Node.js。", speaker="小李")
    assert report.conflicts == 1
    [conflict] = broker.conflicts()
    assert conflict.kind == "supersession" and conflict.decision == "keep_new"
    statuses = {(f.predicate, f.object, f.negated): f.status for f in broker.facts()}
    assert statuses[("用", "Python", False)] == "superseded"
    assert statuses[("用", "Python", True)] == "active"
    assert statuses[("转", "Node.js", False)] == "active"
    assert statuses[("精通", "Python", False)] == "active"  # knowing Python is not retired
    answer = broker.ask("我现在用什么？", speaker="小李")
    assert answer.answer.startswith("Node.js")
    english = broker.remember("I no longer use Vim; I use Emacs now.", speaker="Eve")
    assert english.conflicts == 0  # nothing stored about Eve and Vim yet: nothing to retire


def test_source_authority_can_keep_the_old_fact(context: Context) -> None:
    context.source_authority = "paper=0.95,blog=0.3"
    broker = Broker(context)
    broker.remember("Acme的CEO是张三。", source="paper")
    broker.remember("Acme的CEO是李四。", source="blog")
    [conflict] = broker.conflicts()
    assert conflict.decision == "keep_old", conflict.reason
    assert {f.object: f.status for f in broker.facts(entity="Acme")} == {"张三": "active", "李四": "rejected"}
    # with equal authority the newer statement wins
    broker.remember("Globex的CEO是王五。", source="blog")
    broker.remember("Globex的CEO是赵六。", source="blog")
    assert {f.object: f.status for f in broker.facts(entity="Globex")} == {"王五": "superseded", "赵六": "active"}


# -- policy human -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "kind", "keep", "statuses"),
    [
        ("我住在杭州。", "我住在上海。", "single_value", "old", {"杭州": "active", "上海": "rejected"}),
        ("我是学生。", "我不是学生。", "negation", "new", {"学生": "rejected", "not 学生": "active"}),
        ("我用 Python。", "我不再用 Python 了。", "supersession", "both", {"Python": "active", "not Python": "active"}),
        (
            "I live in Boston.",
            "I live in Seattle.",
            "single_value",
            "new",
            {"Boston": "superseded", "Seattle": "active"},
        ),
        ("I am a student.", "I am not a student.", "negation", "old", {"student": "active", "not student": "rejected"}),
        ("I use Vim.", "I no longer use Vim.", "supersession", "new", {"Vim": "superseded", "not Vim": "active"}),
    ],
)
def test_human_review_pauses_then_resumes_with_the_decision(
    human: Broker, first: str, second: str, kind: str, keep: str, statuses: dict[str, str]
) -> None:
    human.remember(first, speaker="小王")
    held = human.remember(second, speaker="小王")
    assert (held.episodes, held.conflicts) == (0, 1)
    # nothing of the held episode is written while it waits
    assert len(human.facts()) == 1 and human.counts()["episodes"] == 1
    [open_conflict] = human.conflicts()
    assert (open_conflict.status, open_conflict.kind) == ("open", kind)

    decided = human.resolve(open_conflict.id, keep)
    assert (decided.status, decided.decision, decided.decided_by) == ("decided", f"keep_{keep}", "human")
    assert human.counts()["episodes"] == 2
    assert facts_by_object(human) == statuses
    assert [c.status for c in human.conflicts()] == ["decided"]
    with pytest.raises(ValueError, match="no open conflict"):
        human.resolve(open_conflict.id, keep)


def test_review_payload_is_json_and_a_bad_decision_is_refused(human: Broker) -> None:
    human.remember("我住在杭州。", speaker="小王")
    human.remember("我住在上海。", speaker="小王")
    [conflict] = human.conflicts()
    with pytest.raises(ValueError, match="new, old or both"):
        human.resolve(conflict.id, "maybe")
    payload = json.loads(conflict.model_dump_json())
    assert payload["old_fact"]["object"] == "杭州" and payload["new_fact"]["object"] == "上海"
    assert human.conflicts()[0].status == "open"  # the refused answer changed nothing


def test_open_reviews_survive_a_new_process(context: Context) -> None:
    context.review_policy = "human"
    Broker(context).remember("我住在杭州。", speaker="小王")
    Broker(context).remember("我住在上海。", speaker="小王")
    later = Broker(Context(home=context.home, store="embedded", agent_id=context.agent_id))  # policy auto now
    [conflict] = later.conflicts()
    later.resolve(conflict.id, "old")
    assert facts_by_object(later) == {"杭州": "active", "上海": "rejected"}


# -- time -------------------------------------------------------------------------------


def test_as_of_answers_as_memory_stood_then(broker: Broker) -> None:
    broker.remember("我住在杭州。", speaker="小王")
    time.sleep(0.01)
    before_move = datetime.now(UTC).isoformat()
    time.sleep(0.01)
    broker.remember("我搬到上海了。", speaker="小王")
    assert broker.ask("我住在哪里？", speaker="小王").answer.startswith("上海")
    then = broker.ask("我住在哪里？", speaker="小王", as_of=before_move)
    assert then.answer.startswith("杭州") and then.history == []
    before_anything = broker.ask("我住在哪里？", speaker="小王", as_of="2000-01-01")
    assert before_anything.facts == []
    with pytest.raises(ValueError, match="ISO"):
        broker.ask("我住在哪里？", speaker="小王", as_of="last week")


def test_imported_history_is_learnt_when_it_was_said(broker: Broker) -> None:
    broker.remember("Fiona lives in Dublin.", speaker="Fiona", time="2025-01-10T09:00:00")
    broker.remember("I moved to Cork.", speaker="Fiona", time="2025-06-01T10:00:00")
    broker.remember("I am vegetarian.", speaker="Fiona", time="2025-02-01")
    broker.remember("I am not vegetarian.", speaker="Fiona", time="2025-08-01")
    ask = lambda question, when=None: broker.ask(question, speaker="Fiona", as_of=when).answer  # noqa: E731
    assert ask("Where do I live?").startswith("Cork")
    assert ask("Where do I live?", "2025-03-01").startswith("Dublin")
    assert ask("Where do I live?", "2025-07-01").startswith("Cork")
    assert broker.ask("Where do I live?", speaker="Fiona", as_of="2024-12-31").facts == []
    # a denial corrects the record from then on; before it the statement was believed
    assert ask("Am I vegetarian?", "2025-03-01").startswith("Yes")
    assert ask("Am I vegetarian?").startswith("No")
    dublin = next(f for f in broker.facts() if f.object == "Dublin")
    assert dublin.created_at == parse_instant("2025-01-10T09:00:00") and dublin.valid_to == "2025-06-01T10:00:00"
    move = next(c for c in broker.conflicts() if c.old_fact.id == dublin.id)
    assert move.new_fact.created_at == parse_instant("2025-06-01T10:00:00")  # the record ages like the fact
    # free-text times date nothing: learnt when stored
    broker.remember("I work at Acme.", speaker="Fiona", time="last summer")
    acme = next(f for f in broker.facts() if f.object == "Acme")
    assert acme.created_at is not None and acme.created_at > parse_instant("2026-01-01")


def test_plans_said_long_ago_have_decayed(broker: Broker) -> None:
    broker.remember("Hank plans to visit Japan.", time="2024-01-05")
    broker.remember("Ivan plans to visit Japan.")
    answer = broker.ask("Who plans to visit Japan?")
    # Hank's stale plan is no answer any more, but is still listed among the related facts.
    assert [f.subject for f in answer.facts] == ["Ivan"]
    answers = {f.subject: f for f in [*answer.facts, *answer.related.facts]}
    assert answers["Hank"].predicate_key == "plans"
    assert answers["Hank"].confidence < 0.05 < answers["Ivan"].confidence == pytest.approx(0.7, abs=0.01)
    listed = {f.subject: f.confidence for f in broker.facts()}  # listing shows confidence as of now too
    assert listed["Hank"] == pytest.approx(answers["Hank"].confidence) and listed["Ivan"] > 0.6


# -- trust propagates to what was concluded ---------------------------------------------


def test_rejecting_a_fact_lowers_the_confidence_of_facts_derived_from_it(broker: Broker) -> None:
    broker.remember("小李是学生。", speaker="小王")
    [student] = broker.facts()
    broker.remember("小李有学生证。", speaker="assistant", derived_from=[student.id])
    broker.remember("小李可以买学生票。", speaker="assistant", derived_from=[student.id])
    derived = {f.id: f.confidence for f in broker.facts() if f.derived_from == [student.id]}
    assert len(derived) == 2
    broker.remember("小李不是学生。", speaker="小王")
    after = {f.id: f for f in broker.facts()}
    assert after[student.id].status == "rejected"
    for fact_id, before in derived.items():
        assert after[fact_id].confidence == pytest.approx(before * 0.5)
        assert after[fact_id].status == "active"


def test_derived_from_must_name_stored_facts(broker: Broker) -> None:
    with pytest.raises(ValueError, match="does not hold"):
        broker.remember("小李可以买学生票。", derived_from=["fact_0123456789abcdef0123"])
    with pytest.raises(ValueError, match="not a fact id"):
        broker.remember("小李可以买学生票。", derived_from=["fact_nope"])
    assert broker.counts()["episodes"] == 0


def test_distrusting_a_source_lowers_its_facts_and_what_follows_from_them(broker: Broker) -> None:
    broker.remember("Acme的CEO是张三。", source="rumours")
    broker.remember("Acme的CEO是张三。", source="annual-report")  # also from a second source
    broker.remember("Globex的CEO是李四。", source="rumours")
    [li] = [f for f in broker.facts() if f.object == "李四"]
    broker.remember("李四住在纽约。", source="assistant", derived_from=[li.id])
    before = {f.object: f.confidence for f in broker.facts()}
    updates = broker.set_source_authority("rumours", 0.35)
    after = {f.object: f for f in broker.facts()}
    assert after["李四"].authority == pytest.approx(0.35)
    assert after["李四"].confidence == pytest.approx(before["李四"] * 0.5)  # 0.7 -> 0.35
    assert after["张三"].confidence == pytest.approx(before["张三"])  # rests on a second source too
    derived = [f for f in after.values() if f.derived_from == [li.id]]
    assert derived and all(f.confidence == pytest.approx(before[f.object] * 0.5) for f in derived)
    assert {u.fact_id for u in updates} >= {li.id}
    # later episodes from that source start with its new authority
    broker.remember("Initech的CEO是王五。", source="rumours")
    assert {f.object: f.authority for f in broker.facts()}["王五"] == pytest.approx(0.35)
    assert {s["name"]: s["authority"] for s in broker.sources()}["rumours"] == pytest.approx(0.35)


def test_conflicts_compare_canonical_predicates_not_wordings(broker: Broker) -> None:
    broker.remember("小王居住于杭州。")  # 居住于 is not in the lexicon: matched to lives_in by embedding
    report = broker.remember("小王住在上海。")
    assert report.conflicts == 1
    assert {f.predicate_key for f in broker.facts()} == {"lives_in"}
