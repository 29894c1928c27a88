"""A web table's seats on their own (parlour.web.seating): tokens, taking and handing on seats,
who plays each seat, and what the table calls its seats change by change."""

from __future__ import annotations

import pytest

from parlour.registry import new_game
from parlour.web.messages import WebError
from parlour.web.seating import NAME_LIMIT, Seat, Seating, checked_bot, requested_seats
from parlour.web.store import hash_token

FULL = "table t is full: every seat is taken"


def seating(*kinds: str, owner: str | None = None) -> Seating:
    """A Big Two table's seats: "human" (free) or a bot's name, by seat."""
    seats = [Seat(n, "human", None, "", None) if kind == "human" else Seat(n, "bot", kind, kind, None)
             for n, kind in enumerate(kinds)]
    return Seating(new_game("big-two"), seats, None if owner is None else hash_token(owner))


def test_a_token_finds_its_seat_and_only_its_hash_is_kept() -> None:
    seats = seating("human", "human", "greedy", "greedy")
    ann = seats.take(seats.choose(None, FULL), "Ann", 0)
    bob = seats.take(seats.choose(None, FULL), "Bob", 0)
    assert (seats.seat_of(ann), seats.seat_of(bob)) == (0, 1)
    assert seats.seats[0].token_hash == hash_token(ann) != ann
    with pytest.raises(WebError, match="that token holds no seat at this table") as e:
        seats.seat_of(ann + "x")
    assert e.value.status == 401
    with pytest.raises(WebError, match=r"a token .* is required") as e:
        seats.seat_of(None)
    assert e.value.status == 401


def test_choosing_a_seat() -> None:
    seats = seating("greedy", "human", "human", "greedy")
    assert seats.choose(None, FULL) == 1  # the first free one
    assert seats.choose(3, FULL) == 3  # checked to be a seat; whose it is, later
    for wrong in (4, -1, True, "1", 1.0):
        with pytest.raises(WebError, match="is not a seat of this table: seats are 0 to 3"):
            seats.choose(wrong, FULL)
    seats.take(1, "Ann", 0)
    seats.take(2, "Bob", 0)
    with pytest.raises(WebError, match=FULL) as e:
        seats.choose(None, FULL)
    assert e.value.status == 409


def test_taking_a_seat_refuses_a_bots_a_taken_one_and_a_bad_name() -> None:
    seats = seating("human", "greedy", "human", "human")
    with pytest.raises(WebError, match="seat 1 is a bot's seat"):
        seats.take(1, "Ann", 0)
    for name in ("x" * (NAME_LIMIT + 1), "a\nb", 7):
        with pytest.raises(WebError, match=f"a name is printable text of at most {NAME_LIMIT}"):
            seats.take(0, name, 0)
    assert seats.seats[0].token_hash is None  # nothing taken by a refusal
    seats.take(0, None, 2)
    assert (seats.seats[0].name, seats.seats[0].sits_from) == ("Player 0", 2)
    with pytest.raises(WebError, match="seat 0 is already taken") as e:
        seats.take(0, "Bob", 0)
    assert e.value.status == 409
    seats.take(2, "", 0)
    assert seats.seats[2].name == "Player 2" and not seats.all_taken() and seats.any_taken()
    seats.take(3, "x" * NAME_LIMIT, 0)
    assert seats.all_taken()


def test_who_plays_a_seat() -> None:
    seats = seating("human", "greedy", "human", "human")
    assert [seats.player(s, 1) for s in range(4)] == ["stand-in", "bot", "stand-in", "stand-in"]
    seats.take(0, "Ann", 0)
    seats.take(2, "Bob", 3)  # sat down during deal 2: plays from deal 3
    assert [seats.player(s, 2) for s in range(4)] == ["person", "bot", "stand-in", "stand-in"]
    assert seats.player(2, 3) == "person" and seats.plays(2, 3) and not seats.plays(2, 2)
    assert seats.mark_away(0, True) and not seats.mark_away(0, True)
    assert seats.player(0, 2) == "stand-in" and seats.plays(0, 2)  # away: still theirs
    assert seats.mark_away(0, False) and seats.player(0, 2) == "person"


