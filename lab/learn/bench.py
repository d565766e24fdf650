"""What the learned value costs and buys in speed: ``python -m lab.learn.bench [--pyodide]``.

Per preset, the search's iterations per second with the playouts
(``LEAF_VALUE=0``) and with the learned value at the leaves (``LEAF_VALUE=1``,
or ``--leaf``), measured in turns from the same positions (the opening, or
after 1-4 tricks of rule-of-thumb play) and printed as medians with their
ratio, and the median of each position's own ratio. Then what the model
costs on its own: reading the shipped weights (the start-up it adds, once,
at the first search that uses it), one evaluation, and one lead valued by
``Valuer.after_leads`` and on the world after it. ``--pyodide`` measures
the same inside Pyodide under Node, in the same go. ``--level 5`` searches with that level's constants (reading the
opponent, playing the score) on both sides; ``--set`` changes a constant of
the search with the learned value only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from py_engine.ai.config import DEFAULT_CONFIG, add_option
from py_engine.ai.heuristic import after_claims
from py_engine.ai.ismcts import Utility
from py_engine.ai.player import level_named
from py_engine.ai.value_model import ValueModel, Valuer, weights_text
from py_engine.core.actions import is_play
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.service.match import shuffled_deck

from ..bench import search_iterations_per_second


def measure(
    presets: list[str], runs: int, seconds: float, leaf: float, settings: list[str], level: str
) -> dict[str, object]:
    """The figures of this interpreter, as JSON-ready values."""
    searches: dict[str, list[float]] = {}
    for pid in presets:
        rules = PRESETS[pid]
        # The level's search without the learned value, against the same with it.
        plain = replace(level_named(level).config_for(rules.deck), leaf_value=0.0) if level else DEFAULT_CONFIG
        learned = plain.with_settings([f"LEAF_VALUE={leaf}", *settings])
        pairs = [
            (
                search_iterations_per_second(rules, seconds, seed, plain),
                search_iterations_per_second(rules, seconds, seed, learned),
            )
            for seed in range(runs)
        ]
        # The ratio of each position's two searches too: positions differ far more than the two searches do.
        searches[pid] = [
            statistics.median(p for p, _ in pairs),
            statistics.median(q for _, q in pairs),
            statistics.median(q / p for p, q in pairs),
        ]
    text = weights_text()
    loads = []
    for _ in range(max(3, runs)):
        started = time.perf_counter()
        model = ValueModel.from_json(json.loads(text))
        loads.append(time.perf_counter() - started)
    rules = PRESETS["AT20"]
    deal = Deal(rules, shuffled_deck(random.Random(1), rules.deck), 0)
    valuer = model.valuer(0, Utility(0))
    count = 20_000
    started = time.perf_counter()
    for _ in range(count):
        valuer(deal)
    evaluation = (time.perf_counter() - started) / count
    shortcut, world_after = lead_costs(valuer, deal, max(3, runs))
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})",
        "searches": searches,
        "load_ms": statistics.median(loads) * 1000,
        "evaluation_us": evaluation * 1e6,
        "lead_us": [shortcut * 1e6, world_after * 1e6],
    }


def lead_costs(valuer: Valuer, deal: Deal, runs: int) -> tuple[float, float]:
    """Medians of ``runs`` (in turns) of the time to value one lead of ``deal``'s mover by
    ``Valuer.after_leads`` and by making the world after it, as a learned playout's step ahead does."""
    leads = [a for a in deal.legal_actions() if is_play(a)]
    if deal.lead >= 0 or not leads:
        raise ValueError("the position must be one with leads to make")
    count = 2_000
    shortcut, world_after = [], []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(count):
            valuer.after_leads(deal, leads)
        shortcut.append((time.perf_counter() - started) / count / len(leads))
        started = time.perf_counter()
        for _ in range(count):
            for card in leads:
                after = deal.clone()
                after.apply(card)
                valuer(after_claims(after))
        world_after.append((time.perf_counter() - started) / count / len(leads))
    return statistics.median(shortcut), statistics.median(world_after)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each search; medians are printed")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one search")
    parser.add_argument("--preset", choices=PRESET_IDS, action="append", help="only these presets")
    parser.add_argument("--leaf", type=float, default=1.0, help="the LEAF_VALUE measured against 0")
    parser.add_argument("--pyodide", action="store_true", help="also measure inside Pyodide (Node)")
    parser.add_argument("--json", action="store_true", help="print this interpreter's figures as JSON")
    parser.add_argument("--level", default="", help="search as this level does (its constants), with and without")
    add_option(parser, "--set", "another search constant of the search with the learned value (repeatable)")
    args = parser.parse_args(argv)
    presets = args.preset or ["AT20", "HU24"]
    if args.json:
        print(json.dumps(measure(presets, args.runs, args.seconds, args.leaf, args.set, args.level)))
        return 0
    results = [measure(presets, args.runs, args.seconds, args.leaf, args.set, args.level)]
    if args.pyodide:
        root = Path(__file__).resolve().parents[2]
        command = ["node", str(root / "tests" / "pyodide" / "run_module.mjs"), "lab.learn.bench", "--json"]
        command += ["--runs", str(args.runs), "--seconds", str(args.seconds), "--leaf", str(args.leaf)]
        for pid in presets:
            command += ["--preset", pid]
        for text in args.set:
            command += ["--set", text]
        if args.level:
            command += ["--level", args.level]
        out = subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
    size = len(weights_text().encode())
    packed = len(gzip.compress(weights_text().encode(), 9))
    print(f"weights file: {size:,} bytes, {packed:,} compressed (the wheel's deflate is about the same)")
    learned = " ".join([f"LEAF_VALUE={args.leaf:g}", *args.set]) + (f", as level {args.level}" if args.level else "")
    print(f"median of {args.runs} searches of {args.seconds:g} s each, playouts and {learned} in turns")
    for result in results:
        print(
            f"{result['python']}: reading the weights {result['load_ms']:.1f} ms, "
            f"one evaluation {result['evaluation_us']:.1f} us"
        )
        leads = result["lead_us"]
        assert isinstance(leads, list)
        shortcut, world_after = leads
        print(f"  one lead valued: {shortcut:.1f} us by the shortcut, {world_after:.1f} us on the world after it")
        searches = result["searches"]
        assert isinstance(searches, dict)
        for pid, (plain, learned, ratio) in searches.items():
            print(
                f"  {pid}: {plain:8,.0f} it/s with playouts, {learned:8,.0f} with the learned value: "
                f"{learned / plain:.2f}x ({ratio:.2f}x the median of the positions' ratios)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
