"""Profiles and people's ratings at the web tables: a profile is kept across a restart and
carried to another device by its key; a finished match rates every seat held with one, bots
at their fixed ratings; the leaderboard and a person's page show it; a deleted profile's name
leaves the records. Hostile input for every route is refused with a clear error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.web import create_app
from parlour.web.people import ANCHORS, FORMER, People, Seated, profile_id
from parlour.web.store import Store
from web_helpers import (
    SHORT,
    Session,
    cards_named,
    create,
    game_of,
    hidden_from,
    play_deal,
)


def new_profile(http: TestClient, name: str) -> tuple[dict[str, Any], str]:
    answer = http.post("/api/profiles", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["profile"], answer.json()["key"]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def play_match(http: TestClient, key: str | None, variant: str = "big-two-4card",
               bot: str = "greedy", name: str = "") -> dict[str, Any]:
    """A match of one deal between a person (seat 0, with the profile of ``key``) and bots,
    played to its end by greedy's choices; the table's info at the end."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * 3
    table = create(http, variant, seats, seed=5, **SHORT[variant])
    body: dict[str, Any] = {"seat": 0, "name": name}
    if key is not None:
        body["profile"] = key
    joined = http.post(f"/api/tables/{table['id']}/join", json=body)
    assert joined.status_code == 200, joined.text
    session = Session(http, table["id"], joined.json()["token"])
    play_deal([session], game_of(table))
    session.close()
    return dict(http.get(f"/api/tables/{table['id']}").json()["table"])


def test_a_profile_is_a_name_and_a_key_that_only_its_holder_has(http: TestClient) -> None:
    profile, key = new_profile(http, "Ann")
    assert profile == {"id": profile_id(key), "name": "Ann"} and len(key) >= 32
    assert http.get("/api/profiles/me", headers=bearer(key)).json()["profile"] == profile
    renamed = http.patch("/api/profiles/me", json={"name": "Ann B."}, headers=bearer(key))
    assert renamed.json()["profile"] == {**profile, "name": "Ann B."}
    # The public page names the person; it never shows the key.
    page = http.get(f"/api/profiles/{profile['id']}")
    assert page.json()["profile"]["name"] == "Ann B." and key not in page.text
    # Another key, or none, is nobody.
    for headers in ({}, bearer("x" * 32), bearer(key[:-1] + ("A" if key[-1] != "A" else "B"))):
        refused = http.get("/api/profiles/me", headers=headers)
        assert refused.status_code == 401, refused.text


def test_a_profile_is_kept_across_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as http:
        profile, key = new_profile(http, "Bo")
    with TestClient(create_app(db, bot_delay=0)) as http:
        assert http.get("/api/profiles/me", headers=bearer(key)).json()["profile"] == profile


def test_a_finished_match_rates_the_profiles_against_the_bots_fixed_ratings(
        http: TestClient) -> None:
    profile, key = new_profile(http, "Cy")
    table = play_match(http, key, bot="easy")
    assert table["status"] == "finished"
    assert table["seats"][0]["profile"] == profile["id"] and table["seats"][0]["name"] == "Cy"
    page = http.get(f"/api/profiles/{profile['id']}").json()
    [rating] = page["ratings"]
    assert rating["variant"] == "big-two-4card" and rating["matches"] == 1
    assert rating["sigma"] < 25 / 3  # a match taught the rating something
    [match] = page["matches"]
    assert match["table"] == table["id"] and match["players"] == 4
    assert 1 <= match["place"] <= 4 and match["rating"] == rating["rating"]
    # The leaderboard ranks the person beside the bots' fixed ratings, which no match moves.
    board = http.get("/api/leaderboard/big-two-4card").json()
    assert [p["id"] for p in board["people"]] == [profile["id"]]
    assert {b["bot"]: b["rating"] for b in board["bots"]} == {
        name: round(mu - 3.0, 2) for name, mu in ANCHORS.items()}
    # A second match moves the rating on from the first.
    play_match(http, key, bot="easy")
    again = http.get(f"/api/profiles/{profile['id']}").json()
    assert again["ratings"][0]["matches"] == 2 and len(again["matches"]) == 2
    assert again["ratings"][0]["sigma"] < rating["sigma"]


