"""The journals in ``journals/`` are the runs the documentation quotes: each is read back, with
no deal played, and must give the figures the documentation states for it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import parlour
from parlour.arena import run_arena
from parlour.arena.deals import make_entries
from parlour.arena.journal import Journal
from parlour.arena.stats import head_to_head, paired_runs, split_differences
from parlour.text import Scores

ROOT = Path(__file__).resolve().parents[1]
JOURNALS = ROOT / "journals"


def _ci(mean: float, half: float) -> str:
    """The interval of a difference as the arena's report prints it."""
    return Scores().interval(mean, half, difference=True)
#: The pages that quote the runs: today's figures, and the experiments behind the levels.
PAGES = ("speed-strength.md", "tuning.md", "experiments/networks.md", "experiments/ladder.md",
         "experiments/speed.md")
SPEED = "\n".join((ROOT / "docs" / page).read_text() for page in PAGES)
LISTED = (JOURNALS / "README.md").read_text()


#: How the documentation quotes big-two-4card's runs of ``expert`` with its model of the other
#: seats, and of ``expert`` before it modelled them.
MODELLED = ("over all {held} deals of `expert`'s run against `learned`, `expert` with the model "
            "and 16 draws scored {mean} {ci} (by split {s0} / {s1} / {s2})",
            "over {held} deals of `expert`'s run against `greedy` it scored {mean} {ci} (by split "
            "{s0} / {s1} / {s2})")
#: How it quotes those runs (of the teacher, the network before the student took its place).
TEACHER = ("With the teacher as `expert`'s network and as `learned` it was {mean} {ci} (by split "
           "{s0} / {s1} / {s2};", "With the teacher as its network it was {mean} {ci} (by split "
           "{s0} / {s1} / {s2})")
UNMODELLED = ("which against `learned` changes next to nothing, it was {mean} {ci} (by split "
              "{s0} / {s1} / {s2};", "without the model it was {mean} {ci} (by split {s0} / {s1} "
              "/ {s2};")


#: How the documentation quotes the runs of ``expert`` as shipped, against ``learned`` and
#: against ``greedy``, in a learned network's section.
SHIPPED = {"learned": ("**`expert − learned`: {mean} {ci}**",
                       "By split: 1-vs-3 {s0}, 2-vs-2 {s1}, 3-vs-1 {s2}."),
           "greedy": ("{row}",
                      "Against `greedy` directly `expert` is {mean} {ci} over {held} deals")}

#: The rows of the table of ``expert`` played out by the distilled network.
DISTILLED_ROW = ("| the distilled network | `{against}` | {{held}} | {{mean}} | {{ci}} | "
                 "{{s0}} / {{s1}} / {{s2}} |")

#: Every journal here: the run's variant, player count and bots (seed 1, duplicate seatings),
#: and what the documentation says of it: a row of the table of `expert` against `greedy`, or
#: sentences, filled in from the run's figures (``TABLE_ROW``'s fields).
RUNS: dict[str, tuple[str, int, list[str], tuple[str, ...]]] = {
    "big-two-expert-greedy": ("big-two", 4, ["expert", "greedy"], ("{row}",)),
    "rummy-4-expert-greedy": ("rummy", 4, ["expert", "greedy"], ("{row}",)),
    # the level as shipped: the student network everywhere (in pusoy-dos and big-two-4card)
    **{f"{variant}-expert-{against}-student": (variant, 4, ["expert", against], SHIPPED[against])
       for variant in ("pusoy-dos", "big-two-4card") for against in ("learned", "greedy")},
    # with the teacher as the network
    "pusoy-dos-expert-greedy": ("pusoy-dos", 4, ["expert", "greedy"], (TEACHER[1],)),
    # with big-two-4card's teacher, expert with its model of the other seats (before the level
    # took it up, the runs of scripts/search_settings.py --opponents 128,0.5,0.05,0.3,0.8,16)
    "big-two-4card-expert-learned-opponents": (
        "big-two-4card", 4, ["expert", "learned"], (MODELLED[0], TEACHER[0])),
    "big-two-4card-expert-greedy-opponents": (
        "big-two-4card", 4, ["expert", "greedy"], (MODELLED[1], TEACHER[1])),
    # with the teacher, expert before it modelled the other seats
    "big-two-4card-expert-learned": ("big-two-4card", 4, ["expert", "learned"], (UNMODELLED[0],)),
    "big-two-4card-expert-greedy": ("big-two-4card", 4, ["expert", "greedy"], (UNMODELLED[1],)),
    # expert played out by a network distilled from the teacher (an experiment's runs)
    "big-two-4card-expert-greedy-distilled": (
        "big-two-4card", 4, ["expert", "greedy"], (DISTILLED_ROW.format(against="greedy"),)),
    "big-two-4card-expert-learned-distilled": (
        "big-two-4card", 4, ["expert", "learned"], (DISTILLED_ROW.format(against="learned"),)),
}

