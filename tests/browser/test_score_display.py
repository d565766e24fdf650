"""The running points: both players', only yours, or none (count in your head), as the settings say.

Also what says what the numbers are: the running points in words ("17 points"),
the labels of both trick piles, and the match score in the top bar, which keeps
clear of the logo down to a 320 px phone.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, Site, Watch
from .helpers import do, legal_cards, new_game, open_table, wait_ready
from .modes_helpers import set_preferences
from .test_i18n_deck import LANGUAGES, choose, words

pytestmark = pytest.mark.browser

EN = words("en")


def points_text(n: int, language: str = "en") -> set[str]:
    """The running points as the page may write them: one of the language's plural forms of "{n} points"."""
    return {form.replace("{n}", str(n)) for form in words(language)["running.points"].values()}


def plural_en(n: int) -> str:
    return str(EN["running.points"]["one" if n == 1 else "other"]).replace("{n}", str(n))


def set_points(page: Page, mode: str) -> None:
    page.locator("#open-settings").click()
    page.select_option("#setting-points", mode)
    page.locator("[data-action='settings-save']").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    # The settings are saved when the dialog's "close" event comes, a task after it is hidden.
    expect(page.locator("#table")).to_have_attribute("data-points", mode)
    assert page.evaluate("window.__test.settings()")["points"] == mode


def shown(page: Page) -> tuple[str, str]:
    return page.locator("#my-points").inner_text(), page.locator("#opp-points").inner_text()


@pytest.mark.page_logic
def test_each_points_mode_shows_the_right_totals(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="AT20", seed=5, dealer=1)
    while True:  # play until both players have points, so that every number is worth showing
        view: dict[str, Any] = page.evaluate("window.__test.view()")
        assert view["deal_result"] is None, "the deal ended before both players had points"
        if view["my_points"] > 0 and view["opponent_points"] > 0 and view["to_act"] == 0:
            break
        do(page, legal_cards(page)[0])
    mine, theirs = plural_en(view["my_points"]), plural_en(view["opponent_points"])
    expected = {"both": (mine, theirs), "own": (mine, ""), "hide": ("", "")}
    won_cards = page.locator("#my-tricks .card")
    for mode, texts in expected.items():
        set_points(page, mode)
        expect(page.locator("#my-points")).to_have_text(texts[0])
        expect(page.locator("#opp-points")).to_have_text(texts[1])
        # A number shown says what it is (its words, and a title); one hidden leaves nothing behind.
        for selector, text in zip(("#my-points", "#opp-points"), texts, strict=True):
            points = page.locator(selector)
            if text:
                expect(points).to_be_visible()
                expect(points).to_have_attribute("title", EN["running.title"])
            else:
                expect(points).to_be_hidden()
                assert points.get_attribute("title") is None
        # Counting in your head means it: no list of your won cards either while the points are hidden.
        expect(won_cards).to_have_count(0 if mode == "hide" else 2 * len(view["my_tricks"]))
    # "As the rules suggest": where 66 is claimed by hand (AT20) a newcomer sees their own points, and nobody's
    # after finishing the tutorial (or three matches); both where 66 ends the deal by itself.
    set_points(page, "auto")
    assert shown(page) == (mine, "")
    page.evaluate("localStorage.setItem('sixty-six.tutorial', JSON.stringify({finished: Date.now()}))")
    new_game(page, preset="AT20", seed=5, dealer=1)
    assert shown(page) == ("", "")
    new_game(page, preset="KLUB20", seed=5, dealer=1)
    do(page, legal_cards(page)[0])
    view = page.evaluate("window.__test.view()")
    assert view["rules"]["claim_mode"] == "auto"
    assert shown(page) == (plural_en(view["my_points"]), plural_en(view["opponent_points"]))
    # The choice is kept and applies to the next deals as well.
    set_points(page, "own")
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert page.evaluate("window.__test.settings()")["points"] == "own"
    view = page.evaluate("window.__test.view()")
    assert shown(page) == (plural_en(view["my_points"]), "")


@pytest.mark.page_logic
def test_a_newcomer_sees_their_own_points_but_never_in_a_ranked_game(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="HU24", seed=5, dealer=1)  # 66 claimed by hand
    do(page, legal_cards(page)[0])
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    assert view["rules"]["claim_mode"] == "manual"
    assert shown(page) == (plural_en(view["my_points"]), "")
    set_preferences(page, ranked=True)
    new_game(page, preset="HU24", seed=5, dealer=1)
    do(page, legal_cards(page)[0])
    assert shown(page) == ("", "")
    # Three matches played: no newcomer any more.
    set_preferences(page, ranked=False)
    for _ in range(3):
        new_game(page, preset="KLUB20", seed=3, dealer=1, rules={"match_target": 1})
        do(page, "resign")
    new_game(page, preset="HU24", seed=5, dealer=1)
    do(page, legal_cards(page)[0])
    assert shown(page) == ("", "")


