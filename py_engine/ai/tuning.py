"""The search's constants by name, for experiments: ``python -m py_engine.arena --set PRIOR_WEIGHT=1.5``.

Every number the search was tuned with can be changed for one arena run
without editing code, so each row of docs/arena.md's experiments can be
reproduced by its command. Values take the type of the constant they
replace (booleans as 1/0 or true/false).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

from . import heuristic, ismcts, reading

if TYPE_CHECKING:
    import argparse

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
                "READ_TRUST",
                "EXACT_CARDS",
            ),
        ),
        (heuristic, ("ROLLOUT_RANDOM", "ROLLOUT_CLOSE")),
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


@contextmanager
def applied(settings: tuple[str, ...]) -> Iterator[None]:
    """Each ``NAME=VALUE`` set for the duration of a ``with`` block, then the values from before again.

    A level's own settings (:class:`~py_engine.ai.player.Level`) are applied this way around each of
    its decisions, so they never leak into another level's.
    """
    changes = [parse_setting(text) for text in settings]
    before = [(name, getattr(TUNABLE[name], name)) for name, _ in changes]
    try:
        for name, value in changes:
            setattr(TUNABLE[name], name, value)
        yield
    finally:
        for name, value in reversed(before):
            setattr(TUNABLE[name], name, value)
