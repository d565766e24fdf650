"""The guest's side of an online game: what it was shown, its own messages, and its check of the host."""

from __future__ import annotations

from typing import Any

from ...core.errors import EngineError, IllegalActionError
from ...core.rules import Rules, RulesError, rules_from_dict
from ..match import FORFEITS
from ..table import GUEST
from . import fair_pack
from .messages import (
    CHAT_KEPT,
    GUEST_TYPES,
    HOST_MESSAGE_MAX,
    HOST_TYPES,
    IDENTITY_MAX,
    NAME_MAX,
    RETURN_MS,
    NotThePlayerError,
    Outbox,
    PeerError,
    chat_line,
    check_now,
    clean_text,
    proven_identity,
    read_message,
)
from .saved import SavedGame, checked_rules, damaged
from .voice import Voice


class GuestSession:
    """The guest's side: what it was shown, its own messages, and its check of the host."""

    def __init__(self, room: dict[str, Any], seat: int = GUEST) -> None:
        self.room = room
        self.rules: Rules = rules_from_dict(room["rules"])
        self.seat = seat
        self.outbox = Outbox()
        self.received = 0
        self.secret = ""
        self.witness: fair_pack.Witness | None = None
        self.show: dict[str, Any] | None = None
        self.status: dict[str, Any] = {}
        self.host_away_since: int | None = None
        self.now = 0
        self.ended_on_time = False
        self.name = ""
        self.identity = ""

    def saved(self) -> dict[str, Any]:
        """Everything to go on after the guest's page reloads (its secret and its check of the host)."""
        return {
            "online": "guest",
            "room": self.room,
            "seat": self.seat,
            "sent": self.outbox.sent,
            "received": self.received,
            "secret": self.secret,
            "name": self.name,
            "identity": self.identity,
            "witness": self.witness.to_json() if self.witness else None,
            "show": self.show,
            "status": self.status,
            "host_away_since": self.host_away_since,
            "now": self.now,
        }

    @classmethod
    def restore(cls, saved: Any, now: Any) -> GuestSession:
        """The session from :meth:`saved`; the host counts as away from the reload until its next message."""
        game = SavedGame(saved, "guest")
        seat = game.seat("seat")
        session = cls(_saved_room(game.mapping("room")), seat)
        session.outbox.sent = game.count("sent")
        session.received = game.count("received")
        session.secret = "" if game.field("secret") == "" else game.secret("secret")
        session.name, session.identity = game.text("name", NAME_MAX), game.text("identity", IDENTITY_MAX)
        if game.field("witness") is not None:
            try:
                session.witness = fair_pack.Witness.from_json(saved["witness"])
            except (KeyError, TypeError, ValueError, EngineError) as e:
                raise damaged("witness", f"the guest's check of the host ({e})") from None
            if session.witness.seat != seat or session.witness.guest_secret != session.secret:
                raise damaged("witness", "the check of this seat, with this side's secret")
        show, status = game.field("show"), game.mapping("status")
        try:
            session.show = None if show is None else _checked_show(show, seat)
        except PeerError as e:
            raise damaged("show", f"a table to draw ({e})") from None
        try:
            session.status = session._checked_status(status) if status else {}
        except PeerError as e:
            raise damaged("status", f"the host's status ({e})") from None
        session.host_away_since = game.time_or_none("host_away_since")
        session.now = game.time("now")
        session.now = max(session.now, check_now(now))
        if session.host_away_since is None:
            session.host_away_since = session.now
        session._voice_lost()
        return session

    @classmethod
    def open(cls, text: Any, identity: Any = None) -> GuestSession:
        """The host's first message (``room``): the rules to show before joining; raises PeerError.

        ``identity``: the identity the host's browser proved on the connection; the room must name it.
        """
        proven = proven_identity(identity)
        message = read_message(text, HOST_MESSAGE_MAX, HOST_TYPES)
        if message["t"] != "room":
            raise PeerError("the host's first message must describe the room")
        room = cls._checked_room(message)
        if not proven or room["host"]["identity"] != proven:
            raise NotThePlayerError("the room names a host other than the browser that proved its identity")
        session = cls(room)
        session.received = message["n"]
        return session

    @staticmethod
    def _checked_room(message: dict[str, Any]) -> dict[str, Any]:
        try:
            rules = rules_from_dict(message.get("rules"))
        except RulesError as e:
            raise PeerError(f"the room's rules are not valid: {e}") from None
        commitment = message.get("commitment")
        host_in = message.get("host")
        host: dict[str, Any] = host_in if isinstance(host_in, dict) else {}
        if not fair_pack.is_secret(commitment):
            raise PeerError("the room has no valid commitment to its packs")
        return {
            "rules": rules.to_dict(),
            "commitment": commitment,
            "host": {
                "name": clean_text(host.get("name"), NAME_MAX),
                "identity": host["identity"][:IDENTITY_MAX] if isinstance(host.get("identity"), str) else "",
            },
            "match": message.get("match") if isinstance(message.get("match"), int) else 1,
        }

    def join(self, name: Any, identity: Any = "") -> dict[str, Any]:
        """Join the room: a fresh secret of the guest's own goes into every pack."""
        self.name, self.identity = (
            clean_text(name, NAME_MAX),
            identity[:IDENTITY_MAX] if isinstance(identity, str) else "",
        )
        self._put_join()
        return {"send": self.outbox.take()}

    def _put_join(self) -> None:
        self.secret = fair_pack.new_secret()
        self.witness = fair_pack.Witness(self.rules, self.room["commitment"], self.secret, self.seat)
        self.outbox.put(
            "join",
            name=self.name,
            identity=self.identity,
            secret=self.secret,
            commitment=fair_pack.commitment(self.secret),
        )

    def from_host(self, text: Any, now: Any) -> dict[str, Any]:
        """A message from the host: what to draw, warnings about the host, and anything to send back.

        A refused message changes nothing (not even the clock)."""
        at = check_now(now)
        message = read_message(text, HOST_MESSAGE_MAX, HOST_TYPES)
        n = message["n"]
        if n <= self.received:
            raise PeerError(f"message {n} was already received (a replay)")
        missed = n - self.received - 1
        answer = self._host_message(message)
        self.now = max(self.now, at)
        self.received = n
        self.host_away_since = None
        if missed > 0:
            # Messages were lost (a reconnect): ask for the whole state again.
            self.outbox.put("hello", last=self.received)
        return {**answer, "send": self.outbox.take(), "missed": missed}

    def _host_message(self, message: dict[str, Any]) -> dict[str, Any]:
        kind = message["t"]
        if kind == "room":
            room = self._checked_room(message)
            if room["host"]["identity"] != self.room["host"]["identity"]:
                raise PeerError("the room names another host")
            if self.witness is not None and room["commitment"] != self.room["commitment"]:
                # A rematch: a new commitment, a new secret of ours.
                self.room = room
                self.rules = rules_from_dict(room["rules"])
                self._put_join()
            return {"room": room}
        if kind == "refused":
            return {
                "refused": {"code": str(message.get("code"))[:40], "message": clean_text(message.get("message"), 300)}
            }
        if kind == "chat":
            line = message.get("line")
            if not isinstance(line, dict) or line.get("seat") not in (0, 1):
                raise PeerError("a chat message without its line")
            return {"chat": {"seat": line["seat"], **chat_line(line)}}
        if kind == "status":
            self.status = self._checked_status(message.get("status"))
            return {"status": self.status}
        if kind == "proof":
            if self.witness is None:
                raise PeerError("a proof before joining")
            problems = self.witness.check(message.get("proof"))
            return {"proof": {"deal": self.witness.checked, "problems": problems}}
        if kind in ("state", "frames"):
            if self.witness is None:
                # Nothing to check the game against: the guest has not joined (and has no secret in the packs).
                raise PeerError(f"the host sent a game {kind!r} before this side joined the room")
            show = _checked_show(message.get("show"), self.seat)
            frames = _checked_frames(message.get("frames", []), self.seat)
            status = self._checked_status(message.get("status"))
            answer: dict[str, Any] = {"show": show, "status": status}
            if kind == "state":
                if message.get("commitment") != self.room["commitment"]:
                    answer["warning"] = "the host's game is not the one it committed to"
                events = message.get("deal_events")
                if not isinstance(events, list):
                    raise PeerError("a state without the deal's events")
                lines = message.get("chat")
                answer["chat_log"] = [
                    {"seat": line["seat"], **chat_line(line)}
                    for line in (lines if isinstance(lines, list) else [])
                    if isinstance(line, dict) and line.get("seat") in (0, 1)
                ][-CHAT_KEPT:]
                self.witness.seen = []
                self.witness.saw([e for e in events if isinstance(e, dict)])
            else:
                self.witness.saw([frame["event"] for frame in frames])
                answer["frames"] = frames
            self.show, self.status = show, status
            return answer
        raise PeerError(f"unknown message type {kind!r}")

    def _checked_status(self, status: Any) -> dict[str, Any]:
        """A status from the host, with the identities this side knows (the host's proven, its own), not the
        host's word for them."""
        checked = _checked_status(status)
        identities = ["", ""]
        identities[self.seat] = self.identity
        identities[1 - self.seat] = self.room["host"]["identity"]
        return {**checked, "identities": identities}

    def do(self, intent: Any) -> dict[str, Any]:
        """The guest's own intention → the message for the host (checked against what the guest was shown)."""
        if not isinstance(intent, dict) or intent.get("t") not in GUEST_TYPES[2:]:
            raise PeerError(f"unknown intention {intent!r}")
        kind = intent["t"]
        fields: dict[str, Any] = {}
        if kind == "act":
            legal = (self.show or {}).get("view", {}) or {}
            if intent.get("action") not in legal.get("legal", []):
                raise IllegalActionError(f"{intent.get('action')!r} is not possible now")
            fields["action"] = intent["action"]
        elif kind == "chat":
            fields = chat_line(intent)
        elif kind == "voice":
            # Checked against the host's last status: a step the host would refuse does not leave.
            Voice.from_status(self.status.get("voice")).step(self.seat, intent.get("do"))
            fields["do"] = intent["do"]
        elif kind == "rematch" and not ((self.show or {}).get("view") or {}).get("game_over"):
            raise IllegalActionError("a rematch is offered once the game is over")
        self.outbox.put(kind, **fields)
        return {"send": self.outbox.take()}

    def reconnect(self) -> dict[str, Any]:
        """The channel is open again: ask the host for the whole state."""
        self.outbox.put("hello", last=self.received)
        return {"send": self.outbox.take()}

    def connection(self, up: Any, now: Any, identity: Any = None) -> dict[str, Any]:
        """The data channel to the host closed (``up`` false): the host's clock of absence starts, voice ends.

        ``up`` true: a connection opened to a browser that proved ``identity``; only the room's host may go on
        with this game (another is refused with NotThePlayerError and changes nothing).
        """
        if up is True and proven_identity(identity) != self.room["host"]["identity"]:
            raise NotThePlayerError("this browser is not the host of this game")
        self.now = max(self.now, check_now(now))
        if up is False and self.host_away_since is None:
            self.host_away_since = self.now
        if up is False:
            self._voice_lost()
        return {**self.tick(now), "status": self.status}

    def _voice_lost(self) -> None:
        """No connection to the host: voice is off until the host's next status says otherwise."""
        voice = Voice.from_status(self.status.get("voice"))
        voice.lost(1 - self.seat)
        self.status = {**self.status, "voice": voice.status()}

    def tick(self, now: Any) -> dict[str, Any]:
        """Time passed: a host away for RETURN_MS has lost the game on time (from the guest's side)."""
        self.now = max(self.now, check_now(now))
        over = ((self.show or {}).get("view") or {}).get("game_over", False)
        if self.host_away_since is not None and self.now >= self.host_away_since + RETURN_MS and not over:
            self.ended_on_time = True
        return {
            "host_away_since": self.host_away_since,
            "return_by": None if self.host_away_since is None else self.host_away_since + RETURN_MS,
            "host_lost_on_time": self.ended_on_time,
            "problems": list(self.witness.problems) if self.witness else [],
        }


