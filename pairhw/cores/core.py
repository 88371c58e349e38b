"""The pairing core: sequencer + microcode ROM + register banks + units + stream I/O.

The core is built from a :class:`pairhw.program.engine.Compiled` design: the ROM holds its microcode
(:class:`pairhw.program.microcode.Microcode`), whose ``run`` is the bit- and cycle-exact model of
this hardware.

The core knows its field only through the field interface (:mod:`pairhw.program.field`): the width
of a register, the encoding of constants, and the units it instantiates.

Protocol: in state LOAD the core accepts the inputs (xP, yP, xQ, yQ) on ``i`` as ⌈width/w⌉ words each
(the field's hardware words), least significant word first; the cycle after the last input word it
runs the microcode for exactly ``microcode.cycles`` cycles (independent of the data), then streams
the output coefficients (four in characteristic two, six in three) out on ``o`` in the same format
and returns to LOAD.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from amaranth import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.memory import Memory, ReadPort
from amaranth.utils import ceil_log2
from amaranth.lib.wiring import In, Out

from pairhw.rtl.ports import BRAM_OUTPUT, REPLICA
from pairhw.program.microcode import EARLY, PORT_NAMES, Key, forward_sources, instances, read_key


def _read_tree(m, regs: list, used: list, addr, name: str):
    """A read port that reads only the registers ``used``: a tree of two-way multiplexers over the
    address bits (most significant at the root) in which a block holding one used register is that
    register and a half holding none is the other half. The other addresses are don't-care (the
    words never give them where the value is used), so the tree has len(used) − 1 multiplexers a
    bit, against 2**len(addr) − 1 for every register."""
    def block(lo, n):
        inside = [k for k in used if lo <= k < lo + n]
        if len(inside) == 1:
            return regs[inside[0]]
        h = n // 2
        left, right = [k for k in inside if k < lo + h], [k for k in inside if k >= lo + h]
        if not right:
            return block(lo, h)
        if not left:
            return block(lo + h, h)
        s = Signal(len(regs[0]), name=f"{name}_{lo}_{n}")  # a Signal a node: no deep expression trees
        m.d.comb += s.eq(Mux(addr[h.bit_length() - 1], block(lo + h, h), block(lo, h)))
        return s

    return block(0, 1 << len(addr))


def _place(addr, regs):
    """Register ``addr``'s place in ``regs``, the registers a bank copy holds (None: all, in place);
    an address outside ``regs`` is don't-care (0)."""
    if regs is None:
        return addr
    return Array([Const(regs.index(g) if g in regs else 0, range(max(len(regs), 2)))
                  for g in range(1 << len(addr))])[addr]


def _holds(en, addr, regs):
    """``en`` where ``addr`` is one of ``regs`` (a copy's registers; None: all of the bank's)."""
    return en if regs is None else en & Cat(*(addr == k for k in regs)).any()


def _slices(width: int, bits: int | None) -> list:
    """The bit ranges ``[lo, hi)`` of a ``width``-bit copy cut every ``bits`` bits (None: one); a
    last slice under half of ``bits`` joins the one before (no address register for a few bits)."""
    if bits is None or bits >= width:
        return [(0, width)]
    cuts = list(range(0, width, bits))
    if len(cuts) > 1 and width - cuts[-1] < bits / 2:
        cuts.pop()
    return [(lo, hi) for lo, hi in zip(cuts, cuts[1:] + [width])]


def _read_port(mem: Memory, name: str, domain: str) -> ReadPort:
    """``mem.read_port(domain=domain)`` whose signals are named ``{name}__addr`` and ``{name}__data``
    (``read_port`` names them all ``rp``, so the Verilog's reader cannot tell the ports apart)."""
    sig = ReadPort.Signature(shape=mem.shape, addr_width=ceil_log2(mem.depth))
    return ReadPort(sig, memory=mem, domain=domain, path=(name,))


class _ColumnRom:
    """The microcode ROM as memories of ``bits`` bits of the word each, read at the clock edge at one
    address (``addr``; ``data`` their words side by side): a column of up to 2,048 words of 9 bits
    is one ECP5 block RAM, whose output reaches a register with no multiplexer between them (Yosys
    maps one memory of 1,234 words of 112 bits to 10 block RAMs and a multiplexer after them), so the
    ECP5 flow can make that register the block RAM's own output register
    (:func:`pairhw.synth.flows.absorb_bram_output_registers`)."""

    def __init__(self, m: Module, words: list, width: int, bits: int):
        # (not _slices: it joins a narrow last slice to the one before, a column wider than a block RAM)
        cuts = [(lo, min(lo + bits, width)) for lo in range(0, width, bits)]
        self.addr = Signal(range(max(len(words), 2)), name="word_addr")
        self.data = Signal(width, name="word_data")
        for j, (lo, hi) in enumerate(cuts):
            mem = m.submodules[f"rom_c{j}"] = Memory(shape=hi - lo, depth=len(words),
                                                     init=[w >> lo & ((1 << (hi - lo)) - 1) for w in words])
            rp = _read_port(mem, f"word_c{j}", "sync")
            m.d.comb += [rp.addr.eq(self.addr), self.data[lo:hi].eq(rp.data)]


class StreamCore(wiring.Component):
    """What every pairing core shares (the module docstring's protocol): the input and output
    streams of ``stream.io_width``-bit words, ``busy``, and what its test bench, wrappers and build
    read: ``stream`` (:class:`~pairhw.program.stream.StreamInterface`), ``cycles``, ``name``.

    Parameters
    ----------
    compiled : pairhw.program.stream.CompiledProgram
        The compiled program, of either back end.
    name : str
        Verilog module name.
    """

    _MustUse__silence = True

    def __init__(self, compiled, name: str):
        self.compiled = compiled
        self.stream = compiled.stream
        self.name = name
        w = self.stream.io_width
        super().__init__({"i": In(stream.Signature(w)), "o": Out(stream.Signature(w)), "busy": Out(1)})

    @property
    def cycles(self) -> int:
        """Cycles of the run phase (from the cycle after the last input word)."""
        return self.compiled.cycles


