"""The protocol's answers as types: every command's answer and the shapes they share (docs/protocol.md).

The handlers' return annotations name these, ``python build.py types`` writes
the page's ``types/engine.d.ts`` from this module (each docstring becomes the
JSDoc comment: a class's for the type, the string after a field for the
field), and ``tests/test_contract.py`` plays real sessions through the
protocol and checks every answer against its type here, so the three cannot
drift apart. Only the engine's tools and tests import this module at run time
(the handlers import it for the type checker only). It is evaluated at import,
without ``from __future__ import annotations``, so that ``NotRequired`` marks
optional keys at run time too (Python 3.11 loses it from postponed annotations).

Conventions the generator follows: a ``TypedDict`` becomes an ``interface``
(``NotRequired`` fields optional), a ``TypeAlias`` a ``type``; ``int`` and
``float`` are ``number``, ``None`` is ``null``, ``tuple[X, Y]`` a tuple,
``dict[K, V]`` a ``Record<K, V>``, and ``Any`` (``unknown`` for the page)
marks JSON the page only passes on or that is open by design: a record, a
report, a verdict, a signed message's links. The rules' value types are
:mod:`py_engine.core.rules`'s.
"""

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from ..core.rules import (
    RuleSet,
)

# ------------------------------------------------------------------ the basics

Card: TypeAlias = str
"""A card: rank A T K Q J 9 and suit H D C S ("QH")."""
Suit: TypeAlias = str
"""A suit: "H", "D", "C" or "S"."""
Seat: TypeAlias = int
"""A seat: 0 or 1 (the protocol's own numbers, absolute)."""
Action: TypeAlias = str
"""An action in the protocol's text: "play:QH", "marry:H", "exchange", "close", "claim", "pass", "resign", "next"."""
Scores: TypeAlias = tuple[int, int]
"""Seat 0's and seat 1's numbers."""
Forfeit: TypeAlias = Literal["resigned", "time", "abandoned"]
"""How a game ended early: resigned, lost on time, or abandoned by both."""

RuleValue: TypeAlias = bool | int | str
"""A value of a rules parameter."""
Rules: TypeAlias = dict[str, RuleValue]
"""A rules value, parameter id -> value: some parameters (custom rules' changes), or all of them."""


#: Interfaces the page's types extend beyond their Python bases: for the page a rule set (py_engine/core/rules.py
#: RuleSet) is also a ``Rules``,
#: indexed by a parameter's id (the page lists the parameters from the "rules" answer).
PAGE_EXTENDS: dict[str, str] = {"RuleSet": "Rules"}


class RulesParameter(TypedDict):
    """One of the engine's "rules" answer: a parameter and its values, in order."""

    id: str
    values: list[RuleValue]


class Preset(TypedDict):
    """One of the engine's presets ("presets" command)."""

    id: str
    name: str
    rules: RuleSet


class RulesErrorDetail(TypedDict):
    """A bad_rules, bad_record or bad_link error's particulars: why, and the values concerned."""

    reason: NotRequired[str]
    values: NotRequired[dict[str, Any]]
    """Open: each reason's own particulars (py_engine/core/rules.py RulesError)."""


GameRecord: TypeAlias = dict[str, Any]
"""A record file's content (docs/protocol.md, "Records"): open JSON, the page only passes it on."""

# ------------------------------------------------------------------ the cards on the table


class Played(TypedDict):
    """A card put on the table, and by whom."""

    seat: Seat
    card: Card


class Trick(TypedDict):
    """A finished trick."""

    leader: Seat
    cards: list[Played]
    winner: Seat
    points: int


class Marriage(TypedDict):
    """A marriage declared in the deal."""

    seat: Seat
    suit: Suit
    points: int
    credited: bool
    """False while its points wait for the seat's first trick."""


class AtClose(TypedDict):
    """The non-closer's tricks and points when the talon was closed."""

    tricks: int
    points: int


class DealResult(TypedDict):
    """How a deal ended (py_engine/core/scoring.py DealResult; ``reason`` is English, for logs)."""

    winner: Seat | None
    game_points: int
    code: str
    """claim_66, auto_66, wrong_claim, close_success, close_failed, resigned, last_trick, …"""
    basis: str
    """schwarz, schneider, simple, failed_close_2, penalty_3, fixed_1, none, …"""
    by: Seat | None
    """The seat that claimed, resigned or closed (null when nobody did)."""
    carry_over: bool
    """A tie whose game point carries over to the next deal's winner (no66_tie carry_over)."""
    at_close: AtClose | None
    """A successful close under close_basis at_close: the non-closer's tricks and points when the talon was closed."""
    reason: NotRequired[str]
    """In a seat's view and events: the result in English words, for logs."""


class Reveal(TypedDict):
    """Every card of a finished deal, shown to both seats."""

    hands: tuple[list[Card], list[Card]]
    talon: list[Card]
    points: Scores
    card_points: Scores
    tricks: Scores


class Ended(TypedDict):
    """The game ended early: ``seat`` resigned it or ran out of time; abandoned by both: ``seat`` null."""

    seat: Seat | None
    reason: Forfeit


