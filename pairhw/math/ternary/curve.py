"""Supersingular curves E_b : y² = x³ − x + b over F_3^m (b = ±1, gcd(m, 6) = 1), affine.

#E_b(F_3^m) = 3^m + 1 + μ·b·3^((m+1)/2), μ = +1 if m ≡ 1, 11 (mod 12) and −1 if m ≡ 5, 7 (mod 12)
(checked by counting points in the tests).  Embedding degree 6; the distortion map
ψ(x, y) = (ρ − x, y·σ) sends E(F_3^m) into E(F_{3^6m}) (ρ³ = ρ + b, σ² = −1):
(yσ)² = −y² and (ρ − x)³ − (ρ − x) + b = −(x³ − x + b) since ρ³ − ρ = b and 2b = −b.

Points are ``(x, y)`` tuples of :class:`~pairhw.math.ternary.field.GF3m` elements; infinity is ``None``.
"""

from __future__ import annotations

import hashlib

from pairhw.math.curve import Curve, PointError
from pairhw.math.ternary.field import GF3m

__all__ = ["Curve3", "PointError", "mu_of"]


def mu_of(m: int) -> int:
    """μ of the order formula: +1 for m ≡ 1, 11 (mod 12), −1 for m ≡ 5, 7 (mod 12)."""
    if m % 2 == 0 or m % 3 == 0:
        raise ValueError("m must be coprime to 6")
    return 1 if m % 12 in (1, 11) else -1


class Curve3(Curve):
    """y² = x³ − x + b over ``F`` with #E = 3^m + 1 + μ·b·3^((m+1)/2) = cofactor · ``r``."""

    NOT_ON_CURVE = "y^2 != x^3 - x + b"

    def __init__(self, F: GF3m, b: int, r: int, name: str = ""):
        if b not in (1, -1):
            raise ValueError("b must be 1 or -1")
        m = F.m
        self.mu = mu_of(m)
        order = 3 ** m + 1 + self.mu * b * 3 ** ((m + 1) // 2)
        super().__init__(order, r, name or f"E{b:+d}/F_3^{m}")
        self.F = F
        self.b = b
        self.bF = F.const(b)

    # -- group law ---------------------------------------------------------------------------------
    def rhs(self, x):
        F = self.F
        return F.add(F.sub(F.cube(x), x), self.bF)

    def is_on_curve(self, P) -> bool:
        if P is None:
            return True
        F = self.F
        x, y = P
        return F.mul(y, y) == self.rhs(x)

    def neg(self, P):
        return None if P is None else (P[0], self.F.neg(P[1]))

    def double(self, P):
        """λ = (3x² − 1)/(2y) = 1/y in characteristic 3, x₃ = λ² + x, y₃ = λ(x − x₃) − y."""
        if P is None:
            return None
        F = self.F
        x, y = P
        if y == 0:
            return None
        lam = F.inv(y)
        x3 = F.add(F.mul(lam, lam), x)
        return (x3, F.sub(F.mul(lam, F.sub(x, x3)), y))

    def chord(self, P, Q):
        """λ = (y₂ − y₁)/(x₂ − x₁), x₃ = λ² − x₁ − x₂, y₃ = λ(x₁ − x₃) − y₁ (x₁ ≠ x₂)."""
        F = self.F
        (x1, y1), (x2, y2) = P, Q
        lam = F.mul(F.sub(y2, y1), F.inv(F.sub(x2, x1)))
        x3 = F.sub(F.sub(F.mul(lam, lam), x1), x2)
        return (x3, F.sub(F.mul(lam, F.sub(x1, x3)), y1))

    # -- scalar multiplication in Jacobian coordinates (one inversion at the end) --------------------
    def mul(self, k: int, P):
        """k·P by left-to-right double-and-add in Jacobian coordinates (x = X/Z², y = Y/Z³); the
        same result as the affine group law (tested), with one inversion instead of one per step."""
        if k < 0:
            return self.mul(-k, self.neg(P))
        if P is None or k == 0:
            return None
        F = self.F
        xp, yp = P
        R = (xp, yp, F.ONE)
        for bit in bin(k)[3:]:
            R = self._jdouble(R)
            if bit == "1":
                R = self._jadd_affine(R, xp, yp)
        if R is None:
            return None
        X, Y, Z = R
        zi = F.inv(Z)
        zi2 = F.mul(zi, zi)
        return (F.mul(X, zi2), F.mul(Y, F.mul(zi2, zi)))

    def _jdouble(self, R):
        """M = 3X² + a·Z⁴ = −Z⁴ (a = −1, 3 = 0), S = 4XY² = XY², X' = M² − 2S = M² + S,
        Y' = M(S − X') − 8Y⁴ = M(S − X') + Y⁴, Z' = 2YZ = −YZ."""
        if R is None:
            return None
        F = self.F
        X, Y, Z = R
        if Y == 0:
            return None
        z2 = F.mul(Z, Z)
        M = F.neg(F.mul(z2, z2))
        y2 = F.mul(Y, Y)
        S = F.mul(X, y2)
        X3 = F.add(F.mul(M, M), S)
        return (X3, F.add(F.mul(M, F.sub(S, X3)), F.mul(y2, y2)), F.neg(F.mul(Y, Z)))

    def _jadd_affine(self, R, x2, y2):
        """R + (x2, y2): H = x2·Z² − X, r = y2·Z³ − Y, X' = r² − H³ − 2X·H², Y' = r(X·H² − X') − Y·H³,
        Z' = Z·H."""
        F = self.F
        if R is None:
            return (x2, y2, F.ONE)
        X, Y, Z = R
        z2 = F.mul(Z, Z)
        H = F.sub(F.mul(x2, z2), X)
        r = F.sub(F.mul(y2, F.mul(z2, Z)), Y)
        if H == 0:
            return self._jdouble(R) if r == 0 else None
        h2 = F.mul(H, H)
        h3 = F.mul(h2, H)
        xh2 = F.mul(X, h2)
        X3 = F.add(F.sub(F.mul(r, r), h3), xh2)        # −2·X·H² = +X·H²
        return (X3, F.sub(F.mul(r, F.sub(xh2, X3)), F.mul(Y, h3)), F.mul(Z, H))

    # -- deterministic points ---------------------------------------------------------------------
    def hash_candidate(self, data: bytes, ctr: int):
        """Counter ``ctr``'s candidate for :meth:`~pairhw.math.curve.Curve.hash_to_point`:
        v = SHAKE-256("pairhw/h2c/F3/" ‖ data ‖ ctr as 4 bytes big-endian), ⌈m·log2(3)/8⌉ + 16 bytes
        read as a little-endian integer, reduced mod 3^m; x is the element whose trits are the base-3
        digits of v (a_0 least significant); if x³ − x + b is a square, (x, y) with
        y = (x³ − x + b)^((3^m+1)/4) (the other root is −y), else None."""
        F = self.F
        q = 3 ** F.m
        nbytes = (q.bit_length() + 7) // 8 + 16
        digest = hashlib.shake_256(b"pairhw/h2c/F3/" + data + ctr.to_bytes(4, "big")).digest(nbytes)
        x = F.from_int(int.from_bytes(digest, "little") % q)
        y = F.sqrt(self.rhs(x))
        return None if y is None else (x, y)

    # -- encoding ----------------------------------------------------------------------------------
    def point_to_trits(self, P):
        return None if P is None else [self.F.to_trits(P[0]), self.F.to_trits(P[1])]
