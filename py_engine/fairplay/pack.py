"""A pack that no browser holds: the two-party commutative shuffle of one deal (Shamir, Rivest, Adleman).

Each card is an element of ristretto255 derived by hashing the deal's context
and the card (:func:`card_elements`): nobody knows a relation between two
cards, so an encrypted card tells nothing of which card it is. Encrypting is
multiplying by a secret scalar, and two encryptions commute.

The four steps (each a list of ``n`` encodings, one message each):

1. the *first* side encrypts every card under its deal key ``a``, shuffles and
   sends the list;
2. the *second* encrypts each entry under ``b``, shuffles and sends it back;
3. the first replaces ``a`` by one key per position: entry ``i`` times ``a_i/a``;
4. the second does the same with ``b_i/b``. Position ``i`` now holds
   ``a_i·b_i·card``, and both sides keep that final pack.

A side learns position ``i`` only when the other releases its key for it
(:meth:`Shuffle.open`). At the end of the deal both release every key
(:meth:`Shuffle.keys`), and each side checks the other's two steps
(:meth:`Shuffle.audit`), which also gives the whole pack. Each side checks
only the other: a fault it finds is the other's (:class:`Cheat`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import group
from .group import ORDER, NotAnElement, Point

FIRST, SECOND = 0, 1
ROLE_NAMES = ("first", "second")
SCALAR_HEX = 64
ELEMENT_HEX = 64


class Cheat(Exception):
    """What a side did that an honest side cannot do, proven by its own messages.

    ``by`` is the role of the side at fault; ``what`` a stable code; ``detail``
    the words; ``position`` the pack position concerned, if any.
    """

    def __init__(self, by: int, what: str, detail: str, position: int | None = None) -> None:
        super().__init__(detail)
        self.by = by
        self.what = what
        self.detail = detail
        self.position = position


def card_elements(context: bytes, cards: Sequence[int]) -> list[Point]:
    """One element per card, bound to this deal's context (its match and number)."""
    return [group.hash_to_element(b"sixty-six card", context, bytes([card])) for card in cards]


def context_of(match_id: str, deal_number: int) -> bytes:
    """The bytes that bind a deal's cards and keys to it: a key of one deal opens nothing in another."""
    return hashlib.sha256(f"sixty-six deal\n{match_id}\n{deal_number}".encode()).digest()


def scalar_hex(k: int) -> str:
    return k.to_bytes(32, "little").hex()


def _scalar(value: Any, by: int, what: str) -> int:
    if not (isinstance(value, str) and len(value) == SCALAR_HEX):
        raise Cheat(by, "malformed", f"{what} is not a key")
    try:
        k = int.from_bytes(bytes.fromhex(value), "little")
    except ValueError:
        raise Cheat(by, "malformed", f"{what} is not a key") from None
    if not 0 < k < ORDER:
        raise Cheat(by, "malformed", f"{what} is not a key")
    return k


def _elements(value: Any, size: int, by: int, step: int) -> list[Point]:
    """A step's list, checked at once: ``size`` distinct encodings of elements other than the identity."""
    if not (isinstance(value, list) and len(value) == size and all(isinstance(e, str) for e in value)):
        raise Cheat(by, "malformed", f"step {step} is not a list of {size} entries")
    if len(set(value)) != size:
        raise Cheat(by, "duplicate", f"step {step} holds an entry twice")
    points = []
    for entry in value:
        if not (isinstance(entry, str) and len(entry) == ELEMENT_HEX):
            raise Cheat(by, "malformed", f"step {step} holds an entry that is not an element")
        try:
            point = group.decode(bytes.fromhex(entry))
        except (ValueError, NotAnElement):
            raise Cheat(by, "malformed", f"step {step} holds an entry that is not an element") from None
        if group.equal(point, group.IDENTITY):
            raise Cheat(by, "malformed", f"step {step} holds the identity")
        points.append(point)
    return points


def _hexes(points: Sequence[Point]) -> list[str]:
    return [group.encode(p).hex() for p in points]


