"""RULES.md section 5.4: every given/then case of rummy, through the public API."""

from __future__ import annotations

import pytest

import parlour
from parlour import CardSet, IllegalAction, parse_card, parse_cards
from parlour.errors import DealError
from parlour.game import shuffled_deck
from parlour.games.rummy.engine import RummyState

FILLER = "KS"  # drawn where a test needs a draw that plays no part


def deal(hands: list[str], stock: str = "...", discard: str = "", players: int | None = None,
         **settings: object) -> RummyState:
    """A position: ``hands`` per seat, the stock (top first, "..." for the rest), the discard
    pile (bottom first); other settings as new_deal takes them; options split off."""
    options = {k: settings.pop(k) for k in list(settings)
               if k in ("forbid_discard_of_drawn_discard", "score_melds", "tie_break",
                        "turn_limit", "hand_size", "series_target")}
    game = parlour.new_game("rummy", players=players or len(hands), **options)
    state = game.new_deal(hands=hands, stock=stock, discard=discard, seed=1, **settings)
    assert isinstance(state, RummyState)
    return state


def snapshot(state: RummyState) -> tuple[object, ...]:
    return (tuple(state.observation(s) for s in range(state.game.players)),
            list(state.history), state.setup())


def assert_refused(state: RummyState, text: str) -> None:
    before = snapshot(state)
    assert state.parse_action(text) not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(text)
    assert snapshot(state) == before


def assert_allowed(state: RummyState, text: str) -> None:
    assert state.parse_action(text) in state.legal_actions()
    state.clone().apply(text)


def holding(cards: str, melds: tuple[str, ...] = (), **settings: object) -> RummyState:
    """The human holding ``cards`` after drawing (the filler card from the stock)."""
    state = deal([cards.replace(FILLER, ""), "JC QH 8S"], stock=f"{FILLER} ...", discard="AH",
                 melds=list(melds), **settings)
    state.apply("draw stock")
    return state


# -- 1. the deal -----------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size", "stock"), [(2, 10, 31), (3, 7, 30), (4, 7, 23)])
def test_deal_sizes_up_card_and_stock(players: int, size: int, stock: int) -> None:
    deck = [str(c) for c in shuffled_deck(players)]
    state = parlour.new_game("rummy", players=players).new_deal(deck=deck)
    for seat in range(players):
        obs = state.observation(seat)
        # one card at a time, the human first, then the computers in order
        assert obs.hand == CardSet.from_cards(parse_card(deck[i])
                                              for i in range(seat, players * size, players))
        assert obs.hand_sizes == (size,) * players
    obs = state.observation(0)
    assert obs.discard == (parse_card(deck[players * size]),)
    assert obs.stock_size == stock
    state.apply("draw stock")
    assert parse_card(deck[players * size + 1]) in state.observation(0).hand


# -- 2. turn order ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_human_first_then_computers_in_order(players: int) -> None:
    state = parlour.new_game("rummy", players=players).new_deal(seed=11)
    order = []
    for _ in range(2 * players):
        order.append(state.current_player)
        state.apply("draw stock")
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("discard")))
    assert order == list(range(players)) * 2


# -- 3. runs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", ["4C 5C 6C", "8H 9H 10H JH", "AS 2S 3S", "6C 4C 5C"])
def test_valid_runs(cards: str) -> None:
    assert_allowed(holding(cards + " " + FILLER), "meld " + cards)


@pytest.mark.parametrize("cards", ["QD KD AD", "KD AD 2D", "4C 5D 6C", "4C 6C 7C"])
def test_invalid_runs(cards: str) -> None:
    assert_refused(holding(cards + " " + FILLER), "meld " + cards)


# -- 4. groups -------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", ["7D 7H 7S", "7D 7H 7S 7C"])
def test_valid_groups(cards: str) -> None:
    assert_allowed(holding(cards + " " + FILLER), "meld " + cards)


def test_two_card_group_is_too_short() -> None:
    assert_refused(holding("7D 7H 9C " + FILLER), "meld 7D 7H")


# -- 5. lay-offs on a run --------------------------------------------------------------------
def test_layoff_on_run_at_either_end_but_not_across_a_gap() -> None:
    state = holding("3C 7C 8C " + FILLER, melds=("4C 5C 6C",))
    for cards in ("3C", "7C", "7C 8C"):
        assert_allowed(state, f"layoff {cards} on 1")
    assert_refused(state, "layoff 8C on 1")


# -- 6. no rearranging -----------------------------------------------------------------------
def test_no_rearranging_to_lay_off_the_ace() -> None:
    state = holding("AS 9H " + FILLER, melds=("2C 2H 2D 2S", "3S 4S 5S"))
    assert_refused(state, "layoff AS on 2")
    assert_refused(state, "layoff AS on 1")
    assert not [a for a in state.legal_actions()
                if "AS" in str(a) and not str(a).startswith("discard")]


