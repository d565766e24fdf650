"""Links: a finished deal (and a position in it), or a puzzle, as a short text for a URL's fragment.

A link is ``<kind>=<version>.<data>``: ``deal=1.…`` or ``puzzle=1.…``, where
``data`` is base64url (no padding) of a body and a CRC-32 of the link's
prefix and body. The version is in the clear, so that a link from another
version of the format is told apart from a damaged one.

A deal's body (version 1) holds what replays it exactly, as a record does
(:func:`py_engine.service.record.load_record`): the rules (a preset and the
parameters changed from it), the dealer, the pack as the index of its order
among all orders of the pack (8 bytes for 20 cards, 10 for 24), the match's
score and carried points before the deal (the computer values a result by
what the winner still needs), and the actions. Each action is the index of
the (seat, action) chosen among those possible at that point (the seat on
turn's legal actions, then the other seat's claim where it may claim), all of
them one number in mixed radix: a typical deal takes 10 to 20 bytes of
actions. A position is a step of the deal as played and, optionally, a line
of other actions played from there.

Only finished deals are linked: the pack of a deal in play is secret.
:func:`deal_link` refuses one, and :func:`decode` refuses a link whose actions
do not finish the deal. A puzzle's body is its id.

Errors: :class:`LinkError` (protocol code ``bad_link``), with a ``reason`` of
``LINK_ERROR_REASONS``.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from dataclasses import dataclass
from typing import Any

from ..core.actions import CLAIM
from ..core.cards import deck_cards
from ..core.deal import Deal
from ..core.errors import EngineError
from ..core.rules import BOOLEANS, CHOICES, PARAMETERS, PRESET_IDS, PRESETS, Rules, RulesError, make_rules
from .match import Match
from .record import load_record

#: The version of the link format this engine writes and reads.
LINK_VERSION = 1
KINDS = ("deal", "puzzle")
#: Why a link was refused: not a link at all, damaged (altered, cut short, or inconsistent), made by
#: another version of the format, or a deal that is not finished (a link never holds a deal in play).
LINK_ERROR_REASONS = ("not_link", "damaged", "version", "unfinished")
#: A puzzle's id: letters, digits and ``_ . : + -``, up to 64 of them.
PUZZLE_ID = re.compile(r"[A-Za-z0-9_.:+-]{1,64}")
#: The longest text :func:`decode` reads (a deal's link is under 100 characters).
MAX_LINK_CHARS = 2000
_SHAPE = re.compile(r"([a-z]+)=([0-9]{1,6})\.([A-Za-z0-9_-]*)")
_CHECK_BYTES = 4
_PACK_BYTES = {20: 8, 24: 10}
_MAX_ACTIONS = 255

# The flags byte of a deal's body: the preset's index in its low three bits, then these.
_DEALER = 1 << 3
_POSITION = 1 << 4
_CONTEXT = 1 << 5
_SEAT = 1 << 6


class LinkError(EngineError):
    """A link that cannot be made or opened; ``reason`` is one of ``LINK_ERROR_REASONS``."""

    code = "bad_link"

    def __init__(self, message: str, reason: str = "damaged", values: dict[str, Any] | None = None):
        super().__init__(message)
        assert reason in LINK_ERROR_REASONS, reason
        self.reason = reason
        self.values: dict[str, Any] = values or {}

    @property
    def detail(self) -> dict[str, Any]:
        return {"reason": self.reason, "values": self.values}


Move = tuple[int, int]
"""A (seat, action) pair, as records hold them."""


@dataclass(frozen=True, slots=True)
class DealLink:
    """A finished deal and, optionally, a position in it.

    ``actions``: the deal as played. ``step``: the position after that many of
    them (None: no position, the start); ``line``: actions played from there
    instead of the deal's own. ``scores`` and ``carry``: the match before the
    deal. ``seat``: the seat drawn at the bottom.
    """

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[Move, ...]
    scores: tuple[int, int] = (0, 0)
    carry: int = 0
    seat: int = 0
    step: int | None = None
    line: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class PuzzleLink:
    """A puzzle, by its id (the puzzle screen opens it)."""

    id: str


Link = DealLink | PuzzleLink


# ------------------------------------------------------------------- making


def deal_link(match: Match, index: int, *, step: int | None = None, seat: int = 0) -> DealLink:
    """Deal ``index`` (0-based, in the match's whole record) as a link; refuses a deal still in play.

    The deal's context (the match score and carried points before it) comes
    from replaying the record up to it, as a review does.
    """
    records = match.records
    if not 0 <= index < len(records):
        raise LinkError(f"no deal {index} in this game", "damaged", {"deal": index})
    if index == len(records) - 1 and not match.deal.over:
        raise LinkError("the deal is still being played: only a finished deal has a link", "unfinished")
    record = match.record()
    entry = record["deals"][index]
    before = load_record({**record, "deals": [*record["deals"][:index], {**entry, "actions": []}]})
    actions = tuple((seat_, action) for seat_, action in records[index].actions)
    if step is not None and not 0 <= step <= len(actions):
        raise LinkError(f"no step {step}: the deal has {len(actions)} actions", "damaged", {"step": step})
    return DealLink(
        rules=match.rules,
        dealer=records[index].dealer,
        deck=tuple(records[index].deck),
        actions=actions,
        scores=(before.scores[0], before.scores[1]),
        carry=before.carry,
        seat=seat,
        step=step,
    )


def encode(link: Link) -> str:
    """The link's text (without ``#``). Raises :class:`LinkError` for a deal that does not replay to its end."""
    if isinstance(link, PuzzleLink):
        if not PUZZLE_ID.fullmatch(link.id):
            raise LinkError(f"not a puzzle id: {link.id!r}", "damaged")
        return _wrap("puzzle", link.id.encode("ascii"))
    return _wrap("deal", _deal_body(link))


def _wrap(kind: str, body: bytes) -> str:
    prefix = f"{kind}={LINK_VERSION}."
    check = zlib.crc32(prefix.encode("ascii") + body).to_bytes(_CHECK_BYTES, "big")
    return prefix + base64.urlsafe_b64encode(body + check).decode("ascii").rstrip("=")


def _deal_body(link: DealLink) -> bytes:
    rules = link.rules
    base = PRESETS.get(rules.id)
    if base is None:
        raise LinkError(f"rules of an unknown preset {rules.id!r}", "damaged")
    changed = [p for p in PARAMETERS if getattr(rules, p) != getattr(base, p)]
    if len(link.actions) > _MAX_ACTIONS or len(link.line) > _MAX_ACTIONS:
        raise LinkError("too many actions for a link", "damaged")
    if not all(0 <= v < 256 for v in (*link.scores, link.carry)):
        raise LinkError("the match's score does not fit a link", "damaged")
    position = link.step is not None or bool(link.line)
    step = len(link.actions) if link.step is None else link.step
    if not 0 <= step <= len(link.actions):
        raise LinkError(f"no step {step}: the deal has {len(link.actions)} actions", "damaged")
    context = link.scores != (0, 0) or link.carry != 0
    flags = PRESET_IDS.index(base.id)
    flags |= (_DEALER if link.dealer else 0) | (_POSITION if position else 0)
    flags |= (_CONTEXT if context else 0) | (_SEAT if link.seat else 0)
    out = bytearray([flags])
    if context:
        out += bytes([link.scores[0], link.scores[1], link.carry])
    out.append(len(changed))
    for param in changed:
        value = getattr(rules, param)
        values = (False, True) if param in BOOLEANS else CHOICES[param]
        out += bytes([PARAMETERS.index(param), values.index(value)])
    out += _pack_index(link.deck, rules.deck).to_bytes(_PACK_BYTES[rules.deck], "big")
    out.append(len(link.actions))
    if position:
        out += bytes([step, len(link.line)])
    # The choices, one number in mixed radix: the deal as played, then the line from the step.
    digits: list[tuple[int, int]] = []
    deal = Deal(rules, link.deck, link.dealer)
    branch: Deal | None = deal.clone() if step == 0 else None
    for number, move in enumerate(link.actions, start=1):
        digits.append(_digit(deal, move, number))
        if number == step:
            branch = deal.clone()
    if deal.result is None:
        raise LinkError("the deal is not finished: only a finished deal has a link", "unfinished")
    assert branch is not None
    for number, move in enumerate(link.line, start=1):
        digits.append(_digit(branch, move, len(link.actions) + number))
    value = 0
    for choice, radix in reversed(digits):
        value = value * radix + choice
    out += value.to_bytes((value.bit_length() + 7) // 8, "big")
    return bytes(out)


def _options(deal: Deal) -> list[Move]:
    """The (seat, action) pairs possible now, in a fixed order: the seat on turn's, then the other's claim."""
    if deal.result is not None:
        return []
    seat = deal.to_act
    options = [(seat, a) for a in sorted(deal.legal_actions(seat))]
    other = 1 - seat
    if deal.windows >> other & 1:
        options.append((other, CLAIM))
    return options


def _digit(deal: Deal, move: Move, number: int) -> tuple[int, int]:
    """Apply ``move`` to ``deal``; its (choice, radix)."""
    options = _options(deal)
    if move not in options:
        raise LinkError(f"action {number} does not replay", "damaged", {"action": number})
    deal.apply(move[1], move[0])
    return options.index(move), len(options)


def _pack_index(deck: tuple[int, ...], size: int) -> int:
    """The pack's order as one number: its index among the orders of the pack (a Lehmer code)."""
    rest = deck_cards(size)
    if sorted(deck) != rest:
        raise LinkError("not a whole pack", "damaged")
    value = 0
    for card in deck:
        i = rest.index(card)
        value = value * len(rest) + i
        rest.pop(i)
    return value


def _pack_of(value: int, size: int) -> tuple[int, ...]:
    picks = []
    for radix in range(1, size + 1):
        picks.append(value % radix)
        value //= radix
    if value:
        raise LinkError("the pack is damaged", "damaged")
    rest = deck_cards(size)
    return tuple(rest.pop(i) for i in reversed(picks))


# ------------------------------------------------------------------- opening


def decode(text: Any) -> Link:
    """The link in ``text`` (with or without a leading ``#``). Raises :class:`LinkError` naming the reason."""
    if not isinstance(text, str) or len(text) > MAX_LINK_CHARS:
        raise LinkError("not a link", "not_link")
    shape = _SHAPE.fullmatch(text.removeprefix("#"))
    if shape is None or shape[1] not in KINDS:
        raise LinkError("not a link of this game", "not_link")
    kind, version, data = shape[1], int(shape[2]), shape[3]
    if version != LINK_VERSION:
        newer = "a newer" if version > LINK_VERSION else "an older"
        raise LinkError(
            f"a link of {newer} version ({version}); this one reads version {LINK_VERSION}",
            "version",
            {"version": version},
        )
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("the link is damaged: not base64url", "damaged") from None
    body, check = raw[:-_CHECK_BYTES], raw[-_CHECK_BYTES:]
    prefix = f"{kind}={version}.".encode("ascii")
    if len(raw) <= _CHECK_BYTES or zlib.crc32(prefix + body).to_bytes(_CHECK_BYTES, "big") != check:
        raise LinkError("the link is damaged: its checksum does not match", "damaged")
    if kind == "puzzle":
        puzzle = body.decode("ascii", errors="replace")
        if not PUZZLE_ID.fullmatch(puzzle):
            raise LinkError("the link is damaged: not a puzzle id", "damaged")
        return PuzzleLink(puzzle)
    try:
        return _read_deal(body)
    except IndexError:
        raise LinkError("the link is damaged: cut short", "damaged") from None


def _read_deal(body: bytes) -> DealLink:
    at = 0

    def take(n: int) -> bytes:
        nonlocal at
        if at + n > len(body):
            raise IndexError
        at += n
        return body[at - n : at]

    flags = take(1)[0]
    if flags >> 7 or (flags & 7) >= len(PRESET_IDS):
        raise LinkError("the link is damaged: unknown rules", "damaged")
    base = PRESETS[PRESET_IDS[flags & 7]]
    scores, carry = (0, 0), 0
    if flags & _CONTEXT:
        s0, s1, carry = take(3)
        scores = (s0, s1)
    overrides: dict[str, Any] = {}
    for _ in range(take(1)[0]):
        param_at, value_at = take(2)
        if param_at >= len(PARAMETERS):
            raise LinkError("the link is damaged: unknown rules", "damaged")
        param = PARAMETERS[param_at]
        values = (False, True) if param in BOOLEANS else CHOICES[param]
        if value_at >= len(values) or param in overrides:
            raise LinkError("the link is damaged: unknown rules", "damaged")
        overrides[param] = values[value_at]
    try:
        rules = make_rules(base, overrides)
    except RulesError as e:
        raise LinkError(f"the link is damaged: {e}", "damaged") from None
    if any(getattr(base, p) == v for p, v in overrides.items()):
        raise LinkError("the link is damaged: a rule is given as changed but is not", "damaged")
    if max(scores) >= rules.match_target:
        raise LinkError("the link is damaged: a score beyond the match's target", "damaged")
    deck = _pack_of(int.from_bytes(take(_PACK_BYTES[rules.deck]), "big"), rules.deck)
    count = take(1)[0]
    step: int | None = None
    length = 0
    if flags & _POSITION:
        step, length = take(2)
        if step > count:
            raise LinkError("the link is damaged: a step beyond the deal", "damaged")
    value = int.from_bytes(body[at:], "big")
    if body[at : at + 1] == b"\0":
        raise LinkError("the link is damaged: a leading zero", "damaged")
    dealer = 1 if flags & _DEALER else 0
    deal = Deal(rules, deck, dealer)
    actions: list[Move] = []
    branch = deal.clone() if step == 0 else None
    for number in range(1, count + 1):
        move, value = _read_move(deal, value, number)
        actions.append(move)
        if number == step:
            branch = deal.clone()
    if deal.result is None:
        raise LinkError("the deal of this link is not finished", "unfinished")
    line: list[Move] = []
    for number in range(1, length + 1):
        assert branch is not None
        move, value = _read_move(branch, value, count + number)
        line.append(move)
    if value:
        raise LinkError("the link is damaged: more actions than it says", "damaged")
    return DealLink(
        rules=rules,
        dealer=dealer,
        deck=deck,
        actions=tuple(actions),
        scores=scores,
        carry=carry,
        seat=1 if flags & _SEAT else 0,
        step=step,
        line=tuple(line),
    )


def _read_move(deal: Deal, value: int, number: int) -> tuple[Move, int]:
    options = _options(deal)
    if not options:
        raise LinkError(f"the link is damaged: action {number} comes after the deal's end", "damaged")
    value, choice = divmod(value, len(options))
    move = options[choice]
    deal.apply(move[1], move[0])
    return move, value


def replay(link: DealLink) -> Match:
    """The deal of ``link`` as a one-deal match in its match's context (score, carried points), before any action."""
    match = Match(link.rules, 0, dealer=link.dealer, deck=link.deck, single_deal=True)
    match.scores = list(link.scores)
    match.carry = link.carry
    return match
