"""The analysis board: a finished deal, every card shown, played on from any point with other moves.

A :class:`Board` holds one finished deal (from a table's review, an imported
record or a link) and a tree of lines: its root is the deal as dealt, the
deal as played is the main line, and every other move played from any
point starts a variation. Every position shown is replayed by the engine
from the deal's pack and the moves that lead to it, so the board can never
disagree with the rules; the page only names nodes and moves.

Each option of the seat to move is valued as the review values a decision:
from what that seat knew at that point (:func:`py_engine.ai.rank_exactly`,
the computer's search over the deals it thinks possible, exact once the
talon is used up and few cards are left), or, with ``all_cards``, with every
card known to both seats, the talon's order included
(:func:`py_engine.ai.rank_all_cards`: exact where the minimax ends in time,
else said to be estimated). Values are game points for the seat, divided by 3.

The deal is finished, so showing every card gives nothing away: a board is
never made from a deal in play (:func:`py_engine.service.links.deal_link`
refuses one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..core.actions import action_name, parse_action
from ..core.cards import SUITS
from ..core.deal import marriage_offer
from ..core.errors import BadActionError, EngineError
from ..core.events import Claim, Marriage, Trick
from . import links
from .defaults import BUDGETS
from .links import DealLink, Move
from .match import Match
from .review import snapshot

if TYPE_CHECKING:
    from ..ai import OpenCards
    from .contract import BoardAbout, BoardNode, BoardPosition, DealResult, Evaluation, GameEvent, MarriageOffer

#: The most nodes one board keeps (the deal's own moves and every variation's).
MAX_NODES = 2000


class AnalysisError(EngineError):
    """A request the board refuses (no such node, a move of the deal itself removed, too many nodes)."""

    code = "bad_request"


@dataclass
class Node:
    """One position of the tree: the move that led to it from its parent, and what the page says of that move."""

    id: int
    parent: int | None
    move: Move | None
    #: On the deal as played.
    main: bool
    ply: int
    children: list[int] = field(default_factory=list)
    #: The trick the move belongs to (1-based); None for what follows the last trick (claims, passes).
    trick: int | None = None
    #: The trick the move completed: (winner, points).
    taken: tuple[int, int] | None = None
    #: A claim: whether it was valid. A marriage: its points.
    valid: bool | None = None
    points: int | None = None

    def to_json(self) -> BoardNode:
        out: BoardNode = {
            "id": self.id,
            "parent": self.parent,
            "seat": None if self.move is None else self.move[0],
            "action": None if self.move is None else action_name(self.move[1]),
            "main": self.main,
            "ply": self.ply,
            "children": list(self.children),
            "trick": self.trick,
            "taken": None if self.taken is None else {"winner": self.taken[0], "points": self.taken[1]},
        }
        if self.valid is not None:
            out["valid"] = self.valid
        if self.points is not None:
            out["points"] = self.points
        return out


class Board:
    """A finished deal and its tree of lines."""

    def __init__(self, deal: DealLink) -> None:
        self.deal = DealLink(
            rules=deal.rules,
            dealer=deal.dealer,
            deck=deal.deck,
            actions=deal.actions,
            scores=deal.scores,
            carry=deal.carry,
            seat=deal.seat,
        )
        self.nodes: dict[int, Node] = {0: Node(0, None, None, True, 0)}
        self._next_id = 1
        self._evaluations: dict[tuple[Any, ...], Evaluation] = {}
        self._open_cards: dict[int, OpenCards] = {}
        node = 0
        for move in deal.actions:
            node = self._add(node, move, main=True)
        if not self.replay(node).deal.over:
            raise links.LinkError("only a finished deal can be analysed", "unfinished")
        #: Where the board opens: the link's position (its step, then its line), else the start.
        self.start = self._follow(deal.step or 0, deal.line)

    # ---------------------------------------------------------------- the tree

    def node(self, node_id: Any) -> Node:
        if type(node_id) is not int or node_id not in self.nodes:
            raise AnalysisError(f"no node {node_id!r} on this board")
        return self.nodes[node_id]

    def path(self, node_id: int) -> list[Move]:
        """The moves from the deal as dealt to the node."""
        moves: list[Move] = []
        node = self.node(node_id)
        while node.move is not None:
            moves.append(node.move)
            assert node.parent is not None
            node = self.nodes[node.parent]
        moves.reverse()
        return moves

    def replay(self, node_id: int) -> Match:
        """The deal at the node, replayed from its pack with every move checked (and logged)."""
        match = links.replay(self.deal)
        for seat, action in self.path(node_id):
            match.act(seat, action)
        return match

    def _add(self, parent_id: int, move: Move, *, main: bool = False) -> int:
        parent = self.node(parent_id)
        for child in parent.children:
            if self.nodes[child].move == move:
                return child
        if len(self.nodes) >= MAX_NODES:
            raise AnalysisError(f"a board keeps at most {MAX_NODES} positions: remove a variation first")
        match = self.replay(parent_id)
        deal = match.deal
        trick = None if deal.final_order or deal.tricks_done >= deal.rules.deck // 2 else deal.tricks_done + 1
        events = match.act(*move)  # IllegalActionError, NotYourTurnError: the request is refused, nothing added
        node = Node(self._next_id, parent_id, move, main, parent.ply + 1, trick=trick)
        for event in events:
            if isinstance(event, Trick):
                node.taken = (event.winner, event.points)
            elif isinstance(event, Claim):
                node.valid = event.valid
            elif isinstance(event, Marriage):
                node.points = event.points
        self._next_id += 1
        self.nodes[node.id] = node
        parent.children.append(node.id)
        return node.id

    def _follow(self, step: int, line: tuple[Move, ...]) -> int:
        node = 0
        for _ in range(step):
            node = next(c for c in self.nodes[node].children if self.nodes[c].main)
        for move in line:
            node = self._add(node, move)
        return node

    def play(self, node_id: int, seat: int, text: Any) -> int:
        """Play ``text`` for ``seat`` at the node: the child it leads to (a new variation, or the one already there)."""
        self.node(node_id)
        try:
            action = parse_action(text)
        except ValueError as e:
            raise BadActionError(str(e)) from None
        return self._add(node_id, (seat, action))

    def remove(self, node_id: int) -> int:
        """Remove a variation from the node on (the node and all after it); answers its parent."""
        node = self.node(node_id)
        if node.main:
            raise AnalysisError("the moves of the deal as played cannot be removed")
        assert node.parent is not None
        gone = [node_id]
        for nid in gone:
            gone.extend(self.nodes[nid].children)
        for nid in gone:
            del self.nodes[nid]
        self.nodes[node.parent].children.remove(node_id)
        self._evaluations = {k: v for k, v in self._evaluations.items() if k[0] in self.nodes}
        return node.parent

    def tree(self) -> list[BoardNode]:
        return [node.to_json() for node in self.nodes.values()]

    # ---------------------------------------------------------------- positions

    def position(self, node_id: int) -> BoardPosition:
        """The position at the node: every card, the move into it, the options there, the result if over."""
        node = self.node(node_id)
        match = links.replay(self.deal)
        path = self.path(node_id)
        for seat, action in path[:-1]:
            match.act(seat, action)
        # The core writes its events as plain JSON, every card shown (the contract's GameEvent).
        events = cast("list[GameEvent]", [e.to_json() for e in match.act(*path[-1])] if path else [])
        deal = match.deal
        main_child = next((c for c in node.children if self.nodes[c].main), None)
        return {
            "node": node_id,
            "ply": node.ply,
            "main": node.main,
            "state": snapshot(deal),
            "events": events,
            "options": [{"seat": s, "action": action_name(a)} for s, a in links._options(deal)],
            "to_act": None if deal.over else deal.to_act,
            "played": None if main_child is None else self.nodes[main_child].to_json()["action"],
            "over": deal.over,
            "result": cast("DealResult", deal.result.to_dict()) if deal.result is not None else None,
        }

    def about(self) -> BoardAbout:
        """What stays the same on the whole board: the rules, the trump suit, the marriages' values, the context."""
        match = links.replay(self.deal)
        deal = match.deal
        return {
            "rules": self.deal.rules.to_dict(),
            "dealer": self.deal.dealer,
            "seat": self.deal.seat,
            "trump_suit": SUITS[deal.trump],
            "marriage_offers": {
                SUITS[suit]: cast("MarriageOffer", marriage_offer(suit, deal.trump)) for suit in range(len(SUITS))
            },
            "scores": self.deal.scores,
            "carry": self.deal.carry,
            "moves": len(self.deal.actions),
        }

    # --------------------------------------------------------------- evaluation

    def evaluate(
        self, node_id: int, all_cards: bool, budget_ms: int | None, iterations: int | None, seed: int
    ) -> Evaluation:
        """The options of the seat to move at the node, best first, valued for that seat.

        ``all_cards`` False: from what the seat knew there (as the review); True: every card known.
        ``budget_ms`` None: the engine's (``BUDGETS.analysis_ms``, or ``BUDGETS.all_cards_ms``).
        Answers are kept: the same request again is answered at once (an all-cards evaluation only
        when every value was exact: another request goes on where the last one stopped).
        """
        if budget_ms is None:
            budget_ms = BUDGETS.all_cards_ms if all_cards else BUDGETS.analysis_ms
        key = (node_id, all_cards, budget_ms, iterations, seed)
        kept = self._evaluations.get(key)
        if kept is not None:
            return kept
        match = self.replay(node_id)
        deal = match.deal
        from .. import ai  # imported on first use (the protocol's lazy modules)

        answer: Evaluation = {"node": node_id, "all_cards": all_cards, "seat": None, "ranking": [], "exact": True}
        if deal.over or len(match.legal(deal.to_act)) < 2:
            self._evaluations[key] = answer
            return answer
        seat = deal.to_act
        request = ai.Request(budget_ms=budget_ms, iterations=iterations, seed=seed)
        stats: dict[str, Any] = {}
        if all_cards:
            open_cards = self._open_cards.get(seat)
            if open_cards is None:
                utility = ai.match_utility(seat, match.scores, match.rules.match_target, match.carry)
                open_cards = self._open_cards[seat] = ai.OpenCards(seat, utility)
            ranking, exact, stats = ai.rank_all_cards(match, seat, request, open_cards)
        else:
            ranking, exact = ai.rank_exactly(match, seat, request, every_action=True)
        answer["seat"] = seat
        answer["ranking"] = [{"action": action_name(a), "value": v, "exact": a in exact} for a, v in ranking]
        answer["exact"] = all(a in exact for a, _ in ranking)
        answer["stats"] = stats
        if not all_cards or answer["exact"]:
            self._evaluations[key] = answer
        return answer

    # ---------------------------------------------------------------- links

    def link(self, node_id: int) -> DealLink:
        """The link of the deal at the node: the step where it leaves the deal as played, and its line from there."""
        path = self.path(node_id)
        step = 0
        while step < len(path) and step < len(self.deal.actions) and path[step] == self.deal.actions[step]:
            step += 1
        return DealLink(
            rules=self.deal.rules,
            dealer=self.deal.dealer,
            deck=self.deal.deck,
            actions=self.deal.actions,
            scores=self.deal.scores,
            carry=self.deal.carry,
            seat=self.deal.seat,
            step=step,
            line=tuple(path[step:]),
        )
