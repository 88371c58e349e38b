"""Microcode: one wide word per cycle, a hardware loop, a readable listing and a cycle-exact model.

Fields of a word, per unit instance ``p`` (see :func:`fields`):

* ``p.go`` (multipliers and other started units, e.g. an F_p inverter): start an op with the
  operands read this cycle;
* ``p.a``, ``p.b`` (``p.a_bank``, ``p.b_bank`` when a port reads several banks): register addresses;
  an input that reads through a bank's shared read port (``read_ports``) has no field of its own:
  the port's ``bank.rd0``, ``bank.rd1``, ... addresses what each of its units reads;
* ``p.sel`` (constant units): index into the unit's constant table;
* ``p.k`` (power units with several powers): index into the unit's ``ks``;
* ``p.op`` (units that execute several op kinds, e.g. an F_3^m adder: add, sub, neg): index into the
  unit's ``ops``;
* ``p.a_fwd``, ``p.b_fwd`` (units that take forwarded results): 0, or 1 + the index in
  :func:`forward_sources` of the unit instance whose output, written this cycle, the operand
  register takes instead of the register addressed;
* ``p.we``, ``p.w`` (``p.w_bank``): write the unit's output to a register at the end of this cycle;
* ``wait`` (datapaths with ``waits``): an idle word that lasts ``wait`` + 1 cycles (a run of idle
  words outside the loop, collapsed).

The sequencer runs the words in order; at ``loop.end`` it jumps back to ``loop.start`` until the
kernel has run ``loop.count`` times.  A core with ``calls`` (:mod:`pairhw.program.calls`) has a run
table instead: entry by entry, it runs words ``start`` … ``end`` ``count`` times.
:meth:`Microcode.run` executes the words cycle by cycle with the units' latencies, reading the
operands and writing the results exactly as the core does, so it is the bit- and cycle-exact model
the RTL is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .datapath import Datapath
from .schedule import Schedule, forwarded
from .trace import const_text, op_body
from .word import PORT_NAMES, Key, WordLayout

__all__ = ["EARLY", "PORT_NAMES", "Key", "Loop", "Microcode", "Run", "WordLayout", "assemble", "fields",
           "forward_sources", "instances", "lane", "read_key"]


def _bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


def read_key(dp: Datapath, u, q: str, port: int) -> str:
    """The word field that addresses input ``port`` of instance ``q`` of ``u``: ``q.a``/``q.b``, or
    the shared read port's ``bank.rdK`` (:meth:`Datapath.read_port`)."""
    rp = dp.read_port(u, port)
    return Key.shared_read(*rp) if rp else Key.read(q, port)


@dataclass(frozen=True)
class Loop:
    start: int
    end: int
    count: int  # times the kernel (words start..end) runs


@dataclass(frozen=True)
class Run:
    """An entry of the run table (``calls``): words ``start`` … ``end``, ``count`` times."""

    start: int
    end: int
    count: int


