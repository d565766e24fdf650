"""Two pages' sessions of protocol 2: signed links, both referees, the clocks, the chat and the result."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from py_engine.core.cards import CARD_NAMES
from py_engine.core.errors import IllegalActionError
from py_engine.core.rules import PRESETS
from py_engine.fairplay import p256
from py_engine.service.online.messages import CHAT_MAX, PAUSE_MS, RETURN_MS, SHOW_MS, PeerError
from py_engine.service.online.peer import ASK_TICKS, HELLO_EVERY_MS, RATE_BURST, PeerSession

KEYS = [p256.new_key(random.Random(s)) for s in (41, 42)]


class Pages:
    """Two sessions and the texts in flight between them; ``now`` is both pages' clock (ms)."""

    def __init__(self, preset: str = "AT20", seed: int = 1) -> None:
        rng = random.Random(seed)
        identities = (KEYS[0][1], KEYS[1][1])
        self.sessions = [
            PeerSession(s, PRESETS[preset], f"peer {seed}", identities, rng.randbytes(32), self._signer(s, rng))
            for s in (0, 1)
        ]
        self.queues: list[list[str]] = [[], []]  # texts to each seat
        self.now = 1_000
        self.refused: list[dict[str, object]] = []
        self.connected = [True, True]
        self.post(0, self.sessions[0].start(self.now))

    @staticmethod
    def _signer(seat: int, rng: random.Random) -> Callable[[bytes], str]:
        return lambda text: p256.sign(KEYS[seat][0], text, rng)

    def post(self, seat: int, texts: list[str]) -> None:
        if self.connected[seat] and self.connected[1 - seat]:
            self.queues[1 - seat].extend(texts)

    def deliver(self) -> bool:
        moved = False
        for seat in (0, 1):
            while self.queues[seat]:
                answer = self.sessions[seat].receive(self.queues[seat].pop(0), self.now)
                if "refused" in answer:
                    self.refused.append({"seat": seat, **answer["refused"]})  # type: ignore[dict-item]
                self.post(seat, answer["send"])  # type: ignore[arg-type]
                moved = True
        return moved

    def play(
        self, rng: random.Random, moves: int = 100_000, who: tuple[int, ...] = (0, 1), ticks: bool = False
    ) -> None:
        """Moves by either page; ``ticks``: each page's clock ticks between moves (the next pack begun idle)."""
        for _ in range(moves):
            if ticks:
                for seat in (0, 1):
                    self.post(seat, self.sessions[seat].tick(self.now))
            moved = self.deliver()
            for seat in who:
                legal = self.sessions[seat].status()["legal"]
                if legal:
                    self.post(seat, self.sessions[seat].act(rng.choice(legal), self.now))
                    moved = True
                    break
            if not moved:
                return


def tick_for(session: PeerSession, start: int, ms: int) -> list[str]:
    """``ms`` pass from ``start`` on a page that runs: it ticks every second (a longer jump is the page asleep)."""
    sent: list[str] = []
    for at in [*range(start + 1_000, start + ms, 1_000), start + ms]:
        sent += session.tick(at)
    return sent


def send_a_false_card(pages: Pages) -> None:
    """Seat 0's page plays a card it does not hold, with a key that opens nothing: signed, so proven."""
    cheater = pages.sessions[0]
    assert cheater.referee is not None and cheater.referee.match is not None
    deal = len(cheater.referee.match.records) - 1
    cheater._send({"t": "act", "deal": deal, "action": "play:AH", "keys": [[23, "01" + "00" * 31]]})
    pages.post(0, cheater.take())
    pages.deliver()


def test_a_whole_match_ends_in_one_result_both_signed() -> None:
    pages = Pages("DE24", 2)
    pages.play(random.Random(2))
    a, b = pages.sessions
    assert pages.refused == []
    assert a.result is not None and a.result == b.result and a.result["reason"] == "played"
    assert a.transcript.heads == b.transcript.heads
    assert a.referee is not None and b.referee is not None and a.referee.match is not None
    assert b.referee.match is not None and a.referee.match.record() == b.referee.match.record()
    assert a.status()["ending"]["agreed"] and b.status()["ending"]["agreed"]


