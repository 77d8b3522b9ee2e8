"""``elephant viz`` end to end: a real memory, the command, and the page in headless Chromium.

Chromium (Debian ``chromium``) loads each page from a file with the network unused,
runs its scripts, and both dumps the DOM (the node count the page reports, and the
``data-rendered`` mark set once Bokeh has drawn its canvas) and takes a screenshot
(checked for the colours of the drawn entities). Without Chromium the tests skip,
except under CI, where a missing browser fails loudly.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import typer
from elephant_broker.broker.api import Broker
from elephant_broker.broker.cli_common import Options
from elephant_broker.broker.cli_viz import viz
from elephant_broker.broker.viz import PATH_EDGE, picture_from_facts, type_colour, write_html
from elephant_broker.schemas.models import Fact
from typer.testing import CliRunner

EVIL_IMG = '<img src=x onerror="document.body.dataset.pwned=1">'
BOOKS = (
    "The author of Dune is Frank Herbert.",
    "Frank Herbert was born in Tacoma.",
    "The author of Emma is Jane Austen.",
    "Jane Austen was born in Steventon.",
)


@pytest.fixture(scope="module")
def chromium() -> str:
    """The headless browser; skipped locally when absent, a failure under CI."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed but CI is set: `make test` installs it (apt-get install -y chromium)")
    pytest.skip("chromium is not installed (apt-get install -y chromium); the browser checks need it")


@pytest.fixture
def run_viz(broker: Broker, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Point the command's global options at the broker's store (the command, in process)."""
    monkeypatch.setattr(Options, "home", broker.context.home)
    monkeypatch.setattr(Options, "store", "embedded")
    monkeypatch.setattr(Options, "llm", "")
    return CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("viz")(viz)
    return app


def _viz(runner: CliRunner, *args: str, ok: bool = True) -> str:
    result = runner.invoke(_app(), ["--agent", "test", *args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.output


def _browser(chromium: str, tmp_path: Path, page: Path, *flags: str) -> subprocess.CompletedProcess[bytes]:
    profile = tmp_path / "chromium-profile"
    command = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--window-size=1200,800",
        "--virtual-time-budget=10000",
        *flags,
        page.resolve().as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    return result


def _dom(chromium: str, tmp_path: Path, page: Path) -> tuple[dict[str, str], str]:
    """Return the ``<body>`` attributes after the page's scripts ran, and the DOM."""
    dom = _browser(chromium, tmp_path, page, "--dump-dom").stdout.decode()
    body = re.search(r"<body( data-[^>]*)>", dom)
    assert body, dom[:500]
    return dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1))), dom


def _screenshot(chromium: str, tmp_path: Path, page: Path) -> Counter[tuple[int, int, int]]:
    """Take a 1200×800 screenshot and return how many pixels have each colour."""
    from PIL import Image  # Bokeh requires Pillow, so it is installed with it.

    png = tmp_path / f"{page.stem}.png"
    _browser(chromium, tmp_path, page, f"--screenshot={png}")
    assert png.exists() and png.stat().st_size > 0
    with Image.open(png) as image:
        assert image.size == (1200, 800)
        counts = image.convert("RGB").getcolors(maxcolors=1200 * 800) or []
    return Counter({colour: count for count, colour in counts})


def _pixels_near(colours: Counter[tuple[int, int, int]], hex_colour: str, tolerance: int = 6) -> int:
    target = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return sum(
        count
        for colour, count in colours.items()
        if all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))
    )


