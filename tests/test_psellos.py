"""The psellos player (Tompa's published strategy): legal, blind to hidden cards, and playing the strategy's moves.

Scenario conventions as in the edge-case tests: ``dealer_seat=0``, so seat 1
(the non-dealer) leads the first trick; hands, trump card and talon order are
explicit (:mod:`tests.scenario`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from lab import arena
from lab.fuzz import random_action
from lab.psellos import decide, level_named, psellos_action
from py_engine.ai import player
from py_engine.ai.heuristic import heuristic_action
from py_engine.ai.player import match_utility, seat_to_decide
from py_engine.core.actions import CLAIM, NEXT, RESIGN, action_name
from py_engine.core.deal import Deal
from py_engine.core.errors import UnknownLevelError
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.service.match import Match

from .scenario import play, start

N, D = 1, 0  # non-dealer (first leader) and dealer

Bot = Callable[[Deal, int, random.Random], int]


def _random_bot(deal: Deal, seat: int, rng: random.Random) -> int:
    return random_action(deal.legal_actions(seat), rng)


OPPONENTS: dict[str, Bot] = {"random": _random_bot, "heuristic": heuristic_action, "psellos": psellos_action}


def choice(match: Match, seat: int | None = None) -> str:
    """The psellos player's action for ``seat`` (default: the seat on turn), as text."""
    s = match.deal.to_act if seat is None else seat
    return action_name(psellos_action(match.deal, s, random.Random(0)))


# ------------------------------------------------------------- legal and exact


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@pytest.mark.parametrize("opponent", sorted(OPPONENTS))
def test_it_plays_only_legal_actions_claims_every_valid_66_and_never_a_wrong_one(preset_id: str, opponent: str) -> None:
    rules = PRESETS[preset_id]
    other = OPPONENTS[opponent]
    seen: set[str] = set()
    for game in range(25):
        rng = random.Random(game)
        match = Match(rules, 1000 + game)
        ours = game % 2
        while not match.finished:
            deal = match.deal
            if deal.over:
                match.act(0, NEXT)
                ours = 1 - ours
                continue
            seat = seat_to_decide(deal)
            if seat == ours:
                action = psellos_action(deal, seat, rng)
                assert action in deal.legal_actions(seat), (preset_id, game, action_name(action))
                assert action != RESIGN
                if deal.windows >> seat & 1 and deal.claim_is_valid(seat):
                    assert action == CLAIM  # a valid 66 is always claimed at once
                if action == CLAIM:
                    assert deal.claim_is_valid(seat)  # and never a wrong one
                seen.add(action_name(action).split(":")[0])
            else:
                action = other(deal, seat, rng)
            match.act(seat, action)
    assert {"play", "marry"} <= seen
    if rules.claim_mode == "manual":
        assert "claim" in seen


def positions(preset_id: str, seed: int, count: int) -> list[Deal]:
    """Positions from play between the heuristic and random, each with a decision for the seat on turn."""
    rng = random.Random(seed)
    match = Match(PRESETS[preset_id], seed, single_deal=True)
    found: list[Deal] = []
    while len(found) < count:
        deal = match.deal
        if deal.over:
            match = Match(PRESETS[preset_id], rng.randrange(10**6), single_deal=True)
            continue
        seat = deal.to_act
        if len(deal.legal_actions(seat)) > 1 and rng.random() < 0.4:
            found.append(deal.clone())
        bot = heuristic_action if rng.random() < 0.5 else _random_bot
        match.act(seat, bot(deal, seat, rng))
    return found


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_it_never_looks_at_the_opponents_hand_or_the_talon(preset_id: str) -> None:
    """Redeal the cards the seat has not seen, consistently with what it knows: the decision stays."""
    rng = random.Random(3)
    changed = 0
    for deal in positions(preset_id, 11, 60):
        seat = deal.to_act
        expected = psellos_action(deal, seat, random.Random(0))
        knowledge = deal.info_state(seat)
        for _ in range(4):
            world = deal.resample(knowledge, rng)
            changed += world.hands[1 - seat] != deal.hands[1 - seat] or world.talon != deal.talon
            assert psellos_action(world, seat, random.Random(1)) == expected, action_name(expected)
    assert changed  # the worlds did differ in the hidden cards


