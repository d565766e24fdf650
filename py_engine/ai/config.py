"""The search's tunable constants as one value: :class:`SearchConfig`.

Every number the search was tuned with is a field of a frozen configuration
that the search receives as a parameter, so each level plays with its own
(:class:`~py_engine.ai.player.Level`) and nothing is set around a decision.
On a command line a field is named in capitals, ``NAME=VALUE``
(``python -m lab.arena --set PRIOR_WEIGHT=1.5``), so each row of
lab/NOTEBOOK.md's experiments can be reproduced by its command; a value takes
the type of the field it replaces (booleans as 1/0 or true/false).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How the search plays: every constant it was tuned with (:mod:`.ismcts`, :mod:`.heuristic`, :mod:`.reading`)."""

    #: Solve exactly once both hands together hold at most this many cards in the strict phase.
    solve_cards: int = 6
    #: The exploration constant of UCB (rewards are game points / 3, in [-1, 1]).
    exploration: float = 0.7
    #: A bonus in UCB for the action the rule of thumb would choose in the sampled world (a prior),
    #: fading with the child's visits: prior_weight * prior_scale / (visits + prior_scale). 0: none.
    prior_weight: float = 0.0
    prior_scale: float = 20.0
    #: Whose decisions get the prior: False both seats', True only the opponent's.
    prior_opponent_only: bool = False
    #: Draw worlds from particles weighed by the opponent's play so far (:mod:`.reading`).
    read_play: bool = False
    #: With ``read_play``, the search trusts its reading only while the opponent's play so far makes
    #: it at least this likely to be the sharp kind, a player by the rule of thumb
    #: (``ReadWorlds.sharp_share``). Below it, reading would mislead: the search draws uniform worlds
    #: and gives no prior. 0: always trusts.
    read_trust: float = 0.0
    #: Exhausted talon: solve exactly when both hands together hold at most this many cards.
    exact_cards: int = 12
    #: Share of playout moves that are a random legal card instead of the rule of thumb.
    rollout_random: float = 0.15
    #: The reader's belief, before any play, that the opponent is the sharp kind (:mod:`.reading`).
    prior_sharp: float = 0.5
    #: How many particles a reading draws its worlds from.
    particles: int = 200
    #: Value a deal's results by the chance to win the match after them (:mod:`.equity`), not by
    #: game points: the match score, carry-over and dealer of the decision count.
    #: Why level 5 keeps it, measured (lab/NOTEBOOK.md, "Playing the score"): with it against itself
    #: without it, level 5 won 50.0% [48.5%, 51.5%] of 2,400 AT20 Bummerls and 51.2% [48.0%, 54.1%]
    #: of 600 HU24 ones, the unit it is for: no gain shown, and no loss. It is what the match asks, so
    #: it stays until a run in Bummerls tells the two apart; dropping it would change the top level's
    #: play on that evidence alone.
    play_score: bool = False
    #: When the exact solver finds several best actions, prefer the one that leaves a fallible
    #: opponent the most ways to go wrong, then the one that keeps the most card-point margin
    #: (:func:`.ismcts.exact_ranking`).
    expert_endgame: bool = False
    #: The weight of the learned value (:mod:`.value_model`) at each new leaf of the tree: 0 plays the
    #: world out by the rollout policy, 1 takes the learned value alone, in between mixes the two
    #: (playing out as well). A world the exact solver may solve is solved either way.
    leaf_value: float = 0.0
    #: With ``leaf_value``: use the learned value also at leaves where no card is drawn any more (the talon
    #: closed or used up); False plays those out, and the exact solver takes over as soon as it can.
    leaf_value_strict: bool = True
    #: Playouts choose each move while a card may still be drawn as the learned value rates best for the
    #: mover (one step ahead, ``rollout_random`` of them a random card), not by the rule of thumb.
    #: Why it stays, off: level 5 with it took 53.6% [52.0, 55.2] of the game points from level 5 over
    #: 1,000 AT20 pairs at 0.55 of its counts (equal time in Pyodide), but 48.7% [46.1, 51.2] over 400
    #: KLUB20 pairs at 0.58 and 51.8% [49.6, 54.0] over 600 at equal counts (SZLI20 51.6%, RO20 52.9%);
    #: the ladder and whole Bummerls are still to be played before a level uses it (docs/learned-value.md).
    rollout_learned: bool = False

    def with_settings(self, settings: Iterable[str]) -> SearchConfig:
        """A copy with each ``NAME=VALUE`` applied in turn (the last of a name wins); a ValueError says
        what is wrong with the first bad one."""
        changes: dict[str, Any] = dict(parse_setting(text) for text in settings)
        if not changes:
            return self
        return replace(self, **{name.lower(): value for name, value in changes.items()})

    def settings(self) -> dict[str, object]:
        """Every constant by its command-line name, in field order."""
        return {field.name.upper(): getattr(self, field.name) for field in fields(self)}


#: The search as it plays unless a level says otherwise.
DEFAULT_CONFIG = SearchConfig()
#: The command-line names of the constants, and the value of each by default.
DEFAULTS: dict[str, object] = DEFAULT_CONFIG.settings()


def parse_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` → (name, value of the constant's type); a ValueError says what is wrong."""
    name, sep, raw = text.partition("=")
    if not sep or name not in DEFAULTS:
        raise ValueError(f"expected NAME=VALUE with NAME one of {', '.join(sorted(DEFAULTS))}, not {text!r}")
    current = DEFAULTS[name]
    if isinstance(current, bool):
        if raw.lower() not in ("1", "0", "true", "false"):
            raise ValueError(f"{name} is true or false (1 or 0), not {raw!r}")
        return name, raw.lower() in ("1", "true")
    kind: Callable[[str], object] = int if isinstance(current, int) else float
    try:
        return name, kind(raw)
    except ValueError:
        raise ValueError(f"{name} is a {type(current).__name__}, not {raw!r}") from None


def setting(text: str) -> str:
    """An argparse ``type`` for ``--set NAME=VALUE`` options: the text, once it is known to parse."""
    try:
        parse_setting(text)
    except ValueError as error:
        # Imported here: the worker imports this module with the player and never needs argparse.
        from argparse import ArgumentTypeError

        raise ArgumentTypeError(str(error)) from None
    return text


def add_option(parser: argparse.ArgumentParser, flag: str, description: str) -> None:
    """A repeatable ``flag NAME=VALUE`` option of a command line, each value checked as it is parsed."""
    parser.add_argument(flag, action="append", type=setting, default=[], metavar="NAME=VALUE", help=description)
