"""The protocol's ``peer_*`` commands: online play of protocol 2 (docs/protocol.md, "Online, protocol 2").

A page opens a session for its seat with the two identities its browser
proved and its identity's private key (the JWK's ``d``: the engine signs
the transcript's links itself); every answer carries ``send``, the texts to
pass to the other page unchanged, and the seat's ``view`` and ``status``.
Saving and restoring (``peer_save``, ``peer_restore``) are the worker's:
a saved game holds this seat's secret.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ...core import events as ev
from ...core.errors import EngineError
from ...core.info import Observer
from ...core.rules import rules_from_dict
from ...fairplay import p256
from ...fairplay.source import new_secret
from ..requests import ProtocolError, arg, find
from ..views import deal_frames, view
from .messages import CHAT_MAX, PeerError, request_now
from .peer import PeerSession, read_offer

if TYPE_CHECKING:
    from ..contract import (
        ChatLine,
        Frame,
        Nothing,
        PeerAnswer,
        PeerOffer,
        PeerOpened,
        PeerReport,
        PeerRoom,
        PeerVerdict,
        SavedAnswer,
        View,
    )
    from ..protocol import Answer, Engine


def signer(key: Any) -> Callable[[bytes], str]:
    """The seat's signature from its private key (base64url of 32 bytes, as a JWK's ``d``)."""
    raw = p256.b64decode(key) if isinstance(key, str) else None
    if raw is None or len(raw) != 32 or not 0 < int.from_bytes(raw, "big") < p256.N:
        raise ProtocolError("bad_request", "'key' must be the identity's private key (a JWK's d)")
    private = int.from_bytes(raw, "big")
    source = random.SystemRandom()
    return lambda text: p256.sign(private, text, source)


def identity_signer(key: Any, identity: str) -> Callable[[bytes], str]:
    """:func:`signer`, which must sign as ``identity``."""
    sign = signer(key)
    if not p256.verify(identity, b"x", sign(b"x")):
        raise ProtocolError("bad_request", "'key' is not the private key of this identity")
    return sign


def _session(engine: Engine, req: dict[str, Any]) -> PeerSession:
    return find(req, "session", engine.peers)


def _answer(engine: Engine, handle: str, sent: list[str]) -> PeerAnswer:
    """The answer after a command: what to send, this seat's view and status. Once both asked for a rematch, the
    session's handle goes on with the next match, and ``finished`` is the status the match before ended with."""
    session = engine.peers[handle]
    finished = None
    if session.successor is not None:
        finished = session.status()
        session = engine.peers[handle] = session.successor
        sent = [*sent, *session.take()]
    status = session.status()
    view = seat_view(session, status["legal"])
    frames = _frames(session, view)
    chat = cast("list[ChatLine]", list(session.chat))  # lines checked by messages.chat_line, with seat and time
    answer: PeerAnswer = {"send": sent, "view": view, "frames": frames, "status": status, "chat": chat}
    if finished is not None:
        answer["finished"] = finished
    return answer


def _frames(session: PeerSession, view: View | None) -> list[Frame]:
    """The events since the seat's last view, as it sees them, each with its view after it (for the page to
    animate and narrate, as a table's frames); none across a new deal (its first view comes alone)."""
    referee = session.referee
    if view is None or referee is None or referee.match is None:
        return []
    match, last = referee.match, session.last_drawn
    session.last_drawn = (match, len(match.events), view)
    if last is None or last[0] is not match or last[1] > len(match.events):
        return []
    events = match.events[last[1] :]
    if any(isinstance(e, ev.DealStarted) for e in events):
        return []
    return deal_frames(match.deal, events, last[1], Observer(session.seat), last[2])


def seat_view(session: PeerSession, legal: list[str]) -> View | None:
    """What this seat draws: its view of its world, once its hand is known; the other's cards only once verified."""
    referee = session.referee
    if referee is None or referee.match is None or referee.missing_keys():
        return None
    shown = view(referee.match, session.seat)
    # The next deal starts by itself once both sides have checked this one; nothing is legal while it is dealt.
    shown["legal"] = legal
    if session.shown is not None:
        shown["opponent_shown"] = session.shown_cards()  # the other's hand, face up for SHOW_MS
    if referee.pending_audit():
        shown.pop("reveal", None)  # the other hand is known only when both sides' keys have been checked
        shown["checking"] = True
    return shown


def _intent(name: str) -> Callable[[Engine, dict[str, Any]], PeerAnswer]:
    def handler(engine: Engine, req: dict[str, Any]) -> PeerAnswer:
        session = _session(engine, req)
        now = request_now(req)
        try:
            if name == "act":
                sent = session.act(req.get("action"), now)
            elif name == "say":
                line: dict[str, Any] = {k: req[k] for k in ("text", "phrase") if k in req}
                sent = session.say(line, now)
            elif name == "voice_step":
                sent = session.voice_step(req.get("do"), now)
            elif name == "tick":
                dropped = req.get("dropped", 0)
                if type(dropped) is not int or not 0 <= dropped <= MESSAGES_DROPPED_MAX:
                    raise ProtocolError("bad_request", "'dropped' is how many texts the page left unread: 0 or more")
                sent = session.tick(now, dropped)
            else:
                sent = getattr(session, name)(now)
        except PeerError as e:
            raise ProtocolError("bad_request", str(e)) from None
        # A tick that changed nothing is saved only now and then: the saved clock says since when a closed page
        # was away, and a save each second would hold up the next move.
        save = name != "tick" or bool(sent) or session.now - session.saved_at >= TICK_SAVE_MS
        if save:
            session.saved_at = session.now
        answer = _answer(engine, req["session"], sent)
        answer["save"] = save
        if name == "tick" and req.get("dropped"):
            # Texts the page left unread are a flood, said as the engine's own rate limit is: once, in words.
            answer["refused"] = {"code": "rate_limited", "message": f"{req['dropped']} texts left unread"}
        return answer

    return handler


