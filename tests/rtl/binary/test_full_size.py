"""Every multiplier kind at m = 1223, generated and checked bit-exact against the golden model
(10 edge cases + 20 random products, back to back).  Slow: one to three minutes per kind.

Verilator compiles every kind except the fully parallel 1223-bit schoolbook (1.5 M AND gates): its
Verilog alone takes ten minutes to write and its C++ over half an hour to compile on two cores, so
that one unit is run in the Amaranth simulator instead (about two minutes), on the same vectors.
"""

import pytest

from pairhw.rtl.binary.catalogue import binary_field, make_unit
from pairhw.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text
from pairhw.sim import verilator
from pairhw.sim.amsim import simulate_mul

FULL = [
    ("karatsuba", {}), ("tmvp", {}),
    ("hybrid-tmvp3", {}), ("hybrid-tmvp2", {}), ("hybrid-kara306", {}),
    ("iter-karatsuba", {"core": 153}), ("iter-karatsuba", {"core": 77}),
    ("lsd", {"digit": 11}), ("msd", {"digit": 32}), ("lsb", {}),
    ("hybrid-tmvp3", {"lut6": True}), ("hybrid-tmvp2", {"lut6": True}), ("hybrid-kara306", {"lut6": True}),
]


@pytest.mark.slow
@pytest.mark.parametrize("kind,opts", FULL, ids=[k + "".join(f"-{k2}" if v is True else f"-{v}" for k2, v in o.items()) for k, o in FULL])
def test_full_size_bit_exact(kind, opts, tmp_path):
    F = binary_field(1223)
    unit = make_unit(kind, F, **opts)
    binary = verilator.build({f"{unit.name}.v": unit_verilog(unit), "tb.v": mul_testbench(unit)})
    vecs = mul_vectors(F, 20, seed=1223)
    path = tmp_path / "vectors.txt"
    path.write_text(vectors_text(F, vecs))
    res = verilator.run(binary, path)
    assert (res["verified"], res["failed"]) == (len(vecs), 0), res["mismatches"]
    assert (res["latency"], res["ii"]) == (unit.latency, unit.initiation_interval)


@pytest.mark.slow
def test_full_size_schoolbook_amaranth_sim():
    F = binary_field(1223)
    unit = make_unit("schoolbook", F)
    vecs = mul_vectors(F, 20, seed=1223)
    run = simulate_mul(unit, [(a, b) for a, b, _ in vecs])
    assert run.results == [c for _, _, c in vecs]
    assert set(run.latencies) == {unit.latency}
