"""Every design-file mistake is exit 2 with the key path and the reason in the design's own terms,
answered at once (issue 48): no exception class name, no command-line flag, no internal name."""

import copy
import json
import re
import time

import pytest

from pairhw.cli import main
from pairhw.designs import get


def unit(d, kind):
    return next(u for u in d["datapath"]["units"] if u["kind"] == kind)


def drop(d, kind):
    d["datapath"]["units"].remove(unit(d, kind))


def ram(d, **kw):
    d["datapath"]["banks"][0].update({"write_ports": 1, **kw})


F2, TATE, F3, BN, ASIP = "f2-47-etat-banked", "tate1-47-d4", "f3-19-etat-schoolbook", "ate-bn-tiny-small", "asip-79-lsd5"

#: (base design, edit, what the one error line must say)
CASES = {
    "algorithm-off-its-curves": (F2, lambda d: d.update(algorithm="etat-adikari12"),
                                 "algorithm: 'etat-adikari12' does not run on f2-47: Adikari et al.'s Alg. 1 is written for m ≡ 7"),
    "algorithm-unknown": (F2, lambda d: d.update(algorithm="ate"), "algorithm: 'ate' is not a pairing of f2-47"),
    "banks-too-small": (F2, lambda d: [b.update(size=1) for b in d["datapath"]["banks"]],
                        "datapath.banks: a, b are full at cycle 0 of the schedule (size a: 1, b: 1)"),
    "no-sqrt": (F2, lambda d: drop(d, "sqrt"), "datapath.units: no unit computes sqrt"),
    "no-add": (F2, lambda d: drop(d, "add"), "datapath.units: no unit computes add"),
    "no-sqr": (F2, lambda d: drop(d, "sqr"), "datapath.units: no unit computes sqr"),
    "no-const": (F2, lambda d: drop(d, "const"), "datapath.units: no unit computes const"),
    "no-cube": (F3, lambda d: drop(d, "cube"), "datapath.units: no unit computes cube"),
    "no-mul": (F2, lambda d: drop(d, "mul"), "datapath.units: a design needs a mul unit"),
    "option-the-kind-lacks": (F2, lambda d: unit(d, "mul")["mul"].update(kind="karatsuba", levels=3),
                              "datapath.units[0] (mul): the karatsuba multiplier of F_2^47 takes no option 'levels'"),
    "digit-groups-without-slices": ("tate1-47-msd24-ram", lambda d: unit(d, "mul")["mul"].update(
        stages=2, digit_groups=2),
        "datapath.units[0] (mul): digit_groups applies to msd with slice_bits, a whole number of slices of at "
        "least 1 (not 2 without slice_bits)"),
    "digit-on-a-parallel-kind": (F2, lambda d: unit(d, "mul")["mul"].update(digit=3),
                                 "datapath.units[0] (mul): digit applies to lsd, msd, ca1, ca2, not tmvp"),
    "lanes-on-a-parallel-kind": (F2, lambda d: unit(d, "mul").update(lanes=2),
                                 "datapath.units[0] (mul): lanes sharing an operand are msd multipliers"),
    "lut6-on-msd-lanes": (TATE, lambda d: unit(d, "mul")["mul"].update(lut6=True), "datapath.units[0] (ca): lut6 applies to"),
    "core-on-tmvp": (F2, lambda d: unit(d, "mul")["mul"].update(core=153), "datapath.units[0] (mul): core applies to iter-karatsuba"),
    "count-huge": (F2, lambda d: unit(d, "add").update(count=10**9), "datapath.units[1].count: must be at most 64, not 1,000,000,000"),
    "lanes-huge": (TATE, lambda d: unit(d, "mul").update(lanes=10**6), "datapath.units[0].lanes: must be at most 64"),
    "digit-huge": (TATE, lambda d: unit(d, "mul")["mul"].update(digit=10**9), "datapath.units[0].mul.digit: must be at most"),
    "mulk-k-one": (BN, lambda d: d["datapath"]["units"].append({"name": "xk", "kind": "mulk", "k": [1, 4]}),
                   "datapath.units[3] (xk): k must be distinct constants of at least 2, not [1, 4]"),
    "mulk-over-f2": (F2, lambda d: d["datapath"]["units"].append({"name": "xk", "kind": "mulk", "k": 3}),
                     "datapath.units[5] (xk): unknown kind 'mulk' for F_2^47"),
    "power-stages-too-many": (F3, lambda d: unit(d, "cube").update(power={"stages": 4}),
                              "datapath.units[2] (cube): stages: the registers in a power unit's networks, 0 to 3, not 4"),
    "power-on-an-adder": (F2, lambda d: unit(d, "add").update(power={"stages": 1}),
                          "datapath.units[1].power: only a power unit (sqr, sqrt, cube, cbrt) has one, not add"),
    "power-option-unknown": (F2, lambda d: unit(d, "sqr").update(power={"depth": 1}),
                             "datapath.units[2].power.depth"),
    "mulk-k-large": (BN, lambda d: d["datapath"]["units"].append({"name": "xk", "kind": "mulk", "k": [9, 65]}),
                     "datapath.units[3] (xk): k must be non-zero constants of at most 64 in magnitude"),
    "lookahead-without-overlap": (BN, lambda d: d["datapath"].update(lookahead=3),
                                  "datapath.lookahead: needs calls overlap"),
    "lookahead-zero": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(lookahead=0),
                       "datapath.lookahead: must be at least 1, not 0"),
    "word-stages-five": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(word_stages=5),
                         "datapath.word_stages: must be at most 4, not 5"),
    "word-stages-four-shared": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(word_stages=4),
                                "datapath.word_stages: 4 loads ram_control local's registers"),
    "group-slices-three-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        group_slices=2, word_stages=3, rom="sync-registered", ram_control="local", slice_bits=4),
        "datapath.group_slices: the slices each register of a copy's groups drives, which word_stages 4 "
        "builds; set word_stages to 4, not 3"),
    "group-slices-zero": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        group_slices=0, word_stages=4, rom="sync-registered", ram_control="local", slice_bits=4),
        "datapath.group_slices: must be at least 1, not 0"),
    "pc-ahead-comb-rom": (F2, lambda d: d["datapath"].update(pc_ahead=True),
                          "datapath.pc_ahead: addresses a block RAM ROM by a register; set rom to sync or "
                          "sync-registered, not comb"),
    "pc-ahead-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(pc_ahead=True, rom="sync-registered"),
                       "datapath.pc_ahead: steps the pc a cycle ahead for words that run one a cycle"),
    "const-ahead-comb-rom": (F2, lambda d: d["datapath"].update(const_ahead=True),
                             "datapath.const_ahead: loads the constant tables' registers from the next word"),
    "write-stage-four-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        write_stage=True, word_stages=4, rom="sync-registered", ram_control="local"),
        "datapath.write_stage: registers each write in the copies' slices on the choice word_stages 3 makes a "
        "cycle early; set word_stages to 3, not 4"),
    "write-stage-bank-three-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        write_stage="bank", word_stages=3, slice_writes=True, slice_bits=4, rom="sync-registered",
        ram_control="local"),
        "datapath.write_stage: \"bank\" registers each write in the bank's slices, chosen on slice_writes' "
        "registers with word_stages 4; set both"),
    "write-stage-unknown": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        write_stage="copies", word_stages=3, rom="sync-registered", ram_control="local"),
        "datapath.write_stage: 'copies' is not true, false or \"bank\""),
    "rom-stage-lut-rom": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        rom_stage=True, word_stages=2, rom="registered", ram_control="local"),
        "datapath.rom_stage: registers a block RAM ROM's output before the word registers; set rom to "
        "sync-registered and word_stages to 2 or more"),
    "rom-columns-lut-rom": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(rom_columns=9, rom="registered"),
                            "datapath.rom_columns: cuts a block RAM ROM into columns; set rom to sync or "
                            "sync-registered, not registered"),
    "rom-columns-zero": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(rom_columns=0, rom="sync"),
                         "datapath.rom_columns: must be at least 1, not 0"),
    "ahead-copies-without-rom-stage": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        ahead_copies=True, decode_reads=True, word_stages=3, rom="sync-registered", ram_control="local"),
        "datapath.ahead_copies: loads each copy's registers of the fields decode_reads decodes from rom_stage's "
        "register; set rom_stage and decode_reads"),
    "word-stages-three-shared": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(word_stages=3),
                                 "datapath.word_stages: 3 loads ram_control local's registers"),
    "word-stages-three-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(word_stages=3, rom="sync-registered",
                                                                                  ram_control="local"),
                                "datapath.word_stages: 3 is for a core whose words run one a cycle"),
    "decode-writes-two-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        decode_writes=True, word_stages=2, rom="registered", ram_control="local"),
        "datapath.decode_writes: decodes the writes into each copy's registers of the next write, which "
        "word_stages 3 or 4 builds; set word_stages to 3 or 4, not 2"),
    "decode-reads-two-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        decode_reads=True, word_stages=2, rom="registered", ram_control="local"),
        "datapath.decode_reads: decodes the reads into each copy's registers of the next read, which "
        "word_stages 3 or 4 builds; set word_stages to 3 or 4, not 2"),
    "slice-writes-no-slices": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_writes=True),
                               "datapath.slice_writes: cuts each bank's write multiplexer into the slices of "
                               "slice_bits; set slice_bits"),
    "slice-writes-write-stage": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        slice_writes=True, write_stage=True, slice_bits=16, word_stages=3, rom="sync-registered",
        ram_control="local"),
        "datapath.slice_writes: write_stage chooses each write a cycle early into registers of the slices; "
        "use one or the other"),
    "reassociate-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(reassociate=True),
                          "datapath.reassociate: rebuilds sums across the steps that calls keep apart; use one or the other"),
    "write-stage-two-stages": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(
        write_stage=True, word_stages=2, rom="registered", ram_control="local"),
        "datapath.write_stage: registers each write in the copies' slices on the choice word_stages 3 makes a "
        "cycle early; set word_stages to 3, not 2"),
    "word-stages-zero": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(word_stages=0),
                         "datapath.word_stages: must be at least 1, not 0"),
    "word-stages-comb-rom": (F2, lambda d: d["datapath"].update(word_stages=2),
                             "datapath.word_stages: registers the word of a registered ROM; set rom to registered "
                             "or sync-registered, not comb"),
    "slice-bits-shared": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_bits=8),
                          "datapath.slice_bits: cuts the copies of ram_control local; set ram_control to local, "
                          "not shared"),
    "slice-bits-zero": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(ram_control="local", slice_bits=0),
                        "datapath.slice_bits: must be at least 1, not 0"),
    "slice-selects-no-slices": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_selects=True),
                                "datapath.slice_selects: cuts a unit input's choice into the slices of slice_bits; "
                                "set slice_bits"),
    "slice-selects-one-stage": ("f3-19-etat-schoolbook-ram",
                                lambda d: d["datapath"].update(ram_control="local", slice_bits=16, slice_selects=True),
                                "datapath.slice_selects: its registers load the next word's fields from a word "
                                "register; set word_stages to 2, 3 or 4"),
    "slice-selects-sources": ("f3-19-etat-schoolbook-ram",
                              lambda d: d["datapath"].update(ram_control="local", slice_bits=16, word_stages=2,
                                                             forward=False, operand_stage="sources",
                                                             slice_selects=True),
                              "datapath.slice_selects: the choice is registered at the sources with operand_stage "
                              "sources; use one or the other"),
    "slice-selects-string": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_selects="yes"),
                             "datapath.slice_selects"),
    "slice-controls-no-slices": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_controls=True),
                                 "datapath.slice_controls: gives each slice_bits slice of a unit its own control "
                                 "registers; set slice_bits"),
    "slice-controls-no-operand-stage": ("f3-19-etat-schoolbook-ram",
                                        lambda d: d["datapath"].update(ram_control="local", slice_bits=16, pipeline=[],
                                                                       forward=False, slice_controls=True),
                                        "datapath.slice_controls: repeats the operand stage's control registers, and "
                                        "no unit has an operand stage; add \"operands\" to a pipeline"),
    "slice-controls-string": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(slice_controls="yes"),
                              "datapath.slice_controls"),
    "msd-slices-one-stage": ("tate1-47-msd24-ram", lambda d: d["datapath"]["units"][0]["mul"].update(slice_bits=8),
                             "datapath.units[0] (mul): slice_bits applies to msd with stages 2, not msd with 1 "
                             "stage(s)"),
    "read-merge-shared": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(read_merge="or"),
                          "datapath.read_merge: or reads the copies of ram_control local"),
    "read-merge-and": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(ram_control="local", read_merge="and"),
                       "datapath.read_merge: 'and' is not mux or or"),
    "operand-stage-elsewhere": ("f3-19-etat-schoolbook-ram", lambda d: d["datapath"].update(operand_stage="units"),
                                "datapath.operand_stage: 'units' is not port or sources"),
    "operand-stage-without-operands": ("f2-47-etat-banked", lambda d: d["datapath"].update(operand_stage="sources"),
                                       "datapath.operand_stage: sources places the registers of the operand "
                                       "stage; no unit has one"),
    "interleave-without-calls": (BN, lambda d: d.update(batch=2) or d["datapath"].update(interleave=True),
                                 "datapath.interleave: takes turns between a batch's pairings step by step; "
                                 "needs calls"),
    "interleave-without-batch": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(interleave=True),
                                 "datapath.interleave: needs a batch of at least 2 pairings"),
    "interleave-text": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(interleave="yes"),
                        "datapath.interleave"),
    "allocate-unknown": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(allocate="fewest"),
                         "datapath.allocate: 'fewest' is not first or copies"),
    "allocate-copies-without-local-copies": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(allocate="copies"),
                                             "datapath.allocate: copies chooses registers for the LUT RAM copies"),
    "inverse-window-on-bn": ("ate-bn-tiny", lambda d: d["datapath"].update(inverse_window=4),
                             "datapath.inverse_window: the overlapped inversion is written for BLS12 curves' final "
                             "exponentiation, not BN"),
    "kept-copies-on-bn": ("ate-bn-tiny", lambda d: d["datapath"].update(kept_copies=True),
                          "datapath.kept_copies: the copies are of the powers a BLS12 final exponentiation keeps, "
                          "not BN's"),
    "kept-copies-text": ("ate-bn-tiny", lambda d: d["datapath"].update(kept_copies="yes"),
                         "datapath.kept_copies"),
    "near-steps-without-overlap": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(near_steps=4),
                                   "datapath.near_steps: needs calls overlap"),
    "near-steps-zero": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(calls="overlap", near_steps=0),
                        "datapath.near_steps"),
    "inverse-window-without-inverter": (BN, lambda d: d["datapath"].update(inverse_window=4),
                                        "datapath.inverse_window: the squarings that overlap the final "
                                        "exponentiation's F_p inversion need a prime field and an inverter unit"),
    "inverse-window-too-long": ("ate-bls12-381-fast-overlap", lambda d: d["datapath"].update(inverse_window=63),
                                "datapath.inverse_window: at most 62 squarings (the first power of the hard part, by "
                                "|u − 1|, has 63), not 63"),
    "inverse-window-negative": ("ate-bn-tiny", lambda d: d["datapath"].update(inverse_window=-1),
                                "datapath.inverse_window: must be at least 1, not -1"),
    "table-copies-without-calls": (BN, lambda d: d["datapath"].update(table_copies=True),
                                   "datapath.table_copies: needs calls"),
    "table-copies-on-f2": (F2, lambda d: d["datapath"].update(calls="overlap", table_copies=True),
                           "datapath.table_copies: for the prime-field pairings"),
    "table-copies-text": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(table_copies="yes"),
                          "datapath.table_copies"),
    "cascade-without-segment": (BN, lambda d: unit(d, "mul")["mul"].update(kind="montgomery-pipelined", cascade=4),
                                "cascade (DSP chains summing a column's pieces) goes with segment"),
    "dsp-adders-without-lut6": (BN, lambda d: unit(d, "mul")["mul"].update(kind="montgomery-pipelined", segment=23,
                                                                          cascade=2, dsp_adders=8),
                                "dsp_adders (DSP48E1s adding pairs of cascades) go with segment, cascade > 1 and lut6"),
    "cascade-step-huge": (BN, lambda d: unit(d, "mul")["mul"].update(kind="montgomery-pipelined", segment=23, cascade=4,
                                                                      cascade_step=3),
                          "datapath.units[0].mul.cascade_step: must be at most 2"),
    "modulo-orders-zero": (F2, lambda d: d["datapath"].update(modulo_orders=0),
                           "datapath.modulo_orders: must be at least 1, not 0"),
    "modulo-orders-text": (F2, lambda d: d["datapath"].update(modulo_orders="many"), "datapath.modulo_orders"),
    "modulo-orders-with-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(modulo_orders=4),
                                 "datapath.modulo_orders: for a core with a loop"),
    "modulo-evict-unknown": (F2, lambda d: d["datapath"].update(modulo_evict="last"),
                             "datapath.modulo_evict: 'last' is not one of first, fewest"),
    "modulo-evict-with-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(modulo_evict="fewest"),
                                "datapath.modulo_evict: for a core with a loop"),
    "modulo-orders-huge": (F2, lambda d: d["datapath"].update(modulo_orders=10**6),
                           "datapath.modulo_orders: must be at most 1,000"),
    "modulo-exact-zero": (F2, lambda d: d["datapath"].update(modulo_exact=0),
                          "datapath.modulo_exact: must be at least 1, not 0"),
    "modulo-exact-text": (F2, lambda d: d["datapath"].update(modulo_exact="long"), "datapath.modulo_exact"),
    "modulo-exact-huge": (F2, lambda d: d["datapath"].update(modulo_exact=10**5),
                          "datapath.modulo_exact: must be at most 3,600"),
    "modulo-exact-with-calls": ("ate-bn-tiny-calls", lambda d: d["datapath"].update(modulo_exact=5),
                                "datapath.modulo_exact: for a core with a loop"),
    "digit-zero": (TATE, lambda d: unit(d, "mul")["mul"].update(digit=0), "datapath.units[0].mul.digit: must be at least 1"),
    "digit-over-m": (TATE, lambda d: unit(d, "mul")["mul"].update(digit=48), "digit size must be between 1 and m = 47, not 48"),
    "io-width-huge": (F2, lambda d: d["datapath"].update(io_width=10**9), "datapath.io_width: must be at most 8,192"),
    "power-k-over-m": (F2, lambda d: unit(d, "sqr").update(k=[1, 10**4]), "datapath.units[2] (sqr): k must be below m = 47"),
    "power-k-huge": (F2, lambda d: unit(d, "sqr").update(k=10**9), "datapath.units[2].k: must be at most 64"),
    "power-k-zero": (F2, lambda d: unit(d, "sqr").update(k=[0]), "datapath.units[2] (sqr): k must be distinct integers ≥ 1"),
    "power-k-no-one": (F2, lambda d: unit(d, "sqr").update(k=[2]), "which no sum of the power units' k ∈ [2] makes"),
    "hybrid-stages-over": ("f2-79-etat-tmvp3", lambda d: unit(d, "mul")["mul"].update(stages=4),
                           "datapath.units[0] (mul): a hybrid F_2^m multiplier has 1 to 3 stages, not 4"),
    "max-sources-unmet": (F2, lambda d: d["datapath"].update(max_sources=8),
                          "datapath.max_sources: unit input add0.a chooses among 32 sources, more than the bound 8 "
                          "(and 7 more ports)"),
    "max-sources-zero": (F2, lambda d: d["datapath"].update(max_sources=0), "datapath.max_sources: must be at least 1"),
    "max-sources-text": (F2, lambda d: d["datapath"].update(max_sources="few"), "datapath.max_sources"),
    "reads-unknown-bank": (F2, lambda d: unit(d, "mul").update(reads=[["z"], ["a"]]), "datapath.units[0] (mul): no bank 'z'"),
    "reads-too-many-ports": (F2, lambda d: unit(d, "mul").update(reads=[["a"], ["a"], ["b"]]),
                             "datapath.units[0] (mul): reads lists 3 ports, the kind has 2"),
    "writes-unknown-bank": (F2, lambda d: unit(d, "add").update(writes=["z"]), "datapath.units[1] (add): no bank 'z'"),
    "writes-each-count": (F2, lambda d: unit(d, "add").update(writes_each=["a"]),
                          "datapath.units[1] (add): writes_each names one bank per instance (2), not 1"),
    "write-ports-huge": (F2, lambda d: ram(d, write_ports=10**9), "datapath.banks[0].write_ports: must be at most 16"),
    "read-ports-huge": (F2, lambda d: ram(d, read_ports=10**9), "datapath.banks[0].read_ports: must be at most 16"),
    "bank-size-huge": (F2, lambda d: d["datapath"]["banks"][0].update(size=10**9), "datapath.banks[0].size: must be at most"),
    "too-many-units": (F2, lambda d: d["datapath"]["units"].extend({"name": f"a{i}", "kind": "add"} for i in range(70)),
                       "datapath.units: at most 64 items, not 75"),
    "schedule-too-deep": (F2, lambda d: unit(d, "mul")["mul"].update(schedule=[3] * 10),
                          "datapath.units[0] (mul): schedule 3,3,3,3,3,3,3,3,3,3: split 4 (3-way) would cut"),
    "schedule-not-a-split": (F2, lambda d: unit(d, "mul")["mul"].update(schedule=[5]), "schedule splits must be 2 or 3, not 5"),
    "kind-of-another-field": (F3, lambda d: d["datapath"]["units"].append({"name": "s", "kind": "sqrt"}),
                              "datapath.units[5] (s): unknown kind 'sqrt' for F_3^19"),
    "f3-stages-huge": (F3, lambda d: unit(d, "mul")["mul"].update(kind="karatsuba", stages=10**6),
                       "datapath.units[0].mul.stages: must be at most 64"),
    "f3-stages-over-depth": (F3, lambda d: unit(d, "mul")["mul"].update(kind="karatsuba", stages=20),
                             "datapath.units[0] (mul): a 2-level multiplier has 1 to 7 stages, not 20"),
    "f3-unknown-cut": (F3, lambda d: unit(d, "mul")["mul"].update(kind="karatsuba", registers=["nowhere"]),
                       "datapath.units[0] (mul): unknown register cut point 'nowhere'"),
    "fp-levels-huge": (BN, lambda d: unit(d, "mul")["mul"].update(levels=10**6), "datapath.units[0].mul.levels: must be at most"),
    "fp-binary-kind": (BN, lambda d: unit(d, "mul")["mul"].update(kind="tmvp"), "unknown F_p multiplier kind 'tmvp'"),
    "fp-cube": (BN, lambda d: d["datapath"]["units"].append({"name": "c", "kind": "cube"}), "unknown kind 'cube' for F_p"),
    "inv-on-f2": (F2, lambda d: d["datapath"]["units"].append({"name": "i", "kind": "inv"}), "unknown kind 'inv' for F_2^47"),
    "inv-steps-huge": (BN, lambda d: d["datapath"]["units"].append({"name": "i", "kind": "inv", "inv": {"per_cycle": 10**6}}),
                       "inv.per_cycle: must be at most 64"),
    "add-stages-on-f2": (F2, lambda d: unit(d, "add").update(add={"stages": 2}),
                         "the adder of F_2^47 takes no options (stages)"),
    "add-stages-too-many": ("ate-bn-chavez11-toy", lambda d: unit(d, "add").update(add={"stages": 11}),
                            "add.stages: must be at most 10"),
    "instance-name-clash": (BN, lambda d: d["datapath"]["units"].extend(
        [{"name": "a", "kind": "add", "count": 2}, {"name": "a1", "kind": "add"}]),
        "datapath.units[4] (a1): its instance a1 has the name of an instance of unit a"),
    "add3-stages-two": (BN, lambda d: unit(d, "add").update(kind="add3", add={"stages": 2}),
                        "datapath.units[1] (add): stages must be 0 or 1 (the sum registered before its correction"),
    "add3-fused": (BN, lambda d: unit(d, "add").update(kind="add3", add={"fused": True}),
                   "datapath.units[1] (add): add3: the three-operand adder takes stages, not fused"),
    "add3-over-f2": (F2, lambda d: unit(d, "add").update(kind="add3"),
                     "datapath.units[1] (add): unknown kind 'add3' for F_2^47"),
    "add3-on-seed002": ("ate-bn-chavez11-toy", lambda d: unit(d, "add").update(kind="add3"),
                        "datapath.units[1] (add): add3: the coefficient-form adder (Chávez Corona et al.'s words) has "
                        "two operands"),
    "add-fused-text": (BN, lambda d: unit(d, "add").update(add={"fused": "yes"}), "add.fused"),
    "add-fused-on-seed002": ("ate-bn-chavez11-toy", lambda d: unit(d, "add").update(add={"fused": True}),
                             "takes stages, not fused"),
    "add-on-mul": (BN, lambda d: unit(d, "mul").update(add={"stages": 2}), "datapath.units[0].add: only an add or add3 unit has one"),
    "asip-word-huge": (ASIP, lambda d: d["asip"].update(word=10**9), "asip.word: must be at most 100,000"),
    "asip-digit-not-dividing": (ASIP, lambda d: d["asip"]["mul"].update(digit=7), "asip.mul.digit: the digit size must divide"),
    "name-huge": (F2, lambda d: d.update(name="x" * 1000), "name: at most 100 characters, not 1,000"),
    "description-huge": (F2, lambda d: d.update(description="x" * 100_000), "description: at most 4,000 characters"),
    "unknown-key": (F2, lambda d: unit(d, "add").update(colour=1), "datapath.units[1].colour: unknown key"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_design_file_is_named_by_its_key(capsys, tmp_path, monkeypatch, case):
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path / "cache"))
    base, edit, says = CASES[case]
    data = copy.deepcopy(get(base).data)
    data["name"] = "bad"
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    t0 = time.monotonic()
    code = main(["schedule", str(path)])
    seconds = time.monotonic() - t0
    _, err = capsys.readouterr()
    line = err.strip().splitlines()[-1]
    assert code == 2 and line.startswith("pairhw: error: ") and says in line, err
    assert "Traceback" not in err and "internal error" not in err
    assert not re.search(r"\b[A-Z]\w*Error\b|--\w|\bseed 0\d\d\b|seed\d{3}'s", line.replace("etat-adikari12", "")), line
    assert seconds < 2.0, f"{case} took {seconds:.1f} s"


