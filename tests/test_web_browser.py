"""The web table in a real browser: Debian's chromium driven by Playwright against a real server.

A uvicorn server runs the app in a thread on a free loopback port with a temporary SQLite
database and no pause before bot moves. Every move is made the way a player makes it: by
clicking cards in the hand and a verb button, or, in the keyboard's tests, by keys alone. The
moves are chosen by reading the page (the legal moves the table carries in
``#actions[data-legal]``), never by asking the engine. Each
family's table is saved as a screenshot under ``test-artifacts/``, and so are the lobby, a table
with a turn timer and the owner's seat menu, at desktop and phone sizes.

The server lets one address create and hold tables without limit (the tests make dozens); a
test that needs an empty lobby or other limits starts a server of its own (``fresh_server``).

chromium is installed by ``scripts/install-chromium.sh`` (``make test`` runs it); without it these
tests fail, saying so.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import uvicorn
from PIL import Image, ImageChops
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from parlour.web.app import create_app
from parlour.web.settings import Settings

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
#: The documentation's screenshots of the web table, refreshed from these tests' (below).
DOCS_IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
#: Waits for the page (milliseconds): generous, so that a busy machine never fails a test.
WAIT = 20_000
#: Most moves one seat makes in a test's deal; more means the page is stuck in a loop.
MAX_MOVES = 200

Move = dict[str, Any]
#: A card named by its letters ("3D", "10S"): never in what the page shows a person.
LETTERS = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[CDHS](?![0-9A-Za-z])")
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def face(card: str) -> str:
    """A card as the page names it: "3♦" for "3D"."""
    return card[:-1] + SUITS[card[-1]]


# -- the server and the browser -----------------------------------------------------------------


@contextlib.contextmanager
def serving(database: Path | str, advice_level: str = "hard", port: int = 0,
            **settings: Any) -> Iterator[str]:
    """A web server on ``database`` (a SQLite file, or a database's URL) with ``settings``: its
    base URL while it runs (on ``port``,
    any free one if 0: a restart on the same port is the same site to the browser). The tests
    create many tables from one address within seconds, so the creation rate and the
    address's share of open tables are lifted."""
    limits = {"tables_per_minute": 10_000.0, "table_burst": 1_000, "tables_per_address": 10_000,
              **settings}
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    instance = limits.pop("instance", "t")
    app = create_app(url, bot_delay=0, advice_level=advice_level, instance=instance,
                     settings=Settings(**limits))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
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
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        served.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web table's base URL, served by uvicorn in a thread."""
    with serving(tmp_path_factory.mktemp("web-browser") / "tables.sqlite") as base:
        yield base


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Start a server of this test's own (an empty lobby, or other settings): its base URL."""
    with contextlib.ExitStack() as stack:
        def start(**settings: Any) -> str:
            return stack.enter_context(serving(tmp_path / "tables.sqlite", **settings))

        yield start


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
    error, or an error in the console (a failed request …), on any page fails the test, but
    for console errors containing one of the page's ``allow`` texts (a refusal it expects)."""
    contexts = []
    errors: list[str] = []

    def make(allow: tuple[str, ...] = (), **options: Any) -> Page:
        context = browser.new_context(**options)
        context.set_default_timeout(WAIT)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))

        def console(message: Any) -> None:
            if message.type == "error" and not any(a in message.text for a in allow):
                errors.append(message.text)

        page.on("console", console)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def save_screenshot(page: Page, name: str, *, docs: str | None = None) -> None:
    """Save the page under ``test-artifacts/``, and as the documentation's image ``docs``. A
    card still easing onto the felt is shown in its place, as it will be in a moment."""
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / name
    page.screenshot(path=str(shot), full_page=True, animations="disabled")
    if docs is not None:
        refresh_docs_image(shot, DOCS_IMAGES / docs)


def refresh_docs_image(shot: Path, image: Path, tolerance: float = 0.01) -> None:
    """Copy a screenshot over the documentation's image when the page looks different: another
    size, or more than ``tolerance`` of its pixels changed. Every deal shown is seeded, so what
    changes between runs of the same page is a table's id and little else: those runs leave
    the committed image alone, while a change to the page replaces it."""
    if image.exists():
        with Image.open(shot) as new, Image.open(image) as old:
            if new.size == old.size:
                diff = ImageChops.difference(new.convert("RGB"), old.convert("RGB"))
                unchanged = diff.convert("L").histogram()[0]
                if new.width * new.height - unchanged <= tolerance * new.width * new.height:
                    return
    shutil.copyfile(shot, image)


def fits_the_width(page: Page) -> bool:
    """Whether the page, once laid out again (a resize or an update may be under way), is no
    wider than the window: it must come to fit within a few seconds."""
    try:
        # A function, not an expression: polling an expression evaluates it as a string in
        # the page, which its Content-Security-Policy (no 'unsafe-eval') refuses.
        page.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth",
                               timeout=5_000)
    except PlaywrightTimeout:
        return False
    return True


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A request to the server's HTTP API, as a program other than the page makes it."""
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
    return data


def new_table(base: str, variant: str, seats: list[str], **fields: Any) -> dict[str, Any]:
    """Create a table over HTTP; ``seats`` are ``human`` or bot names."""
    spec = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]
    table: dict[str, Any] = post(base, "/api/tables", {
        "variant": variant, "players": len(seats), "seats": spec, **fields})["table"]
    return table


# -- driving the page like a player -------------------------------------------------------------


def create_table(page: Page, base: str, variant: str, seats: list[str], *,
                 options: dict[str, str] | None = None, seed: int = 1, name: str = "Ann",
                 turn_timeout: int | None = None, stand_in: str = "greedy") -> str:
    """Fill the lobby's form and create a table; ``seats`` are the seat selects' values
    (``you``, ``human``, ``bot:greedy`` …), ``turn_timeout`` the turn timer's seconds and
    ``stand_in`` the bot that plays when it runs out. Returns the table's id."""
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
    expect(page.locator("#stand-in-field")).to_be_hidden()
    if turn_timeout is not None:
        # The stand-in is offered once there is a timer.
        page.fill("#turn-timeout", str(turn_timeout))
        page.select_option("#stand-in", stand_in)
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
    captions: list[str] = []

    def during(page: Page, n: int) -> None:
        # Over the table play, the view's caption: who is to play, by name.
        captions.append(page.locator(".play-area.climbing > .caption").first.inner_text())
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
            save_screenshot(page, "web-climbing.png", docs="web-table.png")

    moves = play_deal(page, shed_most, during)
    assert moves >= 3
    assert refused and "is not a valid combination" in refused[0], refused
    assert hinted and hinted[0]
    assert all("Ann" in c and not c.startswith("Table") for c in captions), captions
    expect_deal_over(page)
    expect(page.locator("#next-deal")).to_be_visible()
    # Big Two's penalties read as the game counts them, up from 0, as at every table: in the
    # summary, under headings that say so, and in each seat's box; never as negative numbers.
    panel = page.locator("#deal-over")
    expect(panel.locator("table.results thead th")).to_have_text(
        ["", "deal penalty", "match penalties"])
    summary = panel.locator(".summary").inner_text()
    assert summary.startswith("deal 1, penalties: "), summary
    for row in panel.locator("table.results tbody tr").all():
        name = row.locator("th").inner_text().removesuffix(" (you)")
        deal, total = row.locator("td").all_inner_texts()
        assert f"{name} {deal}" in summary and deal == total and deal.isdigit(), (name, deal)
        box = page.locator(".seat-box", has=page.locator(".name", has_text=name)).first
        expect(box.locator(".total")).to_have_text(f"penalties {total}")
    # The log tells the deal with the players' names, never the engine's seat labels; it, the
    # play to beat and the refusal show each card by its face, as the cards on the table do.
    log = page.locator("#log").inner_text()
    assert "Ann" in log and "P0" not in log
    assert "♦" in log + " ".join(captions) and "♠" in log
    for text in (log, *captions, *refused):
        assert not LETTERS.search(text), text
    save_screenshot(page, "web-climbing-over.png")