@pytest.mark.parametrize("quitter", [0, 1])
def test_a_concession_is_signed_by_both(quitter: int) -> None:
    pages = Pages("HU24", 3)
    pages.play(random.Random(3), moves=6)
    pages.post(quitter, pages.sessions[quitter].concede(pages.now))
    pages.deliver()
    pages.deliver()
    for session in pages.sessions:
        assert session.result == {"winner": 1 - quitter, "reason": "conceded", "evidence": {}}


def test_a_page_away_past_the_minute_loses_on_time_and_learns_it_when_back() -> None:
    pages = Pages("AT20", 4)
    pages.play(random.Random(4), moves=5)
    stay, leave = pages.sessions
    saved = leave.to_json()  # the leaving page is closed: what it kept is its last save
    pages.connected[1] = False
    stay.connection(False, pages.now)
    assert tick_for(stay, pages.now, RETURN_MS - 1) == [] and stay.ending is None
    pages.now += RETURN_MS
    stay.tick(pages.now)
    assert stay.ending is not None and stay.ending["winner"] == 0 and stay.ending["reason"] == "time"
    assert stay.result is None  # signed by one seat only, so far
    back = PeerSession.restore(saved, Pages._signer(1, random.Random(3)), now=pages.now + 1)
    pages.sessions[1] = back
    pages.connected[1] = True
    pages.post(1, back.connection(True, pages.now))
    pages.post(0, stay.connection(True, pages.now))
    while pages.deliver():
        pass
    assert stay.result == back.result and stay.result is not None and stay.result["winner"] == 0


def test_a_win_on_time_claimed_by_a_page_that_never_lost_the_other_is_a_cheat() -> None:
    pages = Pages("AT20", 17)
    pages.play(random.Random(17), moves=5)
    claimer, honest = pages.sessions
    claimer._send({"t": "result", "winner": 0, "reason": "time", "evidence": {}})
    pages.post(0, claimer.take())
    pages.deliver()
    assert honest.cheat is not None and honest.cheat.what == "false_result"
    assert honest.ending is not None and honest.ending["winner"] == 1 and honest.result is None


@pytest.mark.parametrize("owed", ["keys", "end"])
def test_a_page_that_stays_but_withholds_what_its_engine_owes_loses_on_time(owed: str) -> None:
    """Connected and silent: the keys of a draw or of the deal's end never come; the minute runs all the same."""
    pages = Pages("AT20", 18)
    rng = random.Random(18)
    staller, honest = pages.sessions
    original = pages.post

    def post(seat: int, texts: list[str]) -> None:
        kept = [t for t in texts if not (seat == 0 and json.loads(t).get("link", {}).get("body", {}).get("t") == owed)]
        original(seat, kept if pages.sessions[1].referee and pages.sessions[1].referee.match else texts)

    pages.post = post  # type: ignore[method-assign]
    pages.play(rng)
    assert honest.ending is None and not honest.status()["playing"]
    assert honest.waiting_since is not None  # counted from the moment the honest page waits
    pages.post(1, tick_for(honest, pages.now, RETURN_MS - 1))
    assert honest.ending is None
    pages.post(1, honest.tick(pages.now + RETURN_MS))
    assert honest.ending is not None and honest.ending["winner"] == 1 and honest.ending["reason"] == "time"
    assert "silent_since" in honest.ending["evidence"]
    # The staller, having read that, claims the win on time for itself: a denial, not a claim.
    pages.post = original  # type: ignore[method-assign]
    pages.now += RETURN_MS + HELLO_EVERY_MS  # (a hello is answered once in a while: the links held back come)
    while pages.deliver():
        pass
    staller._send({"t": "result", "winner": 0, "reason": "time", "evidence": {}})
    pages.post(0, staller.take())
    while pages.deliver():  # (the links it held back come first, asked for by a hello)
        pass
    assert honest.ending["winner"] == 1 and honest.result is None
    assert any(r["seat"] == 1 and "after reading" in str(r["message"]) for r in pages.refused)


def test_two_pages_that_each_saw_the_other_away_record_no_win() -> None:
    pages = Pages("AT20", 5)
    pages.play(random.Random(5), moves=5)
    pages.connected = [False, False]
    for session in pages.sessions:
        session.connection(False, pages.now)
    for session in pages.sessions:
        tick_for(session, pages.now, RETURN_MS)
        assert session.ending is not None and session.ending["winner"] == session.seat
    pages.now += RETURN_MS
    pages.connected = [True, True]
    for seat in (0, 1):
        pages.post(seat, pages.sessions[seat].connection(True, pages.now))
    while pages.deliver():
        pass
    assert all(s.ending is not None and s.ending["winner"] is None for s in pages.sessions)
    assert all(s.ending is not None and s.ending["reason"] == "abandoned" for s in pages.sessions)


