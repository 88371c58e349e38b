"""The bounded-depth sums of :mod:`pairhw.rtl.prime.compress` and the Montgomery unit built on them
(``montgomery-pipelined --segment S``): counters count, a counter level keeps the column sum and
meets its target height, the unit's products equal the golden model's in exactly ``latency``
cycles over tiny, odd and word-boundary primes and several segment and level choices."""

import random

import pytest

from pairhw import params
from pairhw.math.prime.field import Montgomery, PrimeField
from pairhw.rtl.prime.catalogue import KindError, make_unit
from pairhw.rtl.prime.compress import (DSP_ADD_BITS, chains, count_bits, counter_level, group_width, height,
                                       live_bits, next_target, pair_runs, plan, product_heights, run_pairs, run_width)
from pairhw.rtl.prime.dsp import product_pieces
from pairhw.rtl.prime.montgomery import MontgomeryCounters, MontgomeryPipelined
from pairhw.sim.amsim import simulate_mul


def _value(cols):
    return sum(bit << c for c, bits in cols.items() for bit in bits)


@pytest.mark.parametrize("n", range(1, 7))
def test_a_counter_counts_its_bits(n):
    for x in range(1 << n):
        bits = [(x >> i) & 1 for i in range(n)]
        out = count_bits(bits)
        assert len(out) == n.bit_length()
        assert sum(b << w for w, b in enumerate(out)) == sum(bits)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_counter_level_keeps_the_sum_and_halves_the_height(seed):
    """Random bit matrices (the shape of a product's pieces and of flat ones): every level keeps the
    sum mod 2^width, reaches its target from 2, 3, 6, 12, … and the levels end at two bits."""
    rng = random.Random(seed)
    for width in (17, 64, 200):
        shapes = [product_heights(width // 2, width // 2, 24, 17),
                  {c: rng.randrange(0, 40) for c in range(width)}]
        for h in shapes:
            cols = {c: [rng.randrange(2) for _ in range(n)] for c, n in h.items() if n}
            total, levels = _value(cols) % (1 << width), 0
            while height(cols) > 2:
                target = next_target(height(cols))
                cols = counter_level(cols, width, target)
                levels += 1
                assert _value(cols) % (1 << width) == total
                assert height(cols) <= max(target, 2) + 1
            assert levels == plan(h, width)
            assert all(c < width for c in cols)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_bits_no_read_column_depends_on_can_be_zero(seed):
    """The bits :func:`live_bits` leaves out do not reach the columns from ``read_from`` up: with them
    set to 0 those columns come out of the counter levels bit for bit the same, on random matrices
    of a product's shape (U = q·p's, whose rows are read from column k − 1 up) and flat ones."""
    rng = random.Random(seed)
    shapes = [(product_heights(102, 89, 24, 17, (1 << 89) - 1), 191, 101),
              ({c: rng.randrange(0, 30) for c in range(120)}, 120, 70)]
    for h, width, read_from in shapes:
        live, first = live_bits(h, width, read_from)
        assert 0 < len(first) < sum(h.values())  # some bits are not needed, and some are
        cols = {c: [rng.randrange(2) for _ in range(n)] for c, n in h.items() if n}
        pruned = {c: [b if (c, r) in first else 0 for r, b in enumerate(bits)] for c, bits in cols.items()}
        for _ in range(plan(h, width)):
            cols = counter_level(cols, width, next_target(height(cols)))
            pruned = counter_level(pruned, width, next_target(height(pruned)))
        assert all(cols.get(c) == pruned.get(c) for c in range(read_from, width))
        assert len(live) > len(first)  # the counters' outputs count too


@pytest.mark.parametrize("width", [1, 2, 7, 13, 40])
def test_zero_sum_says_whether_x_plus_y_is_0_mod_2_to_the_width(width):
    """:func:`zero_sum` (no carry chain) against x + y mod 2^w, on sums that are 0 (y = −x, x = y = 0)
    and random ones, simulated."""
    from amaranth.hdl import Module, Signal
    from amaranth.sim import Simulator

    from pairhw.rtl.prime.compress import zero_sum

    m = Module()
    x, y = Signal(width), Signal(width)
    z = zero_sum(m, x, y, width, "z")
    rng = random.Random(width)
    M = 1 << width
    cases = [(0, 0), (1, M - 1), (M - 1, 1)] + [(v, -v % M) for v in (rng.randrange(M) for _ in range(20))]
    cases += [(rng.randrange(M), rng.randrange(M)) for _ in range(30)]
    seen = []

    async def bench(ctx):
        for a, b in cases:
            ctx.set(x, a)
            ctx.set(y, b)
            seen.append(ctx.get(z))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert seen == [int((a + b) % M == 0) for a, b in cases]
    assert any(seen) and not all(seen)


def test_columns_above_the_width_are_dropped():
    cols = {c: [1] * 6 for c in range(8)}
    out = counter_level(cols, 8, 3)
    assert max(out) == 7 and _value(out) % 256 == _value(cols) % 256


def _check(unit, n, seed):
    vecs = unit.vectors(n, seed=seed)
    M = Montgomery(unit.F.p, 17)
    assert all(c == M.mul(a, b) for a, b, c in vecs)
    run = simulate_mul(unit, [(a, b) for a, b, _ in vecs])
    assert run.results == [c for _, _, c in vecs]
    assert run.latencies == [unit.latency] * len(vecs)


# tiny (T below R), one word, just over a word, a Mersenne prime, and odd segment/level choices:
# a segment of 2 bits, one counter level a register, segments longer than the words
@pytest.mark.parametrize("p,levels,segment", [
    (101, 5, 24), (65521, 1, 2), (131071, 2, 3), ((1 << 61) - 1, 5, 24), ((1 << 61) - 1, 1, 5),
    (2**89 - 1, 2, 7), (2**89 - 1, 6, 16),
])
def test_counter_unit_equals_the_model(p, levels, segment):
    unit = MontgomeryCounters(PrimeField(p), levels=levels, seg=segment)
    _check(unit, 12, seed=levels + segment)


def test_counter_unit_corrects_q_over_r():
    """q's two rows are not added before U = q'·p: their sum q' is q + R in some products, so
    t' = t + p, which the unit takes off.  That matters where t ≥ p, i.e. where p is close to R
    (here p = 2^102 − 33, R = 2^102): leaving the correction out fails some of these products."""
    unit = MontgomeryCounters(PrimeField((1 << 102) - 33), seg=23)
    _check(unit, 60, seed=9)


@pytest.mark.slow
@pytest.mark.parametrize("curve", ["bn254", "bls12-381"])
def test_counter_unit_equals_the_model_full_size(curve):
    unit = make_unit("montgomery-pipelined", params.curve(curve).F, segment=23)
    assert isinstance(unit, MontgomeryCounters)
    _check(unit, 6, seed=5)


def _random_prime(bits: int, seed: int) -> int:
    from pairhw.math.prime.field import is_probable_prime

    rng = random.Random(seed)
    while True:
        p = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if is_probable_prime(p):
            return p


# DSP cascades (--cascade N): tiny, one word, Mersenne primes (all-ones digits), p just below R
# (q' = q + R occurs), bn-chavez11-toy's 110-bit BN prime (digits that borrow) and random primes
# (even constant digits made odd, negative ones, runs of their own), runs of 2 to 8, one counter
# level a register and several
@pytest.mark.parametrize("p,levels,segment,chain", [
    (101, 5, 24, 2), (65521, 1, 2, 3), (131071, 2, 3, 4), ((1 << 61) - 1, 5, 24, 8),
    (2**89 - 1, 2, 7, 3), ((1 << 102) - 33, 5, 23, 8), (2**127 - 1, 5, 23, 5),
    (0x23FFFF9D000066BFFFD04800085F, 5, 23, 3), (_random_prime(100, 1), 5, 23, 4),
    (_random_prime(150, 2), 3, 11, 8), (_random_prime(77, 3), 1, 6, 2),
])
def test_cascade_unit_equals_the_model(p, levels, segment, chain):
    unit = MontgomeryCounters(PrimeField(p), levels=levels, seg=segment, chain=chain)
    _check(unit, 12, seed=chain + segment)


# two DSPs a register: runs of 2 to 8, odd and even lengths (a run's first DSP alone in its stage)
@pytest.mark.parametrize("p,chain", [
    (_random_prime(100, 4), 2), (_random_prime(130, 5), 3), (0x23FFFF9D000066BFFFD04800085F, 8),
    (_random_prime(160, 6), 5),
])
def test_cascade_two_dsps_a_register_equals_the_model(p, chain):
    unit = MontgomeryCounters(PrimeField(p), seg=23, chain=chain, step=2)
    assert unit.chain_stages == tuple(-(-s // 2) for s in MontgomeryCounters(PrimeField(p), seg=23,
                                                                            chain=chain).chain_stages)
    _check(unit, 12, seed=chain)


def test_cascade_runs_take_every_piece_once_and_end_together():
    """:func:`chains` at bls12-381's T = a·b in 24 × 16 pieces: every piece in one run, a run's
    pieces of one offset, at most N of them, and the longest run is the stage count; the columns
    the counters then reduce are a third as tall as the pieces' own (24 × 17, one a column)."""
    pieces = product_pieces(381, 381, 24, 16)[0]
    for n in (2, 4, 8):
        runs, stages = chains(pieces, n)
        taken = [pc for _, run in runs for pc in run]
        assert sorted(taken) == sorted(pieces) and len(taken) == len(pieces)
        assert all(pc[2] == off and len(run) <= n for off, run in runs for pc in run)
        assert stages == max(len(run) for _, run in runs) == n
        assert all(run_width(run) <= 48 for _, run in runs)  # a DSP48E1's P
    tall = max(product_heights(381, 381, 24, 17).values())
    assert max(product_heights(381, 381, 24, 16, chain=8).values()) * 3 <= tall


def test_cascade_latency_counts_its_runs():
    """bls12-381 with runs of 8: the pieces of T, q and U take 8 stages each (the input, 24, one
    counter stage each, the segments of t' and the result: 30); of 1, the unit without cascades."""
    F = params.curve("bls12-381").F
    unit = make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=8)
    assert unit.chain_stages == (8, 8, 8) and unit.reduce_stages == (1, 1, 1) and unit.latency == 30
    assert unit.describe()["cascade"] == 8
    one = make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=1)
    assert one.name == make_unit("montgomery-pipelined", F, segment=23, lut6=True).name and one.latency == 9
    with pytest.raises(KindError, match="cascade"):
        make_unit("montgomery-pipelined", F, cascade=4)
    with pytest.raises(KindError, match="cascade"):
        make_unit("montgomery-pipelined", F, segment=23, cascade=0)
    with pytest.raises(KindError, match="cascade_step"):
        make_unit("montgomery-pipelined", F, segment=23, cascade_step=2)
    two = make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=8, cascade_step=2)
    assert two.chain_stages == (4, 4, 4) and two.latency == 18


