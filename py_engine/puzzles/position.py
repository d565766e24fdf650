"""A puzzle's position: a preset, the seed of the engine's own deal, and the actions played so far.

A position replays exactly: :meth:`Position.match` deals the single deal of
``Match(rules, seed, single_deal=True)`` and applies the actions in order,
each by the seat on turn (a position never holds a claim, which would end
the deal, nor a claim out of turn). Actions are kept as short tokens, one
per action, to keep the shipped catalogue small: a card (``QH``) plays it,
``mH`` declares the marriage in hearts, ``x`` exchanges, ``c`` closes,
``!`` claims, ``p`` passes, ``r`` resigns.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.actions import CLAIM, CLOSE, EXCHANGE, MARRY, PASS, RESIGN
from ..core.cards import CARD_NAMES, SUITS, parse_card
from ..core.rules import PRESETS, Rules
from ..service.match import Match

_WORD_TOKENS = {EXCHANGE: "x", CLOSE: "c", CLAIM: "!", PASS: "p", RESIGN: "r"}
_TOKEN_WORDS = {token: action for action, token in _WORD_TOKENS.items()}


def token(action: int) -> str:
    """The short token of an action (see the module's docstring)."""
    if action < MARRY:
        return CARD_NAMES[action]
    if action < EXCHANGE:
        return "m" + SUITS[action - MARRY]
    return _WORD_TOKENS[action]


def parse_token(text: str) -> int:
    """The action of a token; raises ``ValueError`` for anything else."""
    if text in _TOKEN_WORDS:
        return _TOKEN_WORDS[text]
    if len(text) == 2 and text[0] == "m" and text[1] in SUITS:
        return MARRY + SUITS.index(text[1])
    return parse_card(text)


def tokens(actions: tuple[int, ...] | list[int]) -> str:
    return " ".join(token(a) for a in actions)


def parse_tokens(text: str) -> tuple[int, ...]:
    return tuple(parse_token(t) for t in text.split())


@dataclass(frozen=True, slots=True)
class Position:
    """A deal of ``preset`` from ``seed`` after ``actions`` (each taken by the seat then on turn)."""

    preset: str
    seed: int
    actions: tuple[int, ...] = ()

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset]

    def match(self) -> Match:
        """The position as a single-deal match, replayed through the checked path.

        Raises the engine's error if an action does not replay.
        """
        match = Match(self.rules, self.seed, single_deal=True)
        for action in self.actions:
            match.act(match.deal.to_act, action)
        return match

    def then(self, action: int) -> Position:
        return Position(self.preset, self.seed, (*self.actions, action))

    def to_text(self) -> str:
        return tokens(self.actions)
