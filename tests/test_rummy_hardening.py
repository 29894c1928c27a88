"""Rummy at its edges: what ``apply``, ``new_deal`` and the seat-taking methods refuse, what the
state lets a caller change, the order cards are listed in, and how a deal reads as text."""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError, fields

import pytest

import parlour
from helpers import named_cards
from parlour.bots import make_bot
from parlour.cards import CARDS, Card, CardSet
from parlour.errors import CardError, DealError, IllegalAction, SeatError
from parlour.games.rummy.actions import _FAR, DISCARD, INTERNED, LAYOFF, MELD, RummyAction
from parlour.games.rummy.engine import RummyState
from parlour.games.rummy.observation import RummyObservation
from parlour.records import deal_record, replay_deal

ALL = CardSet((1 << 52) - 1)
REBUILT = "the stock is rebuilt from the discard pile under its top card"


def deal(hands: list[str], stock: str = "...", discard: str = "", **settings: object) -> RummyState:
    """A position (options split off from the deal settings)."""
    options = {k: settings.pop(k) for k in list(settings)
               if k in ("forbid_discard_of_drawn_discard", "tie_break", "turn_limit")}
    game = parlour.new_game("rummy", players=len(hands), **options)
    state = game.new_deal(hands=hands, stock=stock, discard=discard, seed=1, **settings)
    assert isinstance(state, RummyState)
    return state


def play(state: RummyState, *texts: str) -> RummyState:
    for text in texts:
        state.apply(text)
    return state


def out_by_discarding() -> RummyState:
    state = deal(["5H 6H 7H", "2C 3D 4S"], stock="9C ...", discard="9D")
    return play(state, "draw stock", "meld 5H 6H 7H", "discard 9C")


PHASES = {
    "draw": lambda: parlour.new_game("rummy", players=3).new_deal(seed=3),
    "play": lambda: play(parlour.new_game("rummy", players=3).new_deal(seed=3), "draw stock"),
    "over": out_by_discarding,
}


def snapshot(state: RummyState) -> tuple[object, ...]:
    n = state.game.players
    return ([state.observation(s) for s in range(n)], state.legal_actions(), state.history,
            state.current_player, state.setup(), state.zones(), state.returns())


def hand_made(value: int) -> RummyAction:
    """An action value built by hand, bypassing the checks of ``RummyAction(value)``."""
    return int.__new__(RummyAction, value)


def foreign_actions() -> list[object]:
    return [parlour.new_game(name).new_deal(seed=1).legal_actions()[0]
            for name in ("big-two", "forty-five")]


NON_ACTIONS: list[object] = [
    None, False, True, 0, 1, 4, 3.7, 1000000000, -1, b"draw stock", ["draw stock"],
    ("draw stock",), {"draw stock"}, hand_made(1000000000), hand_made(5), hand_made(-8),
    hand_made(MELD | 0b111 << 3 | 1 << 55),  # a meld that names a meld to go on
    hand_made(LAYOFF), hand_made(LAYOFF | 1 << 3 | -1 << 55),  # nothing; onto meld 0
    hand_made(DISCARD | 0b11 << 3), hand_made(DISCARD),  # two cards; none
    *foreign_actions(),
]


def label(thing: object) -> str:
    return f"{type(thing).__name__}:{int(thing) if isinstance(thing, RummyAction) else thing!r}"


# -- apply refuses what is not an action of the game ---------------------------------------------

@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("thing", NON_ACTIONS, ids=label)
def test_apply_refuses_a_non_action_and_changes_nothing(phase: str, thing: object) -> None:
    state = PHASES[phase]()
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(thing)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_false_is_not_a_draw_from_the_stock() -> None:
    state = PHASES["draw"]()
    with pytest.raises(IllegalAction, match=r"False is not an action of rummy.*legal_actions"):
        state.apply(False)  # type: ignore[arg-type]
    assert state.observation(0).stock_size == 30 and len(state.observation(0).hand) == 7


@pytest.mark.parametrize("value", [1000000000, 5, -8, LAYOFF])
def test_a_hand_made_value_is_named_in_the_refusal(value: int) -> None:
    for phase in ("draw", "play"):
        with pytest.raises(IllegalAction, match=f"{value} is not the value of any rummy action"):
            PHASES[phase]().apply(hand_made(value))