@pytest.mark.slow
@pytest.mark.parametrize("curve", ["bn254", "bls12-381"])
def test_cascade_unit_equals_the_model_full_size(curve):
    unit = make_unit("montgomery-pipelined", params.curve(curve).F, segment=23, cascade=8)
    _check(unit, 6, seed=7)


def test_counter_unit_latency_and_catalogue():
    """At the real sizes, with the default 5 counter levels a register: for each of T, q and U
    (with t's terms) its pieces and one counter stage (six: no carry runs between the products),
    the input, the segments of t' and the result (three): the adder tree's latency at 6 levels."""
    for curve in ("bn254", "bls12-381"):
        F = params.curve(curve).F
        unit = make_unit("montgomery-pipelined", F, segment=23)
        assert unit.reduce_stages == (1, 1, 1) and unit.latency == 9
        assert unit.describe()["seg"] == 23 and unit.initiation_interval == 1
        assert MontgomeryPipelined(F, levels=6).latency == 9
    with pytest.raises(KindError, match="segment"):
        make_unit("montgomery-pipelined", params.curve("bn254").F, segment=1)


# the counters left to ABC (lut6 False) build the same core around the unit: `slow`, the unit's own
# simulations cover both structures by default
@pytest.mark.parametrize("lut6", [pytest.param(False, marks=pytest.mark.slow), True])
def test_a_core_on_the_counter_unit_is_bit_exact_in_verilator(lut6):
    """ate-bn-tiny with the counter unit (latency 8 where the adder tree's is 6): its schedule counts
    the new latency, and the core in Verilator equals the golden pairing in constant cycles; with
    ``lut6`` its counters are LUT6 primitives, whose model the test bench carries."""
    import json

    from pairhw import designs, flow

    data = json.loads(designs.source("ate-bn-tiny"))
    data["name"] = "ate-bn-tiny-segment" + ("-lut6" if lut6 else "")
    for u in data["datapath"]["units"]:
        if u["kind"] == "mul":
            u["mul"] = {"kind": "montgomery-pipelined", "segment": 5, "levels": 1, **({"lut6": True} if lut6 else {})}
    d = designs.from_data(data)
    assert d.core().cycles > flow.design("ate-bn-tiny").core().cycles
    sim = flow.simulate(d, n=4, seed=3)
    assert (sim.verified, sim.failed, sim.constant_time) == (4, 0, True)