# -- 7. only the top discard -----------------------------------------------------------------
def test_draw_discard_takes_the_top_card_only() -> None:
    state = deal(["2C 3D 4S", "5C 6D 7S"], discard="9D KC")
    state.apply("draw discard")
    obs = state.observation(0)
    assert parse_card("KC") in obs.hand and parse_card("9D") not in obs.hand
    assert obs.discard == (parse_card("9D"),)
    assert obs.hand_sizes == (4, 3)


# -- 8. discarding the card just taken -------------------------------------------------------
def test_discarding_the_taken_discard_is_allowed_by_default() -> None:
    state = deal(["2C 3D 4S", "5C 6D 7S"], discard="9D KC")
    state.apply("draw discard")
    assert_allowed(state, "discard KC")


def test_discarding_the_taken_discard_refused_when_forbidden() -> None:
    state = deal(["2C 3D 4S", "5C 6D 7S"], discard="9D KC", forbid_discard_of_drawn_discard=True)
    state.apply("draw discard")
    assert_refused(state, "discard KC")
    assert_allowed(state, "discard 2C")


def test_the_forbid_option_forbids_only_discarding_the_taken_card() -> None:
    # E5: the taken card may be melded or laid off in the same turn; only discarding it is out.
    forbid = {"forbid_discard_of_drawn_discard": True}
    state = deal(["2D 3D 9C", "5C 6D 7S"], discard="9S 4D", **forbid)
    state.apply("draw discard")
    assert_allowed(state, "meld 2D 3D 4D")
    state = deal(["5H 6H 7H 2C", "5C 6D 7S"], discard="9S 8H", **forbid)
    state.apply("draw discard")
    state.apply("meld 5H 6H 7H")
    assert_allowed(state, "layoff 8H on 1")
    # Discarding another card may leave the taken one as the only card in hand.
    state = deal(["9C", "5C 6D 7S"], discard="9S KC", **forbid)
    state.apply("draw discard")
    assert_allowed(state, "discard 9C")


def test_the_forbid_option_refuses_a_meld_that_strands_the_taken_card() -> None:
    # Melding the rest leaves the taken card alone: allowed while it can still be laid off
    # (going out), refused when the turn could end only by discarding it.
    forbid = {"forbid_discard_of_drawn_discard": True}
    state = deal(["5H 6H 7H", "5C 6D 7S"], discard="9S 8H", **forbid)
    state.apply("draw discard")
    assert_allowed(state, "meld 5H 6H 7H")
    state.apply("meld 5H 6H 7H")
    state.apply("layoff 8H on 1")
    assert state.is_over and state.observation(0).went_out == 0
    state = deal(["5H 6H 7H", "5C 6D 7S"], discard="9S KC", **forbid)
    state.apply("draw discard")
    assert_refused(state, "meld 5H 6H 7H")


# -- 9. out by discarding after a meld -------------------------------------------------------
def test_meld_then_discard_goes_out_and_play_stops() -> None:
    state = deal(["5H 6H 7H", "2C 3D 4S"], stock="9C ...", discard="9D")
    state.apply("draw stock")
    state.apply("meld 5H 6H 7H")
    assert not state.is_over
    state.apply("discard 9C")
    assert state.is_over and state.legal_actions() == []
    assert state.observation(0).went_out == 0
    with pytest.raises(IllegalAction):
        state.apply("draw stock")


# -- 10. out by melding everything -----------------------------------------------------------
def test_melding_the_whole_hand_goes_out_without_a_discard() -> None:
    state = deal(["5H 6H 7H", "2C 3D 4S"], stock="8H ...", discard="9D")
    state.apply("draw stock")
    state.apply("meld 5H 6H 7H 8H")
    assert state.is_over
    assert [str(a) for _, a in state.history] == ["draw stock", "meld 5H 6H 7H 8H"]
    assert state.observation(1).discard == (parse_card("9D"),)


# -- 11. hand value --------------------------------------------------------------------------
def test_cards_left_in_hand_are_subtracted() -> None:
    state = deal(["5S 6S 7S", "KS 10D AC 5H 2C"], stock="9C ...", discard="9D")
    state.apply("draw stock")
    state.apply("meld 5S 6S 7S")
    state.apply("discard 9C")
    assert state.hand_value(1) == 10 + 10 + 20 + 5 + 5
    assert state.returns() == [15.0, -50.0]


