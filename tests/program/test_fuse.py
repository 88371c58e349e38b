"""Power fusion: chains of squarings and square roots re-cut into the k-fold powers of the units,
with the interpreted result unchanged, and the k-fold power units exact in the microcode model and
in hardware."""

import itertools

import pytest
from amaranth.sim import Simulator

from pairhw.fields import of
from pairhw.math.binary import pairing as pr
from pairhw.program.datapath import DatapathError, build_datapath
from pairhw.program.engine import compile_flow
from pairhw.program.fuse import decompose, fuse_powers
from pairhw.program.loop import fold_loop
from pairhw.program.lower import lower
from pairhw.program.trace import trace_pairing
from pairhw.rtl.binary.powers import PowerUnit

from ..conftest import curve, random_point


def spec(sqr=(1,), sqrt=(1,)):
    return {"units": [{"name": "mul", "kind": "mul", "mul": {"kind": "karatsuba"}},
                      {"name": "add", "kind": "add"}, {"name": "sqr", "kind": "sqr", "k": list(sqr)},
                      {"name": "sqrt", "kind": "sqrt", "k": list(sqrt)}, {"name": "const", "kind": "const"}]}


@pytest.mark.parametrize("ks", [(1,), (1, 2), (1, 2, 4), (4, 1), (1, 3, 7)])
def test_decompose_is_exact_and_minimal(ks):
    for n in range(1, 40):
        parts = decompose(n, ks)
        assert sum(parts) == n and set(parts) <= set(ks)
        fewest = min(r for r in range(1, n + 1)
                     if any(sum(c) == n for c in itertools.combinations_with_replacement(ks, r)))
        assert len(parts) == fewest


def test_decompose_refuses_an_impossible_power():
    with pytest.raises(DatapathError, match="a power of 3 steps, which no sum"):
        decompose(3, (2, 4))


def _flow(name="f2-79"):
    C = curve(name)
    return C, lower(fold_loop(trace_pairing(of(C.F), C, pr.etat_adikari12)))


def _powers(flow):
    """Per block and kind: the total exponent (Σ k) and the op count."""
    out = {}
    for blk, ops in flow.blocks():
        for kind in ("sqr", "sqrt"):
            ks = [op.k for op in ops if op.kind == kind]
            out[blk, kind] = (sum(ks), len(ks))
    return out


@pytest.mark.parametrize("sqr,sqrt", [((1, 2, 4), (1, 2, 4)), ((1, 4), (1,)), ((1, 3), (1, 2))])
def test_fused_flow_computes_the_same_pairing(sqr, sqrt, rng):
    C, flow = _flow()
    dp = build_datapath(of(C.F), spec(sqr, sqrt))
    fused = fuse_powers(flow, dp, balance=False)
    balanced = fuse_powers(flow, dp)
    before, after = _powers(flow), _powers(fused)
    for key, (total, n) in before.items():
        assert after[key][0] == total  # the same power, in fewer ops
        assert after[key][1] <= n
    assert sum(n for _, n in after.values()) < sum(n for _, n in before.values())
    for op in (op for _, ops in fused.blocks() for op in ops if op.kind in ("sqr", "sqrt")):
        assert op.k in (sqr if op.kind == "sqr" else sqrt)
    for _ in range(3):
        P, Q = random_point(C, rng), random_point(C, rng)
        args = {"xP": P[0], "yP": P[1], "xQ": Q[0], "yQ": Q[1]}
        assert fused.run(args) == balanced.run(args) == flow.run(args) == list(pr.etat_adikari12(C, P, Q))


def test_the_final_exponentiation_square_roots_become_quarter_chains():
    """Seed 000 Alg. 2 step 5: four independent chains of 611 square roots at m = 1223; with
    powers {1, 2, 4} each is 152 × 2^-4, one 2^-2 and one 2^-1 (154 ops)."""
    C, flow = _flow("f2-1223")
    dp = build_datapath(of(C.F), spec((1, 2, 4), (1, 2, 4)))
    fused = fuse_powers(flow, dp, balance=False)
    before = [op.k for op in flow.post if op.kind == "sqrt"]
    after = [op.k for op in fused.post if op.kind == "sqrt"]
    assert before.count(1) == len(before) == 4 * 611 + 2
    assert (after.count(4), after.count(2), after.count(1)) == (4 * 152, 4, 4 + 2)


