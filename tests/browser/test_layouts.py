"""Every screen shape: a phone held sideways, a phone upright (the last trick), large screens.

Each shape is checked by the boxes of the table's parts against the window: what
must be seen is inside it, and the page does not scroll. What must be pressed is
checked by a pointer: the element at the centre of a button is that button.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, FloatRect, Page, expect

from .conftest import Site, Watch
from .helpers import legal_cards, new_game, open_table, step_count
from .test_a11y import finish_scripted_deal
from .test_i18n_deck import choose
from .test_i18n_deck import words as i18n_words
from .test_table import SCRIPTED_AT20

pytestmark = pytest.mark.browser

#: Six cards in hand and you lead (HU24).
YOU_LEAD = {"preset": "HU24", "seed": 4, "dealer": 1}


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def inside_the_window(page: Page, selectors: list[str], where: str) -> None:
    size = page.viewport_size
    assert size is not None
    for selector in selectors:
        b = box(page, selector)
        assert b["x"] >= 0 and b["y"] >= 0, f"{where}: {selector} starts off the window: {b}"
        assert b["x"] + b["width"] <= size["width"] + 0.5, f"{where}: {selector} ends right of the window: {b}"
        assert b["y"] + b["height"] <= size["height"] + 0.5, f"{where}: {selector} ends below the window: {b}"


def no_scrolling(page: Page, where: str) -> None:
    extent: list[int] = page.evaluate(
        "[document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight]"
    )
    assert extent == [0, 0], f"{where}: the page scrolls by {extent} px"


def play_a_card(page: Page) -> None:
    before = step_count(page)
    page.locator(f"#my-hand [data-card='{legal_cards(page)[0]}']").click()
    page.wait_for_function(
        "n => { const t = document.getElementById('table').dataset; return t.ready === '1' && Number(t.step) >= n; }",
        arg=before + 2,
    )


def phone_deals(
    site: Site, phone_context: BrowserContext, watch: Watch, shapes: list[tuple[int, int]], game: dict[str, Any]
) -> Iterator[tuple[Page, str]]:
    """One phone's page, booted once and turned to each of ``shapes`` with ``game`` dealt anew: the page and the
    shape's name, for each shape."""
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    for shape in turned(page, shapes):
        new_game(page, **game)
        yield page, shape


def turned(page: Page, shapes: list[tuple[int, int]]) -> Iterator[str]:
    """Turn ``page`` to each of ``shapes`` in turn, yielding each shape's name ("390x844")."""
    for width, height in shapes:
        page.set_viewport_size({"width": width, "height": height})
        yield f"{width}x{height}"


#: Phones held sideways, and upright.
SIDEWAYS = [(844, 390), (740, 360), (915, 412)]
UPRIGHT = [(390, 844), (360, 740)]


def test_a_phone_held_sideways_shows_everything_without_scrolling(
    site: Site, phone_context: BrowserContext, watch: Watch
) -> None:
    for page, shape in phone_deals(site, phone_context, watch, SIDEWAYS, SCRIPTED_AT20):  # exchange, close offered
        where = f"{shape}, exchange and close offered"
        parts = ["#my-hand .card >> nth=-1", "#my-hand .card >> nth=0", "#stock", "#opp-hand", "#trick"]
        inside_the_window(page, [*parts, "#actions button >> nth=-1", "#hint", "#last-trick"], where)
        no_scrolling(page, where)
        play_a_card(page)
        where = f"{shape}, after a trick"
        inside_the_window(page, [*parts, "#last-trick .card >> nth=-1"], where)
        no_scrolling(page, where)


def test_a_phone_held_upright_shows_the_last_trick_without_scrolling(
    site: Site, phone_context: BrowserContext, watch: Watch
) -> None:
    for page, shape in phone_deals(site, phone_context, watch, UPRIGHT, YOU_LEAD):
        play_a_card(page)
        page.evaluate("scrollTo(0, 0)")  # (Firefox scrolls a clicked card into view its own way)
        inside_the_window(page, ["#my-hand .card >> nth=-1", "#last-trick .card >> nth=-1"], shape)


