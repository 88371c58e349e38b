"""The engine end to end in Python: lowering is exact, and the assembled microcode, run by its
cycle-exact model, computes the golden model's pairing in a constant number of cycles."""

import json
import math
from fractions import Fraction

import pytest

from pairhw.fields import of
from pairhw import designs
from pairhw.math.binary import pairing as pr
from pairhw.program.loop import fold_loop
from pairhw.program.lower import lower
from pairhw.program.trace import trace_pairing

from ..conftest import curve, long_programs_slow, random_point


@pytest.mark.parametrize("name,alg", [("f2-17", pr.etat), ("f2-47", pr.etat), ("f2-79", pr.etat_adikari12)])
def test_lowered_flow_equals_model(name, alg, rng):
    C = curve(name)
    flow = lower(fold_loop(trace_pairing(of(C.F), C, alg)))
    assert not any(op.kind in ("addc", "mulc") for _, ops in flow.blocks() for op in ops)
    for _ in range(3):
        P, Q = random_point(C, rng), random_point(C, rng)
        assert tuple(flow.run({"xP": P[0], "yP": P[1], "xQ": Q[0], "yQ": Q[1]})) == tuple(alg(C, P, Q))


#: full-size prime pairings interpreted word by word (19 s for BN254) are slow, as every long program
#: (conftest.LONG_PROGRAMS); ate-bn-tiny and ate-bn-tiny-small run by default
@pytest.mark.parametrize("name", long_programs_slow([n for n in designs.names() if not designs.get(n).is_asip]))
def test_design_microcode_computes_the_pairing(name, rng):
    """Every engine design (the word-serial ASIP designs: tests/rtl/binary/test_asip.py)."""
    d = designs.get(name)
    cp = d.compile()
    C, fi = d.curve(), d.field
    for i in range(5 if fi.width <= 200 else 1):  # the microcode interpreter is slow at full size
        P, Q = fi.vector_points(C, rng.randrange(1000), i)
        out, cycles = cp.run(fi.point_values(P, Q))  # the program's run (a check core's one output)
        assert tuple(out) == tuple(d.model(P, Q))
        assert cycles == cp.microcode.cycles
    rep = cp.report()
    muls = cp.dp.units_for("mul")
    rate = sum(Fraction(u.count * u.lanes, u.ii) for u in muls)  # products a cycle at full throughput
    assert rep["cycles"] >= rep["multiplier_bound"] == math.ceil(rep["products"] / rate)
    if len(muls) == 1 and muls[0].count == 1:
        assert rep["multiplier_bound"] == rep["products"] * rep["multiplier"]["ii"]
    assert rep["loop"]["ii"] >= rep["loop"]["mii"] >= rep["loop"]["body_multiplier_bound"]
    if rep["loop"]["trips"]:  # the loop is stored once (the prime pairings' NAF loops do not fold yet)
        assert rep["microcode"]["words"] < rep["cycles"]


def test_banked_design_respects_connectivity():
    d = designs.get("f2-47-etat-banked")
    cp = d.compile()
    reg = cp.alloc.reg
    muls = [op for _, ops in cp.flow.blocks() for op in ops if op.kind == "mul"]
    assert muls and all(reg[op.srcs[0][0]][0] == "a" for op in muls)
    assert cp.alloc.used["a"] > 0 and cp.alloc.used["b"] > 0


def test_listing_shows_the_loop():
    cp = designs.get("f2-79-etat-karatsuba").compile()
    text = cp.microcode.listing("x")
    assert f"loop {cp.microcode.loop.count} times {{" in text and "mul" in text
    assert "; -- loop × 18" in cp.flow.listing()


def test_a_kernel_compiles_to_straight_line_microcode(rng):
    """compile_kernel: one F_2^m inversion and one F_{2^4m} product alone on a design's datapath."""
    from pairhw.math.binary.tower import Tower
    from pairhw.program.engine import compile_kernel

    d = designs.get("f2-79-etat-tmvp3")
    F, dp = d.curve().F, d.datapath()
    inv = compile_kernel(1, lambda T, a: (T.inv(a),), dp)
    mul4 = compile_kernel(8, lambda T, *a: Tower(T).mul4(a[:4], a[4:]), dp)
    assert inv.microcode.loop is None and inv.flow.trips == 0
    assert inv.report()["products"] == sum(op.kind == "mul" for op in inv.flow.pre) > 0
    for _ in range(3):
        a = [rng.getrandbits(F.m) or 1 for _ in range(8)]
        assert inv.microcode.run(a[:1]) == ([F.inv(a[0])], inv.microcode.cycles)
        out, _ = mul4.microcode.run(a)
        assert tuple(out) == tuple(Tower(F).mul4(tuple(a[:4]), tuple(a[4:])))
    assert mul4.report()["products"] == 9  # seed 000 §4: Karatsuba-like F_{2^4m} product, 9 Mul


