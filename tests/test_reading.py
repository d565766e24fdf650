"""Reading the opponent's play: worlds replayed from the seat's story, weighed by a model of the opponent."""

from __future__ import annotations

import random

import pytest

from lab.fuzz import random_action
from py_engine.ai import reading
from py_engine.ai.config import DEFAULT_CONFIG, SearchConfig
from py_engine.ai.heuristic import claim_choice
from py_engine.ai.player import TOP_CONFIG
from py_engine.ai.reading import SHARP, Replayer, choice_likelihoods, read_worlds
from py_engine.core.actions import parse_action
from py_engine.core.cards import parse_card
from py_engine.core.deal import Deal
from py_engine.core.info import InfoState
from py_engine.core.rules import PRESETS
from py_engine.service.match import Match

from .scenario import start


def live_positions(preset_id: str, seed: int, count: int) -> list[Deal]:
    """Positions from random play with their event logs (the live deal, not a copy), each played on after."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        match = Match(PRESETS[preset_id], rng.randrange(10**6), single_deal=True)
        while not match.deal.over:
            deal = match.deal
            if claim_choice(deal) is None and len(deal.legal_actions()) > 1 and rng.random() < 0.25:
                found.append(deal)
                break
            seat = deal.to_act
            match.act(seat, random_action(match.legal(seat), rng))
    return found


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "DE24", "PL24", "SZLI20", "RO24"])
def test_read_worlds_agree_with_everything_the_seat_knows(preset_id: str) -> None:
    rng = random.Random(3)
    for deal in live_positions(preset_id, 7, 30):
        seat = deal.to_act
        other = 1 - seat
        knowledge = deal.info_state(seat)
        read = read_worlds(deal, deal.info_state(seat), rng, SearchConfig(particles=40))
        assert read is not None  # random play always has a consistent story: the real pack tells it
        for _ in range(10):
            world = read.draw()
            assert world.hands[seat] == deal.hands[seat]
            assert world.hands[other].bit_count() == deal.hands[other].bit_count()
            assert world.hands[other] & knowledge.opponent_known == knowledge.opponent_known
            assert not world.hands[other] & knowledge.opponent_cannot_hold
            assert world.hands[other] & ~knowledge.opponent_known & ~knowledge.unseen == 0
            assert world.face_down_left == deal.face_down_left
            assert (world.to_act, world.lead, world.upcard, world.closed_by) == (
                deal.to_act,
                deal.lead,
                deal.upcard,
                deal.closed_by,
            )
            assert world.card_points == deal.card_points and world.marriages == deal.marriages
            assert world.log is None


def test_reading_depends_on_the_story_alone_and_on_the_seed() -> None:
    """Two deals that tell the seat the same story (a particle's pack replayed) give the same worlds."""
    for deal in live_positions("HU24", 11, 8):
        seat = deal.to_act
        story = deal.info_state(seat).story
        assert story is not None
        pack = Replayer(deal, story).pack(random.Random(1))
        assert pack is not None
        twin = Deal(deal.rules, pack, story.dealer, log=[])
        for kind, who, value in story.steps:
            if kind == 0:  # an act (draws follow from the pack)
                twin.apply(value, who)
        assert twin.info_state(seat).story == story
        a, b = (
            read_worlds(deal, deal.info_state(seat), random.Random(5)),
            read_worlds(twin, twin.info_state(seat), random.Random(5)),
        )
        assert a is not None and b is not None
        assert [w.hands for w in a.worlds] == [w.hands for w in b.worlds]
        assert [w.talon for w in a.worlds] == [w.talon for w in b.worlds]


def test_without_an_event_log_there_is_nothing_to_read() -> None:
    match = start("AT20", ["JS", "QS", "KH", "TC", "AC"], ["AD", "TD", "KD", "QD", "JD"], "AH", dealer_seat=0)
    assert read_worlds(match.deal, match.deal.info_state(0), random.Random(1)) is not None
    assert match.deal.clone().info_state(0).story is None
    assert read_worlds(match.deal.clone(), match.deal.clone().info_state(0), random.Random(1)) is None


def test_a_lead_that_passes_up_a_marriage_or_an_exchange_is_read_as_lacking_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # You (seat 0) deal; the opponent leads the jack of spades from JS QS KH TC AC, hearts trump (AH).
    match = start(
        "AT20",
        ["JS", "QS", "KH", "TC", "AC"],
        ["AD", "TD", "KD", "QD", "JD"],
        "AH",
        dealer_seat=0,
        marriage_first_lead=True,
        exchange_first_lead=True,
    )
    deal = match.deal

    def likelihood(out: str, into: str) -> float:
        before = deal.clone()
        before.hands[1] = before.hands[1] & ~(1 << parse_card(out)) | 1 << parse_card(into)
        return choice_likelihoods(before, 1, parse_card("JS"), (SHARP,))[0]

    real = choice_likelihoods(deal, 1, parse_card("JS"), (SHARP,))[0]
    assert real > 0.5  # the jack was the rule of thumb's clear choice
    assert likelihood("TC", "JC") < real  # a second jack would have done as well: the lead tells less
    assert likelihood("TC", "QH") <= SHARP.skip  # it held the trump marriage and did not declare
    assert likelihood("TC", "JH") <= SHARP.skip  # it held the trump jack and did not exchange
    match.act(1, parse_action("play:JS"))
    known = SearchConfig(prior_sharp=1.0, particles=400)  # an opponent known to play by the rule of thumb
    read = read_worlds(deal, deal.info_state(0), random.Random(2), known)
    assert read is not None
    weights = [b - a for a, b in zip([0.0, *read.cumulative], read.cumulative, strict=False)]

    def weighed_share(cards: int) -> tuple[float, float]:
        """The share of weight, and of worlds, in which the opponent holds all of ``cards``."""
        holds = [world.hands[1] & cards == cards for world in read.worlds]
        weight = sum(w for w, h in zip(weights, holds, strict=True) if h) / sum(weights)
        return weight, sum(holds) / len(holds)

    marriage = 1 << parse_card("KH") | 1 << parse_card("QH")
    weighed, counted = weighed_share(marriage)
    assert counted > 0.02 and weighed < 0.2 * counted  # the undeclared trump marriage is read as unlikely
    weighed, counted = weighed_share(1 << parse_card("JH"))
    assert counted > 0.1 and weighed < 0.2 * counted  # and so is the trump jack it did not exchange


def test_a_declared_marriage_places_its_cards_where_the_opponent_could_have_had_them() -> None:
    # The opponent (seat 1) leads JS and wins; it draws the talon's first card (QS here), then
    # declares spades and leads the king: the king and queen were in its first hand or came with
    # that draw, and in no later place.
    match = start(
        "AT20", ["JS", "KS", "KH", "TC", "AC"], ["AD", "TD", "KD", "QD", "JD"], "AH", ["QS", "QC"], dealer_seat=0
    )
    for move in ("play:JS", "play:JD", "marry:S", "play:KS"):
        match.act(match.deal.to_act, parse_action(move))
    deal = match.deal
    story = deal.info_state(0).story
    assert story is not None
    replayer = Replayer(deal, story)
    first_hand = {0, 1, 2, 7, 8}  # the non-dealer's places in a 3T2 pack
    its_draw = 11  # the first face-down card, drawn by the trick's winner
    where = set()
    for seed in range(40):
        pack = replayer.pack(random.Random(seed))
        assert pack is not None
        for card in ("KS", "QS"):
            where.add(pack.index(parse_card(card)))
        world, sharp, vague = replayer.replay(pack)
        assert world is not None and sharp > 0 and vague > 0
        assert world.hands[1] >> parse_card("QS") & 1  # the queen is still in its hand
    assert where <= first_hand | {its_draw}
    assert its_draw in where and where & first_hand  # both kinds of place are used


def record_draws(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[Deal]]:
    """From now on, the seat of each of the search's readings, and every world drawn from them."""
    from py_engine.ai import ismcts

    seats: list[int] = []
    drawn: list[Deal] = []
    real = reading.read_worlds

    def recording(
        deal: Deal, knowledge: InfoState, rng: random.Random, config: SearchConfig = DEFAULT_CONFIG
    ) -> object:
        seats.append(knowledge.seat)
        read = real(deal, knowledge, rng, config)
        assert read is not None
        draw = read.draw

        def recorded() -> Deal:
            drawn.append(draw())
            return drawn[-1]

        read.draw = recorded  # type: ignore[method-assign]
        return read

    monkeypatch.setattr(ismcts, "read_worlds", recording)
    return seats, drawn


def test_the_search_reads_the_opponent_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from py_engine.ai.ismcts import Utility, search

    deal = _after_the_opponents_lead("JS").deal
    seats, drawn = record_draws(monkeypatch)
    reads = SearchConfig(read_play=True)
    first = search(deal, 0, random.Random(3), Utility(0), config=reads, iterations=60)
    again = search(deal, 0, random.Random(3), Utility(0), config=reads, iterations=60)
    assert seats == [0, 0]
    assert len(drawn) == 120  # every iteration's world came from the reader
    assert first.ranking == again.ranking and first.iterations == 60


def _after_the_opponents_lead(card: str) -> Match:
    """AT20, hearts trump; the opponent (seat 1) leads ``card`` from JS QS KH TC AC: the jack is the
    rule of thumb's clear choice, the ace of clubs one it would almost never make in the open phase."""
    match = start("AT20", ["JS", "QS", "KH", "TC", "AC"], ["AD", "TD", "KD", "QD", "JD"], "AH", dealer_seat=0)
    match.act(1, parse_action(f"play:{card}"))
    return match


@pytest.mark.parametrize(("lead", "sharper"), [("JS", True), ("AC", False)])
def test_the_opponents_play_tells_which_kind_of_player_it_is(lead: str, sharper: bool) -> None:
    deal = _after_the_opponents_lead(lead).deal
    read = read_worlds(deal, deal.info_state(0), random.Random(4), SearchConfig(particles=100))
    assert read is not None
    assert 0.0 < read.sharp_share < 1.0
    assert (read.sharp_share > DEFAULT_CONFIG.prior_sharp) == sharper
    if not sharper:
        assert read.sharp_share < 0.1  # the rule of thumb leads an ace in the open phase only from a hand of aces


@pytest.mark.parametrize(("lead", "trusted"), [("JS", True), ("AC", False)])
def test_the_search_trusts_its_reading_only_of_a_rule_of_thumb_player(
    monkeypatch: pytest.MonkeyPatch, lead: str, trusted: bool
) -> None:
    from py_engine.ai import ismcts
    from py_engine.ai.ismcts import Utility, search

    _, drawn = record_draws(monkeypatch)
    priors: list[int] = []
    rollout = ismcts.rollout_action

    def counting(world: Deal, rng: random.Random, randomness: float, close: bool) -> int:
        if randomness == 0.0:  # the prior asks for the rule of thumb's own choice, playouts never do
            priors.append(world.to_act)
        return rollout(world, rng, randomness, close)

    monkeypatch.setattr(ismcts, "rollout_action", counting)
    deal = _after_the_opponents_lead(lead).deal
    # the top level's search
    result = search(deal, 0, random.Random(3), Utility(0), config=TOP_CONFIG, iterations=60, reading_iterations=45)
    assert result.iterations == (45 if trusted else 60)  # the arena's count for a reading search, or not
    if trusted:
        assert len(drawn) == 45  # every world from the reading
        assert priors and set(priors) == {1}  # the rule of thumb expected of the opponent only
    else:
        assert drawn == [] and priors == []  # uniform worlds, and no rule of thumb expected


def test_the_story_is_the_current_deals_only() -> None:
    """A match's log holds every deal: the reader starts from the last one dealt."""
    rng = random.Random(8)
    match = Match(PRESETS["AT20"], 21)
    first_hands = list(match.deal.hands)
    while not match.deal.over:
        choice = claim_choice(match.deal)
        seat = choice[0] if choice is not None else match.deal.to_act
        match.act(seat, random_action(match.legal(seat), rng))
    match.act(0, parse_action("next"))
    deal = match.deal
    assert deal.hands != first_hands
    seat = deal.to_act
    story = deal.info_state(seat).story
    assert story is not None and story.steps == ()
    assert sum(1 << c for c in story.own_hand) == deal.hands[seat]
    read = read_worlds(deal, deal.info_state(seat), random.Random(1), SearchConfig(particles=20))
    assert read is not None and all(w.hands[seat] == deal.hands[seat] for w in read.worlds)
