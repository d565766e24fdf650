"""Two whole pages play each other online: by invitation link and answer code, and by room code through a
real local Nostr relay (tests/browser/online_fixtures.py). Nothing leaves this machine: the relay is the
test's own and no STUN server is set.

Each test is one long story, because each page boots the whole game (Pyodide and the engine) in a context of
its own: a whole match, chat both ways in two languages, shown cards, a pause with the computer standing
in, forged messages, a lost connection and a reconnect to the same state, a rematch and a loss on time.
Each story runs once, with one page in Chromium and the other in Firefox (marker two_browsers): the
browsers meet each other as players' browsers do, and each hosts and joins in one story or another.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import BOOT_TIMEOUT_MS, ROOT, STEP_TIMEOUT_MS, TEST_QUERY, Site, WarmContexts
from .helpers import answer_question
from .online_fixtures import Relay, nostr_relay  # noqa: F401 (a fixture)
from .online_helpers import (
    Player,
    agree,
    connect_by_link,
    guest_answers,
    host_by_link,
    host_by_room,
    host_connects,
    new_player,
    play,
    progress,
    wait_booted,
    wait_joined,
)
from .test_a11y import axe_check


@pytest.fixture
def players() -> Iterator[list[Player]]:
    made: list[Player] = []
    yield made
    for seat, player in enumerate(made):
        print(f"player {seat}'s console:", *player.console, sep="\n  ")
    for player in made:
        assert player.errors == [], player.errors
        player.leave()


def until(player: Player, condition: str) -> None:
    """Wait until the JavaScript ``condition`` holds on ``player``'s page."""
    player.page.wait_for_function(condition, timeout=STEP_TIMEOUT_MS)


def chat(player: Player, text: str | None = None, phrase: str | None = None) -> None:
    page = player.page
    if phrase:
        page.locator("#chat-phrase").select_option(phrase)
    else:
        page.locator("#chat-text").fill(text or "")
    page.locator("#chat-form button[type=submit]").click()


