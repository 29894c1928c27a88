"""The first-game tutorial at the web tables, through the real protocol: a tutorial table made
from its lesson, its person's updates carrying the coach's notes (followed from that seat's own
view, and no other seat's or spectator's), refusals of a request that is not one, a restart that
brings the notes back, a rematch that is a tutorial again, and no rating for practice."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.tutorial import SEAT, lesson_of, playable, tutorial
from parlour.web import create_app
from web_helpers import Session, close_all, create, game_of, join, play_deal


def new_tutorial(http: TestClient, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/tables", json={"tutorial": True, **body})
    assert answer.status_code == 201, answer.json()
    return dict(answer.json()["table"])


def sit(http: TestClient, table: dict[str, Any], name: str = "Ann") -> Session:
    return Session(http, table["id"], join(http, table["id"], SEAT, name)["token"])


def replayed_notes(table: dict[str, Any], record: dict[str, Any]) -> list[dict[str, str]]:
    """The notes a coach of the person's seat gives over the deal the record tells, followed
    from the seat's own observation after every event, as the table follows it."""
    game = game_of(table)
    lesson = lesson_of(game.name)
    assert lesson is not None
    coach = tutorial(game.name).coach()
    state = parlour.Match(game, record["seed"]).next_deal()

    def follow() -> None:
        mine = state.current_player == SEAT and not state.is_over
        coach.follow(state.observation(SEAT), state.legal_actions() if mine else [])

    follow()
    for _, action in record["deals"][0]["actions"]:
        state.apply(action)
        follow()
    return [note.to_dict() for note in coach.notes]


# -- the lobby ------------------------------------------------------------------------------------


def test_the_variants_say_which_have_a_tutorial_and_list_each_familys(http: TestClient) -> None:
    data = http.get("/api/variants").json()
    assert [v["name"] for v in data["variants"] if v["tutorial"]] == playable()
    offered = data["tutorials"]
    assert [t["family"] for t in offered] == ["climbing", "trump", "rummy"]
    for entry in offered:
        lesson = tutorial(entry["family"])
        assert entry == {"family": entry["family"], "variant": lesson.variant,
                         "title": lesson.lesson.title, "intro": lesson.lesson.intro}


@pytest.mark.parametrize(("name", "variant"), [
    (None, parlour.registry.default_variant().name), ("trump", "forty-five"),
    ("spoil-five", "spoil-five"), ("rummy", "rummy")])
def test_a_tutorial_table_is_its_lessons_deal_seats_and_bots(http: TestClient, name: str | None,
                                                            variant: str) -> None:
    table = new_tutorial(http, **({} if name is None else {"variant": name}))
    lesson = tutorial(variant)
    assert table["variant"] == variant and table["tutorial"] is True
    assert table["options"] == lesson.game().option_values()
    assert table["seeded"] is True and table["seed"] == lesson.lesson.seed
    assert table["turn_timeout"] is None and table["status"] == "waiting"
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["bot"] * (table["players"] - 1)
    assert {s["bot"] for s in table["seats"][1:]} == {lesson.lesson.bots}
    # An ordinary table says it is none.
    plain = create(http, "big-two", seed=3)
    assert plain["tutorial"] is False
    assert http.post("/api/tables", json={"variant": "rummy", "tutorial": False}).json()[
        "table"]["tutorial"] is False


@pytest.mark.parametrize(("body", "said"), [
    ({"tutorial": "yes"}, "'tutorial' must be true or false"),
    ({"tutorial": 1}, "'tutorial' must be true or false"),
    ({"tutorial": None}, "'tutorial' must be true or false"),
    ({"tutorial": [True]}, "'tutorial' must be true or false"),
    ({"tutorial": True, "variant": "whist"}, "there is no tutorial of 'whist': tutorials are of"),
    ({"tutorial": True, "variant": "x" * 5000}, "there is no tutorial of that"),
    ({"tutorial": True, "variant": 5}, "'variant' must name a variant or a family"),
    ({"tutorial": True, "variant": ["rummy"]}, "'variant' must name a variant or a family"),
    ({"tutorial": True, "variant": {"name": "rummy"}}, "'variant' must name a variant or a"),
    ({"tutorial": True, "variant": "rummy", "players": 3}, "give it 'variant' alone, not players"),
    ({"tutorial": True, "seed": 5}, "give it 'variant' alone, not seed"),
    ({"tutorial": True, "options": {"deals": 9}, "seats": []}, "not options, seats"),
    ({"tutorial": True, "turn_timeout": 30}, "not turn_timeout"),
    ({"tutorial": True, "stand_in": "random"}, "not stand_in"),
    ({"tutorial": True, "lesson": 2}, "unknown field(s): lesson"),
])
def test_a_request_that_is_no_tutorial_is_refused_saying_why(http: TestClient,
                                                             body: dict[str, Any],
                                                             said: str) -> None:
    before = http.get("/api/tables").json()["total"]
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.json()
    assert said in answer.json()["error"]
    assert len(answer.json()["error"]) < 300
    assert http.get("/api/tables").json()["total"] == before


