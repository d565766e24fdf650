"""One page's side of an online game in protocol 2: no referee, a signed transcript, each clock its own.

Both pages run the same :class:`PeerSession`. It keeps the signed
transcript of both seats (:mod:`py_engine.fairplay.transcript`), and a
:class:`~.referee.Referee` that holds only this seat's cards and checks
every move of the other. What crosses the channel is ``{"v": 2, "link":
...}``: a signed link of the transcript, whose message (``body``) is one of

* ``coin``: who deals first, by commitment (seat 0 commits to a secret,
  seat 1 answers with its own, seat 0 reveals);
* the referee's ``shuffle``, ``keys``, ``act``, ``end`` and ``show`` (a hand
  shown for :data:`SHOW_MS`: its keys, released to the other);
* ``chat``, ``pause``, ``back``; ``result`` (the match's end as this seat
  signs it: played out, conceded, lost on time or by a proven cheat);
  ``rematch``.

``{"v": 2, "hello": [n0, n1]}`` (unsigned: it only asks) says how many links
of each seat this side holds; the other sends what is missing, from its
chain. Nothing the other page says about the game is taken on its word:
each link is checked, in order, by the transcript and then the referee.

Time is this page's clock only (``now``, ms): the other's absence past
:data:`RETURN_MS` is a win on time here, signed by this seat alone until the
other, back, signs it too; a pause runs for :data:`PAUSE_MS` on the paused
page, whose own engine then plays its seat (level 3, from that seat's
knowledge only) until its player is back.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ...core.actions import action_name, parse_action
from ...core.cards import CARD_NAMES, cards_of
from ...core.errors import EngineError, IllegalActionError
from ...core.rules import Rules, rules_from_dict
from ...fairplay import p256
from ...fairplay.pack import Cheat
from ...fairplay.source import new_secret
from ...fairplay.transcript import ChainError, Link, Transcript, signing_text
from ..json_text import plain_text
from ..lobby.certificate import certificate_of
from .messages import (
    CHAT_KEPT,
    NAME_MAX,
    PAUSE_MS,
    RETURN_MS,
    SHOW_MS,
    PeerError,
    chat_line,
    check_now,
    is_time,
    json_object,
)
from .referee import Referee
from .voice import Voice

if TYPE_CHECKING:
    from ..contract import PeerRoom, PeerStatus, View

VERSION = 2
#: A report: the reporting page's saved game (its secret for this match included) and the chat.
REPORT_FORMAT = "sixty-six/report-2"
#: The longest text one message may be (a shuffle step of 24 cards is about 2 KB).
MESSAGE_MAX = 16_384
#: Messages from the other page: a burst, then a rate; more are dropped before anything is read.
RATE_BURST = 60
RATE_PER_S = 10.0
#: The level of the computer that stands in for a paused player, on that player's own page.
STAND_IN_LEVEL = 3
#: A page's clock that jumps by more than this between two calls was not running (the page ticks every second).
ASLEEP_MS = 5_000
#: After texts were dropped, the page asks the other for what it lacks at this many ticks (one a second).
ASK_TICKS = 10
#: A hello is answered (the links the other lacks sent again) at most this often.
HELLO_EVERY_MS = 5_000


class VersionError(PeerError):
    code = "other_version"


class PeerSession:
    """One page's side of an online game: the transcript, the referee, the clock, the chat, the result."""

    def __init__(
        self,
        seat: int,
        rules: Rules,
        match_id: str,
        identities: tuple[str, str],
        secret: bytes,
        sign: Callable[[bytes], str],
        verify: Callable[[str, bytes, str], bool] = p256.verify,
        name: str = "",
        rating: int | None = None,
    ) -> None:
        self.seat = seat
        self.other = 1 - seat
        self.rules = rules
        self.match_id = match_id
        self._secret = secret
        self._sign = sign
        self._verify = verify
        self.transcript = Transcript(match_id, seat, identities, verify)
        self.referee: Referee | None = None
        self._coin: dict[str, str] = {}
        self.chat: list[dict[str, Any]] = []
        #: The other's shown cards and until when; the seats paused and until when.
        self.shown: tuple[list[int], int] | None = None
        self.paused: dict[int, int] = {}
        #: When the channel to the other was lost (None while it is up), and how long the last loss lasted.
        self.away_since: int | None = None
        self.outage = 0
        #: Since when this page has waited for a message the other's engine owes at once (keys, a shuffle step).
        self.waiting_since: int | None = None
        self._hello_at = -HELLO_EVERY_MS
        #: How the match ended, as this seat signed it; None while it goes on.
        self.ending: dict[str, Any] | None = None
        self.cheat: Cheat | ChainError | None = None
        #: The other page's claim that this one cheated (never signed here), as it said it.
        self.accused: dict[str, str] | None = None
        self.now = 0
        self._tokens = float(RATE_BURST)
        self._tokens_at = 0
        #: Ticks left to ask the other for what this page may lack (texts of it were dropped unread, or a link came
        #: ahead of one lost): a hello may come while the other answers none, or its answer be dropped too.
        self._asking = 0
        self._outbox: list[str] = []
        self._replaying: list[Link] | None = None
        self.rematch_asked: set[int] = set()
        #: The players' names, as each signed its own in the coin's messages (None until known).
        self.names: list[str | None] = [None, None]
        self.names[seat] = plain_text(name, NAME_MAX)
        #: This player's online rating as its page claims it in the coin (signed, so a result carries it).
        self.rating = rating
        #: The rematch, once both asked for it (a new session, a new transcript), and the match before it.
        self.successor: PeerSession | None = None
        self.previous: PeerSession | None = None
        #: This page's clock at its last save (the protocol layer's: peer_commands).
        self.saved_at = 0
        #: The match, its number of events and this seat's view when last shown (frames start there).
        self.last_drawn: tuple[Any, int, View] | None = None
        #: The consent to a voice call (the sound itself never passes through an engine); a reload ends a call.
        self.voice = Voice()

    # ---------------------------------------------------------------- sending

    def _send(self, body: dict[str, Any]) -> None:
        draft = self.transcript.draft(body)
        if self._replaying is not None:  # rebuilding after a reload: the link was signed and sent before
            if not self._replaying or self._replaying[0].body != body:
                raise PeerError("the saved game does not replay: its own messages differ from what it makes again")
            self.transcript.signed(draft, self._replaying.pop(0).sig)
            return
        link = self.transcript.signed(draft, self._sign(signing_text(draft.digest(self.match_id))))
        self._post({"link": link.to_json()})

    def _post(self, message: dict[str, Any]) -> None:
        self._outbox.append(json.dumps({"v": VERSION, "m": self.match_id, **message}, separators=(",", ":")))

    def _send_all(self, bodies: list[dict[str, Any]]) -> None:
        for body in bodies:
            self._send(body)

    def take(self) -> list[str]:
        """The texts to send to the other page now, in order."""
        out, self._outbox = self._outbox, []
        return out

    # ---------------------------------------------------------------- start and coin

    def start(self, now: int) -> list[str]:
        """The first message of the game: seat 0 commits to its half of the coin that picks the first dealer,
        dated ``now`` (a signed result, :mod:`..lobby.certificate`, is as old as its coin)."""
        return self._open(now, now)

    def _open(self, now: int, at: int | None) -> list[str]:
        """:meth:`start`, dated ``at`` (None: undated, as in a game saved before the coin was dated)."""
        self._clock(now)
        if self.seat == 0 and not self._coin:
            self._coin["mine"] = self._secret_hex("coin")
            commit = _digest(self._coin["mine"])
            body = {"t": "coin", "commit": commit, "rules": self.rules.to_dict(), "name": self.names[0]}
            self._send({**body, **({} if at is None else {"at": at}), **self._claim()})
        return self.take()

    def _claim(self) -> dict[str, int]:
        return {} if self.rating is None else {"rating": self.rating}

    def _secret_hex(self, label: str) -> str:
        return _digest(self._secret.hex() + "\n" + self.match_id + "\n" + label)

    def _on_coin(self, body: dict[str, Any]) -> None:
        if self.referee is not None:
            raise PeerError("the coin is already cast")
        if self.seat == 1 and "commit" in body and "commit" not in self._coin:
            if body.get("rules") != self.rules.to_dict():
                raise PeerError("the room's rules are not the ones this player agreed to")
            if "at" in body and not is_time(body["at"]):
                raise PeerError("the coin's date is not a time")
            self._coin["commit"] = _hex64(body["commit"])
            self.names[0] = _name(body)
            self._coin["mine"] = self._secret_hex("coin")
            self._send({"t": "coin", "value": self._coin["mine"], "name": self.names[1], **self._claim()})
        elif self.seat == 0 and "value" in body and "theirs" not in self._coin:
            self._coin["theirs"] = _hex64(body["value"])
            self.names[1] = _name(body)
            self._send({"t": "coin", "reveal": self._coin["mine"]})
            self._begin(self._coin["mine"], self._coin["theirs"])
        elif self.seat == 1 and "reveal" in body and "commit" in self._coin:
            reveal = _hex64(body["reveal"])
            if _digest(reveal) != self._coin["commit"]:
                raise Cheat(self.other, "bad_coin", "the coin's reveal is not what was committed")
            self._begin(reveal, self._coin["mine"])
        else:
            raise PeerError("a coin message out of its turn")

    def _begin(self, first: str, second: str) -> None:
        dealer = int(_digest(first + second), 16) & 1
        self.referee = Referee(self.seat, self.rules, self.match_id, dealer, self._secret)
        self._send_all(self.referee.start())

    # ---------------------------------------------------------------- the other's messages

    def receive(self, text: Any, now: int) -> dict[str, Any]:
        """A text from the other page: ``{"send": [...], "accepted": n}`` or ``{"refused": ..., "send": [...]}``."""
        self._clock(now)
        if not self._spend_token():
            self._asking = ASK_TICKS
            return {"refused": {"code": "rate_limited", "message": "too many messages: dropped"}, "send": []}
        try:
            message = _envelope(text)
            if message["m"] != self.match_id:
                if self.previous is not None and message["m"] == self.previous.match_id:
                    return self.previous.receive(text, now)  # the match before a rematch: its late links, its hello
                raise PeerError("a message of another match")
            if "hello" in message:
                self._on_hello(message["hello"])
                return {"send": self.take(), "accepted": 0}
            link = self.transcript.accept(message["link"])
            self._back()
        except ChainError as e:
            if e.what == "missing":  # links lost with a connection or a flood: ask for them again
                self._post({"hello": list(self.transcript.counts)})
                self._asking = ASK_TICKS
            return self._refused(e)
        except EngineError as e:
            return self._refused(e)
        refused = self._take(link)
        self._watch()
        return refused if refused is not None else {"send": self.take(), "accepted": 1}

    def _take(self, link: Link) -> dict[str, Any] | None:
        """Act on the other's accepted link; what an honest engine never sends proves a cheat (the link is kept
        in the transcript as its evidence)."""
        try:
            self._on_body(link.body, link)
        except (Cheat, EngineError) as e:
            return self._refused(e if isinstance(e, Cheat) else Cheat(self.other, "malformed", str(e)), link)
        return None

    def _refused(self, error: ChainError | EngineError | Cheat, link: Link | None = None) -> dict[str, Any]:
        proven = isinstance(error, Cheat) or (isinstance(error, ChainError) and error.by == self.other)
        if proven and self.ending is None:
            assert isinstance(error, Cheat | ChainError)
            self.cheat = error
            what = error.what
            evidence = {"what": what, "detail": error.detail, "link": None if link is None else link.n}
            self._end(self.seat, "cheat", evidence)
        code = "cheat" if proven else error.what if isinstance(error, ChainError) else getattr(error, "code", "refused")
        return {"refused": {"code": code, "message": str(error)}, "send": self.take()}

    def _on_hello(self, counts: Any) -> None:
        if not (isinstance(counts, list) and len(counts) == 2 and all(type(c) is int and c >= 0 for c in counts)):
            raise PeerError("a hello names how many links of each seat it holds")
        if self.now - self._hello_at < HELLO_EVERY_MS:
            return  # answered a moment ago: a stream of hellos would make this page resend its chain again and again
        self._hello_at = self.now
        for link in self.transcript.since(self.seat, counts[self.seat]):
            self._post({"link": link.to_json()})

    def hello(self, now: int) -> list[str]:
        """After (re)connecting: ask the other for the links this page lacks."""
        self._clock(now)
        self._back()
        self._post({"hello": list(self.transcript.counts)})
        return self.take()

    def _on_body(self, body: dict[str, Any], link: Link | None = None) -> None:
        kind = body.get("t")
        if self.ending is not None and kind in ("coin", "shuffle", "keys", "act", "end", "show"):
            return  # the match is over here: a game message the other wrote before it learned so is kept, unread
        if kind == "coin":
            self._on_coin(body)
        elif kind in ("shuffle", "keys", "act", "end", "show"):
            if self.referee is None:
                raise PeerError("a game message before the coin")
            out = self.referee.receive(body)
            if kind == "show":
                self.shown = (self.referee.shown_by_other, self.now + SHOW_MS)
            self._send_all(out)
            self._after_move()
        elif kind == "chat":
            self._keep_chat(self.other, chat_line(body))
        elif kind == "voice":
            # A step that crossed one of this side's (or a call already lost here) is no game matter: left aside.
            with contextlib.suppress(EngineError):
                self.voice.step(self.other, body.get("do"))
        elif kind == "pause":
            self.paused[self.other] = self.now + PAUSE_MS
        elif kind == "back":
            self.paused.pop(self.other, None)
        elif kind == "result":
            self._on_result(body, link)
        elif kind == "rematch":
            if self.ending is None:
                raise PeerError("a rematch asked while the match is played")
            self.rematch_asked.add(self.other)
            self._succeed()
        else:
            raise PeerError(f"an unknown message {kind!r}")

    # ---------------------------------------------------------------- this seat's intentions

    def act(self, action: Any, now: int) -> list[str]:
        """This seat's move (an action text); refused in words if the rules or the moment do not allow it."""
        self._clock(now)
        if self.referee is None or self.ending is not None:
            raise IllegalActionError("no move is possible now")
        try:
            chosen = parse_action(action)
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        self._send_all(self.referee.act(chosen))
        self._after_move()
        self._watch()
        return self.take()

    def say(self, line: dict[str, Any], now: int) -> list[str]:
        """A chat line (``{"text"}`` of at most 500 characters, refused in words if longer, or ``{"phrase"}``)."""
        self._clock(now)
        content = chat_line(line)
        self._keep_chat(self.seat, content)
        self._send({"t": "chat", **content})
        return self.take()

    def show_cards(self, now: int) -> list[str]:
        """Show this seat's hand to the other for 10 s: its keys go to the other."""
        self._clock(now)
        if self.referee is None or not self.referee.playing:
            raise IllegalActionError("there is no hand to show now")
        self._send_all(self.referee.show_hand())
        return self.take()

    def voice_step(self, what: Any, now: int) -> list[str]:
        """This seat asks for, accepts, declines, mutes or ends a voice call (voice.Voice.step)."""
        self._clock(now)
        self.voice.step(self.seat, what)
        self._send({"t": "voice", "do": what})
        return self.take()

    def pause(self, now: int) -> list[str]:
        self._clock(now)
        self.paused[self.seat] = self.now + PAUSE_MS
        self._send({"t": "pause"})
        return self.take()

    def back(self, now: int) -> list[str]:
        self._clock(now)
        self.paused.pop(self.seat, None)
        self._send({"t": "back"})
        return self.take()

    def concede(self, now: int) -> list[str]:
        """Give up the match: the other wins it, and both sign that."""
        self._clock(now)
        if self.ending is None:
            self._end(self.other, "conceded", {})
        return self.take()

    # ---------------------------------------------------------------- the clock

    def connection(self, up: bool, now: int) -> list[str]:
        """The channel to the other page opened or was lost."""
        self._clock(now)
        if up:
            return self.hello(now)
        if self.away_since is None:
            self.away_since = self.now
        self.voice.lost(self.other)
        return self.take()

    def _back(self) -> None:
        """The other is heard from again: how long it was away is kept (a claim of a win on time is judged by it)."""
        if self.away_since is not None:
            self.outage = max(self.outage, self.now - self.away_since)
        self.away_since = None

    def _watch(self) -> None:
        """Start (or stop) counting the other's silence: from the moment this page waits for what it owes."""
        if self._owed() and self.away_since is None:
            if self.waiting_since is None:
                self.waiting_since = self.now
        else:
            self.waiting_since = None

    def _owed(self) -> bool:
        """This page waits for a message the other's engine sends at once (never for a player's decision)."""
        r = self.referee
        return self.ending is None and (r is None or not r.playing)

    def tick(self, now: int, dropped: int = 0) -> list[str]:
        """Time passes on this page: the other's absence or silence, this seat's pause (the computer takes over).

        The other is away when the channel is lost, and silent when its engine owes a message (a key, a
        shuffle step, the deal's keys at its end, the coin) and sends none: after RETURN_MS of either, by
        this page's clock, this page signs a win on time. ``dropped``: texts the page dropped unread since
        its last tick (a flood); a link among them, or among those this engine dropped, is asked for again.
        """
        self._clock(now)
        self._watch()
        if dropped:
            self._asking = ASK_TICKS
        if self._asking:
            self._asking -= 1
            self._post({"hello": list(self.transcript.counts)})
        if self.ending is None:
            for since, what in ((self.away_since, "away_since"), (self.waiting_since, "silent_since")):
                if since is not None and self.now - since >= RETURN_MS:
                    self._end(self.seat, "time", {what: since, "now": self.now})
                    break
        if self.shown is not None and self.now >= self.shown[1]:
            self.shown = None
        if self.referee is not None and self.ending is None:
            self._send_all(self.referee.prepare_next())
        until = self.paused.get(self.seat)
        r = self.referee
        if until is not None and self.now >= until and r is not None and r.playing and self.ending is None:
            assert r.match is not None
            if r.match.legal(self.seat) and (r.match.deal.to_act == self.seat or r.match.deal.windows >> self.seat & 1):
                from ... import ai  # the stand-in's search, imported on first use

                decision = ai.choose(r.match, self.seat, ai.Request(level=STAND_IN_LEVEL))
                self._send_all(r.act(decision.action))
                self._after_move()
        return self.take()

    def _clock(self, now: Any) -> None:
        """Time passes on this page. A jump of more than ASLEEP_MS between two calls (the page ticks every second
        while it runs) means this page was not running: closed, asleep, or its tab throttled. That time is its own
        absence, as a closed page's is: it never counts as the other's."""
        now = check_now(now)
        gap = now - self.now
        if self.now and gap > ASLEEP_MS:
            self.outage = max(self.outage, gap)
            if self.away_since is not None:
                self.away_since += gap
            if self.waiting_since is not None:
                self.waiting_since += gap
        self.now = max(self.now, now)

    def _spend_token(self) -> bool:
        self._tokens = min(RATE_BURST, self._tokens + (self.now - self._tokens_at) * RATE_PER_S / 1000)
        self._tokens_at = self.now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    # ---------------------------------------------------------------- the end

    def _after_move(self) -> None:
        r = self.referee
        if r is None or r.match is None or self.ending is not None:
            return
        m = r.match
        if m.finished and m.deal.over and not r.pending_audit():
            winner = m.bummerls[-1].winner if m.bummerls else None
            self._end(winner, "played", {"scores": list(m.scores)})

    def _end(self, winner: int | None, reason: str, evidence: dict[str, Any]) -> None:
        self._send({"t": "result", "winner": winner, "reason": reason, "evidence": evidence})
        # ``link``: the number of this seat's result link (a later claim by the other must not have read it).
        link = self.transcript.counts[self.seat]
        self.ending = {"winner": winner, "reason": reason, "evidence": evidence, "agreed": False, "link": link}
        self._agreement()

    def _on_result(self, body: dict[str, Any], link: Link | None) -> None:
        winner, reason, evidence = body.get("winner"), body.get("reason"), body.get("evidence")
        if (
            reason not in ("played", "conceded", "time", "cheat", "abandoned")
            or not (winner is None or (type(winner) is int and winner in (0, 1)))
            or not isinstance(evidence, dict)
        ):
            raise PeerError("a result that is not one")
        mine = self.ending
        if mine is None:
            if reason == "conceded" and winner == self.seat:
                self._end(self.seat, "conceded", {})
            elif reason == "time" and winner == self.other:
                # Signed only by a page that was away that long itself (its channel lost, or the page closed).
                if self.outage < RETURN_MS and (self.away_since is None or self.now - self.away_since < RETURN_MS):
                    raise Cheat(self.other, "false_result", "a win on time claimed while this page was here")
                if not all(type(v) is int for v in evidence.values()):
                    raise PeerError("a result that is not one")
                self._end(self.other, "time", evidence)
            elif reason == "played":
                raise Cheat(self.other, "false_result", "a result of a match that is not over here")
            elif reason == "cheat" and winner == self.other:
                # Not signed: this seat's moves were checked before they left. Its player is told what is claimed.
                self.accused = {"what": str(evidence.get("what", "")), "detail": str(evidence.get("detail", ""))}
        elif mine["reason"] == "time" and reason == "time" and winner == self.other and mine["winner"] == self.seat:
            # Two claims of a win on time. One written after reading the other's is no claim but a denial:
            # refused. Claims that crossed (each page saw the other gone) leave the match to nobody.
            assert link is not None
            if self.transcript.seen_by_other(link) >= mine["link"]:
                raise Cheat(self.other, "false_result", "a win on time claimed after reading this page's own")
            self._end(None, "abandoned", {})
        elif reason == "played" and mine["reason"] == "played" and winner != mine["winner"]:
            raise Cheat(self.other, "false_result", "a result other than the one both engines computed")
        self._agreement()

    def _agreement(self) -> None:
        agreed = self.transcript.result()
        if self.ending is not None and agreed is not None:
            self.ending["agreed"] = True

    @property
    def result(self) -> dict[str, Any] | None:
        """The match's result, as both seats signed it; None until they both have."""
        return self.transcript.result()

    def _keep_chat(self, seat: int, content: dict[str, Any]) -> None:
        self.chat.append({"seat": seat, **content, "at": self.now})
        del self.chat[:-CHAT_KEPT]

    # ---------------------------------------------------------------- status

    def status(self) -> PeerStatus:
        r = self.referee
        m = None if r is None else r.match
        # The ending, the result and the accusation are the session's own JSON (written by _end and the
        # messages it checked); the contract names their shapes.
        status = {
            "seat": self.seat,
            "playing": bool(r and r.playing),
            "legal": []
            if m is None or r is None or not r.playing or self.ending is not None
            else [action_name(a) for a in m.legal(self.seat)],
            "scores": None if m is None else list(m.scores),
            "now": self.now,
            "joined": self.names[1] is not None,
            "away": self.away_since is not None,
            "away_since": self.away_since,
            "paused": {str(seat): until for seat, until in sorted(self.paused.items())},
            "stand_in": [seat for seat, until in sorted(self.paused.items()) if until <= self.now],
            "voice": self.voice.status(),
            "shown": None if self.shown is None else {"cards": self.shown_cards(), "until": self.shown[1]},
            "ending": self.ending,
            "result": self.result,
            "certificate": certificate_of(self.transcript),
            "cheat": None if self.cheat is None else {"by": self.cheat.by, "what": self.cheat.what},
            "accused": self.accused,
            "identities": list(self.transcript.identities),
            "rematch": sorted(self.rematch_asked),
            "names": list(self.names),
            "match": self.match_id,
        }
        return cast("PeerStatus", status)

    def shown_cards(self) -> list[str]:
        """The other's shown cards it still holds (the ones played since are on the table)."""
        r = self.referee
        if self.shown is None or r is None or r.match is None:
            return []
        held = set(cards_of(r.match.deal.hands[self.other]))
        return [CARD_NAMES[c] for c in self.shown[0] if c in held]

    def report(self) -> dict[str, Any]:
        """What "Report" saves: this page's game, with its secret for this match, so anyone can replay it
        (``python -m lab.verify_match``). The secret opens this match's deals only."""
        return {"format": REPORT_FORMAT, "game": self.to_json(), "chat": list(self.chat)}

    def rematch(self, now: int) -> list[str]:
        """Ask for a new match from 0:0 once this one is over; both asking starts it (a new session)."""
        self._clock(now)
        if self.ending is None:
            raise IllegalActionError("the match is still being played")
        if self.seat not in self.rematch_asked:
            self.rematch_asked.add(self.seat)
            self._send({"t": "rematch"})
            self._succeed()
        return self.take()

    def _succeed(self) -> None:
        """Both asked for a rematch: the next match, from 0:0, in a session of its own (a new transcript, a new
        secret); its id follows from this one's, so both pages make the same."""
        if self.rematch_asked != {0, 1} or self.successor is not None or self._replaying is not None:
            return
        identities = self.transcript.identities
        following = PeerSession(
            self.seat,
            self.rules,
            _digest(self.match_id + "\nrematch"),
            identities,
            new_secret(),
            self._sign,
            self._verify,
            name=self.names[self.seat] or "",
            rating=self.rating,
        )
        following.names = list(self.names)
        following.previous = self
        self.previous = None  # one match back is kept: enough for the other's late messages
        following._outbox = following.start(self.now)  # sent with this answer, by whoever takes its texts
        self.successor = following

    # ---------------------------------------------------------------- kept across reloads

    def to_json(self) -> dict[str, Any]:
        """What the page keeps (never sent): this seat's secret, the transcript and this page's clocks."""
        return {
            "format": "sixty-six/online-2",
            "seat": self.seat,
            "name": self.names[self.seat],
            "rules": self.rules.to_dict(),
            "match": self.match_id,
            "secret": self._secret.hex(),
            "transcript": self.transcript.to_json(),
            "now": self.now,
            "away_since": self.away_since,
            "outage": self.outage,
            "paused": [[seat, until] for seat, until in sorted(self.paused.items())],
        }

    @classmethod
    def restore(
        cls,
        saved: Any,
        sign: Callable[[bytes], str],
        verify: Callable[[str, bytes, str], bool] = p256.verify,
        now: int | None = None,
    ) -> PeerSession:
        """A kept game, rebuilt by replaying its transcript with its secret; PeerError (in words) if damaged."""
        try:
            if not (isinstance(saved, dict) and saved.get("format") == "sixty-six/online-2"):
                raise PeerError("not a saved online game of this version")
            kept = Transcript.from_json(saved["transcript"], verify)
            seat, saved_now = saved["seat"], check_now(saved["now"])
            away, paused, outage = saved["away_since"], saved["paused"], check_now(saved["outage"])
            if seat != kept.seat or kept.match_id != saved["match"]:
                raise PeerError("the saved game's seat or match does not fit its transcript")
            if away is not None and check_now(away) > saved_now:
                raise PeerError("the saved game's absence starts after its clock")
            if not isinstance(paused, list) or not all(
                isinstance(p, list) and len(p) == 2 and p[0] in (0, 1) and check_now(p[1]) >= 0 for p in paused
            ):
                raise PeerError("the saved game's pauses are damaged")
            secret = bytes.fromhex(saved["secret"])
            if len(secret) != 32:
                raise PeerError("the saved game's secret is damaged")
            rules = rules_from_dict(saved["rules"])
            name = saved["name"]
            if not isinstance(name, str) or len(name) > NAME_MAX:
                raise PeerError("the saved game's name is damaged")
        except (KeyError, TypeError, ValueError, ChainError) as e:
            raise PeerError(f"the saved online game is damaged: {e}") from None
        first = next((link.body for link in kept.links if link.seat == seat), {})
        rating = first.get("rating") if type(first.get("rating")) is int else None
        session = cls(seat, rules, kept.match_id, kept.identities, secret, sign, verify, name=name, rating=rating)
        session._replay(kept.links, saved_now)
        session.away_since = away
        session.outage = outage
        session.paused = {p[0]: p[1] for p in paused}
        if now is not None and now > session.now:
            # The page was closed from its last save until now: away, whatever the channel said.
            session.outage = max(session.outage, now - session.now)
            session._clock(now)
        if now is not None and session.away_since is None:
            session.away_since = session.now  # a page just opened has no channel yet: the other is away until met
        return session

    def _replay(self, links: list[Link], now: int) -> None:
        self._replaying = [link for link in links if link.seat == self.seat]
        try:
            for link in links:
                if link.seat == self.other:
                    self._clock(now)
                    self.transcript.accept(link.to_json())
                    self._take(link)
                elif self._replaying and self._replaying[0] is link:
                    self._redo(link.body, now)
            if self._replaying:
                raise PeerError("the saved game does not replay: some of its own messages were not made again")
        except (Cheat, EngineError, ChainError) as e:
            raise PeerError(f"the saved online game does not replay: {e}") from None
        finally:
            self._replaying = None
            self._outbox.clear()
            self.voice = Voice()

    def _redo(self, body: dict[str, Any], now: int) -> None:
        """Do again what this seat chose (its moves, chat, pauses), so that its links are made again."""
        kind = body.get("t")
        if kind == "coin" and "commit" in body:
            at = body.get("at")
            self._open(now, at if is_time(at) else None)
        elif kind == "act":
            self.act(body.get("action"), now)
        elif kind == "show":
            self.show_cards(now)
        elif kind == "chat":
            self.say({k: v for k, v in body.items() if k != "t"}, now)
        elif kind == "pause":
            self.pause(now)
        elif kind == "voice":
            self._send(body)  # the call itself ended with the page
        elif kind == "shuffle" and self.referee is not None:
            self._send_all(self.referee.prepare_next())  # the next pack, begun in idle time (tick)
        elif kind == "back":
            self.back(now)
        elif kind == "rematch":
            self.rematch(now)
        elif kind == "result" and body.get("reason") == "conceded":
            self.concede(now)
        elif kind == "result" and body.get("reason") in ("time", "cheat") and body.get("winner") == self.seat:
            self._end(self.seat, str(body["reason"]), body.get("evidence", {}))
        else:
            raise PeerError(f"the saved game holds a message of its own it cannot make again ({kind!r})")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _hex64(value: Any) -> str:
    if not (isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)):
        raise PeerError("a coin's half is 64 lowercase hex digits")
    return str(value)