def test_balance_moves_two_of_the_four_chains_to_the_squarer():
    """x^(2^-611) = x^(2^612) in F_2^1223: two chains become 153 × 2^4 on the squarer, so the four
    run two by two; the square-root unit keeps two chains of 154 ops."""
    C, flow = _flow("f2-1223")
    dp = build_datapath(of(C.F), spec((1, 2, 4), (1, 2, 4)))
    plain = fuse_powers(flow, dp, balance=False)
    fused = fuse_powers(flow, dp)
    ks = lambda f, kind: [op.k for op in f.post if op.kind == kind]  # noqa: E731
    assert ks(fused, "sqrt").count(4) == 2 * 152
    assert ks(fused, "sqr").count(4) == ks(plain, "sqr").count(4) + 2 * 153
    assert compile_flow(flow, dp).microcode.cycles < compile_flow(flow, dp, balance=False).microcode.cycles - 250


def test_values_read_elsewhere_end_a_chain():
    """Fusion never removes a value another op, the loop or the outputs read."""
    C, flow = _flow()
    fused = fuse_powers(flow, build_datapath(of(C.F), spec((1, 2, 4), (1, 2, 4))))
    defined = set(fused.inputs) | set(fused.final) | {op.dst for _, ops in fused.blocks() for op in ops}
    read = {s for _, ops in fused.blocks() for op in ops for s, _ in op.srcs}
    assert read | set(fused.outputs) | set(fused.init.values()) | set(fused.final.values()) <= defined


def test_a_datapath_without_the_power_is_refused():
    C, flow = _flow()
    with pytest.raises(DatapathError, match="which no sum of the power units"):
        fuse_powers(flow, build_datapath(of(C.F), spec((2,), (1,))))


@pytest.mark.parametrize("bad", [[0], [1, 1], "2", [True]])
def test_bad_k_is_refused(bad):
    s = spec()
    s["units"][2]["k"] = bad
    with pytest.raises(DatapathError):
        build_datapath(of(curve("f2-17").F), s)


def test_multi_power_microcode_computes_the_pairing(rng):
    C, flow = _flow()
    cp = compile_flow(flow, build_datapath(of(C.F), spec((1, 2, 4), (1, 2, 4))))
    plain = compile_flow(flow, build_datapath(of(C.F), spec()))
    assert "sqr.k" in dict(cp.microcode.fields) and "sqr.k" not in dict(plain.microcode.fields)
    assert cp.microcode.cycles < plain.microcode.cycles
    for _ in range(2):
        P, Q = random_point(C, rng), random_point(C, rng)
        out, cycles = cp.microcode.run([*P, *Q])
        assert tuple(out) == tuple(pr.etat_adikari12(C, P, Q)) and cycles == cp.microcode.cycles


@pytest.mark.parametrize("kind", ["sqr", "sqrt"])
def test_power_unit_is_bit_exact(kind, rng):
    F = curve("f2-79").F
    ks = (1, 2, 4)
    unit = PowerUnit(F, kind, ks)
    vals = [0, 1, (1 << F.m) - 1, 1 << (F.m - 1)] + [rng.getrandbits(F.m) for _ in range(8)]
    ref = F.sqr_k if kind == "sqr" else F.sqrt_k

    async def tb(ctx):
        for v in vals:
            for sel, k in enumerate(ks):
                ctx.set(unit.a, v)
                ctx.set(unit.sel, sel)
                assert ctx.get(unit.c) == ref(v, k) == unit.emulate(v, sel)

    sim = Simulator(unit)
    sim.add_testbench(tb)
    sim.run()
    assert unit.xor_count == sum(PowerUnit(F, kind, (k,)).xor_count for k in ks)