@pytest.mark.slow  # 70 s; by default the cascade unit's own simulations and the core on the counter unit
def test_a_core_on_the_cascade_unit_is_bit_exact_in_verilator():
    """A 110-bit BN core (ate-bn-chavez11-toy's curve and adders) on the cascade unit (runs of 3,
    counters as LUT6 primitives): its schedule counts the runs' stages, and the core in Verilator
    equals the golden pairing in constant cycles."""
    import json

    from pairhw import designs, flow

    data = json.loads(designs.source("ate-bn-chavez11-toy"))
    data["name"] = "ate-bn-chavez11-toy-cascade"
    for u in data["datapath"]["units"]:
        if u["kind"] == "mul":
            u["mul"] = {"kind": "montgomery-pipelined", "segment": 23, "lut6": True, "cascade": 3}
    d = designs.from_data(data)
    unit = d.core().dp.mul_unit
    assert unit.chain_stages == (3, 3, 3)
    assert unit.latency == make_unit("montgomery-pipelined", unit.F, segment=23).latency + 3 * 2
    sim = flow.simulate(d, n=3, seed=5)
    assert (sim.verified, sim.failed, sim.constant_time) == (3, 0, True)


@pytest.mark.parametrize("p,lut6", [
    pytest.param((1 << 61) - 1, False, id="61-bit", marks=pytest.mark.slow),  # the LUT6 one by default
    pytest.param((1 << 61) - 1, True, id="61-bit-lut6"),
    # measured with the counters left to ABC9: 9 between registers at bn254 (it re-cuts the kept
    # counter levels), 8 with them as LUT6 primitives
    pytest.param("bn254", True, id="bn254-lut6", marks=pytest.mark.slow),
    pytest.param("bls12-381", True, id="bls12-381-lut6", marks=pytest.mark.slow),
])
def test_counter_unit_depth_is_bounded_on_xc7(p, lut6):
    """Yosys xc7: at most 8 LUT and CARRY4 levels between registers (the adder-tree unit: 61 at
    89 bits, 125 at bn254), the DSP48E1s' own registers cutting the path as flip-flops do."""
    from pairhw import flow
    from pairhw.synth.flows import synthesize

    F = params.curve(p).F if isinstance(p, str) else PrimeField(p)
    unit = make_unit("montgomery-pipelined", F, segment=23, lut6=lut6)
    x = synthesize(flow.unit_verilog(unit), unit.name, "xc7")
    assert x["depth_dsp_cut"] <= 8 and x["depth_dsp_cut"] <= x["depth"]
    assert 0 < x["dsp"] <= unit.pieces


