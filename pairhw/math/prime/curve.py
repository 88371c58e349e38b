"""Short Weierstrass curves y² = x³ + b over F_p or F_{p^2} (affine; infinity is ``None``).

Used for G1 = E(F_p)[r] and for G2 ⊂ E'(F_{p^2}), the sextic twist, of BN and BLS12 curves.
The field ``K`` is a :class:`~pairhw.math.prime.field.PrimeField` or :class:`~pairhw.math.prime.field.Fp2` (same
method names).  Group operations here are for points and tests; the pairing's own point
arithmetic (projective, with lines) is in :mod:`pairhw.math.prime.pairing`.
"""

from __future__ import annotations

import hashlib

from pairhw.math.curve import Curve, PointError
from pairhw.math.prime.field import Fp2

__all__ = ["CurveW", "PointError"]


class CurveW(Curve):
    """E : y² = x³ + b over ``K`` with r | #E = ``order``; points are (x, y) or None."""

    NOT_ON_CURVE = "y^2 != x^3 + b"

    def __init__(self, K, b, order: int, r: int, name: str = ""):
        super().__init__(order, r, name)
        self.K = K
        self.b = b

    @property
    def over_fp2(self) -> bool:
        return isinstance(self.K, Fp2)

    def is_on_curve(self, P) -> bool:
        if P is None:
            return True
        K = self.K
        x, y = P
        return K.eq(K.sqr(y), K.add(K.mul(K.sqr(x), x), self.b))

    def neg(self, P):
        return None if P is None else (P[0], self.K.neg(P[1]))

    def double(self, P):
        if P is None:
            return None
        K = self.K
        x, y = P
        if K.is_zero(y):
            return None
        lam = K.mul(K.mul_int(K.sqr(x), 3), K.inv(K.add(y, y)))
        x3 = K.sub(K.sqr(lam), K.add(x, x))
        return (x3, K.sub(K.mul(lam, K.sub(x, x3)), y))

    def _eq(self, a, b) -> bool:
        return self.K.eq(a, b)

    def chord(self, P, Q):
        """λ = (y₂ − y₁)/(x₂ − x₁), x₃ = λ² − x₁ − x₂, y₃ = λ(x₁ − x₃) − y₁ (x₁ ≠ x₂)."""
        K = self.K
        lam = K.mul(K.sub(Q[1], P[1]), K.inv(K.sub(Q[0], P[0])))
        x3 = K.sub(K.sub(K.sqr(lam), P[0]), Q[0])
        return (x3, K.sub(K.mul(lam, K.sub(P[0], x3)), P[1]))

    def eq(self, P, Q) -> bool:
        if P is None or Q is None:
            return P is None and Q is None
        return self.K.eq(P[0], Q[0]) and self.K.eq(P[1], Q[1])

    # -- deterministic points ----------------------------------------------------------------
    def _hash_x(self, data: bytes, ctr: int):
        p = self.K.p
        n = 1 if not self.over_fp2 else 2
        out = []
        for i in range(n):
            h = hashlib.sha512(data + b"/" + str(ctr).encode() + b"/" + str(i).encode()).digest()
            out.append(int.from_bytes(h, "big") % p)
        return out[0] if n == 1 else tuple(out)

    def hash_candidate(self, data: bytes, ctr: int):
        """Counter ``ctr``'s candidate for :meth:`~pairhw.math.curve.Curve.hash_to_point`:
        x = SHA-512(data/ctr/i) mod p (i = 0, 1 over F_p²); if x³ + b is a square, (x, y) with y its
        root of even first coefficient, else None."""
        K = self.K
        x = self._hash_x(data, ctr)
        y = K.sqrt(K.add(K.mul(K.sqr(x), x), self.b))
        return None if y is None else (x, _even(K, y))

    def raw_point(self, data: bytes, ctr: int = 0):
        """(the first curve point at or after counter ``ctr``, the next counter), before cofactor
        clearing."""
        while True:
            R = self.hash_candidate(data, ctr)
            ctr += 1
            if R is not None:
                return R, ctr


def _even(K, y):
    """The root of ±y whose first F_p coefficient is even (the other root is p − that)."""
    if isinstance(K, Fp2):
        first = y[0] if y[0] else y[1]
        return y if first % 2 == 0 else K.neg(y)
    return y if y % 2 == 0 else K.neg(y)
