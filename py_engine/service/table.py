"""A table: one match with the people and computers around it, and what each may see and do.

The page talks to a table, never to the bare match: this module owns the
policy that keeps each player's cards private and each mode's rights.

Modes (:class:`Seating`):

* ``computer``: a person at seat 0 plays the computer at seat 1. The page
  sees seat 0 only. Undo (within the deal in play) and hints exist in
  casual games, not in ranked ones.
* ``hotseat``: two people share one device. The table shows a seat only to
  the person holding the device (``holder``); when the other has to act, or
  a new deal starts, the device changes hands and nothing is shown until
  that person takes it (:meth:`Table.take`). No undo; hints when not ranked.
* ``watch``: the computer plays both seats. The watcher is not a player: it
  sees seat 0's view with the other hand face up (``opponent_shown``), never
  the face-down talon. It cannot act, undo or ask for hints.
* ``online``: two people in two browsers. This table is the host's (seat 0);
  the guest (seat 1) is its *remote viewer*: every change also answers the
  guest's frames and view, which :mod:`py_engine.service.online` sends it. A
  player may show its hand to the other (``shown``) and the computer may play
  a seat for an absent player (``stand_in``). No undo, no hints.

Seat numbers are the protocol's own (absolute) everywhere: in views, events,
records and requests. A view's ``seat`` is the seat drawn at the bottom;
fields named ``my_*``/``opponent_*``/``hand`` are counted from it.

Every answer that changes the table carries ``frames``: one per event, the
event as the viewer may see it and the viewer's view right after it, drawn
from the deal's own copy of itself after the event (:func:`.views.deal_frames`),
so the page animates without knowing how a deal moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..core.actions import CLAIM, NEXT, action_name, parse_action
from ..core.deal import Deal
from ..core.errors import BadActionError, EngineError, GameOverError, IllegalActionError, NotYourTurnError
from ..core.events import Event
from ..core.info import Observer
from .defaults import DEFAULT_LEVEL, LEVELS
from .json_text import plain_text
from .match import Match
from .record import is_seat, load_record
from .views import deal_frames, view

if TYPE_CHECKING:
    from .contract import ComputerMoved, DealEntry, Frame, Handover, HintAnswer, May, Review, TableAnswer, Undone, View
    from .contract import Seating as SeatingJson

Mode = Literal["computer", "hotseat", "watch", "online"]
MODES: tuple[Mode, ...] = ("computer", "hotseat", "watch", "online")
NAME_MAX = 24
PERSON = 0  # the person's seat against the computer
COMPUTER = 1
HOST, GUEST = 0, 1  # online: the seat of the browser that holds the table, and the other's


class TableError(EngineError):
    """A request the table's policy refuses (the mode does not allow it)."""


def _clean_name(name: Any) -> str:
    return plain_text(name, NAME_MAX)


def _level(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in LEVELS else None


class Seating(NamedTuple):
    """Who sits at the table: the mode, whether it is ranked, names and the computer's levels."""

    mode: Mode = "computer"
    ranked: bool = False
    names: tuple[str, str] | None = None
    #: The computer's level at each seat (None where a person sits).
    levels: tuple[int | None, int | None] = (None, DEFAULT_LEVEL)

    @classmethod
    def from_json(cls, data: Any) -> Seating:
        """A valid seating from whatever the page (or an old save, or a record file) gave.

        Lenient by design: saved games and record files from earlier versions
        carry older or partial forms; what is not understood takes its default.
        """
        d = data if isinstance(data, dict) else {}
        mode: Mode = d["mode"] if d.get("mode") in MODES else "computer"
        names_in = d.get("names")
        names = None
        if mode in ("hotseat", "online") and isinstance(names_in, list) and len(names_in) == 2:
            names = (_clean_name(names_in[0]), _clean_name(names_in[1]))
        levels_in = d.get("levels")
        pair = [_level(v) for v in levels_in] if isinstance(levels_in, list) and len(levels_in) == 2 else [None, None]
        if mode == "computer":
            levels: tuple[int | None, int | None] = (None, pair[1] or DEFAULT_LEVEL)
        elif mode == "watch":
            levels = (pair[0] or DEFAULT_LEVEL, pair[1] or DEFAULT_LEVEL)
        else:
            levels = (None, None)
        return cls(mode, mode in ("computer", "hotseat") and d.get("ranked") is True, names, levels)

    def to_json(self) -> SeatingJson:
        return {
            "mode": self.mode,
            "ranked": self.ranked,
            "names": self.names or None,
            "levels": self.levels,
            "assisted": self.assisted,
        }

    @property
    def computer_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat in (0, 1) if self.levels[seat] is not None)

    @property
    def assisted(self) -> bool:
        """Do hints (and, against the computer, undo) exist in this game?"""
        return not self.ranked and self.mode in ("computer", "hotseat")


