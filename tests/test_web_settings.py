"""The table's settings in a real browser (Debian's chromium, as in ``test_web_browser``): the
hand's order, the cards' size, the four-colour deck, sounds and animations, changed in the
settings dialog, kept in this browser across a reload, and read defensively from storage.

The server, the browser and the pages (each its own localStorage; any console error fails the
test) are ``test_web_browser``'s fixtures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

import test_web_browser as web
from test_web_browser import (
    RECORD_SENT,
    actions_sent,
    create_table,
    focused_card,
    key_play,
    legal_moves,
    play,
    shed_most,
    tab_to_hand,
    wait_for_turn,
)

# The fixtures of test_web_browser, for this module's tests.
server = web.server
browser = web.browser
new_page = web.new_page

KEY = "parlour.settings.v1"
DESKTOP = {"width": 1280, "height": 900}
FOUR = ["you", "bot:greedy", "bot:greedy", "bot:greedy"]
DEFAULTS = {"sort": "game", "cardSize": "medium", "fourColour": "off", "sounds": "off",
            "motion": "on"}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
#: Big Two ranks its cards from 3 up to 2, and the suits of one rank ♦ ♣ ♥ ♠.
BIG_TWO_RANKS = RANKS[1:] + RANKS[:1]
BIG_TWO_SUITS = "DCHS"
#: The suits' fills on a card's face: the deck's two colours, or four.
RED, BLACK = "rgb(198, 40, 40)", "rgb(27, 27, 31)"
GREEN, BLUE = "rgb(19, 115, 51)", "rgb(29, 78, 216)"


def big_two_order(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (BIG_TWO_RANKS.index(c[:-1]), BIG_TWO_SUITS.index(c[-1])))


def by_suit(cards: list[str]) -> list[str]:
    """The suits apart, ♠ ♥ ♣ ♦, each in the order given."""
    return sorted(cards, key=lambda c: "SHCD".index(c[-1]))


def by_rank(cards: list[str]) -> list[str]:
    """Twos up to aces, the cards of one rank in the order given."""
    return sorted(cards, key=lambda c: RANKS.index(c[:-1]))


def hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    return cards


def root(page: Page) -> dict[str, str]:
    """The settings as the page's root element shows them to the style sheet."""
    shown: dict[str, str] = page.evaluate("({...document.documentElement.dataset})")
    return {name: shown.get(name, "") for name in DEFAULTS}


def stored(page: Page) -> object:
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')") or "null")


def card_width(page: Page) -> float:
    box = page.locator("#hand .card").first.bounding_box()
    assert box is not None
    return box["width"]


def fills(page: Page) -> dict[str, set[str]]:
    """The fill of every card's face drawn on the page, by suit: hand, felt and preview alike."""
    found: dict[str, list[str]] = page.evaluate("""() => {
        const fills = {};
        for (const suit of "CDHS") {
            fills[suit] = [...document.querySelectorAll(`.card-svg.suit-${suit}`)]
                .map((svg) => getComputedStyle(svg).fill);
        }
        return fills;
    }""")
    return {suit: set(values) for suit, values in found.items()}


def open_settings(page: Page) -> None:
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("dialog", name="Table settings")).to_be_visible()


def sit_at_big_two(page: Page, base: str) -> None:
    """Create a Big Two table and sit at it, with a hand of 13 cards, two of them twos, that
    leads the first trick."""
    create_table(page, base, "big-two", FOUR, seed=16)
    expect(page.locator("#hand .card")).to_have_count(13)


# -- kept after a reload ---------------------------------------------------------------------------


