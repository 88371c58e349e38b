"""The F_p units in the Amaranth simulator: every product equals the golden model's (Montgomery's
a·b·R⁻¹ mod p; seed 002's Alg. 2 with the DSP product, coefficient for coefficient), arrives exactly
``latency`` cycles after its start, back to back every ``ii`` cycles.  Small and odd primes in the
default run, the real ones (bn254, bls12-381, bn-chavez11) too: the Amaranth simulator is quick here."""

import json
import random

import pytest

from pairhw import params
from pairhw.math.prime.field import Montgomery, PrimeField
from pairhw.math.prime.polymont import PolyMont, bn_p, dsp_plan, find_seed_t
from pairhw.emit import unit_verilog
from pairhw.rtl.prime.adder import OPS3, Add3P, AddSubP, MulSmallP, quotients_by_top
from pairhw.rtl.prime.catalogue import KindError, bn_t, make_unit, prime_field
from pairhw.rtl.prime.dsp import product_pieces
from pairhw.rtl.prime.montgomery import MontgomeryIterative, MontgomeryPipelined
from pairhw.rtl.prime.polymont import PolyMontMul, const_mul, karatsuba_structure
from pairhw.sim.amsim import simulate_comb, simulate_mul

# tiny, one word, just over a word, odd sizes, a Mersenne prime, and the real ones
SMALL_P = [101, 65521, 131071, (1 << 61) - 1, 2**89 - 1, 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF61]
REAL = ["bn254", "bls12-381", "bn-chavez11"]


def _check(unit, vecs):
    run = simulate_mul(unit, [(a, b) for a, b, _ in vecs])
    assert run.results == [c for _, _, c in vecs]
    assert run.latencies == [unit.latency] * len(vecs)


def _field(p):
    return params.curve(p).F if isinstance(p, str) else PrimeField(p)


@pytest.mark.parametrize("p", SMALL_P + REAL)
@pytest.mark.parametrize("cls", [MontgomeryPipelined, MontgomeryIterative])
def test_montgomery_units_equal_the_model(cls, p):
    F = _field(p)
    unit = cls(F)
    M = Montgomery(F.p, 17)
    vecs = unit.vectors(25, seed=F.bits)
    assert all(c == M.mul(a, b) == a * b * pow(M.R, -1, F.p) % F.p for a, b, c in vecs)
    _check(unit, vecs)


@pytest.mark.parametrize("p", [(1 << 61) - 1, "bn254", "bls12-381"])
@pytest.mark.parametrize("levels", [2, 3, 6])
def test_pipelined_levels_shorten_the_latency(p, levels):
    """A register every ``levels`` adder-tree levels: the same products, fewer cycles of latency."""
    F = _field(p)
    unit = MontgomeryPipelined(F, levels=levels)
    assert unit.latency < MontgomeryPipelined(F).latency or F.bits < 100
    _check(unit, unit.vectors(15, seed=levels))


def test_montgomery_iterative_cycles_and_word_sizes():
    """II = s(s + 2) + 1 for s words; the digit-by-digit algorithm (FIOS) is the model's product."""
    F = params.curve("bls12-381").F
    assert MontgomeryIterative(F).initiation_interval == 23 * 25 + 1  # 381 bits: 23 words of 17
    assert MontgomeryIterative(params.curve("bn254").F).initiation_interval == 15 * 17 + 1
    rng = random.Random(4)
    for w in (8, 16, 17, 32):
        unit = MontgomeryIterative(F, w)
        M = Montgomery(F.p, w)
        for _ in range(20):
            a, b = rng.randrange(F.p), rng.randrange(F.p)
            assert unit.fios(a, b) == M.mul(a, b)
    small = MontgomeryIterative(PrimeField(2**89 - 1), 8)
    _check(small, small.vectors(10, seed=8))
    with pytest.raises(ValueError):
        MontgomeryIterative(F, 1)


@pytest.mark.parametrize("p,K", [(65521, 2), ((1 << 61) - 1, 3), (2**89 - 1, 2), (2**89 - 1, 6),
                                 ("bn254", 16), ("bls12-381", 7), ("bls12-381", 24)])
