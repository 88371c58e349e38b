"""The design file format: every key, its type and what it means (``pairhw designs --schema``).

A design file is one JSON object.  :func:`validate` checks its shape against :data:`SCHEMA` and
names the first wrong key by its path (``datapath.units[2].mul.kind``); :func:`check` then builds
the datapath and its multiplier, so that a kind, bank or multiplier option the field does not have
is refused before anything is compiled.
"""

from __future__ import annotations

import importlib
import re

#: ``{key: (type, required, help)}`` per object; a type is a Python type, a tuple of them, a nested
#: object's name, or ``[X]`` for a list of X
SCHEMA = {
    "design": {
        "name": (str, True, "the design's name: letters, digits, - and _ (the Verilog top is Pairing_<name>)"),
        "description": (str, False, "one line saying what the design is"),
        "curve": (str, True, "the parameter set (`pairhw curves`), e.g. f2-79, f3-19"),
        "algorithm": (str, True, "the pairing algorithm of the set's family (prime: optimal-ate; binary: etat, etat-adikari12; "
                                 "ternary: etat, etat-nocr)"),
        "pairs": (int, False, "prime sets, optimal-ate: the core takes this many (P, Q) pairs and computes the "
                              "product of their pairings (one Miller loop, one final exponentiation; default 1)"),
        "check": (bool, False, "prime sets: the core streams out one element instead of the pairing value: "
                               "1 if the value (or the product, with pairs) is 1, else 0 (a pairing check; "
                               "its registers flip-flops; default false)"),
        "validate": (bool, False, "prime sets, with check: the core also checks that every P is in G1 and every "
                                  "Q in G2 (on its curve; Scott's endomorphism tests, computed with complete "
                                  "projective formulas in the same cycles for every input): an invalid point "
                                  "makes the check 0 (default false)"),
        "batch": (int, False, "the core computes this many independent pairings (or products, or checks) in "
                              "one run, scheduled together so that each fills the others' idle multiplier "
                              "slots; inputs and outputs are each one's in turn (default 1)"),
        "datapath": ("datapath", False, "the units, register banks and stream width (the engine's processors)"),
        "asip": ("asip", False, "instead of datapath: Nagl et al.'s word-serial processor (F_2^m)"),
    },
    "asip": {
        "word": (int, False, "memory word width N in bits (stream words too); iter-karatsuba: its word "
                             "(the default)"),
        "mul": ("asipmul", True, "the multiplier: kind iter-karatsuba (core 153 or 77), lsd (digit D, "
                                 "dividing N) or lsb"),
    },
    "asipmul": {
        "kind": (str, True, "iter-karatsuba, lsd or lsb"),
        "core": (int, False, "iter-karatsuba: 153 (three Karatsuba steps) or 77 (four)"),
        "digit": (int, False, "lsd: the digit size D"),
    },
    "datapath": {
        "io_width": (int, False, "bits per stream word of the core's input and output (default 64)"),
        "banks": (["bank"], False, "register banks (default one unbounded bank r)"),
        "rom": (str, False, "microcode ROM read: comb (default; LUTs), sync (clocked, block RAM), "
                            "registered (a LUT ROM into a flip-flop word register: the fields leave "
                            "flip-flops, not a block RAM's slow output; one cycle more per run) or "
                            "sync-registered (block RAM into a word register: one cycle more per run, "
                            "and a bank read at the clock edge takes the next word's address fields from "
                            "the block RAM, not from a LUT copy of them, and the run table of calls is block RAM "
                            "too; for ROMs of thousands of words)"),
        "waits": (bool, False, "true: a run of idle microcode words outside the loop is one word with a "
                               "wait count (for slow multipliers; default false)"),
        "connect": (str, False, "the register file's multiplexers: any (default; every register to every "
                                "port of a unit that may read or write its bank) or program (only the "
                                "connections the microcode uses, its registers chosen to keep them few)"),
        "pipeline": ([str], False, "register stages the core puts around every unit but the constant "
                                   "tables: operands (the read multiplexers' outputs, before the unit) and/or "
                                   "results (the unit's output, before the write multiplexers); each adds a "
                                   "cycle to the unit's latency, which the schedule counts (default none)"),
        "forward": (bool, False, "true: each unit's result also goes from its output straight into the "
                                 "operand registers of the units that read it in the cycle it is written, "
                                 "so the operand stage costs no cycle on a dependence (only the units with "
                                 "the operands stage take it, at least one needs it; default false)"),
        "max_sources": (int, False, "the most sources (registers, RAM banks, forwarded unit outputs) a unit "
                                    "input port's multiplexer may choose among; a design whose program needs "
                                    "more is refused, naming the port (default unbounded)"),
        "calls": (str, False, "steps or overlap: the program is cut where the model's steps begin and end "
                              "(each Miller-loop doubling and addition, each squaring and product of an "
                              "exponentiation or of a Fermat inversion), each step is scheduled on its own, "
                              "identical steps share their words, and a run table drives the sequencer: the "
                              "microcode grows with the program's text, not its run time; steps: a step "
                              "begins when the previous one has written its last result (the fewest words), "
                              "overlap: a step's ops fill the previous one's tail (fewer cycles; prime-field "
                              "pairings; default none: one straight line)"),
        "share": (int, False, "with calls: a step whose words are new reuses every run of at least this many "
                              "words already stored (a run-table entry each) and stores only the rest: the "
                              "words of a step that differ from an earlier occurrence where its neighbours' "
                              "ops fall share its middle (fewer words, more run-table entries; default: "
                              "only whole steps are shared)"),
        "lookahead": (int, False, "with calls overlap: how many steps ahead an op's priority looks (its path "
                                  "through its own step and the next ones that read its result); the best "
                                  "value depends on the program (more cycles or fewer, more words or fewer: "
                                  "try 1 to 4; default 2)"),
        "ram_control": (str, False, "shared (default) or local: local gives each copy of a LUT RAM bank (one "
                                    "per unit port that reads it) only the registers its port reads and its own "
                                    "write-enable, write-address and read-address registers, loaded a cycle "
                                    "early from the next microcode word, so no control net spans every copy (needs rom registered or "
                                    "sync-registered; the same words and cycles)"),
        "word_stages": (int, False, "with rom registered or sync-registered: the register stages between the ROM "
                                    "and the word's fields, 1 (default), 2 or 3; with 2 the next word's fields "
                                    "(which load the registers of ram_control local and address the sync "
                                    "banks) leave flip-flops too, not the ROM's output; with 3 (ram_control "
                                    "local) each copy has registers of the next word's fields, loaded from the "
                                    "word after it, which its slices' registers load (a tree, not one net "
                                    "from the word to every slice); with 4 the tree is a level deeper: each "
                                    "copy's registers load the word two ahead, a register of each group of "
                                    "group_slices slices loads what its slices will, and the slices load that; "
                                    "each stage takes a cycle more a run, the schedule is the same"),
        "pc_ahead": (bool, False, "with rom sync or sync-registered (words that run one a cycle: no calls, no "
                                  "waits): the block RAM ROM is addressed by a register holding the next "
                                  "cycle's pc, stepped a cycle ahead of the pc, so neither the sequencer's "
                                  "state nor its loop test and increment sit before the ROM's address pins; "
                                  "the run starts in a cycle of its own after the last input (so that the "
                                  "ahead pc's first step depends on the state alone, not on the input's "
                                  "valid): the same words, a cycle more a run (default false)"),
        "rom_stage": (bool, False, "with rom sync-registered and word_stages 2 or more: the block RAM's output "
                                   "passes a register of its own (word_q0) before the word registers, so the "
                                   "word register whose fields the copies' registers load takes no block RAM "
                                   "output on its input; a register without reset, which the ECP5 flow makes "
                                   "the block RAM's own output register where the block RAM drives it directly "
                                   "(rom_columns): the same words, a cycle more a run (default false)"),
        "rom_columns": (int, False, "with rom sync or sync-registered: the microcode ROM as memories of this many "
                                   "bits of the word each, read at one address (9: a column of up to 2,048 words "
                                   "is one ECP5 block RAM, whose output reaches the next register with no "
                                   "multiplexer; Yosys maps one memory of 1,234 words of 112 bits to 10 block "
                                   "RAMs and a multiplexer after them). The same words and cycles (default: one "
                                   "memory)"),
        "ahead_copies": (bool, False, "with rom_stage and decode_reads: each copy's decoder of its next read reads "
                                      "registers of the copy's own of the word two ahead's fields, loaded from "
                                      "rom_stage's register, not the word register every copy shares (whose "
                                      "decoders the synthesis merges across copies far apart). The same words "
                                      "and cycles (default false)"),
        "load_on_valid": (bool, False, "the loader's shift register of the input words loads on the input's "
                                       "valid alone, in any state (it holds an element's words only once all are in, "
                                       "and the core takes words only while loading), so its enable is the input's "
                                       "valid, not a decode of the core's state over every bit; the same words and "
                                       "cycles (default false)"),
        "const_ahead": (bool, False, "with a registered word (rom registered or sync-registered): each constant "
                                     "table's output is a register loaded from the next word's select, so its "
                                     "value leaves a flip-flop in the word's cycle, with no lookup between the "
                                     "word register and the banks' writes; the same words and cycles (default "
                                     "false)"),
        "group_slices": (int, False, "with word_stages 4: the slices of a copy that each register of the tree's "
                                     "middle level drives (default 4), so that no control register fans out "
                                     "over a whole copy"),
        "slice_bits": (int, False, "with ram_control local: each copy of a LUT RAM bank is cut into slices of "
                                   "this many bits, each with its own write-enable, write-address and "
                                   "read-address registers (replicas the synthesis keeps), so no address net "
                                   "spans a field-wide copy; the same words and cycles (default: one slice)"),
        "write_stage": ((bool, str), False, "with word_stages 3: each write is registered in each slice of "
                                     "each copy of its bank, after the write multiplexer (on the write's choice a "
                                     "cycle early), so a result crosses to a far copy in a cycle of its own: a cycle "
                                     "more on every unit's latency, which the schedule counts; with forward, a "
                                     "result is forwarded a cycle before its write from the unit's output and in "
                                     "the write's cycle from a register beside the unit, so a forwarded chain "
                                     "takes no more cycles (more flip-flops; default false); \"bank\", with "
                                     "word_stages 4 and slice_writes: one register of each slice of the bank's "
                                     "write multiplexer, chosen on the slice's own register of the choice, which "
                                     "every copy of the bank writes from (a cycle more on every latency too)"),
        "decode_writes": (bool, False, "with word_stages 3 or 4: each copy's registers of the next write hold "
                                       "whether it "
                                       "writes a register of that copy and the register's place in it, decoded from "
                                       "the write's choice a cycle ahead, so its slices' registers load flip-flops "
                                       "and no decoder sits between them (the same words and cycles; default false)"),
        "decode_reads": (bool, False, "with word_stages 3 or 4: each copy's register of the next read holds the place "
                                      "it reads in that copy (or, read_merge or, its word of zeros), decoded from "
                                      "the word after the next, so its slices' read-address registers load "
                                      "flip-flops and no lookup sits between them (the same words and cycles; "
                                      "default false)"),
        "slice_writes": (bool, False, "with slice_bits: each slice of a bank's write multiplexer (the choice "
                                      "among the units and the loader that write the bank) has a register of its "
                                      "own of the write's choice (replicas the synthesis keeps), so no select net "
                                      "spans the bank's width; the same words and cycles (default: false)"),
        "slice_selects": (bool, False, "with slice_bits and word_stages 2 to 4: each slice of a unit input's "
                                       "choice (the bank multiplexer and the forwarding multiplexer) has its "
                                       "own registers of the word's select fields, loaded from the next word "
                                       "(replicas the synthesis keeps), so no select net spans the operand; "
                                       "the same words and cycles (default: false)"),
        "slice_controls": (bool, False, "with slice_bits: each unit with an operand stage takes its start, power "
                                        "select and op from a register for each slice of its output (F_2^m msd "
                                        "with slice_bits: one for each slice of its digit-product sum, and one "
                                        "for its counter), each the operand stage's register repeated (replicas "
                                        "the synthesis keeps), so no control net spans the unit (units with "
                                        "lanes keep one); the same words and cycles (default: false)"),
        "read_merge": (str, False, "with ram_control local: how a unit input port that reads several banks "
                                   "picks its copy: mux (default), a multiplexer on the word's bank field, "
                                   "or or: each copy holds a word of zeros that its read-address register "
                                   "loads unless the next word reads that copy, and the port ORs its copies "
                                   "(a wide OR is half the LUTs of a multiplexer; a copy is a word deeper; "
                                   "the same words and cycles)"),
        "operand_stage": (str, False, "with an operand stage (pipeline \"operands\"): where its registers sit: "
                                      "port (default), one after each unit input's multiplexer, or sources, "
                                      "one at each source the input chooses among (each bank copy's read, "
                                      "each forwarded result) and one on the choosing field, so the "
                                      "multiplexer or OR runs after them in the unit's cycle and a LUT RAM "
                                      "read ends at a flip-flop beside it (more flip-flops; the same words "
                                      "and cycles)"),
        "interleave": (bool, False, "with calls and a batch: the batch's pairings take turns step by step "
                                    "(step 1 of each, then step 2 of each, ...), so a step of one fills the "
                                    "multiplier's latency at the end of the same step of the one before "
                                    "(fewer cycles a pairing; more registers and words; default false)"),
        "table_copies": (bool, False, "with calls, prime-field pairings: each product of the final "
                                      "exponentiation's windowed powers reads a copy of its odd power, made in "
                                      "a step of its own, so every such product is the same step and its words "
                                      "are stored once (fewer words; more additions: the 12 copies, and the "
                                      "sums of the odd power that each product then makes again)"),
        "modulo_orders": (int, False, "a core with a loop (no calls): at an initiation interval where the "
                                      "modulo scheduler's own orders (by height, then Rau's HeightR) do not "
                                      "place the loop body, it tries n − 1 more before the next interval: "
                                      "HeightR with near ties broken by fixed seeds (a smaller interval more "
                                      "often, a longer compile; default 1: none more)"),
        "modulo_evict": (str, False, "a core with a loop (no calls): where the modulo scheduler places an op "
                                     "that fits nowhere in its window, evicting the ops in its way: first (the "
                                     "unit's instance 0 and the bank's write port 0; default) or fewest (the "
                                     "instance and write port with the fewest ops in the way: a smaller "
                                     "interval where several instances of a unit are fully used)"),
        "modulo_exact": (int, False, "a core with a loop (no calls): after the greedy placement, the CP-SAT "
                                     "solver (OR-Tools, pip install 'pairhw[exact]') looks for the loop "
                                     "schedule of fewest cycles at each smaller interval it tries, for up to n "
                                     "deterministic seconds each (the solver's measure of work: the same "
                                     "result on every machine; a smaller interval or fewer stages for a "
                                     "longer compile; default: none)"),
        "allocate": (str, False, "with calls overlap, ram_control local and connect program: how registers are "
                                 "chosen: first (default), the lowest free one (or a repeated step's); copies, "
                                 "the free one that adds the fewest registers to the LUT RAM copies of the ports "
                                 "that read the value (a copy holds the registers its port reads: 31 and its word "
                                 "of zeros a RAM32M deep, 63 a RAM64M), so a port's copies stay shallow; the "
                                 "same schedule and cycles, other words"),
        "near_steps": (int, False, "with calls overlap: a value read at most this many steps after its own shares "
                                   "registers with the steps' own values; one read later takes a register of the "
                                   "far values' own, above them (default 2). With allocate copies a few more keep "
                                   "the copies shallower (other words, the same schedule and cycles)"),
        "kept_copies": (bool, False, "BLS12 curves: the powers the final exponentiation's hard part keeps for its "
                                     "last products (f^((u-1)^2/3) and the two after it, f) are copied just before "
                                     "those reads, an addition of 0 a coefficient, so that a long-lived value is "
                                     "read by the copies alone and fewer ports' LUT RAM copies hold it (60 "
                                     "additions more; default false)"),
        "reassociate": (bool, False, "true: each sum of three or more terms is rebuilt so that its latest term is "
                                     "added last (a Huffman tree over the terms' arrival times; in the loop body, "
                                     "how late each comes on the recurrences through the sum), which shortens the "
                                     "loop's recurrences and the chains before and after it: the same values and "
                                     "as many additions, other cycles and words (default false)"),
        "inverse_window": (int, False, "BLS12 curves with an inverter unit: the final exponentiation's F_p inversion "
                                       "overlaps this many of the hard part's first squarings, done on the easy part's "
                                       "value before it is divided by the inverse (each squaring 12 F_p products more, "
                                       "then one chain of squarings of the inverse; where the multiplier would wait "
                                       "for the inverter; default: none, the inverse first)"),
        "units": (["unit"], True, "the functional units, in any order"),
    },
    "bank": {
        "name": (str, True, "the bank's name, used by a unit's reads and writes"),
        "size": (int, False, "at most this many registers (default: as many as the schedule needs)"),
        "write_ports": (int, False, "write ports per cycle; set, the bank is a RAM (LUTRAM/BRAM)"),
        "read": (str, False, "a RAM bank's reads: comb (default; LUTRAM) or sync (at the clock edge, "
                             "addressed by the next word: block RAM; same schedule and cycles)"),
        "read_ports": (int, False, "a RAM bank's read ports, shared by the units (default: one per unit "
                                   "input port; each is a copy of the LUT RAM, or of the block RAMs of a "
                                   "sync bank); a shared port reads one "
                                   "register a cycle, a scheduling resource"),
    },
    "unit": {
        "name": (str, True, "the unit's name (distinct)"),
        "kind": (str, True, "mul, add, const, the field's powers: sqr, sqrt (F_2^m); cube, cbrt (F_3^m); and inv (F_p: "
                                 "a constant-time inverter, instead of Fermat's a^(p-2) on the multiplier) and "
                                 "mulk (F_p: k*a for the small constants of its k, instead of doublings and "
                                 "additions) and add3 (F_p: x + y + z, x + y - z, x - y - z and the adder's ops; "
                                 "a sum or difference that one other alone reads is folded into it)"),
        "count": (int, False, "identical instances (default 1)"),
        "lanes": (int, False, "mul units: multipliers per instance sharing the operand b and its x^i*b array, "
                              "started together (Shu–Kwon–Gaj's groups; msd only; default 1)"),
        "k": ((int, list), False, "power units: the k-fold powers x^(p^±k) it computes, e.g. [1, 2, 4] "
                                  "(default 1); mulk units: the constants k of its products k*a, 2 to 64, e.g. "
                                  "[9] for BN254's xi = 9 + u"),
        "reads": ([list], False, "per input port, the banks it may read (default all)"),
        "writes": ([str], False, "the banks it may write (default all but the writes_each banks)"),
        "read_via": ([int], False, "per input port, the shared read port (of a bank with read_ports) it "
                                   "reads through (default: input j through port j mod read_ports)"),
        "writes_each": ([str], False, "one RAM bank per instance that only that instance writes, besides "
                                      "its writes (RAM writes without contention)"),
        "pipeline": ([str], False, "this unit's register stages (operands, results), instead of the "
                                   "datapath's pipeline (a constant table has none)"),
        "mul": ("mul", False, "mul units (required there): the multiplier, as `pairhw unit` names it"),
        "inv": ("inv", False, "inv units (F_p): options of the inverter"),
        "add": ("add", False, "add and add3 units (F_p): options of the adder"),
        "power": ("power", False, "power units (sqr, sqrt, cube, cbrt): options of the networks"),
    },
    "add": {
        "stages": (int, False, "registers in the adder, its latency (default 0): 0 to 2 for F_p (1: the sum "
                               "before its correction by p, 2: the result too; an add3 unit 0 or 1); 0 to "
                               "10 in seed 002's coefficient form (over its chain of ten carry-chain steps)"),
        "fused": (bool, False, "F_p: the sum and the difference one carry chain (x + (y xor s) + s), their "
                               "corrections by p another: two chains of p's width, not four (default false)"),
    },
    "power": {
        "stages": (int, False, "registers along each output's sum in the networks, its latency (default 0; 0 to "
                               "3): the deepest sum and the select among the k split evenly"),
    },
    "inv": {
        "per_cycle": (int, False, "Kaliski steps chained in one cycle (default 1): 2·log2(R)/k cycles "
                                  "per inversion"),
    },
    "mul": {
        "kind": (str, True, "a multiplier kind of the field (`pairhw unit sim --help`)"),
        "schedule": ([(int, str)], False, "splits of the parallel part, outermost first (F_3^m karatsuba: "
                                          "2, 3 or \"oe\" per level)"),
        "digit": (int, False, "digit size of lsd / msd"),
        "stages": (int, False, "pipeline stages (latency; default 1): F_3^m karatsuba, 1 to 11; F_3^m schoolbook, 1 to 3 "
                               "(its tree of partial products cut by registers); F_2^m schoolbook, "
                               "karatsuba, tmvp, 1 or 2; F_2^m hybrid-tmvp3, hybrid-tmvp2, hybrid-kara306: 1 to 3 "
                               "(2: the core's base products registered; 3: their operands too), iter-karatsuba as "
                               "well; F_2^m lsd, lsb, ca1, ca2 and msd with lanes, 1 or 2, "
                               "msd (F_2^m and F_3^m), 1 to 3 (2: a step's digit-product sum registered before it "
                               "is accumulated, a cycle more latency; 3: msd's x^i·b array registered too, D·m "
                               "flip-flops); F_p montgomery-iterative, 1 to 3 (2: p's digits and a_0·b_i from "
                               "registers, the final subtraction of p a cycle of its own; 3: that subtraction in "
                               "two cycles)"),
        "slice_bits": (int, False, "F_2^m msd with stages 2: the digit-product sum in slices of this many bits, each "
                                   "reading flip-flops of its own of the digit and of the bits of b it needs (the "
                                   "same cycles)"),
        "free_run": (bool, False, "F_2^m msd with stages 2: a's shift register, the digit-product sum's register "
                                  "and the accumulator load every cycle, with no enable over their m bits "
                                  "(outside a product none is read; the same cycles; default false)"),
        "digit_groups": (int, False, "F_2^m msd with slice_bits: a register of each group of this many slices "
                                     "loads the digit, which the group's slices load (no digit bit drives every "
                                     "slice from one register; b a register later too): a cycle more latency, "
                                     "which the schedule counts (default: each slice loads the digit itself)"),
        "levels": (int, False, "F_p montgomery-pipelined and polymont-chavez11: adder-tree levels per pipeline "
                              "register (default 1; montgomery-pipelined with segment: counter levels, default 5)"),
        "segment": (int, False, "F_p montgomery-pipelined: counter trees and carry chains of this many bits "
                                "(2 to 64) instead of the adder tree"),
        "cascade": (int, False, "F_p montgomery-pipelined with segment: the pieces of a column summed this many at a "
                                "time along chains of DSPs (1 to 32; default 1, each piece alone): 24 x 16-bit "
                                "pieces, a few bits a column for the counter trees, cascade - 1 cycles more latency "
                                "a product"),
        "cascade_step": (int, False, "F_p montgomery-pipelined with cascade: DSPs of a chain between two registers "
                                     "(1 or 2; default 1; 2: half the chain's cycles)"),
        "dsp_adders": (int, False, "F_p montgomery-pipelined with cascade and lut6: DSP48E1s more, each adding two "
                                   "chains of one offset as a 48-bit adder without a register, so the counter trees "
                                   "have a row fewer there (default 0)"),
        "registers": ([str], False, "F_3^m karatsuba: the pipeline cut points instead of stages "
                                    "(in, pre0…, base, post…0)"),
        "core": (int, False, "iter-karatsuba core width: 153 or 77"),
        "per_cycle": (int, False, "F_p montgomery-iterative: digits of a per cycle (default 1; K: 2K DSP pieces, "
                                  "a product every s(1 + L/K) + 1 cycles, L = s + 1 rounded up to a multiple of K)"),
        "lut6": (bool, False, "hand-packed LUT6 base products (F_2^m); F_p montgomery-pipelined with segment: "
                              "each counter output a LUT6 primitive"),
    },
}

