"""Datapath configurations as data: functional units, register banks, connectivity, I/O word width.

A unit is of one of the field's unit kinds (:attr:`pairhw.program.field.BaseField.unit_kinds`:
``mul``, ``add``, ``const`` and the power units, ``sqr``/``sqrt`` in characteristic two,
``cube``/``cbrt`` in characteristic three) and executes that kind's op kinds (an F_3^m ``add`` unit
also subtracts and negates, selected per word).  Its hardware latency
``latency`` is the cycle, counted from the issue cycle t, in which its result is on its output
(0: combinational); the result is written to a register at the end of that cycle, so a consumer may
issue at ``t + latency + 1`` (:attr:`UnitSpec.delay`).  ``ii`` is the initiation interval and ``count``
the number of identical instances.  A power unit raises to the powers p^(±k) for each k in ``ks``
(one network per k behind one read port; the word selects which).  ``reads``
lists, per input port, the banks the port can read and ``writes`` the banks the result can be
written to (empty: every bank).  The stream loader writes and the unloader reads every bank.

A bank with ``write_ports`` set is a RAM (LUTRAM on an FPGA) rather than a set of registers with
their own multiplexers: at most that many results are written to it per cycle (a scheduling resource,
:mod:`pairhw.program.schedule`), and every unit that writes it writes no other bank, so the scheduler
knows which port a result takes.  A RAM bank with ``read="sync"`` is read at the clock edge (block
RAM): the core presents the next word's read addresses a cycle early and bypasses a write to the
address read at that edge, so a read sees the same state as a combinational read one cycle later and
the schedule does not change (:class:`pairhw.cores.core.PairingCore`).

A RAM bank with ``read_ports`` set has that many read ports shared by the units, rather than one
per unit input port: on an FPGA each read port is a copy of the LUT RAM (or of the block RAMs, read
``sync``), so a register file read by six unit ports (a multiplier's two, an adder's two, a squarer
and a square root) is six copies, and with ``read_ports: 2`` two.  Input port j of a unit reads through the bank's port ``read_via[j]``
(default j mod ``read_ports``), fixed in hardware: the port's data goes to each of its units' inputs
without a multiplexer, and the microcode word addresses each shared port once (``r.rd0``, ...).  A
shared port reads one register a cycle, so it is a scheduling resource like a write port; a unit
samples its operands in its issue cycle, so an op holds its ports for that cycle only.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field, replace

from .field import BaseField, FieldInterfaceError


#: the register stages a datapath's ``pipeline`` may put around its units, in signal order:
#: ``operands`` registers the read multiplexers' outputs (and the word's go, op and power fields)
#: before the unit, ``results`` registers the unit's output before the write multiplexers
PIPELINE_STAGES = ("operands", "results")


#: how the core reads its microcode ROM: through LUTs (``comb``); at the clock edge, addressed by
#: the next pc (``sync``: block RAM, same cycles); or from LUTs into a flip-flop word register
#: (``registered``: the word's fields leave flip-flops placed near their multiplexers, not a block
#: RAM's slow output; a run takes one cycle more, :attr:`Datapath.word_stages`; for a ROM of a few
#: hundred words); or at the clock edge into a word register (``sync-registered``: block RAM, a cycle
#: more a run, and the next word's fields are the block RAM's output, so a bank read at the clock
#: edge needs no copy of its address fields in LUTs: for a ROM of thousands of words)
ROM_READS = ("comb", "sync", "registered", "sync-registered")

#: how the core controls its LUT RAM banks, which it builds as one copy per port that reads the bank:
#: ``shared``, one write port (enable, address, data) for all the copies, driven from the word's
#: fields in the write's cycle, and each copy read at its port's field; or ``local``, each copy
#: holding only the registers its port reads, its write enable and address, and its read address,
#: in registers of its own, loaded a cycle early from the next word (the ROM's output ahead of the
#: word register), so a control net reaches one copy, not every copy over the die (the loader's
#: writes land a cycle later, before the first word runs; a bank with shared ``read_ports`` keeps the
#: shared control).  The same words and cycles: only the RTL differs.
RAM_CONTROLS = ("shared", "local")
#: how a unit input port that reads several local bank copies picks one (:attr:`Datapath.read_merge`)
READ_MERGES = ("mux", "or")
#: how a core with calls that overlap chooses its registers (:attr:`Datapath.allocate`,
#: :func:`~pairhw.program.calls.allocate_replay`): ``first``, the lowest free register (or a repeated
#: step's); ``copies``, the free register that deepens the fewest LUT RAM copies (ram_control local:
#: a port's copy of a bank holds the registers it reads, 32 words a RAM32M deep, 64 a RAM64M)
ALLOCATES = ("first", "copies")
#: where the operand stage (pipeline ``operands``) puts its registers (:attr:`Datapath.operand_stage`):
#: ``port``, one register after each unit input's multiplexer; ``sources``, one at each source the
#: input chooses among (each bank read, each forwarded result) and one on the choosing field, so the
#: multiplexer or OR runs in the unit's cycle after the registers and a LUT RAM copy's read ends at a
#: flip-flop beside it.  The same values a cycle later either way: the same words and cycles.
OPERAND_STAGES = ("port", "sources")
#: where the loop's modulo scheduler puts an op that fits nowhere in its window (iterative modulo
#: scheduling places it by force and evicts the ops in its way, :func:`~pairhw.program.schedule._place`):
#: ``first``, on the unit's instance 0 and the bank's write port 0; ``fewest``, on the instance (at its
#: first issue cycle from there) and write port where the fewest ops are in the way.  With several
#: instances of a fully used unit, ``first`` keeps evicting from one instance while the others'
#: cycles stay taken (:attr:`Datapath.modulo_evict`).
MODULO_EVICTS = ("first", "fewest")


class DatapathError(ValueError):
    """A datapath configuration that cannot work (unknown kind, missing unit, bad connectivity)."""


@dataclass(frozen=True)
class Bank:
    name: str
    size: int | None = None  # registers; None: as many as the allocation needs
    write_ports: int | None = None  # None: registers with per-register write multiplexers
    read: str = "comb"  # a RAM's reads: "comb" (LUTRAM) or "sync" (block RAM, addressed a cycle early)
    read_ports: int | None = None  # None: one read port per unit input port; n: n ports the units share


@dataclass(frozen=True)
class UnitSpec:
    name: str
    kind: str
    latency: int = 0
    ii: int = 1
    count: int = 1
    ks: tuple = (1,)  # power units: the k-fold powers x^(p^±k) the unit computes; scaled units: the
    # small constants k of its products k·x (either selected per word)
    reads: tuple = ()
    writes: tuple = ()
    writes_each: tuple = ()  # instance i also writes bank writes_each[i] (its own RAM: no contention)
    options: tuple = ()  # for kind "mul": (key, value) pairs of the field's multiplier catalogue
    ops: tuple = ()  # the op kinds it executes (set from the field's unit kind)
    ports: int = 2  # input ports (set from the field's unit kind)
    started: bool = False  # started by a go bit, result latency cycles later (set from the unit kind)
    lanes: int = 1  # multipliers per instance that share the operand b and start together
    read_via: tuple = ()  # per input port, the shared read port of a read_ports bank (default port mod n)
    pipeline: tuple = ()  # the register stages the core puts around the unit (PIPELINE_STAGES), in latency
    forward: bool = False  # its result is forwarded to the operand registers (set from the datapath's forward)
    fwd_in: bool = False  # its operand registers take forwarded results (forward, and an operand stage)
    early: bool = False  # forward with write_stage: its output forwarded a cycle before the write too

    @property
    def stages(self) -> int:
        """Register stages around the unit, counted in its ``latency``."""
        return len(self.pipeline)

    @property
    def delay(self) -> int:
        """Cycles from issue until a consumer can read the result from a register."""
        return self.latency + 1

    @property
    def fwd_delay(self) -> int:
        """Cycles from issue until a consumer of the same block (or of the same loop trip) can issue:
        :attr:`delay`, or with ``forward`` its ``latency``, the consumer's operand register taking
        the result from the unit's output in the cycle it is written (``early``: a cycle before,
        when the output leaves for the write stage)."""
        return self.latency - self.early if self.forward else self.delay

    def delay_to(self, consumer: "UnitSpec") -> int:
        """Cycles from issue until an op of the same block (or loop trip) on ``consumer`` can issue on
        the result: :attr:`fwd_delay` if the consumer's operand registers take it forwarded, else
        :attr:`delay` (it reads the register the result is written to)."""
        return self.latency - self.early if self.forward and consumer.fwd_in else self.delay

    def instance_names(self) -> list[str]:
        """One name per lane: instance i's lane j is ``name{i}_{j}`` (``name{i}`` / ``name`` with one lane)."""
        groups = [self.name] if self.count == 1 else [f"{self.name}{i}" for i in range(self.count)]
        return groups if self.lanes == 1 else [f"{g}_{j}" for g in groups for j in range(self.lanes)]

    @property
    def slots(self) -> int:
        """Lanes in all: ``count`` × ``lanes`` (the index of lane j of instance i is i·lanes + j)."""
        return self.count * self.lanes


