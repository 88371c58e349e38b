import pytest

from pairhw import params
from pairhw.math.binary import pairing as pr
from pairhw.math.binary.curve import PointError
from pairhw.math.prime.field import is_probable_prime
from pairhw.math.binary.tower import Tower
from tests.conftest import ALL_BINARY, SMALL, random_point


@pytest.mark.parametrize("name", ALL_BINARY)
def test_parameter_set_is_consistent(name):
    p = params.get(name)
    m, b = p.m, p.data["curve"]["b"]
    # seed 001 §2: #E = 2^m + 1 ± 2^((m+1)/2), the sign from m mod 8 and b
    sign = (-1) ** b if m % 8 in (1, 7) else -((-1) ** b)
    assert p.data["order_sign"] == sign
    assert p.order == 2 ** m + 1 + sign * 2 ** ((m + 1) // 2)
    assert p.cofactor * p.r == p.order
    assert is_probable_prime(p.r)
    assert p.security


def test_paper_sets_match_the_issue():
    assert params.get("f2-1223").order == 2 ** 1223 + 2 ** 612 + 1 and params.get("f2-1223").cofactor == 5
    assert params.get("f2-239").order == 2 ** 239 - 2 ** 120 + 1 and params.get("f2-239").cofactor == 1
    assert params.get("f2-283").order == 2 ** 283 - 2 ** 142 + 1 and params.get("f2-283").cofactor == 5
    signs = {params.get(n).data["order_sign"] for n in SMALL}
    assert signs == {1, -1}


@pytest.mark.parametrize("name", SMALL + ["f2-239", "f2-283"])
def test_group_law(name, rng):
    C = params.curve(name)
    P, Q, R = (random_point(C, rng) for _ in range(3))
    for X in (P, Q, R):
        assert C.is_on_curve(X) and C.in_subgroup(X)
    assert C.add(C.add(P, Q), R) == C.add(P, C.add(Q, R))
    assert C.add(P, Q) == C.add(Q, P)
    assert C.add(P, C.neg(P)) is None
    assert C.double(P) == C.add(P, P) == C.mul(2, P)
    a, b = rng.randrange(C.r), rng.randrange(C.r)
    assert C.mul(a + b, P) == C.add(C.mul(a, P), C.mul(b, P))
    assert C.mul(-a, P) == C.neg(C.mul(a, P))
    assert C.mul(C.r, P) is None and C.mul(0, P) is None


@pytest.mark.parametrize("name", ALL_BINARY)
def test_deterministic_points(name):
    C = params.curve(name)
    P = C.point_from_seed(7)
    assert P == C.point_from_seed(7) != C.point_from_seed(8)
    if C.F.m <= 300:
        assert C.in_subgroup(P)
    H = C.hash_to_point(b"hello")
    assert H == C.hash_to_point(b"hello") and C.is_on_curve(H)


def test_checks_reject_bad_points():
    C = params.curve("f2-79")
    P = C.point_from_seed(1)
    with pytest.raises(PointError, match="not on"):
        C.check((P[0], P[1] ^ 2))
    # (1, 1) is on y² + y = x³ + x but has order dividing 1585·... not r
    with pytest.raises(PointError, match="not of order r"):
        C.check((1, 1))
    C.check(None)


@pytest.mark.parametrize("name", ["f2-11", "f2-79", "f2-239"])
def test_distortion_map_lands_on_the_curve(name, rng):
    """ψ(Q) satisfies y² + y = x³ + x + b over F_{2^4m}, and ψ is a group homomorphism."""
    C = params.curve(name)
    T = Tower(C.F)
    Q = random_point(C, rng)
    X, Y = pr.psi(C, Q)
    lhs = T.add4(T.sqr4(Y), Y)
    rhs = T.add4(T.add4(T.mul4(T.sqr4(X), X), X), (C.b, 0, 0, 0))
    assert lhs == rhs
