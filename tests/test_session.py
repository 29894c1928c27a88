"""The table session every front end adapts: turns, refusals, stale answers, deal results, the
record; and the one "play a deal" helper."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.bots import make_bot
from parlour.errors import IllegalAction, ParlourError, SeatError
from parlour.play import play_out
from parlour.records import load, resume_match
from parlour.session import HUMAN, TableSession


def session_at_human_turn(variant: str = "big-two", seed: int = 1) -> TableSession:
    match = parlour.new_game(variant).new_match(seed=seed)
    players = match.game.players
    session = TableSession(match, [HUMAN] + ["greedy"] * (players - 1), interactive=False)
    session.start_deal()
    while session.bot_to_move():
        turn = session.bot_turn()
        assert session.apply_turn(turn, turn.think())
    return session


def test_a_person_plays_only_on_their_turn_and_only_legal_moves() -> None:
    session = session_at_human_turn()
    state = session.state
    assert state is not None and session.to_move() == 0
    before = state.clone()
    with pytest.raises(ParlourError, match="turn"):
        session.play(1, state.legal_actions()[0])
    with pytest.raises(IllegalAction):
        session.play(0, "2S 2S 2S")  # not a play of this hand
    assert state.history == before.history and state.observation(0) == before.observation(0)
    played = session.play(0, str(state.legal_actions()[-1]))
    assert state.history[-1] == (0, played)


def test_a_bot_answer_for_a_position_the_table_left_is_dropped() -> None:
    session = session_at_human_turn()
    session.play(0, session.state.legal_actions()[0])
    turn = session.bot_turn()
    answer = turn.think()
    assert session.apply_turn(turn, answer)
    steps = len(session.state.history)
    assert not session.apply_turn(turn, answer)  # the same answer again: the table moved on
    assert len(session.state.history) == steps


def test_a_bot_turn_sees_its_own_observation_and_the_position_generator() -> None:
    session = session_at_human_turn()
    session.play(0, session.state.legal_actions()[0])
    turn = session.bot_turn()
    state = session.state
    assert state is not None
    assert turn.observation == state.observation(turn.seat)
    assert turn.rng.random() == session.match.bot_rng().random()
    with pytest.raises(ParlourError, match="person"):
        session_at_human_turn().bot_turn()  # the person's turn: no bot to play it


def test_hints_are_for_the_turn_and_repeat_exactly() -> None:
    session = session_at_human_turn()
    first = session.hint_turn(0, "medium").advise()
    assert first == session.hint_turn(0, "medium").advise()
    with pytest.raises(ParlourError, match="your turn"):
        session.hint_turn(2, "medium")
    with pytest.raises(ParlourError, match="greedy does not search"):
        session.hint_turn(0, "greedy")


@pytest.mark.parametrize(("variant", "laid_down"), [
    ("big-two-4card", True), ("rummy", True), ("forty-five", False)])
def test_a_deal_ends_with_its_result_and_the_hands_the_rules_lay_down(
        variant: str, laid_down: bool) -> None:
    match = parlour.new_game(variant).new_match(seed=3)
    session = TableSession(match, ["random"] * match.game.players, interactive=False)
    state = session.start_deal()
    with pytest.raises(ParlourError, match="not over"):
        session.finish_deal()
    while session.bot_to_move():
        turn = session.bot_turn()
        session.apply_turn(turn, turn.think())
    result = session.finish_deal()
    assert result.number == 1 and result.returns == tuple(state.returns())
    assert result.totals == tuple(match.totals)
    assert result.summary == state.observation(1).view().result
    if laid_down:
        zones = state.zones()
        assert result.hands == tuple(tuple(zones[f"P{s}"]) for s in range(match.game.players))
    else:
        assert result.hands is None


def test_the_record_names_the_seats_and_resumes_where_it_stopped(tmp_path) -> None:
    session = session_at_human_turn("forty-five", seed=4)
    path = tmp_path / "m.json"
    assert session.save(path) == path and session.save_path == path
    record = load(path)
    assert record["seats"] == [HUMAN, "greedy", "greedy", "greedy"]
    resumed = resume_match(record)
    assert resumed.current is not None
    assert resumed.current.observation(0) == session.state.observation(0)


def test_a_seat_handed_to_a_bot_is_played_by_it() -> None:
    session = session_at_human_turn()
    with pytest.raises(ParlourError):
        session.seat_bot(0, "no-such-bot")
    assert session.seats[0] == HUMAN
    session.seat_bot(0, "greedy")
    assert session.bot_to_move() and session.seats[0] == "greedy" and session.humans() == []


def test_the_seats_must_fit_the_game() -> None:
    with pytest.raises(SeatError):
        TableSession(parlour.new_game("big-two").new_match(seed=1), [HUMAN, "greedy"])


def test_play_out_takes_one_generator_one_per_seat_or_one_per_decision() -> None:
    game = parlour.new_game("big-two")
    bots = [make_bot("random")] * 4
    one = play_out(game.new_deal(seed=5), bots, random.Random(7))
    again = play_out(game.new_deal(seed=5), bots, random.Random(7))
    assert one.history == again.history and one.is_over
    per_seat = play_out(game.new_deal(seed=5), bots, [random.Random(s) for s in range(4)])
    assert per_seat.is_over and per_seat.history != one.history
    fresh = play_out(game.new_deal(seed=5), bots, lambda: random.Random(7))
    assert fresh.is_over
    with pytest.raises(SeatError):
        play_out(game.new_deal(seed=5), bots[:3], random.Random(7))


def test_statistics_that_cannot_be_saved_do_not_stop_the_game(tmp_path) -> None:
    from parlour.stats import PlayerStats

    (tmp_path / "stats.json.part").mkdir()  # where the file is written first: a folder
    stats = PlayerStats(tmp_path / "stats.json")
    assert stats.problem is None
    match = parlour.new_game("big-two-4card", deals=1).new_match(seed=2)
    session = TableSession(match, [HUMAN, "greedy", "greedy", "greedy"], interactive=False,
                           stats=stats)
    state = session.start_deal()
    while not state.is_over:
        if session.bot_to_move():
            turn = session.bot_turn()
            session.apply_turn(turn, turn.think())
        else:
            session.play(0, state.legal_actions()[0])
    assert session.finish_deal().match_over
    assert stats.problem is not None and "cannot save the statistics" in stats.problem
