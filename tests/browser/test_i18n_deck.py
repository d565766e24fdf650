"""Languages and card patterns in the browser: every language renders the table, the deck switch redraws the cards.

The words expected here are read from web/i18n/*.json, so the tests check
that the page shows the translation files' text (tests/test_i18n.py checks
the files themselves).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, ROOT, Site, Watch
from .helpers import PAGE_LANGUAGE_JS, TABLE, do, new_game, open_table, table_data, wait_ready

pytestmark = pytest.mark.browser

I18N = ROOT / "web" / "i18n"
LANGUAGES = ("en", "hu", "de", "ro", "pl", "sr")
HTML_LANG = {"en": "en", "hu": "hu", "de": "de", "ro": "ro", "pl": "pl", "sr": "sr-Latn"}
#: The card pattern each language gets while the player has not chosen one (web/screens/settings.js).
DEFAULT_DECK = {"en": "french", "hu": "tell", "de": "tell", "ro": "tell", "pl": "french", "sr": "tell"}
# HU24, the computer deals: you lead from six cards.
YOU_LEAD = {"preset": "HU24", "seed": 4, "dealer": 1}
# KLUB20 allows resigning: one click ends the deal.
RESIGNABLE = {"preset": "KLUB20", "seed": 3, "dealer": 1, "match": False}


def words(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((I18N / f"{language}.json").read_text(encoding="utf-8"))
    return data


def choose(page: Page, *, language: str | None = None, deck: str | None = None) -> None:
    """Pick a language and/or a card pattern in the settings dialog and save."""
    page.locator("#open-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    if language:
        page.select_option("#setting-language", language)
    if deck:
        page.select_option("#setting-deck", deck)
    page.locator("[data-action='settings-save']").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    if language:
        expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[language])
    if deck:
        expect(page.locator(TABLE)).to_have_attribute("data-deck", deck)
    wait_ready(page)


def no_missing_keys(page: Page) -> None:
    assert page.evaluate("window.__test.missingKeys()") == []
    assert page.locator("html").get_attribute("data-i18n-missing") is None
    assert "⟦" not in page.locator("body").inner_text()


def card_art(page: Page) -> dict[str, Any]:
    """The pattern every card on the table is drawn in, by its hooks and by the SVG symbols it uses."""
    art: dict[str, Any] = page.evaluate(
        """() => ({
            decks: [...document.querySelectorAll('#table .card')].map(c => c.dataset.deck),
            faces: [...document.querySelectorAll('#my-hand .card svg use, #stock .trump-card:not(.turned) svg use')]
                .map(u => u.getAttribute('href')),
            backs: [...document.querySelectorAll('#opp-hand .card.back svg use, #stock .talon svg use')]
                .map(u => u.getAttribute('href')),
            badge: document.querySelector('#stock .trump-badge use').getAttribute('href'),
            labels: [...document.querySelectorAll('#my-hand .card')].map(c => c.getAttribute('aria-label')),
            corner: document.querySelector('#my-hand .card text.rank').textContent,
        })"""
    )
    return art


def label(language: str, deck: str, code: str) -> str:
    w = words(language)
    rank, suit = w[f"rank.{deck}.{code[0]}"], w[f"suit.{deck}.{code[1]}"]
    text: str = w["card.label"].replace("{rank}", rank).replace("{suit}", suit)
    return text


@pytest.mark.page_logic
def test_the_deck_switch_redraws_every_card_and_is_remembered(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)  # an English browser: French suits until you choose
    new_game(page, **YOU_LEAD)
    hand: list[str] = page.evaluate("window.__test.view().hand")
    before = card_art(page)
    assert set(before["decks"]) == {"french"}
    # Suit signs, and the figures of the court cards.
    assert before["faces"] and all(href.startswith(("#suit-french-", "#court-french-")) for href in before["faces"])
    assert before["backs"] and set(before["backs"]) == {"#back-french"}
    assert before["labels"] == [label("en", "french", code) for code in hand]

    choose(page, deck="tell")
    after = card_art(page)
    assert set(after["decks"]) == {"tell"}
    assert after["faces"] and all(href.startswith(("#suit-tell-", "#court-tell-")) for href in after["faces"])
    assert set(after["backs"]) == {"#back-tell"}
    assert after["badge"].startswith("#suit-tell-")
    assert after["labels"] == [label("en", "tell", code) for code in hand]  # "Ober of leaves"
    # The same cards, redrawn: the game itself did not change.
    assert page.evaluate("window.__test.view().hand") == hand
    no_missing_keys(page)

    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert page.evaluate("window.__test.settings().deck") == "tell"
    assert set(card_art(page)["decks"]) == {"tell"}

    choose(page, deck="french")
    assert set(card_art(page)["decks"]) == {"french"}


def check_table(page: Page, language: str) -> None:
    """The table mid-deal (you lead, HU24) in ``language``."""
    w = words(language)
    deck = DEFAULT_DECK[language]
    expect(page.locator(".seat-me .seat-name")).to_have_text(w["seat.you"])
    expect(page.locator(".seat-opponent .seat-name")).to_have_text(w["seat.computer"])
    expect(page.locator("#status")).to_have_text(w["status.lead"])
    expect(page.locator("#rules-name")).to_have_text(w["preset.HU24"])
    expect(page.locator("#stock .trump-word")).to_have_text(w["stock.trumps"])
    expect(page.locator("#stock .talon-count")).to_have_text(w["stock.inTalon"].replace("{n}", "11"))
    expect(page.locator("#panel h2").first).to_have_text(w["panel.lastTrick"])
    assert page.title() == w["app.title"]
    assert table_data(page)["deck"] == deck  # no pattern chosen: the language's usual one
    hand: list[str] = page.evaluate("window.__test.view().hand")
    assert card_art(page)["labels"] == [label(language, deck, code) for code in hand]
    assert card_art(page)["corner"] == w[f"rankShort.{deck}.{hand[0][0]}"]
    # The settings dialog speaks it too.
    page.locator("#open-settings").click()
    expect(page.locator("#settings-title")).to_have_text(w["settings.title"])
    expect(page.locator("#setting-level option").first).to_have_text(w["level.1"])
    expect(page.locator("#setting-preset option[value='AT20']")).to_have_text(w["preset.AT20"])
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).to_be_hidden()
    no_missing_keys(page)


def check_result(page: Page, language: str) -> None:
    """The end of a deal you resigned, in ``language``: told from the result's code, basis and winner."""
    w = words(language)
    result = page.locator("#result")
    expect(result.locator(".result-title")).to_have_text(w["result.deal.opp"])
    reason = result.locator(".result-reason").inner_text()
    assert reason.startswith(w["result.code.resigned.me"]), reason
    basis = page.evaluate("window.__test.view().deal_result.basis")
    assert w[f"result.basis.{basis}.me"] in reason, reason
    expect(result.locator("[data-action='new-game']")).to_have_text(w["action.newMatch"])
    no_missing_keys(page)


