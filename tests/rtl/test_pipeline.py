"""The core's pipeline stages (issue 51): ``"pipeline": ["operands", "results"]`` puts registers
between the register file's read multiplexers and the units and between the units and the write
multiplexers.  The schedulers count them as latency, the microcode model computes as the registered
hardware does, and the cores stay bit-exact against the golden model in the scheduled cycles."""

import json

import pytest

from pairhw import designs
from pairhw.flow import pairings, simulate, verilog
from pairhw.program.datapath import DatapathError
from pairhw.program.verify import verify, verify_block

#: (built-in design, pipeline stages): one binary, one ternary (an adder with op selects, power
#: units with k selects), one prime (a RAM bank, a clocked ROM, waits, an iterative multiplier)
VARIANTS = [
    ("f2-47-etat-banked", ["operands", "results"]),
    ("f2-47-etat-banked", ["operands"]),
    ("f3-19-etat-schoolbook", ["operands", "results"]),
    ("ate-bn-tiny-small", ["results"]),
    # lanes: one instance, many multipliers (slow: its modulo schedule with lanes takes a minute, twice)
    pytest.param("tate1-47-d4", ["operands", "results"], marks=pytest.mark.slow),
]


def _piped(name, stages, unit=None):
    """Design ``name`` with the datapath's pipeline ``stages``, or with only unit ``unit``'s."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-{unit + '-' if unit else ''}{'-'.join(stages)}"
    if unit is None:
        data["datapath"]["pipeline"] = stages
    else:
        next(u for u in data["datapath"]["units"] if u["name"] == unit)["pipeline"] = stages
    return designs.from_data(data)


@pytest.mark.parametrize("name,stages", VARIANTS)
def test_stages_are_latency_the_schedule_counts(name, stages):
    """Every unit but the constant tables is ``len(stages)`` cycles slower, the schedule of the
    pipelined program checks out against those latencies, and the program is no shorter."""
    base, piped = designs.get(name).compile(), _piped(name, stages).compile()
    for u, v in zip(base.dp.units, piped.dp.units):
        assert v.latency == u.latency + (0 if u.kind == "const" else len(stages))
        assert v.stages == (0 if u.kind == "const" else len(stages))
    assert verify(piped) == []
    assert piped.cycles > base.cycles


@pytest.mark.parametrize("name,stages", VARIANTS)
def test_the_pipelined_microcode_computes_the_pairing(name, stages, rng):
    """The model of the registered hardware (a combinational unit computes on what it read
    ``latency`` cycles before its write) gives the golden model's pairing in constant cycles."""
    _model_pairings_match(_piped(name, stages), rng)


def _model_pairings_match(d, rng, n=3):
    """``Microcode.run`` on ``n`` random pairings gives the golden model's values in the schedule's cycles."""
    cp, C, fi = d.compile(), d.curve(), d.field
    for i in range(n):
        P, Q = fi.vector_points(C, rng.randrange(1000), i)
        out, cycles = cp.microcode.run(fi.point_values(P, Q))
        assert tuple(out) == tuple(d.model(P, Q))
        assert cycles == cp.cycles


@pytest.mark.parametrize("name,stages", [VARIANTS[0]] + [pytest.param(*v, marks=pytest.mark.slow) for v in
                                                          (VARIANTS[2], VARIANTS[3], VARIANTS[4].values)])
def test_a_pipelined_core_is_bit_exact_in_the_scheduled_cycles(name, stages):
    """Verilator: the pairings against the golden model, every one in the scheduled cycles (the others
    `slow`: f3-19-etat-schoolbook-piped, a built-in design with the operand stage, is simulated by
    tests/rtl/test_core.py in the default run, and the result stage by the binary variant here)."""
    d = _piped(name, stages)
    res = simulate(d, rows=pairings(d, 4, seed=51))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_a_unit_may_have_its_own_stages(rng):
    """``"pipeline"`` on one unit: only the multiplier is two cycles slower (its operands and its
    result registered), the adders and power units stay combinational; bit-exact (Verilator) in the
    scheduled cycles."""
    base, d = designs.get("f2-47-etat-banked").compile(), _piped("f2-47-etat-banked", ["operands", "results"], "mul")
    cp = d.compile()
    assert [v.latency - u.latency for u, v in zip(base.dp.units, cp.dp.units)] == \
        [2 if u.kind == "mul" else 0 for u in base.dp.units]
    assert verify(cp) == []
    res = simulate(d, rows=pairings(d, 3, seed=52))
    assert (res.verified, res.failed, res.timeout) == (3, 0, False)
    assert {p["cycles"] for p in res.runs} == {cp.cycles}
    text = verilog(d)
    assert "mul_out_q" in text and "sqr_out_q" not in text


