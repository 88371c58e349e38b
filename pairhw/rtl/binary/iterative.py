"""IterKaratsubaMul: seed 003's iterative Karatsuba multiplier (K153, K77)."""

from __future__ import annotations

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib.memory import Memory

from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from pairhw.rtl.binary.plan import field_mul_by_plan, poly_plan
from .sequential import SequentialMul


class IterKaratsubaMul(SequentialMul):
    """Seed 003's iterative Karatsuba multiplier (K153: three steps, 27 partial products of 153 bits;
    K77: four steps, 81 of 77 bits), after Dyka and Langendoerfer.

    The operands are read one w-bit word per cycle from two single-port memories (one per operand,
    modelled as registers with a word-select read port).  Each core operand is formed in a
    pre-multiplication XOR register X (load a word, XOR in a word, XOR in or copy a PMX register);
    ``pmx`` PMX registers per port keep partial sums.  The microcode (a ROM) is derived here from the
    plan and checked symbolically (:meth:`check_microcode`):

    * one PMX pair (K153, seed 003): a group of last-level products (L, H, M) whose operands are
      sums of k words costs 2k + 1 cycles; the pair keeps L so that M = L + H costs one cycle;
    * three PMX pairs (K77, seed 003 §III): for each node above the last level, the registers also
      accumulate the L and H operands of its M group while its L and H groups are formed, so the M
      group costs 2 cycles instead of 4k + 1: 4k + 4 cycles per node.

    Each group's last product overlaps the next group's first read.  The 2n-1-bit result register
    then takes one cycle to reduce.  Initiation interval: the microcode length (K153 41 cycles with
    one pair; K77 100 with three, 155 with one), latency II + 4; ``stages`` 2 or 3 registers the
    core's base products (and their operands) as :class:`SequentialMul`'s do, a cycle more latency
    each, the product's tag delayed with them.
    """

    # X update: load a word, XOR a word in, XOR a PMX register in, copy a PMX register
    XOPS = {"ld": 0, "acc": 1, "xp": 2, "rp": 3}
    # PMX register update: hold, set to X, XOR X in
    POPS = {"hold": 0, "set": 1, "acc": 2}

    def __init__(self, F: GF2m, word: int, levels: int, core_schedule=(), pmx: int | None = None,
                 stages: int | None = None):
        n = word << levels
        if n < F.m or (word << (levels - 1)) >= F.m + word:
            raise ValueError(f"{levels} Karatsuba steps of {word}-bit words do not fit m = {F.m}")
        if pmx is None:
            pmx = 3 if levels >= 4 else 1
        if pmx not in (1, 3) or (pmx == 3 and levels < 2):
            raise ValueError("pmx must be 1 or 3 (3 needs at least two Karatsuba steps)")
        self.word = word
        self.levels = levels
        self.pmx = pmx
        plan = poly_plan(n, (2,) * levels)
        super().__init__(F, plan, core_schedule, reduce_cycle=True, label=f"IterKara{word}", stages=stages or 1)
        if pmx != 1:
            self.name += f"_pmx{pmx}"
        self.microcode = self._microcode()
        self.check_microcode()

    def _words(self, terms):
        out = []
        for off, ln in terms:
            if off % self.word or ln != self.word:
                raise AssertionError("iterative Karatsuba terms must be whole memory words")
            out.append(off // self.word)
        return out

    def _group(self, g):
        """Products (L, M, H) of innermost group g and the word lists of the L and H operands."""
        P = self.plan
        pl, pm, ph = P.products[3 * g:3 * g + 3]
        if sorted(pm.a_terms) != sorted(pl.a_terms + ph.a_terms):
            raise AssertionError("plan order is not (L, M, H) per innermost group")
        return (3 * g, 3 * g + 1, 3 * g + 2,
                (self._words(pl.a_terms), self._words(pl.b_terms)),
                (self._words(ph.a_terms), self._words(ph.b_terms)))

    def _microcode(self):
        """List of cycles (a_word, b_word, xop, xreg, pmx_ops, issue); ``issue`` is a product index
        or None, ``pmx_ops`` one POPS name per PMX register."""
        code = []
        state = {"pending": None}
        hold = ("hold",) * self.pmx

        def cyc(ab, xop, xreg=0, pops=hold, issue=None):
            a, b = ab if ab is not None else (0, 0)
            code.append((a, b, xop, xreg, pops, issue))

        def pops(**kw):
            return tuple(kw.get(f"r{i}", "hold") for i in range(self.pmx))

        def form(words, first_issue, first_pops=hold):
            """k cycles: load the first word (issuing ``first_issue``), XOR in the others."""
            wa, wb = words
            for i in range(len(wa)):
                if i == 0:
                    cyc((wa[0], wb[0]), "ld", 0, first_pops, first_issue)
                else:
                    cyc((wa[i], wb[i]), "acc")

        ngroups = len(self.plan.products) // 3
        if self.pmx == 1:
            for g in range(ngroups):
                pl, pm, ph, lw, hw = self._group(g)
                form(lw, state["pending"])
                form(hw, pl, pops(r0="set"))
                cyc(None, "xp", 0, hold, ph)          # X = H + L: the M operand
                state["pending"] = pm
        else:
            for node in range(ngroups // 3):
                gl, gm, gh = 3 * node, 3 * node + 1, 3 * node + 2
                lL, lM, lH, lLw, lHw = self._group(gl)
                mL, mM, mH, _, _ = self._group(gm)
                hL, hM, hH, hLw, hHw = self._group(gh)
                # G_L: r1 = L_L (also for M_L), r2 = H_L
                form(lLw, state["pending"])
                form(lHw, lL, pops(r1="set"))
                cyc(None, "xp", 1, pops(r2="set"), lH)            # X = M_L operand
                # G_H: r0 = L_H, r1 += L_H (→ the L operand of G_M), r2 += H_H (→ its H operand)
                form(hLw, lM)
                form(hHw, hL, pops(r0="set", r1="acc"))
                cyc(None, "xp", 0, pops(r2="acc"), hH)            # X = M_H operand
                cyc(None, "rp", 1, hold, hM)                      # X = L of G_M
                # G_M from the registers alone
                cyc(None, "rp", 2, hold, mL)                      # X = H of G_M
                cyc(None, "xp", 1, hold, mH)                      # X = M of G_M
                state["pending"] = mM
        self._tail_issue = state["pending"]
        return code

    def check_microcode(self) -> None:
        """Run the microcode on symbols (sets of word indices, XOR = symmetric difference) and check
        that every product issues exactly once, product 0 first, on the plan's operands."""
        P = self.plan
        x = [frozenset(), frozenset()]
        regs = [[frozenset(), frozenset()] for _ in range(self.pmx)]
        issued = []

        def want(s):
            p = P.products[s]
            return [frozenset(self._words(p.a_terms)), frozenset(self._words(p.b_terms))]

        def check_issue(s):
            if x != want(s):
                raise AssertionError(f"microcode issues product {s} on the wrong operands")
            issued.append(s)

        for a, b, xop, xreg, pops, issue in self.microcode:
            if issue is not None:
                check_issue(issue)
            words = [frozenset((a,)), frozenset((b,))]
            newx = {"ld": words, "acc": [x[i] ^ words[i] for i in (0, 1)],
                    "xp": [x[i] ^ regs[xreg][i] for i in (0, 1)], "rp": list(regs[xreg])}[xop]
            for r, op in enumerate(pops):
                if op == "set":
                    regs[r] = list(x)
                elif op == "acc":
                    regs[r] = [regs[r][i] ^ x[i] for i in (0, 1)]
            x = newx
        check_issue(self._tail_issue)
        if issued[0] != 0 or sorted(issued) != list(range(len(P.products))):
            raise AssertionError("microcode does not issue every product once, product 0 first")

    @property
    def last_issue(self) -> int:
        return self._tail_issue

    @property
    def initiation_interval(self) -> int:
        return len(self.microcode)

    @property
    def latency(self) -> int:
        return self.initiation_interval + 3 + self.stages

    def emulate(self, a: int, b: int) -> int:
        return field_mul_by_plan(self.F, self.plan, a, b, self.core_schedule)

    def _rom(self, m):
        """The microcode ROM (comb read) and a function giving a field of a word."""
        P = self.plan
        S = len(P.products)
        U = len(self.microcode)
        R = self.pmx
        nwords = P.n // self.word
        abits = (nwords - 1).bit_length() or 1
        ibits = S.bit_length()
        rbits = 2 if R > 1 else 1
        # ROM word: a_addr | b_addr | xop (2) | xreg (rbits) | 2 bits per PMX register | issue
        fields = [("a", abits), ("b", abits), ("xop", 2), ("xreg", rbits)]
        fields += [(f"p{r}", 2) for r in range(R)] + [("iss", ibits), ("iss_v", 1)]
        pos, at = {}, 0
        for name, width in fields:
            pos[name] = (at, width)
            at += width
        rom_init = []
        for aw, bw, xop, xreg, pops, issue in self.microcode:
            vals = {"a": aw, "b": bw, "xop": self.XOPS[xop], "xreg": xreg,
                    "iss": 0 if issue is None else issue, "iss_v": int(issue is not None)}
            vals.update({f"p{r}": self.POPS[op] for r, op in enumerate(pops)})
            rom_init.append(sum(vals[n] << pos[n][0] for n, _ in fields))
        m.submodules.rom = rom = Memory(shape=at, depth=U, init=rom_init)
        rd = rom.read_port(domain="comb")

        def field(word, name):
            lo, width = pos[name]
            return word[lo:lo + width]

        return rd, field

    def _pipeline(self, m, busy, upc, word, field, ra, rb):
        """X and PMX registers, the core, the accumulator: microcode word ``word`` acts on the memory
        words ``ra``, ``rb`` in the cycles ``busy`` is high (``upc`` its index)."""
        P, w = self.plan, self.word
        S = len(P.products)
        U = len(self.microcode)
        R = self.pmx
        xop, xreg = field(word, "xop"), field(word, "xreg")
        iss_v, iss_i = field(word, "iss_v"), field(word, "iss")
        tail = Signal(name="tail")
        m.d.sync += tail.eq(busy & (upc == U - 1))
        xa, xb = Signal(w, name="x_a"), Signal(w, name="x_b")
        pa = [Signal(w, name=f"pmx{r}_a") for r in range(R)]
        pb = [Signal(w, name=f"pmx{r}_b") for r in range(R)]
        sel_a, sel_b = Signal(w, name="pmx_sel_a"), Signal(w, name="pmx_sel_b")
        if R == 1:
            m.d.comb += [sel_a.eq(pa[0]), sel_b.eq(pb[0])]
        else:
            with m.Switch(xreg):
                for r in range(R):
                    with m.Case(r):
                        m.d.comb += [sel_a.eq(pa[r]), sel_b.eq(pb[r])]
        with m.If(busy):
            with m.Switch(xop):
                with m.Case(self.XOPS["ld"]):
                    m.d.sync += [xa.eq(ra), xb.eq(rb)]
                with m.Case(self.XOPS["acc"]):
                    m.d.sync += [xa.eq(xa ^ ra), xb.eq(xb ^ rb)]
                with m.Case(self.XOPS["xp"]):
                    m.d.sync += [xa.eq(xa ^ sel_a), xb.eq(xb ^ sel_b)]
                with m.Case(self.XOPS["rp"]):
                    m.d.sync += [xa.eq(sel_a), xb.eq(sel_b)]
            for r in range(R):
                with m.Switch(field(word, f"p{r}")):
                    with m.Case(self.POPS["set"]):
                        m.d.sync += [pa[r].eq(xa), pb[r].eq(xb)]
                    with m.Case(self.POPS["acc"]):
                        m.d.sync += [pa[r].eq(pa[r] ^ xa), pb[r].eq(pb[r] ^ xb)]
        # the core multiplies X in the issue cycle; result and tag registered
        core = self._core(m, xa, xb)
        pr = Signal(P.core_out_width, name="preg")
        v2 = Signal(name="v2")
        s2 = Signal(range(max(S, 2)), name="s2")
        v1, s1 = (busy & iss_v) | tail, Mux(tail, self.last_issue, iss_i)
        for k in range(self.stages - 1):  # the core's own registers: the issue's tag as many cycles later
            v1q, s1q = Signal(name=f"v1_q{k}"), Signal.like(s2, name=f"s1_q{k}")
            m.d.sync += [v1q.eq(v1), s1q.eq(s1)]
            v1, s1 = v1q, s1q
        m.d.sync += pr.eq(core)
        m.d.sync += [v2.eq(v1), s2.eq(s1)]
        self._accumulate(m, v2, s2, pr)

    def attach(self, m, run, upc, ra, rb):
        """Build the unit inside module ``m`` fed from synchronous memories: while ``run`` is high
        ``upc`` steps through the microcode; the word addresses (returned, of the current ``upc``) are
        read one cycle later as ``ra``, ``rb``, so the microcode acts one cycle late.  The product is on
        ``self.c`` when ``self.done`` is high: ``II + 1 + (latency − II)`` cycles after ``upc`` = 0."""
        rd, field = self._rom(m)
        m.d.comb += rd.addr.eq(upc)
        word_d = Signal(rd.data.shape(), name="ucode_d")
        run_d = Signal(name="run_d")
        upc_d = Signal.like(upc, name="upc_d")
        m.d.sync += [word_d.eq(rd.data), run_d.eq(run), upc_d.eq(upc)]
        self._pipeline(m, run_d, upc_d, word_d, field, ra, rb)
        return field(rd.data, "a"), field(rd.data, "b")

    def elaborate(self, platform):
        m = Module()
        F, P, w = self.F, self.plan, self.word
        U = len(self.microcode)
        nwords = P.n // w
        rd, field = self._rom(m)
        upc = Signal(range(max(U, 2)), name="upc")
        m.d.comb += rd.addr.eq(upc)
        a_addr, b_addr = field(rd.data, "a"), field(rd.data, "b")
        areg = Signal(F.m, name="mem_a")
        breg = Signal(F.m, name="mem_b")
        busy = Signal(name="busy")
        with m.If(busy):
            m.d.sync += upc.eq(upc + 1)
            with m.If(upc == U - 1):
                m.d.sync += [busy.eq(0), upc.eq(0)]
        with m.If(self.start):
            m.d.sync += [areg.eq(self.a), breg.eq(self.b), busy.eq(1), upc.eq(0)]

        # single-port memory read: one word of each operand per cycle
        ra = Signal(w, name="rd_a")
        rb = Signal(w, name="rd_b")
        with m.Switch(a_addr):
            for i in range(nwords):
                with m.Case(i):
                    m.d.comb += ra.eq(nets.window_value(areg, F.m, i * w, w))
        with m.Switch(b_addr):
            for i in range(nwords):
                with m.Case(i):
                    m.d.comb += rb.eq(nets.window_value(breg, F.m, i * w, w))
        self._pipeline(m, busy, upc, rd.data, field, ra, rb)
        return m