class MatchInfo(TypedDict):
    """The match around the deal."""

    scores: Scores
    target: int
    dealer: Seat
    deal_number: int
    carry_over: int
    match_number: int
    matches_won: Scores
    session_bummerls: int
    winner: Seat | None
    session_over: bool
    ended: Ended | None
    """The game ended early: resigned, lost on time, or abandoned by both (seat null)."""


class SheetDeal(DealResult):
    """A finished deal on the score sheet (py_engine/service/match.py SheetLine): its deal_result and where it
    stands."""

    match: int
    """The match (Bummerl) it belongs to (1-based)."""
    deal: int
    """Its number in that match (1-based)."""
    dealer: Seat
    carried: int
    """Game points carried over from tied deals, also scored by this deal's winner."""
    scores: Scores
    """The match score after it, seat 0's and seat 1's."""


class SheetBummerl(TypedDict):
    """A finished match of the session (py_engine/service/match.py BummerlLine)."""

    match: int
    winner: Seat | None
    scores: Scores
    deals: int
    """Deals finished in it."""
    ended: Ended | None
    """The game ended early in it (a forfeit)."""


class Sheet(TypedDict):
    """The score sheet (py_engine/service/views.py sheet()): seats absolute, as in MatchInfo."""

    deals: list[SheetDeal]
    bummerls: list[SheetBummerl]


class MarriageOffer(TypedDict):
    """A marriage the seat may declare now, or (in a review) what each suit's marriage is worth."""

    points: int
    cards: list[Card]


Phase: TypeAlias = Literal["open", "closed", "exhausted", "deal_over", "match_over", "session_over"]
"""Where the game stands (py_engine/service/match.py Match.phase)."""


class View(TypedDict):
    """What one seat may see (py_engine/service/views.py view()). ``seat`` is the seat drawn at the bottom;
    ``my_*``, ``opponent_*`` and ``hand`` count from it."""

    seat: Seat
    to_act: Seat | None
    phase: Phase
    dealer: Seat
    leader: Seat | None
    trump_suit: Suit
    trump_card: Card | None
    """The face-up trump card under the talon (null once taken, or under a closed talon)."""
    closed_trump_card: Card | None
    """The trump card turned face down by closing the talon."""
    talon_count: int
    closed_by: Seat | None
    hand: list[Card]
    opponent_hand_count: int
    opponent_known: list[Card]
    """The other hand's cards known to this seat (shown in a marriage, taken in an exchange)."""
    opponent_shown: list[Card] | None
    """The other hand face up (a watcher sees both), else null."""
    talon_shown: NotRequired[list[Card] | None]
    """A puzzle's view (puzzle_*), when every card is shown: the face-down talon, in the order it is drawn."""
    trick: list[Played]
    last_trick: Trick | None
    my_points: int
    my_card_points: int
    opponent_points: int
    my_tricks: list[tuple[Card, Card]]
    opponent_tricks: list[tuple[Card, Card]]
    tricks_played: int
    marriages: list[Marriage]
    declared: Suit | None
    declared_cards: list[Card]
    marriage_offers: dict[Suit, MarriageOffer]
    strict: bool
    points_to_win: int
    claim_window: bool
    claim_valid: bool
    """A claim of 66 now would be valid: it is legal and the seat's own points reach 66."""
    awaiting_final_claims: bool
    legal: list[Action]
    deal_result: DealResult | None
    reveal: NotRequired[Reveal]
    """Set with deal_result; the hand-over curtain leaves it out."""
    checking: NotRequired[bool]
    """Online: the deal is over and both engines are checking its keys; the reveal comes once they have."""
    match: MatchInfo
    game_over: bool
    rules: RuleSet
    sheet: Sheet | None
    """The score sheet; null in the views of an answer's frames (only the answer's view has it)."""


# ------------------------------------------------------------------ events


class DealEvent(TypedDict):
    """A new deal: the dealer, the trump card and the viewer's hand (in a review, where every card shows: both
    hands)."""

    type: Literal["deal"]
    dealer: Seat
    trump_card: Card
    hand: NotRequired[list[Card]]
    """The viewer's hand (a seat's events)."""
    hands: NotRequired[tuple[list[Card], list[Card]]]
    """Both hands, by seat (a review's and a board's events)."""


class PlayEvent(TypedDict):
    """A card played."""

    type: Literal["play"]
    seat: Seat
    card: Card


class TrickEvent(TypedDict):
    """A trick taken."""

    type: Literal["trick"]
    leader: Seat
    cards: tuple[Card, Card]
    """The two cards in the order played."""
    winner: Seat
    points: int
    bonus: int
    """The last trick's bonus, if any."""


class DrawEvent(TypedDict):
    """A card drawn from the talon."""

    type: Literal["draw"]
    seat: Seat
    face_up: bool
    """The trump card, drawn last."""
    card: NotRequired[Card]
    """Left out when the viewer may not see it."""


class ExhaustedEvent(TypedDict):
    """The talon is used up."""

    type: Literal["exhausted"]


