"""The engine and the lab copied for PyPy 3.9: the rewritten calls keep their results, and journals are compared."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from lab import arena, pypy_tree

NEWER = """
from dataclasses import dataclass

@dataclass(frozen=True, slots=True)
class Point:
    x: int

def count(hands: list[int], seat: int) -> int:
    return hands[1 - seat].bit_count() + (hands[0] | hands[1]).bit_count()

def kinds(value: object) -> bool:
    return isinstance(value, int | str | bytes)

def paired(a: list[int], b: list[int]) -> list[tuple[int, int]]:
    return list(zip(a, b, strict=True))
"""


def test_the_rewritten_source_parses_as_python_3_9_and_computes_the_same() -> None:
    with pytest.raises(SyntaxError):
        ast.parse("match x:\n    case 1:\n        pass\n", feature_version=pypy_tree.OLDEST)  # the check is real
    older = pypy_tree.older_source(NEWER)
    assert "bit_count" not in older and "strict" not in older and "slots" not in older
    assert "isinstance(value, (int, str, bytes))" in older
    ours: dict[str, object] = {"__name__": "newer"}
    theirs: dict[str, object] = {"__name__": "older"}
    exec(compile(NEWER, "newer", "exec", dont_inherit=True), ours)
    exec(compile(older, "older", "exec", dont_inherit=True), theirs)
    for space in (ours, theirs):
        assert space["count"]([0b1011, 0b110], 0) == 2 + 4  # type: ignore[operator]
        assert space["kinds"](b"x") and not space["kinds"](1.5)  # type: ignore[operator]
        assert space["paired"]([1], [2]) == [(1, 2)]  # type: ignore[operator]


def test_the_whole_engine_is_written_in_python_3_9(tmp_path: Path) -> None:
    written = pypy_tree.write_tree(tmp_path)
    sources = list((tmp_path / "py_engine").rglob("*.py"))
    lab = list((tmp_path / "lab").rglob("*.py"))
    data = list((tmp_path / "py_engine").rglob("*.json"))
    assert written == len(sources) + len(lab) + len(data)
    assert len(sources) > 50 and (tmp_path / "lab" / "arena.py") in lab
    assert {path.name for path in data} >= {"catalogue.json", "value_weights.json"}
    sources += lab
    for source in sources:
        ast.parse(source.read_text(), str(source), feature_version=pypy_tree.OLDEST)


def test_journals_of_one_run_agree_but_for_the_times(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--a", "2", "--b", "heuristic", "--pairs", "2", "--procs", "1", "--seed", "4"]
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert arena.main([*argv, "--journal", str(first)]) == 0
    assert arena.main([*argv, "--journal", str(second)]) == 0
    assert pypy_tree.main(["compare", str(first), str(second)]) == 0
    assert "2 pairs in both journals, 0 differ" in capsys.readouterr().out
    lines: list[dict[str, Any]] = [json.loads(line) for line in second.read_text().splitlines()]
    changed = lines[2]
    changed["a"]["game_points"] += 1
    second.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert pypy_tree.main(["compare", str(first), str(second)]) == 1
    assert f"1 differ: seeds [{changed['seed']}]" in capsys.readouterr().out
    other = tmp_path / "other.jsonl"
    assert arena.main([*argv[:-1], "5", "--journal", str(other)]) == 0
    capsys.readouterr()
    assert pypy_tree.main(["compare", str(first), str(other)]) == 2
    assert "different runs" in capsys.readouterr().err
