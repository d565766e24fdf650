"""Generate, check and measure the puzzles (docs/puzzles.md).

    python -m lab.puzzles generate --preset AT20 --seed 1 --count 5   # puzzles of one run, as rows
    python -m lab.puzzles generate --all                              # the built-in set
    python -m lab.puzzles check                                       # re-prove the built-in set
    python -m lab.puzzles bench --deals 12 --runs 3                   # puzzles found per minute
    python -m lab.puzzles validate --levels 1,2,3,4                   # the levels solve them, by band

``generate --all`` runs, for each preset, deals of seed 1 (``--seed``) until
its pool holds :data:`POOL_FACTOR` times :data:`PER_PRESET` puzzles with a
theme (or :data:`MAX_DEALS` deals), keeps at most one puzzle a deal, picks
:data:`PER_PRESET` of them balancing the themes, the two kinds and the
difficulty bands, and writes ``py_engine/puzzles/catalogue.json``. The same
seed gives the same file.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from py_engine.core.actions import action_name
from py_engine.core.errors import EngineError
from py_engine.core.rules import PRESET_IDS
from py_engine.puzzles import catalogue
from py_engine.puzzles.catalogue import THEMES, Puzzle, dumps
from py_engine.puzzles.rating import BANDS, band

from .puzzle_generate import Tally, check_cost, deal_seed, examine, positions, run
from .puzzle_verify import verify

PER_PRESET = 40
POOL_FACTOR = 2.0
MAX_DEALS = 400
#: The share of double-dummy puzzles the selection aims at.
DOUBLE_DUMMY_SHARE = 0.15
CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "py_engine" / "puzzles" / catalogue.CATALOGUE_FILE


def deal_of(puzzle: Puzzle) -> int:
    return puzzle.position.seed


def pool(preset: str, seed: int, wanted: int, log: bool = True) -> list[Puzzle]:
    """Puzzles with a theme from deals of the run, at most one a deal (the first with the rarest theme)."""
    found: list[Puzzle] = []
    by_deal: dict[int, list[Puzzle]] = {}
    started = time.perf_counter()
    tally = Tally()
    deals = 0
    for puzzle in _puzzles(preset, seed, tally):
        if puzzle is None:
            deals += 1
            if len(by_deal) >= wanted or deals >= MAX_DEALS:
                break
            continue
        if puzzle.themes:
            by_deal.setdefault(deal_of(puzzle), []).append(puzzle)
    counts: Counter[str] = Counter()
    for candidates in by_deal.values():
        for p in candidates:
            counts.update(p.themes)
    for candidates in by_deal.values():
        # The deal's puzzle with the rarest theme in the pool, then the hardest.
        best = min(candidates, key=lambda p: (min(counts[t] for t in p.themes), -p.difficulty, p.id))
        found.append(best)
    if log:
        print(
            f"{preset}: {deals} deals, {tally.examined} positions examined, {tally.qualified} qualified, "
            f"{len(found)} deals with a puzzle ({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
        )
    return found


def _puzzles(preset: str, seed: int, tally: Tally) -> Iterator[Puzzle | None]:
    """Each deal's puzzles followed by None (the deal's end), deal after deal."""
    number = 0
    while True:
        for position, deal in positions(preset, deal_seed(seed, number)):
            puzzle = examine(position, deal, tally)
            if puzzle is not None and check_cost(puzzle) is not None:
                yield puzzle
        yield None
        number += 1


def select(candidates: list[Puzzle], count: int) -> list[Puzzle]:
    """``count`` puzzles balancing the themes, the kinds and the bands (greedy, deterministic)."""
    chosen: list[Puzzle] = []
    themes: Counter[str] = Counter()
    bands: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    left = sorted(candidates, key=lambda p: p.id)
    while left and len(chosen) < count:

        def score(p: Puzzle) -> float:
            value = sum(1 / (1 + themes[t]) for t in p.themes) / len(p.themes) * 3
            value += 1 / (1 + bands[band(p.difficulty)])
            if p.kind == "double_dummy":
                value += 2 if kinds["double_dummy"] < DOUBLE_DUMMY_SHARE * (len(chosen) + 1) else -2
            return value

        best = max(left, key=score)
        left.remove(best)
        chosen.append(best)
        themes.update(best.themes)
        bands[band(best.difficulty)] += 1
        kinds[best.kind] += 1
    return sorted(chosen, key=lambda p: (PRESET_IDS.index(p.preset), p.difficulty, p.id))


def summary(puzzles: list[Puzzle]) -> str:
    text = dumps(puzzles).encode("utf-8")
    lines = [f"{len(puzzles)} puzzles, {len(text)} bytes, {len(gzip.compress(text, 9))} gzipped"]
    lines.append("by preset: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.preset for p in puzzles).items())))
    themes = Counter(t for p in puzzles for t in p.themes)
    lines.append("by theme: " + ", ".join(f"{t} {themes[t]}" for t in THEMES))
    lines.append("by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(p.kind for p in puzzles).items())))
    bands = Counter(band(p.difficulty) for p in puzzles)
    lines.append("by band: " + ", ".join(f"{b} {bands[b]}" for b in ("easy", "medium", "hard", "expert")))
    return "\n".join(lines)


def generate_all(seed: int, per_preset: int, path: Path) -> list[Puzzle]:
    puzzles: list[Puzzle] = []
    for preset in PRESET_IDS:
        candidates = pool(preset, seed, int(per_preset * POOL_FACTOR))
        puzzles += select(candidates, per_preset)
    path.write_text(dumps(puzzles), encoding="utf-8")
    print(summary(puzzles))
    return puzzles


def check(puzzles: tuple[Puzzle, ...]) -> int:
    started = time.perf_counter()
    bad = 0
    slowest = (0.0, "")
    for puzzle in puzzles:
        t = time.perf_counter()
        problems, _nodes = verify(puzzle)
        slowest = max(slowest, (time.perf_counter() - t, puzzle.id))
        if problems:
            bad += 1
            print(f"{puzzle.id}: {'; '.join(problems)}")
    elapsed = time.perf_counter() - started
    print(
        f"{len(puzzles)} puzzles re-proven in {elapsed:.1f} s ({bad} failed; slowest {slowest[1]} "
        f"{slowest[0] * 1000:.0f} ms)"
    )
    return 1 if bad else 0


def bench(presets: list[str], deals: int, runs: int) -> None:
    """Puzzles found per minute and the share of the positions examined that qualify, medians of ``runs``."""
    print(
        f"| preset | puzzles a minute | qualifying share | positions examined a minute | ({runs} runs of {deals} deals)"
    )
    print("|---|---|---|---|")
    for preset in presets:
        rates, shares, examined = [], [], []
        for seed in range(1, runs + 1):
            tally = Tally()
            started = time.perf_counter()
            found = sum(1 for _ in run(preset, 1000 + seed, deals, tally))
            minutes = (time.perf_counter() - started) / 60
            rates.append(found / minutes)
            shares.append(tally.qualified / max(1, tally.examined))
            examined.append(tally.examined / minutes)
        print(
            f"| {preset} | {statistics.median(rates):.1f} | {statistics.median(shares):.0%} | "
            f"{statistics.median(examined):.0f} |",
            flush=True,
        )


def solves(puzzle: Puzzle, level: int, seed: int) -> bool:
    """Does the computer at ``level``, knowing what the side knows, play ``puzzle`` to its goal against the
    defence of :class:`~py_engine.puzzles.solving.Session`?"""
    from py_engine.ai import Request, choose
    from py_engine.puzzles.solving import SOLVED, Session

    session = Session(puzzle)
    for move in range(64):
        if session.status != "playing":
            break
        match = session.follow.match
        decision = choose(match, session.seat, Request(level=level, seed=seed * 1000 + move))
        try:
            session.move(action_name(decision.action))
        except EngineError:
            return False
    return session.status == SOLVED


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties share their mean rank)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    norm = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / norm if norm else 0.0


def validate(puzzles: list[Puzzle], levels: list[int], seed: int) -> None:
    """How often each level solves the hidden-card puzzles, by difficulty band, and how well the difficulty
    predicts the levels that fail (a check of the formula by players that are not people)."""
    hidden = [p for p in puzzles if p.kind == "hidden"]
    started = time.perf_counter()
    solved = {(p.id, level): solves(p, level, seed) for p in hidden for level in levels}
    print(f"{len(hidden)} hidden-card puzzles, levels {levels}, seed {seed}: {time.perf_counter() - started:.0f} s")
    print("| band | puzzles | " + " | ".join(f"level {level} solves" for level in levels) + " |")
    print("|---|---|" + "---|" * len(levels))
    for name, _limit in BANDS:
        group = [p for p in hidden if band(p.difficulty) == name]
        if not group:
            continue
        shares = [sum(solved[p.id, level] for p in group) / len(group) for level in levels]
        print(f"| {name} | {len(group)} | " + " | ".join(f"{share:.0%}" for share in shares) + " |")
    failures = [float(sum(not solved[p.id, level] for level in levels)) for p in hidden]
    rho = spearman([float(p.difficulty) for p in hidden], failures)
    print(f"Spearman's rho, difficulty against the number of levels that fail: {rho:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="puzzles of one run, or the built-in set (--all)")
    gen.add_argument("--preset", choices=PRESET_IDS, default="AT20")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--count", type=int, default=10, help="puzzles to print (one run, at most one a deal)")
    gen.add_argument("--all", action="store_true", help="write the built-in set")
    gen.add_argument("--per-preset", type=int, default=PER_PRESET)
    gen.add_argument("--out", type=Path, default=CATALOGUE_PATH, help="where --all writes")
    sub.add_parser("check", help="re-prove every puzzle of the built-in set")
    sub.add_parser("summary", help="the built-in set's makeup and size")
    ben = sub.add_parser("bench", help="puzzles found per minute per preset")
    ben.add_argument("--preset", choices=PRESET_IDS, action="append")
    ben.add_argument("--deals", type=int, default=12)
    ben.add_argument("--runs", type=int, default=3)
    val = sub.add_parser("validate", help="the computer's levels solve the built-in set, by difficulty band")
    val.add_argument("--levels", default="1,2,3,4", help="comma-separated levels")
    val.add_argument("--seed", type=int, default=1)
    val.add_argument("--limit", type=int, default=0, help="only the first N puzzles (0: all)")
    args = parser.parse_args(argv)
    if args.command == "generate":
        if args.all:
            generate_all(args.seed, args.per_preset, args.out)
            return 0
        for puzzle in pool(args.preset, args.seed, args.count)[: args.count]:
            print(json.dumps({**puzzle.entry(), "row": puzzle.row()}))
        return 0
    if args.command == "check":
        return check(catalogue.builtin())
    if args.command == "validate":
        chosen = list(catalogue.builtin())
        validate(chosen[: args.limit] if args.limit else chosen, [int(x) for x in args.levels.split(",")], args.seed)
        return 0
    if args.command == "summary":
        print(summary(list(catalogue.builtin())))
        return 0
    bench(args.preset or list(PRESET_IDS), args.deals, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