@pytest.mark.parametrize("value", [5, -1, 2**70, 1000000000, 1.0, True, "draw stock", None,
                                   *foreign_actions()], ids=label)
def test_the_action_type_makes_only_the_games_moves(value: object) -> None:
    with pytest.raises(IllegalAction, match="is not a rummy move"):
        RummyAction(value)


def test_the_action_type_returns_the_shared_move() -> None:
    state = deal(["4C 5C 6C 6D 6H 9S", "2C 3D 4S"], stock="6S ...", discard="9D",
                 melds=["7C 8C 9C"])
    for text in ("draw stock", "draw discard"):
        assert RummyAction(int(state.parse_action(text))) is state.parse_action(text)
    state.apply("draw stock")
    kinds = set()
    for action in state.legal_actions():
        assert isinstance(action, RummyAction)
        assert RummyAction(int(action)) is action
        kinds.add(action.kind)
    assert kinds == {MELD, LAYOFF, DISCARD}


@pytest.mark.parametrize("number", [18, 2**9 + 1, 2**64, 2**70])
def test_a_lay_off_on_a_meld_number_past_any_table_is_refused_and_kept_nowhere(
        number: int) -> None:
    """Past 64 bits too, where the engine is given a stand-in with the same kind and cards."""
    state = PHASES["play"]()
    card = next(iter(state.observation(state.current_player).hand))
    text = f"layoff {card} on {number}"
    action = state.parse_action(text)
    assert state.parse_action(text) == action and action.target == number - 1
    before = snapshot(state)
    for move in (text, action):
        with pytest.raises(IllegalAction, match=f"there is no meld {number} on the table"):
            state.apply(move)
    assert snapshot(state) == before
    # Nothing was kept of it: the process's tables of moves hold only moves that were met.
    key = int(action)
    assert (INTERNED.known(key) if key < 2**64 else _FAR.get(key)) is None


def test_refused_text_adds_nothing_to_the_table_of_moves() -> None:
    """A client may send any cards as a meld; refused, they must leave no trace behind."""
    state = PHASES["play"]()
    hand = sorted(state.observation(state.current_player).hand)
    text = f"meld {hand[0]} {hand[-1]}"  # two cards: never a meld, so never listed
    key = int(state.parse_action(text))
    assert INTERNED.known(key) is None
    with pytest.raises(IllegalAction):
        state.apply(text)
    assert INTERNED.known(key) is None
    # A move that is met is shared from then on, whoever made it first.
    legal = state.legal_actions()
    assert all(INTERNED.known(int(a)) is a for a in legal if int(a) < 2**64)
    assert all(state.parse_action(str(a)) is a for a in legal)


@pytest.mark.parametrize("thing", [None, 5, b"draw stock", ["draw", "stock"]], ids=label)
def test_parse_action_wants_text(thing: object) -> None:
    with pytest.raises(IllegalAction, match="expected the text of an action"):
        PHASES["draw"]().parse_action(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["layoff 7C on ²", "layoff 7C on ٣", "layoff 7C on -1",
                                  "layoff 7C on", "lay off on 2"])
def test_a_lay_off_needs_a_meld_number_in_digits(text: str) -> None:
    with pytest.raises(IllegalAction, match="ends with 'on' and a meld number"):
        PHASES["play"]().parse_action(text)


def test_a_bad_card_in_an_action_is_a_card_error_naming_it() -> None:
    with pytest.raises(CardError, match="'1H' is not a card"):
        PHASES["play"]().apply("meld 1H 2H 3H")


def test_text_and_the_games_own_actions_still_apply() -> None:
    state = PHASES["draw"]()
    state.apply(RummyAction(0))  # the value of "draw stock"
    state.apply(state.legal_actions()[-1])
    state.apply("Draw  Discard")
    assert [str(a) for _, a in state.history][::2] == ["draw stock", "draw discard"]


# -- what the state hands out is a copy -----------------------------------------------------------

