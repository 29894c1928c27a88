"""The climbing games' public API under misuse, composed positions, and what they print.

Covers: ``apply`` accepting only this game's actions, copies handed out, seat checks,
``new_deal`` refusing what no deal could be (wrong types, empty seats, inconsistent tricks),
tricks in progress set up directly and round-tripping through ``setup()``, records and sampled
states, the ``Category`` enum, hands in the variant's order, the log and the table as text, and
what ends a match.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, cast

import pytest

import parlour
from climbing_positions import DECK, PASS, names, snapshot
from parlour import CardError, DealError, IllegalAction, SeatError
from parlour.games.climbing import Category, ClimbingAction, ClimbingObservation
from parlour.games.climbing.engine import ClimbingState
from parlour.records import deal_record, replay_deal

VARIANTS = ["big-two-4card", "big-two", "pusoy-dos"]
BIG_TWO = parlour.new_game("big-two")
PUSOY = parlour.new_game("pusoy-dos")
CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")


def rest(*held: str) -> list[str]:
    """Every card that is in none of ``held`` (for ``out=``)."""
    used = {c for text in held for c in names(text)}
    return [c for c in DECK if c not in used]


def deal(game: parlour.Game, hands: list[str], table: str = "", **setup: Any) -> ClimbingState:
    """A composed position: ``hands``, the table play ``table`` (with ``setup``), and every other
    card out of play."""
    if table:
        setup["table"] = table
    state = game.new_deal(hands=hands, out=rest(*hands, table), **setup)
    return cast(ClimbingState, state)


def played_out(name: str, seed: int) -> ClimbingState:
    state = cast(ClimbingState, parlour.new_game(name).new_deal(seed=seed))
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def a_trick() -> ClimbingState:
    """big-two: P2 has played 10D 10S and P3 has passed; P0 is to answer."""
    return deal(BIG_TWO, ["3D JD JC", "4C 5H", "QS KS", "AD"], "10D 10S", table_seat=2,
                passes=1)


# -- apply accepts only this game's actions ------------------------------------------------------


def other_games_actions() -> list[object]:
    found = []
    for name in ("forty-five", "rummy"):
        found.append(parlour.new_game(name).new_deal(seed=1).legal_actions()[0])
    return found


@pytest.mark.parametrize("name", VARIANTS)
def test_apply_refuses_what_is_not_an_action_of_the_game(name: str) -> None:
    state = parlour.new_game(name).new_deal(seed=5)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    before = snapshot(state)
    values: list[object] = [None, 3.7, 0.0, True, False, b"pass", ["pass"], ("3D",), 0, 1, -1,
                            2**70, 12345, object(), *other_games_actions()]
    for value in values:
        with pytest.raises(IllegalAction):
            state.apply(value)  # type: ignore[arg-type]
        assert snapshot(state) == before, f"the refused apply({value!r}) changed the state"


@pytest.mark.parametrize("name", VARIANTS)
def test_the_action_type_returns_shared_plays_and_refuses_other_values(name: str) -> None:
    state = parlour.new_game(name).new_deal(seed=2)
    play = state.legal_actions()[0]
    kind = type(play)
    assert kind(int(play)) is play
    assert kind(0) == state.parse_action(PASS)
    two_cards_as_a_single = 1 << 61 | 0b101  # a packed value the engine never makes
    for value in (12345, two_cards_as_a_single, -1, 2**70, "3D", 1.0, True, None):
        with pytest.raises(IllegalAction, match="is not a play of"):
            kind(value)
    with pytest.raises(IllegalAction):
        ClimbingAction(int(play))  # the shared base belongs to no variant


def test_another_climbing_variants_play_is_judged_by_its_cards() -> None:
    state = BIG_TWO.new_deal(hands=THIRTEEN)  # P1 holds the diamonds, 3D among them
    opener = state.current_player
    pusoy_state = PUSOY.new_deal(seed=4)
    three = pusoy_state.parse_action("3D")
    four = pusoy_state.parse_action("4D")  # held by the opener, but no opening in big-two
    assert type(three) is not type(state.parse_action("3D"))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="must include 3D"):
        state.apply(four)
    assert snapshot(state) == before
    state.apply(three)
    assert state.history == [(opener, state.parse_action("3D"))]
    assert type(state.history[0][1]) is type(state.parse_action("3D"))


# -- nothing handed out is the engine's own ------------------------------------------------------


def test_returned_lists_and_dicts_are_copies() -> None:
    state = a_trick()
    state.apply(PASS)
    obs = state.observation(0)
    state.history.clear()
    state.returns().append(5.0)
    state.placements.append(3)
    state.zones()["P0"] = parlour.CardSet()
    state.setup()["hands"].clear()
    assert len(state.history) == 1 and len(state.returns()) == 4 and state.placements == []
    assert state.zones()["P0"] == parlour.CardSet.parse("3D JD JC")
    assert len(state.setup()["hands"]) == 4
    assert state.observation(0) == obs
    for value in (obs.history, obs.hand_sizes, obs.finished, obs.scores, obs.start_finished):
        assert isinstance(value, tuple)
    for value in (obs.hand, obs.played, obs.out):
        assert isinstance(value, parlour.CardSet)


# -- seats --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["observation", "hidden_from", "hand"])
@pytest.mark.parametrize("seat", [-1, 4, True, "0", 1.0, None])
def test_methods_taking_a_seat_refuse_what_is_not_one(method: str, seat: object) -> None:
    state = a_trick()
    before = snapshot(state)
    with pytest.raises(SeatError, match="is not a seat"):
        getattr(state, method)(seat)
    assert snapshot(state) == before


# -- new_deal refuses wrong types ---------------------------------------------------------------

THIRTEEN = [" ".join(DECK[i::4]) for i in range(4)]


@pytest.mark.parametrize(("setup", "error", "message"), [
    ({"deck": 42}, CardError, "expected cards"),
    ({"deck": DECK[:51]}, DealError, "missing 1 card"),
    ({"seed": "7"}, DealError, "integer"),
    ({"hands": [None] * 4}, CardError, "P0's hand: expected cards"),
    ({"hands": "3D 4D"}, DealError, "hands must be a list of 4 hands"),
    ({"hands": 42}, DealError, "hands must be a list of 4 hands"),
    ({"hands": [*THIRTEEN[:3], 42]}, CardError, "P3's hand"),
    ({"hands": THIRTEEN[:3]}, DealError, "needs 4 hands, not 3"),
    ({"hands": [THIRTEEN[0].replace("2C", "2X"), *THIRTEEN[1:]]}, CardError, "'2X' is not a card"),
    ({"hands": [THIRTEEN[0], THIRTEEN[0], *THIRTEEN[2:]]}, DealError, "2C is dealt twice"),
    ({"hands": THIRTEEN, "leader": True}, DealError, "leader must be a seat 0..3, not True"),
    ({"hands": THIRTEEN, "leader": "1"}, DealError, "leader must be a seat"),
    ({"hands": THIRTEEN, "leader": 4}, DealError, "leader must be a seat"),
    ({"seed": 1, "leader": -1}, DealError, "leader must be a seat"),
    ({"hands": THIRTEEN, "colour": "red"}, DealError, "take no colour"),
    ({"seed": 1, "out": "3D"}, DealError, "out set(s) up a composed position"),
    ({"seed": 1, "table": "3D", "table_seat": 0}, DealError, "table, table_seat set(s) up"),
    ({"hands": THIRTEEN, "seed": 1}, DealError, "not several"),
])
def test_new_deal_refuses_wrong_settings(setup: dict[str, Any], error: type[Exception],
                                         message: str) -> None:
    for name in VARIANTS:
        with pytest.raises(error, match=re.escape(message)):
            parlour.new_game(name).new_deal(**setup)


# -- empty seats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), [
    ("big-two-4card", {}), ("big-two", {}), ("pusoy-dos", {"scoring": "penalty"})])
def test_an_empty_seat_is_refused_where_the_deal_ends_at_the_first_out(
        name: str, options: dict[str, str]) -> None:
    game = parlour.new_game(name, **options)
    with pytest.raises(DealError, match=r"P2 hold.s. no cards: .* every seat must hold cards"):
        deal(game, ["3D 4D", "5C", "", "6C"], leader=0)
    with pytest.raises(DealError, match="no seat can have gone out"):
        deal(game, ["3D 4D", "5C", "7H", "6C"], leader=0, finished=[2])


def test_in_pusoy_dos_an_empty_seat_has_gone_out_in_the_order_finished_says() -> None:
    hands = ["3C 6C", "", "5S 6S", ""]
    with pytest.raises(DealError, match="say in which order with finished"):
        deal(PUSOY, hands, leader=0)
    for finished in ([1], [1, 3, 0], [1, 1], "13", [1, True]):
        with pytest.raises(DealError, match="finished must"):
            deal(PUSOY, hands, leader=0, finished=finished)
    with pytest.raises(DealError, match="opening play is past"):
        deal(PUSOY, ["3C 4C", "", "5S 6S", ""], finished=[3, 1])
    with pytest.raises(DealError, match="at least two seats must hold cards"):
        deal(PUSOY, ["3C 4C", "", "", ""], leader=0, finished=[3, 1, 2])
    with pytest.raises(DealError, match="leader P1 holds no cards"):
        deal(PUSOY, hands, leader=1, finished=[3, 1])

    state = deal(PUSOY, hands, leader=2, finished=[3, 1])
    assert state.placements == [3, 1]
    assert state.observation(0).start_finished == (3, 1)
    assert state.setup()["finished"] == [3, 1]
    state.apply("5S")
    assert state.current_player == 0  # seats out are skipped
    state.apply("6C")
    state.apply(PASS)  # one pass suffices with two seats in
    assert state.current_player == 0 and state.observation(0).table is None
    state.apply("3C")  # P0 goes out third; P2 is left fourth
    assert state.is_over
    assert state.placements == [3, 1, 0, 2]
    assert state.returns() == [1.0, 2.0, 0.0, 3.0]


# -- a trick in progress ------------------------------------------------------------------------


def test_a_trick_in_progress_is_set_up_directly() -> None:
    state = a_trick()
    assert state.current_player == 0
    assert {str(a) for a in state.legal_actions()} == {PASS, "JD JC"}
    obs = state.observation(0)
    assert (str(obs.table), obs.table_seat, obs.passes, obs.opening) == ("10D 10S", 2, 1, False)
    assert (str(obs.start_table), obs.start_table_seat, obs.start_passes) == ("10D 10S", 2, 1)
    assert obs.played == obs.out | parlour.CardSet.parse("10D 10S")
    assert state.zones()["played"] == parlour.CardSet.parse("10D 10S")
    setup = state.setup()
    out = parlour.CardSet.parse(setup.pop("out"))
    assert out == parlour.CardSet.parse(" ".join(rest("3D JD JC 4C 5H QS KS AD 10D 10S")))
    assert setup == {"hands": ["3D JD JC", "4C 5H", "QS KS", "AD"], "table": "10D 10S",
                     "table_seat": 2, "passes": 1}
    state.apply(PASS)
    assert state.current_player == 1
    state.apply(PASS)  # the third pass since P2's play: P2 takes control
    assert state.current_player == 2 and state.observation(2).table is None


def test_to_move_may_say_who_is_to_answer_and_must_agree_with_passes() -> None:
    hands = ["3D JD JC", "4C 5H", "QS KS", "AD"]
    by_passes = deal(BIG_TWO, hands, "10D 10S", table_seat=2, passes=1)
    for setup in ({"to_move": 0}, {"to_move": 0, "passes": 1}):
        state = deal(BIG_TWO, hands, "10D 10S", table_seat=2, **setup)
        assert snapshot(state) == snapshot(by_passes)
        assert state.setup() == by_passes.setup()
    assert deal(BIG_TWO, hands, "10D 10S", table_seat=2).current_player == 3
    with pytest.raises(DealError, match="P0 is to move, not P1"):
        deal(BIG_TWO, hands, "10D 10S", table_seat=2, passes=1, to_move=1)
    with pytest.raises(DealError, match="P2 would have won control"):
        deal(BIG_TWO, hands, "10D 10S", table_seat=2, to_move=2)
    with pytest.raises(DealError, match="to_move must be a seat"):
        deal(BIG_TWO, hands, "10D 10S", table_seat=2, to_move="P0")


@pytest.mark.parametrize(("table", "setup", "message"), [
    ("10D 10S", {"table_seat": 2, "passes": 3}, "P2 would already have control; give leader=2"),
    ("10D 10S", {"table_seat": 2, "passes": -1}, "passes must be a number of passes"),
    ("10D 10S", {"table_seat": 2, "passes": True}, "passes must be a number of passes"),
    ("10D 10S", {"table_seat": 2, "passes": "1"}, "passes must be a number of passes"),
    ("10D 9S", {"table_seat": 2}, "10D 9S is not a valid combination in big-two"),
    ("10D 10S 10H", {"table_seat": 2}, "not a valid combination"),  # no triples by default
    ("10D 10S", {}, "say who made the table play"),
    ("10D 10S", {"table_seat": 4}, "table_seat must be a seat"),
    ("10D 10S", {"table_seat": 2, "leader": 0}, "a leader (a free lead) or a table play"),
])
def test_inconsistent_tricks_are_refused(table: str, setup: dict[str, Any],
                                         message: str) -> None:
    with pytest.raises(DealError, match=re.escape(message)):
        deal(BIG_TWO, ["3D JD JC", "4C 5H", "QS KS", "AD"], table, **setup)


def test_table_settings_need_a_table_and_table_cards_are_in_no_hand() -> None:
    hands = ["3D JD JC", "4C 5H", "QS KS", "AD"]
    with pytest.raises(DealError, match=r"describe.* a trick in progress"):
        BIG_TWO.new_deal(hands=hands, out=rest(*hands), table_seat=2, passes=1)
    with pytest.raises(DealError, match="JD is dealt twice"):
        BIG_TWO.new_deal(hands=hands, out=rest(*hands, "JD JH"), table="JD JH", table_seat=2)
    with pytest.raises(DealError, match=r"the table play .no cards. is not a valid combination"):
        BIG_TWO.new_deal(hands=hands, out=rest(*hands), table="", table_seat=2)


def test_pusoy_dos_table_seat_out_only_under_standard_control() -> None:
    hands = ["3C 9C", "", "JC 4S", "QS 6H"]
    with pytest.raises(DealError, match="the next player then leads"):
        deal(PUSOY, hands, "10D", table_seat=1, finished=[1])
    game = parlour.new_game("pusoy-dos", control_after_out="standard")
    with pytest.raises(DealError, match="P1 must be the last seat in finished"):
        deal(game, ["3C 9C", "", "JC 4S", ""], "10D", table_seat=1, finished=[1, 3])
    state = deal(game, hands, "10D", table_seat=1, finished=[1])
    assert state.current_player == 2  # the seat after P1, who went out with the 10D
    with pytest.raises(DealError, match=r"3 pass.es. .* P2 would already have control"):
        deal(game, hands, "10D", table_seat=1, finished=[1], passes=3)
    state = deal(game, hands, "10D", table_seat=1, finished=[1], passes=2)
    assert state.current_player == 0
    state.apply(PASS)  # all three seats still in have passed: the next after P1 leads
    assert state.current_player == 2 and state.observation(2).table is None


def composed_positions() -> list[ClimbingState]:
    standard = parlour.new_game("pusoy-dos", control_after_out="standard")
    return [
        a_trick(),
        deal(parlour.new_game("big-two-4card"), ["3C 3H 7D", "4C 4H 8S", "5S", "KD KS 2D"],
             "QD QS JH JS", table_seat=3, passes=2),
        deal(PUSOY, ["3C 9C 9D", "", "JC 4S JD", "QS 6H"], "10S 10H", table_seat=2,
             finished=[1]),
        deal(standard, ["3C 9C", "", "JC 4S", "QS 6H"], "10D", table_seat=1, finished=[1],
             passes=1),
        deal(PUSOY, ["3C 4C", "", "5S 6S", ""], leader=2, finished=[3, 1]),
    ]


@pytest.mark.parametrize("index", range(5))
def test_composed_positions_round_trip_replay_and_sample_consistently(index: int) -> None:
    state = composed_positions()[index]
    game = state.game
    again = game.new_deal(**json.loads(json.dumps(state.setup())))
    assert snapshot(again) == snapshot(state)
    rng = random.Random(index)
    while True:
        for seat in range(4):
            obs = state.observation(seat)
            for k in range(3):
                assert obs.sample_state(random.Random(k)).observation(seat) == obs
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    replayed = replay_deal(json.loads(json.dumps(deal_record(state))))
    assert replayed.history == state.history and replayed.returns() == state.returns()
    assert replayed.setup() == state.setup()


def test_sampled_states_respect_passes_forced_by_pass_only_if_no_legal_play() -> None:
    # P1 passes on the KD because it must (B8): a sampled deal must not hand it the AH, which
    # would have beaten the KD and made the replayed pass illegal.
    forced = parlour.new_game("big-two", pass_only_if_no_legal_play=True)
    hands = ["3C 4C KD", "5D 6D 7D", "8D AH AS", "9D 10D 2S"]
    seen = {}
    for game in (forced, BIG_TWO):
        state = deal(game, hands, leader=0)
        for play in ("KD", PASS, "AS", "2S", PASS, PASS, PASS):
            state.apply(play)
        obs = state.observation(0)
        samples = [obs.sample_state(random.Random(k)) for k in range(30)]
        assert all(s.observation(0) == obs for s in samples)
        seen[game] = {card for s in samples for card in names(str(s.hand(1)))}
    assert "AH" not in seen[forced] and seen[forced] <= set(names("5D 6D 7D 8D 9D 10D"))
    assert "AH" in seen[BIG_TWO]  # without the option the pass tells nothing


def test_sampled_states_replay_every_forced_pass_of_whole_deals() -> None:
    game = parlour.new_game("big-two", pass_only_if_no_legal_play=True)
    for seed in range(3):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(4):
                obs = state.observation(seat)
                sampled = obs.sample_state(random.Random(len(state.history)))
                assert sampled.observation(seat) == obs
            state.apply(rng.choice(state.legal_actions()))


# -- categories ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_every_play_has_a_category_of_its_variant(name: str) -> None:
    game = parlour.new_game(name)
    table = game.table
    seen = set()
    for play in table.hand_combos((1 << 52) - 1):
        assert isinstance(play.category, Category)
        assert play.category in table.categories[play.size]
        seen.add(play.category)
    assert seen == {c for cats in table.categories.values() for c in cats}
    assert game.new_deal(seed=1).parse_action(PASS).category is Category.PASS


def test_categories_follow_each_variants_rules() -> None:
    four_card = parlour.new_game("big-two-4card").table.categories
    assert four_card[4] == (Category.TWO_PAIR, Category.FOUR_OF_A_KIND)
    assert Category.FOUR_PLUS_ONE not in four_card[5]
    big_two = BIG_TWO.table.categories
    assert 3 not in big_two and 4 not in big_two
    assert big_two[5] == (Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE,
                          Category.FOUR_PLUS_ONE, Category.STRAIGHT_FLUSH)
    assert parlour.new_game("big-two", allow_triples=True).table.categories[3] == (
        Category.TRIPLE,)
    play = a_trick().observation(0).table
    assert play is not None
    assert play.category is Category.PAIR and play.category == "pair"
    assert f"{Category.FOUR_PLUS_ONE}" == "four of a kind with a kicker"


# -- hands in the variant's order ---------------------------------------------------------------


@pytest.mark.parametrize(("name", "lowest", "highest", "printed"), [
    ("big-two", "3D", "2S", "3H 3S 2D 2C"),
    ("big-two-4card", "3D", "2S", "3H 3S 2D 2C"),
    ("pusoy-dos", "3C", "2D", "3S 3H 2C 2D"),
])
def test_hands_print_in_the_variants_order(name: str, lowest: str, highest: str,
                                           printed: str) -> None:
    game = parlour.new_game(name)
    order = [str(parlour.Card(i)) for i in game.card_order()]
    assert (order[0], order[-1], len(set(order))) == (lowest, highest, 52)
    hands = ["2D 2C 3S 3H", "4C", "5C", "6C"]
    state = deal(game, hands, leader=0)
    shown = [state.hand(0), state.observation(0).hand, state.zones()["P0"],
             state.hidden_from(1) & parlour.CardSet.parse(hands[0])]
    assert [str(cards) for cards in shown] == [printed] * 4
    assert state.setup()["hands"][0] == printed
    for cards in (state.observation(1).out, state.zones()["out"]):
        listed = [order.index(str(c)) for c in cards]
        assert listed == sorted(listed)


# -- the log and the table as text --------------------------------------------------------------


def test_log_lines_tell_control_going_out_and_the_result() -> None:
    state = a_trick()
    for play in (PASS, PASS, "QS", "AD"):
        state.apply(play)
    log = [
        "P0: pass",
        "P1: pass",
        "all pass — P2 leads",
        "P2: QS",
        "P3: AD",
        "P3 is out and wins the deal",
        "deal over — P3 wins the deal; penalties: P0 3, P1 2, P2 1, P3 0",
    ]
    assert state.observation(1).log_lines() == log
    assert state.observation(2).log_lines(2) == log[3:]
    assert state.observation(0).log_lines(-1) == log[4:]


def test_log_lines_of_a_pusoy_dos_deal_name_places_and_who_leads() -> None:
    state = deal(PUSOY, ["3C 9C", "10D", "JC 4S", "QS 6H"], leader=0)
    for play in ("3C", "10D", "4S", "6H", "9C", "JC"):
        state.apply(play)
    log = [
        "P0: 3C",
        "P1: 10D",
        "P1 is out: 1st place",
        "P2 leads",
        "P2: 4S",
        "P3: 6H",
        "P0: 9C",
        "P0 is out: 2nd place",
        "P2 leads",
        "P2: JC",
        "P2 is out: 3rd place",
        "P3 is left with cards: 4th place",
        "deal over — places: 1st P1, 2nd P0, 3rd P2, 4th P3",
    ]
    assert state.observation(0).log_lines() == log
    assert state.observation(2).log_lines(len(state.history) - 1) == log[-4:]


def test_log_lines_of_a_big_two_4card_deal_give_the_count_result() -> None:
    state = deal(parlour.new_game("big-two-4card"), ["3D 4D", "5C 6C 7C", "5H", "8S 9S"])
    for play in ("3D", "5C", "5H"):
        state.apply(play)
    assert state.observation(3).log_lines(1) == [
        "P1: 5C", "P2: 5H", "P2 is out and wins the deal",
        "deal over — P2 wins the deal: P0 -1, P1 -2, P2 +5, P3 -2"]


def test_render_shows_the_table_play_its_maker_passes_counts_and_places() -> None:
    state = deal(PUSOY, ["3C 9C 9D", "", "JC 4S JD", "QS 6H"], "10S 10H", table_seat=2,
                 finished=[1], passes=1)
    assert state.observation(0).render() == "\n".join([
        "pusoy-dos — you are P0",
        "P0*: 3 cards  P1: out, 1st place  P2: 3 cards  P3: 2 cards",
        "Table: 10S 10H (pair) by P2, 1 pass since — P0 to play",
        "Your hand: 3C 9C 9D",
    ])
    state.apply(PASS)  # P2 takes control
    for play in ("4S", "6H", "9C", "JC", "QS", "3C", "JD"):
        state.apply(play)
    assert state.is_over
    assert state.observation(3).render() == "\n".join([
        "pusoy-dos — you are P3",
        "P0: 1 card, 4th place  P1: out, 1st place  P2: out, 3rd place  P3: out, 2nd place",
        "Table: JD (single) by P2, 0 passes since",
        "Your hand: (empty)",
        "Deal over — places: 1st P1, 2nd P3, 3rd P2, 4th P0",
    ])


def test_render_of_an_opening_says_who_opens_and_with_what() -> None:
    state = BIG_TWO.new_deal(hands=THIRTEEN)  # P1 holds the diamonds
    lines = state.observation(0).render().splitlines()
    assert lines[1] == "P0: 13 cards  P1*: 13 cards  P2: 13 cards  P3: 13 cards"
    assert lines[2] == "Table: empty — P1 leads (the first play must include 3D)"
    assert lines[3] == "Your hand: 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C"
    # Everyone knows the opener holds 3D, so it is hidden from no one and may be named.
    three = parlour.Card.parse("3D")
    assert three in state.hand(1)
    assert all(three not in state.hidden_from(seat) for seat in range(4))
    state.apply("3D")
    assert all(three not in state.hidden_from(seat) for seat in range(4))
    assert parlour.Card.parse("4D") in state.hidden_from(0)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_text_never_names_a_card_hidden_from_the_seat(name: str) -> None:
    for seed in range(3):
        state = parlour.new_game(name).new_deal(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in range(4):
                obs = state.observation(seat)
                text = obs.render() + "\n" + "\n".join(obs.log_lines())
                named = parlour.CardSet.parse(" ".join(CARD.findall(text)))
                assert not named & state.hidden_from(seat), text
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))


# -- matches -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options", "text"), [
    ("big-two", {}, "the match ends when a player has 50 penalty points"),
    ("big-two", {"penalty_limit": 30}, "the match ends when a player has 30 penalty points"),
    ("big-two", {"match_end": "deals", "deals": 5}, "the match lasts 5 deals"),
    ("big-two-4card", {}, "the match lasts 10 deals"),
    ("big-two-4card", {"deals": 1}, "the match is one deal"),
    ("pusoy-dos", {"deals": 3}, "the match lasts 3 deals"),
])
def test_match_end_text_follows_the_options(name: str, options: dict[str, Any],
                                            text: str) -> None:
    assert parlour.new_game(name, **options).match_end_text() == text


def test_observations_are_the_climbing_type() -> None:
    assert isinstance(a_trick().observation(0), ClimbingObservation)
