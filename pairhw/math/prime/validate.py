"""Input validation as a pairing core computes it: straight-line, in constant time.

:func:`~pairhw.math.prime.pairing.in_g1` and :func:`~pairhw.math.prime.pairing.in_g2` answer with
affine arithmetic that branches on the points (and inverts).  A core cannot branch on its inputs, so
here the same tests are written as values that are all 0 exactly when the point is valid
(:func:`residues`): the curve equation's residue, and for the subgroup tests the difference of the two
sides of Scott's endomorphism test (ePrint 2021/1130) with the scalar side computed by a fixed
double-and-add over the bits of the public scalar in homogeneous projective coordinates, using the
complete formulas for y² = x³ + b of Renes, Costello and Batina (EUROCRYPT 2016, Algorithms 7 and 9),
which have no exceptional case: the point at infinity (0 : 1 : 0), P + P and P + (−P) all go through
the same operations.  The functions take the field ``K`` (F_p, F_p² or a tracer of either), so the
core's program is traced from this code (:mod:`pairhw.fields.prime`).
"""

from __future__ import annotations


def add(K, b3, P, Q):
    """P + Q in homogeneous coordinates (X : Y : Z), complete for y² = x³ + b (b3 = 3b): Renes,
    Costello and Batina 2016, Algorithm 7 (12 products, 2 by b3)."""
    X1, Y1, Z1 = P
    X2, Y2, Z2 = Q
    t0, t1, t2 = K.mul(X1, X2), K.mul(Y1, Y2), K.mul(Z1, Z2)
    t3 = K.sub(K.mul(K.add(X1, Y1), K.add(X2, Y2)), K.add(t0, t1))  # X1Y2 + X2Y1
    t4 = K.sub(K.mul(K.add(Y1, Z1), K.add(Y2, Z2)), K.add(t1, t2))  # Y1Z2 + Y2Z1
    y3 = K.sub(K.mul(K.add(X1, Z1), K.add(X2, Z2)), K.add(t0, t2))  # X1Z2 + X2Z1
    t0 = K.add(K.add(t0, t0), t0)  # 3X1X2
    t2 = K.mul(t2, b3)
    z3, t1 = K.add(t1, t2), K.sub(t1, t2)
    y3 = K.mul(y3, b3)
    x3 = K.sub(K.mul(t3, t1), K.mul(t4, y3))
    y3 = K.add(K.mul(t1, z3), K.mul(y3, t0))
    z3 = K.add(K.mul(z3, t4), K.mul(t0, t3))
    return (x3, y3, z3)


def double(K, b3, P):
    """2P in homogeneous coordinates, complete for y² = x³ + b: Renes, Costello and Batina 2016,
    Algorithm 9 (6 products, 2 squarings, 1 product by b3)."""
    X, Y, Z = P
    t0 = K.sqr(Y)
    z3 = K.add(t0, t0)
    z3 = K.add(z3, z3)
    z3 = K.add(z3, z3)  # 8Y²
    t1 = K.mul(Y, Z)
    t2 = K.mul(K.sqr(Z), b3)
    x3 = K.mul(t2, z3)
    y3 = K.add(t0, t2)
    z3 = K.mul(t1, z3)
    t0 = K.sub(t0, K.add(K.add(t2, t2), t2))
    y3 = K.add(x3, K.mul(t0, y3))
    x3 = K.mul(t0, K.mul(X, Y))
    return (K.add(x3, x3), y3, z3)


def scalar_mul(K, b3, n: int, P):
    """[n]P for the public integer n ≠ 0 and an affine P: double-and-add over the bits of |n| from
    the top (the top bit starts at P), the same operations for every P; negated for n < 0."""
    R = (P[0], P[1], K.one)
    Pp = R
    for bit in bin(abs(n))[3:]:
        R = double(K, b3, R)
        if bit == "1":
            R = add(K, b3, R, Pp)
    return (R[0], K.neg(R[1]), R[2]) if n < 0 else R


def equal_residues(K, affine, R) -> list:
    """The two values X − x·Z and Y − y·Z: both 0 exactly when the projective R is the affine point
    (x, y) (R at infinity, Z = 0, gives Y ≠ 0)."""
    x, y = affine
    X, Y, Z = R
    return [K.sub(X, K.mul(x, Z)), K.sub(Y, K.mul(y, Z))]


def curve_residue(K, b, P):
    """y² − x³ − b: 0 exactly when P is on y² = x³ + b."""
    x, y = P
    return K.sub(K.sqr(y), K.add(K.mul(K.sqr(x), x), b))


def residues(C, P, Q) -> list:
    """The F_p values that are all 0 exactly when the affine P is in G1 and the affine Q in G2, as a
    core computes them: P's curve residue; for BLS12 (cofactor ≠ 1) φ(P) = [−u²]P (Scott §3);
    Q's curve residue; ψ(Q) = [z]Q with z = u (BLS12) or 6u² (BN), p ≡ z (mod r) (Scott §4).  Each
    F_p² value is its two coefficients.  ``C`` may be a curve over a tracer
    (:meth:`~pairhw.math.prime.pairing.PairingCurve.over_field`)."""
    if C.E1.order % 2 == 0 or C.E2.order % 2 == 0:  # pragma: no cover - no prime set has one
        raise ValueError(f"{C.name}: a curve of even order has points of order 2, where the complete "
                         "formulas are not complete")
    F, K = C.F, C.K
    out = [curve_residue(F, C.b, P)]
    if C.E1.cofactor != 1:
        out += equal_residues(F, (F.mul(P[0], C.g1_beta), P[1]), scalar_mul(F, 3 * C.b % C.p, -C.u * C.u, P))
    out += list(curve_residue(K, C.b2, Q))
    z = C.u if C.family == "bls12" else 6 * C.u * C.u
    for pair in equal_residues(K, C.psi(Q, 1), scalar_mul(K, C.b2x3, z, Q)):
        out += list(pair)
    return out


def count(C) -> int:
    """How many values :func:`residues` gives for one pair on the curve ``C``."""
    return 1 + (2 if C.E1.cofactor != 1 else 0) + 2 + 4