def test_the_stages_are_registers_in_the_verilog():
    """The operand and result registers are named after what they hold (an operand register
    feeding a unit's port may be declared as a wire equal to it); a core without a pipeline has none
    of them."""
    import re

    text = verilog(_piped("f2-47-etat-banked", ["operands", "results"]))
    for name in ("mul_a_q", "mul_b_q", "mul_go_q", "sqr_a_q", "add0_b_q", "mul_out_q", "sqr_out_q"):
        assert re.search(rf"^\s*(reg|wire) (\[\d+:0\] )?{name}( =|;)", text, re.M), name
    assert "const_out_q" not in text  # a constant table is not staged
    assert not re.search(r"\b\w+_(a|b|go|out)_q\b", verilog(designs.get("f2-47-etat-banked")))


@pytest.mark.parametrize("stages,unit,why", [(["operands", "operands"], None, "each once"),
                                             (["outputs"], None, "among operands"),
                                             (["results"], "const", "a constant table has no pipeline stages"),
                                             (["output"], "mul", r"units\[0\] \(mul\): pipeline lists stages among")])
def test_a_bad_pipeline_is_refused(stages, unit, why):
    with pytest.raises((DatapathError, designs.DesignError), match=why):
        _piped("f2-47-etat-banked", stages, unit).compile()


def test_the_schedule_report_names_the_stages(capsys):
    """``pairhw schedule`` and its JSON say which units have which stages, whether results are
    forwarded and whether the microcode word is registered; a design without a pipeline reports what
    it did before (no key)."""
    from pairhw.cli import main

    assert designs.get("f2-47-etat-banked-piped").report()["pipeline"] == \
        {"mul": ["operands"], "add": ["operands"], "sqr": ["operands"], "sqrt": ["operands"]}
    assert "pipeline" not in designs.get("f2-47-etat-banked").report()
    assert main(["-q", "schedule", "f2-47-etat-banked-piped"]) == 0
    out = capsys.readouterr().out
    assert "pipeline             operands registered on mul, add, sqr, sqrt (a cycle of latency each); " \
           "results forwarded into the operand registers" in out
    assert "words × 114 bits; the word registered (a cycle per run)" in out
    assert main(["-q", "schedule", "f2-47-etat-banked"]) == 0
    assert "the word registered" not in capsys.readouterr().out
    # the forwarding and the word register are reported where a design has them, only there
    rep = designs.get("f3-19-etat-schoolbook-piped").report()
    assert (rep["forward"], rep["word_stages"]) == (True, 1)
    assert not {"forward", "word_stages"} & set(designs.get("f2-47-etat-banked").report())
    assert main(["-q", "schedule", "f3-19-etat-schoolbook-piped"]) == 0
    assert "words × 108 bits; the word registered (a cycle per run)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_two_stage_multiplier_in_a_core_is_bit_exact():
    """A unit's own pipeline depth (issue 51, item 3): ``"mul": {"kind": "tmvp", "stages": 2}`` is a
    multiplier of latency 2, which the schedule counts; the core is bit-exact (Verilator) in the
    scheduled cycles (slow: the unit's own tests, tests/rtl/binary/test_units.py, check it at two sizes,
    and every latency is scheduled alike)."""
    data = json.loads(json.dumps(designs.get("f2-47-etat-banked-piped").data))
    data["name"] = "f2-47-etat-banked-piped-mul2"
    next(u for u in data["datapath"]["units"] if u["kind"] == "mul")["mul"]["stages"] = 2
    d = designs.from_data(data)
    cp = d.compile()
    mul = cp.dp.unit_for("mul")
    assert (mul.latency, mul.ii) == (3, 1)  # 2 in the unit, 1 the operand stage
    assert verify(cp) == [] and cp.cycles > designs.get("f2-47-etat-banked-piped").compile().cycles
    res = simulate(d, rows=pairings(d, 3, seed=53))
    assert (res.verified, res.failed, res.timeout) == (3, 0, False)
    assert {p["cycles"] for p in res.runs} == {cp.cycles}


