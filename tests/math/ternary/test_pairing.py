"""ηT in characteristic three: the group law and order formula, seed 004's loop against the plain
Tate reference (a documented fixed power), the two loops against each other, the fast final
exponentiation against the plain one, bilinearity and non-degeneracy on every parameter set."""

import math
import random

import pytest

from pairhw import params
from pairhw.math import opcount as opc
from pairhw.math.ternary import pairing as p3
from pairhw.math.ternary.curve import Curve3, PointError, mu_of
from pairhw.math.ternary.field import GF3m

TINY = {5: (1, 2, 1), 7: (2, 1, 2), 11: (2, 1, 2), 13: (1, 2, 1)}   # m ≡ 5, 7, 11, 1 (mod 12)


def largest_prime_factor(n):
    best, p = 1, 2
    while p * p <= n:
        while n % p == 0:
            best, n = p, n // p
        p += 1
    return max(best, n)


def tiny_curve(m, b):
    F = GF3m(m, *TINY[m])
    N = 3 ** m + 1 + mu_of(m) * b * 3 ** ((m + 1) // 2)
    return Curve3(F, b, largest_prime_factor(N))


def dlog(T, g, h, r):
    """x with g^x = h in a group of prime order r (baby-step giant-step)."""
    s = math.isqrt(r) + 1
    table, acc = {}, T.ONE6
    for j in range(s):
        table.setdefault(acc, j)
        acc = T.mul6(acc, g)
    giant = T.inv6(acc)   # g^(−s)
    y = h
    for i in range(s + 1):
        if y in table:
            return (i * s + table[y]) % r
        y = T.mul6(y, giant)
    raise AssertionError("no discrete logarithm")


@pytest.mark.parametrize("m", [5, 7])
@pytest.mark.parametrize("b", [1, -1])
def test_order_formula_by_counting(m, b):
    """#E = 3^m + 1 + μb·3^((m+1)/2), μ = +1 for m ≡ 1, 11 and −1 for m ≡ 5, 7 (mod 12)."""
    C = tiny_curve(m, b)
    F = C.F
    n = 1
    for v in range(3 ** m):
        c = C.rhs(F.from_int(v))
        n += 1 if c == 0 else (2 if F.sqrt(c) is not None else 0)
    assert n == C.order


@pytest.mark.parametrize("m", [5, 7, 11, 13])
@pytest.mark.parametrize("b", [1, -1])
def test_etat_is_fixed_power_of_tate_by_dlog(m, b):
    """Discrete logarithms on eight small curves give etat = t_r(P, ψ(Q))^(μb·3^(m+1))."""
    C = tiny_curve(m, b)
    T = p3.tower(C)
    P, Q = C.hash_to_point(b"p"), C.hash_to_point(b"q")
    t = p3.tate_reference(C, P, Q)
    e = p3.etat(C, P, Q)
    assert t != T.ONE6 and T.pow6(t, C.r) == T.ONE6
    c = dlog(T, t, e, C.r)
    assert c == p3.etat_tate_exponent(C)
    # the same exponent on an independent pair
    P2, Q2 = C.mul(3, Q), C.hash_to_point(b"q2")
    assert T.pow6(p3.tate_reference(C, P2, Q2), c) == p3.etat(C, P2, Q2)


def test_group_law_and_distortion():
    C = tiny_curve(13, -1)
    T = p3.tower(C)
    F = C.F
    P, Q, R = (C.hash_to_point(x) for x in (b"a", b"b", b"c"))
    assert C.add(C.add(P, Q), R) == C.add(P, C.add(Q, R))
    assert C.add(P, C.neg(P)) is None
    assert C.add(P, P) == C.double(P) and C.mul(C.r, P) is None
    assert C.mul(C.r + 5, P) == C.mul(5, P)
    # Jacobian scalar multiplication = affine double-and-add (including the point of order 3·r etc.)
    from pairhw.math.curve import square_and_multiply
    G = (F.from_int(0), None)
    for v in range(3 ** 13):
        y = F.sqrt(C.rhs(F.from_int(v)))
        if y is not None:
            G = (F.from_int(v), y)
            break
    for k in (1, 2, 3, 7, 100, C.r - 1, C.r, C.cofactor, C.order - 1, C.order):
        for pt in (P, G):
            assert C.mul(k, pt) == square_and_multiply(pt, k, None, C.double, C.add)
    X, Y = p3.psi(C, Q)   # ψ(Q) lies on E over F_{3^6m}
    b6 = (F.const(C.b),) + (F.ZERO,) * 5
    assert T.mul6(Y, Y) == T.add6(T.sub6(T.mul6(T.mul6(X, X), X), X), b6)
    with pytest.raises(PointError):
        C.check((F.ONE, F.ONE))


# -- every parameter set ----------------------------------------------------------------------------

SETS = [pytest.param("f3-19"), pytest.param("f3-97"), pytest.param("f3-193", marks=pytest.mark.slow),
        pytest.param("f3-313", marks=pytest.mark.slow), pytest.param("f3-509", marks=pytest.mark.slow)]


@pytest.mark.parametrize("name,m,k", [("f3-193", 193, 12), ("f3-313", 313, 126)])
def test_beuchat_tc2011_sets_rederived(name, m, k):
    """x^m + x^k + 2 irreducible (Rabin's test in the model), b = 1, N = 3^m + 1 + μ·3^((m+1)/2) =
    cofactor·r with r prime, r | 3^(3m) + 1, and the cofactor has no factor r."""
    from pairhw.math.prime.field import is_probable_prime
    from pairhw.math.ternary.field import GF3m

    p = params.get(name)
    assert (p.data["field"]["m"], p.data["field"]["k"], p.data["field"]["ck"], p.data["field"]["c0"]) == (m, k, 1, 2)
    assert GF3m(m, k, 1, 2, check=False).is_irreducible()
    C = params.curve(name)
    assert C.b == 1 and C.order == 3 ** m + 1 + C.mu * 3 ** ((m + 1) // 2)
    assert C.cofactor * C.r == C.order and is_probable_prime(C.r) and C.cofactor % C.r
    assert pow(3, 3 * m, C.r) == C.r - 1


@pytest.fixture(scope="module", params=SETS)
def setc(request):
    C = params.curve(request.param)
    return C, C.point_from_seed(1), C.point_from_seed(2)


def test_parameters(setc):
    C, P, Q = setc
    assert C.order % C.r == 0 and C.in_subgroup(P) and C.in_subgroup(Q)
    from pairhw.math.prime.field import is_probable_prime
    assert is_probable_prime(C.r)
    assert pow(3, 3 * C.F.m, C.r) == C.r - 1          # r | 3^(3m) + 1: embedding degree 6


def test_etat_equals_power_of_reference(setc):
    C, P, Q = setc
    T = p3.tower(C)
    e = p3.etat(C, P, Q)
    assert T.pow6(e, C.r) == T.ONE6 and e != T.ONE6           # order r, non-degenerate
    assert T.pow6(p3.tate_reference(C, P, Q), p3.etat_tate_exponent(C)) == e


def test_bilinear(setc):
    C, P, Q = setc
    T = p3.tower(C)
    rng = random.Random(7)
    a = rng.randrange(2, C.r)
    e = p3.etat(C, P, Q)
    eaq = p3.etat(C, P, C.mul(a, Q))
    assert p3.etat(C, C.mul(a, P), Q) == eaq == T.pow6(e, a)
    R = C.point_from_seed(3)
    assert p3.etat(C, C.add(P, R), Q) == T.mul6(e, p3.etat(C, R, Q))


def test_variants_agree(setc):
    C, P, Q = setc
    T = p3.tower(C)
    n = (C.F.m - 1) // 2
    f = p3.etat_miller(C, P, Q)
    g = f
    for _ in range(n):
        g = T.cube6(g)
    assert p3.etat_miller_nocr(C, P, Q) == g                   # exactly, before reduction
    e = p3.final_exp(C, f)
    assert p3.final_exp_plain(C, f) == e
    assert p3.etat(C, P, Q, sparse="gorla") == e
    assert p3.etat_nocr(C, P, Q) == T.pow6(e, 3 ** n)


def test_final_exp_on_random_elements(setc):
    C, _, _ = setc
    rng = random.Random(8)
    f = tuple(C.F.random(rng) for _ in range(6))
    assert p3.final_exp(C, f) == p3.final_exp_plain(C, f)


def test_infinity_gives_one():
    C = params.curve("f3-19")
    T = p3.tower(C)
    P = C.point_from_seed(1)
    assert p3.etat(C, None, P) == p3.etat(C, P, None) == T.ONE6
    assert p3.tate_reference(C, P, None) == T.ONE6


def test_op_counts_match_beuchat09():
    """17 products per iteration: t², y_P·y_Q and the 15-product R·S with 29 additions."""
    C = params.curve("f3-97")
    P, Q = C.point_from_seed(1), C.point_from_seed(2)
    cf = opc.count_pairing3(C, p3.etat, P, Q)
    iters = 49
    assert cf.total("miller/loop")["mul"] == 17 * iters
    assert cf.total("miller/loop/product")["mul"] == 15 * iters
    assert cf.total("miller/loop/product")["add"] == 29 * iters
    assert cf.total("miller/loop/points")["cbrt"] == 2 * (iters - 1)
    assert cf.total("final_exp")["inv"] == 1
    g = opc.count_pairing3(C, p3.etat, P, Q, sparse="gorla")
    assert g.total("miller/loop/product")["mul"] == 12 * iters
