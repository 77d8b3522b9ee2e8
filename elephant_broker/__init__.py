"""ElephantBroker: knowledge-graph memory and multi-hop question answering for LLM agents.

The checkout keeps the design card's top-level folders (``graphs/``, ``nodes/``,
``prompts/``, ``schemas/``, ...); the distribution installs them under this one
package (``elephant_broker.graphs``, ``elephant_broker.nodes``, ...), so installing
ElephantBroker never adds or overwrites a generic top-level name such as ``schemas``
or ``store``, and a user's own ``prompts.py`` or ``nodes/`` never shadows ours.
The mapping is ``package-dir`` in ``pyproject.toml``; docs/design.md says why.

Start with :class:`elephant_broker.broker.api.Broker` (Python),
``elephant`` (command line), or the compiled graphs in ``elephant_broker.graphs``.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """Return ``__version__`` when first asked for.

    Read from the installed metadata only then: ``importlib.metadata`` costs tens of
    milliseconds, paid by every ``elephant`` command if it were read at import.
    """
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("elephant-broker")
    except PackageNotFoundError:  # running from a checkout that was never installed
        found = "0.0.0"
    globals()["__version__"] = found
    return found
