"""Exact play once both hands are known: minimax over the rest of a deal.

After the talon is exhausted (or, inside one sampled world, closed) no card
is drawn any more and a world is a perfect-information game. Its value is
computed exactly here, with a transposition table that one search shares
across its iterations. Valid claims are made as soon as they are possible
(claiming at once is never worse: the award depends on the opponent's state,
which only improves for them as play goes on).

The search itself does not step a :class:`~py_engine.core.deal.Deal` (cloning and
applying cost more than the rest of the search together): it plays whole
tricks on a few integers, with the strict-phase rules of docs/rules.md §1.5-§1.13
that matter once nothing is drawn: the strict response rule, marriages
(their credit, claiming on them, ``marriage_auto``, a K-only lead), claim
windows, the last-trick bonus and every way a deal is scored.
``tests/test_ai.py`` checks it against plain minimax over ``Deal`` on every
preset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.actions import CLAIM, MARRY
from ..core.cards import HIGHER, KING, POINTS, SUIT_MASK
from ..core.deal import Deal
from ..core.scoring import DealResult, award_basis, schneider_points
from .heuristic import after_claims

Utility = Callable[[DealResult], float]
#: One search's transposition tables, keyed by the context of a world (who closed, exhausted, the snapshot).
Table = dict[Any, Any]

_ALL_KINGS = sum(1 << (s * 6 + KING) for s in range(4))
_GAME_POINTS = {"schwarz": 3, "schneider": 2, "simple": 1}
# _BEATS[trump][lead * 24 + resp]: does the response take the trick (docs/rules.md §1.4)?
_BEATS = tuple(
    tuple(
        (resp // 6 == lead // 6 and resp < lead) or (resp // 6 != lead // 6 and resp // 6 == trump)
        for lead in range(24)
        for resp in range(24)
    )
    for trump in range(4)
)
# Cards of a mask, most points first (ties: lower card number first), for move ordering.
_BY_POINTS = sorted(range(24), key=lambda c: (-POINTS[c], c))


_ORDERED: dict[int, list[int]] = {}


def _ordered(mask: int) -> list[int]:
    """The cards of ``mask``, most points first."""
    cards = _ORDERED.get(mask)
    if cards is None:
        if len(_ORDERED) > 200_000:
            _ORDERED.clear()
        cards = _ORDERED[mask] = [c for c in _BY_POINTS if mask >> c & 1]
    return cards


_Core = tuple[Callable[..., float], Callable[..., float]]
#: An end of the deal in the node functions: (seat, tricks, card points, totals) → value.
_End = Callable[[int, int, tuple[int, int], tuple[int, int]], float]


def _core(deal: Deal, seat: int, utility: Utility, table: Table, margin: float = 0.0) -> _Core:
    """The two node functions (lead, response) for worlds of this deal's context; cached in ``table``.

    With a ``margin``, every end of the deal is also worth ``margin`` per point by which the seat's
    Schneider points (``schneider_basis``) exceed the opponent's: a tie-break between lines of
    equal value when ``margin`` is small enough.
    """
    context = (deal.closed_by, deal.exhausted, deal.close_snapshot, deal.trump, margin)
    cached = table.get(context)
    if cached is not None:
        return cached[1]  # type: ignore[no-any-return]
    rules = deal.rules
    trump = deal.trump
    trump_mask = SUIT_MASK[trump]
    beats = _BEATS[trump]
    closer = deal.closed_by
    close_applies = closer >= 0 and rules.failed_close == "award"
    manual = rules.claim_mode == "manual"
    any_time = manual and rules.claim_window == "any_time"
    claim_on_marriage = manual and rules.claim_on_marriage
    schneider_cards = rules.schneider_basis == "cards"
    bonus_points = rules.last_trick_bonus if deal.exhausted else 0
    credit = rules.marriage_credit
    king_only = rules.marriage_lead_card == "king"
    marriage_auto = rules.marriage_auto
    marriage_phase = rules.marriage_after_close if closer >= 0 else rules.marriage_after_exhaustion
    marriage_later = marriage_phase
    marriage_first = marriage_phase and rules.marriage_first_lead
    snap_tricks, snap_points, snap_closer_tricks = deal.close_snapshot
    tt: dict[tuple[int, ...], tuple[float, float]] = {}

    def value_of(winner: int | None, game_points: int) -> float:
        return utility(DealResult(winner, game_points, "", "", None))

    win = [[value_of(w, gp) for gp in range(4)] for w in (0, 1)]
    tie = value_of(None, 0)
    marriage_value = [40 if s == trump else 20 for s in range(4)]

    def award(loser: int, tricks: int, points: int) -> int:
        return 3 if not tricks >> loser & 1 else 2 if points < 33 else 1

    def close_won(tricks: int, nc_points: int) -> float:
        if rules.close_basis == "at_close":
            return win[closer][_GAME_POINTS[award_basis(snap_tricks, snap_points)]]
        return win[closer][award(1 - closer, tricks, nc_points)]

    def close_lost(tricks: int) -> float:
        rule = rules.failed_close_3_if
        if rule == "noncloser_no_trick_at_close":
            three = snap_tricks == 0
        elif rule == "noncloser_no_trick_at_end":
            three = not tricks >> (1 - closer) & 1
        elif rule == "closer_no_trick_at_close":
            three = snap_closer_tricks == 0
        else:
            three = not tricks >> closer & 1
        return win[1 - closer][3 if three else 2]

    def claimed_plain(claimer: int, tricks: int, cards: tuple[int, int], totals: tuple[int, int]) -> float:
        """A valid claim (or an automatic 66) by ``claimer``."""
        other = 1 - claimer
        basis = cards if schneider_cards else totals
        if close_applies:
            if claimer == closer:
                return close_won(tricks, basis[other])
            return close_lost(tricks)
        return win[claimer][award(other, tricks, basis[other])]

    def cards_out_plain(last: int, tricks: int, cards: tuple[int, int], totals: tuple[int, int]) -> float:
        """All cards played, no claim (docs/rules.md §1.12)."""
        if close_applies:
            return close_lost(tricks)
        if rules.no66_winner == "last_trick":
            winner = last
        else:
            a, b = cards if rules.no66_basis == "cards" else totals
            if a != b:
                winner = 0 if a > b else 1
            elif rules.no66_tie == "last_trick":
                winner = last
            else:
                return tie
        if rules.no66_award == "1":
            return win[winner][1]
        basis = cards if schneider_cards else totals
        return win[winner][award(1 - winner, tricks, basis[1 - winner])]

    claimed: _End = claimed_plain
    cards_out: _End = cards_out_plain
    if margin:

        def claimed_margin(claimer: int, tricks: int, cards: tuple[int, int], totals: tuple[int, int]) -> float:
            basis = cards if schneider_cards else totals
            return claimed_plain(claimer, tricks, cards, totals) + margin * (basis[seat] - basis[1 - seat])

        def cards_out_margin(last: int, tricks: int, cards: tuple[int, int], totals: tuple[int, int]) -> float:
            basis = cards if schneider_cards else totals
            return cards_out_plain(last, tricks, cards, totals) + margin * (basis[seat] - basis[1 - seat])

        claimed = claimed_margin
        cards_out = cards_out_margin

    def last_trick(
        leader: int, lead: int, card: int, cp0: int, cp1: int, mp0: int, mp1: int, tricks: int, pending: int
    ) -> float:
        """The value once the last trick (``card`` answering ``lead``) is played."""
        winner = 1 - leader if beats[lead * 24 + card] else leader
        points = POINTS[lead] + POINTS[card] + bonus_points
        if winner:
            cp1 += points - bonus_points
            mp1 += bonus_points  # the bonus counts like marriage points: in the total, not in the card points
            for s in range(4):
                if pending >> (4 + s) & 1:
                    mp1 += marriage_value[s]
        else:
            cp0 += points - bonus_points
            mp0 += bonus_points
            for s in range(4):
                if pending >> s & 1:
                    mp0 += marriage_value[s]
        t = tricks | (1 << winner)
        totals = (cp0 + mp0, cp1 + mp1)
        if totals[winner] >= 66:
            return claimed(winner, t, (cp0, cp1), totals)
        if any_time and totals[1 - winner] >= 66:
            return claimed(1 - winner, t, (cp0, cp1), totals)
        return cards_out(winner, t, (cp0, cp1), totals)

    def respond(
        h0: int,
        h1: int,
        leader: int,
        lead: int,
        cp0: int,
        cp1: int,
        mp0: int,
        mp1: int,
        tricks: int,
        pending: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The responder answers ``lead`` (already out of the leader's hand) under the strict rule."""
        responder = 1 - leader
        hand = h1 if responder else h0
        suited = hand & SUIT_MASK[lead // 6]
        options = (suited & HIGHER[lead] or suited) if suited else (hand & trump_mask or hand)
        maximizing = responder == seat
        best = -9.0 if maximizing else 9.0
        lead_points = POINTS[lead]
        base = lead * 24
        for card in _ordered(options) if options & (options - 1) else (options.bit_length() - 1,):
            n0, n1 = (h0, h1 & ~(1 << card)) if responder else (h0 & ~(1 << card), h1)
            winner = responder if beats[base + card] else leader
            points = lead_points + POINTS[card]
            c0, c1, m0, m1, p = cp0, cp1, mp0, mp1, pending
            if winner:
                c1 += points
                if p & 0xF0:
                    for s in range(4):
                        if p >> (4 + s) & 1:
                            m1 += marriage_value[s]
                    p &= 0x0F
            else:
                c0 += points
                if p & 0x0F:
                    for s in range(4):
                        if p >> s & 1:
                            m0 += marriage_value[s]
                    p &= 0xF0
            t = tricks | (1 << winner)
            if n0 | n1:
                if (c1 + m1 if winner else c0 + m0) >= 66:
                    value = claimed(winner, t, (c0, c1), (c0 + m0, c1 + m1))
                elif any_time and (c0 + m0 if winner else c1 + m1) >= 66:
                    value = claimed(1 - winner, t, (c0, c1), (c0 + m0, c1 + m1))
                elif n0 & (n0 - 1):
                    value = lead_node(n0, n1, winner, c0, c1, m0, m1, t, p, False, alpha, beta)
                else:  # one card each: the last trick plays itself
                    last_lead = (n1 if winner else n0).bit_length() - 1
                    last_card = (n0 if winner else n1).bit_length() - 1
                    value = last_trick(winner, last_lead, last_card, c0, c1, m0, m1, t, p)
            else:
                value = last_trick(leader, lead, card, cp0, cp1, mp0, mp1, tricks, pending)
            if maximizing:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def marriage_leads(
        h0: int,
        h1: int,
        leader: int,
        cp0: int,
        cp1: int,
        mp0: int,
        mp1: int,
        tricks: int,
        pending: int,
        pairs: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The leader's options when it may declare: marriages (and claims on them) first, then plain leads."""
        hand = h1 if leader else h0
        maximizing = leader == seat
        best = -9.0 if maximizing else 9.0
        # (card led, marriage points, pending) or, for a claim on a marriage, its value.
        moves: list[tuple[int, int, int, int] | float] = []
        for king in _ordered(pairs):
            suit = king // 6
            value = marriage_value[suit]
            m0, m1, p = mp0, mp1, pending
            credited = credit == "immediate" or (credit == "after_any_trick" and tricks >> leader & 1 == 1)
            if credited:
                if leader:
                    m1 += value
                else:
                    m0 += value
            else:
                p |= 1 << (leader * 4 + suit)
            own = (cp1 + m1) if leader else (cp0 + m0)
            if claim_on_marriage:
                ends = own + (value if not credited and tricks >> leader & 1 else 0) >= 66
            else:
                ends = not manual and credited and tricks >> leader & 1 == 1 and own >= 66
            if ends:
                moves.append(claimed(leader, tricks, (cp0, cp1), (cp0 + m0, cp1 + m1)))
            else:
                moves.append((king, m0, m1, p))
                if not king_only:
                    moves.append((king + 1, m0, m1, p))
        playable = hand & ~(pairs | pairs << 1) if marriage_auto else hand
        for card in _ordered(playable):
            moves.append((card, mp0, mp1, pending))
        for move in moves:
            if isinstance(move, float):
                v = move
            else:
                card, m0, m1, p = move
                n0, n1 = (h0, h1 & ~(1 << card)) if leader else (h0 & ~(1 << card), h1)
                v = respond(n0, n1, leader, card, cp0, cp1, m0, m1, tricks, p, alpha, beta)
            if maximizing:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
            elif v < best:
                best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def lead_node(
        h0: int,
        h1: int,
        leader: int,
        cp0: int,
        cp1: int,
        mp0: int,
        mp1: int,
        tricks: int,
        pending: int,
        first: bool,
        alpha: float,
        beta: float,
    ) -> float:
        """The leader's turn, before any pre-lead action, with no valid claim open."""
        key = (h0, h1, leader, cp0, cp1, mp0, mp1, tricks, pending, first)
        bounds = tt.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        alpha0, beta0 = alpha, beta
        hand = h1 if leader else h0
        maximizing = leader == seat
        best = -9.0 if maximizing else 9.0
        pairs = hand & (hand >> 1) & _ALL_KINGS if (marriage_first if first else marriage_later) else 0
        if not pairs:
            for card in _ordered(hand):
                n0, n1 = (h0, h1 & ~(1 << card)) if leader else (h0 & ~(1 << card), h1)
                v = respond(n0, n1, leader, card, cp0, cp1, mp0, mp1, tricks, pending, alpha, beta)
                if maximizing:
                    if v > best:
                        best = v
                        if best > alpha:
                            alpha = best
                elif v < best:
                    best = v
                    if best < beta:
                        beta = best
                if alpha >= beta:
                    break
        else:
            best = marriage_leads(h0, h1, leader, cp0, cp1, mp0, mp1, tricks, pending, pairs, alpha, beta)
        if best <= alpha0:
            tt[key] = (-9.0, best)
        elif best >= beta0:
            tt[key] = (best, 9.0)
        else:
            tt[key] = (best, best)
        return best

    core: _Core = (lead_node, respond)
    table[context] = (tt, core)
    return core


def _state(deal: Deal) -> tuple[int, int, int, int, int, int]:
    """(cp0, cp1, mp0, mp1, tricks, pending) of a deal, as the node functions take them."""
    pending = 0
    for s, suit, _value in deal.pending:
        pending |= 1 << (s * 4 + suit)
    tricks = (1 if deal.tricks[0] else 0) | (2 if deal.tricks[1] else 0)
    return (
        deal.card_points[0],
        deal.card_points[1],
        deal.marriage_points[0],
        deal.marriage_points[1],
        tricks,
        pending,
    )


def solve(
    deal: Deal,
    seat: int,
    utility: Utility,
    table: Table,
    alpha: float = -9.0,
    beta: float = 9.0,
    margin: float = 0.0,
) -> float:
    """The exact value for ``seat`` of a deal in which both hands are known and nothing is drawn.

    Alpha-beta with transposition tables that ``table`` keeps, so that every
    call of one search (same ``seat`` and ``utility``) may share it. Raises
    ``ValueError`` if cards may still be drawn. ``margin``: see :func:`_core`.
    """
    deal = after_claims(deal)
    if deal.result is not None:
        value = utility(deal.result)
        if margin:
            value += margin * (schneider_points(deal, seat) - schneider_points(deal, 1 - seat))
        return value
    if not deal.strict:
        raise ValueError("the solver needs a deal in which no card is drawn any more")
    lead_node, respond = _core(deal, seat, utility, table, margin)
    h0, h1 = deal.hands
    cp0, cp1, mp0, mp1, tricks, pending = _state(deal)
    leader = deal.leader
    if deal.lead >= 0:
        return respond(h0, h1, leader, deal.lead, cp0, cp1, mp0, mp1, tricks, pending, alpha, beta)
    if deal.declared < 0:
        return lead_node(h0, h1, leader, cp0, cp1, mp0, mp1, tricks, pending, deal.tricks_done == 0, alpha, beta)
    # A marriage was just declared (and no claim is valid): the K or Q of it must be led.
    maximizing = leader == seat
    best = -9.0 if maximizing else 9.0
    for card in [a for a in deal.legal_actions() if a < MARRY]:
        n0, n1 = (h0, h1 & ~(1 << card)) if leader else (h0 & ~(1 << card), h1)
        value = respond(n0, n1, leader, card, cp0, cp1, mp0, mp1, tricks, pending, alpha, beta)
        best = max(best, value) if maximizing else min(best, value)
    return best


def best_actions(deal: Deal, seat: int, utility: Utility, table: Table) -> list[tuple[int, float]]:
    """Every searched action of ``seat`` (on turn) with its exact value, best first."""
    ranking = []
    for action in deal.legal_actions(seat):
        if action >= CLAIM:
            continue
        child = deal.clone()
        child.apply(action)
        ranking.append((action, solve(child, seat, utility, table)))
    ranking.sort(key=lambda av: -av[1])
    return ranking