def test_history_is_a_copy() -> None:
    state = play(PHASES["play"]())
    state.apply(state.legal_actions()[-1])
    state.apply("draw discard")
    record = deal_record(state)
    views = [state.observation(s) for s in range(3)]
    state.history.clear()
    state.history.append((0, state.legal_actions()[0]))
    assert len(state.history) == 3
    assert [state.observation(s) for s in range(3)] == views
    assert replay_deal(record).history == state.history
    assert deal_record(state) == record


def test_setup_returns_zones_and_legal_actions_are_copies() -> None:
    state = deal(["5H 6H 7H", "2C 3D 4S"], stock="9C ...", discard="9D", melds=["JS QS KS"])
    original = state.setup()
    setup = state.setup()
    setup["hands"].append("AS")
    setup["melds"][0] = "2C 3C 4C"
    assert state.setup() == original
    legal = state.legal_actions()
    legal.clear()
    assert len(state.legal_actions()) == 2
    play(state, "draw stock", "meld 5H 6H 7H", "discard 9C")
    returns = state.returns()
    returns[0] = 99.0
    assert state.returns() == [15.0, -15.0]
    zones = state.zones()
    zones.clear()
    assert len(state.zones()) == 5


def test_views_hold_only_immutable_values() -> None:
    immutable = (int, str, CardSet, Card, RummyAction, parlour.Game, type(None))

    def check(value: object, name: str) -> None:
        if isinstance(value, tuple):
            for item in value:
                check(item, name)
        else:
            assert isinstance(value, immutable), name

    for make in PHASES.values():
        state = make()
        for seat in range(state.game.players):
            obs = state.observation(seat)
            for f in fields(obs):
                check(getattr(obs, f.name), f.name)
            with pytest.raises(FrozenInstanceError):
                obs.turn = 5  # type: ignore[misc]


# -- seats are checked ----------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [-1, 3, 10, True, "0", 1.0, None])
def test_every_method_taking_a_seat_checks_it(seat: object) -> None:
    state = PHASES["play"]()
    before = snapshot(state)
    for method in (state.observation, state.hidden_from, state.hand_value):
        with pytest.raises(SeatError, match="seats are 0 to 2"):
            method(seat)  # type: ignore[arg-type]
    assert snapshot(state) == before


# -- new_deal refuses what is not a deal ----------------------------------------------------------

