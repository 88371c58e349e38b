"""Products of pairings and the pairing check (issue 53): one shared Miller loop and one final
exponentiation equal the product of single pairings, bilinearly; the fast subgroup tests agree with
[r]P = ∞; a BLS signature checks, and a wrong message, a wrong key, an off-curve point or a point
outside the subgroup makes the check false."""

import random

import pytest

from pairhw import params
from pairhw.math.prime import pairing as pp

SETS = ["bn-tiny", "bn254", "bls12-381"]


@pytest.fixture
def rng():
    return random.Random(53)


def _points(C, rng, n):
    """n pairs of G1 and G2 points from fixed seeds."""
    return [(C.E1.point_from_seed(rng.randrange(1, 10**6)), C.E2.point_from_seed(rng.randrange(1, 10**6)))
            for _ in range(n)]


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_product_is_the_product_of_single_pairings(name, n, rng):
    C = params.curve(name)
    pairs = _points(C, rng, n)
    want = C.T.ONE
    for P, Q in pairs:
        want = C.T.mul12(want, pp.optimal_ate(C, P, Q))
    assert C.T.eq12(pp.multi_pairing(C, pairs), want)
    if n == 1:  # one pair: the single pairing's Miller loop, value for value
        assert C.T.eq12(pp.multi_miller_loop(C, pairs), pp.miller_loop(C, *pairs[0]))


@pytest.mark.parametrize("name", SETS)
def test_the_product_is_bilinear(name, rng):
    """e(aP, Q) · e(P, bQ) = e(P, Q)^(a + b), and e(aP, Q) · e(−P, aQ) = 1."""
    C = params.curve(name)
    (P, Q), = _points(C, rng, 1)
    a, b = rng.randrange(2, C.r), rng.randrange(2, C.r)
    lhs = pp.multi_pairing(C, [(C.E1.mul(a, P), Q), (P, C.E2.mul(b, Q))])
    assert C.T.eq12(lhs, C.T.pow12(pp.optimal_ate(C, P, Q), a + b))
    assert C.T.eq12(pp.multi_pairing(C, [(C.E1.mul(a, P), Q), (C.E1.neg(P), C.E2.mul(a, Q))]), C.T.ONE)
    assert not C.T.eq12(pp.multi_pairing(C, [(P, Q), (P, Q)]), C.T.ONE)  # non-degenerate


def test_points_at_infinity_contribute_one(rng):
    C = params.curve("bn-tiny")
    (P, Q), = _points(C, rng, 1)
    e = pp.optimal_ate(C, P, Q)
    assert C.T.eq12(pp.multi_pairing(C, [(P, Q), (None, Q), (P, None)]), e)
    assert C.T.eq12(pp.multi_pairing(C, []), C.T.ONE)
    assert pp.pairing_check(C, [])


@pytest.mark.parametrize("name", [n for n in params.names() if params.get(n).is_prime])
def test_the_fast_subgroup_tests_agree_with_r_times_the_point(name):
    """in_g1 / in_g2 (φ and ψ eigenvalues) against the definition [r]P = ∞, on points of the curve
    and of the twist before cofactor clearing (mostly outside the subgroup) and on points of G1 and
    G2."""
    C = params.curve(name)
    outside = 0
    for i in range(8):
        R1, _ = C.E1.raw_point(b"subgroup/%d" % i)
        R2, _ = C.E2.raw_point(b"subgroup/%d" % i)
        assert pp.in_g1(C, R1) == C.E1.in_subgroup(R1)
        assert pp.in_g2(C, R2) == C.E2.in_subgroup(R2)
        outside += (not C.E1.in_subgroup(R1)) + (not C.E2.in_subgroup(R2))
        assert pp.in_g1(C, C.E1.point_from_seed(i + 1)) and pp.in_g2(C, C.E2.point_from_seed(i + 1))
    assert outside >= 7  # the twist's random points are outside G2 (and BLS12's outside G1)
    assert pp.in_g1(C, None) and pp.in_g2(C, None)