# -- the person's notes -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["big-two", "forty-five", "rummy"])
def test_the_persons_updates_carry_the_coachs_notes_and_no_one_elses(http: TestClient,
                                                                    variant: str) -> None:
    table = new_tutorial(http, variant=variant)
    watcher = Session(http, table["id"])
    me = sit(http, table)
    first = me.view["tutorial"]
    assert first["title"] == tutorial(variant).lesson.title
    assert first["notes"][0]["key"] == "intro"
    counts = [len(first["notes"])]
    final = play_deal([me], game_of(table), watchers=[watcher])
    counts += [len(m["view"]["tutorial"]["notes"]) for m in me.messages if m["type"] == "update"]
    assert counts == sorted(counts) and counts[-1] > counts[0]  # notes come, and never go
    seen = [m["view"] for m in watcher.messages if m["type"] == "update"]
    assert seen and all(view["tutorial"] is None for view in seen)  # never to a spectator
    assert final["deal_over"] and final["result"]["match_over"]
    notes = final["tutorial"]["notes"]
    assert [n["key"] for n in notes][-1] == "end"
    record = http.get(f"/api/tables/{table['id']}/record").json()
    # Exactly the notes of a coach that saw what the seat saw, event by event.
    assert notes == replayed_notes(table, record)


def test_an_ordinary_tables_views_carry_no_notes(http: TestClient) -> None:
    table = create(http, "rummy", seed=2)
    me = Session(http, table["id"], join(http, table["id"], 0, "Bo")["token"])
    assert me.view["tutorial"] is None
    assert "tutorial" in me.view


def test_a_restart_brings_a_tutorials_notes_back_as_they_were(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, advice_level="medium")) as http:
        table = new_tutorial(http, variant="forty-five")
        joined = join(http, table["id"], SEAT, "Ann")
        me = Session(http, table["id"], joined["token"])
        game = game_of(table)
        for _ in range(2):  # two of the person's moves, the bots answering
            while not me.view["your_turn"]:
                me.receive_until(lambda m: m["type"] == "update")
            version = me.update["version"]
            me.send({"type": "action", "action": me.view["legal"][0]["action"]})
            me.receive_until(lambda m, v=version: m["type"] == "update" and m["version"] > v)
        while not me.view["your_turn"]:
            me.receive_until(lambda m: m["type"] == "update")
        before = me.view
        assert len(before["tutorial"]["notes"]) > 3
        close_all()
    with TestClient(create_app(db, bot_delay=0, advice_level="medium")) as http:
        back = Session(http, table["id"], joined["token"])
        assert back.view == before  # the notes too, in their order
        assert http.get(f"/api/tables/{table['id']}").json()["table"]["tutorial"] is True
        final = play_deal([back], game)
        assert final["tutorial"]["notes"][-1]["key"] == "end"
        close_all()


def test_a_rematch_of_a_tutorial_is_the_tutorial_again(http: TestClient) -> None:
    table = new_tutorial(http, variant="rummy")
    me = sit(http, table)
    play_deal([me], game_of(table))
    answer = http.post(f"/api/tables/{table['id']}/rematch",
                       headers={"Authorization": f"Bearer {me.token}"})
    assert answer.status_code == 201, answer.json()
    again = answer.json()["table"]
    assert again["tutorial"] is True and again["seed"] == table["seed"]
    assert again["seats"][SEAT]["name"] == "Ann" and answer.json()["seat"] == SEAT
    fresh = Session(http, again["id"], answer.json()["token"])
    assert fresh.view["tutorial"]["notes"][0]["key"] == "intro"
    assert fresh.view["hand"] == me.messages[1]["view"]["hand"]  # the same deal


def test_a_tutorial_is_practice_and_not_rated(http: TestClient) -> None:
    made = http.post("/api/profiles", json={"name": "Cy"}).json()
    table = new_tutorial(http, variant="big-two")
    joined = http.post(f"/api/tables/{table['id']}/join",
                       json={"seat": SEAT, "name": "", "profile": made["key"]}).json()
    me = Session(http, table["id"], joined["token"])
    play_deal([me], game_of(table))
    assert http.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "finished"
    page = http.get(f"/api/profiles/{made['profile']['id']}").json()
    assert page["ratings"] == [] and page["matches"] == []
