"""The release files in ``dist/`` (``make wheel``; ``make test`` builds them first): what the
wheel holds, and that it works where no Rust compiler is, outside the source tree.

The wheel is installed into fresh virtual environments (with the ``rl`` extra), each on a
Python of its own: this one, and every later CPython found beside it (one abi3 wheel serves
them all). There ``scripts/smoke_wheel.py`` checks it as a player would find it, with no
``cargo`` or ``rustc`` on the ``PATH`` and from a folder outside the source tree: the same
script the release workflow runs on every platform's wheel. The source distribution is
installed with cargo present (it builds the core from source) and runs ``parlour variants``.
"""

from __future__ import annotations

import glob
import html
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
SMOKE = ROOT / "scripts" / "smoke_wheel.py"
VERSION = tomllib.loads((ROOT / "rust" / "Cargo.toml").read_text())["package"]["version"]
#: What a user does not need, and the wheel must not hold: the repository's tests, journals,
#: training runs (training/: selfplay.py, its logs and teachers; the package's own training
#: loop, parlour/training/, is code a user runs), docs, scripts and examples.
LEFT_OUT = ("tests/", "fixtures", "journals/", "selfplay", "logs/", "teachers", "docs/",
            "scripts/", ".github", "examples/", "Makefile", ".jsonl")
#: The goal for the wheel's size.
SIZE_LIMIT = 10 * 2**20


def release_file(pattern: str) -> Path:
    """The one file of ``dist/`` matching ``pattern``, built from the sources as they are."""
    found = [Path(p) for p in glob.glob(str(DIST / pattern))]
    assert len(found) == 1, f"{pattern} in dist/: {found}; run make wheel (make test does)"
    sources = [ROOT / "pyproject.toml", *ROOT.glob("rust/src/**/*.rs"), ROOT / "rust/Cargo.toml",
               *(p for p in ROOT.glob("src/parlour/**/*")
                 if p.is_file() and "__pycache__" not in p.parts and ".so" not in p.suffixes)]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    assert found[0].stat().st_mtime >= newest.stat().st_mtime, (
        f"{found[0].name} is older than {newest.relative_to(ROOT)}: run make wheel")
    return found[0]


def wheel() -> Path:
    return release_file(f"parlour-{VERSION}-cp311-abi3-*.whl")


def sdist() -> Path:
    return release_file(f"parlour-{VERSION}.tar.gz")


def no_rust_path() -> str:
    """The ``PATH`` without the folders that hold cargo or rustc."""
    return os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if not any(Path(d, tool).exists() for tool in ("cargo", "rustc")))


def fresh_env(python: str, folder: Path, *requirements: str) -> Path:
    """A new virtual environment of ``python`` in ``folder`` with ``requirements``: its
    Python."""
    subprocess.run([python, "-m", "venv", str(folder)], check=True)
    executable = folder / "bin" / "python"
    if requirements:
        subprocess.run([str(executable), "-m", "pip", "install", "--quiet", *requirements],
                       check=True, timeout=900)
    return executable


def later_pythons() -> list[str]:
    """CPython 3.12 and later beside this one (pyenv's, or on the ``PATH``), one per minor
    version: the abi3 wheel must work on each."""
    found: dict[str, str] = {}
    candidates = [*glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")),
                  *filter(None, (shutil.which(f"python3.{minor}") for minor in range(12, 20)))]
    for path in candidates:
        match = re.search(r"3\.(\d+)", path)
        if match and int(match.group(1)) >= 12 and f"3.{match.group(1)}" != sys.version[:4]:
            found.setdefault(match.group(1), path)
    return [found[minor] for minor in sorted(found, key=int)]


def test_the_wheel_holds_what_a_user_needs_and_nothing_else() -> None:
    path = wheel()
    names = zipfile.ZipFile(path).namelist()
    package = {n for n in names if n.startswith("parlour/")}
    sources = {f"parlour/{p.relative_to(ROOT / 'src' / 'parlour').as_posix()}"
               for p in (ROOT / "src" / "parlour").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and ".so" not in p.suffixes}
    # Every file of the package: its modules, the typed stub, the shipped networks, the web
    # page's files and the terminal table's style sheet; and the compiled core, for abi3.
    assert sources <= package, sorted(sources - package)
    assert package - sources == {"parlour/_core.abi3.so"}, sorted(package - sources)
    for needed in ("parlour/games/climbing/big_two.npz", "parlour/games/rummy/rummy_4.npz",
                   "parlour/web/static/index.html", "parlour/web/static/table.js",
                   "parlour/games/trump/felt.js", "parlour/games/trump/felt.css",
                   "parlour/tui/parlour.tcss", "parlour/py.typed", "parlour/_core.pyi"):
        assert needed in package, needed
    for name in names:
        assert name.startswith(("parlour/", f"parlour-{VERSION}.dist-info/")), name
        assert not any(part in name for part in LEFT_OUT), name
    size = path.stat().st_size
    print(f"{path.name}: {size / 2**20:.1f} MB, {len(names)} files")
    assert size < SIZE_LIMIT, size
    metadata = zipfile.ZipFile(path).read(f"parlour-{VERSION}.dist-info/METADATA").decode()
    assert "Requires-Python: >=3.11" in metadata
    assert f"Version: {VERSION}" in metadata


