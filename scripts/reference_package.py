"""The package as it was at an earlier commit, importable beside today's as ``parlour_reference``.

The differential scripts play the same deals through today's engines and an earlier commit's
(the pure-Python engines that the compiled core replaced). The earlier package is read from git
whole, so that its engines run on their own base classes rather than today's, which have grown
since. Only its errors are today's: ``parlour.errors`` is unchanged since the pure-Python engines,
and sharing it lets one ``except ParlourError`` catch a refusal from either engine, to compare
the two by class and message.
"""

from __future__ import annotations

import importlib
import io
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
#: ``parlour`` as a module name, except in ``parlour.errors``.
NAME = re.compile(r"\bparlour(?=\.(?!errors\b)|\s|$)", re.M)


def load_reference(rev: str) -> ModuleType:
    """The package at ``rev``, importable as ``parlour_reference``."""
    folder = Path(tempfile.mkdtemp(prefix="parlour-reference-"))
    archive = subprocess.run(["git", "archive", rev, "src/parlour"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / "parlour_reference"
    (folder / "src" / "parlour").rename(package)
    for path in package.rglob("*.py"):
        path.write_text(NAME.sub("parlour_reference", path.read_text()))
    sys.path.insert(0, str(folder))
    return importlib.import_module("parlour_reference")