def test_trump_deal_then_the_next_deal(server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, server, "forty-five", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=3)
    expect(page.locator(".trump-info .turn-up .card")).to_have_count(1)
    expect(page.locator(".sides .side-score")).to_have_count(2)
    refused: list[str] = []
    tricks: list[str] = []

    def during(page: Page, n: int) -> None:
        # The felt draws the view's tricks: the trick in progress or the last one, its
        # winning card marked.
        if page.locator(".play-area.trump .trick .named-card.winning").count():
            tricks.append(page.locator(".play-area.trump > .caption").first.inner_text())
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
    assert reason.startswith(f"{face(card)} is not allowed:"), refused
    assert not LETTERS.search(reason + " ".join(tricks)), (reason, tricks)
    assert tricks and all(re.fullmatch(r"Trick \d+( · \S.* is winning| to \S.*)", t)
                          for t in tricks), tricks
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


@pytest.mark.parametrize(("variant", "seats", "drawn"), [
    ("big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"], "#felt .recent"),
    ("forty-five", ["you", "bot:greedy", "bot:greedy", "bot:greedy"], "#felt .trump-info"),
    ("rummy", ["you", "bot:greedy"], "#felt .piles"),
])
def test_each_familys_felt_is_drawn_with_its_own_style_sheet(
        server: str, new_page: Callable[..., Page], variant: str, seats: list[str],
        drawn: str) -> None:
    """The page links the style sheet beside the family's felt module (its felt.css) once, and
    loads it before it draws the felt: the felt's own rules lay it out."""
    page = new_page()
    create_table(page, server, variant, seats)
    family = attr(page, "data-family")
    link = page.locator("link[data-felt]")
    expect(link).to_have_count(1)
    assert link.get_attribute("href") == f"{server}/static/felts/{family}.css"
    assert page.evaluate("document.querySelector('link[data-felt]').sheet.cssRules.length") > 0
    if not page.locator(drawn).count():
        # The climbing games' last round of plays: none yet when this seat leads.
        assert wait_for_turn(page)
        play(page, shed_most(legal_moves(page)))
    assert page.locator(drawn).first.evaluate("e => getComputedStyle(e).display") == "flex"
    # Back to the lobby and to the table again: the style sheet is not linked a second time.
    page.goto(f"{server}/#/")
    page.go_back()
    page.wait_for_selector(drawn)
    expect(link).to_have_count(1)


def test_a_felt_whose_style_sheet_fails_to_load_is_drawn_all_the_same(
        server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(allow=("404",))
    page.route("**/static/felts/*.css", lambda route: route.fulfill(status=404, body=""))
    create_table(page, server, "forty-five", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=3)
    expect(page.locator("#felt .trump-info .turn-up .card")).to_have_count(1)
    assert page.locator("#felt .trump-info").evaluate("e => getComputedStyle(e).display") == "block"
    assert play_deal(page, lambda moves: moves[0]) >= 1
    expect_deal_over(page)


def test_the_page_runs_under_its_content_security_policy(server: str,
                                                         new_page: Callable[..., Page]) -> None:
    """The server's policy forbids inline scripts and styles: the lobby and a table work under
    it with no violation (every test's page would fail on one, as a console error), and it is
    in force: a script put into the page by other means does not run."""
    page = new_page(allow=("Content Security Policy",))
    page.add_init_script("""window.violations = [];
        document.addEventListener("securitypolicyviolation",
                                  (e) => window.violations.push(e.violatedDirective));""")
    answer = page.goto(f"{server}/#/")
    assert answer is not None and "script-src 'self'" in answer.headers["content-security-policy"]
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"])
    page.wait_for_selector("#hand .card")
    assert page.evaluate("window.violations") == []
    page.evaluate("""() => { const s = document.createElement("script");
                            s.textContent = "window.ran = true"; document.body.append(s); }""")
    page.wait_for_function("() => window.violations.length > 0")
    assert page.evaluate("window.ran") is None
    assert page.evaluate("window.violations") == ["script-src-elem"]


def test_a_name_typed_while_the_lobby_loads_is_kept(server: str,
                                                    new_page: Callable[..., Page]) -> None:
    page = new_page()
    held: list[Route] = []
    page.route("**/api/variants", lambda route: held.append(route))  # held until let go
    page.goto(f"{server}/#/")
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the lobby never asked for its games"
        page.wait_for_timeout(20)
    page.fill("#player-name", "Bob")
    held[0].continue_()
    expect(page.locator("#variant option")).not_to_have_count(0)  # the lobby is set up
    expect(page.locator("#player-name")).to_have_value("Bob")


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


# -- the keyboard -------------------------------------------------------------------------------

#: The key of each verb, as the page's Keys panel lists them.
VERB_KEYS = {
    "play": "p", "pass": "a", "rob": "r", "keep": "k", "silent": "i", "jink": "j", "stop": "t",
    "draw stock": "w", "draw discard": "d", "meld": "m", "layoff": "l", "discard": "x",
}
#: Every text the page sends over its socket, kept in ``window.sent``: what a key did.
RECORD_SENT = """window.sent = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) { window.sent.push(String(data)); return send.call(this, data); };"""
#: Each render of the table (every update) at which a card was in the hand but the keyboard's
#: focus was not on one, in ``window.focusLost``: observed once the render is over.
WATCH_FOCUS = """() => {
    window.focusLost = [];
    new MutationObserver(() => {
        if (document.querySelector("#hand .card") && !document.activeElement?.matches("#hand .card")) {
            window.focusLost.push(document.activeElement?.tagName ?? "none");
        }
    }).observe(document.querySelector("#table-view"), { attributes: true, attributeFilter: ["data-version"] });
}"""


def hand_cards(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    return cards


def focused_card(page: Page) -> str | None:
    """The card of the hand that has the keyboard focus (None: the focus is elsewhere)."""
    card: str | None = page.evaluate(
        "document.activeElement?.matches('#hand .card') ? document.activeElement.dataset.card : null")
    return card


def actions_sent(page: Page) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, page.evaluate("window.sent")) if m.get("type") == "action"]


def tab_to_hand(page: Page) -> str:
    """Press Tab from the top of the page until the focus is on a card of the hand: that card."""
    page.evaluate("document.activeElement?.blur()")
    for _ in range(20):
        page.keyboard.press("Tab")
        card = focused_card(page)
        if card is not None:
            return card
    pytest.fail("Tab never reached the hand")


