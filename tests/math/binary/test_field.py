import pytest

from pairhw import params
from pairhw.math.binary.field import (GF2m, FieldError, binary_chain, clmul, deinterleave, is_irreducible,
                              poly_mod, schoolbook_check, adikari12_chain_1223, spread)
from tests.conftest import ALL_BINARY

FIELDS = [(11, (2,)), (17, (3,)), (89, (38,)), (163, (7, 6, 3)), (283, (12, 7, 5)), (1223, (255,))]


def corner_values(F):
    return [0, 1, F.mask, 1 << (F.m - 1), (1 << (F.m - 1)) | 1, 2]


@pytest.mark.parametrize("m,mid", FIELDS)
def test_mul_sqr_sqrt_match_polynomial_arithmetic(m, mid, rng):
    F = GF2m(m, mid)
    vals = corner_values(F) + [F.random(rng) for _ in range(20)]
    for a in vals:
        for b in vals[:8]:
            assert F.mul(a, b) == poly_mod(schoolbook_check(a, b), F.poly)
        assert F.sqr(a) == F.mul(a, a)
        assert F.sqr(F.sqrt(a)) == a
        assert F.sqrt_k(F.sqr_k(a, 5), 5) == a


def test_fast_product_at_1223_is_the_plain_one_on_1000_random_pairs():
    """The model's F_2^1223 product (4-bit comb, then the trinomial's shift-and-XOR reduction) equals
    bit-by-bit multiplication and long division on 1,000 random products, seeded."""
    import random

    F = GF2m(1223, (255,))
    rng = random.Random(20261128)
    for _ in range(1000):
        a, b = F.random(rng), F.random(rng)
        assert F.mul(a, b) == poly_mod(schoolbook_check(a, b), F.poly)


def test_clmul_spread_deinterleave(rng):
    for n in (1, 7, 8, 9, 64, 1223):
        a, b = rng.getrandbits(n), rng.getrandbits(n)
        assert clmul(a, b) == schoolbook_check(a, b)
        assert spread(a) == clmul(a, a)
        even, odd = deinterleave(a)
        assert spread(even) ^ (spread(odd) << 1) == a


def test_sqrt_x_is_sparse_for_adikari12_trinomial():
    F = GF2m(1223, (255,))
    # seed 000 §2: √x = x^128 + x^612 mod x^1223 + x^255 + 1
    assert F.sqrt_x == (1 << 128) | (1 << 612)
    assert F.sqr(F.sqrt_x) == 2


@pytest.mark.parametrize("m,mid", FIELDS)
def test_inverse(m, mid, rng):
    F = GF2m(m, mid)
    for a in [1, F.mask, 1 << (m - 1)] + [F.random(rng) | 1 for _ in range(5)]:
        inv = F.inv(a)
        assert F.mul(a, inv) == 1
        assert inv == F.inv_euclid(a)
    with pytest.raises(ZeroDivisionError):
        F.inv(0)


def test_adikari12_chain_reproduced_exactly():
    ch = adikari12_chain_1223()
    assert (ch.multiplications, ch.squarings) == (14, 1222)  # seed 000 §4.1
    assert ch.exponent(1223) == 2 ** 1223 - 2
    assert GF2m(1223, (255,)).chain is not None and GF2m(1223, (255,)).chain.name == "seed000-1223"


@pytest.mark.parametrize("m", [2, 3, 11, 79, 239, 283, 1223])
def test_binary_chain_cost_formula(m):
    ch = binary_chain(m)
    assert ch.exponent(m) == (2 ** m - 2) % (2 ** m - 1)
    # seed 001 eq. (7): ⌈log2(m-1)⌉ + HW(m-1) - 1 (⌊·⌋ when m-1 is a power of 2)
    assert ch.multiplications == (m - 1).bit_length() - 1 + bin(m - 1).count("1") - 1
    assert ch.squarings == m - 1


@pytest.mark.parametrize("m,mid", FIELDS)
def test_trace_half_trace_quadratic(m, mid, rng):
    F = GF2m(m, mid)
    for a in corner_values(F) + [F.random(rng) for _ in range(6)]:
        if m <= 300:
            assert F.trace(a) == F.trace_slow(a)
        z = F.solve_quadratic(a)
        if F.trace(a):
            assert z is None
        else:
            assert F.sqr(z) ^ z == a
    assert F.trace(1) == m & 1


def test_trace_is_linear_and_balanced():
    F = GF2m(11, (2,))
    ones = sum(F.trace(a) for a in range(1 << 11))
    assert ones == 1 << 10
    for a in range(1, 1 << 11, 37):
        assert F.trace(a ^ 5) == F.trace(a) ^ F.trace(5)


@pytest.mark.parametrize("name", ALL_BINARY)
def test_parameter_polynomials_irreducible(name):
    p = params.get(name)
    if p.m > 300:
        pytest.skip("checked in the slow test")
    f = (1 << p.m) | 1 | sum(1 << k for k in p.data["field"]["middle"])
    assert is_irreducible(f)


@pytest.mark.slow
def test_f1223_polynomial_irreducible():
    assert is_irreducible((1 << 1223) | (1 << 255) | 1)


def test_hex_round_trip_and_errors():
    F = GF2m(11, (2,))
    assert F.to_hex(0x7FF) == "7ff" and F.to_hex(1) == "001"
    assert F.from_hex("0x7FF") == 0x7FF
    with pytest.raises(FieldError):
        F.from_hex("800")  # 12 bits
    with pytest.raises(FieldError):
        F.from_hex("xyz")
    with pytest.raises(FieldError):
        F.from_hex("")
