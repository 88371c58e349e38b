"""Nagl et al.'s word-serial ASIP (seed 003 Fig. 1, Table III) as designs: the compiler's program
computes the golden model's ηT word by word, the core is bit-exact against it in Verilator with the
program's exact cycle count, and each m = 1223 variant is below Table III's cycles.  The programs of
every m = 79 design run by default here; in Verilator (tests/rtl/test_core.py, 20 pairings each) one
design per multiplier kind runs by default (asip-79-k10, asip-79-lsb10, asip-79-lsd5) and the other
m = 79 twins and the m = 1223 cores are ``slow``."""

import pytest

from pairhw import designs
from pairhw.flow import simulate
from pairhw.asip.program import AsipError, asip_config
from pairhw.published import NAGL_ASIP, nagl_cycles

#: Table III (≈ cycles per pairing at 125 MHz: ms × 125,000), design -> cycles
TABLE3 = {name: nagl_cycles(name) for name in NAGL_ASIP}
#: each full-size design's small twin (the same multiplier kind and memory layout at m = 79)
SMALL = {"asip-1223-k153": "asip-79-k10", "asip-1223-k77": "asip-79-k5", "asip-1223-lsd11": "asip-79-lsd5",
         "asip-1223-lsd9": "asip-79-lsd3", "asip-1223-lsd7": "asip-79-lsd2", "asip-1223-lsb153": "asip-79-lsb10",
         "asip-1223-lsb77": "asip-79-lsb5"}


def _model_agrees(d, n, seed=1):
    fi, C = d.field, d.curve()
    prog = d.compile()
    for i in range(n):
        P, Q = fi.vector_points(C, seed, i)
        assert prog.run(fi.point_values(P, Q)) == (d.model(P, Q), prog.cycles), f"{d.name}: pairing {i}"


@pytest.mark.parametrize("name", sorted(SMALL.values()))
def test_program_computes_the_model(name):
    """The instruction list run word by word (memories, slots, chaining through R) gives ηT."""
    _model_agrees(designs.get(name), 4)


@pytest.mark.parametrize("name", sorted(SMALL.values()))
def test_program_executes_every_op_of_the_flow(name):
    """Fusing power chains and chaining through R drop no op: the executed products, additions and
    (k-weighted) powers are the traced program's."""
    prog = designs.get(name).compile()
    flow = prog.flow
    want = {}
    for blk, times in ((flow.pre, 1), (flow.body, flow.trips), (flow.post, 1)):
        for op in blk:
            if op.kind != "const":
                want[op.kind] = want.get(op.kind, 0) + times * op.k
    assert {k: v["ops"] for k, v in prog.cycles_by_op().items()} == want


def test_karatsuba_operands_come_from_both_memories():
    """The iterative Karatsuba unit reads a word of each operand per cycle: every product's operands
    are in different memories (values that meet in two products with one value are kept in both)."""
    for name in ("asip-79-k10", "asip-79-k5", "asip-1223-k153"):
        prog = designs.get(name).compile()
        for ins in prog.rom():
            if ins.op == "mul":
                assert {ins.a.src, ins.b.src} <= {"m0", "m1", "c"} and ins.a.src != ins.b.src


def test_chaining_and_fused_powers_shorten_the_program():
    """A value used only by the next op stays in R; a chain of squarings is one instruction."""
    prog = designs.get("asip-1223-lsd9").compile()
    rom = prog.rom()
    assert any(i.a.src == "r" for i in rom) and any(not i.wb for i in rom)
    assert max(i.k for i in rom if i.op in ("sqr", "sqrt")) > 100
    assert len(rom) < 1000


@pytest.mark.parametrize("name", list(TABLE3))
def test_full_size_designs_are_below_table_iii(name):
    rep = designs.get(name).report()
    assert rep["cycles"] <= TABLE3[name], f"{name}: {rep['cycles']} cycles, Table III {TABLE3[name]}"


def test_k153_product_takes_the_units_cycles():
    """K153: the unit's 41-cycle microcode (seed 003: 41 cycles per product) plus its pipeline and
    the synchronous read."""
    rep = designs.get("asip-1223-k153").report()
    assert rep["multiplier"]["cycles_per_product"] == 41 + 4 + 1


@pytest.mark.parametrize("spec, msg", [
    ({"word": 10, "mul": {"kind": "lsd", "digit": 3}}, "must divide"),
    ({"mul": {"kind": "lsd", "digit": 5}}, "word width N"),
    ({"word": 12, "mul": {"kind": "iter-karatsuba", "core": 153}}, "reads 10-bit words"),
    ({"word": 10, "mul": {"kind": "msd", "digit": 2}}, "not an ASIP multiplier"),
    ({"word": 10, "mul": {"kind": "lsb", "digit": 2}}, "no options"),
])
def test_bad_configurations_say_why(spec, msg):
    fi = designs.get("asip-79-lsd5").field
    with pytest.raises(AsipError, match=msg):
        asip_config(fi, spec)


