"""F_p, F_p², the F_p¹² tower and its Frobenius, checked by algebra and against py_ecc."""

import random

import pytest

from pairhw import params
from pairhw.math.prime.field import Fp2, Montgomery, PrimeField, is_probable_prime

PRIME_SETS = ["bn254", "bn-chavez11", "bls12-381"]


@pytest.fixture
def rng():
    return random.Random(4)


def rand12(C, rng):
    return C.T.unflatten([rng.randrange(C.p) for _ in range(12)])


def test_primality_and_sqrt(rng):
    assert is_probable_prime(2**127 - 1) and not is_probable_prime(2**128 + 1)
    for p in (10007, 2**61 - 1, 65537, 998244353):  # 3 mod 4 and 1 mod 4 (Tonelli–Shanks)
        F = PrimeField(p)
        for _ in range(20):
            a = F.sqr(rng.randrange(p))
            r = F.sqrt(a)
            assert F.sqr(r) == a and r % 2 == 0
        nonres = next(x for x in range(2, 100) if not F.is_square(x))
        assert F.sqrt(nonres) is None


def test_hex_encoding():
    F = params.curve("bn254").F
    assert F.to_hex(5) == "0" * 63 + "5" and F.from_hex(F.to_hex(12345)) == 12345
    with pytest.raises(ValueError, match="not below p"):
        F.from_hex(format(F.p, "x"))
    with pytest.raises(ValueError, match="not a hex"):
        F.from_hex("xyz")


def test_fp2_against_schoolbook(rng):
    F = PrimeField(10007)
    K = Fp2(F, -1)
    for _ in range(50):
        a = (rng.randrange(F.p), rng.randrange(F.p))
        b = (rng.randrange(F.p), rng.randrange(F.p))
        school = ((a[0] * b[0] - a[1] * b[1]) % F.p, (a[0] * b[1] + a[1] * b[0]) % F.p)
        assert K.mul(a, b) == school and K.sqr(a) == K.mul(a, a)
        if not K.is_zero(a):
            assert K.mul(a, K.inv(a)) == K.one
        r = K.sqrt(K.sqr(a))
        assert K.eq(K.sqr(r), K.sqr(a))
    with pytest.raises(ValueError, match="square"):
        Fp2(PrimeField(10009), -1)  # 10009 ≡ 1 mod 4: −1 is a square


@pytest.mark.parametrize("name", PRIME_SETS)
def test_tower_laws_and_frobenius(name, rng):
    C = params.curve(name)
    T = C.T
    a, b, c = rand12(C, rng), rand12(C, rng), rand12(C, rng)
    assert T.eq12(T.mul12(T.mul12(a, b), c), T.mul12(a, T.mul12(b, c)))
    assert T.eq12(T.mul12(a, T.add12(b, c)), T.add12(T.mul12(a, b), T.mul12(a, c)))
    assert T.eq12(T.sqr12(a), T.mul12(a, a))
    assert T.is_one(T.mul12(a, T.inv12(a)))
    g = a[0]
    assert T.sqr6(g) == T.mul6(g, g)
    # the derived Frobenius constants against plain exponentiation
    for k in (1, 2, 3):
        assert T.eq12(T.frob12(a, k), T.pow12(a, C.p**k))
    assert T.eq12(T.conj12(a), T.frob12(T.frob12(a, 3), 3))
    assert T.flatten(T.unflatten(T.flatten(a))) == T.flatten(a)


@pytest.mark.parametrize("name,mod", [("bn254", "optimized_bn128"), ("bls12-381", "optimized_bls12_381")])
def test_tower_matches_py_ecc_fq12(name, mod, rng):
    """Our w is py_ecc's w: products agree coefficient for coefficient after conversion."""
    ecc = pytest.importorskip(f"py_ecc.{mod}")
    C = params.curve(name)
    T = C.T
    a, b = rand12(C, rng), rand12(C, rng)
    pa, pb = ecc.FQ12(T.w_poly(a)), ecc.FQ12(T.w_poly(b))
    assert [int(x) for x in (pa * pb).coeffs] == T.w_poly(T.mul12(a, b))


def test_montgomery_reference(rng):
    p = params.curve("bn254").p
    M = Montgomery(p)
    assert M.k == 256
    for _ in range(50):
        a, b = rng.randrange(p), rng.randrange(p)
        assert M.from_mont(M.mul(M.to_mont(a), M.to_mont(b))) == a * b % p
