"""A seat's view as data (``Observation.view()``): at every position of random deals of every
variant (at every player count, and with its other options), for every seat, the view is what the
table's text says and what the observation holds, and it names no card hidden from the seat.

Checked: ``render()`` is the view's text; its hand is the observation's; no card of
``state.hidden_from(seat)`` (the other hands, the stock, another seat's discard, less what is
public: a card taken from the discard pile, the turn-up, the lowest card while the opening is
due) is named by its title, panels, tricks, caption, result or marks; the trump games' tricks are
the last finished trick and the trick in progress; Rummy marks the card the seat just drew while
it is that seat's turn and it still holds it, and nothing else; the result is set exactly once
the deal is over. The web's seat and spectator views carry the same data.
"""

from __future__ import annotations

import random

import pytest

from helpers import CARD_TOKEN, GAME_IDS, GAMES, GREEDY_SHARE, play_random
from parlour.cards import Card, CardSet
from parlour.game import Game, Observation, State
from parlour.games.rummy.actions import DISCARD, DRAW_DISCARD, DRAW_STOCK, RummyAction
from parlour.games.trump.observation import TrumpObservation
from parlour.view import HAND, JUST_DRAWN, SeatView, TrickView
from parlour.web.views import seat_view, spectator_view

DEALS = 3


def named(seat: SeatView) -> CardSet:
    """Every card the view names, in words or as data (its hand aside)."""
    words = [seat.title, *(line for p in seat.table_panels() for line in p.lines),
             seat.caption or "", seat.result or "", *seat.marked.values()]
    cards = [Card.parse(token) for token in CARD_TOKEN.findall("\n".join(words))]
    cards += [card for trick in seat.tricks for _, card in trick.plays]
    cards += [trick.best for trick in seat.tricks if trick.best is not None]
    cards += list(seat.marked)
    return CardSet.from_cards(cards)


def expected_tricks(obs: TrumpObservation) -> tuple[TrickView, ...]:
    """The last finished trick (from ``finished_tricks()``) and the trick in progress (from
    ``trick`` and ``leader``; the card winning it so far is left to the caller)."""
    finished = obs.finished_tricks()
    out = []
    if finished:
        winner = obs.trick_winners[-1]
        card = next(c for s, c in finished[-1] if s == winner)
        out.append(TrickView(len(finished), finished[-1], card, winner))
    if obs.trick:
        n = len(obs.hand_sizes)
        plays = tuple(((obs.leader + i) % n, card) for i, card in enumerate(obs.trick))
        out.append(TrickView(len(finished) + 1, plays, None, None))  # best: see check_tricks
    return tuple(out)


