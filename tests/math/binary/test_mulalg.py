import pytest

from pairhw.math.binary import mulalg as M
from pairhw.math.binary.field import GF2m, schoolbook_check

SIZES = [1, 2, 3, 5, 8, 9, 16, 27, 46, 64, 81, 136]
SCHEDULES = [(), (2,), (3,), (2, 2), (3, 2), (3, 3, 2), (2, 3, 3)]


def edge_and_random(n, rng):
    mask = (1 << n) - 1
    return [0, 1, mask, 1 << (n - 1)] + [rng.getrandbits(n) for _ in range(4)]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_polynomial_products(n, schedule, rng):
    for a in edge_and_random(n, rng):
        for b in edge_and_random(n, rng)[:5]:
            assert M.karatsuba(a, b, n, schedule) == schoolbook_check(a, b)
            assert M.schoolbook(a, b, n) == schoolbook_check(a, b)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_tmvp_against_definition(n, schedule, rng):
    for _ in range(4):
        t, v = rng.getrandbits(2 * n - 1), rng.getrandbits(n)
        ref = sum((sum(M.toeplitz_entry(t, n, i, j) & (v >> j) for j in range(n)) & 1) << i for i in range(n))
        assert M.tmvp(t, v, n, schedule) == ref


FIELDS = [(11, (2,)), (79, (9,)), (239, (36,)), (1223, (255,))]


@pytest.mark.parametrize("m,mid", FIELDS, ids=lambda x: str(x))
def test_field_products(m, mid, rng):
    F = GF2m(m, mid)
    vals = [0, 1, F.mask, 1 << (m - 1)] + [F.random(rng) for _ in range(3)]
    sched = (3, 3, 3, 3, 2) if m == 1223 else (3, 2)  # seed 000: 1224 → 408 → 136 → 46 → 16 → 8
    for a in vals:
        for b in vals[:5]:
            ref = F.mul(a, b)
            assert M.field_mul_tmvp(F, a, b, sched) == ref
            assert M.field_mul_karatsuba(F, a, b, (2, 3)) == ref
            for D in (1, 7, 16):
                assert M.lsd(F, a, b, D) == ref
                assert M.msd(F, a, b, D) == ref
        if m < 100:
            assert M.field_mul_schoolbook(F, a, vals[-1]) == F.mul(a, vals[-1])


def test_field_toeplitz_is_toeplitz_and_rotated_matrix(rng):
    F = GF2m(79, (9,))
    a = F.random(rng)
    t = M.field_toeplitz(F, a)
    cols = []
    c = a
    for _ in range(F.m):
        cols.append(c)
        c = F.reduce(c << 1)
    k = F.middle[0]
    for i in range(0, F.m, 7):
        for j in range(0, F.m, 5):
            assert M.toeplitz_entry(t, F.m, i, j) == (cols[j] >> ((i + k) % F.m)) & 1


def test_tmvp_needs_trinomial():
    with pytest.raises(ValueError):
        M.field_toeplitz(GF2m(283, (12, 7, 5)), 3)


@pytest.mark.parametrize("method", ["karatsuba", "poly9", "tmvp"])
@pytest.mark.parametrize("k", [2, 3])
def test_cost_models_reproduce_adikari12_table1(method, k):
    for i in range(1, 7):
        n = k ** i
        c = M.cost(method, n, (k,) * i)
        ands, xor, depth = M.table1(method, k, n)
        assert c.and_gates == ands
        assert float(c.xor_gates) == pytest.approx(xor, abs=1e-6)
        assert (c.and_depth, c.xor_depth) == (1, pytest.approx(depth))


def test_tmvp_beats_polynomial_karatsuba_for_adikari12_unit():
    sched = (3, 3, 3, 2)  # the 408-bit unit: 408 → 136 → 46 → 16 → 8
    tm, ka = M.cost("tmvp", 408, sched), M.cost("karatsuba", 408, sched)
    assert tm.and_gates == ka.and_gates == 6 ** 3 * 3 * 64
    assert tm.xor_gates < ka.xor_gates and tm.xor_depth < ka.xor_depth


def test_digit_serial_cycles():
    F = GF2m(1223, (255,))
    assert M.digit_serial_cost(F, 11)["cycles"] == 112
    assert M.digit_serial_cost(F, 1)["cycles"] == 1223