def key_select(page: Page, cards: list[str]) -> None:
    """Select exactly ``cards`` by keyboard: ``c`` clears, the arrows go to each card and Space
    selects it."""
    if page.locator("#hand .card.selected").count():
        page.keyboard.press("c")
    for card in cards:
        order = hand_cards(page)
        here, there = order.index(focused_card(page) or order[0]), order.index(card)
        for _ in range(abs(there - here)):
            page.keyboard.press("ArrowRight" if there > here else "ArrowLeft")
        assert focused_card(page) == card
        page.keyboard.press("Space")
        assert focused_card(page) == card
    expect(page.locator("#hand .card.selected")).to_have_count(len(cards))


def key_play(page: Page, move: Move) -> tuple[str | None, list[str]]:
    """Make ``move`` by keys alone, from the hand: its cards, its verb's key (the one its
    button says), a digit for a lay-off's meld; wait until the server took it. Returns the
    card that had the focus when the key was pressed, and the hand then."""
    version = attr(page, "data-version")
    key_select(page, move["cards"])
    focused, cards = focused_card(page), hand_cards(page)
    key = VERB_KEYS[move["verb"]]
    assert page.get_attribute(f'#verbs button[data-verb="{move["verb"]}"]', "aria-keyshortcuts") == key
    page.keyboard.press(key)
    if page.locator("#choices:not([hidden])").count():
        choices = page.eval_on_selector_all("#choices button.choice", "bs => bs.map(b => b.dataset.action)")
        page.keyboard.press(str(choices.index(move["action"]) + 1))
    page.wait_for_function(
        """version => document.querySelector('#table-view').dataset.version !== version
            || document.querySelector('#message')?.dataset.kind === 'error'""", arg=version)
    message = page.locator('#message[data-kind="error"]')
    assert not message.count(), f"{move['action']} was refused: {message.inner_text()}"
    return focused, cards


def test_the_hand_by_keyboard(server: str, new_page: Callable[..., Page]) -> None:
    """Tab reaches the hand as one stop, the arrows move along it, Space and Enter select, the
    letters act, and a redrawn hand keeps the focus; typing in a field, or a letter with Alt,
    is no move."""
    page = new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(RECORD_SENT)
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=7)
    assert wait_for_turn(page)
    cards = hand_cards(page)
    assert tab_to_hand(page) == cards[0]
    expect(page.locator('#hand .card[tabindex="0"]')).to_have_count(1)
    for key, card in (("ArrowRight", cards[1]), ("End", cards[-1]), ("ArrowRight", cards[-1]),
                      ("Home", cards[0]), ("ArrowLeft", cards[0]), ("ArrowRight", cards[1])):
        page.keyboard.press(key)
        assert focused_card(page) == card, key
    expect(page.locator('#hand .card[tabindex="0"]')).to_have_attribute("data-card", cards[1])

    # Each card is a toggle button named by its face; Space and Enter select and unselect it,
    # and the focus stays on it as the hand is redrawn.
    second = page.get_by_role("button", name=face(cards[1]), exact=True)
    expect(second).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Space")
    expect(second).to_have_attribute("aria-pressed", "true")
    expect(second).to_have_class(re.compile(r"\bselected\b"))
    expect(second).to_be_focused()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-pressed", "false")
    expect(second).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("c")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    expect(second).to_be_focused()

    # h: the hint selects its cards, and the hand keeps the focus.
    page.keyboard.press("h")
    hint = page.locator('#message[data-kind="hint"]')
    expect(hint).to_be_visible()
    assert page.locator("#hand .card.selected").count()
    assert focused_card(page) == cards[1]
    # ?: the Keys panel, open and closed again.
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_have_attribute("open", "")
    expect(page.locator("#keys-help")).to_contain_text("play the selected cards")
    # Big Two's keys only: none of Rummy's or the trump games'.
    for other in ("lay off", "rob"):
        expect(page.locator("#keys-help")).not_to_contain_text(other, use_inner_text=True)
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).not_to_have_attribute("open", "")
    # The hand is one stop: out with Shift+Tab, back with Tab to the card left.
    page.keyboard.press("Shift+Tab")
    assert focused_card(page) is None
    page.keyboard.press("Tab")
    assert focused_card(page) == cards[1]

    # With Alt, or typed in a text field, a letter is not the table's.
    page.keyboard.press("Alt+p")
    page.evaluate("""() => { const field = document.createElement("input");
        field.id = "typing"; document.querySelector("#table-view").append(field); }""")
    page.focus("#typing")
    page.keyboard.type("pah")
    expect(page.locator("#typing")).to_have_value("pah")
    assert actions_sent(page) == []
    page.evaluate("document.querySelector('#typing').remove()")

    # p plays; once the update redraws the table, the focus is on the same card, or on the
    # one now in the place of the card played.
    tab_to_hand(page)
    move = shed_most(legal_moves(page))
    focused, before = key_play(page, move)
    assert focused is not None and actions_sent(page)[-1]["verb"] == move["verb"]
    left = hand_cards(page)
    nearest = left[min(before.index(focused), len(left) - 1)]
    assert focused_card(page) == (focused if focused in left else nearest)
    assert wait_for_turn(page)
    assert focused_card(page) in hand_cards(page)


def rummy_taking(moves: list[Move]) -> Move:
    """Rummy as ``rummy_move``, but taking the discard whenever the rules allow."""
    taking = [m for m in moves if m["verb"] == "draw discard"]
    return taking[0] if taking else rummy_move(moves)


FOUR = ["you", "bot:greedy", "bot:greedy", "bot:greedy"]
RUMMY = {"hand_size": "7", "turn_limit": "40"}


# Seeded so that each deal has the seat use the verbs named (every key of its game but a few),
# and, where `choice` is true, make a lay-off that fits two melds: a digit says which.
@pytest.mark.parametrize(("variant", "seats", "options", "seed", "choose", "uses", "choice"), [
    ("big-two-4card", FOUR, {"deals": "1"}, 5, shed_most, {"play", "pass"}, False),
    ("rummy", FOUR, {}, 25, rummy_move, {"draw stock", "meld", "layoff", "discard"}, True),
    ("rummy", FOUR[:2], RUMMY, 5, rummy_taking, {"draw discard", "meld", "discard"}, False),
    ("forty-five", FOUR, {}, 2, lambda moves: moves[0], {"rob", "play"}, False),
], ids=["big-two-4card", "rummy", "rummy-taking", "forty-five-robbing"])
def test_a_whole_deal_by_keyboard_alone(server: str, new_page: Callable[..., Page], variant: str,
                                       seats: list[str], options: dict[str, str], seed: int,
                                       choose: Callable[[list[Move]], Move], uses: set[str],
                                       choice: bool) -> None:
    """Once at the table, every move of the seat is made by keys: Tab to the hand, arrows and
    Space for the cards, the verb's letter. No update of the table ever leaves the focus
    elsewhere than on a card while the hand has one."""
    page = new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(RECORD_SENT)
    create_table(page, server, variant, seats, options=options, seed=seed)
    page.wait_for_selector("#hand .card")
    page.evaluate(WATCH_FOCUS)
    tab_to_hand(page)
    verbs: set[str] = set()
    made = 0
    for _ in range(MAX_MOVES):
        if not wait_for_turn(page):
            break
        assert focused_card(page) is not None
        move = choose(legal_moves(page))
        key_play(page, move)
        verbs.add(move["verb"])
        made += 1
    else:
        pytest.fail(f"the deal did not end within {MAX_MOVES} moves of one seat")
    expect_deal_over(page)
    assert page.evaluate("window.focusLost") == []
    # The hand played out, the focus is on the deal's next step, never on the page itself.
    assert page.evaluate("document.activeElement !== document.body")
    if not hand_cards(page):
        assert page.evaluate("document.activeElement.matches('#deal-over button.primary')")
    assert verbs >= uses, verbs
    # The moves went out as the keys made them: a verb and the cards, or a lay-off's meld.
    sent = actions_sent(page)
    assert len(sent) == made and {m["verb"] for m in sent if "verb" in m} <= verbs
    assert any("verb" not in m for m in sent) == choice


