"""The first-game tutorials (``parlour.tutorial`` and each family's lesson): which tutorial a
name gets, its one-deal match, the coach's notes on positions where each must and must not
appear, each note once, and notes that tell a seat nothing it cannot see."""

from __future__ import annotations

import random
import re

import pytest

import parlour
from parlour.advice import hint
from parlour.cards import CardSet
from parlour.errors import ParlourError, VariantError
from parlour.game import State
from parlour.registry import Note, family_of, get_variant
from parlour.session import HUMAN, TableSession
from parlour.tutorial import END, HINT, SEAT, Coach, lesson_of, lessons, playable, tutorial

#: A card in its notation ("3D"): notes name cards by their faces ("3♦"), as hints do.
CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b")
ALL = [v.name for v in parlour.variants()]


def keys(notes: list[Note]) -> list[str]:
    return [note.key for note in notes]


def notes_of(state: State, seat: int) -> dict[str, str]:
    """The family's notes for ``seat`` at this position, by key (its legal moves if to move)."""
    lesson = lesson_of(state.game.name)
    assert lesson is not None
    legal = state.legal_actions() if state.current_player == seat and not state.is_over else []
    notes = lesson.coach(state.observation(seat), legal)
    for note in notes:
        assert not CARD_CODE.search(note.text), note.text
    return {note.key: note.text for note in notes}


def composed_big_two(hands: list[str], leader: int = 0, game: str = "big-two") -> State:
    """A climbing deal of ``hands`` (the rest of the pack out of play), ``leader`` to lead."""
    dealt = parlour.parse_cards(" ".join(hands))
    out = [c for c in CardSet((1 << 52) - 1).cards() if c not in dealt]
    return parlour.new_game(game).new_deal(hands=hands, out=out, leader=leader)


# -- which tutorial ---------------------------------------------------------------------------


def test_every_variant_has_a_tutorial_in_its_own_family() -> None:
    assert playable() == ALL
    for family, lesson in lessons():
        assert lesson.variants, family.name
        for name in lesson.variants:
            assert get_variant(name).family == family.name
    assert {family.name for family, _ in lessons()} == {v.family for v in parlour.variants()}


def test_a_tutorial_is_found_by_variant_by_family_or_by_default() -> None:
    assert tutorial().variant == parlour.registry.default_variant().name
    for name in ALL:
        assert tutorial(name).variant == name
        family = get_variant(name).family
        assert tutorial(family).variant == lesson_of(name).variant  # type: ignore[union-attr]
    assert tutorial("climbing").variant == "big-two"
    assert tutorial("trump").variant == "forty-five"


@pytest.mark.parametrize("name", ["whist", "", "BIG-TWO", "x" * 500, 7, None.__class__])
def test_a_name_without_a_tutorial_is_refused_naming_those_with_one(name: object) -> None:
    with pytest.raises(VariantError) as refused:
        tutorial(name)  # type: ignore[arg-type]
    said = str(refused.value)
    assert "tutorials are of big-two-4card, big-two" in said and "rummy" in said
    assert len(said) < 200


@pytest.mark.parametrize("variant", ALL)
def test_a_tutorial_is_one_deal_against_the_lessons_bots(variant: str) -> None:
    t = tutorial(variant)
    seats = t.seats()
    assert seats[SEAT] == HUMAN and seats.count(HUMAN) == 1
    assert set(seats) - {HUMAN} == {t.lesson.bots}
    assert len(seats) == t.game().players
    match = t.match()
    assert match.seed == t.lesson.seed
    again = t.match()
    first, second = match.next_deal(), again.next_deal()
    assert first.observation(SEAT) == second.observation(SEAT)  # the same deal every time
    bots = [parlour.bots.make_bot("greedy")] * len(seats)
    match.play_out(first, bots)
    assert match.is_over and len(match.deals) == 1


# -- the coach: each note once, in order ------------------------------------------------------


