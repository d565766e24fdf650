"""The game page in Chromium or Firefox (``--browser firefox``): boot, play, save/restore, offline, updates, privacy."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import build

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, Site, Watch
from .helpers import (
    OVER,
    PAGE_LANGUAGE_JS,
    TABLE,
    TEST_QUERY,
    Oracle,
    actions,
    check_no_leak,
    do,
    dom_cards,
    drag,
    legal_cards,
    messages,
    new_game,
    open_table,
    phase,
    step_count,
    table_data,
    tap,
    wait_ready,
)
from .test_i18n_deck import LANGUAGES, choose, no_missing_keys, words

pytestmark = pytest.mark.browser


# AT20, you (seat 0) lead: JH QH AH TH AD against AC TC KC QC JC, trump KH face up.
SCRIPTED_AT20 = {
    "preset": "AT20",
    "seed": 1,
    "dealer": 1,
    "deck": [
        *("JH", "QH", "AH"),
        *("AC", "TC", "KC"),
        "KH",
        *("TH", "AD"),
        *("QC", "JC"),
        *("AS", "TS", "KS", "QS", "JS", "TD", "KD", "QD", "JD"),
    ],
}


@pytest.mark.fresh_browser
def test_boot_shows_table_then_becomes_playable(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    page.goto(site.url + TEST_QUERY)
    # The table and the progress indicator are there while Python boots.
    expect(page.locator(TABLE)).to_be_visible()
    expect(page.locator("#boot")).to_be_visible()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#boot")).to_be_hidden()
    data = table_data(page)
    assert data["boot"] == "ready"
    assert data["phase"] in ("open", "closed", "exhausted")
    hand = page.locator("#my-hand .card[data-card]")
    expect(hand).to_have_count(5)  # AT20, the default preset, deals five cards
    assert legal_cards(page) or actions(page), "nothing to do on a playable table"
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    assert page.locator("#opp-hand .card").count() == view["opponent_hand_count"]
    # Cards not in view.legal are visibly unplayable.
    plays = {a[5:] for a in view["legal"] if a.startswith("play:")}
    assert set(legal_cards(page)) == plays
    for code in view["hand"]:
        disabled = page.locator(f"#my-hand [data-card='{code}']").is_disabled()
        assert disabled == (code not in plays)


def play_out_deal(page: Page, oracle: Oracle | None = None, start: int = 0) -> int:
    """Click legal cards (or claim/pass after the last trick) until the deal ends; return the moves made.

    With an oracle, every worker message and the document are checked for
    secret cards after each move.
    """
    moves = 0
    while True:
        if oracle is not None:
            check_no_leak(messages(page, start), oracle)
            shown = dom_cards(page) & oracle.secret()
            assert not shown, f"the page shows secret cards {shown}"
        if phase(page) in OVER:
            return moves
        cards = legal_cards(page)
        offered = actions(page)
        if cards:
            choice = cards[0]
        elif "pass" in offered:
            choice = "pass"
        else:
            choice = next(a for a in offered if a != "next")
        do(page, choice)
        moves += 1
        assert moves < 40, "the deal does not end"


@pytest.mark.page_logic
def test_whole_deal_against_the_computer(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    options = {"preset": "HU24", "seed": 20261129, "dealer": 0}
    start = new_game(page, **options)
    oracle = Oracle(options)
    play_out_deal(page, oracle, start)
    assert oracle.checked > 5
    # End of deal: winner, reason and every card revealed.
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    result = page.locator("#result")
    expect(result).to_be_visible()
    # The reason is told in the player's language from the result's code and basis, not the engine's words.
    expect(result).to_have_attribute("data-code", view["deal_result"]["code"])
    expect(result).to_have_attribute("data-basis", view["deal_result"]["basis"])
    expect(result.locator(".result-reason")).not_to_be_empty()
    assert "⟦" not in result.inner_text()
    revealed = set(view["reveal"]["hands"][1]) | set(view["reveal"]["talon"])
    assert revealed <= dom_cards(page)
    if "next" in actions(page):
        do(page, "next")
        assert phase(page) not in OVER
        assert page.locator("#my-hand .card").count() == 6


def test_scripted_deal_uses_every_action(site: Site, page: Page, watch: Watch) -> None:
    """Exchange, marriage, close and claim in an AT20 deal, then resign in KLUB20 (normal animation speed)."""
    page.emulate_media(reduced_motion="no-preference")  # the animations in full, whatever the system says
    watch.attach(page)
    open_table(page, site.url, "?test=1")
    start = new_game(page, **SCRIPTED_AT20)
    assert sorted(actions(page)) == ["close", "exchange"]
    do(page, "exchange")
    expect(page.locator("#stock [data-card='JH']")).to_be_visible()
    assert "KH" in legal_cards(page)
    do(page, "marry:H")
    expect(page.locator("#my-marriages .marriage")).to_contain_text("40")
    assert sorted(legal_cards(page)) == ["KH", "QH"]  # after a marriage you must lead its K or Q
    do(page, "close")
    expect(page.locator("#stock .trump-card.turned")).to_be_visible()
    assert phase(page) == "closed"
    drag(page, "KH")  # with the mouse, a card can also be dragged to the table
    for card in ("AH", "TH"):
        do(page, card)
    assert "claim" in actions(page)
    do(page, "claim")
    assert phase(page) in OVER
    expect(page.locator("#result .result-title")).to_have_text("You win the deal")
    expect(page.locator("#result .result-reason")).to_contain_text("You closed the talon and made it")
    assert check_no_leak(messages(page, start), Oracle(SCRIPTED_AT20)) >= 8

    klub = {"preset": "KLUB20", "seed": 3, "dealer": 1, "match": False}
    start = new_game(page, **klub)
    assert "resign" in actions(page)
    do(page, "resign")
    expect(page.locator("#result .result-reason")).to_contain_text("You resigned")
    check_no_leak(messages(page, start), Oracle(klub))
    # A one-deal game is over: a new match is offered, and it starts from your settings.
    assert table_data(page)["gameOver"] == "1"
    page.locator("#result [data-action='new-game']").click()
    wait_ready(page)
    # A random deal: if the computer leads, it may close the talon before you act.
    assert phase(page) in ("open", "closed") and table_data(page)["gameOver"] == "0"


def test_a_close_result_says_the_points_at_closing(site: Site, page: Page, watch: Watch) -> None:
    """AT20 scores a successful close on the state at closing: the end of the deal says so, with that state."""
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    for move in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, move)
    assert phase(page) in OVER
    result = page.evaluate("window.__test.view().deal_result")
    # The computer had no trick and no point when you closed: Schwarz, judged then.
    assert (result["code"], result["basis"]) == ("close_success", "schwarz")
    assert result["at_close"] == {"tricks": 0, "points": 0}
    reason = page.locator("#result .result-reason")
    for language in ("en", "hu"):
        if language != "en":
            choose(page, language=language)
        w = words(language)
        said = w["result.atClose.opp"]["other"].replace("{points}", "0").replace("{n}", "0")
        expect(reason).to_contain_text(w["result.code.close_success.me"])
        expect(reason).to_contain_text(said)
    assert "takarás" in reason.inner_text()


@pytest.mark.page_logic
def test_the_points_at_closing_are_said_in_every_language(site: Site, page: Page, watch: Watch) -> None:
    """The at-close sentence of every language, for each side and with names, from the result's at_close."""
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    reason = (
        "async ([winner, atClose]) => {"
        + PAGE_LANGUAGE_JS
        + """return (await import('./table/table.js')).dealReason({
        winner, game_points: 2, code: 'close_success', basis: 'schneider', by: null, at_close: atClose}); }"""
    )
    for language in LANGUAGES:
        choose(page, language=language)
        w = words(language)
        for winner, side in ((0, "opp"), (1, "me")):
            said = page.evaluate(reason, [winner, {"tricks": 1, "points": 13}])
            forms = w[f"result.atClose.{side}"]
            assert forms["one"].replace("{points}", "13").replace("{n}", "1") in said, (language, said)
            assert "⟦" not in said
            # Without at_close (at_end rules, or no close) the sentence is not there.
            plain = page.evaluate(reason, [winner, None])
            assert plain and plain in said and plain != said
        # Two people at one device: the sentence names the closer's opponent.
        named = page.evaluate(
            "async () => {"
            + PAGE_LANGUAGE_JS
            + """
                const names = await import('./table/names.js');
                const table = await import('./table/table.js');
                names.nameSeats({me: 'Anna', opp: 'Béla'});
                const said = table.dealReason({winner: 0, game_points: 2, code: 'close_success',
                    basis: 'schneider', by: null, at_close: {tricks: 2, points: 40}});
                names.nameSeats(null);
                return said;
            }"""
        )
        two = w["modes.named.atClose"]["few" if language in ("ro", "pl", "sr") else "other"]
        assert two.replace("{name}", "Béla").replace("{points}", "40").replace("{n}", "2") in named, named
    no_missing_keys(page)


