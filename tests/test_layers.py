"""The package's layers import downwards only: read from the source, every import counted
(those inside functions too), except those under ``if TYPE_CHECKING:`` (types only, never run).

The front ends (the plain-text player ``parlour.cli``, the terminal table ``parlour.tui``, the web
tables ``parlour.web``) sit on the table session and the game protocol, side by side; the arena and
the benchmarks sit beside them. No front end imports another, no two modules import each other
(a family's own modules, one unit, excepted), and no module imports another's private names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"

#: Which parts may not import which: the front ends and the arena know nothing of each other.
FORBIDDEN = {
    "parlour.web": ("parlour.tui", "parlour.cli", "parlour.arena"),
    "parlour.tui": ("parlour.cli", "parlour.web", "parlour.arena"),
    "parlour.arena": ("parlour.cli", "parlour.tui", "parlour.web"),
    "parlour.session": ("parlour.cli", "parlour.tui", "parlour.web", "parlour.arena"),
    "parlour.bots": ("parlour.cli", "parlour.tui", "parlour.web", "parlour.arena"),
    "parlour.envs": ("parlour.cli", "parlour.tui", "parlour.web", "parlour.arena",
                     "parlour.bench"),
    "parlour.games": ("parlour.cli", "parlour.tui", "parlour.web", "parlour.arena",
                      "parlour.session", "parlour.bench"),
}

#: ``Game.new_match`` makes a :class:`~parlour.match.Match` of its ruleset (a convenience, as
#: python-chess's ``Board`` makes its moves): the one pair of modules that import each other
#: outside a family.
ALLOWED_PAIRS = {frozenset({"parlour.game", "parlour.match"})}


def module_files() -> dict[str, Path]:
    files = {}
    for path in (SOURCE / "parlour").rglob("*.py"):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        files[name] = path
    return files


MODULES = module_files()


def imports(name: str) -> list[tuple[str, list[str]]]:
    """Each import of module ``name`` run at some point: (module imported, names taken from it)."""
    tree = ast.parse(MODULES[name].read_text())
    typing_only = {id(sub) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for sub in ast.walk(node)}
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub, []) if sub in MODULES else (base, [alias.name]))
    return [(module, names) for module, names in found if module.split(".")[0] == "parlour"]


def internal_imports(name: str) -> set[str]:
    """The package's modules that ``name`` imports (a package it imports from: its
    ``__init__``), itself and its own submodules left out."""
    out = set()
    for module, _ in imports(name):
        while module not in MODULES:
            module = module.rpartition(".")[0]
        if module != name and not module.startswith(name + "."):
            out.add(module)
    return out


def family(name: str) -> str | None:
    parts = name.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["parlour", "games"] and len(parts) > 2 else None


def within(name: str, part: str) -> bool:
    return name == part or name.startswith(part + ".")


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_or_beside_it(part: str) -> None:
    wrong = sorted(f"{name} imports {dep}"
                   for name in MODULES if within(name, part)
                   for dep in internal_imports(name)
                   if any(within(dep, other) for other in FORBIDDEN[part]))
    assert not wrong


def one_unit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are modules of one family (which may share its insides)."""
    return family(a) is not None and family(a) == family(b)


def test_no_two_modules_import_each_other_outside_a_family() -> None:
    pairs = {frozenset({a, b}) for a in MODULES for b in internal_imports(a)
             if a in internal_imports(b) and not one_unit(a, b)}
    assert not sorted(tuple(sorted(p)) for p in pairs - ALLOWED_PAIRS)


def test_no_module_imports_private_names_of_another() -> None:
    # The compiled core's module is private to the package; its names are the bindings.
    wrong = sorted(f"{name}: from {module} import {taken}"
                   for name in MODULES for module, names in imports(name) for taken in names
                   if taken.startswith("_") and module != "parlour._core"
                   and not one_unit(name, module))
    assert not wrong


def test_the_checks_see_the_imports_they_judge() -> None:
    # The checks above would pass on a reader that found nothing: this one would not.
    assert "parlour.session" in internal_imports("parlour.cli")
    assert "parlour.session" in internal_imports("parlour.web.tables")
    assert "parlour.game" in internal_imports("parlour.session")
    assert ("parlour.match", ["Match"]) in imports("parlour.session")
    assert family("parlour.games.trump.engine") == "parlour.games.trump"