@dataclass(frozen=True)
class Keys:
    """Everything one side released at the end of a deal: its deal key, one key per position, and the
    order of its shuffle (a hint that lets the audit check both steps at once; without it, or if it is
    false, the audit checks entry by entry)."""

    deal: int
    positions: tuple[int, ...]
    order: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        keys: dict[str, Any] = {"deal": scalar_hex(self.deal), "positions": [scalar_hex(k) for k in self.positions]}
        if self.order is not None:
            keys["order"] = list(self.order)
        return keys

    @classmethod
    def from_json(cls, value: Any, size: int, by: int) -> Keys:
        if not (isinstance(value, dict) and set(value) in ({"deal", "positions"}, {"deal", "positions", "order"})):
            raise Cheat(by, "malformed", "the released keys are not keys")
        positions = value["positions"]
        if not (isinstance(positions, list) and len(positions) == size):
            raise Cheat(by, "malformed", f"the released keys are not {size} position keys")
        order = value.get("order")
        if "order" in value and not (
            isinstance(order, list) and all(type(i) is int for i in order) and sorted(order) == list(range(size))
        ):
            raise Cheat(by, "malformed", "the released shuffle order is not an order of the pack")
        return cls(
            _scalar(value["deal"], by, "the deal key"),
            tuple(_scalar(k, by, f"the key of position {i}") for i, k in enumerate(positions)),
            None if order is None else tuple(order),
        )


@dataclass(frozen=True)
class Steps:
    """The four lists of one deal's shuffle, as sent (hex encodings)."""

    lists: tuple[tuple[str, ...], ...]


def _side_lists(role: int, cards: Sequence[int], context: bytes, steps: Steps) -> tuple[Sequence[str], ...]:
    """A side's input, its shuffled list, and the lists before and after its re-keying (hex)."""
    if role == FIRST:
        source = _hexes(card_elements(context, cards))
        return source, steps.lists[0], steps.lists[1], steps.lists[2]
    return steps.lists[0], steps.lists[1], steps.lists[2], steps.lists[3]


@dataclass(frozen=True)
class Challenge:
    """The checker's secret random weights to check a side's two steps in one sum each, with the sums that
    need none of the side's keys (made ahead, in idle time): a false step passes with odds of 2^-128."""

    shuffle_weights: tuple[int, ...]
    rekey_weights: tuple[int, ...]
    #: Σ weight·entry of the side's shuffled list, and of its re-keyed list.
    shuffled_sum: Point
    rekeyed_sum: Point

    @classmethod
    def of(cls, weights: Sequence[int], shuffled: Sequence[Point], after: Sequence[Point]) -> Challenge:
        size = len(shuffled)
        r, u = tuple(weights[:size]), tuple(weights[size : 2 * size])
        return cls(
            r,
            u,
            group.combination(list(zip(r, shuffled, strict=True))),
            group.combination(list(zip(u, after, strict=True))),
        )


def verify_steps(
    role: int,
    cards: Sequence[int],
    context: bytes,
    steps: Steps,
    keys: Keys,
    points: Sequence[Sequence[Point]],
    challenge: Challenge,
) -> list[int]:
    """Check with its keys that ``role`` did its two steps honestly; :class:`Cheat` by ``role`` if not.

    Gives the mapping its shuffle made: for the first, the card of each entry
    of step 1; for the second, for each entry of step 2, the entry of step 1
    it came from. ``points``: the side's four lists (:func:`_side_lists`)
    as elements; ``challenge``: the checker's own weights and sums.
    """
    size = len(cards)
    if len(keys.positions) != size or len(steps.lists) != 4:
        raise Cheat(role, "malformed", "the keys or steps do not fit the pack")
    order = keys.order
    if order is not None and sorted(order) == list(range(size)):
        source, _, before, _ = points
        if _both_steps_hold(keys, order, source, before, challenge):
            return [cards[i] for i in order] if role == FIRST else list(order)
    return _verify_each(role, cards, context, steps, keys)


