"""An open table: the offer a page publishes on the relays, and what a page makes of the offers it reads.

An offer is JSON text (a Nostr event's content; the page does the relays):
its table's id, the opener's identity (the P-256 key its pages prove, as in
a room), name and language, the rules, when it opened and until when it
stands, the rating its page claims and the signed results behind it
(:mod:`.history`). The identity signs all of it, so nobody can open a table
in another's name or lend themselves another's results.

An offer stands :data:`OFFER_MS` from its last renewal; the page renews it
while it is open. A :class:`Lobby` keeps the tables a page has read: the
newest offer of each, at most :data:`TABLES_MAX` of them, at most
:data:`OFFERS_PER_MINUTE` offers read per identity a minute, offers of
blocked identities never kept. Checking signatures is the costly part, so a
junk text is refused before any is checked.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...core.errors import EngineError
from ...core.rules import Rules, rules_from_dict
from ...fairplay import p256
from ...fairplay.transcript import canonical
from ..json_text import JsonTextError, parse_json, plain_text
from ..online.messages import NAME_MAX, is_time
from .certificate import Verifier, digest_of
from .history import Checked, History, check_history
from .rating import RATED_GAMES, Rating, pool_of, rated, rating_of

if TYPE_CHECKING:
    from ..contract import LobbyTable

FORMAT = "sixty-six/table-1"
PREFIX = "sixty-six table 1\n"
#: An offer stands this long after its last renewal (the page renews it every minute while open).
OFFER_MS = 3 * 60 * 1000
RENEW_MS = 60 * 1000
#: The most offers read from one identity in a minute (a renewal a minute, and room to open a few tables).
OFFERS_PER_MINUTE = 6
#: The most tables a lobby keeps, and the most results an offer attaches.
TABLES_MAX = 200
#: How long Quick game leaves a table that refused this page or never answered before asking it again, if it is
#: still listed then (ms): a refusal in a race, or a withdrawal that did not reach every page, must not leave two
#: Quick game tables waiting for each other, the later one never joining the earlier it was once refused by.
REFUSAL_MS = 10_000
RESULTS_ATTACHED = RATED_GAMES
#: The longest offer text read (20 results of four links each fit well within it).
OFFER_TEXT_MAX = 96 * 1024
LANGUAGES = ("en", "de", "hu", "pl", "ro", "sr")
#: How far an offer's clock may run ahead of the reading page's.
CLOCK_SLACK_MS = 5 * 60 * 1000


class OfferError(EngineError):
    """An offer refused: ``what`` is malformed, forged, expired, blocked, flood or full."""

    code = "bad_offer"

    def __init__(self, what: str, detail: str) -> None:
        super().__init__(detail)
        self.what = what


@dataclass(frozen=True)
class Offer:
    table: str
    identity: str
    name: str
    language: str
    rules: Rules
    opened: int
    renewed: int
    claimed: Rating
    results: tuple[Any, ...]

    @property
    def pool(self) -> str:
        return pool_of(self.rules)

    @property
    def expires(self) -> int:
        return self.renewed + OFFER_MS

    def content(self) -> dict[str, Any]:
        """The offer's JSON, without its signature."""
        return {
            "format": FORMAT,
            "table": self.table,
            "identity": self.identity,
            "name": self.name,
            "lang": self.language,
            "rules": self.rules.to_dict(),
            "opened": self.opened,
            "renewed": self.renewed,
            "rating": {"rating": self.claimed.rating, "games": self.claimed.games},
            "results": list(self.results),
        }


def signing_text(content: dict[str, Any]) -> bytes:
    """What an identity signs for an offer."""
    return PREFIX.encode() + hashlib.sha256(canonical(content)).hexdigest().encode()


def open_table(
    identity: str,
    name: str,
    language: str,
    rules: Rules,
    now: int,
    results: list[Any],
    history: History,
    rng: random.Random,
) -> Offer:
    """A new table's offer: the rating claimed is the one its checked ``history`` gives, and the results it
    comes from are attached, so others can work it out again."""
    if language not in LANGUAGES:
        raise OfferError("malformed", f"the language is one of {', '.join(LANGUAGES)}")
    counted = rated(identity, history.results, pool_of(rules))
    by_digest = {_digest(value): value for value in results}
    attached = [by_digest[r.digest] for r in counted]
    claimed = rating_of(identity, counted, pool_of(rules))
    table = rng.randbytes(16).hex()
    return Offer(table, identity, plain_text(name, NAME_MAX), language, rules, now, now, claimed, tuple(attached))


