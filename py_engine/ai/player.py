"""The computer player: levels, and one decision for one seat.

Every level makes every decision (card, exchange, marriage, close, claim,
pass); none ever misses a valid claim or claims wrongly. Levels differ in
how they choose the rest:

========  =====================================================
random    uniformly among the legal non-claim actions (arena)
heuristic the rule-of-thumb player, no noise (arena baseline)
1         the rule of thumb with noise: beginner's slips
2..5      ISMCTS with more iterations and less imprecision (2-4 choose among
          close actions by a softmax, like a player who cannot always tell
          them apart); 5 searches for a time budget (in the arena, without a
          clock: the iterations that budget buys in the browser), always
          plays its best, and reads the opponent's play as long as it plays
          by the rule of thumb (TOP_CONFIG); on 24-card presets it values
          open-talon leaves by the learned value (TOP_CONFIG_24)
========  =====================================================

A level is its search configuration (:class:`~py_engine.ai.config.SearchConfig`)
and its limits: iterations, time budget, imprecision.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..core.actions import CLAIM, PASS, RESIGN
from ..core.deal import Deal
from ..core.errors import NotYourTurnError, UnknownLevelError
from .config import DEFAULT_CONFIG, SearchConfig
from .equity import score_utility
from .heuristic import heuristic_action
from .ismcts import Utility, exact_ranking, known_exactly, search

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    kind: str  # "random", "heuristic" or "search" (the lab adds "psellos": lab/psellos.py)
    noise: float = 0.0
    iterations: int | None = None
    #: The level's time for one move against the clock (milliseconds), counted from the request
    #: (:func:`search_seconds`); no other place keeps a level's time (None: no time limit).
    budget_ms: int | None = None
    #: Without a clock (the arena), a level with a budget searches this many iterations instead:
    #: what its budget buys in the browser, (20-card deck, 24-card deck). See BROWSER_ITERATIONS.
    unclocked: tuple[int, int] | None = None
    #: And this many while it trusts its reading of the opponent (``SearchConfig.read_trust``), which
    #: leaves fewer iterations in the budget. See READING_ITERATIONS.
    unclocked_reading: tuple[int, int] | None = None
    #: Human-like imprecision of a searching level, (20-card deck, 24-card deck): it picks among the
    #: well-explored actions with probability proportional to exp(value / imprecision) (values are
    #: game points / 3), so it errs between close choices and rarely between clear ones. 0: always
    #: the search's best.
    imprecision: tuple[float, float] = (0.0, 0.0)
    #: The search constants this level plays with, (20-card deck, 24-card deck).
    configs: tuple[SearchConfig, SearchConfig] = (DEFAULT_CONFIG, DEFAULT_CONFIG)

    def iterations_for(self, deck: int, clock: bool) -> int | None:
        """The iteration limit of a search on a ``deck``-card preset, with or without the clock."""
        if not clock and self.unclocked is not None:
            return for_deck(self.unclocked, deck)
        return self.iterations

    def reading_iterations_for(self, deck: int, clock: bool) -> int | None:
        """The iteration limit of a search that trusts its reading (None: the same as any other)."""
        if not clock and self.unclocked_reading is not None:
            return for_deck(self.unclocked_reading, deck)
        return None

    def imprecision_for(self, deck: int) -> float:
        """The softmax temperature of this level's choices on a ``deck``-card preset (0: none)."""
        return for_deck(self.imprecision, deck)

    def config_for(self, deck: int) -> SearchConfig:
        """The search constants of this level on a ``deck``-card preset."""
        return for_deck(self.configs, deck)


def for_deck(values: tuple[T, T], deck: int) -> T:
    """The value of a (20-card deck, 24-card deck) pair for a ``deck``-card preset."""
    return values[0] if deck == 20 else values[1]


