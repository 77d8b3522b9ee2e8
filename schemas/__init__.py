"""Pydantic models, the shared graph state and the run context."""