# DSP adders (--dsp-adders A): pairs of runs of one offset summed by a DSP48E1 as an adder
def test_paired_runs_take_every_run_once_and_pair_only_one_offset():
    """:func:`pair_runs` at bls12-381's T = a·b (runs of 2): every run in exactly one group, a pair's
    two runs of one offset, as many pairs as asked up to those there are, none below ``floor``, and a
    pair's sum within a DSP48E1's 48 bits."""
    pieces = product_pieces(381, 381, 24, 16)[0]
    runs, _ = chains(pieces, 2)
    assert run_pairs(runs) == 84
    for want, floor in ((0, 0), (1, 0), (40, 0), (84, 0), (500, 0), (500, 391)):
        groups = pair_runs(runs, want, floor)
        flat = [id(run) for _, g in groups for run in g]
        assert sorted(flat) == sorted(id(run) for _, run in runs)
        pairs = [(off, g) for off, g in groups if len(g) == 2]
        assert len(pairs) == min(want, run_pairs(runs, floor))
        assert all(off == g[0][0][2] == g[1][0][2] and off + run_width(g[0]) > floor and off + run_width(g[1]) > floor
                   for off, g in pairs)
        assert all(group_width(g) <= DSP_ADD_BITS for _, g in groups)
    # the heights count a pair's sum once: a column holds a row fewer where a pair starts
    paired = product_heights(381, 381, 24, 16, chain=2, pairs=84)
    single = product_heights(381, 381, 24, 16, chain=2)
    assert sum(single.values()) - sum(paired.values()) >= 84 * 39