#: the unit kinds that take "power" options (the families' powers: F_2^m's and F_3^m's)
POWER_KINDS = ("sqr", "sqrt", "cube", "cbrt")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")

#: the largest value of each integer key, the most items of each list and the longest string, checked
#: before anything is built: a design file is input, and a count of 10^9 must not take the machine's memory
MOST = {
    ("design", "name"): 100, ("design", "description"): 4_000,
    ("datapath", "io_width"): 8_192, ("datapath", "banks"): 64, ("datapath", "units"): 64, ("datapath", "pipeline"): 2,
    ("datapath", "max_sources"): 1 << 20, ("datapath", "lookahead"): 64, ("datapath", "near_steps"): 1_000, ("datapath", "modulo_orders"): 1_000,
    ("datapath", "modulo_exact"): 3_600,
    ("datapath", "word_stages"): 4, ("datapath", "group_slices"): 1 << 16, ("datapath", "slice_bits"): 1 << 16,
    ("bank", "name"): 64, ("bank", "size"): 1 << 20, ("bank", "write_ports"): 16, ("bank", "read_ports"): 16,
    ("unit", "name"): 64, ("unit", "count"): 64, ("unit", "lanes"): 64, ("unit", "k"): 64, ("unit", "reads"): 8,
    ("unit", "writes"): 64, ("unit", "pipeline"): 2, ("unit", "read_via"): 8, ("unit", "writes_each"): 64,
    ("inv", "per_cycle"): 64, ("add", "stages"): 10, ("power", "stages"): 64,
    ("mul", "schedule"): 16, ("mul", "digit"): 100_000, ("mul", "stages"): 64, ("mul", "levels"): 1_000, ("mul", "segment"): 64, ("mul", "cascade"): 32, ("mul", "cascade_step"): 2, ("mul", "dsp_adders"): 1_000, ("mul", "slice_bits"): 100_000,
    ("mul", "registers"): 64, ("mul", "core"): 1_000, ("mul", "per_cycle"): 1_000,
    ("design", "pairs"): 16, ("design", "batch"): 16, ("asip", "word"): 100_000, ("asipmul", "core"): 1_000, ("asipmul", "digit"): 100_000,
}