@dataclass(frozen=True)
class Datapath:
    F: BaseField  # the field interface
    units: tuple
    banks: tuple = (Bank("r"),)
    io_width: int = 64
    mul_unit: object = field(default=None, compare=False, repr=False)
    rom: str = "comb"  # the microcode ROM's read: "comb" (LUTs), "sync" (block RAM, next-pc addressed), "registered",
    # "sync-registered" (ROM_READS)
    waits: bool = False  # collapse runs of idle words into one word with a wait count
    connect: str = "any"  # the register file's multiplexers: "any" (every register to every port) or "program"
    pipeline: tuple = ()  # the default register stages of every unit but the constant tables: "operands", "results"
    forward: bool = False  # results forwarded from the units' outputs to the operand registers
    max_sources: int | None = None  # at most this many sources a unit input port's multiplexer chooses among
    calls: str | None = None  # "steps" or "overlap": the model's steps scheduled one by one, identical ones stored once
    share: int | None = None  # calls: a new step's words reuse stored runs of at least this many words
    ram_control: str = "shared"  # "local": each LUT RAM copy its own write and read-address registers (RAM_CONTROLS)
    lookahead: int | None = None  # calls overlap: the steps an op's priority looks ahead (None: calls.LOOKAHEAD)
    word_regs: int | None = None  # a registered ROM: the register stages before the word's fields (None: 1)
    slice_bits: int | None = None  # ram_control local: the bits of a copy under one set of address registers
    table_copies: bool = False  # calls: an exponentiation's products read a copy of their table operand
    modulo_orders: int = 1  # the loop's modulo scheduler: placement orders tried per initiation interval
    read_merge: str = "mux"  # ram_control local: a port's copies chosen by a multiplexer, or "or": the others read 0
    interleave: bool = False  # calls, a batch: the pairings' steps in turn (calls.interleave)
    operand_stage: str = "port"  # the operand registers after each input's multiplexer, or at its "sources"
    modulo_evict: str = "first"  # the loop's modulo scheduler: where an op placed by force goes (MODULO_EVICTS)
    slice_selects: bool = False  # slice_bits: each slice of a unit input's choice its own select registers
    allocate: str = "first"  # calls overlap: the lowest free register, or the one deepening the fewest copies (ALLOCATES)
    inverse_window: int = 0  # BLS12: the hard part's first squarings overlapping the F_p inversion (0: none)
    near_steps: int | None = None  # calls overlap: a value read more steps on is a far one (None: calls.NEAR)
    kept_copies: bool = False  # BLS12: the powers the hard part keeps copied before their late reads
    reassociate: bool = False  # sums rebuilt latest term last (pairhw.program.reassociate)
    decode_writes: bool = False  # word_stages 3: each copy registers whether the next write is to it, and where
    write_stage: bool | str = False  # word_stages 3: each write registered in each copy's slices, a cycle on
    # every latency ("bank", word_stages 4 and slice_writes: in a register of the bank's slices the copies share)
    modulo_exact: int = 0  # the loop's modulo scheduler: CP-SAT's budget per interval below the greedy one (0: none)
    slice_controls: bool = False  # slice_bits: a unit's start, power select and op in a register per slice
    decode_reads: bool = False  # word_stages 3: each copy registers the place its next read addresses
    slice_writes: bool = False  # slice_bits: each slice of a bank's write multiplexer on a select register of its own
    pc_ahead: bool = False  # a block RAM ROM addressed by a register of the next pc, stepped a cycle ahead
    group_slices: int | None = None  # word_stages 4: the slices each register of a copy's group drives (default 4)
    const_ahead: bool = False  # a registered word: each constant table's output a register loaded from the next word
    load_on_valid: bool = False  # the loader's shift register loads on the input's valid alone, in any state
    rom_stage: bool = False  # a block RAM ROM's output registered once more before the word registers (word_q0)
    rom_columns: int | None = None  # a block RAM ROM as memories of that many bits of the word each (None: one)
    ahead_copies: bool = False  # rom_stage, decode_reads: each copy decodes registers of its own of the fields

    def __post_init__(self):
        names = [b.name for b in self.banks]
        if not names or len(set(names)) != len(names):
            raise DatapathError("bank names must be distinct and at least one bank is needed")
        kinds = self.F.unit_kinds
        owner: dict = {}  # instance name -> its unit: the microcode's fields and the Verilog are named so
        for u in self.units:
            for q in u.instance_names():
                if q in owner and owner[q] != u.name:
                    raise DatapathError(f"unit {u.name}: its instance {q} has the name of an instance of unit "
                                        f"{owner[q]} (instances of a unit of count n are name0 … name(n−1)); "
                                        "rename one of them")
                owner[q] = u.name
        for u in self.units:
            if u.kind not in kinds:
                raise DatapathError(f"unit {u.name}: unknown kind {u.kind!r} for {self.F.name}; kinds: "
                                    f"{', '.join(kinds)}")
        # a unit's ops and ports are its kind's, in this field
        object.__setattr__(self, "units", tuple(replace(u, ops=kinds[u.kind].ops, ports=kinds[u.kind].ports,
                                                        started=kinds[u.kind].started)
                                                for u in self.units))
        for u in self.units:
            if u.reads and len(u.reads) != u.ports:
                raise DatapathError(f"unit {u.name}: reads lists {len(u.reads)} ports, the kind has {u.ports}")
            for b in [b for r in u.reads for b in r] + list(u.writes) + list(u.writes_each):
                if b not in names:
                    raise DatapathError(f"unit {u.name}: no bank {b!r}")
            if u.count < 1 or u.ii < 1 or u.latency < 0:
                raise DatapathError(f"unit {u.name}: count and ii must be ≥ 1 and latency ≥ 0")
            if u.lanes < 1 or (u.lanes > 1 and (u.ports != 2 or not u.started or u.writes_each)):
                raise DatapathError(f"unit {u.name}: lanes must be ≥ 1; lanes sharing an operand are for "
                                    "two-operand started units (multipliers) without writes_each")
            if not u.ks or len(set(u.ks)) != len(u.ks) or min(u.ks) < 1 \
                    or (u.ks != (1,) and not (kinds[u.kind].power or kinds[u.kind].scaled)):
                raise DatapathError(f"unit {u.name}: k must be distinct integers ≥ 1, and only power units and "
                                    f"small-constant units "
                                    f"({', '.join(k for k, v in kinds.items() if v.power or v.scaled)}) take k")
            if kinds[u.kind].power and max(u.ks) >= self.F.m:  # x^(p^m) = x: a larger k is a smaller one's power
                raise DatapathError(f"unit {u.name}: k must be below m = {self.F.m}, not {max(u.ks)}")
        for b in self.banks:
            if b.write_ports is not None and b.write_ports < 1:
                raise DatapathError(f"bank {b.name}: write_ports must be ≥ 1")
            if b.read not in ("comb", "sync"):
                raise DatapathError(f"bank {b.name}: read must be comb or sync, not {b.read!r}")
            if b.read == "sync" and not b.write_ports:
                raise DatapathError(f"bank {b.name}: a sync read is for a RAM bank (set write_ports)")
        for b in self.banks:
            if b.read_ports is None:
                continue
            if b.read_ports < 1 or not b.write_ports:
                raise DatapathError(f"bank {b.name}: read_ports (≥ 1) is for a RAM bank (set write_ports)")
        for u in self.units:
            ported = [p for p in range(u.ports) if any(self.bank(b).read_ports for b in self.read_banks(u, p))]
            if u.read_via and not ported:
                raise DatapathError(f"unit {u.name}: read_via is for a unit that reads a bank with read_ports")
            if not ported:
                continue
            if len(ported) != u.ports or any(len(self.read_banks(u, p)) != 1 for p in ported) \
                    or len({self.read_banks(u, p)[0] for p in ported}) != 1:
                raise DatapathError(f"unit {u.name}: a unit that reads a bank with read_ports reads that "
                                    "bank alone on every input port (give it \"reads\")")
            n = self.bank(self.read_banks(u, 0)[0]).read_ports or 0  # set: the checks above
            if u.lanes > 1:
                raise DatapathError(f"unit {u.name}: lanes do not read a bank with read_ports")
            via = [rp[1] for p in range(u.ports) if (rp := self.read_port(u, p))] if len(u.read_via) in (0, u.ports) else []
            if len(via) != u.ports or len(set(via)) != len(via) or any(not 0 <= k < n for k in via):
                raise DatapathError(f"unit {u.name}: read_via gives each of its {u.ports} input ports a "
                                    f"distinct read port 0..{n - 1} (the bank has read_ports {n})")
        own = [b for u in self.units for b in u.writes_each]
        for u in self.units:
            if u.writes_each:
                if len(u.writes_each) != u.count:
                    raise DatapathError(f"unit {u.name}: writes_each names one bank per instance ({u.count}), "
                                        f"not {len(u.writes_each)}")
                if any(not self.bank(b).write_ports for b in u.writes_each):
                    raise DatapathError(f"unit {u.name}: writes_each banks must be RAMs (write_ports)")
                shared = self.write_banks(u)
                if any(self.bank(b).write_ports for b in shared) and len(shared) != 1:
                    raise DatapathError(f"unit {u.name}: with writes_each, a RAM among its shared writes "
                                        "must be its only shared bank")
            if len(set(own)) != len(own) or any(b in own for b in self.write_banks(u)):
                raise DatapathError("a writes_each bank belongs to one unit instance: no other unit or "
                                    "instance may write it (list the shared banks in writes)")
        for u in self.units:
            wb = self.write_banks(u)
            if len(wb) > 1 and any(self.bank(b).write_ports for b in wb):
                raise DatapathError(f"unit {u.name} writes several banks, one of them with limited write "
                                    "ports; give it \"writes\": [that bank]")
        if self.io_width < 1:
            raise DatapathError("the I/O word width must be at least 1")
        if self.rom not in ROM_READS:
            raise DatapathError(f"rom must be {', '.join(ROM_READS[:-1])} or {ROM_READS[-1]}, not {self.rom!r}")
        if self.max_sources is not None and (isinstance(self.max_sources, bool) or not isinstance(self.max_sources, int)
                                             or self.max_sources < 1):
            raise DatapathError(f"max_sources must be a positive integer, not {self.max_sources!r}")
        if self.connect not in ("any", "program"):
            raise DatapathError(f"connect must be any or program, not {self.connect!r}")
        if self.ram_control not in RAM_CONTROLS:
            raise DatapathError(f"ram_control must be {' or '.join(RAM_CONTROLS)}, not {self.ram_control!r}")
        if self.ram_control == "local":
            # the registers are loaded from the next word, which only a registered word has ahead of it
            if not self.word_stages:
                raise DatapathError("ram_control local takes the next word's fields from the ROM's output "
                                    "ahead of the word register: set rom to registered or sync-registered, "
                                    f"not {self.rom}")
            if not self.local_banks:
                raise DatapathError("ram_control local is for LUT RAM banks (write_ports, read comb, no "
                                    "read_ports); the datapath has none")
        if self.read_merge not in READ_MERGES:
            raise DatapathError(f"datapath.read_merge: {self.read_merge!r} is not {' or '.join(READ_MERGES)}")
        if self.read_merge == "or" and self.ram_control != "local":
            raise DatapathError("datapath.read_merge: or reads the copies of ram_control local (each copy's "
                                f"read-address register picks its word of zeros); set ram_control to local, not "
                                f"{self.ram_control}")
        if isinstance(self.inverse_window, bool) or not isinstance(self.inverse_window, int) or self.inverse_window < 0:
            raise DatapathError(f"datapath.inverse_window: {self.inverse_window!r} is not a whole number of squarings")
        if self.inverse_window and (self.F.family != "prime" or not any(u.kind == "inv" for u in self.units)):
            raise DatapathError("datapath.inverse_window: the squarings that overlap the final exponentiation's "
                                "F_p inversion need a prime field and an inverter unit (kind inv)")
        if not isinstance(self.kept_copies, bool):
            raise DatapathError(f"datapath.kept_copies: {self.kept_copies!r} is not true or false")
        if self.near_steps is not None and (isinstance(self.near_steps, bool) or not isinstance(self.near_steps, int)
                                            or self.near_steps < 1):
            raise DatapathError(f"datapath.near_steps: {self.near_steps!r} is not a whole number of steps of at least 1")
        if self.near_steps is not None and self.calls != "overlap":
            raise DatapathError("datapath.near_steps: needs calls overlap (the registers of steps that overlap)")
        if self.allocate not in ALLOCATES:
            raise DatapathError(f"datapath.allocate: {self.allocate!r} is not {' or '.join(ALLOCATES)}")
        if self.allocate == "copies" and not (self.calls == "overlap" and self.ram_control == "local"
                                              and self.connect == "program"):
            raise DatapathError("datapath.allocate: copies chooses registers for the LUT RAM copies that hold only "
                                "what their port reads: it needs calls overlap, ram_control local and connect "
                                "program")
        if self.operand_stage not in OPERAND_STAGES:
            raise DatapathError(f"datapath.operand_stage: {self.operand_stage!r} is not "
                                f"{' or '.join(OPERAND_STAGES)}")
        if self.operand_stage == "sources" and not any("operands" in u.pipeline for u in self.units):
            raise DatapathError("datapath.operand_stage: sources places the registers of the operand stage; "
                                "no unit has one (pipeline \"operands\")")
        if not isinstance(self.interleave, bool):
            raise DatapathError(f"datapath.interleave: {self.interleave!r} is not true or false")
        if self.interleave and not self.calls:
            raise DatapathError("datapath.interleave: takes turns between a batch's pairings step by step; "
                                "needs calls (steps or overlap)")
        if self.interleave and getattr(self.F, "batch", 1) < 2:
            raise DatapathError("datapath.interleave: needs a batch of at least 2 pairings (the design's "
                                "\"batch\")")
        if self.word_regs is not None:
            if isinstance(self.word_regs, bool) or self.word_regs not in (1, 2, 3, 4):
                raise DatapathError(f"datapath.word_stages: {self.word_regs!r} is not 1, 2, 3 or 4")
            if self.word_regs >= 3 and self.ram_control != "local":
                raise DatapathError(f"datapath.word_stages: {self.word_regs} loads ram_control local's registers "
                                    f"of each copy from a word ahead; set ram_control to local, not {self.ram_control}")
            if self.word_regs >= 3 and (self.calls or self.waits):
                # the tree is built and simulated for a sequencer without run tables or held words
                raise DatapathError(f"datapath.word_stages: {self.word_regs} is for a core whose words run one a "
                                    "cycle (no calls, no waits)")
            if self.rom not in ("registered", "sync-registered"):
                raise DatapathError("datapath.word_stages: registers the word of a registered ROM; set rom to "
                                    f"registered or sync-registered, not {self.rom}")
        if self.rom_stage and (self.rom != "sync-registered" or self.word_stages < 2):
            # the register sits between the block RAM and the word register the next word's fields leave
            raise DatapathError("datapath.rom_stage: registers a block RAM ROM's output before the word "
                                "registers; set rom to sync-registered and word_stages to 2 or more")
        if self.rom_columns is not None and (isinstance(self.rom_columns, bool) or not isinstance(self.rom_columns, int)
                                             or self.rom_columns < 1):
            raise DatapathError(f"datapath.rom_columns: {self.rom_columns!r} is not a whole number of bits of "
                                "at least 1")
        if self.rom_columns is not None and self.rom not in ("sync", "sync-registered"):
            raise DatapathError("datapath.rom_columns: cuts a block RAM ROM into columns; set rom to sync or "
                                f"sync-registered, not {self.rom}")
        if self.ahead_copies and not (self.rom_stage and self.decode_reads):
            # the copies' registers load the word two ahead from rom_stage's register, for decode_reads' decoders
            raise DatapathError("datapath.ahead_copies: loads each copy's registers of the fields decode_reads "
                                "decodes from rom_stage's register; set rom_stage and decode_reads")
        if self.const_ahead and not self.word_stages:
            # the register loads the next word's select, which only a registered word has a cycle early
            raise DatapathError("datapath.const_ahead: loads the constant tables' registers from the next word, "
                                "which a registered word gives; set rom to registered or sync-registered")
        if self.pc_ahead:
            if self.rom not in ("sync", "sync-registered"):
                raise DatapathError("datapath.pc_ahead: addresses a block RAM ROM by a register; set rom to sync "
                                    f"or sync-registered, not {self.rom}")
            if self.calls or self.waits:
                # the ahead pc steps as the pc does in a run of one loop: no run table, no held words
                raise DatapathError("datapath.pc_ahead: steps the pc a cycle ahead for words that run one a "
                                    "cycle (no calls, no waits)")
        if self.group_slices is not None:
            if isinstance(self.group_slices, bool) or not isinstance(self.group_slices, int) \
                    or self.group_slices < 1:
                raise DatapathError(f"datapath.group_slices: {self.group_slices!r} is not a whole number of "
                                    "slices of at least 1")
            if self.word_stages != 4:
                # the groups' registers are the tree's middle level, which the fourth word stage pays for
                raise DatapathError("datapath.group_slices: the slices each register of a copy's groups drives, "
                                    f"which word_stages 4 builds; set word_stages to 4, not {self.word_stages}")
        if self.slice_bits is not None:
            if isinstance(self.slice_bits, bool) or not isinstance(self.slice_bits, int) or self.slice_bits < 1:
                raise DatapathError(f"datapath.slice_bits: {self.slice_bits!r} is not a whole number of bits of "
                                    "at least 1")
            if self.ram_control != "local":
                raise DatapathError("datapath.slice_bits: cuts the copies of ram_control local; set ram_control "
                                    f"to local, not {self.ram_control}")
        if self.reassociate and self.calls:
            # a sum's rebuilt tree sits at its root: its terms' additions would leave their own steps
            raise DatapathError("datapath.reassociate: rebuilds sums across the steps that calls keep apart; "
                                "use one or the other")
        # both work on the tree's registers of the next write: write_stage's slices load the write a
        # cycle early on the choice the tree makes then; decode_writes decodes into the copies' ones
        if self.write_stage not in (False, True, "bank"):
            raise DatapathError(f"datapath.write_stage: {self.write_stage!r} is not true, false or \"bank\"")
        if self.write_stage == "bank" and not (self.word_stages == 4 and self.slice_writes):
            # the bank's register of the write is chosen on the slices' choice registers a cycle early
            raise DatapathError("datapath.write_stage: \"bank\" registers each write in the bank's slices, "
                                "chosen on slice_writes' registers with word_stages 4; set both")
        for key, what, stages in (("write_stage", "registers each write in the copies' slices on the choice "
                                                  "word_stages 3 makes a cycle early",
                                   (3,) if self.write_stage is True else (4,)),
                                  ("decode_writes", "decodes the writes into each copy's registers of the next "
                                                    "write, which word_stages 3 or 4 builds", (3, 4)),
                                  ("decode_reads", "decodes the reads into each copy's registers of the next "
                                                   "read, which word_stages 3 or 4 builds", (3, 4))):
            if getattr(self, key) and self.word_stages not in stages:
                raise DatapathError(f"datapath.{key}: {what}; set word_stages to {' or '.join(map(str, stages))}, "
                                    f"not {self.word_stages}")
        # each cuts something into the slices of slice_bits
        for key, what in (("slice_selects", "cuts a unit input's choice into the slices of slice_bits"),
                          ("slice_writes", "cuts each bank's write multiplexer into the slices of slice_bits"),
                          ("slice_controls", "gives each slice_bits slice of a unit its own control registers")):
            if getattr(self, key) and self.slice_bits is None:
                raise DatapathError(f"datapath.{key}: {what}; set slice_bits")
        if self.slice_selects:
            if self.word_stages < 2:
                # the replicas load the next word's fields, which must leave flip-flops (word_q1)
                raise DatapathError("datapath.slice_selects: its registers load the next word's fields from "
                                    "a word register; set word_stages to 2, 3 or 4")
            if self.operand_stage == "sources":
                raise DatapathError("datapath.slice_selects: the choice is registered at the sources with "
                                    "operand_stage sources; use one or the other")
        if self.slice_writes and self.write_stage is True:
            # write_stage chooses the write a cycle early, on the tree's choice, into its own registers
            raise DatapathError("datapath.slice_writes: write_stage chooses each write a cycle early into "
                                "registers of the slices; use one or the other")
        if self.slice_controls:
            if not any("operands" in u.pipeline for u in self.units):
                # the copies are the operand stage's registers, repeated: without one they would add a cycle
                raise DatapathError("datapath.slice_controls: repeats the operand stage's control registers, "
                                    "and no unit has an operand stage; add \"operands\" to a pipeline")
        for what, stages in [("pipeline", self.pipeline)] + [(f"unit {u.name}: pipeline", u.pipeline)
                                                             for u in self.units]:
            if len(set(stages)) != len(stages) or set(stages) - set(PIPELINE_STAGES):
                raise DatapathError(f"{what} lists stages among {', '.join(PIPELINE_STAGES)}, each once, "
                                    f"not {list(stages)}")
        for u in self.units:
            if u.kind == "const" and u.pipeline:
                raise DatapathError(f"unit {u.name}: a constant table has no pipeline stages (nothing to register)")
            if u.latency < u.stages:
                raise DatapathError(f"unit {u.name}: its {u.stages} pipeline stages are counted in its latency "
                                    f"({u.latency})")
        if self.forward:
            # a forwarded result goes from a unit's output into an operand register, never through a
            # unit in the same cycle: only the units with their operands registered take it (the
            # others read the register it is written to, a cycle later)
            if not any("operands" in u.pipeline for u in self.units):
                raise DatapathError("forward needs a unit with its operands registered (pipeline \"operands\") "
                                    "to take the forwarded results; no unit has an operand stage")
            # with write_stage a result is on the unit's output a cycle before its write: forwarded
            # from there then (early), and from a register beside the unit in the write's cycle
            # (a unit of latency 1 would forward in its own issue cycle: not early)
            object.__setattr__(self, "units", tuple(replace(u, forward=u.kind != "const",
                                                            fwd_in="operands" in u.pipeline,
                                                            early=self.write_stage and u.kind != "const"
                                                            and u.latency >= 2)
                                                    for u in self.units))

    @property
    def word_stages(self) -> int:
        """Register stages between the microcode ROM's output and the word's fields: each delays the
        whole run by a cycle (the core's ``DRAIN`` state), not the schedule: one for a registered ROM,
        or ``word_stages`` 2 (the next word's fields then leave flip-flops too), or 3 (ram_control
        local: each copy's registers of the next word's fields load the word after it, and each
        slice's registers load those, a tree of registers, not one net from the word to every slice),
        or 4 (the tree a level deeper: each copy's registers load the word two after the next, a
        register of each group of :attr:`group_slices` slices loads what its slices load, a cycle
        early, and the slices load that)."""
        if self.rom not in ("registered", "sync-registered"):
            return 0
        return 1 if self.word_regs is None else self.word_regs

    @property
    def front_cycles(self) -> int:
        """The cycles a run takes beyond its words: one a word register (:attr:`word_registers`), and with
        ``pc_ahead`` the START cycle, in which the ahead pc takes its first step."""
        return self.word_registers + int(self.pc_ahead)

    @property
    def word_registers(self) -> int:
        """The registers a word passes from the ROM to its fields: :attr:`word_stages`, and the ROM's
        own output register with ``rom_stage``; the run's last word drains through each."""
        return self.word_stages + int(self.rom_stage)

    @property
    def slice_group(self) -> int | None:
        """With ``word_stages`` 4, the slices of a copy each group register drives (``group_slices``,
        default 4); None without the group level."""
        if self.word_stages != 4:
            return None
        return 4 if self.group_slices is None else self.group_slices

    @property
    def local_banks(self) -> tuple:
        """The banks ``ram_control`` ``local`` applies to (none with ``shared``): the LUT RAM banks
        (write ports, comb reads) without shared ``read_ports``."""
        if self.ram_control != "local":
            return ()
        return tuple(b.name for b in self.banks if b.write_ports and b.read == "comb" and not b.read_ports)

    def unit_for(self, kind: str, k: int = 1) -> UnitSpec:
        """The first unit that executes op ``kind`` (with the power ``k``, for a power op)."""
        return self.units_for(kind, k)[0]

    def units_for(self, kind: str, k: int = 1) -> list:
        """Every unit that executes op ``kind`` (with the power ``k``), in datapath order: the
        scheduler picks one per op (several multipliers of different kinds or digit sizes)."""
        power = self.F.takes_k(kind)
        out = [u for u in self.units if kind in u.ops and (not power or k in u.ks)]
        if not out:
            what = f"{kind}^{k}" if self.F.is_power(kind) and k != 1 else f"{kind} {k}" if power else kind
            raise DatapathError(f"datapath.units: no unit computes {what}, which the pairing's program needs")
        return out

    @property
    def grouped(self) -> bool:
        """Whether a unit has lanes sharing an operand (the scheduler then issues them together)."""
        return any(u.lanes > 1 for u in self.units)

    def shared_write_port(self, u: UnitSpec):
        """(bank, ports) of the one shared RAM bank a ``writes_each`` unit also writes (the loop-carried
        values go there, :meth:`pairhw.program.lower.Flow.carried`), else None."""
        wb = self.write_banks(u)
        if u.writes_each and len(wb) == 1 and self.bank(wb[0]).write_ports:
            return (wb[0], self.bank(wb[0]).write_ports)
        return None

    def bank(self, name: str) -> Bank:
        return next(b for b in self.banks if b.name == name)

    def write_port(self, u: UnitSpec):
        """(bank, ports) when ``u``'s results go through a bank's limited write ports, else None
        (also for a unit whose instances own their RAM banks: one result per instance per cycle)."""
        wb = self.write_banks(u)
        if not wb or u.writes_each:
            return None
        b = self.bank(wb[0])
        return (b.name, b.write_ports) if len(wb) == 1 and b.write_ports else None

    def bank_names(self) -> list[str]:
        return [b.name for b in self.banks]

    def powers(self, kind: str) -> tuple:
        """The k of every k-fold power op ``kind`` some unit computes, largest first."""
        return tuple(sorted({k for u in self.units if kind in u.ops for k in u.ks}, reverse=True))

    def read_port(self, u: UnitSpec, port: int):
        """(bank, index) of the shared read port input ``port`` of ``u`` reads through (a bank with
        ``read_ports``), else None (the input has a read port of its own)."""
        banks = self.read_banks(u, port)
        if len(banks) != 1:
            return None
        n = self.bank(banks[0]).read_ports
        if not n:
            return None
        return (banks[0], u.read_via[port] if u.read_via else port % n)

    def read_banks(self, u: UnitSpec, port: int) -> tuple:
        return tuple(u.reads[port]) if u.reads else tuple(self.bank_names())

    def zeroed_copies(self, u: UnitSpec, port: int) -> bool:
        """Whether input ``port`` of ``u`` ORs its local copies (``read_merge`` or, several banks, all
        local): each of its copies then holds a word of zeros past its registers."""
        banks = self.read_banks(u, port)
        return (self.read_merge == "or" and len(banks) > 1 and self.read_port(u, port) is None
                and all(b in self.local_banks for b in banks))

    def write_banks(self, u: UnitSpec, inst: int | None = None) -> tuple:
        """The banks ``u`` (instance ``inst``) may write: its own ``writes_each`` bank first, then the
        shared ``writes`` (every bank that is no instance's own, by default).  Without ``inst``: the
        shared banks only."""
        own = {b for v in self.units for b in v.writes_each}
        shared = tuple(u.writes) if u.writes else tuple(b for b in self.bank_names() if b not in own)
        return ((u.writes_each[inst],) if inst is not None and u.writes_each else ()) + shared

    @property
    def io_beats(self) -> int:
        """Stream words per field element."""
        return -(-self.F.width // self.io_width)


def build_datapath(F: BaseField, spec: dict) -> Datapath:
    """A :class:`Datapath` from a design's ``datapath`` dictionary.

    ``F`` is the field interface.  ``spec["units"]`` is a list of ``{"name", "kind", ...}``; a power
    unit (``sqr``, ``sqrt``, ``cube``, ``cbrt``) may give ``"k": 4`` or ``"k": [1, 2, 4]`` (the powers it
    computes, see :class:`UnitSpec`); a ``mul`` unit names a multiplier of the field's catalogue
    (``"mul": {"kind": "karatsuba", ...}``, :meth:`~pairhw.program.field.BaseField.make_mul`) whose
    latency and II are taken from the built unit.  ``spec["banks"]`` is a list of
    ``{"name", "size", "write_ports", "read", "read_ports"}`` (default one unbounded bank ``r``;
    ``"write_ports": 1`` makes a bank a RAM, ``"read": "sync"`` one read at the clock edge: block RAM,
    ``"read_ports": 2`` two read ports the units share, a unit's ``"read_via"`` binding its inputs to
    them), ``spec["io_width"]``
    the stream word width (default 64), ``spec["rom"]`` how the core reads its microcode (``comb``,
    default: a LUT ROM; ``sync``: a clocked read that maps to block RAM; ``registered``: a LUT ROM
    into a flip-flop word register, a cycle more a run: :data:`ROM_READS`), and
    ``spec["waits"]`` whether runs of idle microcode words become one word with a wait count, and
    ``spec["connect"]`` which connections the core's register file builds (``any``, default: every
    register to every unit port that may read or write its bank; ``program``: only those the
    microcode uses, :meth:`~pairhw.program.microcode.Microcode.connections`), and
    ``spec["pipeline"]`` the register stages around every unit but the constant tables
    (:data:`PIPELINE_STAGES`; a unit's own ``"pipeline"`` replaces it for that unit): each adds a
    cycle to the unit's latency, which the schedulers and the model count (a combinational unit then
    writes its result ``latency`` cycles after it read its operands, as a started one does), and
    ``spec["forward"]`` whether the units' results are forwarded to the operand registers of the
    units with the ``operands`` stage (at least one): a consumer there of the same block or loop trip
    then issues in the cycle its operand is written (:attr:`UnitSpec.delay_to`), which wins back the
    stage's cycle; a unit without the stage reads the result from its register a cycle later,
    and ``spec["max_sources"]`` the most sources a unit input port's multiplexer may choose among
    (checked on the assembled microcode, :func:`~pairhw.program.engine.check_sources`), and
    ``spec["calls"]`` whether the program is cut at the model's steps, each scheduled on its own, the
    words of identical steps stored once and run from a table (:mod:`pairhw.program.calls`):
    ``steps`` (each step after the previous one's last result) or ``overlap`` (a step's head fills
    the previous one's tail), and ``spec["share"]`` the fewest words a step reuses from the words
    stored before it (:func:`~pairhw.program.calls.fragments`; default: only whole steps), and
    ``spec["ram_control"]`` how the core drives its LUT RAM banks' copies (:data:`RAM_CONTROLS`), and
    ``spec["lookahead"]`` how many steps an overlapping step's priorities look ahead
    (:func:`~pairhw.program.calls.step_schedule`), ``spec["word_stages"]`` the registers between a
    registered ROM and the word (:attr:`Datapath.word_stages`), ``spec["slice_bits"]`` the bits
    of a local copy that share address registers, ``spec["table_copies"]`` whether an
    exponentiation's product by an entry of its table of odd powers reads a copy of the entry made
    in a step of its own (every such product the same step, stored once) and
    ``spec["modulo_orders"]`` how many placement orders the loop's modulo scheduler tries at each
    initiation interval (:func:`~pairhw.program.schedule.modulo_schedule`) and ``spec["modulo_evict"]``
    where it places an op by force (:data:`MODULO_EVICTS`) and ``spec["modulo_exact"]`` the CP-SAT
    solver's budget at each interval below the greedy one (:mod:`~pairhw.program.exact`) and ``spec["read_merge"]``
    how a port picks among its local copies (:attr:`Datapath.read_merge`, :data:`READ_MERGES`), and
    ``spec["interleave"]`` whether a batch's pairings take turns step by step
    (:func:`~pairhw.program.calls.interleave`), and ``spec["slice_selects"]`` whether each slice of a
    unit input's choice has select registers of its own (:attr:`Datapath.slice_selects`), and
    ``spec["operand_stage"]`` where the operand
    stage's registers sit (:attr:`Datapath.operand_stage`, :data:`OPERAND_STAGES`), and ``spec["allocate"]``
    how a core with calls that overlap chooses registers (:data:`ALLOCATES`), and ``spec["inverse_window"]``
    how many of a BLS12 final exponentiation's squarings overlap its inversion
    (:func:`~pairhw.math.prime.pairing.final_exp_overlapped_bls12`), and ``spec["near_steps"]`` how many
    steps on a value may be read and still share the registers of the steps' own values
    (:func:`~pairhw.program.calls.allocate_replay`), and ``spec["kept_copies"]`` whether a BLS12 final
    exponentiation's kept powers are copied before their late reads
    (:meth:`~pairhw.math.prime.tower.Tower12.kept12`).
    """
    if spec.get("calls") not in (None, "steps", "overlap"):
        raise DatapathError(f"datapath.calls: {spec['calls']!r} is not steps or overlap")
    share = spec.get("share")
    if share is not None and (isinstance(share, bool) or not isinstance(share, int) or share < 2):
        raise DatapathError(f"datapath.share: {share!r} is not a whole number of words of at least 2")
    if share is not None and not spec.get("calls"):
        raise DatapathError("datapath.share: needs calls (the words shared are those of the model's steps)")
    lookahead = spec.get("lookahead")
    if lookahead is not None and (isinstance(lookahead, bool) or not isinstance(lookahead, int) or lookahead < 1):
        raise DatapathError(f"datapath.lookahead: {lookahead!r} is not a whole number of steps of at least 1")
    if lookahead is not None and spec.get("calls") != "overlap":
        raise DatapathError("datapath.lookahead: needs calls overlap (the priorities of a step that fills the "
                            "previous one's tail)")
    copies = spec.get("table_copies", False)
    if not isinstance(copies, bool):
        raise DatapathError(f"datapath.table_copies: {copies!r} is not true or false")
    if copies and F.family != "prime":
        raise DatapathError("datapath.table_copies: for the prime-field pairings (the final exponentiation's "
                            f"windowed powers), not {F.family} fields")
    if copies and not spec.get("calls"):
        raise DatapathError("datapath.table_copies: needs calls (the copies make the products' steps equal, "
                            "so that their words are stored once)")
    orders = spec.get("modulo_orders", 1)
    if isinstance(orders, bool) or not isinstance(orders, int) or orders < 1:
        raise DatapathError(f"datapath.modulo_orders: {orders!r} is not a whole number of orders of at least 1")
    evict = spec.get("modulo_evict", "first")
    if evict not in MODULO_EVICTS:
        raise DatapathError(f"datapath.modulo_evict: {evict!r} is not one of {', '.join(MODULO_EVICTS)}")
    exact = spec.get("modulo_exact", 0)
    if isinstance(exact, bool) or not isinstance(exact, int) or exact < 0:
        raise DatapathError(f"datapath.modulo_exact: {exact!r} is not a whole number of seconds of the solver's "
                            "work (0: none)")
    if exact:
        from .exact import available

        if not available():
            raise DatapathError("datapath.modulo_exact: needs OR-Tools' CP-SAT, which is not installed "
                                "(pip install 'pairhw[exact]')")
    for key, chosen in (("modulo_orders", orders > 1), ("modulo_evict", evict != "first"),
                        ("modulo_exact", exact > 0)):
        if chosen and spec.get("calls"):
            raise DatapathError(f"datapath.{key}: for a core with a loop; with calls the program is list-"
                                "scheduled step by step (no modulo schedule)")
    pipeline = tuple(spec.get("pipeline", ()))
    banks = tuple(Bank(b["name"], b.get("size"), b.get("write_ports"), b.get("read", "comb"), b.get("read_ports"))
                  for b in spec.get("banks", [{"name": "r"}]))
    def take_latency(kw) -> None:
        """Build the unit ``kw`` describes (its own checks a DatapathError naming it) and take its
        latency and II: the units whose options set them (adders, power units, inverters)."""
        try:
            built = F.build_unit(UnitSpec(**kw))
        except (FieldInterfaceError, ValueError) as e:
            raise DatapathError(f"unit {kw['name']}: {e}") from None
        kw.update(latency=built.latency, ii=built.initiation_interval)

    units, mul_unit = [], None
    for u in spec["units"]:
        k = u.get("k", 1)
        ks = tuple(k) if isinstance(k, list) else (k,)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in ks):
            raise DatapathError(f"unit {u['name']}: k must be an integer or a list of integers")
        kw = dict(name=u["name"], kind=u["kind"], count=u.get("count", 1), ks=ks, lanes=u.get("lanes", 1),
                  reads=tuple(tuple(r) for r in u.get("reads", ())), writes=tuple(u.get("writes", ())),
                  writes_each=tuple(u.get("writes_each", ())), read_via=tuple(u.get("read_via", ())))
        if u["kind"] == "mul" and "mul" not in u:
            raise DatapathError(f"unit {u['name']}: a mul unit needs \"mul\": {{\"kind\": ...}}")
        if u["kind"] == "mul":
            opts = dict(u["mul"])
            try:
                built = F.make_mul(opts.pop("kind"), lanes=kw["lanes"], **opts) if kw["lanes"] > 1 \
                    else F.make_mul(opts.pop("kind"), **opts)
            except (FieldInterfaceError, ValueError) as e:  # not in the catalogue, bad option
                raise DatapathError(f"unit {u['name']}: {e}") from None
            except TypeError as e:  # an option the kind's builder has no parameter for
                bad = re.search(r"unexpected keyword argument '(\w+)'", str(e))
                if bad is None:
                    raise
                raise DatapathError(f"unit {u['name']}: the {u['mul']['kind']} multiplier of {F.name} takes no "
                                    f"option {bad[1]!r}") from None
            mul_unit = mul_unit or built
            kw.update(latency=built.latency, ii=built.initiation_interval,
                      options=tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                             for k, v in u["mul"].items())))
        elif (u["kind"] == "add" and "add" in u) or (u["kind"] == "add3" and "add3" in F.unit_kinds):
            # the adder's options: its latency is the built unit's (an add3 unit always built: a field
            # whose adder has two operands refuses it)
            kw.update(options=tuple(sorted(u.get("add", {}).items())))
            take_latency(kw)
        elif u["kind"] in F.unit_kinds and F.unit_kinds[u["kind"]].scaled:  # F_p's mulk: built to check it
            if len(set(ks)) != len(ks) or min(ks) < 2:  # 1·x is x: the tracer emits no product by 1
                raise DatapathError(f"unit {u['name']}: k must be distinct constants of at least 2, not {list(ks)}")
            take_latency(kw)  # the unit's own bound on k (MulSmallP's) is its build's error
        elif "power" in u and u["kind"] in F.unit_kinds and F.unit_kinds[u["kind"]].power:
            # "power": {"stages": 1}: registers inside the networks, the built unit's latency
            kw.update(options=tuple(sorted(u["power"].items())))
            take_latency(kw)
        elif u["kind"] in F.unit_kinds and F.unit_kinds[u["kind"]].started:  # e.g. an F_p inverter
            kw.update(options=tuple(sorted(u.get(u["kind"], {}).items())))  # "inv": {"per_cycle": 2}
            take_latency(kw)
        # the datapath's stages for every unit but a constant table (a table's own are refused by Datapath)
        stages = tuple(u.get("pipeline", () if u["kind"] == "const" else pipeline))
        if stages:
            kw.update(latency=kw.get("latency", 0) + len(stages), pipeline=stages)
        if spec.get("write_stage") and u["kind"] != "const":  # its writes a cycle later (a table's: read early)
            kw.update(latency=kw.get("latency", 0) + 1)
        units.append(UnitSpec(**kw))
    return Datapath(F, tuple(units), banks, spec.get("io_width", 64), mul_unit, spec.get("rom", "comb"),
                    bool(spec.get("waits", False)), spec.get("connect", "any"), pipeline,
                    bool(spec.get("forward", False)), spec.get("max_sources"), spec.get("calls"), share,
                    spec.get("ram_control", "shared"), lookahead, spec.get("word_stages"), spec.get("slice_bits"),
                    copies, orders, spec.get("read_merge", "mux"), spec.get("interleave", False),
                    spec.get("operand_stage", "port"), evict, spec.get("slice_selects", False),
                    spec.get("allocate", "first"), spec.get("inverse_window", 0), spec.get("near_steps"),
                    spec.get("kept_copies", False), bool(spec.get("reassociate", False)),
                    bool(spec.get("decode_writes", False)), spec.get("write_stage", False), exact,
                    bool(spec.get("slice_controls", False)), bool(spec.get("decode_reads", False)),
                    bool(spec.get("slice_writes", False)), bool(spec.get("pc_ahead", False)),
                    spec.get("group_slices"), bool(spec.get("const_ahead", False)),
                    bool(spec.get("load_on_valid", False)), bool(spec.get("rom_stage", False)),
                    spec.get("rom_columns"), bool(spec.get("ahead_copies", False)))
