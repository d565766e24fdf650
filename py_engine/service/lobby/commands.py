"""The protocol's ``lobby_*`` commands (docs/protocol.md, "The lobby"): the page carries offers and requests
to and from the relays; the engine makes, signs and judges them.

The opener's tables are handles (``lobby_open`` … ``lobby_close``); the
tables a page has read are one :class:`~.offer.Lobby` per engine, for the
identity that reads them (``lobby_read``, ``lobby_quick``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..online.messages import request_now
from ..online.peer_commands import identity_signer
from ..requests import ProtocolError, arg, find
from .history import Checked, check_history
from .join import Opening, join_request
from .offer import LANGUAGES, Filters, Lobby, OfferError, listing_json, open_table, renewed, signed
from .rating import pool_of, rating_of

if TYPE_CHECKING:
    from ..contract import (
        JoinRefusal,
        LobbyAnswer,
        LobbyClosed,
        LobbyOffer,
        LobbyOpened,
        LobbyQuick,
        LobbyRating,
        LobbyRead,
        LobbyRefused,
        LobbyRenewed,
        LobbyRequest,
    )
    from ..protocol import Answer, Engine

#: The most offers one ``lobby_read`` reads (the page reads the relays' newest first).
READ_MAX = 500
#: The most closed tables whose handles stay, so that a request that comes late is answered "closed".
CLOSED_KEPT = 20


def _results(req: dict[str, Any]) -> list[Any]:
    results: list[Any] = arg(req, "results", list, [])
    if len(results) > 1_000:
        raise ProtocolError("bad_request", "'results' holds at most 1,000 signed results")
    return results


def _identity(req: dict[str, Any], key: str = "identity") -> str:
    identity: str = arg(req, key, str)
    if not 0 < len(identity) <= 200:
        raise ProtocolError("bad_request", f"{key!r} is a player's public key")
    return identity


def _own_signer(req: dict[str, Any], identity: str) -> Callable[[bytes], str]:
    return identity_signer(req.get("key"), identity)


def _checked(engine: Engine) -> Checked:
    return engine.lobby_state.setdefault("checked", Checked())  # type: ignore[no-any-return]


def rating(engine: Engine, req: dict[str, Any]) -> LobbyRating:
    """A player's rating for some rules from its own signed results, each one counted or refused in words."""
    now = request_now(req)
    identity = _identity(req)
    pool = pool_of(engine.requested_rules(req))
    history = check_history(identity, _results(req), now, cache=_checked(engine))
    found = rating_of(identity, history.results, pool)
    return {"pool": pool, "rating": found.rating, "games": found.games, "refused": list(history.refused)}


def open_(engine: Engine, req: dict[str, Any]) -> LobbyOpened:
    """A new table: its handle and its signed offer (text) to publish."""
    now = request_now(req)
    identity = _identity(req)
    sign = _own_signer(req, identity)
    language = arg(req, "lang", str, "en")
    if language not in LANGUAGES:
        raise ProtocolError("bad_request", f"'lang' is one of {', '.join(LANGUAGES)}")
    results = _results(req)
    history = check_history(identity, results, now, cache=_checked(engine))
    rules = engine.requested_rules(req)
    name = arg(req, "name", str, "")
    offer = open_table(identity, name, language, rules, now, results, history, random.SystemRandom())
    handle = engine.new_handle("o")
    engine.openings[handle] = Opening(offer, blocked=set(_blocked(req)))
    return {"table": handle, **_published(engine.openings[handle], sign)}


def _published(opening: Opening, sign: Callable[[bytes], str]) -> LobbyOffer:
    o = opening.offer
    text = json.dumps(signed(o, sign), separators=(",", ":"))
    return {"offer": text, "id": o.table, "pool": o.pool, "rating": o.claimed.rating, "games": o.claimed.games}


def renew(engine: Engine, req: dict[str, Any]) -> LobbyRenewed:
    """The table's offer again, renewed (the page publishes it every minute while the table is open)."""
    opening = find(req, "table", engine.openings)
    now = request_now(req)
    opening.offer = renewed(opening.offer, now)
    return {**_published(opening, _own_signer(req, opening.offer.identity)), "expires": opening.offer.expires}


def answer(engine: Engine, req: dict[str, Any]) -> LobbyAnswer:
    """A request to join the table: ``joined`` (the one who gets it) or ``refused`` (in words, for that joiner)."""
    opening = find(req, "table", engine.openings)
    try:
        joiner = opening.answer(req.get("request"), request_now(req))
    except OfferError as e:
        # A join is refused as taken, closed, expired, forged, blocked, flood or malformed (lobby/join.py).
        return {"refused": cast("JoinRefusal", {"what": e.what, "message": str(e)})}
    return {"joined": {"identity": joiner.identity, "name": joiner.name}}