#: the largest design file read (bytes): the built-in ones are under 2 kB
MAX_FILE_BYTES = 1 << 20

#: the deepest nesting of lists and objects read (the built-in designs: at most 6); checked before the JSON
#: parser runs, whose own bound is the interpreter's recursion limit (which a library may raise so
#: far that deep input crashes the process instead of raising RecursionError)
MAX_NESTING = 32

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text``, brackets inside strings not counted
    (on text that is not JSON, a bound of the parser's depth, never below it)."""
    depth = best = 0
    for b in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if b in "[{" else -1
        best = max(best, depth)
    return best


class SchemaError(ValueError):
    """A design file that does not match the format; the message names the key."""


def type_name(t) -> str:
    if isinstance(t, list):
        return f"a list of {type_name(t[0])}"
    if isinstance(t, tuple):
        return " or ".join(type_name(x) for x in t)
    if isinstance(t, str):
        return f"an object ({t})"
    return {str: "a string", int: "an integer", bool: "true or false", list: "a list"}[t]


def _is(value, t) -> bool:
    if isinstance(t, tuple):
        return any(_is(value, x) for x in t)
    if isinstance(t, list):
        return isinstance(value, list) and all(_is(v, t[0]) for v in value)
    if isinstance(t, str):
        return isinstance(value, dict)
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, t)