class MarriageEvent(TypedDict):
    """A marriage declared."""

    type: Literal["marriage"]
    seat: Seat
    suit: Suit
    points: int
    credited: bool
    cards: list[Card]
    """The king and the queen shown."""


class MarriageCreditedEvent(TypedDict):
    """A marriage's points counted at last."""

    type: Literal["marriage_credited"]
    seat: Seat
    suit: Suit
    points: int


class ExchangeEvent(TypedDict):
    """The trump card taken and the trump jack given."""

    type: Literal["exchange"]
    seat: Seat
    took: Card
    gave: Card


class CloseEvent(TypedDict):
    """The talon closed."""

    type: Literal["close"]
    seat: Seat


class ClaimEvent(TypedDict):
    """A claim of 66, valid or not, and the claimer's points."""

    type: Literal["claim"]
    seat: Seat
    valid: bool
    total: int


class PassEvent(TypedDict):
    """A seat let its claim window pass."""

    type: Literal["pass"]
    seat: Seat


class ResignEvent(TypedDict):
    """A seat resigned the deal."""

    type: Literal["resign"]
    seat: Seat


class DealEndEvent(DealResult):
    """The deal is over: its result."""

    type: Literal["deal_end"]


class ScoreEvent(TypedDict):
    """Game points scored, and the match score after them."""

    type: Literal["score"]
    seat: Seat
    game_points: int
    scores: Scores


class MatchEndEvent(TypedDict):
    """A match (Bummerl) won."""

    type: Literal["match_end"]
    winner: Seat
    scores: Scores
    matches_won: Scores
    session_over: bool


class ForfeitEvent(TypedDict):
    """The game ended early: ``seat`` resigned it or ran out of time; both gone: seat and winner null."""

    type: Literal["forfeit"]
    seat: Seat | None
    reason: Forfeit
    winner: Seat | None


class NextEvent(TypedDict):
    """A new match of the session begins."""

    type: Literal["next"]
    match_number: int


GameEvent: TypeAlias = (
    DealEvent
    | PlayEvent
    | TrickEvent
    | DrawEvent
    | ExhaustedEvent
    | MarriageEvent
    | MarriageCreditedEvent
    | ExchangeEvent
    | CloseEvent
    | ClaimEvent
    | PassEvent
    | ResignEvent
    | DealEndEvent
    | ScoreEvent
    | MatchEndEvent
    | ForfeitEvent
    | NextEvent
)
"""An event as the viewer may see it (py_engine/core/info.py Observer), or in full in a review, by its type."""


class Frame(TypedDict):
    """One step of an animation: an event and the viewer's view right after it."""

    event: GameEvent
    view: View


# ------------------------------------------------------------------ tables

Mode: TypeAlias = Literal["computer", "hotseat", "watch", "online"]
"""Who plays whom at a table."""


class Seating(TypedDict):
    """A game's mode and seats: who plays whom (py_engine/service/table.py Seating.to_json)."""

    mode: Mode
    ranked: bool
    names: tuple[str, str] | None
    """Two players: their names ("" for the default)."""
    levels: tuple[int | None, int | None] | None
    """The computer's level at each seat (null where a person sits)."""
    assisted: NotRequired[bool]
    """Do hints (and, against the computer, undo) exist in this game?"""


class May(TypedDict):
    """What the page may offer now (py_engine/service/table.py Table.rights)."""

    undo: NotRequired[bool]
    hint: NotRequired[bool]
    claim_for_other: NotRequired[bool]
    computer_move: NotRequired[bool]


class Handover(TypedDict):
    """While a shared device changes hands: who takes it, and who may still claim 66 meanwhile."""

    seat: Seat
    claim: Seat | None


class RemoteAnswer(TypedDict):
    """An online table's answer for the other seat: its frames and what it draws (the host sends it on)."""

    view: View | None
    handover: Handover | None
    may: May
    seating: Seating
    frames: list[Frame]


class TableAnswer(TypedDict):
    """The table's answer to a change (table_new, table_act, table_computer, table_take, table_undo, table_show,
    table_restore): what to draw now, a view or (two players changing hands) the hand-over screen, and the frames
    that lead there."""

    view: View | None
    handover: Handover | None
    may: May
    seating: Seating
    frames: NotRequired[list[Frame]]
    """One per event since the last answer (none for table_new, table_show, table_take, table_undo)."""
    save: NotRequired[bool]
    """Whether the worker stores the table after this answer."""
    remote: NotRequired[RemoteAnswer]
    """An online table (mode "online"): the other seat's answer to the same change."""


class OpenedTable(TableAnswer):
    """A table made or restored: its handle, and what to draw."""

    table: str
    """The table's handle."""


class ComputerMoved(TableAnswer):
    """table_computer's answer: the computer's action and the table after it."""

    action: Action


class Undone(TableAnswer):
    """table_undo's answer: how many actions were taken back."""

    undone: int


class Ranked(TypedDict):
    """One action of the hint's ranking, with its value for the seat (game points / 3)."""

    action: Action
    value: float


class HintAnswer(TypedDict):
    """table_hint's answer: the seat's options, best first."""

    ranking: list[Ranked]


