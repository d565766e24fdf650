"""Online play's engine side (py_engine/service/online/): two engines, as in two browsers, through ``handle_page``.

The host's engine referees; the guest's engine checks the host. Messages
travel as the JSON texts the pages would carry over the data channel. The
clock is the test's (``now``), so pauses and time-outs take no time.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from py_engine.core.cards import CARD_NAMES
from py_engine.service.online import fair_pack
from py_engine.service.online.host import HostSession
from py_engine.service.online.messages import CHAT_MAX, NOW_MAX, PAUSE_MS, RATE_BURST, RETURN_MS, SHOW_MS
from py_engine.service.table import GUEST, HOST
from tests.test_table import Page as Browser
from tests.test_table import cards_in, may_see

#: The two browsers' identities: their pages proved them to each other (web/online/handshake.js) and tell
#: their engines what the other proved.
ANNA, BELA = "anna-public-key", "bela-public-key"


class Pair:
    """A host and a guest, with every message checked for privacy as it leaves the host."""

    def __init__(self, preset: str = "KLUB20", now: int = 1_000_000, rules: dict[str, Any] | None = None) -> None:
        self.host, self.guest = Browser(), Browser()
        self.now = now
        self.to_guest: list[str] = []
        self.guest_answers: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.problems: list[str] = []
        opened = self.host.ok(cmd="online_host", preset=preset, rules=rules or {}, name="Anna", identity=ANNA, now=now)
        self.h = opened["session"]
        assert opened["send"] == []  # the room goes to a guest's browser once it has connected
        room = self.connected()["send"]
        assert len(room) == 1 and json.loads(room[0])["t"] == "room"
        answer = self.guest.ok(cmd="online_guest_open", message=room[0], identity=ANNA, now=now)
        self.g = answer["session"]
        self.room = answer["room"]
        self.host_answer = opened
        self.send_to_host(self.guest.ok(cmd="online_guest_join", session=self.g, name="Béla", identity=BELA)["send"])

    def connected(self, guest_too: bool = False) -> dict[str, Any]:
        """A new connection: each page tells its engine the identity the other browser proved on it."""
        answer: dict[str, Any] = self.host.ok(
            cmd="online_connection", session=self.h, up=True, identity=BELA, now=self.now
        )
        if guest_too:
            self.guest.ok(cmd="online_connection", session=self.g, up=True, identity=ANNA, now=self.now)
        return answer

    @property
    def session(self) -> HostSession:
        session = self.host.engine.online[self.h]
        assert isinstance(session, HostSession)
        return session

    def deliver(self) -> None:
        """Carry the host's pending messages to the guest (and the guest's replies back), checking each."""
        while self.to_guest:
            text = self.to_guest.pop(0)
            answer = self.guest.ok(cmd="online_from_host", session=self.g, message=text, now=self.now)
            self.guest_answers.append(answer)
            self.problems += answer.get("proof", {}).get("problems", [])
            if answer["send"]:
                self.send_to_host(answer["send"])

    def send_to_host(self, texts: list[str]) -> list[dict[str, Any]]:
        answers = []
        for text in texts:
            answer = self.host.ok(cmd="online_from_guest", session=self.h, message=text, now=self.now)
            self.host_sent(answer)
            if "refused" in answer:
                self.refused.append(answer["refused"])
            answers.append(answer)
        self.deliver()
        return answers

    def host_sent(self, answer: dict[str, Any]) -> None:
        """The host's answer: its messages to the guest hold no card the guest may not see."""
        self.host_answer = answer
        table = self.session.table
        for text in answer["send"]:
            message = json.loads(text)
            if table is not None and message["t"] in ("frames", "state"):
                shown = HOST in table.shown
                allowed = may_see(table.match, GUEST, shown)
                for frame in message.get("frames", []):
                    if frame["view"]["deal_result"] is None and frame["event"]["type"] != "deal_end":
                        assert cards_in(frame) <= allowed, (cards_in(frame) - allowed, frame)
                rest = {k: v for k, v in message.items() if k != "frames"}
                if rest["show"]["view"]["deal_result"] is None:
                    assert cards_in(rest) <= allowed, (cards_in(rest) - allowed, rest)
            self.to_guest.append(text)

    def host_do(self, **intent: Any) -> dict[str, Any]:
        answer = self.host.ask(cmd="online_host_do", session=self.h, intent=intent, now=self.now)
        if answer["ok"]:
            self.host_sent(answer)
            self.deliver()
        return answer

    def guest_do(self, **intent: Any) -> dict[str, Any]:
        answer = self.guest.ask(cmd="online_guest_do", session=self.g, intent=intent)
        if answer["ok"]:
            self.send_to_host(answer["send"])
        return answer

    def tick(self, ms: int) -> dict[str, Any]:
        self.now += ms
        answer = self.host.ok(cmd="online_tick", session=self.h, now=self.now)
        self.host_sent(answer)
        self.deliver()
        return answer

    def guest_show(self) -> dict[str, Any]:
        shows = [a["show"] for a in self.guest_answers if "show" in a]
        return shows[-1]

    def host_view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.host.ok(cmd="online_tick", session=self.h, now=self.now)["view"]
        return view

    def play(self, rng: random.Random, moves: int | None = None) -> None:
        """Random legal moves from whichever side may move (``moves`` of them, or to the game's end)."""
        for _ in range(moves or 10_000):
            host_view = self.host_view()
            if host_view["game_over"]:
                return
            self.now += 300  # a brisk human pace: the host limits a guest to 5 messages a second
            guest_view = self.guest_show()["view"]
            if self.host_answer["may"].get("computer_move"):
                answer = self.host.ok(cmd="online_computer", session=self.h, now=self.now, budget_ms=20, seed=1)
                # No search statistics for the host's page: they would tell when the guest's move was forced.
                assert "stats" not in answer and "iterations" not in json.dumps(answer), answer
                self.host_sent(answer)
                self.deliver()
            elif host_view["legal"] and (host_view["to_act"] in (HOST, None) or rng.random() < 0.5):
                assert self.host_do(t="act", action=rng.choice(host_view["legal"]))["ok"]
            elif guest_view["legal"]:
                assert self.guest_do(t="act", action=rng.choice(guest_view["legal"]))["ok"]
            else:
                raise AssertionError("nobody can move")
        assert moves is not None, "the game did not end"


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize(("preset", "seed"), [("KLUB20", 1), ("AT20", 2), ("DE24", 3), ("HU24", 4)])
def test_a_whole_match_between_two_engines_checks_out(preset: str, seed: int) -> None:
    pair = Pair(preset)
    assert pair.room["rules"]["id"] == preset  # the guest sees the rules before it joins
    pair.play(random.Random(seed))
    match = pair.session.table.match  # type: ignore[union-attr]
    assert match.finished
    assert pair.problems == [] and pair.refused == []
    proofs = [a["proof"] for a in pair.guest_answers if "proof" in a]
    assert [p["deal"] for p in proofs] == list(range(1, len(match.records) + 1))
    final = pair.guest_show()["view"]
    assert final["game_over"] and final["match"]["scores"] == match.scores
    # The guest's score sheet is the host's (absolute seats: the same lines for both).
    assert final["sheet"] == pair.host_view()["sheet"] and len(final["sheet"]["deals"]) >= 1
    # Every pack came from both secrets, and the first dealer from the cut of deal 1.
    packs = pair.session.packs
    assert packs is not None
    assert [r.deck for r in match.records] == [packs.pack(match.rules.deck, i + 1) for i in range(len(match.records))]


