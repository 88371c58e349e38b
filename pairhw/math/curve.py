"""What every curve of the model shares: the subgroup of order r, scalar multiplication, checks.

Subclasses (:class:`~pairhw.math.binary.curve.Curve2` over F_2^m, :class:`~pairhw.math.prime.curve.CurveW` over
F_p and F_p², :class:`~pairhw.math.ternary.curve.Curve3` over F_3^m) give the group law (``is_on_curve``,
``neg``, ``double``, ``chord``), ``hash_candidate`` (for :meth:`Curve.hash_to_point`)
and ``NOT_ON_CURVE`` (the failed equation, said in the error).  Points are tuples; infinity is ``None``.
"""

from __future__ import annotations


def square_and_multiply(a, e: int, one, sqr, mul):
    """a^e (e ≥ 0) by left-to-right square and multiply in any group given as (one, sqr, mul):
    field powers, or k·P with (∞, double, add)."""
    r = one
    for bit in bin(e)[2:] if e > 0 else "":
        r = sqr(r)
        if bit == "1":
            r = mul(r, a)
    return r


def wnaf(e: int, window: int) -> list[int]:
    """Width-``window`` non-adjacent form of e ≥ 0, least significant digit first: odd digits of
    absolute value below 2^(window − 1), at most one non-zero digit in any ``window`` consecutive
    ones (window 2 is the plain NAF)."""
    out = []
    while e:
        if e & 1:
            d = e & ((1 << window) - 1)
            if d >= 1 << (window - 1):
                d -= 1 << window
            e -= d
        else:
            d = 0
        out.append(d)
        e >>= 1
    return out


def signed_window_products(e: int, window: int) -> int:
    """Products of :func:`signed_window_pow` for e and ``window`` (precomputation included)."""
    digits = sum(1 for d in wnaf(e, window) if d)
    return max(digits - 1, 0) + max((1 << (window - 2)) - 1, 0)


def signed_window_pow(a, e: int, sqr, mul, inv, max_window: int = 6):
    """a^e (e ≥ 1) for a group where ``inv`` is free (a unitary element's conjugate): left to right
    over the width-w NAF of e with the odd powers a, a³, …, a^(2^(w−1) − 1), w ≤ ``max_window`` chosen
    to need the fewest products (Menezes–van Oorschot–Vanstone §14.7; the smallest w among ties).
    One squaring per digit after the first, as square and multiply."""
    if e < 1:
        raise ValueError("signed_window_pow needs e ≥ 1")
    window = min(range(2, max_window + 1), key=lambda w: (signed_window_products(e, w), w))
    digits = wnaf(e, window)
    odd = {1: a}
    if window > 2:
        a2 = sqr(a)
        for k in range(3, 1 << (window - 1), 2):
            odd[k] = mul(odd[k - 2], a2)

    def power(d):
        return odd[d] if d > 0 else inv(odd[-d])

    r = power(digits[-1])
    for d in reversed(digits[:-1]):
        r = sqr(r)
        if d:
            r = mul(r, power(d))
    return r


def sliding_window_pow(a, e: int, sqr, mul, window: int = 4):
    """a^e (e ≥ 1) by left-to-right sliding windows of up to ``window`` bits over the odd powers
    a, a³, …, a^(2^window − 1) (Menezes–van Oorschot–Vanstone, Alg. 14.85): the same squarings as
    square and multiply, about e.bit_length()/(window + 1) products instead of one per set bit."""
    if e < 1:
        raise ValueError("sliding_window_pow needs e ≥ 1")
    a2 = sqr(a)
    odd = {1: a}
    for k in range(3, 1 << window, 2):
        odd[k] = mul(odd[k - 2], a2)
    bits = bin(e)[2:]
    r, i = None, 0
    while i < len(bits):
        if bits[i] == "0":
            r = sqr(r)
            i += 1
            continue
        j = min(i + window, len(bits))
        while bits[j - 1] == "0":  # the window ends on a set bit
            j -= 1
        for _ in range(j - i if r is not None else 0):
            r = sqr(r)
        w = int(bits[i:j], 2)
        r = odd[w] if r is None else mul(r, odd[w])
        i = j
    return r


class PointError(ValueError):
    """A point is not on the curve, or not in the subgroup of order r."""


class Curve:
    """A curve with #E = ``order`` = cofactor · ``r``."""

    NOT_ON_CURVE = ""  # the equation that fails, for the error message

    def __init__(self, order: int, r: int, name: str):
        if order % r:
            raise ValueError("r must divide the curve order")
        self.order = order
        self.r = r
        self.cofactor = order // r
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"

    def _eq(self, a, b) -> bool:
        """Equality of two coordinates (overridden where elements have no canonical form)."""
        return a == b

    def add(self, P, Q):
        """P + Q: infinity and P = ±Q here, the chord through two points of distinct x by
        the subclass's ``chord``."""
        if P is None:
            return Q
        if Q is None:
            return P
        if self._eq(P[0], Q[0]):
            return self.double(P) if self._eq(P[1], Q[1]) else None
        return self.chord(P, Q)

    def mul(self, k: int, P):
        """k·P by left-to-right double-and-add (negative k negates)."""
        if k < 0:
            return self.mul(-k, self.neg(P))
        return square_and_multiply(P, k, None, self.double, self.add)

    def in_subgroup(self, P) -> bool:
        return self.is_on_curve(P) and self.mul(self.r, P) is None

    def check(self, P) -> None:
        """Raise :class:`PointError` unless P is in E[r] (infinity included)."""
        if not self.is_on_curve(P):
            raise PointError(f"point is not on {self.name}: {self.NOT_ON_CURVE}")
        if P is not None and self.mul(self.r, P) is not None:
            raise PointError(f"point is on {self.name} but not of order r")

    def hash_to_point(self, data: bytes):
        """Try-and-increment hash onto E[r]: for counter c = 0, 1, ..., the subclass's
        ``hash_candidate(data, c)`` (a curve point, or None when c gives none); the first candidate
        R with cofactor·R ≠ ∞ gives cofactor·R.  Deterministic and documented, not constant time
        (for vectors and tests)."""
        for ctr in range(1 << 16):
            R = self.hash_candidate(data, ctr)
            if R is not None:
                P = self.mul(self.cofactor, R)
                if P is not None:
                    return P
        raise RuntimeError("hash_to_point: no point found")  # pragma: no cover

    def point_from_seed(self, seed: int):
        """P_S = hash_to_point(b"point" ‖ decimal S): the documented deterministic point of order r."""
        return self.hash_to_point(b"point" + str(int(seed)).encode())