def _name(body: dict[str, Any]) -> str:
    name = body.get("name")
    if not isinstance(name, str):
        raise PeerError("a coin's message carries its player's name")
    return plain_text(name, NAME_MAX)


def read_offer(
    text: Any, identities: tuple[str, str], verify: Callable[[str, bytes, str], bool] = p256.verify
) -> PeerRoom:
    """The room a host's first message offers (its rules, its player's name, the match's id), checked: signed
    by the host's proven identity, and the first link of its coin; PeerError (in words) if it is not."""
    message = _envelope(text)
    if "link" not in message:
        raise PeerError("the host's first message is its offer")
    try:
        link = Transcript(message["m"], 1, identities, verify).accept(message["link"])
    except ChainError as e:
        raise PeerError(f"the host's offer is not one: {e}") from None
    body = link.body
    if body.get("t") != "coin" or "commit" not in body:
        raise PeerError("the host's first message is its offer")
    try:
        rules = rules_from_dict(body.get("rules"))
    except (TypeError, ValueError) as e:
        raise PeerError(f"the room's rules are not valid: {e}") from None
    if rules.to_dict() != body.get("rules"):
        raise PeerError("the room's rules are not written in full")
    return {"match": message["m"], "rules": rules.to_dict(), "name": _name(body), "identity": identities[0]}


def _envelope(text: Any) -> dict[str, Any]:
    message = json_object(text, MESSAGE_MAX)
    version = message.get("v")
    if type(version) is not int or version != VERSION:
        raise VersionError(
            "the other player's page is of another version: both players should reload the page"
            if type(version) is int
            else "a message without its version"
        )
    if set(message) not in ({"v", "m", "link"}, {"v", "m", "hello"}) or not isinstance(message["m"], str):
        raise PeerError("a message holds its match's id, and a link or a hello")
    return message