def test_chat_is_plain_text_of_at_most_500_characters_refused_in_words_beyond() -> None:
    pages = Pages()
    a, b = pages.sessions
    pages.post(0, a.say({"text": "x" * CHAT_MAX}, pages.now))
    with pytest.raises(PeerError, match="at most 500"):
        a.say({"text": "x" * (CHAT_MAX + 1)}, pages.now)
    pages.post(1, b.say({"text": "a\u202eb"}, pages.now))
    pages.post(1, b.say({"phrase": "good_luck"}, pages.now))
    while pages.deliver():
        pass
    for session in (a, b):  # each page in the order it saw them: its own at once, the other's as they came
        lines = sorted((line["seat"], line.get("text", line.get("phrase"))) for line in session.chat)
        assert lines == [(0, "x" * CHAT_MAX), (1, "ab"), (1, "good_luck")]


def test_a_paused_player_is_stood_in_for_by_its_own_page_after_20_s() -> None:
    pages = Pages("AT20", 6)
    rng = random.Random(6)
    while not pages.sessions[0].status()["legal"]:
        pages.deliver()
        pages.play(rng, moves=1, who=(1,))
    paused = pages.sessions[0]
    pages.post(0, paused.pause(pages.now))
    pages.deliver()
    assert list(pages.sessions[1].status()["paused"]) == ["0"]
    assert paused.tick(pages.now + PAUSE_MS - 1) == []
    pages.now += PAUSE_MS
    sent = paused.tick(pages.now)
    assert any(json.loads(t)["link"]["body"]["t"] == "act" for t in sent)  # the stand-in moved, on this page
    pages.post(0, sent)
    pages.post(0, paused.back(pages.now))
    pages.deliver()
    assert pages.sessions[1].status()["paused"] == {} and pages.refused == []


def test_shown_cards_reach_the_other_page_and_only_those() -> None:
    pages = Pages("HU24", 7)
    shower, watcher = pages.sessions
    while not shower.status()["playing"]:
        assert pages.deliver()
    assert shower.referee is not None and shower.referee.match is not None
    pages.post(0, shower.show_cards(pages.now))
    pages.deliver()
    hand = shower.referee.match.deal.hands[0]
    assert watcher.status()["shown"]["cards"] == [CARD_NAMES[c] for c in range(24) if hand >> c & 1]
    pages.now += SHOW_MS
    watcher.tick(pages.now)
    assert watcher.status()["shown"] is None


def test_a_page_of_version_1_is_told_to_reload() -> None:
    pages = Pages()
    answer = pages.sessions[1].receive(json.dumps({"v": 1, "t": "room", "n": 1}), pages.now)
    assert answer["refused"]["code"] == "other_version" and "reload" in answer["refused"]["message"]


def test_junk_is_dropped_before_it_is_read_and_the_game_goes_on() -> None:
    pages = Pages("AT20", 8)
    target = pages.sessions[1]
    codes = [target.receive("{" * 1000, pages.now)["refused"]["code"] for _ in range(1000)]
    assert codes.count("rate_limited") == 1000 - RATE_BURST
    pages.now += 10_000  # the rate comes back with time
    pages.play(random.Random(8), moves=20)
    assert target.status()["scores"] is not None