@pytest.mark.slow
def test_entity_view_draws_the_neighbourhood(broker: Broker, run_viz: CliRunner, chromium: str, tmp_path: Path) -> None:
    for text in BOOKS:
        broker.remember(text)
    expected = {name for fact in broker.facts(entity="Frank Herbert") for name in (fact.subject, fact.object)}
    assert expected == {"Dune", "Frank Herbert", "Tacoma"}
    page = tmp_path / "entity.html"
    output = _viz(run_viz, "--entity", "frank herbert", "-o", str(page))
    assert "3 entities, 2 facts" in output

    body, dom = _dom(chromium, tmp_path, page)
    assert body["data-rendered"] == "true", body
    assert body["data-nodes"] == body["data-drawn-nodes"] == "3"
    assert body["data-edges"] == "2" and int(body["data-canvases"]) >= 1
    assert '<p id="summary">3 entities, 2 facts</p>' in dom
    assert "Jane Austen" not in dom  # another component of the graph: not drawn

    colours = _screenshot(chromium, tmp_path, page)
    assert len(colours) > 50, "the screenshot is (nearly) blank"
    # Frank Herbert (Person) and Tacoma (Place) were painted by the canvas, as discs.
    assert _pixels_near(colours, type_colour("Person")) > 300
    assert _pixels_near(colours, type_colour("Place")) > 300


@pytest.mark.slow
def test_question_view_draws_the_evidence_and_the_chain(
    broker: Broker, run_viz: CliRunner, chromium: str, tmp_path: Path
) -> None:
    for text in BOOKS:
        broker.remember(text)
    page = tmp_path / "question.html"
    _viz(run_viz, "--question", "Where was the author of Dune born?", "-o", str(page))

    body, dom = _dom(chromium, tmp_path, page)
    assert body["data-rendered"] == "true", body
    assert body["data-view"] == "question"
    assert body["data-nodes"] == body["data-drawn-nodes"] == "3"
    title = re.search(r"<h1>(.*?)</h1>", dom)
    assert title and title.group(1).startswith("Tacoma")
    assert "hop 2: Where was Frank Herbert born? → Tacoma" in dom

    colours = _screenshot(chromium, tmp_path, page)
    assert _pixels_near(colours, PATH_EDGE) > 100, "the answer's chain is not drawn in blue"


@pytest.mark.slow
def test_overview_and_errors(broker: Broker, run_viz: CliRunner, chromium: str, tmp_path: Path) -> None:
    for text in BOOKS:
        broker.remember(text)
    page = tmp_path / "overview.html"
    _viz(run_viz, "-o", str(page), "--limit", "4")
    body, _ = _dom(chromium, tmp_path, page)
    assert body["data-rendered"] == "true" and body["data-nodes"] == body["data-drawn-nodes"] == "4"

    missing = _viz(run_viz, "--entity", "Nobody", "-o", str(tmp_path / "x.html"), ok=False)
    assert "error: no entity named 'Nobody'" in missing
    both = _viz(run_viz, "--entity", "Dune", "--question", "why?", ok=False)
    assert "error: give --entity or --question, not both" in both
    assert not (tmp_path / "x.html").exists()


@pytest.mark.slow
def test_user_text_cannot_run_in_the_page(broker: Broker, run_viz: CliRunner, chromium: str, tmp_path: Path) -> None:
    broker.remember("Alice works at Acme Corp.")
    asked = tmp_path / "asked.html"
    _viz(run_viz, "--question", EVIL_IMG, "-o", str(asked))
    # Names cannot carry markup through ingestion; draw crafted ones directly.
    crafted = tmp_path / "crafted.html"
    fact = Fact(
        id="f1",
        subject=EVIL_IMG,
        subject_id="ent_evil",
        predicate="</script><script>document.body.dataset.pwned=2</script>",
        predicate_key="x",
        object="<b>bold</b>",
        object_id="ent_bold",
    )
    write_html(picture_from_facts([fact], title=EVIL_IMG, subtitle=EVIL_IMG), crafted)
    for page in (asked, crafted):
        body, dom = _dom(chromium, tmp_path, page)
        assert body["data-rendered"] == "true", body
        assert "data-pwned" not in body
        assert "&lt;img src=x onerror=" in dom  # shown as text
    assert _dom(chromium, tmp_path, crafted)[0]["data-nodes"] == "2"
