"""JSON text in and out: standard JSON only (no NaN or Infinity either way), never too deep or too long."""

from __future__ import annotations

import json
import re
from typing import Any

#: JSON nested deeper than this is refused before it is parsed (Python's parser would recurse on it).
MAX_DEPTH = 64


class JsonTextError(ValueError):
    """The text is not JSON this engine accepts; the message completes "the request ..."."""


class JsonLimitError(JsonTextError):
    """The text is JSON, but nested too deep or too long to be read."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: Any, max_chars: int | None = None) -> Any:
    """The text's JSON value; no NaN or Infinity, nested at most MAX_DEPTH deep, at most ``max_chars`` long."""
    if max_chars is not None and isinstance(text, str) and len(text) > max_chars:
        raise JsonLimitError(f"is longer than {max_chars} characters")
    if isinstance(text, str) and _depth(text) > MAX_DEPTH:
        raise JsonLimitError(f"is nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (TypeError, ValueError, RecursionError) as e:
        raise JsonTextError(f"is not valid JSON: {e}") from None


def dump_json(value: Any) -> str:
    """``value`` as compact standard JSON; raises ValueError rather than write NaN or Infinity."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def finite(value: Any) -> bool:
    """Whether ``value`` (parsed JSON) can be written back as standard JSON: no number in it overflowed."""
    try:
        dump_json(value)
    except ValueError:
        return False
    return True


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (an upper bound on the JSON's depth)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text.count("[") + text.count("{")  # few brackets at all: no need to look closer
    depth = deepest = 0
    for char in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if char in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def plain_text(text: Any, limit: int, *, lines: bool = False) -> str:
    """A name or a chat line as plain text: no control characters (newlines kept if ``lines``), trimmed,
    at most ``limit`` characters."""
    if not isinstance(text, str):
        return ""
    kept = "".join(c for c in text if (lines and c == "\n") or (c >= " " and c != "\x7f" and not _hidden(c)))
    return kept.strip()[:limit]


#: Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they would let a name or a
#: chat line turn the text around it.
_BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def _hidden(c: str) -> bool:
    return 0x80 <= ord(c) < 0xA0 or c in _BIDI_CONTROLS
