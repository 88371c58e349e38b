"""The generated pairing cores, simulated with Verilator: bit-exact against the golden model on
20 random point pairs each (2 for a core of millions of cycles), every pairing in the same, scheduled number of cycles (the m = 1223
designs of seed 000 in the `slow` run)."""

import json
import re

import pytest
from amaranth.sim import Simulator

from pairhw.fields import of
from pairhw import designs
from pairhw.flow import pairings, simulate
from pairhw.emit import unit_verilog

from ..conftest import curve, random_point


#: cores whose Verilator build and run take over 40 s on CI's two cores, and the default test that
#: covers their kind at a small size (issue 49: the default run in ten minutes)
SLOW_CORES = {
    "etat3-97-fast": "test_a_small_pipelined_karatsuba_f3_core_is_bit_exact (its datapath on f3-19)",
    "f2-79-etat-karatsuba-compact": "f2-79-etat-karatsuba-ram's (the same banks and units, with forwarding): "
                                    "f2-47-etat-banked-ram and the Karatsuba unit's own simulations",
    "f2-79-etat-karatsuba-ram": "f2-47-etat-banked-ram (LUT RAM banks, an operand stage, forwarding) and the "
                                "Karatsuba unit's own simulations",
    "etat3-97-fast-ram": "f3-19-etat-schoolbook-ram (the same LUT RAM banks, operand stage, forwarding and "
                         "block-RAM word) and test_a_small_pipelined_karatsuba_f3_core_is_bit_exact",
    "etat3-97-fast-local": "test_or_merged_reads_of_local_copies_are_bit_exact (the same local copies on "
                           "f3-19-etat-schoolbook-ram, ORed), test_a_small_constant_unit_is_bit_exact_in_a_core "
                           "(local copies multiplexed) and etat3-97-fast-ram's",
    "etat3-97-fast-sliced": "test_sliced_copies_loaded_from_a_second_word_register_are_bit_exact (the same "
                            "register file on f3-19-etat-schoolbook-ram) and etat3-97-fast-local's",
    "etat3-97-fast-staged": "test_a_results_stage_and_source_registers_over_sliced_copies_are_bit_exact (a "
                            "results stage on RAM-bank adders over sliced copies, on f3-19-etat-schoolbook-ram) "
                            "and etat3-97-fast-sliced's",
    "etat3-97-fast-tree": "test_a_tree_of_control_registers_over_sliced_copies_is_bit_exact (the same "
                          "register file, stages and forwarding on f3-19-etat-schoolbook-ram) and "
                          "etat3-97-fast-staged's",
    "etat3-97-fast-selects": "test_select_registers_of_each_slice_are_bit_exact_and_kept_apart (the same "
                             "select registers on f3-19-etat-schoolbook-ram's sliced core) and "
                             "etat3-97-fast-staged's",
    "etat3-97-fast-tree-selects": "test_select_registers_of_each_slice_are_bit_exact_and_kept_apart and "
                                  "test_a_tree_of_control_registers_over_sliced_copies_is_bit_exact (the same "
                                  "select registers and tree on f3-19-etat-schoolbook-ram) and etat3-97-fast-tree's",
    "etat3-97-fast-cubebank": "etat3-97-fast-exact's and etat3-97-fast-ored's (the same cube bank written from a "
                              "results stage, over the tree of control registers and select registers a slice)",
    "etat3-97-fast-sums": "etat3-97-fast-exact's (the same datapath and reassociated sums; only the loop's "
                          "placement differs)",
    "etat3-97-fast-lean": "test_or_merged_reads_of_local_copies_are_bit_exact (the same register file on "
                          "f3-19-etat-schoolbook-ram) and etat3-97-fast-local's",
    "etat3-97-fast-lean-sources": "test_or_merged_reads_of_local_copies_are_bit_exact (the same register file "
                                  "and operand stage on f3-19-etat-schoolbook-ram) and etat3-97-fast-lean's",
    "asip-79-k5": "asip-79-k10 (the same iterative Karatsuba ASIP, another core size)",
    "asip-79-lsb5": "asip-79-lsb10 (the same bit-serial ASIP, another memory width)",
    "asip-79-lsd2": "asip-79-lsd5 (the same digit-serial ASIP, another digit)",
    "asip-79-lsd3": "asip-79-lsd5 (the same digit-serial ASIP, another digit)",
    "f2-79-etat-karatsuba": "f2-47-etat-banked and f2-79-etat-tmvp3 (binary cores) and the Karatsuba "
                            "unit's own simulations",
    "etat3-97-small": "f3-19-etat-schoolbook (a small ternary core) and "
                      "test_a_small_pipelined_karatsuba_f3_core_is_bit_exact; 23,400 cycles a pairing",
    "f2-47-etat-banked-piped": "f2-47-etat-banked-ram (the same units with the same stage, forwarding and "
                               "registered word) and f2-79-etat-tmvp3-piped (the same recipe on "
                               "flip-flop registers)",
    "f3-19-etat-schoolbook-piped": "f2-79-etat-tmvp3-piped (the same recipe: operand stage, forwarding, "
                                   "registered word) and f3-19-etat-schoolbook-ram (the same units and stage)",
    "f2-79-etat-karatsuba-piped": "f2-79-etat-tmvp3-piped (the same recipe on another multiplier) and the "
                                  "Karatsuba unit's own simulations",
    "ate-bn-tiny-small": "ate-bn-tiny-calls (the same units, RAM bank, sync ROM and wait words, with calls) and "
                         "test_idle_runs_collapse_into_wait_words (its wait words, by the model)",
    "ate-bn-tiny-p2": "ate-bn-tiny-check2 (the same product of two pairings, its outputs compared with 1 in "
                      "the core)",
    "ate-bn-tiny-check2": "ate-bn-tiny-check2v (the same check of two pairs, its points validated too)",
    "ate-bn-chavez11-toy": "ate-bn-tiny-calls (a prime core) and, unit by unit, Chávez Corona et al.'s "
                          "multiplier and coefficient-form adder (tests/rtl/prime/test_units.py); its "
                          "bench alone builds for 144 s",
}


def _sized(names):
    """Designs of words over 200 bits are `slow` (minutes of Verilator build each), and so are
    :data:`SLOW_CORES`."""
    return [pytest.param(n, marks=pytest.mark.slow) if designs.get(n).field.width > 200 or n in SLOW_CORES
            else n for n in names]