def test_montgomery_iterative_per_cycle_equals_the_model(p, K):
    """K digits of a per cycle (the middle kind): the same products as the model, in the unit's
    cycles, back to back; K that does not divide s + 1 pads a, p and t with zero digits."""
    F = _field(p)
    unit = MontgomeryIterative(F, 17, K)
    s, L = unit.digits, unit.padded
    assert L % K == 0 and s + 1 <= L < s + 1 + K
    assert unit.initiation_interval == s * (1 + L // K) + 1 < MontgomeryIterative(F).initiation_interval
    vecs = unit.vectors(20, seed=K)
    assert all(unit.fios(a, b) == c for a, b, c in vecs)
    _check(unit, vecs)


def test_montgomery_iterative_per_cycle_bounds_and_catalogue():
    """per_cycle goes from 1 (the word-serial unit, its name and Verilog unchanged) to s + 1 (a whole
    row a cycle); the catalogue and the CLI take it for montgomery-iterative only."""
    F = params.curve("bn254").F
    assert make_unit("montgomery-iterative", F, per_cycle=16).initiation_interval == 15 * 2 + 1
    assert make_unit("montgomery-iterative", F, per_cycle=1).name == MontgomeryIterative(F).name
    assert unit_verilog(make_unit("montgomery-iterative", PrimeField(65521), per_cycle=1)) == \
        unit_verilog(MontgomeryIterative(PrimeField(65521)))
    for bad in (0, 17):
        with pytest.raises(KindError, match="per_cycle"):
            make_unit("montgomery-iterative", F, per_cycle=bad)
    with pytest.raises(KindError, match="per_cycle"):
        make_unit("montgomery-pipelined", F, per_cycle=2)


@pytest.mark.parametrize("p,K", [(65521, 1), (2**89 - 1, 2), ("bn254", 1), ("bls12-381", 7)])
@pytest.mark.parametrize("stages", [2, 3])
def test_montgomery_iterative_stages_subtract_later(p, K, stages):
    """``stages`` 2: p's digits and a_0·b_i from registers, the pushed t registered and p subtracted
    the cycle after; 3: the subtraction in two cycles. The same products ``stages`` - 1 cycles
    later, the same II, back to back and with gaps; 1 is the unit as before, 4 refused."""
    F = _field(p)
    one, unit = MontgomeryIterative(F, 17, K), make_unit("montgomery-iterative", F, per_cycle=K, stages=stages)
    assert (unit.latency, unit.initiation_interval) == (one.latency + stages - 1, one.initiation_interval)
    assert unit.name == one.name + f"_p{stages}" and unit.describe()["stages"] == stages
    vecs = unit.vectors(8, seed=K + stages)
    _check(unit, vecs)
    rng = random.Random(K)
    run = simulate_mul(unit, [(a, b) for a, b, _ in vecs[:4]], [unit.initiation_interval + rng.randrange(0, 3)
                                                                for _ in range(4)])
    assert run.results == [c for _, _, c in vecs[:4]] and run.latencies == [unit.latency] * 4
    assert unit_verilog(make_unit("montgomery-iterative", F, per_cycle=K, stages=1)) == unit_verilog(one)
    with pytest.raises(KindError, match="1 to 3 stages"):
        make_unit("montgomery-iterative", F, stages=4)


@pytest.mark.parametrize("levels", [2, 3])
def test_polymont_levels_shorten_its_multiplier(levels):
    """polymont-chavez11 ``levels``: a register every L levels of its 64 × 64 multiplier's adder tree
    (three levels over six rows): fewer stages, the same products, back to back."""
    F = params.curve("bn-chavez11").F
    one, unit = make_unit("polymont-chavez11", F), make_unit("polymont-chavez11", F, levels=levels)
    assert unit.multiplier_stages == 1 + 1 + -(-3 // levels)
    assert (unit.latency, unit.initiation_interval) == (one.latency - 3 + -(-3 // levels), 14)
    assert unit.name == one.name + f"_l{levels}"
    _check(unit, unit.vectors(12, seed=levels))
    with pytest.raises(KindError, match="at least 1"):
        make_unit("polymont-chavez11", F, levels=0)


def test_pipelined_pieces_fit_a_dsp48e1():
    """Every piece product is at most 24 × 17 bits (a DSP48E1 takes 25 × 18 signed)."""
    for p in REAL:
        F = _field(p)
        unit = MontgomeryPipelined(F)
        for xb, yb, y, trunc in ((F.bits, F.bits, None, None), (unit.k, unit.k, unit.pprime, unit.k),
                                 (unit.k, F.bits, F.p, None)):
            pieces, xws, yws = product_pieces(xb, yb, 24, 17, None if y is None else
                                              [(y >> (17 * j)) & 0x1FFFF for j in range(-(-yb // 17))], trunc)
            assert max(xws) <= 24 and max(yws) <= 17 and pieces


@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("stages", [0, 1, 2])
def test_adder_unit_adds_subtracts_negates(stages, fused):
    """a + b, a − b and −a mod p on corners and random values, with four carry chains or ``fused``
    into two; with ``stages`` each result comes that many cycles after its operands, one a cycle; a
    stage count it does not have is refused."""
    rng = random.Random(5)
    for p in (101, 2**127 - 1, params.curve("bls12-381").p):
        F = PrimeField(p)
        unit = AddSubP(F, stages=stages, fused=fused)
        assert unit.latency == stages
        vals = [0, 1, p - 1, p - 2, p >> 1] + [rng.randrange(p) for _ in range(10)]
        cases = [{"a": a, "b": b, "op": op} for op in range(3) for a in vals for b in vals[:6]]
        got = simulate_comb(unit, cases)
        want = [(a + b) % p if c["op"] == 0 else (a - b) % p if c["op"] == 1 else -a % p
                for c in cases for a, b in [(c["a"], c["b"])]]
        assert got == want
    for bad in (3, -1, True):
        with pytest.raises(ValueError, match="stages must be 0, 1"):
            AddSubP(PrimeField(101), stages=bad)


@pytest.mark.parametrize("stages", [0, 1])
def test_three_operand_adder_equals_the_model(stages):
    """a + b + d, a + b − d, a − b − d and the adder's own a + b, a − b, −a, each fully reduced,
    over edge values (0, 1, p − 1: the sums' extremes 3p − 3 and −2p + 2) and random ones; the
    unit's ``emulate`` agrees; a stage count it does not have is refused."""
    rng = random.Random(8)
    model = {"add3": lambda a, b, d: a + b + d, "addsub": lambda a, b, d: a + b - d,
             "sub2": lambda a, b, d: a - b - d, "add": lambda a, b, d: a + b, "sub": lambda a, b, d: a - b,
             "neg": lambda a, b, d: -a}
    from pairhw.fields.prime import PrimeFieldInterface

    assert OPS3 == PrimeFieldInterface.unit_kinds["add3"].ops  # the unit's op select: the interface's order
    for p in (101, 2**127 - 1, params.curve("bls12-381").p):
        F = PrimeField(p)
        unit = Add3P(F, stages=stages)
        assert unit.latency == stages
        vals = [0, 1, p - 1, p - 2, p >> 1]
        triples = [(a, b, d) for a in vals for b in vals for d in vals]
        triples += [(rng.randrange(p), rng.randrange(p), rng.randrange(p)) for _ in range(20)]
        # sums at and beside p and 2p (a + b + d; a − b − d at −p, −2p + 2), where the candidates turn
        triples += [(min(x, p - 1), max(0, min(p - 1, x - p + 1)), max(0, x - 2 * p + 2))
                    for k in (1, 2) for x in (k * p - 1, k * p, k * p + 1)]
        cases = [{"a": a, "b": b, "d": d, "op": op} for op in range(len(OPS3)) for a, b, d in triples]
        want = [model[OPS3[c["op"]]](c["a"], c["b"], c["d"]) % p for c in cases]
        assert simulate_comb(unit, cases) == want
        assert [unit.emulate(c["a"], c["b"], c["d"], c["op"]) for c in cases] == want
    for bad in (2, -1, True):
        with pytest.raises(ValueError, match="stages must be 0 or 1"):
            Add3P(PrimeField(101), stages=bad)


def test_the_top_bits_of_a_three_operand_sum_leave_two_candidates():
    """quotients_by_top over Add3P's range: for every t in (−2p, 3p) at p = 101 and 127, and for t at
    and beside each multiple of p and each boundary of the top bits at BLS12-381's p, t − q·p (q from
    t's top bits) is in [0, 2p), so t − q·p or t − (q + 1)·p is t mod p."""
    for p in (101, 127, params.curve("bls12-381").p):
        w = p.bit_length()
        for width, least, most in ((w + 3, -2 * p + 2, 3 * p - 3),):
            s, qs = quotients_by_top(p, width, least, most)
            if p < 1000:
                ts = range(least, most + 1)
            else:
                edges = [k * p for k in range(-2, 4)] + [h << s for h in range(-16, 16)]
                ts = [e + d for e in edges for d in (-1, 0, 1) if least <= e + d <= most]
            for t in ts:
                q = qs[(t % (1 << width)) >> s]
                assert 0 <= t - q * p < 2 * p, (p, width, t)


def test_small_constant_products():
    rng = random.Random(6)
    ks = (2, 3, -1, 6, -9, 36)
    for p in (101, params.curve("bn254").p):
        F = PrimeField(p)
        unit = MulSmallP(F, ks)
        vals = [0, 1, p - 1, p >> 1] + [rng.randrange(p) for _ in range(10)]
        # |k|·a at and beside each multiple of p, where the quotient turns
        vals += [x for k in (2, 3, 6, 9, 36) for j in range(1, k) for x in (j * p // k, j * p // k + 1) if x < p]
        cases = [{"a": a, "sel": sel} for sel in range(len(ks)) for a in vals]
        assert simulate_comb(unit, cases) == [c["a"] * ks[c["sel"]] % p for c in cases]
    with pytest.raises(ValueError):
        MulSmallP(PrimeField(101), (0,))


# -- seed 002's polynomial Montgomery multiplier ------------------------------------------------


def test_karatsuba_structure_is_read_off_the_model():
    """14 products; c_4 has −p5 (the model's correction to Alg. 3), p8 adds all four low terms."""
    ops, cs = karatsuba_structure()
    assert len(ops) == 14 and len(cs) == 9
    assert cs[4] == {10: 1, 9: -1, 0: -1, 3: 1, 5: -1, 1: -1, 7: 1}
    assert ops[8] == {0: 1, 1: 1, 2: 1, 3: 1}


def test_constant_products_are_shifts_and_adds():
    for k in (-32769, -1, 1, 6, 24, 36, 12345, -(2**40 + 3)):
        for x in (0, 1, 7, -5, 2**61 + 11):
            assert const_mul(x, k) == x * k


def test_polymont_at_bn_chavez11_meets_the_paper():
    """II ≤ 15 and latency ≤ 40 (seed 002: 15 cycles per product, latency 40), the 64 × 64 product
    from 12 pieces in 6 rows, bit-exact on the model's edge set and random Montgomery-form inputs."""
    unit = make_unit("polymont-chavez11", params.curve("bn-chavez11").F)
    assert unit.initiation_interval == 14 <= 15 and unit.latency == 33 <= 40
    prods, rows = dsp_plan()
    assert len(prods) == 12 and len(rows) == 6 and unit.multiplier_stages == 1 + 1 + 3
    assert unit.cw == [63, 63, 63, 63, 23] and unit.width == 275
    vecs = unit.vectors(60, seed=2)
    pm = unit.pm
    for a, b, c in vecs:  # the words are Alg. 2's coefficients, and the value is a·b·t⁻⁵
        assert pm.value(unit.unpack(c)) == pm.value(unit.unpack(a)) * pm.value(unit.unpack(b)) * pm.Rinv % pm.p
    _check(unit, vecs)


@pytest.mark.parametrize("n,rounds", [(19, 2), (20, 3), (26, 1), (30, 2)])
def test_polymont_small_bn_primes(n, rounds):
    """Seed-form BN primes of other sizes: the widths and carry rounds follow the model's ranges, and
    a coefficient whose last register is narrower than its word field (n = 26: 27 bits in a 28-bit
    field of the core's domain) is sign-extended into it."""
    t = find_seed_t(n)
    pm = PolyMont(t, n)
    assert pm.carry_rounds == rounds
    unit = PolyMontMul(PrimeField(bn_p(t)), pm)
    assert unit.latency == 1 + 14 + 5 + 5 + 4 * rounds
    assert unit.cw == [d.bits for d in pm.arith_domain]
    _check(unit, unit.vectors(20, seed=n))


def test_catalogue_and_errors():
    assert bn_t(params.curve("bn-chavez11").p) == (int(params.get("bn-chavez11").data["u"]), 61)
    assert bn_t(params.curve("bn254").p)[0] == int(params.get("bn254").data["u"])
    assert bn_t(params.curve("bls12-381").p) is None
    assert bn_t(bn_p(find_seed_t(20)))[0] == find_seed_t(20)
    with pytest.raises(KindError, match="not one"):
        make_unit("polymont-chavez11", params.curve("bls12-381").F)
    with pytest.raises(KindError, match="small s"):
        make_unit("polymont-chavez11", params.curve("bn254").F)
    with pytest.raises(KindError, match="takes"):
        make_unit("montgomery-pipelined", PrimeField(101), digit=8)
    with pytest.raises(KindError, match="at least 1"):
        make_unit("montgomery-pipelined", PrimeField(101), levels=0)
    assert make_unit("montgomery-pipelined", params.curve("bls12-381").F, levels=3).latency == 12
    with pytest.raises(KindError, match="not an odd prime"):
        prime_field("91")
    assert prime_field("0x65").p == 101


def test_verilog_is_deterministic_and_names_the_unit():
    unit = make_unit("polymont-chavez11", params.curve("bn-chavez11").F)
    v1 = unit_verilog(unit)
    assert v1 == unit_verilog(make_unit("polymont-chavez11", params.curve("bn-chavez11").F))
    assert "module PolyMont_p250_n61" in v1


@pytest.mark.parametrize("kind,curve", [("polymont-chavez11", "bn-chavez11"), ("montgomery-pipelined", "bn254"),
                                        ("montgomery-iterative", 65521)])
def test_result_holds_until_the_next_one(kind, curve):
    """The multiplier contract: ``c`` stays after ``done`` until the next result, also for the
    pipelined units (their output register loads only with a result)."""
    from amaranth.sim import Simulator

    unit = make_unit(kind, _field(curve))
    (a, b, c), (a2, b2, c2) = unit.vectors(2, seed=9)[-2:]
    seen = []

    async def bench(ctx):
        ctx.set(unit.a, a)
        ctx.set(unit.b, b)
        ctx.set(unit.start, 1)
        await ctx.tick()
        ctx.set(unit.start, 0)
        ctx.set(unit.a, a2)  # inputs change while the product runs: sampled at start only
        ctx.set(unit.b, b2)
        for _ in range(unit.latency + 20):
            await ctx.tick()
            seen.append((ctx.get(unit.done), ctx.get(unit.c)))

    sim = Simulator(unit)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    dones = [i + 2 for i, (d, _) in enumerate(seen) if d]  # seen[i] is cycle i + 2 (start in cycle 0)
    assert dones == [unit.latency]
    assert all(v == c for _, v in seen[unit.latency - 2:])


@pytest.mark.parametrize("stages", [0, 1, 5, 10])
def test_coefficient_form_adder_equals_the_model(stages):
    """The adder of a core in seed 002's form: a + b, a − b and −a as the model's add_norm, word for
    word, on the domain's corners and random words, and the values are the field's; with ``stages``
    its results come that many cycles after their operands, one a cycle."""
    from pairhw.rtl.prime.polyadd import PolyAddSub

    C = params.curve("bn-chavez11")
    pm = PolyMont(*bn_t(C.p))
    unit = PolyAddSub(C.F, pm, stages=stages)
    assert unit.latency == stages and len(unit.cuts()) == stages and (not stages or unit.cuts()[-1] == 10)
    D = pm.arith_domain
    rng = random.Random(21)
    words = [[d.lo for d in D], [d.hi for d in D], [0] * 5, pm.to_mont(1), pm.to_mont(C.p - 1)]
    words += [[rng.randint(d.lo, d.hi) for d in D] for _ in range(40)]
    cases = [(a, b, op) for a in words[:8] for b in words[:8] for op in (0, 1, 2)]
    cases += [(rng.choice(words), rng.choice(words), rng.randrange(3)) for _ in range(100)]
    got = simulate_comb(unit, [{"a": unit.pack(a), "b": unit.pack(b), "op": op} for a, b, op in cases])
    for (a, b, op), c in zip(cases, got):
        assert c == unit.emulate(unit.pack(a), unit.pack(b), op)
        want = (pm.value(a) + pm.value(b)) if op == 0 else (pm.value(a) - pm.value(b)) if op == 1 else -pm.value(a)
        assert pm.value(unit.unpack(c)) == want % C.p
        assert all(d.contains(x) for d, x in zip(D, unit.unpack(c)))


def test_coefficient_form_adder_stages_are_checked():
    """A stage count the adder's ten-step chain cannot hold is refused, naming it, as is one the
    canonical F_p adder does not have; the binary and ternary adders take no options (one line
    naming the unit, through the datapath)."""
    from pairhw.program.datapath import DatapathError
    from pairhw.rtl.prime.polyadd import PolyAddSub

    C = params.curve("bn-chavez11")
    pm = PolyMont(*bn_t(C.p))
    for bad in (-1, 11, True, 2.5):
        with pytest.raises(ValueError, match="stages must be 0 to 10"):
            PolyAddSub(C.F, pm, stages=bad)
    from pairhw import designs

    for name, stages, match in (("ate-bn-chavez11-toy", 11, "stages must be 0 to 10"),
                                ("ate-bn-tiny", 3, "stages must be 0, 1"), ("f2-79-etat-tmvp3", 2, "takes no options"),
                                ("etat3-97-small", 2, "takes no options")):
        data = json.loads(json.dumps(designs.get(name).data))
        next(u for u in data["datapath"]["units"] if u["kind"] == "add")["add"] = {"stages": stages}
        with pytest.raises(DatapathError, match=match):
            designs.from_data(data).datapath()