def _saved_room(room: dict[str, Any]) -> dict[str, Any]:
    """A saved game's room, as :meth:`GuestSession._checked_room` made it; raises PeerError if damaged."""
    host = room.get("host")
    if not isinstance(host, dict) or not all(isinstance(host.get(k), str) for k in ("name", "identity")):
        raise damaged("room", "a room whose host has a name and an identity")
    if len(host["name"]) > NAME_MAX or len(host["identity"]) > IDENTITY_MAX:
        raise damaged("room", f"a room whose host's name and identity are at most {NAME_MAX} and {IDENTITY_MAX} long")
    if not fair_pack.is_secret(room.get("commitment")):
        raise damaged("room", "a room with the host's commitment to its packs")
    match = room.get("match")
    if type(match) is not int or match < 1:
        raise damaged("room", "a room with its match's number (1, 2, ...)")
    rules = checked_rules(room.get("rules"), "room")
    return {
        "rules": rules.to_dict(),
        "commitment": room["commitment"],
        "host": {"name": host["name"], "identity": host["identity"]},
        "match": match,
    }


# ------------------------------------------------------------ checking the host's messages

_CARD_LISTS = ("hand", "opponent_known", "my_tricks", "opponent_tricks")


def _checked_show(show: Any, seat: int) -> dict[str, Any]:
    """A show from the host, checked so the page can draw it: a view of the guest's own seat."""
    if not isinstance(show, dict):
        raise PeerError("the host sent no table to show")
    view = show.get("view")
    if not isinstance(view, dict) or view.get("seat") != seat:
        raise PeerError("the host sent a view that is not of your seat")
    for key in ("hand", "opponent_known", "legal"):
        value = view.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 12 for v in value):
            raise PeerError(f"the host's view has a bad {key!r}")
    for key in ("talon_count", "opponent_hand_count", "my_points", "opponent_points"):
        if not isinstance(view.get(key), int):
            raise PeerError(f"the host's view has a bad {key!r}")
    if not isinstance(view.get("match"), dict) or not isinstance(view.get("rules"), dict):
        raise PeerError("the host's view lacks the match or the rules")
    if not _is_sheet(view.get("sheet")):
        raise PeerError("the host's view has a bad 'sheet'")
    may_in = show.get("may")
    may: dict[str, Any] = may_in if isinstance(may_in, dict) else {}
    return {
        "view": view,
        "handover": None,
        "may": {k: bool(may.get(k)) for k in ("undo", "hint", "claim_for_other")} | {"computer_move": False},
        "seating": show.get("seating") if isinstance(show.get("seating"), dict) else None,
    }


