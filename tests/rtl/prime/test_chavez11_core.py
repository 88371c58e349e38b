"""Pairing cores on seed 002's multiplier: words in Chávez Corona et al.'s coefficient form, the
adder that keeps it, and outputs compared by value (one element has many words).

The toy core (ate-bn-chavez11-toy, 110 bits) with rewritten output words runs in Verilator in the
``slow`` run (131 s): an output word written as another polynomial of the same value passes, a wrong
value fails; ``tests/rtl/test_core.py`` simulates it against the model, also ``slow`` (its bench
builds for 144 s).  The default run checks its schedule and its units (Chávez Corona et al.'s
multiplier and the coefficient-form adder, ``tests/rtl/prime/test_units.py``).  The full-size core
(ate-bn-chavez11) is ``slow``.
"""

import json
import random

import pytest

from pairhw import designs, fields
from pairhw.designs.schema import SchemaError, check
from pairhw.fields.prime import PolyMontField
from pairhw.rtl.prime.polymont import pack_coeffs, unpack_coeffs


def test_a_polymont_datapath_works_in_coefficient_words():
    """The design's multiplier picks the word form: coefficient words round-trip every value, the
    adder is seed 002's, and Montgomery multipliers or the canonical inverter are refused in it."""
    d = designs.get("ate-bn-chavez11-toy")
    fi = d.field
    assert isinstance(fi, PolyMontField) and fi.width == sum(fi.cw) == 127 and fi.agreement != "bit-exact"
    assert not isinstance(designs.get("ate-bn-tiny").field, PolyMontField)
    assert fi.make_mul("polymont-chavez11").width == fi.width and fi.make_mul("polymont-chavez11").R == fi.R
    dp = d.datapath()
    assert type(fi.build_unit(dp.unit_for("add"))).__name__ == "PolyAddSub"
    rng = random.Random(4)
    p, pm = fi.F.p, fi.pm
    for v in [0, 1, p - 1] + [rng.randrange(p) for _ in range(50)]:
        w = fi.encode(v)
        assert fi.decode(w) == v and unpack_coeffs(w, fi.cw) == pm.to_mont(v)
        other = unpack_coeffs(w, fi.cw)  # another polynomial of the same value: c0 + t, c1 − 1
        other[0] += pm.t
        other[1] -= 1
        assert fi.decode(pack_coeffs(other, fi.cw)) == v
    for unit, match in (({"name": "m2", "kind": "mul", "mul": {"kind": "montgomery-pipelined"}}, "polymont"),
                        ({"name": "inv", "kind": "inv"}, "Fermat")):
        data = json.loads(json.dumps(d.data))
        data["datapath"]["units"].append(unit)
        with pytest.raises(SchemaError, match=match):
            check(data)


def _run_toy_with_rewritten_words(tmp_path):
    from pairhw.flow import pairings, verilog
    from pairhw.emit import core_testbench, core_vectors_text
    from pairhw.sim import verilator

    d = designs.get("ate-bn-chavez11-toy")
    fi, core = d.field, d.core()
    binary = verilator.build({f"{d.top}.v": verilog(d), "tb.v": core_testbench(core)})
    rows = pairings(d, 3, 7)
    lines = core_vectors_text(fi, rows).splitlines()
    n_in = len(fi.pairing_inputs)
    # pairing 1: every expected word rewritten as another polynomial of the same value
    words = lines[2].split()
    for k in range(n_in, len(words)):
        c = unpack_coeffs(int(words[k], 16), fi.cw)
        c[0], c[1] = c[0] + fi.pm.t, c[1] - 1
        words[k] = f"{pack_coeffs(c, fi.cw):0{len(words[k])}x}"
    lines[2] = " ".join(words)
    # pairing 2: the value of output 3 off by one (its c0 plus 1)
    words = lines[3].split()
    c = unpack_coeffs(int(words[n_in + 3], 16), fi.cw)
    c[0] += 1
    words[n_in + 3] = f"{pack_coeffs(c, fi.cw):0{len(words[n_in + 3])}x}"
    lines[3] = " ".join(words)
    vec = tmp_path / "vectors.txt"
    vec.write_text("\n".join(lines) + "\n")
    return core, verilator.run_core(binary, vec)


@pytest.mark.slow
def test_toy_core_compares_outputs_by_value(tmp_path):
    """ate-bn-chavez11-toy in Verilator: the model's words and other words of the same values pass, a
    value off by one fails (and is named), every run takes the schedule's cycles."""
    core, res = _run_toy_with_rewritten_words(tmp_path)
    assert core.cycles == 85922
    assert [p["ok"] for p in res["pairings"]] == [True, True, False]
    assert res["verified"] == 2 and res["failed"] == 1 and not res["passed"]
    assert res["cycles_min"] == res["cycles_max"] == core.cycles
    assert any("pairing 2 c3" in ln for ln in res["mismatches"])
    assert not any("pairing 1" in ln for ln in res["mismatches"])


@pytest.mark.parametrize("name,cycles", [("ate-bn-chavez11-toy", 85922),
                                         pytest.param("ate-bn-chavez11", 169214, marks=pytest.mark.slow)])
def test_chavez11_cores_schedule(name, cycles):
    """The cores keep seed 002's multiplier busy: within 1.05x of its bound (a product every 14 cycles).
    The full-size program is one of conftest.LONG_PROGRAMS: ``slow``."""
    rep = designs.get(name).report()
    assert rep["cycles"] == cycles and rep["cycles"] <= 1.05 * rep["multiplier_bound"]
    assert rep["multiplier_bound"] == 14 * rep["products"]


@pytest.mark.slow
def test_full_size_chavez11_core_in_verilator():
    """ate-bn-chavez11 (250 bits) in Verilator: two pairings equal to the model mod p, constant cycles."""
    from pairhw.flow import simulate

    d = designs.get("ate-bn-chavez11")
    res = simulate(d, 2, 1)
    assert res.verified == 2 and res.failed == 0 and res.constant_time
    assert res.cycles_max == 169214


def test_unknown_fields_keep_their_words():
    """Families without another word form keep their interface whatever the datapath."""
    fi = fields.for_params("f2-79")
    assert fi.for_datapath(designs.get("f2-79-etat-tmvp3").data["datapath"]) is fi
    assert fi.tb_differ("a", "b") == "a !== b" and fi.tb_functions == ""