def test_a_design_file_is_read_up_to_a_bound(capsys, tmp_path):
    """/dev/urandom (endless, not UTF-8) and a 2 MB file are refused without reading them whole."""
    code = main(["schedule", "/dev/urandom"])
    err = capsys.readouterr().err
    assert code == 2 and "/dev/urandom: larger than 1 MB" in err
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"name": "x", "description": "y" * (2 << 20)}))
    code = main(["build", str(big), "-o", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "larger than 1 MB" in err and not (tmp_path / "o").exists()
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    code = main(["schedule", str(deep)])
    err = capsys.readouterr().err
    assert code == 2 and "nested too deeply" in err and "Traceback" not in err


def test_a_deep_design_file_is_refused_whatever_the_recursion_limit(capsys, tmp_path):
    """py_ecc (the prime-field oracle) raises the interpreter's recursion limit to 100,000, so the
    JSON parser's RecursionError alone would come too late (the C stack overflows first): the nesting
    is bounded before it runs, and a design at the bound's depth is still read."""
    import sys

    from pairhw.designs.schema import MAX_NESTING, nesting

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        code = main(["schedule", str(deep)])
    finally:
        sys.setrecursionlimit(old)
    err = capsys.readouterr().err
    assert code == 2 and f"nested too deeply (more than {MAX_NESTING} levels)" in err
    assert nesting('{"a": "[[[{{{", "b": [[1]]}') == 3 and nesting('"\\"[[["') == 0
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps({"name": "x", "note": [[[[1]]]]}))
    code = main(["schedule", str(ok)])
    assert "nested too deeply" not in capsys.readouterr().err