def table_state(page: Page) -> dict[str, Any]:
    """What the table shows, for comparing two page loads."""
    state: dict[str, Any] = page.evaluate(
        """() => ({
            view: window.__test.view(),
            hand: [...document.querySelectorAll('#my-hand .card')].map(e => e.dataset.card + ':' + e.dataset.legal),
            trick: [...document.querySelectorAll('#trick .card')].map(e => e.dataset.card),
            stock: document.querySelector('#stock').textContent,
            opponent: document.querySelectorAll('#opp-hand .card').length,
            score: document.querySelector('#match-score').textContent,
            actions: [...document.querySelectorAll('#actions [data-action]')].map(e => e.dataset.action),
        })"""
    )
    return state


def test_reload_mid_deal_resumes_the_identical_state(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="DE24", seed=77, dealer=1)
    for _ in range(3):
        do(page, legal_cards(page)[0])
        if phase(page) in OVER:
            break
    before = table_state(page)
    assert before["view"]["tricks_played"] >= 2
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    after = table_state(page)
    assert after == before
    # ...and the restored game goes on.
    do(page, (legal_cards(page) or actions(page))[0])


@pytest.mark.page_logic
def test_the_page_never_receives_a_record(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="AT20", seed=5)
    refused = [
        page.evaluate("payload => window.__test.request(payload)", payload)
        for payload in (
            {"cmd": "save", "game": "g1"},
            {"cmd": "load", "record": {}},
            {"cmd": "view", "game": "g1", "seat": 1},
            {"cmd": "legal", "game": "g1", "seat": 1},
            {"cmd": "hint", "game": "g1", "seat": 1},
        )
    ]
    for answer in refused:
        assert answer == {"ok": False, "code": "bad_request", "message": answer["message"]}
    # No record (its format) and no pack of a deal (a record deal's "deck" list) ever reached the page.
    assert not any("py_engine/record" in m or re.search(r'"deck":\s*\[', m) for m in messages(page))


