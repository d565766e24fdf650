"""The host's side of an online game: the table, the guest's messages, the clocks, the fair pack, the chat."""

from __future__ import annotations

from typing import Any

from ...core.errors import EngineError, GameOverError, IllegalActionError
from ...core.rules import Rules
from ..table import GUEST, HOST, Seating, Table, TableError
from ..views import filter_events
from . import fair_pack
from .messages import (
    CHAT_KEPT,
    GUEST_MESSAGE_MAX,
    GUEST_TYPES,
    IDENTITY_MAX,
    NAME_MAX,
    PAUSE_MS,
    RATE_BURST,
    RATE_PER_S,
    RETURN_MS,
    SHOW_MS,
    NotThePlayerError,
    Outbox,
    PeerError,
    RateLimitedError,
    chat_line,
    check_now,
    clean_text,
    proven_identity,
    read_message,
)
from .saved import SavedGame, damaged
from .voice import Voice


class HostSession:
    """The host's table and everything online about it: the guest, the clocks, the fair pack, the chat."""

    def __init__(self, rules: Rules, host_name: str, identity: str = "", tail: str | None = None) -> None:
        self.rules = rules
        self.names = [clean_text(host_name, NAME_MAX), ""]
        self.identities = [identity[:IDENTITY_MAX], ""]
        self.peer = ""  # the identity the guest's browser proved on the connection now open (not saved)
        self.tail = tail or fair_pack.new_secret()
        self.guest_commitment = ""
        self.packs: fair_pack.FairPacks | None = None
        self.table: Table | None = None
        self.outbox = Outbox()
        self.received = 0  # the guest's last accepted sequence number
        self.tokens = float(RATE_BURST)
        self.tokens_at = 0
        self.now = 0
        self.paused: dict[int, int] = {}  # seat → when its pause runs out
        self.shown_until: dict[int, int] = {}  # seat → when its shown hand turns down again
        self.away_since: int | None = None  # the guest's connection was lost then
        self.rematch: set[int] = set()
        self.proved = 0  # deals whose proof the guest has
        self.chat: list[dict[str, Any]] = []
        self.new_chat: dict[str, Any] | None = None  # the line to show in this answer
        self.flooding = False  # refusing for the rate: only the first refusal is answered
        self.matches = 1
        self.voice = Voice()  # not saved: a reload ends a call

    # ------------------------------------------------------------ the lobby

    def room(self) -> None:
        """Tell the guest the room's rules and the host's commitment (the first message, and again on hello)."""
        self.outbox.put(
            "room",
            rules=self.rules.to_dict(),
            host={"name": self.names[HOST], "identity": self.identities[HOST]},
            commitment=fair_pack.chain_secret(self.tail, 0),
            match=self.matches,
        )

    def _join(self, message: dict[str, Any]) -> None:
        if self.table is not None and not self.rematch_agreed():
            raise PeerError("the game has started: send hello to come back")
        secret = message.get("secret")
        if not isinstance(secret, str) or not fair_pack.is_secret(secret):
            raise PeerError("a join needs a fresh secret and its commitment")
        if message.get("commitment") != fair_pack.commitment(secret):
            raise PeerError("a join needs a fresh secret and its commitment")
        if self.table is None:
            self.names[GUEST] = clean_text(message.get("name"), NAME_MAX)
            # The identity the browser proved, not the one its message names.
            self.identities[GUEST] = self.peer
        self.guest_commitment = message["commitment"]
        self.packs = fair_pack.FairPacks(self.tail, secret)
        seating = Seating("online", names=(self.names[HOST] or "", self.names[GUEST] or ""), levels=(None, None))
        self.table = Table(self.packs.new_match(self.rules), seating)
        self.rematch.clear()
        self.proved = 0
        self.paused.clear()
        self.shown_until.clear()
        self._sync_table()
        self._send_state()

    def rematch_agreed(self) -> bool:
        return self.rematch == {HOST, GUEST}

    # ------------------------------------------------------------ messages

    def from_guest(self, text: Any, now: Any) -> dict[str, Any]:
        """A message from the guest's browser: what to draw here and what to send back."""
        self._clock(now)
        try:
            self._spend_token()
            message = read_message(text, GUEST_MESSAGE_MAX, GUEST_TYPES)
            if message["n"] <= self.received:
                raise PeerError(f"message {message['n']} was already received (a replay)")
            result = self._guest_message(message)
            self.received = message["n"]
        except EngineError as e:
            if not (isinstance(e, RateLimitedError) and self.flooding):
                self.outbox.put("refused", code=e.code, message=str(e))
            self.flooding = isinstance(e, RateLimitedError)
            return {**self._answer(), "refused": {"code": e.code, "message": str(e)}}
        self.flooding = False
        return self._reply(result)

    def _spend_token(self) -> None:
        self.tokens = min(RATE_BURST, self.tokens + (self.now - self.tokens_at) * RATE_PER_S / 1000)
        self.tokens_at = self.now
        if self.tokens < 1:
            raise RateLimitedError("too many messages: wait a moment")
        self.tokens -= 1

    def _guest_message(self, message: dict[str, Any]) -> dict[str, Any]:
        if not self.peer:
            # Only from a connection whose browser proved the guest's identity (see connection()).
            raise PeerError("the guest's browser has not proven its identity on this connection")
        kind = message["t"]
        if kind == "hello":
            self.away_since = None
            if self.table is None:
                self.room()
            else:
                self._send_state()
            return {"peer": "back"}
        if kind == "join":
            self._join(message)
            return {}
        if self.table is None:
            raise PeerError("join the room first")
        if kind == "chat":
            self._chat(GUEST, chat_line(message))
            return {}
        return self._do(GUEST, message)

    def do(self, intent: Any, now: Any) -> dict[str, Any]:
        """The host's own intention (``{"t": "act", "action": ...}``, ``show_cards``, ``chat``...)."""
        self._clock(now)
        if not isinstance(intent, dict) or intent.get("t") not in GUEST_TYPES[2:]:
            raise PeerError(f"unknown intention {intent!r}")
        if self.table is None:
            raise TableError("the guest has not joined yet")
        if intent["t"] == "chat":
            self._chat(HOST, chat_line(intent))
            return self._answer()
        return self._reply(self._do(HOST, intent))

    def _do(self, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        table = self.table
        assert table is not None
        kind = message["t"]
        if kind == "voice":
            if self.away_since is not None and message.get("do") in ("ask", "accept"):
                raise IllegalActionError("the other player is not connected")
            self.voice.step(seat, message.get("do"))
            self.outbox.put("status", status=self.status())
            return {}
        if kind == "act":
            action = message.get("action")
            if not isinstance(action, str):
                raise PeerError("an act needs its action")
            if seat in self.paused:
                raise TableError("you asked for a pause: press OK to play again")
            return self._changed(table.act(seat, action))
        if kind == "back":
            if seat not in self.paused and seat not in table.stand_in:
                raise TableError("you are not away")
            self.paused.pop(seat, None)
            table.stand_in.discard(seat)
        elif kind == "pause":
            if table.match.finished:
                raise GameOverError("the game is over")
            if seat in self.paused or seat in table.stand_in:
                raise TableError("a pause is already running")
            self.paused[seat] = self.now + PAUSE_MS
        elif kind == "show_cards":
            if table.match.deal.over or table.match.finished:
                raise IllegalActionError("cards are shown only while a deal is played")
            self.shown_until[seat] = self.now + SHOW_MS
        elif kind == "resign":
            return self._changed(table.forfeit(seat, "resigned"))
        elif kind == "rematch":
            if not table.match.finished:
                raise IllegalActionError("a rematch is offered once the game is over")
            self.rematch.add(seat)
            if self.rematch_agreed():
                self.tail = fair_pack.new_secret()
                self.matches += 1
                self.room()  # the guest answers with a fresh secret (join) and the new game starts
        self._sync_table()
        self._send_views()
        return {}

    # ------------------------------------------------------------ time and presence

    def tick(self, now: Any) -> dict[str, Any]:
        """Time passed: shown hands turn down, pauses become the computer, an absence becomes a loss."""
        self._clock(now)
        table = self.table
        if table is None:
            return self._answer()
        if self.away_since is not None and self.now >= self.away_since + RETURN_MS and not table.match.finished:
            return self._reply(self._changed(table.forfeit(GUEST, "time")))
        changed = False
        for seat, until in list(self.paused.items()):
            if self.now >= until:
                del self.paused[seat]
                table.stand_in.add(seat)
                changed = True
        for seat, until in list(self.shown_until.items()):
            if self.now >= until:
                del self.shown_until[seat]
                changed = True
        if changed:
            self._sync_table()
            self._send_views()
        return self._answer()

    def connection(self, up: Any, now: Any, identity: Any = None) -> dict[str, Any]:
        """The data channel to the guest closed (``up`` false) or opened (then the guest sends join or hello).

        ``identity``: with ``up``, the identity the browser at the other end proved (its page checked the
        signature). Before a guest has joined, the room goes to it; once one has, its seat is that identity's:
        another is refused (NotThePlayerError) and changes nothing.
        """
        proven = proven_identity(identity)
        if up is True and self.identities[GUEST] and proven != self.identities[GUEST]:
            raise NotThePlayerError("this browser is not the guest of this game")
        self._clock(now)
        self.peer = proven if up is True else ""
        if up is True and self.table is None:
            self.room()  # a guest that has not joined (or the one before it left) sees the rules first
        if up is False:
            self.voice.lost(GUEST)
        if up is False and self.away_since is None and self.table is not None and not self.table.match.finished:
            self.away_since = self.now
        return self._answer()

    def computer(self, now: Any, **search: Any) -> dict[str, Any]:
        """The computer's move for a player who is away (the host's page asks when ``may.computer_move``)."""
        self._clock(now)
        if self.table is None:
            raise TableError("the guest has not joined yet")
        return self._reply(self._changed(self.table.computer_move(**search)))

    def _clock(self, now: Any) -> None:
        self.now = max(self.now, check_now(now))

    # ------------------------------------------------------------ what goes out

    def _sync_table(self) -> None:
        """The table's face-up hands follow the clocks."""
        table = self.table
        if table is not None:
            table.shown = {seat for seat, until in self.shown_until.items() if self.now < until}

    def _changed(self, answer: dict[str, Any]) -> dict[str, Any]:
        """A table answer: its remote part goes to the guest; proofs follow each finished deal."""
        remote = answer.pop("remote", None)
        if remote is not None:
            self.outbox.put("frames", frames=remote["frames"], show=self._guest_show(remote), status=self.status())
        self._send_proofs()
        answer["status"] = self.status()
        return answer

    def _send_state(self) -> None:
        table = self.table
        assert table is not None
        remote = table.remote_viewer()
        assert remote is not None
        self.outbox.put(
            "state",
            show=self._guest_show(table.show(remote)),
            status=self.status(),
            deal_events=self._guest_deal_events(),
            chat=self.chat,
            commitment=fair_pack.chain_secret(self.tail, 0),
            guest_commitment=self.guest_commitment,
            proved=self.proved,
        )
        self._send_proofs()

    def _send_views(self) -> None:
        table = self.table
        assert table is not None
        remote = table.remote_viewer()
        assert remote is not None
        self.outbox.put("frames", frames=[], show=self._guest_show(table.show(remote)), status=self.status())

    def _send_proofs(self) -> None:
        table, packs = self.table, self.packs
        if table is None or packs is None:
            return
        match = table.match
        finished = len(match.records) if match.deal.over else len(match.records) - 1
        while self.proved < finished:
            self.proved += 1
            self.outbox.put("proof", proof=packs.proof(match, self.proved))

    def _guest_deal_events(self) -> list[dict[str, Any]]:
        """The guest's events of the deal in play, as it saw them (for its check of the host)."""
        table = self.table
        assert table is not None
        events = table.match.events
        start = max((i for i, e in enumerate(events) if e.kind == "deal"), default=0)
        return filter_events(events[start:], GUEST)

    @staticmethod
    def _guest_show(show: dict[str, Any]) -> dict[str, Any]:
        """The guest's rights: the host's engine plays for it when it is away; no undo, no hints."""
        may = {**show["may"], "undo": False, "hint": False, "claim_for_other": False, "computer_move": False}
        return {**show, "may": may}

    def status(self) -> dict[str, Any]:
        """Presence, pauses, shown hands, the computer's stand-ins, rematch offers, voice and the next deadline."""
        table = self.table
        deadlines = [*self.paused.values(), *self.shown_until.values()]
        if self.away_since is not None:
            deadlines.append(self.away_since + RETURN_MS)
        return {
            "now": self.now,
            "names": list(self.names),
            "identities": list(self.identities),
            "joined": table is not None,
            "guest_away_since": self.away_since,
            "return_by": None if self.away_since is None else self.away_since + RETURN_MS,
            "paused": {str(seat): until for seat, until in self.paused.items()},
            "shown": {str(seat): until for seat, until in self.shown_until.items() if self.now < until},
            "stand_in": sorted(table.stand_in) if table else [],
            "rematch": sorted(self.rematch),
            "voice": self.voice.status(),
            "next_deadline": min(deadlines) if deadlines else None,
        }

    def _chat(self, seat: int, line: dict[str, Any]) -> None:
        entry = {"seat": seat, **line, "at": self.now}
        self.chat = [*self.chat, entry][-CHAT_KEPT:]
        self.outbox.put("chat", line=entry)
        self.new_chat = entry

    def _reply(self, result: dict[str, Any]) -> dict[str, Any]:
        """A change's answer (its view already in ``result``) with what every answer carries."""
        return {**self._answer(drawn="view" in result), **result}

    def _answer(self, drawn: bool = False) -> dict[str, Any]:
        """What every answer carries: what the host draws now (unless ``drawn``), the messages for the guest,
        any chat line."""
        shown = {"status": self.status(), "chat_log": self.chat} if drawn else self.show()
        answer: dict[str, Any] = {**shown, "send": self.outbox.take()}
        if self.new_chat is not None:
            answer["chat"], self.new_chat = self.new_chat, None
        return answer

    def show(self) -> dict[str, Any]:
        """What the host's page draws now: the table (none before the guest joins), the status, the chat."""
        base = self.table.show() if self.table is not None else {"view": None, "handover": None, "may": {}}
        return {**base, "status": self.status(), "chat_log": self.chat}

    # ------------------------------------------------------------ saving

    def saved(self) -> dict[str, Any]:
        """Everything to go on after the host's page reloads (the pack secrets included: the host's own store)."""
        return {
            "online": "host",
            "rules": self.rules.to_dict(),
            "names": self.names,
            "identities": self.identities,
            "tail": self.tail,
            "guest_secret": self.packs.guest_secret if self.packs else None,
            "guest_commitment": self.guest_commitment,
            "table": self.table.saved() if self.table else None,
            "sent": self.outbox.sent,
            "received": self.received,
            "paused": {str(k): v for k, v in self.paused.items()},
            "stand_in": sorted(self.table.stand_in) if self.table else [],
            "away_since": self.away_since,
            "rematch": sorted(self.rematch),
            "proved": self.proved,
            "chat": self.chat,
            "matches": self.matches,
            "now": self.now,
        }

    @classmethod
    def restore(cls, saved: Any, now: Any) -> HostSession:
        """The session from :meth:`saved`; the host was away from its last save until ``now``.

        The guest must reconnect: it counts as away from now on (its hello
        brings it back). A host away longer than RETURN_MS lost on time,
        unless the guest had gone first (both left: no result).
        """
        game = SavedGame(saved, "host")
        names, identities = game.pair("names", NAME_MAX), game.pair("identities", IDENTITY_MAX)
        rules = game.rules()
        session = cls(rules, names[HOST], identities[HOST], game.secret("tail"))
        session.names[GUEST] = clean_text(names[GUEST], NAME_MAX)
        session.identities[GUEST] = identities[GUEST]
        guest_secret = game.secret_or_none("guest_secret")
        if guest_secret is not None:
            session.packs = fair_pack.FairPacks(session.tail, guest_secret)
            if game.field("guest_commitment") != fair_pack.commitment(guest_secret):
                raise damaged("guest_commitment", "the commitment to the guest's secret")
            session.guest_commitment = saved["guest_commitment"]
        if game.field("table") is not None:
            session.table = cls._restored_table(game, session.packs, rules)
        session.outbox.sent = game.count("sent")
        session.received = game.count("received")
        session.paused = game.deadlines("paused")
        session.away_since = game.time_or_none("away_since")
        session.rematch = game.seats("rematch")
        session.proved = game.count("proved")
        session.chat = game.chat("chat", CHAT_KEPT)
        session.matches = game.count("matches", least=1)
        session.now = game.time("now")
        gone_at = session.now
        session._clock(now)
        restored = session.table
        if restored is not None and not restored.match.finished:
            if session.now >= gone_at + RETURN_MS:
                guest_gone_first = session.away_since is not None and session.away_since <= gone_at
                restored.match.forfeit(None if guest_gone_first else HOST, "abandoned" if guest_gone_first else "time")
            elif session.away_since is None:
                session.away_since = session.now
        return session

    @staticmethod
    def _restored_table(game: SavedGame, packs: fair_pack.FairPacks | None, rules: Rules) -> Table:
        """The saved game's table: an online game's, its packs from the two secrets."""
        if packs is None:
            raise damaged("guest_secret", "the guest's secret while a game is on the table")
        try:
            table = Table.restore(game.field("table"))
        except EngineError as e:
            raise PeerError(f"the saved online game is damaged (its table: {e})") from None
        if table.seating.mode != "online":
            raise damaged("table", "the table of an online game (its seating's mode 'online')")
        if table.match.rules != rules:
            raise damaged("table", "a game of the saved rules")
        table.match.packs = lambda i, packs=packs, deck=rules.deck: packs.pack(deck, i + 1)
        table.stand_in = game.seats("stand_in")
        return table