def test_the_guest_sees_only_its_own_seat() -> None:
    pair = Pair()
    view = pair.guest_show()["view"]
    assert view["seat"] == GUEST and len(view["hand"]) == 5
    host_hand = set(pair.host_view()["hand"])
    assert not host_hand & cards_in(pair.guest_answers)


# ---------------------------------------------------------------- the fair pack


def test_a_pack_comes_from_both_secrets_and_the_chain_links() -> None:
    tail, guest = "11" * 32, "22" * 32
    head = fair_pack.chain_secret(tail, 0)
    first = fair_pack.chain_secret(tail, 1)
    assert fair_pack.follows(first, head) and not fair_pack.follows(fair_pack.chain_secret(tail, 2), head)
    one = fair_pack.pack(20, first, guest, 1)
    assert sorted(one) == sorted(fair_pack.pack(20, first, "33" * 32, 1))
    assert one != fair_pack.pack(20, first, "33" * 32, 1)
    assert {fair_pack.first_dealer(first, g * 32) for g in ("22", "33", "44", "55", "66", "77")} == {0, 1}


def test_the_pack_derivation_is_pinned() -> None:
    """The same secrets give the same head and pack here and inside Pyodide (a change to the derivation shows)."""
    head = fair_pack.chain_secret("ab" * 32, 0)
    pack = fair_pack.pack(20, fair_pack.chain_secret("ab" * 32, 1), "cd" * 32, 1)
    assert head == "195325974a08fe3961989ce89a9683e663471bc083a0bf1bf191b644508271d2"
    assert [CARD_NAMES[c] for c in pack] == (
        [
            "JH",
            "JD",
            "TS",
            "QH",
            "AD",
            "TD",
            "KH",
            "QD",
            "KD",
            "AS",
            "TC",
            "AH",
            "JS",
            "TH",
            "KC",
            "QC",
            "JC",
            "KS",
            "AC",
            "QS",
        ]
    )


