"""Hand-packed LUT6 base products (``--lut6``): the packing reaches ⌈(2k − 1)/5⌉ LUTs for k products,
each INIT is the truth table it claims, every kind that takes the option simulates bit-exact in
Verilator (with the behavioural LUT6 model), and Yosys sees exactly the LUT6 cells we placed."""

import math
import random

import pytest
from amaranth.hdl import Module, Signal

from pairhw.rtl.binary import nets
from pairhw.rtl.binary.catalogue import (LUT6_KINDS, KindError, _lut6_tmvp_best, _lut6_tmvp_cost, binary_field,
                                  default_schedule, make_unit)
from pairhw.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text
from pairhw.sim import verilator
from pairhw.synth.flows import _with_cell_models, synthesize


def _luts(k):
    m = Module()
    a, b = Signal(k), Signal(k)
    nets.lut6_sum_of_products(m, [(a[i], b[i]) for i in range(k)], "x")
    return [sm for sm in m._named_submodules.values()]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 8, 16, 17, 23, 46])
def test_packing_reaches_the_lut_count(k):
    assert len(_luts(k)) == max(1, math.ceil((2 * k - 1) / 5))


def test_init_is_the_truth_table():
    def ref(kinds, x):
        v, i = 0, 0
        for kind in kinds:
            if kind == "p":
                v ^= ((x >> i) & 1) & ((x >> (i + 1)) & 1)
                i += 2
            else:
                v ^= (x >> i) & 1
                i += 1
        return v

    for kinds in (["p", "p", "p"], ["p", "p", "s", "s"], ["p"], ["s", "s"], ["p", "s"]):
        init = nets._lut6_init(kinds)
        assert all((init >> x) & 1 == ref(kinds, x) for x in range(64))
    # a·b ^ c·d ^ e·f: the three-product LUT
    assert nets._lut6_init(["p", "p", "p"]) == sum(
        1 << x for x in range(64) if ((x & 1) & (x >> 1) ^ (x >> 2) & (x >> 3) ^ (x >> 4) & (x >> 5)) & 1)


def _evaluate(m, out, values):
    """Value of ``out`` from the LUT6 instances ``m`` holds (created in dependency order);
    ``values`` maps id(signal) to the bit of each input signal."""
    vals = dict(values)

    def get(x):
        return x.value if hasattr(x, "value") and not hasattr(x, "name") else vals[id(x)]

    for inst, _ in m._named_submodules.values():
        ins = [get(inst.ports[f"I{i}"][0]) for i in range(6)]
        index = sum(bit << i for i, bit in enumerate(ins))
        vals[id(inst.ports["O"][0])] = (inst.parameters["INIT"].value >> index) & 1
    return get(out)


def test_xor_of_terms_computes_its_sum_and_late_bits_use_spare_inputs():
    rng = random.Random(5)
    for trial in range(40):
        m = Module()
        sig = [Signal(name=f"s{i}") for i in range(40)]
        terms = [(rng.sample(sig, rng.randint(1, 7)), rng.choice([None] + sig)) for _ in range(rng.randint(1, 9))]
        late = rng.sample(sig, rng.randint(0, 4))
        out = nets.lut6_xor_of_terms(m, terms, "x", late=late)
        for _ in range(20):
            values = {id(s): rng.getrandbits(1) for s in sig}
            want = 0
            for data, en in terms:
                want ^= (sum(values[id(d)] for d in data) & 1) & (1 if en is None else values[id(en)])
            want ^= sum(values[id(x)] for x in late) & 1
            assert _evaluate(m, out, values) == want, trial
    for k in (5, 14, 16, 17, 19, 23):
        spare = nets.lut6_spare_inputs(k)
        m = Module()
        a, b, e = Signal(k), Signal(k), Signal(spare + 1)
        nets.lut6_xor_of_terms(m, [([a[i]], b[i]) for i in range(k)], "x", late=[e[i] for i in range(spare)])
        assert len(m._named_submodules) == math.ceil((2 * k - 1) / 5), k  # the late bits were free


# (kind, m, schedule): the tmvp m = 47 cases end in a three- and a two-way split whose block XORs
# the base rows absorb (nets.lut6_spare_inputs); so does the default tmvp schedule at m = 79 (40 → 20)
# (the m = 79 tmvp and the two-way m = 47 split are slow: the three-way split covers the absorbed XORs)
CASES = [("schoolbook", 23, None), ("karatsuba", 47, None), pytest.param("tmvp", 79, None, marks=pytest.mark.slow),
         ("tmvp", 47, (3,)), pytest.param("tmvp", 47, (2,), marks=pytest.mark.slow), ("hybrid-tmvp3", 79, None),
         ("hybrid-tmvp2", 79, None), ("hybrid-kara306", 67, None)]