#: How the top level searches: it reads the opponent's play (:mod:`.reading`) and weighs two kinds
#: of player, one by the rule of thumb (the sharp model) and one whose play says little, 9 to 1 for
#: the first before it has seen any play. While the play keeps the rule-of-thumb kind at least as
#: likely as not, it draws its worlds from that reading and, in the tree, expects the rule of thumb's
#: move from the opponent in each sampled world; once the opponent has shown it plays otherwise, it
#: searches plainly, since expecting the rule of thumb from it would mislead. So it takes more game
#: points from a rule-of-thumb player than the plain search, as the search that always reads did,
#: and unlike that search it is clearly stronger than level 4 on AT20 and holds its own head to head
#: against the plain search on 24-card presets (lab/NOTEBOOK.md, "The top level reads its opponent").
#: On a command line: ``READ_PLAY=1 PRIOR_SHARP=0.9 READ_TRUST=0.5 PRIOR_WEIGHT=10 PRIOR_OPPONENT_ONLY=1``.
#:
#: It also plays the match, not only the deal: a result is worth the chance to win the match after it
#: (``PLAY_SCORE=1``, :mod:`.equity`), and it plays won and lost endgames as an expert does
#: (``EXPERT_ENDGAME=1``, :func:`.ismcts.exact_ranking`).
TOP_CONFIG = replace(
    DEFAULT_CONFIG,
    read_play=True,
    prior_sharp=0.9,
    read_trust=0.5,
    prior_weight=10.0,
    prior_opponent_only=True,
    play_score=True,
    expert_endgame=True,
)
#: On 24-card presets the top level also values a new leaf of its tree by the learned value
#: (:mod:`.value_model`) wherever a card may still be drawn, instead of playing the world out: in
#: Pyodide its search then runs 1.44 times the iterations on HU24 and 1.40 times on DE24 in the same
#: second, and at that equal time it took 54.0% [50.8, 57.3] of 600 HU24 Bummerls from the plain top
#: level (docs/learned-value.md). On 20-card presets it buys no iterations and gains no clear edge: at
#: equal counts 51.8% on AT20, 50.9% on KLUB20 and SZLI20, 48.1% [45.7, 50.5] on RO20.
TOP_CONFIG_24 = replace(TOP_CONFIG, leaf_value=1.0, leaf_value_strict=False)

#: Iterations the top level reaches in Pyodide within 95% of a 1 s budget: the plain search reaches
#: 8,000 on 20-card presets and 3,500 on 24-card ones from the opening and early middle game
#: (``python -m lab.bench --ai --pyodide``), and 1.4 times that on 24-card ones with the learned value
#: (TOP_CONFIG_24; ``python -m lab.learn.bench --pyodide --level 5``). The arena plays the top level with
#: these counts, so its results say how the browser's level 5 plays, on any machine and under any load.
#: (Reading the opponent's play once per decision costs about 1% of them, left out.)
BROWSER_ITERATIONS = (8000, 4900)
#: What the top level reaches while it trusts its reading: the rule-of-thumb prior at the opponent's
#: nodes leaves about three quarters of the plain search's iterations, an estimate (in level-5 games
#: in Pyodide against the clock, a median 0.73 of the plain search's on AT20 and 0.80 on HU24; 0.77
#: and 0.78 in CPython: lab/NOTEBOOK.md); 1.4 times that on 24-card presets, as above.
READING_ITERATIONS = (6000, 3780)


