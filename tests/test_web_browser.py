"""The web table in a real browser: Debian's chromium driven by Playwright against a real server.

A uvicorn server runs the app in a thread on a free loopback port with a temporary SQLite
database and no pause before bot moves. Every move is made the way a player makes it: by
clicking cards in the hand and a verb button. The moves are chosen by reading the page (the
legal moves the table carries in ``#actions[data-legal]``), never by asking the engine. Each
family's table is saved as a screenshot under ``test-artifacts/``.

chromium is installed by ``scripts/install-chromium.sh`` (``make test`` runs it); without it these
tests fail, saying so.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from parlour.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
#: Waits for the page (milliseconds): generous, so that a busy machine never fails a test.
WAIT = 20_000
#: Most moves one seat makes in a test's deal; more means the page is stuck in a loop.
MAX_MOVES = 200

Move = dict[str, Any]


# -- the server and the browser -----------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web table's base URL, served by uvicorn in a thread."""
    database = tmp_path_factory.mktemp("web-browser") / "tables.sqlite"
    app = create_app(f"sqlite:///{database}", bot_delay=0)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the web server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/install-chromium.sh (make test does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages in fresh browser contexts (each its own localStorage: its own player). A script
    error, or an error in the console (a failed request …), on any page fails the test."""
    contexts = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(**options)
        context.set_default_timeout(WAIT)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def save_screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


# -- driving the page like a player -------------------------------------------------------------


def create_table(page: Page, base: str, variant: str, seats: list[str], *,
                 options: dict[str, str] | None = None, seed: int = 1, name: str = "Ann") -> str:
    """Fill the lobby's form and create a table; ``seats`` are the seat selects' values
    (``you``, ``human``, ``bot:greedy`` …). Returns the table's id."""
    page.goto(f"{base}/#/")
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#player-name", name)
    page.select_option("#variant", variant)
    if page.locator("#players").is_enabled():
        page.select_option("#players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    for option, value in (options or {}).items():
        page.fill(f"#opt-{option}", value)
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector("#table-view[data-version]")
    return page.url.rsplit("/", 1)[1]


def attr(page: Page, name: str) -> str | None:
    return page.get_attribute("#table-view", name)


def legal_moves(page: Page) -> list[Move]:
    moves: list[Move] = json.loads(page.get_attribute("#actions", "data-legal") or "[]")
    return moves


def wait_for_turn(page: Page) -> bool:
    """Wait until this seat is to move (True) or the deal is over (False)."""
    page.wait_for_selector('#table-view[data-your-turn="true"], #table-view[data-deal-over="true"]')
    return attr(page, "data-deal-over") != "true"


def select(page: Page, cards: list[str]) -> None:
    """Select exactly ``cards`` in the hand by clicking them (at their visible left edge)."""
    if page.locator("#hand .card.selected").count():
        page.click("#clear-btn")
    for card in cards:
        page.locator(f'#hand .card[data-card="{card}"]').click(position={"x": 6, "y": 30})
    expect(page.locator("#hand .card.selected")).to_have_count(len(cards))


def play(page: Page, move: Move) -> None:
    """Make ``move`` by clicking its cards and its verb, and wait until the server took it."""
    version = attr(page, "data-version")
    select(page, move["cards"])
    page.click(f'#verbs button[data-verb="{move["verb"]}"]')
    if page.locator("#choices:not([hidden])").count():
        page.click(f'#choices button[data-action="{move["action"]}"]')
    page.wait_for_function(
        """version => document.querySelector('#table-view').dataset.version !== version
            || document.querySelector('#message')?.dataset.kind === 'error'""", arg=version)
    message = page.locator('#message[data-kind="error"]')
    assert not message.count(), f"{move['action']} was refused: {message.inner_text()}"


def play_deal(page: Page, choose: Callable[[list[Move]], Move],
              during: Callable[[Page, int], None] | None = None) -> int:
    """Play this seat's moves until the deal is over; ``during(page, n)`` runs before the
    seat's n-th move. Returns how many moves the seat made."""
    for n in range(MAX_MOVES):
        if not wait_for_turn(page):
            return n
        if during is not None:
            during(page, n)
            if not wait_for_turn(page):
                return n
        play(page, choose(legal_moves(page)))
    pytest.fail(f"the deal did not end within {MAX_MOVES} moves of one seat")


def shed_most(moves: list[Move]) -> Move:
    """Climbing: the play that sheds the most cards (a pass only when nothing else)."""
    return max(moves, key=lambda m: (m["verb"] != "pass", len(m["cards"])))


def rummy_move(moves: list[Move]) -> Move:
    """Rummy: meld the most cards, else lay off, else draw from the stock, else discard the
    last card the table offers."""
    by_verb = {verb: [m for m in moves if m["verb"] == verb] for verb in {m["verb"] for m in moves}}
    if by_verb.get("meld"):
        return max(by_verb["meld"], key=lambda m: len(m["cards"]))
    for verb in ("layoff", "draw stock"):
        if by_verb.get(verb):
            return by_verb[verb][0]
    return by_verb.get("discard", moves)[-1]


def expect_deal_over(page: Page) -> None:
    panel = page.locator("#deal-over")
    expect(panel).to_be_visible()
    expect(panel.locator(".summary")).not_to_be_empty()
    expect(panel.locator("table.results tbody tr")).to_have_count(
        int(page.evaluate("document.querySelectorAll('#table-view .seat-box').length")))


# -- one deal per family ------------------------------------------------------------------------


def test_climbing_deal_through_the_lobby_with_a_refused_move_and_a_hint(
        server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=7)
    expect(page.locator("#me .seat-box.mine .name")).to_have_text("Ann (you)")
    expect(page.locator("#hand .card")).to_have_count(13)
    expect(page.locator("#opponents .seat-box")).to_have_count(3)
    refused: list[str] = []
    hinted: list[str] = []

    def during(page: Page, n: int) -> None:
        moves = legal_moves(page)
        if not refused and any(m["verb"] == "play" for m in moves):
            # Two cards of different ranks are never a play: the engine's reason is shown in
            # place and nothing changes.
            hand = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
            pair = [hand[0], next(c for c in hand if c[:-1] != hand[0][:-1])]
            version = attr(page, "data-version")
            select(page, pair)
            page.click('#verbs button[data-verb="play"]')
            message = page.locator('#message[data-kind="error"]')
            expect(message).to_be_visible()
            refused.append(message.inner_text())
            assert attr(page, "data-version") == version
            expect(page.locator("#hand .card")).to_have_count(len(hand))
        if not hinted and n >= 2:
            page.click("#hint-btn")
            hint = page.locator('#message[data-kind="hint"]')
            expect(hint).to_be_visible()
            hinted.append(hint.get_attribute("data-action") or "")
            assert hinted[0] in [m["action"] for m in moves]
            # The hint selects its cards; the player still decides.
            hint_cards = next(m["cards"] for m in moves if m["action"] == hinted[0])
            expect(page.locator("#hand .card.selected")).to_have_count(len(hint_cards))
            save_screenshot(page, "web-climbing.png")

    moves = play_deal(page, shed_most, during)
    assert moves >= 3
    assert refused and "is not a valid combination" in refused[0], refused
    assert hinted and hinted[0]
    expect_deal_over(page)
    expect(page.locator("#next-deal")).to_be_visible()
    # The log tells the deal with the players' names, never the engine's seat labels.
    log = page.locator("#log").inner_text()
    assert "Ann" in log and "P0" not in log
    save_screenshot(page, "web-climbing-over.png")


def test_trump_deal_then_the_next_deal(server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, server, "forty-five", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=3)
    expect(page.locator(".trump-info .turn-up .card")).to_have_count(1)
    expect(page.locator(".sides .side-score")).to_have_count(2)
    refused: list[str] = []

    def during(page: Page, n: int) -> None:
        unplayable = page.locator("#hand .card.unplayable")
        if not refused and unplayable.count() and page.locator('#verbs button[data-verb="play"]').count():
            # A card the rules forbid now (following suit): the engine says why.
            card = unplayable.first.get_attribute("data-card") or ""
            select(page, [card])
            page.click('#verbs button[data-verb="play"]')
            message = page.locator('#message[data-kind="error"]')
            expect(message).to_be_visible()
            refused.append(card)
            refused.append(message.inner_text())
        if n == 2:
            save_screenshot(page, "web-trump.png")

    assert play_deal(page, lambda moves: moves[0], during) >= 1
    expect_deal_over(page)
    card, reason = refused
    assert reason.startswith(f"{card} is not allowed:"), refused
    save_screenshot(page, "web-trump-over.png")
    page.click("#next-deal")
    expect(page.locator("#table-view")).to_have_attribute("data-deal-over", "false")
    expect(page.locator("#table-title")).to_contain_text("deal 2")
    expect(page.locator("#hand .card")).to_have_count(5)


def test_rummy_deal_with_options_from_the_lobby(server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, server, "rummy", ["you", "bot:greedy"],
                 options={"hand_size": "7", "turn_limit": "40"}, seed=5)
    expect(page.locator("#hand .card")).to_have_count(7)
    expect(page.locator(".piles .stock")).to_be_visible()
    saw_new_card = False

    def during(page: Page, n: int) -> None:
        nonlocal saw_new_card
        # After drawing from the stock, the drawn card is marked in the hand.
        saw_new_card = saw_new_card or bool(page.locator("#hand .card.new-card .new-badge").count())
        if n == 7:
            save_screenshot(page, "web-rummy.png")

    assert play_deal(page, rummy_move, during) >= 2
    assert saw_new_card
    # Rummy's own text names the seats "Human" and "Computer 1": the log shows the names instead.
    log = page.locator("#log").inner_text()
    assert "Ann" in log and "Human" not in log and "Computer 1" not in log
    expect_deal_over(page)
    expect(page.locator("#deal-over .shown .shown-hand")).to_have_count(2)
    save_screenshot(page, "web-rummy-over.png")


# -- two players, a spectator, a reload ---------------------------------------------------------


def test_two_humans_at_one_table_with_a_spectator(server: str,
                                                  new_page: Callable[..., Page]) -> None:
    ann = new_page(viewport={"width": 1100, "height": 850})
    table = create_table(ann, server, "forty-five", ["you", "human", "bot:greedy", "bot:greedy"],
                         seed=11)
    expect(ann.locator("#table-view")).to_have_attribute("data-status", "waiting")
    expect(ann.locator("#felt .waiting")).to_contain_text("1 more player")

    # A spectator who comes while a seat is free is offered it.
    watcher = new_page(viewport={"width": 1100, "height": 850})
    watcher.goto(f"{server}/#/")
    watcher.click(f'.table-item[data-table-id="{table}"] button.watch')
    expect(watcher.locator("#join-bar")).to_be_visible()
    expect(watcher.locator("#hand .watching")).to_be_visible()

    bob = new_page(viewport={"width": 1100, "height": 850})
    bob.goto(f"{server}/#/")
    bob.fill("#player-name", "Bob")
    bob.click(f'.table-item[data-table-id="{table}"] button.join')
    bob.wait_for_url(f"**/#/table/{table}")
    for page in (ann, bob):
        expect(page.locator("#table-view")).to_have_attribute("data-status", "playing")
        expect(page.locator("#hand .card")).to_have_count(5)
    expect(bob.locator("#me .name")).to_have_text("Bob (you)")
    expect(ann.locator('#opponents .seat-box[data-seat="1"] .name')).to_have_text("Bob")
    expect(watcher.locator("#join-bar")).to_be_hidden()
    expect(watcher.locator("#opponents .seat-box")).to_have_count(4)
    expect(watcher.locator("#hand .card")).to_have_count(0)
    save_screenshot(watcher, "web-spectator.png")

    # Nobody sees another's hand: before either of them has played, none of Bob's cards is
    # anywhere on Ann's page, and neither hand on the spectator's.
    def hand(page: Page) -> set[str]:
        return set(page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)"))

    def cards_on(page: Page) -> set[str]:
        return set(page.eval_on_selector_all("[data-card]", "cs => cs.map(c => c.dataset.card)"))

    anns, bobs = hand(ann), hand(bob)
    assert len(anns) == len(bobs) == 5
    assert not bobs & cards_on(ann)
    assert not (anns | bobs) & cards_on(watcher)

    reloaded = False
    deadline = time.monotonic() + 60
    while not all(attr(p, "data-deal-over") == "true" for p in (ann, bob)):
        assert time.monotonic() < deadline, "the deal between two players did not end"
        mover = next((p for p in (ann, bob) if attr(p, "data-your-turn") == "true"
                      and attr(p, "data-deal-over") != "true"), None)
        if mover is None:
            ann.wait_for_timeout(30)
            continue
        if mover is ann and not reloaded:
            # A reload finds the seat again with the token kept in localStorage.
            reloaded = True
            ann.reload()
            expect(ann.locator("#me .name")).to_have_text("Ann (you)")
            wait_for_turn(ann)
            continue
        play(mover, legal_moves(mover)[0])
    assert reloaded
    for page in (ann, bob, watcher):
        expect(page.locator("#deal-over")).to_be_visible()
    summaries = {p.locator("#deal-over .summary").inner_text() for p in (ann, bob, watcher)}
    assert len(summaries) == 1, summaries
    expect(watcher.locator("#next-deal")).to_have_count(0)
    save_screenshot(bob, "web-two-players.png")


# -- a phone ------------------------------------------------------------------------------------


def test_phone_sized_table(server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=21, name="Pat")
    expect(page.locator("#hand .card")).to_have_count(13)
    wait_for_turn(page)
    play(page, shed_most(legal_moves(page)))
    wait_for_turn(page)

    # Nothing wider than the screen, every card of the hand and every button on it.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for locator in (page.locator("#hand .card"), page.locator("#verbs button"),
                    page.locator("#opponents .seat-box")):
        assert locator.count()
        for i in range(locator.count()):
            box = locator.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # Each card of the overlapped hand shows enough of itself to be tapped.
    boxes = [b for b in (c.bounding_box() for c in page.locator("#hand .card").all()) if b]
    assert min(b2["x"] - b1["x"] for b1, b2 in pairwise(boxes)) >= 18
    save_screenshot(page, "web-phone.png")
    play_deal(page, shed_most)
    expect_deal_over(page)
    save_screenshot(page, "web-phone-over.png")
