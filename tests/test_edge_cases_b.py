"""docs/rules.md §4, edge cases 23–45: exact scenarios, one test (or parametrized test) per case.

Every scenario fixes both hands, the trump card and the whole talon order, and plays
explicit moves. ``run`` takes the moves as text: a card such as ``QH`` is ``play:QH``,
any other word is the action itself (``close``, ``marry:H``, ``claim``, ...), ``|``
only separates tricks for the reader, and each move is made by the seat on turn.

Seats: the dealer is seat 0 unless a test says otherwise, so the non-dealer (seat 1)
leads first. Card points: A 11, T 10, K 4, Q 3, J 2, 9 0. The scenarios were chosen so
that the totals named by the case come out exactly (65:65, 60:60, 64, 33, ...); each test
asserts those totals before it asserts the result, and the expected results are taken
from docs/rules.md §1 and the preset table of §3.2, one value per preset.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from py_engine.core.actions import CLAIM, CLOSE, NEXT, PASS, RESIGN, parse_action
from py_engine.core.cards import POINTS, names, parse_card
from py_engine.core.errors import GameOverError, IllegalActionError
from py_engine.core.events import describe_result
from py_engine.core.rules import PRESETS
from py_engine.service.match import Match

from .scenario import legal, make_deck, start

ALL = ("HU24", "PL24", "KLUB20", "SZLI20", "RO24", "RO20", "AT20", "DE24")
MANUAL = tuple(p for p in ALL if p != "KLUB20")
DECK = {"HU24": 24, "PL24": 24, "KLUB20": 20, "SZLI20": 20, "RO24": 24, "RO20": 20, "AT20": 20, "DE24": 24}


class Layout(NamedTuple):
    """A deal: non-dealer's hand, dealer's hand, face-up trump card, face-down talon in draw order."""

    non_dealer: str
    dealer: str
    trump: str
    talon: str


def new(
    preset: str, layout: Layout, *, dealer: int = 0, single_deal: bool = True, rules: dict[str, object] | None = None
) -> Match:
    """A match whose first deal is ``layout``, with optional rules overrides."""
    return start(
        preset,
        layout.non_dealer.split(),
        layout.dealer.split(),
        layout.trump,
        layout.talon.split(),
        dealer_seat=dealer,
        single_deal=single_deal,
        **(rules or {}),
    )


def deck_of(match: Match, layout: Layout) -> list[int]:
    """The pack for a later deal of ``match`` dealt exactly as ``layout``."""
    cards = make_deck(match.rules, layout.non_dealer.split(), layout.dealer.split(), layout.trump, layout.talon.split())
    return [parse_card(c) for c in cards]


def run(match: Match, moves: str) -> None:
    """Play the moves, each by the seat on turn (a ``0:``/``1:`` prefix names another seat)."""
    for token in moves.split():
        if token == "|":
            continue
        seat = match.deal.to_act
        if token[:2] in ("0:", "1:"):
            seat, token = int(token[0]), token[2:]
        text = f"play:{token}" if len(token) == 2 else token
        match.act(seat, parse_action(text))


def plays(cards: str, *extra: str) -> list[str]:
    """The sorted legal-action list made of these cards (``play:``) and extra action words."""
    return sorted([f"play:{c}" for c in cards.split()] + list(extra))


def klub(preset: str, *extra: str) -> tuple[str, ...]:
    """KLUB20 offers ``resign`` at every decision point (docs/rules.md §1.14, S2 only)."""
    return (*extra, "resign") if preset == "KLUB20" else extra


def pass_out(match: Match, last_winner: int) -> None:
    """No claim after the final trick (§1.11): the trick winner passes, then (any_time) the loser.

    KLUB20 (automatic) has no claim windows: the deal has already ended.
    """
    rules = match.rules
    if rules.claim_mode == "auto":
        assert match.deal.over
        return
    order = [last_winner, 1 - last_winner] if rules.claim_window == "any_time" else [last_winner]
    for seat in order:
        assert not match.deal.over
        assert match.deal.to_act == seat
        assert legal(match, seat) == ["claim", "pass"]
        match.act(seat, PASS)
    assert match.deal.over


def claim_66(match: Match, seat: int) -> None:
    """``seat`` claims; under KLUB20 (claim_mode auto) the deal must already have ended by itself."""
    if match.rules.claim_mode == "auto":
        assert match.deal.over
        assert match.deal.result is not None and match.deal.result.by is None
        return
    assert not match.deal.over
    assert "claim" in legal(match, seat)
    match.act(seat, CLAIM)
    assert match.deal.over


def check_result(match: Match, winner: int | None, game_points: int, code: str, basis: str) -> None:
    """The deal result, and the match score of a fresh single-deal match."""
    result = match.deal.result
    assert result is not None
    assert (result.winner, result.game_points, result.code, result.basis) == (winner, game_points, code, basis)
    expected = [0, 0]
    if winner is not None:
        expected[winner] = game_points
    assert match.scores == expected


def points(match: Match) -> list[int]:
    return list(match.deal.card_points)


def totals(match: Match) -> list[int]:
    return [match.deal.total(0), match.deal.total(1)]


def tricks(match: Match) -> list[int]:
    return list(match.deal.tricks)


# A quick deal for later deals of a match: the non-dealer leads four aces and reaches
# 21 + 15 + 21 + 15 = 72 card points while the dealer takes no trick (Schwarz: 3).
QUICK = {
    20: Layout("AH AD AC AS JH", "TH KD KC TC QD", "QS", "KH QH TD JD QC JC TS KS JS"),
    24: Layout("AH AD AC AS JH 9H", "TH KD KC TC QD 9D", "QS", "KH QH TD JD QC JC 9C TS KS JS 9S"),
}
QUICK_MOVES = "AH TH | AD KD | AC TC | AS KC"


def play_quick(match: Match) -> int:
    """Play QUICK_MOVES; the non-dealer wins 3 game points. Returns the winner's seat."""
    winner = 1 - match.deal.dealer
    run(match, QUICK_MOVES)
    assert match.deal.card_points[winner] == 72 and match.deal.tricks[1 - winner] == 0
    claim_66(match, winner)
    result = match.deal.result
    assert result is not None and (result.winner, result.game_points, result.basis) == (winner, 3, "schwarz")
    return winner


# ---------------------------------------------------------------------------------------------
# 23. The trick that exhausts the talon is still open.

