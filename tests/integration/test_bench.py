"""``elephant bench`` on small memories: JSON shapes, equal loads, skewed degrees, queries that find things.

No timing is asserted: the figures are the benchmark's output, not a contract.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from elephant_broker.broker import bench
from elephant_broker.store.embedded import EmbeddedFalkorDB
from elephant_broker.store.falkordb_store import FalkorDBStore

pytestmark = pytest.mark.slow

DIMENSION = 384


def test_generated_memory_is_deterministic_and_skewed() -> None:
    first = bench.generate_memory(300, seed=5, dimension=8)
    again = bench.generate_memory(300, seed=5, dimension=8)
    other = bench.generate_memory(300, seed=6, dimension=8)

    assert [fact.id for fact in first.facts] == [fact.id for fact in again.facts]
    assert [turn.episode.id for turn in first.episodes] == [turn.episode.id for turn in again.episodes]
    assert (first.fact_vectors == again.fact_vectors).all()
    assert [fact.id for fact in first.facts] != [fact.id for fact in other.facts]

    assert len(first.facts) == 300 == len({fact.id for fact in first.facts})
    assert len({entity.key for entity in first.entities}) == len(first.entities)
    degrees = sorted(first.degrees())
    assert min(degrees) >= 1  # every entity is named by some fact
    assert degrees[-1] >= 5 * degrees[len(degrees) // 2], "no hub entity"
    assert {entity.type for entity in first.entities} >= {"Person", "Place", "Organization", "Tool"}
    names = " ".join(entity.name for entity in first.entities)
    assert any("\u4e00" <= char <= "\u9fff" for char in names) and any(char.isascii() for char in names)
    assert all(1 <= len(turn.facts) <= 3 for turn in first.episodes)
    assert first.sessions >= 2
    times = [turn.episode.time for turn in first.episodes]
    assert times == sorted(times)

    questions = bench.generate_questions(first, 12, seed=5)
    assert {question.kind for question in questions} == {"one_hop", "hub", "two_hop"}
    assert questions == bench.generate_questions(first, 12, seed=5)


def test_ingest_json_and_equal_loads(tmp_path: Path) -> None:
    result = bench.bench_ingest(300, seed=3, workdir=tmp_path / "work")

    assert {"facts", "rates", "ratios"} <= set(result)
    assert set(result["rates"]) == {"broker", "seed_merge", "raw_create"}
    assert set(result["ratios"]) == {"broker_vs_seed", "broker_vs_raw"}
    assert result["facts"] == 300
    assert all(rate > 0 for rate in result["rates"].values())
    counts = result["graphs"]
    assert counts["broker"] == counts["seed_merge"] == counts["raw_create"]
    assert counts["broker"] == {"facts": 300, "entities": result["memory"]["entities"]}
    assert result["broker_write"] in {"write_episode", "write_episodes"}
    assert result["memory"]["max_degree"] >= 5 * result["memory"]["median_degree"]
    assert not EmbeddedFalkorDB(tmp_path / "work" / "ingest" / "falkordb").ping()


@pytest.mark.parametrize("vector_file", [True, False], ids=["vector-file", "vectors-in-graph"])
def test_fresh_load_leaves_the_graph_the_broker_writes(tmp_path: Path, vector_file: bool) -> None:
    """The ask benchmark's bulk load must build what write_episode builds, property for property."""
    memory = bench.generate_memory(120, seed=9, dimension=DIMENSION)
    server = EmbeddedFalkorDB(tmp_path / "falkordb")
    socket = str(server.ensure_running())
    vector_dir = tmp_path / "vectors" if vector_file else None
    written = FalkorDBStore(unix_socket_path=socket, graph="written", vector_dir=vector_dir)
    loaded = FalkorDBStore(unix_socket_path=socket, graph="loaded", vector_dir=vector_dir)
    try:
        for store in (written, loaded):
            store.ensure_schema(DIMENSION)
        assert bench.write_plans(written, bench.episode_plans(memory, 0, len(memory.episodes))) in {
            "write_episode",
            "write_episodes",
        }
        bench.load_fresh_memory(loaded, memory, lambda _message: None)

        assert written.counts(bench.SCOPE) == loaded.counts(bench.SCOPE)
        for query in (
            "MATCH (n) RETURN DISTINCT labels(n) AS labels, keys(n) AS keys",
            "MATCH ()-[r]->() RETURN DISTINCT type(r) AS type, keys(r) AS keys",
        ):
            assert _shapes(written, query) == _shapes(loaded, query)
        for query in (
            "MATCH (e:Entity) RETURN e.id AS id, e.key AS key, e.name AS name, e.type AS type, "
            "e.mention_count AS mentions, e.aliases AS aliases, e.search_text AS search_text, "
            "e.embedding IS NULL AS no_vector ORDER BY id",
            "MATCH (s)-[f:FACT]->(o) RETURN f.id AS id, s.id AS s, o.id AS o, f.predicate AS p, "
            "f.predicate_key AS k, f.weight AS weight, f.episode_ids AS episodes, f.created_at AS created, "
            "f.status AS status, f.authority AS authority, f.confidence AS confidence ORDER BY id",
            "MATCH (ep:Episode)-[:MENTIONS]->(e) RETURN ep.id AS ep, e.id AS e ORDER BY ep, e",
            "MATCH (ep:Episode) RETURN ep.id AS id, ep.session_id AS session, ep.time AS time, "
            "ep.search_text AS search_text, ep.search_length AS length, ep.read_by AS read_by ORDER BY id",
            "MATCH (x:EpisodeStats) RETURN x.scope AS scope, x.episodes AS episodes, x.length AS length",
        ):
            assert written._read(query) == loaded._read(query)
        # Conversation order (adjacent turns) follows write order in both.
        order = "MATCH (ep:Episode) RETURN ep.id AS id ORDER BY ep.created_at, ep.id"
        assert written._read(order) == loaded._read(order)
        if vector_file:
            assert written.vectors is not None and loaded.vectors is not None
            for kind in ("Episode", "Entity", "Fact"):
                kept = written.vectors.ids(kind, bench.SCOPE)
                assert kept and kept == loaded.vectors.ids(kind, bench.SCOPE)
    finally:
        written.close()
        loaded.close()
        server.stop()


