"""The JSON move protocol (docs/protocol.md, v1): one JSON text in, one JSON text out.

:func:`handle` never raises: every failure is an ``"ok": false`` response
with an error code, and a failed request changes no state.

Extensions beyond the shared contract (docs/protocol.md; additive, so ``v`` stays 1):

* ``act`` and ``ai_move`` take an optional ``observer`` seat: the view and
  events are then those of that seat. A page playing seat 0 asks for the
  computer's move with ``observer: 0`` and so never receives seat 1's view.
* ``rules`` → the parameters with their allowed values, for settings screens.
* ``check_rules`` ``{preset, rules?}`` → ``{"rules": {...}}``, the complete rules
  that ``new_game`` would play with these overrides, or the ``bad_rules`` error
  that it would give. A ``bad_rules`` error (here and in ``new_game``) also
  carries ``detail``: ``{"reason": ..., "values": {...}}`` (see ``RulesError``).
* A ``bad_record`` error carries ``detail`` too: ``{"reason": ..., "values": {...}}``
  with a reason of ``RECORD_ERROR_REASONS`` (see ``BadRecordError``).
* ``undo`` ``{game, seat}`` → takes back the seat's last action and all that
  followed it (the game is replayed from its record).
* ``puzzle_*`` (docs/protocol.md, "Puzzles"): the built-in puzzles, attempts at
  them by handle, the daily puzzle, the puzzle rating and the player's progress; the page's.
* ``lobby_*`` (docs/protocol.md, "The lobby"): open tables on the relays, joining
  one, and ratings from signed results; the page's.
* ``stats_*`` (docs/protocol.md, "Statistics"): what a game against the computer
  counts in the statistics the page keeps, and the rating; the page's.
* ``review`` ``{game, deal?, evaluate?, budget_ms?, from_step?}`` → a finished
  deal of the current match step by step with every card shown; with
  ``evaluate: seat`` each decision of that seat carries the computer's ranking
  of its options, as many as fit in ``MAX_REVIEW_MS`` from ``from_step`` on
  (``next_step``: where the next request goes on).

Answers are standard JSON (no NaN or Infinity); an ``id`` that would not be is refused.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ..core.actions import action_name, sorted_names
from ..core.errors import EngineError
from ..core.rules import BOOLEANS, CHOICES, PARAMETERS, PRESET_IDS, PRESETS, Rules, RulesError, make_rules
from .defaults import DEFAULT_LEVEL, LEVELS
from .json_text import JsonLimitError, JsonTextError, dump_json, finite, parse_json
from .match import SEED_LIMIT, Match, check_deck, is_seed
from .record import load_record
from .requests import (
    MAX_BUDGET_MS,
    MAX_ITERATIONS,
    MAX_REVIEW_MS,
    MS,
    ProtocolError,
    arg,
    find,
    positive,
    step_index,
)
from .table import Seating, Table
from .views import filter_events, view

if TYPE_CHECKING:
    from ..puzzles.solving import Session as PuzzleSession
    from .analysis import Board
    from .contract import (
        Acted,
        AiMoved,
        CheckedRules,
        ComputerMoved,
        DealsAnswer,
        HintAnswer,
        ImportAnswer,
        LegalAnswer,
        Nothing,
        OpenedGame,
        OpenedTable,
        PresetsAnswer,
        RecordAnswer,
        RestoredTable,
        ReviewAnswer,
        ReviewOnly,
        RulesAnswer,
        RulesParameter,
        SavedAnswer,
        TableAnswer,
        Undone,
        UndoneGame,
        ViewAnswer,
    )
    from .lobby.join import Opening
    from .online.peer import PeerSession

#: Online play of protocol 2 (py_engine/service/online/peer_commands.py); all but saving and restoring are the
#: page's (a saved game holds its seat's secret).
PEER_COMMANDS = (
    "peer_offer",
    "peer_open",
    "peer_receive",
    "peer_act",
    "peer_say",
    "peer_show_cards",
    "peer_voice",
    "peer_pause",
    "peer_back",
    "peer_concede",
    "peer_rematch",
    "peer_tick",
    "peer_connection",
    "peer_show",
    "peer_report",
    "peer_verify_report",
    "peer_save",
    "peer_restore",
    "peer_close",
)

#: The analysis board and links (py_engine/service/analysis_commands.py), all the page's.
ANALYSIS_COMMANDS = (
    "analysis_open",
    "analysis_show",
    "analysis_play",
    "analysis_remove",
    "analysis_evaluate",
    "analysis_close",
    "link_make",
    "link_open",
)

#: The computer player and the deal review, imported by the requests that use
#: them (``ai_move``, ``hint``, ``undo``, ``review``) rather than with this
#: module: they are the larger part of the engine, and in the browser the
#: first table is drawn sooner without them. The worker imports them when the
#: page is idle (``warm_up``).
_LAZY_MODULES = (
    "py_engine.ai",
    "py_engine.service.review",
    "py_engine.service.online",
    "py_engine.service.analysis_commands",
    "py_engine.service.puzzles",
    "py_engine.service.lobby.commands",
)

#: The puzzle commands (py_engine/service/puzzles.py), all the page's.
PUZZLE_COMMANDS = (
    "puzzle_list",
    "puzzle_open",
    "puzzle_resume",
    "puzzle_move",
    "puzzle_solution",
    "puzzle_daily",
    "puzzle_rate",
    "puzzle_record",
    "puzzle_progress",
    "puzzle_close",
)

#: Meeting strangers (py_engine/service/lobby/commands.py), all the page's: open tables, joining, ratings from
#: signed results.
LOBBY_COMMANDS = (
    "lobby_rating",
    "lobby_open",
    "lobby_renew",
    "lobby_answer",
    "lobby_close",
    "lobby_read",
    "lobby_quick",
    "lobby_refused",
    "lobby_request",
)

#: The statistics of games against the computer (py_engine/service/game_stats.py), all the page's: the page
#: keeps them, the engine decides what a finished deal and match count and what the rating becomes.
STATS_COMMANDS = ("stats_begin", "stats_assisted", "stats_record")


def warm_up() -> None:
    """Import what the protocol would otherwise import on first use (the browser does this when idle)."""
    import importlib

    for name in _LAZY_MODULES:
        importlib.import_module(name)


VERSION = 1

#: A command's answer: its type in py_engine/service/contract.py (each handler's return annotation names it; the
#: request, ``req``, stays open JSON until the handler has read it).
Answer: TypeAlias = Mapping[str, object]


class Engine:
    """A set of games addressed by handle, answering protocol requests."""

    def __init__(self) -> None:
        self.games: dict[str, Match] = {}
        self.tables: dict[str, Table] = {}
        self.peers: dict[str, PeerSession] = {}
        self.puzzles: dict[str, PuzzleSession] = {}
        self.boards: dict[str, Board] = {}
        #: This page's open tables, and what it read of the lobby (py_engine/service/lobby/commands.py).
        self.openings: dict[str, Opening] = {}
        self.lobby_state: dict[str, Any] = {}
        self._counter = 0
        self._commands: dict[str, Callable[[dict[str, Any]], Answer]] = {
            "presets": self._presets,
            "rules": self._rules,
            "check_rules": self._check_rules,
            "new_game": self._new_game,
            "view": self._view,
            "legal": self._legal,
            "act": self._act,
            "ai_move": self._ai_move,
            "hint": self._hint,
            "save": self._save,
            "load": self._load,
            "close_game": self._close_game,
            "undo": self._undo,
            "review": self._review,
            "table_new": self._table_new,
            "table_show": self._table_show,
            "table_take": self._table_take,
            "table_act": self._table_act,
            "table_computer": self._table_computer,
            "table_hint": self._table_hint,
            "table_undo": self._table_undo,
            "table_export": self._table_export,
            "table_deals": self._table_deals,
            "table_review": self._table_review,
            "table_import": self._table_import,
            "table_close": self._table_close,
            "table_save": self._table_save,
            "table_restore": self._table_restore,
        }
        for name in PEER_COMMANDS:
            self._commands[name] = functools.partial(self._peer, name)
        for name in PUZZLE_COMMANDS:
            self._commands[name] = functools.partial(self._puzzle, name)
        for name in ANALYSIS_COMMANDS:
            self._commands[name] = functools.partial(self._analysis, name)
        for name in STATS_COMMANDS:
            self._commands[name] = functools.partial(self._stats, name)
        for name in LOBBY_COMMANDS:
            self._commands[name] = functools.partial(self._lobby, name)

    def handle_page(self, request: str) -> str:
        """Answer a request from the page: the table commands and the rules' lists, nothing that shows a seat.

        The page never sees a record with the pack, nor a seat's view outside its table's policy.
        """
        return self._answer(request, PAGE_COMMANDS)

    def handle(self, request: str) -> str:
        """Answer one request. Never raises."""
        return self._answer(request, None)

    def _answer(self, request: str, allowed: frozenset[str] | None) -> str:
        """Answer one request whose command is among ``allowed`` (None: any). Never raises."""
        req_id: Any = None
        try:
            try:
                req = parse_json(request)
            except JsonTextError as e:
                code = "bad_request" if isinstance(e, JsonLimitError) else "bad_json"
                raise ProtocolError(code, f"the request {e}") from None
            if not isinstance(req, dict):
                raise ProtocolError("bad_request", "the request must be a JSON object")
            if not finite(req.get("id")):
                raise ProtocolError("bad_request", "the request's 'id' holds a number too large for JSON")
            req_id = req.get("id")
            if "v" not in req:
                raise ProtocolError("bad_request", "missing protocol version 'v'")
            if type(req["v"]) is not int or req["v"] != VERSION:  # not true, not 1.0: the integer itself
                raise ProtocolError(
                    "unsupported_version",
                    f"protocol version {req['v']!r} is not supported (this engine speaks {VERSION})",
                )
            cmd = req.get("cmd")
            if not isinstance(cmd, str):
                raise ProtocolError("bad_request", "missing command 'cmd'")
            command = self._commands.get(cmd)
            if command is None:
                raise ProtocolError(
                    "unknown_command", f"unknown command {cmd!r}; known: {', '.join(sorted(self._commands))}"
                )
            if allowed is not None and cmd not in allowed:
                raise ProtocolError(
                    "bad_request", f"{cmd!r} is not for the page: it would show what a seat may not see"
                )
            result = command(req)
            return dump_json({"v": VERSION, "id": req_id, "ok": True, **result})
        except ProtocolError as e:
            return _error(req_id, e.code, e.message, e.detail)
        except EngineError as e:
            return _error(req_id, e.code, str(e), e.detail)
        except Exception as e:  # a bug: still answer, never raise
            return _error(req_id, "internal_error", f"{type(e).__name__}: {e}")

    # ---------------------------------------------------------------- helpers

    def _game(self, req: dict[str, Any]) -> Match:
        return find(req, "game", self.games)

    @staticmethod
    def _seat(req: dict[str, Any], name: str = "seat", default: Any = ...) -> int:
        seat = arg(req, name, int, default, what="0 or 1")
        if seat not in (0, 1):
            raise ProtocolError("bad_request", f"argument {name!r} must be 0 or 1, not {seat!r}")
        return int(seat)

    def _register(self, match: Match) -> str:
        handle = self.new_handle("g")
        self.games[handle] = match
        return handle

    def new_handle(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    # --------------------------------------------------------------- commands

    def _presets(self, req: dict[str, Any]) -> PresetsAnswer:
        return {
            "presets": [{"id": p, "name": PRESETS[p].name, "rules": PRESETS[p].to_dict()} for p in PRESET_IDS],
            # The computer's levels a table offers, and the one a new player meets first.
            "levels": list(LEVELS),
            "default_level": DEFAULT_LEVEL,
        }

    def _rules(self, req: dict[str, Any]) -> RulesAnswer:
        params: list[RulesParameter] = []
        for p in PARAMETERS:
            choices = [False, True] if p in BOOLEANS else list(CHOICES[p])
            params.append({"id": p, "values": choices})
        return {"parameters": params}

    @staticmethod
    def requested_rules(req: dict[str, Any]) -> Rules:
        preset_id = arg(req, "preset", str, "AT20")
        base = PRESETS.get(preset_id)
        if base is None:
            raise ProtocolError(
                "unknown_preset", f"unknown preset {preset_id!r}; the presets are {', '.join(PRESET_IDS)}"
            )
        try:
            return make_rules(base, arg(req, "rules", dict, {}))
        except RulesError as e:
            raise ProtocolError("bad_rules", str(e), {"reason": e.reason, "values": e.values}) from None

    def _check_rules(self, req: dict[str, Any]) -> CheckedRules:
        return {"rules": self.requested_rules(req).to_dict()}

    def _new_game(self, req: dict[str, Any]) -> OpenedGame:
        match = self._start_match(req)
        return {"game": self._register(match), "view": view(match, 0)}

    def _start_match(self, req: dict[str, Any]) -> Match:
        rules = self.requested_rules(req)
        seed = arg(req, "seed", int, None)
        if seed is None:
            seed = random.SystemRandom().randrange(SEED_LIMIT)
        elif not is_seed(seed):
            raise ProtocolError("bad_request", f"argument 'seed' must be an integer of less than {SEED_LIMIT} in size")
        dealer = self._seat(req, "dealer", None) if req.get("dealer") is not None else None
        deck = None
        if req.get("deck") is not None:
            try:
                deck = check_deck(rules, req["deck"])
            except ValueError as e:
                raise ProtocolError("bad_request", f"argument 'deck': {e}") from None
        single = not arg(req, "match", bool, True)
        return Match(rules, seed, dealer=dealer, deck=deck, single_deal=single)

    def _view(self, req: dict[str, Any]) -> ViewAnswer:
        match = self._game(req)
        return {"view": view(match, self._seat(req))}

    def _legal(self, req: dict[str, Any]) -> LegalAnswer:
        match = self._game(req)
        return {"actions": sorted_names(match.legal(self._seat(req)))}

    def _act(self, req: dict[str, Any]) -> Acted:
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        action = arg(req, "action", str)
        events = match.act_text(seat, action)
        return {"events": filter_events(events, observer), "view": view(match, observer)}

    def _ai_move(self, req: dict[str, Any]) -> AiMoved:
        started = time.perf_counter()
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        from .. import ai  # imported on first use: see _LAZY_MODULES

        asked = ai.Request(
            level=arg(req, "level", (int, str), DEFAULT_LEVEL, what="a level 1-5"),
            budget_ms=positive(req, "budget_ms", MAX_BUDGET_MS, MS),
            iterations=positive(req, "iterations", MAX_ITERATIONS, "a positive integer"),
            seed=arg(req, "seed", int, None),
            clock=arg(req, "timed", bool, True),
            started=started,
        )
        decision = ai.choose(match, seat, asked)
        events = match.act(seat, decision.action)
        answer: AiMoved = {
            "action": action_name(decision.action),
            "events": filter_events(events, observer),
            "view": view(match, observer),
        }
        # The search's statistics only to the seat's own side (tools): the iterations would tell an observer
        # at the other seat when the move was forced, something of the hidden hand.
        if observer == seat:
            answer["stats"] = decision.stats
        return answer

    def _hint(self, req: dict[str, Any]) -> HintAnswer:
        started = time.perf_counter()
        match = self._game(req)
        seat = self._seat(req)
        budget = positive(req, "budget_ms", MAX_BUDGET_MS, MS)
        if match.finished:
            raise ProtocolError("game_over", "the game is over")
        from .. import ai  # imported on first use: see _LAZY_MODULES

        ranking = ai.rank(match, seat, ai.Request(budget_ms=budget, seed=arg(req, "seed", int, None), started=started))
        return {"ranking": [{"action": action_name(a), "value": v} for a, v in ranking]}

    def _save(self, req: dict[str, Any]) -> RecordAnswer:
        return {"record": self._game(req).record()}

    def _load(self, req: dict[str, Any]) -> OpenedGame:
        if "record" not in req:
            raise ProtocolError("bad_request", "missing argument 'record'")
        match = load_record(req["record"])
        return {"game": self._register(match), "view": view(match, 0)}

    def _undo(self, req: dict[str, Any]) -> UndoneGame:
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        from . import review  # imported on first use: see _LAZY_MODULES

        replayed, removed = review.undo(match, seat)
        self.games[req["game"]] = replayed
        return {"undone": removed, "view": view(replayed, observer)}

    def _review(self, req: dict[str, Any]) -> ReviewOnly:
        match = self._game(req)
        number = arg(req, "deal", int, match.deal_number if match.deal.over else match.deal_number - 1)
        evaluate = self._seat(req, "evaluate", None) if req.get("evaluate") is not None else None
        budget = positive(req, "budget_ms", MAX_REVIEW_MS, MS)
        # deal numbers restart with each match; the record counts the whole session
        offset = len(match.records) - match.deal_number
        from . import review  # imported on first use: see _LAZY_MODULES

        seats = () if evaluate is None else (evaluate,)
        seed = arg(req, "seed", int, 0)
        return {"review": review.review_deal(match, number + offset, seats, budget, seed, step_index(req))}

    # ------------------------------------------------------------------ tables

    def _table(self, req: dict[str, Any]) -> Table:
        return find(req, "table", self.tables)

    def _add_table(self, table: Table) -> str:
        handle = self.new_handle("t")
        self.tables[handle] = table
        return handle

    def _table_new(self, req: dict[str, Any]) -> OpenedTable:
        seating = Seating.from_json(arg(req, "seating", dict, {}))
        table = Table(self._start_match(req), seating)
        return {"table": self._add_table(table), **table.show(), "save": True}

    def _table_show(self, req: dict[str, Any]) -> TableAnswer:
        return self._table(req).show()

    def _table_take(self, req: dict[str, Any]) -> TableAnswer:
        return self._table(req).take(self._seat(req))

    def _table_act(self, req: dict[str, Any]) -> TableAnswer:
        table = self._table(req)
        return table.act(self._seat(req), arg(req, "action", str))

    def _table_computer(self, req: dict[str, Any]) -> ComputerMoved:
        started = time.perf_counter()
        table = self._table(req)
        level = arg(req, "level", int, None, what="a level 1-5")
        if level is not None and level not in LEVELS:
            raise ProtocolError("bad_request", f"argument 'level' must be a level 1-5, not {level!r}")
        return table.computer_move(
            level,
            budget_ms=positive(req, "budget_ms", MAX_BUDGET_MS, MS),
            iterations=positive(req, "iterations", MAX_ITERATIONS, "a positive integer"),
            seed=arg(req, "seed", int, None),
            clock=arg(req, "timed", bool, True),
            started=started,
        )

    def _table_hint(self, req: dict[str, Any]) -> HintAnswer:
        started = time.perf_counter()
        table = self._table(req)
        budget = positive(req, "budget_ms", MAX_BUDGET_MS, MS)
        return table.hint(budget, seed=arg(req, "seed", int, None), started=started)

    def _table_undo(self, req: dict[str, Any]) -> Undone:
        return self._table(req).undo()

    def _table_export(self, req: dict[str, Any]) -> RecordAnswer:
        return {"record": self._table(req).export()}

    def _table_deals(self, req: dict[str, Any]) -> DealsAnswer:
        table = self._table(req)
        return {"deals": table.deals(), "seating": table.seating.to_json()}

    def _table_review(self, req: dict[str, Any]) -> ReviewAnswer:
        table = self._table(req)
        seats = arg(req, "evaluate", list, [])
        if any(seat not in (0, 1) or isinstance(seat, bool) for seat in seats):
            raise ProtocolError("bad_request", f"argument 'evaluate' must list seats 0 and 1, not {seats!r}")
        index = arg(req, "deal", int)
        budget = positive(req, "budget_ms", MAX_REVIEW_MS, MS)
        review = table.review(index, sorted(set(seats)), budget, arg(req, "seed", int, 0), step_index(req))
        return {"review": review, "seating": table.seating.to_json()}

    def _table_import(self, req: dict[str, Any]) -> ImportAnswer:
        if "record" not in req:
            raise ProtocolError("bad_request", "missing argument 'record'")
        table = Table.restore(req["record"])
        table.kept = False
        return {"table": self._add_table(table), "deals": table.deals(), "seating": table.seating.to_json()}

    def _table_close(self, req: dict[str, Any]) -> Nothing:
        self._table(req)
        del self.tables[req["table"]]
        return {}

    def _table_save(self, req: dict[str, Any]) -> SavedAnswer:
        return {"saved": self._table(req).saved()}

    def _table_restore(self, req: dict[str, Any]) -> RestoredTable:
        if "saved" not in req:
            raise ProtocolError("bad_request", "missing argument 'saved'")
        table = Table.restore(req["saved"])
        table.kept = True
        return {"table": self._add_table(table), **table.show()}

    # ------------------------------------------------------------------ online

    def _peer(self, name: str, req: dict[str, Any]) -> Answer:
        """A ``peer_*`` command (protocol 2 of online play), imported on first use (_LAZY_MODULES)."""
        from .online import peer_commands

        return peer_commands.HANDLERS[name](self, req)

    # ---------------------------------------------------------------- analysis

    def _analysis(self, name: str, req: dict[str, Any]) -> Answer:
        """An ``analysis_*`` or ``link_*`` command: its handler lives with the board, imported on first use."""
        from . import analysis_commands

        return analysis_commands.HANDLERS[name](self, req)

    # ----------------------------------------------------------------- puzzles

    def _puzzle(self, name: str, req: dict[str, Any]) -> Answer:
        """A ``puzzle_*`` command: its handler lives with the puzzles, imported on first use (_LAZY_MODULES)."""
        from . import puzzles

        return puzzles.HANDLERS[name](self, req)

    def _lobby(self, name: str, req: dict[str, Any]) -> Answer:
        """A ``lobby_*`` command: open tables and ratings from signed results, imported on first use."""
        from .lobby import commands

        return commands.COMMANDS[name](self, req)

    # -------------------------------------------------------------- statistics

    def _stats(self, name: str, req: dict[str, Any]) -> Answer:
        """A ``stats_*`` command: what a game against the computer counts in the player's statistics."""
        from . import game_stats

        return game_stats.HANDLERS[name](self, req)

    def _close_game(self, req: dict[str, Any]) -> Nothing:
        self._game(req)
        del self.games[req["game"]]
        return {}