def test_a_link_dropped_in_a_flood_is_asked_for_again_at_the_next_tick() -> None:
    """Dropped by the engine's rate or by the page's inbox: either way the page asks, the other resends."""
    for by_page in (False, True):
        pages = Pages("AT20", 18)
        rng = random.Random(18)
        pages.play(rng, moves=3)
        target = pages.sessions[1]
        mover = pages.sessions[0]
        while not mover.status()["legal"]:
            pages.play(rng, moves=1)
            target, mover = mover, target
        while pages.deliver():
            pass
        if not by_page:  # the engine's rate runs out; a page's full inbox drops texts before the engine sees them
            for _ in range(RATE_BURST):
                target.receive("junk", pages.now)
        before = list(target.transcript.counts)
        sent = mover.act(rng.choice(mover.status()["legal"]), pages.now)
        if by_page:
            dropped = len(sent)  # the page's inbox was full: these never reached the engine
        else:
            dropped = 0
            assert all(target.receive(text, pages.now)["refused"]["code"] == "rate_limited" for text in sent)
        assert target.transcript.counts == before
        pages.now += 1_000
        asked = target.tick(pages.now, dropped)
        assert [json.loads(text).get("hello") for text in asked] == [list(before)]
        pages.post(target.seat, asked)
        while pages.deliver():
            pass
        assert (
            target.transcript.counts[mover.seat]
            == before[mover.seat] + len(sent)
            == mover.transcript.counts[mover.seat]
        )
        # It asks again for a while (a hello may be left unanswered, or its answer dropped too), then stops.
        asking = [target.tick(pages.now + 1_000 * i) for i in range(1, ASK_TICKS + 1)]
        assert [len(sent) for sent in asking] == [1] * (ASK_TICKS - 1) + [0]
        pages.now += 1_000 * ASK_TICKS
    # Dropped again later: asked for again, and sent again.
    while not mover.status()["legal"]:
        pages.play(rng, moves=1, who=(target.seat,))
    while pages.deliver():
        pass
    pages.now += 1_000  # where the tick above left the target's clock
    for _ in range(RATE_BURST):
        target.receive("junk", pages.now)
    before = list(target.transcript.counts)
    sent = mover.act(rng.choice(mover.status()["legal"]), pages.now)
    assert all(target.receive(text, pages.now)["refused"]["code"] == "rate_limited" for text in sent)
    pages.now += 1_000
    pages.post(target.seat, target.tick(pages.now))
    while pages.deliver():
        pass
    assert target.transcript.counts[mover.seat] == mover.transcript.counts[mover.seat] >= before[mover.seat] + len(sent)


def test_a_proven_cheat_ends_the_match_for_the_cheater_with_its_evidence() -> None:
    pages = Pages("AT20", 9)
    pages.play(random.Random(9), moves=4)
    honest = pages.sessions[1]
    send_a_false_card(pages)
    assert honest.cheat is not None and honest.cheat.by == 0
    assert honest.ending is not None and honest.ending["winner"] == 1 and honest.ending["reason"] == "cheat"
    assert honest.result is None  # one-sided: the cheater did not sign its loss


@pytest.mark.parametrize("ticks", [False, True])
def test_a_reloaded_page_rebuilds_its_game_from_its_secret_and_the_transcript(ticks: bool) -> None:
    pages = Pages("HU24", 10)
    rng = random.Random(10)
    pages.play(rng, moves=40, ticks=ticks)
    shuffled_idle = [link for link in pages.sessions[1].transcript.links if link.body.get("t") == "shuffle"]
    assert len(shuffled_idle) >= 2
    pages.post(1, pages.sessions[1].say({"text": "brb"}, pages.now))
    pages.deliver()
    saved = json.loads(json.dumps(pages.sessions[1].to_json()))
    signer = Pages._signer(1, random.Random(11))
    reloaded = PeerSession.restore(saved, signer)
    before = pages.sessions[1]
    assert reloaded.transcript.heads == before.transcript.heads
    assert reloaded.referee is not None and before.referee is not None
    assert reloaded.referee.match is not None and before.referee.match is not None
    assert reloaded.referee.match.record() == before.referee.match.record()
    assert reloaded.status() == before.status()
    # The reloaded page goes on with the other as if nothing happened.
    pages.sessions[1] = reloaded
    pages.post(1, reloaded.connection(True, pages.now))
    pages.post(0, pages.sessions[0].connection(True, pages.now))
    pages.play(rng)
    assert pages.sessions[0].result is not None and pages.sessions[0].result == reloaded.result
    assert [r for r in pages.refused if r["code"] not in ("repeated",)] == []