def test_a_match_without_a_profile_rates_nobody(http: TestClient) -> None:
    play_match(http, None, name="Dee")
    assert http.get("/api/leaderboard/big-two-4card").json()["people"] == []


def test_winning_rates_higher_than_losing(tmp_path: Path) -> None:
    people = People(Store(f"sqlite:///{tmp_path / 'p.sqlite'}"))
    import parlour

    game = parlour.new_game("big-two-4card")
    (first, _), (second, _) = people.create("Win"), people.create("Lose")
    people.rate("t1", game, [Seated(0, first.id, None, 10.0), Seated(1, None, "expert", 0.0),
                             Seated(2, second.id, None, -10.0), Seated(3, None, "random", -5.0)])
    won, lost = (people.store.ratings(p.id)[0] for p in (first, second))
    assert won.mu > 25 > lost.mu
    # The bots' ratings are fixed: nothing of theirs is kept.
    assert [r.profile for r in people.store.leaderboard("big-two-4card", 10)] == [
        first.id, second.id]


def test_deleting_a_profile_takes_its_name_out_of_the_records(http: TestClient) -> None:
    profile, key = new_profile(http, "Eve")
    table = play_match(http, key)
    record = http.get(f"/api/tables/{table['id']}/record").json()
    assert record["seats"][0]["name"] == "Eve"
    assert http.delete("/api/profiles/me", headers=bearer(key)).json() == {"deleted": True}
    assert http.get("/api/profiles/me", headers=bearer(key)).status_code == 401
    assert http.get(f"/api/profiles/{profile['id']}").status_code == 404
    assert http.get("/api/leaderboard/big-two-4card").json()["people"] == []
    # The match is kept, its seat unnamed, in the record served, the database's and the seats.
    kept = http.get(f"/api/tables/{table['id']}/record").json()
    assert kept["seats"][0]["name"] == FORMER and "Eve" not in str(kept)
    store: Store = http.app.state.store  # type: ignore[attr-defined]
    row = store.table(table["id"])
    assert row is not None and row.record is not None
    assert row.record["seats"][0]["name"] == FORMER
    assert row.record["seats"][0]["profile"] is None
    assert store.seats(table["id"])[0].name == FORMER


@pytest.mark.parametrize("body, message", [
    ([], "must be a JSON object"),
    ({}, "a name is printable text of 1 to 40 characters"),
    ({"name": ""}, "a name is printable text"),
    ({"name": "   "}, "a name is printable text"),
    ({"name": "x" * 41}, "a name is printable text"),
    ({"name": "a\nb"}, "a name is printable text"),
    ({"name": 7}, "a name is printable text"),
    ({"name": ["Ann"]}, "a name is printable text"),
])
def test_a_bad_profile_is_refused(http: TestClient, body: object, message: str) -> None:
    answer = http.post("/api/profiles", json=body)
    assert answer.status_code == 400 and message in answer.json()["error"], answer.text
    _, key = new_profile(http, "Fay")
    answer = http.patch("/api/profiles/me", json=body, headers=bearer(key))
    assert answer.status_code == 400 and message in answer.json()["error"], answer.text
    assert http.get("/api/profiles/me", headers=bearer(key)).json()["profile"]["name"] == "Fay"


@pytest.mark.parametrize("key", ["", "short", "x" * 5000, "é" * 32, None, 7, ["a"], {"k": 1}])
def test_joining_with_a_key_that_is_no_profile_is_refused(http: TestClient, key: object) -> None:
    table = create(http, "big-two-4card", [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3)
    answer = http.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "profile": key})
    if key is None:  # no profile: an ordinary seat
        assert answer.status_code == 200, answer.text
        return
    assert answer.status_code == 401 and "that key is no profile's" in answer.json()["error"]
    assert not http.get(f"/api/tables/{table['id']}").json()["table"]["seats"][0]["taken"]


def test_unknown_pages_are_not_found(http: TestClient) -> None:
    assert http.get("/api/profiles/0123456789abcdef").status_code == 404
    assert http.get("/api/profiles/" + "x" * 500).status_code == 404
    assert http.get("/api/leaderboard/big-three").status_code == 404
    assert http.put("/api/profiles/me").status_code == 405


