"""Bot against bot: ``python -m lab.arena --a 5 --b heuristic --preset AT20 --pairs 500``.

Deals are *paired*: each shuffled pack is played twice with the seats
swapped, so the luck of the cards cancels out. Prints game points won by
each side, A's share of the game points and of the deals with 95%
confidence intervals (bootstrap over pairs), and the mean time and
iterations per searched move.

``--matches`` plays paired *Bummerls* instead: each pair is two whole
matches to the preset's target, seats swapped, dealt the same packs in the
same order (the k-th deal of both matches has the same pack) with the same
first dealer. It reports A's share of the Bummerls as well as of the game
points and of the deals, each with its interval, and every printed figure
names the unit it counts. A session of several Bummerls (best of three)
counts each match as one Bummerl; the arena plays one per game.

Searching levels run their fixed iteration count and never look at the
clock, so a run depends on its seed alone, not on the machine's load
(``--iterations`` overrides the count for every searching level, and
``--iterations-a``/``--iterations-b`` for one side's, as when a setting costs
search time in the browser; ``--budget-ms`` searches against the clock
instead, as the browser does). ``--scale-a F`` (``--scale-b F``) multiplies every iteration count of A's (B's) level
(with and without its reading) by F: a setting that makes an iteration F times cheaper in the
browser then plays at equal time.

``--from-score X:Y`` (with ``--matches``) starts every match with A at X and B at Y, both halves of
a pair alike: the scores where playing the match score matters can be measured on their own.

``--score-blind-b`` hides the match from B: every decision of B's is searched as at 0:0 with
nothing carried over, so B values the deal's game points alone (with ``--set-b PLAY_SCORE=0``:
the deal-only search, which does not even count a win only up to what the winner still needs).

``--journal FILE`` appends each finished pair to FILE and skips the pairs
already there, so a long run can be stopped and resumed (in another
session, say) and still prints one result over all its pairs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from py_engine.ai import value_model
from py_engine.ai.config import DEFAULTS, SearchConfig, add_option
from py_engine.ai.player import Level, match_utility, seat_to_decide
from py_engine.core.actions import NEXT
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.service.match import Match, shuffled_deck

from .psellos import decide, level_named


@dataclass
class Tally:
    """What one side did in one game (deal or match)."""

    game_points: int = 0
    deals_won: int = 0
    matches_won: int = 0
    move_ms: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Count ``other``'s game into this one."""
        self.game_points += other.game_points
        self.deals_won += other.deals_won
        self.matches_won += other.matches_won
        self.move_ms += other.move_ms
        self.iterations += other.iterations


def _play(
    match: Match,
    levels: tuple[Level, Level],
    rng: random.Random,
    budget_ms: int | None,
    iterations: tuple[int | None, int | None] = (None, None),
    configs: tuple[SearchConfig | None, SearchConfig | None] = (None, None),
    blind: tuple[bool, bool] = (False, False),
) -> list[Tally]:
    """Play ``match`` to its end (one deal, or the match).

    Seat s plays ``levels[s]`` with the search constants ``configs[s]``, searching ``iterations[s]``
    (None: its level's); a seat with ``blind[s]`` decides as if the match stood at 0:0, nothing carried.
    """
    tallies = [Tally(), Tally()]
    while not match.finished:
        deal = match.deal
        if deal.over:
            if match.match_over:
                break
            match.act(0, NEXT)
            continue
        seat = seat_to_decide(deal)
        scores, carry = ([0, 0], 0) if blind[seat] else (match.scores, match.carry)
        utility = match_utility(seat, scores, match.rules.match_target, carry)
        decision = decide(
            deal,
            seat,
            levels[seat],
            rng,
            utility,
            iterations=iterations[seat],
            budget_ms=budget_ms,
            clock=budget_ms is not None,
            config=configs[seat],
        )
        if decision.stats.get("iterations") or decision.stats.get("exact"):
            tallies[seat].move_ms.append(decision.stats["ms"])
            tallies[seat].iterations.append(decision.stats.get("iterations", 0))
        match.act(seat, decision.action)
        result = match.deal.result
        if result is not None and result.winner is not None:
            tallies[result.winner].deals_won += 1
            tallies[result.winner].game_points += result.game_points
    if match.match_winner is not None:
        tallies[match.match_winner].matches_won += 1
    return tallies