def _walk(obj, kind: str, path: str) -> None:
    spec = SCHEMA[kind]
    if not isinstance(obj, dict):
        raise SchemaError(f"{path or 'the design'}: expected {type_name(kind)}")
    for key in obj:
        if key not in spec:
            raise SchemaError(f"{path + '.' if path else ''}{key}: unknown key; {kind} keys: {', '.join(spec)}")
    for key, (t, required, _) in spec.items():
        where = f"{path + '.' if path else ''}{key}"
        if key not in obj:
            if required:
                raise SchemaError(f"{where}: missing (required: {type_name(t)})")
            continue
        v = obj[key]
        if not _is(v, t):
            raise SchemaError(f"{where}: expected {type_name(t)}, got {type(v).__name__} {v!r}"[:200])
        _bounded(v, MOST.get((kind, key)), where)
        if isinstance(t, str):
            _walk(v, t, where)
        elif isinstance(t, list) and isinstance(t[0], str):
            for i, item in enumerate(v):
                _walk(item, t[0], f"{where}[{i}]")
        if t is int and v < 1:
            raise SchemaError(f"{where}: must be at least 1, not {v}")


def _bounded(v, most: int | None, where: str) -> None:
    """Refuse a string or list longer than ``most``, or an integer above it (:data:`MOST`)."""
    if most is None:
        return
    if isinstance(v, (str, list)) and len(v) > most:
        raise SchemaError(f"{where}: at most {most:,} {'characters' if isinstance(v, str) else 'items'}, "
                          f"not {len(v):,}")
    if isinstance(v, int) and not isinstance(v, bool) and v > most:
        raise SchemaError(f"{where}: must be at most {most:,}, not {v:,}")