def test_the_coach_gives_the_intro_first_the_hint_at_the_first_turn_and_each_note_once() -> None:
    t = tutorial("rummy")
    coach = t.coach()
    state = t.match().next_deal()
    assert state.current_player == SEAT
    first = coach.follow(state.observation(SEAT), state.legal_actions())
    assert keys(first) == ["intro", "draw", "hint"]
    assert first[0] == Note("intro", t.lesson.title, t.lesson.intro)
    assert first[-1] == HINT
    assert coach.follow(state.observation(SEAT), state.legal_actions()) == []
    state.apply("draw stock")
    new = coach.follow(state.observation(SEAT), state.legal_actions())
    assert "hint" not in keys(new) and "intro" not in keys(new) and new
    assert keys(coach.notes) == keys(first) + keys(new)
    assert coach.to_dict() == {"title": "Rummy",
                               "notes": [n.to_dict() for n in coach.notes]}


def test_the_coach_gives_no_hint_note_before_the_seats_turn_and_the_end_once_over() -> None:
    t = tutorial("big-two")
    coach = Coach(t.lesson, SEAT)
    state = t.match().next_deal()
    seen: list[str] = []
    rng = random.Random(3)
    while not state.is_over:
        mine = state.current_player == SEAT
        new = keys(coach.follow(state.observation(SEAT), state.legal_actions()))
        if "hint" in new:
            assert mine
        assert "end" not in new and "scoring" not in new
        seen += new
        state.apply(rng.choice(state.legal_actions()))
    last = coach.follow(state.observation(SEAT), [])
    assert keys(last)[-2:] == ["scoring", "end"] and last[-1] == END
    assert len(seen + keys(last)) == len(set(seen + keys(last)))  # each once


def test_the_coach_follows_one_seat_only() -> None:
    t = tutorial("big-two")
    state = t.match().next_deal()
    with pytest.raises(ParlourError, match="follows seat 0, not 2"):
        t.coach().follow(state.observation(2), [])


def test_the_legal_moves_count_only_at_the_seats_turn() -> None:
    # A seat not to move is told nothing of moves, whatever it is handed.
    state = composed_big_two(["3D 5C 9H", "4D 6C KH", "7C 8C", "10C JC"])
    lesson = lesson_of("big-two")
    assert lesson is not None
    coach = Coach(lesson, 1)
    assert "hint" not in keys(coach.follow(state.observation(1), state.legal_actions()))


# -- climbing ---------------------------------------------------------------------------------


def test_climbing_notes_the_opening_card_to_its_holder_and_to_the_others() -> None:
    state = parlour.new_game("big-two").new_deal(seed=1)
    opener = state.current_player
    mine = notes_of(state, opener)
    assert mine["opening"].startswith("You hold the 3♦, the lowest card, so you open")
    assert "the first play must include 3♦" in mine["opening"]
    assert "order" in mine and "♦ < ♣ < ♥ < ♠" in mine["order"]
    other = notes_of(state, (opener + 1) % 4)
    assert other["opening"].startswith(f"P{opener} holds the 3♦")
    assert "order" not in other  # told at the seat's own first turn
    assert "lead" not in mine  # the opening is no free lead
    state.apply(state.legal_actions()[0])
    assert "opening" not in notes_of(state, opener)
    four = parlour.new_game("big-two-4card").new_deal(seed=1)
    assert "the first play is 3♦, played alone" in notes_of(four, four.current_player)["opening"]
    pusoy = parlour.new_game("pusoy-dos").new_deal(seed=1)
    said = notes_of(pusoy, pusoy.current_player)
    assert "the 3♣" in said["opening"] and "♣ < ♠ < ♥ < ♦" in said["order"]


def test_climbing_notes_beating_passing_control_and_leading() -> None:
    state = composed_big_two(["3D 5C 9H 2S", "4D 6C KH", "7C 8C", "10C JC"])
    assert set(notes_of(state, 0)) >= {"lead", "order"}
    assert "beat" not in notes_of(state, 0)
    state.apply("9H")
    beat = notes_of(state, 1)  # K♥ beats it
    assert "the 9♥" in beat["beat"] and "higher single" in beat["beat"]
    assert "cannot-beat" not in beat and "lead" not in beat
    state.apply("KH")
    cannot = notes_of(state, 2)  # 7♣ 8♣ do not beat the K♥
    assert "Nothing in your hand beats the K♥" in cannot["cannot-beat"]
    assert "beat" not in cannot
    for _ in range(3):
        state.apply("pass")
    control = notes_of(state, 1)
    assert control["control"].startswith("Everyone else passed on your play, so you have "
                                         "control")
    assert "lead" in control
    assert notes_of(state, 0)["control"].startswith("Everyone else passed on P1's play, so P1 "
                                                    "has control")
    assert "control" not in notes_of(composed_big_two(["3D", "4D", "5D", "6D"]), 0)