@pytest.mark.parametrize("name", SETS)
def test_a_bls_signature_checks_and_a_forgery_does_not(name, rng):
    """σ = [sk]H(m), pk = [sk]g2: e(σ, −g2) · e(H(m), pk) = 1.  A wrong message, a wrong key, a point
    off the curve and a point outside the subgroup each make the check false."""
    C = params.curve(name)
    g2 = C.E2.point_from_seed(1)
    sk = rng.randrange(2, C.r)
    pk = C.E2.mul(sk, g2)
    h = C.E1.hash_to_point(b"message")
    sig = C.E1.mul(sk, h)
    neg_g2 = C.E2.neg(g2)
    assert pp.pairing_check(C, [(sig, neg_g2), (h, pk)])
    assert not pp.pairing_check(C, [(sig, neg_g2), (C.E1.hash_to_point(b"other message"), pk)])
    assert not pp.pairing_check(C, [(sig, neg_g2), (h, C.E2.mul(sk + 1, g2))])
    off = (sig[0], C.F.add(sig[1], 1))
    assert not C.E1.is_on_curve(off)
    assert not pp.pairing_check(C, [(off, neg_g2), (h, pk)])
    # a point of the twist outside G2 (BN: G1 has cofactor 1, so the outsider is on G2's side)
    R, _ = C.E2.raw_point(b"outsider")
    assert C.E2.is_on_curve(R) and not C.E2.in_subgroup(R)
    assert not pp.pairing_check(C, [(sig, neg_g2), (h, R)])
    if C.E1.cofactor > 1:
        R1, _ = C.E1.raw_point(b"outsider")
        assert not C.E1.in_subgroup(R1)
        assert not pp.pairing_check(C, [(sig, neg_g2), (R1, pk)])


def test_the_bn254_product_agrees_with_py_ecc(rng):
    """py_ecc's Miller loops multiplied, then one final exponentiation: the same F_p¹² value as
    multi_pairing (an independent implementation of the shared-exponentiation product)."""
    ecc = pytest.importorskip("py_ecc.optimized_bn128")
    C = params.curve("bn254")
    pairs = [(C.E1.mul(rng.randrange(1, C.r), C.g1), C.E2.mul(rng.randrange(1, C.r), C.g2)) for _ in range(2)]
    f = ecc.FQ12.one()
    for P, Q in pairs:
        eP = (ecc.FQ(P[0]), ecc.FQ(P[1]), ecc.FQ(1))
        eQ = (ecc.FQ2(list(Q[0])), ecc.FQ2(list(Q[1])), ecc.FQ2.one())
        f = f * ecc.pairing(eQ, eP, final_exponentiate=False)
    theirs = [int(c) for c in ecc.final_exponentiate(f).coeffs]
    assert theirs == C.T.w_poly(pp.multi_pairing(C, pairs))


def test_a_product_program_on_a_core_datapath_computes_the_product_in_few_cycles():
    """The 2- and 4-pair products traced and compiled onto ate-bn-tiny's datapath (bench/products.py):
    the microcode model gives multi_pairing's value, and the shared squarings and final
    exponentiation keep it within issue 53's bounds (≤ 1.45 × and ≤ 2.2 × one pairing's cycles)."""
    import sys
    from pathlib import Path

    from pairhw import designs

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from products import product_kernel

    d = designs.get("ate-bn-tiny")
    C, fi = d.curve(), d.field
    one = d.compile().cycles
    for n, bound in ((2, 1.45), (4, 2.2)):
        k = product_kernel(d, n)
        pairs = [(C.E1.point_from_seed(10 + i), C.E2.point_from_seed(20 + i)) for i in range(n)]
        out, cycles = k.run([v for P, Q in pairs for v in fi.point_values(P, Q)])
        assert tuple(out) == tuple(fi.flatten(pp.multi_pairing(C, pairs)))
        assert cycles == k.cycles <= bound * one