def validate(data) -> None:
    """Check ``data`` against :data:`SCHEMA` (unknown keys are refused, so a typo cannot be ignored)."""
    _walk(data, "design", "")
    if not _NAME.match(data["name"]):
        raise SchemaError(f"name: {data['name']!r} is not letters, digits, - and _")
    if ("datapath" in data) == ("asip" in data):
        raise SchemaError("datapath: a design has either a datapath (the engine's processor) or an asip "
                          "(the word-serial processor), " + ("not both" if "asip" in data else "one is required"))
    if "asip" in data:
        return
    units = data["datapath"]["units"]
    seen = set()
    for i, u in enumerate(units):
        if u["name"] in seen:
            raise SchemaError(f"datapath.units[{i}].name: {u['name']!r} names two units")
        seen.add(u["name"])
        if (u["kind"] == "mul") != ("mul" in u):
            raise SchemaError(f"datapath.units[{i}].mul: " + ("required for a mul unit" if u["kind"] == "mul"
                                                              else f"only a mul unit has one, not {u['kind']}"))
        if "inv" in u and u["kind"] != "inv":
            raise SchemaError(f"datapath.units[{i}].inv: only an inv unit has one, not {u['kind']}")
        if "add" in u and u["kind"] not in ("add", "add3"):
            raise SchemaError(f"datapath.units[{i}].add: only an add or add3 unit has one, not {u['kind']}")
        if "power" in u and u["kind"] not in POWER_KINDS:
            raise SchemaError(f"datapath.units[{i}].power: only a power unit ({', '.join(POWER_KINDS)}) has one, "
                              f"not {u['kind']}")
    if not any(u["kind"] == "mul" for u in units):
        raise SchemaError("datapath.units: a design needs a mul unit")


