"""Episode entry points on every backend: full text, mentions, and the fused ranking."""

from __future__ import annotations

from collections.abc import Sequence

import elephant_broker.store.episodes as episode_queries
import pytest
from elephant_broker.broker.api import Broker
from elephant_broker.domain.evidence import link_entities
from elephant_broker.domain.retrieval import (
    ANSWER,
    RECALL,
    EpisodeSearch,
    RecipeError,
    dense_ranking,
    keyword_ranking,
    keyword_terms,
    search_episodes,
    spread_ranking,
)
from elephant_broker.language.pronouns import resolve_first_person
from elephant_broker.language.question import analyse_question
from elephant_broker.providers.resources import get_embeddings, request_scope
from elephant_broker.schemas.models import DEFAULT_SPEAKER, Entity, EntityRow, Episode, EpisodeWrite
from elephant_broker.store import GraphStore
from elephant_broker.store.base import entity_id

from tests.integration.plans import EMBED

CHAT = [
    ("e1", "Alice", "I repaired the old bicycle in the garage this weekend."),
    ("e2", "Bob", "The garage door is broken again, we need a repair."),
    ("e3", "Alice", "Tom finally gave back the quokka plush, order 48213 arrived."),
    ("e4", "Bob", "We should order new parts for the bicycle soon."),
    ("e5", "Alice", "I bought a lamp for the garage."),
    ("e6", "Bob", "Parts for bicycles are expensive these days."),
]


def write(
    graph: GraphStore,
    scope: str,
    eid: str,
    speaker: str,
    text: str,
    mentions: Sequence[str] = (),
    created: int = 0,
    session: str = "s",
) -> None:
    """Store one episode as ingest does: "speaker: text" embedded, mentioned entities linked."""
    graph.write_episode(
        EpisodeWrite(
            scope=scope,
            episode=Episode(
                id=eid,
                agent_id=scope,
                session_id=session,
                speaker=speaker,
                source="chat",
                text=text,
                created_at=created,
            ),
            episode_embedding=EMBED.embed_documents([f"{speaker}: {resolve_first_person(text, speaker)}"])[0],
            entities=[EntityRow(key=name.lower(), name=name, type="Concept", search_text=name) for name in mentions],
        )
    )


@pytest.fixture(autouse=True, params=["episode index", "graph only"])
def episode_index(request: pytest.FixtureRequest) -> str:
    """Run each store test with the embedded store's episode index and with the graph alone.

    A server reached by URL keeps keywords and mentions in the graph only, so both must rank alike.
    """
    if request.param == "graph only":
        if "store" not in request.fixturenames:
            pytest.skip("no store of its own")
        graph, _ = request.getfixturevalue("store")
        if graph.episode_index is None:
            pytest.skip("this backend has the graph only")
        graph.episode_index = None
    return str(request.param)


def entity(graph: GraphStore, scope: str, key: str) -> Entity:
    return graph.entities_by_keys(scope, [key])[key]