LEVELS: dict[str, Level] = {
    "random": Level("random", "random"),
    "heuristic": Level("heuristic", "heuristic"),
    "1": Level("1", "heuristic", noise=14.0),
    # Levels 2-4 stop at their iteration counts well within their 2.5 s (a cap for a slow device);
    # level 5 searches for its whole second.
    "2": Level("2", "search", iterations=100, budget_ms=2500, imprecision=(0.12, 0.12)),
    "3": Level("3", "search", iterations=400, budget_ms=2500, imprecision=(0.06, 0.09)),
    "4": Level("4", "search", iterations=1500, budget_ms=2500, imprecision=(0.025, 0.05)),
    "5": Level(
        "5",
        "search",
        iterations=20_000,
        budget_ms=1000,
        unclocked=BROWSER_ITERATIONS,
        unclocked_reading=READING_ITERATIONS,
        configs=(TOP_CONFIG, TOP_CONFIG_24),
    ),
}
#: The share of a time budget the search itself may use: the rest answers the request in time (in the
#: browser about 50 ms of level 5's second go to the answer, the view and the message: lab/NOTEBOOK.md).
SEARCH_SHARE = 0.95
#: The least share of its budget a search keeps, however long the request took before it. The first
#: move or hint after start-up imports the computer player before it searches (0.64 s of level 5's
#: 1 s in Pyodide, docs/performance.md, session 17): without the floor that move would search a
#: third of its time and play below its level; with it, that one answer comes up to half a budget late.
SEARCH_FLOOR = 0.5


def search_seconds(budget_ms: int, started: float) -> float:
    """The time a search may take (seconds): the one place where what is left of a request's budget is computed.

    The budget counts from ``started`` (``time.perf_counter()`` when the request came, or when the
    decision began): what was spent before the search comes off SEARCH_SHARE of it, but the search
    keeps at least SEARCH_FLOOR of it. The protocol and the table pass the budget and ``started``
    through (:class:`~py_engine.ai.service.Request`) and cut nothing themselves.
    """
    spent = time.perf_counter() - started
    return max(budget_ms / 1000 * SEARCH_FLOOR, budget_ms / 1000 * SEARCH_SHARE - spent)


def level_named(name: str | int) -> Level:
    level = LEVELS.get(str(name))
    if level is None:
        raise UnknownLevelError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}")
    return level