HANDS = ["2C 3C 4C", "5D 6D 7D"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"deck": 42}, "the deck: expected cards.*not 42"),
    ({"deck": b"2C 3C"}, "the deck: expected cards"),
    ({"seed": "one"}, "seed: expected a whole number, not 'one'"),
    ({"seed": 1.5}, "seed: expected a whole number"),
    ({"seed": True}, "seed: expected a whole number"),
    ({"deck": [str(c) for c in CARDS], "hands": HANDS, "stock": "..."}, "either a deck"),
    ({"seed": 1, "stock": "..."}, "give them with hands"),
    ({"hands": [None, None], "stock": "..."}, "P0's hand: expected cards.*not None"),
    ({"hands": "3D 4D", "stock": "..."}, "hands: expected a list of 2 hands, one per seat"),
    ({"hands": 42, "stock": "..."}, "hands: expected a list of 2 hands"),
    ({"hands": {"P0": "3D"}, "stock": "..."}, "hands: expected a list"),
    ({"hands": HANDS[:1], "stock": "..."}, "hands: expected 2 hands, one per seat, not 1"),
    ({"hands": [HANDS[0], 7], "stock": "..."}, "P1's hand: expected cards.*not 7"),
    ({"hands": HANDS}, "also needs the stock"),
    ({"hands": HANDS, "stock": 42}, "stock: expected cards.*not 42"),
    ({"hands": HANDS, "stock": None}, "stock: expected cards"),
    ({"hands": HANDS, "stock": "...", "discard": 42}, "the discard pile: expected cards"),
    ({"hands": HANDS, "stock": "...", "melds": "4S 5S 6S"}, "melds: expected a list of melds"),
    ({"hands": HANDS, "stock": "...", "melds": [42]}, "meld 1: expected cards"),
    ({"hands": HANDS, "stock": "...", "placed": "2C"}, "placed: expected a list of 2"),
    ({"hands": HANDS, "stock": "...", "scores": [1.5, 0]}, "P0's score: expected a whole"),
    ({"hands": HANDS, "stock": "...", "scores": [True, 0]}, "P0's score: expected a whole"),
    ({"hands": HANDS, "stock": "...", "scores": "0 0"}, "scores: expected a list of 2"),
    ({"hands": HANDS, "stock": "...", "taken": [None, ""]}, "P0's taken cards: expected"),
    ({"hands": HANDS, "stock": "...", "player": True}, "player: expected a whole number"),
    ({"hands": HANDS, "stock": "...", "player": "1"}, "player: expected a whole number"),
    ({"hands": HANDS, "stock": "...", "player": 2}, "player: expected a whole number from 0 to 1"),
    ({"hands": HANDS, "stock": "...", "phase": "meld"}, "phase: expected 'draw' or 'play'"),
    ({"hands": HANDS, "stock": "...", "turn": True}, "turn: expected a whole number"),
    ({"hands": HANDS, "stock": "...", "turn": -1}, "turn: expected a whole number from 0"),
    ({"hands": HANDS, "stock": "...", "phase": "play", "drawn": "2C", "drawn_from": "hand"},
     "drawn_from: expected 'discard' or 'stock'"),
    ({"hands": HANDS, "stock": "...", "drawn_from": "stock"}, "drawn_from goes with drawn"),
    ({"hands": HANDS, "stock": "...", "drawn": "2C"}, "drawn must be a card the player"),
    ({"hands": HANDS, "stock": "...", "past": "draw stock"}, "past: expected"),
    ({"hands": HANDS, "stock": "...", "past": {"actions": []}}, "past: expected"),
    ({"hands": HANDS, "stock": "...",
      "past": {"actions": [[2, "draw stock"]], "discard_draws": [], "rebuilds": []}},
     "a seat in past actions: expected a whole number from 0 to 1"),
    ({"hands": HANDS, "stock": "...",
      "past": {"actions": [[0, "fly"]], "discard_draws": [], "rebuilds": []}},
     "past actions: 'fly' is not a rummy action"),
    ({"hands": HANDS, "stock": "...",
      "past": {"actions": [[0, "draw discard"]], "discard_draws": [], "rebuilds": []}},
     "one card in discard_draws per 'draw discard'"),
    ({"hands": HANDS, "stock": "...",
      "past": {"actions": [[0, "draw stock"]], "discard_draws": [], "rebuilds": [2]}},
     "past rebuilds: expected a whole number from 0 to 1"),
    ({"hands": HANDS, "stock": "...", "leader": 0}, "unknown deal setting"),
])
def test_deal_arguments_of_the_wrong_kind_are_refused(kwargs: dict[str, object],
                                                       message: str) -> None:
    with pytest.raises(DealError, match=message):
        parlour.new_game("rummy").new_deal(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kwargs", "card", "where"), [
    ({"hands": ["2C 1H", "3C"], "stock": "..."}, "1H", "P0's hand"),
    ({"hands": ["2C", ["3C", None]], "stock": "..."}, "None", "P1's hand"),
    ({"hands": HANDS, "stock": "ZZ ..."}, "ZZ", "the stock"),
    ({"hands": HANDS, "stock": "...", "discard": "9X"}, "9X", "the discard pile"),
    ({"hands": HANDS, "stock": "...", "melds": ["4S 5S 6Q"]}, "6Q", "meld 1"),
    ({"deck": ["QX", *map(str, CARDS[1:])]}, "QX", "the deck"),
])
def test_a_bad_card_is_a_card_error_naming_it(kwargs: dict[str, object], card: str,
                                              where: str) -> None:
    with pytest.raises(CardError, match=f"{where}: '?{card}'? is not a card"):
        parlour.new_game("rummy").new_deal(**kwargs)  # type: ignore[arg-type]


def test_a_duplicate_card_is_named_and_the_game_stays_usable() -> None:
    game = parlour.new_game("rummy")
    with pytest.raises(DealError, match="2C is dealt twice \\(P0's hand and the stock\\)"):
        game.new_deal(hands=HANDS, stock="2C ...")
    with pytest.raises(DealError, match="5D appears twice in P1's hand"):
        game.new_deal(hands=[HANDS[0], "5D 5D"], stock="...")
    state = game.new_deal(hands=HANDS, stock="...")
    assert str(state.observation(1).hand) == "5D 6D 7D"