@dataclass
class Microcode:
    dp: Datapath
    layout: WordLayout  # the fields of a word, least significant first
    words: list  # dicts field -> value (absent: 0)
    loop: Loop | None
    sizes: dict  # bank -> registers
    inputs: list  # (bank, index) of each input, in stream order
    outputs: list  # (bank, index) of each output, in stream order
    consts: dict  # const unit instance -> list of constants
    comments: list = field(default_factory=list)  # per word, the ops issued/written (listing)
    table: list | None = None  # the run table of a core with calls (Run entries), else None

    @property
    def fields(self) -> list[tuple[str, int]]:
        """(name, width) of each field of a word, least significant first."""
        return list(self.layout)

    @property
    def width(self) -> int:
        return self.layout.width

    @property
    def cycles(self) -> int:
        """Cycles from the first word to the last (the run phase, independent of the data), and the
        run's cycles beyond its words (:attr:`Datapath.front_cycles`: a cycle a word register, a word
        executing a cycle after its read, and ``pc_ahead``'s START cycle)."""
        if self.table is not None:
            return sum(r.count * sum(1 + self.words[pc].get(Key.WAIT, 0) for pc in range(r.start, r.end + 1))
                       for r in self.table) + self.dp.front_cycles
        extra = (self.loop.count - 1) * (self.loop.end - self.loop.start + 1) if self.loop else 0
        return len(self.words) + extra + sum(wd.get(Key.WAIT, 0) for wd in self.words) + self.dp.front_cycles

    def offsets(self) -> dict[str, tuple[int, int]]:
        """field name -> (offset, width) in a packed word."""
        return self.layout.offsets()

    def packed(self) -> list[int]:
        """The words as the ROM holds them."""
        return [self.layout.pack(wd) for wd in self.words]

    def pc_trace(self):
        """The sequence of word addresses executed."""
        if self.table is not None:
            for r in self.table:
                for _ in range(r.count):
                    for pc in range(r.start, r.end + 1):
                        for _ in range(1 + self.words[pc].get(Key.WAIT, 0)):
                            yield pc
            return
        pc = 0
        left = self.loop.count if self.loop else 0
        while pc < len(self.words):
            for _ in range(1 + self.words[pc].get(Key.WAIT, 0)):
                yield pc
            if self.loop and pc == self.loop.end and left > 1:
                left -= 1
                pc = self.loop.start
            else:
                pc += 1

    def connections(self) -> tuple[dict, dict]:
        """The register-file connections the words use: ``writes`` maps a register ``(bank, k)`` to
        the unit instances that write it, ``reads`` a read field (``"p.a"``) to the registers it
        addresses and a forward field (``"p.a_fwd"``) to the unit instances it forwards.  A field is set only where its value is used (an op's issue or write), so a core
        that builds only these connections (``"connect": "program"``) runs the words as :meth:`run`
        does."""
        writes: dict = {}
        reads: dict = {}
        fsrc = forward_sources(self.dp)
        for p, u in instances(self.dp):
            wbanks = self.dp.write_banks(u, u.instance_names().index(p))
            for port in range(u.ports):
                if lane(u, p) > 0 and port == 1:  # a lane's b is lane 0's
                    continue
                key, banks = read_key(self.dp, u, p, port), self.dp.read_banks(u, port)
                reads[key] = {(banks[wd.get(Key.bank(key), 0)], wd[key]) for wd in self.words if key in wd}
                if u.fwd_in:  # the unit outputs forwarded to this input: instance names
                    fk = Key.fwd(p, port)
                    reads[fk] = {fsrc[wd[fk] - 1] for wd in self.words if wd.get(fk)}
            for wd in self.words:
                if wd.get(Key.we(p)):
                    writes.setdefault((wbanks[wd.get(Key.w_bank(p), 0)], wd.get(Key.w(p), 0)), set()).add(p)
        return writes, reads

    def interconnect(self) -> dict:
        """The register file's multiplexers as :class:`~pairhw.cores.core.PairingCore` builds them
        (``"connect"``: every register of a port's banks, or those the words use), counted as
        sources: a unit input port chooses among the flip-flop registers it reaches, the RAM banks it
        reads (one each; a shared RAM read port is the bank's own) and the unit outputs forwarded to
        it (``p.a_fwd``, counted apart for an input on a shared port); a flip-flop register's write
        multiplexer among the unit instances that write it and the loader.  These multiplexers are
        most of a core's area around its units (docs/ARCHITECTURE.md, "Where the area goes")."""
        dp = self.dp
        rams = {b.name for b in dp.banks if b.write_ports}
        used_w, used_r = self.connections() if dp.connect == "program" else (None, None)
        ports = {}
        fsrc = forward_sources(dp)
        for p, u in instances(dp):
            for port in range(u.ports):
                if lane(u, p) > 0 and port == 1:  # lane 0's b
                    continue
                key = read_key(dp, u, p, port)
                n = 0
                if u.fwd_in:
                    n = len(fsrc) if used_r is None else len(used_r.get(Key.fwd(p, port), ()))
                if dp.read_port(u, port):  # a shared RAM port: counted once, as the bank's
                    if n:
                        ports[Key.fwd(p, port)] = n
                    continue
                for b in dp.read_banks(u, port):
                    if b in rams:
                        n += 1
                    elif used_r is None:
                        n += self.sizes.get(b, 0)
                    else:
                        n += len({k for c, k in used_r.get(key, ()) if c == b})
                ports[key] = n
        inputs = set(self.inputs)
        writes = {}
        for b, size in self.sizes.items():
            if b in rams:
                continue
            for k in range(size):
                writers = [p for p, u in instances(dp) if b in dp.write_banks(u, u.instance_names().index(p))
                           and (used_w is None or p in used_w.get((b, k), ()))]
                writes[(b, k)] = len(writers) + ((b, k) in inputs)
        depths = self.copy_depths(used_r)
        return {"connect": dp.connect, "read_ports": len(ports), "read_inputs": sum(ports.values()),
                "read_inputs_max": max(ports.values(), default=0), "registers": len(writes),
                "write_inputs": sum(writes.values()), "write_inputs_max": max(writes.values(), default=0),
                "ram_banks": len(rams), "ports": ports,
                **({"copies": {"count": len(depths), "over_32": sum(d > 32 for d in depths),
                               "over_64": sum(d > 64 for d in depths)}} if dp.local_banks else {})}

    def copy_depths(self, used_r=None) -> list[int]:
        """The words of each LUT RAM copy the core builds for its unit inputs (ram_control local: a
        copy per input and bank it reads, holding the registers the words read there with connect
        program, else the whole bank, and a word of zeros where the input ORs its copies,
        :meth:`~pairhw.program.datapath.Datapath.zeroed_copies`): 32 words fit a RAM32M (6 bits in 4
        LUTs), 64 a RAM64M (3 bits); ``used_r``: :meth:`connections`' reads, if known."""
        dp = self.dp
        local = set(dp.local_banks)
        if dp.connect == "program" and used_r is None:
            used_r = self.connections()[1]
        out = []
        for p, u in instances(dp):
            for port in range(u.ports):
                if (lane(u, p) > 0 and port == 1) or dp.read_port(u, port):  # lane 0's b; a shared RAM port
                    continue
                key, zero = read_key(dp, u, p, port), dp.zeroed_copies(u, port)
                for b in dp.read_banks(u, port):
                    if b not in local:
                        continue
                    n = self.sizes.get(b, 0) if used_r is None else len({k for c, k in used_r.get(key, ()) if c == b})
                    if used_r is None or n:
                        out.append(n + zero)
        return out

    def run(self, values: list) -> tuple[list, int]:
        """Execute the microcode on input values (stream order); returns (outputs, cycles)."""
        fi = self.dp.F
        regs = {b: [0] * n for b, n in self.sizes.items()}
        for (b, k), v in zip(self.inputs, values):
            regs[b][k] = v
        pending: dict = {}
        cycle = 0
        insts = instances(self.dp)
        wbanks = {p: self.dp.write_banks(u, u.instance_names().index(p)) for p, u in insts}
        base = {p: u.instance_names()[u.instance_names().index(p) - lane(u, p)] for p, u in insts}
        # a combinational unit behind pipeline stages (latency > 0) computes every cycle on what it
        # read `latency` cycles before its write: the model computes it where a write follows (looking
        # ahead in the word trace, kept as a list only then: a long program's is millions of words)
        staged = {p for p, u in insts if not u.started and u.kind != "const" and u.latency}
        trace = list(self.pc_trace()) if staged else []
        fsrc = forward_sources(self.dp)
        early = {p + EARLY: p for p, u in insts if u.early}  # an early source -> its instance
        for pc in trace if staged else self.pc_trace():
            wd = self.words[pc]
            writes = []
            # the results written at the end of this cycle, on the units' outputs (forwarding): taken
            # before the writes below pop them
            now = {s: pending[(s, cycle)] for s in fsrc if (s, cycle) in pending}
            # ... and (early sources) those written at the end of the next: on the outputs now
            now.update({s: pending[(p, cycle + 1)] for s, p in early.items() if (p, cycle + 1) in pending})
            for p, u in insts:
                def src(port):
                    q = base[p] if port == 1 else p  # lanes share lane 0's operand b
                    if f := wd.get(Key.fwd(q, port)):
                        if fsrc[f - 1] not in now:
                            raise RuntimeError(f"microcode forwards {fsrc[f - 1]} to {q} at cycle {cycle}, "
                                               "which writes no result then")
                        return now[fsrc[f - 1]]
                    key, banks = read_key(self.dp, u, q, port), self.dp.read_banks(u, port)
                    return regs[banks[wd.get(Key.bank(key), 0)]][wd.get(key, 0)]

                if u.started and wd.get(Key.go(base[p])):  # every lane starts (an unused one is not written)
                    pending[(p, cycle + u.latency)] = fi.apply(u.ops[0], [src(i) for i in range(u.ports)])
                elif p in staged and cycle + u.latency < len(trace) \
                        and self.words[trace[cycle + u.latency]].get(Key.we(p)):
                    kind = u.ops[wd.get(Key.op(p), 0)]
                    pending[(p, cycle + u.latency)] = fi.apply(kind, [src(i) for i in range(fi.arity(kind))],
                                                               u.ks[wd.get(Key.power(p), 0)])
                if wd.get(Key.we(p)):
                    if u.started or p in staged:
                        if (p, cycle) not in pending:
                            raise RuntimeError(f"microcode writes {p} at cycle {cycle} with no result due")
                        val = pending.pop((p, cycle))
                    elif u.kind == "const":
                        val = self.consts[p][wd.get(Key.sel(p), 0)]
                    else:
                        kind = u.ops[wd.get(Key.op(p), 0)]
                        val = fi.apply(kind, [src(i) for i in range(fi.arity(kind))], u.ks[wd.get(Key.power(p), 0)])
                    writes.append((wbanks[p][wd.get(Key.w_bank(p), 0)], wd.get(Key.w(p), 0), val))
            seen = set()
            for b, k, v in writes:
                if (b, k) in seen:
                    raise RuntimeError(f"two writes to {b}{k} at cycle {cycle}")
                seen.add((b, k))
                regs[b][k] = v
            for bank in self.dp.banks:
                if bank.write_ports and sum(b == bank.name for b, _, _ in writes) > bank.write_ports:
                    raise RuntimeError(f"more than {bank.write_ports} writes to RAM bank {bank.name} at cycle {cycle}")
            cycle += 1
        return [regs[b][k] for b, k in self.outputs], cycle + self.dp.front_cycles

    def listing(self, title: str = "") -> str:
        """Seed 003's "assembler-like metacode": one line per word, the loop marked."""
        lines = []
        if title:
            lines.append(f"; {title}")
        lines.append(f"; {len(self.words)} words × {self.width} bits, {self.cycles} cycles per run; registers "
                     + ", ".join(f"{b}: {n}" for b, n in self.sizes.items()))
        lines.append("; inputs  " + ", ".join(f"{b}{k}" for b, k in self.inputs))
        for p, cs in self.consts.items():
            lines.append(f"; {p} table: " + ", ".join(const_text(self.dp.F, c) for c in cs))
        if self.table is not None:
            lines.append(f"; run table: {len(self.table)} entries (words start-end, times)")
            lines += [f";   {r.start:05d}-{r.end:05d} x{r.count}" for r in self.table]
        starts = {r.start for r in self.table or ()}
        for pc, wd in enumerate(self.words):
            if pc in starts:
                lines.append(f"step at {pc:05d}:")
            if self.loop and pc == self.loop.start:
                lines.append(f"loop {self.loop.count} times {{")
            text = " | ".join(self.comments[pc]) if pc < len(self.comments) else ""
            lines.append(f"  {pc:05d}  {text or 'nop'}")
            if self.loop and pc == self.loop.end:
                lines.append("}")
        lines.append("; outputs " + ", ".join(f"{b}{k}" for b, k in self.outputs))
        return "\n".join(lines)


