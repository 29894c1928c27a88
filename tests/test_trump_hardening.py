"""Forty-Five and Spoil Five at their edges: what `apply`, `new_deal` and the seat-taking
methods refuse, what the state lets a caller change, and how a deal reads as text."""

from __future__ import annotations

import copy
import itertools
import random
import re
from dataclasses import fields

import pytest

import parlour
from helpers import named_cards, play_random
from parlour.bots import make_bot
from parlour.cards import CARDS, Card, CardSet, parse_card
from parlour.errors import CardError, DealError, IllegalAction, SeatError, VariantError
from parlour.games.trump.actions import HIDDEN_ROB, TrumpAction
from parlour.games.trump.ranking import TRUMP_MASK, plain_order, trump_order
from parlour.records import deal_record, replay_deal

# P3 holds the ace of trumps (spades) and robs; P0 leads.
ROB_HANDS = ["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S", "AS 4C 6C 8H KC"]


def rob_deal(**options):
    game = parlour.new_game("forty-five", **options)
    return game.new_deal(hands=ROB_HANDS, turn_up="2S", dealer=3)


def snapshot(state):
    n = state.game.players
    return ([state.observation(s) for s in range(n)], state.legal_actions(), state.history,
            state.current_player)


def states_in_every_phase():
    """A state waiting in each phase: robbing, a trick in progress, jinking, over."""
    robbing = rob_deal()
    playing = rob_deal()
    playing.apply("rob 4C")
    playing.apply("8C")
    game = parlour.new_game("spoil-five", players=3, jinking=True)
    jinking = game.new_deal(hands=["5S JS KS QS 3S", "4D 5D 6D 7D 8D", "4H 5H 6H 7H 8H"],
                            turn_up="2S", dealer=2)
    for card in ["5S", "4D", "4H", "JS", "5D", "5H", "KS", "6D", "6H"]:
        jinking.apply(card)
    over = jinking.clone()
    over.apply("stop")
    return {"rob": robbing, "play": playing, "jink": jinking, "over": over}


PHASES = states_in_every_phase()


def foreign_actions():
    climbing = parlour.new_game("big-two").new_deal(seed=1).legal_actions()[0]
    rummy = parlour.new_game("rummy").new_deal(seed=1).legal_actions()[0]
    return [climbing, rummy]


NON_ACTIONS = [
    None, 3.7, 0.0, True, False, b"5S", bytearray(b"keep"), ["5S"], ("keep",), {"card": "5S"},
    0, 5, 10**9, -1, int.__new__(TrumpAction, 200), int.__new__(TrumpAction, -3),
    int.__new__(TrumpAction, 52), *foreign_actions(),
]


def label(thing) -> str:
    """A test id: the type, and the packed value of an action (whose text may not exist)."""
    value = int(thing) if isinstance(thing, parlour.Action) else repr(thing)
    return f"{type(thing).__name__}-{value}"


# -- apply refuses what is not an action of the game ---------------------------------------------

@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("thing", NON_ACTIONS, ids=label)
def test_apply_refuses_a_non_action_and_changes_nothing(phase, thing) -> None:
    state = PHASES[phase].clone()
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(thing)
    assert snapshot(state) == before


@pytest.mark.parametrize("thing", [None, 3.7, True, 7, *foreign_actions()],
                         ids=label)
def test_a_non_action_is_refused_with_what_was_expected(thing) -> None:
    state = PHASES["play"].clone()
    with pytest.raises(IllegalAction, match=r"not an action of forty-five.*legal_actions"):
        state.apply(thing)


def test_a_hand_made_value_is_named_in_the_refusal() -> None:
    for phase in ("rob", "play", "jink"):
        with pytest.raises(IllegalAction, match="value 200 is not an action"):
            PHASES[phase].clone().apply(int.__new__(TrumpAction, 200))


@pytest.mark.parametrize("value", [200, -1, 52, 2**70, 5.0, True, "5S", None,
                                   *foreign_actions()], ids=label)
def test_the_action_type_makes_only_the_games_moves(value) -> None:
    with pytest.raises(IllegalAction, match="is not a move of forty-five or spoil-five"):
        TrumpAction(value)