def pile_labels(page: Page) -> dict[str, Any]:
    """The trick piles' visible labels and their names for a screen reader."""
    found: dict[str, Any] = page.evaluate(
        """() => {
            const text = (id) => document.getElementById(id).textContent;
            const seen = (id) => document.getElementById(id).getBoundingClientRect().width > 0;
            return {
                opp: text('opp-pile-label'), me: text('my-pile-label'),
                oppShown: seen('opp-pile-label'), meShown: seen('my-pile-label'),
                oppName: document.getElementById('opp-pile').getAttribute('aria-label'),
                meName: document.getElementById('my-pile').getAttribute('aria-label'),
            };
        }"""
    )
    return found


def test_the_piles_and_the_running_points_say_what_they_are(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="KLUB20", seed=5, dealer=1)  # 66 ends the deal by itself: both totals show
    for _ in range(2):
        do(page, legal_cards(page)[0])
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    labels = pile_labels(page)
    assert labels["oppShown"] and labels["meShown"]
    assert (labels["opp"], labels["me"]) == (EN["pile.computer"], EN["pile.you"])
    # The pile's own name (what a screen reader says) holds the visible words and the count.
    mine, theirs = len(view["my_tricks"]), len(view["opponent_tricks"])
    assert labels["meName"] == EN["pile.tricks.me"].replace("{n}", str(mine))
    assert labels["oppName"] == EN["pile.tricks.opp"].replace("{n}", str(theirs))
    assert labels["meName"].startswith(labels["me"]) and labels["oppName"].startswith(labels["opp"])
    # The visible labels are not read twice: the pile's name says them.
    assert page.locator("#my-pile-label").get_attribute("aria-hidden") == "true"
    my_points = page.locator("#my-points")
    assert my_points.inner_text() == plural_en(view["my_points"])
    # The running points are inside the seat's own region, so they are read as that seat's.
    assert my_points.evaluate("e => e.closest('section').getAttribute('aria-label')") == EN["seat.you"]
    assert (
        page.locator("#opp-points").evaluate("e => e.closest('section').getAttribute('aria-label')")
        == (EN["seat.computer"])
    )


@pytest.mark.page_logic
def test_the_labels_in_every_language(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="KLUB20", seed=5, dealer=1)
    do(page, legal_cards(page)[0])
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    for language in LANGUAGES:
        choose(page, language=language)
        w = words(language)
        labels = pile_labels(page)
        assert (labels["opp"], labels["me"]) == (w["pile.computer"], w["pile.you"]), language
        assert page.locator("#my-points").inner_text() in points_text(view["my_points"], language), language
        assert page.locator("#opp-points").inner_text() in points_text(view["opponent_points"], language), language
        expect(page.locator("#match-score")).to_contain_text(w["seat.you"])
        assert page.evaluate("window.__test.missingKeys()") == [], language


def boxes(page: Page) -> dict[str, dict[str, float]]:
    found: dict[str, dict[str, float]] = page.evaluate(
        """() => {
            const box = (s) => { const r = document.querySelector(s).getBoundingClientRect();
                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
            return {logo: box('.brand-mark'), score: box('#match-score'), actions: box('.top-actions'),
                    who: box('#match-score .score-who-opp'), page: {left: 0, right: window.innerWidth,
                    top: 0, bottom: 0, width: document.documentElement.scrollWidth}};
        }"""
    )
    return found


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes do not overlap (touching edges do not count)."""
    return a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]


def test_the_logo_never_covers_the_score(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="SZLI20", seed=5, dealer=1)  # two Bummerls: the longest score line
    for width in (320, 360, 390):  # one page, turned from width to width
        page.set_viewport_size({"width": width, "height": 640})
        the_logo_and_the_score_are_apart(page, width)


def the_logo_and_the_score_are_apart(page: Page, width: int) -> None:
    # Romanian has the longest name for the computer ("Calculator"), German a long one for the new game.
    for language in ("en", "ro", "de"):
        if page.evaluate("document.documentElement.dataset.language") != language:
            choose(page, language=language)
        found = boxes(page)
        where = f"{width} px, {language}"
        assert found["logo"]["width"] >= 30, f"{where}: the logo is squeezed: {found}"
        assert apart(found["logo"], found["score"]), f"{where}: the logo covers the score: {found}"
        assert apart(found["score"], found["actions"]), f"{where}: the score runs under the buttons: {found}"
        assert found["score"]["right"] <= width and found["actions"]["right"] <= width, f"{where}: {found}"
        assert found["page"]["width"] <= width, f"{where}: the page scrolls sideways"
        # The computer's name is shown whole, not cut by the ellipsis.
        assert page.locator("#match-score .score-who-opp").evaluate("e => e.scrollWidth <= e.clientWidth"), where