def instances(dp: Datapath) -> list:
    """(instance name, unit) of every unit instance, in datapath order."""
    return [(p, u) for u in dp.units for p in u.instance_names()]


def lane(u, p: str) -> int:
    """The lane of instance name ``p`` of unit ``u`` (0 for a unit without lanes)."""
    return u.instance_names().index(p) % u.lanes


#: the suffix of an instance's early forward source (:attr:`UnitSpec.early`): its output a cycle
#: before the write the latency counts
EARLY = "_early"


def forward_sources(dp: Datapath) -> list[str]:
    """The unit instances whose outputs a forwarding datapath's operand registers may take, in
    datapath order, then those forwarded early too as ``p_early`` (a ``p.a_fwd`` field holds 1 +
    the index here; empty without ``forward``)."""
    insts = instances(dp)
    return [p for p, u in insts if u.forward] + [p + EARLY for p, u in insts if u.early]


def fields(dp: Datapath, sizes: dict) -> WordLayout:
    """The word layout for a datapath whose banks have ``sizes`` registers.  The lanes of a unit
    share lane 0's ``go`` and ``b`` (they start together on one operand b)."""
    out = []
    nfwd = len(forward_sources(dp))
    for p, u in instances(dp):
        shared = lane(u, p) > 0
        if u.started and not shared:
            out.append((Key.go(p), 1))
        if u.kind == "const":
            out.append((Key.sel(p), 8))  # narrowed by assemble to the table size
        if len(u.ks) > 1:
            out.append((Key.power(p), _bits(len(u.ks))))
        if len(u.ops) > 1:
            out.append((Key.op(p), _bits(len(u.ops))))
        for port in range(u.ports):
            if u.fwd_in and not (shared and port == 1):
                out.append((Key.fwd(p, port), _bits(nfwd + 1)))
            if (shared and port == 1) or dp.read_port(u, port):
                continue
            banks = dp.read_banks(u, port)
            out.append((Key.read(p, port), _bits(max(sizes[b] for b in banks))))
            if len(banks) > 1:
                out.append((Key.bank(Key.read(p, port)), _bits(len(banks))))
        banks = dp.write_banks(u, u.instance_names().index(p))
        out.append((Key.we(p), 1))
        out.append((Key.w(p), _bits(max(sizes[b] for b in banks))))
        if len(banks) > 1:
            out.append((Key.w_bank(p), _bits(len(banks))))
    for b in dp.banks:  # the shared read ports' addresses
        out += [(Key.shared_read(b.name, k), _bits(sizes[b.name])) for k in range(b.read_ports or 0)]
    return WordLayout(out)


