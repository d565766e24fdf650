"""Engine speed: ``python -m lab.bench``.

Prints, per preset, the median of several runs of:

* **deals/s**: full random deals, from the shuffle to the result, through the
  fast API (``legal_actions`` + ``apply``). The random player picks uniformly
  among the legal actions other than claim, pass and resign; it claims
  whenever a claim would be valid and passes otherwise, so deals are played
  to their natural end rather than cut short by random claims.
* **ops/s**: one ``legal_actions`` + ``apply`` + ``clone`` step, the unit of
  work of a search.
* **search it/s** (``--ai``): iterations per second of the computer's search
  (ISMCTS), from openings and early middle-game positions.

``--pyodide`` measures the same inside Pyodide under Node and prints the ratio.
``--set NAME=VALUE`` changes a constant of the measured search (the default
:class:`~py_engine.ai.config.SearchConfig`) in both, so the cost of a search
setting inside the browser's budget can be read off: the search's clock
starts before it reads the opponent's play, so that reading is counted
against the iterations.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from py_engine.ai.config import DEFAULT_CONFIG, DEFAULTS, SearchConfig, add_option
from py_engine.ai.heuristic import claim_choice, heuristic_action
from py_engine.ai.ismcts import Utility, search
from py_engine.core.actions import CLAIM, PASS, RESIGN
from py_engine.core.cards import deck_cards
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules


def random_deal(rules: Rules, rng: random.Random) -> Deal:
    """Play one deal to its end with the benchmark's random player."""
    deck = deck_cards(rules.deck)
    rng.shuffle(deck)
    deal = Deal(rules, deck, rng.getrandbits(1))
    rand = rng.random
    while deal.result is None:
        seat = deal.to_act
        windows = deal.windows
        if windows:
            if windows >> seat & 1 and deal.claim_is_valid(seat):
                deal.apply(CLAIM, seat)
                continue
            other = 1 - seat
            if windows >> other & 1 and deal.claim_is_valid(other):
                deal.apply(CLAIM, other)
                continue
        actions = [a for a in deal.legal_actions() if a < CLAIM or a > RESIGN]
        if actions:
            deal.apply(actions[int(rand() * len(actions))])
        else:
            deal.apply(PASS)
    return deal


def deals_per_second(rules: Rules, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            random_deal(rules, rng)
        n += 50
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def ops_per_second(rules: Rules, seconds: float, seed: int) -> float:
    """legal_actions + apply + clone steps per second, over random deals."""
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        deck = deck_cards(rules.deck)
        rng.shuffle(deck)
        deal = Deal(rules, deck, 0)
        while deal.result is None:
            actions = deal.legal_actions()
            deal = deal.clone()
            deal.apply(actions[int(rng.random() * len(actions))])
            n += 1
    return n / (time.perf_counter() - start)


def search_iterations_per_second(
    rules: Rules, seconds: float, seed: int, config: SearchConfig = DEFAULT_CONFIG
) -> float:
    """ISMCTS iterations per second from one position: the opening, or after 1-4 tricks of rule-of-thumb play.

    The deal keeps its event log, as a game's does, so a search that reads the opponent's play can.
    """
    rng = random.Random(seed)
    deck = deck_cards(rules.deck)
    rng.shuffle(deck)
    deal = Deal(rules, deck, seed % 2, log=[])
    for _ in range(rng.randrange(5) * 2):
        while (claim := claim_choice(deal)) is not None and deal.result is None:
            deal.apply(claim[1], claim[0])
        if deal.result is not None:
            break
        deal.apply(heuristic_action(deal, deal.to_act, rng))
    if deal.result is not None or deal.exhausted:
        deal = Deal(rules, deck, seed % 2, log=[])
    seat = deal.to_act
    result = search(deal, seat, rng, Utility(seat), config=config, budget_s=seconds)
    return result.iterations / result.seconds


def measure(
    presets: list[str], runs: int, seconds: float, ai: bool, config: SearchConfig = DEFAULT_CONFIG
) -> dict[str, tuple[float, ...]]:
    """Median deals/s and ops/s per preset (and search iterations/s with ``ai``, searching by ``config``)."""
    figures: dict[str, tuple[float, ...]] = {}
    for pid in presets:
        rules = PRESETS[pid]
        deals = statistics.median(deals_per_second(rules, seconds, seed) for seed in range(runs))
        ops = statistics.median(ops_per_second(rules, seconds, seed) for seed in range(runs))
        figures[pid] = (deals, ops)
        if ai:
            its = statistics.median(search_iterations_per_second(rules, seconds, seed, config) for seed in range(runs))
            figures[pid] += (its,)
    return figures


def in_pyodide(
    presets: list[str], runs: int, seconds: float, ai: bool, settings: list[str]
) -> dict[str, tuple[float, ...]]:
    """The same figures measured inside Pyodide under Node (needs ``npm ci``)."""
    root = Path(__file__).resolve().parents[1]  # the repository: lab/bench.py
    command = ["node", str(root / "tests" / "pyodide" / "run_module.mjs"), "lab.bench", "--json"]
    command += ["--runs", str(runs), "--seconds", str(seconds)] + (["--ai"] if ai else [])
    for text in settings:
        command += ["--set", text]
    for pid in presets:
        command += ["--preset", pid]
    out = subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return {pid: tuple(float(x) for x in values) for pid, values in data["figures"].items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run (default 1.0)")
    parser.add_argument("--preset", choices=PRESET_IDS, action="append", help="only these presets")
    parser.add_argument("--pyodide", action="store_true", help="also measure inside Pyodide (Node) and compare")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--ai", action="store_true", help="also measure ISMCTS iterations per second")
    add_option(parser, "--set", f"set a search constant (repeatable): {', '.join(sorted(DEFAULTS))}")
    args = parser.parse_args(argv)
    config = DEFAULT_CONFIG.with_settings(args.set)
    presets = args.preset or list(PRESET_IDS)
    impl = f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})"
    if args.json:
        figures = measure(presets, args.runs, args.seconds, args.ai, config)
        print(json.dumps({"python": impl, "figures": figures}))
        return 0
    settings = f", with {' '.join(args.set)}" if args.set else ""
    print(f"lab.bench on {impl}: median of {args.runs} runs of {args.seconds:g} s{settings}", flush=True)
    figures = measure(presets, args.runs, args.seconds, args.ai, config)
    other = in_pyodide(presets, args.runs, args.seconds, args.ai, args.set) if args.pyodide else {}
    names = ["deals/s", "ops/s"] + (["search it/s"] if args.ai else [])
    header = f"{'preset':8}" + "".join(f"{n:>13}" for n in names)
    if other:
        header += "  | Pyodide:" + "".join(f"{n:>13}" for n in names) + "  | CPython/Pyodide"
    print(header)
    for pid in [*presets, "median"]:
        if pid == "median":
            row = tuple(statistics.median(v[i] for v in figures.values()) for i in range(len(names)))
            prow = tuple(statistics.median(v[i] for v in other.values()) for i in range(len(names))) if other else ()
        else:
            row, prow = figures[pid], other.get(pid, ())
        line = f"{pid:8}" + "".join(f"{x:13.0f}" for x in row)
        if prow:
            line += "  |         " + "".join(f"{x:13.0f}" for x in prow)
            line += "  | " + " ".join(f"{a / b:.2f}x" for a, b in zip(row, prow, strict=True))
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
