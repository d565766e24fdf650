"""Protocol 2 through the protocol: two engines, each a page's, play over ``peer_*`` requests."""

from __future__ import annotations

import json
import random
from typing import Any

from py_engine.fairplay import p256
from py_engine.service.protocol import Engine

KEYS = [p256.new_key(random.Random(s)) for s in (51, 52)]
IDENTITIES = [KEYS[0][1], KEYS[1][1]]


def private(seat: int) -> str:
    return p256.b64encode(KEYS[seat][0].to_bytes(32, "big"))


class Page:
    def __init__(self, seat: int) -> None:
        self.engine = Engine()
        self.seat = seat
        self.session = ""

    def ask(self, page_only: bool = True, **req: Any) -> dict[str, Any]:
        text = json.dumps({"v": 1, "id": 1, **req})
        answer = json.loads(self.engine.handle_page(text) if page_only else self.engine.handle(text))
        return answer  # type: ignore[no-any-return]

    def ok(self, **req: Any) -> dict[str, Any]:
        answer = self.ask(**req)
        assert answer["ok"], answer
        return answer


def open_pair(now: int = 5_000, preset: str = "AT20") -> tuple[Page, Page, list[list[str]]]:
    """Seat 0 opens a room; seat 1 reads its offer (the first message), then joins with it."""
    host, guest = Page(0), Page(1)
    keys = {"identities": IDENTITIES, "now": now}
    opened = host.ok(cmd="peer_open", seat=0, preset=preset, name="Anna", key=private(0), **keys)
    host.session = opened["session"]
    offer = opened["send"][0]
    room = guest.ok(cmd="peer_offer", offer=offer, identities=IDENTITIES)["room"]
    assert room["name"] == "Anna" and room["match"] == opened["status"]["match"]
    joined = guest.ok(cmd="peer_open", seat=1, offer=offer, name="Béla", key=private(1), **keys)
    guest.session = joined["session"]
    return host, guest, [list(joined["send"]), []]


#: The cards a frame moves (its view's other fields stay as they were before the answer).
CARD_FIELDS = ("hand", "opponent_hand_count", "opponent_known", "trick", "my_tricks", "opponent_tricks", "talon_count")


def check_frames(answer: dict[str, Any]) -> None:
    """Each frame shows the cards where this seat's world had them after its event; the last, the view's."""
    frames, view = answer.get("frames") or [], answer.get("view")
    for frame in frames:
        event, cards = frame["event"], frame["view"]
        if event["type"] == "play":
            assert {"seat": event["seat"], "card": event["card"]} in cards["trick"]
            assert event["card"] not in cards["hand"] + cards["opponent_known"]
        elif event["type"] == "draw" and event["seat"] == cards["seat"]:
            assert event["card"] in cards["hand"]  # the real card, though it was opened after it was drawn
    if frames and view and not view["deal_result"]:
        assert {k: frames[-1]["view"][k] for k in CARD_FIELDS} == {k: view[k] for k in CARD_FIELDS}


def test_two_pages_play_a_match_through_the_protocol() -> None:
    a, b, queues = open_pair()
    pages = (a, b)
    rng = random.Random(3)
    now = 5_000
    results = []
    for _ in range(20_000):
        now += 250  # a quarter of a second between moves: the pages' rate limit is for floods only
        moved = False
        for page in pages:
            while queues[page.seat]:
                answer = page.ok(cmd="peer_receive", session=page.session, message=queues[page.seat].pop(0), now=now)
                assert "refused" not in answer, answer["refused"]
                check_frames(answer)
                queues[1 - page.seat].extend(answer["send"])
                moved = True
        for page in pages:
            view = page.ok(cmd="peer_show", session=page.session)["view"]
            if view and view["legal"]:
                answer = page.ok(cmd="peer_act", session=page.session, action=rng.choice(view["legal"]), now=now)
                check_frames(answer)
                queues[1 - page.seat].extend(answer["send"])
                moved = True
                break
        if not moved:
            break
    for page in pages:
        status = page.ok(cmd="peer_show", session=page.session)["status"]
        results.append(status["result"])
    assert results[0] is not None and results[0] == results[1] and results[0]["reason"] == "played"
    assert a.ok(cmd="peer_show", session=a.session)["status"]["names"] == ["Anna", "Béla"]
    assert b.ok(cmd="peer_show", session=b.session)["status"]["names"] == ["Anna", "Béla"]


def test_an_offer_that_is_not_the_hosts_is_refused_in_words_and_no_session_is_made() -> None:
    host, guest = Page(0), Page(1)
    opened = host.ok(cmd="peer_open", seat=0, preset="DE24", name="Anna", key=private(0), identities=IDENTITIES, now=1)
    offer = json.loads(opened["send"][0])
    room = guest.ok(cmd="peer_offer", offer=json.dumps(offer), identities=IDENTITIES)["room"]
    assert room["rules"]["deck"] == 24 and room["match"] == offer["m"]
    edited = json.loads(json.dumps(offer))
    edited["link"]["body"]["rules"]["deck"] = 20  # an offer changed on the way: its signature no longer holds
    other_host = [IDENTITIES[1], IDENTITIES[1]]  # signed, but not by the identity the guest's browser proved
    for bad, identities in ((edited, IDENTITIES), (offer, other_host), ({**offer, "m": "x" * 10}, IDENTITIES)):
        for cmd in ("peer_offer", "peer_open"):
            req = {"cmd": cmd, "offer": json.dumps(bad), "identities": identities, "seat": 1, "key": private(1)}
            answer = guest.ask(**req, now=2)
            assert not answer["ok"] and answer["error"]["message"], (cmd, bad)
    assert guest.engine.peers == {}