@dataclass(frozen=True)
class Job:
    rules: Rules
    a: str
    b: str
    seed: int
    matches: bool
    budget_ms: int | None
    iterations_a: int | None = None  # A's iteration count (None: its level's)
    iterations_b: int | None = None  # and B's
    config_a: SearchConfig | None = None  # the search constants of A's decisions (None: its level's)
    config_b: SearchConfig | None = None  # and of B's
    start: tuple[int, int] | None = None  # the match score (A's, B's) each match starts from (None: 0:0)
    score_blind_b: bool = False  # B decides as if every deal were played at 0:0, nothing carried over
    scale_a: float = 1.0  # A's level's iteration counts times this
    scale_b: float = 1.0  # and B's


def scaled(level: Level, factor: float) -> Level:
    """``level`` searching ``factor`` times its iteration counts (fixed, unclocked and while reading)."""
    if factor == 1.0:
        return level

    def times(count: int | None) -> int | None:
        return None if count is None else max(1, round(count * factor))

    def pair(counts: tuple[int, int] | None) -> tuple[int, int] | None:
        return None if counts is None else (round(counts[0] * factor), round(counts[1] * factor))

    return replace(
        level,
        name=f"{level.name}x{factor:g}",
        iterations=times(level.iterations),
        unclocked=pair(level.unclocked),
        unclocked_reading=pair(level.unclocked_reading),
    )


def play_pair(job: Job) -> tuple[Tally, Tally]:
    """One pack (or match seed) twice, seats swapped; returns (A's tally, B's tally) summed.

    Both halves deal the first pack from the same first dealer and draw every later pack from a
    match generator seeded alike, so the k-th deal of each half has the same pack.
    """
    pack_rng = random.Random(job.seed)
    deck = shuffled_deck(pack_rng, job.rules.deck)
    dealer = pack_rng.randrange(2)
    a_total, b_total = Tally(), Tally()
    players = (
        (scaled(level_named(job.a), job.scale_a), job.iterations_a, job.config_a, False),
        (scaled(level_named(job.b), job.scale_b), job.iterations_b, job.config_b, job.score_blind_b),
    )
    for a_seat in (0, 1):
        (level0, its0, config0, blind0), (level1, its1, config1, blind1) = players if a_seat == 0 else players[::-1]
        match = Match(job.rules, job.seed, dealer=dealer, deck=deck, single_deal=not job.matches)
        if job.start is not None:
            match.scores[a_seat], match.scores[1 - a_seat] = job.start
        rng = random.Random(job.seed * 2 + a_seat)
        tallies = _play(match, (level0, level1), rng, job.budget_ms, (its0, its1), (config0, config1), (blind0, blind1))
        a_total.add(tallies[a_seat])
        b_total.add(tallies[1 - a_seat])
    return a_total, b_total


def _play_seeded(job: Job) -> tuple[int, tuple[Tally, Tally]]:
    """A pair's result with its job's seed (pairs finish in any order when several processes play)."""
    return job.seed, play_pair(job)


