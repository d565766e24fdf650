"""A signed result: the proof, out of an online game's transcript, that two identities finished a match.

Four links of the transcript (:mod:`py_engine.fairplay.transcript`) make it:
each seat's first link (seat 0's dated coin with the rules; seat 1's coin,
which saw seat 0's) and each seat's last ``result`` link, saying the same.
Every link is signed with the match's id by its seat's identity, so nobody
but the two players can make one, change one, or put another player in it.

What it cannot show: that the two identities are two people, or that the
date seat 0's page signed is true (seat 1 only saw it). A page keeps its
results and may attach them to a lobby offer (:mod:`.history`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.errors import EngineError
from ...core.rules import Rules, rules_from_dict
from ...fairplay import p256
from ...fairplay.transcript import ChainError, Link, Transcript, canonical, signing_text
from ..json_text import plain_text
from ..online.messages import NAME_MAX, is_time

FORMAT = "sixty-six/result-1"
REASONS = ("played", "conceded", "time", "cheat", "abandoned")
#: A result older than this counts no more (a rating says how one plays now).
MAX_AGE_MS = 365 * 24 * 3600 * 1000
#: How far ahead of the checking page's clock a date may be (the two pages' clocks differ).
CLOCK_SLACK_MS = 3600 * 1000
#: A match's id, as long as a page may make it (peer_commands).
MATCH_ID_MAX = 200

Verifier = Callable[[str, bytes, str], bool]


class CertificateError(EngineError):
    """A signed result refused: ``what`` is malformed, forged, undated, expired or disagree."""

    code = "bad_result"

    def __init__(self, what: str, detail: str) -> None:
        super().__init__(detail)
        self.what = what


@dataclass(frozen=True)
class SignedResult:
    """What a checked certificate says."""

    match: str
    identities: tuple[str, str]
    names: tuple[str, str]
    rules: Rules
    #: Seat 0's clock when the match began (milliseconds since 1970).
    at: int
    winner: int | None
    reason: str
    #: Each seat's rating as its own page claimed it when the match began (None: not claimed).
    claimed: tuple[int | None, int | None]
    #: The certificate's digest: one result, however often it is sent.
    digest: str

    def seat_of(self, identity: str) -> int | None:
        return self.identities.index(identity) if identity in self.identities else None


def certificate_of(transcript: Transcript) -> dict[str, Any] | None:
    """The certificate of a transcript whose two chains end in the same result; None before that."""
    if transcript.result() is None:
        return None
    firsts = [next(link for link in transcript.links if link.seat == seat and link.n == 1) for seat in (0, 1)]
    lasts = [
        [link for link in transcript.links if link.seat == seat and link.body.get("t") == "result"][-1]
        for seat in (0, 1)
    ]
    return {
        "format": FORMAT,
        "match": transcript.match_id,
        "identities": list(transcript.identities),
        "links": [link.to_json() for link in (*firsts, *lasts)],
    }


def digest_of(value: Any) -> str:
    """The digest a certificate is known by (its canonical JSON's SHA-256); ValueError if it is not JSON."""
    return hashlib.sha256(canonical(value)).hexdigest()


def check(value: Any, now: int, verify: Verifier = p256.verify) -> SignedResult:
    """The result a certificate proves, at the checking page's clock ``now``; CertificateError if none."""
    match, identities, links = _parts(value)
    opening, answer, ending0, ending1 = links
    for link in links:
        if not verify(identities[link.seat], signing_text(link.digest(match)), link.sig):
            raise CertificateError("forged", f"link {link.n} of seat {link.seat} is not signed by its player")
    if not (opening.n == 1 and answer.n == 1 and opening.prev == "" and answer.prev == ""):
        raise CertificateError("malformed", "a certificate begins with each seat's first link")
    if answer.seen != opening.digest(match):
        raise CertificateError("forged", "seat 1's first link did not answer seat 0's")
    coin, reply = opening.body, answer.body
    if coin.get("t") != "coin" or "commit" not in coin or reply.get("t") != "coin" or "value" not in reply:
        raise CertificateError("malformed", "a match begins with its coin")
    at = coin.get("at")
    if at is None:
        raise CertificateError("undated", "the match's coin is not dated (a page of an older version)")
    if not is_time(at):
        raise CertificateError("malformed", "the match's date is not a time")
    check_date(at, now)
    try:
        rules = rules_from_dict(coin.get("rules"))
    except (TypeError, ValueError) as e:
        raise CertificateError("malformed", f"the match's rules are not valid: {e}") from None
    result = _result(ending0, ending1)
    return SignedResult(
        match=match,
        identities=identities,
        names=(plain_text(coin.get("name"), NAME_MAX), plain_text(reply.get("name"), NAME_MAX)),
        rules=rules,
        at=at,
        winner=result["winner"],
        reason=result["reason"],
        claimed=(_claim(coin), _claim(reply)),
        digest=digest_of(value),
    )


def check_date(at: int, now: int) -> None:
    """A match dated ``at`` counts at ``now`` (a result checked earlier may have aged since)."""
    if at > now + CLOCK_SLACK_MS:
        raise CertificateError("expired", "the match is dated in the future")
    if now - at > MAX_AGE_MS:
        raise CertificateError("expired", "the match is more than a year old")


def _parts(value: Any) -> tuple[str, tuple[str, str], tuple[Link, Link, Link, Link]]:
    if not (isinstance(value, dict) and set(value) == {"format", "match", "identities", "links"}):
        raise CertificateError("malformed", "not a signed result")
    if value["format"] != FORMAT:
        raise CertificateError("malformed", f"a signed result of another format ({value['format']!r})")
    match, identities, links = value["match"], value["identities"], value["links"]
    if not (isinstance(match, str) and 0 < len(match) <= MATCH_ID_MAX):
        raise CertificateError("malformed", "a signed result names its match")
    if not (
        isinstance(identities, list)
        and len(identities) == 2
        and all(isinstance(i, str) and i for i in identities)
        and identities[0] != identities[1]
    ):
        raise CertificateError("malformed", "a signed result names two different players")
    if not (isinstance(links, list) and len(links) == 4):
        raise CertificateError("malformed", "a signed result holds four links")
    try:
        parsed = [Link.from_json(link) for link in links]
    except ChainError as e:
        raise CertificateError("malformed", e.detail) from None
    if [link.seat for link in parsed] != [0, 1, 0, 1]:
        raise CertificateError("malformed", "a signed result's links are seat 0's and seat 1's, twice")
    return match, (identities[0], identities[1]), (parsed[0], parsed[1], parsed[2], parsed[3])


def _result(ending0: Link, ending1: Link) -> dict[str, Any]:
    if ending0.body.get("t") != "result" or ending0.n < 2 or ending1.n < 2:
        raise CertificateError("malformed", "a signed result ends in each seat's result")
    if ending0.body != ending1.body:
        raise CertificateError("disagree", "the two players signed different results")
    winner, reason = ending0.body.get("winner"), ending0.body.get("reason")
    if reason not in REASONS or not (winner is None or (type(winner) is int and winner in (0, 1))):
        raise CertificateError("malformed", "a result names its winner and how the match ended")
    return {"winner": winner, "reason": reason}


def _claim(coin: dict[str, Any]) -> int | None:
    rating = coin.get("rating")
    return rating if type(rating) is int and 0 < rating < 10_000 else None