def test_only_the_owner_hands_on_only_an_absent_persons_seat() -> None:
    seats = seating("human", "greedy", "human", "human", owner="own")
    for token in (None, "other", hash_token("own")):
        with pytest.raises(WebError, match="only the table's creator") as e:
            seats.check_owner(token)
        assert e.value.status == 403
    seats.check_owner("own")
    with pytest.raises(WebError, match="seat 1 is a bot's seat") as e:
        seats.check_absent(1)
    assert e.value.status == 409
    seats.take(0, "Ann", 0)
    seats.connected(0, 1)
    with pytest.raises(WebError, match="Ann is connected: only an absent player's seat"):
        seats.check_absent(0)
    seats.connected(0, -1)
    seats.check_absent(0)
    seats.free(0)
    assert seats.seats[0].token_hash is None and seats.seats[0].name == ""
    with pytest.raises(WebError, match="seat 0 is free already"):
        seats.free(0)
    seats.seat_bot(2, "random")
    assert seats.player(2, 1) == "bot" and seats.request()[2] == {"kind": "bot", "bot": "random"}
    assert seats.seats[2].row().kind == "bot"


def test_seats_sharing_a_name_are_numbered() -> None:
    seats = seating("human", "greedy", "human", "greedy")
    assert seats.labels() == ("P0", "greedy 1", "P2", "greedy 3")
    seats.take(0, "Ann", 0)
    seats.take(2, "Ann", 0)
    assert seats.labels() == ("Ann 0", "greedy 1", "Ann 2", "greedy 3")
    assert [s["display"] for s in seats.info(1)] == list(seats.labels())
    assert [s["label"] for s in seats.info(1)] == ["P0", "P1", "P2", "P3"]


def test_the_names_are_kept_change_by_change() -> None:
    seats = seating("human", "greedy", "greedy", "greedy")
    # Before the first event nothing is stored: the seats say the names.
    seats.take(0, "Ann", 0)
    assert seats.rename(0) == []
    assert seats.names_at(1) == ("Ann", "greedy 1", "greedy 2", "greedy 3")
    assert seats.rename(5) == []  # nothing changed
    seats.free(0)
    seats.take(0, "Bob", 6)
    # The first change once the match has begun stores the whole history...
    assert seats.rename(5) == [(1, ("Ann", "greedy 1", "greedy 2", "greedy 3")),
                               (6, ("Bob", "greedy 1", "greedy 2", "greedy 3"))]
    assert seats.names_at(5)[0] == "Ann" and seats.names_at(6)[0] == "Bob"
    # ...and each later one only itself; a change at the same event replaces it.
    seats.seat_bot(0, "random")
    assert seats.rename(5) == [(6, ("random", "greedy 1", "greedy 2", "greedy 3"))]
    assert seats.latest_names()[0] == "random" and seats.names_at(99)[0] == "random"
    again = seating("human", "greedy", "greedy", "greedy")
    again.restore_names([(1, ["A", "B", "C", "D"]), (4, ["E", "B", "C", "D"])])
    assert again.names_at(3) == ("A", "B", "C", "D") and again.names_at(4)[0] == "E"


def test_a_lobby_requests_seats_and_bots_by_name() -> None:
    game = new_game("big-two")
    seats = requested_seats(None, game)
    assert [(s.kind, s.bot_name) for s in seats] == [("human", None)] + [("bot", "greedy")] * 3
    with pytest.raises(WebError, match="'seats' must list the 4 seats"):
        requested_seats([{"kind": "human"}], game)
    with pytest.raises(WebError, match="seat 2: the kind must be \"human\" or \"bot\", not 'x'"):
        requested_seats([{"kind": "human"}] * 2 + [{"kind": "x"}, {"kind": "human"}], game)
    with pytest.raises(WebError, match=r"^seat 1: unknown bot 5; the bots are: "):
        requested_seats([{"kind": "human"}, {"kind": "bot", "bot": 5}] + [{"kind": "human"}] * 2,
                        game)
    with pytest.raises(WebError, match=r"^the stand-in: unknown bot 'x+…; the bots are"):
        checked_bot("x" * 101, game, "the stand-in: ")
    assert checked_bot("greedy", game) == "greedy"
