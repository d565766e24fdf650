"""ECDSA over P-256 with SHA-256, as WebCrypto signs: the identities' signatures, checked in plain Python.

A page's identity is its public key as WebCrypto exports it (65 bytes,
uncompressed, base64url); a signature is ``r || s`` (64 bytes, base64url).
:func:`verify` lets anyone check a saved transcript without a browser;
:func:`sign` is for tests and tools (the pages sign with WebCrypto).
"""

from __future__ import annotations

import base64
import hashlib
import random

from .straus import windowed_sum

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)

Jacobian = tuple[int, int, int]
_INFINITY: Jacobian = (1, 1, 0)


def _double(p: Jacobian) -> Jacobian:
    x, y, z = p
    if z == 0 or y == 0:
        return _INFINITY
    yy = y * y % P
    s = 4 * x * yy % P
    zz = z * z % P
    m = 3 * (x - zz) * (x + zz) % P  # a = -3
    x3 = (m * m - 2 * s) % P
    return x3, (m * (s - x3) - 8 * yy * yy) % P, 2 * y * z % P


def _add(p: Jacobian, q: Jacobian) -> Jacobian:
    if p[2] == 0:
        return q
    if q[2] == 0:
        return p
    x1, y1, z1 = p
    x2, y2, z2 = q
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    if u1 == u2:
        return _double(p) if s1 == s2 else _INFINITY
    h = (u2 - u1) % P
    r = (s2 - s1) % P
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    return x3, (r * (v - x3) - s1 * hhh) % P, h * z1 * z2 % P


def _multiples(point: tuple[int, int]) -> list[Jacobian]:
    """0·P to 15·P: the table of a 4-bit window."""
    table = [_INFINITY, (point[0], point[1], 1)]
    for _ in range(14):
        table.append(_add(table[-1], table[1]))
    return table


_G_MULTIPLES = _multiples(G)


def _combine(terms: list[tuple[int, list[Jacobian]]]) -> Jacobian:
    """The sum of k·P over (k, multiples of P), 4 bits at a time with the doublings shared (Straus, Shamir)."""
    return windowed_sum(terms, _add, _double, 256) or _INFINITY


def _times_g(k: int) -> Jacobian:
    return _combine([(k, _G_MULTIPLES)])


def _affine_x(p: Jacobian) -> int | None:
    x, _, z = p
    if z == 0:
        return None
    return x * pow(z * z % P, -1, P) % P


def b64decode(text: str) -> bytes | None:
    if not isinstance(text, str) or not all(c.isalnum() or c in "-_" for c in text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _public_point(identity: str) -> tuple[int, int] | None:
    raw = b64decode(identity)
    if raw is None or len(raw) != 65 or raw[0] != 4:
        return None
    x, y = int.from_bytes(raw[1:33], "big"), int.from_bytes(raw[33:], "big")
    if x >= P or y >= P or (y * y - x * x * x - A * x - B) % P:
        return None
    return x, y


def verify(identity: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` is ``identity``'s signature of ``message``; False for anything malformed."""
    q = _public_point(identity)
    raw = b64decode(signature)
    if q is None or raw is None or len(raw) != 64:
        return False
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    if not (0 < r < N and 0 < s < N):
        return False
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    w = pow(s, -1, N)
    x = _affine_x(_combine([(e * w % N, _G_MULTIPLES), (r * w % N, _multiples(q))]))
    return x is not None and x % N == r


def new_key(rng: random.Random) -> tuple[int, str]:
    """A private scalar and its identity (for tests and tools)."""
    d = rng.randrange(1, N)
    x, y, z = _times_g(d)
    zi = pow(z, -1, P)
    ax, ay = x * zi * zi % P, y * zi * zi * zi % P
    return d, b64encode(b"\x04" + ax.to_bytes(32, "big") + ay.to_bytes(32, "big"))


def sign(private: int, message: bytes, rng: random.Random) -> str:
    """An ECDSA signature of ``message`` (for tests and tools; the pages sign with WebCrypto)."""
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    while True:
        k = rng.randrange(1, N)
        x = _affine_x(_times_g(k))
        assert x is not None
        r = x % N
        s = pow(k, -1, N) * (e + r * private) % N
        if r and s:
            return b64encode(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
