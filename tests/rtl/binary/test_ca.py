"""Shu–Kwon–Gaj's shared-operand MSD multipliers and their F_2^4m multiplier CA: the model's sparse
product is the tower's full product by A = w + z·s + t, every unit equals its model (tiny, odd and
the real fields; digits 1, odd, m) with exactly its latency, back to back, and CA is kept out of a
design's F_2^m mul unit."""

import random

import pytest

from pairhw import fields, params
from pairhw.math.binary import mulalg
from pairhw.math.binary.tower import Tower
from pairhw.program.field import FieldInterfaceError
from pairhw.rtl.binary.ca import CAMul, MsdGroup
from pairhw.rtl.binary.catalogue import KindError, make_unit
from pairhw.sim.amsim import simulate_mul


def _check(unit, n=12, seed=1):
    vecs = unit.vectors(n, seed)
    run = simulate_mul(unit, [(a, b) for a, b, _ in vecs])
    assert run.results == [c for *_, c in vecs]
    assert run.latencies == [unit.latency] * len(vecs)


@pytest.mark.parametrize("name", ["f2-11", "f2-239", "f2-283"])
def test_ca_model_is_the_tower_product_by_the_miller_factor(name):
    F = params.curve(name).F
    T = Tower(F)
    rng = random.Random(2)
    for scheme in (1, 2):
        ca = CAMul(F, 4, scheme)
        for _ in range(20):
            C = tuple(F.random(rng) for _ in range(4))
            w, z = F.random(rng), F.random(rng)
            assert ca.split(ca.emulate(ca.join(C), ca.join([w, z])), 4) == list(T.mul4(C, (w, z, 1, 0)))


@pytest.mark.parametrize("name", ["f2-11", "f2-17", "f2-29"])
@pytest.mark.parametrize("digit", [1, 3, 4, "m"])
def test_units_equal_their_model_on_small_fields(name, digit):
    F = params.curve(name).F
    D = F.m if digit == "m" else digit
    for unit in (MsdGroup(F, D, 1), MsdGroup(F, D, 3), CAMul(F, D, 1), CAMul(F, D, 2)):
        _check(unit, seed=D)


@pytest.mark.parametrize("name", ["f2-11", "f2-29"])
@pytest.mark.parametrize("digit", [1, 4, "m"])
def test_staged_units_equal_their_model_a_cycle_later(name, digit):
    """``stages`` 2 on msd lanes and on CA (both schemes): each multiplier's digit-product sum
    registered and accumulated a cycle later; the same products with one cycle more latency and the
    same II, back to back (a product starting in the last digit cycle of the one before) and with
    gaps; 3 stages refused."""
    F = params.curve(name).F
    D = F.m if digit == "m" else digit
    pairs = [(MsdGroup(F, D, 3), MsdGroup(F, D, 3, 2)), (CAMul(F, D, 1), CAMul(F, D, 1, 2)),
             (CAMul(F, D, 2), CAMul(F, D, 2, 2))]
    for one, two in pairs:
        assert (two.latency, two.initiation_interval) == (one.latency + 1, one.initiation_interval)
        assert two.name == one.name + "_p2"
        _check(two, seed=D)
        vecs = two.vectors(4, D + 1)
        rng = random.Random(D)
        run = simulate_mul(two, [(a, b) for a, b, _ in vecs],
                           [two.initiation_interval + rng.randrange(0, 3) for _ in vecs])
        assert run.results == [c for *_, c in vecs] and run.latencies == [two.latency] * len(vecs)
    with pytest.raises(KindError, match="ca1 F_2.m multiplier has 1 or 2 stages, not 3"):
        make_unit("ca1", F, digit=D, stages=3)
    with pytest.raises(KindError, match="msd lanes .* have 1 or 2 stages, not 3"):
        make_unit("msd", F, digit=D, lanes=2, stages=3)


def test_group_is_its_multipliers():
    F = params.curve("f2-29").F
    g = MsdGroup(F, 5, 3)
    rng = random.Random(4)
    a = [F.random(rng) for _ in range(3)]
    b = F.random(rng)
    assert g.split(g.emulate(g.join(a), b), 3) == [F.mul(x, b) for x in a]
    assert all(mulalg.msd(F, x, b, 5) == F.mul(x, b) for x in a)


@pytest.mark.parametrize("name,digit,scheme", [
    pytest.param("f2-239", 16, 2, marks=pytest.mark.slow),
    pytest.param("f2-239", 16, 1, marks=pytest.mark.slow),
    pytest.param("f2-283", 8, 2, marks=pytest.mark.slow),
    pytest.param("f2-283", 32, 1, marks=pytest.mark.slow),
])
def test_ca_at_the_papers_sizes(name, digit, scheme):
    """Table 2's fields in Verilator: ⌈m/D⌉ cycles a round, one round (scheme 1) or two (scheme 2),
    every product and its latency checked by the generated test bench."""
    from pairhw.flow import verify_unit

    F = params.curve(name).F
    ca = make_unit(f"ca{scheme}", F, digit=digit)
    assert ca.initiation_interval == scheme * -(-F.m // digit) and ca.latency == ca.initiation_interval + 1
    assert ca.multipliers == 6 // scheme and ca.width == 4 * F.m
    res = verify_unit(ca, 6, digit, "verilator")
    assert res.verified == res.vectors == 16 and res.failed == 0


def test_ca_is_not_a_designs_mul_unit_and_needs_a_digit():
    fi = fields.for_params("f2-239")
    with pytest.raises(FieldInterfaceError, match="F_2\\^4m"):
        fi.make_mul("ca1", digit=16)
    with pytest.raises(KindError, match="--digit"):
        make_unit("ca2", fi.F)
    with pytest.raises(ValueError, match="scheme"):
        CAMul(fi.F, 4, 3)
