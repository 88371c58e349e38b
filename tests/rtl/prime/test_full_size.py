"""Every F_p multiplier kind at full size under Verilator (`slow`: minutes of C++ compilation), and
seed 002's multiplier synthesized: 12 DSP48E1 as Yosys counts them (the paper's 12 DSP48)."""

import pytest

from pairhw import params
from pairhw.emit import mul_testbench, unit_verilog, unit_vectors, unit_width, vectors_text
from pairhw.rtl.prime.catalogue import make_unit
from pairhw.sim import verilator

CASES = [("polymont-chavez11", "bn-chavez11", {})] + [(k, c, {}) for k in ("montgomery-pipelined", "montgomery-iterative")
                                                    for c in ("bn254", "bls12-381", "bn-chavez11")]
# the middle kind as the -mid cores use it
CASES += [("montgomery-iterative", "bn254", {"per_cycle": 16}), ("montgomery-iterative", "bls12-381", {"per_cycle": 24})]


@pytest.mark.slow
@pytest.mark.parametrize("kind,curve,options", CASES,
                         ids=[f"{k}-{c}" + "".join(f"-{o}{v}" for o, v in opts.items()) for k, c, opts in CASES])
def test_full_size_verilator(kind, curve, options, tmp_path):
    unit = make_unit(kind, params.curve(curve).F, **options)
    binary = verilator.build({f"{unit.name}.v": unit_verilog(unit), "tb.v": mul_testbench(unit)})
    vecs = unit_vectors(unit, 40, seed=7)
    path = tmp_path / "vectors.txt"
    path.write_text(vectors_text(unit.F, vecs, unit_width(unit)))
    res = verilator.run(binary, path)
    assert (res["verified"], res["failed"], res["passed"]) == (50, 0, True)


@pytest.mark.slow
def test_polymont_uses_twelve_dsp48e1():
    from pairhw.synth.flows import synthesize

    unit = make_unit("polymont-chavez11", params.curve("bn-chavez11").F)
    res = synthesize(unit_verilog(unit), unit.name, "xc7")
    assert res["dsp"] == 12 and unit.initiation_interval <= 15 and unit.latency <= 40
