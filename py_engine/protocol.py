"""The JSON move protocol (PROTOCOL.md v1): one JSON text in, one JSON text out.

:func:`handle` never raises: every failure is an ``"ok": false`` response
with an error code, and a failed request changes no state.

Extensions beyond PROTOCOL.md (additive, so ``v`` stays 1):

* ``act`` and ``ai_move`` take an optional ``observer`` seat: the view and
  events are then those of that seat. A page playing seat 0 asks for the
  computer's move with ``observer: 0`` and so never receives seat 1's view.
* ``rules`` → the parameters with their allowed values, for settings screens.
* ``check_rules`` ``{preset, rules?}`` → ``{"rules": {...}}``, the complete rules
  that ``new_game`` would play with these overrides, or the ``bad_rules`` error
  that it would give. A ``bad_rules`` error (here and in ``new_game``) also
  carries ``detail``: ``{"reason": ..., "values": {...}}`` (see ``RulesError``).
* ``undo`` ``{game, seat}`` → takes back the seat's last action and all that
  followed it (the game is replayed from its record).
* ``review`` ``{game, deal?, evaluate?, budget_ms?}`` → a finished deal of the
  current match step by step with every card shown; with ``evaluate: seat``
  each decision of that seat carries the computer's ranking of its options.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from .actions import action_name, sorted_names
from .errors import EngineError
from .match import Match, check_deck
from .record import load_record
from .rules import BOOLEANS, CHOICES, PARAMETERS, PRESET_IDS, PRESETS, Rules, RulesError, make_rules
from .views import filter_events, view

#: The computer player and the deal review, imported by the requests that use
#: them (``ai_move``, ``hint``, ``undo``, ``review``) rather than with this
#: module: they are the larger part of the engine, and in the browser the
#: first table is drawn sooner without them. The worker imports them when the
#: page is idle (``warm_up``).
_LAZY_MODULES = ("py_engine.ai", "py_engine.review")


def _left_of(budget_ms: int | None, started: float) -> int | None:
    """What is left of a request's time budget, which counts from ``started`` (``time.perf_counter()``).

    The first ``ai_move`` or ``hint`` also imports the computer player; that
    time is taken from the search, so the answer still comes within the budget.
    """
    if budget_ms is None:
        return None
    spent = int((time.perf_counter() - started) * 1000)
    return max(1, budget_ms - spent)


def warm_up() -> None:
    """Import what the protocol would otherwise import on first use (the browser does this when idle)."""
    import importlib

    for name in _LAZY_MODULES:
        importlib.import_module(name)


VERSION = 1
_MS = "a positive number of milliseconds"
#: Beyond these a request would tie up the engine (a worker cannot be interrupted): refused.
_MAX_BUDGET_MS = 60_000
_MAX_ITERATIONS = 1_000_000


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


def _arg(req: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ..., *, what: str = "") -> Any:
    if name not in req or req[name] is None:
        if default is ...:
            raise ProtocolError("bad_request", f"missing argument {name!r}")
        return default
    value = req[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise ProtocolError("bad_request", f"argument {name!r} must be {what or _kind_name(kind)}, not {value!r}")
    return value


def _positive(req: dict[str, Any], name: str, limit: int, what: str) -> int | None:
    """An optional positive integer argument, at most ``limit`` (a count, or milliseconds)."""
    value: int | None = _arg(req, name, int, None, what=what)
    if value is not None and not 0 < value <= limit:
        raise ProtocolError("bad_request", f"argument {name!r} must be {what} up to {limit}, not {value!r}")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(
        {int: "an integer", str: "a string", bool: "true or false", dict: "an object", list: "a list"}.get(
            k, k.__name__
        )
        for k in _as_tuple(kind)
    )


class Engine:
    """A set of games addressed by handle, answering protocol requests."""

    def __init__(self) -> None:
        self.games: dict[str, Match] = {}
        self._counter = 0
        self._commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
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
        }

    def handle(self, request: str) -> str:
        """Answer one request. Never raises."""
        req_id: Any = None
        try:
            try:
                req = json.loads(request)
            except (TypeError, ValueError) as e:
                raise ProtocolError("bad_json", f"the request is not valid JSON: {e}") from None
            if not isinstance(req, dict):
                raise ProtocolError("bad_request", "the request must be a JSON object")
            req_id = req.get("id")
            if "v" not in req:
                raise ProtocolError("bad_request", "missing protocol version 'v'")
            if req["v"] != VERSION or isinstance(req["v"], bool):
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
            result = command(req)
            return json.dumps({"v": VERSION, "id": req_id, "ok": True, **result}, separators=(",", ":"))
        except ProtocolError as e:
            return _error(req_id, e.code, e.message, e.detail)
        except EngineError as e:
            return _error(req_id, e.code, str(e))
        except Exception as e:  # a bug: still answer, never raise
            return _error(req_id, "internal_error", f"{type(e).__name__}: {e}")

    # ---------------------------------------------------------------- helpers

    def _game(self, req: dict[str, Any]) -> Match:
        handle = _arg(req, "game", str)
        match = self.games.get(handle)
        if match is None:
            raise ProtocolError("unknown_game", f"no game with handle {handle!r}")
        return match

    @staticmethod
    def _seat(req: dict[str, Any], name: str = "seat", default: Any = ...) -> int:
        seat = _arg(req, name, int, default, what="0 or 1")
        if seat not in (0, 1):
            raise ProtocolError("bad_request", f"argument {name!r} must be 0 or 1, not {seat!r}")
        return int(seat)

    def _register(self, match: Match) -> str:
        self._counter += 1
        handle = f"g{self._counter}"
        self.games[handle] = match
        return handle

    # --------------------------------------------------------------- commands

    def _presets(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"presets": [{"id": p, "name": PRESETS[p].name, "rules": PRESETS[p].to_dict()} for p in PRESET_IDS]}

    def _rules(self, req: dict[str, Any]) -> dict[str, Any]:
        params = []
        for p in PARAMETERS:
            choices = [False, True] if p in BOOLEANS else list(CHOICES[p])
            params.append({"id": p, "values": choices})
        return {"parameters": params}

    @staticmethod
    def _requested_rules(req: dict[str, Any]) -> Rules:
        preset_id = _arg(req, "preset", str, "AT20")
        base = PRESETS.get(preset_id)
        if base is None:
            raise ProtocolError(
                "unknown_preset", f"unknown preset {preset_id!r}; the presets are {', '.join(PRESET_IDS)}"
            )
        try:
            return make_rules(base, _arg(req, "rules", dict, {}))
        except RulesError as e:
            raise ProtocolError("bad_rules", str(e), {"reason": e.reason, "values": e.values}) from None

    def _check_rules(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"rules": self._requested_rules(req).to_dict()}

    def _new_game(self, req: dict[str, Any]) -> dict[str, Any]:
        rules = self._requested_rules(req)
        seed = _arg(req, "seed", int, None)
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        dealer = self._seat(req, "dealer", None) if req.get("dealer") is not None else None
        deck = None
        if req.get("deck") is not None:
            try:
                deck = check_deck(rules, req["deck"])
            except ValueError as e:
                raise ProtocolError("bad_request", f"argument 'deck': {e}") from None
        single = not _arg(req, "match", bool, True)
        match = Match(rules, seed, dealer=dealer, deck=deck, single_deal=single)
        return {"game": self._register(match), "view": view(match, 0)}

    def _view(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._game(req)
        return {"view": view(match, self._seat(req))}

    def _legal(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._game(req)
        return {"actions": sorted_names(match.legal(self._seat(req)))}

    def _act(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        action = _arg(req, "action", str)
        events = match.act_text(seat, action)
        return {"events": filter_events(events, observer), "view": view(match, observer)}

    def _ai_move(self, req: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        from . import ai  # imported on first use: see _LAZY_MODULES

        asked = ai.Request(
            level=_arg(req, "level", (int, str), ai.DEFAULT_LEVEL, what="a level 1-5"),
            budget_ms=_left_of(_positive(req, "budget_ms", _MAX_BUDGET_MS, _MS), started),
            iterations=_positive(req, "iterations", _MAX_ITERATIONS, "a positive integer"),
            seed=_arg(req, "seed", int, None),
        )
        decision = ai.choose(match, seat, asked)
        events = match.act(seat, decision.action)
        return {
            "action": action_name(decision.action),
            "events": filter_events(events, observer),
            "view": view(match, observer),
            "stats": decision.stats,
        }

    def _hint(self, req: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        match = self._game(req)
        seat = self._seat(req)
        budget = _positive(req, "budget_ms", _MAX_BUDGET_MS, _MS)
        if match.finished:
            raise ProtocolError("game_over", "the game is over")
        from . import ai  # imported on first use: see _LAZY_MODULES

        budget = _left_of(budget, started)
        ranking = ai.rank(match, seat, ai.Request(budget_ms=budget, seed=_arg(req, "seed", int, None)))
        return {"ranking": [{"action": action_name(a), "value": v} for a, v in ranking]}

    def _save(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"record": self._game(req).record()}

    def _load(self, req: dict[str, Any]) -> dict[str, Any]:
        if "record" not in req:
            raise ProtocolError("bad_request", "missing argument 'record'")
        match = load_record(req["record"])
        return {"game": self._register(match), "view": view(match, 0)}

    def _undo(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._game(req)
        seat = self._seat(req)
        observer = self._seat(req, "observer", seat)
        from . import review  # imported on first use: see _LAZY_MODULES

        replayed, removed = review.undo(match, seat)
        self.games[req["game"]] = replayed
        return {"undone": removed, "view": view(replayed, observer)}

    def _review(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._game(req)
        number = _arg(req, "deal", int, match.deal_number if match.deal.over else match.deal_number - 1)
        evaluate = self._seat(req, "evaluate", None) if req.get("evaluate") is not None else None
        budget = _positive(req, "budget_ms", 10_000, _MS) or 300
        # deal numbers restart with each match; the record counts the whole session
        offset = len(match.records) - match.deal_number
        from . import review  # imported on first use: see _LAZY_MODULES

        return {"review": review.review_deal(match, number + offset, evaluate, budget, _arg(req, "seed", int, 0))}

    def _close_game(self, req: dict[str, Any]) -> dict[str, Any]:
        self._game(req)
        del self.games[req["game"]]
        return {}


def _error(req_id: Any, code: str, message: str, detail: dict[str, Any] | None = None) -> str:
    error: dict[str, Any] = {"code": code, "message": message}
    if detail is not None:
        error["detail"] = detail
    try:
        return json.dumps({"v": VERSION, "id": req_id, "ok": False, "error": error})
    except (TypeError, ValueError):
        return json.dumps({"v": VERSION, "id": None, "ok": False, "error": {"code": code, "message": message}})


_DEFAULT = Engine()


def handle(request: str) -> str:
    """The protocol's entry point: one JSON request → one JSON response."""
    return _DEFAULT.handle(request)