def test_large_screens_grow_the_table(site: Site, context: BrowserContext, watch: Watch) -> None:
    page = context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **YOU_LEAD)
    play_a_card(page)  # a last trick to show
    sizes: dict[str, Any] = {}
    around: dict[str, tuple[float, float, float, float]] = {}
    for width, height in ((1280, 800), (1920, 1080), (2560, 1440), (3840, 2160)):
        page.set_viewport_size({"width": width, "height": height})
        where = f"{width}x{height}"
        inside_the_window(page, ["#my-hand .card >> nth=-1", "#opp-hand", "#stock", "#last-trick"], where)
        no_scrolling(page, where)
        table = box(page, "#table")
        sizes[where] = (box(page, "#my-hand .card")["width"], table["width"] / width, table["height"] / height)
        # What goes with the table: the top bar's height, its button's, the side panel's width, a last-trick card's.
        around[where] = (
            box(page, ".topbar")["height"],
            box(page, "#open-settings")["height"],
            box(page, "#panel")["width"],
            box(page, "#last-trick .card")["width"],
        )
    card = [s[0] for s in sizes.values()]
    # The cards grow with the screen: on 4K nearly twice as wide as on 1080p.
    assert card == sorted(card) and card[3] >= 1.8 * card[1], sizes
    assert all(share >= 0.5 for _, share, _ in sizes.values()), sizes  # the table keeps half the width or more
    assert all(share >= 0.85 for _, _, share in sizes.values()), sizes  # and most of the height
    # The top bar and the side panel grow with it, and on large screens a last-trick card is half a hand card.
    small, large = around["1280x800"], around["2560x1440"]
    assert large[0] >= 1.3 * small[0] and large[1] >= 1.2 * small[1] and large[2] >= 1.5 * small[2], around
    assert all(a[3] >= 0.45 * c for a, c in list(zip(around.values(), card, strict=True))[1:]), (around, card)


#: Phones upright and sideways, a desktop and a large screen.
SHAPES = [(390, 844), (844, 390), (1440, 900), (2560, 1440)]

#: The buttons (their text) that a pointer hits at their centres, and those it misses.
HIT_AT_CENTRES = """sel => [...document.querySelectorAll(sel)].map(b => {
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return [b.textContent, Boolean(hit && b.contains(hit))];
})"""


def shape_context(request: pytest.FixtureRequest, phone: bool) -> BrowserContext:
    """A phone's context (touch) or a desktop's, warm; only the one asked for is made. (A test that uses it takes
    ``browser_name``, so that it runs in every browser asked for.)"""
    found: BrowserContext = request.getfixturevalue("phone_context" if phone else "context")
    return found


def hit_by_a_pointer(page: Page, selector: str, where: str) -> None:
    found: list[tuple[str, bool]] = page.evaluate(HIT_AT_CENTRES, selector)
    assert found, f"{where}: no {selector}"
    missed = [text for text, hit in found if not hit]
    assert not missed, f"{where}: a pointer at the centre of {missed} hits something else (or nothing)"


def shape_page(request: pytest.FixtureRequest, site: Site, watch: Watch, phone: bool, shape: tuple[int, int]) -> Page:
    """A page of a phone's context or a desktop's, booted at ``shape``; a test then turns it to its other shapes."""
    page = shape_context(request, phone).new_page()
    page.set_viewport_size({"width": shape[0], "height": shape[1]})
    watch.attach(page)
    open_table(page, site.url)
    return page


def by_device(shapes: list[tuple[int, int]]) -> list[Any]:
    """``shapes`` as two parameters, the phones' and the desktops' (one booted page each)."""
    return [
        pytest.param(True, [s for s in shapes if s[0] < 980], id="phone"),
        pytest.param(False, [s for s in shapes if s[0] >= 980], id="desktop"),
    ]


@pytest.mark.parametrize("phone,shapes", by_device(SHAPES))
def test_the_way_on_after_a_deal_is_in_view_on_every_screen_shape(
    site: Site, request: pytest.FixtureRequest, watch: Watch, browser_name: str, phone: bool, shapes: list[Any]
) -> None:
    page = shape_page(request, site, watch, phone, shapes[0])
    for shape in turned(page, shapes):
        the_way_on_is_in_view(page, phone, f"{shape}, the end of a deal")


def the_way_on_is_in_view(page: Page, phone: bool, where: str) -> None:
    finish_scripted_deal(page)  # the longest explanation: a close judged at closing, Schwarz
    buttons = "#result .result-buttons button"
    # Next deal, Score sheet, Review and Save record: each hit where it is, without scrolling anything.
    assert page.locator(buttons).evaluate_all("bs => bs.map(b => b.dataset.action || b.dataset.control)") == [
        "next",
        "sheet",
        "review",
        "export",
    ]
    hit_by_a_pointer(page, buttons, where)
    details = page.locator("#result .result-details")
    reason = page.locator("#result .result-reason")
    # The explanation folds away on a phone, and is open on a large screen.
    assert details.evaluate("d => d.open") is not phone, where
    if phone:
        page.locator("#result .result-details summary").click()
    # Open, it is whole: not cut, every line of it can be brought into view, and the way on stays in view.
    reason.scroll_into_view_if_needed()
    assert reason.evaluate("r => r.scrollHeight <= r.clientHeight + 1"), f"{where}: the explanation is cut"
    corners = reason.evaluate(
        """r => { const b = r.getBoundingClientRect();
        return [[b.left + 2, b.top + 2], [b.right - 2, b.bottom - 2]]
          .map(([x, y]) => r.contains(document.elementFromPoint(x, y))); }"""
    )
    assert corners == [True, True], f"{where}: the explanation is partly hidden"
    assert "judged when the talon was closed" in reason.inner_text()
    hit_by_a_pointer(page, buttons, f"{where}, the explanation open")