class Journal:
    """The finished pairs of one run (``--journal``): a header naming the run, then a JSON line per pair.

    A journal belongs to one run: the same options except the number of pairs (so a run can also be
    extended, or a shorter one read back from a longer one's journal), and the same players: the
    header holds each level's definition (with its search constants) and every search constant's
    default value, so a journal written before the code changed what a level does is refused rather
    than mixed in. One run at a time
    may write a journal.
    """

    def __init__(self, path: Path, run: str, players: tuple[Level, Level], weights: str | None = None):
        self.path = path
        self.header: dict[str, object] = {
            "run": run,
            "players": [repr(level) for level in players],
            "constants": {name: repr(value) for name, value in sorted(DEFAULTS.items())},
        }
        if weights is not None:  # a run with the learned value belongs to its weights too
            self.header["value_weights"] = weights

    def load(self) -> dict[int, tuple[Tally, Tally]]:
        """The pairs finished so far, by seed; starts the journal if there is none.

        A last line cut short (the run was stopped while writing it) is dropped, and that pair is
        played again; any other unreadable line, or the journal of another run, is an error.
        """
        if not self.path.exists():
            self.path.write_text(json.dumps(self.header) + "\n")
            return {}
        data = self.path.read_bytes()
        text = data.decode()
        lines = text.splitlines()
        try:
            header = json.loads(lines[0]) if lines else None
        except ValueError:
            header = None
        if header != self.header:
            raise ValueError(
                f"{self.path} is not the journal of this run ({self.header['run']}, with these players and "
                f"constants): its first line is {lines[0][:300] if lines else 'empty'!r}"
            )
        done: dict[int, tuple[Tally, Tally]] = {}
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
                done[int(record["seed"])] = (Tally(**record["a"]), Tally(**record["b"]))
            except (ValueError, KeyError, TypeError) as error:
                if number < len(lines) or text.endswith("\n"):
                    raise ValueError(f"{self.path}, line {number}: not a finished pair ({error})") from None
                os.truncate(self.path, data.rfind(b"\n") + 1)  # the pair being written when the run stopped
                return done
        if not text.endswith("\n"):  # stopped just before the newline: the next pair starts a line of its own
            self._append("")
        return done

    def add(self, seed: int, result: tuple[Tally, Tally]) -> None:
        self._append(json.dumps({"seed": seed, "a": asdict(result[0]), "b": asdict(result[1])}))

    def _append(self, line: str) -> None:
        with self.path.open("a") as journal:
            journal.write(line + "\n")


def share_interval(pairs: list[tuple[int, int]], rng: random.Random, rounds: int = 2000) -> tuple[float, float]:
    """95% bootstrap interval of sum(a) / (sum(a) + sum(b)) over pairs."""
    n = len(pairs)
    shares = []
    for _ in range(rounds):
        sa = sb = 0
        for _ in range(n):
            a, b = pairs[int(rng.random() * n)]
            sa += a
            sb += b
        shares.append(sa / (sa + sb) if sa + sb else 0.5)
    shares.sort()
    return shares[int(0.025 * rounds)], shares[int(0.975 * rounds) - 1]


def _share(a: float, b: float) -> float:
    return a / (a + b) if a + b else 0.5


#: What each figure counts, as the arena's output names it.
UNITS = {
    "game points": "game points the deals awarded, carried-over points left out",
    "deals": "deals won; a deal without a winner counts for nobody",
    "Bummerls": "Bummerls won: matches played to the preset's target",
}
#: Pairs the Bummerl interval adds, one won 2:0 by each side (never the share itself): most pairs of
#: Bummerls split 1:1, and a percentile bootstrap over a few pairs that all split would give an
#: interval of width zero. Like Agresti and Coull's "plus four" for a proportion, the pseudo-pairs
#: keep a small run's interval honest and fade as the pairs grow.
BUMMERL_PSEUDO_PAIRS = ((2, 0), (0, 2))


@dataclass(frozen=True)
class Share:
    """A's share of one unit over a run: the totals of both sides and a 95% bootstrap interval over the pairs."""

    unit: str  # a key of UNITS
    a: int
    b: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return _share(self.a, self.b)

    def line(self) -> str:
        """The figure as the arena prints it, with the unit it counts."""
        return (
            f"{self.unit:13} A {self.a}  B {self.b}  A share {self.value:.1%}  "
            f"95% CI [{self.low:.1%}, {self.high:.1%}]  ({UNITS[self.unit]})"
        )

    def cell(self) -> str:
        """The figure as a cell of the arena's tables (docs/arena.md, lab/NOTEBOOK.md)."""
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"