class RecordAnswer(TypedDict):
    """table_export's answer."""

    record: GameRecord


class DealEntry(TypedDict):
    """A deal of a game, without cards (table_deals, table_import)."""

    index: int
    dealer: Seat
    actions: int
    finished: bool


class DealsAnswer(TypedDict):
    """table_deals's answer."""

    deals: list[DealEntry]
    seating: Seating


class ImportAnswer(DealsAnswer):
    """table_import's answer: the record's game as a table of its own."""

    table: str


class SnapshotMarriage(TypedDict):
    """A marriage declared, in a snapshot."""

    seat: Seat
    suit: Suit
    points: int


class Snapshot(TypedDict):
    """A whole deal's state, every card shown (py_engine/service/review.py snapshot)."""

    hands: tuple[list[Card], list[Card]]
    talon: list[Card]
    trump_card: Card | None
    closed_by: Seat | None
    trick: list[Played]
    points: Scores
    tricks: Scores
    marriages: list[SnapshotMarriage]
    to_act: Seat | None


class ReviewStep(TypedDict):
    """One action of a reviewed deal, with the computer's opinion when its seat was evaluated."""

    seat: Seat
    action: Action
    ranking: NotRequired[list[Ranked]]
    clearly_worse: NotRequired[bool]
    exact: NotRequired[bool]
    """The ranking's values are exact (every card known, solved), not estimated."""
    events: list[GameEvent]
    state: Snapshot


class Review(TypedDict):
    """A finished deal move by move (table_review)."""

    deal: int
    dealer: Seat
    start: Snapshot
    steps: list[ReviewStep]
    next_step: int | None
    """The first step whose evaluation is left for the next request (from_step), or null when none is."""
    result: DealResult
    trump_suit: Suit
    marriage_offers: dict[Suit, MarriageOffer]
    """Each suit's marriage in this deal: its points and cards (to say a ranked marriage in words)."""


class ReviewAnswer(TypedDict):
    """table_review's answer."""

    review: Review
    seating: Seating


class Nothing(TypedDict):
    """An answer with nothing in it (a close)."""


# ------------------------------------------------------------------ analysis


class Taken(TypedDict):
    """A trick a move completed: who took it and its points."""

    winner: Seat
    points: int


class BoardNode(TypedDict):
    """One position of an analysis board's tree (py_engine/service/analysis.py Node)."""

    id: int
    parent: int | None
    seat: Seat | None
    action: Action | None
    main: bool
    """On the deal as played."""
    ply: int
    children: list[int]
    """The children: the deal's own move first where there is one, then the variations in the order played."""
    trick: int | None
    """The trick the move belongs to (1-based), or null after the last trick."""
    taken: Taken | None
    """The trick the move completed."""
    valid: NotRequired[bool]
    """A claim: whether it was valid."""
    points: NotRequired[int]
    """A marriage: its points."""


class SeatAction(TypedDict):
    """An action and the seat that takes it."""

    seat: Seat
    action: Action


class BoardPosition(TypedDict):
    """A position of an analysis board, every card shown."""

    node: int
    ply: int
    main: bool
    state: Snapshot
    events: list[GameEvent]
    """The events of the move that led here."""
    options: list[SeatAction]
    """What may be played here: the seat on turn's actions, then the other seat's claim where it may claim."""
    to_act: Seat | None
    played: Action | None
    """The deal's own move from here (null: not on the deal as played, or its end)."""
    over: bool
    result: DealResult | None


class BoardAbout(TypedDict):
    """What stays the same on a whole analysis board: the rules, the trump suit, the marriages' values, the context
    (py_engine/service/analysis.py Board.about)."""

    rules: RuleSet
    dealer: Seat
    seat: Seat
    """The seat drawn at the bottom."""
    trump_suit: Suit
    marriage_offers: dict[Suit, MarriageOffer]
    scores: Scores
    carry: int
    moves: int


class BoardAnswer(BoardAbout):
    """An analysis board as it opens (analysis_open, link_open)."""

    board: str
    tree: list[BoardNode]
    position: BoardPosition


class PositionAnswer(TypedDict):
    """analysis_show's answer."""

    position: BoardPosition


class BoardChanged(TypedDict):
    """analysis_play's and analysis_remove's answer: the node now shown, the tree and the position there."""

    node: int
    tree: list[BoardNode]
    position: BoardPosition


class RankedExactly(TypedDict):
    """An option valued for the seat to move (game points / 3), and whether the value is exact."""

    action: Action
    value: float
    exact: bool


class Evaluation(TypedDict):
    """The options of the seat to move, valued for it (game points / 3), best first (analysis_evaluate)."""

    node: int
    all_cards: bool
    seat: Seat | None
    """The seat to move (null: nothing to decide here)."""
    ranking: list[RankedExactly]
    exact: bool
    stats: NotRequired[dict[str, Any]]
    """The search's statistics (open: for tools and tests)."""


class EvaluationAnswer(TypedDict):
    """analysis_evaluate's answer."""

    evaluation: Evaluation


