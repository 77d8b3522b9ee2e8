"""Node functions of the broker graphs (one module per node) and the routing functions.

Nodes are plain (sync) functions: the store drivers and the embedded model block, and
LangGraph runs sync nodes in a worker thread under ``ainvoke`` and ``langgraph dev``,
where blocking calls inside ``async def`` nodes would stall the event loop.
"""
