"""The pure-Python ECDSA P-256 against the `cryptography` package (OpenSSL), as WebCrypto signs."""

from __future__ import annotations

import random

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from py_engine.fairplay import p256


def test_signatures_agree_with_openssl_both_ways() -> None:
    rng = random.Random(9)
    for i in range(12):
        message = f"sixty-six {i}".encode()
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        r, s = utils.decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
        signature = p256.b64encode(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
        identity = p256.b64encode(raw)
        assert p256.verify(identity, message, signature)
        assert not p256.verify(identity, message + b".", signature)
        d, ours = p256.new_key(rng)
        signed = p256.sign(d, message, rng)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256.b64decode(ours) or b"")
        raw_sig = p256.b64decode(signed) or b""
        der = utils.encode_dss_signature(int.from_bytes(raw_sig[:32], "big"), int.from_bytes(raw_sig[32:], "big"))
        public.verify(der, message, ec.ECDSA(hashes.SHA256()))  # raises if it does not hold