def renewed(offer: Offer, now: int) -> Offer:
    return replace(offer, renewed=max(offer.renewed, now))


def signed(offer: Offer, sign: Callable[[bytes], str]) -> dict[str, Any]:
    """The offer's JSON with its signature, to publish."""
    content = offer.content()
    return {**content, "sig": sign(signing_text(content))}


def read_offer(text: Any, now: int, verify: Verifier = p256.verify) -> Offer:
    """An offer as published, checked at the reading page's clock ``now``; OfferError if it is not one."""
    if not isinstance(text, str) or len(text) > OFFER_TEXT_MAX:
        raise OfferError("malformed", "an offer is a text of at most 96 KiB")
    try:
        value = parse_json(text)
    except JsonTextError as e:
        raise OfferError("malformed", f"an offer is JSON: {e}") from None
    keys = {"format", "table", "identity", "name", "lang", "rules", "opened", "renewed", "rating", "results", "sig"}
    if not (isinstance(value, dict) and set(value) == keys and value["format"] == FORMAT):
        raise OfferError("malformed", "not an offer of this version")
    table, identity, name, language = value["table"], value["identity"], value["name"], value["lang"]
    opened, renewal, rating, results = value["opened"], value["renewed"], value["rating"], value["results"]
    if not (isinstance(table, str) and len(table) == 32 and all(c in "0123456789abcdef" for c in table)):
        raise OfferError("malformed", "an offer names its table")
    if not (isinstance(identity, str) and 0 < len(identity) <= 200 and isinstance(name, str) and len(name) <= 200):
        raise OfferError("malformed", "an offer names its player")
    if language not in LANGUAGES:
        raise OfferError("malformed", "an offer's language is not one of the game's")
    if not (is_time(opened) and is_time(renewal) and opened <= renewal):
        raise OfferError("malformed", "an offer's times are not times")
    if not (
        isinstance(rating, dict)
        and set(rating) == {"rating", "games"}
        and all(type(v) is int and 0 <= v < 1_000_000 for v in rating.values())
    ):
        raise OfferError("malformed", "an offer's rating is two whole numbers")
    if not (isinstance(results, list) and len(results) <= RESULTS_ATTACHED):
        raise OfferError("malformed", f"an offer attaches at most {RESULTS_ATTACHED} results")
    if renewal + OFFER_MS < now:
        raise OfferError("expired", "the table is no longer open")
    if renewal > now + CLOCK_SLACK_MS:
        raise OfferError("expired", "the table's offer is dated in the future")
    try:
        rules = rules_from_dict(value["rules"])
    except (TypeError, ValueError) as e:
        raise OfferError("malformed", f"the table's rules are not valid: {e}") from None
    content = {k: v for k, v in value.items() if k != "sig"}
    if not (isinstance(value["sig"], str) and verify(identity, signing_text(content), value["sig"])):
        raise OfferError("forged", "the offer is not signed by its player")
    claimed = Rating(rating["rating"], rating["games"])
    return Offer(table, identity, plain_text(name, NAME_MAX), language, rules, opened, renewal, claimed, tuple(results))


