"""Online play's transport (web/online/) between two browser contexts, in Chromium and in Firefox.

(a) An invitation code and an answer code, with no third party: the channel opens, 200 messages each way
arrive in order and once each, a close on one side is reported on the other, a closed page is reported as
a lost connection, damaged and wrong codes give their error codes.
(b) A room code through a real Nostr relay started by the test (``online_fixtures.nostr_relay``): the
channel opens, messages go both ways, a third peer is refused, an empty room gives ``no_peer`` in bounded
time and an unreachable relay ``no_relay``.
(c) QR codes: a real invitation link drawn as SVG and on a canvas, read back, and used to connect; in
Chromium, a real answer code read from the camera (a video file played as the camera).

Only the local relay and ``iceServers: []`` are given: nothing leaves this machine. Each test prints its
figures (connect times, message counts) on a line starting with ``online:`` (``pytest -s`` shows them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, Page

from .conftest import Site
from .online_fixtures import Relay, free_port, nostr_relay, transport_page, webrtc_browser

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
__all__ = ["nostr_relay", "transport_page", "webrtc_browser"]  # fixtures, used by name

WAIT_MS = 20_000
MESSAGES = 200

# Loads the modules of web/online/ into window.T, with a helper that keeps a channel and what it receives.
LOAD = """async () => {
  const at = (name) => import(new URL(`online/${name}.js`, location.href).href);
  const [peer, room, qr, codes, roomCode] = await Promise.all(["peer", "room", "qr", "codes", "room-code"].map(at));
  window.T = { peer, room, qr, codes, roomCode, got: [], channel: null, closed: null };
  T.keep = (channel) => {
    T.channel = channel;
    channel.onmessage = (m) => T.got.push(m);
    channel.onclose = (reason) => { T.closed = { code: reason.code, message: reason.message }; };
    return channel.info;
  };
  // An OnlineError as plain data for the test (anything else would be a bug: no code).
  T.error = (e) => ({ code: e?.code ?? null, name: e?.name ?? String(e), message: e?.message ?? "" });
}"""

SEND_BURST = """(n) => {
  const role = T.channel.info.role;
  for (let i = 0; i < n; i++) T.channel.send({ i, role, pad: "é".repeat(i % 40) });
  T.channel.send({ end: role });
}"""


def load(page: Page) -> Page:
    page.evaluate(LOAD)
    return page


def wait_for_end(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function("() => T.got.some((m) => m.end)", timeout=WAIT_MS)
    got: list[dict[str, Any]] = page.evaluate("() => T.got")
    return got


def exchange(a: Page, b: Page, n: int = MESSAGES) -> tuple[float, int, int]:
    """n messages each way at once; checks each side received exactly the other's, in order. Returns (s, got, got)."""
    before = [page.evaluate("() => { T.got = []; return T.channel.counts; }") for page in (a, b)]
    t0 = time.perf_counter()
    a.evaluate(SEND_BURST, n)
    b.evaluate(SEND_BURST, n)
    at_b = wait_for_end(b)
    at_a = wait_for_end(a)
    seconds = time.perf_counter() - t0
    for got, sender in ((at_a, b), (at_b, a)):
        role = sender.evaluate("() => T.channel.info.role")
        assert got[-1] == {"end": role}, got[-3:]
        assert [m.get("i") for m in got[:-1]] == list(range(n)), "lost, repeated or out of order"
        assert all(m["role"] == role and m["pad"] == "é" * (m["i"] % 40) for m in got[:-1])
    for page, then in zip((a, b), before, strict=True):
        now = page.evaluate("() => T.channel.counts")
        assert now == {"sent": then["sent"] + n + 1, "received": then["received"] + n + 1}, (then, now)
    return seconds, len(at_a) - 1, len(at_b) - 1


