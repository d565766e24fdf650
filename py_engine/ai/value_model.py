"""The learned value of a deal: a small network over :mod:`.features`, shipped as weights in the wheel.

The network has one hidden layer of rectified units and one output per
*outcome* of the deal for the seat whose side it sees: winning 1, 2 or 3
game points, losing 1, 2 or 3, or a deal without a winner
(:data:`OUTCOMES`). It was trained (``lab/learn``, docs/learned-value.md)
by least squares on what happened in self-play, so each output estimates the
chance of its outcome, and a search values the position by the outcomes'
values under its own :class:`~py_engine.ai.ismcts.Utility`: game points capped at
what the match needs, or the chance to win the match after them. One model
serves every way of valuing a deal.

Evaluation is pure Python (numpy would cost Pyodide a package load for a
few dozen additions; docs/learned-value.md measures it), in fixed point: the
first layer's weights are integers in units of 2**-FIXED_BITS, and each
feature's row is one Python int holding every hidden unit in a lane of
LANE_BITS bits, so a position's hidden layer is one sum of a few ints. Integer
sums are exact, so a value depends neither on the order of the features nor on
the Python version or the machine: CPython and Pyodide give the same bits
(tests/test_value_model.py).
"""

from __future__ import annotations

import base64
import json
import struct
import sys
from array import array
from collections.abc import Callable
from functools import cache
from importlib import resources
from math import fsum
from operator import mul
from typing import Any

from ..core.deal import Deal
from ..core.scoring import DealResult
from .features import FEATURES, active_features, lead_change

#: The outcomes the network scores, from its seat's side: (winner is the seat, game points); None: no winner.
OUTCOMES: tuple[tuple[bool, int] | None, ...] = (
    (True, 1),
    (True, 2),
    (True, 3),
    (False, 1),
    (False, 2),
    (False, 3),
    None,
)
#: The file of the shipped weights, in this package.
WEIGHTS_FILE = "value_weights.json"
#: The format of that file this module reads.
FORMAT = 1
#: The first layer's fixed point: weights in units of 2**-FIXED_BITS (rounded from their 32-bit floats).
FIXED_BITS = 24
#: Bits of a hidden unit's lane in a packed row (see ValueModel), and what every lane of a row adds to its weight
#: so that a lane never goes below zero: rows of up to 2**23 features fit, far more than a model has.
LANE_BITS = 64
LANE_OFFSET = 1 << 40


def outcome_index(result: DealResult, seat: int) -> int:
    """The index in :data:`OUTCOMES` of a finished deal's result, from ``seat``'s side."""
    if result.winner is None:
        return len(OUTCOMES) - 1
    points = min(max(result.game_points, 1), 3)
    return points - 1 if result.winner == seat else 2 + points


def floats(text: str, count: int) -> list[float]:
    """``count`` little-endian 32-bit floats from base64 ``text`` (as Python floats, exactly)."""
    values = array("f")
    values.frombytes(base64.b64decode(text, validate=True))
    if sys.byteorder != "little":
        values.byteswap()
    if len(values) != count:
        raise ValueError(f"expected {count} weights, found {len(values)}")
    return values.tolist()


def encode_floats(values: list[float]) -> str:
    """The inverse of :func:`floats` (rounded to 32 bits)."""
    packed = array("f", values)
    if sys.byteorder != "little":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


