"""Voice between two pages playing online, with the browsers' fake microphones (tests/browser/online_fixtures.py).

The two pages meet by invitation link (nothing leaves this machine). The story: no microphone opens before both
players accept; a request declined either way; a call both ways with sound flowing in both directions (the RTP
byte counts of ``getStats``); mute stops the sound and unmute brings it back; a hang-up from either side closes
both calls and releases both microphones; forged voice signals are left aside with a notice; a microphone that
is refused is said in words and the call goes on, listening only; a lost connection ends the call. axe-core
scans the voice controls in each state.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from .conftest import STEP_TIMEOUT_MS, Site, WarmContexts
from .online_helpers import Player, connect_by_link, new_player, wait_booted
from .test_a11y import axe_check

#: More sound than a few stray packets (Opus sends some 50 a second, 4-8 KB/s with its headers).
SOUND_BYTES = 1500
#: The received byte count unchanged this long: nothing is sent any more.
QUIET_MS = 1000


@pytest.fixture
def pair(site: Site, browsers: dict[str, WarmContexts]) -> Iterator[tuple[Player, Player]]:
    """The host in Firefox, the guest in Chromium (each browser's microphone and player of the other's sound)."""
    host = new_player(browsers["firefox"], site, locale="en-US", clock=False, booted=False)
    guest = new_player(browsers["chromium"], site, locale="de-DE", clock=False, booted=False)
    wait_booted(host, guest)  # both boot at once
    yield host, guest
    for player in (host, guest):
        assert player.errors == [], player.errors
        player.leave()


def voice(player: Player) -> dict[str, Any]:
    value: dict[str, Any] = player.page.evaluate("() => window.__test.voice()")
    return value


def until_voice(player: Player, condition: str, arg: Any = None) -> None:
    """Wait until ``condition`` (JavaScript of ``v``, the page's latest voice hook, and ``arg``) holds.

    The hook is a promise (getStats), and a wait's condition must be synchronous: each poll starts the next
    reading and looks at the last one (``w`` keeps them, and whatever the condition needs to keep).
    """
    player.page.evaluate("() => { window.__voicePoll = { v: null, busy: false, error: null }; }")
    try:
        player.page.wait_for_function(
            "arg => { const w = window.__voicePoll;"
            " if (!w.busy) { w.busy = true; window.__test.voice().then("
            "(v) => { w.v = v; w.busy = false; }, (e) => { w.error = String(e); w.busy = false; }); }"
            f" const v = w.v; return v !== null && ({condition}); }}",
            arg=arg,
            timeout=STEP_TIMEOUT_MS,
            polling=100,
        )
    except PlaywrightTimeoutError:
        last = player.page.evaluate("() => window.__voicePoll")
        raise AssertionError(f"voice never reached {condition!r}; the last reading: {last}") from None


def hears(listener: Player) -> None:
    """The other side's sound reaches ``listener``: its received bytes grow."""
    until_voice(listener, "v.received > arg", voice(listener)["received"] + SOUND_BYTES)


#: The received bytes have not changed for ``arg`` ms (``w.q``: the count and since when).
QUIET_JS = """(() => {
  const q = (w.q ??= { bytes: -1, at: 0 });
  if (q.bytes !== v.received) Object.assign(q, { bytes: v.received, at: Date.now() });
  return Date.now() - q.at >= arg;
})()"""


def hears_nothing(listener: Player) -> None:
    """No sound reaches ``listener`` any more: its received bytes stay the same for QUIET_MS."""
    until_voice(listener, QUIET_JS, QUIET_MS)


def click(player: Player, button: str) -> None:
    player.page.locator(f"#voice-{button}").click()


def says(player: Player, text: str) -> None:
    expect(player.page.locator("#voice-status")).to_contain_text(text, timeout=STEP_TIMEOUT_MS)


def call_up(asker: Player, answerer: Player) -> None:
    """``asker`` asks, ``answerer`` accepts; both calls connect."""
    click(asker, "ask")
    expect(answerer.page.locator("#voice-accept")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    click(answerer, "accept")
    for player in (asker, answerer):
        until_voice(player, "v.media === 'connected'")


def hung_up(*players: Player) -> None:
    """No call on ``players`` any more, and every microphone they opened is released."""
    for player in players:
        until_voice(player, "v.call === 0 && v.media === 'off' && v.live === 0")
        expect(player.page.locator("#voice-ask")).to_be_visible(timeout=STEP_TIMEOUT_MS)


@pytest.mark.two_browsers
def test_voice_with_consent_mute_and_hang_up(pair: tuple[Player, Player]) -> None:
    host, guest = pair
    connect_by_link(host, guest)  # host Anna (English), guest Béla (German)
    expect(host.page.locator("#voice-ask")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    axe_check(host.page, "the voice call offered")

    # Declined both ways: no microphone opens on either side until both have accepted.
    click(guest, "ask")
    says(guest, "Warte, bis Anna den Sprachanruf annimmt")
    says(host, "Béla asks for a voice call.")
    axe_check(host.page, "a voice call asked for: accept or decline")
    axe_check(guest.page, "waiting for the other to accept the voice call (German)")
    click(host, "decline")
    says(guest, "Anna hat den Sprachanruf abgelehnt.")
    click(host, "ask")
    expect(guest.page.locator("#voice-decline")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    click(guest, "decline")
    says(host, "Béla declined the voice call.")
    assert voice(host)["opened"] == voice(guest)["opened"] == 0

    # Accepted: each side opens its microphone once, and the sound flows both ways.
    started = time.perf_counter()
    call_up(guest, host)
    connected_s = time.perf_counter() - started
    assert voice(host)["opened"] == voice(guest)["opened"] == 1
    assert voice(host)["live"] == voice(guest)["live"] == 1
    hears(host)
    hears(guest)
    says(host, "Voice call with Béla.")
    axe_check(host.page, "a voice call on")
    axe_check(guest.page, "a voice call on (German)")

    # Mute: the guest sends nothing more and the host is told; unmuted, the sound comes back.
    click(guest, "mute")
    expect(guest.page.locator("#voice-mute")).to_have_attribute("aria-pressed", "true")
    says(host, "Béla is muted.")
    says(guest, "Du bist stummgeschaltet.")
    started = time.perf_counter()
    hears_nothing(host)
    quiet_s = time.perf_counter() - started - QUIET_MS / 1000
    hears(guest)  # the host still speaks
    axe_check(guest.page, "muted (German)")
    click(guest, "mute")
    expect(guest.page.locator("#voice-mute")).to_have_attribute("aria-pressed", "false")
    hears(host)
    expect(host.page.locator("#voice-status")).not_to_contain_text("muted")

    # Forged voice signals are left aside with a notice: the call and the game go on.
    forged = "{voice: {call: 1, type: 'offer', sdp: 'v=0\\r\\nm=video 9 RTP/AVP 96\\r\\n'}}"
    guest.page.evaluate(f"() => {{ for (let i = 0; i < 30; i++) window.__test.sendRaw({forged}); }}")
    guest.page.evaluate("() => window.__test.sendRaw({voice: {call: 1, type: 'answer', sdp: 'v=0\\r\\nm=audio 9'}})")
    expect(host.page.locator("#notice")).to_contain_text("voice message", timeout=STEP_TIMEOUT_MS)
    assert voice(host)["media"] == "connected"
    hears(host)

    # A hang-up by the host closes both calls and releases both microphones.
    click(host, "hang-up")
    hung_up(host, guest)
    says(guest, "Anna hat aufgelegt.")
    axe_check(guest.page, "the other hung up (German)")

    # Asked again, and hung up by the guest this time.
    call_up(host, guest)
    hears(guest)
    click(guest, "hang-up")
    hung_up(host, guest)
    says(host, "Béla hung up.")
    assert voice(host)["opened"] == voice(guest)["opened"] == 2

    # A microphone that is refused: said in words; the call goes on with this side listening only.
    guest.page.evaluate(
        "() => { navigator.mediaDevices.getUserMedia = async () => {"
        " throw new DOMException('refused by the test', 'NotAllowedError'); }; }"
    )
    call_up(host, guest)
    until_voice(guest, "v.microphone === 'denied'")
    expect(guest.page.locator("#notice")).to_contain_text("Mikrofon wurde nicht erlaubt", timeout=STEP_TIMEOUT_MS)
    says(guest, "Dein Mikrofon ist aus")
    hears(guest)
    axe_check(guest.page, "a voice call without a microphone (German)")

    # A lost connection ends the call on both sides.
    guest.page.evaluate("() => window.__test.dropConnection()")
    hung_up_js = "v.call === 0 && v.media === 'off' && v.live === 0"
    until_voice(host, hung_up_js)
    until_voice(guest, hung_up_js)
    host_voice = host.page.evaluate("() => window.__test.online().status.voice")
    assert not host_voice["on"] and host_voice["last"] == {"by": 1, "why": "lost"}
    browser = host.context.browser
    print(
        f"online: voice in {browser.browser_type.name if browser else '?'}: accept -> both connected"
        f" {connected_s:.2f} s; mute -> sound stopped {quiet_s:.2f} s"
    )
