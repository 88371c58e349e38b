"""F_3^m: every operation against a plain list-of-trits reference, the two-bit encoding, text I/O."""

import itertools
import random

import pytest

from pairhw.math.field import FieldError
from pairhw.math.ternary.field import GF3m, _poly3_mod, add_hl
from pairhw.math.opcount import CountingGF3m

# (m, k, ck, c0): tiny, the test set, seed 004's field, the large set (k > m/2, dense x^(1/3))
FIELDS = [(5, 1, 2, 1), (19, 2, 1, 2), (97, 12, 1, 2), (509, 358, 1, 2)]


@pytest.fixture(scope="module", params=FIELDS, ids=lambda f: f"m{f[0]}")
def F(request):
    return GF3m(*request.param)


def ref_mul(F, a, b):
    A, B = F.to_list(a), F.to_list(b)
    c = [0] * (2 * F.m - 1)
    for i, x in enumerate(A):
        if x:
            for j, y in enumerate(B):
                c[i + j] = (c[i + j] + x * y) % 3
    f = [0] * (F.m + 1)
    f[0], f[F.k], f[F.m] = F.c0, F.ck, 1
    return F.from_list((_poly3_mod(c, f) + [0] * F.m)[:F.m])


def corners(F):
    top = F.from_list([0] * (F.m - 1) + [1])
    return [0, 1, F.neg(1), F.from_list([2] * F.m), F.from_list([1] * F.m), top, F.X]


def vectors(F, n, seed=1):
    rng = random.Random(seed)
    return corners(F) + [F.random(rng) for _ in range(n)]


def test_add_hl_truth_table():
    enc = {0: (0, 0), 1: (0, 1), 2: (1, 0)}
    for a, b in itertools.product(range(3), repeat=2):
        assert add_hl(enc[a], enc[b]) == enc[(a + b) % 3]
    # negation swaps the words
    for a in range(3):
        h, l = enc[a]
        assert (l, h) == enc[(-a) % 3]


def test_mul_matches_reference(F):
    n = 6 if F.m > 100 else 25
    vs = vectors(F, n)
    for a, b in zip(vs, reversed(vs)):
        assert F.mul(a, b) == ref_mul(F, a, b)


def test_field_laws(F):
    vs = vectors(F, 8, seed=2)
    for a, b, c in zip(vs, vs[1:], vs[2:]):
        assert F.add(F.sub(a, b), b) == a
        assert F.add(a, F.neg(a)) == 0
        assert F.mul(a, F.add(b, c)) == F.add(F.mul(a, b), F.mul(a, c))
        assert F.cube(a) == F.mul(F.mul(a, a), a)
        assert F.cube(F.cbrt(a)) == a
        assert F.cbrt(F.cube(a)) == a
        assert F.to_hl(F.add(a, b)) == add_hl(F.to_hl(a), F.to_hl(b))
        if a:
            assert F.mul(F.inv(a), a) == 1


def test_cube_root_constants(F):
    assert F.cube(F.x13) == F.X
    assert F.mul(F.x13, F.x13) == F.x23
    assert F.cbrt_weights == (F.weight(F.x13), F.weight(F.x23))


def test_sqrt(F):
    rng = random.Random(3)
    for _ in range(3):
        a = F.random(rng)
        s = F.sqrt(F.mul(a, a))
        assert s in (a, F.neg(a))
    assert F.sqrt(F.neg(1)) is None  # −1 is a non-square when 3^m ≡ 3 mod 4


def test_inverse_of_zero_raises():
    F = GF3m(5, 1, 2, 1)
    with pytest.raises(ZeroDivisionError):
        F.inv(0)


def test_itoh_tsujii_cost():
    F = GF3m(97, 12, 1, 2)
    CF = CountingGF3m(F)
    a = F.X
    assert F.mul(CF.inv(a), a) == 1
    c = CF.total()
    assert c["cube"] == 96 and c["mul"] <= 12, c


def test_reducible_trinomial_rejected():
    # x^4 + x^2 + 2 = (x^2 + 2)(x^2 + 2)... any reducible one: find it by brute force
    with pytest.raises(ValueError, match="not irreducible"):
        GF3m(5, 1, 1, 1)
    with pytest.raises(ValueError):
        GF3m(5, 5, 1, 1)


def test_text_and_encoding(F):
    rng = random.Random(4)
    a = F.random(rng)
    s = F.to_trits(a)
    assert len(s) == F.m and set(s) <= set("012") and F.from_trits(s) == a
    assert F.from_hl(F.to_hl(a)) == a
    assert F.to_trits(1) == "0" * (F.m - 1) + "1"
    assert F.to_trits(F.X) == "0" * (F.m - 2) + "10"


def test_text_errors():
    F = GF3m(5, 1, 2, 1)
    with pytest.raises(FieldError, match="expected 5 trits"):
        F.from_trits("0120")
    with pytest.raises(FieldError, match="'3' is not"):
        F.from_trits("01231")
    with pytest.raises(FieldError, match="11"):
        F.from_hl((1, 1))
    with pytest.raises(FieldError, match="wider"):
        F.from_hl((0, 1 << 5))