def test_a_damaged_saved_game_is_refused_in_words() -> None:
    pages = Pages("AT20", 12)
    pages.play(random.Random(12), moves=10)
    saved = pages.sessions[0].to_json()
    signer = Pages._signer(0, random.Random(1))
    damaged = [
        None,
        {**saved, "format": "x"},
        {**saved, "secret": "zz"},
        {**saved, "secret": "00" * 32},  # another secret: its own messages are not made again
        {**saved, "now": "x"},
        {**saved, "away_since": saved["now"] + 1},
        {**saved, "paused": [[0]]},
        {**saved, "seat": 1},
        {k: v for k, v in saved.items() if k != "rules"},
    ]
    links = saved["transcript"]["links"]
    edited = json.loads(json.dumps(saved))
    edited["transcript"]["links"][-1]["body"]["t"] = "chat"
    damaged.append(edited)
    assert links
    for bad in damaged:
        with pytest.raises(PeerError):
            PeerSession.restore(bad, signer)


def test_a_game_ended_by_a_cheat_or_on_time_reloads_as_it_ended() -> None:
    pages = Pages("AT20", 13)
    pages.play(random.Random(13), moves=4)
    honest = pages.sessions[1]
    send_a_false_card(pages)
    assert honest.ending is not None and honest.ending["reason"] == "cheat"
    again = PeerSession.restore(honest.to_json(), Pages._signer(1, random.Random(2)))
    assert again.ending == honest.ending and again.status()["cheat"] == honest.status()["cheat"]
    pages = Pages("AT20", 14)
    pages.play(random.Random(14), moves=4)
    pages.sessions[0].connection(False, pages.now)
    tick_for(pages.sessions[0], pages.now, RETURN_MS)
    again = PeerSession.restore(pages.sessions[0].to_json(), Pages._signer(0, random.Random(2)))
    assert again.ending == pages.sessions[0].ending and again.ending is not None


def test_a_report_replays_for_anyone_and_an_edited_one_does_not() -> None:
    from py_engine.service.online.report import describe, verdict

    pages = Pages("AT20", 15)
    pages.play(random.Random(15), moves=30)
    cheater, honest = pages.sessions
    send_a_false_card(pages)
    report = json.loads(json.dumps(honest.report()))
    found = verdict(report)
    assert found["ok"] and found["cheat"]["by"] == 0 and found["ending"]["winner"] == 1
    assert found["deals_verified"] == honest.referee.verified if honest.referee else False
    assert any("Cheat proven against seat 0" in line for line in describe(found))
    # The cheater's own report of the same game does not check out: its own messages are not an engine's.
    assert not verdict(json.loads(json.dumps(cheater.report())))["ok"]
    # Edited: a word of the chat in a signed link, or the score.
    edited = json.loads(json.dumps(report))
    edited["game"]["transcript"]["links"][0]["body"]["t"] = "chat"
    assert not verdict(edited)["ok"]
    assert not verdict({"format": "x"})["ok"]


def test_a_rematch_is_asked_by_both_once_the_match_is_over() -> None:
    pages = Pages("AT20", 16)
    a, b = pages.sessions
    with pytest.raises(Exception, match="still being played"):
        a.rematch(pages.now)
    pages.post(1, b.concede(pages.now))
    while pages.deliver():
        pass
    pages.post(0, a.rematch(pages.now))
    pages.post(1, b.rematch(pages.now))
    while pages.deliver():
        pass
    assert a.status()["rematch"] == b.status()["rematch"] == [0, 1]


def _junk(rng: random.Random, depth: int = 0) -> object:
    """A random JSON value (no floats), sometimes shaped like the game's own fields."""
    kind = rng.randrange(8 if depth < 3 else 4)
    if kind == 0:
        return rng.choice([0, 1, -1, 2**70, 23, True, None])
    if kind == 1:
        return rng.choice(["", "play:AH", "x" * 70, "\ud800", "00" * 32, "zz" * 32, "close"])
    if kind == 2:
        return rng.randrange(-3, 30)
    if kind == 3:
        return rng.choice([[], [[0, "00" * 32]], [[1.5 if False else 3, "ff" * 32]], ["00" * 32] * 20])
    if kind in (4, 5):
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["t", "deal", "list", "keys", "action", "winner", "reason", "evidence", "text"]): _junk(
            rng, depth + 1
        )
        for _ in range(rng.randrange(5))
    }