def close(engine: Engine, req: dict[str, Any]) -> LobbyClosed:
    """The table is cancelled or its page goes: later requests are told it closed. Its handle stays for that
    (only the newest CLOSED_KEPT closed tables: an older one's handle is unknown)."""
    handle = arg(req, "table", str)
    opening = find(req, "table", engine.openings)
    opening.cancelled = True
    # Kept as the newest closed one: the dict's order is the order of closing among the closed.
    del engine.openings[handle]
    engine.openings[handle] = opening
    closed = [h for h, o in engine.openings.items() if o.cancelled]
    for old in closed[: max(0, len(closed) - CLOSED_KEPT)]:
        del engine.openings[old]
    return {"closed": opening.offer.table}


def _blocked(req: dict[str, Any]) -> list[str]:
    blocked: list[str] = arg(req, "blocked", list, [])
    if not all(isinstance(b, str) for b in blocked):
        raise ProtocolError("bad_request", "'blocked' is a list of identities")
    return blocked


def _filters(req: dict[str, Any]) -> Filters:
    raw = arg(req, "filters", dict, {})
    unknown = set(raw) - {"min_rating", "min_games", "checked_only"}
    if unknown:
        raise ProtocolError("bad_request", f"unknown filter {sorted(unknown)[0]!r}")
    numbers = [raw.get(k, 0) for k in ("min_rating", "min_games")]
    if not all(type(n) is int and 0 <= n < 1_000_000 for n in numbers) or not isinstance(
        raw.get("checked_only", False), bool
    ):
        raise ProtocolError("bad_request", "filters are whole numbers and checked_only true or false")
    return Filters(None, numbers[0], numbers[1], raw.get("checked_only", False))


def _lobby(engine: Engine, req: dict[str, Any]) -> Lobby:
    me = _identity(req, "me")
    lobby = engine.lobby_state.get("lobby")
    if not isinstance(lobby, Lobby) or lobby.me != me:
        lobby = engine.lobby_state["lobby"] = Lobby(me=me, cache=_checked(engine))
    lobby.blocked = set(_blocked(req))
    for table in [t for t, listed in lobby.tables.items() if listed.offer.identity in lobby.blocked]:
        del lobby.tables[table]
    return lobby


def read(engine: Engine, req: dict[str, Any]) -> LobbyRead:
    """Reads offers from the relays (``[{text, sender}]``, newest first) into this page's lobby; answers the
    tables the filters admit and how many offers were refused, by reason."""
    now = request_now(req)
    lobby = _lobby(engine, req)
    offers = arg(req, "offers", list, [])
    refused: Counter[str] = Counter()
    for item in offers[:READ_MAX]:
        if not (isinstance(item, dict) and isinstance(item.get("sender"), str)):
            refused["malformed"] += 1
            continue
        try:
            lobby.take(item.get("text"), now, item["sender"])
        except OfferError as e:
            refused[e.what] += 1
    refused["unread"] += max(0, len(offers) - READ_MAX)
    for table in arg(req, "withdrawn", list, []):
        if isinstance(table, str):
            lobby.withdraw(table)
    pool = arg(req, "pool", str, None)
    filters = _filters(req)
    filters.pool = pool
    tables = lobby.listing(now, filters)
    return {"tables": listing_json(tables, now), "refused": {k: v for k, v in sorted(refused.items()) if v}}


def quick(engine: Engine, req: dict[str, Any]) -> LobbyQuick:
    """Quick game's pick among the tables read: one of these rules for a player of ``rating``, or null. With
    ``waiting`` (the handle of this page's own Quick game table, open and not yet given), the table opened before
    it to join instead, or null (Lobby.opened_before)."""
    now = request_now(req)
    lobby = _lobby(engine, req)
    if "waiting" in req:
        own = find(req, "waiting", engine.openings)
        if own.cancelled or own.taken_by is not None:
            return {"table": None}
        earlier = lobby.opened_before(now, own.offer, _filters(req))
        return {"table": None if earlier is None else earlier.to_json(now)}
    rating_now = arg(req, "rating", int, 1500)
    best = lobby.best_for(now, pool_of(engine.requested_rules(req)), rating_now, _filters(req))
    return {"table": None if best is None else best.to_json(now)}


def refused(engine: Engine, req: dict[str, Any]) -> LobbyRefused:
    """A table (``table_id``) refused this page's request or never answered: Quick game leaves it for a while
    (Lobby.refuse)."""
    table = arg(req, "table_id", str)
    if not 0 < len(table) <= 200:
        raise ProtocolError("bad_request", "'table_id' is a table's id")
    return {"until": _lobby(engine, req).refuse(table, request_now(req))}


def request(engine: Engine, req: dict[str, Any]) -> LobbyRequest:
    """A signed request to join a table (its id), for the page to send to the table's opener."""
    identity = _identity(req)
    table = arg(req, "table_id", str)
    value = join_request(table, identity, arg(req, "name", str, ""), request_now(req), _own_signer(req, identity))
    return {"request": json.dumps(value, separators=(",", ":"))}


COMMANDS: dict[str, Callable[[Engine, dict[str, Any]], Answer]] = {
    "lobby_rating": rating,
    "lobby_open": open_,
    "lobby_renew": renew,
    "lobby_answer": answer,
    "lobby_close": close,
    "lobby_read": read,
    "lobby_quick": quick,
    "lobby_refused": refused,
    "lobby_request": request,
}