def test_settings_are_kept_after_a_reload(server: str, new_page: Callable[..., Page]) -> None:
    """Each setting changed in the dialog applies at once and is kept in this browser: after a
    reload, the hand is in the chosen order, the cards at the chosen size and in four colours,
    and the dialog shows every choice as it was left."""
    page = new_page(viewport=DESKTOP)
    sit_at_big_two(page, server)
    # A browser that never chose: the table as it always was, in the game's own order.
    assert root(page) == DEFAULTS
    assert stored(page) is None
    dealt = hand(page)
    assert dealt == big_two_order(dealt)
    assert card_width(page) == pytest.approx(74, abs=0.5)
    assert fills(page)["C"] == {BLACK} and fills(page)["D"] == {RED}

    open_settings(page)
    dialog = page.get_by_role("dialog", name="Table settings")
    for label, default in (("Sort my hand", "game"), ("Card size", "medium")):
        expect(dialog.get_by_label(label)).to_have_value(default)
    for label in ("Four-colour deck", "Sounds", "Card animations"):
        expect(dialog.get_by_label(re.compile(label))).to_be_checked(checked=label == "Card animations")

    dialog.get_by_label("Sort my hand").select_option("suit")
    assert hand(page) == by_suit(dealt)
    dialog.get_by_label("Card size").select_option("large")
    assert card_width(page) == pytest.approx(74 * 1.25, abs=0.5)
    dialog.get_by_label(re.compile("Four-colour deck")).check()
    assert fills(page) == {"C": {GREEN}, "D": {BLUE}, "H": {RED}, "S": {BLACK}}
    dialog.get_by_label(re.compile("Sounds")).check()
    dialog.get_by_label("Card animations").uncheck()
    chosen = {"sort": "suit", "cardSize": "large", "fourColour": "on", "sounds": "on",
              "motion": "off"}
    assert root(page) == chosen
    assert stored(page) == {"sort": "suit", "size": "large", "fourColour": True, "sounds": True,
                            "motion": False}
    # Escape closes the dialog, and the focus goes back to its button.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name="Settings")).to_be_focused()

    page.reload()
    expect(page.locator("#hand .card")).to_have_count(13)
    assert root(page) == chosen
    assert hand(page) == by_suit(dealt)
    assert card_width(page) == pytest.approx(74 * 1.25, abs=0.5)
    assert fills(page)["C"] == {GREEN} and fills(page)["D"] == {BLUE}
    open_settings(page)
    expect(dialog.get_by_label("Sort my hand")).to_have_value("suit")
    expect(dialog.get_by_label("Card size")).to_have_value("large")
    expect(dialog.get_by_label(re.compile("Four-colour deck"))).to_be_checked()
    expect(dialog.get_by_label(re.compile("Sounds"))).to_be_checked()
    expect(dialog.get_by_label("Card animations")).not_to_be_checked()

    # By rank, small: kept too; and back to the game's order.
    dialog.get_by_label("Sort my hand").select_option("rank")
    dialog.get_by_label("Card size").select_option("small")
    page.reload()
    expect(page.locator("#hand .card")).to_have_count(13)
    assert hand(page) == by_rank(dealt) != dealt
    assert card_width(page) == pytest.approx(74 * 0.85, abs=0.5)
    open_settings(page)
    dialog.get_by_label("Sort my hand").select_option("game")
    assert hand(page) == dealt


def test_settings_chosen_in_the_lobby_apply_at_the_table(
        server: str, new_page: Callable[..., Page]) -> None:
    """The dialog opens from the lobby too; a phone's cards take the size chosen, and the hand
    still fits the screen."""
    page = new_page(viewport=web.PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"{server}/#/")
    page.wait_for_selector("#variant option", state="attached")
    open_settings(page)
    page.get_by_label("Card size").select_option("large")
    page.get_by_label("Sort my hand").select_option("rank")
    page.get_by_role("button", name="Done").click()
    expect(page.get_by_role("dialog", name="Table settings")).to_be_hidden()
    sit_at_big_two(page, server)
    assert card_width(page) == pytest.approx(56 * 1.25, abs=0.5)
    assert hand(page) == by_rank(hand(page))
    expect(page.locator("#hand.two-rows")).to_have_count(1)
    assert web.fits_the_width(page)


# -- the hand sorted, and the keyboard -------------------------------------------------------------