class LinkAnswer(TypedDict):
    """link_make's answer: the link's text (``#deal=…`` or ``#puzzle=…`` without the ``#``)."""

    link: str


class DealLinkAnswer(BoardAnswer):
    """link_open's answer to a deal's link: the board it opens."""

    kind: Literal["deal"]


class PuzzleLinkAnswer(TypedDict):
    """link_open's answer to a puzzle's link: the puzzle's id."""

    kind: Literal["puzzle"]
    puzzle: str


LinkOpenAnswer: TypeAlias = DealLinkAnswer | PuzzleLinkAnswer
"""link_open's answer, by the link's kind."""

# ------------------------------------------------------------------ puzzles

PuzzleKind: TypeAlias = Literal["hidden", "double_dummy"]
"""A puzzle's kind: solved over the worlds the side cannot tell apart, or with every card shown."""
Band: TypeAlias = Literal["easy", "medium", "hard", "expert"]
"""A puzzle's difficulty in words."""
Theme: TypeAlias = Literal["closing", "endgame", "marriage", "exchange", "schneider", "claiming"]
"""What a puzzle is about."""
Result: TypeAlias = Literal["solved", "failed"]
"""How an attempt ended."""


class PuzzleEntry(TypedDict):
    """A puzzle as listed: nothing of its cards (py_engine/puzzles/catalogue.py Puzzle.entry)."""

    id: str
    preset: str
    kind: PuzzleKind
    themes: list[Theme]
    difficulty: int
    band: Band
    goal: int
    """The side's signed game points that the solution guarantees."""
    side: Seat
    worlds: int


class PuzzleList(TypedDict):
    """puzzle_list's answer: the puzzles in the catalogue's order, and the filters' values."""

    puzzles: list[PuzzleEntry]
    count: int
    themes: list[Theme]
    bands: list[Band]


AttemptStatus: TypeAlias = Literal["playing", "solved", "failed", "shown"]
"""Where an attempt at a puzzle stands: being solved, solved, failed, or given up for the solution."""


class AttemptState(TypedDict):
    """An attempt's state (py_engine/puzzles/solving.py Session.state)."""

    state: AttemptStatus
    to_move: bool
    """The side is to act."""
    moves: int
    """The side's moves so far."""
    goal: int


class PuzzleState(AttemptState):
    """An attempt's state and the side's view."""

    view: View


class PuzzleAnswer(PuzzleState):
    """puzzle_open's answer: the attempt's handle, the puzzle and its position."""

    puzzle: str
    entry: PuzzleEntry
    first: NotRequired[bool]
    """With the request's ``progress``: whether this attempt is the first at the puzzle (the one that is rated)."""


class Earlier(TypedDict):
    """How the attempt cut short stood."""

    state: Literal["playing", "solved", "failed"]
    moves: int


class PuzzleResumeAnswer(PuzzleAnswer):
    """puzzle_resume's answer: a new attempt at the position, the daily date checked, and how the attempt cut short
    stood."""

    daily: str | None
    earlier: Earlier


class PuzzleWorld(TypedDict):
    """A deal the puzzle could be: both hands (by seat) and the face-down talon, in the order it is drawn."""

    hands: tuple[list[Card], list[Card]]
    talon: list[Card]


PuzzleLine: TypeAlias = list[SeatAction]
"""Moves from a position, each by its seat."""


class Refutation(TypedDict):
    """The deal that refutes a wrong move, the play there and the side's game points at its end."""

    world: PuzzleWorld
    line: PuzzleLine
    value: int


class PuzzleRight(PuzzleState):
    """puzzle_move's answer to a correct move: the frames up to the side's next move (or the deal's end)."""

    correct: Literal[True]
    frames: list[Frame]


class PuzzleWrong(PuzzleState):
    """puzzle_move's answer to a wrong move: the game points it gives away against the goal, and its refutation."""

    correct: Literal[False]
    frames: list[Frame]
    """The wrong move's only: the refutation shows the rest."""
    loss: int
    refutation: Refutation


PuzzleMoveAnswer: TypeAlias = PuzzleRight | PuzzleWrong
"""puzzle_move's answer, by whether the move was correct."""


class SolutionLine(TypedDict):
    """A first move of the solution: its worst world's value, its loss against the goal and its line."""

    action: Action
    value: int
    loss: int
    line: PuzzleLine
    world: PuzzleWorld | None


class PuzzleSolution(TypedDict):
    """The solution: the answer's line first, then every other first move at its worst."""

    goal: int
    answer: list[Action]
    lines: list[SolutionLine]


class PuzzleSolutionAnswer(PuzzleState):
    """puzzle_solution's answer."""

    solution: PuzzleSolution


class PuzzleDaily(TypedDict):
    """puzzle_daily's answer: the date and its puzzle."""

    date: str
    entry: PuzzleEntry


class DailyRun(TypedDict):
    """The run of daily puzzles: the date of the last one solved, and the days solved in a row."""

    last: str | None
    streak: int


class PuzzleRated(TypedDict):
    """puzzle_rate's answer: the player's numbers after an attempt."""

    rating: float
    deviation: float
    volatility: float
    change: float
    expected: float
    streak: int
    best: int
    daily: NotRequired[DailyRun]