# -- cards are listed in rummy's order ------------------------------------------------------------

def test_hands_list_by_suit_with_the_ace_low() -> None:
    state = deal(["KS 2C AC 10D 3C JD 2H QS", "9C 9D 9H 9S AD"], stock="4C ...",
                 discard="8D", melds=["3S 4S 5S", "JH QH KH"])
    obs = state.observation(0)
    assert str(obs.hand) == "AC 2C 3C 10D JD 2H QS KS"
    assert [str(c) for c in obs.hand] == str(obs.hand).split()
    assert str(state.observation(1).hand) == "9C AD 9D 9H 9S"
    assert str(state.zones()["P0"]) == str(obs.hand)
    assert str(state.hidden_from(1)).startswith("AC 2C 3C 4C")


def test_every_card_set_handed_out_is_in_rummy_order() -> None:
    state = play(parlour.new_game("rummy", players=3).new_deal(seed=8), "draw discard")
    order = tuple(state.game.card_order())
    assert [str(Card(i)) for i in order[:14]] == [
        "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AD"]
    obs = state.observation(1)
    sets = [obs.hand, *obs.melds, *obs.placed, *obs.taken, state.hidden_from(1),
            *state.zones().values(), *out_by_discarding().observation(0).shown]
    assert all(s.order == order for s in sets)


def test_runs_read_ace_low_in_actions_melds_render_and_log() -> None:
    state = deal(["AC 2C 3C 4C 7D 7H 7S 7C", "9C 9D 9H"], stock="5C ...", discard="8D")
    state.apply("draw stock")
    texts = [str(a) for a in state.legal_actions()]
    assert "meld AC 2C 3C 4C 5C" in texts and "meld 7C 7D 7H 7S" in texts
    for action in state.legal_actions():
        assert state.parse_action(str(action)) == action
    play(state, "meld 4C 2C 3C AC", "meld 7S 7H 7D")
    obs = state.observation(1)
    assert [str(m) for m in obs.melds] == ["AC 2C 3C 4C", "7D 7H 7S"]
    assert "  meld 1: AC 2C 3C 4C   (Human AC 2C 3C 4C)" in obs.render().splitlines()
    assert obs.log_lines()[1:] == ["Human melds AC 2C 3C 4C (meld 1)",
                                   "Human melds 7D 7H 7S (meld 2)"]
    state.apply("layoff 5C on 1")
    assert state.observation(1).log_lines()[-1] == "Human lays off 5C on meld 1, making AC 2C 3C 4C 5C"
    assert str(state.observation(0).melds[0]) == "AC 2C 3C 4C 5C"


# -- the card just drawn --------------------------------------------------------------------------

def test_a_card_drawn_from_the_stock_is_marked_for_the_drawer_alone() -> None:
    state = deal(["9H 2C AC 3C", "2S 3D 4S", "KD KH KS"], stock="4C ...", discard="9D")
    state.apply("draw stock")
    mine = state.observation(0)
    assert mine.drawn == Card.parse("4C")
    assert "your hand: AC 2C 3C [4C] 9H   ([4C]: the card you just drew)" in mine.render()
    for seat in (1, 2):
        theirs = state.observation(seat)
        assert theirs.drawn is None
        assert "4C" not in theirs.render() and "4C" not in "\n".join(theirs.log_lines())
        assert theirs.log_lines() == ["Human draws from the stock"]
    state.apply("meld AC 2C 3C 4C")
    assert state.observation(0).drawn is None and "[" not in state.observation(0).render()


def test_a_card_taken_from_the_discard_pile_is_shown_to_everyone() -> None:
    state = deal(["2C 3C 5H", "2S 3D 4S"], stock="...", discard="8D 4C")
    state.apply("draw discard")
    assert [state.observation(s).drawn for s in (0, 1)] == [Card.parse("4C")] * 2
    assert "2C 3C [4C] 5H" in state.observation(0).render()
    other = state.observation(1).render()
    assert "turn 1: Human (took 4C from the discard pile) to meld, lay off or discard" in other
    assert state.observation(1).log_lines() == ["Human takes 4C from the discard pile"]
    state.apply("discard 5H")
    assert [state.observation(s).drawn for s in (0, 1)] == [None, None]


