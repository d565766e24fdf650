"""The help: the rules summary generated from the engine's rules, the how-to-play, and custom rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from py_engine.core.rules import BOOLEANS, CHOICES, PARAMETERS, PRESET_IDS, PRESETS

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, Site, Watch
from .helpers import actions, new_game, open_table, table_data, wait_ready

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
LANGUAGES = ("en", "hu", "de", "ro", "pl", "sr")


def sentence(strings: dict[str, Any], param: str, value: Any) -> str:
    """The English sentence for a parameter's value, as the translations define it."""
    if param in BOOLEANS:
        return str(strings[f"rule.{param}.{'yes' if value else 'no'}"])
    if isinstance(CHOICES[param][0], int):
        forms = strings[f"rule.{param}.n"]
        return str(forms["one" if value == 1 else "other"]).replace("{n}", str(value))
    return str(strings[f"rule.{param}.{value}"])


def open_help_rules(page: Page) -> None:
    page.locator("#open-help").click()
    expect(page.locator("#help-content")).to_have_attribute("data-ready", "rules", timeout=STEP_TIMEOUT_MS)


def close_help(page: Page) -> None:
    page.locator("[data-action='help-close']").click()
    expect(page.locator("#help-dialog")).to_be_hidden()


def summary(page: Page) -> dict[str, str]:
    items: list[list[str]] = page.locator("#help-content li[data-param]").evaluate_all(
        "els => els.map(e => [e.dataset.param, e.firstChild.textContent])"
    )
    return dict(items)


def open_rules_editor(page: Page) -> None:
    page.locator("#open-settings").click()
    details = page.locator("#custom-rules")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    expect(page.locator("#custom-rules-body [data-param='deck']")).to_be_visible(timeout=STEP_TIMEOUT_MS)


def choose(page: Page, param: str, value: Any) -> None:
    """Pick a value of a parameter in the editor (its index in the engine's list of values)."""
    values = [False, True] if param in BOOLEANS else list(CHOICES[param])
    index = values.index(value)
    field = page.locator(f"#custom-rules-body [data-param='{param}']")
    if isinstance(values[0], int) and not isinstance(values[0], bool):
        field.locator("select").select_option(index=index)  # (a string would also match the labels)
    else:
        field.locator(f"input[value='{index}']").check()


def start_from_settings(page: Page) -> None:
    before = int(table_data(page)["step"])
    page.locator("[data-action='settings-new-game']").click()
    page.wait_for_function(
        "before => Number(document.querySelector('#table').dataset.step) > before", arg=before, timeout=STEP_TIMEOUT_MS
    )
    wait_ready(page)


