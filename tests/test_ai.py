"""The computer player: hidden information stays hidden, claims are exact, search is reproducible."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from lab.fuzz import random_action
from py_engine.ai import ismcts
from py_engine.ai.config import DEFAULT_CONFIG, DEFAULTS, SearchConfig, parse_setting
from py_engine.ai.heuristic import claim_choice, rollout_action
from py_engine.ai.ismcts import Utility, known_exactly, search
from py_engine.ai.player import (
    BROWSER_ITERATIONS,
    LEVELS,
    READING_ITERATIONS,
    TOP_CONFIG,
    TOP_CONFIG_24,
    decide,
    imprecise_decision,
    level_named,
)
from py_engine.ai.solver import solve
from py_engine.core.actions import CLAIM, EXCHANGE, NEXT, PASS, parse_action
from py_engine.core.cards import cards_of
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.service.match import Match

from .scenario import record_reads, record_searches, start


def positions(preset_id: str, seed: int, count: int) -> list[Deal]:
    """Positions from random play, each with a decision for the seat on turn."""
    rng = random.Random(seed)
    match = Match(PRESETS[preset_id], seed)
    found = []
    while len(found) < count:
        deal = match.deal
        if deal.over:
            if match.finished:
                match = Match(PRESETS[preset_id], rng.randrange(10**6))
            else:
                match.act(0, NEXT)
            continue
        if claim_choice(deal) is None and len(deal.legal_actions()) > 1 and rng.random() < 0.3:
            found.append(deal.clone())
        seat = deal.to_act
        match.act(seat, random_action(match.legal(seat), rng))
    return found


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "DE24", "PL24"])
def test_determinize_keeps_what_the_seat_knows(preset_id: str) -> None:
    rng = random.Random(5)
    for deal in positions(preset_id, 1, 40):
        seat = deal.to_act
        knowledge = deal.info_state(seat)
        for _ in range(5):
            world = deal.resample(knowledge, rng)
            other = 1 - seat
            assert world.hands[seat] == deal.hands[seat]
            assert world.hands[other].bit_count() == deal.hands[other].bit_count()
            assert len(world.talon) - world.talon_pos == deal.face_down_left
            assert world.hands[other] & knowledge.opponent_known == knowledge.opponent_known
            assert not world.hands[other] & knowledge.opponent_cannot_hold
            # the real hand is one of the consistent worlds
            assert not deal.hands[other] & knowledge.opponent_cannot_hold
            if deal.exhausted:
                assert world.hands[other] == deal.hands[other]


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "DE24"])
def test_decisions_do_not_depend_on_hidden_cards(preset_id: str) -> None:
    """Swap the unseen cards for another consistent deal: the decision must be identical."""
    rng = random.Random(9)
    for deal in positions(preset_id, 2, 12):
        seat = deal.to_act
        other_world = deal.resample(deal.info_state(seat), rng)
        utility = Utility(seat)
        for level in ("1", "2"):
            a = decide(deal, seat, level_named(level), random.Random(4), utility, iterations=40)
            b = decide(other_world, seat, level_named(level), random.Random(4), utility, iterations=40)
            assert a.action == b.action
            assert a.ranking == b.ranking


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_ai_claims_exactly_when_valid(preset_id: str) -> None:
    rng = random.Random(3)
    match = Match(PRESETS[preset_id], 3)
    levels = (level_named("1"), level_named("2"))
    for _ in range(300):
        if match.finished:
            break
        deal = match.deal
        if deal.over:
            match.act(0, NEXT)
            continue
        for seat in (0, 1):
            if deal.windows >> seat & 1 and deal.claim_is_valid(seat):
                decision = decide(deal, seat, levels[seat], rng, Utility(seat), iterations=20)
                assert decision.action == CLAIM
        seat = deal.to_act
        decision = decide(deal, seat, levels[seat], rng, Utility(seat), iterations=20)
        assert decision.action in deal.legal_actions(seat)
        if decision.action == CLAIM:
            assert deal.claim_is_valid(seat)
        if deal.final_order and not deal.claim_is_valid(seat):
            assert decision.action == PASS
        match.act(seat, decision.action)


def test_search_is_reproducible_and_bounded_by_iterations() -> None:
    deal = positions("AT20", 4, 1)[0]
    seat = deal.to_act
    first = search(deal, seat, random.Random(1), Utility(seat), iterations=120)
    second = search(deal, seat, random.Random(1), Utility(seat), iterations=120)
    assert first.iterations == 120
    assert first.ranking == second.ranking
    assert sum(visits for _, _, visits in first.ranking) == 120
    legal = set(deal.legal_actions(seat))
    assert {a for a, _, _ in first.ranking} <= legal


def test_top_level_without_a_clock_searches_what_the_browser_budget_buys() -> None:
    top = level_named("5")
    assert top.iterations_for(20, clock=False) == BROWSER_ITERATIONS[0]
    assert top.iterations_for(24, clock=False) == BROWSER_ITERATIONS[1]
    assert top.iterations_for(20, clock=True) == top.iterations  # the clock, not the count, ends it then
    assert top.reading_iterations_for(20, clock=False) == READING_ITERATIONS[0]  # reading leaves fewer
    assert top.reading_iterations_for(20, clock=True) is None
    assert level_named("4").iterations_for(24, clock=False) == level_named("4").iterations
    # A decision's count without the clock: the test of what its trust buys in the browser, below.


def _played_a_little(preset_id: str) -> Deal:
    """A game's deal after six random moves: some play to read (a game's deal keeps its event log)."""
    rng = random.Random(3)
    match = Match(PRESETS[preset_id], 3)
    for _ in range(6):
        seat = match.deal.to_act
        match.act(seat, random_action(match.legal(seat), rng))
    assert match.deal.result is None and not known_exactly(match.deal)
    return match.deal


def test_the_top_level_reads_the_opponents_play_and_the_others_do_not(monkeypatch: pytest.MonkeyPatch) -> None:
    read = record_reads(monkeypatch)
    deal = _played_a_little("AT20")
    seat = deal.to_act
    decide(deal, seat, level_named("5"), random.Random(1), Utility(seat), iterations=40)
    assert read == [(True, 10.0)]  # it read the story, and searched with the prior for the opponent
    decide(deal, seat, level_named("4"), random.Random(1), Utility(seat), iterations=40)
    assert len(read) == 1  # level 4 does not read
    plain = level_named("5").config_for(20).with_settings(("READ_PLAY=0",))
    decide(deal, seat, level_named("5"), random.Random(1), Utility(seat), iterations=40, config=plain)
    assert len(read) == 1  # a decision's own config replaces its level's


@pytest.mark.parametrize(("preset", "learned"), [("AT20", 0.0), ("KLUB20", 0.0), ("HU24", 1.0), ("DE24", 1.0)])
def test_the_top_level_searches_with_the_learned_value_on_24_cards_only(
    monkeypatch: pytest.MonkeyPatch, preset: str, learned: float
) -> None:
    searched = record_searches(monkeypatch, iterations=20, reading_iterations=20)
    deal = _played_a_little(preset)
    decide(deal, deal.to_act, level_named("5"), random.Random(1), Utility(deal.to_act), clock=False)
    assert [s.options["config"].leaf_value for s in searched] == [learned]
    decide(deal, deal.to_act, level_named("4"), random.Random(1), Utility(deal.to_act), clock=False)
    assert searched[-1].options["config"].leaf_value == 0.0  # the other levels play out every world


@pytest.mark.parametrize(("lead", "trusted"), [("JS", True), ("AC", False)])
def test_the_top_level_without_a_clock_searches_what_its_trust_buys_in_the_browser(
    monkeypatch: pytest.MonkeyPatch, lead: str, trusted: bool
) -> None:
    # HU24, hearts trump: the opponent (seat 1) leads from JS QS KH TC AC AS, the jack as the rule of
    # thumb would, or the ace of clubs, which it would almost never lead in the open phase.
    match = start(
        "HU24", ["JS", "QS", "KH", "TC", "AC", "AS"], ["AD", "TD", "KD", "QD", "JD", "9D"], "AH", dealer_seat=0
    )
    match.act(1, parse_action(f"play:{lead}"))
    reads: list[tuple[float, float]] = []
    real = ismcts.read_worlds

    def recording(deal: Deal, seat: int, rng: random.Random, config: SearchConfig) -> Any:
        read = real(deal, seat, rng, config)
        reads.append((read.sharp_share, config.read_trust))  # the level's threshold, in its decision
        return read

    monkeypatch.setattr(ismcts, "read_worlds", recording)
    decision = decide(match.deal, 0, level_named("5"), random.Random(1), Utility(0), clock=False)
    [(share, trust)] = reads
    assert trust > 0 and (share >= trust) == trusted
    expected = READING_ITERATIONS[1] if trusted else BROWSER_ITERATIONS[1]
    assert decision.stats["iterations"] == expected


def _minimax(deal: Deal, seat: int, utility: Utility) -> float:
    """Plain minimax, no pruning and no table: the reference for the solver."""
    while deal.result is None and (claim := claim_choice(deal)) is not None:
        deal = deal.clone()
        deal.apply(claim[1], claim[0])
    if deal.result is not None:
        return utility(deal.result)
    values = []
    for action in deal.legal_actions():
        if action >= CLAIM:
            continue
        child = deal.clone()
        child.apply(action)
        values.append(_minimax(child, seat, utility))
    return max(values) if deal.to_act == seat else min(values)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_solver_matches_plain_minimax(preset_id: str) -> None:
    """The solver plays whole tricks on integers: it must agree with minimax over ``Deal`` on every preset.

    Positions include a card on the table and a marriage just declared; one
    table is shared by all positions of a seat and utility, as a search shares it.
    """
    checked = 0
    tables: dict[tuple[int, int], dict[object, object]] = {}
    for deal in positions(preset_id, 6, 300):
        if not deal.strict or (deal.hands[0] | deal.hands[1]).bit_count() > 8:
            continue
        for utility in (Utility(deal.to_act, (5, 3), 1), Utility(1 - deal.to_act, (1, 7), 0)):
            table = tables.setdefault((utility.seat, utility.needs[0]), {})
            assert solve(deal, utility.seat, utility, table) == pytest.approx(_minimax(deal, utility.seat, utility))
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_rollout_policy_plays_legal_actions(preset_id: str) -> None:
    rng = random.Random(11)
    for deal in positions(preset_id, 12, 60):
        for _ in range(3):
            world = deal.resample(deal.info_state(deal.to_act), rng)
            while world.result is None:
                claim = claim_choice(world)
                if claim is not None:
                    world.apply(claim[1], claim[0])
                    continue
                action = rollout_action(world, rng, DEFAULT_CONFIG.rollout_random, False)
                assert action in world.legal_actions()
                assert action not in (CLAIM, PASS)
                world.apply(action)


def test_knowledge_uses_revealed_voids() -> None:
    """After the opponent fails to follow in the strict phase, worlds never give it that suit."""
    for deal in positions("AT20", 8, 300):
        if deal.strict_from < 0:
            continue
        seat = deal.to_act
        knowledge = deal.info_state(seat)
        for leader, lead, resp, _ in deal.history[deal.strict_from :]:
            if leader == seat and resp // 6 != lead // 6:
                suit_cards = {c for c in cards_of(knowledge.unseen) if c // 6 == lead // 6}
                assert suit_cards <= set(cards_of(knowledge.opponent_cannot_hold))
                return
    pytest.fail("no position with a revealed void was found")


def test_search_constants_are_set_by_name_with_their_own_types() -> None:
    assert parse_setting("PRIOR_WEIGHT=1.5") == ("PRIOR_WEIGHT", 1.5)
    assert parse_setting("SOLVE_CARDS=10") == ("SOLVE_CARDS", 10)
    assert parse_setting("READ_PLAY=true") == ("READ_PLAY", True)
    for bad, says in (
        ("PRIOR_WEIGHT", "expected NAME=VALUE"),
        ("NO_SUCH=1", "expected NAME=VALUE"),
        ("SOLVE_CARDS=ten", "SOLVE_CARDS is a int, not 'ten'"),
        ("READ_PLAY=maybe", "READ_PLAY is true or false (1 or 0), not 'maybe'"),
    ):
        with pytest.raises(ValueError, match=re.escape(says)):
            parse_setting(bad)
    changed = DEFAULT_CONFIG.with_settings(("EXPLORATION=0.5", "READ_PLAY=1", "EXPLORATION=0.25"))
    assert (changed.exploration, changed.read_play) == (0.25, True)  # in turn: the last of a name wins
    assert (DEFAULT_CONFIG.exploration, DEFAULT_CONFIG.read_play) == (0.7, False)  # a copy: the default stays
    assert changed.settings()["EXPLORATION"] == 0.25
    assert DEFAULT_CONFIG.with_settings(()) == SearchConfig()
    with pytest.raises(ValueError, match="READ_PLAY is true or false"):
        DEFAULT_CONFIG.with_settings(("EXPLORATION=0.5", "READ_PLAY=maybe"))


def test_every_level_has_a_config_and_the_top_levels_own_reads_the_opponent() -> None:
    for level in LEVELS.values():
        for deck in (20, 24):
            config = level.config_for(deck)
            assert isinstance(config, SearchConfig)
            for name, value in config.settings().items():
                assert type(value) is type(DEFAULT_CONFIG.settings()[name]), (level.name, deck, name)
    assert level_named("4").configs == (DEFAULT_CONFIG, DEFAULT_CONFIG)
    top = level_named("5").config_for(20)
    assert top is TOP_CONFIG and top.read_play and top.prior_weight == 10.0 and not top.leaf_value
    written = " ".join(f"{name}={value}" for name, value in top.settings().items() if value != DEFAULTS[name])
    assert DEFAULT_CONFIG.with_settings(written.split()) == top  # the same on a command line
    # On 24-card presets it values the leaves where a card may still be drawn by the learned value.
    top_24 = level_named("5").config_for(24)
    assert top_24 is TOP_CONFIG_24 and top_24 == TOP_CONFIG.with_settings(("LEAF_VALUE=1", "LEAF_VALUE_STRICT=0"))


def test_imprecise_levels_err_between_close_actions_and_hardly_ever_between_clear_ones() -> None:
    ranking = [(1, 0.10), (2, 0.09), (3, -0.5)]
    rng = random.Random(8)
    picks = [imprecise_decision(ranking, ranking, 0.06, rng, {}, 0.0).action for _ in range(2000)]
    assert 0.3 < picks.count(2) / len(picks) < 0.5  # about exp(-0.01 / 0.06) against the best
    assert picks.count(3) == 0  # 0.6 worse: a chance of about e^-10
    levels = [level_named(name) for name in ("2", "3", "4", "5")]
    for deck in (20, 24):
        temperatures = [lv.imprecision_for(deck) for lv in levels]
        assert temperatures[-1] == 0.0  # the top level always plays its best
        assert all(t > 0 for t in temperatures[:-1])
        assert temperatures == sorted(temperatures, reverse=True)  # each level errs less than the one below


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_exchange_allowed_now_agrees_with_the_legal_actions(preset_id: str) -> None:
    rng = random.Random(17)
    seen = 0
    for _ in range(40):
        match = Match(PRESETS[preset_id], rng.randrange(10**6), single_deal=True)
        while not match.deal.over:
            deal = match.deal
            seat = deal.to_act
            if deal.lead < 0 and not deal.final_order:
                holds = bool(deal.hands[seat] >> deal.low_trump & 1)
                assert (EXCHANGE in deal.legal_actions(seat)) == (holds and deal.exchange_allowed_now())
                seen += holds
            match.act(seat, random_action(match.legal(seat), rng))
    assert seen > 0


def test_a_ranking_values_claims_exactly_and_can_rank_play_past_a_claim() -> None:
    """A claim (resignation, pass) is valued by the game points it gives, not a stand-in; a review also
    ranks the cards the seat could play instead of claiming (``every_action``)."""
    from py_engine.ai import Request, rank_exactly
    from py_engine.ai.player import match_utility
    from py_engine.core.actions import RESIGN

    rng = random.Random(7)
    match = Match(PRESETS["AT20"], 7, dealer=0, single_deal=True)
    while True:
        assert not match.deal.over, "no position with a claim and other actions"
        seat = match.deal.to_act
        legal = match.legal(seat)
        if CLAIM in legal and match.deal.claim_is_valid(seat) and len(legal) > 2:
            break
        match.act(seat, rng.choice([a for a in legal if a != CLAIM] or legal))
    claimed = match.deal.clone()
    claimed.apply(CLAIM, seat)
    assert claimed.result is not None
    worth = match_utility(seat, match.scores, match.rules.match_target, match.carry)(claimed.result)
    request = Request(budget_ms=100, seed=1)

    ranking, exact = rank_exactly(match, seat, request)
    assert ranking[0] == (CLAIM, round(worth, 4)) and CLAIM in exact  # the computer claims
    assert all(value == -1.0 for action, value in ranking[1:])  # ... and searches nothing else

    ranking, exact = rank_exactly(match, seat, request, every_action=True)
    values = dict(ranking)
    assert values[CLAIM] == round(worth, 4) and CLAIM in exact
    plays = [a for a in legal if a not in (CLAIM, RESIGN)]
    assert plays and all(-1.0 < values[a] <= 1.0 for a in plays)
    assert sorted(values) == sorted(legal)


def test_a_review_says_which_opinions_are_exact() -> None:
    """After the last trick the closer passes instead of claiming 66: both values are the game points
    they give (2 for the claim, the failed close's 2 against), so the review's opinion is exact."""
    from py_engine.service.review import review_deal

    # AT20: the dealer (seat 0) has 1 trick worth 13 when seat 1 closes; seat 1 ends with 69 points.
    talon = ["TD", "JD", "QC", "AH", "KS", "AC", "TS", "TH", "AD"]
    match = start("AT20", ["JH", "TC", "JS", "KD", "QS"], ["KH", "QH", "JC", "KC", "AS"], "QD", talon)
    moves = [
        "QS",
        "KH",
        "JS",
        "AS",
        "QH",
        "TD",
        "close",
        "JH",
        "JD",
        "marry:C",
        "KC",
        "TC",
        "KD",
        "QC",
        "KS",
        "AC",
        "AH",
        "JC",
    ]
    for move in moves:
        seat = match.deal.to_act
        match.act(seat, parse_action(move if len(move) > 2 else f"play:{move}"))
    assert match.deal.to_act == 1 and match.deal.claim_is_valid(1)
    match.act(1, PASS)
    assert match.deal.result is not None and match.deal.result.code == "close_failed"
    review = review_deal(match, 1, (1,), 50)
    steps = review["steps"]
    while (part := review["next_step"]) is not None:  # a slow machine reviews in parts, as the page asks for them
        review = review_deal(match, 1, (1,), 50, from_step=part)
        steps = [*steps[:part], *review["steps"][part:]]
    last = steps[-1]
    assert last["action"] == "pass" and last["exact"] is True and last["clearly_worse"] is True
    assert last["ranking"] == [{"action": "claim", "value": 0.6667}, {"action": "pass", "value": -0.6667}]
    searched = [step for step in steps[:-1] if "ranking" in step]
    assert searched and all(isinstance(step["exact"], bool) for step in searched)