def test_writes_each_puts_every_result_in_its_instances_bank():
    """etat3-97-fast: adder instance i writes bank a or b (its own RAM), never the other adder's, the
    multiplier m; the loop-carried values and the other units' results go to the shared RAM r."""
    d = designs.get("etat3-97-fast")
    cp = d.compile()
    dp, reg = cp.dp, cp.alloc.reg
    shared = cp.flow.carried()
    for ops, sch in ((cp.flow.pre, cp.pre), (cp.flow.body, cp.loop), (cp.flow.post, cp.post)):
        for i, op in enumerate(ops):
            u = dp.unit_for(op.kind, op.k)
            own = {"add": ("a", "b"), "mul": ("m",)}.get(u.kind)
            # r is a RAM with one write port: only the loop-carried values (counted by the scheduler)
            want = {"r"} if not own or op.dst in shared else {own[sch.inst[i]]}
            assert reg[op.dst][0] in want, (op, sch.inst[i], reg[op.dst])
    assert all(cp.alloc.used[b] > 0 for b in ("m", "a", "b", "r"))
    assert cp.microcode.run([*d.curve().point_from_seed(1), *d.curve().point_from_seed(2)])[1] == cp.microcode.cycles


def test_connections_are_the_registers_the_words_use():
    """:meth:`Microcode.connections` (what ``"connect": "program"`` builds): every register a port
    reads holds a value (an input, or a unit writes it), every output too, and on seed 001's
    test-size Tate core (18 writers, 52 registers) they are under half of every register to every
    port."""
    from pairhw.program.microcode import instances

    mc = designs.get("tate1-47-d4").compile().microcode
    writes, reads = mc.connections()
    held = set(writes) | set(mc.inputs)
    assert all(r in held for regs in reads.values() for r in regs)
    assert all(r in held for r in mc.outputs)
    n_regs = sum(mc.sizes.values())
    assert sum(map(len, writes.values())) < len(instances(mc.dp)) * n_regs / 2
    assert sum(map(len, reads.values())) < len(reads) * n_regs / 2
    assert all(len(ps) >= 1 for ps in writes.values())


# tate1-47-d4's first-fit twin is a second lanes compile (13 s): slow; ate-bn-tiny's runs by default
@pytest.mark.parametrize("name", [pytest.param("tate1-47-d4", marks=pytest.mark.slow), "ate-bn-tiny"])
def test_a_program_connected_core_gets_registers_that_keep_connections_few(name):
    """With ``"connect": "program"`` the allocator gives each value the free register its readers
    and writer already reach: the same schedule and the same number of registers as first fit,
    and at least a fifth fewer connections, reads and writes each (tate1-47-d4: 368 reads and 178
    writes against 509 and 282; ate-bn-tiny: 2,092 and 957 against 2,962 and 1,577)."""
    data = json.loads(json.dumps(designs.get(name).data))
    assert data["datapath"]["connect"] == "program"
    data["datapath"]["connect"] = "any"
    chosen, first_fit = designs.get(name).compile(), designs.from_data(data).compile()
    assert chosen.microcode.cycles == first_fit.microcode.cycles
    assert chosen.alloc.used == first_fit.alloc.used
    (w1, r1), (w0, r0) = chosen.microcode.connections(), first_fit.microcode.connections()
    count = lambda conns: sum(map(len, conns.values()))  # noqa: E731
    assert count(r1) <= 0.8 * count(r0) and count(w1) <= 0.8 * count(w0), (count(r1), count(r0),
                                                                          count(w1), count(w0))
    # both compute the pairing: test_design_microcode_computes_the_pairing (the chosen design)


@pytest.mark.parametrize("units,msg", [
    ([{"name": "add", "kind": "add", "count": 2, "writes_each": ["a"]}], "one bank per instance"),
    ([{"name": "add", "kind": "add", "count": 2, "writes_each": ["a", "r"]}], "must be RAMs"),
    ([{"name": "add", "kind": "add", "count": 2, "writes_each": ["a", "b"], "writes": ["r", "c"]}],
     "only shared bank"),
    ([{"name": "add", "kind": "add", "count": 2, "writes_each": ["a", "a"]}], "belongs to one unit instance"),
    ([{"name": "add", "kind": "add", "count": 2, "writes_each": ["a", "b"], "writes": ["r"]},
      {"name": "cube", "kind": "cube", "writes": ["a"]}], "belongs to one unit instance"),
])
def test_writes_each_is_checked(units, msg):
    from pairhw.program.datapath import DatapathError, build_datapath

    C = curve("f3-19")
    spec = {"banks": [{"name": "a", "write_ports": 1}, {"name": "b", "write_ports": 1}, {"name": "r"},
                      {"name": "c", "write_ports": 1}],
            "units": [{"name": "mul", "kind": "mul", "mul": {"kind": "schoolbook"}}, *units]}
    with pytest.raises(DatapathError, match=msg):
        build_datapath(of(C.F), spec)
