"""Driving two whole pages of the game against each other online (tests/browser/test_online_game.py).

Each player is a page of the real site in its own browser context (its own
storage, worker and engine), with the test hooks. Network settings point at
the test's own relay (if any) and no STUN server, so nothing leaves this
machine. The page's clock can be moved on (Playwright's clock) to make a
pause or an absence run out without waiting.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import BOOT_TIMEOUT_MS, PLAYER_PERMISSIONS, STEP_TIMEOUT_MS, TEST_QUERY, Site, WarmContexts
from .helpers import answer_question

NETWORK_KEY = "sixty-six.network.v1"
SETTINGS_KEY = "sixty-six.settings.v1"
CUSTOM_RULES_KEY = "sixty-six.custom-rules"
#: How often a wait looks again (ms): a page in the background gets no animation frames to poll on.
POLL_MS = 25
#: How long agree() waits for the guest before it looks at the host's state again (ms).
LOOK_AGAIN_MS = 1000
#: How long a move's click waits for its card or button (ms), and how many such misses in a row fail the test.
CLICK_TIMEOUT_MS = 5000
MISSED_CLICKS_MAX = 3


@dataclass
class Player:
    page: Page
    context: BrowserContext
    errors: list[str]
    #: The page's console warnings and errors, printed when a test ends (pytest shows them if it failed).
    console: list[str] = field(default_factory=list)
    #: Clicks in a row that found no card or button for a move the page's view called legal.
    missed_clicks: int = 0
    #: The pool the context was borrowed from, if it was.
    pool: WarmContexts | None = None

    def leave(self) -> None:
        """Close the player's context, or give it back to the pool it was borrowed from."""
        if self.pool is None:
            self.context.close()
        else:
            self.pool.give_back(self.context)

    @property
    def browser_name(self) -> str:
        """``chromium`` or ``firefox``: the browser the player's page is in."""
        browser = self.context.browser
        assert browser is not None
        return browser.browser_type.name

    def online(self) -> dict[str, Any] | None:
        value: dict[str, Any] | None = self.page.evaluate("() => window.__test.online()")
        return value

    def view(self) -> dict[str, Any] | None:
        value: dict[str, Any] | None = self.page.evaluate("() => window.__test.view()")
        return value

    def ready(self) -> bool:
        return bool(self.page.evaluate("() => window.__test.ready()"))


def firefox_ice_notice(text: str) -> bool:
    """Firefox's own report of a peer connection whose ICE failed ("ICE failed, add a STUN server and see
    about:webrtc ..."), which it raises as a page error: expected when the other page is reloaded or
    dropped by the test (the game then meets again on a new connection), not an error of the page."""
    return text.startswith("ICE failed, add a STUN server")


def new_player(
    where: Browser | WarmContexts,
    site: Site,
    *,
    locale: str = "en-US",
    relay: str | None = None,
    clock: bool = True,
    init_script: str = "",
    booted: bool = True,
    match: tuple[str, int] | None = None,
) -> Player:
    """A page of the site, booted, with the network settings of the tests.

    ``locale``: the player's language (its first two letters, chosen in the settings), and the browser's
    locale of a context made here; a borrowed one keeps the browser's own.
    ``clock``: the page's clock is Playwright's, to be moved on by the test (not for timing anything).
    ``init_script``: more JavaScript to run in the page before its own.
    ``booted``: False to go on while the page boots (boot two at once, then wait_booted).
    ``match``: (preset, game points to win): the preset it hosts, with a shorter match as custom rules.
    ``where``: a pool of warm contexts to borrow one from, that has visited the site (a warm boot; with
    ``clock``, which stays with its context, for good: WarmContexts.take; Player.leave() gives it back), or a
    browser in which to make a new context (a first visit).
    """
    pool = where if isinstance(where, WarmContexts) else None
    borrowed = pool is not None
    if pool is not None:
        context = pool.take(for_good=clock)
    else:
        assert isinstance(where, Browser)
        context = where.new_context(locale=locale, permissions=PLAYER_PERMISSIONS)
    network = {"relays": [relay] if relay else ["ws://127.0.0.1:9"], "stun": [], "turn": []}
    # The player's language, chosen in the settings (not left to the browser's locale). Only on the site:
    # Firefox runs init scripts in the new page's about:blank too, where storage is "insecure".
    settings = json.dumps({"language": locale[:2], **({"preset": match[0]} if match else {})})
    custom = json.dumps({"preset": match[0], "rules": {"match_target": match[1]}}) if match else ""
    scripts = [
        "if (location.protocol.startsWith('http')) {"
        f" localStorage.setItem({json.dumps(NETWORK_KEY)}, {json.dumps(json.dumps(network))});"
        f" if (!localStorage.getItem({json.dumps(SETTINGS_KEY)}))"
        f" localStorage.setItem({json.dumps(SETTINGS_KEY)}, {json.dumps(settings)});"
        + (f" localStorage.setItem({json.dumps(CUSTOM_RULES_KEY)}, {json.dumps(custom)});" if match else "")
        + " }",
        *([init_script] if init_script else []),
    ]
    page = context.new_page()
    for script in scripts:  # a borrowed context goes back clean: the scripts belong to the page only
        (page if borrowed else context).add_init_script(script)
    errors: list[str] = []
    page.on("pageerror", lambda e: None if firefox_ice_notice(str(e)) else errors.append(f"page error: {e}"))
    if clock:
        page.clock.install()
    page.goto(site.url + TEST_QUERY)
    player = Player(page, context, errors, pool=pool if borrowed else None)
    page.on(
        "console",
        lambda m: player.console.append(f"{m.type}: {m.text}") if m.type in ("warning", "error") else None,
    )
    if booted:
        wait_booted(player)
    return player