def _identities(req: dict[str, Any]) -> tuple[str, str]:
    identities = req.get("identities")
    if not (isinstance(identities, list) and len(identities) == 2 and all(isinstance(i, str) for i in identities)):
        raise ProtocolError("bad_request", "'identities' are the two seats' proven public keys")
    return identities[0], identities[1]


def _offer(req: dict[str, Any]) -> PeerRoom:
    try:
        return read_offer(req.get("offer"), _identities(req))
    except PeerError as e:
        raise ProtocolError("bad_request", str(e)) from None


def offer(engine: Engine, req: dict[str, Any]) -> PeerOffer:
    """The room a host's first message offers, for its guest to see before joining (no session is made)."""
    return {"room": _offer(req)}


#: How often a page's ticks that change nothing are saved (the saved clock is within this of the truth).
TICK_SAVE_MS = 5_000
#: The most texts a page may say it dropped unread since its last tick.
MESSAGES_DROPPED_MAX = 1_000_000


def open_session(engine: Engine, req: dict[str, Any]) -> PeerOpened:
    """Seat 0 opens a room with its rules; seat 1 joins with the room's offer (its rules and match id come
    from there)."""
    now = request_now(req)
    seat = arg(req, "seat", int)
    if seat not in (0, 1):
        raise ProtocolError("bad_request", "'seat' is 0 (who opened the room) or 1")
    identities = _identities(req)
    name = arg(req, "name", str, "")
    if seat == 0:
        rules = engine.requested_rules(req)
        match_id = arg(req, "match", str, secrets.token_hex(16))
        if not 8 <= len(match_id) <= 200:
            raise ProtocolError("bad_request", "'match' is the match's id, 8 to 200 characters")
    else:
        room = _offer(req)
        rules, match_id = rules_from_dict(room["rules"]), room["match"]
    sign = identity_signer(req.get("key"), identities[seat])
    session = PeerSession(seat, rules, match_id, identities, new_secret(), sign, name=name)
    sent = session.start(now)
    if seat == 1:
        answer = session.receive(req["offer"], now)
        if "refused" in answer:
            raise ProtocolError("bad_request", answer["refused"]["message"])
        sent = answer["send"]
    handle = engine.new_handle("p")
    engine.peers[handle] = session
    return {"session": handle, **_answer(engine, handle, sent), "save": True}


def receive(engine: Engine, req: dict[str, Any]) -> PeerAnswer:
    session = _session(engine, req)
    got = session.receive(req.get("message"), request_now(req))
    answer = _answer(engine, req["session"], got["send"])
    if "accepted" in got:
        answer["accepted"] = got["accepted"]
    if "refused" in got:
        answer["refused"] = got["refused"]
    answer["save"] = True
    return answer


def connection(engine: Engine, req: dict[str, Any]) -> PeerAnswer:
    """The channel to the other page opened (``identity``: the one its browser proved) or was lost."""
    session = _session(engine, req)
    identity = req.get("identity")
    if identity is not None and identity != session.transcript.identities[session.other]:
        raise ProtocolError("not_the_player", "this browser is not the one this game is played with")
    sent = session.connection(arg(req, "up", bool), request_now(req))
    answer = _answer(engine, req["session"], sent)
    answer["save"] = True
    return answer


def show(engine: Engine, req: dict[str, Any]) -> PeerAnswer:
    _session(engine, req)
    return _answer(engine, req["session"], [])


def report(engine: Engine, req: dict[str, Any]) -> PeerReport:
    return {"report": _session(engine, req).report()}


def verify_report(engine: Engine, req: dict[str, Any]) -> PeerVerdict:
    from .report import describe, verdict

    found = verdict(req.get("report"))
    return {"verdict": found, "words": describe(found)}


def save(engine: Engine, req: dict[str, Any]) -> SavedAnswer:
    return {"saved": _session(engine, req).to_json()}


def restore(engine: Engine, req: dict[str, Any]) -> PeerOpened:
    now = request_now(req)
    sign = signer(req.get("key"))
    try:
        session = PeerSession.restore(req.get("saved"), sign, now=now)
        sent = session.tick(now)
    except EngineError as e:
        raise ProtocolError("bad_request", str(e)) from None
    handle = engine.new_handle("p")
    engine.peers[handle] = session
    return {"session": handle, **_answer(engine, handle, sent)}


def close(engine: Engine, req: dict[str, Any]) -> Nothing:
    _session(engine, req)
    del engine.peers[req["session"]]
    return {}


HANDLERS: dict[str, Callable[[Engine, dict[str, Any]], Answer]] = {
    "peer_offer": offer,
    "peer_open": open_session,
    "peer_receive": receive,
    "peer_act": _intent("act"),
    "peer_say": _intent("say"),
    "peer_show_cards": _intent("show_cards"),
    "peer_voice": _intent("voice_step"),
    "peer_pause": _intent("pause"),
    "peer_back": _intent("back"),
    "peer_concede": _intent("concede"),
    "peer_rematch": _intent("rematch"),
    "peer_tick": _intent("tick"),
    "peer_connection": connection,
    "peer_show": show,
    "peer_report": report,
    "peer_verify_report": verify_report,
    "peer_save": save,
    "peer_restore": restore,
    "peer_close": close,
}

#: The chat's limit, for the page's counter (refused in words beyond it).
__all__ = ["CHAT_MAX", "HANDLERS", "seat_view"]