class PuzzleRecord(TypedDict):
    """One puzzle's record: the first attempt's result, whether it was ever solved, how many attempts, the last
    date."""

    first: Result
    solved: bool
    tries: int
    last: str


class DailyProgress(DailyRun):
    """The daily puzzles' run, and each day's result (the latest 60)."""

    days: dict[str, Result]


class PuzzleProgress(TypedDict):
    """The player's puzzles as the page keeps them and the engine updates them (py_engine/puzzles/progress.py)."""

    version: int
    rating: float
    deviation: float
    volatility: float
    streak: int
    best: int
    puzzles: dict[str, PuzzleRecord]
    daily: DailyProgress
    history: list[float]


class PuzzleRecordAnswer(TypedDict):
    """puzzle_record's answer: the progress after the attempt; ``rated`` only for a first attempt."""

    progress: PuzzleProgress
    first: bool
    rated: PuzzleRated | None
    daily: DailyRun | None
    """The run of daily puzzles after it, when the attempt counted as that day's daily puzzle."""


class PuzzleSummary(TypedDict):
    """Puzzles tried, solved at the first try, and solved."""

    tried: int
    first_try: int
    solved: int


class PuzzleProgressAnswer(TypedDict):
    """puzzle_progress's answer: what the puzzles screen shows (a puzzle not in ``states`` is new)."""

    states: dict[str, Result]
    summary: PuzzleSummary
    daily_run: int
    daily_today: Result | None


# ------------------------------------------------------------------ statistics


class WonLost(TypedDict):
    """Won and lost counts."""

    won: int
    lost: int


class DealCounts(WonLost):
    """Deals won, lost and without a winner."""

    none: int


class Closes(TypedDict):
    """Talons the player closed, and won."""

    made: int
    won: int


class Marriages(TypedDict):
    """The player's marriages, and their points."""

    count: int
    points: int


class StatsTotals(TypedDict):
    """Counts summed over the statistics' buckets: a bucket's own, or a sum of some."""

    deals: DealCounts
    matches: WonLost
    points: WonLost
    basis: dict[str, WonLost]
    closes: Closes
    marriages: Marriages


class StatsBucket(StatsTotals):
    """One rule set ("custom": changed rules) at one level (0: unknown, from schema 1)."""

    preset: str
    custom: bool
    level: int


class RatingPoint(TypedDict):
    """The rating after a finished match: when (ms), the rating, the computer's level and whether it was won."""

    t: float
    rating: float
    level: int
    won: bool


class CurrentGame(TypedDict):
    """The game in play: the deals counted of it, whether it counts, and whether it was assisted."""

    recorded: list[str]
    counted: bool
    assisted: NotRequired[bool]


class GameStats(TypedDict):
    """The statistics of games against the computer, schema 2 (py_engine/service/game_stats.py)."""

    schema: int
    since: float
    rating: float
    rated: int
    history: list[RatingPoint]
    buckets: dict[str, StatsBucket]
    current: CurrentGame | None


class StatsAnswer(TypedDict):
    """stats_begin's answer."""

    stats: GameStats


class StatsChanged(StatsAnswer):
    """stats_assisted's and stats_record's answer: the statistics after it, and whether they changed."""

    changed: bool


# ------------------------------------------------------------------ the lobby


class SignedResult(TypedDict):
    """A signed result: four links of a finished match's transcript (docs/online.md, "Strangers")."""

    format: Literal["sixty-six/result-1"]
    match: str
    identities: tuple[str, str]
    links: list[dict[str, Any]]
    """Open: the transcript's signed links, as they were signed."""


class RatingRefusal(TypedDict):
    """A signed result that did not count, and why."""

    index: int | None
    what: str
    message: str


class LobbyRating(TypedDict):
    """A player's rating in one pool of rules, and the signed results that did not count, each with why."""

    pool: str
    rating: float
    games: int
    refused: list[RatingRefusal]


class LobbyOffer(TypedDict):
    """An open table's offer to publish (``offer``: its text), its id and the rating it claims."""

    offer: str
    id: str
    pool: str
    rating: float
    games: int


class LobbyOpened(LobbyOffer):
    """lobby_open's answer: the open table's handle and its offer."""

    table: str


class LobbyRenewed(LobbyOffer):
    """lobby_renew's answer: the offer again, and when it expires."""

    expires: float


class Joiner(TypedDict):
    """A player who joined an open table."""

    identity: str
    name: str


class Joined(TypedDict):
    """lobby_answer's answer to a request that takes the table."""

    joined: Joiner


class JoinRefusal(TypedDict):
    """Why a joiner was turned away."""

    what: Literal["taken", "closed", "expired", "forged", "blocked", "flood", "malformed"]
    message: str


class JoinRefused(TypedDict):
    """lobby_answer's answer to a request that does not take the table."""

    refused: JoinRefusal


LobbyAnswer: TypeAlias = Joined | JoinRefused
"""lobby_answer's answer: the joiner, or why it was turned away."""


