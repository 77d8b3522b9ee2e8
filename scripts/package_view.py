"""Build ``build/view/elephant_broker``: the installed package's shape, as symlinks into the checkout.

The distribution maps the checkout's top-level folders (``schemas/``, ``nodes/``, ...) into
one package, ``elephant_broker`` (``package-dir`` in pyproject.toml). Python follows that
mapping through the editable install; static tools (mypy, import-linter) read folders, so
they check this view instead. The mapping is read from pyproject.toml, the one place it is
written.

Usage: ``python scripts/package_view.py [DEST]`` (default ``build/view``); prints DEST.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_view(destination: Path) -> Path:
    """Recreate ``destination`` as the installed package tree, each module a symlink; return it."""
    package_dir: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    if destination.exists():
        shutil.rmtree(destination)
    for package, folder in package_dir.items():
        # Real directories holding one link per module: the root package's folder is not
        # the parent of its subpackages' folders, and a directory walk need not follow links.
        directory = destination.joinpath(*package.split("."))
        directory.mkdir(parents=True, exist_ok=True)
        for module in sorted((ROOT / folder).glob("*.py")):
            (directory / module.name).symlink_to(os.path.relpath(module, directory))
    return destination


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "view"
    print(build_view(target.resolve()))
