"""Node ``detect_conflicts``: find the stored facts the planned episode contradicts.

``domain.truth.contradictions`` compares the plan's facts with the active stored facts
of the same subject and canonical predicate (negation, single value, supersession); a
user schema's one-valued predicates count as single-valued too.
Nothing is decided here; ``review_conflicts`` decides by policy.
"""

from __future__ import annotations

from typing import Any

from elephant_broker.domain.truth import contradictions
from elephant_broker.domain.user_schema import single_valued_keys
from elephant_broker.providers.resources import get_store
from elephant_broker.schemas.context import RunContext, deployment
from elephant_broker.schemas.state import IngestState
from langgraph.runtime import Runtime


def detect_conflicts(state: IngestState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Compare the planned facts with active stored facts of the same subject and predicate."""
    context = deployment(runtime.context)
    conflicts = contradictions(get_store(context), state["plan"], single_valued_keys(context))
    return {"conflicts": conflicts, "report": state["report"].model_copy(update={"conflicts": len(conflicts)})}
