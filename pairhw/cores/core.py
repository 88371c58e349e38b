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

from amaranth import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.memory import Memory, ReadPort
from amaranth.utils import ceil_log2
from amaranth.lib.wiring import In, Out

from pairhw.program.microcode import PORT_NAMES, Key, instances, read_key


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


def _read_port(mem: Memory, name: str, domain: str) -> ReadPort:
    """``mem.read_port(domain=domain)`` whose signals are named ``{name}__addr`` and ``{name}__data``
    (``read_port`` names them all ``rp``, so the Verilog's reader cannot tell the ports apart)."""
    sig = ReadPort.Signature(shape=mem.shape, addr_width=ceil_log2(mem.depth))
    return ReadPort(sig, memory=mem, domain=domain, path=(name,))


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


class PairingCore(StreamCore):
    """A microcoded pairing processor (see the module docstring for the protocol).

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

    @staticmethod
    def _advance(m, pc, set_pc, loop, cnt, last, to_unload):
        """The sequencer's step after a word: the loop's jump back, the end of the run, or the next word."""
        if loop:
            with m.If((pc == loop.end) & (cnt > 1)):
                set_pc(loop.start)
                m.d.sync += cnt.eq(cnt - 1)
            with m.Elif(pc == last):
                to_unload()
            with m.Else():
                set_pc(pc + 1)
        else:
            with m.If(pc == last):
                to_unload()
            with m.Else():
                set_pc(pc + 1)

    def elaborate(self, platform):
        m = Module()
        mc, dp = self.mc, self.dp
        mm, w, beats = dp.F.width, dp.io_width, dp.io_beats
        words = mc.packed()
        rom = m.submodules.rom = Memory(shape=max(mc.width, 1), depth=len(words), init=words)
        pc = Signal(range(max(len(words), 2)))
        # a sync-read RAM bank (block RAM) is addressed a cycle early, by the next word's fields
        sync = {b.name for b in dp.banks if b.write_ports and b.read == "sync"}
        pc_next = None  # the word of the next cycle (set_pc), for the reads at the clock edge
        if dp.rom == "sync":  # a ROM read at the clock edge (block RAM): addressed by the next pc
            rd = _read_port(rom, "word", "sync")
            pc_next = Signal.like(pc)
            m.d.comb += [pc_next.eq(pc), rd.addr.eq(pc_next)]
        else:
            rd = _read_port(rom, "word", "comb")
            m.d.comb += rd.addr.eq(pc)
        if sync and pc_next is None:
            pc_next = Signal.like(pc)
            m.d.comb += pc_next.eq(pc)

        def set_pc(value):
            m.d.sync += pc.eq(value)
            if pc_next is not None:
                m.d.comb += pc_next.eq(value)

        offsets = mc.offsets()
        fld = {}  # the word's fields, each a Signal named after it (mul.a -> word_mul_a) for the Verilog's reader
        for name, (o, n) in offsets.items():
            fld[name] = Signal(n, name="word_" + name.replace(".", "_"))
            m.d.comb += fld[name].eq(rd.data[o:o + n])
        run = Signal()

        # the address fields of the next word for the sync banks' ports: a small LUT ROM of those
        # fields alone, read at pc_next
        early = [key for p, u in instances(dp) for port in range(u.ports)
                 if (key := Key.read(p, port)) in offsets and sync & set(dp.read_banks(u, port))]
        fld_next = {}
        if early:
            cols, at = [], 0
            for key in early:
                o, n = offsets[key]
                cols.append((key, o, n, at))
                at += n
            ewords = [sum(((wd >> o) & ((1 << n) - 1)) << a for _, o, n, a in cols) for wd in words]
            erom = m.submodules.rom_next = Memory(shape=at, depth=len(words), init=ewords)
            erd = _read_port(erom, "word_next", "comb")
            m.d.comb += erd.addr.eq(pc_next)
            fld_next = {key: erd.data[a:a + n] for key, _, n, a in cols}

        # banks with limited write ports are RAMs (LUTRAM): one comb read port per reader, one
        # write port; the others are registers with a write multiplexer each
        rams = {b.name: b for b in dp.banks if b.write_ports}
        for b in rams.values():
            if b.write_ports != 1:
                raise ValueError(f"bank {b.name}: the core builds RAM banks with one write port")
        regs = {b: [Signal(mm, name=f"{b}{k}") for k in range(n)] for b, n in mc.sizes.items() if b not in rams}
        # a sync bank is block RAM, however shallow, whose read-during-write at one address is
        # don't-care (no_rw_check): the bypass below gives the data then, so the tool need not emulate
        mems = {b: Memory(shape=mm, depth=mc.sizes[b], init=[],
                          attrs={"ram_style": "block", "no_rw_check": 1} if b in sync else None) for b in rams}
        for b, mem in mems.items():
            m.submodules[f"bank_{b}"] = mem
        wps, wdata = {}, {}  # a sync bank's write port (before its read ports) and what it wrote at the last edge
        for b in sorted(sync):
            wps[b], wdata[b] = mems[b].write_port(), Signal(mm, name=f"{b}_wdata")
            m.d.sync += wdata[b].eq(wps[b].data)
        first = {}  # sync bank -> (its first read port, its data): the unloader's port too

        def sync_read(b, name):
            """A read port of a sync bank whose data is what a comb read at the next cycle gives:
            the RAM's (a read before the write of the same edge, which any block RAM does) unless the
            edge wrote the address read; that write's data then comes from ``wdata`` (a bypass in
            logic, not left to the tool's transparency emulation)."""
            rp = _read_port(mems[b], f"{name}_rd", "sync")
            hit = Signal(name=f"{name}_hit")
            m.d.sync += hit.eq(wps[b].en & (wps[b].addr == rp.addr))
            data = Signal(mm, name=f"{name}_data")
            m.d.comb += data.eq(Mux(hit, wdata[b], rp.data))
            return rp, data

        # "connect": "program" builds only the connections the words use (Microcode.connections):
        # a register's write multiplexer takes the units that write it, a read port's the registers
        # it reads; an address the words never give is don't-care (the port's value is unused there)
        used_w, used_r = mc.connections() if dp.connect == "program" else (None, None)

        def bank_read(b, addr, name, only=None, key=None):
            s = Signal(mm, name=name)
            if b in sync:  # addressed by the next word: the state a comb read sees a cycle later
                rp, data = sync_read(b, name)
                m.d.comb += s.eq(data)
                if b in first:
                    m.d.comb += rp.addr.eq(fld_next[key])
                else:  # the unloader shares it: its address is set below
                    first[b] = (rp, data, fld_next[key])
            elif b in mems:
                rp = _read_port(mems[b], f"{name}_rd", "comb")
                m.d.comb += [rp.addr.eq(addr), s.eq(rp.data)]
            elif only is None:
                m.d.comb += s.eq(Array(regs[b])[addr])
            elif only:
                m.d.comb += s.eq(_read_tree(m, regs[b], only, addr, name))
            return s  # (a port that never reads the bank reads 0)

        # a bank's shared read ports (read_ports): one LUT RAM read each, addressed by its own field
        # of the word (or, port 0, by the unloader), its data wired to every input bound to it
        shared_rd, shared_addr = {}, {}

        def shared_read(b, k):
            key = Key.shared_read(b, k)
            if key not in shared_rd:
                shared_addr[key] = Signal(len(fld[key]), name=f"{b}_rd{k}_addr")
                m.d.comb += shared_addr[key].eq(fld[key])
                shared_rd[key] = bank_read(b, shared_addr[key], f"{b}_rd{k}")
            return shared_rd[key]

        def read(u, p, port):
            banks = dp.read_banks(u, port)
            pn = PORT_NAMES[port]
            if rp := dp.read_port(u, port):
                return shared_read(*rp)
            key = read_key(dp, u, p, port)
            outs = [bank_read(b, fld[key], f"{p}_{pn}_{b}",
                              None if used_r is None else sorted(k for c, k in used_r[key] if c == b), key)
                    for b in banks]
            if len(outs) == 1:
                return outs[0]
            s = Signal(mm, name=f"{p}_{pn}")
            m.d.comb += s.eq(Array(outs)[fld[Key.bank(key)]])
            return s

        writers = []  # (instance, we, bank select or None, addr, data, banks)
        for u in dp.units:  # units with lanes: one instance takes every lane's a, lane 0's b and go
            if u.lanes == 1:
                continue
            names = u.instance_names()
            for g in range(u.count):
                lanes = names[g * u.lanes:(g + 1) * u.lanes]
                unit = m.submodules[lanes[0]] = self._unit(u)
                m.d.comb += [unit.a.eq(Cat(*(read(u, q, 0) for q in lanes))), unit.b.eq(read(u, lanes[0], 1)),
                             unit.start.eq(run & fld[Key.go(lanes[0])])]
                for j, q in enumerate(lanes):
                    out = Signal(mm, name=f"{q}_out")
                    m.d.comb += out.eq(unit.c[j * mm:(j + 1) * mm])
                    banks = dp.write_banks(u, names.index(q))
                    writers.append((q, run & fld[Key.we(q)], fld.get(Key.w_bank(q)), fld[Key.w(q)], out, banks))
        for p, u in instances(dp):
            if u.lanes > 1:
                continue
            unit = self._unit(u)
            out = Signal(mm, name=f"{p}_out")
            if unit is not None:
                m.submodules[p] = unit
                for port in range(u.ports):
                    m.d.comb += getattr(unit, PORT_NAMES[port]).eq(read(u, p, port))
                if u.started:
                    m.d.comb += unit.start.eq(run & fld[Key.go(p)])
                if len(u.ks) > 1:
                    m.d.comb += unit.sel.eq(fld[Key.power(p)])
                if len(u.ops) > 1:
                    m.d.comb += unit.op.eq(fld[Key.op(p)])
                m.d.comb += out.eq(unit.c)
            else:  # constant table
                table = [Const(dp.F.encode(c), mm) for c in mc.consts[p]]
                m.d.comb += out.eq(Array(table)[fld[Key.sel(p)]] if len(table) > 1 else table[0])
            banks = dp.write_banks(u, u.instance_names().index(p))
            writers.append((p, run & fld[Key.we(p)], fld.get(Key.w_bank(p)), fld[Key.w(p)], out, banks))

        # stream input: an element is assembled from `beats` words, least significant first
        acc = Signal(beats * w)
        nxt = Signal(beats * w)
        m.d.comb += nxt.eq(Cat(acc[w:], self.i.payload) if beats > 1 else self.i.payload)
        elem = Signal(range(max(len(mc.inputs), len(mc.outputs)) + 1))
        beat = Signal(range(beats + 1))
        load_we = Signal()
        # outputs: selected register, word by word
        osel = Signal(beats * w)
        unload = {}  # RAM bank -> data of its unload read port (addressed by the output index)
        elem_next = unl_next = None  # the output of the next cycle and whether it unloads (sync banks)
        if sync:
            elem_next, unl_next = Signal.like(elem), Signal()
            m.d.comb += elem_next.eq(elem)

        def set_elem(value):
            m.d.sync += elem.eq(value)
            if sync:
                m.d.comb += elem_next.eq(value)

        def to_unload():
            m.next = "UNLOAD"
            if sync:
                m.d.comb += unl_next.eq(1)

        # the UNLOAD state, when a bank's shared read port 0 reads the outputs (only built then: the
        # Verilog of a core without shared ports is as before)
        unloading = Signal() if any(b.read_ports for b in rams.values()) else None
        for b in mems:
            idx = [k if ob == b else 0 for ob, k in mc.outputs]
            if rams[b].read_ports:  # no unit issues while unloading: port 0 reads the outputs then
                unload[b] = shared_read(b, 0)
                with m.If(unloading):
                    m.d.comb += shared_addr[Key.shared_read(b, 0)].eq(Array(idx)[elem] if len(idx) > 1 else idx[0])
            elif b in sync:  # the first read port, addressed by the next output while unloading
                if b not in first:
                    first[b] = (*sync_read(b, f"unload_{b}"), 0)
                rp, data, a = first[b]
                m.d.comb += rp.addr.eq(Mux(unl_next, Array(idx)[elem_next] if len(idx) > 1 else idx[0], a))
                unload[b] = data
            else:
                unload[b] = bank_read(b, Array(idx)[elem] if len(idx) > 1 else idx[0], f"unload_{b}")
        m.d.comb += osel.eq(Array([unload[b] if b in mems else regs[b][k] for b, k in mc.outputs])[elem])
        m.d.comb += self.o.payload.eq(osel.word_select(beat, w))

        bank_writers = None if used_w is None else {(c, p) for (c, _), ps in used_w.items() for p in ps}
        for b, mem in mems.items():
            wp = wps[b] if b in wps else mem.write_port()
            # the loader, then the units: the scheduler allows one unit write per cycle
            conds = [(load_we & (elem == e), k, nxt[:mm]) for e, (ib, k) in enumerate(mc.inputs) if ib == b]
            conds += [(we if bsel is None else we & (bsel == banks.index(b)), addr, data)
                      for p, we, bsel, addr, data, banks in writers if b in banks
                      and (bank_writers is None or (b, p) in bank_writers)]
            for n, (c, addr, data) in enumerate(conds):
                with (m.If if n == 0 else m.Elif)(c):
                    m.d.comb += [wp.en.eq(1), wp.addr.eq(addr), wp.data.eq(data)]

        for b, rs in regs.items():
            for k, r in enumerate(rs):
                conds = [(load_we & (elem == e), nxt[:mm]) for e, reg in enumerate(mc.inputs) if reg == (b, k)]
                for p, we, bsel, addr, data, banks in writers:
                    if b in banks and (used_w is None or p in used_w.get((b, k), ())):
                        c = we & (addr == k)
                        conds.append((c if bsel is None else c & (bsel == banks.index(b)), data))
                for n, (c, v) in enumerate(conds):
                    with (m.If if n == 0 else m.Elif)(c):
                        m.d.sync += r.eq(v)

        loop = mc.loop
        cnt = Signal(range((loop.count if loop else 0) + 2))
        last = len(words) - 1
        with m.FSM(name="seq"):
            with m.State("LOAD"):
                m.d.comb += self.i.ready.eq(1)
                with m.If(self.i.valid):
                    m.d.sync += acc.eq(nxt)
                    with m.If(beat == beats - 1):
                        m.d.comb += load_we.eq(1)
                        m.d.sync += beat.eq(0)
                        with m.If(elem == len(mc.inputs) - 1):
                            set_elem(0)
                            set_pc(0)
                            m.d.sync += cnt.eq(loop.count if loop else 0)
                            m.next = "RUN"
                        with m.Else():
                            set_elem(elem + 1)
                    with m.Else():
                        m.d.sync += beat.eq(beat + 1)
            with m.State("RUN"):
                m.d.comb += [run.eq(1), self.busy.eq(1)]
                if Key.WAIT in fld:  # an idle word of wait + 1 cycles: hold the pc
                    hold = Signal.like(fld[Key.WAIT], name="hold")
                    with m.If(hold != fld[Key.WAIT]):
                        m.d.sync += hold.eq(hold + 1)
                    with m.Else():
                        m.d.sync += hold.eq(0)
                        self._advance(m, pc, set_pc, loop, cnt, last, to_unload)
                else:
                    self._advance(m, pc, set_pc, loop, cnt, last, to_unload)
            with m.State("UNLOAD"):
                m.d.comb += [self.o.valid.eq(1), self.busy.eq(1)]
                if unloading is not None:
                    m.d.comb += unloading.eq(1)
                if sync:
                    m.d.comb += unl_next.eq(1)
                with m.If(self.o.ready):
                    with m.If(beat == beats - 1):
                        m.d.sync += beat.eq(0)
                        with m.If(elem == len(mc.outputs) - 1):
                            set_elem(0)
                            if sync:
                                m.d.comb += unl_next.eq(0)
                            m.next = "LOAD"
                        with m.Else():
                            set_elem(elem + 1)
                    with m.Else():
                        m.d.sync += beat.eq(beat + 1)
        return m