IDS = ["schoolbook-23", "karatsuba-47", "tmvp-79", "tmvp-47-3way", "tmvp-47-2way", "hybrid-tmvp3-79",
       "hybrid-tmvp2-79", "hybrid-kara306-67"]


@pytest.mark.parametrize("kind,m,schedule", CASES, ids=IDS)
def test_lut6_units_bit_exact_in_verilator(kind, m, schedule, tmp_path):
    F = binary_field(m)
    unit = make_unit(kind, F, schedule=schedule, lut6=True)
    assert unit.lut6 and unit.name.endswith("_l6")
    binary = verilator.build({f"{unit.name}.v": unit_verilog(unit), "tb.v": mul_testbench(unit)})
    vecs = mul_vectors(F, 20, seed=m)
    path = tmp_path / "v.txt"
    path.write_text(vectors_text(F, vecs))
    res = verilator.run(binary, path)
    assert (res["verified"], res["failed"]) == (len(vecs), 0), res["mismatches"]
    assert (res["latency"], res["ii"]) == (unit.latency, unit.initiation_interval)


def test_lut6_model_only_where_asked():
    F = binary_field(23)
    plain, packed = make_unit("tmvp", F), make_unit("tmvp", F, lut6=True)
    assert "module LUT6" not in unit_verilog(plain) + mul_testbench(plain)
    assert "LUT6 #(" in unit_verilog(packed) and "module LUT6" not in unit_verilog(packed)
    assert "module LUT6" in mul_testbench(packed)
    assert "module LUT6" in _with_cell_models(unit_verilog(packed), "gates")
    assert "module LUT6" in _with_cell_models(unit_verilog(packed), "ecp5")
    assert _with_cell_models(unit_verilog(packed), "xc7") == unit_verilog(packed)
    assert _with_cell_models(unit_verilog(plain), "gates") == unit_verilog(plain)


def test_xc7_packed_base_is_smaller_and_gates_flow_reads_the_model():
    # a 17 × 17 schoolbook TMVP: 17 rows of 17 products, ⌈33/5⌉ = 7 LUT6 per row = 119 LUTs placed;
    # ABC maps the same AND–XOR rows to more (166 LUTs for the isolated core)
    F = binary_field(17)
    plain, packed = make_unit("tmvp", F, schedule=()), make_unit("tmvp", F, schedule=(), lut6=True)
    lp = synthesize(unit_verilog(plain), plain.name, "xc7")["luts"]
    l6 = synthesize(unit_verilog(packed), packed.name, "xc7")["luts"]
    assert l6 < lp
    gates = synthesize(unit_verilog(packed), packed.name, "gates")
    assert gates["ge"] > 0 and not gates.get("unknown")


def test_lut6_rejected_where_it_does_not_apply():
    assert "lsd" not in LUT6_KINDS
    with pytest.raises(KindError, match="--lut6 applies to"):
        make_unit("lsd", binary_field(23), digit=3, lut6=True)


def test_lut6_default_schedules():
    # TMVP: the cost model's cheapest schedule (the smallest of the isolated cores measured)
    assert default_schedule(306, lut6=True) == (2, 3, 3)  # 306 → 153 → 51 → 17
    assert default_schedule(408, lut6=True) == (2, 2, 2, 3)  # 408 → 204 → 102 → 51 → 17
    assert default_schedule(17, lut6=True) == ()
    # every choice is at least as cheap, in the model, as the rules it replaced
    for n in (40, 79, 102, 136, 306, 408):
        best = _lut6_tmvp_cost(n, _lut6_tmvp_best(n))
        for rule in ((3,) * 2 + (2,), (3, 3, 2), (2, 3, 2), (3, 3, 3, 2), ()):
            assert best <= _lut6_tmvp_cost(n, rule)
    # Karatsuba keeps three-way while > 51, then two-way to ≤ 24
    assert default_schedule(306, lut6=True, method="karatsuba") == (3, 3, 2)
    unit = make_unit("hybrid-kara306", binary_field(1223), lut6=True)
    assert unit.core_schedule == (3, 3, 2)
    assert make_unit("hybrid-tmvp2", binary_field(1223), lut6=True).core_schedule == (2, 3, 3)