class Checker:
    """Checks every seat's view at each position of one deal; follows Rummy's draws to know,
    from the hands alone, which card each seat just drew."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.hands: list[CardSet] = [CardSet() for _ in range(game.players)]
        #: The card the seat to move drew this turn (Rummy), until its discard ends the turn.
        self.drawn: Card | None = None
        self.positions = 0
        #: How many seat views marked a card.
        self.marks = 0

    def __call__(self, state: State, legal: object = None) -> None:
        observations = [state.observation(s) for s in range(self.game.players)]
        self.follow_draws(state, observations)
        for obs in observations:
            self.check(state, obs)
        self.hands = [obs.hand for obs in observations]
        self.positions += 1

    def follow_draws(self, state: State, observations: list[Observation]) -> None:
        if not state.history:
            return
        seat, action = state.history[-1]
        if not isinstance(action, RummyAction):
            return
        if action.kind in (DRAW_STOCK, DRAW_DISCARD):
            new = observations[seat].hand - self.hands[seat]
            assert len(new) == 1, (seat, action, new)
            self.drawn = new.cards()[0]
        elif action.kind == DISCARD:
            self.drawn = None

    def check(self, state: State, obs: Observation) -> None:
        seat = obs.view()
        where = f"{self.game!r} seat {obs.seat} step {len(state.history)}"
        assert obs.render() == seat.text(), where
        assert seat.hand == tuple(obs.hand), where
        assert [p.name for p in seat.panels].count(HAND) == 1, where
        leaked = named(seat) & state.hidden_from(obs.seat)
        assert not leaked, (where, str(leaked), seat)
        assert (seat.result is not None) == obs.is_over, (where, seat.result)
        if seat.result is not None:
            assert seat.result and seat.result in seat.text(), where
        family = self.game.variant.family
        if family == "trump":
            assert isinstance(obs, TrumpObservation)
            self.check_tricks(obs, seat, where)
        else:
            assert seat.tricks == (), where
        if family == "climbing":
            assert seat.caption is not None and f"Table: {seat.caption}" in seat.text(), where
        else:
            assert seat.caption is None, where
        mine = obs.current_player == obs.seat and self.drawn is not None
        expected = {self.drawn: JUST_DRAWN} if mine and self.drawn in obs.hand else {}
        assert dict(seat.marked) == expected, (where, dict(seat.marked), expected)
        assert seat.just_drawn() == next(iter(expected), None), where
        self.marks += bool(expected)

    @staticmethod
    def check_tricks(obs: TrumpObservation, seat: SeatView, where: str) -> None:
        expected = expected_tricks(obs)
        assert len(seat.tricks) == len(expected), (where, seat.tricks)
        for got, want in zip(seat.tricks, expected, strict=True):
            assert (got.number, got.plays, got.winner) == (want.number, want.plays,
                                                           want.winner), where
            if want.winner is None:
                # The card winning the trick in progress: one of its cards.
                assert got.best in obs.trick, where
            else:
                assert got.best == want.best, where


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_every_seats_view_tells_its_table_and_names_no_hidden_card(game: Game) -> None:
    marks = 0
    for k in range(DEALS):
        rng = random.Random(f"seat-view/{game!r}/{k}")
        state = game.new_deal(seed=rng.randrange(2**32))
        checker = Checker(game)
        play_random(state, rng, checker, GREEDY_SHARE.get(game.name, 0.0))
        checker(state)  # the end of the deal
        assert checker.positions == len(state.history) + 1
        marks += checker.marks
    assert (marks > 0) == (game.variant.family == "rummy")


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_the_web_views_carry_the_seat_views_data(game: Game) -> None:
    rng = random.Random(f"web-view/{game!r}")
    state = game.new_deal(seed=rng.randrange(2**32))
    seen_tricks = seen_result = False

    def check(state: State, legal: object = None) -> None:
        nonlocal seen_tricks, seen_result
        observations = [state.observation(s) for s in range(game.players)]
        views = [o.view() for o in observations]
        logs = [o.log_lines(0) for o in observations]
        for obs, seat in zip(observations, views, strict=True):
            data = seat_view(obs, state.legal_actions() if obs.current_player == obs.seat
                             else [], logs[obs.seat])
            assert data["text"] == seat.text()
            assert [(p["name"], tuple(p["lines"])) for p in data["panels"]] == [
                (p.name, p.lines) for p in seat.panels]
            assert data["caption"] == seat.caption and data["deal_result"] == seat.result
            assert data["marked"] == {str(c): why for c, why in seat.marked.items()}
            assert data["new_card"] == (None if seat.just_drawn() is None
                                        else str(seat.just_drawn()))
            assert [(t["number"], t["winner"]) for t in data["tricks"]] == [
                (t.number, t.winner) for t in seat.tricks]
        public = spectator_view(observations, logs)
        # Tricks, the caption and the result are public: the spectator gets every seat's.
        assert public["tricks"] == seat_view(observations[0], [], logs[0])["tricks"]
        assert public["caption"] == views[0].caption
        assert public["deal_result"] == views[0].result
        assert public["marked"] == {} and public["new_card"] is None
        assert HAND not in [p["name"] for p in public["panels"]]
        for panel in public["panels"]:
            for seat in views:
                assert set(panel["lines"]) <= {line for p in seat.panels for line in p.lines}
        seen_tricks = seen_tricks or bool(public["tricks"])
        seen_result = seen_result or public["deal_result"] is not None

    play_random(state, rng, check, GREEDY_SHARE.get(game.name, 0.0))
    check(state)
    assert seen_result
    assert seen_tricks == (game.variant.family == "trump")


@pytest.mark.parametrize("variant", ["spoil-five", "forty-five"])
def test_spoil_five_counts_each_seats_chips_as_its_text_does(variant: str) -> None:
    import parlour

    state = parlour.new_game(variant).new_deal(seed=4)
    rng = random.Random(4)
    while True:
        for seat in range(state.game.players):
            view = state.observation(seat).view()
            if variant == "forty-five":  # the scores are the sides', not the seats'
                assert dict(view.seat_figures) == {}
                continue
            chips = view.seat_figures["chips"]
            scores = next(p for p in view.panels if p.name == "scores").lines[0]
            assert scores.endswith(" · ".join(f"{state.game.seat_name(s)} {c:g}"
                                              for s, c in enumerate(chips)))
            web = seat_view(state.observation(seat), [], [])
            assert web["seat_figures"] == {"chips": list(chips)}
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    everyone = spectator_view([state.observation(s) for s in range(state.game.players)],
                              [[] for _ in range(state.game.players)])
    expected = {} if variant == "forty-five" else {
        "chips": list(state.observation(0).view().seat_figures["chips"])}
    assert everyone["seat_figures"] == expected