def test_offline_reload_after_the_first_visit(site_copy: Site, context: BrowserContext, watch: Watch) -> None:
    page = context.new_page()
    watch.attach(page)
    open_table(page, site_copy.url)
    expect(page.locator(TABLE)).to_have_attribute("data-sw", "ready", timeout=BOOT_TIMEOUT_MS)
    new_game(page, preset="RO20", seed=11)
    # Offline by behaviour, in every browser: the server is gone and the context is offline, so
    # only the service worker can serve the reload. (Playwright's response.from_service_worker
    # says so in Chromium only; over WebDriver BiDi, Firefox, it is always False.)
    site_copy.stop()
    context.set_offline(True)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert table_data(page)["boot"] == "ready"
    played = legal_cards(page)[0]
    do(page, played)
    assert played not in page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    context.set_offline(False)


def test_a_first_visit_whose_offline_download_fails_says_so(site_copy: Site, context: BrowserContext) -> None:
    """The offline copy fails (a file arrives damaged): said in words, and tried again once back online."""
    icon = site_copy.directory / "icons" / "icon-512.png"
    whole = icon.read_bytes()
    icon.write_bytes(b"not the file of this build")  # the service worker checks every file's hash
    page = context.new_page()
    open_table(page, site_copy.url)
    expect(page.locator(TABLE)).to_have_attribute("data-sw", "failed", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#notice-text")).to_contain_text("could not be saved for offline play")
    icon.write_bytes(whole)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(TABLE)).to_have_attribute("data-sw", "ready", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#notice-text")).to_contain_text("can now be played offline")

    # Offline in the middle of the first download of the runtime: said, not a hang.
    second = context.browser.new_context() if context.browser else None
    assert second is not None
    try:
        page = second.new_page()

        def connection_lost(route: Any) -> None:
            second.set_offline(True)
            route.abort("internetdisconnected")

        page.route("**/pyodide.asm.wasm", connection_lost)
        page.goto(site_copy.url + TEST_QUERY)
        expect(page.locator("#boot-error")).to_contain_text("You are offline", timeout=BOOT_TIMEOUT_MS)
    finally:
        second.close()


@pytest.mark.chromium_only
def test_the_site_is_installable_once_playable(site: Site, page: Page, watch: Watch, browser_name: str) -> None:
    """The manifest is linked once the table is playable (not during the boot), and Chromium reads it without errors.

    (Chromium's own installability check stops at "in-incognito" in a Playwright context.)
    """
    assert browser_name == "chromium", "this test asks Chromium's DevTools protocol (the Firefox run deselects it)"
    watch.attach(page)
    # Records the table's boot state at the moment a manifest link appears in the document.
    page.add_init_script(
        """new MutationObserver((changes) => {
             for (const change of changes) for (const node of change.addedNodes)
               if (node.rel === "manifest") window.__manifestLinkedAt = document.getElementById("table")?.dataset.boot;
           }).observe(document, { childList: true, subtree: true });"""
    )
    open_table(page, site.url)
    assert page.evaluate("document.querySelectorAll('link[rel=manifest]').length") == 1
    assert page.evaluate("window.__manifestLinkedAt") == "ready"
    expect(page.locator(TABLE)).to_have_attribute("data-sw", "ready", timeout=BOOT_TIMEOUT_MS)
    session = page.context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"] == site.url + "manifest.webmanifest"
    assert manifest["errors"] == []
    assert {icon["sizes"] for icon in json.loads(manifest["data"])["icons"]} >= {"192x192", "512x512"}


@pytest.mark.fresh_browser
def test_warm_boot_restores_the_memory_snapshot(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    started = time.perf_counter()
    open_table(page, site.url)
    cold = time.perf_counter() - started
    assert table_data(page)["bootMode"] == "cold"
    expect(page.locator(TABLE)).to_have_attribute("data-snapshot", "stored", timeout=BOOT_TIMEOUT_MS)
    started = time.perf_counter()
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    warm = time.perf_counter() - started
    data = table_data(page)
    assert data["bootMode"] == "snapshot"
    print(f"\nboot: cold {cold:.2f} s (page ready at {data['bootMs']} ms on reload), warm reload {warm:.2f} s")
    # The restored engine plays a whole deal (modules imported lazily after the snapshot included).
    new_game(page, preset="SZLI20", seed=8)
    play_out_deal(page)


def test_corrupted_save_gives_a_clear_message_and_a_fresh_game(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    page.evaluate(
        """() => new Promise((resolve, reject) => {
            const open = indexedDB.open('sixty-six', 1);
            open.onsuccess = () => {
                const tx = open.result.transaction('saves', 'readwrite');
                const broken = {format: 'py_engine/record', version: 1, deals: 'garbage'};
                tx.objectStore('saves').put({record: broken}, 'current');
                tx.objectStore('saves').put({saved: {format: 'online', seat: 'x'}}, 'online');
                tx.oncomplete = () => { open.result.close(); resolve(); };
                tx.onerror = () => reject(tx.error);
            };
            open.onerror = () => reject(open.error);
        })"""
    )
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice")).to_contain_text("was damaged and could not be restored")
    # In words only: nothing of the engine's own ("not a record", "format", "deals").
    assert not re.search(r"record|format|deals|must be", page.locator("#notice-text").inner_text()), page.locator(
        "#notice-text"
    ).inner_text()
    # A fresh deal: nothing played yet (the computer may already have led, or even closed, if it deals to you).
    view = page.evaluate("window.__test.view()")
    assert view["tricks_played"] == 0, view
    assert phase(page) in ("open", "closed"), view
    assert page.locator("#my-hand .card").count() == 5
    # Nothing is lost: both damaged saves are kept as they were, as copies that go with the data export.
    expect(page.locator("#notice")).to_contain_text("data export")
    page.wait_for_function("() => localStorage.getItem('sixty-six.damaged.online-game') !== null")
    copies = page.evaluate(
        """() => ['game', 'online-game'].map((name) => JSON.parse(localStorage.getItem(`sixty-six.damaged.${name}`)))"""
    )
    assert copies == [
        {"record": {"format": "py_engine/record", "version": 1, "deals": "garbage"}},
        {"saved": {"format": "online", "seat": "x"}},
    ], copies


@pytest.mark.page_logic
def test_settings_are_remembered(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    page.locator("#open-settings").click()
    options = page.locator("#setting-preset option")
    expect(options).to_have_count(8)
    page.select_option("#setting-preset", "DE24")
    page.select_option("#setting-level", "5")
    page.select_option("#setting-dealer", "me")
    page.select_option("#setting-points", "both")
    page.select_option("#setting-pace", "fast")
    before = int(table_data(page)["step"])
    page.locator("[data-action='settings-new-game']").click()
    page.wait_for_function(
        "before => Number(document.querySelector('#table').dataset.step) > before", arg=before, timeout=STEP_TIMEOUT_MS
    )
    wait_ready(page)
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    assert view["rules"]["id"] == "DE24" and view["dealer"] == 0
    expect(page.locator("#my-points")).to_have_text(re.compile(r"\d+"))
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    settings = page.evaluate("window.__test.settings()")
    # Language and cards were left as they were: not chosen, they follow the browser's language.
    assert settings == {
        "preset": "DE24",
        "level": 5,
        "dealer": "me",
        "points": "both",
        "confirmClaim": True,
        "tapToSelect": False,
        "language": None,
        "deck": None,
        "pace": "fast",
    }


def test_phone_portrait_layout(site: Site, phone_context: BrowserContext, watch: Watch, browser_name: str) -> None:
    page = phone_context.new_page()
    page.set_viewport_size({"width": 360, "height": 640})
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="HU24", seed=4, dealer=1)  # six cards, you lead: the widest hand
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    boxes = page.locator("#my-hand .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.height]; })"
    )
    assert len(boxes) == 6
    for (left, right, height), following in zip(boxes, [*boxes[1:], None], strict=True):
        visible = (following[0] if following else right) - left
        assert visible >= 44 and height >= 44, f"a card offers only {visible:.0f} x {height:.0f} px to touch"
    for size in page.locator("#table button[data-action], .topbar button:visible").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    ):
        assert size[0] >= 44 and size[1] >= 44
    before = step_count(page)
    tap(page.locator("#my-hand .card[data-legal='1']").first, browser_name)
    page.wait_for_function("n => Number(document.getElementById('table').dataset.step) >= n", arg=before + 1)
    wait_ready(page)


def test_new_version_offers_a_reload_and_switches_cleanly(
    site_copy: Site, context: BrowserContext, watch: Watch
) -> None:
    page = context.new_page()
    watch.attach(page)
    open_table(page, site_copy.url)
    expect(page.locator(TABLE)).to_have_attribute("data-sw", "ready", timeout=BOOT_TIMEOUT_MS)
    old_caches = page.evaluate("caches.keys()")
    # Deploy a new version: one changed file, a new precache manifest and service worker.
    css = site_copy.directory / "styles.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* deploy 2 */\n", encoding="utf-8")
    version = build.write_service_worker(site_copy.directory)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    banner = page.locator("#update-banner")
    expect(banner).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    # Until you choose, the old version keeps serving its own files, in every tab.
    assert "deploy 2" not in page.evaluate("fetch('styles.css').then(r => r.text())")
    # The button acts even when no version is waiting any more (another tab took it): it reloads, and the
    # version that is still waiting here is offered again.
    page.evaluate("() => Object.defineProperty(ServiceWorkerRegistration.prototype, 'waiting', { get: () => null })")
    with page.expect_event("load", timeout=BOOT_TIMEOUT_MS):
        page.locator("[data-action='update-reload']").click()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(banner).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    assert "deploy 2" not in page.evaluate("fetch('styles.css').then(r => r.text())")
    other = context.new_page()
    watch.attach(other)
    other.goto(site_copy.url + TEST_QUERY)
    expect(other.locator("#elsewhere-dialog")).to_be_visible(timeout=BOOT_TIMEOUT_MS)  # it waits for the table
    other.evaluate("() => { window.oldVersion = true; }")
    # Chromium switches once the old worker has no work left: a tab still downloading the engine through it
    # puts the switch off until that worker has idled for 30 s (measured: a fetch every 50 ms holds it for
    # minutes). The click comes once this tab's engine is up, as a player's would.
    other.wait_for_function(
        "() => window.__test?.messages.some((m) => JSON.parse(m).type === 'ready')", timeout=BOOT_TIMEOUT_MS
    )
    # The click says what comes: while the switch is put off (here: the request to switch held back), the
    # banner says it is switching.
    page.evaluate(
        "() => { window.post = ServiceWorker.prototype.postMessage; ServiceWorker.prototype.postMessage = () => {}; }"
    )
    page.locator("[data-action='update-reload']").click()
    expect(page.locator("#update-text")).to_have_text(re.compile(r"^Switching to the new version"))
    page.evaluate("() => { ServiceWorker.prototype.postMessage = window.post; }")
    # One tab applies it: the other, on the old code, reloads into the new version too (no mixing).
    try:
        with page.expect_event("load", timeout=BOOT_TIMEOUT_MS), other.expect_event("load", timeout=BOOT_TIMEOUT_MS):
            page.locator("[data-action='update-reload']").click()
    except PlaywrightTimeoutError as error:
        raise AssertionError(f"no reload: {service_workers(page)}; the other tab: {service_workers(other)}") from error
    assert other.evaluate("() => window.oldVersion === undefined")
    assert "deploy 2" in other.evaluate("fetch('styles.css').then(r => r.text())")
    other.close()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(banner).to_be_hidden()
    assert "deploy 2" in page.evaluate("fetch('styles.css').then(r => r.text())")
    caches = page.evaluate("caches.keys()")
    precaches = [c for c in caches if c.startswith("sixty-six-precache-")]
    assert precaches == [f"sixty-six-precache-{version}"], (old_caches, caches)


SERVICE_WORKERS_JS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const state = (worker) => worker && worker.state;
  return {
    controller: state(navigator.serviceWorker.controller),
    installing: state(registration?.installing),
    waiting: state(registration?.waiting),
    active: state(registration?.active),
    banner: !document.getElementById("update-banner")?.hidden,
  };
}"""


def service_workers(page: Page) -> object:
    """What ``page`` knows of its service workers, to explain a reload that did not come."""
    try:
        return page.evaluate(SERVICE_WORKERS_JS)
    except Exception as error:  # a page in mid-navigation cannot answer: say so instead
        return f"(no answer: {error})"


def test_built_site_is_self_contained(dist: Any) -> None:
    """Static checks on dist/: relative URLs, the precache manifest, no source maps, icons."""
    manifest = json.loads((dist / "precache-manifest.json").read_text(encoding="utf-8"))
    listed = {entry["url"] for entry in manifest["files"]}
    on_disk = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    # Everything is precached but the page's single modules, which the page loads bundled (page/).
    single_modules = {p.relative_to(build.WEB).as_posix() for p in build.WEB.rglob("*.js")} - set(build.UNBUNDLED)
    assert single_modules <= on_disk
    assert listed == on_disk - {"sw.js", "precache-manifest.json"} - single_modules
    assert f"{build.PAGE_BUNDLE}/{build.PAGE_ENTRY}" in listed
    assert "./page/app.js" in (dist / "boot.js").read_text(encoding="utf-8")
    for entry in manifest["files"]:
        assert build.file_sha256(dist / entry["url"]) == entry["sha256"], entry["url"]
    assert not [p for p in on_disk if p.endswith((".map", ".d.ts")) or "console" in p]
    html = (dist / "index.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "'wasm-unsafe-eval'" in html
    assert not re.search(r'(?:src|href)="(?:/|https?:)', html), "index.html must use relative URLs only"
    assert "<script>" not in html and " style=" not in html
    web_manifest = json.loads((dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    sizes = {icon["sizes"] for icon in web_manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in web_manifest["icons"])
    for icon in web_manifest["icons"]:
        data = (dist / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def test_a_runtime_that_cannot_start_is_explained(site: Site, new_context: Any) -> None:
    # No WebAssembly at all.
    context: BrowserContext = new_context()
    page = context.new_page()
    page.add_init_script("delete window.WebAssembly")
    page.goto(site.url + TEST_QUERY)
    expect(page.locator("#boot-error")).to_contain_text("WebAssembly")
    assert table_data(page)["boot"] == "failed"
    # The Python runtime cannot be fetched.
    page = context.new_page()
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(site.url + TEST_QUERY)
    expect(page.locator("#boot-error")).to_contain_text("could not start", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator(TABLE)).to_have_attribute("data-ready", "0")
    # The page's own scripts cannot be fetched (boot.js imports app.js after starting the worker).
    page = context.new_page()
    page.route("**/app.js", lambda route: route.abort())
    page.goto(site.url + TEST_QUERY)
    expect(page.locator("#boot-error")).to_contain_text("scripts could not be loaded", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-label")).to_have_text("The game cannot start")  # boot.failed, in English
    assert table_data(page)["boot"] == "failed"


def test_new_at_the_end_of_a_match_is_a_rematch_in_one_tap(site: Site, page: Page, watch: Watch) -> None:
    """The top bar's New opens the settings while a match goes on; once it is over, one tap deals the rematch."""
    watch.attach(page)
    open_table(page, site.url)
    page.locator("#new-game").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#settings-dialog")).to_be_hidden()
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, step)
    assert phase(page) == "match_over"
    rules = page.evaluate("window.__test.view().rules")
    page.locator("#new-game").click()
    expect(page.locator("#table")).not_to_have_attribute("data-phase", "match_over")
    wait_ready(page)
    expect(page.locator("#settings-dialog")).to_be_hidden()
    view = page.evaluate("window.__test.view()")
    assert view["tricks_played"] == 0 and view["match"]["scores"] == [0, 0]
    assert view["rules"]["id"] == rules["id"]