def test_a_sorted_hand_is_walked_and_played_by_keyboard_as_shown(
        server: str, new_page: Callable[..., Page]) -> None:
    """The arrows follow the cards as they are laid out; the moves go out as their cards, in
    whatever order the hand shows them. Keys typed in the dialog are the dialog's, never the
    table's."""
    page = new_page(viewport=DESKTOP)
    page.add_init_script(RECORD_SENT)
    sit_at_big_two(page, server)
    open_settings(page)
    dialog = page.get_by_role("dialog", name="Table settings")
    dialog.get_by_label("Sort my hand").select_option("suit")
    # The table's letters, Space and the arrows, pressed in the dialog: nothing at the table.
    dialog.get_by_role("button", name="Done").focus()
    for key in ("h", "c", "p", "a", "?", "n", "1"):
        page.keyboard.press(key)
    expect(page.locator("#keys-help")).not_to_have_attribute("open", "")
    expect(page.locator('#message[data-kind="hint"]')).to_have_count(0)
    assert actions_sent(page) == []
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # Closed, the keys are the table's again.
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_have_attribute("open", "")

    assert wait_for_turn(page)
    shown = hand(page)
    assert shown == by_suit(big_two_order(shown))
    assert tab_to_hand(page) == shown[0]
    for key, card in (("ArrowRight", shown[1]), ("End", shown[-1]), ("Home", shown[0])):
        page.keyboard.press(key)
        assert focused_card(page) == card, key
    move = shed_most(legal_moves(page))
    key_play(page, move)
    sent = actions_sent(page)[-1]
    assert sent["verb"] == move["verb"] and sorted(sent["cards"]) == sorted(move["cards"])
    left = hand(page)
    assert left == by_suit(big_two_order(left))