#: Runs not yet at their size (``journals/in-progress/``), which nothing quotes yet: the run's
#: variant, player count and bots, as in ``RUNS``.
IN_PROGRESS: dict[str, tuple[str, int, list[str]]] = {}

#: A row of the table of ``expert`` against ``greedy``: its runs are 2,000 deals, and a row of
#: fewer says how many.
TABLE_ROW = "| {game} | {players} | {mean}{count} | {ci} | {s0} / {s1} / {s2} |"


def _read(name: str, tmp_path: Path) -> tuple[parlour.Game, Path, int]:
    """The run's game, a copy of its journal (reading it back may tidy the file) and the deals
    it holds; opening checks the header, so another run's journal is refused."""
    variant, players, bots, _ = RUNS[name]
    game = parlour.new_game(variant, players=players)
    path = tmp_path / f"{name}.jsonl"
    shutil.copy(JOURNALS / f"{name}.jsonl", path)
    return game, path, len(Journal.open(path, game, make_entries(bots), 1, True).plays)


def test_every_journal_is_of_its_run_and_listed_with_the_deals_it_holds(tmp_path: Path) -> None:
    assert {path.stem for path in JOURNALS.glob("*.jsonl")} == set(RUNS)
    for name in RUNS:
        _, _, held = _read(name, tmp_path)
        assert held > 0
        assert re.search(rf"\| `{name}.jsonl` \| .* \| {held:,} \|", LISTED), (name, held)


def test_every_run_in_progress_is_of_its_run_and_listed_with_the_deals_it_holds(
        tmp_path: Path) -> None:
    folder = JOURNALS / "in-progress"
    assert {path.stem for path in folder.glob("*.jsonl")} == set(IN_PROGRESS)
    for name, (variant, players, bots) in IN_PROGRESS.items():
        game = parlour.new_game(variant, players=players)
        path = tmp_path / f"{name}.jsonl"
        shutil.copy(folder / f"{name}.jsonl", path)
        held = len(Journal.open(path, game, make_entries(bots), 1, True).plays)
        assert 0 < held < 2000
        assert re.search(rf"\| `in-progress/{name}.jsonl` \| {held:,} \|", LISTED), (name, held)


@pytest.mark.parametrize("name", list(RUNS))
def test_a_journal_gives_the_figures_the_documentation_quotes(name: str, tmp_path: Path) -> None:
    game, path, held = _read(name, tmp_path)
    bots = RUNS[name][2]
    # With as many deals as it holds, the run plays none: the bots are never asked.
    result = run_arena(game, bots, held, seed=1, duplicate=True, journal=path)
    [pair] = head_to_head(result)
    fields = {"game": game.name, "players": game.players,
              "mean": f"{pair.mean:+.3f}", "ci": _ci(pair.mean, pair.half),
              "count": "" if held == 2000 else f" ({held:,} deals)", "held": f"{held:,}",
              **{f"s{i}": f"{s.difference.mean:+.3f}"
                 for i, s in enumerate(split_differences(result))}}
    fields["row"] = TABLE_ROW.format(**fields)
    text = " ".join(SPEED.split())  # a sentence may be wrapped anywhere
    for quote in RUNS[name][3]:
        assert quote.format(**fields) in text, quote.format(**fields)


#: Pairs of runs the documentation compares deal by deal: ``expert`` changed (played out by
#: the distilled network, with its model of the other seats, or with the student network
#: everywhere) and before the change, with the deals both journals hold.
PAIRED = [("big-two-4card-expert-greedy-distilled", "big-two-4card-expert-greedy", 2000),
          ("big-two-4card-expert-learned-distilled", "big-two-4card-expert-learned", 1032),
          ("big-two-4card-expert-learned-opponents", "big-two-4card-expert-learned", 2000),
          ("big-two-4card-expert-greedy-opponents", "big-two-4card-expert-greedy", 2000),
          ("big-two-4card-expert-greedy-student", "big-two-4card-expert-greedy-opponents", 2000),
          ("big-two-4card-expert-learned-student", "big-two-4card-expert-learned-opponents", 2000),
          ("pusoy-dos-expert-greedy-student", "pusoy-dos-expert-greedy", 2000)]


@pytest.mark.parametrize(("changed", "before", "deals"), PAIRED)
def test_the_changed_experts_are_paired_with_the_one_before_on_the_same_deals(
        changed: str, before: str, deals: int, tmp_path: Path) -> None:
    """The documentation's paired differences of ``expert`` changed and before the change, over
    the deals both journals hold."""
    runs = []
    for name in (changed, before):
        game, path, _ = _read(name, tmp_path)
        runs.append(run_arena(game, RUNS[name][2], deals, seed=1, duplicate=True, journal=path))
    pair = paired_runs(*runs)
    assert pair.deals == deals
    figure = f"{pair.mean:+.3f} {_ci(pair.mean, pair.half)}".replace("-", "−")  # as typeset
    assert f"of {figure} over the same {deals:,} deals" in " ".join(SPEED.split()), figure