def wait_booted(*players: Player) -> None:
    for player in players:
        expect(player.page.locator("#table")).to_have_attribute("data-ready", "1", timeout=BOOT_TIMEOUT_MS)


def host_starts(host: Player, name: str, button: str) -> Page:
    """The host opens the online dialog, gives its name and presses ``button`` (a link, or a room)."""
    page = host.page
    page.locator("#open-online").click()
    page.locator("#online-name").fill(name)
    page.locator(button).click()
    return page


def host_by_room(host: Player, name: str) -> str:
    """The host opens a room on the test's relay; returns its six-character code."""
    code = host_starts(host, name, "#online-host-room").locator("#online-room-code")
    expect(code).to_have_text(re.compile(r"^\S{6}$"), timeout=STEP_TIMEOUT_MS)
    return code.inner_text()


def host_by_link(host: Player, name: str) -> str:
    """The host opens the online dialog and makes an invitation link; returns it (never the last one's)."""
    before = host.page.locator("#online-invite-link").input_value()
    link = host_starts(host, name, "#online-host-link").locator("#online-invite-link")
    expect(link).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(link).not_to_have_value("", timeout=STEP_TIMEOUT_MS)
    if before:
        expect(link).not_to_have_value(before, timeout=STEP_TIMEOUT_MS)
    return link.input_value()


def guest_answers(guest: Player, link: str, name: str) -> str:
    """The guest opens the online dialog, pastes the link and joins; returns its answer code (never the last one's)."""
    page = guest.page
    before = page.locator("#online-answer-code").input_value()
    if not page.locator("#online-dialog").is_visible():
        page.locator("#open-online").click()
    page.locator("#online-name").fill(name)
    page.locator("#online-join-text").fill(link)
    page.locator("#online-join").click()
    code = page.locator("#online-answer-code")
    expect(code).to_be_visible(timeout=STEP_TIMEOUT_MS)
    if before:
        expect(code).not_to_have_value(before, timeout=STEP_TIMEOUT_MS)
    return code.input_value()


def host_connects(host: Player, answer: str) -> None:
    page = host.page
    page.locator("#online-answer-input").fill(answer)
    page.locator("#online-answer-connect").click()


def connect_by_link(host: Player, guest: Player) -> None:
    """Host and guest meet by invitation link and answer code; the guest reads the rules and joins."""
    link = host_by_link(host, "Anna")
    answer = guest_answers(guest, link, "Béla")
    host_connects(host, answer)
    rules = guest.page.locator("#online-rules")
    expect(rules).to_be_visible(timeout=STEP_TIMEOUT_MS)
    # The guest sees the host's name and the room's rules before joining.
    expect(guest.page.locator("#online-rules-host")).to_contain_text("Anna")
    assert guest.page.locator("#online-rules-text li").count() > 5
    guest.page.locator("#online-accept").click()
    wait_joined(host, guest)


def wait_joined(*players: Player) -> None:
    """Both tables show the online game (the guest has joined and has its first view)."""
    for player in players:
        player.page.wait_for_function(
            "() => { const o = window.__test.online(); const v = window.__test.view();"
            " return o && o.connected && o.status && o.status.joined !== false && v && window.__test.ready(); }",
            timeout=STEP_TIMEOUT_MS,
        )


