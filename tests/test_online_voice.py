"""Voice's consent between two engines (py_engine/service/online/voice.py): on only when both accept.

The host's engine keeps who asked, who accepted and who muted, and sends it
in every status; the guest's engine checks it and refuses a step the host
would refuse before it leaves. The sound itself never passes an engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from py_engine.service.online.voice import Voice
from py_engine.service.table import GUEST, HOST
from tests.test_online import Pair


def voice_at_host(pair: Pair) -> dict[str, Any]:
    voice: dict[str, Any] = pair.host_answer["status"]["voice"]
    return voice


def voice_at_guest(pair: Pair) -> dict[str, Any]:
    statuses = [a["status"] for a in pair.guest_answers if "status" in a]
    voice: dict[str, Any] = statuses[-1]["voice"]
    return voice


def test_voice_is_off_until_both_accept_and_both_pages_are_told() -> None:
    pair = Pair()
    assert voice_at_host(pair) == {"on": False, "call": 0, "asked": None, "muted": [], "last": None}
    assert pair.guest_do(t="voice", do="ask")["ok"]
    assert voice_at_host(pair)["asked"] == GUEST and not voice_at_host(pair)["on"]
    assert voice_at_guest(pair) == voice_at_host(pair)
    # Asking twice, or accepting one's own request, changes nothing.
    assert pair.guest_do(t="voice", do="ask")["error"]["code"] == "illegal_action"
    assert pair.guest_do(t="voice", do="accept")["error"]["code"] == "illegal_action"
    assert pair.host_do(t="voice", do="accept")["ok"]
    assert voice_at_host(pair) == {"on": True, "call": 1, "asked": None, "muted": [], "last": None}
    assert voice_at_guest(pair) == voice_at_host(pair)


def test_declining_works_both_ways_and_asking_again_is_allowed() -> None:
    pair = Pair()
    assert pair.guest_do(t="voice", do="ask")["ok"]
    assert pair.host_do(t="voice", do="decline")["ok"]
    assert voice_at_guest(pair) == {
        "on": False,
        "call": 0,
        "asked": None,
        "muted": [],
        "last": {"by": HOST, "why": "declined"},
    }
    assert pair.host_do(t="voice", do="ask")["ok"]
    assert pair.guest_do(t="voice", do="decline")["ok"]
    assert voice_at_host(pair)["last"] == {"by": GUEST, "why": "declined"}
    # A request may be withdrawn; both asking at once is both accepting.
    assert pair.host_do(t="voice", do="ask")["ok"]
    assert pair.host_do(t="voice", do="hang_up")["ok"]
    assert voice_at_host(pair)["last"] == {"by": HOST, "why": "withdrawn"} and voice_at_host(pair)["asked"] is None
    assert pair.host_do(t="voice", do="ask")["ok"]
    assert pair.guest_do(t="voice", do="ask")["ok"]
    assert voice_at_guest(pair)["on"] and voice_at_guest(pair)["call"] == 1


def test_mute_and_hang_up_by_either_side() -> None:
    pair = Pair()
    assert pair.host_do(t="voice", do="mute")["error"]["code"] == "illegal_action"  # no call yet
    pair.host_do(t="voice", do="ask")
    pair.guest_do(t="voice", do="accept")
    assert pair.guest_do(t="voice", do="mute")["ok"]
    assert voice_at_host(pair)["muted"] == [GUEST]
    assert pair.host_do(t="voice", do="mute")["ok"]
    assert voice_at_guest(pair)["muted"] == [HOST, GUEST]
    assert pair.guest_do(t="voice", do="unmute")["ok"]
    assert voice_at_guest(pair)["muted"] == [HOST]
    assert pair.guest_do(t="voice", do="hang_up")["ok"]
    assert voice_at_guest(pair) == {
        "on": False,
        "call": 1,
        "asked": None,
        "muted": [],
        "last": {"by": GUEST, "why": "hung_up"},
    }
    assert pair.host_do(t="voice", do="hang_up")["error"]["code"] == "illegal_action"
    # A new call has a new number (the pages' media signals of the old one are left aside).
    pair.guest_do(t="voice", do="ask")
    pair.host_do(t="voice", do="accept")
    assert voice_at_host(pair)["call"] == 2
    assert pair.host_do(t="voice", do="hang_up")["ok"]
    assert voice_at_guest(pair)["last"] == {"by": HOST, "why": "hung_up"}


def test_a_lost_connection_ends_voice_on_both_sides_and_nothing_is_saved() -> None:
    pair = Pair()
    pair.host_do(t="voice", do="ask")
    pair.guest_do(t="voice", do="accept")
    pair.host.ok(cmd="online_connection", session=pair.h, up=False, now=pair.now)
    lost = {"on": False, "call": 1, "asked": None, "muted": [], "last": {"by": GUEST, "why": "lost"}}
    assert pair.host.ok(cmd="online_tick", session=pair.h, now=pair.now)["status"]["voice"] == lost
    guest = pair.guest.ok(cmd="online_connection", session=pair.g, up=False, now=pair.now)
    assert guest["status"]["voice"] == {**lost, "last": {"by": HOST, "why": "lost"}}
    # While the guest is away, the host cannot call it; its hello brings voice back as it is: off.
    assert pair.host_do(t="voice", do="ask")["error"]["code"] == "illegal_action"
    pair.connected(guest_too=True)
    pair.send_to_host(pair.guest.ok(cmd="online_reconnect", session=pair.g)["send"])
    assert voice_at_guest(pair) == lost
    assert "voice" not in pair.session.saved()


@pytest.mark.parametrize(
    "fields",
    [{"do": "call_me"}, {"do": None}, {}, {"do": ["ask"]}, {"do": "ask", "n": 1}],
)
def test_a_malformed_voice_message_is_refused_and_changes_nothing(fields: dict[str, Any]) -> None:
    pair = Pair()
    before = pair.session.voice.status()
    guest = pair.guest.engine.online[pair.g]
    n = guest.outbox.sent + 1  # type: ignore[union-attr]
    text = json.dumps({"v": 1, "t": "voice", "n": n, **fields})
    answer = pair.host.ok(cmd="online_from_guest", session=pair.h, message=text, now=pair.now)
    assert answer["refused"]["code"] in ("bad_peer_message", "illegal_action"), answer["refused"]
    assert pair.session.voice.status() == before
    assert pair.guest_do(t="voice", do="shout")["error"]["code"] == "bad_peer_message"


def test_the_guest_refuses_a_forged_voice_status() -> None:
    pair = Pair()
    status = {**pair.host_answer["status"], "voice": {"on": "yes", "call": 1, "asked": None, "muted": [], "last": None}}
    received = pair.guest.engine.online[pair.g].received  # type: ignore[union-attr]
    text = json.dumps({"v": 1, "t": "status", "n": received + 1, "status": status})
    assert pair.guest.ask(cmd="online_from_host", session=pair.g, message=text, now=pair.now)["error"]["code"] == (
        "bad_peer_message"
    )
    for bad in ({"on": True, "call": -1}, {"asked": 2}, {"muted": [5]}, {"last": {"by": 0, "why": "<b>"}}):
        with pytest.raises(ValueError):
            Voice.from_status({**Voice().status(), **bad})