CASE23 = {
    24: (
        Layout("TC TS KS AH 9D JH", "QH JS KD TD TH KH", "AC", "QD JD QC 9H AD AS JC QS 9S 9C KC"),
        "KS TD | 9D JD | TH QD | AD AH | KD JH",
        # trick 6 (the last open one): seat 0 leads JS; seat 1 holds higher spades and trumps (clubs)
        (0, "JS", 1, "9C 9H AS QS TC TS", "TC"),
        # trick 7 (strict): seat 1 leads QS; seat 0's only spade is 9S, it may not trump
        (1, "QS", 0, "9S"),
    ),
    20: (
        Layout("KH JD JC QC QH", "QS TH AC KS JS", "KC", "KD AD AH TD JH TC TS QD AS"),
        "QC TH | JC AD | AH QS | JH KS",
        # trick 5 (the last open one): seat 1 leads KD; seat 0 holds TD (higher) and trumps (clubs)
        (1, "KD", 0, "AC JS QD TC TD", "JS"),
        # trick 6 (strict): seat 1 leads JD; seat 0 must head it with QD or TD
        (1, "JD", 0, "QD TD"),
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_23_exhausting_trick_is_still_open(preset: str) -> None:
    # "The last two cards are drawn only after that trick, so its response is free.
    #  Strict rules begin with the next trick."
    layout, before, (lead_seat, lead, resp_seat, free_hand, answer), (lead2_seat, lead2, resp2_seat, strict) = CASE23[
        DECK[preset]
    ]
    m = new(preset, layout)
    run(m, before)
    assert m.deal.face_down_left == 1 and not m.deal.exhausted
    assert m.deal.to_act == lead_seat
    run(m, lead)
    # free: every card in hand, including a trump while holding the led suit and a higher card of it
    assert legal(m, resp_seat) == plays(free_hand, *klub(preset))
    run(m, answer)
    assert m.deal.exhausted and m.deal.face_down_left == 0
    assert m.deal.to_act == lead2_seat
    run(m, lead2)
    assert legal(m, resp2_seat) == plays(strict, *klub(preset))


# ---------------------------------------------------------------------------------------------
# 24. Closing at the first lead.

CASE24_WIN = {
    # The non-dealer closes at trick 1 and reaches 66; the dealer wins one trick (9C JC, 2 points).
    24: (
        Layout("KD AD QC JH 9C TH", "JC KS TC TD TS JS", "JD", "QD QH AC AH AS 9H QS 9S KH KC 9D"),
        "close AD TD | JH TS | TH TC | 9C JC | KS KD | QC JS",  # seat 1: 21, 33, 53, –, 61, 66
        [2, 66],
    ),
    20: (
        Layout("JS AC TC JC AD", "KC AS TD TH AH", "KS", "KH JD QS TS KD QH QC QD JH"),
        "close TC KC | JC AS | AH JS | AC TD | AD TH",  # seat 1: 14, –, 27, 48, 69
        [13, 69],
    ),
}
# close_basis at_close → the snapshot (no trick) gives 3; at_end → the dealer's final state (1 trick, < 33) gives 2.
CASE24_WIN_POINTS = {"HU24": 3, "KLUB20": 3, "SZLI20": 3, "AT20": 3, "PL24": 2, "RO24": 2, "RO20": 2, "DE24": 2}


@pytest.mark.parametrize("preset", ALL)
def test_case_24_close_at_first_lead_success(preset: str) -> None:
    # "On success: 3 game points wherever close_basis = at_close (HU24, KLUB20, SZLI20, AT20)."
    layout, moves, final_points = CASE24_WIN[DECK[preset]]
    m = new(preset, layout)
    assert "close" in legal(m, 1)
    run(m, "close")
    assert m.deal.closed_by == 1 and tricks(m) == [0, 0]
    run(m, moves.removeprefix("close "))
    assert points(m) == final_points and tricks(m)[0] == 1
    claim_66(m, 1)
    gp = CASE24_WIN_POINTS[preset]
    check_result(m, 1, gp, "close_success", "schwarz" if gp == 3 else "schneider")


CASE24_FAIL = {
    # The non-dealer closes at trick 1, both win tricks, nobody reaches 66: a failed close.
    24: (
        Layout("KS 9D 9S 9H JD QD", "9C QS TC AD AH TD", "TH", "TS JC AC JS KC QC QH KD KH AS JH"),
        "close JD AD | AH 9H | TD 9D | QS KS | 9S TC | QD 9C",
        [34, 20],
        1,
    ),
    20: (
        Layout("KD TD KS AH QH", "QD JS AS JD JC", "QC", "JH AC KC TS AD TC QS KH TH"),
        "close KS AS | JS TD | QD KD | QH JC | JD AH",
        [45, 7],
        0,
    ),
}
# 3 under noncloser_no_trick_at_close (KLUB20, AT20, DE24) and closer_no_trick_at_close (HU24);
# the *_at_end rules look at the final tricks: the closer (PL24, SZLI20) and the non-closer (RO24, RO20)
# have tricks → 2.
CASE24_FAIL_POINTS = {"HU24": 3, "KLUB20": 3, "AT20": 3, "DE24": 3, "PL24": 2, "SZLI20": 2, "RO24": 2, "RO20": 2}


@pytest.mark.parametrize("preset", ALL)
def test_case_24_close_at_first_lead_failure(preset: str) -> None:
    # "On failure: 3 to the opponent under noncloser_no_trick_at_close (KLUB20, AT20, DE24) and
    #  closer_no_trick_at_close (HU24). Under the *_at_end rules it depends on the final tricks."
    layout, moves, final_points, last = CASE24_FAIL[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert points(m) == final_points
    assert tricks(m)[0] > 0 and tricks(m)[1] > 0
    assert m.deal.bonus == [0, 0]
    pass_out(m, last)
    gp = CASE24_FAIL_POINTS[preset]
    check_result(m, 0, gp, "close_failed", f"failed_close_{gp}")


# ---------------------------------------------------------------------------------------------
# 25. Closing while the opponent has no tricks; the opponent wins tricks afterwards.

CASE25 = {
    24: (
        Layout("AH TD JH QS TS TC", "KS TH AD AC QH KD", "AS", "JC KC 9H JD JS QC 9C KH 9S 9D QD"),
        "QS AD",  # 1: 0:14
        "close JC AC | KC TC | JH TH | QH AH | TD KD | TS KS",  # dealer wins JC AC (13) and JH TH (12)
        [25, 70],
    ),
    20: (
        Layout("TS AC QD AH AD", "JS QH TC JD TH", "KD", "AS TD JH KC QS KH JC QC KS"),
        "AD QH",  # 1: 0:14
        "close AH TH | QD TD | JS AS | TS JD | TC AC",  # dealer wins QD TD (13) and TS JD (12)
        [25, 69],
    ),
}
CASE25_POINTS = {"HU24": 3, "KLUB20": 3, "SZLI20": 3, "AT20": 3, "PL24": 2, "RO24": 2, "RO20": 2, "DE24": 2}


@pytest.mark.parametrize("preset", ALL)
def test_case_25_close_then_opponent_wins_tricks(preset: str) -> None:
    # "The closer reaches 66 after the non-closer took 2 tricks worth 25.
    #  at_close presets: 3 game points. at_end presets (PL24, RO24, RO20, DE24): 2."
    layout, first, rest, final_points = CASE25[DECK[preset]]
    m = new(preset, layout)
    run(m, first)
    assert tricks(m) == [0, 1]
    run(m, rest)
    assert tricks(m)[0] == 2 and points(m) == final_points
    claim_66(m, 1)
    gp = CASE25_POINTS[preset]
    check_result(m, 1, gp, "close_success", "schwarz" if gp == 3 else "schneider")


# ---------------------------------------------------------------------------------------------
# 26. What "points at closing time" means (HU24, KLUB20, SZLI20, AT20).

CASE26_A = {
    # The dealer wins trick 1, declares 20 (credited) and loses that trick; the non-dealer closes.
    24: (
        Layout("AD TH QS TC AS KS", "KH AH KC QD AC TS", "9S", "QH JC KD JH TD 9H 9D JD QC JS 9C"),
        "TC TS | marry:H KH TH",  # 0 wins 20 card points, then 1 wins 14
        (1, 20, 20),  # the dealer at closing: 1 trick, 20 card points, 20 marriage points
        "KD QD | AS QH | JC AC | KC KS | AD JH | QS AH",
        (33, 70),
    ),
    20: (
        Layout("QS TC AS AH KD", "KH QH TH AD AC", "JC", "KS TD KC TS JH JD QC JS QD"),
        "QS AC | marry:H QH TC",  # 0 wins 14 card points, then 1 wins 13
        (1, 14, 20),
        "KC KH | TD AD | TH AH | KD KS | AS TS",
        (35, 71),
    ),
}


@pytest.mark.parametrize("preset", ["HU24", "KLUB20", "SZLI20", "AT20"])
def test_case_26_marriage_credited_before_close_counts(preset: str) -> None:
    # "The non-closer's state at the moment the talon is turned down: tricks already taken; card points
    #  captured, plus marriages credited at that instant (with schneider_basis = cards, card points only)."
    layout, before, (tr, cards, marriage), after, (nc_final, closer_final) = CASE26_A[DECK[preset]]
    m = new(preset, layout)
    run(m, before)
    assert (m.deal.tricks[0], m.deal.card_points[0], m.deal.marriage_points[0]) == (tr, cards, marriage)
    run(m, "close")
    run(m, after)
    assert points(m) == [nc_final, closer_final]
    claim_66(m, 1)
    if preset == "HU24":
        # cards only: 20 < 33 → 2, although the dealer has 33 card points by the end
        check_result(m, 1, 2, "close_success", "schneider")
    else:
        # total: 14 + 20 = 34 → 1
        check_result(m, 1, 1, "close_success", "simple")


CASE26_B = {
    # At closing the dealer has 1 trick worth 13; afterwards it wins more and declares 20 (after the close).
    24: (
        Layout("JC QC 9C TH JS 9D", "KH QH AC KS AS 9S", "KD", "AD TC TS AH JD TD JH QD 9H KC QS"),
        "QC 9S | JS AS | AC AD",
        "close 9C TC | marry:H KH TH | AH QH | 9D TD | TS JD | JC KS",
        [33, 71],
    ),
    20: (
        Layout("JH TC JS KD QS", "KH QH JC KC AS", "QD", "TD JD QC AH KS AC TS TH AD"),
        "QS KH | JS AS | QH TD",
        "close JH JD | marry:C KC TC | KD QC | KS AC | AH JC",
        [17, 69],
    ),
}


@pytest.mark.parametrize("preset", ["HU24", "KLUB20", "SZLI20", "AT20"])
def test_case_26_later_tricks_and_marriages_ignored(preset: str) -> None:
    # "Marriages the non-closer declares later, and tricks taken later, are ignored for the closer's award."
    layout, before, after, final_points = CASE26_B[DECK[preset]]
    m = new(preset, layout)
    run(m, before)
    assert m.deal.to_act == 1
    assert tricks(m)[0] == 1 and points(m)[0] == 13 and totals(m)[0] == 13
    run(m, after)
    assert points(m) == final_points
    assert m.deal.marriage_points[0] == 20  # declared after the close, and credited
    assert totals(m)[0] >= 33 and (preset != "HU24" or points(m)[0] >= 33)  # at the end it would be 1
    claim_66(m, 1)
    check_result(m, 1, 2, "close_success", "schneider")  # the snapshot: 1 trick, 13 points


@pytest.mark.parametrize("preset", ["HU24", "KLUB20", "SZLI20", "AT20", "DE24"])  # marriages after closing
def test_case_26_the_result_tells_the_state_at_closing(preset: str) -> None:
    # The page says that the Schneider line counted the points at the moment of closing: the result
    # carries the non-closer's tricks and points then, under at_close only (none under at_end: DE24).
    layout, before, after, _ = CASE26_B[DECK[preset]]
    m = new(preset, layout)
    run(m, before + " " + after)
    claim_66(m, 1)
    result = m.deal.result
    assert result is not None and result.code == "close_success"
    at_close = (1, 13) if PRESETS[preset].close_basis == "at_close" else None
    assert result.at_close == at_close
    told = result.to_dict()["at_close"]
    assert told == (None if at_close is None else {"tricks": 1, "points": 13})
    said = describe_result(result, 1)
    assert ("when the talon was closed, with 13 points and 1 trick" in said) == (at_close is not None), said


# ---------------------------------------------------------------------------------------------
# 27. The non-closer reaches 66 first.

CASE27 = {
    # Both players have tricks when the dealer closes (trick 5); the non-dealer reaches 70 first.
    24: (
        Layout("QC KD JD JH QH QD", "AH KH AD TH KC 9H", "9D", "AS JC JS TD TC 9S TS KS AC QS 9C"),
        "JD AH | QC KH | QH TD | TC JH | close TS AS | 9S AD | JC KD | JS TH | KS 9H | QD KC",
        0,
        [36, 70],
    ),
    # Both have tricks when the non-dealer closes (trick 4); the dealer reaches 67 first.
    20: (
        Layout("KD TD KS AH QH", "QD JS AS JD JC", "QC", "JH AC KC TS AD TC QS KH TH"),
        "AH JS | TD JC | JD KD | close QH TC | QD AD | JH KC | AS TS | AC KS",
        1,
        [67, 33],
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_27_non_closer_reaches_66_first(preset: str) -> None:
    # "KLUB20: the deal ends automatically. Manual presets: the non-closer claims.
    #  The non-closer wins with the failed-close award (2 or 3), not the normal 1/2/3 table."
    layout, moves, closer, final_points = CASE27[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == closer
    assert points(m) == final_points
    assert points(m)[closer] >= 33  # the normal table would give the winner only 1
    claim_66(m, 1 - closer)
    check_result(m, 1 - closer, 2, "close_failed", "failed_close_2")


CASE27_FIRST_LEAD = {
    # The non-dealer closes at trick 1 (nobody has a trick), wins one trick later; the dealer reaches 71 / 77.
    24: (
        Layout("QH QD KS TH AH TD", "9C QS JC AC AD TS", "TC", "KC QC 9S JD 9D KH 9H JS AS KD JH"),
        "close QD AD | QS KS | TH 9C | AC TD | TS QH | JC AH",
        [71, 7],
    ),
    20: (
        Layout("TC AD TH TD TS", "AH AC AS KD QC", "KC", "QD QH QS JS JH JD KH KS JC"),
        "close TS AS | AH TH | AC TC | KD TD | AD QC",
        [77, 14],
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_27_non_closer_reaches_66_after_close_at_first_lead(preset: str) -> None:
    # "The non-closer wins with the failed-close award (2 or 3)": 3 where the condition of failed_close_3_if
    # holds — no trick for the non-closer at closing (KLUB20, AT20, DE24) or for the closer at closing (HU24) —,
    # 2 where the *_at_end condition fails (the closer, PL24 and SZLI20, and the non-closer, RO24 and RO20,
    # have a trick at the end).
    layout, moves, final_points = CASE27_FIRST_LEAD[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == 1 and points(m) == final_points and tricks(m)[1] == 1
    claim_66(m, 0)
    gp = CASE24_FAIL_POINTS[preset]
    check_result(m, 0, gp, "close_failed", f"failed_close_{gp}")


# ---------------------------------------------------------------------------------------------
# 28. The closer runs out of cards short of 66.

CASE28 = {
    # The dealer closes at trick 4 (both have tricks) and wins the last trick with 64.
    24: (
        Layout("QC KD JD JH QH QD", "AH KH AD TH KC 9H", "9D", "AS JC JS TD TC 9S TS KS AC QS 9C"),
        "QC KC | AS QD | JC AD | close TC KD | JD TD | AH QH | KH JH | 9H 9S | TH JS",
        [64, 28],
    ),
    # The dealer closes at trick 3 (both have tricks) and wins the last trick with 64.
    20: (
        Layout("QD QH KS TC JD", "TS JC TD AC QS", "KC", "JS AS QC TH KD AD KH JH AH"),
        "TC TD | KS AC | close JC QD | QC JS | AS TH | QS QH | TS JD",
        [64, 20],
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_28_closer_runs_out_short_of_66(preset: str) -> None:
    # "The closer has 64 and won the last trick. The closer loses: failed-close award to the opponent.
    #  There is no last-trick bonus after closing, and the last trick does not decide the deal."
    layout, moves, final_points = CASE28[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == 0
    assert m.deal.hands == [0, 0] and m.deal.last_winner == 0
    assert points(m) == final_points
    assert m.deal.bonus == [0, 0] and totals(m) == final_points  # no +10 after a close
    if m.rules.claim_mode == "manual":
        assert legal(m, 0) == ["claim", "pass"]  # a claim would be wrong (64)
    pass_out(m, 0)
    check_result(m, 1, 2, "close_failed", "failed_close_2")


CASE28_66 = {
    24: (
        Layout("KS 9D 9S 9H JD QD", "9C QS TC AD AH TD", "TH", "TS JC AC JS KC QC QH KD KH AS JH"),
        "QD 9C | KS AH | close TC 9H | JS QS | TD 9D | AD JD | AC TS",
        64,
        "JC 9S",  # + 2
    ),
    20: (
        Layout("QD QH KS TC JD", "TS JC TD AC QS", "KC", "JS AS QC TH KD AD KH JH AH"),
        "QH QS | QD AC | close JC TC | TH QC | TD JD | AS JS",
        52,
        "TS KS",  # + 14
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_28_closer_reaches_66_with_last_trick(preset: str) -> None:
    # "Had that trick brought the closer to 66, they would claim in the final trick's window (1.11) and win."
    layout, moves, before, last_trick = CASE28_66[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == 0 and points(m)[0] == before and not m.deal.over
    run(m, last_trick)
    assert points(m)[0] == 66 and m.deal.hands == [0, 0]
    claim_66(m, 0)
    # at_close: the non-closer had 1 trick and < 33 at closing; at_end: 2 tricks and < 33 → 2 either way
    check_result(m, 0, 2, "close_success", "schneider")


# ---------------------------------------------------------------------------------------------
# 29. Closing with 1 face-down card + trump left.

CASE29 = {
    24: (
        Layout("9S TS 9H JH QC TD", "JC KD KC JD QH TC", "QD", "KS TH QS 9C 9D AS AH KH AC JS AD"),
        "TS KC | TD TC | 9H QH | 9C KS | TH 9S",
        "AH KD JD 9D AC JC",  # the leader (seat 0) at the last open trick; 9D is the lowest trump
        "close JC QC | AS 9D | AC QS | AH JH | JD KH | KD JS",
        ("AD", "QD"),  # dead: the last face-down card and the trump card
        [67, 39],
    ),
    20: (
        Layout("AH KC JC QD JH", "TC JD KH TH QS", "TD", "JS QH AC AD AS KS KD TS QC"),
        "JH QS | AH TC | AC QH | JS KS",
        "TH KH AD KD JD",  # JD is the lowest trump
        "close AD QD | KD KC | JD JC | KH TS | TH AS",
        ("QC", "TD"),
        [67, 40],
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_29_close_with_one_face_down_card(preset: str) -> None:
    # "Illegal in RO24 and RO20; legal elsewhere. If legal, the two remaining talon cards are dead
    #  and the closing rules apply."
    layout, before, hand, after, dead, final_points = CASE29[DECK[preset]]
    m = new(preset, layout)
    run(m, before)
    assert m.deal.face_down_left == 1 and m.deal.to_act == 0
    assert names(m.deal.hands[0]) == names(sum(1 << parse_card(c) for c in hand.split()))
    extra = ["exchange"]
    if preset not in ("RO24", "RO20"):
        extra.append("close")
    if preset != "KLUB20":
        extra.append("claim")
    assert legal(m, 0) == plays(hand, *extra, *klub(preset))
    if preset in ("RO24", "RO20"):
        with pytest.raises(IllegalActionError):
            m.act(0, CLOSE)
        assert m.deal.closed_by == -1
        return
    run(m, after)
    dead_cards = [parse_card(c) for c in dead]
    assert all(not (h >> c & 1) for h in m.deal.hands for c in dead_cards)
    assert points(m) == final_points
    assert sum(points(m)) == 120 - sum(POINTS[c] for c in dead_cards)
    claim_66(m, 0)
    # the non-closer had tricks and ≥ 33 at closing (and at the end) → 1
    check_result(m, 0, 1, "close_success", "simple")


# ---------------------------------------------------------------------------------------------
# 30. The closer claims wrongly.

CASE30 = {
    # The non-dealer wins trick 1, closes, wins trick 2 and claims with 43 (seat 0 has no trick).
    24: (
        Layout("AH AS AC 9S QH 9H", "QC AD QD TC QS 9C", "JS", "JH TS TH KC 9D JC KS KH KD JD TD"),
        "AH AD | close AC TC",
        43,
    ),
    20: (Layout("QH TS KS TC TD", "AC TH AH JH AD", "AS", "JS QC KC JD KD QS QD KH JC"), "TC AD | close TS AC", 42),
}
# Failed-close award, not wrong_claim. The closer had a trick at closing; the non-closer has none.
CASE30_POINTS = {"HU24": 2, "PL24": 2, "SZLI20": 2, "RO24": 3, "RO20": 3, "AT20": 3, "DE24": 3}


@pytest.mark.parametrize("preset", MANUAL)
def test_case_30_closer_claims_wrongly(preset: str) -> None:
    # "The failed-close award goes to the opponent (not the wrong_claim rule)."
    layout, moves, claimer_points = CASE30[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == 1 and tricks(m) == [0, 2] and totals(m) == [0, claimer_points]
    run(m, "claim")
    gp = CASE30_POINTS[preset]
    check_result(m, 0, gp, "close_failed", f"failed_close_{gp}")


# ---------------------------------------------------------------------------------------------
# 31. Both totals at 65 with the last-trick bonus.

CASE31 = {
    24: (
        Layout("AD JC QS TS JD QD", "KC TH 9H TC 9S AC", "QH", "KD KS JS AH KH QC 9D JH 9C AS TD"),
        "AD KC | TS 9S | QS AC | JC KS | 9D AH | 9H JS | QC KH | AS JH | TC QH | JD TD | TH KD | 9C QD",
    ),
    20: (
        Layout("QD QH TD KC AH", "AD AS TS TH QC", "KH", "AC JS JD JC TC JH KS QS KD"),
        "KC AS | QH QC | AH TH | QD TS | JD JC | TC JH | JS KS | AC KH | QS TD | AD KD",
    ),
}
# After the last trick seat 0 has 55 card points (+10 where there is a bonus) and seat 1 has 65.
CASE31_RESULT = {
    "DE24": (None, 0, "tie_carry_over", "none"),
    "PL24": (None, 0, "tie_void", "none"),
    "SZLI20": (None, 0, "tie_carry_over", "none"),
    "AT20": (0, 1, "last_trick", "simple"),  # no bonus: 55 against 65, the last trick wins
    "KLUB20": (0, 1, "last_trick", "fixed_1"),
}


@pytest.mark.parametrize("preset", ["DE24", "PL24", "SZLI20", "AT20", "KLUB20"])
def test_case_31_both_at_65_with_bonus(preset: str) -> None:
    # "DE24: tie → carry-over; the next deal's winner gets +1. The deal has no winner, so the next dealer
    #  alternates (1.2). PL24: void. SZLI20 (20 cards + 10): carry-over. AT20 and KLUB20 have no bonus:
    #  the last-trick winner wins."
    layout, moves = CASE31[DECK[preset]]
    m = new(preset, layout, single_deal=False)
    run(m, moves)
    assert points(m) == [55, 65] and m.deal.last_winner == 0
    bonus = 10 if preset in ("DE24", "PL24", "SZLI20") else 0
    assert totals(m) == [55 + bonus, 65]
    pass_out(m, 0)
    winner, gp, code, basis = CASE31_RESULT[preset]
    check_result(m, winner, gp, code, basis)
    assert m.carry == (1 if code == "tie_carry_over" else 0)
    if code != "tie_carry_over":
        return
    # The next deal: no winner, so the deal alternates (DE24 otherwise lets the winner deal).
    assert legal(m, 0) == ["next"] and legal(m, 1) == ["next"]
    m.next_deal(deck_of(m, QUICK[DECK[preset]]))
    assert m.dealer == 1
    winner = play_quick(m)
    assert winner == 0
    assert m.scores == [3 + 1, 0] and m.carry == 0


# ---------------------------------------------------------------------------------------------
# 32. 60:60 without a bonus.

CASE32 = {
    24: (
        Layout("JS QC 9D JC TD AH", "KH KD 9S AC KC JD", "TH", "QS TS AD TC 9H KS 9C AS QD QH JH"),
        "QC KH | JD 9D | AD JS | KC JC | QS TS | KS AC | JH TH | 9H AH | QD KD | 9S AS | TD QH | 9C TC",
        1,
    ),
    20: (
        Layout("JH JD TD TH KH", "AD JC KS AS AC", "QS", "QH KC KD QC AH TS TC QD JS"),
        "KH AC | JD AS | KC QH | KD TD | TS QD | QC JC | JH AH | AD JS | TC KS | QS TH",
        0,
    ),
}
CASE32_RESULT = {
    "HU24": (None, 0, "tie_carry_over", "none"),
    "RO24": ("last", 1, "tie_last_trick", "fixed_1"),
    "RO20": ("last", 1, "tie_last_trick", "fixed_1"),
    "AT20": ("last", 1, "last_trick", "simple"),
    "KLUB20": ("last", 1, "last_trick", "fixed_1"),
}


@pytest.mark.parametrize("preset", ["HU24", "RO24", "RO20", "AT20", "KLUB20"])
def test_case_32_sixty_sixty(preset: str) -> None:
    # "HU24: nobody scores; +1 carries over. RO24/RO20: the last-trick winner gets 1.
    #  AT20/KLUB20: the last-trick winner wins."
    layout, moves, last = CASE32[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert points(m) == [60, 60] and totals(m) == [60, 60] and m.deal.last_winner == last
    pass_out(m, last)
    winner, gp, code, basis = CASE32_RESULT[preset]
    check_result(m, last if winner == "last" else None, gp, code, basis)
    assert m.carry == (1 if preset == "HU24" else 0)


CASE32_MARRIAGE = {
    # The player without the last trick has 60 card points + a credited 20; the other has 60.
    24: (
        Layout("9H 9C TC KS JH JS", "KD KH AH QD AC KC", "JC", "9S QC 9D AD JD QS QH TD TH TS AS"),
        "9H AC | marry:D QD JS | KD TC | KS QS | QC 9S | JH AH | TD AD | 9C KC | AS JC | QH KH | TS TH | 9D JD",
        0,
    ),
    20: (
        Layout("KS AS TC QH JC", "QS KD TD AH JD", "JS", "AD TS QD QC KH TH KC JH AC"),
        "JC KD | AD TD | QD AH | marry:H QH QC | AS JD | KS TS | TH KH | JH TC | QS KC | JS AC",
        1,
    ),
}


@pytest.mark.parametrize(
    ("preset", "overrides", "expected"),
    [
        ("HU24", {}, "tie"),
        ("RO24", {}, "last"),
        ("RO20", {}, "last"),
        ("HU24", {"no66_basis": "total"}, "married"),  # contrast: comparing totals, the 20 decides
    ],
)
def test_case_32_marriage_does_not_break_sixty_sixty(preset: str, overrides: dict[str, object], expected: str) -> None:
    # "HU24, RO24 and RO20 compare card points (no66_basis = cards), so a marriage does not break a 60:60 tie there."
    layout, moves, married = CASE32_MARRIAGE[DECK[preset]]
    m = new(preset, layout, rules=overrides)
    run(m, moves)
    last = 1 - married
    assert points(m) == [60, 60] and m.deal.last_winner == last
    assert m.deal.marriage_points[married] == 20 and totals(m)[married] == 80
    pass_out(m, last)
    if expected == "tie":
        check_result(m, None, 0, "tie_carry_over", "none")
        assert m.carry == 1
    elif expected == "last":
        check_result(m, last, 1, "tie_last_trick", "fixed_1")
    else:
        check_result(m, married, 1, "higher_total", "simple")


def test_case_32_carry_overs_add_up() -> None:
    # "Carry-overs add up across consecutive ties." HU24: two 60:60 deals, then a 3-point win scores 3 + 2.
    layout, moves, _ = CASE32[24]
    m = new("HU24", layout, single_deal=False)
    run(m, moves)
    pass_out(m, 1)
    assert m.deal.result is not None and m.deal.result.code == "tie_carry_over"
    assert m.carry == 1 and m.scores == [0, 0]
    m.next_deal(deck_of(m, layout))  # the same cards, now dealt by seat 1
    assert m.dealer == 1
    run(m, moves)
    assert points(m) == [60, 60]
    pass_out(m, 0)
    assert m.deal.result is not None and m.deal.result.code == "tie_carry_over"
    assert m.carry == 2 and m.scores == [0, 0]
    m.next_deal(deck_of(m, QUICK[24]))
    assert m.dealer == 0
    assert play_quick(m) == 1
    assert m.scores == [0, 3 + 2] and m.carry == 0


# ---------------------------------------------------------------------------------------------
# 33. Last trick against higher points.

CASE33_NO_BONUS = {
    # A (seat 1) 62 card points, B (seat 0) 58 and the last trick.
    24: (
        Layout("KS 9D 9S 9H JD QD", "9C QS TC AD AH TD", "TH", "TS JC AC JS KC QC QH KD KH AS JH"),
        "QD 9C | 9S TC | TS AD | AC AH | JS 9D | JC AS | QS KS | KD TD | QC KC | TH KH | JD QH | JH 9H",
        1,
    ),
    # A (seat 0) 62, B (seat 1) 58 and the last trick.
    20: (
        Layout("QS JD TD JH KC", "AC TC JC TS QC", "QD", "JS TH KH QH AH AD AS KD KS"),
        "KC JC | TD AC | JH TS | AH AD | TC JS | AS QS | KS JD | KH TH | QH KD | QD QC",
        0,
    ),
}
CASE33_NO_BONUS_RESULT = {
    "HU24": ("A", 1, "higher_total", "simple"),
    "RO24": ("A", 1, "higher_total", "fixed_1"),
    "RO20": ("A", 1, "higher_total", "fixed_1"),
    "AT20": ("B", 1, "last_trick", "simple"),
    "KLUB20": ("B", 1, "last_trick", "fixed_1"),
}


@pytest.mark.parametrize("preset", ["HU24", "RO24", "RO20", "AT20", "KLUB20"])
def test_case_33_last_trick_against_higher_points(preset: str) -> None:
    # "A's final total is higher than B's, and B took the last trick. For example 62:58 without a bonus.
    #  AT20/KLUB20: B wins. HU24, PL24, SZLI20, DE24, RO24, RO20: A wins (higher score)."
    layout, moves, a = CASE33_NO_BONUS[DECK[preset]]
    b = 1 - a
    m = new(preset, layout)
    run(m, moves)
    assert points(m)[a] == 62 and points(m)[b] == 58 and m.deal.last_winner == b
    pass_out(m, b)
    who, gp, code, basis = CASE33_NO_BONUS_RESULT[preset]
    check_result(m, a if who == "A" else b, gp, code, basis)


CASE33_BONUS = {
    # A (seat 1) reaches 70 card points at trick 11 and never claims; B (seat 0) has 50 and the last trick.
    24: (
        Layout("AD AS QH TD TH QS", "JH KC KH AH AC QC", "TS", "JC 9H KD 9D JS 9S TC JD 9C KS QD"),
        "QH JH | QS QC | AS AH | JC KH | TD KC | JS 9D | TC AC | 9S 9C | KS KD | JD QD | TH 9H | AD TS",
        1,
    ),
    # A (seat 0) reaches 70 at trick 6 and never claims; B (seat 1) has 50 and the last trick.
    20: (
        Layout("QD AD TD JD QC", "KS KD TH JH TC", "TS", "KC AH AC JS KH QS QH AS JC"),
        "TD KS | KD QC | TC AD | KC AH | TH AS | QD TS | JH QS | JS QH | JD AC | JC KH",
        0,
    ),
}


@pytest.mark.parametrize("preset", ["PL24", "DE24", "SZLI20"])
def test_case_33_higher_total_against_last_trick_bonus(preset: str) -> None:
    # "… or in DE24 A 70 (a missed claim) against B 50 + 10 = 60 … A wins (higher score)."
    layout, moves, a = CASE33_BONUS[DECK[preset]]
    b = 1 - a
    m = new(preset, layout)
    run(m, moves)
    assert points(m)[a] == 70 and points(m)[b] == 50
    assert totals(m)[a] == 70 and totals(m)[b] == 60 and m.deal.last_winner == b
    pass_out(m, b)
    check_result(m, a, 1, "higher_total", "simple")


CASE33_CARDS = {
    # A (seat 0): 55 card points + a credited 20 and the last trick; B (seat 1): 65 card points.
    24: (
        Layout("QH AS TD KD JS 9D", "9H QC AD QS TS JD", "AH", "9S KS KC JH TC TH 9C KH QD AC JC"),
        "KD TS | JS KS | marry:C KC AS | 9H TH | 9D JD | QC TD | JC AC | JH KH | QS 9S | AD AH | QH QD | 9C TC",
        0,
    ),
    # A (seat 1): 55 card points + a credited 20 (declared at the first lead) and the last trick; B (seat 0): 65.
    20: (
        Layout("QS JS KS KH JC", "AH AS QC KD JH", "QH", "TS JD KC QD AD TC TD TH AC"),
        "marry:S QS KD | JC JH | AH KH | AS TS | JD TC | AC TH | QD TD | AD QH | JS KC | KS QC",
        1,
    ),
}


@pytest.mark.parametrize(
    ("preset", "overrides", "expected"),
    [
        ("HU24", {}, "B"),
        ("RO24", {}, "B"),
        ("RO20", {}, "B"),
        ("HU24", {"no66_basis": "total"}, "A"),
        ("PL24", {}, "A"),
        ("DE24", {}, "A"),
        ("SZLI20", {}, "A"),
    ],
)
def test_case_33_card_points_against_totals(preset: str, overrides: dict[str, object], expected: str) -> None:
    # "HU24, A has 55 card points + 20 (75, a missed claim), B has 65. With cards (HU24, RO24, RO20) B wins;
    #  with total (PL24, SZLI20, DE24, or an HU24 override) A would win."
    layout, moves, a = CASE33_CARDS[DECK[preset]]
    b = 1 - a
    m = new(preset, layout, rules=overrides)
    run(m, moves)
    assert points(m)[a] == 55 and points(m)[b] == 65 and m.deal.last_winner == a
    assert m.deal.marriage_points[a] == 20
    bonus = 10 if preset in ("PL24", "DE24", "SZLI20") else 0
    assert totals(m)[a] == 75 + bonus and totals(m)[b] == 65
    pass_out(m, a)
    winner = a if expected == "A" else b
    basis = "fixed_1" if preset in ("RO24", "RO20") else "simple"
    check_result(m, winner, 1, "higher_total", basis)


# ---------------------------------------------------------------------------------------------
# 34. Claim after the opponent's last card (missed claim).


@pytest.mark.parametrize("preset", MANUAL)
def test_case_34_missed_claim_and_final_window(preset: str) -> None:
    # "A reached 70 card points but never claimed; B wins the final trick and passes.
    #  own_gain presets (AT20, DE24, PL24, RO24, RO20): A's window is closed; §1.12 decides. In AT20, B wins;
    #  in the others, the higher score (A) wins. any_time presets (HU24, SZLI20): after B passes, A's window
    #  as the loser of the final trick is still open, and A may claim validly."
    layout, moves, a = CASE33_BONUS[DECK[preset]]
    b = 1 - a
    m = new(preset, layout)
    run(m, moves)
    assert points(m)[a] == 70 and points(m)[b] == 50 and m.deal.last_winner == b
    bonus = 10 if preset in ("PL24", "DE24", "SZLI20") else 0
    assert totals(m)[b] == 50 + bonus
    any_time = preset in ("HU24", "SZLI20")
    assert m.deal.to_act == b and legal(m, b) == ["claim", "pass"]
    assert legal(m, a) == (["claim"] if any_time else [])
    run(m, "pass")
    if any_time:
        assert not m.deal.over and m.deal.to_act == a
        assert legal(m, a) == ["claim", "pass"]
        run(m, "claim")
        check_result(m, a, 1, "claim_66", "simple")
    elif preset == "AT20":
        check_result(m, b, 1, "last_trick", "simple")
    else:
        check_result(m, a, 1, "higher_total", "fixed_1" if preset in ("RO24", "RO20") else "simple")


# ---------------------------------------------------------------------------------------------
# 35. The last trick brings the winner to 66 with the bonus.

CASE35 = {
    24: (
        Layout("AD AS QH TD TH QS", "JH KC KH AH AC QC", "TS", "JC 9H KD 9D JS 9S TC JD 9C KS QD"),
        "TD KH | QS JH | AD QC | QH AH | KC AS | KD 9D | JC AC | 9S JS | 9C TC | 9H TH | QD TS",
        "KS JD",
    ),
    20: (
        Layout("QS JH QD TS KD", "JC AS QC TC AH", "KH", "KS AC QH AD JS JD TD KC TH"),
        "JH TC | TS JC | QH AD | JS AC | TD QC | TH AH | KC KD | AS QS | KH QD",
        "JD KS",
    ),
}


@pytest.mark.parametrize("preset", ["PL24", "DE24", "SZLI20"])
def test_case_35_last_trick_bonus_reaches_66(preset: str) -> None:
    # "After the 12th (or 10th) trick the winner has 56 + 10 = 66 and may claim validly; game points by award()."
    layout, moves, last = CASE35[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert totals(m) == [50, 64]
    run(m, last)
    assert points(m) == [56, 64] and m.deal.bonus == [10, 0] and totals(m) == [66, 64]
    claim_66(m, 0)
    check_result(m, 0, 1, "claim_66", "simple")  # the loser has 64


# ---------------------------------------------------------------------------------------------
# 36. Exactly 66 and exactly 65.

CASE36 = {
    # Trick 6: seat 0 leads AD with 52 card points; seat 1 answers JS (→ 65) or QD (→ 66).
    24: (
        Layout("JC TD TH TS JD TC", "JH KD KS QS KC 9D", "9H", "9C QH 9S JS AH AC QC QD AD KH AS"),
        "TD QS | 9C JH | KC TS | AH TC | KD AC | AD",
        ("JS", "QD"),
        0,
    ),
    # Trick 5: seat 1 leads AS with 51 card points; seat 0 answers QD (→ 65) or KH (→ 66).
    20: (
        Layout("AD KC JC TS TH", "QH JS AC KH AH", "QS", "JD JH AS KD TD TC QC QD KS"),
        "KC AH | AD AC | TH JS | KD TS | AS",
        ("QD", "KH"),
        1,
    ),
}
# A wrong claim with 65; the opponent has 1 trick and fewer than 33 points.
CASE36_WRONG = {
    "HU24": (2, "penalty_2"),
    "RO24": (2, "penalty_2"),
    "RO20": (2, "penalty_2"),
    "AT20": (2, "penalty_2"),
    "DE24": (2, "penalty_2"),
    "PL24": (2, "schneider"),  # mirror: award() on the opponent's own state
    "SZLI20": (1, "simple"),  # as_loss: award() on the claimer's state (65)
}


@pytest.mark.parametrize("preset", MANUAL)
@pytest.mark.parametrize("total", [66, 65])
def test_case_36_exactly_66_and_65(preset: str, total: int) -> None:
    # "A total of 66 makes a valid claim; 65 does not (a wrong claim)."
    layout, moves, (low, high), a = CASE36[DECK[preset]]
    b = 1 - a
    m = new(preset, layout)
    run(m, moves)
    run(m, high if total == 66 else low)
    assert totals(m)[a] == total and m.deal.tricks[b] == 1 and totals(m)[b] < 33
    assert m.deal.to_act == a
    run(m, "claim")
    if total == 66:
        check_result(m, a, 2, "claim_66", "schneider")
    else:
        gp, basis = CASE36_WRONG[preset]
        check_result(m, b, gp, "wrong_claim", basis)


# ---------------------------------------------------------------------------------------------
# 37. The Schneider boundary.

CASE37 = {
    24: (
        Layout("KS 9D 9S 9H JD QD", "9C QS TC AD AH TD", "TH", "TS JC AC JS KC QC QH KD KH AS JH"),
        {
            33: ("9S 9C | 9H TD | QD JC | JD QS | 9D AD | KD AS | AH TH | JS KS | QH KH | QC KC | TS JH", 0, [66, 33]),
            32: ("JD TC | QD AH | QS JS | KC KS | AC 9H | QC 9C | TS AS | TH JH | JC KH | KD TD", 0, [74, 32]),
        },
    ),
    20: (
        Layout("KD TD KS AH QH", "QD JS AS JD JC", "QC", "JH AC KC TS AD TC QS KH TH"),
        {
            33: ("KD JS | JH AS | KS TS | AD KC | QS JC | JD TD | QC AC | KH AH | TC TH", 1, [33, 81]),
            32: ("KS JD | JH AC | QD TD | QH KC | QS TS | KH QC | JS KD | TC TH | AS AD", 0, [75, 32]),
        },
    ),
}


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize("loser_points", [33, 32])
def test_case_37_schneider_boundary(preset: str, loser_points: int) -> None:
    # "The loser has exactly 33 → 1 game point; 32 → 2."
    layout, lines = CASE37[DECK[preset]]
    moves, winner, final_points = lines[loser_points]
    m = new(preset, layout)
    run(m, moves)
    assert points(m) == final_points and totals(m) == final_points
    assert m.deal.last_winner == winner and m.deal.tricks[1 - winner] > 0
    claim_66(m, winner)
    if loser_points == 33:
        check_result(m, winner, 1, "auto_66" if preset == "KLUB20" else "claim_66", "simple")
    else:
        check_result(m, winner, 2, "auto_66" if preset == "KLUB20" else "claim_66", "schneider")


# ---------------------------------------------------------------------------------------------
# 38. Schneider and marriages.

CASE38 = {
    # The loser (seat 0) wins trick 3, declares 20 in hearts and wins that trick too: 20 card points + 20.
    24: (
        Layout("JC 9H QC AH AC AD", "9C KD QH KH QD JS", "KS", "TD 9S QS JD TH JH KC 9D TS TC AS"),
        "AC QD | TD KD | QC 9S | marry:H QH JH | KH QS | AH KC | 9H TH | JS AS | 9D JD | 9C JC | TS KS",
        [20, 79],
    ),
    # The loser (seat 0) wins trick 1, declares 20 in clubs and wins that trick too: 20 card points + 20.
    20: (
        Layout("JC JH JS AD KD", "AC AS QC TS KH", "QD", "KC KS QS AH TC QH TD JD TH"),
        "JS AS | marry:C QC KS | AC KD | AD TS | JC QH | TC KC | AH KH",
        [20, 70],
    ),
}
CASE38_POINTS = {
    "PL24": (1, "simple"),
    "KLUB20": (1, "simple"),
    "SZLI20": (1, "simple"),
    "AT20": (1, "simple"),
    "DE24": (1, "simple"),
    "HU24": (2, "schneider"),
    "RO24": (2, "schneider"),
    "RO20": (2, "schneider"),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_38_schneider_and_marriages(preset: str) -> None:
    # "The loser has 20 card points and a credited 20 marriage. total presets: 40 → 1 game point.
    #  cards presets (HU24, RO24, RO20): 20 → 2."
    layout, moves, final_points = CASE38[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert points(m) == final_points
    assert m.deal.marriage_points == [20, 0] and totals(m)[0] == 40
    claim_66(m, 1)
    gp, basis = CASE38_POINTS[preset]
    check_result(m, 1, gp, "auto_66" if preset == "KLUB20" else "claim_66", basis)


CASE38_BONUS = {
    # The loser (seat 0) has 25 card points and takes the last trick (+10).
    24: (
        Layout("AS KC TC QC KH TD", "AH TH 9S AD JC QD", "9C", "JS KS AC QH 9D JH JD 9H QS KD TS"),
        "KH AD | TD QD | AS TH | AC JC | TC 9S | JS KS | QH QC | 9C AH | KC JH | 9D KD | 9H JD | TS QS",
        0,
        [25, 95],
    ),
    # The loser (seat 1) has 25 card points and takes the last trick (+10).
    20: (
        Layout("KD TD KS AH QH", "QD JS AS JD JC", "QC", "JH AC KC TS AD TC QS KH TH"),
        "QH JS | TD JC | JD AH | AC TS | AD JH | QD KD | QC KC | TH KH | AS KS | QS TC",
        1,
        [95, 25],
    ),
}


@pytest.mark.parametrize(
    ("preset", "overrides", "gp", "basis"),
    [
        ("PL24", {}, 1, "simple"),
        ("SZLI20", {}, 1, "simple"),
        ("DE24", {}, 1, "simple"),
        ("DE24", {"schneider_basis": "cards"}, 2, "schneider"),  # contrast: card points only
    ],
)
def test_case_38_last_trick_bonus_counts_for_schneider(
    preset: str, overrides: dict[str, object], gp: int, basis: str
) -> None:
    # "The last-trick bonus counts in total too: a loser with 25 card points and the last trick has 35 → 1
    #  in PL24, SZLI20 and DE24."
    layout, moves, loser, final_points = CASE38_BONUS[DECK[preset]]
    m = new(preset, layout, rules=overrides)
    run(m, moves)
    assert points(m) == final_points and m.deal.last_winner == loser
    assert totals(m)[loser] == 35
    pass_out(m, loser)
    check_result(m, 1 - loser, gp, "higher_total", basis)


# ---------------------------------------------------------------------------------------------
# 39. A trick worth 0.

CASE39 = (
    Layout("9S TC KC QH TS AS", "TD KH AD KS JH QC", "AH", "9D AC KD QD JC 9H TH JD JS 9C QS"),
    "KC JH | QC TS | KS TC | KD AC | JC QD | 9D 9H | QH KH | TH AS",
)


@pytest.mark.parametrize("preset", ["HU24", "PL24", "RO24", "DE24"])
def test_case_39_trick_worth_zero(preset: str) -> None:
    # "In a 24-card game the loser's only trick was 9 + 9 (0 card points): Schneider (2), not Schwarz."
    layout, moves = CASE39
    m = new(preset, layout)
    run(m, moves)
    assert tricks(m)[1] == 1 and points(m) == [81, 0] and totals(m)[1] == 0
    claim_66(m, 0)
    check_result(m, 0, 2, "claim_66", "schneider")


# ---------------------------------------------------------------------------------------------
# 40. A wrong claim, by preset.

# The 12 cards played are exactly the aces, tens and kings (100 points): the non-dealer (seat 1) takes
# A+K three times (45), loses TD TH and TS TC (40 to seat 0), then takes KH AH: 60 in 4 tricks.
CASE40 = {
    24: Layout("AD AC AS AH TD TC", "KD KC KS KH TH TS", "QH", "JH 9H QD JD 9D QC JC 9C QS JS 9S"),
    # 20 cards: seat 1 draws AH and seat 0 draws KH after trick 1; trick 6 is strict (seat 1 must head KH).
    20: Layout("AD AC AS TD TC", "KD KC KS TH TS", "QH", "AH KH JH QD JD QC JC QS JS"),
}
CASE40_MOVES = "AD KD | AC KC | AS KS | TD TH | TS TC | KH AH"
CASE40_POINTS = {
    "HU24": (2, "penalty_2"),
    "RO24": (2, "penalty_2"),
    "RO20": (2, "penalty_2"),
    "AT20": (2, "penalty_2"),
    "DE24": (2, "penalty_2"),
    "PL24": (1, "simple"),  # mirror: award(opponent with 40)
    "SZLI20": (1, "simple"),  # as_loss: award(claimer with 60)
}
CASE40_NO_TRICK_POINTS = {
    "HU24": (3, "penalty_3"),
    "RO24": (3, "penalty_3"),
    "RO20": (3, "penalty_3"),
    "AT20": (3, "penalty_3"),
    "DE24": (2, "penalty_2"),
    "PL24": (3, "schwarz"),  # mirror: the opponent has no trick
    "SZLI20": (1, "simple"),  # as_loss: the claimer has 45
}


@pytest.mark.parametrize("preset", MANUAL)
def test_case_40_wrong_claim_by_preset(preset: str) -> None:
    # "The claimer has 60 and 4 tricks; the opponent has 40 and 2 tricks. penalty_2_3 (HU24, RO24, RO20, AT20)
    #  and penalty_2 (DE24): the opponent gets 2. mirror (PL24): award(opponent) = 1. as_loss (SZLI20): 1."
    m = new(preset, CASE40[DECK[preset]])
    run(m, CASE40_MOVES)
    assert points(m) == [40, 60] and tricks(m) == [2, 4] and totals(m) == [40, 60]
    run(m, "claim")
    gp, basis = CASE40_POINTS[preset]
    check_result(m, 0, gp, "wrong_claim", basis)


@pytest.mark.parametrize("preset", MANUAL)
def test_case_40_wrong_claim_opponent_without_trick(preset: str) -> None:
    # "Had the opponent no trick, penalty_2_3 would give 3, penalty_2 still 2."
    m = new(preset, CASE40[DECK[preset]])
    run(m, "AD KD | AC KC | AS KS")
    assert points(m) == [0, 45] and tricks(m) == [0, 3]
    run(m, "claim")
    gp, basis = CASE40_NO_TRICK_POINTS[preset]
    check_result(m, 0, gp, "wrong_claim", basis)


# ---------------------------------------------------------------------------------------------
# 41. Resignation (KLUB20).

CASE41_40 = Layout("TD JD AS JS AD", "KS AH TC KH QH", "QD", "KC QC AC JH KD TH TS QS JC")
CASE41_20 = Layout("JD KC JC KD AS", "TS QS KS KH TC", "JS", "TH QC TD AH AD AC QH QD JH")


@pytest.mark.parametrize(
    ("layout", "moves", "resigner", "gp", "basis"),
    [
        (CASE41_40, "JS TC | AD KH | AS JH", 1, 1, "simple"),  # 3 tricks, 40 points
        (CASE41_20, "AS TS | JD TC | KD QS | QC TD", 0, 2, "schneider"),  # 2 tricks, 20 points
        (CASE41_40, "", 1, 3, "schwarz"),  # the non-dealer resigns at the first lead: no trick
        (CASE41_40, "JS", 0, 3, "schwarz"),  # the dealer resigns instead of answering trick 1: no trick
    ],
)
def test_case_41_resignation(layout: Layout, moves: str, resigner: int, gp: int, basis: str) -> None:
    # "Resigning with a trick and 40 points → the opponent gets 1. With a trick and 20 points → 2. With no trick → 3."
    m = new("KLUB20", layout)
    run(m, moves)
    assert m.deal.to_act == resigner
    assert "resign" in legal(m, resigner)
    m.act(resigner, RESIGN)
    check_result(m, 1 - resigner, gp, "resigned", basis)
    assert m.deal.result is not None and m.deal.result.by == resigner


@pytest.mark.parametrize("preset", MANUAL)
def test_case_41_no_resignation_outside_klub20(preset: str) -> None:
    # Resignation is an S2 (KLUB20) rule only: `resign = no` in every other preset.
    m = new(preset, CASE37[DECK[preset]][0])
    assert "resign" not in legal(m, 1)
    with pytest.raises(IllegalActionError):
        m.act(1, RESIGN)


CASE41_CLOSED = Layout("JH TC JS KD QS", "KH QH JC KC AS", "QD", "TD JD QC AH KS AC TS TH AD")  # = CASE26_B[20]


@pytest.mark.parametrize(
    ("moves", "resigner", "code", "gp", "basis"),
    [
        # the closer (seat 1) resigns right after closing; the dealer had a trick at closing → 2
        ("QS KH | JS AS | QH TD | close", 1, "close_failed", 2, "failed_close_2"),
        # the non-closer (seat 0, 37 points by now) resigns: the closer's award at closing time (13 points) → 2
        ("QS KH | JS AS | QH TD | close JH JD | marry:C KC TC | KD QC | KS", 0, "close_success", 2, "schneider"),
    ],
)
def test_case_41_resignation_with_closed_talon(moves: str, resigner: int, code: str, gp: int, basis: str) -> None:
    # "The closer resigns → failed-close award. The non-closer resigns → the closer's award at closing time."
    m = new("KLUB20", CASE41_CLOSED)
    run(m, moves)
    assert m.deal.closed_by == 1 and m.deal.to_act == resigner
    if resigner == 0:
        assert totals(m)[0] == 37 and tricks(m)[0] == 2  # at the end of the deal this would be worth only 1
    m.act(resigner, RESIGN)
    check_result(m, 1 - resigner, gp, code, basis)


def test_case_41_closer_resigns_opponent_without_trick() -> None:
    # KLUB20 failed_close_3_if = noncloser_no_trick_at_close: the dealer had no trick when the talon was closed.
    m = new("KLUB20", CASE25[20][0])
    run(m, "AD QH | close")
    assert m.deal.closed_by == 1 and tricks(m) == [0, 1]
    m.act(1, RESIGN)
    check_result(m, 0, 3, "close_failed", "failed_close_3")


# ---------------------------------------------------------------------------------------------
# 42. An automatic end on a trick in the closed phase (KLUB20).


def test_case_42_auto_end_in_closed_phase() -> None:
    # "In KLUB20 the trick that lifts the closer to 66 ends the deal at once, even if cards remain."
    m = new("KLUB20", Layout("KC QC AH KD TH", "JH QD AS TC KH", "TS", "TD QS QH JD KS AC AD JS JC"))
    run(m, "TH QD | KD QS | TC AH | close AS QC | KS AC")
    assert m.deal.closed_by == 0 and points(m) == [57, 13] and not m.deal.over
    run(m, "JH TD")  # 0: 57 + 12 = 69
    assert points(m) == [69, 13]
    assert m.deal.over
    assert names(m.deal.hands[0]) == ["KH", "QH"] and names(m.deal.hands[1]) == ["JD", "KC"]
    assert legal(m, 0) == [] and legal(m, 1) == []
    # award at closing time: the non-dealer had 1 trick and 13 points → 2
    check_result(m, 0, 2, "close_success", "schneider")
    assert m.deal.result is not None and m.deal.result.by is None


# ---------------------------------------------------------------------------------------------
# 43. Match overshoot and carry-over.


@pytest.mark.parametrize("preset", ALL)
def test_case_43_match_overshoot(preset: str) -> None:
    # "A player on 6 game points wins 3 → the match ends at 9 (or simply "won")." §1.14: "Any excess is discarded."
    m = new(preset, QUICK[DECK[preset]], single_deal=False)
    m.scores = [0, 6]
    assert play_quick(m) == 1
    assert m.last_result is not None and m.last_result.game_points == 3
    assert m.match_winner == 1
    # The engine discards the excess (§1.14): the winner's score stops at the target.
    assert m.scores == [0, 7]
    if preset != "SZLI20":  # a single Bummerl: nothing follows
        assert m.finished and legal(m, 0) == [] and legal(m, 1) == []


@pytest.mark.parametrize("preset", ALL)
def test_case_43_carry_over_counts_toward_target(preset: str) -> None:
    # "A pending carry-over is added to whatever the next scoring deal awards … on 5 with 1 carried over,
    #  a 1-point win ends the match at 7."
    layout, lines = CASE37[DECK[preset]]
    moves, winner, _ = lines[33]
    m = new(preset, layout, single_deal=False)
    m.scores[winner] = 5
    m.carry = 1
    run(m, moves)
    claim_66(m, winner)
    assert m.last_result is not None and m.last_result.game_points == 1
    assert m.scores[winner] == 7 and m.scores[1 - winner] == 0
    assert m.carry == 0 and m.match_winner == winner


def test_case_43_carry_over_adds_to_wrong_claim_award() -> None:
    # "… (including wrong-claim, failed-close and resignation awards)": HU24, 1 carried over, a wrong claim
    # against a player without a trick gives 3 + 1.
    m = new("HU24", CASE40[24], single_deal=False)
    m.carry = 1
    run(m, "AD KD | AC KC | AS KS | claim")
    assert m.last_result is not None and (m.last_result.winner, m.last_result.game_points) == (0, 3)
    assert m.scores == [4, 0] and m.carry == 0


def test_case_43_szli20_best_of_three_session() -> None:
    # "In SZLI20 the session continues until one player has 2 Bummerl; each later match (protocol next) is first
    #  dealt by the seat that did not deal first in the previous one."
    m = new("SZLI20", QUICK[20], single_deal=False)
    assert m.dealer == 0
    m.scores = [0, 6]
    assert play_quick(m) == 1
    assert m.match_winner == 1 and m.matches_won == [0, 1]
    assert not m.finished and legal(m, 0) == ["next"] and legal(m, 1) == ["next"]

    m.next_deal(deck_of(m, QUICK[20]))  # match 2
    assert m.match_number == 2 and m.dealer == 1 and m.scores == [0, 0] and m.match_winner is None
    m.scores = [6, 0]
    assert play_quick(m) == 0
    assert m.matches_won == [1, 1]
    assert not m.finished and legal(m, 0) == ["next"]

    m.next_deal(deck_of(m, QUICK[20]))  # match 3
    assert m.match_number == 3 and m.dealer == 0 and m.scores == [0, 0]
    m.scores = [0, 6]
    assert play_quick(m) == 1
    assert m.matches_won == [1, 2]
    assert m.finished and legal(m, 0) == [] and legal(m, 1) == []
    with pytest.raises(GameOverError):
        m.act(0, NEXT)


# ---------------------------------------------------------------------------------------------
# 44. Trump after closing.

CASE44 = {
    # = CASE28[24]: the dealer closes before trick 4; trumps are diamonds (the 9D is turned down).
    24: (
        CASE28[24][0],
        "QC KC | AS QD | JC AD | close",
        ("TC", 1, "JD KD", "KD"),  # void in clubs, seat 1 must trump: KD wins
        "JD TD | AH QH | KH JH | 9H 9S | TH JS",
        "TS KS AC QS 9C 9D",  # dead: 5 face-down cards + the trump card
        [64, 28],
        0,
    ),
    # The dealer closes before trick 3; trumps are hearts (the KH is turned down).
    20: (
        Layout("QD QH TD KC AH", "AD AS TS TH QC", "KH", "AC JS JD JC TC JH KS QS KD"),
        "QH AS | TD AD | close",
        ("TS", 1, "AH", "AH"),  # void in spades, seat 1's only trump AH must be played, and wins
        "AC QC | KC TH | JD QD | JC JS",
        "TC JH KS QS KD KH",
        [35, 58],
        1,
    ),
}


@pytest.mark.parametrize("preset", ALL)
def test_case_44_trump_after_closing(preset: str) -> None:
    # "The turned-down trump card keeps its suit as trumps. Its card points, and those of the other talon
    #  cards, are never captured, so fewer than 120 points are available."
    layout, before, (lead, responder, forced, answer), after, dead, final_points, last = CASE44[DECK[preset]]
    m = new(preset, layout)
    trump_suit = m.deal.trump
    run(m, before)
    assert m.deal.closed_by == 0
    run(m, lead)
    assert legal(m, responder) == plays(forced, *klub(preset))
    run(m, answer)
    assert m.deal.last_winner == responder  # the trump (of the turned-down card's suit) took the trick
    assert m.deal.trump == trump_suit
    run(m, after)
    assert m.deal.hands == [0, 0]
    assert points(m) == final_points
    dead_cards = [parse_card(c) for c in dead.split()]
    assert sum(points(m)) == 120 - sum(POINTS[c] for c in dead_cards) < 120
    pass_out(m, last)
    # both had tricks at closing and at the end, the closer has < 66 → failed close, 2
    check_result(m, 1, 2, "close_failed", "failed_close_2")


# ---------------------------------------------------------------------------------------------
# 45. The non-closer claims wrongly.

CASE45 = {
    # The non-dealer wins trick 1 (9S 9D, 0 points), closes; the dealer then takes TD TC and TS TH: 2 tricks, 40.
    24: (
        Layout("KH TD 9S AD AH QH", "TC JC JH 9D TS 9C", "QC", "TH JD QS KC JS QD AS KS AC 9H KD"),
        "9S 9D | close AD JD | AH JH | TD TC | TS TH",
    ),
    # The non-dealer closes at the first lead; the dealer takes TD TC and TS TH: 2 tricks, 40.
    20: (
        Layout("QH TD QD KH TH", "JS AC JH TC TS", "JC", "KC QC JD AD AS AH QS KS KD"),
        "close TD TC | TS TH",
    ),
}
CASE45_POINTS = {"HU24": 3, "SZLI20": 3, "AT20": 3, "PL24": 1, "RO24": 1, "RO20": 1, "DE24": 1}


@pytest.mark.parametrize("preset", MANUAL)
def test_case_45_non_closer_claims_wrongly(preset: str) -> None:
    # "The deal ends as a successful close; wrong_claim does not apply. at_close presets (HU24, SZLI20, AT20):
    #  the closer scores 3 (the snapshot: no trick). at_end presets (PL24, RO24, RO20, DE24): award() on the
    #  state at the claim: 1."
    layout, moves = CASE45[DECK[preset]]
    m = new(preset, layout)
    run(m, moves)
    assert m.deal.closed_by == 1
    assert tricks(m)[0] == 2 and points(m)[0] == 40 and totals(m)[0] == 40
    assert m.deal.to_act == 0
    run(m, "claim")
    gp = CASE45_POINTS[preset]
    check_result(m, 1, gp, "close_success", "schwarz" if gp == 3 else "simple")