def _forwarding(name, **datapath):
    """Design ``name`` with the operand stage on every unit and its results forwarded (and
    ``datapath`` set)."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-fwd{'-' + '-'.join(f'{k}-{v}' for k, v in datapath.items()) if datapath else ''}"
    data["datapath"].update(pipeline=["operands"], forward=True, **datapath)
    return designs.from_data(data)


@pytest.mark.parametrize("name", ["f2-47-etat-banked", "f3-19-etat-schoolbook"])
def test_forwarding_wins_back_the_operand_stage(name):
    """``"forward": true``: a consumer of the same block or trip issues in the cycle its operand is
    written, taking it from the producer's output into its operand register, so the operand stage
    costs no cycle on a dependence: the program is within 4 % of the unstaged one's cycles (the stage
    alone costs 20-32 %), the schedule checks out, and the words do forward."""
    base = designs.get(name).compile()
    staged = _piped(name, ["operands"]).compile()
    fwd = _forwarding(name).compile()
    assert verify(fwd) == []
    assert fwd.cycles <= 1.04 * base.cycles < staged.cycles
    assert all(u.fwd_delay == u.latency for u in fwd.dp.units if u.kind != "const")
    forwarded = [k for wd in fwd.microcode.words for k, v in wd.items() if k.endswith("_fwd") and v]
    assert len(forwarded) > 100
    # the verifier, given the same schedule on the datapath without forwarding, finds the consumers
    # that issue in their operand's write cycle (the rule the forward relaxes is still checked)
    late = verify_block(fwd.flow.pre, staged.dp, _on(fwd.pre, staged.dp))
    assert late and all("before its operand" in e for e in late)


def _on(sch, dp):
    """Block schedule ``sch`` with each op on the unit of the same name in ``dp``."""
    from dataclasses import replace

    by_name = {u.name: u for u in dp.units}
    return replace(sch, units=[by_name[u.name] for u in sch.units])


@pytest.mark.parametrize("name", ["f2-47-etat-banked", "f3-19-etat-schoolbook"])
def test_the_forwarding_microcode_computes_the_pairing(name, rng):
    """The model takes a forwarded operand from the result its producer writes that cycle: the golden
    model's pairing in constant cycles."""
    _model_pairings_match(_forwarding(name), rng)


def test_a_forward_from_a_unit_that_writes_nothing_is_caught():
    """A word that forwards a unit's output in a cycle that unit writes no result is a model error,
    not a silent value."""
    from pairhw.program.microcode import Key, forward_sources

    d = _forwarding("f2-47-etat-banked")
    mc = d.compile().microcode
    at, key = next((i, k) for i, wd in enumerate(mc.words) for k, v in wd.items() if k.endswith("_fwd") and v)
    source = forward_sources(mc.dp)[mc.words[at][key] - 1]
    # the same field in the first word in which that unit writes nothing
    idle = next(i for i, wd in enumerate(mc.words) if not wd.get(Key.we(source)))
    mc.words[idle] = {**mc.words[idle], key: mc.words[at][key]}
    P, Q = d.field.vector_points(d.curve(), 1, 0)
    with pytest.raises(RuntimeError, match=f"microcode forwards {source} .* which writes no result then"):
        mc.run(d.field.point_values(P, Q))


@pytest.mark.slow
@pytest.mark.parametrize("name,datapath", [("f2-47-etat-banked", {}), ("f3-19-etat-schoolbook", {"rom": "registered"})])
def test_a_forwarding_core_is_bit_exact_in_the_scheduled_cycles(name, datapath):
    """Verilator: the forwarding core's pairings against the golden model, each in the scheduled
    cycles (each operand register's forward multiplexer is built from the sources the words use).
    Slow: the built-in designs that forward (f3-19-etat-schoolbook-piped and -ram, a flip-flop and a
    LUT RAM register file, and f2-79-etat-tmvp3-piped) are simulated by tests/rtl/test_core.py."""
    d = _forwarding(name, connect="program", **datapath)
    res = simulate(d, rows=pairings(d, 4, seed=54))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
    assert "_fwd" in verilog(d)


def test_forwarding_needs_the_operand_stage():
    """A result can be forwarded only into an operand register: a datapath where no unit has one is
    refused."""
    data = json.loads(json.dumps(designs.get("f2-47-etat-banked").data))
    data["name"] = "f2-47-forward-bare"
    data["datapath"].update(forward=True, pipeline=["results"])
    with pytest.raises((DatapathError, designs.DesignError),
                       match="forward needs a unit with its operands registered .* no unit has an operand stage"):
        designs.from_data(data).compile()


