"""One judge for hints and reviews (parlour.advice, parlour.review), over many positions of
every variant: a player who follows every hint is never told a move was worse, an expert seat
is never told by the expert review that another move was better, a review's total says what its
lines say, and a hint speaks a player's words."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

import parlour
from parlour.advice import hint
from parlour.bots import make_bot
from parlour.cli import main
from parlour.review import review_deal, review_lines, reviewer_bot

VARIANTS = [v.name for v in parlour.variants()]
#: Words of the machinery, never in what a player reads.
INTERNAL = ("network", "rollout", "simulated", "rule-based", "policy", "search", "P0", "P1",
            "P2", "P3", "Computer", "Human")

#: A card in letters ("3D", "10S"), where a player reads faces ("3♦").
CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b")


def hinted_deal(variant: str, seed: int, level: str = "medium") -> tuple[parlour.State,
                                                                        list[parlour.Action]]:
    """A deal where seat 0 follows every hint and the others play greedy; the hints."""
    state = parlour.new_game(variant).new_deal(seed=seed)
    greedy, rng, hints = make_bot("greedy"), random.Random(seed), []
    while not state.is_over:
        seat, legal = state.current_player, state.legal_actions()
        obs = state.observation(seat)
        if seat == 0:
            advice = hint(obs, legal, level)
            assert advice == hint(obs, legal, level)  # the same position, the same hint
            hints.append(advice.action)
            state.apply(advice.action)
        else:
            state.apply(greedy.choose(obs, legal, rng))
    return state, hints


@pytest.mark.parametrize("variant", VARIANTS)
def test_following_every_hint_is_never_called_worse(variant: str) -> None:
    decisions = []
    for seed in range(3):
        state, _ = hinted_deal(variant, seed)
        decisions += review_deal(state, [0], reviewer_bot("medium"), deal=seed + 1)
    assert len(decisions) >= 10, len(decisions)
    for d in decisions:
        assert d.best == d.played and d.loss == 0 and not d.mistake, d
        assert d.reason == f"{d.played.words()}: the best move"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hint_says_the_move_and_how_sure_in_a_players_words(variant: str) -> None:
    seen, reasons = set(), 0
    sure = {"the only move": ": the only move.", "clearly best": ". Clearly the best move here.",
            "a close call": ". A close call with ", "any move will do": ". Any move will do: "}
    for seed in range(2):
        state = parlour.new_game(variant).new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            obs, legal = state.observation(state.current_player), state.legal_actions()
            advice = hint(obs, legal, "medium")
            seen.add(advice.confidence)
            assert advice.action in legal
            # The move, why (when there is something to say), how sure.
            assert sure[advice.confidence] in advice.text, advice
            why = obs.reason(advice.action, legal)
            if why and len(legal) > 1:
                assert f": {why}" in advice.text, advice
                reasons += 1
            for word in INTERNAL:
                assert word not in advice.text and word not in advice.details, advice
            assert not CARD_CODE.search(advice.text), advice.text  # faces, not codes
            state.apply(rng.choice(legal))
    assert "the only move" in seen or variant == "rummy"
    assert {"clearly best", "a close call"} & seen
    assert reasons >= 3, reasons


@pytest.mark.parametrize(("variant", "deals"), [("big-two-4card", 2), ("forty-five", 1),
                                                 ("rummy", 1)])
def test_the_expert_review_never_faults_an_expert_seat(tmp_path: Path, variant: str,
                                                       deals: int) -> None:
    """As a user checks it: an arena of expert against greedy, recorded, then each expert
    seat's decisions reviewed by the expert level."""
    out = io.StringIO()
    folder = tmp_path / "records"
    assert main(["arena", variant, "--bots", "expert,greedy", "--games", str(deals),
                 "--seed", "7", "--record", str(folder), "--results",
                 str(tmp_path / "results.sqlite")], out=out) == 0, out.getvalue()
    records = sorted(folder.glob("*.json"))
    assert records
    reviewed = 0
    for path in records:
        record = json.loads(path.read_text())
        labels = path.stem.split("-", 2)[2].split("_")
        seats = [s for s, label in enumerate(labels) if label == "expert"]
        text = io.StringIO()
        arguments = ["review", str(path), "--level", "expert"]
        for seat in seats:
            arguments += ["--seat", str(seat)]
        assert main(arguments, out=text) == 0
        lines = text.getvalue().splitlines()[1:-1]
        reviewed += len(lines)
        assert lines and not [line for line in lines if "better" in line or line[0] == "?"], (
            path.name, lines)
        assert record["format"] == "parlour-deal/1"
    assert reviewed >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_reviews_total_says_what_its_lines_say(variant: str) -> None:
    state = parlour.new_game(variant).new_deal(seed=4)
    parlour.play_out(state, [make_bot("random")] * state.game.players, random.Random(4))
    seats = list(range(state.game.players))
    decisions = review_deal(state, seats, reviewer_bot("medium"))
    lines = review_lines(decisions, state)
    for d, line in zip(decisions, lines, strict=False):
        # Only a mistake says another move was better, and only it loses points.
        assert ("better" in line) == d.mistake == line.startswith("?") == (d.loss > 0), line
        if d.mistake:
            assert f"by {d.loss:.2f} points" in line
    mistakes = sum(d.mistake for d in decisions)
    lost = sum(d.loss for d in decisions if d.mistake)
    assert re.search(rf"{mistakes} mistakes?, {lost:.2f} points lost in all$", lines[-1]), lines[-1]
    assert mistakes > 0  # random play makes some