class LobbyClosed(TypedDict):
    """lobby_close's answer: the id of the table closed."""

    closed: str


class LobbyTable(TypedDict):
    """A table in the lobby; ``checked``: its rating is what its attached signed results give."""

    id: str
    identity: str
    name: str
    lang: str
    rules: RuleSet
    pool: str
    rating: float
    games: int
    checked: bool
    open_ms: float
    expires: float


class LobbyRead(TypedDict):
    """lobby_read's answer: the tables, the longest open first, and a count of the offers refused per reason."""

    tables: list[LobbyTable]
    refused: dict[str, int]


class LobbyQuick(TypedDict):
    """lobby_quick's answer: the best table of those read, or null."""

    table: LobbyTable | None


class LobbyRefused(TypedDict):
    """lobby_refused's answer: until when (ms) Quick game leaves the table."""

    until: int


class LobbyRequest(TypedDict):
    """lobby_request's answer: the text to send to the table's opener."""

    request: str


# ------------------------------------------------------------------ online play (protocol 2)


class PeerRoom(TypedDict):
    """Protocol 2: the room a host's first message offers, as the joining page's engine read it."""

    match: str
    rules: RuleSet
    name: str
    """The host's name, as it signed it."""
    identity: str
    """The host's identity (its browser proved it on the channel)."""


class PeerOffer(TypedDict):
    """peer_offer's answer."""

    room: PeerRoom


EndReason: TypeAlias = Literal["played", "conceded", "time", "cheat", "abandoned"]
"""Why an online match ended."""


class PeerResult(TypedDict):
    """How a match ended: the winner, why, and what shows it (open: the reason's own evidence)."""

    winner: Seat | None
    reason: EndReason
    evidence: dict[str, Any]


class PeerEnding(PeerResult):
    """Protocol 2: how a match ended, as this seat signed it (py_engine/service/online/peer.py)."""

    agreed: bool
    """Both seats signed it."""
    link: int
    """The number of this seat's result link in the transcript (a later claim by the other must not have read it)."""


VoiceEnding: TypeAlias = Literal["declined", "withdrawn", "hung_up", "lost"]
"""How a voice call or request ended (py_engine/service/online/voice.py VOICE_ENDINGS)."""


class LastCall(TypedDict):
    """How the last call or request ended, and by whom."""

    by: Seat
    why: VoiceEnding


class OnlineVoice(TypedDict):
    """Online: the consent to a voice call (py_engine/service/online/voice.py): on only once both accepted."""

    on: bool
    call: int
    """The engine's number of the last call put through (the media signals name it)."""
    asked: Seat | None
    """The seat that asked and waits for the other's answer."""
    muted: list[Seat]
    last: LastCall | None
    """How the last call or request ended."""


class Shown(TypedDict):
    """The other's hand shown to this seat, until when."""

    cards: list[Card]
    until: float


class Cheat(TypedDict):
    """A cheat this page proved: by whom, and what."""

    by: Seat | None
    what: str


class Accused(TypedDict):
    """The other page's claim that this one cheated."""

    what: str
    detail: str


class PeerStatus(TypedDict):
    """Protocol 2: the session's status, this page's clock (ms) for every time."""

    seat: Seat
    match: str
    names: tuple[str | None, str | None]
    identities: tuple[str, str]
    playing: bool
    legal: list[Action]
    scores: Scores | None
    now: float
    joined: bool
    away: bool
    away_since: float | None
    paused: dict[str, float]
    """Seat → when its pause runs out."""
    stand_in: list[Seat]
    voice: OnlineVoice
    shown: Shown | None
    """The other's hand shown to this seat, until when."""
    ending: PeerEnding | None
    result: PeerResult | None
    """The result both seats signed (null until they have)."""
    certificate: SignedResult | None
    """That result as a signed result anyone can check (py_engine/service/lobby/certificate.py); kept by the page."""
    cheat: Cheat | None
    """A cheat this page proved against the other."""
    accused: Accused | None
    """The other page's claim that this one cheated (never signed here)."""
    rematch: list[Seat]


class ChatLine(TypedDict):
    """A chat line: text, or a phrase each page words in its own language."""

    seat: Seat
    text: NotRequired[str]
    phrase: NotRequired[str]
    at: NotRequired[float]


class Refused(TypedDict):
    """A message of the other page refused: the error's code and words."""

    code: str
    message: str


class PeerAnswer(TypedDict):
    """Protocol 2: every peer_* answer."""

    send: list[str]
    """Texts for the other page, in order, unchanged."""
    view: View | None
    """This seat's view (null while its hand is being dealt)."""
    frames: list[Frame]
    """The events since the seat's last view, each with its view after it (none across a new deal)."""
    status: PeerStatus
    chat: list[ChatLine]
    finished: NotRequired[PeerStatus]
    """After a rematch began: how the match before ended."""
    refused: NotRequired[Refused]
    accepted: NotRequired[int]
    save: NotRequired[bool]


class PeerOpened(PeerAnswer):
    """peer_open's answer: the session's handle, and the first answer."""

    session: str