def test_the_forbid_option_concerns_only_a_card_taken_from_the_discard_pile() -> None:
    state = deal(["2C 3C 5H", "2S 3D 4S"], stock="9S ...", discard="8D 4C",
                 forbid_discard_of_drawn_discard=True)
    drew_stock = play(state.clone(), "draw stock")
    assert drew_stock.parse_action("discard 9S") in drew_stock.legal_actions()
    took = play(state, "draw discard")
    assert took.parse_action("discard 4C") not in took.legal_actions()
    with pytest.raises(IllegalAction, match="may not be discarded this turn"):
        took.apply("discard 4C")


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_a_position_keeps_the_card_drawn_and_where_it_came_from(source: str) -> None:
    state = deal(["2C 3C 5H 9S", "2S 3D 4S"], stock="...", discard="8D", phase="play",
                 drawn="9S", drawn_from=source)
    assert state.observation(0).drawn == Card.parse("9S")
    assert (state.observation(1).drawn is None) == (source == "stock")
    assert (Card.parse("9S") in state.hidden_from(1)) == (source == "stock")
    again = state.game.new_deal(**json.loads(json.dumps(state.setup())))
    assert [again.observation(s) for s in (0, 1)] == [state.observation(s) for s in (0, 1)]


# -- the log --------------------------------------------------------------------------------------

def scripted_deal() -> RummyState:
    state = deal(["5H 6H 7H 2C 9S", "KD KH 3C 8D"], stock="KS 4H ...", discard="9D KC")
    return play(state, "draw discard", "meld 5H 6H 7H", "discard 2C",
                "draw stock", "meld KD KH KS", "discard 8D",
                "draw stock", "layoff 4H on 1", "layoff KC on 2", "discard 9S")


def test_the_log_tells_each_action_the_end_and_the_result() -> None:
    assert scripted_deal().observation(1).log_lines() == [
        "Human takes KC from the discard pile",
        "Human melds 5H 6H 7H (meld 1)",
        "Human discards 2C",
        "Computer 1 draws from the stock",
        "Computer 1 melds KD KH KS (meld 2)",
        "Computer 1 discards 8D",
        "Human draws from the stock",
        "Human lays off 4H on meld 1, making 4H 5H 6H 7H",
        "Human lays off KC on meld 2, making KC KD KH KS",
        "Human discards 9S",
        "Human goes out",
        "Computer 1 holds 3C: 5 points",
        "result: Human 30, Computer 1 25: Human wins",
    ]


def test_the_end_of_a_deal_shows_every_hand_and_the_result() -> None:
    state = scripted_deal()
    text = state.observation(0).render()
    assert text.endswith("the deal is over\nHuman goes out\nComputer 1 holds 3C: 5 points\n"
                         "result: Human 30, Computer 1 25: Human wins")
    assert state.hidden_from(0) == state.hidden_from(1) == state.zones()["stock"]


def test_log_lines_from_an_action_on_are_the_tail_of_the_whole_log() -> None:
    state = scripted_deal()
    obs = state.observation(0)
    whole = obs.log_lines()
    tails = [obs.log_lines(start) for start in range(len(obs.history) + 1)]
    for start, tail in enumerate(tails):
        assert whole[len(whole) - len(tail):] == tail
        if start:
            assert len(tail) < len(tails[start - 1])
    assert tails[-1] == []  # the ending belongs to the last action