# -- a phone ------------------------------------------------------------------------------------


def test_phone_sized_table(server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    name = "Patricia Montgomery-Smith"
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=21, name=name)
    expect(page.locator("#hand .card")).to_have_count(13)
    # A 13-card hand takes two rows, each card showing at least 40 px of itself for a finger.
    expect(page.locator("#hand.two-rows")).to_have_count(1)
    boxes = [b for b in (c.bounding_box() for c in page.locator("#hand .card").all()) if b]
    rows = sorted({round(b["y"]) for b in boxes})
    assert len(rows) == 2, rows
    for y in rows:
        row = [b for b in boxes if round(b["y"]) == y]
        assert min(b2["x"] - b1["x"] for b1, b2 in pairwise(row)) >= 40
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] for b in row)
    # Your own name whole, never cut short.
    mine = page.locator("#me .seat-box.mine .name")
    expect(mine).to_have_text(f"{name} (you)")
    assert mine.evaluate("e => e.scrollWidth <= e.clientWidth")
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
    save_screenshot(page, "web-phone.png", docs="web-phone.png")
    # The log is reachable below the table.
    page.locator("#log").scroll_into_view_if_needed()
    expect(page.locator("#log")).to_be_in_viewport()
    play_deal(page, shed_most)
    expect_deal_over(page)
    save_screenshot(page, "web-phone-over.png")


# -- the lobby's pages, seeds, the turn timer, the owner's menu ----------------------------------


def test_lobby_pages_and_filters_ask_only_for_the_page_shown(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    base = fresh_server()
    # 22 tables waiting for players, then 3 bots-only Rummy tables (playing, paused: nobody
    # watches them): newest first, 25 in all.
    waiting = [new_table(base, "big-two", ["human", "greedy", "greedy", "greedy"])["id"]
               for _ in range(22)]
    playing = [new_table(base, "rummy", ["greedy", "easy"], turn_timeout=30)["id"]
               for _ in range(3)]
    page = new_page(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if urlsplit(r.url).path == "/api/tables"
            else None)
    page.goto(f"{base}/#/")
    items = page.locator("#tables .table-item")
    expect(page.locator("#tables-range")).to_have_text("1–20 of 25")
    expect(items).to_have_count(20)
    expect(page.locator("#tables-prev")).to_be_disabled()
    first = items.evaluate_all("items => items.map(i => i.dataset.tableId)")
    assert first[:3] == playing[::-1] and first[3:] == waiting[::-1][:17]
    # Each table says what it is before anyone sits down: its turn timer here.
    expect(items.first.locator(".tag.timer")).to_have_text("30 s a turn")
    expect(page.locator("#tables .tag.seed")).to_have_count(0)
    save_screenshot(page, "web-lobby.png", docs="web-lobby.png")

    page.click("#tables-next")
    expect(page.locator("#tables-range")).to_have_text("21–25 of 25")
    expect(items).to_have_count(5)
    rest = items.evaluate_all("items => items.map(i => i.dataset.tableId)")
    assert rest == waiting[::-1][17:]
    expect(page.locator("#tables-next")).to_be_disabled()

    # A filter goes back to its first page.
    page.select_option("#filter-status", "playing")
    expect(page.locator("#tables-range")).to_have_text("1–3 of 3")
    expect(items).to_have_count(3)
    page.select_option("#filter-variant", "big-two")
    expect(page.locator("#tables-range")).to_have_text("")
    expect(page.locator("#tables li")).to_have_text("No tables like that.")
    page.select_option("#filter-status", "")
    expect(page.locator("#tables-range")).to_have_text("1–20 of 22")
    assert all(t not in playing for t in items.evaluate_all(
        "items => items.map(i => i.dataset.tableId)"))

    # The phone: the filters, the tags and the pager fit the screen.
    page.set_viewport_size(PHONE)
    expect(items).to_have_count(20)
    assert fits_the_width(page)
    save_screenshot(page, "web-lobby-phone.png")

    # Every request for the list named its page; none asked for the whole list.
    queries = [parse_qs(urlsplit(url).query) for url in asked]
    assert len(queries) >= 5, asked
    assert all(q["limit"] == ["20"] and "offset" in q for q in queries), asked
    assert {"variant": ["big-two"], "offset": ["0"], "limit": ["20"]} in queries, asked
    assert any(q["offset"] == ["20"] for q in queries), asked


def test_the_lobby_offers_each_game_its_own_computer_players(
        server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/#/")
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "rummy")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "bot:expert")
    page.select_option("#seat-1", "bot:learned")
    # Rummy's learned has networks for 2 and 4 players, not 3: at 3 it is not offered, and the
    # seat that had it falls back to the default bot while the other keeps its choice.
    page.select_option("#players", "3")
    offered = page.eval_on_selector_all("#seat-1 option", "options => options.map(o => o.value)")
    assert "bot:learned" not in offered and "bot:expert" in offered
    assert page.input_value("#seat-1") == "bot:medium"
    assert page.input_value("#seat-0") == "bot:expert"
    page.select_option("#players", "4")
    offered = page.eval_on_selector_all("#seat-3 option", "options => options.map(o => o.value)")
    assert "bot:learned" in offered


def test_the_lobby_shows_options_in_words_and_only_those_that_apply(
        server: str, new_page: Callable[..., Page]) -> None:
    """Big Two's number of deals is hidden while the match ends at the penalty limit, and
    shown when it ends after a number of deals (the penalty limit then hidden); each option by
    its label and each choice in words; what is refused is said in words too."""
    page = new_page(viewport={"width": 1280, "height": 900}, allow=("400",))
    page.goto(f"{server}/#/")
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "big-two")
    deals = page.locator(".option-row", has=page.locator("#opt-deals"))
    limit = page.locator(".option-row", has=page.locator("#opt-penalty_limit"))
    expect(deals).to_be_hidden()
    expect(limit).to_be_visible()
    expect(page.locator('label[for="opt-match_end"]')).to_have_text("Match ends")
    choices = page.eval_on_selector_all("#opt-match_end option",
                                        "options => options.map(o => o.textContent)")
    assert choices == ["at the penalty limit", "after a number of deals"]
    shown = page.locator("#option-rows").inner_text()
    assert "_" not in shown and "null" not in shown, shown
    page.select_option("#opt-match_end", "deals")
    expect(deals).to_be_visible()
    expect(limit).to_be_hidden()
    expect(page.locator('label[for="opt-deals"]')).to_have_text("Number of deals")
    page.select_option("#opt-match_end", "penalty-limit")
    expect(deals).to_be_hidden()
    expect(limit).to_be_visible()
    # A value past the range is refused naming the option as the form does.
    page.fill("#opt-penalty_limit", "20000")
    page.click("#create")
    error = page.locator("#create-error")
    expect(error).to_have_text("Penalty limit must be a whole number from 1 to 10000, not 20000")
    page.fill("#opt-penalty_limit", "50")
    page.fill("#turn-timeout", "2")
    page.click("#create")
    expect(error).to_have_text("The turn timer must be from 5 to 3600 seconds, or none")