@pytest.mark.page_logic
def test_the_summary_says_what_the_engine_plays_for_every_preset(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    for preset_id in PRESET_IDS:
        new_game(page, preset=preset_id, seed=1)
        rules = page.evaluate("window.__test.view().rules")
        assert rules == PRESETS[preset_id].to_dict()
        open_help_rules(page)
        expect(page.locator("#help-rules-title")).to_have_text(en[f"preset.{preset_id}"])
        shown = summary(page)
        assert list(shown) == list(PARAMETERS), "one sentence per parameter, in the engine's order"
        assert shown == {p: sentence(en, p, rules[p]) for p in PARAMETERS}, preset_id
        assert page.locator("#help-content .rule-changed").count() == 0
        close_help(page)
    # The how-to-play is there too.
    page.locator("#open-help").click()
    page.locator("#help-dialog [data-help='howto']").click()
    expect(page.locator("#help-content")).to_have_attribute("data-ready", "howto", timeout=STEP_TIMEOUT_MS)
    expect(page.locator("#help-content h3")).to_have_count(12)  # eight of the game, four of online play
    expect(page.locator("#help-dialog [data-help='howto']")).to_have_attribute("aria-pressed", "true")


@pytest.mark.page_logic
def test_every_parameter_is_worded_in_every_language(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    texts: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        page.locator("#open-settings").click()
        page.select_option("#setting-language", language)
        page.locator("[data-action='settings-save']").click()
        expect(page.locator("html")).to_have_attribute("data-language", language, timeout=STEP_TIMEOUT_MS)
        open_help_rules(page)
        shown = summary(page)
        assert list(shown) == list(PARAMETERS)
        assert all(text.strip() and "⟦" not in text for text in shown.values()), language
        texts[language] = shown
        close_help(page)
        # The editor names every parameter and words every value of the others.
        open_rules_editor(page)
        editor = page.locator("#custom-rules-body")
        expect(editor.locator("[data-param]")).to_have_count(len(PARAMETERS))
        assert "⟦" not in editor.inner_text()
        page.keyboard.press("Escape")
        assert page.evaluate("window.__test.missingKeys()") == [], language
    # Each language says it in its own words.
    for language in LANGUAGES[1:]:
        same = [p for p in PARAMETERS if texts[language][p] == texts["en"][p]]
        assert not same, f"{language} repeats the English sentences of {same}"


@pytest.mark.page_logic
def test_a_custom_rule_reaches_the_engine_and_the_summary(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    open_rules_editor(page)
    page.select_option("#setting-preset", "AT20")
    page.select_option("#setting-dealer", "computer")  # you lead the first trick
    choose(page, "resign", True)
    choose(page, "match_target", 3)
    editor = page.locator("#custom-rules-body")
    expect(editor).to_have_attribute("data-valid", "1", timeout=STEP_TIMEOUT_MS)
    expect(editor).to_have_attribute("data-changed", "2")
    expect(editor.locator("[data-param='resign']")).to_have_class(re.compile(r"\bchanged\b"))
    start_from_settings(page)
    rules = page.evaluate("window.__test.view().rules")
    assert rules["id"] == "AT20" and rules["resign"] is True and rules["match_target"] == 3
    # ...and the game behaves so: resigning is offered (AT20 never offers it), the match goes to 3.
    assert "resign" in actions(page)
    expect(page.locator("#match-score")).to_contain_text("to 3")
    open_help_rules(page)
    expect(page.locator("#help-rules-title")).to_have_text("Austrian Schnapsen (changed rules)")
    shown = summary(page)
    assert shown["resign"] == "A player may resign a deal."
    assert shown["match_target"] == "A match is won with 3 game points."
    assert shown["deck"] == "The game is played with 20 cards."
    changed = page.locator("#help-content li.changed").evaluate_all("els => els.map(e => e.dataset.param)")
    assert sorted(changed) == ["match_target", "resign"]
    close_help(page)

    # Kept for the next visit, and back to the preset at a click.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    open_rules_editor(page)
    expect(editor).to_have_attribute("data-changed", "2")
    page.locator("[data-action='rules-reset']").click()
    expect(editor).to_have_attribute("data-changed", "0")
    start_from_settings(page)
    rules = page.evaluate("window.__test.view().rules")
    assert rules["resign"] is False and rules["match_target"] == 7


@pytest.mark.page_logic
def test_rules_that_cannot_be_combined_are_refused(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    open_rules_editor(page)
    page.select_option("#setting-preset", "AT20")
    editor = page.locator("#custom-rules-body")
    save = page.locator("[data-action='settings-save']")
    start = page.locator("[data-action='settings-new-game']")
    choose(page, "deck", 24)
    expect(editor).to_have_attribute("data-valid", "0", timeout=STEP_TIMEOUT_MS)
    error = page.locator("#rules-error")
    expect(error).to_have_attribute("data-reason", "deck_hand_size", timeout=STEP_TIMEOUT_MS)
    expect(error).to_have_text("With 24 cards each player gets 6 cards: change “Cards in a hand” too.")
    expect(save).to_be_disabled()
    expect(start).to_be_disabled()
    choose(page, "hand_size", 6)
    expect(error).to_have_attribute("data-reason", "deck_deal_pattern", timeout=STEP_TIMEOUT_MS)
    expect(start).to_be_disabled()
    choose(page, "deal_pattern", "33T")
    expect(editor).to_have_attribute("data-valid", "1", timeout=STEP_TIMEOUT_MS)
    expect(error).to_be_hidden()
    expect(start).to_be_enabled()
    choose(page, "marriage_auto", True)
    choose(page, "marriage_lead_card", "king")
    expect(error).to_have_attribute("data-reason", "marriage_auto_king", timeout=STEP_TIMEOUT_MS)
    choose(page, "marriage_auto", False)
    expect(editor).to_have_attribute("data-valid", "1", timeout=STEP_TIMEOUT_MS)
    start_from_settings(page)
    view = page.evaluate("window.__test.view()")
    assert view["rules"]["deck"] == 24 and view["rules"]["marriage_lead_card"] == "king"
    assert len(view["hand"]) == 6
    # The engine refuses the same combination when asked directly, whatever the page does.
    answer = page.evaluate("() => window.__test.request({cmd: 'table_new', preset: 'AT20', rules: {deck: 24}})")
    assert answer["ok"] is False and answer["code"] == "bad_rules"


#: A desktop, a phone, a small phone: one page turned from shape to shape.
HELP_SHAPES = [(1280, 800), (390, 844), (320, 568)]


def test_the_help_closes_from_its_top_and_its_backdrop(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    for width, height in HELP_SHAPES:
        page.set_viewport_size({"width": width, "height": height})
        the_help_closes(page, width, height)


def the_help_closes(page: Page, width: int, height: int) -> None:
    dialog = page.locator("#help-dialog")
    top = page.locator("#help-dialog [data-action='help-close-top']")
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    # The close button at the top: the first control, named in words, in reach even when the help has scrolled.
    open_help_rules(page)
    assert page.evaluate("document.activeElement.dataset.action") == "help-close-top"
    expect(top).to_have_attribute("aria-label", en["dialog.close"])
    page.locator("#help-dialog [data-help='howto']").click()
    expect(page.locator("#help-content")).to_have_attribute("data-ready", "howto")
    dialog.evaluate("d => { d.scrollTop = d.scrollHeight; }")
    assert dialog.evaluate("d => d.scrollTop") > 0, "the how-to-play does not scroll: nothing to check"
    box, close = dialog.bounding_box(), top.bounding_box()
    assert box is not None and close is not None
    assert close["y"] >= box["y"] - 1 and close["y"] + close["height"] <= box["y"] + box["height"], (box, close)
    top.click()
    expect(dialog).to_be_hidden()
    # A click on the backdrop (outside the dialog's box) closes it too.
    open_help_rules(page)
    box = dialog.bounding_box()
    assert box is not None
    right = box["x"] + box["width"]
    assert width - right >= 4, f"no backdrop beside the help to click: {box}"
    x, y = (right + width) / 2, height / 2  # halfway between the dialog's right edge and the window's
    assert not (box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"])
    page.mouse.click(x, y)
    expect(dialog).to_be_hidden()
    # A click inside it does not.
    open_help_rules(page)
    page.locator("#help-title").click()
    expect(dialog).to_be_visible()
    close_help(page)