# -- read defensively ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kept", "applied"), [
    ("{not json", {}),
    ('"large"', {}),
    ("[1, 2, 3]", {}),
    ("null", {}),
    ("42", {}),
    # Nothing but known words and true or false: markup, objects and other types are dropped,
    # and so is an inherited property.
    ('{"sort": "suit\\"><img src=x onerror=alert(1)>", "size": {"toString": "large"}, '
     '"fourColour": "yes", "sounds": 1, "motion": null, "__proto__": {"sort": "rank"}, '
     '"constructor": "x"}', {}),
    ('{"sort": "constructor", "size": "huge", "fourColour": true, "extra": [1]}',
     {"fourColour": "on"}),
], ids=["not-json", "a-string", "a-list", "null", "a-number", "hostile", "partly-known"])
def test_a_corrupt_or_hostile_stored_value_falls_back_to_the_defaults(
        server: str, new_page: Callable[..., Page], kept: str, applied: dict[str, str]) -> None:
    """Whatever the browser's storage holds under the settings' key, the page loads without an
    error (any would fail the test) and shows the defaults, but for the settings it can read."""
    page = new_page(viewport=DESKTOP)
    page.goto(f"{server}/#/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, kept])
    page.reload()
    page.wait_for_selector("#variant option", state="attached")
    assert root(page) == {**DEFAULTS, **applied}
    open_settings(page)
    expect(page.get_by_label("Sort my hand")).to_have_value("game")
    expect(page.get_by_label("Card size")).to_have_value("medium")
    expect(page.get_by_label(re.compile("Sounds"))).not_to_be_checked()
    # The next change writes good settings over the bad.
    page.get_by_label("Card size").select_option("large")
    assert stored(page) == {"sort": "game", "size": "large", "fourColour": "fourColour" in applied,
                            "sounds": False, "motion": True}


# -- animations ------------------------------------------------------------------------------------


#: The animation of each card that came onto the felt, as the page drew it, in
#: ``window.arrivals``.
WATCH_ARRIVALS = """window.arrivals = [];
    new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) {
            if (!(node instanceof Element)) continue;
            for (const card of node.querySelectorAll?.(".card.arrive") ?? []) {
                window.arrivals.push(getComputedStyle(card).animationName);
            }
        }
    }).observe(document, { childList: true, subtree: true });"""


@pytest.mark.parametrize(("motion", "reduced", "moving"), [
    (True, "no-preference", True),
    (True, "reduce", False),
    (False, "no-preference", False),
], ids=["on", "reduced-motion", "turned-off"])
def test_cards_ease_onto_the_felt_unless_motion_is_reduced_or_turned_off(
        server: str, new_page: Callable[..., Page], motion: bool, reduced: str,
        moving: bool) -> None:
    """A card that comes onto the felt eases in, and a selected card rises, gently; with the
    system's reduced motion, or the animations turned off, nothing moves."""
    page = new_page(viewport=DESKTOP, reduced_motion=reduced)
    page.add_init_script(WATCH_ARRIVALS)
    page.goto(f"{server}/#/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [KEY, json.dumps({"motion": motion})])
    page.reload()
    sit_at_big_two(page, server)
    assert wait_for_turn(page)
    play(page, shed_most(legal_moves(page)))
    page.wait_for_function("() => window.arrivals.length > 0")
    assert set(page.evaluate("window.arrivals")) == {"card-arrive" if moving else "none"}
    transition = page.locator("#hand .card").first.evaluate(
        "c => getComputedStyle(c).transitionDuration")
    assert transition == ("0.12s" if moving else "0s")
    # A table opened (here, reloaded) eases in nothing it shows: only what comes after.
    assert wait_for_turn(page)
    page.reload()
    assert wait_for_turn(page)
    expect(page.locator("#felt .card[data-card]")).not_to_have_count(0)
    assert page.evaluate("window.arrivals") == []


# -- sounds ----------------------------------------------------------------------------------------

#: Every tone the page starts, by its oscillator's type ("sine": the turn's chime, "triangle":
#: a card played), in ``window.tones``; the audio contexts it makes, in ``window.contexts``.
RECORD_AUDIO = """window.tones = []; window.contexts = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
        constructor(...args) { super(...args); window.contexts += 1; }
        createOscillator() {
            const oscillator = super.createOscillator();
            const start = oscillator.start.bind(oscillator);
            oscillator.start = (...args) => { window.tones.push(oscillator.type); return start(...args); };
            return oscillator;
        }
    };"""


def tones(page: Page) -> list[str]:
    made: list[str] = page.evaluate("window.tones")
    return made


def test_sounds_are_off_until_switched_on_then_kept(server: str,
                                                    new_page: Callable[..., Page]) -> None:
    page = new_page(viewport=DESKTOP)
    page.add_init_script(RECORD_AUDIO)
    sit_at_big_two(page, server)
    # Off: moves are played, and the page never so much as sets up audio.
    for _ in range(2):
        assert wait_for_turn(page)
        play(page, shed_most(legal_moves(page)))
    assert page.evaluate("window.contexts") == 0 and tones(page) == []

    # Switched on (a click: the page may make sounds now), with the chime to hear.
    open_settings(page)
    page.get_by_label(re.compile("Sounds")).check()
    page.wait_for_function("() => window.tones.length > 0")
    assert set(tones(page)) == {"sine"}
    page.keyboard.press("Escape")
    before = len(tones(page))
    assert wait_for_turn(page)
    play(page, shed_most(legal_moves(page)))
    # The card played taps; the turn, once it comes back, chimes.
    page.wait_for_function("n => window.tones.slice(n).includes('triangle')", arg=before)
    if wait_for_turn(page):
        page.wait_for_function("n => window.tones.slice(n).includes('sine')", arg=before)
    assert page.evaluate("window.contexts") == 1

    # Kept after a reload; but before a click or a key on the reloaded page, no sound is made,
    # nor audio set up: the browser would refuse it.
    assert wait_for_turn(page)
    page.reload()
    assert wait_for_turn(page)
    assert root(page)["sounds"] == "on"
    assert page.evaluate("window.contexts") == 0 and tones(page) == []
    play(page, shed_most(legal_moves(page)))
    page.wait_for_function("() => window.tones.includes('triangle')")
    open_settings(page)
    expect(page.get_by_label(re.compile("Sounds"))).to_be_checked()
