"""The search's constants by name, for experiments: ``python -m py_engine.arena --set PRIOR_WEIGHT=1.5``.

Every number the search was tuned with can be changed for one arena run
without editing code, so each row of docs/arena.md's experiments can be
reproduced by its command. Values take the type of the constant they
replace (booleans as 1/0 or true/false).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from . import heuristic, ismcts, player, reading

#: The constants that may be set, and the module that holds each.
TUNABLE: dict[str, ModuleType] = {
    name: module
    for module, names in (
        (
            ismcts,
            (
                "SOLVE_CARDS",
                "EXPLORATION",
                "PRIOR_WEIGHT",
                "PRIOR_SCALE",
                "PRIOR_OPPONENT_ONLY",
                "SEES_ALL",
                "SEES_HAND",
                "READ_PLAY",
            ),
        ),
        (heuristic, ("ROLLOUT_RANDOM", "ROLLOUT_CLOSE")),
        (player, ("EXACT_CARDS",)),
        (reading, ("PRIOR_SHARP", "PARTICLES")),
    )
    for name in names
}


def parse_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` → (name, value of the constant's type); a ValueError says what is wrong."""
    name, sep, raw = text.partition("=")
    if not sep or name not in TUNABLE:
        raise ValueError(f"expected NAME=VALUE with NAME one of {', '.join(sorted(TUNABLE))}, not {text!r}")
    current = getattr(TUNABLE[name], name)
    if isinstance(current, bool):
        if raw.lower() not in ("1", "0", "true", "false"):
            raise ValueError(f"{name} is true or false (1 or 0), not {raw!r}")
        return name, raw.lower() in ("1", "true")
    try:
        return name, type(current)(raw)
    except ValueError:
        raise ValueError(f"{name} is a {type(current).__name__}, not {raw!r}") from None


#: Every constant's value as the code sets it, before any run changed one.
DEFAULTS: dict[str, object] = {name: getattr(module, name) for name, module in TUNABLE.items()}


def use(settings: Iterable[str]) -> None:
    """Set every constant to its default, then each ``NAME=VALUE`` (one player's settings in the arena)."""
    for name, value in DEFAULTS.items():
        setattr(TUNABLE[name], name, value)
    apply(settings)


def apply(settings: Iterable[str]) -> None:
    """Set each ``NAME=VALUE`` in this process, leaving the other constants as they are."""
    for text in settings:
        name, value = parse_setting(text)
        setattr(TUNABLE[name], name, value)
