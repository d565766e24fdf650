"""docs/rules.md §4, edge cases 1–22: exact scenarios, one test (or parametrized test) per case.

Conventions of every scenario here: ``dealer_seat=0``, so seat 1 (``N``, the
non-dealer) leads the first trick and seat 0 (``D``) is the dealer. Hands,
the trump card and the talon order are explicit; a 24-card preset gets one
extra card per hand (and two extra talon cards) where the 20-card deal has
none. The expected values come from docs/rules.md (§1 and the preset table of
§3.2), never from the engine's own tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from py_engine.core.cards import names, parse_card
from py_engine.core.errors import EngineError, IllegalActionError
from py_engine.service.match import Match

from .scenario import legal, play, start

N, D = 1, 0  # non-dealer (first leader) and dealer

ALL = ("HU24", "PL24", "KLUB20", "SZLI20", "RO24", "RO20", "AT20", "DE24")

# Preset facts, copied from the table of docs/rules.md §3.2.
DECK = {"HU24": 24, "PL24": 24, "KLUB20": 20, "SZLI20": 20, "RO24": 24, "RO20": 20, "AT20": 20, "DE24": 24}
EXCHANGE_FIRST_LEAD = {"KLUB20", "SZLI20", "RO24", "RO20", "AT20"}
CLOSE_LAST_OPEN_TRICK = {"HU24", "PL24", "KLUB20", "SZLI20", "AT20", "DE24"}  # not RO24, RO20
MARRIAGE_AFTER_CLOSE = {"HU24", "KLUB20", "SZLI20", "AT20", "DE24"}
MARRIAGE_AFTER_EXHAUSTION = {"HU24", "KLUB20", "SZLI20", "AT20", "DE24"}
CREDIT_IMMEDIATE = {"HU24", "SZLI20"}
CREDIT_AFTER_LATER_TRICK = {"PL24"}
CLOSE_BASIS_AT_CLOSE = {"HU24", "KLUB20", "SZLI20", "AT20"}
ANY_TIME_WINDOW = {"HU24", "SZLI20"}
# KLUB20 alone: claim_mode = auto (no claims), resign = yes, marriage_auto = yes.
AUTO = "KLUB20"


# --------------------------------------------------------------------------- helpers


def big(p: str) -> bool:
    return DECK[p] == 24


def low(p: str, suit: str = "H") -> str:
    """The lowest trump: the 9 with 24 cards, the J with 20 (§1.1)."""
    return ("9" if big(p) else "J") + suit


def deck(p: str, cards20: Sequence[str], extra24: str | Sequence[str]) -> list[str]:
    """A 20-card hand or talon prefix, plus ``extra24`` in 24-card presets."""
    extra = [extra24] if isinstance(extra24, str) else list(extra24)
    return [*cards20, *extra] if big(p) else list(cards20)


def interleave(first: Sequence[str], second: Sequence[str]) -> list[str]:
    """Talon order when the same player wins every trick: winner's draw, loser's draw, ..."""
    assert len(first) == len(second)
    return [c for pair in zip(first, second, strict=True) for c in pair]


def hand(m: Match, seat: int) -> list[str]:
    return sorted(names(m.deal.hands[seat]))


def has(m: Match, seat: int, card: str) -> bool:
    return bool(m.deal.hands[seat] >> parse_card(card) & 1)


def lead_options(
    p: str,
    plays: Sequence[str],
    *,
    exchange: bool = False,
    close: bool = False,
    marry: Sequence[str] = (),
    claim: bool = False,
) -> list[str]:
    """The full legal list of a leader before any pre-lead action (docs/rules.md §1.3 step 1).

    ``marry`` lists the suits whose marriage may be declared now; under
    ``marriage_auto`` (KLUB20) the K and Q of such a pair can then be led only
    through ``marry``. ``claim`` says the leader's claim window is open (manual
    presets only). KLUB20 also allows ``resign`` at every decision point.
    """
    acts = {f"play:{c}" for c in plays}
    for s in marry:
        acts.add(f"marry:{s}")
        if p == AUTO:
            acts -= {f"play:K{s}", f"play:Q{s}"}
    if exchange:
        acts.add("exchange")
    if close:
        acts.add("close")
    if claim and p != AUTO:
        acts.add("claim")
    if p == AUTO:
        acts.add("resign")
    return sorted(acts)


def answer_options(p: str, plays: Sequence[str]) -> list[str]:
    """The full legal list of the responder: these cards (plus ``resign`` in KLUB20)."""
    return sorted([f"play:{c}" for c in plays] + (["resign"] if p == AUTO else []))


def illegal(m: Match, seat: int, action: str) -> None:
    with pytest.raises(IllegalActionError):
        play(m, [(seat, action)])


# A standard run-up, used by cases 1, 3, 4, 5 and 7: N wins every open trick
# but the last and stops at the lead of the last open trick (1 face-down card +
# the trump card left). Trump is hearts.
#   N: <special>, JD, QD, TD, AD (+9D)   D: JC, QC, JS, QS, TS (+9C)
#   tricks (N leads, D discards): (9D-9C,) JD-JC, QD-JS, TD-QC, AD-QS -> N 36 card points
#   N draws AC, TC, AS, KS (+9S); D draws AH, QH, KD, KC (+JH); TH is the last face-down card.
def last_open_lead(p: str, special: str, upcard: str) -> Match:
    m = start(
        p,
        deck(p, [special, "JD", "QD", "TD", "AD"], "9D"),
        deck(p, ["JC", "QC", "JS", "QS", "TS"], "9C"),
        upcard,
        [*interleave(deck(p, ["AC", "TC", "AS", "KS"], "9S"), deck(p, ["AH", "QH", "KD", "KC"], "JH")), "TH"],
    )
    tricks = ([("9D", "9C")] if big(p) else []) + [("JD", "JC"), ("QD", "JS"), ("TD", "QC"), ("AD", "QS")]
    for lead, answer in tricks:
        play(m, [f"play:{lead}", f"play:{answer}"])
        assert m.deal.last_winner == N
    assert m.deal.to_act == N
    assert m.deal.face_down_left == 1 and not m.deal.exhausted
    assert m.deal.card_points == [0, 36]
    assert hand(m, N) == sorted(deck(p, [special, "AC", "TC", "AS", "KS"], "9S"))
    assert hand(m, D) == sorted(deck(p, ["TS", "AH", "QH", "KD", "KC"], "JH"))
    return m


# A position at the first lead after exhaustion, used by cases 19–22. Trump is
# hearts (AH turned up). N wins every open trick, so N leads; the trump card
# goes to D with the last draw.
#   N leads KH, QS, QD, TH, AC (, 9H); D discards JS, JD, QC, TC, AS (, 9C): N has 59 card points.
#   Final hands: N  QH, KS, KD, KC, TS (+9S)     D  JC, JH, AD, TD, AH (+9D)
def first_exhausted_lead(p: str) -> Match:
    if big(p):
        talon = ["QH", "JC", "KS", "JH", "KD", "AD", "KC", "TD", "TS", "9D", "9S"]
    else:
        talon = ["QH", "JC", "KS", "JH", "KD", "AD", "KC", "TD", "TS"]
    m = start(
        p,
        deck(p, ["KH", "QS", "QD", "TH", "AC"], "9H"),
        deck(p, ["JS", "JD", "QC", "TC", "AS"], "9C"),
        "AH",
        talon,
    )
    tricks = [("KH", "JS"), ("QS", "JD"), ("QD", "QC"), ("TH", "TC"), ("AC", "AS")] + ([("9H", "9C")] if big(p) else [])
    for lead, answer in tricks:
        play(m, [f"play:{lead}", f"play:{answer}"])
        assert m.deal.last_winner == N
    assert m.deal.exhausted and m.deal.to_act == N
    assert m.deal.card_points == [0, 59]
    assert hand(m, N) == sorted(deck(p, ["QH", "KS", "KD", "KC", "TS"], "9S"))
    assert hand(m, D) == sorted(deck(p, ["JC", "JH", "AD", "TD", "AH"], "9D"))
    # Exhausted: no exchange, no close; no pair in N's hand.
    assert legal(m) == lead_options(p, deck(p, ["QH", "KS", "KD", "KC", "TS"], "9S"), claim=True)
    return m


# --------------------------------------------------------------------------- cases 1–9: the exchange


@pytest.mark.parametrize("p", ALL)
def test_case_01_face_up_trump_is_the_lowest_trump(p: str) -> None:
    # §4.1: "The face-up trump is itself the lowest trump ... EXCHANGE is never legal in this deal."
    up = low(p)
    first_hand = deck(p, ["KH", "JD", "QD", "TD", "AD"], "9D")
    m = start(
        p,
        first_hand,
        deck(p, ["JC", "QC", "JS", "QS", "TS"], "9C"),
        up,
        [*interleave(deck(p, ["AC", "TC", "AS", "KS"], "9S"), deck(p, ["AH", "QH", "KD", "KC"], "JH")), "TH"],
    )
    # Even where an exchange at the first lead is allowed, there is nothing to exchange.
    assert legal(m) == lead_options(p, first_hand, close=True)
    illegal(m, N, "exchange")
    tricks = ([("9D", "9C")] if big(p) else []) + [("JD", "JC"), ("QD", "JS"), ("TD", "QC"), ("AD", "QS")]
    for lead, answer in tricks:
        play(m, [f"play:{lead}", f"play:{answer}"])
        assert "exchange" not in legal(m, N)
        assert "exchange" not in legal(m, D)
    # Last open trick: N holds KH, AC, TC, AS, KS (+9S); still no exchange.
    assert m.deal.face_down_left == 1
    assert legal(m) == lead_options(
        p, deck(p, ["KH", "AC", "TC", "AS", "KS"], "9S"), close=p in CLOSE_LAST_OPEN_TRICK, claim=True
    )
    # D trumps KS with QH and draws TH; N, the loser, takes the face-up lowest trump.
    play(m, ["play:KS", "play:QH"])
    assert m.deal.exhausted
    assert has(m, N, up) and has(m, D, "TH")
    assert legal(m) == lead_options(p, deck(p, ["TS", "AH", "KD", "KC", "TH"], "JH"), claim=True)


@pytest.mark.parametrize("p", ALL)
def test_case_02_exchange_at_first_lead(p: str) -> None:
    # §4.2: the non-dealer holds the trump J/9 at trick 1: exchange legal in KLUB20, SZLI20, RO24,
    # RO20, AT20; illegal in HU24, PL24, DE24 ("has not won a trick yet").
    lo = low(p)
    n_hand = deck(p, [lo, "AD", "TC", "KS", "JD"], "9S")
    m = start(p, n_hand, deck(p, ["AC", "TS", "KD", "QC", "JS"], "9C"), "KH", ["QD", "AS"])
    allowed = p in EXCHANGE_FIRST_LEAD
    assert legal(m) == lead_options(p, n_hand, exchange=allowed, close=True)
    if allowed:
        play(m, ["exchange"])
        after = deck(p, ["KH", "AD", "TC", "KS", "JD"], "9S")
        assert hand(m, N) == sorted(after)
        assert m.deal.upcard == parse_card(lo)
        assert legal(m) == lead_options(p, after, close=True)
    else:
        illegal(m, N, "exchange")
        # Once N has won a trick the same exchange becomes legal.
        play(m, ["play:AD", "play:JS"])
        assert m.deal.last_winner == N
        assert legal(m) == lead_options(
            p, deck(p, [lo, "TC", "KS", "JD", "QD"], "9S"), exchange=True, close=True, claim=True
        )
        play(m, ["exchange"])
        assert has(m, N, "KH") and not has(m, N, lo)
        assert m.deal.upcard == parse_card(lo)


@pytest.mark.parametrize("p", ALL)
def test_case_03_exchange_at_last_open_trick(p: str) -> None:
    # §4.3: with 1 face-down card + trump left the exchange is legal in every preset; the leader
    # takes the face-up card and the lowest trump becomes face up.
    lo = low(p)
    m = last_open_lead(p, lo, "KH")
    assert legal(m) == lead_options(
        p,
        deck(p, [lo, "AC", "TC", "AS", "KS"], "9S"),
        exchange=True,
        close=p in CLOSE_LAST_OPEN_TRICK,
        claim=True,
    )
    play(m, ["exchange"])
    after = deck(p, ["KH", "AC", "TC", "AS", "KS"], "9S")
    assert hand(m, N) == sorted(after)
    assert m.deal.upcard == parse_card(lo)
    assert m.deal.face_down_left == 1
    assert legal(m) == lead_options(p, after, close=p in CLOSE_LAST_OPEN_TRICK, claim=True)


@pytest.mark.parametrize("exchanger_wins", [False, True], ids=["exchanger_loses", "exchanger_wins"])
@pytest.mark.parametrize("p", ALL)
def test_case_04_exchanged_lowest_trump_comes_back(p: str, exchanger_wins: bool) -> None:
    # §4.4: after an exchange at the last open trick the loser of that trick draws the face-up
    # lowest trump; if the exchanger loses, they get their own J/9 back.
    lo = low(p)
    m = last_open_lead(p, lo, "KH")
    play(m, ["exchange"])
    if exchanger_wins:
        play(m, ["play:AC", "play:KD"])  # a club against a diamond: the lead wins
        assert m.deal.last_winner == N
        assert has(m, N, "TH") and has(m, D, lo) and not has(m, N, lo)
    else:
        play(m, ["play:KS", "play:QH"])  # D trumps
        assert m.deal.last_winner == D
        assert has(m, D, "TH") and has(m, N, lo)
        assert hand(m, N) == sorted(deck(p, ["KH", "AC", "TC", "AS", lo], "9S"))
    assert m.deal.exhausted


@pytest.mark.parametrize("p", ALL)
def test_case_05_no_exchange_once_talon_exhausted(p: str) -> None:
    # §4.5: after the last face-down card is drawn the face-up card goes to the loser in the same
    # draw step; no exchange is possible, not even for the winner of the last open trick.
    lo = low(p)
    m = last_open_lead(p, lo, "KH")
    play(m, ["play:AC", "play:KD"])  # N keeps the lowest trump and wins the last open trick
    # The draw happened with the trick: no decision point lies between the trick and the draw.
    assert m.deal.exhausted and m.deal.to_act == N
    assert has(m, N, "TH") and has(m, D, "KH")
    n_hand = deck(p, [lo, "TC", "AS", "KS", "TH"], "9S")
    assert hand(m, N) == sorted(n_hand)
    assert legal(m) == lead_options(p, n_hand, claim=True)  # no exchange, no close
    illegal(m, N, "exchange")


SEQUENCES_6 = {
    "close_then_exchange": ["close", "exchange"],
    "exchange_then_close": ["exchange", "close"],
    "declare_exchange_close": ["marry:D", "exchange", "close"],
    "exchange_declare_close": ["exchange", "marry:D", "close"],
    "exchange_close_declare": ["exchange", "close", "marry:D"],
}


@pytest.mark.parametrize("seq", list(SEQUENCES_6))
@pytest.mark.parametrize("p", ALL)
def test_case_06_no_exchange_after_closing(p: str, seq: str) -> None:
    # §4.6: exchange then close is legal in one pre-lead sequence (a DECLARE may come before, between
    # or after — after CLOSE only with marriage_after_close); close then exchange never is.
    lo = low(p)
    m = start(
        p,
        deck(p, [lo, "KD", "QD", "AC", "TC"], "9S"),
        deck(p, ["JS", "QS", "JC", "QC", "TS"], "9C"),
        "TH",
        ["AD", "AS"],
    )
    play(m, ["play:AC", "play:JC"])  # N wins trick 1 (13), so the exchange is legal in every preset
    before = deck(p, [lo, "KD", "QD", "TC", "AD"], "9S")
    assert legal(m) == lead_options(p, before, exchange=True, close=True, marry=("D",), claim=True)
    steps = SEQUENCES_6[seq]
    if seq == "close_then_exchange":
        play(m, ["close"])
        marry = ("D",) if p in MARRIAGE_AFTER_CLOSE else ()
        assert legal(m) == lead_options(p, before, marry=marry, claim=True)
        illegal(m, N, "exchange")
        assert has(m, N, lo) and m.deal.upcard == parse_card("TH")
        return
    if seq == "exchange_close_declare" and p not in MARRIAGE_AFTER_CLOSE:
        play(m, steps[:2])
        assert "marry:D" not in legal(m)
        illegal(m, N, "marry:D")
        return
    play(m, steps)
    assert m.deal.closed_by == N
    assert has(m, N, "TH") and not has(m, N, lo)
    assert m.deal.upcard == parse_card(lo)
    if "marry:D" in steps:
        # After DECLARE the lead must be KD or QD.
        assert legal(m) == sorted(["play:KD", "play:QD"] + (["resign"] if p == AUTO else ["claim"]))
    else:
        after = deck(p, ["TH", "KD", "QD", "TC", "AD"], "9S")
        marry = ("D",) if p in MARRIAGE_AFTER_CLOSE else ()
        assert legal(m) == lead_options(p, after, marry=marry, claim=True)


@pytest.mark.parametrize("leader_wins", [False, True], ids=["leader_loses", "leader_wins"])
@pytest.mark.parametrize("exchanged", [False, True], ids=["no_exchange", "after_exchange"])
@pytest.mark.parametrize("p", ALL)
def test_case_07_draw_order_with_one_face_down_card(p: str, exchanged: bool, leader_wins: bool) -> None:
    # §4.7: the trick winner takes the last face-down card; the loser takes the face-up trump card,
    # or the J/9 if an exchange was made.
    lo = low(p)
    m = last_open_lead(p, lo, "KH")
    face_up = "KH"
    if exchanged:
        play(m, ["exchange"])
        face_up = lo
    n_before, d_before = set(hand(m, N)), set(hand(m, D))
    if leader_wins:
        play(m, ["play:AC", "play:KD"])
        winner, loser = N, D
        n_after, d_after = n_before - {"AC"} | {"TH"}, d_before - {"KD"} | {face_up}
    else:
        play(m, ["play:KS", "play:QH"])
        winner, loser = D, N
        n_after, d_after = n_before - {"KS"} | {face_up}, d_before - {"QH"} | {"TH"}
    assert m.deal.last_winner == winner
    assert has(m, winner, "TH") and has(m, loser, face_up)
    assert hand(m, N) == sorted(n_after) and hand(m, D) == sorted(d_after)
    assert m.deal.exhausted and m.deal.to_act == winner


@pytest.mark.parametrize("p", ALL)
def test_case_08_cannot_exchange_until_leader(p: str) -> None:
    # §4.8: a player who drew the lowest trump while losing a trick may not exchange until they lead.
    lo = low(p)
    m = start(
        p,
        deck(p, ["AD", "KC", "QS", "JS", "TC"], "9S"),
        deck(p, ["JD", "AC", "QD", "TD", "AS"], "9C"),
        "AH",
        ["KD", lo, "TS", "JC"],
    )
    play(m, ["play:AD", "play:JD"])  # N wins; N draws KD, D (the loser) draws the lowest trump
    assert has(m, D, lo)
    # Before N leads, D's only possible action is a claim (any_time presets: the loser's window).
    assert legal(m, D) == (["claim"] if p in ANY_TIME_WINDOW else [])
    with pytest.raises(EngineError):
        play(m, [(D, "exchange")])
    play(m, ["play:KC"])
    # Responding: cards only.
    assert legal(m, D) == answer_options(p, deck(p, ["AC", "QD", "TD", "AS", lo], "9C"))
    illegal(m, D, "exchange")
    play(m, ["play:AC"])  # D wins trick 2 (15) and leads trick 3: now the exchange is legal
    assert m.deal.last_winner == D and m.deal.to_act == D
    assert legal(m, D) == lead_options(
        p, deck(p, ["QD", "TD", "AS", lo, "TS"], "9C"), exchange=True, close=True, claim=True
    )
    play(m, [(D, "exchange")])
    assert has(m, D, "AH") and m.deal.upcard == parse_card(lo)


@pytest.mark.parametrize("p", ALL)
def test_case_09_exchange_completes_trump_marriage(p: str) -> None:
    # §4.9: the leader exchanges the J/9 for a face-up trump K while holding the trump Q, then
    # declares 40 at the same lead. Legal in ALL presets.
    lo = low(p)
    m = start(
        p,
        deck(p, [lo, "QH", "AD", "TC", "QS"], "9D"),
        deck(p, ["JD", "KC", "JS", "AS", "TS"], "9C"),
        "KH",
        ["TD", "AC"],
    )
    play(m, ["play:AD", "play:JD"])  # N wins trick 1 (13 points)
    before = deck(p, [lo, "QH", "TC", "QS", "TD"], "9D")
    assert legal(m) == lead_options(p, before, exchange=True, close=True, claim=True)  # no KH yet
    play(m, ["exchange"])
    after = deck(p, ["KH", "QH", "TC", "QS", "TD"], "9D")
    assert hand(m, N) == sorted(after)
    assert legal(m) == lead_options(p, after, close=True, marry=("H",), claim=True)
    play(m, ["marry:H"])
    assert legal(m) == sorted(["play:KH", "play:QH", "close"] + (["resign"] if p == AUTO else ["claim"]))
    # N already holds a trick: credited at once except under after_later_trick (PL24).
    assert m.deal.marriage_points[N] == (0 if p in CREDIT_AFTER_LATER_TRICK else 40)
    play(m, ["play:QH", "play:JS"])
    assert m.deal.last_winner == N
    assert m.deal.marriage_points[N] == 40
    assert m.deal.total(N) == 13 + 5 + 40
    assert m.deal.result is None


# --------------------------------------------------------------------------- cases 10–16: marriages


@pytest.mark.parametrize("p", ALL)
def test_case_10_first_lead_marriage_then_no_tricks(p: str) -> None:
    # §4.10: the non-dealer declares 40 at trick 1 and never wins a trick. after_any_trick /
    # after_later_trick: the 40 never counts; immediate (HU24, SZLI20): credited. Either way the
    # deal is lost Schwarz: 3 game points.
    # D wins every trick and draws first: D gets AS, TS, KD, KC (+JH), N gets QD, QC, QS, TC (+9C).
    # The trump card is the lowest trump (JH, or 9H with 24 cards): no exchange interferes.
    if big(p):
        talon = ["AS", "QD", "TS", "QC", "KD", "QS", "KC", "TC", "JH", "9C", "KS"]
    else:
        talon = ["AS", "QD", "TS", "QC", "KD", "QS", "KC", "TC", "KS"]
    m = start(
        p,
        deck(p, ["KH", "QH", "JD", "JC", "JS"], "9S"),
        deck(p, ["AH", "TH", "AD", "TD", "AC"], "9D"),
        low(p),
        talon,
    )
    play(m, ["marry:H"])
    assert m.deal.marriage_points[N] == (40 if p in CREDIT_IMMEDIATE else 0)
    play(m, ["play:QH", "play:AH"])
    tricks = [("AD", "JD"), ("TD", "JC"), ("AC", "JS")] + ([("9D", "9S")] if big(p) else []) + [("AS", "QS")]
    for lead, answer in tricks:
        assert m.deal.result is None
        play(m, [f"play:{lead}", f"play:{answer}"])
    assert m.deal.tricks == [len(tricks) + 1, 0]
    assert m.deal.card_points[D] == 66
    if p != AUTO:
        assert m.deal.result is None
        play(m, [(D, "claim")])
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.game_points, res.basis) == (D, 3, "schwarz")
    assert res.code == ("auto_66" if p == AUTO else "claim_66")
    assert m.deal.marriage_points[N] == (40 if p in CREDIT_IMMEDIATE else 0)
    assert m.deal.total(N) == (40 if p in CREDIT_IMMEDIATE else 0)
    assert m.scores[D] == 3


@pytest.mark.parametrize("p", ALL)
def test_case_11_marriage_without_trick_cannot_reach_66(p: str) -> None:
    # §4.11: a marriage without a trick is declared at trick 1 and worth at most 40: any claim before
    # the first trick is wrong under every preset; in KLUB20 there is no auto-end until a trick is won.
    n_hand = deck(p, ["KH", "QH", "JD", "JC", "JS"], "9S")
    m = start(p, n_hand, deck(p, ["AD", "TD", "AC", "TC", "AS"], "9D"), "AH")
    assert legal(m) == lead_options(p, n_hand, close=True, marry=("H",))
    play(m, ["marry:H"])
    if p == AUTO:
        assert legal(m) == ["close", "play:KH", "play:QH", "resign"]
        assert m.deal.result is None and m.deal.marriage_points[N] == 0
        play(m, ["play:QH", "play:AD"])  # N's first trick (14) credits the 40: 54, still no end
        assert m.deal.marriage_points[N] == 40 and m.deal.total(N) == 54
        assert m.deal.result is None
        return
    assert legal(m) == ["claim", "close", "play:KH", "play:QH"]
    play(m, [(N, "claim")])
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.code) == (D, "wrong_claim")
    # penalty_2_3 (HU24, RO24, RO20, AT20): D has no trick -> 3; penalty_2 (DE24): 2;
    # mirror (PL24): award(D) = 3 (no trick); as_loss (SZLI20): award(N) = 3 (no trick).
    assert res.game_points == (2 if p == "DE24" else 3)


# Case 12 scenario: trump hearts (AH up). N ends on 50 card points with KS+QS in hand, D has one
# trick worth 13.  (24 cards: a first trick 9C-9D worth 0.)
#   JS-AS (D 13) | D leads KD, N trumps KH (N 8) | AD-TD (29) | AC-TC (50)
def marriage_claim_position(p: str) -> Match:
    if big(p):
        talon = ["9S", "JH", "TH", "QS", "TS", "QC", "JC", "QH", "QD", "9H", "KC"]
    else:
        talon = ["TH", "QS", "TS", "JH", "JC", "QC", "QD", "QH", "KC"]
    m = start(
        p,
        deck(p, ["JS", "KH", "AD", "AC", "KS"], "9C"),
        deck(p, ["AS", "KD", "TD", "TC", "JD"], "9D"),
        "AH",
        talon,
    )
    if big(p):
        play(m, ["play:9C", "play:9D"])
    play(m, ["play:JS", "play:AS", "play:KD", "play:KH", "play:AD", "play:TD", "play:AC", "play:TC"])
    assert m.deal.card_points[N] == 50 and m.deal.tricks[D] == 1 and m.deal.card_points[D] == 13
    assert m.deal.to_act == N and m.deal.face_down_left == 1
    return m


@pytest.mark.parametrize("p", ALL)
def test_case_12_marriage_lifts_total_to_66(p: str) -> None:
    # §4.12: the leader has tricks, holds 50 and declares 20. Manual presets: they may claim at once,
    # without leading, and the claim is valid. KLUB20: the deal ends automatically before any card is
    # played. Game points: award() on the opponent's state (D: 1 trick, 13 points -> 2).
    m = marriage_claim_position(p)
    n_hand = deck(p, ["KS", "QS", "TS", "JC", "QD"], "9S")
    assert legal(m) == lead_options(p, n_hand, close=p in CLOSE_LAST_OPEN_TRICK, marry=("S",), claim=True)
    play(m, ["marry:S"])
    if p == AUTO:
        res = m.deal.result
        assert res is not None
        assert (res.winner, res.game_points, res.code) == (N, 2, "auto_66")
        assert has(m, N, "KS") and has(m, N, "QS")  # no card was played to that trick
        assert m.deal.total(N) == 70
        return
    assert m.deal.result is None
    assert legal(m) == sorted(["play:KS", "play:QS", "claim"] + (["close"] if p in CLOSE_LAST_OPEN_TRICK else []))
    assert m.deal.marriage_points[N] == (0 if p in CREDIT_AFTER_LATER_TRICK else 20)
    play(m, [(N, "claim")])
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.game_points, res.code, res.basis) == (N, 2, "claim_66", "schneider")
    assert m.deal.total(N) == 70


@pytest.mark.parametrize("p", sorted(MARRIAGE_AFTER_CLOSE))
def test_case_12_marriage_claim_after_close_uses_snapshot(p: str) -> None:
    # §4.12: "(a closer under at_close: the snapshot)". N closes at the first lead (D: no trick),
    # D then wins a trick, N declares 40 after closing and reaches 66: at_close presets (HU24,
    # KLUB20, SZLI20, AT20) score 3 (Schwarz at closing); DE24 (at_end) scores D's state now:
    # 1 trick, 13 points -> 2.
    m = start(
        p,
        deck(p, ["AD", "TD", "KH", "QH", "JC"], "9C"),
        deck(p, ["AC", "JD", "AS", "TS", "QS"], "9S"),
        "AH",
    )
    play(m, ["close", "play:JC"])
    assert legal(m) == answer_options(p, ["AC"])  # strict: must head the club
    play(m, ["play:AC", "play:JD"])
    assert legal(m) == answer_options(p, ["AD", "TD"])
    play(m, ["play:AD", "play:TD"])
    assert legal(m) == answer_options(p, deck(p, ["AS", "TS", "QS"], "9S"))  # void, no trumps
    play(m, ["play:AS"])
    assert m.deal.card_points == [13, 34] and m.deal.tricks == [1, 2]
    assert legal(m) == lead_options(p, deck(p, ["KH", "QH"], "9C"), marry=("H",), claim=True)
    play(m, ["marry:H"])
    if p != AUTO:
        play(m, [(N, "claim")])
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.code) == (N, "close_success")
    assert res.game_points == (3 if p in CLOSE_BASIS_AT_CLOSE else 2)


# Case 13 scenario (PL24, trump hearts, 9H up): N wins three cheap tricks (19 card points), then
# declares 20 in spades at trick 4 and leads QS.
#   N: JC, JD, TC, KS, QS, 9C      D: JS, QC, 9S, AS, AH, TH
def pl24_trick4_declaration(**overrides: object) -> Match:
    m = start(
        "PL24",
        ["JC", "JD", "TC", "KS", "QS", "9C"],
        ["JS", "QC", "9S", "AS", "AH", "TH"],
        "9H",
        ["9D", "AD", "QD", "AC", "JH", "TD", "KH", "QH", "TS", "KD", "KC"],
        **overrides,
    )
    play(m, ["play:JC", "play:JS", "play:JD", "play:QC", "play:TC", "play:9S"])
    assert m.deal.tricks == [0, 3] and m.deal.card_points == [0, 19]
    n_hand = ["KS", "QS", "9C", "9D", "QD", "JH"]
    assert legal(m) == lead_options("PL24", n_hand, close=True, marry=("S",), claim=True)
    play(m, ["marry:S"])
    return m


@pytest.mark.parametrize("outcome", ["lose_all", "win_declaring_trick", "win_later_trick"])
def test_case_13_pl24_next_trick_rule(outcome: str) -> None:
    # §4.13: PL24 (after_later_trick): declare 20 at trick 4, lose trick 4 and every later trick:
    # the 20 is void. Had they won trick 4 (led with the Q) or any later trick, it counts from then on.
    m = pl24_trick4_declaration()
    assert m.deal.marriage_points[N] == 0  # pending
    assert legal(m) == ["claim", "close", "play:KS", "play:QS"]
    if outcome == "win_declaring_trick":
        play(m, ["play:QS", "play:TD"])
        assert m.deal.last_winner == N
        assert m.deal.marriage_points[N] == 20 and m.deal.total(N) == 19 + 13 + 20
        return
    play(m, ["play:QS", "play:AS"])
    assert m.deal.last_winner == D and m.deal.marriage_points[N] == 0
    if outcome == "win_later_trick":
        play(m, ["play:AC", "play:JH"])  # N trumps D's ace
        assert m.deal.last_winner == N
        assert m.deal.marriage_points[N] == 20 and m.deal.total(N) == 19 + 13 + 20
        return
    finish_pl24_lose_all(m)
    assert m.deal.marriage_points[N] == 0
    res = m.deal.result
    assert res is not None
    # D claims with 79; N has 3 tricks and 19 points (the 20 is void) -> Schneider, 2.
    assert (res.winner, res.game_points, res.code, res.basis) == (D, 2, "claim_66", "schneider")


def finish_pl24_lose_all(m: Match) -> None:
    """D wins every trick from trick 4 on and claims with 79."""
    play(m, ["play:AH", "play:9C", "play:AD", "play:9D"])  # the second trick exhausts the talon
    assert m.deal.exhausted
    assert hand(m, N) == sorted(["KS", "QD", "JH", "QH", "KD", "9H"])
    play(m, ["play:TH"])
    assert legal(m, N) == ["play:9H", "play:JH", "play:QH"]  # trump lead: no higher trump, any trump
    play(m, ["play:9H", "play:KH"])
    assert legal(m, N) == ["play:JH", "play:QH"]
    play(m, ["play:JH", "play:TD"])
    assert legal(m, N) == ["play:KD", "play:QD"]  # cannot head: follow low
    play(m, ["play:QD", "play:TS"])
    assert legal(m, N) == ["play:KS"]
    play(m, ["play:KS"])
    assert m.deal.card_points[D] == 79 and m.deal.tricks == [7, 3]
    play(m, [(D, "claim")])


def test_case_13_toggle_after_any_trick_counts_the_marriage() -> None:
    # §4.13: "Under after_any_trick (a toggle) it would count": same play, N's 20 is credited at the
    # declaration, so D's claim scores only 1 (N: 19 + 20 = 39).
    m = pl24_trick4_declaration(marriage_credit="after_any_trick")
    assert m.deal.marriage_points[N] == 20
    play(m, ["play:QS", "play:AS"])
    finish_pl24_lose_all(m)
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.game_points, res.code, res.basis) == (D, 1, "claim_66", "simple")


def test_case_13_pl24_claim_right_after_declaring_counts_at_once() -> None:
    # §4.13 / §1.8: under after_later_trick, claiming right after the declaration counts the
    # marriage at once when the declarer already has a trick: 50 + 20 -> a valid claim.
    m = marriage_claim_position("PL24")
    play(m, ["marry:S"])
    assert m.deal.marriage_points[N] == 0
    play(m, [(N, "claim")])
    res = m.deal.result
    assert res is not None
    assert (res.winner, res.game_points, res.code) == (N, 2, "claim_66")


# Case 14 scenario: trump hearts (AH up). D wins the open tricks but the last; N wins the last open
# trick and leads the first trick after exhaustion with KH, QH, KD, TS, KS (+9S).
#   N: KH, QH, JD, JC, JS (+9D)    D: QD, QC, QS, TD, TC (+9C)
#   JD-QD, QC-JC, QS-JS, (9C-9D,) TD-KC (all D), TC-AC (N): N has 21 card points.
def exhausted_with_trump_pair(p: str) -> Match:
    if big(p):
        talon = ["TH", "KD", "JH", "KC", "AD", "TS", "9H", "9S", "AS", "AC", "KS"]
    else:
        talon = ["TH", "KD", "JH", "KC", "AD", "TS", "AS", "AC", "KS"]
    m = start(
        p,
        deck(p, ["KH", "QH", "JD", "JC", "JS"], "9D"),
        deck(p, ["QD", "QC", "QS", "TD", "TC"], "9C"),
        "AH",
        talon,
    )
    play(m, ["play:JD", "play:QD", "play:QC", "play:JC", "play:QS", "play:JS"])
    if big(p):
        play(m, ["play:9C", "play:9D"])
    play(m, ["play:TD", "play:KC", "play:TC", "play:AC"])
    assert m.deal.exhausted and m.deal.to_act == N
    assert m.deal.card_points[N] == 21
    return m


@pytest.mark.parametrize("p", ALL)
def test_case_14_marriage_after_exhaustion(p: str) -> None:
    # §4.14: a leader holding trump K+Q after exhaustion may declare 40 in HU24, KLUB20, SZLI20,
    # AT20 and DE24, not in PL24, RO24, RO20 (there the K or Q is led as an ordinary card).
    m = exhausted_with_trump_pair(p)
    n_hand = deck(p, ["KH", "QH", "KD", "TS", "KS"], "9S")
    assert hand(m, N) == sorted(n_hand)
    if p in MARRIAGE_AFTER_EXHAUSTION:
        assert legal(m) == lead_options(p, n_hand, marry=("H",), claim=True)
        play(m, ["marry:H"])
        assert m.deal.marriage_points[N] == 40 and m.deal.total(N) == 61
        assert m.deal.result is None
        assert legal(m) == sorted(["play:KH", "play:QH"] + (["resign"] if p == AUTO else ["claim"]))
    else:
        assert legal(m) == lead_options(p, n_hand, claim=True)
        assert "play:KH" in legal(m) and "play:QH" in legal(m)
        illegal(m, N, "marry:H")
        play(m, ["play:QH"])
        assert m.deal.marriage_points[N] == 0 and m.deal.marriages == ()


@pytest.mark.parametrize("variant", ["declare_after_close_next_trick", "declare_then_close", "close_then_declare"])
@pytest.mark.parametrize("p", ALL)
def test_case_15_marriage_after_closing(p: str, variant: str) -> None:
    # §4.15: the closer declares 20 on the trick after closing: legal in HU24, KLUB20, SZLI20, AT20,
    # DE24; illegal in PL24, RO24, RO20. Declaring *before* closing at the same lead is legal
    # everywhere (and the lead must still be the K or Q); closing first, then declaring at the same
    # lead, follows marriage_after_close.
    n_hand = deck(p, ["KS", "QS", "AD", "JC", "TC"], "9C")
    m = start(p, n_hand, deck(p, ["JD", "AC", "QC", "JS", "AS"], "9D"), "TH")
    allowed = p in MARRIAGE_AFTER_CLOSE
    marry = ("S",) if allowed else ()
    if variant == "declare_then_close":
        play(m, ["marry:S", "close"])
        assert m.deal.closed_by == N
        # A declarer may claim right after declaring (manual presets), whatever comes between.
        assert legal(m) == sorted(["play:KS", "play:QS"] + (["resign"] if p == AUTO else ["claim"]))
        illegal(m, N, "play:AD")
        play(m, ["play:QS"])
        assert m.deal.lead == parse_card("QS")
        return
    play(m, ["close"])
    assert legal(m) == lead_options(p, n_hand, marry=marry)
    if variant == "close_then_declare":
        if allowed:
            play(m, ["marry:S"])
            assert [s for s, _, _ in m.deal.marriages] == [N]
        else:
            illegal(m, N, "marry:S")
        return
    play(m, ["play:AD"])
    assert legal(m) == answer_options(p, deck(p, ["JD"], "9D"))  # strict: follow suit
    play(m, ["play:JD"])
    assert m.deal.last_winner == N
    rest = deck(p, ["KS", "QS", "JC", "TC"], "9C")
    assert legal(m) == lead_options(p, rest, marry=marry, claim=True)
    if allowed:
        play(m, ["marry:S"])
        assert m.deal.marriage_points[N] == 20  # N holds a trick: credited under every preset's rule
    else:
        illegal(m, N, "marry:S")


@pytest.mark.parametrize("p", ALL)
def test_case_16_once_per_suit_after_declaring(p: str) -> None:
    # §4.16: after declaring the ♥ marriage and leading the Q, the player keeps the K; the pair can
    # never re-form.
    n_hand = deck(p, ["KH", "QH", "AD", "JC", "JS"], "9S")
    m = start(p, n_hand, deck(p, ["JD", "QC", "AS", "TS", "AC"], "9D"), "TH", ["KD", "QD"])
    assert legal(m) == lead_options(p, n_hand, close=True, marry=("H",))
    play(m, ["marry:H", "play:QH", "play:JD"])
    assert m.deal.last_winner == N
    # KH is now an ordinary card (playable directly, even in KLUB20); no marry:H any more.
    assert legal(m) == lead_options(p, deck(p, ["KH", "AD", "JC", "JS", "KD"], "9S"), close=True, claim=True)
    illegal(m, N, "marry:H")


@pytest.mark.parametrize("p", ALL)
def test_case_16_once_per_suit_led_without_declaring(p: str) -> None:
    # §4.16: a K or Q led *without* declaring (not possible in KLUB20) also ends that suit's marriage.
    n_hand = deck(p, ["KS", "QS", "AD", "JC", "TC"], "9C")
    m = start(p, n_hand, deck(p, ["JD", "QC", "AC", "AS", "TD"], "9D"), "TH", ["KD", "JS"])
    assert legal(m) == lead_options(p, n_hand, close=True, marry=("S",))
    if p == AUTO:
        assert "play:KS" not in legal(m)
        illegal(m, N, "play:KS")
        return
    play(m, ["play:KS", "play:JD"])
    assert m.deal.last_winner == N and m.deal.marriages == ()
    assert legal(m) == lead_options(p, deck(p, ["QS", "AD", "JC", "TC", "KD"], "9C"), close=True, claim=True)
    illegal(m, N, "marry:S")


# --------------------------------------------------------------------------- cases 17–22: responses


@pytest.mark.parametrize("p", ALL)
def test_case_17_open_phase_freedom(p: str) -> None:
    # §4.17: at trick 2 the responder holds ♥A, ♥J and a trump; ♥10 is led. Any card is legal,
    # including ♥J or a discard of another suit. (Trump: spades.)
    m = start(
        p,
        deck(p, ["JD", "TH", "TC", "JC", "TD"], "9C"),
        deck(p, ["AH", "JH", "KS", "QC", "QD"], "9D"),
        "AS",
        ["KD", "KC"],
    )
    play(m, ["play:JD", "play:QC"])  # N wins trick 1 and leads trick 2
    play(m, ["play:TH"])
    assert legal(m, D) == answer_options(p, deck(p, ["AH", "JH", "KS", "QD", "KC"], "9D"))
    play(m, ["play:JH"])  # following low is fine
    assert m.deal.last_winner == N


@pytest.mark.parametrize("p", ["RO24", "RO20"])
def test_case_18_literal_s4_must_win_toggle(p: str) -> None:
    # §4.18: with open_rule = must_win, against a ♥K lead a responder holding ♥A, the lowest trump and
    # ♣10 may play only ♥A or that trump; with only ♥J, ♣10, ♣Q (nothing that beats) any card.
    # Trump: diamonds (AD up).
    lo = low(p, "D")
    n_hand = deck(p, ["KH", "AS", "TS", "JC", "KC"], "9C")
    beats = deck(p, ["AH", lo, "TC", "QC", "JS"], "9S")
    m = start(p, n_hand, beats, "AD", open_rule="must_win")
    play(m, ["play:KH"])
    assert legal(m, D) == answer_options(p, ["AH", lo])
    # Control: the preset itself (open_rule = free) allows every card here.
    m = start(p, n_hand, beats, "AD")
    play(m, ["play:KH"])
    assert legal(m, D) == answer_options(p, beats)
    # Nothing that beats ♥K: any card, with no duty to follow suit low.
    cannot = deck(p, ["JH", "TC", "QC", "JS", "QS"], "9S")
    m = start(p, n_hand, cannot, "AD", open_rule="must_win")
    play(m, ["play:KH"])
    assert legal(m, D) == answer_options(p, cannot)
    # The toggle changes the open phase only: after closing, legal_strict (follow suit low).
    low_heart = deck(p, ["QH", "TC", "QC", "JS", "QS"], "9S")
    m = start(p, n_hand, low_heart, "AD", open_rule="must_win")
    play(m, ["close", "play:KH"])
    assert legal(m, D) == answer_options(p, ["QH"])


# Cases 19–22 in the closed phase: either N closes at the first lead (explicit hands below) or the
# talon is exhausted (first_exhausted_lead: D holds JC, JH, AD, TD, AH (+9D)).
STRICT_CLOSED: dict[str, tuple[list[str], list[str], str, str, list[str]]] = {
    # name: (N hand (20 cards), D hand (20 cards), trump card, N's lead, D's legal cards)
    "19_follow_not_trump": (
        ["KC", "AD", "TD", "KS", "JS"],
        ["JC", "AH", "TH", "QD", "QS"],
        "QH",
        "KC",
        ["JC"],
    ),
    "20_head_the_trick": (
        ["KC", "AD", "TD", "KS", "JS"],
        ["AC", "JC", "TH", "QD", "QS"],
        "QH",
        "KC",
        ["AC"],
    ),
    "20_any_higher_card": (
        ["KC", "AD", "TD", "KS", "JS"],
        ["AC", "TC", "TH", "QD", "QS"],
        "QH",
        "KC",
        ["AC", "TC"],
    ),
    "21_trump_lead_head": (
        ["QH", "AD", "TD", "KS", "JS"],
        ["JH", "AH", "QD", "QC", "QS"],
        "KH",
        "QH",
        ["AH"],
    ),
    "21_trump_lead_only_lower_trump": (
        ["QH", "AD", "TD", "KS", "JS"],
        ["JH", "AC", "QD", "QC", "QS"],
        "KH",
        "QH",
        ["JH"],
    ),
    "21_trump_lead_no_trumps": (
        ["QH", "AD", "TD", "KS", "JS"],
        ["AC", "TC", "QD", "QC", "QS"],
        "KH",
        "QH",
        ["AC", "TC", "QD", "QC", "QS", "9S"],
    ),
    "22_void_must_trump": (
        ["KS", "AD", "TD", "JS", "TS"],
        ["AH", "JH", "AC", "QD", "QC"],
        "KH",
        "KS",
        ["AH", "JH"],
    ),
    "22_void_no_trumps": (
        ["KS", "AD", "TD", "JS", "TS"],
        ["AC", "TC", "QD", "QC", "JD"],
        "KH",
        "KS",
        ["AC", "TC", "QD", "QC", "JD", "9C"],
    ),
}
# 24-card presets: one more card each; it never changes the answer (N: 9D; D: 9S or 9C, see above).
D_EXTRA = {name: ("9C" if name.startswith("22") else "9S") for name in STRICT_CLOSED}


def closed_answer(p: str, name: str) -> None:
    n20, d20, trump, lead, expected = STRICT_CLOSED[name]
    m = start(p, deck(p, n20, "9D"), deck(p, d20, D_EXTRA[name]), trump)
    play(m, ["close", f"play:{lead}"])
    assert m.deal.closed_by == N
    expected = [c for c in expected if c in deck(p, d20, D_EXTRA[name])]
    assert legal(m, D) == answer_options(p, expected)
    play(m, [f"play:{expected[0]}"])  # and the expected card is accepted
    assert m.deal.lead == -1


def exhausted_answer(p: str, lead: str, expected: list[str]) -> None:
    m = first_exhausted_lead(p)
    play(m, [f"play:{lead}"])
    assert legal(m, D) == answer_options(p, expected)


@pytest.mark.parametrize("phase", ["closed", "exhausted"])
@pytest.mark.parametrize("p", ALL)
def test_case_19_strict_follow_before_trumping(p: str, phase: str) -> None:
    # §4.19: closed phase, ♣K led, the responder holds ♣J and trumps: they MUST play ♣J.
    if phase == "closed":
        closed_answer(p, "19_follow_not_trump")
    else:
        exhausted_answer(p, "KC", ["JC"])


@pytest.mark.parametrize("phase", ["closed_A_J", "closed_A_10", "exhausted_A_10"])
@pytest.mark.parametrize("p", ALL)
def test_case_20_strict_head_the_trick(p: str, phase: str) -> None:
    # §4.20: ♣K led; holding ♣A and ♣J the responder MUST play ♣A; holding ♣A and ♣10 either is
    # legal (any higher card, not necessarily the highest).
    if phase == "closed_A_J":
        closed_answer(p, "20_head_the_trick")
    elif phase == "closed_A_10":
        closed_answer(p, "20_any_higher_card")
    else:
        exhausted_answer(p, "KD", ["AD", "TD"])  # ♦K led against ♦A, ♦10, ♦9


@pytest.mark.parametrize("phase", ["closed_J_A", "closed_J_only", "closed_no_trumps", "exhausted_J_A"])
@pytest.mark.parametrize("p", ALL)
def test_case_21_strict_trump_lead(p: str, phase: str) -> None:
    # §4.21: a trump Q is led; holding trump J and trump A the responder MUST play the A; with only
    # the trump J they MUST play it; with no trumps, any card.
    if phase == "closed_J_A":
        closed_answer(p, "21_trump_lead_head")
    elif phase == "closed_J_only":
        closed_answer(p, "21_trump_lead_only_lower_trump")
    elif phase == "closed_no_trumps":
        closed_answer(p, "21_trump_lead_no_trumps")
    else:
        exhausted_answer(p, "QH", ["AH"])


@pytest.mark.parametrize("phase", ["closed_trumps", "closed_no_trumps", "exhausted_trumps"])
@pytest.mark.parametrize("p", ALL)
def test_case_22_strict_void_in_led_suit(p: str, phase: str) -> None:
    # §4.22: no card of the led suit but trumps in hand: MUST play a trump, any trump. With no
    # trumps, any card.
    if phase == "closed_trumps":
        closed_answer(p, "22_void_must_trump")
    elif phase == "closed_no_trumps":
        closed_answer(p, "22_void_no_trumps")
    else:
        exhausted_answer(p, "KS", ["AH", "JH"])  # ♠K led; D has no spade, trumps AH and JH
