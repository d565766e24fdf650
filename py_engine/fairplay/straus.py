"""Sums of multiples with their doublings shared (Straus' method), for any group given its two operations.

Both groups of :mod:`py_engine.fairplay` use it: ristretto255 to check a
shuffle step with one sum (:func:`~py_engine.fairplay.group.combination`),
P-256 to check a signature's two products (:mod:`~py_engine.fairplay.p256`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Element = TypeVar("Element")


def windowed_sum(
    terms: Sequence[tuple[int, Sequence[Element]]],
    add: Callable[[Element, Element], Element],
    double: Callable[[Element], Element],
    bits: int,
) -> Element | None:
    """The sum of k·E over the terms (k, [0·E, 1·E, …, 15·E]), 4 bits of every k at a time from bit ``bits`` - 1
    down; None when every k is 0 (the identity is never doubled nor added)."""
    result: Element | None = None
    for shift in range((bits + 3) // 4 * 4 - 4, -1, -4):
        if result is not None:
            result = double(double(double(double(result))))
        for k, table in terms:
            nibble = (k >> shift) & 15
            if nibble:
                result = table[nibble] if result is None else add(result, table[nibble])
    return result