@pytest.mark.parametrize("p,chain,adders", [
    (2**89 - 1, 2, 1), (2**89 - 1, 2, 1_000), (_random_prime(110, 4), 2, 5), (_random_prime(110, 4), 2, 1_000),
    ((1 << 102) - 33, 2, 1_000),
])
def test_dsp_adder_unit_equals_the_model(p, chain, adders):
    """The cascade unit with pairs of its runs summed (the sums as additions: the Amaranth simulator
    has no DSP48E1), none to every pair there is: the golden model's products in the same latency."""
    F = PrimeField(p)
    plain = MontgomeryCounters(F, seg=23, chain=chain)
    try:
        unit = MontgomeryCounters(F, seg=23, chain=chain, adders=adders)
    except ValueError as e:  # more than there are: the most there are
        n = int(str(e).split("between 0 and ")[1].split(" ")[0])
        assert adders > n
        unit = MontgomeryCounters(F, seg=23, chain=chain, adders=n)
    assert sum(unit.pairs) > 0 and unit.latency == plain.latency
    _check(unit, 12, seed=chain + sum(unit.pairs))


def test_dsp_adders_are_refused_where_there_is_no_cascade_or_cell():
    F = params.curve("bls12-381").F
    for opts in ({"segment": 23, "lut6": True, "dsp_adders": 4}, {"segment": 23, "cascade": 2, "dsp_adders": 4},
                 {"dsp_adders": 4}):
        with pytest.raises(KindError, match="dsp_adders"):
            make_unit("montgomery-pipelined", F, **opts)
    with pytest.raises(KindError, match="between 0 and 182"):
        make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=2, cascade_step=2, dsp_adders=183)
    unit = make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=2, cascade_step=2, dsp_adders=173)
    assert unit.pairs == [84, 39, 50] and unit.describe()["dsp_adders"] == 173 and unit.latency == 9


def test_a_dsp_adder_unit_is_bit_exact_in_verilator():
    """With lut6 the pairs' sums are DSP48E1 primitives, whose model the test bench carries: a
    110-bit unit with every pair there is equals the golden model in Verilator."""
    from pairhw import flow

    unit = make_unit("montgomery-pipelined", PrimeField(_random_prime(110, 4)), segment=23, lut6=True, cascade=2,
                     cascade_step=2, dsp_adders=5)
    assert "DSP48E1" in flow.unit_verilog(unit)
    check = flow.verify_unit(unit, 12, seed=3, simulator="verilator")
    assert (check.verified, check.failed) == (22, 0)


@pytest.mark.slow  # a minute: Yosys xc7 on the full-size unit
def test_dsp_adders_keep_the_depth_and_add_their_dsps_on_xc7():
    """Yosys xc7 at bls12-381 with 173 DSP adders: still at most 8 LUT and CARRY4 levels between
    registers (an adder is one cell before the counters), DSP48E1s 827 + 173, fewer LUTs."""
    from pairhw import flow
    from pairhw.synth.flows import synthesize

    F = params.curve("bls12-381").F
    unit = make_unit("montgomery-pipelined", F, segment=23, lut6=True, cascade=2, cascade_step=2, dsp_adders=173)
    x = synthesize(flow.unit_verilog(unit), unit.name, "xc7")
    assert x["depth_dsp_cut"] <= 8 and x["dsp"] == 1_000 and x["luts"] < 19_000
