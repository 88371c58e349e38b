"""The F_{3^6m} tower: every product formula against the others, Frobenius maps against powers,
inversion, the derived torus formula, and the products' operation counts."""

import random

import pytest

from pairhw.math.ternary.tower import Tower3, torus_plan
from pairhw.math.ternary.field import GF3m
from pairhw.math.opcount import CountingGF3m

# m ≡ 5, 7, 11, 1 (mod 12) and both b: every case of the Frobenius constants
CASES = [(5, 1, 2, 1), (7, 2, 1, 2), (11, 2, 1, 2), (13, 1, 2, 1), (97, 12, 1, 2)]


@pytest.fixture(scope="module", params=[(f, b) for f in CASES for b in (1, -1)],
                ids=lambda p: f"m{p[0][0]}b{p[1]:+d}")
def T(request):
    f, b = request.param
    return Tower3(GF3m(*f), b)


def rand6(T, rng):
    return tuple(T.F.random(rng) for _ in range(6))


def test_products_agree(T):
    rng = random.Random(1)
    for _ in range(4):
        x, y, z = rand6(T, rng), rand6(T, rng), rand6(T, rng)
        ref = T.mul6_schoolbook(x, y)
        assert T.mul6_karatsuba(x, y) == ref
        assert T.mul6_toom(x, y) == ref
        assert T.mul6(T.mul6(x, y), z) == T.mul6(x, T.mul6(y, z))
        assert T.mul6(x, T.add6(y, z)) == T.add6(T.mul6(x, y), T.mul6(x, z))
        assert T.mul3(x[:3], y[:3]) == T.mul3_schoolbook(x[:3], y[:3])


def test_sparse_products(T):
    rng = random.Random(2)
    F = T.F
    for _ in range(4):
        R = rand6(T, rng)
        s0, s1, s2 = (F.random(rng) for _ in range(3))
        S = (s0, s1, s2, F.ZERO, F.neg(F.ONE), F.ZERO)   # s0 + s1σ + s2ρ − ρ²
        full = T.mul6(R, S)
        assert T.mul_sparse_beuchat(R, s0, s1, s2) == full
        assert T.mul_sparse_gorla(R, s0, s1, s2) == full


def test_frobenius_maps(T):
    rng = random.Random(3)
    x = rand6(T, rng)
    m = T.F.m
    assert T.cube6(x) == T.mul6(T.mul6(x, x), x)
    if m < 20:
        assert T.frob_m(x) == T.pow6(x, 3 ** m)
        assert T.conj(x) == T.pow6(x, 3 ** (3 * m))
        assert T.conj_ratio(x) == T.pow6(x, 3 ** (3 * m) - 1)
    assert T.conj(x) == T._apply(T.FROB_3M, x)
    y = x
    for _ in range(m):
        y = T.cube6(y)
    assert T.frob_m(x) == y
    assert T.cube6_k(x, m) == y


def test_k_fold_cubing_is_repeated_cubing(T):
    """a^(3^n) as six coefficient powers and CUBE^n equals n cubings, for n across CUBE's period."""
    rng = random.Random(5)
    x = rand6(T, rng)
    y = x
    for n in range(15):
        assert T.cube6_k(x, n) == y
        y = T.cube6(y)


def test_inverses(T):
    rng = random.Random(4)
    x = rand6(T, rng)
    assert T.mul6(T.inv6(x), x) == T.ONE6
    assert T.mul3(T.inv3(x[:3]), x[:3]) == T.ONE3


def test_torus_formula(T):
    rng = random.Random(5)
    for _ in range(3):
        U = T.conj_ratio(rand6(T, rng))
        assert T.mul6(U, T.conj(U)) == T.ONE6
        assert T.torus_frob_mul(U) == T.mul6(T.frob_m(U), U)
    assert len(torus_plan(T)) == 6


@pytest.mark.parametrize("method,mul", [("mul6_schoolbook", 36), ("mul6_karatsuba", 18),
                                        ("mul6_toom", 15)])
def test_product_counts(method, mul):
    F = GF3m(19, 2, 1, 2)
    CF = CountingGF3m(F)
    T = Tower3(CF, -1)
    rng = random.Random(6)
    getattr(T, method)(rand6(T, rng), rand6(T, rng))
    assert CF.total()["mul"] == mul


def test_sparse_counts():
    """Seed 004: R·S in 15 products and 29 additions; Gorla et al.: 12 products."""
    F = GF3m(19, 2, 1, 2)
    rng = random.Random(7)
    for b in (1, -1):
        CF = CountingGF3m(F)
        T = Tower3(CF, b)
        R = rand6(T, rng)
        T.mul_sparse_beuchat(R, *(F.random(rng) for _ in range(3)))
        assert (CF.total()["mul"], CF.total()["add"]) == (15, 29)
        CF2 = CountingGF3m(F)
        Tower3(CF2, b).mul_sparse_gorla(R, *(F.random(rng) for _ in range(3)))
        assert CF2.total()["mul"] == 12
    CF3 = CountingGF3m(F)
    T3 = Tower3(CF3, 1)
    T3.torus_frob_mul(Tower3(F, 1).conj_ratio(rand6(T3, rng)))
    assert CF3.total()["mul"] == 9
