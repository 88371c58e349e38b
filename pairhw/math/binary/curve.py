"""Supersingular curves E_b : y² + y = x³ + x + b over F_2^m (m odd), affine coordinates.

Points are ``(x, y)`` tuples of field ints; the point at infinity is ``None``.
"""

from __future__ import annotations

import hashlib

from pairhw.math.curve import Curve, PointError
from pairhw.math.binary.field import GF2m

__all__ = ["Curve2", "PointError"]


class Curve2(Curve):
    """The curve y² + y = x³ + x + b over ``F`` with #E = ``order`` = cofactor · ``r``."""

    NOT_ON_CURVE = "y^2 + y != x^3 + x + b"

    def __init__(self, F: GF2m, b: int, order: int, r: int, name: str = ""):
        if b not in (0, 1):
            raise ValueError("b must be 0 or 1")
        super().__init__(order, r, name or f"E{b}/F_2^{F.m}")
        self.F = F
        self.b = b

    # -- group law -------------------------------------------------------------------------------
    def is_on_curve(self, P) -> bool:
        if P is None:
            return True
        F = self.F
        x, y = P
        if x >> F.m or y >> F.m or x < 0 or y < 0:
            return False
        return F.sqr(y) ^ y == F.mul(F.sqr(x), x) ^ x ^ self.b

    @staticmethod
    def neg(P):
        return None if P is None else (P[0], P[1] ^ 1)

    def double(self, P):
        """λ = x² + 1, x₃ = λ², y₃ = λ(x + x₃) + y + 1 (a₃ = 1, a₄ = 1; never vertical)."""
        if P is None:
            return None
        F = self.F
        x, y = P
        lam = F.sqr(x) ^ 1
        x3 = F.sqr(lam)
        return (x3, F.mul(lam, x ^ x3) ^ y ^ 1)

    def chord(self, P, Q):
        """λ = (y₁ + y₂)/(x₁ + x₂), x₃ = λ² + x₁ + x₂, y₃ = λ(x₁ + x₃) + y₁ + 1 (x₁ ≠ x₂)."""
        F = self.F
        (x1, y1), (x2, y2) = P, Q
        lam = F.mul(y1 ^ y2, F.inv_euclid(x1 ^ x2))
        x3 = F.sqr(lam) ^ x1 ^ x2
        return (x3, F.mul(lam, x1 ^ x3) ^ y1 ^ 1)

    # -- deterministic points ---------------------------------------------------------------------
    def hash_candidate(self, data: bytes, ctr: int):
        """Counter ``ctr``'s candidate for :meth:`~pairhw.math.curve.Curve.hash_to_point`:
        x = the first m bits (little-endian) of SHAKE-256("pairhw/h2c/F2/" ‖ data ‖ ctr as 4 bytes
        big-endian); if Tr(x³ + x + b) = 0, (x, y) with y the half-trace root of y² + y = x³ + x + b
        (the other root is y + 1), else None."""
        F = self.F
        nbytes = (F.m + 7) // 8
        digest = hashlib.shake_256(b"pairhw/h2c/F2/" + data + ctr.to_bytes(4, "big")).digest(nbytes)
        x = int.from_bytes(digest, "little") & F.mask
        y = F.solve_quadratic(F.mul(F.sqr(x), x) ^ x ^ self.b)
        return None if y is None else (x, y)

    # -- encoding ----------------------------------------------------------------------------------
    def point_to_hex(self, P):
        return None if P is None else [self.F.to_hex(P[0]), self.F.to_hex(P[1])]