def reg_text(r) -> str:
    return f"{r[0]}{r[1]}"


def assemble(flow, dp: Datapath, sched: Schedule, alloc, cuts: list | None = None) -> Microcode:
    """Words for ``pre``, the loop (prologue, kernel, epilogue), and ``post``, as ``sched`` places
    them, in the registers of ``alloc``.  ``cuts``: the cycles where steps begin (a core with calls),
    which idle runs do not cross; replaced by their word addresses."""
    pre, loop, post, tl = sched.pre, sched.loop, sched.post, sched.timeline
    ii, S, trips = loop.ii, loop.stages, flow.trips
    names = {id(u): u.instance_names() for u in dp.units}
    table = list(dict.fromkeys(op.const for _, ops in flow.blocks() for op in ops if op.kind == "const"))
    # every instance holds the whole table (any instance may be scheduled)
    consts = {p: table for p in dp.unit_for("const").instance_names()} if table else {}
    sizes = {b.name: max(alloc.used.get(b.name, 0), 1) for b in dp.banks}
    layout = fields(dp, sizes)
    for n, _ in list(layout):  # a constant unit's select: as wide as its table needs
        if Key.is_sel(n):
            layout = layout.replace(n, _bits(max(len(consts.get(Key.instance(n), [])), 1)))
    use_loop = trips >= S
    n_words = tl.post_start + post.length
    if use_loop:
        n_words -= (trips - S) * ii  # the kernel is written once
    words: list[dict] = [dict() for _ in range(n_words)]
    notes: list[list] = [[] for _ in range(n_words)]

    def put(at, key, val):
        wd = words[at]
        if wd.get(key, val) != val:  # pragma: no cover - the scheduler rules this out
            raise RuntimeError(f"microcode conflict at word {at} on {key}")
        wd[key] = val

    fsrc = forward_sources(dp)

    def forwards(ops, records, body=False) -> list[dict]:
        """Per op, {input port: producer instance} of its forwarded operands (the instance's early
        source where the result is written a cycle after the op's issue)."""
        return [{port: names[id(pr.unit)][pr.slot] + (EARLY if pr.written == r.start + 1 else "")
                 for port, pr in f.items()}
                for r, f in zip(records, forwarded(ops, records, body))]

    def emit(op, u, inst, issue_at, write_at, fwd=None):
        p = names[id(u)][inst]
        base = names[id(u)][inst - inst % u.lanes]  # lane 0: the go and the operand b of all lanes
        srcs = []
        if issue_at is not None:
            if u.started:
                put(issue_at, Key.go(base), 1)
            if u.kind == "const":
                put(issue_at, Key.sel(p), consts[p].index(op.const))
            if len(u.ks) > 1:
                put(issue_at, Key.power(p), u.ks.index(op.k))
            if len(u.ops) > 1:
                put(issue_at, Key.op(p), u.ops.index(op.kind))
            for port, (s, _) in enumerate(op.srcs):
                q = base if port == 1 else p  # a lane's b is lane 0's (the scheduler made them equal)
                if fwd and port in fwd:  # from the producer's output, as its register is written
                    put(issue_at, Key.fwd(q, port), fsrc.index(fwd[port]) + 1)
                    srcs.append(f"<{fwd[port]}")
                    continue
                b, k = alloc.reg[s]
                banks = dp.read_banks(u, port)
                key = read_key(dp, u, q, port)  # a shared read port: one address per cycle (scheduled)
                put(issue_at, key, k)
                if len(banks) > 1:
                    put(issue_at, Key.bank(key), banks.index(b))
                srcs.append(reg_text((b, k)))
            if u.latency:
                notes[issue_at].append(f"{p} {' '.join(srcs)}")
        if write_at is not None:
            b, k = alloc.reg[op.dst]
            banks = dp.write_banks(u, inst)
            put(write_at, Key.we(p), 1)
            put(write_at, Key.w(p), k)
            if len(banks) > 1:
                put(write_at, Key.w_bank(p), banks.index(b))
            what = p if u.latency else (f"const #{consts[p].index(op.const)}" if u.kind == "const" else
                                        op_body(op.kind, srcs, op.k, sep=" "))
            notes[write_at].append(f"{reg_text((b, k))} <- {what} ({op.dst})")

    def straight(ops, sch, base):
        records = sch.records()
        for r, fwd in zip(records, forwards(ops, records)):
            emit(ops[r.op], r.unit, r.slot, base + r.start, base + r.written, fwd)

    straight(flow.pre, pre, 0)
    Ls = tl.loop_start
    execs = list(range(trips + S - 1))
    if use_loop:
        execs = list(range(S)) + list(range(trips, trips + S - 1))
    body_records = loop.records()
    body_fwd = forwards(flow.body, body_records, body=True)
    for slot, k in enumerate(execs):
        base = Ls + slot * ii
        for r, fwd in zip(body_records, body_fwd):
            t, w = r.start, r.written
            issue = base + t % ii if 0 <= k - t // ii < trips else None
            write = base + w % ii if 0 <= k - w // ii < trips else None
            if issue is not None or write is not None:
                emit(flow.body[r.op], r.unit, r.slot, issue, write, fwd)
    post_base = Ls + len(execs) * ii
    straight(flow.post, post, post_base)
    lp = Loop(Ls + (S - 1) * ii, Ls + S * ii - 1, trips - S + 1) if use_loop else None
    if dp.waits:
        words, notes, lp, wait_bits, moved = collapse_idle(words, notes, lp, cuts or ())
        if cuts is not None:
            cuts[:] = moved
        if wait_bits:
            layout = layout.append(Key.WAIT, wait_bits)
    inputs = [alloc.reg[x] for x in flow.inputs]
    outputs = [alloc.reg[o] for o in flow.outputs]
    return Microcode(dp, layout, words, lp, sizes, inputs, outputs, consts, notes)


