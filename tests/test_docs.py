"""The documentation: the site builds strictly, says what the code does, and shows the product.

The docs' Python examples run as doctests on their own (``--doctest-glob=*.md`` over ``docs/``);
here the site as a whole: MkDocs builds it with ``--strict`` (a broken link, a missing page or
an unresolved API reference fails), every variant has its rules page listing every option with
its default as the engine has it, the terminal screenshots are the Textual snapshots the suite
verifies, and the README stays short and points only at what a clone has.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.registry import variants

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SNAPSHOTS = ROOT / "tests" / "__snapshots__" / "test_tui"

#: The docs' terminal screenshots and the snapshot tests (tests/test_tui.py) that make them.
TERMINAL_IMAGES = {
    "terminal-start.svg": "test_snapshot_start_screen.svg",
    "terminal-table.svg": "test_snapshot_table[big-two-None-2].svg",
    "terminal-deal-over.svg": "test_snapshot_deal_over.svg",
}

#: What a clone of the project does not have, so nothing a reader sees may point there.
PRIVATE = re.compile(r"RULES\.md|\.\./shared|shared/rules")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``make docs`` builds it, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_site_builds_strictly_with_every_page(site: Path) -> None:
    pages = sorted(p.relative_to(DOCS).with_suffix("") for p in DOCS.rglob("*.md"))
    assert len(pages) >= 20
    for page in pages:
        built = site / page / "index.html" if page.name != "index" else site / page.parent / "index.html"
        assert built.is_file(), page
    # The API reference is generated from the docstrings: a class of the protocol is there.
    reference = "\n".join(p.read_text() for p in (site / "reference").rglob("*.html"))
    assert 'id="parlour.game.State"' in reference or 'id="parlour.State"' in reference


def test_the_home_page_is_the_readme(site: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from docs_hooks import home_page

    assert home_page("[Bots](docs/bots.md#x), [the licence](LICENSE), [web](https://a.b/c)") == (
        "[Bots](bots.md#x), the licence, [web](https://a.b/c)")
    home = (site / "index.html").read_text()
    readme = README.read_text()
    # Its every paragraph's first words, and its links as the site's own pages.
    for paragraph in re.findall(r"^([A-Z][a-z]+(?: [a-z]+){3})", readme, re.M):
        assert paragraph in home, paragraph
    for page in re.findall(r"\]\(docs/([a-z/-]+)\.md", readme):
        assert f'href="{page.removesuffix("index")}' in home, page


def test_nothing_shown_points_outside_the_project(site: Path) -> None:
    shown = [README, *DOCS.rglob("*.md"), *site.rglob("*.html")]
    leaks = [str(p) for p in shown if PRIVATE.search(p.read_text(errors="replace"))]
    assert not leaks, leaks


def _default_text(value: Any) -> str:
    """An option's value as one types it after ``-o NAME=``."""
    return value if isinstance(value, str) else json.dumps(value)


@pytest.mark.parametrize("variant", [v.name for v in variants()])
def test_every_option_is_on_its_variants_rules_page_with_its_default(variant: str) -> None:
    page = DOCS / "rules" / f"{variant}.md"
    assert page.is_file(), f"{variant} has no rules page ({page.relative_to(ROOT)})"
    text = page.read_text()
    _, _, options = text.partition("\n## Options\n")
    # Each row: the option as the tables show it, its -o keyword, default, values, what it does.
    rows = {m[2]: (m[1], m[3], m[4]) for m in re.finditer(
        r"^\| ([^|`]+) \| `(\w+)` \| `([^`]*)` \| ([^|]+) \|", options, re.M)}
    info = next(v for v in variants() if v.name == variant).option_info()
    assert set(rows) == {o.name for o in info}, variant
    for option in info:
        label, default, values = rows[option.name]
        assert label == option.label, (variant, option.name)
        assert default == _default_text(option.default), (variant, option.name)
        for choice in option.choices or ():
            # Each choice by its keyword, and in words where they differ.
            words = option.value_words(choice)
            assert (f"`{choice}` ({words})" if words != choice else f"`{choice}`") in values, (
                variant, option.name, choice)
        if option.min is not None and option.max is not None:
            assert values == f"{option.min:,} to {option.max:,}", (variant, option.name)


@pytest.mark.parametrize("image", sorted(TERMINAL_IMAGES))
def test_the_terminal_screenshots_are_the_verified_snapshots(image: str) -> None:
    snapshot = SNAPSHOTS / TERMINAL_IMAGES[image]
    assert (DOCS / "images" / image).read_bytes() == snapshot.read_bytes(), (
        f"the terminal table changed: cp '{snapshot.relative_to(ROOT)}' docs/images/{image}")


def _local_links(markdown: str) -> list[str]:
    links = re.findall(r"\]\(([^)\s]+)\)", markdown) + re.findall(r'src="([^"]+)"', markdown)
    return [link.split("#")[0] for link in links if not re.match(r"[a-z]+:", link)]


def test_the_readme_is_short_and_its_links_and_images_are_in_the_project() -> None:
    text = README.read_text()
    assert len(text) <= 12_500, len(text)
    # Its top is the two commands.
    top = text[:1500]
    assert "make play" in top and "make test" in top
    links = [link for link in _local_links(text) if link]
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, missing
    # A screenshot of each table, and a way into the site's pages.
    assert any(re.fullmatch(r"docs/images/terminal-\S+\.svg", link) for link in links)
    assert any(re.fullmatch(r"docs/images/web-\S+\.png", link) for link in links)
    assert any(link.startswith("docs/") and link.endswith(".md") for link in links)


def test_the_bots_page_shows_every_levels_settings_as_the_code_has_them() -> None:
    from parlour.bots.levels import settings_table

    page = (ROOT / "docs" / "bots.md").read_text()
    shown = page.split("<!-- levels table -->\n", 1)[1].split("\n<!-- end levels table -->", 1)[0]
    assert shown == settings_table()
