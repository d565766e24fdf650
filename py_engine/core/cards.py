"""Cards as small integers, card sets as bit masks.

A card is ``suit * 6 + rank`` where ranks run from the highest (A = 0) to the
lowest (9 = 5), so within a suit a *smaller* number is a *higher* card. A set
of cards is an ``int`` with bit ``card`` set. This keeps the hot paths of the
engine (legal moves, trick resolution, drawing) to a few integer operations.

Text form (docs/protocol.md): rank ``A T K Q J 9`` followed by suit ``H D C S``,
e.g. ``"QH"``.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "HDCS"
RANKS = "ATKQJ9"
#: Card points by rank index (A, 10, K, Q, J, 9).
RANK_POINTS = (11, 10, 4, 3, 2, 0)
ACE, TEN, KING, QUEEN, JACK, NINE = range(6)

NUM_CARDS = 24


def card_of(suit: int, rank: int) -> int:
    """The card of that suit and rank index."""
    return suit * 6 + rank


def suit_of(card: int) -> int:
    return card // 6


def rank_of(card: int) -> int:
    return card % 6


CARD_NAMES: tuple[str, ...] = tuple(RANKS[c % 6] + SUITS[c // 6] for c in range(NUM_CARDS))
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 6] for c in range(NUM_CARDS))
SUIT_MASK: tuple[int, ...] = tuple(0b111111 << (6 * s) for s in range(4))
#: Cards of the same suit that beat ``card``.
HIGHER: tuple[int, ...] = tuple(sum(1 << (c - c % 6 + r) for r in range(c % 6)) for c in range(NUM_CARDS))


_PACKS = {size: tuple(s * 6 + r for s in range(4) for r in range(6 if size == 24 else 5)) for size in (20, 24)}


def deck_cards(deck_size: int) -> list[int]:
    """All cards of a 20- or 24-card pack, in a fixed canonical order."""
    return list(_PACKS[deck_size])


def deck_mask(deck_size: int) -> int:
    return _DECK_MASKS[deck_size]


def lowest_trump(trump: int, deck_size: int) -> int:
    """The card that may be exchanged for the face-up trump (J or 9)."""
    return card_of(trump, NINE if deck_size == 24 else JACK)


def parse_card(text: str) -> int:
    """``"QH"`` → card number. Raises ``ValueError`` with the reason."""
    card = _CARD_BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"not a card: {text!r} (expected rank {RANKS} then suit {SUITS}, e.g. 'QH')")
    return card


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


_DECK_MASKS = {size: mask_of(pack) for size, pack in _PACKS.items()}


def _bits_table(first: int) -> tuple[tuple[int, ...], ...]:
    """For each 12-bit mask ``m``, the cards ``first + i`` of its set bits ``i``, in order.

    Built by doubling (the masks with bit ``i`` set are those below it plus
    card ``first + i``): some 20 times faster than testing every bit of every
    mask, which matters when the engine is imported in the browser.
    """
    table: list[tuple[int, ...]] = [()]
    for i in range(12):
        card = (first + i,)
        table += [cards + card for cards in table]
    return tuple(table)


_LOW_BITS = _bits_table(0)
_HIGH_BITS = _bits_table(12)


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, in card order (by suit, then high to low)."""
    return _LOW_BITS[mask & 0xFFF] + _HIGH_BITS[mask >> 12]


def names(mask: int) -> list[str]:
    """The text codes of a mask's cards, in card order."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def sort_key(card: int) -> int:
    return card