def test_a_host_whose_pack_does_not_match_the_joint_seed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    pair = Pair()
    packs = pair.session.packs
    assert packs is not None
    honest = packs.pack

    def stacked(deck_size: int, index: int) -> list[int]:
        cards = honest(deck_size, index)
        return cards[::-1] if index == 2 else cards

    monkeypatch.setattr(packs, "pack", stacked)
    pair.play(random.Random(5))
    assert any("deal 2: the pack is not the one" in p for p in pair.problems), pair.problems
    assert not any(p.startswith("deal 1:") for p in pair.problems)


def test_a_host_that_shows_the_guest_other_cards_than_its_record_is_caught() -> None:
    pair = Pair()
    # Changed before the first move: after a few random moves the deal may already be over (a wrong claim)
    # and checked, and the change would never be looked at.
    witness = pair.guest.engine.online[pair.g].witness  # type: ignore[union-attr]
    assert witness is not None and witness.seen[0]["type"] == "deal"
    hand = witness.seen[0]["hand"]
    other = next(card for card in CARD_NAMES if card not in hand)
    witness.seen[0] = {**witness.seen[0], "hand": [other, *hand[1:]]}
    pair.play(random.Random(6))
    assert any("what you were shown differs" in p for p in pair.problems)


# ---------------------------------------------------------------- refused messages


def _guest_message(pair: Pair, n: int, **fields: Any) -> str:
    return json.dumps({"v": 1, "n": n, **fields})


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_peer_message"),
        ('{"v": 1, "t": "act", "n": 900, "action": "play:AH", "x": ' + "[" * 80 + "]" * 80 + "}", "bad_peer_message"),
        ('{"v": 2, "t": "act", "n": 900, "action": "close"}', "bad_peer_message"),
        ('{"v": true, "t": "chat", "n": 900, "text": "hi"}', "bad_peer_message"),
        ('{"v": 1.0, "t": "chat", "n": 900, "text": "hi"}', "bad_peer_message"),
        ('{"v": 1, "t": "teleport", "n": 900}', "bad_peer_message"),
        ('{"v": 1, "t": "act", "action": "close"}', "bad_peer_message"),
        ('{"v": 1, "t": "act", "n": 900, "action": "play:ZZ"}', "bad_action"),
        ('{"v": 1, "t": "act", "n": 900, "action": 7}', "bad_peer_message"),
        ('{"v": 1, "t": "chat", "n": 900, "text": "' + "x" * (CHAT_MAX + 1) + '"}', "bad_peer_message"),
        ('{"v": 1, "t": "chat", "n": 900, "phrase": "<b>hi</b>"}', "bad_peer_message"),
        ('{"v": 1, "t": "join", "n": 900, "secret": "00"}', "bad_peer_message"),
        ('"' + "x" * 5000 + '"', "bad_peer_message"),
    ],
)
def test_a_forged_or_malformed_guest_message_changes_nothing(text: str, code: str) -> None:
    pair = Pair()
    before = pair.session.saved()
    answer = pair.host.ok(cmd="online_from_guest", session=pair.h, message=text, now=pair.now)
    assert answer["refused"]["code"] == code, answer["refused"]
    after = pair.session.saved()
    for key in ("sent", "received"):
        before.pop(key), after.pop(key)
    assert after == before
    refusal = json.loads(answer["send"][-1])
    assert refusal["t"] == "refused" and refusal["message"]


def test_out_of_turn_illegal_and_replayed_moves_are_refused() -> None:
    pair = Pair()
    view = pair.guest_show()["view"]
    host = pair.host_view()
    record = pair.session.table.match.record()  # type: ignore[union-attr]
    n = pair.guest.engine.online[pair.g].outbox.sent  # type: ignore[union-attr]
    if view["to_act"] != GUEST:
        answer = pair.send_to_host([_guest_message(pair, n + 1, t="act", action="play:" + host["hand"][0])])[0]
        assert answer["refused"]["code"] in ("illegal_action", "not_your_turn")
    else:
        answer = pair.send_to_host([_guest_message(pair, n + 1, t="act", action="play:" + host["hand"][0])])[0]
        assert answer["refused"]["code"] == "illegal_action"  # a card it does not hold
    assert pair.session.table.match.record() == record  # type: ignore[union-attr]
    # A refused message leaves its number unused; an accepted one's number cannot come again (a replay).
    accepted = _guest_message(pair, n + 1, t="chat", phrase="hello")
    assert "refused" not in pair.send_to_host([accepted])[0]
    replay = _guest_message(pair, n + 1, t="chat", phrase="thanks")
    assert pair.send_to_host([replay])[0]["refused"]["message"].endswith("(a replay)")
    # The guest's own engine refuses an impossible move before it leaves.
    assert pair.guest_do(t="act", action="play:" + host["hand"][0])["error"]["code"] == "illegal_action"


