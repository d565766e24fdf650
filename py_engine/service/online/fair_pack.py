"""A fair pack between two browsers: neither player chooses the cards, and the guest can check the host.

The host holds the pack during a deal (its engine referees), so the packs
must come from both players without letting either pick them, and without
letting the guest know them in advance:

1. The host draws a secret ``tail`` and hashes it ``CHAIN_LENGTH`` times:
   ``secret(i) = H^(CHAIN_LENGTH - i)(tail)``. It sends the *head*,
   ``secret(0)``, as its commitment before anything else.
2. The guest, bound to nothing it could learn from the head, sends a fresh
   secret of its own, and commits to it by hash in the same message (so the
   log shows the order; the host has already committed).
3. Deal ``i`` (1 first) is shuffled from ``secret(i)`` and the guest's secret
   (:func:`pack`); the first dealer comes from ``secret(1)`` too.
4. After each deal the host reveals ``secret(i)`` with the deal's record.
   The guest checks ``H(secret(i)) == secret(i - 1)`` (the host could not
   have chosen it after seeing the guest's secret), that the pack is the one
   the two secrets give, that every action replays legally and that what it
   was shown during the deal is what the record says (:class:`Witness`).

What this does not prevent: the host's browser knows the pack while the
deal is played (a modified host could peek). It does make a stacked or
re-dealt pack, an illegal host move and a doctored view detectable.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any

from ...core.actions import NEXT, parse_action
from ...core.cards import CARD_NAMES, deck_cards
from ...core.errors import EngineError
from ...core.events import Event
from ...core.rules import Rules, rules_from_dict
from ..match import Match, check_deck
from ..record import load_record
from ..views import filter_events

#: How many deals one commitment covers (a session of three matches to 7 needs about 40).
CHAIN_LENGTH = 256
SECRET_HEX = 64  # 32 bytes


def new_secret() -> str:
    """32 fresh random bytes from the system's source, as hex."""
    return secrets.token_hex(SECRET_HEX // 2)


def is_secret(value: Any) -> bool:
    return isinstance(value, str) and len(value) == SECRET_HEX and all(c in "0123456789abcdef" for c in value)


def _h(secret: str) -> str:
    return hashlib.sha256(b"sixty-six/chain:" + bytes.fromhex(secret)).hexdigest()


def commitment(secret: str) -> str:
    """The hash that binds a secret without showing it (the guest's commitment)."""
    return hashlib.sha256(b"sixty-six/commit:" + bytes.fromhex(secret)).hexdigest()


def chain_secret(tail: str, index: int) -> str:
    """The host's secret for deal ``index`` (0: the head, its commitment)."""
    if not 0 <= index <= CHAIN_LENGTH:
        raise ValueError(f"the host's commitment covers deals 1-{CHAIN_LENGTH}, not deal {index}")
    value = tail
    for _ in range(CHAIN_LENGTH - index):
        value = _h(value)
    return value


def follows(secret: str, previous: str) -> bool:
    """Does ``secret`` come right after ``previous`` in a chain (``H(secret) == previous``)?"""
    return is_secret(secret) and _h(secret) == previous


def _stream(host_secret: str, guest_secret: str, index: int, purpose: str) -> random.Random:
    digest = hashlib.sha256(
        f"sixty-six/{purpose}:{index}:".encode() + bytes.fromhex(host_secret) + bytes.fromhex(guest_secret)
    ).digest()
    return random.Random(int.from_bytes(digest, "big"))


def pack(deck_size: int, host_secret: str, guest_secret: str, index: int) -> list[int]:
    """The pack of deal ``index`` (1 first): shuffled from both players' secrets."""
    cards = deck_cards(deck_size)
    _stream(host_secret, guest_secret, index, "pack").shuffle(cards)
    return cards


def first_dealer(host_secret: str, guest_secret: str) -> int:
    """The first dealer of a match, from deal 1's secrets (the cut)."""
    return _stream(host_secret, guest_secret, 1, "dealer").randrange(2)


class FairPacks:
    """The host's side: its chain and the guest's secret give every deal's pack."""

    def __init__(self, tail: str, guest_secret: str) -> None:
        if not is_secret(tail) or not is_secret(guest_secret):
            raise ValueError("secrets must be 64 lowercase hex digits")
        self.tail = tail
        self.guest_secret = guest_secret

    @property
    def head(self) -> str:
        return chain_secret(self.tail, 0)

    def secret(self, index: int) -> str:
        return chain_secret(self.tail, index)

    def pack(self, deck_size: int, index: int) -> list[int]:
        return pack(deck_size, self.secret(index), self.guest_secret, index)

    def first_dealer(self) -> int:
        return first_dealer(self.secret(1), self.guest_secret)

    def new_match(self, rules: Rules) -> Match:
        """A match whose every pack (and first dealer) comes from the two secrets."""
        return Match(rules, 0, dealer=self.first_dealer(), packs=lambda i: self.pack(rules.deck, i + 1))

    def proof(self, match: Match, index: int) -> dict[str, Any]:
        """What the guest needs to check deal ``index`` (1 first), once it is over."""
        record = match.records[index - 1]
        return {
            "index": index,
            "secret": self.secret(index),
            "dealer": record.dealer,
            "deck": [CARD_NAMES[c] for c in record.deck],
            "actions": [[s, a] for s, a in match.record()["deals"][index - 1]["actions"]],
        }

    def to_json(self) -> dict[str, str]:
        return {"tail": self.tail, "guest_secret": self.guest_secret}


class Witness:
    """The guest's side: replays each finished deal the host proves, and keeps what does not check out.

    ``seat`` is the guest's seat. :meth:`saw` takes the events the guest was
    shown (as dicts, the way it received them); :meth:`check` a deal's proof.
    """

    def __init__(self, rules: Rules, head: str, guest_secret: str, seat: int) -> None:
        self.rules = rules
        self.head = head
        self.guest_secret = guest_secret
        self.seat = seat
        self.link = head
        self.replica: Match | None = None
        self.checked = 0
        self.problems: list[str] = []
        self.seen: list[dict[str, Any]] = []

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "head": self.head,
            "guest_secret": self.guest_secret,
            "seat": self.seat,
            "link": self.link,
            "replica": self.replica.record() if self.replica is not None else None,
            "checked": self.checked,
            "problems": self.problems,
            "seen": self.seen,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Witness:
        """A witness from :meth:`to_json`; raises KeyError, TypeError, ValueError, RulesError or BadRecordError if
        damaged (each field of its type)."""
        if not isinstance(data, dict):
            raise TypeError("the witness is not an object")
        if not all(is_secret(data[k]) for k in ("head", "guest_secret", "link")):
            raise ValueError("its head, link and secret must be 64 lowercase hex digits")
        seat, checked, problems, seen = data["seat"], data["checked"], data["problems"], data["seen"]
        if type(seat) is not int or seat not in (0, 1) or type(checked) is not int or checked < 0:
            raise ValueError("its seat must be 0 or 1, and the deals checked a count")
        if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
            raise ValueError("its problems must be a list of texts")
        if not isinstance(seen, list) or not all(isinstance(e, dict) for e in seen):
            raise ValueError("what it saw must be a list of events")
        witness = cls(rules_from_dict(data["rules"]), data["head"], data["guest_secret"], seat)
        witness.link = data["link"]
        witness.replica = load_record(data["replica"]) if data["replica"] is not None else None
        witness.checked = checked
        witness.problems = list(problems)
        witness.seen = list(seen)
        return witness

    def saw(self, events: list[dict[str, Any]]) -> None:
        """Events shown to the guest, in order (a new deal's ``deal`` event starts a new list)."""
        for event in events:
            if event.get("type") == "deal":
                self.seen = []
            if event.get("type") != "next":
                self.seen.append(_as_seen_plainly(event, self.seat))

    def check(self, proof: Any) -> list[str]:
        """Check one deal's proof; returns the problems found in it (also kept in ``problems``)."""
        found = self._problems_of(proof)
        self.problems += found
        return found

    def _problems_of(self, proof: Any) -> list[str]:
        expected = self.checked + 1
        if not isinstance(proof, dict) or proof.get("index") != expected:
            return [f"the host sent no valid proof of deal {expected}"]
        secret = proof.get("secret")
        if not isinstance(secret, str) or not follows(secret, self.link):
            return [f"deal {expected}: the host's secret does not match the commitment it made before the match"]
        try:
            deck = check_deck(self.rules, proof.get("deck"))
        except ValueError as e:
            return [f"deal {expected}: the pack is not a pack ({e})"]
        problems = []
        if deck != pack(self.rules.deck, secret, self.guest_secret, expected):
            problems.append(f"deal {expected}: the pack is not the one the two players' secrets give")
        dealer = proof.get("dealer")
        start = len(self.replica.events) if self.replica is not None else 0
        try:
            if self.replica is None:
                right_dealer = first_dealer(secret, self.guest_secret)
                self.replica = Match(self.rules, 0, dealer=right_dealer, deck=deck)
            else:
                if NEXT not in self.replica.legal(0):
                    raise EngineError("the game was over before this deal")
                self.replica.next_deal(deck)
                right_dealer = self.replica.dealer
            if dealer != right_dealer:
                problems.append(f"deal {expected}: seat {dealer} dealt, but it was seat {right_dealer}'s deal")
            for item in proof.get("actions") or []:
                seat, text = item
                self.replica.act(seat, parse_action(text))
        except (EngineError, ValueError, TypeError) as e:
            problems.append(f"deal {expected}: the host's record does not replay ({e})")
            self.checked = expected
            self.link = secret
            self.replica = None  # later deals cannot be replayed from a broken one
            return problems
        if not self.replica.deal.over:
            problems.append(f"deal {expected}: the record stops before the deal is over")
        replayed = self._deal_events(self.replica.events[start:])
        if self.seen != replayed:
            problems.append(f"deal {expected}: what you were shown differs from the host's record of the deal")
        self.checked = expected
        self.link = secret
        return problems

    def _deal_events(self, events: list[Event]) -> list[dict[str, Any]]:
        shown = filter_events(events, self.seat)
        return [_as_seen_plainly(e, self.seat) for e in shown if e.get("type") != "next"]


def _as_seen_plainly(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event as the seat sees it with the other hand hidden (cards shown for 10 s are not part of the record)."""
    if event.get("type") == "draw" and event.get("seat") != seat and not event.get("face_up"):
        return {k: v for k, v in event.items() if k != "card"}
    return event
