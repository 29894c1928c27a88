"""The package's layers import downwards only: read from the source, every import counted
(those inside functions too), except those under ``if TYPE_CHECKING:`` (types only, never run).

Two checks over the whole import graph:

- **no cycle of any length**: the graph's strongly connected components are single modules. A
  package's own modules count like any other (``parlour.bots`` importing
  ``parlour.bots.levels`` is an edge), so a cycle through a package and its parts is seen;
- **a declared order of layers** (:data:`LAYERS`, bottom first): each module imports only its
  own layer and those below. Every module must be placed, so a new one is placed on purpose.

Python runs a package's ``__init__`` before any module under it; that implicit step is not an
edge (it is how packages work, not a dependency a module chose): the facade ``parlour`` is
judged by its own imports, like every module.

Beside the order, the front ends (the plain-text player ``parlour.cli``, the terminal table
``parlour.tui``, the web tables ``parlour.web``) and the arena sit side by side: none imports
another. No module imports another's private names (a family's own modules, one unit,
excepted).
"""

from __future__ import annotations

import ast
import fnmatch
import re
from collections import Counter
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
RUST = SOURCE.parent / "rust" / "src"

#: The layers, bottom first: a module belongs to the layer of its most specific pattern (the
#: longest that matches), and imports nothing of a layer above its own.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base: cards, errors, text, the compiled core",
     ("parlour._core", "parlour.errors", "parlour.cards", "parlour.cards.*", "parlour.text",
      "parlour.view", "parlour.timing")),
    ("the game protocol", ("parlour.play", "parlour.match", "parlour.game")),
    ("the registry", ("parlour.registry",)),
    ("the families' rules", ("parlour.games", "parlour.games.*")),
    ("the package's face", ("parlour", "parlour.summaries", "parlour.moves",
                            "parlour.records", "parlour.args")),
    ("encodings, the networks' move features, and the games as OpenSpiel sees them",
     ("parlour.encoding", "parlour.games.*.encoding", "parlour.games.*.features",
      "parlour.interop", "parlour.interop.openspiel")),
    ("bots", ("parlour.bots", "parlour.bots.*")),
    ("environments", ("parlour.envs", "parlour.envs.*", "parlour.interop.gymnasium")),
    ("training", ("parlour.training", "parlour.training.*")),
    ("advice and the table session", ("parlour.review", "parlour.advice", "parlour.session",
                                      "parlour.stats", "parlour.tutorial")),
    ("front ends, arena, bench", ("parlour.cli", "parlour.__main__", "parlour.client",
                                  "parlour.tui", "parlour.tui.*", "parlour.web",
                                  "parlour.web.*", "parlour.arena", "parlour.arena.*",
                                  "parlour.bench")),
]

#: Parts that sit side by side: none imports the others.
BESIDE = {
    "parlour.web": ("parlour.tui", "parlour.cli", "parlour.arena"),
    "parlour.tui": ("parlour.cli", "parlour.web", "parlour.arena"),
    "parlour.arena": ("parlour.cli", "parlour.tui", "parlour.web"),
}


def module_files() -> dict[str, Path]:
    files = {}
    for path in [*(SOURCE / "parlour").rglob("*.py"), SOURCE / "parlour" / "_core.pyi"]:
        parts = path.relative_to(SOURCE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        files[name] = path
    return files


MODULES = module_files()


def imports(name: str) -> list[tuple[str, list[str]]]:
    """Each import of module ``name`` run at some point: (module imported, names taken from it)."""
    if MODULES[name].suffix == ".pyi":
        return []  # the compiled core imports nothing of the package
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
    ``__init__``), itself left out."""
    out = set()
    for module, _ in imports(name):
        while module not in MODULES:
            module = module.rpartition(".")[0]
        if module != name:
            out.add(module)
    return out


GRAPH = {name: internal_imports(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def layer(name: str) -> int | None:
    """The index of ``name``'s layer in :data:`LAYERS`, by its most specific pattern."""
    best: tuple[int, int] | None = None
    for k, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if fnmatch.fnmatchcase(name, pattern) and (best is None or len(pattern) > best[0]):
                best = (len(pattern), k)
    return None if best is None else best[1]


def family(name: str) -> str | None:
    parts = name.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["parlour", "games"] and len(parts) > 2 else None


def within(name: str, part: str) -> bool:
    return name == part or name.startswith(part + ".")