def _digest(value: Any) -> str | None:
    try:
        return digest_of(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class Listed:
    """A table as the lobby shows it; ``checked``: its rating is what its attached results give."""

    offer: Offer
    checked: bool
    refused_results: int

    def to_json(self, now: int) -> LobbyTable:
        o = self.offer
        return {
            "id": o.table,
            "identity": o.identity,
            "name": o.name,
            "lang": o.language,
            "rules": o.rules.to_dict(),
            "pool": o.pool,
            "rating": o.claimed.rating,
            "games": o.claimed.games,
            "checked": self.checked,
            "open_ms": max(0, now - o.opened),
            "expires": o.expires,
        }


@dataclass
class Filters:
    """What a player hides: other rules, tables rated below ``min_rating`` or with fewer than ``min_games``
    games, and unchecked ratings."""

    pool: str | None = None
    min_rating: int = 0
    min_games: int = 0
    checked_only: bool = False

    def admit(self, listed: Listed) -> bool:
        o = listed.offer
        return (
            (self.pool is None or o.pool == self.pool)
            and o.claimed.rating >= self.min_rating
            and o.claimed.games >= self.min_games
            and (listed.checked or not self.checked_only)
        )


@dataclass
class Lobby:
    """The open tables one page has read, bounded however many offers the relays carry."""

    me: str
    blocked: set[str] = field(default_factory=set)
    verify: Verifier = p256.verify
    tables: dict[str, Listed] = field(default_factory=dict)
    withdrawn: set[str] = field(default_factory=set)
    cache: Checked = field(default_factory=Checked)
    #: Tables that refused this page or never answered, and until when Quick game leaves them (ms).
    refused: dict[str, int] = field(default_factory=dict)
    _read: dict[str, list[int]] = field(default_factory=dict)

    def take(self, text: Any, now: int, sender: str) -> Listed:
        """Reads one offer; ``sender`` is who the relay says published it (its Nostr key), whose quota is spent
        before any signature is checked. OfferError, and nothing kept, if it is refused."""
        self._spend(sender, now)
        offer = read_offer(text, now, self.verify)
        if offer.identity != sender:
            self._spend(offer.identity, now)
        if offer.identity in self.blocked:
            raise OfferError("blocked", "a table of a blocked player")
        if offer.table in self.withdrawn:
            raise OfferError("expired", "the table was withdrawn")
        kept = self.tables.get(offer.table)
        if kept is not None and (kept.offer.identity != offer.identity or kept.offer.renewed >= offer.renewed):
            return kept
        self._forget_expired(now)
        if kept is None and len(self.tables) >= TABLES_MAX:
            raise OfferError("full", f"the lobby keeps {TABLES_MAX} tables at most")
        history = check_history(offer.identity, list(offer.results), now, self.verify, self.cache)
        checked = rating_of(offer.identity, history.results, offer.pool) == offer.claimed
        listed = Listed(offer, checked, len(history.refused))
        self.tables[offer.table] = listed
        return listed

    def withdraw(self, table: str) -> None:
        """A table taken, cancelled or closed: never listed again."""
        self.withdrawn.add(table)
        self.tables.pop(table, None)

    def listing(self, now: int, filters: Filters) -> list[Listed]:
        """The tables open now that ``filters`` admit, the longest open first (the opener's own left out)."""
        self._forget_expired(now)
        shown = [t for t in self.tables.values() if t.offer.identity != self.me and filters.admit(t)]
        return sorted(shown, key=lambda t: (t.offer.opened, t.offer.table))

    def best_for(self, now: int, pool: str, rating: int, filters: Filters) -> Listed | None:
        """Quick game's pick: of the open tables of ``pool`` not refused lately, a checked one before an
        unchecked one, then the nearest rating, then the longest open."""
        tables = self._askable(now, replace(filters, pool=pool))
        if not tables:
            return None
        return min(tables, key=lambda t: (not t.checked, abs(t.offer.claimed.rating - rating), t.offer.opened))

    def opened_before(self, now: int, own: Offer, filters: Filters) -> Listed | None:
        """Quick game while this page's own table ``own`` waits: the longest open table of its pool that opened
        before it, not refused lately, for this page to join instead. Both pages read the same offers, and
        "before" compares the offers' own times, a tie going to the smaller id, so exactly one of two Quick
        game tables joins the other."""
        tables = [
            t
            for t in self._askable(now, replace(filters, pool=own.pool))
            if (t.offer.opened, t.offer.table) < (own.opened, own.table)
        ]
        return tables[0] if tables else None

    def refuse(self, table: str, now: int) -> int:
        """``table`` refused this page or never answered: Quick game leaves it for REFUSAL_MS. Until when."""
        self.refused = {t: until for t, until in self.refused.items() if until > now}
        self.refused[table] = now + REFUSAL_MS
        return self.refused[table]

    def _askable(self, now: int, filters: Filters) -> list[Listed]:
        return [t for t in self.listing(now, filters) if self.refused.get(t.offer.table, now) <= now]

    def _spend(self, identity: str, now: int) -> None:
        times = [t for t in self._read.get(identity, []) if now - t < 60_000]
        if len(times) >= OFFERS_PER_MINUTE:
            raise OfferError("flood", "too many offers from one player in a minute")
        self._read[identity] = [*times, now]
        if len(self._read) > 4 * TABLES_MAX:
            self._read = {k: v for k, v in self._read.items() if v and now - v[-1] < 60_000}

    def _forget_expired(self, now: int) -> None:
        for table in [t for t, listed in self.tables.items() if listed.offer.expires < now]:
            del self.tables[table]


def listing_json(tables: Iterable[Listed], now: int) -> list[LobbyTable]:
    return [t.to_json(now) for t in tables]