def test_asip_is_for_binary_fields():
    from pairhw import fields

    with pytest.raises(AsipError, match="binary fields"):
        asip_config(fields.for_params("f3-19"), {"word": 8, "mul": {"kind": "lsb"}})


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLE3))
def test_full_size_program_computes_the_model(name):
    _model_agrees(designs.get(name), 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLE3))
def test_full_size_core_in_verilator(name):
    d = designs.get(name)
    res = simulate(d, 1, 1)
    assert res.verified == 1 and res.failed == 0 and res.constant_time, res.mismatches


def _cli(capsys, *argv):
    from pairhw.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_asm_listing_is_one_line_per_instruction(capsys):
    """``pairhw schedule D --listing asm``: the metacode, one line per instruction, with the phases'
    cycles; the instruction ROM listing has one word per instruction."""
    prog = designs.get("asip-79-lsd5").compile()
    code, out, _ = _cli(capsys, "schedule", "asip-79-lsd5", "--listing", "asm")
    lines = [ln for ln in out.splitlines() if ln.startswith("  ")]
    body = len(prog.body[0]) + len(prog.body[1])
    assert code == 0 and len(lines) == len(prog.pre) + body + len(prog.post)
    assert f"{prog.cycles} cycles per pairing" in out and "loop even trips: x9" in out
    assert any("mul    R                R" in ln for ln in lines)  # a product of a chained value
    code, out, _ = _cli(capsys, "schedule", "asip-79-lsd5", "--listing", "microcode")
    assert code == 0 and len([ln for ln in out.splitlines() if not ln.startswith(";")]) == len(prog.rom())


def test_asm_listing_of_an_engine_design_is_refused(capsys):
    code, _, err = _cli(capsys, "schedule", "f2-79-etat-tmvp3", "--listing", "asm")
    assert code == 2 and "not a word-serial ASIP design" in err


def test_user_asip_design_file(capsys, tmp_path):
    """A design file with an asip object schedules; a wrong one is refused naming the key."""
    import json

    good = {"name": "my-asip", "curve": "f2-47", "algorithm": "etat", "asip": {"word": 12, "mul": {"kind": "lsd", "digit": 4}}}
    (tmp_path / "good.json").write_text(json.dumps(good))
    code, out, err = _cli(capsys, "schedule", str(tmp_path / "good.json"), "--json")
    assert code == 0, err
    assert json.loads(out)["processor"] == "asip" and json.loads(out)["words_per_element"] == 4
    for bad, msg in ((dict(good, asip={"word": 12, "mul": {"kind": "lsd", "digit": 5}}), "must divide"),
                     (dict(good, datapath={"units": []}), "not both"),
                     ({k: v for k, v in good.items() if k != "asip"}, "one is required"),
                     (dict(good, asip={"word": 12, "mul": {"kind": "lsd", "digits": 4}}), "digits: unknown key")):
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        code, _, err = _cli(capsys, "schedule", str(tmp_path / "bad.json"))
        assert code == 2 and msg in err, err


#: other algorithms and sizes: odd trip counts (the even body once more after the pairs), a single
#: trip, the Karatsuba unit on Shu–Kwon–Gaj's Tate pairing
OTHERS = [("f2-113", "etat", {"word": 8, "mul": {"kind": "lsd", "digit": 4}}),
          ("f2-17", "tate-alg2", {"word": 6, "mul": {"kind": "lsd", "digit": 3}}),
          ("f2-89", "tate-alg2", {"mul": {"kind": "iter-karatsuba", "core": 153}}),
          ("f2-47", "tate-alg1", {"word": 7, "mul": {"kind": "lsb"}})]


def _other(curve, alg, spec):
    return designs.from_data({"name": f"asip-{curve}-{alg}", "curve": curve, "algorithm": alg, "asip": spec})


@pytest.mark.parametrize("curve, alg, spec", OTHERS)
def test_program_computes_other_pairings(curve, alg, spec):
    d = _other(curve, alg, spec)
    prog = d.compile()
    assert prog.extra == (prog.flow.trips % 2 == 1)
    _model_agrees(d, 3)


def test_odd_trip_core_in_verilator():
    """f2-89 Tate (Alg. 2): 9 trips, so the ROM's even body runs once more after four pairs."""
    d = _other(*OTHERS[2])
    assert d.compile().extra
    res = simulate(d, 2, 5)
    assert res.verified == 2 and res.constant_time, res.mismatches
