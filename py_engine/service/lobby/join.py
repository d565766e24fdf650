"""Asking for a table, and the opener's one answer: the first good request gets it, every later one is told.

A request names the table and the joiner's identity, is dated, and is
signed by that identity (the page sends it so only the opener can read it).
The opener's :class:`Opening` decides: a request for another table, too old,
unsigned, from a blocked identity or past its sender's quota is refused;
the first good one takes the table, and each after it is refused as
``taken`` — so two joiners racing get one table, and the other hears why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...fairplay import p256
from ...fairplay.transcript import canonical
from ..json_text import JsonTextError, parse_json, plain_text
from ..online.messages import NAME_MAX, is_time
from .certificate import Verifier
from .offer import CLOCK_SLACK_MS, Offer, OfferError

FORMAT = "sixty-six/join-1"
PREFIX = "sixty-six join 1\n"
#: A request older than this is not answered (its sender has given up waiting).
REQUEST_MS = 60 * 1000
REQUESTS_PER_MINUTE = 6
REQUEST_TEXT_MAX = 2048


def _signing_text(content: dict[str, Any]) -> bytes:
    return PREFIX.encode() + hashlib.sha256(canonical(content)).hexdigest().encode()


def join_request(table: str, identity: str, name: str, now: int, sign: Callable[[bytes], str]) -> dict[str, Any]:
    """A request for ``table``, signed by the joiner."""
    content = {"format": FORMAT, "table": table, "identity": identity, "name": plain_text(name, NAME_MAX), "at": now}
    return {**content, "sig": sign(_signing_text(content))}


@dataclass(frozen=True)
class Joiner:
    identity: str
    name: str


@dataclass
class Opening:
    """The opener's side of one open table."""

    offer: Offer
    blocked: set[str] = field(default_factory=set)
    verify: Verifier = p256.verify
    taken_by: Joiner | None = None
    cancelled: bool = False
    _asked: dict[str, list[int]] = field(default_factory=dict)

    def answer(self, text: Any, now: int) -> Joiner:
        """The joiner this request makes the table's; OfferError (``taken``, ``closed`` or why the request is
        refused) if none: the page tells that joiner in words."""
        if not isinstance(text, str) or len(text) > REQUEST_TEXT_MAX:
            raise OfferError("malformed", "a request to join is a short text")
        try:
            value = parse_json(text)
        except JsonTextError:
            raise OfferError("malformed", "a request to join is JSON") from None
        if not (isinstance(value, dict) and set(value) == {"format", "table", "identity", "name", "at", "sig"}):
            raise OfferError("malformed", "not a request to join of this version")
        identity, at = value["identity"], value["at"]
        if value["format"] != FORMAT or value["table"] != self.offer.table:
            raise OfferError("malformed", "a request for another table")
        if not (isinstance(identity, str) and identity and is_time(at) and isinstance(value["name"], str)):
            raise OfferError("malformed", "a request names its player and its time")
        self._spend(identity, now)
        if not (now - REQUEST_MS <= at <= now + CLOCK_SLACK_MS):
            raise OfferError("expired", "the request to join is too old")
        content = {k: v for k, v in value.items() if k != "sig"}
        if not (isinstance(value["sig"], str) and self.verify(identity, _signing_text(content), value["sig"])):
            raise OfferError("forged", "the request is not signed by its player")
        if identity in self.blocked or identity == self.offer.identity:
            raise OfferError("blocked", "this player may not join this table")
        if self.cancelled:
            raise OfferError("closed", "the table was closed")
        if self.taken_by is not None and self.taken_by.identity != identity:
            raise OfferError("taken", "someone else took the table first")
        self.taken_by = Joiner(identity, plain_text(value["name"], NAME_MAX))
        return self.taken_by

    def _spend(self, identity: str, now: int) -> None:
        times = [t for t in self._asked.get(identity, []) if now - t < 60_000]
        if len(times) >= REQUESTS_PER_MINUTE:
            raise OfferError("flood", "too many requests from one player in a minute")
        self._asked[identity] = [*times, now]