def test_the_action_type_returns_the_shared_move() -> None:
    state = PHASES["play"]
    for action in state.legal_actions():
        assert TrumpAction(int(action)) is action
    assert TrumpAction(HIDDEN_ROB) is HIDDEN_ROB


def test_parse_action_wants_text() -> None:
    state = PHASES["play"]
    for thing in (None, 5, b"5S"):
        with pytest.raises(IllegalAction, match="expected the text of an action"):
            state.parse_action(thing)


def test_the_hidden_form_of_a_rob_is_never_applied() -> None:
    state = PHASES["rob"].clone()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="which card to discard"):
        state.apply(HIDDEN_ROB)
    assert snapshot(state) == before


def test_text_and_the_games_own_actions_still_apply() -> None:
    state = rob_deal()
    state.apply(" Rob 4c ")
    state.apply(next(a for a in state.legal_actions() if str(a) == "8C"))
    assert [str(a) for _, a in state.history] == ["rob 4C", "8C"]


def test_the_history_holds_the_shared_moves_and_each_copy_its_own() -> None:
    state = rob_deal()
    rob = state.parse_action("rob 4C")
    state.apply(int.__new__(TrumpAction, int(rob)))  # a copy of the move made by hand
    assert state.history == [(3, rob)] and state.history[0][1] is rob
    for other in (state.clone(), copy.deepcopy(state)):
        other.apply("8C")
        assert [str(a) for _, a in other.history] == ["rob 4C", "8C"]
        assert state.history == [(3, rob)] and state.observation(0).history == ((3, HIDDEN_ROB),)
    state.apply("5S")
    assert [str(a) for _, a in state.history] == ["rob 4C", "5S"]


# -- nothing handed out lets a caller change the state -------------------------------------------

def test_history_is_a_copy() -> None:
    state = rob_deal()
    for action in ["rob 4C", "8C", "5D"]:
        state.apply(action)
    record = deal_record(state)
    views = [state.observation(s) for s in range(4)]
    state.history.clear()
    state.history.append((0, CARDS[0]))
    assert len(state.history) == 3
    assert [state.observation(s) for s in range(4)] == views
    assert replay_deal(record).history == state.history
    assert deal_record(state) == record


def test_views_hold_only_immutable_values() -> None:
    immutable = (int, str, float, bool, tuple, CardSet, Card, parlour.Game)
    for state in PHASES.values():
        for seat in range(state.game.players):
            obs = state.observation(seat)
            for f in fields(obs):
                assert isinstance(getattr(obs, f.name), immutable), f.name
        assert isinstance(state.tricks_won, tuple)
        zones = state.zones()
        zones.clear()
        assert state.zones()


# -- seats are checked ----------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [-1, 4, 10, True, "0", 1.0, None])
def test_every_method_taking_a_seat_checks_it(seat) -> None:
    state = PHASES["play"]
    for method in (state.observation, state.hidden_from, state.hand, state.public_history):
        with pytest.raises(SeatError, match="seats are 0 to 3"):
            method(seat)


