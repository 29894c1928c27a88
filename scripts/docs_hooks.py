"""The documentation site's build hooks (``hooks:`` in ``mkdocs.yml``).

The site's home page is the README: ``docs/index.md`` only says so, and the build puts the
README there, its links to ``docs/…`` made relative to the site's pages and its links to files
outside the site (the licence) left as their words. One text, so the two cannot drift apart.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
#: A Markdown link or image: its text and its target.
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def home_page(readme: str) -> str:
    """The README as the site's home page: ``docs/x.md`` links become ``x.md``; a link to a file
    outside ``docs/`` becomes its text; web links stay.

    >>> home_page("See [Bots](docs/bots.md#levels), the [licence](LICENSE) and ![a](docs/a.png).")
    'See [Bots](bots.md#levels), the licence and ![a](a.png).'
    """

    def relink(match: re.Match[str]) -> str:
        bang, text, target = match.groups()
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            return match.group(0)
        if target.startswith("docs/"):
            return f"{bang}[{text}]({target.removeprefix('docs/')})"
        return text

    return LINK.sub(relink, readme)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """mkdocs' hook: the home page's text is the README's."""
    if page.file.src_uri == "index.md":
        return home_page(README.read_text())
    return markdown