def test_a_chosen_seed_is_shown_in_the_lobby_and_at_the_table(
        server: str, new_page: Callable[..., Page]) -> None:
    seeded = new_table(server, "rummy", ["human", "greedy"], seed=42)
    secret = new_table(server, "rummy", ["human", "greedy"], seed=None)
    assert seeded["seeded"] and not secret["seeded"] and "seed" not in secret
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/#/")
    tag = page.locator(f'.table-item[data-table-id="{seeded["id"]}"] .tag.seed')
    expect(tag).to_have_text("seeded 42")
    expect(tag).to_have_attribute("title", "every deal follows from this seed")
    expect(page.locator(f'.table-item[data-table-id="{secret["id"]}"]')).to_be_visible()
    expect(page.locator(f'.table-item[data-table-id="{secret["id"]}"] .tag')).to_have_count(0)
    page.click(f'.table-item[data-table-id="{seeded["id"]}"] button.watch')
    expect(page.locator("#table-seed")).to_have_text("seeded: 42")
    page.goto(f"{server}/#/table/{secret['id']}")
    expect(page.locator("#table-title")).to_contain_text("rummy")
    expect(page.locator("#table-seed")).to_be_hidden()


def countdown_seconds(page: Page, selector: str) -> int:
    text = page.locator(selector).inner_text()
    match = re.search(r"(\d+) s", text)
    assert match, text
    return int(match[1])


def test_turn_timer_counts_down_then_the_stand_in_plays_until_i_am_back(
        server: str, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, server, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=9, turn_timeout=5)
    expect(page.locator("#table-timer")).to_have_text("5 s a turn")
    wait_for_turn(page)
    # My turn: the clock runs on my seat and, in words, by the turn.
    mine = "#turn .countdown.long"
    expect(page.locator(mine)).to_have_text(re.compile(r"^[1-5] s left$"))
    expect(page.locator("#me .seat-box.mine .countdown")).to_have_text(re.compile(r"^[1-5] s$"))
    # It ticks here, between the server's updates.
    before = countdown_seconds(page, mine)
    page.wait_for_timeout(1100)
    assert countdown_seconds(page, mine) < before
    save_screenshot(page, "web-timer.png")
    page.set_viewport_size(PHONE)
    assert fits_the_width(page)
    save_screenshot(page, "web-timer-phone.png")
    page.set_viewport_size({"width": 1280, "height": 900})

    # Time runs out: the notice, and the stand-in plays for me.
    notice = page.locator("#notice")
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice.locator("#notice-text")).to_have_text(
        "your 5 s ran out: greedy plays for you until you act again")
    away = page.locator("#me .seat-box.mine .badge.away")
    expect(away).to_have_text("away — greedy plays")
    expect(page.locator("#turn .countdown")).to_have_count(0)
    save_screenshot(page, "web-timer-away.png")
    page.set_viewport_size(PHONE)
    assert fits_the_width(page)
    box = notice.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    save_screenshot(page, "web-timer-away-phone.png")

    page.click("#back-btn")
    expect(away).to_have_count(0)
    expect(notice).to_be_hidden()