# -- new_deal refuses what is not a deal ----------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"deck": 42}, "deck must be the 52 cards.*not 42"),
    ({"deck": b"2C 3C"}, "deck must be the 52 cards"),
    ({"hands": [None] * 4, "turn_up": "2S"}, "P0's hand must be 5 cards.*not None"),
    ({"hands": "3D 4D", "turn_up": "2S"}, "hands must be a list of the 4 players' hands"),
    ({"hands": {"P0": "3D"}, "turn_up": "2S"}, "hands must be a list"),
    ({"hands": [*ROB_HANDS[:3], 7], "turn_up": "2S"}, "P3's hand must be 5 cards.*not 7"),
    ({"hands": ROB_HANDS, "turn_up": 4.5}, "turn_up must be one card"),
    ({"hands": ROB_HANDS, "turn_up": ["2S"]}, "turn_up must be one card"),
    ({"hands": ROB_HANDS}, "needs the turn_up"),
    ({"seed": 1, "turn_up": "2S"}, "turn_up comes from the deck"),
    ({"seed": "one"}, "seed must be an integer"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"seed": 1, "deck": [str(c) for c in CARDS]}, "either hands, a deck or a seed"),
    ({"seed": 1, "dealer": "0"}, "dealer must be a seat 0..3"),
    ({"seed": 1, "dealer": True}, "dealer must be a seat"),
    ({"seed": 1, "dealer": 4}, "dealer must be a seat"),
    ({"seed": 1, "scores": [True, 0]}, "scores must be the two sides' points"),
    ({"seed": 1, "scores": "0 0"}, "scores must be the two sides' points"),
    ({"seed": 1, "pool": 4}, "no pool"),
    ({"seed": 1, "leader": 0}, "no deal setting 'leader'"),
])
def test_forty_five_deal_arguments_of_the_wrong_kind_are_refused(kwargs, message) -> None:
    with pytest.raises(DealError, match=message):
        parlour.new_game("forty-five").new_deal(**kwargs)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"scores": [20, 20, 20, 20.5]}, "scores must be the 4 players' chips"),
    ({"scores": [20, 20, 20]}, "scores must be the 4 players' chips"),
    ({"pool": True}, "the pool holds at least"),
    ({"pool": "4"}, "the pool holds at least"),
    ({"pool": 3}, "the pool holds at least this deal's antes \\(4\\)"),
])
def test_spoil_five_deal_arguments_of_the_wrong_kind_are_refused(kwargs, message) -> None:
    with pytest.raises(DealError, match=message):
        parlour.new_game("spoil-five").new_deal(seed=1, **kwargs)


def test_a_bad_card_is_a_card_error_naming_it() -> None:
    game = parlour.new_game("forty-five")
    with pytest.raises(CardError, match="'1X' is not a card"):
        game.new_deal(hands=[*ROB_HANDS[:3], "AS 4C 6C 8H 1X"], turn_up="2S")
    with pytest.raises(CardError, match="'ZZ' is not a card"):
        game.new_deal(hands=ROB_HANDS, turn_up="ZZ")
    with pytest.raises(CardError, match="None is not a card"):
        game.new_deal(hands=[*ROB_HANDS[:3], ["AS", None, "6C", "8H", "KC"]], turn_up="2S")
    with pytest.raises(CardError, match="'QX' is not a card"):
        game.new_deal(deck=["QX", *map(str, CARDS[1:])])


def test_a_duplicate_card_is_named() -> None:
    game = parlour.new_game("forty-five")
    with pytest.raises(DealError, match="2S is dealt twice"):
        game.new_deal(hands=[*ROB_HANDS[:3], "AS 4C 6C 8H 2S"], turn_up="2S")


def test_a_refused_deal_leaves_a_usable_game() -> None:
    game = parlour.new_game("forty-five")
    with pytest.raises(DealError):
        game.new_deal(hands=[None] * 4, turn_up="2S")
    state = game.new_deal(hands=ROB_HANDS, turn_up=parse_card("2S"), dealer=3)
    assert str(state.hand(3)) == "AS KC 4C 6C 8H"


# -- hands are listed in the game's order ---------------------------------------------------------

def expected_order(cards, trump: int) -> list[str]:
    """Trumps highest first, then each plain suit (clubs … spades) highest first, from the
    rank tables of RULES.md 3.2."""
    cards = set(cards)
    out = [c for c in trump_order(trump) if c in cards]
    for suit in range(4):
        out += [c for c in plain_order(suit) if c in cards and not TRUMP_MASK[trump] >> c & 1]
    return [str(c) for c in out]


@pytest.mark.parametrize("seed", range(8))
def test_every_card_set_handed_out_lists_trumps_first(seed) -> None:
    state = parlour.new_game("spoil-five", players=6).new_deal(seed=seed)
    trump = state.observation(0).trump
    for seat in range(6):
        obs = state.observation(seat)
        assert str(obs.hand).split() == expected_order(obs.hand, trump)
        assert str(state.hand(seat)) == str(obs.hand)
        hidden = state.hidden_from(seat)
        assert str(hidden).split() == expected_order(hidden, trump)
    for zone in state.zones().values():
        assert str(zone).split() == expected_order(zone, trump)
    assert str(state.observation(0).hand) in state.observation(0).render()