def test_a_flood_is_rate_limited_and_answered_once() -> None:
    pair = Pair()
    n = 100
    answers = []
    for i in range(60):
        text = _guest_message(pair, n + i, t="chat", phrase="hello")
        answers.append(pair.host.ok(cmd="online_from_guest", session=pair.h, message=text, now=pair.now))
    limited = [a for a in answers if a.get("refused", {}).get("code") == "rate_limited"]
    assert len(limited) >= 60 - RATE_BURST
    told = [t for a in limited for t in a["send"] if json.loads(t)["t"] == "refused"]
    assert len(told) == 1
    later = _guest_message(pair, n + 100, t="chat", phrase="thanks")
    answer = pair.host.ok(cmd="online_from_guest", session=pair.h, message=later, now=pair.now + 1000)
    assert "refused" not in answer and answer["chat"]["phrase"] == "thanks"


# ---------------------------------------------------------------- what source 002 describes


def test_shown_cards_stay_face_up_for_ten_seconds_and_never_the_talon() -> None:
    pair = Pair()
    hand = pair.host_view()["hand"]
    assert pair.host_do(t="show_cards")["ok"]
    shown = pair.guest_show()["view"]
    assert shown["opponent_shown"] == hand
    assert pair.guest_answers[-1]["status"]["shown"] == {str(HOST): pair.now + SHOW_MS}
    # (Pair.host_sent checked that no talon card reached the guest: only the host's hand was added.)
    pair.tick(SHOW_MS - 1)
    assert pair.guest_show()["view"]["opponent_shown"] == hand
    pair.tick(1)
    assert pair.guest_show()["view"]["opponent_shown"] is None
    # The guest shows its hand to the host the same way.
    guest_hand = pair.guest_show()["view"]["hand"]
    assert pair.guest_do(t="show_cards")["ok"]
    assert pair.host_answer["view"]["opponent_shown"] == guest_hand


def test_a_pause_becomes_the_computer_until_the_player_presses_ok() -> None:
    pair = Pair()
    assert pair.guest_do(t="pause")["ok"]
    assert pair.host_answer["status"]["paused"] == {str(GUEST): pair.now + PAUSE_MS}
    pair.tick(PAUSE_MS - 1)
    assert pair.host_answer["status"]["stand_in"] == []
    pair.tick(1)
    assert pair.host_answer["status"]["stand_in"] == [GUEST]
    # The computer now plays the guest's seat under its name, on the host's engine.
    rng = random.Random(7)
    for _ in range(6):
        pair.play(rng, moves=1) if not pair.host_view()["game_over"] else None
    guest_moves = [
        e for a in pair.guest_answers for f in a.get("frames", []) for e in [f["event"]] if e.get("seat") == GUEST
    ]
    assert guest_moves
    assert pair.guest_do(t="back")["ok"]
    assert pair.host_answer["status"]["stand_in"] == []
    assert pair.problems == []


def test_a_lost_connection_is_a_loss_on_time_after_sixty_seconds() -> None:
    pair = Pair()
    pair.host.ok(cmd="online_connection", session=pair.h, up=False, now=pair.now)
    pair.tick(RETURN_MS - 1)
    assert not pair.host_view()["game_over"]
    answer = pair.tick(1)
    assert answer["view"]["game_over"] and answer["view"]["match"]["ended"] == {"seat": GUEST, "reason": "time"}
    assert answer["view"]["match"]["winner"] == HOST


def test_a_reconnect_within_sixty_seconds_restores_exactly_the_same_state() -> None:
    pair = Pair()
    pair.play(random.Random(8), moves=4)
    shown_before = pair.guest_show()
    pair.host.ok(cmd="online_connection", session=pair.h, up=False, now=pair.now)
    pair.tick(RETURN_MS - 1000)
    pair.connected(guest_too=True)
    answer = pair.guest.ok(cmd="online_reconnect", session=pair.g)
    pair.send_to_host(answer["send"])
    assert pair.guest_show() == shown_before
    assert pair.host_answer["status"]["guest_away_since"] is None
    pair.tick(RETURN_MS)
    assert not pair.host_view()["game_over"]


