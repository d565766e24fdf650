"""Sound: made in code for each event, silent before your first gesture, muted by the settings switch (remembered).

window.__test.sounds() (web/table/sound.js) counts the sounds scheduled on the
Web Audio context by name, and the ones dropped (muted, before a gesture).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .access import COMPUTER_MARRIES_AND_CLOSES, press, press_and_confirm, sounds
from .conftest import BOOT_TIMEOUT_MS, ROOT, Site, Watch
from .helpers import actions, answer_question, legal_cards, new_game, open_table, phase, wait_ready
from .test_table import OVER, SCRIPTED_AT20

pytestmark = pytest.mark.browser


def play_by_keys(page: Page, moves: list[str]) -> None:
    """Make moves with the shortcut keys: a card by its place in your hand, an action by its letter."""
    letters = {"exchange": "e", "marry:H": "m", "close": "c", "claim": "a", "pass": "p", "next": "n"}
    for move in moves:
        if move in letters:
            assert move in actions(page), f"{move} is not offered: {actions(page)}"
            if move == "claim":
                press_and_confirm(page, letters[move], "claim")
            else:
                press(page, letters[move])
        else:
            hand = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
            assert move in legal_cards(page)
            press(page, str(hand.index(move) + 1))


def test_a_sound_for_each_event_and_none_before_a_gesture(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    # The computer declares, closes and leads before you have touched the page: nothing sounds.
    new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    quiet = sounds(page)
    assert quiet["on"] and not quiet["gestured"]
    assert quiet["scheduled"] == {}
    assert quiet["dropped"]["beforeGesture"] >= 3  # marriage, close, play
    # Your first key press is the gesture: from then on each event has its sound.
    new_game(page, **SCRIPTED_AT20)
    page.locator("body").focus()
    play_by_keys(page, ["exchange", "marry:H", "close", "KH", "AH", "TH", "claim"])
    heard = sounds(page)
    assert heard["gestured"] and heard["available"]
    scheduled: dict[str, int] = heard["scheduled"]
    assert scheduled["exchange"] == 1
    assert scheduled["marriage"] == 1
    assert scheduled["close"] == 1
    assert scheduled["play"] == 6  # three tricks of two cards
    assert scheduled["trickWon"] == 3
    assert scheduled["win"] == 1
    assert "lose" not in scheduled and "trickLost" not in scheduled


@pytest.mark.page_logic
def test_a_lost_deal_sounds_different(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    page.locator("body").focus()
    page.keyboard.press("Shift")  # a gesture that does nothing else
    new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    while phase(page) not in OVER:
        cards = legal_cards(page)
        if cards:
            play_by_keys(page, [cards[0]])
        else:
            play_by_keys(page, ["pass" if "pass" in actions(page) else "claim"])
    scheduled = sounds(page)["scheduled"]
    assert scheduled["marriage"] == 1 and scheduled["close"] == 1
    assert scheduled["trickLost"] >= 1
    assert scheduled["lose"] == 1 and "win" not in scheduled


def test_the_mute_switch_silences_every_sound_and_is_remembered(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    page.locator("body").focus()
    play_by_keys(page, ["exchange"])
    before = sounds(page)
    assert before["scheduled"] == {"exchange": 1}
    page.locator("#open-settings").click()
    expect(page.locator("#setting-sound")).to_be_checked()
    page.locator("#setting-sound").uncheck()
    page.locator("[data-action='settings-save']").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    page.wait_for_function("() => window.__test.sounds().on === false")  # saved by the dialog's close event
    wait_ready(page)
    page.locator("body").focus()
    play_by_keys(page, ["marry:H", "close", "KH"])
    after = sounds(page)
    assert not after["on"]
    assert after["scheduled"] == before["scheduled"], "a sound was scheduled while muted"
    assert after["dropped"]["muted"] >= 4  # marriage, close, two cards, a trick
    # Remembered across visits.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert sounds(page)["on"] is False
    page.locator("#open-settings").click()
    expect(page.locator("#setting-sound")).not_to_be_checked()
    # Turned on again, sound comes back.
    page.locator("#setting-sound").check()
    page.locator("[data-action='settings-new-game']").click()
    answer_question(page, "abandon")  # the deal in play
    expect(page.locator("#settings-dialog")).to_be_hidden()
    page.wait_for_function("() => window.__test.sounds().on === true")
    new_game(page, **SCRIPTED_AT20)
    page.locator("body").focus()
    heard = sounds(page)["scheduled"]  # the new game's computer may have led already
    play_by_keys(page, ["exchange"])
    assert sounds(page)["scheduled"] == {**heard, "exchange": heard.get("exchange", 0) + 1}


@pytest.fixture
def reduced_motion_page(context: BrowserContext) -> Page:
    """A page whose browser prefers reduced motion (emulated for this page, in the test's warm context)."""
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    return page


@pytest.mark.page_logic
def test_reduced_motion_makes_the_sounds_softer(
    site: Site, reduced_motion_page: Page, page: Page, watch: Watch
) -> None:
    soft_page = reduced_motion_page
    watch.attach(soft_page)
    open_table(soft_page, site.url)
    new_game(soft_page, **SCRIPTED_AT20)
    soft_page.locator("body").focus()
    play_by_keys(soft_page, ["exchange"])
    soft = sounds(soft_page)
    assert soft["soft"] and soft["scheduled"] == {"exchange": 1}
    soft_page.close()  # one live table per browser: the other page would wait for this one's
    open_table(page, site.url)
    normal = sounds(page)
    assert not normal["soft"]
    assert soft["volume"] < normal["volume"]


def test_the_sounds_are_made_in_code() -> None:
    """No audio files: the sounds are synthesised (oscillators and a noise buffer) in web/table/sound.js."""
    web = ROOT / "web"
    audio = [
        p for p in web.rglob("*") if p.suffix.lower() in {".mp3", ".ogg", ".wav", ".m4a", ".aac", ".flac", ".opus"}
    ]
    assert audio == []
    source = (web / "table" / "sound.js").read_text(encoding="utf-8")
    assert "createOscillator" in source and "createBuffer" in source
