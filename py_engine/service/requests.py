"""A protocol request's arguments: checked, with ``bad_request`` errors that name what is wrong."""

from __future__ import annotations

from typing import Any, TypeVar

MS = "a positive number of milliseconds"
#: Beyond these a request would tie up the engine (a worker cannot be interrupted): refused.
MAX_BUDGET_MS = 60_000
MAX_ITERATIONS = 1_000_000
#: The most search time one review request may spend: a longer review is asked for in parts (``from_step``).
MAX_REVIEW_MS = 2_000


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


def arg(req: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ..., *, what: str = "") -> Any:
    if name not in req or req[name] is None:
        if default is ...:
            raise ProtocolError("bad_request", f"missing argument {name!r}")
        return default
    value = req[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise ProtocolError("bad_request", f"argument {name!r} must be {what or _kind_name(kind)}, not {value!r}")
    return value


def positive(req: dict[str, Any], name: str, limit: int, what: str) -> int | None:
    """An optional positive integer argument, at most ``limit`` (a count, or milliseconds)."""
    value: int | None = arg(req, name, int, None, what=what)
    if value is not None and not 0 < value <= limit:
        raise ProtocolError("bad_request", f"argument {name!r} must be {what} up to {limit}, not {value!r}")
    return value


def step_index(req: dict[str, Any]) -> int:
    """The optional ``from_step`` of a review: the first step to evaluate (0-based, default 0)."""
    value: int = arg(req, "from_step", int, 0, what="a step number (0 or more)")
    if value < 0:
        raise ProtocolError("bad_request", f"argument 'from_step' must be a step number (0 or more), not {value!r}")
    return value


_Held = TypeVar("_Held")


def find(req: dict[str, Any], name: str, store: dict[str, _Held]) -> _Held:
    """What the request's handle ``name`` (a game or a table) names, or ``unknown_game``."""
    handle = arg(req, name, str)
    held = store.get(handle)
    if held is None:
        raise ProtocolError("unknown_game", f"no {name} with handle {handle!r}")
    return held


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(
        {int: "an integer", str: "a string", bool: "true or false", dict: "an object", list: "a list"}.get(
            k, k.__name__
        )
        for k in _as_tuple(kind)
    )
