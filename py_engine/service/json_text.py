"""JSON text from outside (the page, a peer's browser): standard JSON only, never too deep or too long."""

from __future__ import annotations

import json
from typing import Any

#: JSON nested deeper than this is refused before it is parsed (Python's parser would recurse on it).
MAX_DEPTH = 64


class JsonTextError(ValueError):
    """The text is not JSON this engine accepts; the message completes "the request ..."."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: Any, max_chars: int | None = None) -> Any:
    """The text's JSON value; no NaN or Infinity, nested at most MAX_DEPTH deep, at most ``max_chars`` long."""
    if max_chars is not None and isinstance(text, str) and len(text) > max_chars:
        raise JsonTextError(f"is longer than {max_chars} characters")
    if isinstance(text, str) and _depth(text) > MAX_DEPTH:
        raise JsonTextError(f"is nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (TypeError, ValueError, RecursionError) as e:
        raise JsonTextError(f"is not valid JSON: {e}") from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (an upper bound on the JSON's depth)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