def test_a_rematch_goes_on_in_the_same_session_with_a_new_match_from_0_0() -> None:
    a, b, queues = open_pair(preset="AT20")
    pages = (a, b)
    first = a.ok(cmd="peer_show", session=a.session)["status"]["match"]
    now = 6_000

    def deliver() -> list[dict[str, Any]]:
        answers = []
        while any(queues):
            for page in pages:
                while queues[page.seat]:
                    answer = page.ok(
                        cmd="peer_receive", session=page.session, message=queues[page.seat].pop(0), now=now
                    )
                    assert "refused" not in answer, answer["refused"]
                    queues[1 - page.seat].extend(answer["send"])
                    answers.append(answer)
        return answers

    queues[1].extend(a.ok(cmd="peer_concede", session=a.session, now=now)["send"])
    deliver()
    assert b.ok(cmd="peer_show", session=b.session)["status"]["result"]["winner"] == 1
    queues[1].extend(a.ok(cmd="peer_rematch", session=a.session, now=now)["send"])
    deliver()
    asked = b.ok(cmd="peer_rematch", session=b.session, now=now)
    assert asked["finished"]["result"]["winner"] == 1 and asked["status"]["match"] != first
    queues[0].extend(asked["send"])
    answers = deliver()
    assert any("finished" in answer for answer in answers)
    for page in pages:
        status = page.ok(cmd="peer_show", session=page.session)["status"]
        assert status["match"] != first and status["result"] is None and status["names"] == ["Anna", "Béla"]
        assert status["playing"] or page.ok(cmd="peer_show", session=page.session)["view"] is not None


def test_texts_the_page_left_unread_are_said_as_a_flood_and_the_game_goes_on() -> None:
    a, _b, _queues = open_pair()
    before = a.ok(cmd="peer_show", session=a.session)
    quiet = a.ok(cmd="peer_tick", session=a.session, now=6_000, dropped=0)
    assert "refused" not in quiet
    flooded = a.ok(cmd="peer_tick", session=a.session, now=7_000, dropped=900)
    assert flooded["refused"]["code"] == "rate_limited" and "900" in flooded["refused"]["message"]
    assert flooded["view"] == before["view"] and flooded["status"]["result"] is None
    assert "refused" not in a.ok(cmd="peer_tick", session=a.session, now=8_000)


def test_bad_requests_are_refused_in_words_and_leave_nothing() -> None:
    page = Page(0)
    base = {"cmd": "peer_open", "seat": 0, "preset": "AT20", "match": "match-0002", "identities": IDENTITIES}
    for bad in (
        {"key": private(1), "now": 1},  # another seat's key
        {"key": "x", "now": 1},
        {"key": private(0), "now": -1},
        {"key": private(0), "now": 1, "seat": 2},
        {"key": private(0), "now": 1, "identities": ["a"]},
        {"key": private(0), "now": 1, "match": "short"},
    ):
        answer = page.ask(**{**base, **bad})
        assert not answer["ok"] and answer["error"]["message"]
    assert page.engine.peers == {}
    opened = page.ok(**base, key=private(0), now=1)
    session = opened["session"]
    assert page.ask(cmd="peer_act", session=session, action="close", now=2)["error"]["code"] == "illegal_action"
    assert "500" in page.ask(cmd="peer_say", session=session, text="x" * 501, now=2)["error"]["message"]
    assert not page.ask(cmd="peer_save", session=session)["ok"]  # the worker's, not the page's: it holds a secret
    saved = page.ask(page_only=False, cmd="peer_save", session=session)["saved"]
    restored = page.ask(page_only=False, cmd="peer_restore", saved=saved, key=private(0), now=3)
    assert restored["ok"] and restored["status"]["seat"] == 0
    broken = {**saved, "secret": "00" * 32}
    before = dict(page.engine.peers)
    answer = page.ask(page_only=False, cmd="peer_restore", saved=broken, key=private(0), now=3)
    assert not answer["ok"] and "does not replay" in answer["error"]["message"]
    assert page.engine.peers == before
    verdict = page.ok(cmd="peer_verify_report", report={"format": "nothing"})
    assert not verdict["verdict"]["ok"] and verdict["words"]


def test_checking_a_report_in_the_page_needs_nothing_the_wheel_leaves_out() -> None:
    """The browser's wheel ships no lab: the page's own check of a report must not reach for it."""
    import subprocess
    import sys

    code = (
        "import json, sys; from py_engine.service.protocol import handle_page; "
        "a = json.loads(handle_page(json.dumps({'v': 1, 'cmd': 'peer_verify_report', 'report': {'format': 'x'}}))); "
        "assert a['ok'], a; assert not any(m.split('.')[0] == 'lab' for m in sys.modules), 'lab imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