def test_a_stock_rebuild_is_logged_where_it_happens() -> None:
    rest = [str(c) for c in ALL - CardSet.parse("2C 3D 4S 5H 6H AD 9S KC QC 9H 3C 8D JH")]
    hands = ["2C 3D 5H 6H " + " ".join(rest[:20]), "AD 9S 4S", "KC QC " + " ".join(rest[20:])]
    state = deal(hands, stock="9H", discard="3C 8D JH", player=1)
    play(state, "draw stock", "discard 4S")
    obs = state.observation(0)
    assert obs.rebuilds == (2,)
    assert obs.log_lines() == ["Computer 1 draws from the stock", "Computer 1 discards 4S",
                               REBUILT]
    at_start = deal(hands, stock="", discard="3C 8D JH 9H", player=1)
    assert at_start.observation(0).log_lines() == [REBUILT]
    assert at_start.observation(0).rebuilds == (0,)


def test_a_discard_shuffled_back_into_the_stock_is_hidden_where_not_what_it_is() -> None:
    rest = [str(c) for c in ALL - CardSet.parse("2C 3D 4S 5H 6H AD 9S KC QC 9H 3C 8D JH")]
    hands = ["2C 3D 5H 6H " + " ".join(rest[:20]), "AD 9S 4S", "KC QC JH " + " ".join(rest[20:])]
    state = deal(hands, stock="9H", discard="3C 8D", player=1)
    # 3C and 8D (never named by the history) make the first new stock; 4S and JH, discarded
    # in the history, the second
    play(state, "draw stock", "discard 4S", "draw stock", "discard JH", "draw stock",
         "discard 2C")
    assert state.observation(1).rebuilds == (2, 6)
    assert state.zones()["stock"] == CardSet.parse("4S JH")
    unnamed = CardSet.parse("3C 8D")
    assert unnamed & state.hidden_from(1) == unnamed - state.zones()["P1"]
    assert not state.hidden_from(1) & CardSet.parse("4S JH")
    state.apply("draw stock")
    (drawn,) = state.zones()["P1"] & CardSet.parse("4S JH")
    assert drawn not in state.hidden_from(0) and drawn not in state.hidden_from(2)
    assert state.observation(0).log_lines()[-1] == "Computer 1 draws from the stock"


def test_a_blocked_deal_and_a_shared_win_read_naturally() -> None:
    state = deal(["KD KH 3C", "KS KC 3D"], stock="...", discard="9D", turn_limit=2)
    play(state, "draw stock", "discard AC", "draw stock", "discard 2C")
    assert state.observation(0).log_lines()[-4:] == [
        "the deal is blocked: nobody went out in 2 turns",
        "Human holds 3C KD KH: 25 points",
        "Computer 1 holds KC 3D KS: 25 points",
        "result: Human -25, Computer 1 -25: Human and Computer 1 share the win",
    ]


def test_the_went_out_tie_break_names_one_winner() -> None:
    state = deal(["5H 6H 7H", "2C 3D 4S"], stock="9C ...", discard="9D", scores=[0, 30],
                 tie_break="went-out")
    play(state, "draw stock", "meld 5H 6H 7H", "discard 9C")
    assert state.returns() == [15.0, 15.0]
    assert state.observation(1).log_lines()[-1] == "result: Human 15, Computer 1 15: Human wins"


def test_the_text_never_names_a_card_hidden_from_its_seat() -> None:
    rng = random.Random(4)
    for n in (2, 3, 4):
        state = parlour.new_game("rummy", players=n).new_deal(seed=n)
        bots = [make_bot("greedy")] * n
        while not state.is_over:
            for seat in range(n):
                obs = state.observation(seat)
                text = "\n".join([obs.render(), *obs.log_lines()])
                assert not named_cards(text) & state.hidden_from(seat), text
            p = state.current_player
            state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))


def test_sampled_states_show_the_same_public_record() -> None:
    state = scripted_deal()
    for seat in (0, 1):
        obs = state.observation(seat)
        sample = obs.sample_state(random.Random(seat))
        assert isinstance(sample.observation(seat), RummyObservation)
        assert sample.observation(seat) == obs
        assert sample.observation(seat).log_lines() == obs.log_lines()
        assert sample.history == []  # the record is the sample's past, not replayed


# -- the match ------------------------------------------------------------------------------------

def test_match_end_text_follows_the_options() -> None:
    assert parlour.new_game("rummy").match_end_text() == "the match is one deal"
    assert parlour.new_game("rummy", series_target=500).match_end_text() == (
        "the match ends when a player's total reaches 500 points (or after 200 deals)")