def _forward_into(name, units, **datapath):
    """Design ``name`` with the operand stage on ``units`` only and the results forwarded."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-fwd-into-{'-'.join(units)}"
    data["datapath"].update(forward=True, **datapath)
    for u in data["datapath"]["units"]:
        if u["name"] in units:
            u["pipeline"] = ["operands"]
    return designs.from_data(data)


def test_only_the_units_with_an_operand_stage_take_forwarded_results(rng):
    """Operand stages on the power units alone: their operand registers take results forwarded, the
    multiplier and adder read registers (a dependent op there issues a cycle after the write, which
    the verifier checks against the units the schedule chose); the words forward only into the
    staged units, and the model computes the pairing in the scheduled cycles."""
    from pairhw.program.microcode import Key

    d = _forward_into("f2-47-etat-banked", ["sqr", "sqrt"])
    c = d.compile()
    assert verify(c) == []
    takes = {u.name for u in c.dp.units if u.fwd_in}
    assert takes == {"sqr", "sqrt"}
    assert {u.name for u in c.dp.units if u.forward} == {"mul", "add", "sqr", "sqrt"}
    used = {k.split(".")[0] for wd in c.microcode.words for k, v in wd.items() if k.endswith("_fwd") and v}
    assert used and used <= takes
    assert Key.fwd("mul", 0) not in c.microcode.offsets()
    assert Key.fwd("sqr", 0) in c.microcode.offsets()
    # the rule is checked per consumer: a schedule where every unit takes forwarded operands, put on
    # this datapath, has multiplier or adder ops issued in their operands' write cycle
    everyone = _forwarding("f2-47-etat-banked").compile()
    assert verify_block(everyone.flow.post, everyone.dp, everyone.post) == []
    late = verify_block(everyone.flow.post, c.dp, _on(everyone.post, c.dp))
    assert late and all("before its operand" in e for e in late)
    assert {e.split(" (")[1].split(" ")[0] for e in late} <= {"mul", "add"}  # the consumers' kinds
    assert verify_block(c.flow.post, c.dp, c.post) == []
    _model_pairings_match(d, rng)


def _rom(name, rom, **datapath):
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-rom-{rom}"
    data["datapath"].update(rom=rom, **datapath)
    for b in data["datapath"].get("banks", []):
        if b.get("write_ports"):
            b["read"] = "sync"
    return designs.from_data(data)


@pytest.mark.parametrize("name", [
    # block RAM banks read at the edge, their early addresses from the ROM's output: slow; by default
    # test_the_mid_recipe_at_test_size_is_bit_exact (tests/rtl/test_core.py: a block-RAM ROM into a word
    # register, a bank read at the edge) and f2-79-etat-tmvp3-piped's core (a LUT ROM into a word register)
    pytest.param("f2-79-etat-tmvp3", marks=pytest.mark.slow),
    # an F_p core with idle runs held as one word (the wait count read ahead of the word register): slow
    pytest.param("ate-bn-tiny-small", marks=pytest.mark.slow),
])
def test_a_registered_rom_word_costs_one_cycle_and_is_bit_exact(name):
    """``"rom": "registered"``: the ROM's word goes through a flip-flop register before its fields
    drive the core, the same words execute a cycle later, and the run takes exactly one cycle more
    (Verilator, against the model)."""
    sync, reg = _rom(name, "sync"), _rom(name, "registered")
    assert reg.compile().microcode.packed() == sync.compile().microcode.packed()
    assert reg.compile().cycles == sync.compile().cycles + 1
    res = simulate(reg, rows=pairings(reg, 4, seed=55))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {reg.compile().cycles}
    text = verilog(reg)
    assert "word_q" in text and "word_q" not in verilog(sync)
    # a LUT ROM: in a block RAM, Yosys would make the word register the RAM's own output register
    assert '(* rom_style = "logic" *)' in text


def test_ram_banks_read_into_operand_registers_stay_lut_ram():
    """A comb RAM bank of a core whose units register their operands is marked ``ram_style =
    "distributed"`` (else Yosys takes the operand registers as the RAM's read registers and builds
    some banks from flip-flops: f3-19-etat-schoolbook-ram 8,167 LUT4 and 260 DPR16X4 without the
    mark, 6,335 and 340 with it); a core without the stage keeps its Verilog (no mark)."""
    marked = verilog(designs.get("f3-19-etat-schoolbook-ram"))
    assert marked.count('(* ram_style = "distributed" *)') == 4  # its four banks
    assert "ram_style" not in verilog(designs.get("f2-79-etat-tmvp3"))


def test_a_core_forwarding_into_some_units_is_bit_exact_in_the_scheduled_cycles():
    """Verilator: operand stages and forward multiplexers on the power units only, the multiplier and
    adder reading the register file directly: the golden model's pairings in the scheduled cycles."""
    d = _forward_into("f2-47-etat-banked", ["sqr", "sqrt"], connect="program")
    res = simulate(d, rows=pairings(d, 3, seed=61))
    assert (res.verified, res.failed, res.timeout) == (3, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
    v = verilog(d)
    assert "sqr_a_fwd" in v and "mul_a_fwd" not in v
