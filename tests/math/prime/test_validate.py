"""Input validation as a core computes it (issue 53): the complete projective formulas equal the affine
group law on every case (P + P, P + (−P), the point at infinity), the straight-line scalar product
equals the model's, and the residues are all 0 exactly when the model's in_g1 and in_g2 say valid."""

import random

import pytest

from pairhw import params
from pairhw.math.prime import pairing as pp
from pairhw.math.prime import validate as V

SETS = [n for n in params.names() if params.get(n).is_prime]


def affine(K, R):
    """The affine point of the projective R (None at infinity)."""
    X, Y, Z = R
    if K.is_zero(Z):
        assert K.is_zero(X) and not K.is_zero(Y)  # (0 : Y : 0), never (0 : 0 : 0)
        return None
    zi = K.inv(Z)
    return (K.mul(X, zi), K.mul(Y, zi))


def proj(K, P, z):
    """P in homogeneous coordinates with Z = z (infinity: (0 : 1 : 0))."""
    zero = getattr(K, "zero", 0)
    return (zero, K.one, zero) if P is None else (K.mul(P[0], z), K.mul(P[1], z), z)


@pytest.mark.parametrize("name", ["bn-tiny", "bn254", "bls12-381"])
@pytest.mark.parametrize("group", [1, 2])
def test_the_complete_formulas_are_the_group_law_on_every_case(name, group):
    C = params.curve(name)
    E = C.E1 if group == 1 else C.E2
    K, b3 = E.K, (3 * C.b % C.p if group == 1 else C.b2x3)
    rng = random.Random(5300 + group)
    pts = [E.point_from_seed(rng.randrange(1, 10**6)) for _ in range(3)]
    z = K.mul_int(K.one, 7)
    for P in pts:
        for Q in (*pts, P, E.neg(P), None):
            assert E.eq(affine(K, V.add(K, b3, proj(K, P, z), proj(K, Q, K.one))), E.add(P, Q))
        assert E.eq(affine(K, V.double(K, b3, proj(K, P, z))), E.double(P))
        assert affine(K, V.double(K, b3, proj(K, None, z))) is None
        for n in (1, 2, 3, 6, -5, C.u, -C.u * C.u, 6 * C.u * C.u):
            assert E.eq(affine(K, V.scalar_mul(K, b3, n, P)), E.mul(n, P))
    assert affine(K, V.scalar_mul(K, b3, C.r, pts[0])) is None  # [r]P = infinity, (0 : Y : 0)


@pytest.mark.parametrize("name", SETS)
def test_the_residues_are_zero_exactly_on_valid_points(name):
    """On points of G1 × G2 every residue is 0; on the curve's and the twist's points before
    cofactor clearing (mostly outside the groups) and on points off the curves, some residue is not
    0, exactly where in_g1 / in_g2 say invalid."""
    C = params.curve(name)
    P, Q = C.E1.point_from_seed(1), C.E2.point_from_seed(1)
    assert V.residues(C, P, Q) == [0] * V.count(C)
    invalid = 0
    for i in range(6):
        R1, _ = C.E1.raw_point(b"validate/%d" % i)
        R2, _ = C.E2.raw_point(b"validate/%d" % i)
        for A, B in ((R1, Q), (P, R2)):
            ok = pp.in_g1(C, A) and pp.in_g2(C, B)
            assert (not any(V.residues(C, A, B))) == ok
            invalid += not ok
    off_p = (P[0], C.F.add(P[1], 1))
    off_q = (Q[0], C.K.add(Q[1], C.K.one))
    assert any(V.residues(C, off_p, Q)) and any(V.residues(C, P, off_q))
    assert invalid >= 5


def test_every_prime_set_has_odd_curve_and_twist_orders():
    """The formulas are complete when the curve has no point of order 2: true of every prime set's
    curve and twist (residues refuses a set where it is not)."""
    for name in SETS:
        C = params.curve(name)
        assert C.E1.order % 2 == 1 and C.E2.order % 2 == 1