def connect_by_invitation(host: Page, guest: Page) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Host invites, the guest answers from the link, the host accepts: both keep their channel."""
    made = host.evaluate(
        """async () => {
          const t = performance.now();
          T.invitation = await T.peer.createInvitation({ iceServers: [] });
          return { link: T.invitation.link(location.href), ms: performance.now() - t };
        }"""
    )
    answer = guest.evaluate(
        """async (link) => {
          const t = performance.now();
          const acceptance = await T.peer.acceptInvitation(link, { iceServers: [] });
          T.opened = acceptance.channel.then(T.keep);
          return { code: acceptance.answer, ms: performance.now() - t };
        }""",
        made["link"],
    )
    host_info = host.evaluate(
        "async (answer) => T.keep(await T.invitation.accept(answer))",
        answer["code"],
    )
    guest_info = guest.evaluate("() => T.opened")
    assert host_info["via"] == guest_info["via"] == "link"
    assert (host_info["role"], guest_info["role"]) == ("host", "guest")
    same_connection(host_info, guest_info)
    figures = {
        "offer_ms": round(made["ms"]),
        "answer_ms": round(answer["ms"]),
        "host_connect_ms": host_info["connectMs"],
        "link_chars": len(made["link"]),
        "answer_chars": len(answer["code"]),
    }
    return host_info, figures, answer["code"]


def same_connection(host_info: dict[str, Any], guest_info: dict[str, Any]) -> None:
    """Both ends name the connection's two certificates, each its own first (the identity proofs sign them)."""
    host_fp, guest_fp = host_info["fingerprints"], guest_info["fingerprints"]
    assert host_fp["local"].startswith("sha-256 ") and guest_fp["local"].startswith("sha-256 "), (host_fp, guest_fp)
    assert (host_fp["local"], host_fp["remote"]) == (guest_fp["remote"], guest_fp["local"])
    assert host_fp["local"] != guest_fp["local"]