def _shapes(store: FalkorDBStore, query: str) -> set[tuple[str, ...]]:
    shapes = set()
    for row in store._read(query):
        kind = row.get("labels") or [row.get("type")]
        shapes.add((*sorted(kind), *sorted(row["keys"])))
    return shapes


def test_ask_json_and_queries_find_things(tmp_path: Path) -> None:
    result = bench.bench_ask([200, 300], questions=6, seed=3, workdir=tmp_path / "work")

    assert {"sizes", "growth_p95"} <= set(result)
    assert [row["facts"] for row in result["sizes"]] == [200, 300]
    for row in result["sizes"]:
        assert {
            "facts",
            "ask_p50_ms",
            "ask_p95_ms",
            "recall_p50_ms",
            "recall_p95_ms",
            "two_hop_p95_ms",
            "store_rss_mb",
        } <= set(row)
        assert row["ask_p50_ms"] <= row["ask_p95_ms"] and row["recall_p50_ms"] <= row["recall_p95_ms"]
        assert row["store_rss_mb"] > 0
        assert row["vector_file_mb"] > 0  # the embedded store's vectors are in its vector file
        # Every question is about a stored entity: each read found something.
        assert row["found"] == {"ask": 6, "recall": 6, "two_hop": 6}
    assert result["growth_p95"] == pytest.approx(
        result["sizes"][-1]["ask_p95_ms"] / result["sizes"][0]["ask_p95_ms"], rel=0.01
    )


def test_workdir_that_is_not_the_benchmarks_is_refused(cli, tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "precious.txt").write_text("keep me")

    refused = cli("bench", "ingest", "--facts", "50", "--workdir", str(memory), "--json", check=False)

    assert refused.returncode != 0 and "not made by elephant bench" in refused.stderr
    assert (memory / "precious.txt").read_text() == "keep me"


def test_cli_ingest_json_and_plot(cli, tmp_path: Path) -> None:
    plot = tmp_path / "rates.png"
    args = ["bench", "ingest", "--facts", "60", "--seed", "2", "--json"]
    has_matplotlib = bench.find_spec("matplotlib") is not None
    result = cli(*args, "--plot", str(plot), check=False)
    if not has_matplotlib:
        assert result.returncode != 0 and "elephant-broker[bench]" in result.stderr
        result = cli(*args)
    else:
        assert plot.read_bytes().startswith(b"\x89PNG")
    figures = json.loads(result.stdout)
    assert figures["facts"] == 60 and set(figures["rates"]) == {"broker", "seed_merge", "raw_create"}


def test_cli_bench_times_real_commands(tmp_path: Path) -> None:
    result = bench.bench_cli(runs=1, facts=40, workdir=tmp_path / "bench")
    assert result["help_s"]["median"] > 0 and result["ask_s"]["median"] > result["help_s"]["median"]
    assert result["runs"] == 1 and result["facts"] == 40 and result["command"]
