"""The protocol's ``online_*`` commands (docs/protocol.md, "Online"): sessions by handle, as tables are."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..requests import MAX_BUDGET_MS, MS, ProtocolError, arg, find, left_of, positive
from .guest import GuestSession
from .host import HostSession
from .messages import request_now

if TYPE_CHECKING:
    from ..protocol import Engine

Session = HostSession | GuestSession


def _session(engine: Engine, req: dict[str, Any]) -> Session:
    return find(req, "session", engine.online)


def _host(engine: Engine, req: dict[str, Any]) -> HostSession:
    session = _session(engine, req)
    if not isinstance(session, HostSession):
        raise ProtocolError("bad_request", "this is the guest's side of the game, not the host's")
    return session


def _guest(engine: Engine, req: dict[str, Any]) -> GuestSession:
    session = _session(engine, req)
    if not isinstance(session, GuestSession):
        raise ProtocolError("bad_request", "this is the host's side of the game, not the guest's")
    return session


def _add(engine: Engine, session: Session, answer: dict[str, Any]) -> dict[str, Any]:
    """Register a new session with its answer, once that is complete: a refused request registers nothing."""
    handle = engine.new_handle("o")
    engine.online[handle] = session
    return {"session": handle, **answer}


def host(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    now = request_now(req)
    session = HostSession(engine.requested_rules(req), arg(req, "name", str, ""), arg(req, "identity", str, ""))
    session.now = now
    # The room goes to each guest's browser when it connects (online_connection), after proving its identity.
    return _add(engine, session, {**session.tick(now), "save": True})


def from_guest(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {**_host(engine, req).from_guest(req.get("message"), request_now(req)), "save": True}


def host_do(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {**_host(engine, req).do(arg(req, "intent", dict), request_now(req)), "save": True}


def computer(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    session = _host(engine, req)
    budget = left_of(positive(req, "budget_ms", MAX_BUDGET_MS, MS), started)
    return {**session.computer(request_now(req), budget_ms=budget, seed=arg(req, "seed", int, None)), "save": True}


def guest_open(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    now = request_now(req)
    session = GuestSession.open(req.get("message"), arg(req, "identity", str, ""))
    session.now = now
    return _add(engine, session, {"room": session.room})


def guest_join(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    guest = _guest(engine, req)
    return {**guest.join(arg(req, "name", str, ""), arg(req, "identity", str, "")), "save": True}


def from_host(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {**_guest(engine, req).from_host(req.get("message"), request_now(req)), "save": True}


def guest_do(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {**_guest(engine, req).do(arg(req, "intent", dict)), "save": True}


def reconnect(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return _guest(engine, req).reconnect()


def tick(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {**_session(engine, req).tick(request_now(req)), "save": True}


def connection(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    up = arg(req, "up", bool)
    identity = arg(req, "identity", str, "")
    return {**_session(engine, req).connection(up, request_now(req), identity), "save": True}


def save(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    return {"saved": _session(engine, req).saved()}


def restore(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    saved = req.get("saved")
    now = request_now(req)
    session: Session
    if isinstance(saved, dict) and saved.get("online") == "guest":
        session = GuestSession.restore(saved, now)
        shown = {"show": session.show, "status": session.status} if session.show else {}
        return _add(engine, session, {"side": "guest", **shown, **session.tick(now)})
    session = HostSession.restore(saved, now)
    return _add(engine, session, {"side": "host", **session.tick(now)})


def close(engine: Engine, req: dict[str, Any]) -> dict[str, Any]:
    _session(engine, req)
    del engine.online[req["session"]]
    return {}


HANDLERS: dict[str, Callable[[Engine, dict[str, Any]], dict[str, Any]]] = {
    "online_host": host,
    "online_from_guest": from_guest,
    "online_host_do": host_do,
    "online_computer": computer,
    "online_guest_open": guest_open,
    "online_guest_join": guest_join,
    "online_from_host": from_host,
    "online_guest_do": guest_do,
    "online_reconnect": reconnect,
    "online_tick": tick,
    "online_connection": connection,
    "online_save": save,
    "online_restore": restore,
    "online_close": close,
}
