"""Sequential plans equal the field product, and have the sub-product counts of the papers."""

import random

import pytest

from pairhw.math.binary.field import GF2m
from pairhw.math.binary import mulalg
from pairhw.rtl.binary.catalogue import binary_field
from pairhw.rtl.binary.plan import field_mul_by_plan, poly_plan, tmvp_plan

SPLITS = [(2,), (3,), (2, 2), (3, 2), (2, 3), (2, 2, 2)]


@pytest.mark.parametrize("m", [11, 17, 29, 47, 79, 233])
@pytest.mark.parametrize("splits", SPLITS)
def test_plans_compute_the_field_product(m, splits):
    F = binary_field(m)
    rng = random.Random(m * 7 + len(splits))
    pairs = [(F.random(rng), F.random(rng)) for _ in range(5)] + [(F.mask, F.mask), (1 << (m - 1), F.mask)]
    plans = [poly_plan(m, splits)]
    if len(F.middle) == 1:
        plans.append(tmvp_plan(m, splits))
    for plan in plans:
        for a, b in pairs:
            assert field_mul_by_plan(F, plan, a, b) == F.mul(a, b), (plan.kind, splits)


def test_tmvp_plan_matches_tmvp_schoolbook_on_raw_matrices():
    rng = random.Random(3)
    for n in (9, 10, 16, 25):
        for splits in SPLITS[:5]:
            plan = tmvp_plan(n, splits)
            for _ in range(4):
                t, v = rng.getrandbits(2 * n - 1), rng.getrandbits(n)
                got = plan.evaluate(t, v, lambda x, y: mulalg.tmvp_schoolbook(x, y, plan.h))
                assert got == mulalg.tmvp_schoolbook(t, v, n)


def test_adikari12_and_nagl_sub_product_counts():
    # seed 000 §3.2: 1224 → six 408-bit TMVPs; two levels of two-way → nine of 306 bits
    assert (len(tmvp_plan(1223, (3,)).products), tmvp_plan(1223, (3,)).h) == (6, 408)
    assert (len(tmvp_plan(1223, (2, 2)).products), tmvp_plan(1223, (2, 2)).h) == (9, 306)
    # Ghosh et al.: nine 306-bit polynomial products
    assert (len(poly_plan(1223, (2, 2)).products), poly_plan(1223, (2, 2)).h) == (9, 306)
    # seed 003 §IV-A: K153 27 partial products of 153 bits, K77 81 of 77 bits
    assert (len(poly_plan(1224, (2, 2, 2)).products), poly_plan(1224, (2, 2, 2)).h) == (27, 153)
    assert (len(poly_plan(1232, (2, 2, 2, 2)).products), poly_plan(1232, (2, 2, 2, 2)).h) == (81, 77)


def test_full_size_plans_on_random_products():
    F = GF2m(1223, [255])
    rng = random.Random(1223)
    a, b = F.random(rng), F.random(rng)
    for plan in (tmvp_plan(1223, (3,)), tmvp_plan(1223, (2, 2)), poly_plan(1223, (2, 2)),
                 poly_plan(1224, (2, 2, 2)), poly_plan(1232, (2, 2, 2, 2))):
        assert field_mul_by_plan(F, plan, a, b) == F.mul(a, b)


def test_bad_split_rejected():
    with pytest.raises(ValueError):
        tmvp_plan(30, (4,))
    with pytest.raises(ValueError):
        poly_plan(30, (5,))


@pytest.mark.parametrize("splits", [(2,), (3,), (2, 2), (3, 2)])
def test_operand_cases_rebuild_every_core_operand(splits):
    # the Tnet/Vnet (nets.flagged_xor_net) computes each core operand bit as the XOR of the source
    # bits whose case set holds the current product: that must be the plan's own windowed operand
    F = binary_field(47)
    rng = random.Random(len(splits))
    for plan in (tmvp_plan(F.m, splits), poly_plan(F.m, splits)):
        rows = None
        if plan.kind == "tmvp":
            cols = [mulalg.field_toeplitz(F, 1 << j) for j in range(F.m)]
            rows = [[j for j in range(F.m) if cols[j] >> k & 1] for k in range(plan.a_width)]
        xcases, ycases = plan.operand_cases("a", rows), plan.operand_cases("b")
        for _ in range(3):
            a, b = F.random(rng), F.random(rng)
            src = mulalg.field_toeplitz(F, a) if plan.kind == "tmvp" else a
            for s, p in enumerate(plan.products):
                x = sum(1 << i for i, c in enumerate(xcases)
                        if sum(a >> j & 1 for j, cs in c.items() if s in cs) & 1)
                y = sum(1 << i for i, c in enumerate(ycases)
                        if sum(b >> j & 1 for j, cs in c.items() if s in cs) & 1)
                assert x == plan.operand(src, plan.a_width, p.a_terms)
                assert y == plan.operand(b, plan.n, p.b_terms)
