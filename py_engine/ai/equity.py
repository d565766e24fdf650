"""What a deal's result is worth for the whole match: the chance to win the Bummerl.

A deal-only search counts game points (capped at what the winner still
needs). An expert counts the match: at 6:6 one game point wins the Bummerl
as surely as three, and behind 0:6 a risky close that may win three is worth
more than a safe single point, since one point leaves the match all but lost.
:class:`MatchEquity` gives the chance that a seat wins the match from any
score, pending carry-over and dealer, for two equal players whose deals end
as :data:`OUTCOMES` says (measured by ``python -m lab.outcomes``).
:func:`score_utility` turns it into the search's reward: each result of the
deal being played is valued by the chance to win the match after it, scaled
so that the best result (winning three) is +1 and the worst (losing three)
is -1, the range of the deal-only reward.

The session (best of three Bummerls, ``session_bummerls``) changes nothing:
each match starts afresh at 0:0 (no carry-over, the first dealer set by
turn), so the chance to win the session is an increasing linear function of
the chance to win the match being played, and maximising one maximises the
other. The match score and carry-over come with the decision's
:class:`~py_engine.ai.ismcts.Utility` (``needs``, ``carry``: what the
protocol's ``ai_move`` and ``hint`` already pass), the dealer and the rules
with the deal; nothing else of the match is read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.deal import Deal
from ..core.rules import Rules
from .ismcts import Utility


@dataclass(frozen=True, slots=True)
class Outcomes:
    """How a deal between two equal players ends: the chance that the forehand (the dealer's opponent, who
    leads first) wins 1, 2 or 3 game points, that the dealer does, and that nobody does (a tie)."""

    forehand: tuple[float, float, float]
    dealer: tuple[float, float, float]
    tie: float = 0.0


#: The outcomes of rule-of-thumb deals, by preset (``python -m lab.outcomes --deals 20000``:
#: the rule-of-thumb player against itself, 20,000 single deals a preset, seed 1). A model of two
#: equal players, not of level 5's own games. The dealer wins 50-52% of the deals; on most
#: presets a win of two game points is about as common as one of one.
OUTCOMES: dict[str, Outcomes] = {
    "HU24": Outcomes((0.0954, 0.2867, 0.0974), (0.0914, 0.3536, 0.0719), 0.0036),
    "PL24": Outcomes((0.2271, 0.2082, 0.0491), (0.2457, 0.2347, 0.0313), 0.004),
    "KLUB20": Outcomes((0.238, 0.1863, 0.0717), (0.2117, 0.2208, 0.0714), 0.0),
    "SZLI20": Outcomes((0.2221, 0.1729, 0.0878), (0.2061, 0.2378, 0.0702), 0.0032),
    "RO24": Outcomes((0.1814, 0.2606, 0.0502), (0.1796, 0.3038, 0.0244), 0.0),
    "RO20": Outcomes((0.1962, 0.2499, 0.0445), (0.1901, 0.2874, 0.0319), 0.0),
    "AT20": Outcomes((0.238, 0.1863, 0.0717), (0.2117, 0.2208, 0.0714), 0.0),
    "DE24": Outcomes((0.2467, 0.1815, 0.0585), (0.2545, 0.2145, 0.042), 0.0023),
}


def outcomes_for(rules: Rules) -> Outcomes:
    """The outcome model of ``rules``: its preset's, else (custom rules) the preset's of the same deck."""
    known = OUTCOMES.get(rules.id)
    if known is not None:
        return known
    return OUTCOMES["AT20" if rules.deck == 20 else "HU24"]


class MatchEquity:
    """The chance to win a match for one seat, from any state between two deals.

    A state is what the seat still needs (``mine``), what the opponent needs (``theirs``), the
    carried-over game points pending and whether the seat deals the next deal. The chances are
    exact for the model: a deal's outcome depends only on who deals (:class:`Outcomes`), the next
    dealer follows ``next_dealer`` (alternating after a deal without a winner), and a tie carries a
    point over when ``carry_over``.
    """

    def __init__(self, outcomes: Outcomes, next_dealer: str = "alternate", carry_over: bool = False):
        total = sum(outcomes.forehand) + sum(outcomes.dealer) + outcomes.tie  # 1 but for rounding
        self.outcomes = Outcomes(
            (outcomes.forehand[0] / total, outcomes.forehand[1] / total, outcomes.forehand[2] / total),
            (outcomes.dealer[0] / total, outcomes.dealer[1] / total, outcomes.dealer[2] / total),
            outcomes.tie / total,
        )
        self.next_dealer = next_dealer
        self.carry_over = carry_over
        self._memo: dict[tuple[int, int, int, bool], float] = {}

    def after_win(self, i_won: bool, i_dealt: bool) -> bool:
        """Whether the seat deals the deal after one that it won (``i_won``) or lost, having dealt it or not."""
        if self.next_dealer == "winner":
            return i_won
        if self.next_dealer == "loser":
            return not i_won
        return not i_dealt

    def chance(self, mine: int, theirs: int, carry: int, i_deal: bool) -> float:
        """The chance that the seat wins the match from this state (1 once it needs nothing, 0 once the
        opponent needs nothing)."""
        if mine <= 0:
            return 1.0
        if theirs <= 0:
            return 0.0
        carry = min(carry, max(mine, theirs))  # beyond this every win ends the match anyway
        key = (mine, theirs, carry, i_deal)
        known = self._memo.get(key)
        if known is not None:
            return known
        tie = self.outcomes.tie
        tied_carry = min(carry + 1, max(mine, theirs)) if self.carry_over else carry
        if tied_carry != carry or tie == 0.0:
            value = self._decided(mine, theirs, carry, i_deal)
            if tie:
                value += tie * self.chance(mine, theirs, tied_carry, not i_deal)
        else:
            # A tie leaves the state as it was, the deal passing: solve the two states together.
            here = self._decided(mine, theirs, carry, i_deal)
            there = self._decided(mine, theirs, carry, not i_deal)
            value = (here + tie * there) / (1.0 - tie * tie)
        self._memo[key] = value
        return value

    def _decided(self, mine: int, theirs: int, carry: int, i_deal: bool) -> float:
        """The part of a state's chance that comes from deals with a winner."""
        mine_odds = self.outcomes.dealer if i_deal else self.outcomes.forehand
        their_odds = self.outcomes.forehand if i_deal else self.outcomes.dealer
        after_mine = self.after_win(True, i_deal)
        after_theirs = self.after_win(False, i_deal)
        value = 0.0
        for points, (p_mine, p_theirs) in enumerate(zip(mine_odds, their_odds, strict=True), start=1):
            value += p_mine * self.chance(mine - points - carry, theirs, 0, after_mine)
            value += p_theirs * self.chance(mine, theirs - points - carry, 0, after_theirs)
        return value

    def results(self, mine: int, theirs: int, carry: int, i_deal: bool) -> tuple[list[float], list[float], float]:
        """The chance to win the match after each result of the deal being played, which the seat deals
        or not: (after winning 0-3 game points, after losing 0-3, after a tie). Index 0 stands for a
        win without game points, which no rule gives; it is valued as one point."""
        after_mine = self.after_win(True, i_deal)
        after_theirs = self.after_win(False, i_deal)
        won = [self.chance(mine - max(1, points) - carry, theirs, 0, after_mine) for points in range(4)]
        lost = [self.chance(mine, theirs - max(1, points) - carry, 0, after_theirs) for points in range(4)]
        tied_carry = carry + 1 if self.carry_over else carry
        return won, lost, self.chance(mine, theirs, tied_carry, not i_deal)