def one_unit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are modules of one family (which may share its insides)."""
    return family(a) is not None and family(a) == family(b)


def test_no_import_cycle_of_any_length() -> None:
    assert not cycles(GRAPH)


def test_every_module_has_a_layer_and_imports_nothing_above_it() -> None:
    assert not sorted(name for name in MODULES if layer(name) is None)
    wrong = sorted(f"{name} ({LAYERS[layer(name) or 0][0]}) imports {dep} "
                   f"({LAYERS[layer(dep) or 0][0]})"
                   for name, deps in GRAPH.items() for dep in deps
                   if (layer(dep) or 0) > (layer(name) or 0))
    assert not wrong


@pytest.mark.parametrize("part", sorted(BESIDE))
def test_the_front_ends_and_the_arena_import_none_of_each_other(part: str) -> None:
    wrong = sorted(f"{name} imports {dep}"
                   for name, deps in GRAPH.items() if within(name, part)
                   for dep in deps if any(within(dep, other) for other in BESIDE[part]))
    assert not wrong


def test_no_module_imports_private_names_of_another() -> None:
    # The compiled core's module is private to the package; its names are the bindings.
    wrong = sorted(f"{name}: from {module} import {taken}"
                   for name in MODULES for module, names in imports(name) for taken in names
                   if taken.startswith("_") and module != "parlour._core"
                   and not one_unit(name, module))
    assert not wrong


def test_the_checks_see_the_imports_they_judge() -> None:
    # The checks above would pass on a reader that found nothing: these would not.
    assert "parlour.session" in GRAPH["parlour.cli"]
    assert "parlour.session" in GRAPH["parlour.web.tables"]
    assert "parlour.game" in GRAPH["parlour.session"]
    assert "parlour._core" in GRAPH["parlour.game"]
    assert "parlour.bots.levels" in GRAPH["parlour.bots"]  # a package's own parts count
    assert ("parlour.match", ["Match"]) in imports("parlour.session")
    assert family("parlour.games.trump.engine") == "parlour.games.trump"
    # A cycle of three is found, and only it.
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [["a", "b", "c"]]
    assert layer("parlour.games.rummy.encoding") == layer("parlour.encoding")
    assert layer("parlour.games.rummy.engine") == layer("parlour.games")


# -- a family is named only by its own files ---------------------------------------------------

#: The places outside a family's own files (``src/parlour/games/<family>/``,
#: ``rust/src/<family>/``) and the docs that still name a family or a variant by string, with
#: how many times: what is left to move into the families' records. The goal is none; the
#: check fails when a place is added, and when one is moved (then strike it here).
NAMED_ELSEWHERE: Counter[tuple[str, str]] = Counter()


def named_elsewhere(source: Path = SOURCE, rust: Path = RUST) -> Counter[tuple[str, str]]:
    """Each string (not a docstring or comment) equal to a family's or variant's name, by file
    and name, in the package (under ``source``) and the crate (``rust``) outside the families'
    own files."""
    import parlour

    names = {v.name for v in parlour.variants()} | {v.family for v in parlour.variants()}
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted((source / "parlour").rglob("*.py")):
        where = path.relative_to(source).as_posix()
        if where.startswith("parlour/games/"):
            continue
        tree = ast.parse(path.read_text())
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                              | ast.AsyncFunctionDef)
                and node.body and isinstance(node.body[0], ast.Expr)}
        found.update((where, node.value) for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and node.value in names
                     and id(node) not in docs)
    quoted = re.compile(r"""["'`]([a-z0-9-]+)["'`]|\.([a-z0-9-]+)\b""")
    for path in [*sorted((source / "parlour").rglob("*.js")),
                 *sorted((source / "parlour").rglob("*.css")), *sorted(rust.rglob("*.rs"))]:
        where = path.relative_to(source if path.is_relative_to(source) else rust.parent)
        if where.parts[:2] == ("parlour", "games") or (
                where.parts[0] == "src" and where.parts[1] in names):
            continue
        for line in path.read_text().splitlines():
            if line.strip().startswith(("//", "/*", "*")):
                continue
            found.update((where.as_posix(), word) for match in quoted.finditer(line)
                         for word in match.groups() if word in names)
    return found


def test_a_family_is_named_by_its_own_files_alone() -> None:
    assert named_elsewhere() == NAMED_ELSEWHERE


def test_the_names_check_sees_a_name_outside_a_familys_files(tmp_path: Path) -> None:
    # A string that names a variant is seen, a docstring's is not, nor a family's own files'.
    (tmp_path / "parlour" / "games" / "rummy").mkdir(parents=True)
    (tmp_path / "parlour" / "tables.py").write_text('"""Plays big-two."""\nSTART = "big-two"\n')
    (tmp_path / "parlour" / "games" / "rummy" / "x.py").write_text('NAME = "rummy"\n')
    (tmp_path / "parlour" / "page.js").write_text('// "rummy"\nif (v === "spoil-five") {}\n')
    (tmp_path / "src" / "trump").mkdir(parents=True)
    (tmp_path / "src" / "env.rs").write_text('let name = "pusoy-dos";\n')
    (tmp_path / "src" / "trump" / "mod.rs").write_text('let name = "forty-five";\n')
    assert named_elsewhere(tmp_path, tmp_path / "src") == Counter(
        {("parlour/tables.py", "big-two"): 1, ("parlour/page.js", "spoil-five"): 1,
         ("src/env.rs", "pusoy-dos"): 1})
