"""FalkorDB episode writes: several statements become one atomic query."""

from __future__ import annotations

from elephant_broker.store.falkordb_store import compose_atomic


def test_falkordb_statements_compose_into_one_query_with_private_parameters() -> None:
    query, params = compose_atomic([("MATCH (a {id: $id}) SET a.x = $x", {"id": 1, "x": 2}), ("RETURN $id", {"id": 3})])
    assert query == "CALL { MATCH (a {id: $s0_id}) SET a.x = $s0_x } CALL { RETURN $s1_id } RETURN 1"
    assert params == {"s0_id": 1, "s0_x": 2, "s1_id": 3}
