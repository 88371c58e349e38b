"""The engine over F_3^m: seed 004's ηT traced, folded, lowered, scheduled and assembled through the
field interface, exact against the golden model at every stage."""


import pytest

from pairhw import designs, params
from pairhw.vectors import points as vector_points
from pairhw.fields import of
from pairhw.math import opcount
from pairhw.math.ternary import pairing as pr3
from pairhw.program.datapath import DatapathError, build_datapath
from pairhw.program.engine import compile_pairing
from pairhw.program.loop import fold_loop
from pairhw.program.lower import lower
from pairhw.program.trace import trace_pairing

from ..conftest import random_point


@pytest.fixture(scope="module")
def f319():
    return params.curve("f3-19")


def test_trace_fold_lower_are_exact(f319, rng):
    C, fi = f319, of(f319.F)
    prog = trace_pairing(fi, C, pr3.etat)
    lp = fold_loop(prog)
    flow = lower(lp)
    assert lp.trips == (C.F.m - 1) // 2 - 1  # iteration 0 (no point update) and 1 are the prologue
    for _ in range(4):
        P, Q = random_point(C, rng), random_point(C, rng)
        want = list(pr3.etat(C, P, Q))
        vals = dict(zip(prog.inputs, [*P, *Q]))
        assert prog.run(vals) == want
        assert lp.run(vals) == want
        assert flow.run(vals) == want


def test_unoptimised_trace_has_the_models_operations(f319):
    """Without sharing, the program has opcount's cubings and cube roots and 17 products in every
    loop iteration after the first; the only products it drops are those of the first iterations
    whose operand is a known constant (R starts sparse: its zero and one coefficients fold)."""
    C = f319
    prog = trace_pairing(of(C.F), C, pr3.etat, optimize=False)
    c = prog.counts()
    counted = opcount.count_pairing3(C, pr3.etat, *vector_points(C, 1, 0)).total()
    assert c["cube"] == counted["cube"] and c["cbrt"] == counted["cbrt"]
    iterations = (C.F.m - 1) // 2 + 1
    loop = prog.counts("miller/loop")["mul"]
    assert 17 * (iterations - 1) < loop < 17 * iterations
    assert c["mul"] + c["mulc"] == counted["mul"] - (17 * iterations - loop)


def test_negations_feeding_additions_become_subtractions(f319):
    """Products by −1 are free: a + (−b) is traced as a − b, −(−a) as a, a − a as 0."""
    fi = of(f319.F)
    TF = fi.tracer()
    a, b = TF.input("a"), TF.input("b")
    assert TF.add(a, TF.neg(b)).name == TF.sub(a, b).name
    assert TF.neg(TF.neg(a)) is a
    assert TF.sub(a, a) == 0
    assert TF.mul(a, fi.F.neg(1)).name == TF.neg(a).name
    kinds = [op.kind for op in TF.program.ops]
    assert kinds.count("sub") == 1 and "add" not in kinds


def test_design_microcode_is_exact_and_constant_time(rng):
    d = designs.get("f3-19-etat-schoolbook")
    cp = d.compile()
    C = d.curve()
    for i in range(4):
        P, Q = vector_points(C, 7, i)
        out, cycles = cp.microcode.run([*P, *Q])
        assert out == d.model(P, Q)
        assert cycles == cp.report()["cycles"]
    rep = cp.report()
    assert rep["loop"]["body_products"] == 17  # seed 004: 17 products per iteration
    assert rep["loop"]["ii"] >= rep["loop"]["mii"] >= 17


def test_ternary_datapath_knows_its_unit_kinds(f319):
    fi = of(f319.F)
    with pytest.raises(DatapathError, match="unknown kind 'sqr'.*cube"):
        build_datapath(fi, {"units": [{"name": "s", "kind": "sqr"}]})
    with pytest.raises(DatapathError, match="only power units"):
        build_datapath(fi, {"units": [{"name": "a", "kind": "add", "k": [1, 2]}]})
    dp = build_datapath(fi, {"units": [{"name": "mul", "kind": "mul", "mul": {"kind": "schoolbook"}},
                                      {"name": "add", "kind": "add"}, {"name": "cube", "kind": "cube", "k": [1, 2]},
                                      {"name": "cbrt", "kind": "cbrt"}, {"name": "const", "kind": "const"}]})
    assert dp.unit_for("sub").name == dp.unit_for("neg").name == "add"
    assert dp.io_beats == 1 and fi.width == 38
    cp = compile_pairing(f319, pr3.etat, dp)
    P, Q = vector_points(f319, 2, 0)
    assert cp.microcode.run([*P, *Q])[0] == list(pr3.etat(f319, P, Q))
    assert any(name.endswith(".op") for name, _ in cp.microcode.fields)


def test_f3_97_compiles_with_seed004_loop(rng):
    """Seed 004's own field: 48 iterations in the loop at 17 products each, exact on a pairing."""
    C = params.curve("f3-97")
    d = designs.get("f3-19-etat-schoolbook")
    dp = build_datapath(of(C.F), d.data["datapath"])
    cp = compile_pairing(C, pr3.etat, dp)
    rep = cp.report()
    assert rep["loop"]["trips"] == 47 and rep["loop"]["body_products"] == 17
    P, Q = vector_points(C, 1, 0)
    out, cycles = cp.microcode.run([*P, *Q])
    assert out == list(pr3.etat(C, P, Q)) and cycles == rep["cycles"]


def test_etat3_97_fast_keeps_the_pipelined_multiplier_busy():
    """Beuchat et al.'s claim on our engine: 17 cycles per Miller iteration on one 5-stage pipelined
    multiplier, the whole pairing within 2,000 cycles (freecores/pairing: 75,812) and the multiplier
    busy at least 70 % of the time; exact on a pairing."""
    d = designs.get("etat3-97-fast")
    cp = d.compile()
    rep = cp.report()
    assert rep["multiplier"] == {"latency": 5, "ii": 1, "count": 1}
    assert rep["loop"]["cycles_per_iteration"] == 17 == rep["loop"]["ii"] == rep["loop"]["body_products"]
    assert rep["cycles"] <= 2000 and rep["multiplier_utilisation"] >= 0.7
    C = d.curve()
    P, Q = vector_points(C, 3, 0)
    out, cycles = cp.microcode.run([*P, *Q])
    assert out == list(pr3.etat(C, P, Q)) and cycles == rep["cycles"]


def test_nocr_loop_folds_two_iterations_per_trip():
    """The loop without cube roots alternates x_Q⁹ − b: two iterations per trip, 19 cycles each."""
    rep = designs.get("etat3-509-fast").report()
    assert rep["loop"]["iterations_per_trip"] == 2 and rep["loop"]["trips"] == 125
    assert rep["loop"]["cycles_per_iteration"] == rep["loop"]["ii"] / 2
