import pytest

from pairhw import params
from pairhw.math.binary import pairing as pr
from pairhw.math.binary.tower import Tower
from pairhw.math.binary.field import GF2m


@pytest.fixture(params=[(11, (2,)), (79, (9,)), (283, (12, 7, 5)), (1223, (255,))], ids=lambda p: f"m{p[0]}")
def T(request):
    return Tower(GF2m(*request.param))


def r4(T, rng):
    return tuple(T.F.random(rng) for _ in range(4))


def test_products_agree(T, rng):
    for _ in range(5):
        a, b = r4(T, rng), r4(T, rng)
        assert T.mul4(a, b) == T.mul4_schoolbook(a, b)
        assert T.sqr4(a) == T.mul4(a, a)
        g0, g1 = T.F.random(rng), T.F.random(rng)
        assert T.sparse_mul(a, g0, g1) == T.mul4(a, (g0, g1, 1, 0))
        assert T.mul2(a[:2], b[:2]) == T.mul4((a[0], a[1], 0, 0), (b[0], b[1], 0, 0))[:2]


def test_inversions(T, rng):
    for _ in range(3):
        a = r4(T, rng)
        assert T.mul4(a, T.inv4(a)) == T.ONE
        x = a[:2]
        y = T.inv2(x)
        assert T.mul2(x, y) == (1, 0)
    with pytest.raises(ZeroDivisionError):
        T.inv4((0, 0, 0, 0))


def test_frobenius_is_the_power(rng):
    T = Tower(GF2m(11, (2,)))
    a = r4(T, rng)
    for k in (1, 2, 3, 5, 11, 22, 33, 43):
        assert T.frobenius(a, k) == T.pow4(a, 2 ** k)
        assert T.frobenius_by_sqrt(a, k % 11 or 11) == T.frobenius(a, k % 11 or 11)
    # a^(2^(4m)) = a
    assert T.frobenius(a, 44) == a


def test_lemma1_at_1223(rng):
    T = Tower(GF2m(1223, (255,)))
    f0, f1, f2, f3 = f = r4(T, rng)
    # seed 000 Lemma 1 (ii) and (iii)
    assert T.frob_q(f) == (f0 ^ f1 ^ f2, f1 ^ f2 ^ f3, f2 ^ f3, f3)
    assert T.conj_q2(f) == (f0 ^ f2, f1 ^ f3, f2, f3)
    # §4.2: f^(2^612) by four chains of 611 square roots (612 ≡ 0 mod 4: basis fixed)
    assert T.basis_frobenius(612) == tuple(tuple(int(i == j) for j in range(4)) for i in range(4))
    assert T.frobenius_by_sqrt(f, 612) == tuple(T.F.sqrt_k(c, 611) for c in f)


@pytest.mark.parametrize("name", ["f2-11", "f2-17", "f2-29", "f2-47", "f2-79", "f2-113", "f2-239"])
def test_final_exponentiation_alg2_matches_plain_power(name, rng):
    C = params.curve(name)
    T = Tower(C.F)
    f = r4(T, rng)
    assert pr.final_exp_adikari12(C, f) == pr.final_exp_plain(C, f)


@pytest.mark.parametrize("name", ["f2-11", "f2-29", "f2-47", "f2-113"])
def test_shu06_final_exponentiations_match_plain_powers(name, rng):
    C = params.curve(name)
    T = Tower(C.F)
    m, nu = C.F.m, pr.order_sign(C)
    f = r4(T, rng)
    assert pr.final_exp_shu06_alg1(C, f) == T.pow4(f, 2 ** (2 * m) - 1)
    M = (2 ** (4 * m) - 1) // C.order
    assert pr.final_exp_shu06_alg2(C, f) == T.pow4(f, M * (2 ** ((m + 1) // 2) + nu))
