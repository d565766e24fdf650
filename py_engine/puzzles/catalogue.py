"""The puzzles as data: one :class:`Puzzle` each, and the built-in set shipped with the engine.

The built-in set is ``catalogue.json`` beside this module (package data, in
the engine's wheel), written by ``python -m lab.puzzles
generate --all``. It is one JSON object: ``fields`` names the columns and
each puzzle is one row, with its actions as the short tokens of
:mod:`.position`, so that the file stays small (docs/puzzles.md gives its
size). A puzzle holds what it takes to replay and re-prove it; nothing in
it is sent to the page but its *entry* (:meth:`Puzzle.entry`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

from .position import Position, parse_token, parse_tokens, token, tokens
from .rating import band

if TYPE_CHECKING:
    from ..service.contract import PuzzleEntry, PuzzleKind, Theme

FORMAT = "py_engine/puzzles"
VERSION = 1
THEMES: tuple[Theme, ...] = ("closing", "endgame", "marriage", "exchange", "schneider", "claiming")
KINDS: tuple[PuzzleKind, ...] = ("hidden", "double_dummy")
FIELDS = (
    "id",
    "preset",
    "seed",
    "actions",
    "side",
    "kind",
    "worlds",
    "goal",
    "answer",
    "line",
    "others",
    "themes",
    "difficulty",
)


@dataclass(frozen=True, slots=True)
class Other:
    """A first action other than the answer: the least it gets in its worst world (``witness``, an index of
    the position's worlds, every card known after it)."""

    action: int
    worst: int
    witness: int


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: its position, the side to solve, what the solution guarantees and how it was proven."""

    id: str
    position: Position
    side: int
    kind: str
    worlds: int
    goal: int
    answer: tuple[int, ...]
    line: tuple[int, ...]
    others: tuple[Other, ...]
    themes: tuple[str, ...]
    difficulty: int

    @property
    def preset(self) -> str:
        return self.position.preset

    def entry(self) -> PuzzleEntry:
        """What the page may know before solving: nothing of the cards."""
        # Its kind and themes are KINDS' and THEMES' (checked when the catalogue is read).
        return cast(
            "PuzzleEntry",
            {
                "id": self.id,
                "preset": self.preset,
                "kind": self.kind,
                "themes": list(self.themes),
                "difficulty": self.difficulty,
                "band": band(self.difficulty),
                "goal": self.goal,
                "side": self.side,
                "worlds": self.worlds,
            },
        )

    def row(self) -> list[Any]:
        p = self.position
        others = " ".join(f"{token(o.action)}:{o.worst}:{o.witness}" for o in self.others)
        return [
            self.id,
            p.preset,
            p.seed,
            p.to_text(),
            self.side,
            self.kind,
            self.worlds,
            self.goal,
            tokens(self.answer),
            tokens(self.line),
            others,
            " ".join(self.themes),
            self.difficulty,
        ]

    @staticmethod
    def from_row(row: list[Any]) -> Puzzle:
        data = dict(zip(FIELDS, row, strict=True))
        others = []
        for item in str(data["others"]).split():
            text, worst, witness = item.split(":")
            others.append(Other(parse_token(text), int(worst), int(witness)))
        return Puzzle(
            id=data["id"],
            position=Position(data["preset"], int(data["seed"]), parse_tokens(data["actions"])),
            side=int(data["side"]),
            kind=data["kind"],
            worlds=int(data["worlds"]),
            goal=int(data["goal"]),
            answer=parse_tokens(data["answer"]),
            line=parse_tokens(data["line"]),
            others=tuple(others),
            themes=tuple(str(data["themes"]).split()),
            difficulty=int(data["difficulty"]),
        )


def puzzle_id(position: Position) -> str:
    """A stable id from the position alone (the page keeps progress by it): the preset and a short hash."""
    text = f"{position.preset} {position.seed} {position.to_text()}"
    return f"{position.preset.lower()}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:7]}"


def dumps(puzzles: list[Puzzle]) -> str:
    """The catalogue's text: one object, one line a puzzle."""
    head = json.dumps({"format": FORMAT, "version": VERSION, "fields": list(FIELDS)}, separators=(",", ":"))
    rows = ",\n".join(json.dumps(p.row(), separators=(",", ":"), ensure_ascii=False) for p in puzzles)
    return head[:-1] + ',"puzzles":[\n' + rows + "\n]}\n"


def loads(text: str) -> list[Puzzle]:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"not a puzzle catalogue of format {FORMAT!r} version {VERSION}")
    if tuple(data.get("fields", ())) != FIELDS:
        raise ValueError("the catalogue's fields are not this engine's")
    return [Puzzle.from_row(row) for row in data["puzzles"]]


CATALOGUE_FILE = "catalogue.json"


@functools.cache
def builtin() -> tuple[Puzzle, ...]:
    """The built-in set, in its stored order (read once)."""
    text = resources.files(__package__).joinpath(CATALOGUE_FILE).read_text("utf-8")
    return tuple(loads(text))


@functools.cache
def by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in builtin()}
