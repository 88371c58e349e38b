"""Calls: a straight-line program cut at the model's steps, identical steps stored once, a run table.

A prime-field pairing does not fold into one loop (the Miller loop's NAF digits differ, the final
exponentiation's squarings come in runs of every length), so its straight-line microcode has one word
per busy cycle.  With ``"calls"`` the program is cut where the model's steps begin and end
(``F.step``: each Miller-loop doubling and addition, each squaring and product of an exponentiation
or of a Fermat inversion; :attr:`~pairhw.program.trace.Program.cuts`), and

1. each step is list-scheduled on its own, one after the other (:func:`step_schedule`), so two
   occurrences of the same step between the same neighbours get the same schedule: ``"steps"``
   begins a step when the previous one has written its last result, ``"overlap"`` lets its ops take
   the cycles the previous one leaves free;
2. registers are chosen so that they also get the same registers.  Step after step
   (:func:`allocate_steps`): a value read only inside its step takes the same scratch register in
   every occurrence, and a value passed from one recurring step to the next has a home register (two
   that alternate when the step writes it before its last read of the input it replaces) that it
   takes whenever it is free.  Overlapping (:func:`allocate_replay`): a step takes again the
   registers of an earlier step scheduled the same way wherever they are free;
3. the straight-line words are cut at the steps and each distinct run of words is stored once
   (:func:`fragments`): the run table lists (first word, last word, times) in execution order, and a
   step repeated back to back (the squarings of an exponentiation, the doublings between two NAF
   digits) is one entry.  With ``"share": n`` a new step also reuses every run of n or more words
   already stored, and stores only the rest.

The words executed are exactly the straight-line program's, so :meth:`Microcode.run` (which follows
the table) checks the table as it checks any microcode.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from .datapath import Datapath
from .microcode import Microcode, Run, assemble, read_key
from .regalloc import Allocation, allowed_banks
from .schedule import (BlockSchedule, Busy, LoopSchedule, Schedule, ScheduleError, Timeline, _rports, _wport,
                       list_schedule)

__all__ = ["allocate_replay", "allocate_steps", "fragments", "interleave", "step_of", "step_schedule"]


def step_of(program, ops) -> list[int]:
    """The step index of each op of ``ops`` (a lowered straight-line block of ``program``'s ops): the
    number of cuts at or before its traced op; an op the lowering made (a constant) takes its
    successor's step, so steps stay contiguous."""
    cuts = sorted(set(program.cuts))
    where, k = {}, 0
    for i, op in enumerate(program.ops):
        while k < len(cuts) and cuts[k] <= i:
            k += 1
        where[op.dst] = k
    out: list = [None] * len(ops)
    nxt = k
    for i in reversed(range(len(ops))):
        nxt = where.get(ops[i].dst, nxt)
        out[i] = nxt
    for i in range(1, len(out)):  # never back to an earlier step
        out[i] = max(out[i], out[i - 1])
    return out


def _spans(steps: list[int]):
    """(first, end) op indices of each step in turn (its ops are contiguous)."""
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j] == steps[i]:
            j += 1
        yield i, j
        i = j


#: a value read at most this many steps after its own is a recurring step's (:func:`allocate_replay`;
#: a design's ``near_steps`` says otherwise)
NEAR = 2

#: the most templates kept per step shape (:func:`allocate_replay`)
TEMPLATES = 16

#: an overlapping step's priorities look this many steps ahead unless the design's ``lookahead`` says
#: (the cycles of ate-bls12-381-fast-calls: 17,282 looking one step ahead, 16,394 two, 16,492 four)
LOOKAHEAD = 2


