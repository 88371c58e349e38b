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


# -- three-operand additions (F_p's add3 units) ----------------------------------------------------


def _sums(flow):
    return {kind: sum(op.kind == kind for op in flow.pre) for kind in ("add", "sub", "add3", "addsub", "sub2")}


@pytest.mark.parametrize("outer,inner,first", list(itertools.product(("add", "sub"), ("add", "sub"), (True, False))))
def test_each_chain_of_two_additions_folds_into_one_op_of_the_same_value(outer, inner, first):
    """(x ± y) ± z and z ± (x ± y), all eight: one op x + y ± z or x − y − z (its first operand always
    added) of the same value, for operands spanning F_p (0, 1, p − 1)."""
    from pairhw.fields.prime import PrimeFieldInterface
    from pairhw.math.prime.field import PrimeField
    from pairhw.program.fuse import _ternary
    from pairhw.program.lower import LOp

    fi = PrimeFieldInterface(PrimeField(101))
    inner_op = LOp("v", inner, (("x", 0), ("y", 0)))
    outer_op = LOp("w", outer, (("v", 0), ("z", 0)) if first else (("z", 0), ("v", 0)))
    kind, srcs = _ternary(outer_op, inner_op, first)
    assert kind in fi.TERNARY and sorted(s for s, _ in srcs) == ["x", "y", "z"]
    for x, y, z in itertools.product((0, 1, 100, 37), repeat=3):
        env = {"x": x, "y": y, "z": z}
        env["v"] = fi.apply(inner, (x, y))
        want = fi.apply(outer, (env["v"], z) if first else (z, env["v"]))
        assert fi.apply(kind, [env[s] for s, _ in srcs]) == want


def _tiny_flow(adder="add3", calls=None):
    from pairhw import designs
    from pairhw.program.calls import step_of
    from pairhw.program.engine import native_ops
    from pairhw.program.fuse import fuse_additions

    data = designs.get("ate-bn-tiny").data
    d = designs.from_data({**data, "datapath": {**data["datapath"], "units": [
        {**u, "kind": adder} if u["kind"] == "add" else u for u in data["datapath"]["units"]]}})
    dp = d.datapath()
    program = trace_pairing(dp.F, d.curve(), d.field.algorithm(d.algorithm), native=native_ops(dp))
    flow = lower(fold_loop(program))
    steps = step_of(program, flow.pre) if calls else None
    return d, flow, fuse_additions(flow, dp, steps), steps


def test_additions_fold_only_for_a_three_operand_adder_and_keep_the_pairing(rng):
    """With an add3 unit a third of ate-bn-tiny's additions and subtractions fold into their one
    reader (each op then of at most three operands); the interpreted flow gives the same pairing
    values; with a two-operand adder the flow is left as it is."""
    d, flow, fused, _ = _tiny_flow()
    before, after = _sums(flow), _sums(fused)
    n_before = before["add"] + before["sub"]
    n_after = sum(after.values())
    assert after["add3"] and after["addsub"] and after["sub2"]
    assert n_after < 0.8 * n_before
    assert len(flow.pre) - len(fused.pre) == n_before - n_after  # one op fewer per fold
    assert all(len(op.srcs) <= 3 for op in fused.pre)
    fi = d.field
    for i in range(3):
        P, Q = fi.vector_points(d.curve(), 7, i)
        values = dict(zip(flow.inputs, fi.point_values(P, Q)))
        assert fused.run(values) == flow.run(values) == list(d.model(P, Q))
    _, plain, same, _ = _tiny_flow("add")
    assert same is plain


def test_a_value_read_twice_or_in_another_step_is_not_folded():
    """A fold removes its inner op: never one whose value another op or an output also reads, nor,
    with calls, one of another step than its reader's (each step keeps its ops); on ate-bn-tiny's
    flow and on a hand-made one."""
    from collections import Counter

    from pairhw.program.fuse import fuse_additions
    from pairhw.program.lower import Flow, LOp

    d, flow, fused, _ = _tiny_flow()
    readers = Counter(s for op in flow.pre for s, _ in op.srcs)
    gone = {op.dst for op in flow.pre} - {op.dst for op in fused.pre}
    assert gone and all(readers[v] == 1 and v not in flow.outputs for v in gone)

    def op(dst, kind, *srcs):
        return LOp(dst, kind, tuple((s, 0) for s in srcs))

    pre = [op("s", "add", "x", "y"), op("t", "sub", "s", "z"),  # folds: t = x + y − z
           op("u", "add", "x", "z"), op("v", "add", "u", "y"), op("w", "sub", "u", "t"),  # u read twice
           op("e", "sub", "x", "y"), op("f", "add", "z", "e"),  # e in step 0, f in step 1
           op("o", "add", "y", "y"), op("g", "add", "o", "x")]  # o an output
    hand = Flow(flow.F, ["x", "y", "z"], pre, [], 0, {}, {}, [], ["t", "v", "w", "f", "g", "o"])
    steps = [0, 0, 0, 0, 0, 0, 1, 1, 1]
    out = fuse_additions(hand, d.datapath(), steps)
    assert [(o.dst, o.kind) for o in out.pre] == [("t", "addsub"), ("u", "add"), ("v", "add"), ("w", "sub"),
                                                  ("e", "sub"), ("f", "add"), ("o", "add"), ("g", "add")]
    assert [(o.dst, o.kind) for o in fuse_additions(hand, d.datapath()).pre if o.dst == "f"] == [("f", "addsub")]
    values = {"x": 5, "y": 90, "z": 17}
    assert out.run(values) == hand.run(values)
