"""ristretto255 (RFC 9496): a prime-order group for a commutative cipher, in plain Python.

An element is an edwards25519 point in extended coordinates ``(X, Y, Z, T)``;
two points that ristretto255 identifies compare equal with :func:`equal` and
encode to the same 32 bytes. Scalars are integers modulo :data:`ORDER`.

Multiplying by a scalar is the cipher: ``k·(j·M) = j·(k·M)``. Nothing here is
constant-time; a browser page cannot time another page's engine, and the keys
live for one deal (docs/online.md, "The cipher").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .straus import windowed_sum

P = 2**255 - 19
#: The order of the group (and of edwards25519's base point).
ORDER = 2**252 + 27742317777372353535851937790883648493

_D = -121665 * pow(121666, -1, P) % P
_D2 = 2 * _D % P
_SQRT_M1 = pow(2, (P - 1) // 4, P)


def _is_negative(x: int) -> bool:
    return x % P & 1 == 1


def _abs(x: int) -> int:
    x %= P
    return P - x if x & 1 else x


def _sqrt_ratio_m1(u: int, v: int) -> tuple[bool, int]:
    """(whether u/v is a square, the non-negative square root of u/v or of i·u/v)."""
    v3 = v * v % P * v % P
    v7 = v3 * v3 % P * v % P
    r = u * v3 % P * pow(u * v7 % P, (P - 5) // 8, P) % P
    check = v * r % P * r % P
    u %= P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * _SQRT_M1) % P
    if flipped or flipped_i:
        r = r * _SQRT_M1 % P
    return correct or flipped, _abs(r)


# RFC 9496 takes the negative (odd) root here.
_SQRT_AD_MINUS_ONE = P - _sqrt_ratio_m1(-_D - 1, 1)[1]
_INVSQRT_A_MINUS_D = _sqrt_ratio_m1(1, -1 - _D)[1]
_ONE_MINUS_D_SQ = (1 - _D * _D) % P
_D_MINUS_ONE_SQ = (_D - 1) * (_D - 1) % P

Point = tuple[int, int, int, int]

IDENTITY: Point = (0, 1, 1, 0)


def add(p: Point, q: Point) -> Point:
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * _D2 % P * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def double(p: Point) -> Point:
    x1, y1, z1, _ = p
    a = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    e = ((x1 + y1) * (x1 + y1) - a - b) % P
    g = b - a
    f = g - c
    h = -a - b
    return e * f % P, g * h % P, f * g % P, e * h % P


def negate(p: Point) -> Point:
    x, y, z, t = p
    return (-x) % P, y, z, (-t) % P


def multiply(k: int, p: Point) -> Point:
    """k·p, with a table of 16 multiples and 4 bits at a time."""
    k %= ORDER
    table = [IDENTITY, p]
    for _ in range(14):
        table.append(add(table[-1], p))
    result = IDENTITY
    for shift in range(252, -1, -4):
        result = double(double(double(double(result))))
        nibble = (k >> shift) & 15
        if nibble:
            result = add(result, table[nibble])
    return result


def combination(terms: Sequence[tuple[int, Point]]) -> Point:
    """The sum of k·p over ``terms`` (Straus): the doublings are shared, so n terms cost far less than n
    multiplications; small scalars cost less still."""
    tables = []
    for k, p in terms:
        table = [IDENTITY, p]
        for _ in range(14):
            table.append(add(table[-1], p))
        tables.append((k % ORDER, table))
    bits = max((k.bit_length() for k, _ in tables), default=0)
    return windowed_sum(tables, add, double, bits) or IDENTITY


def equal(p: Point, q: Point) -> bool:
    x1, y1, _, _ = p
    x2, y2, _, _ = q
    return (x1 * y2 - y1 * x2) % P == 0 or (y1 * y2 - x1 * x2) % P == 0


def encode(p: Point) -> bytes:
    """The canonical 32 bytes of p's class."""
    x, y, z, t = p
    u1 = (z + y) * (z - y) % P
    u2 = x * y % P
    _, invsqrt = _sqrt_ratio_m1(1, u1 * u2 % P * u2 % P)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 % P * t % P
    if _is_negative(t * z_inv):
        x, y = y * _SQRT_M1 % P, x * _SQRT_M1 % P
        den_inv = den1 * _INVSQRT_A_MINUS_D % P
    else:
        den_inv = den2
    if _is_negative(x * z_inv):
        y = -y
    return _abs(den_inv * (z - y)).to_bytes(32, "little")


class NotAnElement(ValueError):
    """32 bytes that encode no element (not canonical, or not on the group)."""


def decode(data: bytes) -> Point:
    """The element these 32 bytes encode; :class:`NotAnElement` if none."""
    if len(data) != 32:
        raise NotAnElement("an element is 32 bytes")
    s = int.from_bytes(data, "little")
    if s >= P or s & 1:
        raise NotAnElement("not a canonical encoding")
    ss = s * s % P
    u1 = (1 - ss) % P
    u2 = (1 + ss) % P
    u2_sq = u2 * u2 % P
    v = (-_D * u1 % P * u1 - u2_sq) % P
    was_square, invsqrt = _sqrt_ratio_m1(1, v * u2_sq % P)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x % P * v % P
    x = _abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or _is_negative(t) or y == 0:
        raise NotAnElement("not an element of the group")
    return x, y, 1, t


def _map(t: int) -> Point:
    r = _SQRT_M1 * t % P * t % P
    u = (r + 1) * _ONE_MINUS_D_SQ % P
    v = (-1 - r * _D) * (r + _D) % P
    was_square, s = _sqrt_ratio_m1(u, v)
    if was_square:
        c = P - 1
    else:
        s = (-_abs(s * t)) % P
        c = r
    n = (c * (r - 1) % P * _D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * _SQRT_AD_MINUS_ONE % P
    ss = s * s % P
    w2 = (1 - ss) % P
    w3 = (1 + ss) % P
    return w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P


def from_uniform_bytes(data: bytes) -> Point:
    """The element that 64 uniformly random bytes derive (RFC 9496, 4.3.4): nobody knows its discrete log."""
    if len(data) != 64:
        raise ValueError("an element is derived from 64 bytes")
    mask = (1 << 255) - 1
    r0 = (int.from_bytes(data[:32], "little") & mask) % P
    r1 = (int.from_bytes(data[32:], "little") & mask) % P
    return add(_map(r0), _map(r1))


def hash_to_element(*parts: bytes) -> Point:
    """An element derived from SHA-512 of the length-prefixed parts (a domain-separated hash to the group)."""
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "big") + part)
    return from_uniform_bytes(h.digest())


_BASE_Y = 4 * pow(5, -1, P) % P


def _base() -> Point:
    yy = _BASE_Y * _BASE_Y % P
    _, x = _sqrt_ratio_m1(yy - 1, _D * yy + 1)
    return x, _BASE_Y, 1, x * _BASE_Y % P


#: The generator (edwards25519's base point).
BASE: Point = _base()
