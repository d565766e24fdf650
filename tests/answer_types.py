"""A JSON value against a type of the protocol's contract (py_engine/service/contract.py): what a test asserts.

:func:`mismatches` walks the value and the type together: a ``TypedDict``'s
keys (every required one, no key it does not name, ``NotRequired`` ones
optional), ``Literal`` values (of the same JSON type: ``True`` is not ``1``),
unions (one member fits), lists, tuples (JSON arrays of that length) and
dicts (their keys and values), and the scalars (``int`` is not ``bool``,
``float`` takes an integer too). ``Any`` takes any JSON: it marks the open
parts. The answer is every mismatch, by its path in the value.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from py_engine.service import contract

#: A command's answer type, by command (the contract's ``Answers``: the page's commands).
ANSWERS: dict[str, Any] = get_type_hints(contract.Answers)
#: The same for the commands of the worker and tools (``handle`` only).
HOST_ANSWERS: dict[str, Any] = get_type_hints(contract.HostAnswers)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _scalar(value: Any, tp: type) -> bool:
    if tp is float:
        return type(value) in (int, float)
    if tp is int:
        return type(value) is int
    return type(value) is tp


def mismatches(value: Any, tp: Any, path: str = "$") -> list[str]:
    """How ``value`` (JSON, as ``json.loads`` gives it) differs from ``tp`` (empty: it fits)."""
    if tp is Any:
        return []
    if tp is None or tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not null"]
    if is_typeddict(tp):
        return _typeddict(value, tp, path)
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        if any(value == a and type(value) is type(a) for a in args):
            return []
        return [f"{path}: {_short(value)} is none of {args}"]
    if origin in (Union, types.UnionType):
        if isinstance(value, dict) and "type" in value and all(is_typeddict(m) for m in args):
            # An event: the member its "type" names (the checker's words stay short).
            args = tuple(m for m in args if mismatches(value["type"], get_type_hints(m).get("type"), path) == [])
            if len(args) == 1:
                return mismatches(value, args[0], path)
        found = [mismatches(value, member, path) for member in args]
        if any(not f for f in found):
            return []
        return [f"{path}: {_short(value)} fits no member of {tp}: " + "; ".join(f[0] for f in found)]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} is not a list"]
        return [m for i, item in enumerate(value) for m in mismatches(item, args[0], f"{path}[{i}]")]
    if origin is tuple:
        if not isinstance(value, list) or len(value) != len(args):
            return [f"{path}: {_short(value)} is not a list of {len(args)}"]
        return [
            m for i, (item, a) in enumerate(zip(value, args, strict=True)) for m in mismatches(item, a, f"{path}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not an object"]
        out: list[str] = []
        for key, item in value.items():
            out += mismatches(key, args[0], f"{path} key {key!r}")
            out += mismatches(item, args[1], f"{path}.{key}")
        return out
    if isinstance(tp, type) and tp in (int, float, str, bool):
        return [] if _scalar(value, tp) else [f"{path}: {_short(value)} is not {tp.__name__}"]
    raise TypeError(f"{path}: the checker does not know the type {tp!r}")


def _typeddict(value: Any, tp: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: {type(value).__name__} is not an object ({tp.__name__})"]
    hints = get_type_hints(tp)
    required: frozenset[str] = tp.__required_keys__
    out = [f"{path}: {tp.__name__} lacks {key!r}" for key in sorted(required - value.keys())]
    out += [f"{path}: {tp.__name__} has no key {key!r}" for key in sorted(value.keys() - hints.keys())]
    for key, item in value.items():
        if key in hints:
            out += mismatches(item, hints[key], f"{path}.{key}")
    return out


def check_answer(cmd: str, answer: dict[str, Any]) -> None:
    """Assert that a successful answer (its envelope ``v``, ``id``, ``ok`` aside) fits its command's type."""
    assert answer.get("ok") is True, answer
    tp = ANSWERS[cmd] if cmd in ANSWERS else HOST_ANSWERS[cmd]
    # The envelope's own keys, unless the answer names one of them (lobby_open's and lobby_renew's ``id``, the
    # table's, takes the place of the request's: docs/protocol.md's lobby section).
    own = set().union(*(get_type_hints(m) for m in get_args(tp) or (tp,)))
    body = {k: v for k, v in answer.items() if k not in ("v", "id", "ok") or k in own}
    found = mismatches(body, tp, cmd)
    assert not found, "\n".join(found[:20])