def test_the_wheel_is_manylinux_and_built_for_any_x86_64() -> None:
    """One wheel for every CPython from 3.11 (abi3), for any x86-64 Linux with the glibc its
    manylinux tag names: auditwheel finds the tag consistent with what the core links to.
    Nothing in the build config asks for the build machine's own CPU: the core is compiled
    for the x86-64 baseline, and its vector paths are chosen at run time."""
    path = wheel()
    tag = re.fullmatch(rf"parlour-{VERSION}-cp311-abi3-(manylinux_\d+_\d+)_x86_64\.whl",
                       path.name)
    assert tag is not None, path.name
    shown = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(path)],
                           capture_output=True, text=True, check=True).stdout
    assert f'"{tag.group(1)}_x86_64"' in " ".join(shown.split()), shown
    build_config = [ROOT / "pyproject.toml", ROOT / "Makefile", ROOT / "rust" / "Cargo.toml",
                    *ROOT.glob("rust/.cargo/config*"), *ROOT.glob(".cargo/config*"),
                    *ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("rust/build.rs")]
    for config in build_config:
        text = config.read_text()
        for asked in ("target-cpu", "target-feature", "-C native", "RUSTFLAGS"):
            assert asked not in text, (config, asked)
    dispatch = (ROOT / "rust" / "src" / "sim" / "mlp.rs").read_text()
    assert 'is_x86_feature_detected!("avx2")' in dispatch


def test_the_wheel_works_with_no_rust_toolchain_outside_the_source_tree(
        tmp_path: Path) -> None:
    path = wheel()
    pythons = [sys.executable, *later_pythons()]
    print("on " + ", ".join(pythons))
    for n, python in enumerate(pythons):
        env_python = fresh_env(python, tmp_path / f"env{n}", f"{path}[rl]")
        checked = subprocess.run(
            [str(env_python), str(SMOKE), "--readme", str(ROOT / "README.md"), "--version",
             VERSION, "--rl", "--serve"], cwd=tmp_path, capture_output=True, text=True,
            timeout=900, env={**os.environ, "PATH": no_rust_path()}, check=False)
        print(checked.stdout)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert checked.stdout.endswith("all checks passed\n")


def test_the_wheel_and_the_package_say_one_version() -> None:
    import parlour

    assert parlour.__version__ == VERSION
    command = subprocess.run([sys.executable, "-m", "parlour", "--version"],
                             capture_output=True, text=True, check=True)
    assert command.stdout == f"parlour {VERSION}\n"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{VERSION}]" in changelog


def test_a_python_older_than_3_11_is_refused_with_the_reason(tmp_path: Path) -> None:
    """As from PyPI, which lists each file with the package's Requires-Python: pip on Python
    3.10 finds no version it may install, and says why."""
    index = tmp_path / "index" / "parlour"
    index.mkdir(parents=True)
    links = [f'<a href="{p.as_uri()}" data-requires-python="{html.escape(">=3.11")}">'
             f"{p.name}</a>" for p in (wheel(), sdist())]
    (index / "index.html").write_text("<!doctype html><body>" + "".join(links) + "</body>")
    answer = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--isolated",
         "--index-url", (tmp_path / "index").as_uri(), "--python-version", "3.10",
         "--target", str(tmp_path / "target"), "parlour"],
        capture_output=True, text=True, check=False)
    assert answer.returncode != 0
    assert f"require a different python version: {VERSION} Requires-Python >=3.11" in (
        answer.stdout + answer.stderr), answer.stdout + answer.stderr


@pytest.mark.timeout(1200)
def test_the_source_distribution_builds_with_cargo(tmp_path: Path) -> None:
    assert shutil.which("cargo") is not None, "cargo is needed to build the sdist"
    env_python = fresh_env(sys.executable, tmp_path / "env")
    built = subprocess.run([str(env_python), "-m", "pip", "install", "--quiet", str(sdist())],
                           capture_output=True, text=True, timeout=1200, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    answer = subprocess.run([str(env_python.with_name("parlour")), "variants"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert answer.returncode == 0 and "pusoy-dos" in answer.stdout, answer.stderr
    # With no extra installed, the version is known all the same.
    answer = subprocess.run([str(env_python.with_name("parlour")), "--version"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert answer.stdout == f"parlour {VERSION}\n", answer.stderr