def report(name: str, **figures: Any) -> None:
    print(f"\nonline: {name}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))


# ----------------------------------------------------------------- (a) invitation and answer codes


def test_invitation_connects_carries_messages_and_reports_a_close(
    transport_page: Callable[[], Page], browser_name: str
) -> None:
    host, guest = load(transport_page()), load(transport_page())
    t0 = time.perf_counter()
    _, figures, _ = connect_by_invitation(host, guest)
    connect_s = time.perf_counter() - t0
    # The link is short enough for a URL's fragment and a QR code.
    assert figures["link_chars"] < 2_000 and figures["answer_chars"] < 2_000, figures
    seconds, at_host, at_guest = exchange(host, guest)
    assert host.evaluate("() => T.closed") is None and guest.evaluate("() => T.closed") is None
    # The host closes: the guest is told, promptly, that the other side closed.
    t1 = time.perf_counter()
    host.evaluate("() => T.channel.close()")
    guest.wait_for_function("() => T.closed", timeout=WAIT_MS)
    close_s = time.perf_counter() - t1
    assert guest.evaluate("() => T.closed.code") == "peer_closed"
    assert host.evaluate("() => T.closed.code") == "closed"
    refused = guest.evaluate("() => { try { T.channel.send(1); return null; } catch (e) { return T.error(e); } }")
    assert refused["code"] == "channel_closed", refused
    assert host.errors == [] and guest.errors == []  # type: ignore[attr-defined]
    report(
        f"invitation ({browser_name})",
        **figures,
        whole_connect_s=f"{connect_s:.2f}",
        messages_each_way=f"{at_host}/{at_guest} of {MESSAGES}",
        burst_s=f"{seconds:.2f}",
        close_reported_s=f"{close_s:.2f}",
    )


# The host's page, made slow where a loaded machine can be: its code after setRemoteDescription(answer) runs
# only once the guest's first message has been dispatched (the browser does not order those tasks).
HOST_LATE_AFTER_THE_ANSWER = """() => {
  const make = RTCPeerConnection.prototype.createDataChannel;
  const set = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    this.seen = 0;
    channel.addEventListener("message", () => {
      this.seen += 1;
      this.onSeen?.();
    });
    return channel;
  };
  RTCPeerConnection.prototype.setRemoteDescription = async function (description) {
    await set.call(this, description);
    if (description.type !== "answer" || this.seen > 0) return;
    await new Promise((resolve) => {
      this.onSeen = () => setTimeout(resolve, 0);
    });
  };
}"""


def test_a_message_sent_at_once_reaches_a_host_that_listens_late(transport_page: Callable[[], Page]) -> None:
    """The guest sends as soon as its channel opens, before the host's page listens: nothing is lost."""
    host, guest = load(transport_page()), load(transport_page())
    host.evaluate(HOST_LATE_AFTER_THE_ANSWER)
    link = host.evaluate(
        "async () => { T.invitation = await T.peer.createInvitation({ iceServers: [] });"
        " return T.invitation.link(location.href); }"
    )
    answer = guest.evaluate(
        """async (link) => {
          const acceptance = await T.peer.acceptInvitation(link, { iceServers: [] });
          T.opened = acceptance.channel.then((channel) => {
            channel.send({ first: true });
            channel.send({ second: true });
            return T.keep(channel);
          });
          return acceptance.answer;
        }""",
        link,
    )
    host.evaluate("async (answer) => T.keep(await T.invitation.accept(answer))", answer)
    guest.evaluate("() => T.opened")
    host.wait_for_function("() => T.got.length === 2 || T.closed", timeout=WAIT_MS)
    assert host.evaluate("() => [T.got, T.closed]") == [[{"first": True}, {"second": True}], None]


def test_a_closed_page_is_reported_as_a_lost_connection(transport_page: Callable[[], Page], browser_name: str) -> None:
    host, guest = load(transport_page()), load(transport_page())
    connect_by_invitation(host, guest)
    exchange(host, guest, 10)
    t0 = time.perf_counter()
    guest.close()
    host.wait_for_function("() => T.closed", timeout=WAIT_MS)
    lost_s = time.perf_counter() - t0
    closed = host.evaluate("() => T.closed")
    assert closed["code"] == "connection_lost", closed
    assert lost_s < 3, lost_s
    report(f"closed page ({browser_name})", lost_reported_s=f"{lost_s:.2f}")


def test_damaged_and_wrong_codes_are_refused_with_their_codes(transport_page: Callable[[], Page]) -> None:
    host, guest = load(transport_page()), load(transport_page())
    invitation = host.evaluate(
        """async () => {
          T.invitation = await T.peer.createInvitation({ iceServers: [] });
          T.other = await T.peer.createInvitation({ iceServers: [] });
          return { code: T.invitation.code, other: T.other.code };
        }"""
    )
    code = invitation["code"]
    answer = guest.evaluate(
        """async (code) => {
          const acceptance = await T.peer.acceptInvitation(code, { iceServers: [] });
          T.opened = acceptance.channel.then(T.keep);
          return acceptance.answer;
        }""",
        code,
    )
    other_answer = load(transport_page()).evaluate(
        "async (code) => (await T.peer.acceptInvitation(code, { iceServers: [] })).answer", invitation["other"]
    )
    middle = len(answer) // 2
    damaged = answer[:middle] + ("A" if answer[middle] != "A" else "B") + answer[middle + 1 :]
    attempts = {
        "damaged": damaged,
        "cut": answer[:-10],
        "own": code,
        "garbage": "this is not a code",
        "empty": "  ",
        "other": other_answer,
    }
    refusals = host.evaluate(
        """async (attempts) => {
          const out = {};
          for (const [name, text] of Object.entries(attempts)) {
            try { await T.invitation.accept(text); out[name] = null; } catch (e) { out[name] = T.error(e); }
          }
          return out;
        }""",
        attempts,
    )
    codes = {name: r and r["code"] for name, r in refusals.items()}
    assert codes == {
        "damaged": "code_damaged",
        "cut": "code_damaged",
        "own": "own_invitation",
        "garbage": "not_an_answer",
        "empty": "code_empty",
        "other": "wrong_answer",
    }, refusals
    assert all(r["name"] == "OnlineError" and len(r["message"]) > 10 for r in refusals.values()), refusals
    # The guest's side: a damaged invitation, and an answer where an invitation belongs.
    guest_side = guest.evaluate(
        """async ([code, answer]) => {
          const out = [];
          for (const text of [code.slice(0, 100) + code.slice(101), answer]) {
            try { await T.peer.acceptInvitation(text, { iceServers: [] }); out.push(null); }
            catch (e) { out.push(T.error(e).code); }
          }
          return out;
        }""",
        [code, answer],
    )
    assert guest_side == ["code_damaged", "not_an_invitation"], guest_side
    # None of that spoiled the invitation: the real answer still connects, once.
    host.evaluate("async (answer) => T.keep(await T.invitation.accept(answer))", answer)
    guest.evaluate("() => T.opened")
    exchange(host, guest, 5)
    again = host.evaluate(
        "async (a) => { try { await T.invitation.accept(a); return null; } catch (e) { return T.error(e).code; } }",
        answer,
    )
    assert again == "invitation_used"
    # A withdrawn invitation refuses its answer.
    withdrawn = host.evaluate(
        """async () => { T.other.close();
          try { await T.other.accept("x"); return null; } catch (e) { return T.error(e).code; } }"""
    )
    assert withdrawn == "invitation_closed"


# ----------------------------------------------------------------- (b) room codes through a real relay


def test_room_code_connects_through_a_local_relay_and_refuses_a_third(
    transport_page: Callable[[], Page], nostr_relay: Relay, browser_name: str
) -> None:
    relays = [nostr_relay.url]
    host, guest, third = load(transport_page()), load(transport_page()), load(transport_page())
    t0 = time.perf_counter()
    code = host.evaluate(
        """async (relays) => {
          T.hostRoom = await T.room.openRoom({ relays, iceServers: [] });
          T.opened = T.hostRoom.channel.then(T.keep);
          return T.hostRoom.code;
        }""",
        relays,
    )
    assert guest.evaluate("(code) => T.roomCode.isRoomCode(code)", code)
    # Typed as a person would: lower case, with a space.
    typed = f"{code[:3].lower()} {code[3:].lower()}"
    guest_info = guest.evaluate(
        # (The guest waits up to 60 s for the host here: a test machine under load is slower than a player's.)
        "async ([code, relays]) =>"
        " T.keep(await T.room.joinRoom(code, { relays, iceServers: [], peerTimeoutMs: 60000 }))",
        [typed, relays],
    )
    host_info = host.evaluate("() => T.opened")
    connect_s = time.perf_counter() - t0
    assert (host_info["via"], guest_info["via"]) == ("room", "room")
    assert (host_info["role"], guest_info["role"]) == ("host", "guest")
    same_connection(host_info, guest_info)
    seconds, at_host, at_guest = exchange(host, guest)
    # A third peer with the right code is refused, and the two players are not disturbed.
    t1 = time.perf_counter()
    refused = third.evaluate(
        """async ([code, relays]) => {
          try { await T.room.joinRoom(code, { relays, iceServers: [] }); return null; }
          catch (e) { return T.error(e); }
        }""",
        [code, relays],
    )
    refused_s = time.perf_counter() - t1
    assert refused is not None and refused["code"] == "room_full", refused
    exchange(host, guest, 20)
    assert host.evaluate("() => T.closed") is None and guest.evaluate("() => T.closed") is None
    # The guest leaves: the host hears that the other side closed.
    guest.evaluate("() => T.channel.close()")
    host.wait_for_function("() => T.closed", timeout=WAIT_MS)
    assert host.evaluate("() => T.closed.code") == "peer_closed"
    # The host opens the same room again (as after a lost connection), the guest comes back to it.
    t2 = time.perf_counter()
    host.evaluate(
        """async ([code, relays]) => {
          T.closed = null;
          T.hostRoom = await T.room.openRoom({ code, relays, iceServers: [] });
          T.opened = T.hostRoom.channel.then(T.keep);
        }""",
        [code, relays],
    )
    guest.evaluate(
        # (60 s again, as for the first join: under the parallel run a loaded machine once took over 20 s.)
        """async ([code, relays]) => {
          T.closed = null;
          T.keep(await T.room.joinRoom(code, { relays, iceServers: [], peerTimeoutMs: 60000 }));
        }""",
        [code, relays],
    )
    host.evaluate("() => T.opened")
    rejoin_s = time.perf_counter() - t2
    exchange(host, guest, 20)
    # Then the guest's page is closed: the host learns of it at once, as a lost connection.
    t3 = time.perf_counter()
    guest.close()
    host.wait_for_function("() => T.closed", timeout=WAIT_MS)
    lost_s = time.perf_counter() - t3
    assert host.evaluate("() => T.closed.code") == "connection_lost"
    assert lost_s < 3, lost_s
    report(
        f"room code ({browser_name})",
        relay_start_s=f"{nostr_relay.started_s:.2f}",
        open_to_both_connected_s=f"{connect_s:.2f}",
        guest_connect_ms=guest_info["connectMs"],
        host_connect_ms=host_info["connectMs"],
        messages_each_way=f"{at_host}/{at_guest} of {MESSAGES}",
        burst_s=f"{seconds:.2f}",
        third_refused_s=f"{refused_s:.2f}",
        same_code_again_s=f"{rejoin_s:.2f}",
        closed_page_reported_s=f"{lost_s:.2f}",
    )


def test_a_room_with_nobody_and_an_unreachable_relay_fail_in_bounded_time(
    transport_page: Callable[[], Page], nostr_relay: Relay, browser_name: str
) -> None:
    page = load(transport_page())
    peer_timeout_ms = 3_000
    t0 = time.perf_counter()
    nobody = page.evaluate(
        """async ([relays, peerTimeoutMs]) => {
          try { await T.room.joinRoom(T.roomCode.generateRoomCode(), { relays, iceServers: [], peerTimeoutMs }); }
          catch (e) { return T.error(e); }
          return null;
        }""",
        [[nostr_relay.url], peer_timeout_ms],
    )
    nobody_s = time.perf_counter() - t0
    assert nobody is not None and nobody["code"] == "no_peer", nobody
    # Bounded: the timeout, plus loading the library and reaching the relay (slow on a busy machine).
    assert peer_timeout_ms / 1000 <= nobody_s < peer_timeout_ms / 1000 + 10, nobody_s
    # A relay address where nothing listens (a closed port of this machine).
    dead = f"ws://127.0.0.1:{free_port()}"
    relay_timeout_ms = 2_000
    t1 = time.perf_counter()
    unreachable = load(transport_page()).evaluate(
        """async ([relays, relayTimeoutMs]) => {
          const out = [];
          try { await T.room.openRoom({ relays, iceServers: [], relayTimeoutMs }); out.push(null); }
          catch (e) { out.push(T.error(e)); }
          try { await T.room.joinRoom("ABC234", { relays, iceServers: [], relayTimeoutMs }); out.push(null); }
          catch (e) { out.push(T.error(e)); }
          return out;
        }""",
        [[dead], relay_timeout_ms],
    )
    unreachable_s = time.perf_counter() - t1
    assert [r and r["code"] for r in unreachable] == ["no_relay", "no_relay"], unreachable
    assert unreachable_s < 2 * relay_timeout_ms / 1000 + 10, unreachable_s
    bad = page.evaluate(
        """async () => {
          try { await T.room.joinRoom("ABC10O"); return null; } catch (e) { return T.error(e).code; }
        }"""
    )
    assert bad == "bad_room_code"
    report(
        f"failures ({browser_name})",
        no_peer_after_s=f"{nobody_s:.2f}",
        no_relay_twice_s=f"{unreachable_s:.2f}",
    )


# ----------------------------------------------------------------- (c) QR codes


def test_an_invitation_survives_a_qr_round_trip(transport_page: Callable[[], Page], browser_name: str) -> None:
    host, guest = load(transport_page()), load(transport_page())
    result = host.evaluate(
        """async () => {
          T.invitation = await T.peer.createInvitation({ iceServers: [] });
          const link = T.invitation.link(location.href);
          // SVG, as the page shows it, rendered to a picture 4 pixels a module.
          const svg = await T.qr.qrSvg(link, { title: "Invitation" });
          const side = Number(svg.getAttribute("viewBox").split(" ")[2]) * 4;
          svg.setAttribute("width", String(side));
          svg.setAttribute("height", String(side));
          const text = new XMLSerializer().serializeToString(svg);
          const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
          const img = new Image();
          img.src = url;
          await img.decode();
          const fromSvg = await T.qr.readQr(img);
          // A canvas of the page (this document is SVG: the canvas element is made in HTML's namespace).
          const canvas = document.createElementNS("http://www.w3.org/1999/xhtml", "canvas");
          const version = await T.qr.drawQr(canvas, link, { scale: 3 });
          const fromCanvas = await T.qr.readQr(canvas);
          // A picture with no code in it.
          const blank = new OffscreenCanvas(200, 200);
          const none = await T.qr.readQr(blank);
          let tooLong = null;
          try { await T.qr.qrMatrix("x".repeat(3000)); } catch (e) { tooLong = T.error(e).code; }
          return { link, fromSvg, fromCanvas, none, version, svgVersion: Number(svg.dataset.qrVersion), tooLong };
        }"""
    )
    assert result["fromSvg"] == result["link"]
    assert result["fromCanvas"] == result["link"]
    assert result["none"] is None
    assert result["tooLong"] == "qr_too_long"
    assert result["version"] == result["svgVersion"] and 10 <= result["version"] <= 25, result["version"]
    # The link read from the picture connects.
    guest.evaluate(
        """async (link) => {
          const acceptance = await T.peer.acceptInvitation(link, { iceServers: [] });
          T.answer = acceptance.answer;
          T.opened = acceptance.channel.then(T.keep);
        }""",
        result["fromSvg"],
    )
    answer = guest.evaluate("() => T.answer")
    host.evaluate("async (answer) => T.keep(await T.invitation.accept(answer))", answer)
    guest.evaluate("() => T.opened")
    exchange(host, guest, 5)
    report(
        f"QR ({browser_name})",
        link_chars=len(result["link"]),
        qr_version=result["version"],
        modules=17 + 4 * result["version"],
    )


def y4m_picture(modules: list[list[bool]], width: int = 640, height: int = 480, scale: int = 4) -> bytes:
    """A one-frame Y4M video (4:2:0, grey) of a QR code, dark modules on white, centred, with a quiet zone."""
    luma = bytearray([235]) * (width * height)
    side = len(modules) * scale
    left, top = (width - side) // 2, (height - side) // 2
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (top + y * scale + dy) * width + left + x * scale
                    luma[start : start + scale] = bytes([16]) * scale
    chroma = bytes([128]) * ((width // 2) * (height // 2))
    header = f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode()
    return header + b"FRAME\n" + bytes(luma) + chroma + chroma


@pytest.mark.chromium_only
def test_an_answer_code_is_read_from_the_camera(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    transport_page: Callable[[], Page],
    site: Site,
    tmp_path: Path,
    browser_name: str,
) -> None:
    """Chromium plays a video file as its camera: the picture is a real answer code's QR code."""
    if browser_name != "chromium":
        pytest.skip("only Chromium can play a video file as its camera")
    host, guest = load(transport_page()), load(transport_page())
    code = host.evaluate("async () => (T.invitation = await T.peer.createInvitation({ iceServers: [] })).code")
    answer = guest.evaluate(
        """async (code) => {
          const acceptance = await T.peer.acceptInvitation(code, { iceServers: [] });
          T.opened = acceptance.channel.then(T.keep);
          return acceptance.answer;
        }""",
        code,
    )
    modules = guest.evaluate("async (answer) => (await T.qr.qrMatrix(answer)).modules", answer)
    video = tmp_path / "camera.y4m"
    video.write_bytes(y4m_picture(modules))
    args = dict(browser_type_launch_args)
    args["args"] = [
        *args.get("args", []),
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    camera_browser = browser_type.launch(**args)
    try:
        page = camera_browser.new_context().new_page()
        page.goto(site.url + "icon.svg")
        load(page)
        t0 = time.perf_counter()
        seen = page.evaluate(
            """async () => {
              const video = document.createElementNS("http://www.w3.org/1999/xhtml", "video");
              document.documentElement.append(video);
              const stop = new AbortController();
              setTimeout(() => stop.abort(), 15000);
              const text = await T.qr.scanCamera(video, { signal: stop.signal, intervalMs: 100 });
              return { text, live: video.srcObject !== null };
            }"""
        )
        scan_s = time.perf_counter() - t0
    finally:
        camera_browser.close()
    assert seen["text"] == answer, "the camera's picture was not read as the answer code"
    assert seen["live"] is False, "the camera was left on"
    # The answer read from the camera connects.
    host.evaluate("async (answer) => T.keep(await T.invitation.accept(answer))", seen["text"])
    guest.evaluate("() => T.opened")
    exchange(host, guest, 5)
    report("camera (chromium)", answer_chars=len(answer), scan_s=f"{scan_s:.2f}")
