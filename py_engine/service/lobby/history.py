"""A player's signed results as its offer attaches them, checked one by one (:mod:`.certificate`).

A result counts only if it checks, names the player, and is not one already
counted (the same match twice); each one refused says why. Checking is the
costly part (four signatures each), so a history is read up to
:data:`HISTORY_MAX` results, and a :class:`Checked` cache keeps what was
already checked across a lobby's renewed offers.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...fairplay import p256
from .certificate import CertificateError, SignedResult, Verifier, check, check_date, digest_of

if TYPE_CHECKING:
    from ..contract import RatingRefusal

#: The most results of one history that are read.
HISTORY_MAX = 50
#: The most checked results a cache keeps (the oldest are forgotten first).
CACHE_MAX = 2_000


@dataclass
class Checked:
    """Results already checked, by digest (a refusal is kept too: it is as costly to find again)."""

    kept: OrderedDict[str, SignedResult | CertificateError] = field(default_factory=OrderedDict)

    def check(self, value: Any, now: int, verify: Verifier) -> SignedResult:
        try:
            digest = digest_of(value)
        except ValueError:
            raise CertificateError("malformed", "not a signed result") from None
        found = self.kept.get(digest)
        if found is None:
            try:
                found = check(value, now, verify)
            except CertificateError as e:
                found = e
            self.kept[digest] = found
            while len(self.kept) > CACHE_MAX:
                self.kept.popitem(last=False)
        if isinstance(found, CertificateError):
            raise found
        check_date(found.at, now)
        return found


@dataclass(frozen=True)
class History:
    """The results of one player that count, and each refused one: ``{"index", "what", "message"}``."""

    results: tuple[SignedResult, ...]
    refused: tuple[RatingRefusal, ...]


def check_history(
    identity: str,
    values: Any,
    now: int,
    verify: Verifier = p256.verify,
    cache: Checked | None = None,
) -> History:
    """``identity``'s history as its offer gives it (a list of certificates), each checked at ``now``."""
    if not isinstance(values, list):
        return History((), ({"index": None, "what": "malformed", "message": "a history is a list of results"},))
    checked = cache if cache is not None else Checked()
    results: list[SignedResult] = []
    refused: list[RatingRefusal] = []
    matches: set[str] = set()

    def refuse(index: int | None, what: str, message: str) -> None:
        refused.append({"index": index, "what": what, "message": message})

    for index, value in enumerate(values[:HISTORY_MAX]):
        try:
            result = checked.check(value, now, verify)
        except CertificateError as e:
            refuse(index, e.what, str(e))
            continue
        if result.seat_of(identity) is None:
            refuse(index, "swapped", "a result of two other players")
        elif result.match in matches:
            refuse(index, "replayed", "a match counted already")
        else:
            matches.add(result.match)
            results.append(result)
    if len(values) > HISTORY_MAX:
        refuse(None, "too_many", f"only the first {HISTORY_MAX} results are read")
    return History(tuple(results), tuple(refused))