#: Each option of a shown select in the settings that the select cuts short: [id, text, needed px, shown px]. What an
#: option needs is the width of a copy of its select that holds only that option and takes the width it needs.
CUT_OPTIONS = """() => [...document.querySelectorAll('#settings-dialog select')].filter(s => s.offsetWidth > 0)
  .flatMap(s => [...s.options].map(o => {
    const copy = s.cloneNode(false); copy.removeAttribute('id'); copy.removeAttribute('name');
    copy.append(new Option(o.text));
    copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none'; s.after(copy);
    const needed = copy.getBoundingClientRect().width; copy.remove();
    return [s.id, o.text, Math.round(needed), Math.round(s.getBoundingClientRect().width)]; }))
  .filter(r => r[2] > r[3])"""


#: A phone upright and sideways, and a desktop.
THREE_SHAPES = [(390, 844), (844, 390), (1440, 900)]


@pytest.mark.parametrize("phone,shapes", by_device(THREE_SHAPES))
def test_the_settings_show_every_choice_whole(
    site: Site, request: pytest.FixtureRequest, watch: Watch, browser_name: str, phone: bool, shapes: list[Any]
) -> None:
    """In every language no option of a select in the settings is cut short, whichever is chosen; right under the
    card pattern and the rules, what their short option leaves out: the suits, the rules' whole name."""
    page = shape_page(request, site, watch, phone, shapes[0])
    for shape in turned(page, shapes):
        every_choice_is_whole(page, shape)


def every_choice_is_whole(page: Page, shape: str) -> None:
    for language in ("en", "de", "hu", "pl", "ro", "sr"):
        choose(page, language=language)
        page.locator("#open-settings").click()
        expect(page.locator("#settings-dialog")).to_be_visible()
        page.select_option("#setting-mode", "watch")  # (its level's select shows too)
        page.locator("#custom-rules").evaluate("d => { d.open = true; }")  # (and the custom rules')
        expect(page.locator("#custom-rules-body select").first).to_be_visible()
        expect(page.locator("#setting-watch-level")).to_be_visible()
        words = i18n_words(language)
        where = f"{shape}, {language}"
        assert page.evaluate(CUT_OPTIONS) == [], f"{where}: options cut short [select, option, needed, shown]"
        for deck in ("french", "tell"):
            page.select_option("#setting-deck", deck)
            expect(page.locator("#setting-deck-about")).to_have_text(words[f"deck.{deck}.suits"])
        for preset in ("RO24", "RO20", "HU24"):
            page.select_option("#setting-preset", preset)
            expect(page.locator("#setting-preset-about")).to_contain_text(words[f"preset.{preset}"])
        page.locator("#settings-cancel").click()
        expect(page.locator("#settings-dialog")).to_be_hidden()


@pytest.mark.parametrize("phone,shapes", by_device(THREE_SHAPES))
def test_a_notice_leaves_the_computers_hand_in_view(
    site: Site, request: pytest.FixtureRequest, watch: Watch, browser_name: str, phone: bool, shapes: list[Any]
) -> None:
    """Damaged statistics are said in a notice at the top of the table; the computer's cards stay in view below."""
    page = shape_context(request, phone).new_page()
    page.set_viewport_size({"width": shapes[0][0], "height": shapes[0][1]})
    watch.attach(page)
    page.goto(site.url + "icon.svg")  # a document of the site where no game runs (that might save over it)
    page.evaluate("localStorage.setItem('sixty-six.stats', '{damaged')")
    open_table(page, site.url)
    expect(page.locator("#notice")).to_be_visible()
    for shape in turned(page, shapes):  # the notice stays until it is closed: the page is turned under it
        page.evaluate("scrollTo(0, 0)")
        hit_by_a_pointer(page, "#opp-hand .card", f"{shape}, with a notice")
        hit_by_a_pointer(page, "#notice-close", f"{shape}, with a notice")
    page.locator("#notice-close").click()
    expect(page.locator("#notice")).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.querySelector('.seat-opponent')).marginTop") == "0px"