_EQUITIES: dict[tuple[Outcomes, str, bool], MatchEquity] = {}


def equity_for(rules: Rules) -> MatchEquity:
    """The (shared, memoised) match equity of ``rules``."""
    key = (outcomes_for(rules), rules.next_dealer, rules.no66_tie == "carry_over")
    equity = _EQUITIES.get(key)
    if equity is None:
        equity = _EQUITIES[key] = MatchEquity(*key)
    return equity


def score_values(rules: Rules, mine: int, theirs: int, carry: int, i_deal: bool) -> tuple[float, ...] | None:
    """The rewards of the deal's results for the seat (as ``Utility.values`` holds them), or None when the
    match is decided by every result alike (nothing to scale)."""
    won, lost, tied = equity_for(rules).results(mine, theirs, carry, i_deal)
    if won[3] - lost[3] < 1e-9:
        return None
    return scaled(won, lost, tied)


def scaled(won: list[float], lost: list[float], *others: float) -> tuple[float, ...]:
    """Rewards of winning 0-3 and losing 0-3 (and ``others``) scaled so that winning three is +1 and losing
    three -1, in that order."""
    best, worst = won[3], lost[3]
    scale = 2.0 / (best - worst)
    return tuple((value - worst) * scale - 1.0 for value in (*won, *lost, *others))


def score_utility(utility: Utility, deal: Deal) -> Utility:
    """``utility`` (the match score and carry-over of a decision) valued by the chance to win the match.

    Falls back to ``utility`` itself when there is no score to play (every result decides alike).
    """
    seat = utility.seat
    values = score_values(deal.rules, utility.needs[seat], utility.needs[1 - seat], utility.carry, deal.dealer == seat)
    return utility if values is None else replace(utility, values=values)