class ValueModel:
    """Weights of the network: ``rows[i]`` is the first layer's row of feature i, ``outputs[j]`` a hidden
    unit's weights to the outcomes."""

    def __init__(
        self,
        rows: list[tuple[float, ...]],
        hidden_bias: tuple[float, ...],
        outputs: list[tuple[float, ...]],
        output_bias: tuple[float, ...],
        about: dict[str, Any] | None = None,
    ) -> None:
        if len(rows) != FEATURES:
            raise ValueError(f"the model has {len(rows)} feature rows, the features are {FEATURES}")
        self.rows = rows
        self.hidden_bias = hidden_bias
        self.outputs = outputs
        self.output_bias = output_bias
        self.about = about or {}
        hidden = len(hidden_bias)
        fixed = [[round(w * (1 << FIXED_BITS)) for w in row] for row in (*rows, hidden_bias)]
        if max(sum(abs(row[j]) for row in fixed) for j in range(hidden)) >= LANE_OFFSET:
            raise ValueError("weights too large for the fixed point of the hidden layer")

        def packed(row: list[int]) -> int:
            return sum((w + LANE_OFFSET) << (LANE_BITS * j) for j, w in enumerate(row))

        #: Each feature's row, and the hidden biases, packed: lane j holds unit j's weight plus LANE_OFFSET.
        self.packed_rows = [packed(row) for row in fixed[:-1]]
        self.packed_bias = packed(fixed[-1])
        self._unpack = struct.Struct(f"<{hidden}Q").unpack
        self._packed_bytes = hidden * LANE_BITS // 8

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        """The model of a weights file's contents; a ValueError says what is wrong."""
        if data.get("format") != FORMAT:
            raise ValueError(f"weights of format {data.get('format')!r}, this engine reads format {FORMAT}")
        features, hidden = int(data["features"]), int(data["hidden"])
        if features != FEATURES:
            raise ValueError(f"weights for {features} features, the engine has {FEATURES}")
        first = floats(data["first"], features * hidden)
        second = floats(data["second"], hidden * len(OUTCOMES))
        return cls(
            [tuple(first[i * hidden : (i + 1) * hidden]) for i in range(features)],
            tuple(floats(data["first_bias"], hidden)),
            [tuple(second[j * len(OUTCOMES) : (j + 1) * len(OUTCOMES)]) for j in range(hidden)],
            tuple(floats(data["second_bias"], len(OUTCOMES))),
            data.get("about"),
        )

    def packed_sum(self, active: list[int]) -> int:
        """The packed rows of the features ``active`` and the biases, summed: every hidden unit's input at once."""
        return sum(map(self.packed_rows.__getitem__, active), self.packed_bias)

    def lanes(self, total: int, count: int) -> tuple[tuple[int, ...], int]:
        """The lanes of a packed sum of ``count`` features' rows, and the offset they carry: each lane less
        the offset is its unit's input, exactly, in units of 2**-FIXED_BITS."""
        return self._unpack(total.to_bytes(self._packed_bytes, "little")), (count + 1) * LANE_OFFSET

    def sums(self, active: list[int]) -> list[int]:
        """The hidden units' inputs for the features ``active`` (before the rectifier), exactly, in units of
        2**-FIXED_BITS."""
        lanes, offset = self.lanes(self.packed_sum(active), len(active))
        return [lane - offset for lane in lanes]

    def hidden(self, active: list[int]) -> list[float]:
        """The hidden layer's rectified activations for the features ``active``."""
        unit = 1.0 / (1 << FIXED_BITS)
        return [value * unit if value > 0 else 0.0 for value in self.sums(active)]

    def outcome_scores(self, deal: Deal, seat: int) -> list[float]:
        """The network's score of each of :data:`OUTCOMES` in ``deal`` from ``seat``'s side."""
        hidden = self.hidden(active_features(deal, seat))
        return [
            fsum((bias, *map(mul, hidden, column)))
            for bias, column in zip(self.output_bias, zip(*self.outputs, strict=True), strict=True)
        ]

    def valuer(self, seat: int, utility: Callable[[DealResult], float]) -> Valuer:
        """The value of a deal in play for ``seat`` under ``utility`` (see :class:`Valuer`)."""
        return Valuer(self, seat, utility)


class Valuer:
    """The value of a deal in play for one seat under one utility, clamped to the utility's range.

    The outcomes' values are folded into the output layer once, so each call costs one hidden layer
    and one weighted sum.
    """

    def __init__(self, model: ValueModel, seat: int, utility: Callable[[DealResult], float]) -> None:
        values = [
            utility(
                DealResult(
                    None if outcome is None else seat if outcome[0] else 1 - seat,
                    0 if outcome is None else outcome[1],
                    "",
                    "",
                    None,
                )
            )
            for outcome in OUTCOMES
        ]
        self.seat = seat
        # The outputs folded with the values, as integers too: a unit's activation times its weight is then exact,
        # and the one division at the end is correctly rounded everywhere.
        self._folded = [round(fsum(map(mul, weights, values)) * (1 << FIXED_BITS)) for weights in model.outputs]
        self._scale = 1 << (2 * FIXED_BITS)
        self._base = fsum(map(mul, model.output_bias, values))
        self._low, self._high = min(values), max(values)
        self._model = model

    def _value_of(self, total: int, count: int) -> float:
        """The value of the packed sum ``total`` of ``count`` active features' rows."""
        lanes, offset = self._model.lanes(total, count)
        # A lane above the offset is a unit with a positive input: the rectifier passes it.
        weighted = sum([(lane - offset) * w for lane, w in zip(lanes, self._folded, strict=True) if lane > offset])
        value = self._base + weighted / self._scale
        return self._low if value < self._low else self._high if value > self._high else value

    def __call__(self, deal: Deal) -> float:
        active = active_features(deal, self.seat)
        return self._value_of(self._model.packed_sum(active), len(active))

    def after_leads(self, deal: Deal, cards: list[int]) -> list[float]:
        """The value after the mover leads each of ``cards`` to an empty trick, as :meth:`__call__` gives it
        for the world after the lead, without making that world: a lead only moves the card from the hand
        to the trick and passes the turn (:func:`.features.lead_change`)."""
        assert deal.lead < 0, "a lead is made to an empty trick"
        active = active_features(deal, self.seat)
        rows = self._model.packed_rows
        total = self._model.packed_sum(active)
        count = len(active)
        values = []
        for card in cards:
            removed, added = lead_change(deal, self.seat, card)
            after = total
            for feature in removed:
                after -= rows[feature]
            for feature in added:
                after += rows[feature]
            values.append(self._value_of(after, count - len(removed) + len(added)))
        return values


def weights_text() -> str:
    """The shipped weights file's text."""
    return resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")


@cache
def shipped_model() -> ValueModel:
    """The model whose weights ship in the wheel (read once)."""
    return ValueModel.from_json(json.loads(weights_text()))
