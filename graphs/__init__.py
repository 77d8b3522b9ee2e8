"""LangGraph graphs: ingest (Reader -> Builder), answer (Answerer) and the broker router.

Each module exports an uncompiled ``builder`` and a ``graph`` compiled without a
checkpointer (``langgraph dev`` brings its own); callers that need persistence
compile the builder with theirs.
"""