#: the longest wait one word holds (a longer idle run takes several words)
MAX_WAIT = (1 << 16) - 1


def collapse_idle(words, notes, lp, cuts=()):
    """Runs of two or more idle words (no field set) outside the loop kernel become one word
    ``{"wait": n − 1}``; returns the words, their notes, the loop with its addresses moved, and the
    bits of the ``wait`` field (0 when nothing collapsed), and the new addresses of the words in
    ``cuts`` (where the steps of a core with calls begin), which a run does not cross."""
    breaks = set(cuts)
    moved: list = []
    out, out_notes, new_index = [], [], {}
    run = 0

    def flush():
        nonlocal run
        while run:
            n = min(run, MAX_WAIT + 1)
            out.append({Key.WAIT: n - 1} if n > 1 else {})
            out_notes.append([f"wait {n - 1}"] if n > 1 else [])
            run -= n

    for pc, wd in enumerate(words):
        if pc in breaks:
            flush()
            moved.append(len(out))
        in_loop = lp is not None and lp.start <= pc <= lp.end
        if not wd and not in_loop:
            run += 1
            continue
        flush()
        new_index[pc] = len(out)
        out.append(wd)
        out_notes.append(notes[pc])
    flush()
    if lp is not None:
        lp = Loop(new_index[lp.start], new_index[lp.end], lp.count)
    longest = max((wd.get(Key.WAIT, 0) for wd in out), default=0)
    return out, out_notes, lp, _bits(longest + 1) if longest else 0, moved