@pytest.mark.two_browsers
def test_two_browsers_play_a_whole_match_by_link(
    site: Site, players: list[Player], browsers: dict[str, WarmContexts]
) -> None:
    # A match to 4 (one deal gives at most 3): every deal-to-deal step of a match to 7, in half the moves. The
    # host's page is in Chromium, the guest's in Firefox.
    host = new_player(browsers["chromium"], site, locale="en-US", match=("AT20", 4))
    guest = new_player(browsers["firefox"], site, locale="de-DE")
    players += [host, guest]
    connect_by_link(host, guest)
    rng = random.Random(1)
    en, de = words("en"), words("de")

    # Each table shows its own seat at the bottom, the other's name, and no card it may not see.
    host_view, guest_view = host.view(), guest.view()
    assert host_view and guest_view and host_view["seat"] == 0 and guest_view["seat"] == 1
    assert guest_view["match"]["target"] == 4  # the host's rules
    assert not set(host_view["hand"]) & set(guest_view["hand"])
    assert guest_view["opponent_shown"] is None
    expect(guest.page.locator("#online-status")).to_contain_text("Anna")
    assert host.online()["status"]["names"] == ["Anna", "Béla"]  # type: ignore[index]

    # Chat both ways: text stays text; a phrase is worded in each player's own language; too long is refused.
    chat(host, "Szia <b>Béla</b>!")
    expect(guest.page.locator("#chat-log")).to_contain_text("Szia <b>Béla</b>!")
    assert guest.page.locator("#chat-log b b").count() == 0  # no markup was made of it
    chat(guest, phrase="good_luck")
    expect(host.page.locator("#chat-log")).to_contain_text("Good luck!")
    expect(guest.page.locator("#chat-log")).to_contain_text("Viel Glück!")
    chat(host, "a" * 501)
    expect(host.page.locator("#notice")).to_contain_text("501")
    assert host.page.locator("#chat-text").input_value() == "a" * 501  # the draft stays, to be shortened
    axe_check(host.page, "the host's table with the chat (English)")
    axe_check(guest.page, "the guest's table with the chat (German)")

    # Show my cards: face up to the other for 10 seconds (by the other's own clock), then hidden again.
    agree(host, guest)
    hand = host.view()["hand"]  # type: ignore[index]
    host.page.locator("#online-show").click()
    shown = json.dumps(hand, separators=(",", ":"))
    until(guest, f"() => JSON.stringify(window.__test.view().opponent_shown) === '{shown}'")
    guest.page.clock.fast_forward(10_500)
    until(guest, "() => !window.__test.view().opponent_shown")

    # A pause: after 20 seconds the guest's own engine plays for it (its seat's knowledge only) until OK.
    guest.page.locator("#online-pause").click()
    until(host, "() => Object.keys(window.__test.online().status.paused).includes('1')")
    guest.page.clock.fast_forward(20_500)
    until(guest, "() => window.__test.online().status.stand_in.includes(1)")
    expect(guest.page.locator("#online-back")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    play(host, guest, rng, moves=4)  # the host's moves; the guest's computer answers on the guest's page
    guest.page.locator("#online-back").click()
    until(host, "() => Object.keys(window.__test.online().status.paused).length === 0")

    # Forged, old-version and junk messages are refused, said in words, and change nothing.
    state = agree(host, guest)
    before = host.view()
    guest.page.evaluate("() => window.__test.sendRaw(JSON.stringify({v: 1, t: 'act', n: 1, action: 'close'}))")
    expect(host.page.locator("#notice")).to_contain_text(en["online.otherVersion"], timeout=STEP_TIMEOUT_MS)
    guest.page.evaluate("() => window.__test.sendRaw('not json at all')")
    guest.page.evaluate("() => window.__test.sendRaw(JSON.stringify({v: 2, m: 'x', link: {}}))")
    assert host.view() == before
    assert progress(host) == state

    # "New game" during an online game asks first; no keeps the online game as it was.
    host.page.locator("#new-game").click()
    host.page.locator("[data-action='settings-new-game']").click()
    answer_question(host.page, "abandon-online", yes=False)
    host.page.locator("[data-action='settings-cancel']").click()
    assert host.online() is not None and host.online()["connected"]  # type: ignore[index]

    # A lost connection: 60 seconds to come back; the guest opens the host's new link and finds the same table.
    guest_before = guest.view()
    guest.page.evaluate("() => window.__test.dropConnection()")
    until(host, "() => window.__test.online().status.away_since !== null")
    expect(host.page.locator("#online-status")).to_contain_text("Béla")
    new_link = host.page.locator("#online-invite-link")
    expect(new_link).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(new_link).not_to_have_value("", timeout=STEP_TIMEOUT_MS)
    expect(host.page.locator("#online-invite-again")).to_contain_text("Béla")
    axe_check(host.page, "the reconnect screen: a new invitation link and its QR code")
    answer = guest_answers(guest, new_link.input_value(), "Béla")
    axe_check(guest.page, "the answer code and its QR code")
    host_connects(host, answer)
    until(host, "() => window.__test.online().status.away_since === null")
    until(guest, "() => window.__test.online().connected")
    agree(host, guest)
    assert guest.view() == guest_before

    # The whole match to its end: one result, signed by both, said on both pages; then a rematch from 0:0.
    play(host, guest, rng)
    final = host.view()
    assert final and final["game_over"]
    assert guest.view()["match"]["scores"] == final["match"]["scores"]  # type: ignore[index]
    until(host, "() => window.__test.online().status.result !== null")
    until(guest, "() => window.__test.online().status.result !== null")
    assert host.online()["status"]["result"] == guest.online()["status"]["result"]  # type: ignore[index]
    assert guest.online()["problems"] == []  # type: ignore[index]
    guest.page.locator("#online-rematch").click()
    host.page.locator("#online-rematch").click()
    until(
        host,
        "() => window.__test.view() && !window.__test.view().game_over"
        " && window.__test.view().match.scores.join() === '0,0'",
    )
    state = agree(host, guest)
    # Conceding asks first: no changes nothing.
    guest.page.locator("#online-resign").click()
    answer_question(guest.page, "online-resign", yes=False)
    assert progress(host) == state and not host.view()["game_over"]  # type: ignore[index]

    # A flood of 1,000 junk texts from the guest's page: dropped unread (by the page's inbox, or by the engine's
    # rate), said once in words, and the game goes on.
    guest.page.evaluate("() => { for (let i = 0; i < 1000; i++) window.__test.sendRaw(`junk ${i}`); }")
    expect(host.page.locator("#notice")).to_contain_text(en["online.flooded"], timeout=STEP_TIMEOUT_MS)
    play(host, guest, rng, moves=1)

    # A guest whose page is closed for more than 60 seconds loses on time: the host says so at once, and signs it
    # alone; the guest, back, learns it and signs it too.
    closed_at = guest.page.evaluate("() => Date.now()")
    guest.page.close()
    until(host, "() => window.__test.online().status.away_since !== null")
    host.page.clock.run_for(61_000)  # the host's page runs (and ticks) through the minute
    guest.context.clock.set_system_time(closed_at + 61_000)  # the guest's page comes back a minute later
    until(host, "() => window.__test.online().status.ending && window.__test.online().status.ending.reason === 'time'")
    expect(host.page.locator("#online-status")).to_contain_text("Béla")
    expect(host.page.locator("#online-status")).to_contain_text(en["online.end.unsigned"].split(":")[0][7:])
    signed_alone = host.page.evaluate("() => JSON.parse(localStorage.getItem('sixty-six.online-stats')).games")
    assert signed_alone["one_sided"] == 1 and signed_alone["won"] + signed_alone["lost"] == 1, signed_alone
    link = host.page.locator("#online-invite-link")
    expect(link).not_to_have_value("", timeout=STEP_TIMEOUT_MS)
    guest.page = guest.context.new_page()
    guest.page.goto(site.url + TEST_QUERY)
    wait_booted(guest)
    until(guest, "() => window.__test.online() !== null")  # the saved game, restored
    expect(guest.page.locator("#online-dialog")).to_be_visible(timeout=STEP_TIMEOUT_MS)  # to meet the host again
    host_connects(host, guest_answers(guest, link.input_value(), "Béla"))
    until(guest, "() => window.__test.online().status.result !== null")
    until(host, "() => window.__test.online().status.result !== null")
    expect(guest.page.locator("#online-status")).to_contain_text(de["online.end.youTime"].split(":")[0])
    # Online results are kept apart from the games against the computer; only signed ones count as won.
    stats = host.page.evaluate("() => JSON.parse(localStorage.getItem('sixty-six.online-stats'))")
    assert stats["games"]["won"] + stats["games"]["lost"] == 2 and stats["games"]["one_sided"] == 0, stats
    assert stats["ended"]["time"] == 1
    assert host.page.evaluate("async () => Object.keys((await window.__test.stats()).buckets).length") == 0


def reload_story(leaving: Player, *players: Player) -> dict[str, object]:
    """What may explain a table that a reload changed: who left, and each page's missed clicks, pauses and stand-ins."""
    story: dict[str, object] = {"left": leaving.online()["status"]["seat"]}  # type: ignore[index]
    for p in players:
        status = p.online()["status"]  # type: ignore[index]
        story[f"seat {status['seat']}"] = {
            "missed clicks": p.missed_clicks,
            **{k: status[k] for k in ("paused", "stand_in")},
        }
    return story


def reload(player: Player) -> None:
    player.page.reload()
    expect(player.page.locator("#table")).to_have_attribute("data-ready", "1", timeout=BOOT_TIMEOUT_MS)


@pytest.mark.two_browsers
def test_two_browsers_play_by_room_code_reload_and_catch_a_cheat(
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
    tmp_path: Path,
    browsers: dict[str, WarmContexts],
) -> None:
    # A match to 7: still being played when the host's page cheats. The host's page is in Firefox, the guest's
    # in Chromium.
    host = new_player(browsers["firefox"], site, locale="hu-HU", relay=nostr_relay.url, match=("HU24", 7), clock=False)
    guest = new_player(browsers["chromium"], site, locale="en-GB", relay=nostr_relay.url, clock=False)
    players += [host, guest]
    code = host_by_room(host, "Anna")
    axe_check(host.page, "the room code (Hungarian)")
    page = guest.page
    page.locator("#open-online").click()
    axe_check(page, "the online dialog's first step, network settings and block list")
    page.locator("#online-name").fill("Béla")
    page.locator("#online-join-text").fill(code.lower())  # typed as it comes
    page.locator("#online-join").click()
    expect(page.locator("#online-rules")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(page.locator("#online-rules-host")).to_contain_text("Anna")
    axe_check(page, "the room's rules shown before joining")
    page.locator("#online-accept").click()
    wait_joined(host, guest)
    assert guest.online()["via"] == "room"  # type: ignore[index]
    rng = random.Random(2)
    play(host, guest, rng, moves=3)
    chat(host, "Jó játékot!")
    expect(guest.page.locator("#chat-log")).to_contain_text("Jó játékot!")

    # Either page reloads mid-deal: both meet again in the same room and go on from the identical state.
    for leaving, staying in ((guest, host), (host, guest)):
        for player in (host, guest):  # mid-deal, nothing in flight: someone is to move
            until(player, "() => { const v = window.__test.view(); return v && !v.checking && !v.deal_result; }")
        before = agree(host, guest)
        views = (host.view(), guest.view())
        leaving.page.evaluate("() => window.__test.holdMeeting()")  # else it may be back before we look
        reload(leaving)
        until(staying, "() => window.__test.online().connected === false")
        axe_check(staying.page, "waiting for the other player to come back")
        leaving.page.evaluate("() => window.__test.releaseMeeting()")
        wait_joined(host, guest)
        after = agree(host, guest)
        assert after == before, (before, after, reload_story(leaving, host, guest))
        assert (host.view(), guest.view()) == views
        expect(leaving.page.locator("#chat-log")).to_contain_text("Jó játékot!")  # the chat came back too
        play(host, guest, rng, moves=2)

    # The host's page is changed to cheat: its engine signs a card its player does not hold. The guest's engine
    # proves it at once; the match ends, and both pages say so in words.
    en, hu = words("en"), words("hu")
    sent = host.page.evaluate("code => window.__test.cheat(code)", FALSE_CARD)
    assert sent == 1
    until(guest, "() => window.__test.online().status.cheat !== null")
    assert guest.online()["status"]["cheat"]["by"] == 0  # type: ignore[index]
    assert guest.online()["status"]["ending"]["winner"] == 1  # type: ignore[index]
    expect(guest.page.locator("#online-status")).to_contain_text(en["online.end.theyCheated"].split("{name}")[1][:20])
    until(host, "() => window.__test.online().status.accused !== null")
    expect(host.page.locator("#online-status")).to_contain_text(hu["online.end.accused"].split("{detail}")[0][-12:])
    assert host.online()["status"]["result"] is None  # the cheater's page signs no result of its own making
    axe_check(guest.page, "the end of a match by a proven cheat")

    # Report: the guest blocks the host and saves the signed transcript; anyone can check it, with the command
    # and in the page, and an edited copy does not check out.
    guest.page.locator("#online-report").click()
    if guest.browser_name == "chromium":
        with guest.page.expect_download() as download:  # a real download (Firefox's driver reports none)
            answer_question(guest.page, "online-report")
        assert download.value.suggested_filename.startswith("sixty-six-report-")
    else:
        answer_question(guest.page, "online-report")
    expect(guest.page.locator("#notice")).to_contain_text("sixty-six-report-")
    path = tmp_path / "report.json"
    path.write_text(guest.page.evaluate("() => window.__test.savedFile().text"))
    host_identity = host.page.evaluate(IDENTITY_JS)
    until_blocked(guest, [host_identity])
    checked = subprocess.run(
        [sys.executable, "-m", "lab.verify_match", "--json", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    verdict = json.loads(checked.stdout)
    assert verdict["ok"] and verdict["cheat"]["by"] == 0 and verdict["ending"]["winner"] == 1, verdict
    report = json.loads(path.read_text())
    report["game"]["transcript"]["links"][3]["body"]["x"] = 1  # one message edited after it was signed
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report))
    page = host.page
    page.locator("#open-online").click()
    page.locator(".online-check-report summary").click()
    page.locator("#online-report-file").set_input_files(path)
    expect(page.locator("#online-report-verdict")).to_contain_text(
        "Cheat proven against seat 0", timeout=STEP_TIMEOUT_MS
    )
    page.locator("#online-report-file").set_input_files(edited)
    expect(page.locator("#online-report-verdict")).to_contain_text("does not check out", timeout=STEP_TIMEOUT_MS)


#: A changed page's engine (run in its worker by the test hook): it signs a move of a card its seat does not
#: hold, with a key that opens nothing. Signed, so proven against it.
FALSE_CARD = """
import json
from py_engine.service.protocol import _DEFAULT
s = _DEFAULT.peers[session]
deal = len(s.referee.match.records) - 1
s._send({"t": "act", "deal": deal, "action": "play:AH", "keys": [[23, "01" + "00" * 31]]})
result = json.dumps(s.take())
"""


def words(language: str) -> dict[str, Any]:
    """The strings of web/i18n/<language>.json (what the page says, in that language)."""
    strings: dict[str, Any] = json.loads((ROOT / "web" / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return strings


IDENTITY_JS = "() => JSON.parse(localStorage.getItem('sixty-six.identity.v1')).public"
BLOCKED_JS = "() => JSON.parse(localStorage.getItem('sixty-six.blocked.v1') || '[]').map((b) => b.identity)"


def until_blocked(player: Player, identities: list[str]) -> None:
    """Wait until the page's block list (saved once the engine has answered) holds just ``identities``."""
    player.page.wait_for_function(
        f"want => JSON.stringify(({BLOCKED_JS})()) === JSON.stringify(want)", arg=identities, timeout=STEP_TIMEOUT_MS
    )


#: Someone else's identity: the public key of a key pair the page makes and forgets (it keeps no private key).
SOMEONE_ELSE_JS = """async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return btoa(String.fromCharCode(...raw)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
}"""


def next_link(host: Player, old: str) -> str:
    """The host's new invitation link (it waits for the guest again after a refusal or a lost connection)."""
    link = host.page.locator("#online-invite-link")
    expect(link).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(link).not_to_have_value(old, timeout=STEP_TIMEOUT_MS)
    expect(link).not_to_have_value("", timeout=STEP_TIMEOUT_MS)
    return link.input_value()


def reopen(player: Player) -> None:
    """Close the online dialog and open it again at its first step."""
    player.page.locator("#online-close").click()
    player.page.locator("#open-online").click()
    expect(player.page.locator("#online-start")).to_be_visible()


def refused(player: Player, text: str) -> None:
    """``player``'s online dialog says ``text``, in words."""
    error = player.page.locator("#online-error")
    expect(error).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(error).to_have_text(text)


def joined(player: Player) -> bool:
    """Whether a guest has joined ``player``'s online game (a host's session opens once a guest's browser is let
    in; it stays unjoined until that guest accepts the room)."""
    online = player.online()
    return bool(online and online["status"] and online["status"]["joined"])


def kept(player: Player) -> dict[str, Any]:
    """What a refused connection must not change of ``player``'s online game (its clock goes on)."""
    status = player.online()["status"]  # type: ignore[index]
    return {k: status[k] for k in ("match", "names", "identities", "scores", "ending", "result", "legal")}


@pytest.mark.two_browsers
def test_blocked_players_and_borrowed_identities_are_refused(
    site: Site, players: list[Player], browsers: dict[str, WarmContexts]
) -> None:
    """Blocking, both ways, and a page that claims someone else's identity without its key: every new connection
    starts with both pages proving their identities, and each refusal is said in words on both pages and changes
    nothing. By link and answer code (no relay): each meeting is a new connection. The host's page is in Chromium,
    the guest's in Firefox."""
    host = new_player(browsers["chromium"], site, locale="en-US", booted=False, clock=False)
    guest = new_player(browsers["firefox"], site, locale="de-DE", booted=False, clock=False)
    players += [host, guest]
    wait_booted(host, guest)
    en, de = words("en"), words("de")

    # Closing the invitation says it was withdrawn, and the table goes back to the host's own game; while it
    # waits for a guest, the table holds no game to play.
    host_by_link(host, "Anna")
    assert host.view() is None and host.page.locator("#my-hand [data-card]").count() == 0
    host.page.locator("#online-close").click()
    expect(host.page.locator("#notice")).to_contain_text(en["online.invite.cancelled"], timeout=STEP_TIMEOUT_MS)
    until(host, "() => window.__test.online() === null && window.__test.view() !== null")

    # The guest blocks the host while reading the room's rules, before joining.
    link = host_by_link(host, "Anna")
    host_connects(host, guest_answers(guest, link, "Béla"))
    expect(guest.page.locator("#online-rules-host")).to_contain_text("Anna", timeout=STEP_TIMEOUT_MS)
    expect(guest.page.locator("#online-guest-name")).to_have_value("Béla")  # asked, with the name given before
    anna, bela = host.page.evaluate(IDENTITY_JS), guest.page.evaluate(IDENTITY_JS)
    guest.page.locator("#online-block-host").click()
    expect(guest.page.locator("#online-dialog")).to_be_hidden()
    until_blocked(guest, [anna])
    assert guest.online() is None

    # That host's next invitation is refused by the guest's page, in words on both sides.
    link = next_link(host, link)
    host_connects(host, guest_answers(guest, link, "Béla"))
    refused(guest, de["online.blockedHost"])
    refused(host, en["online.error.refused"])
    assert guest.online() is None and not joined(host)

    # Unblocked (in the dialog's list), the guest joins the host's next invitation.
    reopen(guest)
    guest.page.locator(".online-blocked summary").click()
    guest.page.locator("#online-blocked-list button", has_text=de["online.unblock"]).click()
    expect(guest.page.locator("#online-blocked-list")).to_have_text(de["online.blocked.none"])
    link = next_link(host, link)
    host_connects(host, guest_answers(guest, link, "Béla"))
    expect(guest.page.locator("#online-rules")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    guest.page.locator("#online-accept").click()
    wait_joined(host, guest)
    assert host.online()["status"]["identities"] == [anna, bela]  # type: ignore[index]
    assert guest.online()["status"]["identities"] == [anna, bela]  # type: ignore[index]

    # The host blocks the guest in the game: it leaves, and the guest's page waits for a new link.
    host.page.locator("#online-block").click()
    answer_question(host.page, "online-block")
    until_blocked(host, [bela])
    until(host, "() => window.__test.online() === null")
    until(guest, "() => window.__test.online().connected === false")
    expect(guest.page.locator("#online-dialog")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    view, status = guest.view(), kept(guest)

    # The same guest cannot open a game with that host again: refused in words, and nothing changes.
    link = host_by_link(host, "Anna")
    host_connects(host, guest_answers(guest, link, "Béla"))
    refused(host, en["online.blockedGuest"])
    refused(guest, de["online.error.refused"])
    assert not joined(host)
    assert guest.view() == view and kept(guest) == status

    # Nor by claiming someone else's identity, which its page cannot prove (it has not that key).
    someone_else = guest.page.evaluate(SOMEONE_ELSE_JS)
    assert someone_else not in (anna, bela) and len(someone_else) == 87
    guest.page.evaluate("identity => window.__test.claimIdentity(identity)", someone_else)
    reopen(guest)
    link = next_link(host, link)
    host_connects(host, guest_answers(guest, link, "Béla"))
    refused(host, en["online.error.identity_unproved"])
    refused(guest, de["online.error.refused"])
    assert not joined(host)
    assert host.page.evaluate(BLOCKED_JS) == [bela]
    assert guest.view() == view