class PeerReport(TypedDict):
    """peer_report's answer: this page's game with its secret for this match, and the chat (open JSON: the file
    anyone can check)."""

    report: dict[str, Any]


class PeerVerdict(TypedDict):
    """peer_verify_report's answer: the check's verdict (as ``python -m lab.verify_match --json``: open JSON) and
    its words."""

    verdict: dict[str, Any]
    words: list[str]


# ------------------------------------------------------------------ by command


class PresetsAnswer(TypedDict):
    """presets's answer."""

    presets: list[Preset]
    levels: list[int]
    """The computer's levels a table offers."""
    default_level: int
    """The engine's (py_engine/service/defaults.py)."""


class RulesAnswer(TypedDict):
    """rules's answer: every parameter and its values."""

    parameters: list[RulesParameter]


class CheckedRules(TypedDict):
    """check_rules's answer: the rules new_game would play."""

    rules: RuleSet


class OpenedGame(TypedDict):
    """new_game's and load's answer: the game's handle and seat 0's view."""

    game: str
    view: View


class ViewAnswer(TypedDict):
    """view's answer: a seat's view."""

    view: View


class LegalAnswer(TypedDict):
    """legal's answer: a seat's legal actions, in the protocol's order."""

    actions: list[Action]


class Acted(TypedDict):
    """act's answer: the events of the action as the observer sees them, and its view."""

    events: list[GameEvent]
    view: View


class AiMoved(Acted):
    """ai_move's answer: the computer's action, its events and the observer's view."""

    action: Action
    stats: NotRequired[dict[str, Any]]
    """The search's statistics (open: for tools), only when the observer is the seat that moved."""


class UndoneGame(TypedDict):
    """undo's answer: how many actions were taken back, and the view after it."""

    undone: int
    view: View


class ReviewOnly(TypedDict):
    """review's answer."""

    review: Review


class SavedAnswer(TypedDict):
    """table_save's and peer_save's answer: what the worker stores (open: the whole record, with the pack, or the
    online session with its secret; never the page's)."""

    saved: dict[str, Any]


class RestoredTable(TableAnswer):
    """table_restore's answer: the saved table again, by a new handle."""

    table: str


class HostAnswers(TypedDict):
    """The answer to each command that is not the page's (the worker's, tools' and tests': ``handle`` only)."""

    new_game: OpenedGame
    view: ViewAnswer
    legal: LegalAnswer
    act: Acted
    ai_move: AiMoved
    hint: HintAnswer
    save: RecordAnswer
    load: OpenedGame
    close_game: Nothing
    undo: UndoneGame
    review: ReviewOnly
    table_save: SavedAnswer
    table_restore: RestoredTable
    peer_save: SavedAnswer
    peer_restore: PeerOpened


class Answers(TypedDict):
    """The answer to each command the page sends (py_engine/service/protocol.py), by command."""

    presets: PresetsAnswer
    rules: RulesAnswer
    check_rules: CheckedRules
    table_new: OpenedTable
    table_show: TableAnswer
    table_take: TableAnswer
    table_act: TableAnswer
    table_computer: ComputerMoved
    table_hint: HintAnswer
    table_undo: Undone
    table_export: RecordAnswer
    table_deals: DealsAnswer
    table_review: ReviewAnswer
    table_import: ImportAnswer
    table_close: Nothing
    analysis_open: BoardAnswer
    analysis_show: PositionAnswer
    analysis_play: BoardChanged
    analysis_remove: BoardChanged
    analysis_evaluate: EvaluationAnswer
    analysis_close: Nothing
    link_make: LinkAnswer
    link_open: LinkOpenAnswer
    puzzle_list: PuzzleList
    puzzle_open: PuzzleAnswer
    puzzle_resume: PuzzleResumeAnswer
    puzzle_move: PuzzleMoveAnswer
    puzzle_solution: PuzzleSolutionAnswer
    puzzle_daily: PuzzleDaily
    puzzle_rate: PuzzleRated
    puzzle_record: PuzzleRecordAnswer
    puzzle_progress: PuzzleProgressAnswer
    puzzle_close: Nothing
    stats_begin: StatsAnswer
    stats_assisted: StatsChanged
    stats_record: StatsChanged
    lobby_rating: LobbyRating
    lobby_open: LobbyOpened
    lobby_renew: LobbyRenewed
    lobby_answer: LobbyAnswer
    lobby_close: LobbyClosed
    lobby_read: LobbyRead
    lobby_quick: LobbyQuick
    lobby_refused: LobbyRefused
    lobby_request: LobbyRequest
    peer_offer: PeerOffer
    peer_open: PeerOpened
    peer_receive: PeerAnswer
    peer_act: PeerAnswer
    peer_say: PeerAnswer
    peer_voice: PeerAnswer
    peer_show_cards: PeerAnswer
    peer_pause: PeerAnswer
    peer_back: PeerAnswer
    peer_concede: PeerAnswer
    peer_rematch: PeerAnswer
    peer_tick: PeerAnswer
    peer_connection: PeerAnswer
    peer_show: PeerAnswer
    peer_report: PeerReport
    peer_verify_report: PeerVerdict
    peer_close: Nothing