def _both_steps_hold(
    keys: Keys, order: Sequence[int], source: Sequence[Point], before: Sequence[Point], challenge: Challenge
) -> bool:
    """Σ r_j·shuffled_j = k·Σ r_j·source_order(j), and Σ u_i·after_i = Σ (u_i·k_i/k)·before_i."""
    inverse = pow(keys.deal, -1, ORDER)
    picked = group.combination([(r, source[i]) for r, i in zip(challenge.shuffle_weights, order, strict=True)])
    if not group.equal(challenge.shuffled_sum, group.multiply(keys.deal, picked)):
        return False
    weights = zip(challenge.rekey_weights, keys.positions, before, strict=True)
    rekeyed = group.combination([(u * k % ORDER * inverse % ORDER, b) for u, k, b in weights])
    return group.equal(challenge.rekeyed_sum, rekeyed)


def _verify_each(role: int, cards: Sequence[int], context: bytes, steps: Steps, keys: Keys) -> list[int]:
    """The check entry by entry: the slow way, which also names the entry at fault."""
    size = len(cards)
    source_hex, shuffled, before, after = _side_lists(role, cards, context, steps)
    source = [bytes.fromhex(e) for e in source_hex]
    index = {e: i for i, e in enumerate(shuffled)}
    mapping = [-1] * size
    for i, encoded in enumerate(source):
        mine = group.encode(group.multiply(keys.deal, group.decode(encoded))).hex()
        j = index.get(mine)
        if j is None or mapping[j] >= 0:
            raise Cheat(role, "bad_shuffle", f"the {ROLE_NAMES[role]} shuffle is not the pack under its deal key")
        mapping[j] = i
    inverse = pow(keys.deal, -1, ORDER)
    for i, (b, a) in enumerate(zip(before, after, strict=True)):
        rekeyed = group.multiply(keys.positions[i] * inverse, group.decode(bytes.fromhex(b)))
        if group.encode(rekeyed).hex() != a:
            raise Cheat(role, "bad_rekey", f"position {i} was not re-keyed with its released key", i)
    return [cards[j] for j in mapping] if role == FIRST else mapping