def check(data) -> None:
    """:func:`validate`, then build what the file names: the parameter set, the algorithm, the
    datapath with its multiplier (a :class:`SchemaError` names the key that is wrong)."""
    from pairhw import fields, params
    from pairhw.program.datapath import DatapathError

    from pairhw.names import current_data

    validate(data)
    data = current_data(data)  # a file may use the old names (pairhw.names)
    if data["curve"] not in params.names():
        raise SchemaError(f"curve: unknown parameter set {data['curve']!r}; known: {', '.join(params.names())}")
    fi = fields.for_params(data["curve"])
    known = importlib.import_module(fi.pairings_module).ALGORITHMS
    if data["algorithm"] not in known:
        raise SchemaError(f"algorithm: {data['algorithm']!r} is not a pairing of {data['curve']}; "
                          f"pairings: {', '.join(known)}")
    applies = getattr(importlib.import_module(fi.pairings_module), "APPLIES", {}).get(data["algorithm"])
    if applies is not None:
        try:
            applies(params.curve(data["curve"]))
        except ValueError as e:
            raise SchemaError(f"algorithm: {data['algorithm']!r} does not run on {data['curve']}: {e}") from None
    if data.get("check"):
        if not hasattr(fi, "with_pairs") or "asip" in data:
            raise SchemaError(f"check: a pairing check is built on the prime sets, not on {data['curve']}")
        if any(b.get("write_ports") for b in data["datapath"].get("banks", ())):
            raise SchemaError("check: a check core compares its outputs in flip-flop registers; this datapath "
                              "has RAM banks (write_ports)")
    if data.get("validate") and not data.get("check"):
        raise SchemaError("validate: the points are validated by a check core (\"check\": true), whose one "
                          "output the validation can make 0")
    if data.get("pairs", 1) > 1:
        if not hasattr(fi, "with_pairs") or "asip" in data:
            raise SchemaError(f"pairs: products of pairings are built on the prime sets, not on {data['curve']}")
        if data["algorithm"] != "optimal-ate":
            raise SchemaError(f"pairs: a product of pairings is computed with optimal-ate, not {data['algorithm']}")
    if data.get("batch", 1) > 1 and "asip" in data:
        raise SchemaError("batch: a batch of pairings is scheduled on the engine's datapath, not on the "
                          "word-serial processor (asip)")
    if "asip" in data:
        from pairhw.asip.program import AsipError, asip_config

        try:
            asip_config(fi, data["asip"])
        except AsipError as e:
            raise SchemaError(str(e)) from None
        return
    from pairhw.designs import from_data

    try:  # on the design's own field interface (its batch, its pairs), as the engine builds it
        from_data(data).datapath()
    except (DatapathError, ValueError) as e:
        raise SchemaError(in_design_terms(str(e), data)) from None


