"""The signed transcript of an online game: every message numbered, hash-chained and signed by its sender.

Each seat's messages form a chain of :class:`Link`: its number (1 first),
the digest of the sender's previous link, the digest of the last link it had
received from the other (what it had seen when it wrote), and the message
itself. The digest is SHA-256 of the canonical JSON of all that and of the
match's id; the sender's page signs ``sixty-six transcript 2`` and the digest
with the identity key it proved when the two connected (ECDSA P-256).

Both sides keep both chains. A signed link that contradicts its chain (a
second version of a link, another history, an answer to a link this side
never sent) is refused and, being signed, attributed to its sender. A link
that came again unchanged, or before the links it follows (a connection lost
in between), is refused and attributed to nobody: the session asks for what
it lacks (:meth:`Transcript.since`). A link whose signature does not hold is
refused and attributed to nobody: anyone could have made it. A result counts
only once both chains end in the same result.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import p256

PREFIX = "sixty-six transcript"
VERSION = 2
#: The other side's signature check: (identity, signed bytes, signature) -> bool.
Verifier = Callable[[str, bytes, str], bool]


class ChainError(Exception):
    """A link refused: ``by`` is the seat that signed it, or None when nobody provably did."""

    def __init__(self, by: int | None, what: str, detail: str) -> None:
        super().__init__(detail)
        self.by = by
        self.what = what
        self.detail = detail


def _no_floats(value: Any) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _no_floats(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_no_floats(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


def canonical(value: Any) -> bytes:
    """The one text of a JSON value: sorted keys, no spaces, every character beyond ASCII escaped (so a lone
    surrogate is text like any other), no floats."""
    if not _no_floats(value):
        raise ValueError("a transcript holds JSON without floats")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


@dataclass(frozen=True)
class Link:
    seat: int
    n: int
    prev: str
    seen: str
    body: dict[str, Any]
    sig: str = ""

    def digest(self, match_id: str) -> str:
        fields = [PREFIX, VERSION, match_id, self.seat, self.n, self.prev, self.seen, self.body]
        return hashlib.sha256(canonical(fields)).hexdigest()

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "n": self.n,
            "prev": self.prev,
            "seen": self.seen,
            "body": self.body,
            "sig": self.sig,
        }

    @classmethod
    def from_json(cls, value: Any) -> Link:
        """A link from its JSON; :class:`ChainError` (by nobody) if it is not one."""
        keys = {"seat", "n", "prev", "seen", "body", "sig"}
        if not (isinstance(value, dict) and set(value) == keys):
            raise ChainError(None, "malformed", "not a link of the transcript")
        seat, n, prev, seen, body, sig = (value[k] for k in ("seat", "n", "prev", "seen", "body", "sig"))
        if seat not in (0, 1) or type(seat) is not int or type(n) is not int or n < 1:
            raise ChainError(None, "malformed", "a link without its seat or number")
        if not all(isinstance(x, str) and len(x) in (0, 64) for x in (prev, seen)) or not isinstance(sig, str):
            raise ChainError(None, "malformed", "a link without its digests or signature")
        if not isinstance(body, dict) or not _no_floats(body):
            raise ChainError(None, "malformed", "a link whose message is not a JSON object without floats")
        return cls(seat, n, prev, seen, body, sig)


def signing_text(digest: str) -> bytes:
    """What a page signs for a link."""
    return f"{PREFIX} {VERSION}\n{digest}".encode()


class Transcript:
    """Both seats' chains as one seat keeps them; ``identities`` are the two seats' proven public keys."""

    def __init__(self, match_id: str, seat: int, identities: tuple[str, str], verify: Verifier = p256.verify) -> None:
        self.match_id = match_id
        self.seat = seat
        self.identities = identities
        self._verify = verify
        #: Every link, in the order this seat wrote or accepted it.
        self.links: list[Link] = []
        self.heads = ["", ""]
        self.counts = [0, 0]
        self._mine: dict[str, int] = {"": 0}

    def draft(self, body: dict[str, Any]) -> Link:
        """This seat's next link, to be signed (:meth:`signed`) before it is sent."""
        other = 1 - self.seat
        return Link(self.seat, self.counts[self.seat] + 1, self.heads[self.seat], self.heads[other], body)

    def signed(self, link: Link, signature: str) -> Link:
        """Keep this seat's signed link; it must be the draft of now."""
        if link.seat != self.seat or link.n != self.counts[self.seat] + 1:
            raise ValueError("not this seat's next link")
        if not self._verify(self.identities[self.seat], signing_text(link.digest(self.match_id)), signature):
            raise ValueError("the signature of this seat's own link does not hold")
        kept = Link(link.seat, link.n, link.prev, link.seen, link.body, signature)
        self._append(kept)
        return kept

    def accept(self, value: Any) -> Link:
        """The other seat's next link, checked; :class:`ChainError` (and nothing kept) if it is not."""
        link = Link.from_json(value)
        other = 1 - self.seat
        if link.seat != other:
            raise ChainError(None, "malformed", "a link in this seat's own name")
        digest = link.digest(self.match_id)
        if not self._verify(self.identities[other], signing_text(digest), link.sig):
            raise ChainError(None, "unsigned", f"link {link.n} is not signed by the other player")
        expected = self.counts[other] + 1
        if link.n < expected:
            kept = next(k for k in self.links if k.seat == other and k.n == link.n)
            if kept.digest(self.match_id) == digest:
                raise ChainError(None, "repeated", f"link {link.n} came again (sent again after a reconnection?)")
            raise ChainError(other, "two_versions", f"link {link.n} came again, saying something else")
        if link.n > expected:
            raise ChainError(None, "missing", f"link {link.n} came before link {expected}: ask for the rest")
        if link.prev != self.heads[other]:
            raise ChainError(other, "rewritten", f"link {link.n} does not follow the other's link {link.n - 1}")
        if link.seen not in self._mine:
            raise ChainError(other, "forged", f"link {link.n} answers a message this seat never sent")
        self._append(link)
        return link

    def _append(self, link: Link) -> None:
        digest = link.digest(self.match_id)
        self.links.append(link)
        self.heads[link.seat] = digest
        self.counts[link.seat] = link.n
        if link.seat == self.seat:
            self._mine[digest] = link.n

    def seen_by_other(self, link: Link) -> int:
        """How many of this seat's links the other had received when it wrote ``link`` (one of its own)."""
        return self._mine[link.seen]

    def since(self, seat: int, count: int) -> list[Link]:
        """``seat``'s links after its first ``count``: what the other side lacks after a reconnection."""
        return [link for link in self.links if link.seat == seat and link.n > count]

    def result(self) -> dict[str, Any] | None:
        """The result both chains end in (each seat's last ``result`` message, the same), if they agree."""
        last: list[dict[str, Any] | None] = [None, None]
        for link in self.links:
            if link.body.get("t") == "result":
                last[link.seat] = {k: v for k, v in link.body.items() if k != "t"}
        return last[0] if last[0] is not None and last[0] == last[1] else None

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match_id,
            "seat": self.seat,
            "identities": list(self.identities),
            "links": [link.to_json() for link in self.links],
        }

    @classmethod
    def from_json(cls, value: Any, verify: Verifier = p256.verify) -> Transcript:
        """A kept transcript, every link checked again as it is replayed; :class:`ChainError` if one fails."""
        if not (isinstance(value, dict) and set(value) == {"match", "seat", "identities", "links"}):
            raise ChainError(None, "malformed", "not a transcript")
        match_id, seat, identities, links = value["match"], value["seat"], value["identities"], value["links"]
        if not (
            isinstance(match_id, str)
            and seat in (0, 1)
            and type(seat) is int
            and isinstance(identities, list)
            and len(identities) == 2
            and all(isinstance(i, str) for i in identities)
            and isinstance(links, list)
        ):
            raise ChainError(None, "malformed", "not a transcript")
        transcript = cls(match_id, seat, (identities[0], identities[1]), verify)
        for raw in links:
            link = Link.from_json(raw)
            if link.seat == seat:
                if link.n != transcript.counts[seat] + 1 or link.prev != transcript.heads[seat]:
                    raise ChainError(seat, "rewritten", f"this seat's own link {link.n} is out of its chain")
                if not verify(identities[seat], signing_text(link.digest(match_id)), link.sig):
                    raise ChainError(None, "unsigned", f"this seat's own link {link.n} is not signed")
                transcript._append(link)
            else:
                transcript.accept(raw)
        return transcript
