"""Actions: small integers with an exact text form (docs/protocol.md's notation).

``0..23`` play that card; ``24..27`` declare the marriage of a suit; then
exchange, close, claim, pass, resign and next. Search code works on the
integers; :func:`parse_action` and :func:`action_name` convert at the edges.
"""

from __future__ import annotations

from .cards import CARD_NAMES, NUM_CARDS, SUITS, parse_card

MARRY = NUM_CARDS  # MARRY + suit
EXCHANGE = MARRY + 4
CLOSE = EXCHANGE + 1
CLAIM = CLOSE + 1
PASS = CLAIM + 1
RESIGN = PASS + 1
NEXT = RESIGN + 1
NUM_ACTIONS = NEXT + 1

_WORDS = {EXCHANGE: "exchange", CLOSE: "close", CLAIM: "claim", PASS: "pass", RESIGN: "resign", NEXT: "next"}

ACTION_NAMES: tuple[str, ...] = tuple(
    [f"play:{name}" for name in CARD_NAMES]
    + [f"marry:{s}" for s in SUITS]
    + [_WORDS[a] for a in range(EXCHANGE, NUM_ACTIONS)]
)
_ACTION_BY_NAME = {name: a for a, name in enumerate(ACTION_NAMES)}


def is_play(action: int) -> bool:
    return action < MARRY


def is_marry(action: int) -> bool:
    return MARRY <= action < EXCHANGE


def action_name(action: int) -> str:
    return ACTION_NAMES[action]


def parse_action(text: object) -> int:
    """Text → action number. Raises ``ValueError`` saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"an action is a string such as 'play:QH', not {type(text).__name__}")
    action = _ACTION_BY_NAME.get(text)
    if action is not None:
        return action
    word, sep, arg = text.partition(":")
    if word == "play" and sep:
        parse_card(arg)  # raises with the card's own reason
    if word == "marry" and sep and arg not in SUITS:
        raise ValueError(f"not a suit: {arg!r} (expected one of {', '.join(SUITS)})")
    raise ValueError(
        f"not an action: {text!r} (expected play:<card>, marry:<suit>, exchange, close, claim, pass, resign or next)"
    )


def sorted_names(actions: list[int]) -> list[str]:
    """Action texts sorted as the protocol's ``legal`` lists them."""
    return sorted(ACTION_NAMES[a] for a in actions)