#: What the page may ask (handle_page); the rest (bare seats' views and moves, records with the pack) stays in
#: the engine's host, the worker.
PAGE_COMMANDS = frozenset(
    {
        "presets",
        "rules",
        "check_rules",
        "table_new",
        "table_show",
        "table_take",
        "table_act",
        "table_computer",
        "table_hint",
        "table_undo",
        "table_export",
        "table_deals",
        "table_review",
        "table_import",
        "table_close",
        *(name for name in PEER_COMMANDS if name not in ("peer_save", "peer_restore")),
        *PUZZLE_COMMANDS,
        *ANALYSIS_COMMANDS,
        *STATS_COMMANDS,
        *LOBBY_COMMANDS,
    }
)


def _error(req_id: Any, code: str, message: str, detail: dict[str, Any] | None = None) -> str:
    error: dict[str, Any] = {"code": code, "message": message}
    if detail is not None:
        error["detail"] = detail
    try:
        return dump_json({"v": VERSION, "id": req_id, "ok": False, "error": error})
    except (TypeError, ValueError, RecursionError):
        return dump_json({"v": VERSION, "id": None, "ok": False, "error": {"code": code, "message": message}})


_DEFAULT = Engine()


def handle(request: str) -> str:
    """The protocol's entry point: one JSON request → one JSON response."""
    return _DEFAULT.handle(request)


def handle_page(request: str) -> str:
    """The page's entry point: :func:`handle` limited to what the page may ask (``PAGE_COMMANDS``)."""
    return _DEFAULT.handle_page(request)
