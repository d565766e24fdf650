"""A cryptographic source of randomness that a secret makes reproducible: SHA-256 in counter mode.

:class:`SecretSource` is a :class:`random.Random` whose every bit comes from
SHA-256 of a secret, a label and a counter, so its outputs (the keys a seat
releases) tell nothing of the secret or of its other outputs, unlike the
Mersenne Twister's. The same secret and label give the same keys and
shuffles again: a page that reloads rebuilds its deals from its saved
secret and the transcript.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any


def new_secret() -> bytes:
    """32 bytes from the system's cryptographic source (``crypto.getRandomValues`` in Pyodide)."""
    return secrets.token_bytes(32)


class SecretSource(random.Random):
    """Random numbers from SHA-256(secret, label, counter); ``randrange`` and ``shuffle`` use them."""

    def __init__(self, secret: bytes, label: str) -> None:
        self._key = hashlib.sha256(b"sixty-six source\n" + secret + b"\n" + label.encode()).digest()
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0
        super().__init__(0)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Seeding is by the secret alone."""

    def _more(self) -> None:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool |= int.from_bytes(block, "big") << self._pool_bits
        self._pool_bits += 256

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            self._more()
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return value

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def getstate(self) -> Any:
        raise NotImplementedError("a secret source is rebuilt from its secret, not saved")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("a secret source is rebuilt from its secret, not saved")
