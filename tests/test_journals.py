"""The journals in ``journals/`` are the runs the documentation quotes: each is read back, with
no deal played, and must give the figures the documentation states for it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import parlour
from parlour.arena import run_arena
from parlour.arena.cli import _ci  # the interval as the arena's report prints it
from parlour.arena.deals import make_entries
from parlour.arena.journal import Journal
from parlour.arena.stats import head_to_head, split_differences

ROOT = Path(__file__).resolve().parents[1]
JOURNALS = ROOT / "journals"
SPEED = (ROOT / "docs" / "speed-strength.md").read_text()
LISTED = (JOURNALS / "README.md").read_text()


@pytest.mark.parametrize("name, variant, bots", [
    ("pusoy-dos-expert-greedy", "pusoy-dos", ["expert", "greedy"]),
])
def test_a_journal_gives_the_figures_the_documentation_quotes(
        name: str, variant: str, bots: list[str], tmp_path: Path) -> None:
    game = parlour.new_game(variant)
    path = tmp_path / f"{name}.jsonl"
    shutil.copy(JOURNALS / f"{name}.jsonl", path)  # reading it back may tidy the file
    held = len(Journal.open(path, game, make_entries(bots), 1, True).plays)
    # The README's table says how many deals each journal holds.
    assert re.search(rf"\| `{name}.jsonl` \| .* \| {held:,} \|", LISTED), held
    # With as many deals as it holds, the run plays none: the bots are never asked.
    result = run_arena(game, bots, held, seed=1, duplicate=True, journal=path)
    [pair] = head_to_head(result)
    splits = " / ".join(f"{s.difference.mean:+.3f}" for s in split_differences(result))
    row = (f"| {variant} | {game.players} | {pair.mean:+.3f} ({held:,} deals) | "
           f"{_ci(pair.mean, pair.half)} | {splits} |")
    assert row in SPEED, row