class Sequencer:
    """The microcode ROM, the program counter and the word's fields, and the hardware loop.

    Built into the core's module ``m`` (not a submodule of its own: the core's Verilog keeps one
    module).  ``fld`` maps each field of the word (:class:`~pairhw.program.word.WordLayout`) to a
    Signal named after it (``mul.a`` -> ``word_mul_a``); ``fld_next`` holds the read-address fields
    of the next word, for the register banks read at the clock edge (``sync``).  ``live`` is high
    in the cycles that execute a word: ``run``, or with a registered word (``"rom": "registered"``)
    ``run`` a cycle later, when the word read in the pc's cycle is in the word register, or two with
    ``"word_stages": 2`` (the word passes ``word_q1`` first); ``next_live`` is high when the next
    word (:meth:`next_field`) is one the run executes.
    """

    def __init__(self, m: Module, mc, dp, sync: set):
        self.m, self.mc = m, mc
        self.words = words = mc.packed()
        # a registered word is read from a LUT ROM: a block RAM would take the word register as its own
        # output register (Yosys merges it) and keep its slow clock-to-output on every path
        if dp.rom_columns is None:
            rom = m.submodules.rom = Memory(shape=max(mc.width, 1), depth=len(words), init=words,
                                            attrs={"rom_style": "logic"} if dp.rom == "registered" else None)
        self.pc = pc = Signal(range(max(len(words), 2)))
        # a sync-read RAM bank (block RAM) is addressed a cycle early, by the next word's fields
        self.pc_next = None  # the word of the next cycle (set_pc), for the reads at the clock edge
        self.ahead = None  # pc_ahead: the register that addresses the ROM, the next cycle's pc
        if dp.rom in ("sync", "sync-registered"):  # read at the clock edge (block RAM): addressed by the next pc
            # (rom_columns: block RAM columns of that many bits, each one block RAM deep)
            rd = _read_port(rom, "word", "sync") if dp.rom_columns is None else \
                _ColumnRom(m, words, max(mc.width, 1), dp.rom_columns)
            self.pc_next = Signal.like(pc)
            m.d.comb += self.pc_next.eq(pc)
            if dp.pc_ahead:
                # the next cycle's pc in a register of its own, stepped a cycle ahead of the pc, so no
                # logic (the state, the loop's test, the increment) sits before the block RAM's address
                self.ahead = Signal.like(pc, name="pc_ahead")
                self.starting = Signal(name="starting")  # the cycle start() runs in: the ahead pc steps from 0
                m.d.comb += rd.addr.eq(self.ahead)
            else:
                m.d.comb += rd.addr.eq(self.pc_next)
        else:
            rd = _read_port(rom, "word", "comb")
            m.d.comb += rd.addr.eq(pc)
        if sync and self.pc_next is None:
            self.pc_next = Signal.like(pc)
            m.d.comb += self.pc_next.eq(pc)

        offsets = mc.offsets()
        self.offsets = offsets
        # a registered word: the ROM's output (the pc's word) into flip-flops, executed a cycle later,
        # so the fields leave flip-flops placed near their multiplexers
        # with two stages the next word is a register too (word_q1): the registers loaded from its
        # fields (ram_control local's, replicated near their cells) take no ROM output on their nets
        nxt = rd.data
        self.run = Signal()
        self.next_live = self.run  # high when the next word is one the run executes
        chain = []  # the word registers ahead of the word, with their live bits: the last is the next word
        self.rom_q: Any = None  # rom_stage's register (word_q0)
        for k in range(0 if dp.rom_stage else 1, dp.word_stages):
            # (word_q0, rom_stage's: the block RAM's output in a register of its own, with no reset, which
            # the ECP5 flow makes the block RAM's output register where nothing sits between them)
            q = Signal(len(rd.data), name=f"word_q{k}", **({} if k else {"reset_less": True,
                                                                          "attrs": {BRAM_OUTPUT: 1}}))
            live = Signal(name=f"live{k}")
            m.d.sync += [q.eq(nxt), live.eq(self.next_live)]
            nxt, self.next_live = q, live
            if k:
                chain.append((q, live))
            else:
                self.rom_q = q
        # with three stages, the word after the next (word_q1) and its live bit: ram_control local's
        # registers of each copy load it, and the registers of each slice load theirs (a tree); with
        # four, the word two after the next (word_q1 again), whose fields pass a register of each copy,
        # then one of each group of its slices (``dp.slice_group`` of them), then the slices'
        self.word_ahead, self.ahead_live = chain[0] if len(chain) >= 2 else (None, None)
        self.group = dp.slice_group
        word = rd.data
        self.word_next = nxt if dp.word_stages else None  # the word of the next cycle (ram_control local)
        if dp.word_stages:
            word = Signal(len(rd.data), name="word_q")
            m.d.sync += word.eq(nxt)
        self.fld = {}  # the word's fields, each a Signal named after it for the Verilog's reader
        for name, (o, n) in offsets.items():
            self.fld[name] = Signal(n, name="word_" + name.replace(".", "_"))
            m.d.comb += self.fld[name].eq(word[o:o + n])
        self.live = self.run
        # the wait count of the pc's word: what holds the pc (the ROM's output, ahead of a registered word)
        self.wait = self.fld.get(Key.WAIT)
        if dp.word_stages:
            self.live = Signal(name="live")
            m.d.sync += self.live.eq(self.next_live)
            if self.wait is not None:
                o, n = offsets[Key.WAIT]
                self.wait = Signal(n, name="word_wait_next")
                m.d.comb += self.wait.eq(rd.data[o:o + n])
        self.cnt = Signal(range((mc.loop.count if mc.loop else 0) + 2))  # the loop's trips left
        self.table = mc.table
        self.entry_next = None  # the entry of the next cycle, for a run table read at the clock edge
        if self.table:  # calls: the run table of (start, end, count), read at the next entry
            cnt_max = max(r.count for r in self.table)
            self.cnt = Signal(range(cnt_max + 2), name="run_left")
            self.entry = Signal(range(len(self.table) + 1), name="run_next")
            self.start_r, self.end_r = Signal.like(pc, name="run_start"), Signal.like(pc, name="run_end")
            pw, cw = len(pc), len(self.cnt)
            tbl = m.submodules.runs = Memory(shape=2 * pw + cw, depth=len(self.table),
                                             init=[r.start | r.end << pw | r.count << 2 * pw for r in self.table])
            if dp.rom == "sync-registered":
                # block RAM like the words, addressed by the next cycle's entry so that its output is
                # the current entry's: a LUT ROM of thousands of entries (ate-bn254-small's 2,429) is
                # thousands of LUTs of a 12-input function per bit
                trd = _read_port(tbl, "run", "sync")
                self.entry_next = Signal.like(self.entry)
                m.d.comb += [self.entry_next.eq(self.entry), trd.addr.eq(self.entry_next)]
            else:
                trd = _read_port(tbl, "run", "comb")
                m.d.comb += trd.addr.eq(self.entry)
            self.next_run = (trd.data[:pw], trd.data[pw:2 * pw], trd.data[2 * pw:])

        # the address fields of the next word for the sync banks' ports: a small LUT ROM of those
        # fields alone, read at pc_next
        early = list(dict.fromkeys(key for p, u in instances(dp) for port in range(u.ports)
                                   if (key := read_key(dp, u, p, port)) in offsets
                                   and sync & set(dp.read_banks(u, port))))
        self.fld_next = {}
        if early and dp.word_stages:  # the next word is the ROM's output, ahead of the word register
            self.fld_next = {key: nxt[offsets[key][0]:sum(offsets[key])] for key in early}
        elif early:
            cols, at = [], 0  # (field, its offset in the small ROM's word)
            for key in early:
                cols.append((mc.layout[key], at))
                at += mc.layout[key].width
            ewords = [sum(f.get(wd) << a for f, a in cols) for wd in words]
            erom = m.submodules.rom_next = Memory(shape=at, depth=len(words), init=ewords)
            erd = _read_port(erom, "word_next", "comb")
            m.d.comb += erd.addr.eq(self.pc_next)
            self.fld_next = {f.name: erd.data[a:a + f.width] for f, a in cols}
        self._step_ahead()

    def _field(self, word, key):
        """Field ``key`` of ``word``, or None when the words have no such field."""
        if key not in self.offsets:
            return None
        o, n = self.offsets[key]
        return word[o:o + n]

    def next_field(self, key):
        """Field ``key`` of the word the next cycle executes (a registered word's ROM output), or
        None when the words have no such field."""
        return self._field(self.word_next, key)

    def ahead_field(self, key):
        """Field ``key`` of the word the copies' registers load (:attr:`word_ahead`), or None when the
        words have no such field."""
        return self._field(self.word_ahead, key)

    def rom_field(self, key):
        """Field ``key`` of rom_stage's register (``word_q0``, a cycle before :meth:`ahead_field`'s
        word), or None when the words have no such field."""
        return self._field(self.rom_q, key)

    def set_pc(self, value):
        """The word of the next cycle."""
        self.m.d.sync += self.pc.eq(value)
        if self.pc_next is not None:
            self.m.d.comb += self.pc_next.eq(value)

    def set_entry(self, value):
        """The run-table entry of the next cycle."""
        self.m.d.sync += self.entry.eq(value)
        if self.entry_next is not None:
            self.m.d.comb += self.entry_next.eq(value)

    def _step_ahead(self):
        """The ahead pc (``pc_ahead``; built by the constructor): 0 outside a run, the loop's count
        beside it; in the START cycle (the run's first, after the last input) and in the run, the
        pc's next value a cycle early (the steps of :meth:`_advance`), whose word the block RAM reads
        at the edge that loads the pc."""
        if self.ahead is None:
            return
        m, loop, ahead = self.m, self.mc.loop, self.ahead
        cnt = Signal.like(self.cnt, name="run_left_ahead")
        with m.If(self.starting | self.run):
            if loop:
                with m.If((ahead == loop.end) & (cnt > 1)):
                    m.d.sync += [ahead.eq(loop.start), cnt.eq(cnt - 1)]
                with m.Else():
                    m.d.sync += ahead.eq(ahead + 1)
            else:
                m.d.sync += ahead.eq(ahead + 1)
        with m.Else():
            m.d.sync += [ahead.eq(0), cnt.eq(loop.count if loop else 0)]

    def start(self):
        """Begin a run (the cycle after the last input word): word 0, the loop's count."""
        loop = self.mc.loop
        if self.ahead is not None:
            self.m.d.comb += self.starting.eq(1)
        if self.table:
            first = self.table[0]
            self.set_pc(first.start)
            self.m.d.sync += [self.cnt.eq(first.count), self.start_r.eq(first.start), self.end_r.eq(first.end)]
            self.set_entry(1)
            return
        self.set_pc(0)
        self.m.d.sync += self.cnt.eq(loop.count if loop else 0)

    def step(self, to_unload):
        """The RUN state's body: hold an idle word for its ``wait``, then advance."""
        m = self.m
        if self.wait is not None:  # an idle word of wait + 1 cycles: hold the pc
            hold = Signal.like(self.wait, name="hold")
            with m.If(hold != self.wait):
                m.d.sync += hold.eq(hold + 1)
            with m.Else():
                m.d.sync += hold.eq(0)
                self._advance(to_unload)
        else:
            self._advance(to_unload)

    def _advance(self, to_unload):
        """The step after a word: the loop's jump back, the end of the run, or the next word."""
        m, pc, loop, cnt, last = self.m, self.pc, self.mc.loop, self.cnt, len(self.words) - 1
        if self.table:  # the entry's words again, the next entry's, or the end of the run
            start, end, count = self.next_run
            with m.If(pc == self.end_r):
                with m.If(cnt > 1):
                    self.set_pc(self.start_r)
                    m.d.sync += cnt.eq(cnt - 1)
                with m.Elif(self.entry == len(self.table)):
                    to_unload()
                with m.Else():
                    self.set_pc(start)
                    m.d.sync += [self.start_r.eq(start), self.end_r.eq(end), cnt.eq(count)]
                    self.set_entry(self.entry + 1)
            with m.Else():
                self.set_pc(pc + 1)
        elif loop:
            with m.If((pc == loop.end) & (cnt > 1)):
                self.set_pc(loop.start)
                m.d.sync += cnt.eq(cnt - 1)
            with m.Elif(pc == last):
                to_unload()
            with m.Else():
                self.set_pc(pc + 1)
        else:
            with m.If(pc == last):
                to_unload()
            with m.Else():
                self.set_pc(pc + 1)


