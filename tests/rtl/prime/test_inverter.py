"""The F_p inverter (Kaliski's almost Montgomery inverse in a fixed number of steps): its
step-by-step model gives a⁻¹·2^N for every a of small primes and random a of the real ones, the
Amaranth unit equals that model with exactly ``latency`` cycles for every input, and with the
cores' N = 2·log2(R) it inverts Montgomery forms (the field's ``inv`` on words)."""

import random

import pytest

from pairhw import fields, params
from pairhw.math.prime.field import PrimeField
from pairhw.program.datapath import UnitSpec
from pairhw.rtl.prime.inverter import InvP, kaliski_steps
from pairhw.sim.amsim import simulate_mul


@pytest.mark.parametrize("p", [3, 5, 7, 11, 13, 101, 257, 1009, 65521])
def test_fixed_steps_give_the_inverse_times_a_power_of_two_for_every_a(p):
    n = p.bit_length()
    for steps in (2 * n, 2 * n + 5):
        for a in range(p):
            want = pow(a, -1, p) * pow(2, steps, p) % p if a else 0
            assert kaliski_steps(a, p, steps) == want


@pytest.mark.parametrize("name", ["bn254", "bls12-381", "bn-chavez11"])
def test_fixed_steps_on_the_real_primes(name):
    p = params.curve(name).p
    rng = random.Random(7)
    n = p.bit_length()
    for a in [1, 2, p - 1, p - 2, p >> 1, 1 << (n - 1)] + [rng.randrange(1, p) for _ in range(200)]:
        assert kaliski_steps(a, p, 2 * n) == pow(a, -1, p) * pow(2, 2 * n, p) % p


def test_too_few_steps_are_refused():
    with pytest.raises(ValueError, match="at least"):
        InvP(PrimeField(101), steps=13)
    with pytest.raises(ValueError, match="per cycle"):
        InvP(PrimeField(101), per_cycle=0)


@pytest.mark.parametrize("p", [101, 65521, (1 << 61) - 1, "bn254", "bls12-381"])
@pytest.mark.parametrize("per_cycle", [1, 2, 3])
def test_unit_equals_its_model_in_constant_cycles(p, per_cycle):
    F = params.curve(p).F if isinstance(p, str) else PrimeField(p)
    unit = InvP(F, per_cycle=per_cycle)
    rng = random.Random(F.bits)
    ops = [0, 1, 2, F.p - 1, F.p >> 1] + [rng.randrange(1, F.p) for _ in range(4 if F.bits > 100 else 12)]
    run = simulate_mul(unit, [(a,) for a in ops])
    assert run.results == [unit.emulate(a) for a in ops]
    assert run.results[1:] == [pow(a, -1, F.p) * pow(2, unit.steps, F.p) % F.p for a in ops[1:]]
    assert run.latencies == [unit.latency] * len(ops) and unit.latency == -(-2 * F.bits // per_cycle) + 2


@pytest.mark.parametrize("name", ["bn-tiny", "bn254"])
def test_the_cores_inverter_inverts_montgomery_forms(name):
    """word(a) = a·R mod p ↦ (a·R)⁻¹·R² = a⁻¹·R = word(a⁻¹): the field's inv, on words."""
    fi = fields.for_params(name)
    unit = fi.build_unit(UnitSpec("inv", "inv"))
    assert unit.steps == 2 * (fi.R.bit_length() - 1)
    rng = random.Random(3)
    for _ in range(50):
        a = rng.randrange(1, fi.F.p)
        assert fi.decode(unit.emulate(fi.encode(a))) == fi.F.inv(a) == fi.apply("inv", [a])
