"""The distribution installs one package, ``elephant_broker``, whatever the checkout's folders are called.

The design card keeps ``graphs/``, ``nodes/``, ``prompts/``, ``schemas/`` ... at the top of
the checkout; ``package-dir`` in pyproject.toml installs them as ``elephant_broker.<folder>``.
These tests build the real wheel and run imports beside a user's own ``prompts.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_PACKAGES = {"tests", "scripts", "build", "docs"}


def package_dirs() -> dict[str, str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]


def test_every_source_folder_of_the_checkout_is_mapped_into_the_package() -> None:
    folders = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_PACKAGES and not path.parent.name.startswith(".")
    }
    mapping = package_dirs()
    assert set(mapping.values()) == folders
    assert all(name == "elephant_broker" or name == f"elephant_broker.{folder}" for name, folder in mapping.items())


@pytest.mark.slow
def test_the_wheel_installs_only_elephant_broker_with_every_module(tmp_path: Path) -> None:
    # Built from a copy: setuptools writes build/ and *.egg-info beside the sources it builds.
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "tests", "docs"),
    )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(wheels),
            str(source),
        ],
        check=True,
        timeout=240,
    )
    (wheel,) = wheels.glob("elephant_broker-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"elephant_broker", wheel.name.split("-py")[0] + ".dist-info"}
    for package, folder in package_dirs().items():
        for module in (ROOT / folder).glob("*.py"):
            assert "/".join([*package.split("."), module.name]) in names
    # The Reader's lexicons are data files, read at run time.
    for lexicon in (ROOT / "language" / "data").glob("*.toml"):
        assert f"elephant_broker/language/data/{lexicon.name}" in names
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "elephant = elephant_broker.broker.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.slow
def test_a_users_own_prompts_nodes_and_schemas_do_not_shadow_ours(tmp_path: Path) -> None:
    (tmp_path / "prompts.py").write_text("RAISE = 1\n")
    (tmp_path / "nodes.py").write_text("RAISE = 1\n")
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "__init__.py").write_text("raise ImportError('the user schemas package')\n")
    script = (
        "import prompts, nodes\n"
        "from elephant_broker.graphs.answer import graph\n"
        "from elephant_broker.schemas.models import Fact\n"
        "assert prompts.RAISE == nodes.RAISE == 1\n"
        "print(graph.name, Fact.__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["answer", "elephant_broker.schemas.models"]