def test_both_pages_reload_and_the_game_goes_on() -> None:
    pair = Pair()
    pair.play(random.Random(9), moves=6)
    shown_before = pair.guest_show()
    saved_host = pair.host.engine.handle(json.dumps({"v": 1, "cmd": "online_save", "session": pair.h}))
    saved_guest = pair.guest.engine.handle(json.dumps({"v": 1, "cmd": "online_save", "session": pair.g}))
    pair.host, pair.guest = Browser(), Browser()
    pair.now += 5000
    restored = json.loads(
        pair.host.engine.handle(
            json.dumps({"v": 1, "cmd": "online_restore", "saved": json.loads(saved_host)["saved"], "now": pair.now})
        )
    )
    assert restored["ok"] and restored["side"] == "host", restored
    pair.h = restored["session"]
    restored = json.loads(
        pair.guest.engine.handle(
            json.dumps({"v": 1, "cmd": "online_restore", "saved": json.loads(saved_guest)["saved"], "now": pair.now})
        )
    )
    assert restored["side"] == "guest"
    pair.g = restored["session"]
    pair.connected(guest_too=True)
    pair.send_to_host(pair.guest.ok(cmd="online_reconnect", session=pair.g)["send"])
    assert pair.guest_show() == shown_before
    pair.play(random.Random(10))
    assert pair.problems == [] and pair.refused == []


def test_a_host_back_too_late_has_lost_and_both_gone_is_no_result() -> None:
    for guest_left_first, expected in ((False, {"seat": HOST, "reason": "time"}), (True, None)):
        pair = Pair()
        if guest_left_first:
            pair.host.ok(cmd="online_connection", session=pair.h, up=False, now=pair.now)
        saved = pair.host.engine.handle(json.dumps({"v": 1, "cmd": "online_save", "session": pair.h}))
        later = pair.now + RETURN_MS + 1
        answer = json.loads(
            Browser().engine.handle(
                json.dumps({"v": 1, "cmd": "online_restore", "saved": json.loads(saved)["saved"], "now": later})
            )
        )
        ended = answer["view"]["match"]["ended"]
        if expected is None:
            assert ended == {"seat": None, "reason": "abandoned"} and answer["view"]["match"]["winner"] is None
        else:
            assert ended == expected


@pytest.mark.parametrize("now", [10**400, NOW_MAX + 1, -1, True, 1.5, "1000", None])
def test_a_clock_out_of_range_is_refused_leaves_nothing_and_the_game_goes_on(now: Any) -> None:
    pair = Pair()
    pair.play(random.Random(5), moves=4)
    host_before, guest_before = pair.session.saved(), pair.guest.engine.online[pair.g].saved()
    # A new session is refused and nothing is registered (not even a handle's worth).
    host, guest = Browser(), Browser()
    refused = host.ask(cmd="online_host", preset="KLUB20", name="Anna", identity=ANNA, now=now)
    assert refused["error"]["code"] == "bad_request" and "'now' must be" in refused["error"]["message"], refused
    other = Browser()
    opened = other.ok(cmd="online_host", preset="KLUB20", name="Anna", identity=ANNA, now=1000)["session"]
    room = other.ok(cmd="online_connection", session=opened, up=True, identity=BELA, now=1000)["send"][0]
    refused = guest.ask(cmd="online_guest_open", message=room, identity=ANNA, now=now)
    assert refused["error"]["code"] == "bad_request", refused
    for saved in (host_before, guest_before):
        restore = {"v": 1, "cmd": "online_restore", "saved": saved, "now": now}
        assert json.loads(host.engine.handle(json.dumps(restore)))["error"]["code"] == "bad_request"
    assert host.engine.online == {} and guest.engine.online == {}
    # Every command of a session that takes the clock refuses it and changes nothing.
    chat = _guest_message(pair, pair.session.received + 1, t="chat", text="hi")
    for browser, session, request in (
        (pair.host, pair.h, {"cmd": "online_tick"}),
        (pair.host, pair.h, {"cmd": "online_connection", "up": False}),
        (pair.host, pair.h, {"cmd": "online_from_guest", "message": chat}),
        (pair.host, pair.h, {"cmd": "online_host_do", "intent": {"t": "chat", "phrase": "hello"}}),
        (pair.host, pair.h, {"cmd": "online_computer"}),
        (pair.guest, pair.g, {"cmd": "online_tick"}),
        (pair.guest, pair.g, {"cmd": "online_connection", "up": False}),
        (pair.guest, pair.g, {"cmd": "online_from_host", "message": pair.to_guest[-1] if pair.to_guest else "{}"}),
    ):
        answer = browser.ask(session=session, now=now, **request)
        assert answer["error"]["code"] == "bad_request", (request, answer)
    assert pair.session.saved() == host_before
    assert pair.guest.engine.online[pair.g].saved() == guest_before
    # And the game goes on, the clock's later messages answered as ever.
    pair.tick(1000)
    assert pair.guest_do(t="chat", text="still here")["ok"]
    pair.play(random.Random(6), moves=6)
    assert pair.problems == [] and pair.refused == []