def test_the_form_starts_from_the_servers_timer_and_stand_in(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    base = fresh_server(turn_timeout=45.0, stand_in="easy")
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/#/")
    page.wait_for_selector("#variant option", state="attached")
    expect(page.locator("#turn-timeout")).to_have_value("45")
    expect(page.locator("#stand-in-field")).to_be_visible()
    expect(page.locator("#stand-in")).to_have_value("easy")
    page.fill("#turn-timeout", "")  # cleared: no timer at this table
    expect(page.locator("#stand-in-field")).to_be_hidden()
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{base}/api/tables/{table}") as answer:
        assert json.load(answer)["table"]["turn_timeout"] is None


def test_a_hint_asked_again_is_the_same_and_shows_its_figures_on_demand(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    base = fresh_server(advice_level="medium")
    page = new_page(viewport={"width": 1280, "height": 900})
    create_table(page, base, "big-two", ["you", "bot:greedy", "bot:greedy", "bot:greedy"],
                 seed=7)
    wait_for_turn(page)
    hints = []
    for _ in range(4):  # asked at every click, never refused
        page.click("#hint-btn")
        message = page.locator('#message[data-kind="hint"]')
        expect(message).to_be_visible()
        hints.append(message.get_attribute("data-action"))
    assert len(set(hints)) == 1
    text = message.inner_text()
    assert re.match(r"Hint: .+(: the only move|\. Clearly the best move here|\. A close call "
                    r"with .+|\. Any move will do: .+)\.", text), text
    for internal in ("network", "rollout", "simulated", "rule-based"):
        assert internal not in text
    details = message.locator("details.hint-details")
    expect(details).not_to_have_attribute("open", "")
    details.locator("summary").click()
    expect(details).to_contain_text("trial deals")


def test_the_owner_hands_an_absent_players_seat_to_a_bot(
        server: str, new_page: Callable[..., Page]) -> None:
    ann = new_page(viewport={"width": 1280, "height": 900})
    table = create_table(ann, server, "forty-five", ["you", "human", "bot:medium", "bot:greedy"],
                         seed=13)
    seat1 = ann.locator('#opponents .seat-box[data-seat="1"]')
    menu = seat1.locator(".owner-menu")
    # A free seat can be handed to a bot (it is free already: no "free the seat").
    expect(menu).to_be_visible()
    expect(ann.locator("#me .owner-menu")).to_have_count(0)
    expect(ann.locator(".owner-menu")).to_have_count(1)

    # Bob takes the seat and is not there: the game waits for him.
    post(server, f"/api/tables/{table}/join", {"seat": 1, "name": "Bob"})
    expect(seat1.locator(".badge.warn")).to_have_text("offline")
    menu.locator("summary").click()
    expect(menu.locator(".free-seat")).to_be_visible()
    save_screenshot(ann, "web-owner-menu.png")
    ann.set_viewport_size(PHONE)
    assert fits_the_width(ann)
    save_screenshot(ann, "web-owner-menu-phone.png")
    ann.set_viewport_size({"width": 1280, "height": 900})

    # Someone without the owner token sees no menu; a wrong token is refused by the server,
    # and its words are shown in the menu.
    eve = new_page(viewport={"width": 1280, "height": 900}, allow=("status of 403",))
    eve.goto(f"{server}/#/table/{table}")
    expect(eve.locator('#opponents .seat-box[data-seat="1"] .name')).to_have_text("Bob")
    expect(eve.locator(".owner-menu")).to_have_count(0)
    eve.goto(f"{server}/#/")
    eve.evaluate(f"localStorage.setItem('parlour.owner.{table}', 'not-the-owner')")
    eve.goto(f"{server}/#/table/{table}")
    eve_menu = eve.locator('#opponents .seat-box[data-seat="1"] .owner-menu')
    eve_menu.locator("summary").click()
    eve_menu.locator(".hand-to-bot").click()
    expect(eve_menu.locator(".menu-error")).to_have_text(
        "only the table's creator, with its owner token, may hand a seat on")

    # Ann frees the seat, then hands it to a medium bot, which plays it (another sits at seat
    # 2: the table numbers them now).
    menu.locator(".free-seat").click()
    expect(seat1.locator(".badge.warn")).to_have_text("free seat")
    expect(menu).to_be_visible()
    menu.locator("summary").click()
    expect(menu.locator(".free-seat")).to_be_hidden()
    menu.locator(".menu-bot").select_option("medium")
    menu.locator(".hand-to-bot").click()
    expect(seat1.locator(".badge.bot")).to_have_text("bot")
    expect(seat1.locator(".name")).to_have_text("medium 1")
    expect(ann.locator(".owner-menu")).to_have_count(0)
    save_screenshot(ann, "web-owner.png")
    # The bot plays the seat: the deal goes on until Ann's turn.
    wait_for_turn(ann)
    expect(eve.locator('#opponents .seat-box[data-seat="1"] .name')).to_have_text("medium 1")
    # The log names each seat as it was when the line was written: seat 2's bot robbed as
    # "medium", and its line keeps that name now that the table calls it "medium 2".
    expect(ann.locator('#opponents .seat-box[data-seat="2"] .name')).to_have_text("medium 2")
    expect(ann.locator("#log li").first).to_have_text(
        re.compile(r"^medium robs the trump: takes 6♣"))


def test_after_the_match_review_my_moves_then_play_again_with_the_same_seats(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    base = fresh_server(advice_level="medium")
    page = new_page(viewport={"width": 1280, "height": 900})
    first = create_table(page, base, "big-two-4card", ["you", "bot:greedy", "bot:random",
                                                        "bot:greedy"], options={"deals": "1"})
    page.click("#invite-btn")
    expect(page.locator("#message")).to_contain_text(f"#/table/{first}")
    play_deal(page, shed_most)
    expect_deal_over(page)
    # The hands left are laid down to be counted: the three opponents', never empty.
    expect(page.locator("#deal-over .shown .shown-hand")).to_have_count(4)
    page.click("#review-btn")
    review = page.locator("#deal-over #review")
    expect(review).to_be_visible(timeout=WAIT)
    moves = review.locator("li")
    assert moves.count() >= 1
    assert all(text.startswith(("move ", "? move ")) for text in moves.all_inner_texts())
    expect(review.locator("p")).to_contain_text("decisions reviewed")
    save_screenshot(page, "web-review.png", docs="web-review.png")
    page.click("#rematch-btn")
    page.wait_for_function("first => !location.hash.endsWith(first)", arg=first)
    expect(page.locator("#me .seat-box.mine .name")).to_have_text("Ann (you)")
    expect(page.locator("#hand .card")).to_have_count(13)
    seats = page.locator("#opponents .seat-box .name").all_inner_texts()
    assert len(seats) == 3 and any("random" in s for s in seats), seats


# -- people: profiles, ratings, the leaderboard ---------------------------------------------------


def test_a_profile_is_kept_across_a_restart_and_moved_to_another_browser(
        tmp_path: Path, new_page: Callable[..., Page]) -> None:
    database = tmp_path / "people.sqlite"
    page = new_page(allow=("401 (Unauthorized)",))  # its profile, deleted elsewhere
    with serving(database) as base:
        port = int(base.rsplit(":", 1)[1])
        page.goto(f"{base}/#/")
        page.fill("#profile-name", "Ann <img src=x onerror=alert(1)>")
        page.click("#create-profile")
        expect(page.locator("#my-page")).to_have_text("Ann <img src=x onerror=alert(1)>")
        assert page.locator("#profile-panel img").count() == 0  # the name is text
    with serving(database, port=port) as base:
        page.reload()
        expect(page.locator("#my-page")).to_have_text("Ann <img src=x onerror=alert(1)>")
        page.fill("#profile-rename", "Ann")
        page.click("#profile-panel button:has-text('Rename')")
        expect(page.locator("#my-page")).to_have_text("Ann")
        page.click("#copy-profile-link")
        link = page.input_value("#profile-link")
        assert "#profile=" in link
        # Another browser (its own storage) opens the link: the same person.
        other = new_page()
        other.goto(link)
        expect(other.locator("#my-page")).to_have_text("Ann")
        assert other.evaluate("() => location.hash") == "#/"  # the key left the address bar
        assert other.evaluate("() => localStorage.getItem('parlour.profile')") == \
            page.evaluate("() => localStorage.getItem('parlour.profile')")
        # Deleted there, it is gone here too, and this page says so.
        other.once("dialog", lambda dialog: dialog.accept())
        other.click("#delete-profile")
        expect(other.locator("#create-profile")).to_be_visible()
        page.reload()
        expect(page.locator("#profile-panel .error")).to_contain_text("that key is no profile's")


def test_a_finished_match_puts_the_player_on_the_leaderboard_and_their_page(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    from parlour.client import play_remote

    base = fresh_server()
    page = new_page()
    page.goto(f"{base}/#/")
    page.fill("#profile-name", "Bea")
    page.click("#create-profile")
    expect(page.locator("#my-page")).to_have_text("Bea")
    key = page.evaluate("() => localStorage.getItem('parlour.profile')")
    page.goto(f"{base}/#/leaderboard/big-two-4card")
    expect(page.locator("#leaderboard")).to_contain_text("Nobody is rated")
    # A match of one deal against bots, played at the seat taken with the profile.
    table = new_table(base, "big-two-4card", ["human", "easy", "easy", "easy"],
                      options={"deals": 1}, seed=3)
    token = post(base, f"/api/tables/{table['id']}/join", {"seat": 0, "profile": key})["token"]
    play_remote(base, table["id"], "greedy", token=token, deal_on=False)
    page.reload()
    expect(page.locator("#leaderboard tbody tr")).to_have_count(1)
    expect(page.locator("#leaderboard")).to_contain_text("Bea")
    page.click("#leaderboard a:has-text('Bea')")
    expect(page.locator("#person-name")).to_have_text("Bea")
    expect(page.locator("#person-ratings")).to_contain_text("big-two-4card")
    expect(page.locator("#person-ratings")).to_contain_text("after 1 match")
    expect(page.locator(".rating-plot circle")).to_have_count(1)
    expect(page.locator("#person-matches tbody tr")).to_have_count(1)
    expect(page.locator("#person-matches")).to_contain_text(" of 4")
    save_screenshot(page, "web-person.png", docs="web-person.png")


def test_two_processes_on_one_postgresql_database_list_each_others_tables(
        new_page: Callable[..., Page]) -> None:
    import uuid

    from parlour.web.store import Store
    from test_web_server import POSTGRES

    try:
        Store(POSTGRES).close()
    except Exception as e:
        pytest.fail(f"no PostgreSQL at {POSTGRES} (run scripts/install-postgresql.sh): {e}")
    names = [f"pa{uuid.uuid4().hex[:8]}", f"pb{uuid.uuid4().hex[:8]}"]
    try:
        with serving(POSTGRES, instance=names[0]) as a, serving(POSTGRES, instance=names[1]) as b:
            table = new_table(a, "forty-five", ["human", "greedy", "greedy", "greedy"])
            assert table["id"].startswith(names[0])
            page = new_page()
            page.goto(f"{b}/#/")
            expect(page.locator(f'#tables li[data-table-id="{table["id"]}"]')).to_have_count(1)
            # Made on b, it is listed on a.
            page.goto(f"{a}/#/")
            theirs = new_table(b, "rummy", ["human", "greedy"])
            page.click("#refresh-tables")
            expect(page.locator(f'#tables li[data-table-id="{theirs["id"]}"]')).to_have_count(1)
    finally:
        store = Store(POSTGRES)
        for name in names:
            store.delete_tables(name)
        store.close()


def test_the_replay_viewer_steps_through_a_deal_showing_only_what_the_seat_saw(
        fresh_server: Callable[..., str], new_page: Callable[..., Page]) -> None:
    import urllib.request as request

    from helpers import hidden_now
    from parlour.client import play_remote
    from parlour.records import replay_deal

    base = fresh_server()
    page = new_page()
    received: list[dict[str, Any]] = []
    page.on("response", lambda r: received.append(r.json()) if "/replay/" in r.url else None)
    page.goto(f"{base}/#/")
    page.fill("#profile-name", "Cam")
    page.click("#create-profile")
    expect(page.locator("#my-page")).to_have_text("Cam")
    key = page.evaluate("() => localStorage.getItem('parlour.profile')")
    table = new_table(base, "forty-five", ["human", "greedy", "greedy", "greedy"],
                      options={"target": 5}, seed=4)
    token = post(base, f"/api/tables/{table['id']}/join", {"seat": 0, "profile": key})["token"]
    play_remote(base, table["id"], "greedy", token=token)
    # From the person's own page to the replay of their match.
    page.click("#my-page")
    page.click("#person-matches a.replay-link >> nth=-1")
    expect(page.locator("#replay-title")).to_contain_text("from your seat (P0)")
    expect(page.locator("#replay-where")).to_have_text("as dealt")
    steps = int(page.get_attribute("#replay-step", "max") or 0)
    assert steps > 10
    # Forward a move at a time to the end, then back, by button and by key.
    for _ in range(steps):
        page.click("#replay-next")
    expect(page.locator("#replay-where")).to_have_text(f"move {steps} of {steps}")
    expect(page.locator("#replay-end")).to_contain_text("End of the deal")
    page.keyboard.press("Home")
    expect(page.locator("#replay-where")).to_have_text("as dealt")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-where")).to_have_text(f"move 1 of {steps}")
    page.click("#replay-moves li >> nth=4 >> button")
    expect(page.locator("#replay-where")).to_have_text(f"move 5 of {steps}")
    # The review marks the seat's own moves, and only those.
    page.click("#replay-review")
    expect(page.locator("#replay-moves .judged").first).to_be_visible()
    assert page.locator("#replay-moves li:not(.mine) .judged").count() == 0
    save_screenshot(page, "web-replay.png", docs="web-replay.png")
    # Everything the viewer received names no card the seat could not see at that step.
    with request.urlopen(f"{base}/api/tables/{table['id']}/record", timeout=10) as answer:
        record = json.loads(answer.read())
    frames = [r for r in received if "frames" in r]
    assert frames
    for replay in frames:
        state = replay_deal(record["deals"][replay["deal"] - 1])
        shown = state.game.new_deal(**state.setup())
        for frame, (_, action) in zip(replay["frames"], [(None, None), *state.history],
                                      strict=True):
            if action is not None:
                shown.apply(action)
            hidden = {str(c) for c in hidden_now(shown, 0)}
            assert not set(re.findall(r"\b(?:10|[2-9JQKA])[CDHS]\b", json.dumps(frame))) & hidden

# -- the chat -----------------------------------------------------------------------------------

#: Names and lines that would be markup if a page put them in as HTML.
XSS_NAME = "<img src=x onerror=alert(1)>"
SCRIPT_NAME = "<script>alert(2)</script>"


def chat_lines(page: Page) -> list[tuple[str, str]]:
    """The chat's lines shown: each one's writer and text."""
    lines: list[tuple[str, str]] = [
        (line.locator(".chat-name").inner_text(), line.locator(".chat-text").inner_text())
        for line in page.locator("#chat-lines .chat-line").all()]
    return lines


def test_chat_escaped_limited_and_muted(server: str, new_page: Callable[..., Page]) -> None:
    dialogs: list[str] = []

    def page_of(**options: Any) -> Page:
        page = new_page(**options)
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.add_init_script(RECORD_SENT)
        return page

    ann = page_of(viewport={"width": 1280, "height": 900})
    table = create_table(ann, server, "rummy", ["you", "human"], seed=7, name=XSS_NAME)
    bob = page_of(viewport={"width": 1280, "height": 900})
    bob.goto(f"{server}/#/")
    bob.fill("#player-name", SCRIPT_NAME)
    bob.click(f'.table-item[data-table-id="{table}"] button.join')
    bob.wait_for_url(f"**/#/table/{table}")
    # A spectator on a phone reads the chat, and has nothing to write with.
    watcher = page_of(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher.goto(f"{server}/#/table/{table}")
    for page in (ann, bob, watcher):
        expect(page.locator("#table-view")).to_have_attribute("data-status", "playing")
        expect(page.locator("#chat-lines .chat-line")).to_have_count(0)
    expect(watcher.locator("#chat-watching")).to_be_visible()
    expect(watcher.locator("#chat-form")).to_be_hidden()
    expect(watcher.locator("#chat-reactions")).to_be_hidden()
    expect(ann.locator("#chat-form")).to_be_visible()
    expect(ann.locator("#chat-reactions button")).to_have_count(5)

    # Ann's turn: letters typed in the chat are words, not the table's keys (w draws, ? shows
    # the keys …).
    while not wait_for_turn(ann) or attr(ann, "data-your-turn") != "true":
        play(bob, rummy_move(legal_moves(bob)))
    version = attr(ann, "data-version")
    said = "wow, d m x c h ? <b>bold</b> <img src=x onerror=alert(3)>"
    ann.locator("#chat-text").click()
    ann.keyboard.type(said)
    ann.keyboard.press("Enter")
    for page in (ann, bob, watcher):
        expect(page.locator("#chat-lines .chat-line")).to_have_count(1)
        assert chat_lines(page) == [(XSS_NAME, said)]
        # Text, never markup: no element came of it, and no script ran.
        assert page.locator("#chat img, #chat b, #chat script").count() == 0
    expect(ann.locator("#chat-text")).to_have_value("")
    expect(ann.locator("#keys-help")).not_to_have_attribute("open", "")
    assert attr(ann, "data-version") == version
    sent = [json.loads(m) for m in ann.evaluate("window.sent")]
    assert [m["type"] for m in sent if m["type"] != "hello"] == ["chat"]
    assert sent[-1]["text"] == said

    # Bob reacts; his name, a script, is text too.
    bob.click('#chat-reactions button[data-reaction="good-luck"]')
    for page in (ann, bob, watcher):
        expect(page.locator("#chat-lines .chat-line")).to_have_count(2)
        expect(page.locator("#chat-lines .chat-line.reaction")).to_have_count(1)
        assert chat_lines(page)[1] == (SCRIPT_NAME, "Good luck!")
        assert page.locator("#chat script").count() == 0

    # A line too long is refused, saying the limit; it comes back to be mended, and nobody
    # else sees anything.
    bob.fill("#chat-text", "x" * 201)
    bob.click("#chat-send")
    expect(bob.locator("#chat-error")).to_have_text(
        "a chat line is at most 200 characters: this one has 201")
    expect(bob.locator("#chat-text")).to_have_value("x" * 201)
    bob.fill("#chat-text", "sorry, shorter")
    expect(bob.locator("#chat-error")).to_be_hidden()
    bob.keyboard.press("Enter")
    for page in (ann, bob, watcher):
        expect(page.locator("#chat-lines .chat-line")).to_have_count(3)
        assert chat_lines(page)[2] == (SCRIPT_NAME, "sorry, shorter")

    # The spectator mutes Ann: her lines are hidden from them alone, new ones too, and the
    # mute is kept across a reload.
    mute = watcher.locator('#chat-mutes button.mute[data-seat="0"]')
    expect(mute).to_have_text(f"Mute {XSS_NAME}")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(watcher.locator("#chat-lines .chat-line")).to_have_count(2)
    expect(watcher.locator("#chat-muted")).to_have_text("1 line from muted players hidden")
    ann.fill("#chat-text", "can you hear me?")
    ann.keyboard.press("Enter")
    expect(bob.locator("#chat-lines .chat-line")).to_have_count(4)
    expect(watcher.locator("#chat-muted")).to_have_text("2 lines from muted players hidden")
    watcher.reload()
    expect(watcher.locator("#chat-muted")).to_have_text("2 lines from muted players hidden")
    assert [name for name, _ in chat_lines(watcher)] == [SCRIPT_NAME, SCRIPT_NAME]
    assert fits_the_width(watcher)
    watcher.locator("#chat-lines").scroll_into_view_if_needed()
    expect(watcher.locator("#chat-lines")).to_be_in_viewport()
    save_screenshot(watcher, "web-chat-phone.png")
    watcher.locator('#chat-mutes button.mute[data-seat="0"]').click()
    expect(watcher.locator("#chat-lines .chat-line")).to_have_count(4)
    expect(watcher.locator("#chat-muted")).to_be_hidden()
    # Bob never muted anyone: he reads everything.
    assert [text for _, text in chat_lines(bob)] == [
        said, "Good luck!", "sorry, shorter", "can you hear me?"]
    save_screenshot(ann, "web-chat.png")
    assert dialogs == []

# -- the first-game tutorial ----------------------------------------------------------------------


def note_keys(page: Page, selector: str = "#tutorial-notes li") -> list[str]:
    """The keys of the tutorial's notes shown, as the panel lists them (newest first)."""
    keys: list[str] = page.eval_on_selector_all(selector, "items => items.map(i => i.dataset.key)")
    return keys


@pytest.mark.parametrize(("family", "expected"), [
    ("climbing", {"opening", "order", "beat", "lead", "scoring"}),
    ("trump", {"trumps", "partners", "rob", "trick", "lead", "scoring"}),
    ("rummy", {"draw", "meld", "discard", "scoring"}),
])
def test_a_tutorial_from_the_lobby_played_to_the_end_by_its_hints(
        fresh_server: Callable[..., str], new_page: Callable[..., Page], family: str,
        expected: set[str]) -> None:
    base = fresh_server(advice_level="medium")
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/#/")
    entry = page.locator(f'#learn-games li[data-family="{family}"]')
    expect(page.locator("#learn")).to_be_visible()
    expect(page.locator("#learn-games li")).to_have_count(3)
    page.fill("#player-name", "Ann")
    entry.locator("button.learn-start").click()
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector('#table-view[data-tutorial="true"]')
    table_id = page.url.rsplit("/", 1)[1]
    panel = page.locator("#tutorial")
    expect(panel).to_be_visible()
    expect(page.locator("#tutorial-title")).to_have_text(re.compile(r"^Tutorial: "))
    watcher = new_page()  # a spectator sees the table, never the notes of the person's hand
    watcher.goto(f"{base}/#/table/{table_id}")
    watcher.wait_for_selector('#table-view[data-tutorial="false"]')
    expect(watcher.locator("#tutorial")).to_be_hidden()
    arisen: list[list[str]] = []
    turns = 0
    while wait_for_turn(page):
        assert turns < MAX_MOVES, "the tutorial's deal did not end"
        # The hint is shown at every turn, unasked, its cards selected in the hand.
        hint = page.locator('#message[data-kind="hint"]')
        expect(hint).to_be_visible()
        action = hint.get_attribute("data-action")
        move = next(m for m in legal_moves(page) if m["action"] == action)
        held = [c for c in move["cards"] if page.locator(f'#hand .card[data-card="{c}"]').count()]
        expect(page.locator("#hand .card.selected")).to_have_count(len(held))
        keys = note_keys(page)
        assert keys[-1] == "intro" and "hint" in keys and len(keys) == len(set(keys))
        new = note_keys(page, "#tutorial-notes li.new")
        assert keys[:len(new)] == new  # the new notes are the newest, at the top
        if turns == 0:
            assert new == keys  # every note is new at the first turn
        else:
            assert "intro" not in new  # read at the first turn
        arisen.append(new)
        if family == "climbing" and turns == 2:
            save_screenshot(page, "web-tutorial.png", docs="web-tutorial.png")
        version = attr(page, "data-version")
        page.click(f'#verbs button[data-verb="{move["verb"]}"]')
        if page.locator("#choices:not([hidden])").count():
            page.click(f'#choices button[data-action="{action}"]')
        page.wait_for_function(
            "version => document.querySelector('#table-view').dataset.version !== version",
            arg=version)
        turns += 1
    expect_deal_over(page)
    keys = note_keys(page)
    assert keys[0] == "end" and keys[-1] == "intro" and len(keys) == len(set(keys))
    assert expected <= set(keys), keys
    assert sum(1 for new in arisen[1:] if new) >= 2  # notes came as the rules arose
    text = panel.inner_text()
    assert "The end of the tutorial" in text and not LETTERS.search(text), text
    assert "Human" not in text and "Computer" not in text
    # The lobby lists it as a tutorial.
    page.goto(f"{base}/#/")
    item = page.locator(f'#tables li[data-table-id="{table_id}"]')
    expect(item.locator(".tag.tutorial")).to_have_text("tutorial")


def test_a_tutorial_that_cannot_be_made_says_why(fresh_server: Callable[..., str],
                                                 new_page: Callable[..., Page]) -> None:
    base = fresh_server(max_tables=0)
    page = new_page(allow=("503",))
    page.goto(f"{base}/#/")
    page.locator('#learn-games li[data-family="rummy"] button').click()
    expect(page.locator("#learn-error")).to_contain_text("most open tables")
    assert "#/table/" not in page.url