@pytest.mark.parametrize("name", _sized(designs.names()))
def test_core_is_bit_exact_and_constant_time(name):
    d = designs.get(name)
    n = 20 if d.report()["cycles"] < 10**6 else 2  # millions of cycles per pairing: two of them
    rows = pairings(d, n, seed=7)  # a batch of k: n/k runs of k pairings
    res = simulate(d, rows=rows)
    assert (res.verified, res.failed, res.timeout) == (n // d.batch, 0, False)
    cycles = {p["cycles"] for p in res.runs}
    assert cycles == {d.compile().cycles}
    assert res.constant_time


def test_a_small_pipelined_karatsuba_f3_core_is_bit_exact():
    """etat3-97-fast's datapath (a pipelined Karatsuba over F_3^m, four banks with one write port,
    units writing each bank) on f3-19, at three stages: 20 pairings bit-exact in constant cycles."""
    data = json.loads(json.dumps(designs.get("etat3-97-fast").data))
    data["name"], data["curve"] = "etat3-19-fast", "f3-19"
    mul = data["datapath"]["units"][0]["mul"]
    del mul["schedule"]
    mul["stages"] = 3
    d = designs.from_data(data)
    res = simulate(d, rows=pairings(d, 20, seed=7))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
    assert d.multiplier_options()["kind"] == "karatsuba" and d.compile().cycles < 400


# by default the local copies run in Verilator in test_or_merged_reads_of_local_copies_are_bit_exact
# (the same register file on f3-19-etat-schoolbook-ram, ORed) and, multiplexed, in
# test_a_small_constant_unit_is_bit_exact_in_a_core (ate-bn254-fast-local's recipe on bn-tiny)
@pytest.mark.parametrize("name", [pytest.param("f3-19-etat-schoolbook-ram", marks=pytest.mark.slow),
                                  pytest.param("f2-47-etat-banked-ram", marks=pytest.mark.slow)])
def test_local_ram_control_runs_the_same_words_bit_exact(name):
    """``"ram_control": "local"`` (etat3-97-fast-local's register file) on a small core of LUT RAM
    banks, a loop and forwarding: each bank copy written and read through its own registers, loaded
    from the next word, and the loader's writes a cycle late; 20 pairings bit-exact in the same
    cycles as the shared control (a second core, of five banks over F_2^47, in the ``slow`` run)."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = name + "-local"
    data["datapath"]["ram_control"] = "local"
    d = designs.from_data(data)
    assert d.compile().cycles == designs.get(name).compile().cycles
    res = simulate(d, rows=pairings(d, 20, seed=7))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_sliced_copies_loaded_from_a_second_word_register_are_bit_exact():
    """``"slice_bits"`` and ``"word_stages": 2`` (etat3-97-fast-sliced's register file) on
    f3-19-etat-schoolbook-ram's: each local copy cut into 16-bit slices, each with its own read- and
    write-address and write-enable registers loaded from a second word register; the same words as
    the local control, a cycle more a run, every replica kept apart for the synthesis (``keep`` on its
    ``always`` block), and 20 pairings bit-exact in those cycles."""
    from pairhw.flow import verilog

    data = json.loads(json.dumps(designs.get("f3-19-etat-schoolbook-ram").data))
    data["name"] = "f3-19-etat-schoolbook-local"
    data["datapath"]["ram_control"] = "local"
    local = designs.from_data(data)
    d = _sliced_f3_19()
    assert d.compile().microcode.packed() == local.compile().microcode.packed()
    assert d.compile().cycles == local.compile().cycles + 1
    text = verilog(d)
    replicas = re.findall(r"\(\* pairhw_replica = 32'd1 \*\)\n\s*reg (?:\[\d+:0\] )?(\w+)", text)
    kept = re.findall(r"\(\* keep = 32'd1 \*\)\n\s*always @\(posedge clk\)\n\s*(\w+)\s*<=", text)
    assert len(replicas) > 3 * -(-38 // 16) and sorted(replicas) == sorted(kept)
    assert "word_q1" in text
    res = simulate(d, rows=pairings(d, 20, seed=7))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def _sliced_f3_19(word_stages=2):
    """f3-19-etat-schoolbook-ram's datapath with local copies in 16-bit slices (etat3-97-fast-sliced's
    register file at test size)."""
    data = json.loads(json.dumps(designs.get("f3-19-etat-schoolbook-ram").data))
    data["name"] = "f3-19-etat-schoolbook-sliced"
    data["datapath"].update(ram_control="local", word_stages=word_stages, slice_bits=16)
    return designs.from_data(data)


@pytest.mark.parametrize("word_stages", [2, 3])
def test_each_slice_keeps_its_own_address_registers_through_the_synthesis(word_stages):
    """After Yosys' synth_ecp5 (native, up to its LUT mapping) no flip-flop addresses the LUT RAM of
    two slices: each slice's read- and write-address replicas stay registers of their own.  A
    lookup of the register's place built for each slice became a ROM per slice, Yosys folded the
    slice's register into its ROM whatever its ``keep``, then merged the identical ROMs and their
    registers, so one register drove every slice of a copy (found on etat3-97-fast-staged's netlist,
    whose copies spanned the die from one read-address register)."""
    from collections import defaultdict

    d = _sliced_f3_19(word_stages)
    net = _ecp5_netlist(d)
    driver = {}  # net bit -> the flip-flop whose Q it is
    for name, cell in net["cells"].items():
        if cell["type"] == "TRELLIS_FF":
            driver[cell["connections"]["Q"][0]] = name
    slices = defaultdict(set)  # flip-flop -> the slices (memories) whose LUT RAM addresses it sets
    for name, cell in net["cells"].items():
        if cell["type"] == "TRELLIS_DPR16X4":
            for port in ("RAD", "WAD"):
                for bit in cell["connections"][port]:
                    if bit in driver:
                        slices[driver[bit]].add((port, name.split(".")[0]))
    read = [ff for ff, s in slices.items() if any(p == "RAD" for p, _ in s)]
    write = [ff for ff, s in slices.items() if any(p == "WAD" for p, _ in s)]
    assert len(read) > 100 and len(write) > 100
    shared = {ff: sorted(s) for ff, s in slices.items() if len({m for _, m in s}) > 1}
    assert not shared


# slow with word_stages 3: the tree of control registers has a default test of its own
# (test_a_tree_of_control_registers_over_sliced_copies_is_bit_exact)
@pytest.mark.parametrize("word_stages", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_select_registers_of_each_slice_are_bit_exact_and_kept_apart(word_stages):
    """``"slice_selects"`` on the sliced F_3^19 core (forwarding, several banks a port): each slice of
    a unit input's bank multiplexer and forwarding multiplexer reads select registers of its own,
    loaded from the next word; the same words and cycles, the replicas in the Verilog and, after
    Yosys' synth_ecp5 (native, up to its LUT mapping), a flip-flop each, and 20 pairings bit-exact."""
    from pairhw.flow import verilog

    d = _same_words_with(_sliced_f3_19(word_stages), "f3-19-etat-schoolbook-selects", slice_selects=True)
    selects = {r for r in _replicas(verilog(d)) if re.search(r"_(bank|fwd_sel)_s\d+$", r)}
    # mul's input a: its bank field and its forwarding select, one register a slice (38 bits: 2 slices)
    assert {"mul_a_bank_s0", "mul_a_bank_s1", "mul_a_fwd_sel_s0", "mul_a_fwd_sel_s1"} <= selects
    _each_a_flip_flop(d, selects)
    _twenty_bit_exact(d)


def test_a_tree_of_control_registers_over_sliced_copies_is_bit_exact():
    """``"word_stages": 3`` on f3-19-etat-schoolbook-ram's datapath with sliced local copies, a
    results stage on the adders and forwarding (etat3-97-fast-staged's recipe): each copy's registers
    of the next word's read fields and of its bank's next write load the word after the next
    (``word_q1``), and each slice's registers load those, so no control net runs from the word to
    every slice; the same words as with two stages, a cycle more a run, every copy's registers kept
    apart for the synthesis, and 20 pairings bit-exact in those cycles, the loaded inputs (written
    two cycles late) among them."""
    from pairhw.flow import verilog

    two = _staged_tree("f3-19-etat-schoolbook-staged2", word_stages=2)
    d = _staged_tree("f3-19-etat-schoolbook-tree")
    assert d.compile().microcode.packed() == two.compile().microcode.packed()
    assert d.compile().cycles == two.compile().cycles + 1
    text = verilog(d)
    # adder 0's input a reads bank m through a copy whose next address is a register of its own
    assert {"add0_a_m_next", "m_c0_wen", "m_c0_waddr"} <= _replicas(text) and "word_q2" in text
    _twenty_bit_exact(d)


@pytest.mark.parametrize("keys", [{}, pytest.param({"decode_reads": True, "decode_writes": True, "read_merge": "or",
                                                     "slice_writes": True, "group_slices": 2},
                                                    marks=pytest.mark.slow)])
def test_a_tree_of_control_registers_with_groups_of_slices_is_bit_exact(keys):
    """``"word_stages": 4`` on the tree's datapath with 4-bit slices (ten a copy): each copy's
    registers load the word two after the next, a register of each group of ``group_slices`` slices
    (default 4; 2 with the decoded reads and writes) loads what its slices load, and the slices load
    that; the loader's choice is registered first (with ``slice_writes`` each bank's write choice
    passes a register a group too).  The same words as with three stages, a cycle more a run, the
    groups' registers in the Verilog (ten slices: three groups of four, five of two; in the slow run
    flip-flops of their own after synth_ecp5), and 20 pairings bit-exact in those cycles, the loaded
    inputs among them."""
    from pairhw.flow import verilog

    three = _staged_tree("f3-19-etat-schoolbook-tree-s4", slice_bits=4,
                         **{k: v for k, v in keys.items() if k != "group_slices"})
    d = _staged_tree("f3-19-etat-schoolbook-groups", slice_bits=4, word_stages=4, **keys)
    assert d.compile().microcode.packed() == three.compile().microcode.packed()
    assert d.compile().cycles == three.compile().cycles + 1
    text = verilog(d)
    groups = {r for r in _replicas(text) if re.search(r"_g\d+_(we|wa|ra|ra_load)$", r)}
    n = 5 if keys else 3
    assert {f"a1_c0_g{g}_we" for g in range(n)} <= groups and "a1_c0_g5_we" not in groups
    assert not any(re.search(r"_g\d+_", r) for r in _replicas(verilog(three)))
    if keys:  # (synth_ecp5 takes a minute: the slow run; RegisterFile.replica's keep is tested with 3 stages)
        assert {f"p_wsel_g{g}" for g in range(n)} <= _replicas(text)
        _each_a_flip_flop(d, sorted(groups))
    _twenty_bit_exact(d)


def test_the_rom_address_and_the_constants_from_registers_ahead_are_bit_exact():
    """``"pc_ahead"`` and ``"const_ahead"`` on f3-19-etat-schoolbook-ram (a block RAM ROM, a loop):
    the ROM's address is a register of the next cycle's pc (``pc_ahead``), stepped a cycle ahead of the
    pc through the loop from a START cycle of its own, and the constant table's output a register
    loaded from the next word's select; the same words, a cycle more a run (START), and 20 pairings
    bit-exact in those cycles."""
    from pairhw.flow import verilog

    plain = designs.get("f3-19-etat-schoolbook-ram")
    assert plain.compile().microcode.loop is not None
    consts = _same_words_with(plain, "f3-19-etat-schoolbook-consts", const_ahead=True)
    d = _a_cycle_more_with(consts, "f3-19-etat-schoolbook-ahead", pc_ahead=True)
    text = verilog(d)
    # the ROM's address: pc_ahead, a register (Amaranth names it after the port it drives)
    addr = re.search(r"assign pc_ahead = (\w+);", text) or re.search(r"reg \[\d+:0\] (pc_ahead)\b", text)
    assert addr and re.search(rf"reg \[\d+:0\] {addr.group(1)}\b", text) and re.search(r"const_out <=", text)
    assert "pc_ahead" not in verilog(plain) and not re.search(r"const_out <=", verilog(plain))
    _twenty_bit_exact(d)


@pytest.mark.parametrize("keys", [{}, {"word_stages": 4, "slice_bits": 4, "pc_ahead": True}])
def test_the_rom_output_through_a_register_of_its_own_is_bit_exact(keys):
    """``"rom_stage"``: the block RAM ROM's output passes a register of its own (``word_q0``) before
    the word registers, on the tree's datapath (three word stages; four with the pc ahead): the same
    words, a cycle more a run (one more DRAIN state; the schedule's report counts the register), and
    20 pairings bit-exact in those cycles."""
    from pairhw.flow import verilog

    plain = _staged_tree("f3-19-etat-schoolbook-tree-rs", rom="sync-registered", **keys)
    d = _a_cycle_more_with(plain, "f3-19-etat-schoolbook-rom-stage", rom_stage=True)
    assert d.compile().report()["word_stages"] == plain.compile().report()["word_stages"] + 1  # (pairhw schedule)
    text = verilog(d)
    assert re.search(r"reg \[\d+:0\] word_q0\b", text) and "word_q0" not in verilog(plain)
    _twenty_bit_exact(d)


def test_rom_columns_and_each_copys_own_ahead_registers_are_bit_exact():
    """``"rom_columns"``: the block RAM ROM as memories of 9 bits of the word each (``rom_c0`` …),
    and ``"ahead_copies"``: each copy's decoder of its next read reads registers of its own of the
    word two ahead's fields (``{copy}_ahead``, ``{copy}_sel_ahead``, replicas), loaded from
    rom_stage's register (``word_q0``, without reset, marked for the ECP5 flow's block RAM output
    register), on the four-stage tree with decoded reads: the same words and cycles, and 20 pairings
    bit-exact in them."""
    from pairhw.flow import verilog

    plain = _staged_tree("f3-19-etat-schoolbook-tree-rc", rom="sync-registered", word_stages=4, slice_bits=4,
                         pc_ahead=True, rom_stage=True, decode_reads=True)
    d = _same_words_with(plain, "f3-19-etat-schoolbook-rom-columns", rom_columns=9, ahead_copies=True)
    text, width = verilog(d), d.compile().microcode.width
    assert sorted(set(re.findall(r"\bword_c(\d+)__data\b", text)), key=int) == [str(j) for j in range(-(-width // 9))]
    assert "word_c0" not in verilog(plain)
    replicas = _replicas(text)
    copies = {r.removesuffix("_ra_next") for r in re.findall(r"reg (?:\[\d+:0\] )?(\w+_ra_next)\b", text)}
    assert copies and all(f"{c}_ahead" in replicas for c in copies)
    assert re.search(r"\(\* pairhw_bram_output = 32'd1 \*\)\n\s*reg \[\d+:0\] word_q0\b", text)
    assert re.search(r"\bword_q0 <= word_data;", text)  # the columns' words, with no reset before the register
    _twenty_bit_exact(d)


def test_rom_columns_of_a_block_ram_rom_read_straight_into_the_word_are_bit_exact():
    """``"rom_columns"`` on a block RAM ROM whose output is the word (``"rom": "sync"``, no word
    register): the columns' words side by side, the same words and cycles, 20 pairings bit-exact."""
    from pairhw.flow import verilog

    plain = _ram_read("f3-19-etat-schoolbook-ram", "comb", rom="sync")
    d = _same_words_with(plain, "f3-19-etat-schoolbook-ram-columns", rom_columns=16)
    width = d.compile().microcode.width
    assert len(set(re.findall(r"\bword_c(\d+)__data\b", verilog(d)))) == -(-width // 16)
    _twenty_bit_exact(d)


def _staged_tree(name, units=None, **datapath):
    """f3-19-etat-schoolbook-ram's datapath with sliced local copies, the tree of control registers
    (word stages 3) and a results stage on the adders (with ``units``, those keys on every unit but
    the constant table), as ``name``, changed by ``datapath``."""
    data = json.loads(json.dumps(designs.get("f3-19-etat-schoolbook-ram").data))
    data["name"] = name
    data["datapath"].update({"ram_control": "local", "word_stages": 3, "slice_bits": 16, **datapath})
    for u in data["datapath"]["units"]:
        if units is not None and u["kind"] != "const":
            u.update(units)
        elif u["name"] == "add":
            u["pipeline"] = ["operands", "results"]
    return designs.from_data(data)


def _replicas(text) -> set:
    """The registers of Verilog ``text`` that carry pairhw_replica."""
    return set(re.findall(r"\(\* pairhw_replica = 32'd1 \*\)\n\s*reg (?:\[\d+:0\] )?(\w+)", text))


def _same_words_with(plain, name, **datapath):
    """``plain`` with the ``datapath`` keys, as ``name``: keys of the hardware alone, so the same
    words and cycles."""
    data = json.loads(json.dumps(plain.data))
    data["name"] = name
    data["datapath"].update(datapath)
    d = designs.from_data(data)
    assert d.compile().microcode.packed() == plain.compile().microcode.packed()
    assert d.compile().cycles == plain.compile().cycles
    return d


def _a_cycle_more_with(plain, name, **datapath):
    """``plain`` with the ``datapath`` keys, as ``name``: the same words, a cycle more a run."""
    data = json.loads(json.dumps(plain.data))
    data["name"] = name
    data["datapath"].update(datapath)
    d = designs.from_data(data)
    assert d.compile().microcode.packed() == plain.compile().microcode.packed()
    assert d.compile().cycles == plain.compile().cycles + 1
    return d


def _each_a_flip_flop(d, names):
    """After Yosys' synth_ecp5 (native, up to its LUT mapping) each register of ``names`` is
    flip-flops of its own (the bits the words use: the others are constants), none merged."""
    net = _ecp5_netlist(d)
    q = {c["connections"]["Q"][0] for c in net["cells"].values() if c["type"] == "TRELLIS_FF"}
    ffs = {n: frozenset(b for b in net["netnames"][n]["bits"] if b in q) for n in names}
    assert all(ffs.values()) and len(set().union(*ffs.values())) == sum(map(len, ffs.values()))


def _twenty_bit_exact(d):
    res = simulate(d, rows=pairings(d, 20, seed=7))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_decoded_writes_on_the_tree_are_bit_exact():
    """``"decode_writes"`` on the tree of control registers (the test above's datapath with word
    stages 3): each copy's registers of the next write hold whether it writes that copy and where
    (``a1_c0_we_next``, ``a1_c0_wa_next``, flip-flops; without it combinational) instead of the
    write's enable and address, so its slices' registers load flip-flops; the same words and cycles,
    and 20 pairings bit-exact in them."""
    from pairhw.flow import verilog

    tree = _staged_tree("f3-19-etat-schoolbook-tree")
    d = _same_words_with(tree, "f3-19-etat-schoolbook-decoded", decode_writes=True)
    replicas = _replicas(verilog(d))
    assert {"a1_c0_we_next", "a1_c0_wa_next"} <= replicas and "a1_c0_waddr" not in replicas
    assert "a1_c0_waddr" in verilog(tree) and "a1_c0_we_next" not in re.findall(r"reg (\w+)", verilog(tree))
    _twenty_bit_exact(d)


def test_decoded_reads_on_the_tree_are_bit_exact():
    """``"decode_reads"`` on the tree of control registers, with each port's copies chosen by a
    multiplexer and ORed (``read_merge`` or): each copy's registers of the next read hold the place it
    reads (``a1_..._ra_next``, flip-flops; without it a lookup of the next word's field registers,
    ``..._next``) and whether it reads, so its slices' read-address registers load flip-flops; the same
    words and cycles, and 20 pairings bit-exact in them."""
    from pairhw.flow import verilog

    for merge in ("mux", "or"):
        tree = _staged_tree("f3-19-etat-schoolbook-tree", read_merge=merge)
        d = _same_words_with(tree, "f3-19-etat-schoolbook-decoded-reads", decode_reads=True)
        replicas, before = _replicas(verilog(d)), _replicas(verilog(tree))
        assert any(r.endswith("_ra_next") for r in replicas) and not any(r.endswith("_ra_next") for r in before)
        assert any(r.endswith("_sel_next") for r in before) and not any(r.endswith("_sel_next") for r in replicas)
        _twenty_bit_exact(d)


@pytest.mark.parametrize("word_stages", [2, 3])
def test_write_selects_of_each_slice_are_bit_exact_and_kept_apart(word_stages):
    """``"slice_writes"`` on the sliced F_3^19 core (38 bits in two slices): each slice of a bank's
    write multiplexer chooses on a register of its own of the write's choice (``p_wsel_s0``,
    ``p_wsel_s1``, loaded as ``p_wsel`` is, or from ``p_wsel_next`` on the tree); the same words
    and cycles, the registers flip-flops of their own after Yosys' synth_ecp5, and 20 pairings
    bit-exact."""
    from pairhw.flow import verilog

    plain = _sliced_f3_19(word_stages)
    d = _same_words_with(plain, "f3-19-etat-schoolbook-write-selects", slice_writes=True)
    text, before = verilog(d), verilog(plain)
    sels = {r for r in _replicas(text) if re.search(r"_wsel_s\d+$", r)}
    assert {"p_wsel_s0", "p_wsel_s1"} <= sels and not re.search(r"_wsel_s\d", before)
    _each_a_flip_flop(d, sorted(sels))
    _twenty_bit_exact(d)


def test_a_write_stage_in_the_copies_is_bit_exact():
    """``"write_stage": true`` on the tree of control registers (no forwarding, a results stage on
    every unit but the constant table): each write is chosen a cycle early from the writers' outputs
    (the table's value from the next word, the loader's a cycle before its write) into a register in
    each slice of each copy (``a1_wdata_early``, ``const_out_early``), a cycle more on every unit's
    latency, which the schedule counts: more cycles than without it, and 20 pairings bit-exact in
    those ``Microcode.run`` gives."""
    from pairhw.flow import verilog

    stages = {"pipeline": ["operands", "results"]}
    plain = _staged_tree("f3-19-etat-schoolbook-unstaged", forward=False, units=stages)
    d = _staged_tree("f3-19-etat-schoolbook-write-stage", forward=False, units=stages, write_stage=True)
    assert d.compile().cycles > plain.compile().cycles
    text = verilog(d)
    assert {"a1_wdata_early", "p_wdata_early", "const_out_early"} <= set(re.findall(r"\w+_early", text))
    assert "_early" not in verilog(plain)
    # the slices' registers of the write (named after the RAM ports' data they drive), kept apart
    data_regs = r"pairhw_replica = 32'd1 \*\)\n\s*reg \[\d+:0\] _signature__data"
    assert len(re.findall(data_regs, text)) > 0 == len(re.findall(data_regs, verilog(plain)))
    row, n_in = pairings(d, 1, seed=7)[0], len(d.compile().microcode.inputs)
    assert d.compile().run(list(row[:n_in])) == (list(row[n_in:]), d.compile().cycles)
    _twenty_bit_exact(d)


def test_a_write_stage_in_the_bank_is_bit_exact():
    """``"write_stage": "bank"`` on the tree a level deeper (word stages 4, 4-bit slices in groups,
    ``slice_writes``, no forwarding, the constant table ahead): each slice of a bank's write
    multiplexer chooses, on its own register of the choice loaded a cycle early, among the writers'
    outputs a cycle before the write, into one register of that slice (``a1_wd_s0``) that every copy
    of the bank writes from; a cycle more on every unit's latency, as with the registers in each
    copy (the same words and cycles as ``"write_stage": true`` on three stages, a cycle more a run),
    and 20 pairings bit-exact in those ``Microcode.run`` gives, the loaded inputs among them."""
    from pairhw.flow import verilog

    stages = {"pipeline": ["operands", "results"]}
    copies = _staged_tree("f3-19-etat-schoolbook-write-stage-s4", forward=False, units=stages, slice_bits=4,
                          write_stage=True)
    d = _staged_tree("f3-19-etat-schoolbook-write-bank", forward=False, units=stages, slice_bits=4, word_stages=4,
                     slice_writes=True, write_stage="bank", const_ahead=True)
    assert d.compile().microcode.packed() == copies.compile().microcode.packed()
    assert d.compile().cycles == copies.compile().cycles + 1
    text = verilog(d)
    assert {f"a1_wd_s{j}" for j in range(10)} <= set(re.findall(r"reg \[\d+:0\] (\w+_wd_s\d+)", text))
    assert "_early" not in re.sub(r"const_out_early", "", text) and "wd_s" not in verilog(copies)
    _twenty_bit_exact(d)


def test_the_loader_shifting_on_valid_alone_is_bit_exact_with_words_offered_while_busy(monkeypatch):
    """``"load_on_valid"``: the loader's shift register of the input words loads on the input's
    valid in any state, not only while loading.  A bench that offers a word every cycle (the
    pairing's words, then words of ones and noise while the core runs and unloads, which it does not
    take) gets 20 pairings bit-exact in the same cycles, with the same words; the shift register's
    enable no longer reads the core's state (the Verilog's shift is outside the FSM's case)."""
    import pairhw.emit
    from pairhw.flow import verilog

    plain = _staged_tree("f3-19-etat-schoolbook-tree")
    d = _same_words_with(plain, "f3-19-etat-schoolbook-load-on-valid", load_on_valid=True)
    bench = pairhw.emit.core_testbench

    def noisy(core):  # every cycle valid: after the pairing's words, noise the core must not take
        text = bench(core)
        offer = "i_valid = (sent < NIN * B);\n        i_payload = i_valid ? vin[sent / B][(sent % B) * W +: W] : 0;"
        assert offer in text
        return text.replace(offer, "i_valid = 1;\n        i_payload = (sent < NIN * B) ? "
                                   "vin[sent / B][(sent % B) * W +: W] : {W{1'b1}} ^ cyc;")

    monkeypatch.setattr(pairhw.emit, "core_testbench", noisy)
    _twenty_bit_exact(d)
    _twenty_bit_exact(plain)
    assert verilog(d) != verilog(plain)


def test_a_write_stage_with_forwarding_is_bit_exact():
    """``write_stage`` in a forwarding datapath: a unit's output reaches the copies' registers of the
    write a cycle before the write, and the operand registers both then (``mul_early``: the
    forwarded delay is the latency without the write stage) and in the write's cycle through a
    register beside the unit (``mul_held``): fewer cycles than the same write stage without
    forwarding, both sources used, and 20 pairings bit-exact in those ``Microcode.run`` gives."""
    from pairhw.flow import verilog

    stages = {"pipeline": ["operands", "results"]}
    plain = _staged_tree("f3-19-etat-schoolbook-write-stage", forward=False, units=stages, write_stage=True)
    d = _staged_tree("f3-19-etat-schoolbook-write-forward", forward=True, units=stages, write_stage=True)
    assert d.compile().cycles < plain.compile().cycles
    text = verilog(d)
    assert {"mul_held", "add0_held"} <= set(re.findall(r"\w+_held", text))
    assert "_held" not in verilog(plain)
    listing = d.compile().microcode.listing()
    assert "<mul_early" in listing and re.search(r"<mul\b(?!_)", listing)
    _twenty_bit_exact(d)


def test_control_registers_of_each_slice_are_bit_exact_and_kept_apart():
    """``"slice_controls"`` on the sliced F_3^19 core (operand stage, two adders with three ops, cube
    and cube-root units of two powers): each adder's op and each power unit's select reach the unit
    as one register a slice (two: 38 bits in 16-bit slices), loaded as the operand stage's
    register is; the same words and cycles as without, the copies in the Verilog and, after Yosys'
    synth_ecp5 (native, up to its LUT mapping), flip-flops of their own, and 20 pairings bit-exact."""
    from pairhw.flow import verilog

    plain = _sliced_f3_19()
    d = _same_words_with(plain, "f3-19-etat-schoolbook-controls", slice_controls=True)
    text = verilog(d)
    controls = {r for r in _replicas(text) if re.search(r"_(op|k)_q\d+$", r)}
    assert controls == {f"{p}_{c}_q{j}" for p, c in (("add0", "op"), ("add1", "op"), ("cube", "k"), ("cbrt", "k"))
                        for j in range(2)}
    assert not re.search(r"\badd0_op_q\b", text) and re.search(r"\badd0_op_q\b", verilog(plain))
    _each_a_flip_flop(d, controls)
    _twenty_bit_exact(d)


def test_a_start_register_for_each_slice_of_the_multiplier_is_bit_exact():
    """``"slice_controls"`` on an F_2^47 core whose msd multiplier sums its digit products in 8-bit
    slices (tate1-239-msd60-slicedmul's recipe at test size): the multiplier's start reaches each of
    its six slices and its counter from a register of its own (seven copies of the operand stage's
    start register), the squarer's power select one register a slice of the core (three: 47 bits
    in 16-bit slices); the same words and cycles as without, and 20 pairings bit-exact."""
    from pairhw.flow import verilog

    data = json.loads(json.dumps(designs.get("tate1-47-msd24-ram").data))
    data["name"] = "tate1-47-msd24-slicedmul"
    data["datapath"].update(rom="sync-registered", ram_control="local", word_stages=2, slice_bits=16)
    data["datapath"]["units"][0]["mul"].update(stages=2, slice_bits=8)
    d = _same_words_with(designs.from_data(data), "tate1-47-msd24-controls", slice_controls=True)
    assert {r for r in _replicas(verilog(d)) if re.search(r"_(go|k)_q\d+$", r)} == \
        {f"mul_go_q{j}" for j in range(7)} | {f"sqr_k_q{j}" for j in range(3)}
    _twenty_bit_exact(d)


def test_a_write_stage_over_decoded_writes_is_bit_exact():
    """``write_stage`` and ``decode_writes`` together (the F_2^239 recipe docs/ARCHITECTURE.md
    measures): each copy's decoded write-enable and place and each slice's register of the write,
    the cycles the schedule counts: 20 pairings bit-exact in those ``Microcode.run`` gives."""
    from pairhw.flow import verilog

    d = _staged_tree("f3-19-etat-schoolbook-write-decoded", forward=False, units={"pipeline": ["operands", "results"]},
                     write_stage=True, decode_writes=True)
    text = verilog(d)
    assert "a1_wdata_early" in text and re.search(r"a1_c\d+_we_next", text)
    _twenty_bit_exact(d)


def test_a_results_stage_and_source_registers_over_sliced_copies_are_bit_exact():
    """tate1-239-msd60-staged-sources' recipe on f3-19-etat-schoolbook-ram's datapath: sliced local
    copies loaded from a second word register, no forwarding, a results stage on the adders and the
    power units (their results registered before the write, a cycle of latency each) and the operand
    stage's registers at the sources.  The stages cost cycles, which the schedule counts exactly:
    20 pairings bit-exact in the cycles ``Microcode.run`` gives, the same for every pairing."""
    data = json.loads(json.dumps(designs.get("f3-19-etat-schoolbook-ram").data))
    data["name"] = "f3-19-etat-schoolbook-staged"
    data["datapath"].update(ram_control="local", word_stages=2, slice_bits=16, forward=False)
    plain = designs.from_data(json.loads(json.dumps(data)))
    data["datapath"]["operand_stage"] = "sources"
    for u in data["datapath"]["units"]:
        if u["name"] in ("add", "cube", "cbrt"):
            u["pipeline"] = ["operands", "results"]
    d = designs.from_data(data)
    assert d.compile().cycles > plain.compile().cycles
    from pairhw.flow import verilog

    # adder 0's input a: a register of bank m's copy (its slices' reads) and one of its bank field
    source = r"reg \[\d+:0\] add0_a_(m|bank)_q\b"
    assert len(set(re.findall(source, verilog(d)))) == 2 and not re.search(source, verilog(plain))
    row, n_in = pairings(d, 1, seed=7)[0], len(d.compile().microcode.inputs)
    assert d.compile().run(list(row[:n_in])) == (list(row[n_in:]), d.compile().cycles)
    res = simulate(d, rows=pairings(d, 20, seed=7))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


@pytest.mark.parametrize("replica,ffs", [(False, 4), (True, 8)])
def test_replica_registers_are_kept_apart_by_the_synthesis(replica, ffs):
    """Two 4-bit registers loaded from the same input: Yosys' synth_ecp5 merges them into one, unless
    they carry :data:`~pairhw.rtl.ports.REPLICA` (``keep`` on their flip-flop cells)."""
    import tempfile
    from pathlib import Path

    from amaranth import Cat, Module, Signal
    from amaranth.lib import wiring
    from amaranth.lib.wiring import In, Out

    from pairhw.rtl.ports import REPLICA
    from pairhw.synth.flows import _stat_cells, _yosys

    class Twice(wiring.Component):
        a: In(4)
        o: Out(8)
        name = "Twice"

        def elaborate(self, platform):
            m = Module()
            regs = [Signal(4, name=f"r{i}", attrs={REPLICA: 1} if replica else {}) for i in range(2)]
            m.d.sync += [r.eq(self.a) for r in regs]
            m.d.comb += self.o.eq(Cat(*regs))
            return m

    with tempfile.TemporaryDirectory() as work:
        _yosys("read_verilog -sv design.v\nsynth_ecp5 -top Twice -run begin:map_luts\n"
               "tee -q -o stat.json stat -json\n", unit_verilog(Twice()), Path(work), yosys="native")
        assert _stat_cells(Path(work), "Twice").get("TRELLIS_FF", 0) == ffs


def test_core_rejects_nothing_silently_a_wrong_value_fails():
    """The test bench really compares: a corrupted expected value is reported as a failure."""
    d = designs.get("f2-47-etat-banked")
    rows = pairings(d, 3, seed=7)
    rows[1] = rows[1][:7] + (rows[1][7] ^ 1,)
    res = simulate(d, rows=rows)
    assert (res.verified, res.failed) == (2, 1)
    assert [p["ok"] for p in res.runs] == [True, False, True]


def test_verilog_is_deterministic():
    d = designs.get("f2-47-etat-banked")
    assert unit_verilog(d.core()) == unit_verilog(d.core())


def test_amaranth_simulation_of_a_tiny_core_with_narrow_words(rng):
    """A second simulator and a 5-bit stream (four words per element) on F_2^17."""
    from pairhw.math.binary import pairing as pr
    from pairhw.program.datapath import build_datapath
    from pairhw.program.engine import compile_pairing
    from pairhw.cores.core import PairingCore

    C = curve("f2-17")
    spec = {"io_width": 5, "units": [{"name": "mul", "kind": "mul", "mul": {"kind": "lsd", "digit": 4}},
                                     {"name": "add", "kind": "add"}, {"name": "sqr", "kind": "sqr"},
                                     {"name": "sqrt", "kind": "sqrt"}, {"name": "const", "kind": "const"}]}
    core = PairingCore(compile_pairing(C, pr.etat, build_datapath(of(C.F), spec)), "Tiny")
    pts = [(random_point(C, rng), random_point(C, rng)) for _ in range(2)]
    got = []

    async def tb(ctx):
        for P, Q in pts:
            for x in (*P, *Q):
                for j in range(4):
                    ctx.set(core.i.payload, (x >> (5 * j)) & 31)
                    ctx.set(core.i.valid, 1)
                    await ctx.tick().until(core.i.ready)
            ctx.set(core.i.valid, 0)
            n = 0
            while not ctx.get(core.o.valid):
                await ctx.tick()
                n += 1
            ctx.set(core.o.ready, 1)
            out = []
            for _ in range(4):
                v = 0
                for j in range(4):
                    v |= ctx.get(core.o.payload) << (5 * j)
                    await ctx.tick()
                out.append(v)
            ctx.set(core.o.ready, 0)
            got.append((tuple(out), n))

    sim = Simulator(core)
    sim.add_clock(1e-6)
    sim.add_testbench(tb)
    sim.run()
    for (P, Q), (out, n) in zip(pts, got):
        assert out == tuple(pr.etat(C, P, Q))
        assert n == core.cycles


@pytest.mark.slow
def test_core_synthesizes():
    """The project's own flow: Yosys xc7 on the smallest core (about 2 minutes)."""
    from pairhw.synth.flows import synthesize

    d = designs.get("f2-47-etat-banked")
    core = d.core()
    res = synthesize(unit_verilog(core), d.top, "xc7")
    regs = sum(d.compile().alloc.used.values())
    assert res["luts"] > 0 and res["ffs"] >= regs * d.curve().F.m


def _tiny_design(connect):
    """F_2^17 ηT on a digit-serial multiplier, two adders, a squarer computing x^2 and x^4: every
    register could take any of six units, but the program writes most from one or two."""
    return designs.from_data({
        "name": f"tiny-{connect}", "curve": "f2-17", "algorithm": "etat",
        "datapath": {"io_width": 32, "connect": connect, "units": [
            {"name": "mul", "kind": "mul", "mul": {"kind": "lsd", "digit": 4}},
            {"name": "add", "kind": "add", "count": 2}, {"name": "sqr", "kind": "sqr", "k": [1, 2]},
            {"name": "sqrt", "kind": "sqrt"}, {"name": "const", "kind": "const"}]}})


def test_a_staged_lsd_multiplier_is_bit_exact_in_a_core():
    """The tiny F_2^17 core with its lsd multiplier at 2 stages: a cycle more latency, which the
    schedule counts, and 6 pairings bit-exact in the scheduled cycles."""
    plain = _tiny_design("program")
    data = json.loads(json.dumps(plain.data))
    data["name"] = "tiny-lsd2"
    data["datapath"]["units"][0]["mul"]["stages"] = 2
    d = designs.from_data(data)
    assert d.report()["multiplier"]["latency"] == plain.report()["multiplier"]["latency"] + 1
    res = simulate(d, rows=pairings(d, 6, seed=5))
    assert (res.verified, res.failed, res.timeout) == (6, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles} and res.constant_time


@pytest.mark.parametrize("name,stage,delta,n", [("tate1-47-d4", {"stages": 2}, 1, 3),
                                                ("ate-bn-tiny-small", {"stages": 2}, 1, 4),
                                                # 64 s (its Verilator build): the unit's own test runs by default
                                                pytest.param("ate-bn-chavez11-toy", {"levels": 3}, -2, 2,
                                                             marks=pytest.mark.slow)])
def test_staged_lanes_and_prime_multipliers_are_bit_exact_in_a_core(name, stage, delta, n):
    """tate1-47-d4 with every msd multiplier at 2 stages (its lanes sharing an operand too),
    ate-bn-tiny-small's FIOS multiplier at 2 stages (p's digits and a_0·b_i from registers, p
    subtracted a cycle later), ate-bn-chavez11-toy's
    polynomial Montgomery multiplier with one register over its three adder levels: each
    multiplier's latency moves by ``delta``, which the schedule counts, and the pairings are
    bit-exact in the scheduled cycles."""
    plain = designs.get(name)
    data = json.loads(json.dumps(plain.data))
    data["name"] = name + "-staged"
    for u in data["datapath"]["units"]:
        if u["kind"] == "mul":
            u["mul"].update(stage)
    d = designs.from_data(data)
    before = {u.name: u.latency for u in plain.datapath().units}
    after = {u.name: u.latency for u in d.datapath().units}
    assert {k: after[k] - v for k, v in before.items() if after[k] != v} == \
        {u["name"]: delta for u in data["datapath"]["units"] if u["kind"] == "mul"}
    res = simulate(d, rows=pairings(d, n, seed=7))
    assert (res.verified, res.failed, res.timeout) == (n, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles} and res.constant_time


def test_a_core_connected_by_its_program_is_bit_exact():
    """``"connect": "program"`` builds only the register-file connections the words use (and the
    allocator keeps them few): the same schedule and register count, and the same pairings in the
    same cycles as the fully connected core (Verilator, against the model)."""
    full, pruned = _tiny_design("any"), _tiny_design("program")
    assert pruned.compile().alloc.used == full.compile().alloc.used
    rows = pairings(pruned, 6, seed=5)
    res = simulate(pruned, rows=rows)
    assert (res.verified, res.failed, res.timeout) == (6, 0, False)
    assert {p["cycles"] for p in res.runs} == {full.compile().cycles}


@pytest.mark.slow
def test_a_core_connected_by_its_program_is_smaller():
    """The same core in fewer LUTs (the project's xc7 flow; 2,817 against 3,840 when written, the
    ROM and the units being the same): about 3 minutes."""
    from pairhw.synth.flows import synthesize

    luts = {d.name: synthesize(unit_verilog(d.core()), d.top, "xc7")["luts"]
            for d in (_tiny_design("any"), _tiny_design("program"))}
    assert luts["tiny-program"] < 0.95 * luts["tiny-any"], luts


# f2-79-etat-tmvp3's is slow: f2-47-etat-banked's runs the same connections over more banks
@pytest.mark.parametrize("name", ["f2-47-etat-banked", pytest.param("f2-79-etat-tmvp3", marks=pytest.mark.slow)])
def test_a_design_connected_by_its_program_is_bit_exact_with_banks(name):
    """Pruned reads of a port that reads two banks (f2-47-etat-banked's multiplier), and the write
    port of a RAM bank taking only the units that write it (f2-79-etat-tmvp3), bit-exact."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["datapath"]["connect"] = "program"
    d = designs.from_data(data)
    res = simulate(d, rows=pairings(d, 5, seed=9))
    assert (res.verified, res.failed, res.timeout) == (5, 0, False)


def _ecp5_cells(d) -> dict:
    """Cell counts of design ``d`` after Yosys' synth_ecp5 (native) up to its LUT mapping."""
    import tempfile
    from pathlib import Path

    from pairhw.flow import verilog
    from pairhw.synth.flows import _stat_cells, _yosys

    with tempfile.TemporaryDirectory() as work:
        _yosys(f"read_verilog -sv design.v\nsynth_ecp5 -top {d.top} -run begin:map_luts\n"
               "tee -q -o stat.json stat -json\n", verilog(d), Path(work), yosys="native")
        return _stat_cells(Path(work), d.top)


def _ecp5_netlist(d) -> dict:
    """Design ``d``'s core after Yosys' synth_ecp5 (native) up to its LUT mapping
    (:func:`tests.conftest.ecp5_netlist`)."""
    from pairhw.flow import verilog
    from tests.conftest import ecp5_netlist

    return ecp5_netlist(verilog(d), d.top)


def _ram_read(name, read, **datapath):
    """The built-in design ``name`` with its RAM banks read ``comb`` or ``sync`` (and ``datapath`` set)."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-{read}"
    data["datapath"].update(datapath)
    for b in data["datapath"]["banks"]:
        if b.get("write_ports"):
            b["read"] = read
    return designs.from_data(data)


# slow: by default a bank read at the clock edge runs in Verilator in
# test_the_mid_recipe_at_test_size_is_bit_exact (a block-RAM bank, two shared read ports), and a sync
# ROM with waits in ate-bn-tiny-calls' core test
@pytest.mark.parametrize("name,datapath", [
    # a LUT ROM: pc_next only for the bank's early reads
    pytest.param("f2-79-etat-tmvp3", {}, marks=pytest.mark.slow),
    # the ROM read at the edge too, idle runs held as one word (waits), F_p, pruned connections
    pytest.param("ate-bn-tiny-small", {"connect": "program"}, marks=pytest.mark.slow),
])
def test_a_ram_read_at_the_clock_edge_is_bit_exact_in_the_same_cycles(name, datapath):
    """``"read": "sync"``: the same microcode words, and the same pairings in the same cycles
    (Verilator, against the model), with the reads presented a cycle early and the bypass of a
    write at that edge; the core built without either fails this test (checked when written)."""
    comb, sync = _ram_read(name, "comb", **datapath), _ram_read(name, "sync", **datapath)
    assert sync.compile().microcode.packed() == comb.compile().microcode.packed()
    res = simulate(sync, rows=pairings(sync, 4, seed=11))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {comb.compile().cycles}


def test_a_ram_read_at_the_clock_edge_is_block_ram():
    """Yosys' synth_ecp5 (native, up to its LUT mapping) puts a sync bank in DP16KD block RAM, one
    36-bit-wide copy per read port (six ports, ⌈79/36⌉ = 3 blocks each), and a comb one in LUT RAM."""
    cells = {read: _ecp5_cells(_ram_read("f2-79-etat-tmvp3", read)) for read in ("comb", "sync")}
    assert cells["comb"].get("TRELLIS_DPR16X4", 0) > 0 and cells["comb"].get("DP16KD", 0) == 0
    assert cells["sync"].get("DP16KD", 0) == 6 * 3 and cells["sync"].get("TRELLIS_DPR16X4", 0) == 0


def _shared_reads(name, ports):
    """The built-in design ``name`` with its RAM bank read through ``ports`` shared ports (the square
    root's input through the last)."""
    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = f"{name}-rp{ports}"
    data["datapath"]["banks"][0]["read_ports"] = ports
    next(u for u in data["datapath"]["units"] if u["kind"] == "sqrt")["read_via"] = [ports - 1]
    return designs.from_data(data)


def test_a_core_with_shared_read_ports_is_bit_exact():
    """``"read_ports": 2``: each unit input wired to one of two LUT RAM read ports, addressed by the
    word, port 0 also read by the unloader; the pairings against the model (Verilator), in the
    scheduled cycles."""
    d = _shared_reads("f2-79-etat-tmvp3", 2)
    res = simulate(d, rows=pairings(d, 5, seed=13))
    assert (res.verified, res.failed, res.timeout) == (5, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_shared_read_ports_are_two_lut_ram_copies():
    """Yosys' synth_ecp5 (native, up to its LUT mapping) builds a bank read through two shared ports
    as two copies of its LUT RAM: ⌈79/4⌉ = 20 TRELLIS_DPR16X4 per 16 registers each; the same core
    with a read port per unit input has more than twice as many."""
    cells = {d.name: _ecp5_cells(d).get("TRELLIS_DPR16X4", 0)
             for d in (designs.get("f2-79-etat-tmvp3"), _shared_reads("f2-79-etat-tmvp3", 2))}
    regs = _shared_reads("f2-79-etat-tmvp3", 2).compile().microcode.sizes["r"]
    assert cells["f2-79-etat-tmvp3-rp2"] == 2 * 20 * -(-regs // 16)
    assert cells["f2-79-etat-tmvp3"] > 2 * cells["f2-79-etat-tmvp3-rp2"]


@pytest.mark.parametrize("name,datapath", [
    # `slow`: by default test_the_mid_recipe_at_test_size_is_bit_exact (below)
    pytest.param("f2-79-etat-tmvp3", {}, marks=pytest.mark.slow),
    # F_p with calls, a run table and a block-RAM ROM into a word register (ate-bn254-small's datapath):
    # `slow`; by default test_the_mid_recipe_at_test_size_is_bit_exact (a block-RAM bank with two
    # shared read ports on bn-tiny) and test_a_small_constant_unit_is_bit_exact_in_a_core (a block-RAM ROM
    # into a word register, calls, a run table)
    pytest.param("ate-bn-tiny-calls", {"rom": "sync-registered"}, marks=pytest.mark.slow),
])
def test_shared_read_ports_of_a_block_ram_bank_are_bit_exact(name, datapath):
    """``"read_ports": 2`` on a bank read ``sync``: the same words as the LUT RAM bank with two shared
    ports (each shared port's address is presented a cycle early from the next word, port 0 also
    the unloader's), and the pairings in Verilator against the model, in the scheduled cycles."""
    def variant(read):
        data = json.loads(json.dumps(designs.get(name).data))
        data["name"] = f"{name}-rp2-{read}"
        data["datapath"].update(datapath)
        data["datapath"]["banks"][0].update(read=read, read_ports=2)
        return designs.from_data(data)

    comb, sync = variant("comb"), variant("sync")
    assert sync.compile().microcode.packed() == comb.compile().microcode.packed()
    res = simulate(sync, rows=pairings(sync, 4, seed=17))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {sync.compile().cycles}


@pytest.mark.slow  # by default the LUT RAM copies of shared ports: test_shared_read_ports_are_two_lut_ram_copies
def test_shared_read_ports_of_a_block_ram_bank_are_two_copies():
    """Yosys' synth_ecp5 (native, up to its LUT mapping) builds a sync bank read through two shared
    ports as two block RAM copies (⌈79/36⌉ = 3 DP16KD each), against six with a port per unit input."""
    d = _ram_read("f2-79-etat-tmvp3", "sync")
    data = json.loads(json.dumps(d.data))
    data["name"] = "f2-79-etat-tmvp3-sync-rp2"
    data["datapath"]["banks"][0]["read_ports"] = 2
    assert _ecp5_cells(designs.from_data(data)).get("DP16KD", 0) == 2 * 3


def test_verilog_names_what_the_core_carries():
    """Readable Verilog: a power network's output is one port named ``c`` (not a ``port_NNNN_0``
    per bit), the microcode word's fields and the register file's read ports are named after what
    they carry (``word_mul_a``, ``mul_a_r_rd__addr``), not ``rp__addr_16``."""
    import re

    text = unit_verilog(designs.get("f2-79-etat-tmvp3").core())
    assert not re.search(r"\bport_\d+", text)
    assert re.search(r"^module \w+__sqr__k4 \((c, a|a, c)\);", text, re.M)
    for name in ("word_mul_a", "word_mul_b", "word_sqr_a", "mul_a_r_rd__addr", "mul_b_r_rd__data", "word__data"):
        assert re.search(rf"^\s*(wire|reg) (\[\d+:0\] )?{name};", text, re.M), name
    assert not re.search(r"\brp__", text)


@pytest.mark.parametrize("name", ["tate1-47-d4", "f3-19-etat-schoolbook", "ate-bn-tiny"])
def test_no_port_is_named_by_number(name):
    """Every submodule port is named after a signal (``port_NNNN_0`` is Amaranth's name for a port
    that matches none: the power networks' XOR outputs, the lanes of an MSD group); f2-79-etat-tmvp3
    (binary power networks) in the test above."""
    import re

    assert not re.search(r"\bport_\d+", unit_verilog(designs.get(name).core()))


@pytest.mark.slow  # by default test_a_small_constant_unit_is_bit_exact_in_a_core runs shared words (share 4)
def test_a_run_table_that_runs_shared_words_is_bit_exact():
    """ate-bn-tiny-calls with ``"share": 4``: run-table entries that run part of an earlier step's
    words (ranges that begin inside an earlier entry's), in Verilator against the model, in the
    scheduled cycles."""
    data = json.loads(json.dumps(designs.get("ate-bn-tiny-calls").data))
    data["name"] = "ate-bn-tiny-calls-share4"
    data["datapath"]["share"] = 4
    d = designs.from_data(data)
    mc = d.compile().microcode
    assert any(r.start < s.start <= r.end for r in mc.table for s in mc.table)
    res = simulate(d, rows=pairings(d, 4, seed=15))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


# `slow`: by default test_a_small_constant_unit_is_bit_exact_in_a_core builds the -local recipe on
# bn-tiny (and a mulk unit), ate-bn-tiny-ram the LUT RAM banks, the counter-unit core the LUT6 counters
@pytest.mark.slow
@pytest.mark.parametrize("reference", ["ate-bls12-381-fast-d8", "ate-bls12-381-fast-local"])
def test_the_d8_recipe_at_test_size_is_bit_exact(reference):
    """ate-bls12-381-fast-d8's datapath on bn-tiny: the counter unit with LUT6 counters, its values in
    LUT RAM banks of one write port each (the multiplier's, one per adder, one for the rest), calls
    that overlap and share runs of 4 words; in Verilator against the model, in the scheduled cycles,
    with no flip-flop register and each unit input choosing among the banks alone.  And the same
    with ate-bls12-381-fast-local's local control of the banks (a registered block-RAM word, each
    copy of a bank its own memory), whose Verilog a full-size pairing takes minutes to build."""
    full = designs.get(reference).data["datapath"]
    data = json.loads(json.dumps(designs.get("ate-bn-tiny").data))
    data["name"] = "ate-bn-tiny-" + reference.split("-")[-1]
    dp = data["datapath"]
    adders = next(u for u in dp["units"] if u["kind"] == "add")["count"]
    dp.update({k: full[k] for k in ("calls", "share", "waits", "rom", "ram_control") if k in full})
    dp["banks"] = [{"name": b, "write_ports": 1} for b in ["m", *(f"a{i}" for i in range(adders)), "k"]]
    for u in dp["units"]:
        u["writes"] = ["m"] if u["kind"] == "mul" else ["k"]
        if u["kind"] == "mul":
            u["mul"] = {"kind": "montgomery-pipelined", "segment": 5, "levels": 1, "lut6": True}
        if u["kind"] == "add":
            u["writes_each"] = [f"a{i}" for i in range(adders)]
    d = designs.from_data(data)
    rep, mc = d.report(), d.compile().microcode
    assert rep["interconnect"]["registers"] == 0 and rep["interconnect"]["read_inputs_max"] == len(dp["banks"])
    assert len(mc.table) > 1 and len(mc.words) < mc.cycles  # the run table repeats stored words
    res = simulate(d, rows=pairings(d, 4, seed=18))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_a_small_constant_unit_is_bit_exact_in_a_core():
    """ate-bn-tiny with a ``mulk`` unit for 3, 4 and 12 (ξ = 4 + u's 4a, the doubling step's 3 and
    12, selected per word) writing the shared LUT RAM bank, the -local recipe's calls and banks (three
    adders, each writing a bank of its own: a third of the copies of six): in Verilator against the
    model, in the scheduled cycles."""
    full = designs.get("ate-bn254-fast-local").data["datapath"]
    data = json.loads(json.dumps(designs.get("ate-bn-tiny").data))
    data["name"] = "ate-bn-tiny-mulk"
    dp = data["datapath"]
    add = next(u for u in dp["units"] if u["kind"] == "add")
    adders = add["count"] = 3
    dp.update({k: full[k] for k in ("calls", "share", "waits", "rom", "ram_control")})
    dp["banks"] = [{"name": b, "write_ports": 1} for b in ["m", *(f"a{i}" for i in range(adders)), "k"]]
    for u in dp["units"]:
        u["writes"] = ["m"] if u["kind"] == "mul" else ["k"]
        if u["kind"] == "add":
            u["writes_each"] = [f"a{i}" for i in range(adders)]
    dp["units"].insert(2, {"name": "xk", "kind": "mulk", "k": [3, 4, 12], "writes": ["k"]})
    d = designs.from_data(data)
    assert {op.k for op in d.compile().flow.pre if op.kind == "mulk"} == {3, 4, 12}
    res = simulate(d, rows=pairings(d, 4, seed=21))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


def test_the_mid_recipe_at_test_size_is_bit_exact():
    """ate-bn254-mid's datapath on bn-tiny: two iterative multipliers of two digits a cycle (a product
    every 3 cycles where one digit a cycle takes 4), one block-RAM bank with two shared read ports,
    calls; in Verilator against the model, in the scheduled cycles."""
    data = json.loads(json.dumps(designs.get("ate-bn254-mid").data))
    data.update(name="ate-bn-tiny-mid", curve="bn-tiny")
    data["datapath"]["io_width"] = 16
    next(u for u in data["datapath"]["units"] if u["kind"] == "mul")["mul"]["per_cycle"] = 2
    d = designs.from_data(data)
    assert d.report()["multiplier"] == {"latency": 4, "ii": 3, "count": 2}
    res = simulate(d, rows=pairings(d, 4, seed=19))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


@pytest.mark.slow  # by default the -local recipe's block-RAM ROM into a word register and run table in
# test_a_small_constant_unit_is_bit_exact_in_a_core, a bank read at the clock edge in the mid recipe
def test_a_block_ram_rom_into_a_word_register_is_bit_exact_a_cycle_later():
    """``"rom": "sync-registered"`` on ate-bn-tiny-calls with its bank read at the clock edge (a run
    table, idle runs held by a wait count, ate-bls12-381-small's datapath at test size), with
    ``"share": 2``, so that an entry of one word is followed by another (its next entry is read in
    the cycle it begins): the same pairings in one cycle more
    (Verilator, against the model); the next word's address fields come from the block RAM's output,
    with no LUT ROM copy of them (``rom_next``, which ``sync`` builds), and the run table is read at
    the clock edge too, addressed by the next cycle's entry (``sync`` reads it as a LUT ROM)."""
    from pairhw.flow import verilog

    def variant(rom):
        data = json.loads(json.dumps(designs.get("ate-bn-tiny-calls").data))
        data["name"] = f"ate-bn-tiny-calls-{rom}"
        data["datapath"]["rom"] = rom
        data["datapath"]["share"] = 2
        data["datapath"]["banks"][0]["read"] = "sync"
        return designs.from_data(data)

    sync, d = variant("sync"), variant("sync-registered")
    table = d.compile().microcode.table
    assert any(r.start == r.end and r.count == 1 for r in table[:-1])
    assert d.compile().cycles == sync.compile().cycles + 1
    assert "rom_next" not in verilog(d) and "rom_next" in verilog(sync)
    comb_table = "assign run__data = runs[run__addr];"
    assert comb_table not in verilog(d) and comb_table in verilog(sync)
    res = simulate(d, rows=pairings(d, 4, seed=16))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


@pytest.mark.slow  # by default test_sliced_copies_loaded_from_a_second_word_register_are_bit_exact
def test_a_second_word_register_feeds_block_ram_banks_and_the_run_table_bit_exact():
    """``"word_stages": 2`` on the datapath of the test above (a block-RAM ROM, a bank read at the clock
    edge, a run table with one-word entries): the banks' early addresses come from the second word
    register, the run table and the waits from the ROM as before; the same words, a cycle more a
    run, and the pairings in Verilator against the model."""
    def variant(stages):
        data = json.loads(json.dumps(designs.get("ate-bn-tiny-calls").data))
        data["name"] = f"ate-bn-tiny-calls-w{stages}"
        data["datapath"].update(rom="sync-registered", share=2, word_stages=stages)
        data["datapath"]["banks"][0]["read"] = "sync"
        return designs.from_data(data)

    one, d = variant(1), variant(2)
    assert d.compile().microcode.packed() == one.compile().microcode.packed()
    assert d.compile().cycles == one.compile().cycles + 1
    res = simulate(d, rows=pairings(d, 3, seed=16))
    assert (res.verified, res.failed, res.timeout) == (3, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}


@pytest.mark.parametrize("name,curve,stage", [
    ("f3-19-etat-schoolbook-ram", None, "sources"),
    pytest.param("f3-19-etat-schoolbook-ram", None, "port", marks=pytest.mark.slow),
    pytest.param("ate-bn254-fast-local", "bn-chavez11-toy", None, marks=pytest.mark.slow)])
def test_or_merged_reads_of_local_copies_are_bit_exact(name, curve, stage):
    """``"read_merge": "or"``: each local copy a port reads holds a word of zeros that its read-address
    register loads unless the next word reads that copy, and the port ORs its copies (no multiplexer
    on the bank field). The same words and cycles as the multiplexed copies, 20 pairings bit-exact in
    constant cycles on the F_3^19 core (four banks, an operand stage) and, in the ``slow`` run, on
    ate-bn254-fast-local's register file (ten banks, eight adders writing one each) over a 110-bit BN
    curve. By default the F_3^19 core has its operand registers at the sources (``"operand_stage":
    "sources"``: at each copy's read, each forwarded result and each forwarding select, the OR in
    the unit's cycle after them), in the ``slow`` run after each port's OR too."""
    import re

    from pairhw.flow import verilog

    data = json.loads(json.dumps(designs.get(name).data))
    data["name"] = name + "-muxed"
    data["datapath"]["ram_control"] = "local"
    if curve:
        data["curve"] = curve
    muxed = designs.from_data(json.loads(json.dumps(data)))
    data["name"] = name + "-or" + (f"-{stage}" if stage else "")
    data["datapath"]["read_merge"] = "or"
    if stage:
        data["datapath"]["operand_stage"] = stage
    d = designs.from_data(data)
    assert d.compile().microcode.packed() == muxed.compile().microcode.packed()
    # every multi-bank port's bank select is gone from the read path: the or core's copies are read
    # at registers that load a zero word (one more word a copy), so its Verilog differs
    assert verilog(d) != verilog(muxed)
    if stage:  # adder 0's input a: a register of bank m's copy, or none (one after the OR)
        assert bool(re.search(r"reg \[\d+:0\] add0_a_m_q\b", verilog(d))) == (stage == "sources")
    res = simulate(d, rows=pairings(d, 20, seed=11))
    assert (res.verified, res.failed, res.timeout) == (20, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
    assert res.constant_time


@pytest.mark.parametrize("name,stages", [("f3-19-etat-schoolbook-ram", {"cube": 2, "cbrt": 1}),
                                         ("f2-47-etat-banked", {"sqr": 1, "sqrt": 2})])
def test_power_units_with_register_stages_are_bit_exact_in_a_core(name, stages):
    """Power units with registers inside their networks (``"power": {"stages": n}``): each unit's
    latency n cycles more, which the schedule counts (the report names the stages), the registers in
    the Verilog, and 20 pairings bit-exact in the scheduled cycles."""
    from pairhw.flow import verilog

    plain = designs.get(name)
    data = json.loads(json.dumps(plain.data))
    data["name"] = name + "-power-staged"
    for u in data["datapath"]["units"]:
        if u["kind"] in stages:
            u["power"] = {"stages": stages[u["kind"]]}
    d = designs.from_data(data)
    lat = {u.kind: u.latency for u in d.compile().dp.units}
    assert {k: lat[k] - n for k, n in stages.items()} == {u.kind: u.latency for u in plain.compile().dp.units
                                                          if u.kind in stages}
    assert d.report()["power_stages"] == {u["name"]: stages[u["kind"]] for u in data["datapath"]["units"]
                                          if u["kind"] in stages}
    assert d.compile().cycles > plain.compile().cycles
    text = verilog(d)
    regs = ("k1_0_r0_0_h", "k1_0_r1_0_h", "sel_d1") if "f3" in name else ("y_r0", "y_r1")  # k = [1, 2]: a select
    assert all(re.search(rf"reg .*\b{r}\b", text) for r in regs)
    _twenty_bit_exact(d)


@pytest.mark.parametrize("mul,more", [({"kind": "schoolbook"}, 2), ({"kind": "msd", "digit": 4}, 1)])
def test_a_staged_f3_multiplier_is_bit_exact_in_a_core(mul, more):
    """f3-19-etat-schoolbook-ram with a schoolbook or msd (D = 4) multiplier at 3 stages against the
    same multiplier at 1: its latency ``more`` cycles longer (schoolbook: two registers in its tree;
    msd: the digit-product sum and the x^j·b array registered, a cycle), which the schedule counts,
    and 20 pairings bit-exact in the scheduled cycles."""
    def with_mul(name, stages):
        data = json.loads(json.dumps(designs.get("f3-19-etat-schoolbook-ram").data))
        data["name"] = name
        data["datapath"]["units"][0]["mul"] = {**mul, "stages": stages}
        return designs.from_data(data)

    plain, d = with_mul(f"f3-19-{mul['kind']}-1", 1), with_mul(f"f3-19-{mul['kind']}-3", 3)
    assert d.report()["multiplier"]["latency"] == plain.report()["multiplier"]["latency"] + more
    assert d.compile().cycles > plain.compile().cycles
    _twenty_bit_exact(d)


def test_three_operand_adders_are_bit_exact_in_a_core():
    """ate-bls12-381-fast-add3's datapath on bn-tiny: two add3 units (x + y ± z, x − y − z, and the
    adder's own ops) and a fused two-operand adder, each writing a LUT RAM bank of its own, the
    constants and the inverse written through the multiplier's bank's port, the lean register file
    (local copies, ORed; registers chosen for shallow copies, allocate copies) and calls, with
    ate-bn254-fast-add3's small-constant unit (bn-tiny's ξ = 4 + u: k = 3, 4, 12) writing a bank of
    its own: the folded additions in the microcode on the add3 units, the others on both kinds, and
    4 pairings in Verilator against the model, in the scheduled cycles."""
    full = designs.get("ate-bls12-381-fast-add3").data["datapath"]
    data = json.loads(json.dumps(designs.get("ate-bn-tiny").data))
    data["name"] = "ate-bn-tiny-add3"
    dp = data["datapath"]
    dp.update({k: full[k] for k in ("calls", "share", "waits", "rom", "ram_control", "read_merge", "lookahead",
                                    "allocate")})
    dp["banks"] = [{"name": b, "write_ports": 1} for b in ("m", "a0", "a1", "a2", "k")]
    for u in dp["units"]:
        u["writes"] = ["m"]  # the constants and the inverse share the multiplier's write port, as there
        if u["kind"] == "add":
            u.update(kind="add3", count=2, writes_each=["a0", "a1"])
    dp["units"][2:2] = [{"name": "plain", "kind": "add", "add": {"fused": True}, "writes_each": ["a2"],
                         "writes": ["m"]},
                        {"name": "xk", "kind": "mulk", "k": [3, 4, 12], "writes": ["k"]}]
    d = designs.from_data(data)
    cp = d.compile()
    assert {"add3", "addsub", "sub2", "add", "sub", "mulk"} <= {op.kind for op in cp.flow.pre}
    on = {}  # unit -> the op kinds it runs
    for r in cp.pre.records():
        on.setdefault(r.unit.name, set()).add(cp.flow.pre[r.op].kind)
    assert on["add"] >= {"add3", "addsub", "sub2"} and on["plain"] and on["plain"] <= {"add", "sub", "neg"}
    assert d.report()["interconnect"]["read_inputs_max"] == 5
    res = simulate(d, rows=pairings(d, 4, seed=23))
    assert (res.verified, res.failed, res.timeout) == (4, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