def test_climbing_notes_five_card_hands_and_a_last_card_when_they_arise() -> None:
    state = composed_big_two(["3D 4C 5H 6S 7D 9H", "8D 9C 10H JS QD", "2C 2H", "AC"])
    said = notes_of(state, 0)
    assert "straight < flush < full house < four of a kind" in said["five-card"]
    assert "P3 has one card left" in said["last-card"]
    assert "five-card" not in notes_of(state, 2)  # no five-card play in sight of it
    state.apply("3D 4C 5H 6S 7D")
    assert "five-card" in notes_of(state, 2)  # one is on the table now
    assert "you need a higher five-card hand" in notes_of(state, 1)["beat"]
    plain = composed_big_two(["3D 5C", "4D 6C", "7C 8C", "10C JC"])
    assert "five-card" not in notes_of(plain, 0) and "last-card" not in notes_of(plain, 0)


@pytest.mark.parametrize(("variant", "said"), [
    ("big-two", "penalty points for the cards they still hold"),
    ("big-two-4card", "taking a point for every card the others still hold"),
    ("pusoy-dos", "first place scores 3"),
])
def test_climbing_notes_the_scoring_once_the_deal_is_over(variant: str, said: str) -> None:
    state = parlour.new_game(variant).new_deal(seed=4)
    rng = random.Random(4)
    while not state.is_over:
        assert "scoring" not in notes_of(state, 0)
        state.apply(rng.choice(state.legal_actions()))
    assert said in notes_of(state, 0)["scoring"]


# -- trump ------------------------------------------------------------------------------------

FORTY_FIVE_HANDS = ["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S", "AS 4C 6C 8H KC"]


def forty_five() -> State:
    return parlour.new_game("forty-five").new_deal(hands=FORTY_FIVE_HANDS, turn_up="2S",
                                                   dealer=3)


def test_trump_notes_trumps_partners_and_robbing_to_the_ace_holder_alone() -> None:
    state = forty_five()
    robber = notes_of(state, 3)
    assert "the 2♠, makes spades trumps" in robber["trumps"]
    assert robber["partners"].startswith("You play with P1, your partner")
    assert "Three tricks score 5, four 5 and all five 10" in robber["partners"]
    assert robber["rob"].startswith("You hold the ace of trumps, so you may rob the turn-up")
    waiting = notes_of(state, 0)
    assert "rob" not in waiting  # nobody has robbed yet: who holds the ace is not told
    assert "pool" not in waiting
    state.apply("rob 4C")
    told = notes_of(state, 0)
    assert told["rob"].startswith("P3 robbed the trump")
    assert all("4♣" not in text for text in told.values())  # the discard stays hidden
    assert set(told) >= {"lead", "plain-order"}
    assert "follow" not in told and "trump-order" not in told and "trick" not in told


def test_trump_notes_following_suit_having_none_and_the_order_of_trumps() -> None:
    state = forty_five()
    for move in ("rob 4C", "8C"):
        state.apply(move)
    void = notes_of(state, 1)  # no club: anything goes
    assert void["void"].startswith("Clubs were led and you hold none")
    assert "follow" not in void and "trump-order" not in void
    state.apply("5D")
    state.apply("6S")  # the first trump on the table
    follow = notes_of(state, 3)  # holds 6C KC
    assert follow["follow"].startswith("Clubs were led and you hold some")
    assert "5♠ J♠ A♥ A♠ K♠ Q♠" in follow["trump-order"]
    assert "trump-order" in notes_of(state, 0)  # seen by everyone alike
    state.apply("KC")
    took = notes_of(state, 2)
    assert took["trick"].startswith("P2 took the first trick with the 6♠")
    assert "lead" in took
    state.apply("10S")
    assert "A trump was led" in notes_of(state, 3)["trump-lead"]


def test_spoil_five_notes_the_pool_and_no_partners() -> None:
    state = parlour.new_game("spoil-five").new_deal(hands=FORTY_FIVE_HANDS, turn_up="2S",
                                                    dealer=3)
    said = notes_of(state, 0)
    assert "takes the pool" in said["pool"] and "partners" not in said


