"""LangGraph graphs: ingest (Reader -> Builder), answer (Answerer) and the broker router.

Each module exports an uncompiled ``builder`` and a ``graph`` compiled without a
checkpointer (``langgraph dev`` brings its own); callers that need persistence
compile the builder with theirs. Their ``context_schema`` is ``RunContext``: a run
chooses its agent, review policy and search effort, never the store, home or models
(``schemas/context.py``).
"""