def step_schedule(ops, steps: list[int], dp: Datapath, shared=frozenset(), overlap: bool = False,
                  lookahead: int = LOOKAHEAD) -> tuple[BlockSchedule, list[int]]:
    """List-schedule each step's ops on their own, one step after the other; returns the block's
    schedule and the cycle each step's words begin at.

    Without ``overlap`` a step begins when the previous one has written its last result.  With it, a
    step's ops may take the cycles from the start of the previous step's words on that the earlier
    steps leave free (the unit slots, ports and results they hold:
    :class:`~pairhw.program.schedule.Busy`), so a step's head fills the previous one's tail; its words
    begin the cycle after the previous step's last issue, and its priorities are its ops' paths
    through it and the ``lookahead`` steps that read their results (default :data:`LOOKAHEAD`)."""
    if not overlap:
        start, inst, units, starts = [], [], [], []
        at = 0
        for i, j in _spans(steps):
            sch = list_schedule(ops[i:j], dp, shared)
            start += [at + t for t in sch.start]
            inst += sch.inst
            units += sch.units
            starts.append(at)
            at += sch.length
        return BlockSchedule(start, inst, at, units), starts
    start, inst, units, starts = [], [], [], []
    ready: dict = {}  # value -> the cycle it can be read from its register
    taken: dict = {}  # (unit, instance) -> the cycles it is busy
    writes: dict = {}  # (bank, cycle) -> writes through the bank's limited ports
    reads: set = set()  # (bank, port, cycle) of the shared read ports taken
    # priorities: each op's path to its step's end, and on through the steps that read its result
    # as far as their own ends (what one list schedule of the whole program would see of them, cut
    # at the next step, so that a step between the same neighbours gets the same schedule)
    delay = [min(u.fwd_delay for u in dp.units_for(op.kind, op.k)) for op in ops]
    consumers: list = [[] for _ in ops]
    producer = {op.dst: k for k, op in enumerate(ops)}
    for k, op in enumerate(ops):
        for src, _ in op.srcs:
            if src in producer:
                consumers[producer[src]].append(k)
    local = [0] * len(ops)
    for k in reversed(range(len(ops))):
        local[k] = delay[k] + max((local[c] for c in consumers[k] if steps[c] == steps[k]), default=0)
    height = local
    for _ in range(lookahead):
        outer, height = height, [0] * len(ops)
        for k in reversed(range(len(ops))):
            height[k] = delay[k] + max((height[c] if steps[c] == steps[k] else outer[c] for c in consumers[k]),
                                       default=0)
    origin, cut, end = 0, 0, 0
    for i, j in _spans(steps):
        seg = ops[i:j]
        writes = {k: n for k, n in writes.items() if k[1] >= origin}
        reads = {r for r in reads if r[2] >= origin}
        taken = {k: {c for c in cs if c >= origin} for k, cs in taken.items()}
        busy = Busy({s: ready[s] - origin for op in seg for s, _ in op.srcs if ready.get(s, 0) > origin},
                    {(b, c - origin): n for (b, c), n in writes.items()},
                    {(b, p, c - origin) for b, p, c in reads},
                    {k: {c - origin for c in cs} for k, cs in taken.items() if cs},
                    height[i:j])
        sch = list_schedule(seg, dp, shared, busy)
        for op, t, g, u in zip(seg, sch.start, sch.inst, sch.units):
            t += origin
            start.append(t)
            inst.append(g)
            units.append(u)
            ready[op.dst] = t + u.delay
            taken.setdefault((u.name, g // u.lanes), set()).update(range(t, t + u.ii))
            wp = _wport(dp, op, u, shared)
            if wp:
                writes[(wp[0], t + u.latency)] = writes.get((wp[0], t + u.latency), 0) + 1
            reads.update((*r, t) for r in _rports(dp, op, u))
            end = max(end, t + max(u.delay, u.ii))
        starts.append(cut)
        # the next step's ops from this step's words on; its words from after this step's last issue.
        # A step with no words of its own (all its ops in the words before: a conjugation's
        # negations) keeps the origin, so the next step may still take the cycles those words leave
        nxt = max(cut, origin + max(sch.start) + 1 if sch.start else cut)
        if nxt > cut:
            origin, cut = cut, nxt
    return BlockSchedule(start, inst, max(end, cut), units), starts


def canonical(ops) -> tuple:
    """A step's ops with their sources named by position (an op of the step, or the step's n-th
    input in order of first use): equal for two occurrences of the same step."""
    local = {op.dst: i for i, op in enumerate(ops)}
    inputs: dict = {}
    out = []
    for op in ops:
        srcs = tuple(("l", local[s]) if s in local else ("i", inputs.setdefault(s, len(inputs))) for s, _ in op.srcs)
        out.append((op.kind, op.k, op.const, srcs))
    return tuple(out)


def _lives(flow, block: BlockSchedule, steps: list[int]) -> tuple[dict, dict, dict, dict]:
    """Per value of a block scheduled step by step: the cycle it is written (0: loaded), its step
    (-1: loaded), the cycle of its last read (an output: the block's end) and the steps that read it
    (``None`` for an output)."""
    written = {x: 0 for x in flow.inputs}
    step = {x: -1 for x in flow.inputs}
    last: dict = {}
    readers: dict = {}
    for r in block.records():
        op = flow.pre[r.op]
        written[op.dst] = r.ready
        step[op.dst] = steps[r.op]
        for s, _ in op.srcs:
            last[s] = max(last.get(s, -1), r.start)
            readers.setdefault(s, set()).add(steps[r.op])
    for o in flow.outputs:
        last[o] = block.length
        readers.setdefault(o, set()).add(None)
    return written, step, last, readers


def allocate_steps(flow, dp: Datapath, sched: Schedule, steps: list[int], allowed: dict) -> Allocation:
    """Registers for a block scheduled step after step (:func:`step_schedule` without overlap),
    chosen so that repeated steps get identical words (module docstring).  ``allowed``: value -> the banks that may hold it
    (:func:`~pairhw.program.regalloc.allowed_banks`)."""
    ops = flow.pre
    written, step, last, readers = _lives(flow, sched.pre, steps)
    bank_order = dp.bank_names()

    def bank_of(v):
        return min(allowed[v], key=bank_order.index)

    # scratch: a value read only in its own step, coloured within the step
    reg: dict = {}
    pool: dict = {}  # bank -> registers the scratch needs
    scratch = {v for v in written if step[v] >= 0 and readers.get(v, set()) <= {step[v]}}
    for i, j in _spans(steps):
        free_at: dict = {}
        for v in sorted((ops[k].dst for k in range(i, j) if ops[k].dst in scratch), key=lambda v: (written[v], v)):
            b = bank_of(v)
            regs = free_at.setdefault(b, [])
            k = next((k for k, f in enumerate(regs) if f < written[v]), None)
            if k is None:
                k = len(regs)
                regs.append(-1)
            regs[k] = max(last.get(v, written[v]), written[v])
            reg[v] = (b, k)
        for b, regs in free_at.items():
            pool[b] = max(pool.get(b, 0), len(regs))
    top = {b: pool.get(b, 0) for b in bank_order}

    # values that outlive their step: registers above the scratch, in order of their first cycle.  A
    # value passed from one step to the next (one reader step) joins its writer's output and its
    # reader's input into one home: a union of (step, output n) and (step, input n) places, which
    # takes one register wherever it is free, so a step that recurs finds its inputs, and leaves its
    # outputs, where it did before (a squaring's result in place of its input, trip after trip)
    bounds: dict = {b: [] for b in bank_order}  # bank -> per register above the scratch, its last occupied cycle
    size = {b.name: b.size for b in dp.banks}
    place: dict = {}  # value -> its writer's place ("out", step key, n) (the loaded inputs have none)
    reads: dict = {}  # value -> the places of its readers, ("in", step key, n)
    occ_keys: list = []  # each step's key, in order
    for i, j in _spans(steps):
        seg = ops[i:j]
        key = canonical(seg)
        occ_keys.append(key)
        local = {op.dst for op in seg}
        ins: dict = {}
        for n, op in enumerate(seg):
            place[op.dst] = ("out", key, n)
            for src, _ in op.srcs:
                if src not in local and src not in ins:
                    ins[src] = len(ins)
                    reads.setdefault(src, []).append(("in", key, ins[src]))
    parent: dict = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # only places of steps that recur have a home (a step run once gains nothing from one and would
    # keep its registers from everyone else)
    times: dict = {}
    for key in occ_keys:
        times[key] = times.get(key, 0) + 1
    outputs = set(flow.outputs)
    for v, rs in reads.items():
        if len(rs) == 1 and v not in outputs and v in place and times[place[v][1]] > 1 and times[rs[0][1]] > 1:
            parent[find(place[v])] = find(rs[0])
    home: dict = {}  # place class -> its registers [(bank, register)]
    homed: set = set()  # the registers that are a class's

    def free(b, k, t):
        """Register k of bank b (above the scratch) is free from cycle t on (a new one is)."""
        return k >= top[b] and (k - top[b] >= len(bounds[b]) or bounds[b][k - top[b]] < t)

    for v in sorted((v for v in written if v not in scratch), key=lambda v: (written[v], step[v], str(place.get(v)))):
        t, b = written[v], bank_of(v)
        cls = find(place[v]) if v in place and place[v] in parent else None
        # the class's registers in turn (a second one when a step writes its output before its last
        # read of the input it replaces: the two alternate), else the first free one
        k = next((k for hb, k in home.get(cls, ()) if hb == b and free(b, k, t)), None)
        if k is None:  # the first free register that is no class's: a home is not taken from its class
            regs = bounds[b]
            k = next((top[b] + n for n, f in enumerate(regs) if f < t and (b, top[b] + n) not in homed),
                     top[b] + len(regs))
            if cls is not None and len(home.get(cls, ())) < 2:
                home.setdefault(cls, []).append((b, k))
                homed.add((b, k))
        if size[b] is not None and k >= size[b]:
            raise ScheduleError(f"datapath.banks: {b} is full at cycle {t} of the schedule "
                                f"(size {size[b]}); give a larger size, or none")
        regs = bounds[b]
        while k - top[b] >= len(regs):
            regs.append(-1)
        regs[k - top[b]] = max(last.get(v, t), t)
        reg[v] = (b, k)

    alloc = Allocation()
    alloc.reg = reg
    for b in bank_order:
        alloc.used[b] = top[b] + len(bounds[b])
    return alloc


def fragments(mc: Microcode, cuts: list[int], min_share: int | None = None) -> Microcode:
    """The microcode with each distinct run of words between two cuts (word addresses where steps
    begin) stored once, and the run table that runs them in order; a run repeated back to back is one
    entry.

    A run seen before is one entry.  With ``min_share`` (the datapath's ``share``) a new run is
    covered greedily from its first word by the longest run of at least ``min_share`` words already
    stored (an entry of its own), and only what no such run covers is stored: the words of a step that
    differ from an earlier occurrence only where its neighbours' ops fall (its head and tail) share
    the earlier occurrence's middle.  Without it a new run is stored whole."""
    bounds = sorted(set(c for c in cuts if 0 < c < len(mc.words))) + [len(mc.words)]
    keys = [tuple(sorted(wd.items())) for wd in mc.words]
    words: list = []
    stored: list = []  # the keys of the stored words
    notes: list = []
    table: list = []
    seen: dict = {}  # a run's keys -> where it is stored, when stored in one piece
    grams: dict = {}  # the keys of min_share stored words -> where they begin (the latest first)

    def store(at, n):
        """Append the straight-line words at..at+n-1; returns where they begin."""
        first = len(words)
        words.extend(dict(wd) for wd in mc.words[at:at + n])
        stored.extend(keys[at:at + n])
        notes.extend(mc.comments[at:at + n] if mc.comments else [[] for _ in range(n)])
        if min_share:
            for q in range(max(0, first - min_share + 1), len(stored) - min_share + 1):
                grams.setdefault(tuple(stored[q:q + min_share]), []).insert(0, q)
        return first

    def entry(first, last_word):
        if table and table[-1].count == 1 and table[-1].end + 1 == first:  # the words that follow in the ROM
            table[-1] = Run(table[-1].start, last_word, 1)
        else:
            table.append(Run(first, last_word, 1))

    def longest(at, end):
        """The longest stored run equal to the straight-line words from ``at`` (before ``end``)."""
        if min_share is None:
            return 0, None
        best, where = 0, None
        for q in grams.get(tuple(keys[at:at + min_share]), ())[:64] if end - at >= min_share else ():
            n = min_share
            while at + n < end and q + n < len(stored) and stored[q + n] == keys[at + n]:
                n += 1
            if n > best:
                best, where = n, q
        return best, where

    at = 0
    for b in bounds:
        key = tuple(keys[at:b])
        if key in seen:
            entry(seen[key], seen[key] + b - at - 1)
        else:
            pieces, p, lit = [], at, at
            while p < b:
                n, q = longest(p, b)
                if n:
                    if lit < p:
                        pieces.append((store(lit, p - lit), p - lit))
                    pieces.append((q, n))
                    p += n
                    lit = p
                else:
                    p += 1
            if lit < b:
                pieces.append((store(lit, b - lit), b - lit))
            for first, n in pieces:
                entry(first, first + n - 1)
            if len(pieces) == 1:
                seen[key] = pieces[0][0]
        # an entry equal to the one before: once more (two steps that alternate repeat as a pair)
        if len(table) > 1 and (table[-2].start, table[-2].end) == (table[-1].start, table[-1].end):
            table[-2:] = [Run(table[-2].start, table[-2].end, table[-2].count + 1)]
        at = b
    return Microcode(mc.dp, mc.layout, words, None, mc.sizes, mc.inputs, mc.outputs, mc.consts, notes, table)


def interleave(ops, steps: list[int], inputs, k: int) -> tuple[list, list[int]]:
    """The ops of a batch of ``k`` pairings traced one after another, reordered so that their steps
    take turns: step 1 of each pairing, then step 2 of each, … (``inputs``: the batch's inputs, each
    pairing's ``len(inputs) // k`` in turn).  A pairing's ops keep their order, and no op reads
    another pairing's values (an op the lowering made, a constant, goes with the op after it), so
    the order is a schedule's as well; what it changes is what :func:`step_schedule` overlaps: a
    step of one pairing fills the tail of the same step of the one before, where its own next step
    would wait for the multiplier's latency.  Returns the ops and their steps (numbered anew)."""
    n = len(inputs) // k
    of = {x: i // n for i, x in enumerate(inputs)}
    for op in ops:
        mine = {of[s] for s, _ in op.srcs if s in of}
        if len(mine) > 1:
            raise ScheduleError(f"datapath.interleave: {op.dst} reads values of pairings {sorted(mine)} of the "
                                "batch (its pairings must be independent)")
        if mine:
            of[op.dst] = mine.pop()
    pairing, nxt = [0] * len(ops), 0
    for i in reversed(range(len(ops))):  # a constant goes with the op after it, as its step does
        nxt = of.get(ops[i].dst, nxt)
        pairing[i] = nxt
    first: dict = {}
    for i, st in enumerate(steps):
        first.setdefault(pairing[i], st)
    local = [st - first[pairing[i]] for i, st in enumerate(steps)]
    order = sorted(range(len(ops)), key=lambda i: (local[i], pairing[i], i))
    return [ops[i] for i in order], [local[i] * k + pairing[i] for i in order]


def compile_steps(flow, dp: Datapath, program, shared=frozenset()):
    """Schedule, allocate and assemble a straight-line flow step by step; returns (schedule,
    allocation, microcode with its run table).  With ``dp.interleave`` a batch's pairings take
    turns step by step (:func:`interleave`)."""
    if flow.body or flow.post:
        raise ScheduleError("datapath.calls: the program folds into a loop; calls are for straight-line "
                            "programs (the prime-field pairings)")
    steps = step_of(program, flow.pre)
    if dp.interleave:
        pre_ops, steps = interleave(flow.pre, steps, dp.F.pairing_inputs, dp.F.batch)
        flow = replace(flow, pre=pre_ops)
    pre, starts = step_schedule(flow.pre, steps, dp, shared, dp.calls == "overlap",
                                LOOKAHEAD if dp.lookahead is None else dp.lookahead)
    empty = BlockSchedule([], [], 0, [])
    sched = Schedule(pre, LoopSchedule([], [], 1, 1, 0, [], []), empty, Timeline(pre.length, pre.length, pre.length))
    allowed = allowed_banks(flow, dp, sched)
    alloc = (allocate_replay(flow, dp, sched, steps, starts, allowed) if dp.calls == "overlap"
             else allocate_steps(flow, dp, sched, steps, allowed))
    cuts = list(starts)
    mc = assemble(flow, dp, sched, alloc, cuts)
    return sched, alloc, fragments(mc, cuts, dp.share)


def allocate_replay(flow, dp: Datapath, sched: Schedule, steps: list[int], starts: list[int], allowed: dict
                    ) -> Allocation:
    """Registers for a block scheduled with overlapping steps (:func:`step_schedule`), chosen so that
    identically scheduled steps get identical words.

    Overlapping, a step's values share the cycles of its neighbours' values, so a register fixed per
    step place (:func:`allocate_steps`' homes) is often taken, and one taken home moves every value
    after it.  Here each step is allocated as a whole, in order: the registers of an earlier step with
    the same ops and the same schedule relative to its first word (a *template*) are taken again where
    they are free from the value's write to its last read, the template chosen that needs no other
    register and reads the step's inputs where they are; what no template gives takes the lowest
    free register, and the step's registers become a template of their own.  Values read more than
    :data:`NEAR` steps after their own (the datapath's ``near_steps``; the powers an exponentiation
    keeps, the Miller loop's points) take registers above the others, so that they do not push a
    recurring step's values elsewhere.
    Every register is checked free over each value's whole life, so the allocation is valid whatever
    the templates give (:meth:`~pairhw.program.microcode.Microcode.run` checks the words).  With
    ``"allocate": "copies"`` the register is the one that keeps the LUT RAM copies of the value's
    readers shallowest instead of the lowest, and a template's only where every reader reads it
    already (docs/ARCHITECTURE.md, "Registers for shallow copies")."""
    ops, block = flow.pre, sched.pre
    written, at_step, last, readers = _lives(flow, block, steps)
    near = NEAR if dp.near_steps is None else dp.near_steps
    far = {v for v in written  # an output, a loaded value, or one read more than near steps on
           if None in readers.get(v, ()) or at_step[v] < 0 or max(readers.get(v, {at_step[v]})) - at_step[v] > near}
    bank_order = dp.bank_names()
    size = {b.name: b.size for b in dp.banks}
    # a register is (bank, region, k): region 1 holds the far values, placed above region 0 at the end
    lives: dict = {(b, g): [] for b in bank_order for g in (0, 1)}  # -> per register, sorted (write, last read)

    def where(v):
        return min(allowed[v], key=bank_order.index), int(v in far)

    def life(v):
        return written[v], max(last.get(v, written[v]), written[v])

    def free(bg, k, lo, hi):
        regs = lives[bg]
        if k >= len(regs):
            return True
        ivs = regs[k]
        n = bisect.bisect_left(ivs, (lo, -1))
        return not (n < len(ivs) and ivs[n][0] <= hi) and not (n > 0 and ivs[n - 1][1] >= lo)

    reg: dict = {}
    # allocate copies: a port's LUT RAM copy of a bank holds the registers it reads (ram_control local,
    # connect program), with its word of zeros 32 words a RAM32M deep, 64 a RAM64M; a value takes the
    # free register that makes the fewest copies deeper, then adds the fewest registers to copies,
    # then is read by the fewest other ports (each port's registers kept its own), then the lowest
    copies = dp.allocate == "copies"
    fields: dict = {}  # value -> the word's read fields (unit inputs) that read it
    zero: dict = {}  # field -> 1 if its copies hold a word of zeros (Datapath.zeroed_copies)
    reach: dict = {}  # (field, bank) -> the registers (region, k) it reads
    owners: dict = {}  # (bank, region, k) -> the fields that read it
    if copies:
        for r in block.records():
            u, names = r.unit, r.unit.instance_names()
            for port, (s, _) in enumerate(ops[r.op].srcs):
                q = names[r.slot - r.slot % u.lanes] if port == 1 else names[r.slot]  # a lane's b is lane 0's
                f = read_key(dp, u, q, port)
                fields.setdefault(s, set()).add(f)
                zero[f] = int(dp.zeroed_copies(u, port))

    def added(v, bg, k) -> tuple[int, int]:
        """The copies made deeper than a multiple of 32 words (a RAM32M's; or made at all) and the
        copies reaching a register more, if v takes register (bg, k)."""
        deeper = more = 0
        for f in fields.get(v, ()):
            got = reach.get((f, bg[0]), ())
            if (bg[1], k) not in got:
                more += 1
                deeper += not got or (len(got) + zero[f]) % 32 == 0
        return deeper, more

    def take(v, bg, k):
        regs = lives[bg]
        while k >= len(regs):
            regs.append([])
        bisect.insort(regs[k], life(v))
        reg[v] = (bg, k)
        for f in fields.get(v, ()):
            reach.setdefault((f, bg[0]), set()).add((bg[1], k))
            owners.setdefault((*bg, k), set()).add(f)

    def lowest(v):
        bg, (lo, hi) = where(v), life(v)
        if copies:
            mine = fields.get(v, set())
            k = min((k for k in range(len(lives[bg]) + 1) if free(bg, k, lo, hi)),
                    key=lambda k: (*added(v, bg, k), len(owners.get((*bg, k), set()) - mine), k))
            take(v, bg, k)
            return
        k = 0
        while not free(bg, k, lo, hi):
            k += 1
        take(v, bg, k)

    for x in flow.inputs:
        lowest(x)
    templates: dict = {}  # (ops, relative schedule) -> [(input registers, output registers)]
    for n, (i, j) in enumerate(_spans(steps)):
        seg = ops[i:j]
        shape = (canonical(seg), tuple((block.start[k] - starts[n], block.inst[k], block.units[k].name)
                                       for k in range(i, j)))
        local = {op.dst for op in seg}
        ins: list = []
        for op in seg:
            ins += [s for s, _ in op.srcs if s not in local and s not in ins]
        now_in = tuple(reg[s] for s in ins)
        best, score = None, None
        for t_in, t_out in templates.get(shape, ()):
            fits = sum(1 for op, r in zip(seg, t_out) if r[0] == where(op.dst) and free(*r, *life(op.dst)))
            sc = (fits == len(seg), sum(a == b for a, b in zip(now_in, t_in)), fits)
            if score is None or sc > score:
                best, score = t_out, sc
        for m in sorted(range(len(seg)), key=lambda m: (written[seg[m].dst], m)):
            v = seg[m].dst
            # (allocate copies: a template's register only where the value's ports read it already)
            if (best is not None and best[m][0] == where(v) and free(*best[m], *life(v))
                    and not (copies and added(v, *best[m])[1])):
                take(v, *best[m])
            else:
                lowest(v)
        got = (now_in, tuple(reg[op.dst] for op in seg))
        known = templates.setdefault(shape, [])
        if got not in known and len(known) < TEMPLATES:
            known.append(got)
    alloc = Allocation()
    for b in bank_order:
        alloc.used[b] = len(lives[(b, 0)]) + len(lives[(b, 1)])
        if size[b] is not None and alloc.used[b] > size[b]:
            raise ScheduleError(f"datapath.banks: {b} is full (the schedule needs {alloc.used[b]} registers, "
                                f"size {size[b]}); give a larger size, or none")
    alloc.reg = {v: (b, k + (len(lives[(b, 0)]) if g else 0)) for v, ((b, g), k) in reg.items()}
    return alloc
