"""A copy of the engine and the lab that PyPy 3.9 runs, for long arena runs: about twice CPython's speed.

``python -m lab.pypy_tree write DEST`` writes ``DEST/py_engine`` and ``DEST/lab``
with the few spellings newer than Python 3.9 rewritten (``n.bit_count()``,
``zip(..., strict=True)``, ``@dataclass(slots=True)``, ``isinstance(x, A | B)``);
then ``cd DEST && pypy3 -m lab.arena ...`` plays the same games
as CPython (searching levels count iterations, never the clock).
``python -m lab.pypy_tree compare JOURNAL JOURNAL`` checks that:
the pairs both journals hold must agree in everything but the times.
The copy is for running only; the arena's commands and rows stay CPython's.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The packages the copy holds: the engine and the lab that runs it.
PACKAGES = ("py_engine", "lab")
OLDEST = (3, 9)  # PyPy's Python in Debian 12
DROPPED_KEYWORDS = ("strict", "slots", "kw_only")  # only where set to True


class _Older(ast.NodeTransformer):
    """Rewrites the calls that Python 3.9 lacks into ones it has, with the same results."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "bit_count" and not node.args:
            as_binary = ast.Call(ast.Name("bin", ast.Load()), [func.value], [])
            return ast.Call(ast.Attribute(as_binary, "count", ast.Load()), [ast.Constant("1")], [])
        if isinstance(func, ast.Name) and func.id in ("isinstance", "issubclass") and len(node.args) == 2:
            node.args[1] = _union_as_tuple(node.args[1])
        node.keywords = [k for k in node.keywords if not (k.arg in DROPPED_KEYWORDS and _is_true(k.value))]
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | None:
        # Names only annotations use (never evaluated under ``from __future__ import annotations``).
        if node.module == "typing":
            node.names = [alias for alias in node.names if alias.name not in TYPING_ONLY_NEWER]
            if not node.names:
                return None
        return node


#: Names of ``typing`` newer than Python 3.9 that the engine uses in annotations only.
TYPING_ONLY_NEWER = ("TypeAlias", "NotRequired", "Required", "Self", "TypeGuard", "ParamSpec", "Concatenate")


def _is_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _union_as_tuple(node: ast.expr) -> ast.expr:
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)):
        return node
    members: list[ast.expr] = []

    def collect(part: ast.expr) -> None:
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr):
            collect(part.left)
            collect(part.right)
        else:
            members.append(part)

    collect(node)
    return ast.Tuple(members, ast.Load())


def older_source(source: str, name: str = "<source>") -> str:
    """``source`` rewritten for Python 3.9; a ``SyntaxError`` if 3.9 still could not parse it."""
    tree = ast.fix_missing_locations(_Older().visit(ast.parse(source, name)))
    text = ast.unparse(tree)
    ast.parse(text, name, feature_version=OLDEST)
    return text


def write_tree(dest: Path) -> int:
    """Write ``dest/py_engine`` (with its data files) and ``dest/lab``, rewritten; the number of files written."""
    count = 0
    for name in PACKAGES:
        target = dest / name
        if target.exists():
            shutil.rmtree(target)
        for source in sorted((ROOT / name).rglob("*.py")):
            if "__pycache__" in source.parts:
                continue
            out = target / source.relative_to(ROOT / name)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(older_source(source.read_text(), str(source)))
            count += 1
        for data in sorted((ROOT / name).rglob("*.json")) if name == "py_engine" else ():
            out = target / data.relative_to(ROOT / name)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(data, out)  # the engine's data: the puzzles' catalogue, the learned weights
            count += 1
    return count


def _pairs(path: Path) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return lines[0], {pair["seed"]: pair for pair in lines[1:]}


def _without_times(pair: dict[str, Any]) -> dict[str, Any]:
    return {side: {k: v for k, v in pair[side].items() if k != "move_ms"} for side in ("a", "b")}


def compare_journals(first: Path, second: Path) -> tuple[int, list[int]]:
    """The number of pairs both journals hold, and the seeds of those that differ (times aside)."""
    head1, pairs1 = _pairs(first)
    head2, pairs2 = _pairs(second)
    if head1 != head2:
        raise ValueError(f"{first} and {second} are journals of different runs")
    common = sorted(pairs1.keys() & pairs2.keys())
    return len(common), [s for s in common if _without_times(pairs1[s]) != _without_times(pairs2[s])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pypy_tree", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    write = sub.add_parser("write", help="write DEST/py_engine and DEST/lab for PyPy 3.9")
    write.add_argument("dest", type=Path)
    compare = sub.add_parser("compare", help="check that two journals of one run hold the same games")
    compare.add_argument("journals", type=Path, nargs=2)
    args = parser.parse_args(argv)
    if args.command == "write":
        print(f"wrote {write_tree(args.dest)} files to {args.dest / 'py_engine'} and {args.dest / 'lab'}")
        return 0
    try:
        common, differing = compare_journals(*args.journals)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{common} pairs in both journals, {len(differing)} differ" + (f": seeds {differing}" if differing else ""))
    return 1 if differing or not common else 0


if __name__ == "__main__":
    sys.exit(main())