def test_a_demoted_ace_is_listed_last_of_the_trumps() -> None:
    game = parlour.new_game("forty-five", silent_ace=True)
    hands = ["5S 4S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S", "AS 3S 6C 8H KC"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    assert str(state.hand(3)) == "AS 3S KC 6C 8H"
    for _ in range(4):
        state.apply("silent")
    assert str(state.hand(3)) == "3S AS KC 6C 8H"
    assert "your hand: 3S AS KC 6C 8H" in state.observation(3).render()
    assert "ranks lowest of the trumps" in state.observation(0).render()


# -- the deal as text -----------------------------------------------------------------------------

def test_another_seats_rob_reads_as_face_down() -> None:
    state = rob_deal()
    state.apply("rob 4C")
    for seat in range(3):
        obs = state.observation(seat)
        assert obs.log_lines() == ["P3 robs the trump: takes 2S and discards a card face down"]
        assert "P3 robbed the trump: took 2S and discarded a card face down" in obs.render()
        assert parse_card("4C") not in named_cards(obs.render() + "\n".join(obs.log_lines()))
    mine = state.observation(3)
    assert mine.log_lines() == ["P3 robs the trump: takes 2S and discards 4C face down"]
    assert "P3 robbed the trump: took 2S and discarded 4C face down" in mine.render()


def test_keeping_and_staying_silent_read_naturally() -> None:
    state = rob_deal()
    state.apply("keep")
    assert state.observation(0).log_lines() == [
        "P3 holds the ace of trumps and does not rob (announced)"]
    assert "P3 holds the ace of trumps (announced)" in state.observation(1).render()
    state = rob_deal(silent_ace=True)
    assert "P0 to rob the trump, keep the ace of trumps (announcing it) or stay silent" in (
        state.observation(1).render())
    for _ in range(4):
        state.apply("silent")
    lines = state.observation(1).log_lines()
    assert lines[:4] == [f"P{s} stays silent" for s in range(4)]
    assert lines[4].startswith("nobody robbed or announced: the ace of trumps ranks lowest")


def test_a_robbed_turned_ace_joins_after_trick_one() -> None:
    game = parlour.new_game("forty-five")
    hands = ["2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S", "8H KC QC 7S 8S"]
    state = game.new_deal(hands=hands, turn_up="AC", dealer=3)
    assert "P3 (you) to rob the turned ace or keep the hand" in state.observation(3).render()
    state.apply("rob 8H")
    assert "the turned ace AC joins P3's hand after trick 1" in state.observation(0).render()
    for card in ("2D", "2H", "2S", "7S"):
        state.apply(card)
    log = state.observation(1).log_lines()
    assert log[:2] == ["P3 robs the trump: takes AC and discards a card face down",
                       "the turned ace AC joins P3's hand after trick 1"]
    assert log[-2:] == ["trick 1 to P0 (with 2D)", "P3 takes the turned ace AC into the hand"]
    assert "joins" not in state.observation(1).render()


def test_tricks_are_separated_and_their_winners_named() -> None:
    state = rob_deal()
    for action in ["rob 4C", "8C", "5D", "6S", "KC", "10S", "AS"]:
        state.apply(action)
    obs = state.observation(0)
    assert obs.log_lines(1) == [
        "trick 1: P0 leads 8C", "P1 plays 5D", "P2 plays 6S", "P3 plays KC",
        "trick 1 to P2 (with 6S)",
        "trick 2: P2 leads 10S", "P3 plays AS",
    ]
    text = obs.render()
    assert "trick 1: P0 8C, P1 5D, P2 6S, P3 KC · won by P2 with 6S" in text
    assert "trick 2: P2 10S, P3 AS · P3 is winning with AS" in text
    assert ("tricks won: side A (P0, P2) 1 · side B (P1, P3) 0 "
            "(by seat: P0 0 · P1 0 · P2 1 · P3 0)") in text
    assert text.endswith("P0 (you) to play")


def test_log_lines_from_an_action_on_are_the_tail_of_the_whole_log() -> None:
    rng = random.Random(3)
    state = parlour.new_game("spoil-five", players=5, jinking=True).new_deal(seed=8)
    play_random(state, rng)
    obs = state.observation(2)
    whole = obs.log_lines()
    tails = [obs.log_lines(i) for i in range(len(obs.history) + 1)]
    assert tails[0] == whole and tails[-1] == []
    for longer, shorter in itertools.pairwise(tails):
        assert len(shorter) < len(longer) and longer[len(longer) - len(shorter):] == shorter
    assert whole[-1].startswith("the deal is over: ")


@pytest.mark.parametrize(("players", "seat", "text"), [
    (4, 0, "you are P0, partners with P2: side A"),
    (4, 3, "you are P3, partners with P1: side B"),
    (2, 1, "you are P1: side B"),
    (6, 4, "you are P4, partners with P0 and P2: side A"),
])
def test_forty_five_says_which_side_a_seat_is_on(players, seat, text) -> None:
    obs = parlour.new_game("forty-five", players=players).new_deal(seed=1).observation(seat)
    assert obs.render().splitlines()[0] == f"forty-five · {text}"


SWEEP = (["5S JS KS QS 3S", "4D 5D 6D 7D 8D"], "5S 4D JS 5D KS 6D QS 7D 3S 8D")


def test_the_end_of_a_forty_five_deal_shows_the_last_trick_and_the_new_scores() -> None:
    game = parlour.new_game("forty-five", players=2, target=30)
    state = game.new_deal(hands=SWEEP[0], turn_up="2S", dealer=1, scores=[15, 10])
    assert "scores (30 to win): side A (P0) 15 · side B (P1) 10" in state.observation(1).render()
    for card in SWEEP[1].split():
        state.apply(card)
    text = state.observation(1).render()
    assert "trick 5: P0 3S, P1 8D · won by P0 with 3S" in text
    assert "the deal is over: side A (P0) took 5 tricks and scores 10" in text
    assert "scores after this deal (30 to win): side A (P0) 25 · side B (P1) 10" in text
    assert "to play" not in text and "to lead" not in text
    assert state.observation(0).log_lines()[-2:] == [
        "trick 5 to P0 (with 3S)", "the deal is over: side A (P0) took 5 tricks and scores 10"]


def chips_shown(text: str) -> tuple[int, list[int]]:
    line = next(line for line in text.splitlines() if line.startswith("pool: "))
    pool = re.match(r"pool: (\d+) chips?", line)
    chips = [int(v) for v in re.findall(r"P\d+ (-?\d+)", line.split("chips: ")[1])]
    return (int(pool.group(1)) if pool else 0), chips


@pytest.mark.parametrize(("players", "options", "pool"), [
    (4, {}, None), (3, {"jinking": True, "ante": 2}, 12), (7, {"starting_chips": 3}, None),
])
def test_spoil_five_pool_and_chips_add_up_to_the_chips_in_play(players, options, pool) -> None:
    game = parlour.new_game("spoil-five", players=players, **options)
    rng = random.Random(players)
    for seed in range(20):
        scores = [rng.randrange(0, 30) for _ in range(players)]
        extra = {} if pool is None else {"pool": pool}
        state = game.new_deal(seed=seed, scores=scores, **extra)
        in_play = sum(scores) + state.observation(0).pool - players * game.options.ante

        def check(s, legal=None, in_play=in_play):
            for seat in range(players):
                text = s.observation(seat).render()
                shown_pool, chips = chips_shown(text)
                assert len(chips) == players
                assert shown_pool + sum(chips) == in_play, text
                log = "\n".join(s.observation(seat).log_lines())
                assert not re.search(r"-0(?!\d)", text + log)

        play_random(state, rng, check)
        check(state)
        returns = state.returns()
        assert chips_shown(state.observation(0).render())[1] == [
            v + int(r) for v, r in zip(scores, returns, strict=True)]


def test_spoil_five_results_read_naturally() -> None:
    game = parlour.new_game("spoil-five", players=3, jinking=True)
    hands = ["5S JS KS QS 3S", "4D 5D 6D 7D 8D", "4H 5H 6H 7H 8H"]
    plays = ["5S", "4D", "4H", "JS", "5D", "5H", "KS", "6D", "6H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=2, scores=[10, 10, 10], pool=6)
    for card in plays:
        state.apply(card)
    text = state.observation(0).render()
    assert "P0 (you) to jink (play on for all five tricks) or stop (take the pool)" in text
    assert "pool: 6 chips · chips: P0 9 · P1 9 · P2 9" in text
    jinked = state.clone()
    state.apply("stop")
    assert state.observation(1).log_lines()[-2:] == [
        "P0 stops after three tricks",
        "the deal is over: P0 took three tricks and takes the pool of 6 chips"]
    assert "pool: empty · chips: P0 15 · P1 9 · P2 9" in state.observation(1).render()
    jinked.apply("jink")
    jinked.apply("QS")
    jinked.apply("7D")
    jinked.apply("7H")
    jinked.apply("3S")
    jinked.apply("8D")
    jinked.apply("8H")
    assert jinked.observation(2).log_lines()[-1] == (
        "the deal is over: P0 took all five tricks and takes the pool of 6 chips and 1 chip "
        "from each other player")
    assert "pool: empty · chips: P0 17 · P1 8 · P2 8" in jinked.observation(2).render()


SPOIL_PLAYS = ["2C", "KC", "9D", "8D", "10D", "3C", "QH", "KH", "5D", "4H", "6D", "JH", "JD",
               "4C", "QD"]


def test_a_spoiled_pool_is_said_to_carry_over() -> None:
    game = parlour.new_game("spoil-five", players=3)
    hands = ["2C 3C 4C KH 4H", "KC 5D 6D QD 8D", "QH JH 9D 10D JD"]
    # P1 takes tricks 1 and 5, P2 tricks 2 and 4, P0 trick 3.
    state = game.new_deal(hands=hands, turn_up="2S", dealer=2, pool=3)
    for card in SPOIL_PLAYS:
        state.apply(card)
    text = state.observation(0).render()
    assert ("the deal is over: nobody took three tricks, so the pool of 3 chips is spoiled and "
            "carries over to the next deal") in text
    assert "pool: 3 chips, carried to the next deal · chips: P0 19 · P1 19 · P2 19" in text


@pytest.mark.parametrize(("variant", "players"), [
    ("forty-five", 2), ("forty-five", 4), ("forty-five", 6), ("spoil-five", 3),
    ("spoil-five", 10),
])
def test_text_never_names_a_card_hidden_from_its_seat(variant, players) -> None:
    game = parlour.new_game(variant, players=players, silent_ace=True)
    rng = random.Random(players)

    def check(state, legal=None):
        for seat in range(players):
            obs = state.observation(seat)
            text = obs.render() + "\n" + "\n".join(obs.log_lines())
            assert not named_cards(text) & state.hidden_from(seat), text

    for seed in range(15):
        state = game.new_deal(seed=seed)
        play_random(state, rng, check)
        check(state)


# -- what ends a match ----------------------------------------------------------------------------

def test_match_end_text_follows_the_options() -> None:
    assert parlour.new_game("forty-five").match_end_text() == (
        "the first side to 45 points wins the match")
    assert parlour.new_game("forty-five", target=60).match_end_text() == (
        "the first side to 60 points wins the match")
    assert parlour.new_game("spoil-five", deals=1, ante=1, starting_chips=5).match_end_text() == (
        "the match lasts 1 deal, or ends sooner when a player has fewer than 1 chip to ante; "
        "everyone starts with 5 chips")


def test_an_ante_above_the_starting_chips_is_refused() -> None:
    with pytest.raises(VariantError, match="ante=100 is more than starting_chips=1"):
        parlour.new_game("spoil-five", starting_chips=1, ante=100)


def test_a_spoil_five_match_deals_at_least_once() -> None:
    game = parlour.new_game("spoil-five", starting_chips=2, ante=2)
    match = game.new_match(seed=4)
    assert not match.is_over
    assert not game.match_over([0.0] * 4, 0, game.match_start())
    match.play_out(match.next_deal(), [make_bot("random")] * 4)
    assert len(match.deals) == 1
    assert match.is_over == (min(match.totals) < 2)