@pytest.mark.page_logic
def test_every_language_renders_the_table_and_is_remembered(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **YOU_LEAD)
    for language in LANGUAGES:
        choose(page, language=language)
        check_table(page, language)
    new_game(page, **RESIGNABLE)
    do(page, "resign")
    for language in LANGUAGES:
        choose(page, language=language)
        check_result(page, language)
        # Numbers with decimals (hint values, review differences) are written the language's way.
        written = page.evaluate(
            f"async () => {{ {PAGE_LANGUAGE_JS} return (await import('./table/assist.js')).gamePoints(0.5); }}"
        )
        assert written == ("+1.5" if language == "en" else "+1,5"), language
    # The last choice (Serbian) survives a reload.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("html")).to_have_attribute("lang", "sr-Latn")
    assert page.evaluate("window.__test.settings().language") == "sr"
    check_result(page, "sr")


def test_the_first_visit_speaks_the_browser_language(site: Site, new_context: Any, watch: Watch) -> None:
    page = new_context(locale="hu-HU").new_page()
    watch.attach(page)
    open_table(page, site.url)
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator(".seat-me .seat-name")).to_have_text(words("hu")["seat.you"])
    assert table_data(page)["deck"] == DEFAULT_DECK["hu"]
    assert page.evaluate("window.__test.settings()")["language"] is None  # nothing chosen yet
    no_missing_keys(page)
    # The first of the browser's languages that the game speaks; English if none.
    cases = {
        "sr-Latn-RS": "sr",
        "sr-Cyrl": "sr",
        "hr-HR": "sr",
        "de-AT": "de",
        "ro-MD": "ro",
        "pl": "pl",
        "fr-FR,it,hu": "hu",
        "fr-FR,ja": "en",
        "": "en",
    }
    detected = page.evaluate(
        """async (cases) => {
            const { detectLanguage } = await import('./platform/i18n.js');
            const detect = (tags) => detectLanguage(tags ? tags.split(',') : []);
            return Object.fromEntries(Object.keys(cases).map(tags => [tags, detect(tags)]));
        }""",
        cases,
    )
    assert detected == cases


def test_the_translation_files_are_in_the_offline_cache(dist: Path) -> None:
    manifest = json.loads((dist / "precache-manifest.json").read_text(encoding="utf-8"))
    listed = {entry["url"] for entry in manifest["files"]}
    assert {f"i18n/{language}.json" for language in LANGUAGES} <= listed
    # The module that loads them is in the page's bundle, which is precached whole.
    bundled = [url for url in listed if url.startswith("page/")]
    assert any("i18n/${" in (dist / url).read_text(encoding="utf-8") for url in bundled)