def test_the_hidden_cards_differ_yet_the_first_lead_is_the_same() -> None:
    """Two deals that differ only in the dealer's hand and the talon: the leader sees the same and plays the same."""
    leader = ["JD", "AS", "TC", "KC", "KH"]
    a = start("AT20", leader, ["JH", "QS", "KS", "TD", "JS"], "AC", ["QH", "AH"])
    b = start("AT20", leader, ["QH", "AH", "TH", "AD", "QC"], "AC", ["JS", "JH"])
    assert a.deal.hands[D] != b.deal.hands[D]
    assert choice(a) == choice(b) == "play:JD"


def test_it_is_deterministic_and_ignores_its_random_numbers() -> None:
    for deal in positions("HU24", 5, 30):
        seat = deal.to_act
        assert len({psellos_action(deal, seat, random.Random(k)) for k in range(3)}) == 1


def test_it_refuses_to_decide_for_a_seat_with_nothing_to_decide() -> None:
    match = start("AT20", ["JD", "AS", "TC", "KC", "KH"], ["JH", "QS", "KS", "TD", "JS"], "AC")
    with pytest.raises(ValueError):
        psellos_action(match.deal, D, random.Random(0))


# ------------------------------------------------------- the strategy's moves


def test_it_exchanges_the_lowest_trump_at_the_first_chance() -> None:
    """ "Marriages and the trump exchange": exchange as soon as the rules allow."""
    match = start("AT20", ["JC", "QD", "KH", "TH", "AS"], ["JH", "QS", "KS", "TD", "AD"], "AC")
    assert choice(match) == "exchange"
    six = start("HU24", ["9C", "QD", "KH", "TH", "JS", "QS"], ["JH", "9S", "KS", "TD", "AD", "9H"], "AC")
    assert choice(six) != "exchange"  # HU24 allows no exchange before the first trick
    play(six, ["play:QD", "play:TD"])  # the dealer wins and leads; then the non-dealer wins a trick
    play(six, ["play:9H", "play:TH"])
    assert six.deal.to_act == N
    assert choice(six) == "exchange"  # the 24-card lowest trump, the 9, at the first lead it may


def test_it_shows_a_marriage_at_once_and_leads_the_queen_unless_the_king_wins_for_sure() -> None:
    match = start("AT20", ["KH", "QH", "JD", "TS", "AD"], ["JH", "QS", "KS", "TD", "JS"], "QC")
    assert choice(match) == "marry:H"
    play(match, ["marry:H"])
    assert choice(match) == "play:QH"  # the ace and ten of hearts are out: the king may lose


def test_on_lead_with_the_stock_open_it_leads_a_small_non_trump_card() -> None:
    """ "You lead, the stock is open": no trump, a non-trump jack before a king that may still marry."""
    match = start("AT20", ["KH", "AS", "TC", "KC", "JD"], ["JH", "QS", "KS", "TD", "JS"], "AC")
    assert choice(match) == "play:JD"


def test_trump_control_leads_an_ace_or_ten_while_the_opponent_likely_holds_more_trumps() -> None:
    """ "Trump control": with no trump, lead the ten under the ace held (the lower of equivalent cards)."""
    match = start("AT20", ["JD", "AS", "TS", "KH", "QD"], ["JH", "QS", "KS", "TD", "JS"], "AC")
    assert choice(match) == "play:TS"


def test_answering_it_wins_a_non_trump_lead_with_the_ten() -> None:
    """ "The opponent leads, the stock is open": win by following suit, with the ten if possible."""
    match = start("AT20", ["JH", "AH", "QC", "KC", "JC"], ["TH", "KH", "JS", "QD", "AD"], "KS")
    play(match, ["play:JH"])
    assert choice(match) == "play:TH"


def test_answering_it_wins_with_the_higher_of_equivalent_cards_and_keeps_a_marriage() -> None:
    match = start("AT20", ["JH", "QC", "KC", "JC", "TS"], ["TH", "AH", "KD", "QD", "AS"], "KS")
    play(match, ["play:JH"])
    assert choice(match) == "play:AH"  # ace and ten are equivalent: take with the ace
    keep = start("AT20", ["JD", "QC", "KC", "JC", "TS"], ["KD", "QD", "JH", "QH", "AS"], "KS")
    play(keep, ["play:JD"])
    assert choice(keep) not in ("play:KD", "play:QD")  # winning would break the diamond marriage


def test_answering_it_trumps_a_non_trump_ace() -> None:
    match = start("AT20", ["AD", "AH", "QC", "KC", "JC"], ["QS", "JS", "KH", "TC", "JH"], "KS")
    play(match, ["play:AD"])
    assert choice(match) == "play:QS"  # the jack is kept for the exchange of the face-up king