#: What both tables must agree on, counted in seats (the same text on the host's page and the guest's).
PROGRESS_JS = """() => {
  const v = window.__test.view();
  if (!v || !window.__test.ready()) return null;
  const mine = [v.my_points, v.opponent_points];
  const points = v.seat === 0 ? mine : [mine[1], mine[0]];
  return JSON.stringify([v.match.scores, v.match.deal_number, v.match.match_number, v.tricks_played,
    v.trick, v.declared, v.closed_by, v.trump_card, v.talon_count, v.to_act, v.awaiting_final_claims,
    v.deal_result && v.deal_result.code, v.game_over, points]);
}"""


def progress(player: Player) -> str | None:
    value: str | None = player.page.evaluate(PROGRESS_JS)
    return value


def agree(host: Player, guest: Player, before: str | None = None) -> str:
    """Wait until the host's table has moved on from ``before`` and the guest's table shows the same."""
    handle = host.page.wait_for_function(
        f"before => {{ const p = ({PROGRESS_JS})(); return p !== null && p !== before ? p : null; }}",
        arg=before,
        timeout=STEP_TIMEOUT_MS,
        polling=POLL_MS,
    )
    now: str = handle.json_value()
    # The host may pass through a state that the guest never shows at rest (the guest can take the host's
    # move and the computer's answer for it in one go): the guest must reach the host's latest state.
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while True:
        with contextlib.suppress(PlaywrightTimeoutError):
            guest.page.wait_for_function(
                f"want => ({PROGRESS_JS})() === want", arg=now, timeout=LOOK_AGAIN_MS, polling=POLL_MS
            )
        latest = progress(host)
        if latest == now and progress(guest) == now:
            return now
        assert time.monotonic() < deadline, f"the tables do not agree: host {latest}, guest {progress(guest)}"
        if latest is not None:
            now = latest


def move(player: Player, rng: random.Random) -> bool:
    """Play one legal move on ``player``'s table if it has one (a card or an action button); True if it did."""
    view = player.view()
    if not view or not view["legal"] or not player.ready():
        return False
    legal = [a for a in view["legal"] if a != "resign"]
    if not legal:
        return False
    choice = rng.choice(legal)
    page = player.page
    target = (
        page.locator(f"#my-hand [data-card='{choice[5:]}']")
        if choice.startswith("play:")
        else page.locator(f"#table button[data-action='{choice}']").first
    )
    try:
        target.click(timeout=CLICK_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        # The table moved on between reading its moves and the click (the other's move, a stand-in's answer):
        # no move was made; the caller looks again, and gives up if the table never offers the move it reads.
        player.missed_clicks += 1
        assert player.missed_clicks <= MISSED_CLICKS_MAX, f"{choice} is legal but cannot be clicked"
        return False
    player.missed_clicks = 0
    if choice == "claim":
        answer_question(page, "claim")
    return True


def play(host: Player, guest: Player, rng: random.Random, moves: int | None = None) -> int:
    """Moves by whichever page has one (each page plays its own seat), until the match is over on both pages (or
    ``moves`` were made). A seat the computer plays for (its pause ran out) moves on its own page by itself.
    Returns the moves made."""
    state = agree(host, guest)
    made = 0
    for _ in range(4000):
        views = host.view(), guest.view()
        if all(v is not None and v["game_over"] for v in views) or (moves is not None and made >= moves):
            return made
        moved = False
        for player in (host, guest):
            online = player.online()
            assert online is not None
            seat = online["status"]["seat"] if online["status"] else None
            if seat in online["status"]["stand_in"]:
                continue  # its own engine moves for it
            if move(player, rng):
                made += 1
                moved = True
                break
        state = agree(host, guest, state if moved else None) if moved else wait_change(host, guest, state)
    raise AssertionError("the match did not end")


def wait_change(host: Player, guest: Player, state: str) -> str:
    """Nobody could move: wait until the tables move on by themselves (a deal being dealt, a stand-in's move)."""
    with contextlib.suppress(PlaywrightTimeoutError):
        host.page.wait_for_function(
            "before => { const v = window.__test.view(); return v && window.__test.ready()"
            f" && (v.legal.length > 0 || ({PROGRESS_JS})() !== before); }}",
            arg=state,
            timeout=STEP_TIMEOUT_MS,
            polling=POLL_MS,
        )
    return agree(host, guest)