def test_a_damaged_saved_online_game_is_refused_in_words() -> None:
    browser = Browser()
    answer = json.loads(
        browser.engine.handle(json.dumps({"v": 1, "cmd": "online_restore", "saved": {"online": "host"}, "now": 1}))
    )
    assert answer["error"]["code"] == "bad_peer_message" and "damaged" in answer["error"]["message"]
    assert browser.engine.online == {}


def _saved_pair() -> tuple[Pair, dict[str, Any], dict[str, Any]]:
    """A game under way with a chat line, and each side's saved game as the worker stores it (JSON)."""
    pair = Pair()
    pair.play(random.Random(9), moves=6)
    assert pair.guest_do(t="chat", text="hi")["ok"]
    saved_host = json.loads(json.dumps(pair.session.saved()))
    saved_guest = json.loads(json.dumps(pair.guest.engine.online[pair.g].saved()))
    return pair, saved_host, saved_guest


def _damaged(saved: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    damaged = json.loads(json.dumps(saved))
    inner = damaged
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return damaged


@pytest.mark.parametrize(
    ("side", "path", "value", "field"),
    [
        ("host", ("names",), ["Anna"], "names"),
        ("host", ("names",), "AB", "names"),
        ("host", ("identities",), [ANNA], "identities"),
        ("host", ("away_since",), "x", "away_since"),
        ("host", ("table", "seating"), None, "table"),
        ("host", ("paused",), {"0": "x"}, "paused"),
        ("host", ("chat",), [1], "chat"),
        ("host", ("now",), NOW_MAX + 1, "now"),
        ("host", ("guest_commitment",), "00" * 32, "guest_commitment"),
        ("host", ("matches",), 0, "matches"),
        ("guest", ("name",), None, "name"),
        ("guest", ("identity",), 5, "identity"),
        ("guest", ("show",), 1, "show"),
        ("guest", ("show", "view"), 1, "show"),
        ("guest", ("host_away_since",), "x", "host_away_since"),
        ("guest", ("room", "host"), None, "room"),
        ("guest", ("seat",), True, "seat"),
        ("guest", ("witness", "seat"), 0, "witness"),
        ("guest", ("status",), [], "status"),
    ],
)
def test_a_damaged_saved_online_game_names_its_field_and_registers_nothing(
    side: str, path: tuple[str, ...], value: Any, field: str
) -> None:
    pair, saved_host, saved_guest = _saved_pair()
    saved = _damaged(saved_host if side == "host" else saved_guest, path, value)
    browser = Browser()
    request = {"v": 1, "cmd": "online_restore", "saved": saved, "now": pair.now}
    answer = json.loads(browser.engine.handle(json.dumps(request)))
    assert answer["error"]["code"] == "bad_peer_message", answer
    assert "damaged" in answer["error"]["message"] and repr(field) in answer["error"]["message"], answer
    assert browser.engine.online == {}


def test_no_damage_to_a_saved_online_game_is_an_internal_error() -> None:
    """Every field (and the fields one level in) of each side's saved game, given values of the wrong kind:
    refused in words with nothing registered, or restored to a session whose next requests answer."""
    pair, saved_host, saved_guest = _saved_pair()
    values: list[Any] = [None, "x", -1, 1.5, True, [], {}, [1], 10**400, 0, 2]
    for saved, identity in ((saved_host, BELA), (saved_guest, ANNA)):
        paths = [(key,) for key in saved if key != "online"]
        paths += [(key, inner) for key in saved if isinstance(saved[key], dict) for inner in saved[key]]
        for path in paths:
            for value in values:
                browser = Browser()
                request = {"v": 1, "cmd": "online_restore", "saved": _damaged(saved, path, value), "now": pair.now}
                answer = json.loads(browser.engine.handle(json.dumps(request)))
                if not answer["ok"]:
                    assert answer["error"]["code"] != "internal_error", (path, value, answer)
                    assert browser.engine.online == {}, (path, value)
                    continue
                for later in (
                    {"cmd": "online_tick", "now": pair.now + 1},
                    {"cmd": "online_connection", "up": True, "identity": identity, "now": pair.now + 2},
                    {"cmd": "online_tick", "now": pair.now + RETURN_MS + 3},
                    {"cmd": "online_save"},
                ):
                    answer = json.loads(browser.engine.handle(json.dumps({"v": 1, "session": "o1", **later})))
                    assert answer["ok"] or answer["error"]["code"] != "internal_error", (path, value, answer)


def test_resign_and_a_rematch_from_nil_nil_with_fresh_packs() -> None:
    pair = Pair()
    first_head = pair.room["commitment"]
    assert pair.guest_do(t="rematch")["error"]["code"] == "illegal_action"
    assert pair.guest_do(t="resign")["ok"]
    view = pair.host_view()
    assert view["game_over"] and view["match"]["ended"] == {"seat": GUEST, "reason": "resigned"}
    assert pair.guest_do(t="rematch")["ok"]
    assert pair.host_answer["status"]["rematch"] == [GUEST]
    assert pair.host_do(t="rematch")["ok"]
    rooms = [a["room"] for a in pair.guest_answers if "room" in a]
    assert rooms and rooms[-1]["commitment"] != first_head
    view = pair.host_view()
    assert not view["game_over"] and view["match"]["scores"] == [0, 0]
    pair.play(random.Random(11))
    assert pair.problems == []


def test_chat_both_ways_as_plain_text_and_phrases() -> None:
    pair = Pair()
    assert pair.guest_do(t="chat", text="  <b>Szia!</b>\u0007\n  ")["ok"]
    assert pair.host_answer["chat"] == {"seat": GUEST, "text": "<b>Szia!</b>", "at": pair.now}
    assert pair.host_do(t="chat", phrase="good_luck")["ok"]
    assert pair.guest_answers[-1]["chat"] == {"seat": HOST, "phrase": "good_luck"}
    assert pair.guest_do(t="chat", text="x" * CHAT_MAX)["ok"]
    assert pair.guest_do(t="chat", text="x" * (CHAT_MAX + 1))["error"]["code"] == "bad_peer_message"
    assert pair.host_do(t="chat", phrase="insult")["error"]["code"] == "bad_peer_message"
    # Bidirectional controls (which could turn the text around them) are removed from chat and names.
    turned = "".join(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
    assert pair.guest_do(t="chat", text=f"ab{turned}cd")["ok"]
    assert pair.host_answer["chat"]["text"] == "abcd"


def test_the_guest_refuses_forged_host_messages() -> None:
    pair = Pair()
    session = pair.guest.engine.online[pair.g]
    received = session.received  # type: ignore[union-attr]
    forged = [
        json.dumps({"v": 1, "t": "frames", "n": received, "frames": [], "show": pair.guest_show(), "status": {}}),
        json.dumps({"v": 1, "t": "frames", "n": received + 1, "frames": [], "show": {"view": {"seat": HOST}}}),
        json.dumps({"v": 1, "t": "frames", "n": received + 1, "frames": "x", "show": pair.guest_show()}),
    ]
    # A score sheet of the wrong shape (the page lays it out as it comes).
    show = pair.guest_show()
    for sheet in ("x", {"deals": [{"match": "1"}], "bummerls": []}, {"deals": [], "bummerls": [{"ended": 1}]}):
        forged_show = {**show, "view": {**show["view"], "sheet": sheet}}
        forged.append(
            json.dumps({"v": 1, "t": "frames", "n": received + 1, "frames": [], "show": forged_show, "status": {}})
        )
    for text in forged:
        answer = pair.guest.ask(cmd="online_from_host", session=pair.g, message=text, now=pair.now)
        assert answer["error"]["code"] == "bad_peer_message", answer
    assert session.received == received  # type: ignore[union-attr]


def test_the_game_before_joining_and_a_version_that_is_not_the_integer_are_refused() -> None:
    pair = Pair()
    show = pair.guest_show()
    # A guest that has opened the room but not joined has nothing to check a game against: refused in words.
    host = Browser()
    opened = host.ok(cmd="online_host", preset="KLUB20", name="Anna", identity=ANNA, now=1000)
    room = host.ok(cmd="online_connection", session=opened["session"], up=True, identity=BELA, now=1000)["send"][0]
    guest = Browser()
    g = guest.ok(cmd="online_guest_open", message=room, identity=ANNA, now=1000)["session"]
    session = guest.engine.online[g]
    before = session.saved()
    for kind in ("frames", "state"):
        text = json.dumps({"v": 1, "t": kind, "n": 2, "frames": [], "show": show, "status": {}, "deal_events": []})
        answer = guest.ask(cmd="online_from_host", session=g, message=text, now=2000)
        assert answer["error"]["code"] == "bad_peer_message", answer
        assert "before this side joined" in answer["error"]["message"]
        assert session.saved() == before
    # The envelope's version is the integer 1: not true, not 1.0 (the host's side: the malformed messages below).
    n = pair.guest.engine.online[pair.g].received + 1  # type: ignore[union-attr]
    for version in (True, 1.0):
        text = json.dumps({"v": version, "t": "status", "n": n, "status": pair.host_answer["status"]})
        answer = pair.guest.ask(cmd="online_from_host", session=pair.g, message=text, now=pair.now)
        assert answer["error"]["code"] == "bad_peer_message" and "version" in answer["error"]["message"], answer
    assert pair.guest.engine.online[pair.g].received == n - 1  # type: ignore[union-attr]


# ---------------------------------------------------------------- who the other browser is


def test_the_guest_seat_belongs_to_the_identity_its_browser_proved() -> None:
    host = Browser()
    opened = host.ok(cmd="online_host", preset="KLUB20", name="Anna", identity=ANNA, now=1000)
    h = opened["session"]
    join = json.dumps(
        {
            "v": 1,
            "t": "join",
            "n": 1,
            "name": "Béla",
            "identity": ANNA,  # claims to be someone else: not read
            "secret": "22" * 32,
            "commitment": fair_pack.commitment("22" * 32),
        }
    )
    # No identity proven on this connection: no join, nothing changes.
    answer = host.ok(cmd="online_from_guest", session=h, message=join, now=1000)
    assert answer["refused"]["code"] == "bad_peer_message" and "proven" in answer["refused"]["message"]
    assert answer["status"]["joined"] is False
    # A browser connects, reads the rules and leaves; the next one is shown the room too.
    for identity in ("carl-public-key", BELA):
        sent = host.ok(cmd="online_connection", session=h, up=True, identity=identity, now=1000)["send"]
        assert [json.loads(text)["t"] for text in sent] == ["room"]
        if identity != BELA:
            host.ok(cmd="online_connection", session=h, up=False, now=1000)
    answer = host.ok(cmd="online_from_guest", session=h, message=join, now=1000)
    assert "refused" not in answer and answer["status"]["identities"] == [ANNA, BELA]
    # Once joined, the seat is that identity's: another browser is refused when it connects, and nothing changes.
    host.ok(cmd="online_connection", session=h, up=False, now=2000)
    session = host.engine.online[h]
    assert isinstance(session, HostSession)
    before = session.saved()
    refused = host.ask(cmd="online_connection", session=h, up=True, identity="someone-else", now=3000)
    assert refused["error"]["code"] == "not_the_player"
    assert host.ask(cmd="online_connection", session=h, up=True, now=3000)["error"]["code"] == "not_the_player"
    assert session.saved() == before and session.peer == ""
    hello = json.dumps({"v": 1, "t": "hello", "n": 2, "last": 0})
    assert "proven" in host.ok(cmd="online_from_guest", session=h, message=hello, now=3000)["refused"]["message"]
    host.ok(cmd="online_connection", session=h, up=True, identity=BELA, now=3000)
    answer = host.ok(cmd="online_from_guest", session=h, message=hello, now=3000)
    assert "refused" not in answer and answer["status"]["guest_away_since"] is None


def test_the_guest_takes_a_game_only_from_the_host_that_proved_its_identity() -> None:
    host = Browser()
    opened = host.ok(cmd="online_host", preset="KLUB20", name="Anna", identity=ANNA, now=1000)
    room = host.ok(cmd="online_connection", session=opened["session"], up=True, identity=BELA, now=1000)["send"][0]
    guest = Browser()
    # A room that names a host other than the browser that proved its identity, or none proven: refused.
    for proven in ("someone-else", None):
        answer = guest.ask(cmd="online_guest_open", message=room, identity=proven, now=1000)
        assert answer["error"]["code"] == "not_the_player", answer
    assert guest.engine.online == {}
    pair = Pair()
    # The identities the guest shows are those it knows, whatever the host's status says.
    status = {**pair.host_answer["status"], "identities": ["forged", "forged"]}
    n = pair.guest.engine.online[pair.g].received + 1  # type: ignore[union-attr]
    text = json.dumps({"v": 1, "t": "status", "n": n, "status": status})
    shown = pair.guest.ok(cmd="online_from_host", session=pair.g, message=text, now=pair.now)
    assert shown["status"]["identities"] == [ANNA, BELA]
    # After a lost connection, only the room's host may go on with the game; a rematch names the same host.
    pair.guest.ok(cmd="online_connection", session=pair.g, up=False, now=pair.now)
    answer = pair.guest.ask(cmd="online_connection", session=pair.g, up=True, identity="someone-else", now=pair.now)
    assert answer["error"]["code"] == "not_the_player"
    pair.connected(guest_too=True)
    forged_room = {**json.loads(room), "n": n + 1, "host": {"name": "Anna", "identity": "someone-else"}}
    answer = pair.guest.ask(cmd="online_from_host", session=pair.g, message=json.dumps(forged_room), now=pair.now)
    assert answer["error"]["code"] == "bad_peer_message" and "another host" in answer["error"]["message"]