# -- 12. who scores melds and lay-offs -------------------------------------------------------
def test_melds_and_layoffs_score_for_the_player_who_puts_them_down() -> None:
    state = deal(["7C AS 2S 9H 10C", "7D 7H 7S 4C"], stock="3S KH JD QC ...", discard="8D")
    state.apply("draw stock")                       # human draws 3S
    state.apply("discard 10C")
    state.apply("draw stock")                       # Computer 1 draws KH
    state.apply("meld 7D 7H 7S")
    assert state.observation(0).scores == (0, 15)
    state.apply("discard KH")
    state.apply("draw stock")                       # human draws JD
    state.apply("layoff 7C on 1")
    assert state.observation(1).scores == (5, 15)
    state.apply("meld AS 2S 3S")
    assert state.observation(1).scores == (35, 15)
    assert state.observation(1).placed == (CardSet.parse("7C AS 2S 3S"), CardSet.parse("7D 7H 7S"))


# -- 13. the highest score wins, not the player who went out ----------------------------------
def test_highest_score_wins_even_when_another_went_out() -> None:
    state = deal(["10H JH QH", "KD"], stock="KH ...", discard="9D", scores=[0, 60])
    state.apply("draw stock")
    state.apply("meld 10H JH QH KH")
    assert state.is_over
    assert state.returns() == [40.0, 50.0]
    assert state.winners() == [1]


# -- 14. the stock is rebuilt from the discards but the top one -------------------------------
def test_empty_stock_is_rebuilt_from_the_discards_under_the_top() -> None:
    # the cards not named in the case have to be somewhere: the hands hold them
    rest = [c for c in CardSet((1 << 52) - 1)
            if c not in CardSet.parse("2C 3D 4S 5H 6H AD 9S KC QC 9H 3C 8D JH")]
    hands = ["2C 3D 5H 6H " + " ".join(str(c) for c in rest[:20]),
             "AD 9S 4S", "KC QC " + " ".join(str(c) for c in rest[20:])]
    state = deal(hands, stock="9H", discard="3C 8D JH", player=1)
    state.apply("draw stock")
    assert state.observation(1).stock_size == 0
    state.apply("discard 4S")
    obs = state.observation(2)
    assert obs.current_player == 2
    assert obs.discard == (parse_card("4S"),)
    assert obs.stock_size == 3
    drawn = []
    for _ in range(3):
        before = state.observation(state.current_player).hand
        state.apply("draw stock")
        (card,) = state.observation(state.current_player).hand - before
        drawn.append(card)
        state.apply(f"discard {card}")
    assert sorted(drawn) == sorted(parse_cards("3C 8D JH"))
    again = state.game.new_deal(**state.setup())
    for _, a in state.history:
        again.apply(a)
    assert again.observation(0) == state.observation(0)


# -- 15. no rebuild from a lone top card ------------------------------------------------------
def test_lone_top_card_must_be_drawn() -> None:
    rest = [str(c) for c in CardSet((1 << 52) - 1) - CardSet.parse("4S")]
    state = deal([" ".join(rest[:25]), " ".join(rest[25:])], stock="", discard="4S")
    assert [str(a) for a in state.legal_actions()] == ["draw discard"]
    assert_refused(state, "draw stock")
    state.apply("draw discard")
    assert parse_card("4S") in state.observation(0).hand


# -- 16. laying off two cards at once --------------------------------------------------------
def test_layoff_two_cards_on_a_run_and_not_across_a_gap() -> None:
    state = holding("QD KD 4C " + FILLER, melds=("9D 10D JD",))
    assert_refused(state, "layoff KD on 1")
    state.apply("layoff QD KD on 1")
    obs = state.observation(0)
    assert obs.melds == (CardSet.parse("9D 10D JD QD KD"),)
    assert obs.scores == (20, 0)


# -- the notation and the deal checks ---------------------------------------------------------
def test_notation_round_trips_and_accepts_any_order_and_case() -> None:
    state = holding("4C 5C 6C 7C " + FILLER)
    assert state.parse_action(" Meld 6♣  4c 5C ") == state.parse_action("meld 4C 5C 6C")
    for a in state.legal_actions():
        assert state.parse_action(str(a)) == a
    for bad in ("", "draw", "meld", "layoff 7C on", "layoff 7C on 0", "discard 7C 6C", "meld 4C 4C",
                "pass", "meld 1H 2H 3H"):
        with pytest.raises(IllegalAction):
            state.parse_action(bad)


def test_supplied_deal_with_a_wrong_card_is_refused() -> None:
    game = parlour.new_game("rummy")
    with pytest.raises(DealError, match="twice"):
        game.new_deal(hands=["2C 3C", "2C 4D"], stock="...")
    with pytest.raises(DealError, match="missing"):
        game.new_deal(hands=["2C 3C", "4D"], stock="5D")
    with pytest.raises(DealError, match="not a valid run or group"):
        game.new_deal(hands=["2C 3C", "4D"], stock="...", melds=["4C 5C 7C"])
    deck = [str(c) for c in CardSet((1 << 52) - 1)]
    with pytest.raises(DealError):
        game.new_deal(deck=deck[:-1] + deck[:1])
