"""Seed 002's polynomial Montgomery multiplication: exact against plain Montgomery, the five-term
Karatsuba against the schoolbook, the DSP product piece by piece, and the static ranges."""

import random

import pytest

from pairhw import params
from pairhw.math.prime.field import Montgomery
from pairhw.math.prime.polymont import (Interval, PolyMont, bn_p, dsp_plan, find_seed_t, karatsuba5,
                                  mul64_dsp)

T_SEED = (1 << 61) - (1 << 15) - 1


@pytest.fixture(scope="module")
def M():
    return PolyMont(T_SEED)


@pytest.fixture
def rng():
    return random.Random(2)


def schoolbook(a, b):
    return [sum(a[i] * b[k - i] for i in range(5) if 0 <= k - i < 5) for k in range(9)]


def test_seed_parameter_is_found_again():
    t = find_seed_t(61)
    assert t == T_SEED  # the paper's n = 61, s = −(2^15 + 1)
    d = params.get("bn-chavez11").data
    assert int(d["u"]) == t and d["seed002"] == {"n": 61, "s": t - (1 << 61)}
    assert params.curve("bn-chavez11").p == bn_p(t)


def test_karatsuba5_is_the_product(rng):
    for _ in range(100):
        a = [rng.randrange(-2**64, 2**64) for _ in range(5)]
        b = [rng.randrange(-2**64, 2**64) for _ in range(5)]
        assert karatsuba5(a, b) == schoolbook(a, b)


def test_printed_c4_is_wrong():
    """Alg. 3 line 21 as printed (+p5) counts a3·b3 twice; ours (−p5) is the product."""
    a = b = [0, 0, 0, 1, 0]  # only a3·b3 = t^6
    p = [0] * 14
    p[5] = p[7] = p[8] = p[6] = p[13] = 1
    printed_c4 = p[10] - p[9] - p[0] + p[3] + p[5] - p[1] + p[7]
    assert printed_c4 == 2 and karatsuba5(a, b)[4] == 0


def test_alg1_alg2_against_montgomery(M, rng):
    W = Montgomery(M.p)
    edge = [0, 1, 2, M.p - 1, M.p - 2, M.t, M.t - 1]
    pairs = [(a, b) for a in edge for b in edge]
    pairs += [(rng.randrange(M.p), rng.randrange(M.p)) for _ in range(200)]
    for a, b in pairs:
        ref = W.from_mont(W.mul(W.to_mont(a), W.to_mont(b)))
        A, B = M.to_mont(a), M.to_mont(b)
        assert M.from_mont(M.alg1(A, B)) == ref
        c = M.alg2(A, B)
        assert M.from_mont(c) == ref and M.value(c) == a * b * M.R % M.p  # factor t^5
        assert all(d.contains(x) for d, x in zip(M.domain, c))


def test_extreme_representatives(M):
    """The largest unreduced inputs the representation allows multiply correctly and stay in the
    closed domain."""
    ext = M.extremes()
    for x in ext:
        for y in ext:
            c = M.alg2(x, y)
            assert M.value(c) == M.value(x) * M.value(y) * M.Rinv % M.p
            assert all(d.contains(v) for d, v in zip(M.domain, c))


def test_ranges_bound_every_intermediate(M, rng):
    R = M.ranges()
    assert M.carry_rounds == 2  # one split per coefficient (Alg. 2 line 9) is not closed
    inputs = M.extremes() + [M.to_mont(rng.randrange(M.p)) for _ in range(100)]
    seen = set()
    for x in inputs:
        y = inputs[rng.randrange(len(inputs))]

        def check(name, v):
            seen.add(name)
            assert R[name].contains(v), (name, v, R[name])

        M.alg2(x, y, trace=check)
    assert seen == set(R)
    # every Karatsuba operand fits the 64-bit sign-magnitude multiplier; the coefficients 62 bits
    ops = [k for k in R if k.startswith("p") and k.endswith((".a", ".b"))]
    assert len(ops) == 28 and max(R[k].mag_bits for k in ops) == 64
    assert [d.bits for d in M.domain] == [63, 63, 63, 63, 23]