def test_a_rare_word_is_found_by_full_text_when_dense_search_misses_it(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    question = "Where does Alice keep the quokka, in the garage?"
    # The embedding hears "Alice" and "garage"; the rare word decides the full-text rank.
    assert dense_ranking(graph, EMBED, scope, question)[0].id != "e3"
    assert keyword_ranking(graph, scope, question)[0].id == "e3"
    assert "e3" in [episode.id for episode in search_episodes(graph, EMBED, scope, question, (), RECALL.with_limit(2))]


def test_an_exact_number_is_found_by_full_text(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    ranked = keyword_ranking(graph, scope, "Which order is 48213?")
    assert [episode.id for episode in ranked][:2] == ["e3", "e4"]  # "order" alone finds e4, lower


def test_full_text_scores_rare_words_above_common_ones(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    # "garage" is in three episodes, "lamp" in one: the lamp episode ranks first.
    hits = graph.search_episodes_text(scope, ["garage", "lamp"], k=10)
    assert hits[0][0].id == "e5"
    assert {episode.id for episode, _ in hits} == {"e1", "e2", "e5"}
    assert hits[0][1] > hits[1][1]


def test_a_word_in_most_episodes_is_left_out_of_full_text_when_a_rarer_one_matches(
    store: tuple[GraphStore, str],
) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    # Alice and Bob each speak in half the turns: "alice" still counts. With a seventh
    # turn of Alice's she speaks in most, and her name stops ranking her turns.
    assert {episode.id for episode, _ in graph.search_episodes_text(scope, ["alice", "parts"], k=10)} == {
        "e1",
        "e3",
        "e5",
        "e4",
        "e6",
    }
    write(graph, scope, "e7", "Alice", "Nothing new today.")
    hits = graph.search_episodes_text(scope, ["alice", "parts"], k=10)
    assert {episode.id for episode, _ in hits} == {"e4", "e6"}
    # Alone, the common word is all the question has: it is kept; a word nothing matches changes nothing.
    assert len(graph.search_episodes_text(scope, ["alice"], k=10)) == 4
    assert len(graph.search_episodes_text(scope, ["alice", "zeppelin"], k=10)) == 4


def test_full_text_indexes_the_speaker_and_stored_fields(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    [(found, _)] = graph.search_episodes_text(scope, ["48213"], k=5)
    assert (found.speaker, found.session_id, found.source) == ("Alice", "s", "chat")
    assert {episode.speaker for episode, _ in graph.search_episodes_text(scope, ["bob"], k=10)} == {"Bob"}


def test_chinese_episodes_are_found_by_words_inside_longer_words(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    write(graph, scope, "z1", "小王", "我在北京大学读计算机专业。")
    write(graph, scope, "z2", "小李", "我周末去上海看展览。")
    write(graph, scope, "z3", "小王", "今天天气很好。")
    assert [episode.id for episode in keyword_ranking(graph, scope, "小王在北京读什么专业？")][0] == "z1"
    assert [episode.id for episode, _ in graph.search_episodes_text(scope, keyword_terms("上海"), k=5)] == ["z2"]


def test_episode_reads_stay_in_their_scope(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    other = scope + "-other"
    try:
        write(graph, scope, "mine", "Alice", "The password hint is zebra.", mentions=["Zebra"])
        write(graph, other, "theirs", "Alice", "The password hint is zebra too.", mentions=["Zebra"])
        assert [episode.id for episode, _ in graph.search_episodes_text(scope, ["zebra"])] == ["mine"]
        zebra = entity(graph, scope, "zebra")
        assert [episode.id for episode, _, _ in graph.episodes_mentioning(scope, {zebra.id: 1.0})] == ["mine"]
        assert graph.mention_counts(scope, [zebra.id]) == {zebra.id: 1}
        assert graph.episode_count(scope) == 1
        # The other scope's entity id is not reachable from this scope either.
        foreign = entity_id(other, "zebra")
        assert graph.episodes_mentioning(scope, {foreign: 1.0}) == []
        assert [e.id for e in search_episodes(graph, EMBED, other, "zebra password", (), RECALL.with_limit(5))] == [
            "theirs"
        ]
    finally:
        graph.delete_scope(other)


def test_mentions_are_summed_by_entity_weight_in_the_store(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    write(graph, scope, "m1", "Bob", "Alice walked Biscuit on the beach.", mentions=["Alice", "Biscuit", "Beach"])
    write(graph, scope, "m2", "Bob", "Alice fed Biscuit.", mentions=["Alice", "Biscuit"])
    for index in range(4):
        write(graph, scope, f"a{index}", "Bob", f"Alice called me ({index}).", mentions=["Alice"])
    alice, biscuit, beach = (entity(graph, scope, key) for key in ("alice", "biscuit", "beach"))
    hits = graph.episodes_mentioning(scope, {alice.id: 1.0, biscuit.id: 1.0, beach.id: 1.0}, limit=2)
    assert [(episode.id, score) for episode, score, _ in hits] == [("m1", 3.0), ("m2", 2.0)]
    assert sorted(hits[0][2]) == sorted([alice.id, biscuit.id, beach.id])
    assert graph.mention_counts(scope, [alice.id, beach.id]) == {alice.id: 6, beach.id: 1}
    assert graph.mentions_of_episodes(scope, ["m2"]) == {"m2": sorted([alice.id, biscuit.id])}


def test_the_spread_reaches_turns_about_the_same_things_as_the_best_match(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    # The seed names Biscuit; the turn about Biscuit's vet shares no word with the
    # question, only the dog; Alice (named everywhere) spreads thinly.
    # Each turn in a session of its own: only the entities connect them.
    write(graph, scope, "seed", "Bob", "Alice adopted a puppy called Biscuit.", ["Alice", "Biscuit"], session="1")
    write(graph, scope, "vet", "Bob", "Biscuit goes to Dr. Lee on Fridays.", ["Biscuit", "Dr. Lee"], session="2")
    for index in range(4):
        write(graph, scope, f"a{index}", "Bob", f"Alice called me ({index}).", mentions=["Alice"], session=f"a{index}")
    write(graph, scope, "none", "Bob", "It rained.", session="3")
    seed = graph.episodes_by_ids(scope, ["seed"])
    ranked = [episode.id for episode in spread_ranking(graph, scope, seed)]
    assert ranked[:2] == ["seed", "vet"]
    assert set(ranked) == {"seed", "vet", "a0", "a1", "a2", "a3"}  # never an unconnected turn
    # A linked entity seeds the walk too: Dr. Lee alone leads to the vet turn.
    assert spread_ranking(graph, scope, [], [(entity(graph, scope, "dr. lee"), 1.0)])[0].id == "vet"
    assert spread_ranking(graph, scope, []) == []


def test_adjacent_turns_are_the_ones_before_and_after_in_the_same_session(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for index, eid in enumerate(["t1", "t2", "t3"]):
        write(graph, scope, eid, "Bob", f"turn {index}", created=100 + index, session="morning")
    write(graph, scope, "other", "Bob", "another session", created=101, session="evening")
    write(graph, scope, "alone", "Bob", "a session of one turn", created=101, session="night")
    adjacent = graph.adjacent_episodes(scope, ["t1", "t2", "t3", "alone"])
    assert {eid: [episode.id for episode in found] for eid, found in adjacent.items()} == {
        "t1": ["t2"],
        "t2": ["t1", "t3"],
        "t3": ["t2"],
    }
    assert graph.adjacent_episodes("someone-else", ["t2"]) == {}


def test_the_spread_reaches_the_reply_next_to_the_best_match(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    # The reply names nothing and shares no word with the question: only the conversation's
    # order connects it to the turn the question matches.
    write(graph, scope, "ask", "Alice", "Did you ever go to the pottery class?", ["pottery class"], created=1)
    write(graph, scope, "reply", "Bob", "Yes, twice last month, it was great.", created=2)
    write(graph, scope, "later", "Alice", "Nice weather today.", created=3, session="another day")
    seed = graph.episodes_by_ids(scope, ["ask"])
    assert [episode.id for episode in spread_ranking(graph, scope, seed)] == ["ask", "reply"]


def test_recall_finds_a_turn_by_its_rare_words(broker: Broker) -> None:
    for _, speaker, text in CHAT:
        broker.remember(text, speaker=speaker, session_id="s1")
    assert "quokka" in broker.recall("Did Tom give back the quokka?", k=1)[0].text


MEMORY = [
    *((speaker, text) for _, speaker, text in CHAT),
    ("Alice", "Alice works at a bakery in Boston."),
    ("Bob", "Bob lives in Denver."),
    ("Alice", "My sister Carol visited me in Boston last week."),
    ("Bob", "I am learning to paint sunsets."),
    ("Alice", "The bakery opens at six in the morning."),
    ("Bob", "Carol brought a cake from the bakery."),
]


def test_ask_cites_the_retrievers_top_k_and_recall_runs_the_same_retriever(broker: Broker) -> None:
    for speaker, text in MEMORY:
        broker.remember(text, speaker=speaker, session_id="s1")
    question = "Where does Alice work?"
    answer = broker.ask(question)
    assert answer.facts and "bakery" in answer.answer  # the facts path answers as before

    graph, embeddings = broker.store, get_embeddings(broker.context)
    scope = request_scope(None, broker.context)
    resolved = resolve_first_person(question, DEFAULT_SPEAKER)
    anchors = link_entities(graph, embeddings, scope, resolved, analyse_question(question, DEFAULT_SPEAKER))
    behind_ids = list(dict.fromkeys(eid for fact in answer.facts for eid in fact.episode_ids))
    by_id = {episode.id: episode for episode in graph.episodes_by_ids(scope, behind_ids)}
    behind = [by_id[eid] for eid in behind_ids]
    expected = search_episodes(graph, embeddings, scope, resolved, anchors.values(), ANSWER, behind)
    # Twelve turns, ten cited: the answer's episodes are exactly the retriever's top k, best first.
    assert len(expected) == ANSWER.limit == 10
    assert [episode.id for episode in answer.episodes] == [episode.id for episode in expected]
    assert "bakery in Boston" in answer.episodes[0].text

    recalled = search_episodes(graph, embeddings, scope, resolved, anchors.values(), RECALL.with_limit(4))
    assert [episode.id for episode in broker.recall(question, k=4)] == [episode.id for episode in recalled]
    # With facts found, ANSWER ranks as RECALL does: recall's first four are the answer's first four.
    assert [episode.id for episode in recalled] == [episode.id for episode in answer.episodes[:4]]


def test_the_evidence_is_ignored_fused_or_put_first_as_the_recipe_says(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT:
        write(graph, scope, eid, speaker, text)
    question = "Where does Alice keep the quokka, in the garage?"
    behind = graph.episodes_by_ids(scope, ["e6"])
    ignored = search_episodes(graph, EMBED, scope, question, (), RECALL.with_limit(6), behind)
    assert ignored == search_episodes(graph, EMBED, scope, question, (), RECALL.with_limit(6))
    fused = search_episodes(graph, EMBED, scope, question, (), EpisodeSearch.of(evidence="fuse", limit=6), behind)
    assert [e.id for e in fused].index("e6") < [e.id for e in ignored].index("e6")
    led = search_episodes(graph, EMBED, scope, question, (), EpisodeSearch.of(evidence="lead", limit=3), behind)
    assert [e.id for e in led] == ["e6", *[e.id for e in ignored if e.id != "e6"][:2]]


def test_recall_refuses_a_limit_out_of_range(broker: Broker) -> None:
    with pytest.raises(RecipeError, match="limit"):
        broker.recall("anything", k=0)
    with pytest.raises(ValueError, match="limit"):
        broker.recall("anything", k=101)


def test_an_answer_with_no_fact_cites_episodes_only_when_one_is_close(broker: Broker) -> None:
    for speaker, text in MEMORY:
        broker.remember(text, speaker=speaker, session_id="s1")
    unrelated = broker.ask("What is the boiling point of mercury in kelvin?")
    assert not unrelated.facts and unrelated.episodes == []
    assert unrelated.related.episodes == []
    assert (unrelated.answered, unrelated.reason) == (False, "nothing_found")


def test_episodes_stored_before_the_index_get_their_search_text(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    if graph.episode_index is not None:
        pytest.skip("the episode index does not read the graph's search_text")
    write(graph, scope, "old", "Alice", "The quokka is back.")
    graph._write_atomic([("MATCH (ep:Episode {id: 'old'}) SET ep.search_text = null", {})])
    assert graph.search_episodes_text(scope, ["quokka"]) == []
    assert graph.index_episode_text(scope) == 1
    assert [episode.id for episode, _ in graph.search_episodes_text(scope, ["quokka"])] == ["old"]
    assert graph.index_episode_text(scope) == 0


def _recount(graph: GraphStore, scope: str) -> tuple[int, int]:
    rows = graph._read(
        "MATCH (ep:Episode) WHERE ep.scope = $scope "
        "RETURN count(ep) AS n, sum(size(split(ep.search_text, ' '))) AS length",
        {"scope": scope},
    )
    return int(rows[0]["n"]), int(rows[0]["length"] or 0)


def _kept(graph: GraphStore, scope: str) -> tuple[int, int]:
    rows = graph._read(
        "MATCH (x:EpisodeStats {scope: $scope}) RETURN x.episodes AS n, x.length AS length", {"scope": scope}
    )
    assert len(rows) == 1
    return int(rows[0]["n"]), int(rows[0]["length"])


def test_bm25_statistics_are_kept_by_every_write_not_recounted(store: tuple[GraphStore, str]) -> None:
    graph, scope = store
    for eid, speaker, text in CHAT[:4]:
        write(graph, scope, eid, speaker, text)
    assert _kept(graph, scope) == _recount(graph, scope) and _kept(graph, scope)[0] == 4
    # Writing an episode again (a re-read) adds nothing; a batch adds what it creates.
    write(graph, scope, "e1", *CHAT[0][1:])
    assert _kept(graph, scope)[0] == 4
    graph.write_episodes(
        [
            EpisodeWrite(
                scope=scope,
                episode=Episode(
                    id=eid, agent_id=scope, session_id="s", speaker=speaker, source="chat", text=text, created_at=0
                ),
            )
            for eid, speaker, text in CHAT[2:]
        ]
    )
    assert _kept(graph, scope) == _recount(graph, scope) and graph.episode_count(scope) == 6
    # A store from before the statistics were kept is recounted by the upgrade.
    graph._write_atomic(
        [
            ("MATCH (x:EpisodeStats) DELETE x", {}),
            ("MATCH (ep:Episode) REMOVE ep.search_length", {}),
            ("MERGE (m:StoreMeta {id: 'layout'}) SET m.version = 2", {}),
        ]
    )
    assert graph.episode_count(scope) == 0
    assert graph.upgrade() is True
    assert _kept(graph, scope) == _recount(graph, scope) and graph.upgrade() is False
    assert [episode.id for episode, _ in graph.search_episodes_text(scope, ["quokka"])] == ["e3"]
    graph.delete_scope(scope)
    assert graph._read("MATCH (x:EpisodeStats {scope: $scope}) RETURN x", {"scope": scope}) == []


def test_a_frequent_term_is_scored_on_its_shortest_episodes(
    store: tuple[GraphStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, scope = store
    if graph.episode_index is not None:
        pytest.skip("the episode index scores every match: no cut to test")
    # "garden" is in four episodes of eight (not over half: it is kept), "tulip" in one long one.
    texts = [
        ("g1", "garden"),
        ("g2", "garden roses"),
        ("g3", "garden roses and a fence"),
        ("g4", "garden roses and a fence and tulip bulbs planted in rows"),
        ("o1", "weather today"),
        ("o2", "the bus was late"),
        ("o3", "lunch was good"),
        ("o4", "a quiet evening"),
    ]
    for eid, text in texts:
        write(graph, scope, eid, "Ann", text)
    full = {episode.id: score for episode, score in graph.search_episodes_text(scope, ["garden", "tulip"], k=10)}
    assert max(full, key=full.__getitem__) == "g4" and set(full) == {"g1", "g2", "g3", "g4"}
    monkeypatch.setattr(episode_queries, "BM25_HITS_PER_TERM", 2)
    cut = {episode.id: score for episode, score in graph.search_episodes_text(scope, ["garden", "tulip"], k=10)}
    # The two shortest keep "garden"'s share; the longest still comes, by its rare word.
    assert set(cut) == {"g1", "g2", "g4"}
    assert cut["g1"] > cut["g2"]  # the same term weighs more in a shorter episode
    assert cut["g1"] == full["g1"] and cut["g4"] < full["g4"]  # past the cut, only "garden"'s share is lost
