"""The pure-Python ristretto255 against libsodium's (through rbcl), which only CPython can load."""

from __future__ import annotations

import random

import rbcl  # type: ignore[import-untyped]

from py_engine.fairplay import group


def test_derivation_multiplication_and_decoding_agree_with_libsodium() -> None:
    rng = random.Random(2026)
    for _ in range(150):
        uniform = rng.randbytes(64)
        point = group.from_uniform_bytes(uniform)
        encoded = group.encode(point)
        assert encoded == rbcl.crypto_core_ristretto255_from_hash(uniform)
        k = rng.randrange(1, group.ORDER)
        assert group.encode(group.multiply(k, point)) == rbcl.crypto_scalarmult_ristretto255(
            k.to_bytes(32, "little"), encoded
        )
        # libsodium ignores the top bit where RFC 9496 refuses it (s >= p): compare the rest.
        other = bytes([*rng.randbytes(31), rng.randrange(128)])
        try:
            group.decode(other)
            ours = True
        except group.NotAnElement:
            ours = False
        assert ours == bool(rbcl.crypto_core_ristretto255_is_valid_point(other))