class RegisterFile:
    """The register banks and their multiplexers: flip-flop registers with a write multiplexer each,
    RAM banks (LUT RAM with comb reads; block RAM, ``sync``, read a cycle early with a write
    bypass), the unit ports' read multiplexers and the banks' shared read ports.

    Built into the core's module ``m`` after the :class:`Sequencer` whose fields address it.  The
    writes are built last (:meth:`build_writes`), once every writer (the loader, the units) exists.
    """

    def __init__(self, m: Module, mc, dp, seq: Sequencer, sync: set):
        self.m, self.mc, self.dp, self.seq, self.sync = m, mc, dp, seq, sync
        self.mm = mm = dp.F.width
        # banks with limited write ports are RAMs (LUTRAM): one comb read port per reader, one
        # write port; the others are registers with a write multiplexer each
        self.rams = rams = {b.name: b for b in dp.banks if b.write_ports}
        for b in rams.values():
            if b.write_ports != 1:
                raise ValueError(f"bank {b.name}: the core builds RAM banks with one write port")
        self.regs = {b: [Signal(mm, name=f"{b}{k}") for k in range(n)] for b, n in mc.sizes.items() if b not in rams}
        # a sync bank is block RAM, however shallow, whose read-during-write at one address is
        # don't-care (no_rw_check): the bypass below gives the data then, so the tool need not emulate
        # a comb bank read straight into operand registers: Yosys would take them as the RAM's read
        # register and build some banks from flip-flops and multiplexers rather than LUT RAM
        # (f3-19-etat-schoolbook-ram: 8,167 LUT4 and 260 DPR16X4 without the attribute, 6,335 and
        # 340 with it); the attribute keeps every such bank LUT RAM
        staged = any("operands" in u.pipeline for u in dp.units)
        self.attrs = {b: {"ram_style": "block", "no_rw_check": 1} if b in sync
                      else {"ram_style": "distributed"} if staged else None for b in rams}
        # ram_control local: the comb-read banks without shared read ports are a Memory per reading
        # port (a copy), each written through registers of its own (build_writes, bank_read)
        self.local = set(dp.local_banks)
        # bank -> [(registers a copy holds or None, [(write port, its slice's first bit, the bit past it)])]
        self.copies: dict = {b: [] for b in self.local}
        self.ld_q = None  # the loaded element, held a cycle for the local banks' writes
        self.const_early: dict = {}  # a constant table -> its value a cycle early (write_stage)
        self.ld_q1: Any = None  # the loaded element a cycle before ld_q (a tree): write_stage's loader data
        self.mems = mems = {b: Memory(shape=mm, depth=mc.sizes[b], init=[], attrs=self.attrs[b])
                            for b in rams if b not in self.local}
        for b, mem in mems.items():
            m.submodules[f"bank_{b}"] = mem
        self.wps, self.wdata = {}, {}  # a sync bank's write port (before its read ports) and what it wrote at the last edge
        for b in sorted(sync):
            self.wps[b], self.wdata[b] = mems[b].write_port(), Signal(mm, name=f"{b}_wdata")
            m.d.sync += self.wdata[b].eq(self.wps[b].data)
        self.first = {}  # sync bank -> (its first read port, its data): the unloader's port too
        # "connect": "program" builds only the connections the words use (Microcode.connections):
        # a register's write multiplexer takes the units that write it, a read port's the registers
        # it reads; an address the words never give is don't-care (the port's value is unused there)
        self.used_w, self.used_r = mc.connections() if dp.connect == "program" else (None, None)
        # a bank's shared read ports (read_ports): one LUT RAM read each, addressed by its own field
        # of the word (or, port 0, by the unloader), its data wired to every input bound to it
        self.shared_rd, self.shared_addr = {}, {}

    def sync_read(self, b, name):
        """A read port of a sync bank whose data is what a comb read at the next cycle gives:
        the RAM's (a read before the write of the same edge, which any block RAM does) unless the
        edge wrote the address read; that write's data then comes from ``wdata`` (a bypass in
        logic, not left to the tool's transparency emulation)."""
        m, wps = self.m, self.wps
        rp = _read_port(self.mems[b], f"{name}_rd", "sync")
        hit = Signal(name=f"{name}_hit")
        m.d.sync += hit.eq(wps[b].en & (wps[b].addr == rp.addr))
        data = Signal(self.mm, name=f"{name}_data")
        m.d.comb += data.eq(Mux(hit, self.wdata[b], rp.data))
        return rp, data

    def bank_read(self, b, addr, name, only=None, key=None, index=0, zeroed=False):
        """Bank ``b`` read at ``addr`` into a Signal ``name`` (``only``: the registers the words read;
        ``key``: the word's address field, ``index``: ``b``'s place among the banks the port reads;
        ``zeroed``: a local copy reads 0 in the cycles the word does not read it, read_merge or)."""
        m = self.m
        s = Signal(self.mm, name=name)
        if b in self.local:
            if only is None or only:
                m.d.comb += s.eq(self.local_read(b, addr, name, only, key, index, zeroed))
        elif b in self.sync:  # addressed by the next word: the state a comb read sees a cycle later
            rp, data = self.sync_read(b, name)
            m.d.comb += s.eq(data)
            if b in self.first:
                m.d.comb += rp.addr.eq(self.seq.fld_next[key])
            else:  # the unloader shares it: its address is set there
                self.first[b] = (rp, data, self.seq.fld_next[key])
        elif b in self.mems:
            rp = _read_port(self.mems[b], f"{name}_rd", "comb")
            m.d.comb += [rp.addr.eq(addr), s.eq(rp.data)]
        elif only is None:
            m.d.comb += s.eq(Array(self.regs[b])[addr])
        elif only:
            m.d.comb += s.eq(_read_tree(m, self.regs[b], only, addr, name))
        return s  # (a port that never reads the bank reads 0)

    def local_read(self, b, addr, name, only, key, index, zeroed=False):
        """A copy of bank ``b`` of its own (ram_control local) holding the registers ``only`` (None:
        all) at their places in ``only`` (a port that reads 14 of a bank's 18 registers reads a copy
        of 16 words: one LUT RAM deep, not two and a multiplexer), read at a register loaded from the
        next word's field ``key`` (in the cycles the next word has the port read ``b``, its
        ``index``-th bank), or at ``addr`` without a ``key`` (the unloader).  With ``slice_bits`` the
        copy is slices of that many bits, each a Memory read at a replica of that register.  A
        ``zeroed`` copy has a word more, never written (a LUT RAM's initial 0), which its register loads
        whenever the next word does not read the copy: the port then ORs its copies (read_merge or)."""
        m, seq, mm = self.m, self.seq, self.mm
        regs = None if only is None else sorted(only)
        depth = self.mc.sizes[b] if regs is None else len(regs)
        nxt = None if key is None else seq.next_field(key)
        sel = None if key is None else seq.next_field(Key.bank(key))
        tree = key is not None and seq.word_ahead is not None
        decoded = tree and self.dp.decode_reads
        if decoded and self.dp.ahead_copies:
            # (ahead_copies) decoded from the copy's own registers of the fields, loaded from rom_stage's
            # register: the copy's decoder reads flip-flops no other copy's reads, so the synthesis
            # shares no decoder between copies across the die
            nxt = self.replica(seq.rom_field(key), f"{name}_ahead")
            if sel is not None:
                sel = self.replica(seq.rom_field(Key.bank(key)), f"{name}_sel_ahead")
        elif decoded:  # the copy's registers hold the next read's place, decoded a cycle ahead: below
            nxt, sel = seq.ahead_field(key), seq.ahead_field(Key.bank(key))
        elif tree:
            # the next word's fields in registers of this copy, loaded from the word after it: the
            # word register's net reaches one register a copy, and that register the copy's slices
            nxt = self.replica(seq.ahead_field(key), f"{name}_next")
            if sel is not None:
                sel = self.replica(seq.ahead_field(Key.bank(key)), f"{name}_sel_next")
        # the word of zeros, past the registers: only where the word picks among the port's banks
        zero = depth if zeroed and sel is not None else None
        if zero is not None:
            depth += 1
        cuts = _slices(mm, self.dp.slice_bits)
        datas, ports = [], []
        self.copies[b].append((regs, ports))
        load = place = None  # a copy's read address loads ``place`` (when ``load``, if not None) a cycle early
        if nxt is not None:
            # a register per copy, not the word register's field: the field's net would reach every
            # copy the port reads; the load enable keeps the registers of one port's copies distinct
            # (Yosys would merge flip-flops of the same input into one)
            if zero is not None:  # every cycle: the place, or the zeros
                place = Mux(sel == index, _place(nxt, regs), zero)
            else:
                load, place = 1 if sel is None else sel == index, _place(nxt, regs)
            if decoded:  # decoded from the word after the next into the copy's registers
                place = self.replica(place, f"{name}_ra_next")
                if load is not None and sel is not None:  # (a port of one bank loads every cycle)
                    load = self.replica(load, f"{name}_ra_load")
            elif len(cuts) > 1:
                # One lookup (the register's place in the copy) for all the slices: a lookup of each
                # slice's own becomes a ROM in Yosys (proc_rom), memory_dff folds the slice's register
                # into it whatever its keep, and opt_merge then merges the identical ROMs and their
                # registers into one whose net spans the copy; a lookup read by several registers keeps
                # them apart.
                shared = Signal(range(max(depth, 2)), name=f"{name}_ra_next")
                m.d.comb += shared.eq(place)
                place = shared
                if load is not None:
                    shared = Signal(name=f"{name}_ra_load")
                    m.d.comb += shared.eq(load)
                    load = shared
        groups: dict = {}  # word_stages 4: a group's registers of what its slices load
        for j, (lo, hi) in enumerate(cuts):
            suffix = "" if len(cuts) == 1 else f"_s{j}"
            mem = m.submodules[f"bank_{name}{suffix}"] = Memory(shape=hi - lo, depth=depth, init=[],
                                                                attrs=self.attrs[b])
            ports.append((mem.write_port(), lo, hi))
            rp = _read_port(mem, f"{name}{suffix}_rd", "comb")
            ra = rp.addr
            if len(cuts) > 1 and nxt is not None:  # a replica per slice, kept apart by the synthesis
                ra = Signal(len(rp.addr), name=f"{name}{suffix}_ra", attrs={REPLICA: 1})
                m.d.comb += rp.addr.eq(ra)
            if nxt is None:
                m.d.comb += ra.eq(_place(addr, regs))
                datas.append(rp.data)
                continue
            gload, gplace = self.grouped(groups, j, (load, place), (f"{name}_g{{}}_ra_load", f"{name}_g{{}}_ra"))
            if gload is None:
                m.d.sync += ra.eq(gplace)
            else:
                with m.If(gload):
                    m.d.sync += ra.eq(gplace)
            datas.append(rp.data)
        if len(datas) == 1:
            return datas[0]
        s = Signal(mm, name=f"{name}_data")
        m.d.comb += s.eq(Cat(*datas))
        return s

    def grouped(self, groups: dict, j: int, values: tuple, names: tuple) -> tuple:
        """What slice ``j`` of a copy loads: ``values`` (None or constants pass through), or with the
        tree's group level (``word_stages`` 4) their registers of slice ``j``'s group (``groups``
        holds each group's, created by its first slice and named ``names`` formatted with the group),
        loaded a cycle before the slices as the copy's registers are a cycle earlier."""
        g = self.seq.group
        if g is None:
            return values
        if j // g not in groups:
            groups[j // g] = tuple(v if v is None or isinstance(v, int) else self.replica(v, n.format(j // g))
                                   for v, n in zip(values, names))
        return groups[j // g]

    def replica(self, value, name):
        """``value`` a cycle later, in a register of its own that the synthesis keeps apart."""
        r = Signal(len(value), name=name, attrs={REPLICA: 1})
        self.m.d.sync += r.eq(value)
        return r

    def shared_read(self, b, k):
        """The data of bank ``b``'s shared read port ``k``."""
        key = Key.shared_read(b, k)
        if key not in self.shared_rd:
            fld = self.seq.fld
            self.shared_addr[key] = Signal(len(fld[key]), name=f"{b}_rd{k}_addr")
            self.m.d.comb += self.shared_addr[key].eq(fld[key])
            self.shared_rd[key] = self.bank_read(b, self.shared_addr[key], f"{b}_rd{k}", key=key)
        return self.shared_rd[key]

    def staged(self, value, name):
        """``value`` through a register of its own (operand_stage sources: a source's operand register)."""
        r = Signal(len(value), name=name + "_q")
        self.m.d.sync += r.eq(value)
        return r

    def read(self, u, p, port, stage=False):
        """What input ``port`` of instance ``p`` of unit ``u`` reads, as the word addresses it; with
        ``stage`` a cycle later, each bank's read and the bank field registered before the choice
        (operand_stage sources)."""
        dp, fld = self.dp, self.seq.fld
        banks = dp.read_banks(u, port)
        pn = PORT_NAMES[port]
        q = self.staged if stage else (lambda v, name: v)
        if rp := dp.read_port(u, port):
            return q(self.shared_read(*rp), f"{p}_{pn}")
        key = read_key(dp, u, p, port)
        # read_merge or: a port of local copies only ORs them (each reads 0 unless the word reads it)
        merged = dp.zeroed_copies(u, port)
        outs = [q(self.bank_read(b, fld[key], f"{p}_{pn}_{b}",
                                 None if self.used_r is None else sorted(k for c, k in self.used_r[key] if c == b),
                                 key, i, merged), f"{p}_{pn}_{b}")
                for i, b in enumerate(banks)]
        if len(outs) == 1:
            return outs[0]
        s = Signal(self.mm, name=f"{p}_{pn}")
        if merged:
            self.m.d.comb += s.eq(reduce(operator.or_, outs))
        elif dp.slice_selects:  # each slice's multiplexer on a bank field of its own
            self.m.d.comb += s.eq(Cat(*(Array(o[lo:hi] for o in outs)[sel] for (lo, hi), sel in
                                        self.slice_fields(Key.bank(key), f"{p}_{pn}_bank"))))
        else:
            self.m.d.comb += s.eq(Array(outs)[q(fld[Key.bank(key)], f"{p}_{pn}_bank")])
        return s

    def slice_fields(self, key, name):
        """(bits, field) for each slice of an operand (``slice_selects``): field ``key`` of the word in a
        register of the slice's own, loaded from the next word (the word register's field a cycle
        later, as the word register itself is), so no net carries the field along the whole operand."""
        return [((lo, hi), self.replica(self.seq.next_field(key), f"{name}_s{j}"))
                for j, (lo, hi) in enumerate(_slices(self.mm, self.dp.slice_bits))]

    def build_writes(self, loads, load_data, writers):
        """The banks' write ports and the registers' write multiplexers: the loader first (``loads``:
        (condition, (bank, index)) per input element, whose value is ``load_data``), then the units
        (``writers``: (instance, we, bank select or None, addr, data, banks))."""
        m, mm = self.m, self.mm
        used_w = self.used_w
        bank_writers = None if used_w is None else {(c, p) for (c, _), ps in used_w.items() for p in ps}

        def ram_writers(b):  # the writers of RAM bank b the words use (every one that may, without connect)
            return [w for w in writers if b in w[5] and (bank_writers is None or (b, w[0]) in bank_writers)]

        for b in sorted(self.local):
            self.local_writes(b, loads, load_data, ram_writers(b))
        for b, mem in self.mems.items():
            wp = self.wps[b] if b in self.wps else mem.write_port()
            # the loader, then the units: the scheduler allows one unit write per cycle
            conds = [(c, k, load_data[:mm]) for c, (ib, k) in loads if ib == b]
            conds += [(we if bsel is None else we & (bsel == banks.index(b)), addr, data)
                      for p, we, bsel, addr, data, banks in ram_writers(b)]
            for n, (c, addr, data) in enumerate(conds):
                with (m.If if n == 0 else m.Elif)(c):
                    m.d.comb += [wp.en.eq(1), wp.addr.eq(addr), wp.data.eq(data)]

        for b, rs in self.regs.items():
            for k, r in enumerate(rs):
                conds = [(c, load_data[:mm]) for c, reg in loads if reg == (b, k)]
                for p, we, bsel, addr, data, banks in writers:
                    if b in banks and (used_w is None or p in used_w.get((b, k), ())):
                        c = we & (addr == k)
                        conds.append((c if bsel is None else c & (bsel == banks.index(b)), data))
                for n, (c, v) in enumerate(conds):
                    with (m.If if n == 0 else m.Elif)(c):
                        m.d.sync += r.eq(v)

    def local_writes(self, b, loads, load_data, writers):
        """The writes of bank ``b``'s copies (ram_control local): the write of the next cycle chosen
        now from the next word's fields (a unit's result then arrives on its output), or the loader's
        write of this cycle, which lands in the next with its data held; each copy registers the enable
        of the writes to the registers it holds, and the address under that enable."""
        m, seq, mm = self.m, self.seq, self.mm
        # with word_stages 3 the writes are chosen from the word after the next, a cycle earlier, and
        # pass a register of each copy (a tree, as the reads): the loader's writes land a cycle later
        # (with word_stages 4 from the word two after the next, through a register of each group of slices too)
        tree = seq.word_ahead is not None
        live, field = (seq.ahead_live, seq.ahead_field) if tree else (seq.next_live, seq.next_field)
        srcs: list[tuple[Any, Any, Any]] = []  # (enable, address, data in the write's cycle)
        if any(ib == b for _, (ib, _) in loads):
            if self.ld_q is None:  # one register of the loaded element for every local bank (two: a tree)
                self.ld_q = Signal(mm, name="load_data_q")
                m.d.sync += self.ld_q.eq(load_data[:mm])
                # (four: the group level and the loader's registered choice below too)
                for k in range(2, 2 + tree + 2 * (seq.group is not None)):
                    self.ld_q1 = ld_q = self.ld_q
                    self.ld_q = Signal(mm, name=f"load_data_q{k}")
                    m.d.sync += self.ld_q.eq(ld_q)
            # with the group level the loader's choice (a decode of its state) is registered first, so
            # the copies' registers of the next write take flip-flops through the choice among writers
            mine = [(c, k) for c, (ib, k) in loads if ib == b]
            srcs += [(c if seq.group is None else self.replica(c, f"{b}_load{n}"), k, self.ld_q)
                     for n, (c, k) in enumerate(mine)]
        src_of = [None] * len(srcs)  # each source's writer (None: the loader)
        for p, _, bsel, _, data, banks in writers:  # bank b's, from the next word (or the one after)
            en = live & field(Key.we(p))
            if bsel is not None:
                en &= field(Key.w_bank(p)) == banks.index(b)
            srcs.append((en, field(Key.w(p)), data))
            src_of.append(p)
        if not srcs:
            return
        depth = self.mc.sizes[b]
        wen, waddr = Signal(name=f"{b}_wen_next"), Signal(range(max(depth, 2)), name=f"{b}_waddr_next")
        wsel, wdata = Signal(range(len(srcs)), name=f"{b}_wsel"), Signal(mm, name=f"{b}_wdata")
        wsel_next = Signal.like(wsel, name=f"{b}_wsel_next") if tree else wsel
        # the choice's register: with the group level a cycle before wsel_next (or the groups' registers)
        wsel_ahead = wsel_next if seq.group is None else Signal.like(wsel, name=f"{b}_wsel_next2")
        # slice_writes: each slice of the write multiplexer chooses on a register of its own of the
        # write's choice (replicas the synthesis keeps), so no select net spans the bank's width
        cuts = _slices(mm, self.dp.slice_bits)
        sels = [Signal.like(wsel, name=f"{b}_wsel_s{j}", attrs={REPLICA: 1}) for j in range(len(cuts))] \
            if self.dp.slice_writes and len(srcs) > 1 and len(cuts) > 1 else []
        for n, (c, a, _) in enumerate(srcs):
            with (m.If if n == 0 else m.Elif)(c):
                m.d.comb += [wen.eq(1), waddr.eq(a)]
                m.d.sync += wsel_ahead.eq(n)
                if not tree:
                    m.d.sync += [r.eq(n) for r in sels]
        bank_stage = self.dp.write_stage == "bank"
        if bank_stage and sels:  # the slices' choice a cycle before the write, for the bank's register of it
            m.d.sync += [r.eq(wsel_ahead) for r in sels]
        elif bank_stage:  # (one slice, or one writer: the bank's choice)
            m.d.sync += wsel_next.eq(wsel_ahead)
        elif tree and sels and seq.group is not None:  # (the group level: a register a group of slices)
            wsel_groups: dict = {}
            m.d.sync += [r.eq(self.grouped(wsel_groups, j, (wsel_ahead,), (f"{b}_wsel_g{{}}",))[0])
                         for j, r in enumerate(sels)]
        elif tree:  # (with slice_writes the slices' registers take the bank's)
            if wsel_ahead is not wsel_next:
                m.d.sync += wsel_next.eq(wsel_ahead)
            m.d.sync += [r.eq(wsel_next) for r in sels] if sels else wsel.eq(wsel_next)
        # write_stage: the writers' outputs a cycle before the write (their latency counts that
        # cycle), chosen on the write's choice a cycle early, into a register in each copy's slices
        early = None
        if tree and self.dp.write_stage:
            firsts = [self.ld_q1 if p is None else self.const_early.get(p, d) for p, (*_, d) in zip(src_of, srcs)]
            if bank_stage:  # "bank": one register of each slice of the bank's width, which its copies share
                for j, (lo, hi) in enumerate(cuts):
                    wd = Signal(hi - lo, name=f"{b}_wd_s{j}")
                    pick = [f[lo:hi] for f in firsts]
                    m.d.sync += wd.eq(Array(pick)[sels[j] if sels else wsel_next] if len(pick) > 1 else pick[0])
                    m.d.comb += wdata[lo:hi].eq(wd)
            else:
                early = Signal(mm, name=f"{b}_wdata_early")
                m.d.comb += early.eq(Array(firsts)[wsel_next] if len(firsts) > 1 else firsts[0])
        elif sels:
            m.d.comb += wdata.eq(Cat(*(Array([d[lo:hi] for *_, d in srcs])[r] for (lo, hi), r in zip(cuts, sels))))
        else:
            m.d.comb += wdata.eq(Array([d for *_, d in srcs])[wsel] if len(srcs) > 1 else srcs[0][2])
        j = 0  # the slices of all the copies, numbered for their registers' names
        for c, (regs, ports) in enumerate(self.copies[b]):
            if tree and self.dp.decode_writes and regs is not None:
                # the copy's registers of the next write hold it decoded: whether it is to this copy
                # and where (the decoder before them, a cycle ahead, not between them and the slices)
                en = self.replica(_holds(wen, waddr, regs), f"{b}_c{c}_we_next")
                place = self.replica(_place(waddr, regs), f"{b}_c{c}_wa_next")
            else:
                cen, caddr = wen, waddr
                if tree:  # the copy's own registers of the next write, from the choice a cycle ahead
                    cen, caddr = self.replica(wen, f"{b}_c{c}_wen"), self.replica(waddr, f"{b}_c{c}_waddr")
                en, place = _holds(cen, caddr, regs), _place(caddr, regs)
                if len(ports) > 1:  # the copy's enable and place computed once for its slices' replicas
                    # (a lookup of each slice's own would be a ROM with the register folded in: bank_read)
                    cen_s = Signal(name=f"{b}_c{c}_we_next")
                    place_s = Signal(len(ports[0][0].addr), name=f"{b}_c{c}_wa_next")
                    m.d.comb += [cen_s.eq(en), place_s.eq(place)]
                    en, place = cen_s, place_s
            groups: dict = {}
            for i, (wp, lo, hi) in enumerate(ports):
                we, wa = wp.en, wp.addr
                if len(ports) > 1:  # a slice: its own enable and address, replicas the synthesis keeps
                    we = Signal(name=f"{b}_we{j}", attrs={REPLICA: 1})
                    wa = Signal(len(wp.addr), name=f"{b}_wa{j}", attrs={REPLICA: 1})
                    m.d.comb += [wp.en.eq(we), wp.addr.eq(wa)]
                gen, gplace = self.grouped(groups, i, (en, place), (f"{b}_c{c}_g{{}}_we", f"{b}_c{c}_g{{}}_wa"))
                m.d.sync += we.eq(gen)
                with m.If(gen):
                    m.d.sync += wa.eq(gplace)
                if early is not None:  # the slice's register of the write, loaded a cycle before it
                    wd = Signal(hi - lo, name=f"{b}_wd{j}", attrs={REPLICA: 1})
                    m.d.sync += wd.eq(early[lo:hi])
                    m.d.comb += wp.data.eq(wd)
                else:
                    m.d.comb += wp.data.eq(wdata[lo:hi])
                j += 1


class StreamIO:
    """The loader and the unloader: input elements assembled from ``beats`` stream words (least
    significant first) and written to their registers, outputs read from theirs word by word; the
    LOAD and UNLOAD states of the core's FSM."""

    def __init__(self, m: Module, core: StreamCore, mc, dp, rf: RegisterFile):
        self.m, self.core, self.mc, self.rf = m, core, mc, rf
        self.w, self.beats = w, beats = dp.io_width, dp.io_beats
        sync = rf.sync
        self.acc = acc = Signal(beats * w)
        self.nxt = nxt = Signal(beats * w)
        m.d.comb += nxt.eq(Cat(acc[w:], core.i.payload) if beats > 1 else core.i.payload)
        if dp.load_on_valid:
            # each valid word shifts in, in any state: outside LOAD it is not taken (ready is low) and
            # shifts out before it is read, as an element is written only once its beats are all in
            with m.If(core.i.valid):
                m.d.sync += acc.eq(nxt)
        self.elem = elem = Signal(range(max(len(mc.inputs), len(mc.outputs)) + 1))
        self.beat = Signal(range(beats + 1))
        self.load_we = Signal()
        self.osel = Signal(beats * w)  # outputs: selected register, word by word
        self.elem_next = self.unl_next = None  # the output of the next cycle and whether it unloads (sync banks)
        self.check = getattr(core.compiled, "check", None)  # a check core: one output per pairing, the comparison
        self.n_out = core.compiled.stream.n_out
        if sync:
            self.elem_next, self.unl_next = Signal.like(elem), Signal()
            m.d.comb += self.elem_next.eq(elem)

    def loads(self) -> list:
        """(write condition, register) of each input element."""
        return [(self.load_we & (self.elem == e), reg) for e, reg in enumerate(self.mc.inputs)]

    def set_elem(self, value):
        self.m.d.sync += self.elem.eq(value)
        if self.rf.sync:
            self.m.d.comb += self.elem_next.eq(value)

    def to_unload(self):
        """Leave the run for UNLOAD."""
        self.m.next = "UNLOAD"
        if self.rf.sync:
            self.m.d.comb += self.unl_next.eq(1)

    def build_unload(self):
        """The output multiplexer, and the RAM banks' reads of the outputs: the UNLOAD state, when a
        bank's shared read port 0 reads the outputs (only built then: the Verilog of a core without
        shared ports is as before)."""
        m, mc, rf, elem = self.m, self.mc, self.rf, self.elem
        unload = {}  # RAM bank -> data of its unload read port (addressed by the output index)
        self.unloading = Signal() if any(b.read_ports for b in rf.rams.values()) else None
        for b in rf.rams:
            idx = [k if ob == b else 0 for ob, k in mc.outputs]
            if rf.rams[b].read_ports and b not in rf.sync:  # no unit issues while unloading: port 0 reads the outputs then
                unload[b] = rf.shared_read(b, 0)
                with m.If(self.unloading):
                    m.d.comb += rf.shared_addr[Key.shared_read(b, 0)].eq(Array(idx)[elem] if len(idx) > 1 else idx[0])
            elif b in rf.sync:  # the first read port, addressed by the next output while unloading
                if rf.rams[b].read_ports:  # a shared port, not a block RAM copy of its own
                    rf.shared_read(b, 0)
                if b not in rf.first:
                    rf.first[b] = (*rf.sync_read(b, f"unload_{b}"), 0)
                rp, data, a = rf.first[b]
                m.d.comb += rp.addr.eq(Mux(self.unl_next, Array(idx)[self.elem_next] if len(idx) > 1 else idx[0], a))
                unload[b] = data
            else:
                unload[b] = rf.bank_read(b, Array(idx)[elem] if len(idx) > 1 else idx[0], f"unload_{b}",
                                         sorted({k for ob, k in mc.outputs if ob == b}))
        if self.check is not None:
            # a check core: the outputs (flip-flop registers, the schema's rule) against the value 1's
            # words, one comparator each; one element out per pairing (a batch has several), the word
            # of 1 or of 0 (one pairing's signals keep the names they had before batches)
            fi = self.core.compiled.dp.F
            size, words = len(self.check), []
            for g in range(self.n_out):
                eq = []
                for n, ((b, k), v) in enumerate(zip(mc.outputs[g * size:(g + 1) * size], self.check)):
                    e = Signal(name=f"check_eq{n}" if self.n_out == 1 else f"check_eq{n}_b{g}")
                    m.d.comb += e.eq(rf.regs[b][k] == fi.encode(v))
                    eq.append(e)
                ok = Signal(name="check_ok" if self.n_out == 1 else f"check_ok_b{g}")
                m.d.comb += ok.eq(Cat(*eq).all())
                words.append(Mux(ok, fi.encode(1), 0))
            m.d.comb += self.osel.eq(words[0] if self.n_out == 1 else Array(words)[elem])
        else:
            m.d.comb += self.osel.eq(Array([unload[b] if b in rf.rams else rf.regs[b][k]
                                            for b, k in mc.outputs])[elem])
        m.d.comb += self.core.o.payload.eq(self.osel.word_select(self.beat, self.w))

    def load_state(self, seq: Sequencer):
        """LOAD's body: take a word; after an element's last, write it; after the last element, run."""
        m, core, beat, beats = self.m, self.core, self.beat, self.beats
        m.d.comb += core.i.ready.eq(1)
        with m.If(core.i.valid):
            if not self.rf.dp.load_on_valid:  # (load_on_valid: in the constructor, outside the FSM)
                m.d.sync += self.acc.eq(self.nxt)
            with m.If(beat == beats - 1):
                m.d.comb += self.load_we.eq(1)
                m.d.sync += beat.eq(0)
                with m.If(self.elem == len(self.mc.inputs) - 1):
                    self.set_elem(0)
                    if seq.ahead is None:
                        seq.start()
                        m.next = "RUN"
                    else:  # pc_ahead: the run starts in a state of its own, not on the input's valid
                        m.next = "START"
                with m.Else():
                    self.set_elem(self.elem + 1)
            with m.Else():
                m.d.sync += beat.eq(beat + 1)

    def unload_state(self):
        """UNLOAD's body: a word each ``o.ready``; after the last output, back to LOAD."""
        m, core, beat, beats, sync = self.m, self.core, self.beat, self.beats, self.rf.sync
        m.d.comb += [core.o.valid.eq(1), core.busy.eq(1)]
        if self.unloading is not None:
            m.d.comb += self.unloading.eq(1)
        if sync:
            m.d.comb += self.unl_next.eq(1)
        with m.If(core.o.ready):
            with m.If(beat == beats - 1):
                m.d.sync += beat.eq(0)
                with m.If(self.elem == self.n_out - 1):
                    self.set_elem(0)
                    if sync:
                        m.d.comb += self.unl_next.eq(0)
                    m.next = "LOAD"
                with m.Else():
                    self.set_elem(self.elem + 1)
            with m.Else():
                m.d.sync += beat.eq(beat + 1)


class PairingCore(StreamCore):
    """A microcoded pairing processor (see the module docstring for the protocol): a
    :class:`Sequencer`, a :class:`RegisterFile`, the units, and a :class:`StreamIO`.

    Parameters
    ----------
    compiled : pairhw.program.engine.Compiled
        The scheduled, allocated and assembled program with its datapath.
    name : str
        Verilog module name.
    """

    def __init__(self, compiled, name: str = "PairingCore"):
        super().__init__(compiled, name)
        self.mc = compiled.microcode  # this back end's own parts, for its elaboration
        self.dp = compiled.dp

    def _unit(self, u):
        fi = self.dp.F
        if u.kind == "mul":
            opts = dict(u.options)
            if u.lanes > 1:  # one unit for all lanes: a and c hold one operand per lane, b is shared
                opts["lanes"] = u.lanes
            return fi.make_mul(opts.pop("kind"), **opts)
        if u.kind == "const":
            return None
        return fi.build_unit(u)

    def _units(self, m, seq: Sequencer, rf: RegisterFile) -> list:
        """Instantiate the units, their inputs read from ``rf``; returns the writers
        (instance, we, bank select or None, addr, data, banks) for :meth:`RegisterFile.build_writes`."""
        mc, dp, mm, fld, run = self.mc, self.dp, rf.mm, seq.fld, seq.live
        writers = []

        def stage(u, kind, value, name):
            """``value`` through unit ``u``'s ``kind`` pipeline register (``name``_q), if it has one."""
            return rf.staged(value, name) if kind in u.pipeline else value

        # a forwarding datapath: what each unit instance writes this cycle, for the operand registers
        fsrc = forward_sources(dp)
        wr = {p: Signal(mm, name=f"{p}_wr") for p in fsrc}

        wr_q = {}  # operand_stage sources: a forwarded result's register, one for every input it reaches

        def forwarded(s):
            if s not in wr_q:
                wr_q[s] = rf.staged(wr[s], f"{s}_wr")
            return wr_q[s]

        def sourced(u):  # operand_stage sources: the unit's operand registers sit at its inputs' sources
            return dp.operand_stage == "sources" and "operands" in u.pipeline

        def read(u, p, port):
            """Input ``port`` of ``p`` as the word selects it: its register, or (``p.a_fwd``) a unit's
            output forwarded; a tree over the sources the words use (all, with ``connect: any``).  With
            the operand registers at the sources, each source and the choosing field registered."""
            at_sources = sourced(u)
            value = rf.read(u, p, port, at_sources)
            if not u.fwd_in:
                return value
            key = Key.fwd(p, port)
            used = range(1, len(fsrc) + 1) if rf.used_r is None else \
                sorted(fsrc.index(s) + 1 for s in rf.used_r[key])
            if not used:
                return value
            name = f"{p}_{PORT_NAMES[port]}_fwd"
            if not at_sources:
                srcs = [value] + [wr[s] for s in fsrc]
                if not dp.slice_selects:
                    return _read_tree(m, srcs, [0, *used], fld[key], name)
                out = Signal(mm, name=name)  # a tree a slice, on a select register of its own
                m.d.comb += out.eq(Cat(*(_read_tree(m, [v[lo:hi] for v in srcs], [0, *used], sel, f"{name}_s{j}")
                                         for j, ((lo, hi), sel) in enumerate(rf.slice_fields(key, f"{name}_sel")))))
                return out
            srcs = [value] + [forwarded(s) if k + 1 in used else value for k, s in enumerate(fsrc)]
            return _read_tree(m, srcs, [0, *used], rf.staged(fld[key], name + "_sel"), name)

        def operand(u, value, name):  # read at the issue cycle, presented to the unit a cycle later
            return stage(u, "operands", value, name)

        def data(u, value, name):  # a read operand: registered at its sources already, or here
            return value if sourced(u) else operand(u, value, name)

        def result(u, value, name):  # the unit's output, written a cycle later
            return stage(u, "results", value, name)

        def held(out, p):
            """What ``p`` forwards in the cycle its result is written: its output, or with write_stage
            (the output a cycle before the write) the output held a cycle in a register beside the
            unit, so a forwarded operand is taken in the cycle the latency counts, as without it."""
            if not dp.write_stage:
                return out
            h = Signal(mm, name=f"{p}_held")
            m.d.sync += h.eq(out)
            return h

        for u in dp.units:  # units with lanes: one instance takes every lane's a, lane 0's b and go
            if u.lanes == 1:
                continue
            names = u.instance_names()
            for g in range(u.count):
                lanes = names[g * u.lanes:(g + 1) * u.lanes]
                unit = m.submodules[lanes[0]] = self._unit(u)
                m.d.comb += [unit.a.eq(data(u, Cat(*(read(u, q, 0) for q in lanes)), f"{lanes[0]}_a")),
                             unit.b.eq(data(u, read(u, lanes[0], 1), f"{lanes[0]}_b")),
                             unit.start.eq(operand(u, run & fld[Key.go(lanes[0])], f"{lanes[0]}_go"))]
                for j, q in enumerate(lanes):
                    out = Signal(mm, name=f"{q}_out")
                    m.d.comb += out.eq(unit.c[j * mm:(j + 1) * mm])
                    out = result(u, out, f"{q}_out")
                    if q in wr:
                        m.d.comb += wr[q].eq(held(out, q))
                    if q + EARLY in wr:  # the output itself, a cycle before the write
                        m.d.comb += wr[q + EARLY].eq(out)
                    banks = dp.write_banks(u, names.index(q))
                    writers.append((q, run & fld[Key.we(q)], fld.get(Key.w_bank(q)), fld[Key.w(q)], out, banks))

        def control(u, unit, port, value, name):
            """What drives the unit's control input ``port`` (start, sel, op): ``value`` through the
            operand stage; with ``slice_controls``, through a register for each of the unit's copies
            of the input (replicas the synthesis keeps, each the operand stage's register again)."""
            n = getattr(unit, "control_copies", 1)
            if n == 1:
                return operand(u, value, name)
            one = Signal(len(port) // n, name=f"{name}_one")
            m.d.comb += one.eq(value)
            return Cat(*(rf.replica(one, f"{name}_q{j}") for j in range(n)))

        # slice_controls: a unit with an operand stage takes its controls in copies, one a slice
        copies = len(_slices(mm, dp.slice_bits)) if dp.slice_controls else 1
        for p, u in instances(dp):
            if u.lanes > 1:
                continue
            unit = self._unit(u)
            if unit is not None and copies > 1 and "operands" in u.pipeline and hasattr(unit, "copied"):
                unit = unit.copied(copies)
            out = Signal(mm, name=f"{p}_out")
            if unit is not None:
                m.submodules[p] = unit
                for port in range(u.ports):
                    pn = PORT_NAMES[port]
                    m.d.comb += getattr(unit, pn).eq(data(u, read(u, p, port), f"{p}_{pn}"))
                if u.started:
                    m.d.comb += unit.start.eq(control(u, unit, unit.start, run & fld[Key.go(p)], f"{p}_go"))
                if len(u.ks) > 1:
                    m.d.comb += unit.sel.eq(control(u, unit, unit.sel, fld[Key.power(p)], f"{p}_k"))
                if len(u.ops) > 1:
                    m.d.comb += unit.op.eq(control(u, unit, unit.op, fld[Key.op(p)], f"{p}_op"))
                m.d.comb += out.eq(unit.c)
                out = result(u, out, f"{p}_out")
                if p in wr:
                    m.d.comb += wr[p].eq(held(out, p))
                if p + EARLY in wr:  # the output itself, a cycle before the write
                    m.d.comb += wr[p + EARLY].eq(out)
            else:  # constant table
                table = [Const(dp.F.encode(c), mm) for c in mc.consts[p]]
                if dp.const_ahead and len(table) > 1:
                    # the table's value in a register loaded from the next word's select: in the word's
                    # cycle, as from the word's own field, with no lookup between it and the banks' writes
                    m.d.sync += out.eq(Array(table)[seq.next_field(Key.sel(p))])
                else:
                    m.d.comb += out.eq(Array(table)[fld[Key.sel(p)]] if len(table) > 1 else table[0])
                if dp.write_stage:  # its value a cycle before its write, from the next word's select
                    early = Signal(mm, name=f"{p}_out_early")
                    m.d.comb += early.eq(Array(table)[seq.next_field(Key.sel(p))] if len(table) > 1 else table[0])
                    rf.const_early[p] = early
            banks = dp.write_banks(u, u.instance_names().index(p))
            writers.append((p, run & fld[Key.we(p)], fld.get(Key.w_bank(p)), fld[Key.w(p)], out, banks))
        return writers

    @staticmethod
    def _to_drain(m):
        """Leave the run for DRAIN (a registered word: its last word executes a cycle after each word
        stage: DRAIN, DRAIN1, ...)."""
        def go():
            m.next = "DRAIN"
        return go

    def elaborate(self, platform):
        m = Module()
        mc, dp = self.mc, self.dp
        # the sync-read RAM banks (block RAM), addressed a cycle early by the next word's fields
        sync = {b.name for b in dp.banks if b.write_ports and b.read == "sync"}
        seq = Sequencer(m, mc, dp, sync)
        rf = RegisterFile(m, mc, dp, seq, sync)
        writers = self._units(m, seq, rf)
        io = StreamIO(m, self, mc, dp, rf)
        io.build_unload()
        rf.build_writes(io.loads(), io.nxt, writers)
        with m.FSM(name="seq"):
            with m.State("LOAD"):
                io.load_state(seq)
            if seq.ahead is not None:
                with m.State("START"):  # a cycle of its own: what the ahead pc steps on is the state alone
                    m.d.comb += self.busy.eq(1)
                    seq.start()
                    m.next = "RUN"
            with m.State("RUN"):
                m.d.comb += [seq.run.eq(1), self.busy.eq(1)]
                seq.step(io.to_unload if not dp.word_stages else self._to_drain(m))
            for k in range(dp.word_registers):  # the last word goes through the word registers and executes
                with m.State(f"DRAIN{k or ''}"):
                    m.d.comb += self.busy.eq(1)
                    if k + 1 < dp.word_registers:
                        m.next = f"DRAIN{k + 1}"
                    else:
                        io.to_unload()
            with m.State("UNLOAD"):
                io.unload_state()
        return m