@pytest.mark.parametrize("variant", ["forty-five", "spoil-five"])
def test_trump_notes_the_scoring_once_over(variant: str) -> None:
    state = parlour.new_game(variant).new_deal(seed=2)
    rng = random.Random(2)
    while not state.is_over:
        assert "scoring" not in notes_of(state, 0)
        state.apply(rng.choice(state.legal_actions()))
    assert "scoring" in notes_of(state, 0)


# -- rummy ------------------------------------------------------------------------------------


def test_rummy_notes_drawing_melding_discarding_and_going_out() -> None:
    state = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H", "2C 3D 4S"],
                                               stock="9C ...", discard="9D")
    draw = notes_of(state, 0)
    assert "the top discard, the 9♦" in draw["draw"]
    assert "meld" not in draw and "discard" not in draw
    assert "draw" not in notes_of(state, 1)
    state.apply("draw discard")
    play = notes_of(state, 0)
    assert set(play) >= {"meld", "discard"}
    assert "layoff" not in play and "go-out" not in play and "draw" not in play
    state.apply("meld 5H 6H 7H")
    out = notes_of(state, 0)
    assert "You can go out" in out["go-out"]
    assert "P0" not in out["go-out"]
    assert notes_of(state, 1)["their-meld"].startswith("Human has put cards down")
    state.apply("discard 9D")
    assert notes_of(state, 1)["scoring"].startswith("Human went out")


def test_rummy_notes_laying_off_where_a_card_fits_a_meld() -> None:
    state = parlour.new_game("rummy").new_deal(hands=["10S 2C 9D", "2D 3D 4S"], stock="KD ...",
                                               discard="5C", melds=["JS QS KS"],
                                               placed=["", "JS QS KS"])
    state.apply("draw stock")
    said = notes_of(state, 0)
    assert "You can lay off" in said["layoff"]
    assert "Computer 1 has put cards down" in said["their-meld"]
    assert "meld" not in said


# -- what a seat sees ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL)
def test_the_notes_are_the_same_in_every_world_the_seat_cannot_tell_apart(variant: str) -> None:
    """The coach reads the seat's observation and legal moves only: in a world dealt anew,
    consistent with what the seat sees, every note is the same."""
    rng = random.Random(variant)
    for seed in range(3):
        state = parlour.new_game(variant).new_deal(seed=seed)
        while not state.is_over:
            for seat in range(state.game.players):
                obs = state.observation(seat)
                world = obs.sample_state(rng)
                assert world.observation(seat) == obs
                assert notes_of(world, seat) == notes_of(state, seat)
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("variant", [lesson.variant for _, lesson in lessons()])
def test_the_lessons_deal_followed_by_its_hints_shows_the_notes_it_is_chosen_for(
        variant: str) -> None:
    """Each lesson's deal, played by the person following the hints at every turn (as the
    strongest level gives them): the notes its seed was chosen to show, each once."""
    t = tutorial(variant)
    session = TableSession(t.match(), t.seats(), interactive=False)
    coach = t.coach()
    state = session.start_deal()
    while True:
        legal = state.legal_actions() if state.current_player == SEAT else []
        coach.follow(state.observation(SEAT), legal)
        if state.is_over:
            break
        if session.bot_to_move():
            turn = session.bot_turn()
            session.apply_turn(turn, turn.think())
        else:
            session.play(SEAT, hint(state.observation(SEAT), legal).action)
    result = session.finish_deal()
    seen = keys(coach.notes)
    assert seen[0] == "intro" and seen[-1] == "end" and "hint" in seen
    assert len(seen) == len(set(seen))
    expected = {
        "climbing": {"opening", "order", "beat", "cannot-beat", "control", "lead", "five-card",
                     "last-card", "scoring"},
        "trump": {"trumps", "partners", "rob", "trump-order", "trump-lead", "follow", "lead",
                  "plain-order", "trick", "scoring"},
        "rummy": {"draw", "meld", "discard", "their-meld", "layoff", "go-out", "scoring"},
    }[family_of(variant).name]
    assert expected <= set(seen)
    assert SEAT in result.winners  # the person wins their first game
