"""Reading the opponent: worlds drawn in proportion to how well they explain its play.

Uniform worlds (:meth:`~py_engine.core.deal.Deal.resample`) treat the
opponent's choices as if they told nothing. They tell something: a player
who leads without declaring holds no marriage it could declare, one who
could exchange and did not lacks the lowest trump, and which card it leads
or answers with says a little about what else it holds. An attentive human
reads all of that. (Alone, at 1,500 iterations, it did not change the
search's score against the rule-of-thumb bot measurably; with a
rule-of-thumb prior for the opponent's moves, trusted while the opponent's
play fits the rule of thumb, it is how the top level plays: lab/NOTEBOOK.md
has the figures. The search uses it with ``read_play`` and ``read_trust``
of its :class:`~py_engine.ai.config.SearchConfig`, which the top level's
configuration turns on.)

This module does it by replaying the deal. From the seat's information
state it takes what the seat saw (its :class:`~py_engine.core.info.Story`: its
own cards and draws, every public act); a *particle* deals the cards it did not see into the places
they could have come from (the opponent's first hand, its face-down draws,
the rest of the talon), so that every card the opponent played or showed was
in its hand in time; the deal is then replayed from that pack, and each of
the opponent's choices is weighed by a soft model of a sensible player (the
rule of thumb of :mod:`.heuristic` with a softmax over its values, and
passing up a marriage or an exchange as unlikely). A particle whose replay
breaks a rule (a void the opponent showed under the strict rules) weighs
nothing. The replayed deal's final state is a world consistent with all
the seat knows, drawn in proportion to that weight by :class:`ReadWorlds`.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from dataclasses import dataclass
from itertools import accumulate

from ..core.actions import CLAIM, CLOSE, EXCHANGE, MARRY
from ..core.cards import cards_of, deck_mask
from ..core.deal import Deal, pack_of
from ..core.info import ACT as _ACT
from ..core.info import DRAW as _DRAW
from ..core.info import InfoState, Story, cards_shown, reshuffle_talon, revealed_voids
from .config import DEFAULT_CONFIG, SearchConfig
from .heuristic import lead_value_in, response_value, should_close


@dataclass(frozen=True, slots=True)
class Model:
    """A soft rule-of-thumb player: how likely it makes each choice."""

    #: The softness of its card choices, in the rule of thumb's value units (larger: vaguer).
    temperature: float
    #: Its chance of passing up a marriage it may declare as it leads, or an exchange it may make.
    skip: float
    #: The weight of a close (or of leading on instead) against the rule of thumb's judgement.
    surprise: float


#: The two kinds of opponent the reader weighs against each other: one who plays much like the rule
#: of thumb, and one whose play says little. A particle weighs prior_sharp * P(play | sharp) +
#: (1 - prior_sharp) * P(play | vague) (``SearchConfig.prior_sharp``), so the sharp reading takes
#: over only when the opponent's play fits it, and a strong or erratic opponent is read loosely; the
#: particles' weights also say how likely each kind is (``ReadWorlds.sharp_share``), which the
#: search's ``read_trust`` uses.
SHARP = Model(temperature=1.0, skip=0.03, surprise=0.5)
VAGUE = Model(temperature=8.0, skip=0.5, surprise=1.0)


def _softmax_share(values: list[float], chosen: float, temperature: float) -> float:
    total = 0.0
    for value in values:
        total += math.exp((value - chosen) / temperature)
    return 1.0 / total


def _evidence(deal: Deal, seat: int, action: int, legal: list[int]) -> tuple[int, bool, list[float], float]:
    """What ``seat``'s ``action`` shows, whatever the model: (marriages and exchanges passed up, whether it
    went against the rule of thumb's close, the values of the cards it chose among, the chosen card's value)."""
    if action >= MARRY:
        return 0, action == CLOSE and not should_close(deal, seat), [], 0.0
    if deal.lead >= 0:
        options = cards_of(deal.response_mask(deal.hands[seat], deal.lead))
        if len(options) == 1:
            return 0, False, [], 0.0
        return 0, False, [response_value(deal, seat, c) for c in options], response_value(deal, seat, action)
    if deal.declared >= 0:
        return 0, False, [], 0.0  # the lead of a declared marriage: no free choice to read
    skipped = any(MARRY <= a < EXCHANGE for a in legal) + (EXCHANGE in legal)
    surprised = CLOSE in legal and should_close(deal, seat)
    cards = [a for a in legal if a < MARRY]
    if len(cards) == 1:
        return skipped, surprised, [], 0.0
    return skipped, surprised, [lead_value_in(deal, seat, c) for c in cards], lead_value_in(deal, seat, action)


def choice_likelihoods(
    deal: Deal, seat: int, action: int, models: tuple[Model, ...], legal: list[int] | None = None
) -> list[float]:
    """How likely each model makes ``seat``'s ``action`` in ``deal`` (the seat on turn, before acting).

    ``legal``: the seat's legal actions, if the caller has them already.
    """
    skipped, surprised, values, chosen = _evidence(
        deal, seat, action, legal if legal is not None else deal.legal_actions(seat)
    )
    likelihoods = []
    for model in models:
        likelihood = model.skip**skipped * (model.surprise if surprised else 1.0)
        if values:
            likelihood *= _softmax_share(values, chosen, model.temperature)
        likelihoods.append(likelihood)
    return likelihoods


class Replayer:
    """Deals particles for one story and replays them: ``particle(rng)`` → (final deal, weight)."""

    def __init__(self, deal: Deal, story: Story) -> None:
        rules = deal.rules
        seat = story.seat
        opponent = 1 - seat
        self.rules = rules
        self.story = story
        self.talon_size = len(deal.talon)
        hand_size = len(story.own_hand)
        seen = set(story.own_hand) | {story.up}
        # Places the seat did not see: the opponent's first hand (time -1), then the talon positions.
        self.opponent_places: list[int] = [-1] * hand_size  # the time (step index) each place reaches its hand
        self.opponent_talon_pos: list[int] = []  # the talon position of each opponent draw place
        talon_cards: dict[int, int] = {}  # talon position -> card the seat drew from it
        position = 0
        deadlines: dict[int, int] = {}
        for index, (kind, who, value) in enumerate(story.steps):
            if kind == _DRAW:
                if who == seat:
                    talon_cards[position] = value
                    seen.add(value)
                else:
                    self.opponent_places.append(index)
                    self.opponent_talon_pos.append(position)
                position += 1
            elif kind == _ACT and who == opponent:
                for card in cards_shown(value, deal.low_trump):
                    deadlines.setdefault(card, index)
        self.seat_talon = talon_cards
        self.unseen = [c for c in cards_of(deck_mask(rules.deck)) if c not in seen]
        unseen = set(self.unseen)
        self.forced = sorted(((t, c) for c, t in deadlines.items() if c in unseen), key=lambda tc: tc[0])
        # A void the opponent showed under the strict rules lasts (nothing is drawn then), and it never
        # discards: an unseen card of it was never in its hand, so it goes to the talon's places only.
        self.talon_only = set(cards_of(revealed_voids(deal, opponent))) & unseen
        self.hand_size = hand_size

    def pack(self, rng: random.Random) -> list[int] | None:
        """A pack that deals every card the seat did not see into a place it could have come from, or None.

        Each card the opponent played or showed goes to one of its places
        (first hand or face-down draw) reached in time, chosen at random, the
        earliest-needed first; the other unseen cards are dealt at random,
        those of a suit it showed it lacks to the talon only.
        """
        places = len(self.opponent_places)
        assigned: list[int] = [-1] * places
        used: set[int] = set()
        for deadline, card in self.forced:
            eligible = [i for i in range(places) if assigned[i] < 0 and self.opponent_places[i] < deadline]
            if not eligible:
                return None
            assigned[eligible[int(rng.random() * len(eligible))]] = card
            used.add(card)
        talon_only = self.talon_only
        rest = [c for c in self.unseen if c not in used and c not in talon_only]
        rng.shuffle(rest)
        for i in range(places):
            if assigned[i] < 0:
                if not rest:
                    return None
                assigned[i] = rest.pop()
        if talon_only:
            rest += sorted(talon_only)
            rng.shuffle(rest)
        talon = [-1] * self.talon_size
        for pos, card in self.seat_talon.items():
            talon[pos] = card
        for pos, card in zip(self.opponent_talon_pos, assigned[self.hand_size :], strict=True):
            talon[pos] = card
        for pos in range(self.talon_size):
            if talon[pos] < 0:
                talon[pos] = rest.pop()
        story = self.story
        own, theirs = list(story.own_hand), assigned[: self.hand_size]
        non_dealer, dealer = (own, theirs) if story.dealer != story.seat else (theirs, own)
        return pack_of(self.rules.deal_pattern, non_dealer, dealer, story.up, talon)

    def replay(self, pack: list[int]) -> tuple[Deal | None, float, float]:
        """The deal replayed from ``pack``, and how likely each kind of opponent made its choices in it:
        (deal, P(play | sharp), P(play | vague)); (None, 0, 0) if the story is not legal with ``pack``."""
        story = self.story
        world = Deal(self.rules, pack, story.dealer)
        sharp = vague = 1.0
        opponent = 1 - story.seat
        for kind, who, value in story.steps:
            if kind != _ACT:
                continue
            legal: list[int] | None = None
            if value == CLAIM:
                if not world.windows >> who & 1:
                    return None, 0.0, 0.0
            else:
                legal = world.legal_actions(who) if who == world.to_act else []
                if value not in legal:
                    return None, 0.0, 0.0
            if who == opponent:
                as_sharp, as_vague = choice_likelihoods(world, who, value, (SHARP, VAGUE), legal)
                sharp *= as_sharp
                vague *= as_vague
            world.apply(value, who)
        return world, sharp, vague

    def particle(self, rng: random.Random) -> tuple[Deal | None, float, float]:
        """A particle from a random pack, as :meth:`replay` gives it."""
        pack = self.pack(rng)
        return (None, 0.0, 0.0) if pack is None else self.replay(pack)


class ReadWorlds:
    """Worlds for a search, drawn from weighed particles; each draw a fresh copy with the talon reshuffled."""

    def __init__(self, worlds: list[Deal], weights: list[float], rng: random.Random, sharp_share: float) -> None:
        self.worlds = worlds
        #: How likely the opponent is the sharp kind, given its play so far (and ``prior_sharp`` before it).
        self.sharp_share = sharp_share
        self.cumulative = list(accumulate(weights))
        self.rng = rng

    def draw(self) -> Deal:
        index = bisect(self.cumulative, self.rng.random() * self.cumulative[-1])
        world = self.worlds[min(index, len(self.worlds) - 1)].clone()
        reshuffle_talon(world, self.rng)
        return world


def read_worlds(
    deal: Deal, knowledge: InfoState, rng: random.Random, config: SearchConfig = DEFAULT_CONFIG
) -> ReadWorlds | None:
    """Weighed worlds for the search of ``knowledge.seat`` in ``deal``, or None when it has no story to read.

    ``config``: how many particles (``particles``), and the belief in the sharp kind before any
    play (``prior_sharp``).
    """
    story = knowledge.story
    if story is None:
        return None
    seat = knowledge.seat
    key = knowledge.key()
    replayer = Replayer(deal, story)
    worlds: list[Deal] = []
    weights: list[float] = []
    prior_sharp = config.prior_sharp
    as_sharp = as_vague = 0.0  # the weight of the particles due to each kind of opponent
    for _ in range(config.particles):
        world, sharp, vague = replayer.particle(rng)
        sharp *= prior_sharp
        vague *= 1.0 - prior_sharp
        if world is not None and sharp + vague > 0.0:
            if world.info_state(seat, story=False).key() != key:
                # The replay is not a world the seat cannot tell from this deal: the log does not tell this
                # deal's story. Read nothing rather than wrongly.
                return None
            worlds.append(world)
            weights.append(sharp + vague)
            as_sharp += sharp
            as_vague += vague
    if not worlds:
        return None
    # Both kinds are weighed on the same particles, so the two sums estimate each kind's share of
    # the posterior: Bayes over the two kinds, as for each particle.
    return ReadWorlds(worlds, weights, rng, as_sharp / (as_sharp + as_vague))