def test_answering_a_trump_lead_it_throws_a_jack_but_not_the_one_guarding_a_ten() -> None:
    match = start("AT20", ["JS", "AH", "QC", "KC", "JC"], ["TH", "JH", "QD", "AC", "JD"], "KS")
    play(match, ["play:JS"])
    assert choice(match) == "play:JD"


def test_it_closes_the_stock_when_its_sure_winners_and_marriage_reach_66() -> None:
    """ "Closing the stock": then show the trump marriage and lead the king, which wins for sure."""
    match = start("AT20", ["AH", "TH", "KH", "QH", "AS"], ["JS", "QS", "KD", "TD", "JD"], "JH")
    assert choice(match) == "close"
    play(match, ["close"])
    assert choice(match) == "marry:H"
    play(match, ["marry:H"])
    assert choice(match) == "play:KH"


def test_it_keeps_the_stock_open_without_66_in_sight() -> None:
    match = start("AT20", ["AC", "TC", "JD", "QS", "KH"], ["QC", "JS", "KS", "TD", "AD"], "KC")
    assert choice(match) != "close"


def test_with_the_stock_closed_and_the_control_of_trumps_it_draws_trumps() -> None:
    """ "The stock is no longer open": lead the lower of the two top trumps."""
    match = start("AT20", ["AC", "TC", "JD", "QS", "KH"], ["QC", "JS", "KS", "TD", "AD"], "KC")
    play(match, ["close"])
    assert choice(match) == "play:TC"


def test_with_the_stock_closed_it_draws_trumps_before_a_marriage_whose_king_then_wins() -> None:
    match = start("AT20", ["AC", "TC", "KD", "QD", "AD"], ["TD", "KC", "JH", "JS", "QH"], "JC")
    play(match, ["close", "play:AD", "play:TD"])
    assert choice(match) == "play:TC"


def test_it_cashes_a_sure_winner_first_when_the_marriage_then_reaches_66() -> None:
    """ "Marriages and the trump exchange": at 42 points, the trump ace first, the marriage at the next lead.

    On RO20 (no marriage after closing); on AT20 the same position is a close,
    since the ace and the marriage then reach 66 with the opponent frozen.
    """
    hands = (["AH", "AS", "KD", "QD", "AC"], ["TH", "TS", "KH", "KS", "JS"], "JC", ["JH", "QH", "JD", "QS"])
    moves = ["play:AH", "play:TH", "play:AS", "play:TS"]
    match = start("RO20", *hands)
    play(match, moves)
    assert match.deal.total(N) == 42
    assert choice(match) == "play:AC"
    play(match, ["play:AC", "play:JS"])
    assert choice(match) == "marry:D"
    play(match, ["marry:D"])
    assert choice(match) == "claim"
    austrian = start("AT20", *hands)
    play(austrian, moves)
    assert choice(austrian) == "close"


def test_it_takes_the_trick_that_would_bring_the_opponent_to_66() -> None:
    """Counting: at 63 points the opponent leads a jack; throwing a small card would give it 67."""
    hands = (["AH", "AS", "AD", "JH", "KD"], ["TH", "TS", "TD", "QC", "JS"], "JC", ["JD", "KS", "AC", "QS", "TC", "QD"])
    match = start("AT20", *hands)
    play(match, ["play:AH", "play:TH", "play:AS", "play:TS", "play:AD", "play:TD"])
    assert match.deal.total(N) == 63
    play(match, ["play:JH"])
    assert choice(match) == "play:QC"  # not the jack of spades it would throw otherwise


# ------------------------------------------------------------- as a level


def test_it_is_a_level_of_the_arena_but_not_of_the_page() -> None:
    level = level_named("psellos")
    assert level.kind == "psellos"
    with pytest.raises(UnknownLevelError):
        player.level_named("psellos")
    match = start("AT20", ["JD", "AS", "TC", "KC", "KH"], ["JH", "QS", "KS", "TD", "JS"], "AC")
    utility = match_utility(N, match.scores, match.rules.match_target, match.carry)
    assert action_name(decide(match.deal, N, level, random.Random(0), utility).action) == "play:JD"


def test_the_arena_plays_it_against_the_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--a", "heuristic", "--b", "psellos", "--pairs", "2", "--procs", "1"]) == 0
    assert "A=heuristic vs B=psellos, 2 pairs" in capsys.readouterr().out