def test_whatever_a_signed_link_says_the_engine_answers_in_words() -> None:
    """Signed junk of every shape (a modified page) is refused, never an exception; the first proven one ends it."""
    rng = random.Random(77)
    for round_ in range(3):
        pages = Pages("AT20", 30 + round_)
        pages.play(rng, moves=8)
        while pages.deliver():
            pass
        cheater, honest = pages.sessions
        for _ in range(60):
            body = _junk(rng)
            if isinstance(body, dict):
                body.setdefault("t", rng.choice(["shuffle", "keys", "act", "end", "show", "coin", "result", "chat"]))
                body.setdefault("deal", rng.randrange(3))
            else:
                body = {"t": "act", "action": body}
            cheater._send(body)  # type: ignore[arg-type]
            pages.now += 200  # (not a flood: the rate limit is not what this test is about)
            for text in cheater.take():
                answer = honest.receive(text, pages.now)
                assert isinstance(answer, dict) and isinstance(answer.get("send"), list)
        assert honest.ending is not None and honest.ending["reason"] == "cheat" and honest.ending["winner"] == 1
        again = PeerSession.restore(honest.to_json(), Pages._signer(1, random.Random(1)))
        assert again.ending == honest.ending


def test_a_resync_after_fifty_long_chat_lines_fits_the_channel_link_by_link() -> None:
    """Protocol 1 resent its whole state in one message (181 KB with 50 lines of 500 'á'); protocol 2 resends
    links, each a message of its own, each far below the channel's 64 KiB."""
    pages = Pages("AT20", 19)
    pages.play(random.Random(19), moves=6)
    talker, listener = pages.sessions
    pages.connected[1] = False
    for _ in range(50):
        pages.now += 250
        talker.say({"text": "á" * CHAT_MAX}, pages.now)  # the listener is away: nothing reaches it
    pages.connected[1] = True
    pages.now += 10_000
    resent = talker.receive(
        json.dumps({"v": 2, "m": talker.match_id, "hello": list(listener.transcript.counts)}), pages.now
    )["send"]
    assert len(resent) >= 50 and max(len(text.encode()) for text in resent) < 8 * 1024
    for text in resent:
        pages.now += 100
        assert "refused" not in listener.receive(text, pages.now)
    assert sum(1 for line in listener.chat if line["seat"] == 0) >= 50


def test_a_voice_call_is_on_once_both_want_it_and_ends_with_the_connection_or_a_reload() -> None:
    pages = Pages("AT20", 23)
    pages.play(random.Random(23), moves=4)
    asker, answerer = pages.sessions
    with pytest.raises(IllegalActionError):
        asker.voice_step("accept", pages.now)  # nobody asked: refused, nothing sent
    pages.post(0, asker.voice_step("ask", pages.now))
    pages.deliver()
    assert answerer.status()["voice"]["asked"] == 0 and not answerer.status()["voice"]["on"]
    pages.post(1, answerer.voice_step("accept", pages.now))
    pages.deliver()
    assert asker.status()["voice"]["on"] and answerer.status()["voice"]["on"]
    assert asker.status()["voice"]["call"] == answerer.status()["voice"]["call"] == 1
    pages.post(0, asker.voice_step("mute", pages.now))
    pages.deliver()
    assert answerer.status()["voice"]["muted"] == [0]
    reloaded = PeerSession.restore(asker.to_json(), asker._sign, now=pages.now)
    assert not reloaded.status()["voice"]["on"] and reloaded.transcript.heads == asker.transcript.heads
    answerer.connection(False, pages.now)
    assert answerer.status()["voice"]["last"] == {"by": 0, "why": "lost"} and pages.refused == []


def test_a_page_that_was_asleep_counts_that_time_as_its_own_absence_never_the_others() -> None:
    """A phone locked for two minutes: its page wakes, its clock jumped. It must not claim a win on time for
    the minute it slept through; and it signs the other's claim, having been away itself."""
    pages = Pages("AT20", 24)
    pages.play(random.Random(24), moves=5)
    awake, sleeper = pages.sessions
    pages.connected = [False, False]
    for session in pages.sessions:
        session.connection(False, pages.now)
    tick_for(awake, pages.now, RETURN_MS)
    assert awake.ending is not None and awake.ending["winner"] == 0
    pages.now += 2 * RETURN_MS
    sleeper.tick(pages.now)  # woken: a jump of two minutes
    assert sleeper.ending is None and sleeper.outage >= 2 * RETURN_MS
    pages.connected = [True, True]
    for seat in (0, 1):
        pages.post(seat, pages.sessions[seat].connection(True, pages.now))
    while pages.deliver():
        pass
    assert awake.result is not None and awake.result == sleeper.result and awake.result["winner"] == 0