def in_design_terms(message: str, data: dict) -> str:
    """An engine message about ``data``'s datapath as the key path a design file's author reads:
    ``unit mul: …`` becomes ``datapath.units[0] (mul): …``; a unit option is named as its key
    (``digit``), not as the ``pairhw unit`` flag (``--digit``) the same check words for the command."""
    message = re.sub(r"--(schedule|digit-groups|digit|core|lut6|stages|registers|levels|segment|cascade-step|"
                     r"cascade|lanes|slice-bits|free-run)\b",
                     lambda m: m.group(1).replace("-", "_"), message)
    units = data.get("datapath", {}).get("units", [])
    m = re.match(r"unit (\S+?):? ", message)
    if m:
        i = next((i for i, u in enumerate(units) if u.get("name") == m[1]), None)
        if i is not None:
            sep = ":" if message[m.end() - 2] == ":" else ""
            return f"datapath.units[{i}] ({m[1]}){sep} {message[m.end():]}"
    return message if message.startswith("datapath") else f"datapath: {message}"


def text() -> str:
    """The format as text (``pairhw designs --schema``)."""
    out = []
    for kind, spec in SCHEMA.items():
        out.append(f"{kind}:")
        for key, (t, required, help_) in spec.items():
            out.append(f"  {key:12} {type_name(t):28} {'required' if required else 'optional':9} {help_}")
    return "\n".join(out)