class Shuffle:
    """One side's part of one deal's pack: its secrets, the four steps, and what it has opened."""

    def __init__(self, role: int, cards: Sequence[int], context: bytes, rng: random.Random) -> None:
        self.role = role
        self.other = 1 - role
        self.cards = tuple(cards)
        self.context = context
        self._rng = rng
        self._points = card_elements(context, cards)
        self._by_encoding = {group.encode(p): c for p, c in zip(self._points, self.cards, strict=True)}
        self._deal_key = rng.randrange(1, ORDER)
        self._position_keys = tuple(rng.randrange(1, ORDER) for _ in cards)
        self._order: list[int] = []  # own shuffle: entry j of my list came from entry _order[j] of its input
        self._lists: list[tuple[str, ...]] = []
        self._point_lists: list[tuple[Point, ...]] = []  # the same lists, as elements
        self._challenge: Challenge | None = None
        self.deck: tuple[Point, ...] = ()
        #: Cards opened so far, by position, and the other's keys that opened them.
        self.opened: dict[int, int] = {}
        self._their_keys: dict[int, int] = {}

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def ready(self) -> bool:
        return bool(self.deck)

    @property
    def steps(self) -> Steps:
        return Steps(tuple(self._lists))

    def start(self) -> list[str]:
        """The first side's step 1."""
        assert self.role == FIRST and not self._lists
        return self._encrypt_and_shuffle(self._points)

    def answer(self, received: Any) -> list[str] | None:
        """Take the other's step; give the next step to send (None once the pack is ready)."""
        step = len(self._lists) + 1
        if self.ready or step % 2 != (1 if self.role == SECOND else 0):
            raise Cheat(self.other, "out_of_turn", f"a shuffle step {step} that was not expected")
        points = _elements(received, self.size, self.other, step)
        if tuple(received) in self._lists:
            raise Cheat(self.other, "replayed", f"step {step} repeats an earlier list")
        self._lists.append(tuple(received))
        self._point_lists.append(tuple(points))
        if step == 1:
            return self._encrypt_and_shuffle(points)
        if step == 2 or step == 3:
            inverse = pow(self._deal_key, -1, ORDER)
            rekeyed = [group.multiply(k * inverse, p) for k, p in zip(self._position_keys, points, strict=True)]
            if step == 3:
                self.deck = tuple(rekeyed)
            sent = _hexes(rekeyed)
            self._lists.append(tuple(sent))
            self._point_lists.append(tuple(rekeyed))
            return sent
        self.deck = tuple(points)
        return None

    def _encrypt_and_shuffle(self, points: Sequence[Point]) -> list[str]:
        order = list(range(self.size))
        self._rng.shuffle(order)
        self._order = order
        encrypted = [group.multiply(self._deal_key, points[i]) for i in order]
        sent = _hexes(encrypted)
        self._lists.append(tuple(sent))
        self._point_lists.append(tuple(encrypted))
        return sent

    def key(self, position: int) -> str:
        """This side's key for a position, to release it to the other."""
        return scalar_hex(self._position_keys[position])

    def open(self, position: int, their_key: Any) -> int:
        """The card at ``position``, with the other's key for it; :class:`Cheat` if the key opens no card.

        A card can be opened once per position; the same card at two positions is
        the other's fault (an honest side only ever permutes and re-keys).
        """
        if position in self.opened:
            return self.opened[position]
        k = _scalar(their_key, self.other, f"the key of position {position}")
        both = k * self._position_keys[position] % ORDER
        plain = group.encode(group.multiply(pow(both, -1, ORDER), self.deck[position]))
        card = self._by_encoding.get(plain)
        if card is None:
            raise Cheat(self.other, "false_key", f"the key for position {position} opens no card", position)
        if card in self.opened.values():
            raise Cheat(self.other, "duplicate", f"position {position} holds a card already seen elsewhere", position)
        self.opened[position] = card
        self._their_keys[position] = k
        return card

    def open_all(self, pairs: Sequence[tuple[int, Any]]) -> dict[int, int]:
        """Open every position with its key, or none: a false key leaves nothing opened or kept."""
        opened, keys = dict(self.opened), dict(self._their_keys)
        try:
            return {position: self.open(position, key) for position, key in pairs}
        except Cheat:
            self.opened, self._their_keys = opened, keys
            raise

    def keys(self) -> Keys:
        """Every key of this side, released when the deal is over."""
        return Keys(self._deal_key, self._position_keys, tuple(self._order))

    def _their_points(self) -> tuple[Sequence[Point], ...]:
        """The other's input, shuffled list, and lists before and after its re-keying, as elements."""
        lists = self._point_lists
        if self.other == FIRST:
            return self._points, lists[0], lists[1], lists[2]
        return lists[0], lists[1], lists[2], lists[3]

    def prepare_audit(self) -> Challenge:
        """The audit's work that needs none of the other's keys, done once (ahead, in idle time) when the pack
        is ready: the secret weights and the sums of the other's lists under them."""
        assert self.ready
        if self._challenge is None:
            _, shuffled, _, after = self._their_points()
            weights = [self._rng.getrandbits(128) for _ in range(2 * self.size)]
            self._challenge = Challenge.of(weights, shuffled, after)
        return self._challenge

    def audit(self, theirs: Keys) -> list[int]:
        """Check the other's two steps with its released keys; the whole pack, card by position."""
        their_mapping = verify_steps(
            self.other, self.cards, self.context, self.steps, theirs, self._their_points(), self.prepare_audit()
        )
        if self.role == FIRST:
            first_cards = [self.cards[i] for i in self._order]
            pack = [first_cards[j] for j in their_mapping]
        else:
            pack = [their_mapping[j] for j in self._order]
        for position, k in self._their_keys.items():
            if theirs.positions[position] != k:
                raise Cheat(
                    self.other, "key_changed", f"the key of position {position} differs from the one released", position
                )
        return pack