def shares(results: list[tuple[Tally, Tally]], matches: bool) -> list[Share]:
    """A's share of the game points, of the deals and (when whole matches were played) of the Bummerls.

    Each interval resamples the pairs, the run's independent units: a pair's two games share their
    packs, so they are not counted as two draws. The Bummerls' interval also resamples
    :data:`BUMMERL_PSEUDO_PAIRS`.
    """
    rng = random.Random(0)
    counts: list[tuple[str, list[tuple[int, int]]]] = [
        ("game points", [(a.game_points, b.game_points) for a, b in results]),
        ("deals", [(a.deals_won, b.deals_won) for a, b in results]),
    ]
    if matches:
        counts.append(("Bummerls", [(a.matches_won, b.matches_won) for a, b in results]))
    figures = []
    for unit, pairs in counts:
        low, high = share_interval([*pairs, *BUMMERL_PSEUDO_PAIRS] if unit == "Bummerls" else pairs, rng)
        figures.append(Share(unit, sum(a for a, _ in pairs), sum(b for _, b in pairs), low, high))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="5", help="player A: a level 1-5, 'heuristic', 'psellos' or 'random'")
    parser.add_argument("--b", default="heuristic", help="player B (same choices)")
    parser.add_argument("--preset", choices=PRESET_IDS, default="AT20")
    parser.add_argument("--pairs", type=int, default=200, help="paired deals (or paired Bummerls) to play")
    parser.add_argument(
        "--matches",
        action="store_true",
        help="play paired Bummerls (matches to the preset's target: the same packs in the same order, seats "
        "swapped) instead of paired deals, and report the Bummerl share beside the game-point share",
    )
    parser.add_argument(
        "--from-score",
        type=_score,
        default=None,
        metavar="X:Y",
        help="with --matches: start every match with A at X and B at Y (both below the preset's target)",
    )
    parser.add_argument(
        "--score-blind-b",
        action="store_true",
        help="B decides every move as if the match stood at 0:0 with nothing carried over (with --set-b "
        "PLAY_SCORE=0: the deal-only search)",
    )
    parser.add_argument("--procs", type=int, default=max(1, multiprocessing.cpu_count()), help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget-ms",
        type=int,
        default=None,
        help="search against the clock with this budget (default: no clock, each level searches its iteration count)",
    )
    parser.add_argument("--iterations", type=int, default=None, help="override the searching levels' iteration count")
    parser.add_argument("--iterations-a", type=int, default=None, help="override A's iteration count only")
    parser.add_argument("--iterations-b", type=int, default=None, help="override B's iteration count only")
    parser.add_argument(
        "--scale-a",
        type=float,
        default=1.0,
        help="A's level searches this many times its iteration counts (a setting's speed at equal time)",
    )
    parser.add_argument(
        "--scale-b",
        type=float,
        default=1.0,
        help="B's level searches this many times its iteration counts (as --scale-a)",
    )
    names = ", ".join(sorted(DEFAULTS))
    add_option(parser, "--set", f"set a search constant for both players (repeatable): {names}")
    add_option(parser, "--set-a", "set a search constant for A only")
    add_option(parser, "--set-b", "set a search constant for B only")
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="also print the result as a row of the tables in docs/arena.md and lab/NOTEBOOK.md",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="append each finished pair to FILE and skip the pairs already there (resume a stopped run)",
    )
    args = parser.parse_args(argv)
    try:
        players = (scaled(level_named(args.a), args.scale_a), scaled(level_named(args.b), args.scale_b))
    except ValueError as error:
        parser.error(str(error))
    # Each player's level with the run's settings: both sides' first, then its own.
    rules = PRESETS[args.preset]
    config_a = players[0].config_for(rules.deck).with_settings((*args.set, *args.set_a))
    config_b = players[1].config_for(rules.deck).with_settings((*args.set, *args.set_b))
    if args.from_score is not None and (not args.matches or max(args.from_score) >= rules.match_target):
        parser.error(f"--from-score needs --matches and scores below {args.preset}'s target of {rules.match_target}")
    jobs = [
        Job(
            rules,
            args.a,
            args.b,
            args.seed * 1_000_003 + i,
            args.matches,
            args.budget_ms,
            args.iterations_a if args.iterations_a is not None else args.iterations,
            args.iterations_b if args.iterations_b is not None else args.iterations,
            config_a,
            config_b,
            args.from_score,
            args.score_blind_b,
            args.scale_a,
            args.scale_b,
        )
        for i in range(args.pairs)
    ]
    learned = any(config.leaf_value or config.rollout_learned for config in (config_a, config_b))
    weights = hashlib.sha256(value_model.weights_text().encode()).hexdigest() if learned else None
    journal = Journal(args.journal, command_line(args, with_pairs=False), players, weights) if args.journal else None
    try:
        done = journal.load() if journal else {}
    except (OSError, ValueError) as error:
        parser.error(str(error))
    todo = [job for job in jobs if job.seed not in done]
    start = time.perf_counter()
    if args.procs > 1 and len(todo) > 1:
        with multiprocessing.Pool(args.procs) as pool:
            # With a journal, every pair is written as it finishes; larger chunks only come back whole.
            chunk = 1 if journal else max(1, len(todo) // (args.procs * 8))
            finished = pool.imap_unordered(_play_seeded, todo, chunksize=chunk)
            for seed, result in finished:
                done[seed] = result
                if journal:
                    journal.add(seed, result)
    else:
        for job in todo:
            done[job.seed] = play_pair(job)
            if journal:
                journal.add(job.seed, done[job.seed])
    elapsed = time.perf_counter() - start
    results = [done[job.seed] for job in jobs]
    figures = shares(results, args.matches)
    games = (
        f"{2 * args.pairs} Bummerls (matches to {rules.match_target})" if args.matches else f"{2 * args.pairs} deals"
    )
    if args.from_score is not None:
        games += f" from A {args.from_score[0]} : B {args.from_score[1]}"
    print(f"arena {args.preset}: A={args.a} vs B={args.b}, {args.pairs} pairs = {games}")
    for figure in figures:
        print(figure.line())
    for name, side in (("A", [a for a, _ in results]), ("B", [b for _, b in results])):
        ms = [m for t in side for m in t.move_ms]
        its = [i for t in side for i in t.iterations]
        if ms:
            print(
                f"{name} searched moves {len(ms)}: mean {statistics.fmean(ms):.0f} ms, "
                f"max {max(ms):.0f} ms, mean iterations {statistics.fmean(its):.0f}"
            )
    resumed = f"; {len(jobs) - len(todo)} pairs read from {args.journal}" if len(todo) < len(jobs) else ""
    print(f"wall time {elapsed:.0f} s on {args.procs} process(es){resumed}")
    if args.markdown:
        a_moves = [m for a, _ in results for m in a.move_ms]
        a_its = [i for a, _ in results for i in a.iterations]
        per_move = f"{statistics.fmean(a_moves):.0f} ms, {statistics.fmean(a_its):.0f} it" if a_moves else "-"
        # Deals: game points, deals. Bummerls: Bummerls first, then game points and deals.
        cells = " | ".join(f.cell() for f in (figures[-1:] + figures[:-1] if args.matches else figures))
        print(
            f"| {args.preset} | {args.a} | {args.b} | {args.pairs} | {cells} | {per_move} "
            f"| `python -m lab.arena {command_line(args)}` |"
        )
    return 0


def _score(text: str) -> tuple[int, int]:
    """``X:Y`` as (X, Y), two game-point scores."""
    try:
        a, b = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a score X:Y: {text!r}") from None
    if a < 0 or b < 0:
        raise argparse.ArgumentTypeError(f"a score is never negative: {text!r}")
    return a, b


def command_line(args: argparse.Namespace, with_pairs: bool = True) -> str:
    """The options that reproduce a run (everything but the process count, the journal and the output)."""
    words = [f"--a {args.a}", f"--b {args.b}", f"--preset {args.preset}"]
    if with_pairs:
        words.append(f"--pairs {args.pairs}")
    if args.matches:
        words.append("--matches")
    if args.from_score is not None:
        words.append(f"--from-score {args.from_score[0]}:{args.from_score[1]}")
    if args.score_blind_b:
        words.append("--score-blind-b")
    if args.seed != 1:
        words.append(f"--seed {args.seed}")
    if args.budget_ms is not None:
        words.append(f"--budget-ms {args.budget_ms}")
    if args.iterations is not None:
        words.append(f"--iterations {args.iterations}")
    if args.iterations_a is not None:
        words.append(f"--iterations-a {args.iterations_a}")
    if args.iterations_b is not None:
        words.append(f"--iterations-b {args.iterations_b}")
    if args.scale_a != 1.0:
        words.append(f"--scale-a {args.scale_a:g}")
    if args.scale_b != 1.0:
        words.append(f"--scale-b {args.scale_b:g}")
    words.extend(f"--set {text}" for text in args.set)
    words.extend(f"--set-a {text}" for text in args.set_a)
    words.extend(f"--set-b {text}" for text in args.set_b)
    return " ".join(words)


if __name__ == "__main__":
    sys.exit(main())