@dataclass
class Decision:
    action: int
    ranking: list[tuple[int, float]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


def seat_to_decide(deal: Deal) -> int:
    """Whose decision a deal between two computer players waits for: a seat whose valid claim window is open
    (it claims, :func:`forced_decision`), else the seat on turn."""
    seat = deal.to_act
    for s in (seat, 1 - seat):
        if deal.windows >> s & 1 and deal.claim_is_valid(s):
            return s
    return seat


def forced_decision(deal: Deal, seat: int) -> int | None:
    """Claims and passes need no search: claim when valid, else pass after the last trick."""
    if deal.result is not None:
        return None
    windows = deal.windows
    if windows >> seat & 1 and deal.claim_is_valid(seat):
        return CLAIM
    if seat == deal.to_act and deal.final_order:
        return PASS
    return None


def without_choice(deal: Deal, seat: int, take_forced: bool = True) -> Decision | list[int]:
    """The decision when there is nothing to choose (a forced claim or pass, or nothing but one), else the actions
    to choose among (claims, passes and resignations left out); NotYourTurnError for a seat with neither."""
    forced = forced_decision(deal, seat)
    if forced is not None and (take_forced or seat != deal.to_act):
        return Decision(forced, [(forced, 1.0)], {"iterations": 0, "ms": 0.0})
    if seat != deal.to_act:
        raise NotYourTurnError(f"seat {seat} is not on turn and has no valid claim")
    actions = [a for a in deal.legal_actions(seat) if a not in (CLAIM, PASS, RESIGN)]
    if not actions:
        return Decision(deal.legal_actions(seat)[0], [], {"iterations": 0, "ms": 0.0})
    return actions


def decide(
    deal: Deal,
    seat: int,
    level: Level,
    rng: random.Random,
    utility: Utility,
    *,
    iterations: int | None = None,
    budget_ms: int | None = None,
    clock: bool = True,
    started: float | None = None,
    config: SearchConfig | None = None,
    take_forced: bool = True,
) -> Decision:
    """Choose an action for ``seat`` (on turn, or with a valid claim out of turn).

    ``iterations``, ``budget_ms`` and ``config`` override the level's; with
    ``clock=False`` the search ignores every time budget and runs its iteration
    count, so the decision depends on the seed alone (the arena plays this way).
    With the clock, the budget counts from ``started`` (when the request came;
    None: from this call), see :func:`search_seconds`.
    A seat that is not on turn and has no valid claim gets a
    :class:`~py_engine.core.errors.NotYourTurnError`. With ``take_forced=False``
    a seat on turn that could claim (or must pass) still has its other actions
    searched (to rank them all; claims, passes and resignations are left out of
    the ranking, which is empty when nothing else is legal).
    """
    if config is None:
        config = level.config_for(deal.rules.deck)
    start = time.perf_counter()
    settled = without_choice(deal, seat, take_forced)
    if isinstance(settled, Decision):
        return settled
    actions = settled
    if config.play_score and level.kind == "search":
        utility = score_utility(utility, deal)
    stats: dict[str, Any] = {"iterations": 0}
    ranking: list[tuple[int, float]]
    imprecision = level.imprecision_for(deal.rules.deck)
    if len(actions) == 1:
        ranking = [(actions[0], 0.0)]
    elif level.kind == "random":
        ranking = [(rng.choice(actions), 0.0)]
    elif level.kind == "heuristic":
        ranking = [(heuristic_action(deal, seat, rng, level.noise), 0.0)]
    elif known_exactly(deal, config):
        ranking = exact_ranking(deal, seat, utility, config.expert_endgame)
        stats["exact"] = True
        if imprecision:
            return imprecise_decision(ranking, ranking, imprecision, rng, stats, start)
    else:
        deck = deal.rules.deck
        its = iterations if iterations is not None else level.iterations_for(deck, clock)
        reading_its = iterations if iterations is not None else level.reading_iterations_for(deck, clock)
        budget = (budget_ms if budget_ms is not None else level.budget_ms) if clock else None
        budget_s = None if budget is None else search_seconds(budget, start if started is None else started)
        result = search(
            deal,
            seat,
            rng,
            utility,
            config=config,
            iterations=its,
            budget_s=budget_s,
            reading_iterations=reading_its,
            claim_at_root=take_forced,
        )
        ranking = [(a, v) for a, v, _ in result.ranking]
        if not ranking:  # without its claim the seat could only let the other claim (take_forced=False)
            return Decision(actions[0], [], stats)
        stats["iterations"] = result.iterations
        if imprecision:
            top = result.ranking[0][2]
            enough = min(top, max(MIN_VISITS, top * EXPLORED_SHARE))  # the most visited always qualifies
            explored = [(a, v) for a, v, n in result.ranking if n >= enough]
            return imprecise_decision(ranking, explored, imprecision, rng, stats, start)
    stats["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return Decision(ranking[0][0], ranking, stats)


#: An imprecise level only picks actions the search visited at least this often, and at least
#: this share of the best action's visits (a rarely tried action's value is mostly noise).
MIN_VISITS = 5
EXPLORED_SHARE = 0.1


def imprecise_decision(
    ranking: list[tuple[int, float]],
    candidates: list[tuple[int, float]],
    imprecision: float,
    rng: random.Random,
    stats: dict[str, Any],
    start: float,
) -> Decision:
    """The decision of an imprecise level: a softmax choice among ``candidates`` (best first)."""
    best = candidates[0][1]
    weights = [math.exp((value - best) / imprecision) for _, value in candidates]
    pick = rng.random() * sum(weights)
    action = candidates[-1][0]
    for (candidate, _), weight in zip(candidates, weights, strict=True):
        pick -= weight
        if pick < 0:
            action = candidate
            break
    stats["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return Decision(action, ranking, stats)


def match_utility(seat: int, scores: list[int], target: int, carry: int) -> Utility:
    return Utility(seat, (target - scores[0], target - scores[1]), carry)