def test_one_carry_round_is_not_closed(M, rng):
    """With one split per coefficient γ = r − μs keeps up to |μs| ≈ 2^78: too wide for the next
    product's 64-bit multiplier (the value is right, the representation is not reusable)."""
    D = M.canonical_domain()
    out = M.alg2(D, D, carry_rounds=1)
    assert max(d.mag_bits for d in out) > 70
    worst = max(max(abs(c) for c in M.alg2(M.to_mont(rng.randrange(M.p)), M.to_mont(rng.randrange(M.p)),
                                            carry_rounds=1)) for _ in range(50))
    assert worst >= 2**64


def test_dsp_plan_matches_the_paper():
    prods, rows = dsp_plan()
    assert len(prods) == 12 and len(rows) == 6  # 12 products, 5 additions
    for row in rows:
        spans = sorted((off, off + w) for _, _, off, w in row)
        assert all(e <= s for (_, e), (s, _) in zip(spans, spans[1:]))  # concatenation


def test_mul64_dsp(rng):
    edge = [0, 1, -1, 2**64 - 1, -(2**64 - 1), 2**63, 2**24 - 1, 2**17]
    vals = edge + [rng.randrange(-2**64 + 1, 2**64) for _ in range(300)]
    for a in vals:
        b = vals[rng.randrange(len(vals))]
        pieces = []
        assert mul64_dsp(a, b, trace=lambda n, v: pieces.append((n, v))) == a * b
        assert all(v < 2**41 for n, v in pieces if n.startswith("dsp.a"))  # fits 24 × 17
    with pytest.raises(ValueError):
        mul64_dsp(2**64, 1)


def test_alg2_with_dsp_products(M, rng):
    for _ in range(30):
        A, B = M.to_mont(rng.randrange(M.p)), M.to_mont(rng.randrange(M.p))
        assert M.alg2(A, B, mul=mul64_dsp) == M.alg2(A, B)


def test_interval_arithmetic():
    a, b = Interval(-3, 5), Interval(2, 4)
    assert a * b == Interval(-12, 20) and a - b == Interval(-7, 3) and (a >> 1) == Interval(-2, 2)
    assert Interval(-4, 3).bits == 3 and Interval(0, 255).bits == 8 and Interval(-256, 0).mag_bits == 9


def test_coefficient_addition_is_exact_and_closed():
    """Sums and differences in seed 002's form (one fold of the top coefficient by p(t), two carry
    rounds) are the field's, and one domain holds every product and every sum of its elements: the
    ground a core whose adders keep the coefficient form stands on."""
    import random

    from pairhw import params
    from pairhw.math.prime.polymont import Interval, PolyMont

    ps = params.get("bn-chavez11")
    pm = PolyMont(int(ps.data["u"]), ps.data["seed002"]["n"])
    D = pm.arith_domain
    rng = random.Random(9)
    ext = [[d.lo for d in D], [d.hi for d in D]] + [[rng.randint(d.lo, d.hi) for d in D] for _ in range(300)]
    for a in ext:
        for b in (ext[0], ext[1], rng.choice(ext)):
            for s in (1, -1):
                c = pm.add_norm(a, b, s)
                assert pm.value(c) == (pm.value(a) + s * pm.value(b)) % pm.p
                assert all(d.contains(x) for d, x in zip(D, c))
    assert D[:4] == pm.domain[:4] and D[4].lo == pm.domain[4].lo and D[4].hi > pm.domain[4].hi
    out = pm.alg2(D, D)
    assert all(d.contains(o.lo) and d.contains(o.hi) for d, o in zip(D, out))
    assert all(isinstance(d, Interval) for d in D)