def _is_int(value: Any) -> bool:
    return type(value) is int and 0 <= value < 1_000_000


def _is_seat(value: Any) -> bool:
    return type(value) is int and value in (0, 1)


def _is_seat_or_none(value: Any) -> bool:
    return value is None or _is_seat(value)


def _is_score(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)


def _is_word(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 40


def _is_sheet_deal(line: Any) -> bool:
    return (
        isinstance(line, dict)
        and all(_is_int(line.get(k)) for k in ("match", "deal", "game_points", "carried"))
        and _is_seat(line.get("dealer"))
        and all(_is_seat_or_none(line.get(k)) for k in ("winner", "by"))
        and _is_word(line.get("code"))
        and _is_word(line.get("basis"))
        and _is_score(line.get("scores"))
    )


def _is_bummerl(line: Any) -> bool:
    ended = line.get("ended") if isinstance(line, dict) else None
    return (
        isinstance(line, dict)
        and _is_int(line.get("match"))
        and _is_int(line.get("deals"))
        and _is_seat_or_none(line.get("winner"))
        and _is_score(line.get("scores"))
        and (ended is None or (isinstance(ended, dict) and ended.get("reason") in FORFEITS))
    )


def _is_sheet(sheet: Any) -> bool:
    """The score sheet of a view from the host: the page lays it out as it is, so its shape is checked."""
    if sheet is None:
        return True
    if not isinstance(sheet, dict):
        return False
    deals, bummerls = sheet.get("deals"), sheet.get("bummerls")
    return (
        isinstance(deals, list)
        and isinstance(bummerls, list)
        and all(_is_sheet_deal(line) for line in deals)
        and all(_is_bummerl(line) for line in bummerls)
    )


def _checked_frames(frames: Any, seat: int) -> list[dict[str, Any]]:
    if not isinstance(frames, list):
        raise PeerError("the host's frames are not a list")
    checked = []
    for frame in frames:
        if not isinstance(frame, dict) or not isinstance(frame.get("event"), dict):
            raise PeerError("a frame without its event")
        view = frame.get("view")
        if not isinstance(view, dict) or view.get("seat") != seat:
            raise PeerError("a frame whose view is not of your seat")
        checked.append({"event": frame["event"], "view": view})
    return checked


def _checked_status(status: Any) -> dict[str, Any]:
    if not isinstance(status, dict):
        raise PeerError("the host sent no status")
    names = status.get("names")
    return {
        **{k: v for k, v in status.items() if k in _STATUS_KEYS},
        "voice": Voice.from_status(status.get("voice")).status(),
        "names": [clean_text(n, NAME_MAX) for n in names] if isinstance(names, list) and len(names) == 2 else ["", ""],
    }


_STATUS_KEYS = (
    "now",
    "joined",
    "guest_away_since",
    "return_by",
    "paused",
    "shown",
    "stand_in",
    "rematch",
    "next_deadline",
    "identities",
)