class Viewer(NamedTuple):
    """Whom a view is for: the seat at the bottom, and whether the other hand is shown face up."""

    seat: int
    sees_other_hand: bool = False
    #: False for a watcher: its views offer no action.
    plays: bool = True


@dataclass
class Table:
    """A match and its seating; ``holder`` is the seat holding a shared device (None: changing hands)."""

    match: Match
    seating: Seating
    holder: int | None = None
    #: Whether the worker keeps this table (the game in play) or not (a record opened for review).
    kept: bool = True
    #: Online: the seats whose hand is face up to the other player now.
    shown: set[int] = field(default_factory=set)
    #: Online: the seats the computer plays for a person who is away.
    stand_in: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.seating.mode != "hotseat" or (self.holder is not None and self.holder not in self.servable_seats()):
            self.holder = None

    # ------------------------------------------------------------ who sees what

    def viewer(self) -> Viewer | None:
        """Whom the page shows the table to now (None: a shared device changing hands)."""
        mode = self.seating.mode
        if mode == "computer":
            return Viewer(PERSON)
        if mode == "watch":
            return Viewer(0, sees_other_hand=True, plays=False)
        if mode == "online":
            return Viewer(HOST, sees_other_hand=GUEST in self.shown)
        return None if self.holder is None else Viewer(self.holder)

    def remote_viewer(self) -> Viewer | None:
        """Online: the guest, whose frames and view go to its browser with every change."""
        if self.seating.mode != "online":
            return None
        return Viewer(GUEST, sees_other_hand=HOST in self.shown)

    def servable_seats(self) -> tuple[int, ...]:
        """Two players: the seats that may be shown now (something to do, or the deal is over)."""
        match = self.match
        if match.deal.over:
            return (0, 1)
        return tuple(seat for seat in (0, 1) if match.legal(seat))

    def view_for(self, viewer: Viewer) -> View:
        shown = view(self.match, viewer.seat, show_opponent=viewer.sees_other_hand)
        if not viewer.plays:
            shown["legal"] = []
            shown["marriage_offers"] = {}
        return shown

    def handover(self) -> Handover | None:
        """While a shared device changes hands: who takes it, and who may still claim 66 meanwhile."""
        if self.seating.mode != "hotseat" or self.holder is not None:
            return None
        match = self.match
        nxt = match.to_act()
        seat = nxt if nxt is not None else 0
        claim = next((s for s in (0, 1) if s != seat and CLAIM in match.legal(s)), None)
        return {"seat": seat, "claim": claim}

    def rights(self, viewer: Viewer | None = None) -> May:
        """What the page may offer now: undo, hint, claiming for the other player, the computer's move.

        ``viewer``: for whom (default: the local viewer, :meth:`viewer`).
        """
        viewer = viewer or self.viewer()
        match = self.match
        seating = self.seating
        playing = not match.deal.over
        me = viewer.seat if viewer else None
        to_act = match.to_act()
        return {
            "undo": seating.mode == "computer" and seating.assisted and self.undo_refusal() is None,
            "hint": seating.assisted and playing and me is not None and to_act == me,
            "claim_for_other": seating.mode == "hotseat"
            and me is not None
            and playing
            and to_act == me
            and CLAIM in match.legal(1 - me),
            "computer_move": self.computer_seat() is not None,
        }

    def show(self, viewer: Viewer | None = None) -> TableAnswer:
        """What a page draws now: the viewer's view (or the hand-over screen) and the rights.

        ``viewer``: for whom (default: the local viewer; online, the guest is :meth:`remote_viewer`).
        """
        viewer = viewer or self.viewer()
        return {
            "view": self.view_for(viewer) if viewer else None,
            "handover": self.handover(),
            "may": self.rights(viewer),
            "seating": self.seating.to_json(),
        }

    # ------------------------------------------------------------------ actions

    def act(self, seat: int, text: Any) -> TableAnswer:
        """A person's action for ``seat``; answers the frames and what to show next."""
        mode = self.seating.mode
        if mode == "watch":
            raise TableError("a watcher cannot act: both seats are the computer")
        if mode == "computer" and seat != PERSON:
            raise TableError(f"the person plays seat {PERSON}; the computer moves by itself")
        if seat in self.stand_in:
            raise TableError("the computer is playing for this seat: take the seat back first")
        try:
            action = parse_action(text)
        except ValueError as e:
            raise BadActionError(str(e)) from None
        if mode == "hotseat" and seat != self.holder and action != CLAIM:
            raise NotYourTurnError(f"seat {seat} does not hold the device: only a claim of 66 is possible now")
        viewer = Viewer(seat) if mode == "hotseat" else self.viewer()
        assert viewer is not None
        return self._apply(seat, action, viewer)

    def computer_seat(self) -> int | None:
        """The computer seat that moves next, if any (watching: whoever is to act, or deals on)."""
        match = self.match
        if match.finished:
            return None
        seats = self.computer_seats()
        if match.deal.over:
            return seats[0] if len(seats) == 2 else None
        to_act = match.to_act()
        return to_act if to_act in seats else None

    def computer_move(
        self,
        level: int | None = None,
        *,
        budget_ms: int | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        clock: bool = True,
        started: float | None = None,
    ) -> ComputerMoved:
        """The computer's move at the seat that has one; ``level`` overrides the seating's (against the computer).

        ``budget_ms`` None: the level's own (``Level.budget_ms``). ``started``: when the request came
        (``time.perf_counter()``); the budget counts from then (``ai.player.search_seconds``: the first move
        also imports the computer player). ``clock=False``: no time limit, the level's fixed iterations.
        """
        seat = self.computer_seat()
        if seat is None:
            if self.match.finished:
                raise GameOverError("the game is over")
            raise NotYourTurnError("the computer has nothing to do now")
        if level is not None and self.seating.mode != "computer":
            raise TableError("the levels of a watched game are fixed when it starts")
        chosen = level if level is not None else (self.seating.levels[seat] or DEFAULT_LEVEL)
        from .. import ai  # imported on first use (the protocol's lazy modules)

        request = ai.Request(
            level=chosen, budget_ms=budget_ms, iterations=iterations, seed=seed, clock=clock, started=started
        )
        decision = ai.choose(self.match, seat, request)
        viewer = self.viewer()
        assert viewer is not None
        answer = self._apply(seat, decision.action, viewer)
        # No search statistics: a count of iterations (or the time) tells whoever sees the answer, the page or
        # the host's page for its guest, when a move was forced, that is, something of the hidden hand.
        return {"action": action_name(decision.action), **answer}

    def computer_seats(self) -> tuple[int, ...]:
        """The seats the computer plays now: its own, and those it plays for an absent person."""
        return tuple(seat for seat in (0, 1) if seat in self.seating.computer_seats or seat in self.stand_in)

    def forfeit(self, seat: int | None, reason: str) -> TableAnswer:
        """End the game now (:meth:`Match.forfeit`); answers the frames like a move."""
        viewer = self.viewer()
        assert viewer is not None
        return self._change(lambda: self.match.forfeit(seat, reason), -1, viewer)

    def _apply(self, seat: int, action: int, viewer: Viewer) -> TableAnswer:
        def act() -> list[Event]:
            events = self.match.act(seat, action)
            events += self._computer_claims()
            if self.seating.mode == "hotseat":
                self._pass_device(seat, action)
            return events

        return self._change(act, action, viewer)

    def _change(self, do: Callable[[], list[Event]], action: int, viewer: Viewer) -> TableAnswer:
        """Do a change; answer each viewer's frames (the local one's, and the remote one's online)."""
        remote = self.remote_viewer()
        before = self.view_for(viewer)
        remote_before = self.view_for(remote) if remote else None
        deal, start = self.match.deal, len(self.match.events)  # the deal the change plays on, and its first event
        events = do()
        after = self.show()
        frames = self._frames(viewer, before, deal, events, start, action, after)
        answer: TableAnswer = {**after, "frames": frames, "save": self.kept}
        if remote is not None and remote_before is not None:
            remote_after = self.show(remote)
            frames = self._frames(remote, remote_before, deal, events, start, action, remote_after)
            answer["remote"] = {
                "frames": frames,
                "view": remote_after["view"],
                "handover": remote_after["handover"],
                "may": remote_after["may"],
                "seating": remote_after["seating"],
            }
        return answer

    @staticmethod
    def _frames(
        viewer: Viewer,
        before: View,
        deal: Deal,
        events: list[Event],
        start: int,
        action: int,
        after: TableAnswer,
    ) -> list[Frame]:
        """The events from index ``start`` of the match's log, each with ``viewer``'s view after it in ``deal``."""
        frames = deal_frames(deal, events, start, Observer(viewer.seat, viewer.sees_other_hand), before)
        if action == NEXT:
            # A new deal: its events come with its first view (none while the device changes hands).
            first = after["view"]
            if first is None:
                return []
            return [{**frame, "view": {**first, "sheet": None}} for frame in frames]
        return frames

    def _computer_claims(self) -> list[Event]:
        """A computer seat with a valid claim of 66 out of turn claims it at once."""
        match = self.match
        for seat in self.computer_seats():
            deal = match.deal
            if not deal.over and seat != deal.to_act and CLAIM in match.legal(seat) and deal.claim_is_valid(seat):
                return match.act(seat, CLAIM)
        return []

    def _pass_device(self, actor: int, action: int) -> None:
        match = self.match
        if match.deal.over:
            self.holder = actor  # the actor sees the deal's end; the next deal changes hands
            return
        nxt = match.to_act()
        self.holder = actor if action != NEXT and nxt == actor else None

    def take(self, seat: int) -> TableAnswer:
        """Two players: ``seat``'s player takes the device ("show my hand")."""
        if self.seating.mode != "hotseat":
            raise TableError("only a game for two players on one device changes hands")
        if seat not in self.servable_seats():
            raise NotYourTurnError(f"seat {seat} has nothing to do now: its cards stay hidden")
        self.holder = seat
        return {**self.show(), "save": self.kept}

    # -------------------------------------------------------------- assistance

    def undo_refusal(self) -> str | None:
        """Why the person may not take back a move now (None: they may)."""
        match = self.match
        if match.deal.over:
            return "the deal is over: only moves of a deal in play can be taken back"
        if not any(who == PERSON for who, _ in match.records[-1].actions):
            return "nothing of yours to take back in this deal"
        return None

    def undo(self) -> Undone:
        if self.seating.mode != "computer" or not self.seating.assisted:
            raise TableError(f"undo is not available in {self._what()}")
        why = self.undo_refusal()
        if why:
            raise IllegalActionError(why)
        from . import review  # imported on first use

        self.match, removed = review.undo(self.match, PERSON)
        return {"undone": removed, **self.show(), "save": self.kept}

    def hint(self, budget_ms: int | None = None, seed: int | None = None, started: float | None = None) -> HintAnswer:
        """The viewer's options ranked; the budget counts from ``started`` as in :meth:`computer_move`."""
        viewer = self.viewer()
        if not self.seating.assisted:
            raise TableError(f"a hint is not available in {self._what()}")
        if viewer is None:
            raise NotYourTurnError("the device is changing hands")
        if self.match.finished:
            raise GameOverError("the game is over")
        from .. import ai  # imported on first use

        ranking = ai.rank(self.match, viewer.seat, ai.Request(budget_ms=budget_ms, seed=seed, started=started))
        return {"ranking": [{"action": action_name(a), "value": v} for a, v in ranking]}

    def _what(self) -> str:
        return "a ranked game" if self.seating.ranked else f"this mode ({self.seating.mode})"

    # ----------------------------------------------------------------- records

    def saved(self) -> dict[str, Any]:
        """Everything needed to restore the table (the whole record: the worker's, never the page's)."""
        return {"record": self.match.record(), "seating": self.seating.to_json(), "holder": self.holder}

    @classmethod
    def restore(cls, saved: Any) -> Table:
        """A table from :meth:`saved`'s output (or a bare record with a ``players`` field); raises BadRecordError."""
        if isinstance(saved, dict) and "record" in saved:
            holder = saved.get("holder")
            seating = Seating.from_json(saved.get("seating"))
            return cls(load_record(saved["record"]), seating, holder if is_seat(holder) else None)
        players = saved.get("players") if isinstance(saved, dict) else None
        return cls(load_record(saved), Seating.from_json(players), kept=False)

    def export(self) -> dict[str, Any]:
        """The record for a file: finished deals only, and no seed while the game can go on.

        The deal in play is left out (its pack is secret) and the seed would
        foretell the next deals' packs. Every deal keeps its own pack, so the
        file still replays exactly. ``players`` names the seats for a review.
        """
        match = self.match
        record = match.record()
        deals = record["deals"] if match.deal.over else record["deals"][:-1]
        if not deals:
            raise NothingFinishedError("no deal of this game is finished yet")
        out = {**record, "deals": deals}
        if not match.finished:
            out["seed"] = 0
        out["players"] = self.seating.to_json()
        return out

    def deals(self) -> list[DealEntry]:
        """The deals of the game, without cards: index, dealer, number of actions, finished."""
        records = self.match.records
        last_over = self.match.deal.over
        return [
            {
                "index": i,
                "dealer": r.dealer,
                "actions": len(r.actions),
                "finished": i < len(records) - 1 or last_over,
            }
            for i, r in enumerate(records)
        ]

    def review(
        self, index: int, evaluate: list[int], budget_ms: int | None, seed: int = 0, from_step: int = 0
    ) -> Review:
        """Deal ``index`` (0-based, in the whole game) with every card shown; ``evaluate``: seats whose decisions
        from step ``from_step`` on carry the computer's opinion (in parts: see ``review_deal``)."""
        if not 0 <= index < len(self.match.records):
            raise EngineError(f"no deal {index} in this game")
        from . import review  # imported on first use

        return review.review_deal(self.match, index + 1, tuple(evaluate), budget_ms, seed, from_step)


class NothingFinishedError(EngineError):
    code = "nothing_finished"
