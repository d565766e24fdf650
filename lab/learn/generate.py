"""Training data for the learned value: ``python -m lab.learn.generate --out FILE --deals N``.

Plays single deals of self-play (both seats the same player, ``--player``,
by default level 3 with its imprecision, so that games vary) on the presets
of ``--presets`` in turn, and writes one JSON line per deal: its number, its
preset, and every decision point seen from both seats (the active features of
:mod:`py_engine.ai.features`), each labelled with what happened in the end
from that seat's side (an index into :data:`py_engine.ai.value_model.OUTCOMES`).

A deal depends only on ``--seed`` and its number, so the file is the same
byte for byte whatever the number of processes (``--procs``) or machines
(``--ray``): lines are written in the deals' order. A stopped run resumes: the
deals already in ``--out`` are kept and the run goes on after them. It prints
how many positions it made a minute.

``--ray ADDRESS`` plays the deals on a Ray cluster (``pip install -e '.[learn-ray]'``;
``ray start --head`` on one machine, ``ray start --address=...`` on the others, then
``--ray auto`` on any of them; ``--ray local`` starts a cluster of this machine alone).
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from py_engine.ai.config import add_option
from py_engine.ai.features import active_features
from py_engine.ai.player import match_utility, seat_to_decide
from py_engine.ai.value_model import outcome_index
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.service.match import Match, shuffled_deck

from ..psellos import decide, level_named


@dataclass(frozen=True)
class Plan:
    """What every deal of one run is played with."""

    seed: int
    presets: tuple[str, ...]
    player: str
    iterations: int | None
    settings: tuple[str, ...]

    def header(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "presets": list(self.presets),
            "player": self.player,
            "iterations": self.iterations,
            "settings": list(self.settings),
        }


def play_deal(plan: Plan, number: int) -> str:
    """Deal number ``number`` of ``plan``, played out, as its JSON line (without the newline)."""
    preset = plan.presets[number % len(plan.presets)]
    rules = PRESETS[preset]
    rng = random.Random(f"{plan.seed}:{number}")
    deck = shuffled_deck(rng, rules.deck)
    match = Match(rules, rng.randrange(2**31), dealer=rng.randrange(2), deck=deck, single_deal=True)
    level = level_named(plan.player)
    config = level.config_for(rules.deck).with_settings(plan.settings)
    seen: list[tuple[int, list[int]]] = []
    deal = match.deal
    while deal.result is None:
        seat = seat_to_decide(deal)
        seen.append((0, active_features(deal, 0)))
        seen.append((1, active_features(deal, 1)))
        utility = match_utility(seat, match.scores, rules.match_target, match.carry)
        decision = decide(deal, seat, level, rng, utility, iterations=plan.iterations, clock=False, config=config)
        match.act(seat, decision.action)
        deal = match.deal
    result = deal.result
    positions = [[seat, outcome_index(result, seat), features] for seat, features in seen]
    return json.dumps({"deal": number, "preset": preset, "positions": positions}, separators=(",", ":"))


def _play(job: tuple[Plan, int]) -> str:
    return play_deal(*job)


def local_lines(plan: Plan, numbers: range, procs: int) -> Iterator[str]:
    """The deals' lines in order, played by ``procs`` processes of this machine."""
    jobs = ((plan, number) for number in numbers)
    if procs <= 1:
        yield from map(_play, jobs)
        return
    with multiprocessing.Pool(procs) as pool:
        yield from pool.imap(_play, jobs, chunksize=1)


def ray_lines(plan: Plan, numbers: range, address: str, window: int = 64) -> Iterator[str]:
    """The deals' lines in order, played on a Ray cluster (``address``: ``auto``, ``local`` or host:port)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise SystemExit("--ray needs Ray: pip install -e '.[learn-ray]'") from None
    ray.init(address=None if address == "local" else address, include_dashboard=False, log_to_driver=False)
    remote: Any = ray.remote(play_deal)
    pending: list[Any] = []
    try:
        for number in numbers:
            pending.append(remote.remote(plan, number))
            if len(pending) >= window:
                yield ray.get(pending.pop(0))
        for ref in pending:
            yield ray.get(ref)
    finally:
        ray.shutdown()


def finished_deals(path: Path, header: dict[str, Any]) -> int:
    """How many deals ``path`` already holds for this run (its header first); a cut-off last line is dropped."""
    if not path.exists() or path.stat().st_size == 0:
        path.write_text(json.dumps(header) + "\n")
        return 0
    lines = path.read_text().split("\n")
    if json.loads(lines[0]) != header:
        raise SystemExit(f"{path} holds another run ({lines[0]}); choose another --out")
    kept = [line for line in lines[1:] if line]
    if kept and lines[-1] != "":
        kept.pop()  # the run was stopped while writing its last line
    path.write_text("\n".join([lines[0], *kept]) + "\n")
    for expected, line in enumerate(kept):
        if json.loads(line)["deal"] != expected:
            raise SystemExit(f"{path}: line {expected + 2} is not deal {expected}")
    return len(kept)


def run(
    plan: Plan, out: Path, deals: int, lines: Callable[[range], Iterator[str]], report: int = 100
) -> dict[str, float]:
    """Play deals up to ``deals`` into ``out`` (after those it holds); the figures of this run."""
    done = finished_deals(out, {"header": plan.header()})
    start = time.perf_counter()
    positions = 0
    played = 0
    with out.open("a") as sink:
        for line in lines(range(done, deals)):
            sink.write(line + "\n")
            positions += len(json.loads(line)["positions"])
            played += 1
            if report and played % report == 0:
                sink.flush()
                _report(played, positions, time.perf_counter() - start, sys.stderr)
    seconds = time.perf_counter() - start
    return {
        "deals": played,
        "positions": positions,
        "seconds": seconds,
        "positions_per_minute": positions / seconds * 60 if seconds else 0.0,
    }


def _report(deals: int, positions: int, seconds: float, stream: Any) -> None:
    rate = positions / seconds * 60 if seconds else 0.0
    print(f"{deals} deals, {positions} positions in {seconds:.0f} s: {rate:,.0f} positions a minute", file=stream)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write (or resume)")
    parser.add_argument("--deals", type=int, required=True, help="how many deals the file should hold")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default="AT20,KLUB20,HU24,DE24", help="comma-separated presets, dealt in turn")
    parser.add_argument("--player", default="3", help="the level both seats play (a level 1-5, heuristic, psellos)")
    parser.add_argument("--iterations", type=int, default=None, help="override the player's iteration count")
    add_option(parser, "--set", "set a search constant of the player (repeatable)")
    parser.add_argument("--procs", type=int, default=max(1, multiprocessing.cpu_count()), help="worker processes")
    parser.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="play on a Ray cluster instead: auto, local or host:port"
    )
    args = parser.parse_args(argv)
    presets = tuple(args.presets.split(","))
    unknown = [p for p in presets if p not in PRESET_IDS]
    if unknown:
        parser.error(f"unknown presets {unknown}; choose from {', '.join(PRESET_IDS)}")
    plan = Plan(args.seed, presets, args.player, args.iterations, tuple(args.set))
    level_named(plan.player)  # a bad name fails here, before any process starts

    def lines(numbers: range) -> Iterator[str]:
        if args.ray:
            return ray_lines(plan, numbers, args.ray)
        return local_lines(plan, numbers, args.procs)

    figures = run(plan, args.out, args.deals, lines)
    _report(int(figures["deals"]), int(figures["positions"]), figures["seconds"], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
