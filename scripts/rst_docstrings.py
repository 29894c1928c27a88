"""A Griffe extension for the API reference: parlour's reStructuredText-flavoured docstrings as
the Markdown that mkdocstrings renders.

parlour's docstrings are written for reading in the source and in ``help()``: Sphinx roles
(``:class:`~parlour.game.State```), doctest sessions (``>>>`` lines, which Markdown would read
as nested quotes) and ``::`` literal blocks. This extension rewrites each docstring of the loaded
package, once, before mkdocstrings parses it:

- a role becomes inline code linked to the object's entry in the reference where it has one
  (an optional cross-reference: a name with no entry stays plain code, with no warning);
- a doctest session becomes a ``pycon`` code block;
- a paragraph ending in ``::`` ends in ``:`` and its indented block becomes a code block;
- an attribute documented by ``#:`` comments just above it (as Sphinx reads them) gets them as
  its docstring.

mkdocs.yml loads it for every reference page (``extensions:`` in the Python handler's
options).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const)"
                  r":`(?P<tilde>~?)(?P<target>[^`]+)`")


def _display_and_target(text: str, tilde: str) -> tuple[str, str]:
    """A role's shown text and its target (``title <target>`` or a dotted name)."""
    titled = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", text)
    if titled:
        return titled["title"], titled["target"]
    target = text.lstrip(".")
    return (target.rsplit(".", 1)[-1] if tilde else target), target


def _resolve(obj: griffe.Object, target: str, collection: Any) -> str:
    """The full path of ``target`` as named in ``obj``'s docstring (the name itself when it
    cannot be resolved: the cross-reference is optional)."""
    try:
        collection[target]
    except Exception:  # not a full path: a KeyError, or an alias not resolved
        pass
    else:
        return target
    head, _, rest = target.partition(".")
    scope: griffe.Object | None = obj
    while scope is not None:
        try:
            path = scope.resolve(head)
        except Exception:  # griffe's NameResolutionError and alias errors
            path = None
        if path:
            return f"{path}.{rest}" if rest else path
        scope = scope.parent
    return target


def convert_roles(text: str, obj: griffe.Object, collection: Any) -> str:
    def replace(match: re.Match[str]) -> str:
        shown, target = _display_and_target(match["target"], match["tilde"])
        path = _resolve(obj, target, collection)
        return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'

    return ROLE.sub(replace, text)


def convert_blocks(text: str) -> str:
    """Doctest sessions and ``::`` literal blocks as fenced code blocks."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent)
                             else lines[i].lstrip())
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *(f"{indent}{b}" for b in block), f"{indent}```", ""]
            continue
        if stripped.endswith("::") and i + 1 < len(lines) and not lines[i + 1].strip():
            head = line[:-2].rstrip()
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            block_indent = len(lines[j]) - len(lines[j].lstrip()) if j < len(lines) else 0
            if j < len(lines) and block_indent > len(indent):
                block = []
                while j < len(lines) and (not lines[j].strip()
                                          or len(lines[j]) - len(lines[j].lstrip()) >= block_indent):
                    block.append(lines[j][block_indent:])
                    j += 1
                while block and not block[-1].strip():
                    block.pop()
                if head.strip():
                    out += [head + ":", ""]
                out += [f"{indent}```python", *(f"{indent}{b}" if b else "" for b in block),
                        f"{indent}```", ""]
                i = j
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


def convert(text: str, obj: griffe.Object, collection: Any) -> str:
    """``text`` (a docstring of ``obj``) as Markdown."""
    return convert_roles(convert_blocks(text), obj, collection)


def comment_docstring(attr: griffe.Object, lines: list[str]) -> str | None:
    """The ``#:`` comment lines just above an attribute's assignment, as its docstring."""
    if attr.lineno is None:
        return None
    found: list[str] = []
    k = attr.lineno - 2  # the line above, 0-based
    while k >= 0 and lines[k].lstrip().startswith("#:"):
        found.insert(0, lines[k].lstrip()[2:].strip())
        k -= 1
    return "\n".join(found) or None


class RstDocstrings(griffe.Extension):
    """Rewrites every docstring of a loaded package (module docstring)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        collection = loader.modules_collection
        seen: set[int] = set()

        def visit(obj: griffe.Object) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            path = obj.filepath  # a list only for a namespace package, which has no attributes
            if (obj.docstring is None and obj.is_attribute and isinstance(path, Path)
                    and path in loader.lines_collection):
                text = comment_docstring(obj, loader.lines_collection[path])
                if text:
                    obj.docstring = griffe.Docstring(
                        text, lineno=obj.lineno, parent=obj, parser=loader.docstring_parser,
                        parser_options=loader.docstring_options)
            if obj.docstring is not None:
                obj.docstring.value = convert(obj.docstring.value, obj, collection)
            for member in obj.members.values():
                if not member.is_alias:
                    visit(member)  # type: ignore[arg-type]

        visit(pkg)