# -- replays --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["big-two-4card", "forty-five", "rummy"])
def test_a_replay_shows_the_viewer_only_what_their_seat_saw(http: TestClient,
                                                            variant: str) -> None:
    _, key = new_profile(http, "Gil")
    table = play_match(http, key, variant=variant) if variant != "rummy" else None
    if table is None:  # Rummy: two seats
        table = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
                       seed=5)
        joined = http.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "profile": key})
        session = Session(http, table["id"], joined.json()["token"])
        play_deal([session], game_of(table))
        session.close()
        table = http.get(f"/api/tables/{table['id']}").json()["table"]
        assert table["status"] == "finished"  # a match of one deal
    answer = http.get(f"/api/tables/{table['id']}/replay/1", headers=bearer(key))
    assert answer.status_code == 200, answer.text
    replay = answer.json()
    state = http.app.state.tables.get(table["id"]).match.deals[0]  # type: ignore[attr-defined]
    assert replay["seat"] == 0 and replay["deal"] == 1
    assert len(replay["frames"]) == len(state.history) + 1
    shown = state.game.new_deal(**state.setup())
    for frame, (seat, action) in zip(replay["frames"], [(None, None), *state.history],
                                     strict=True):
        if action is not None:
            shown.apply(action)
            assert frame["move"]["seat"] == seat and frame["move"]["mine"] == (seat == 0)
            assert frame["move"]["action"] == (str(action) if seat == 0 else None)
        # Every frame is the seat's own view then: no card it could not see.
        assert not cards_named(frame) & {str(c) for c in hidden_from(shown, 0)}, frame["move"]
        assert frame["hand"] == [str(c) for c in shown.observation(0).hand]
    # At the end, what the rules lay down (the result) for everyone.
    assert replay["end"]["result"] == list(state.returns())


def test_a_replay_is_for_its_players_of_a_finished_match(http: TestClient) -> None:
    _, key = new_profile(http, "Hal")
    _, stranger = new_profile(http, "Ivy")
    table = play_match(http, key)
    path = f"/api/tables/{table['id']}/replay"
    refusals = [
        (http.get(f"{path}/1"), 401, "that key is no profile's"),
        (http.get(f"{path}/1", headers=bearer("x" * 40)), 401, "that key is no profile's"),
        (http.get(f"{path}/1", headers=bearer(stranger)), 403, "your own matches"),
        (http.get(f"{path}/2", headers=bearer(key)), 400, "from 1 to 1"),
        (http.get(f"{path}/0", headers=bearer(key)), 400, "from 1 to 1"),
        (http.get("/api/tables/t-nope/replay/1", headers=bearer(key)), 404, "no table"),
        (http.post(f"{path}/1/review", headers=bearer(stranger)), 403, "your own matches"),
        (http.post(f"{path}/3/review", headers=bearer(key)), 400, "from 1 to 1"),
    ]
    for answer, status, message in refusals:
        assert answer.status_code == status and message in answer.json()["error"], answer.text
    assert http.get(f"{path}/x", headers=bearer(key)).status_code == 404
    # A match that goes on is not replayed.
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3
    running = create(http, "big-two-4card", seats, seed=5, **SHORT["big-two-4card"])
    http.post(f"/api/tables/{running['id']}/join", json={"seat": 0, "profile": key})
    answer = http.get(f"/api/tables/{running['id']}/replay/1", headers=bearer(key))
    assert answer.status_code == 409 and "goes on" in answer.json()["error"]


def test_a_replay_brings_the_review_of_the_viewers_own_moves(http: TestClient) -> None:
    _, key = new_profile(http, "Jo")
    table = play_match(http, key)
    replay = http.get(f"/api/tables/{table['id']}/replay/1", headers=bearer(key)).json()
    mine = {f["move"]["step"] for f in replay["frames"] if f["move"] and f["move"]["mine"]}
    review = http.post(f"/api/tables/{table['id']}/replay/1/review", headers=bearer(key))
    assert review.status_code == 200, review.text
    judged = review.json()
    assert judged["deal"] == 1 and judged["level"] == "medium"
    # Each judgement is of one of the viewer's own moves with a choice (never another seat's).
    assert judged["decisions"] and {d["move"] for d in judged["decisions"]} <= mine
    again = http.post(f"/api/tables/{table['id']}/replay/1/review", headers=bearer(key))
    assert again.json() == judged  # worked out once
