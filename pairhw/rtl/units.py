"""F_2^m arithmetic units as Amaranth components, each generated from the golden model.

Multiplier contract (every :class:`MulUnit`): ``a`` and ``b`` are sampled in the cycle where
``start`` is high; ``c`` holds the product from ``latency`` cycles later, when ``done`` pulses for one
cycle, until the next result.  ``start`` may be raised again every ``initiation_interval`` cycles
(earlier is not allowed).  The cycle count never depends on the operand values.

Combinational units (:class:`Adder`, :class:`Squarer`, :class:`SquareRoot`) have latency 0: the
datapath registers around them.
"""

from __future__ import annotations

from functools import reduce
from operator import or_

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from pairhw.math import mulalg
from pairhw.math.gf2m import GF2m

from . import nets
from .plan import Plan, field_mul_by_plan, poly_plan


def _sched_str(schedule) -> str:
    return "".join(str(k) for k in schedule) or "0"


def reduction_columns(F: GF2m, width: int) -> list[int]:
    """Columns of the reduction map F_2[x]_{<width} → F_2^m: x^j ↦ x^j mod f."""
    return [F.reduce(1 << j) for j in range(width)]


def toeplitz_columns(F: GF2m) -> list[int]:
    """Columns of the CONVERTOR map a ↦ diagonals of T_A (seed 000 §3.1, Fig. 1)."""
    return [mulalg.field_toeplitz(F, 1 << j) for j in range(F.m)]


# ---------------------------------------------------------------------------------------------
# combinational units


class LinearUnit(wiring.Component):
    """c = L(a) for an F_2-linear map L given by the images of the basis (latency 0).

    Attributes
    ----------
    xor_count : int
        Two-input XOR gates of the network (no sharing between output bits).
    """

    latency = 0
    initiation_interval = 1
    # units are often built only to read their latency, II or gate counts: no "never used" warning
    _MustUse__silence = True

    def __init__(self, F: GF2m, columns, name: str):
        self.F = F
        self.columns = list(columns)
        self.name = name
        super().__init__({"a": In(F.m), "c": Out(F.m)})

    @property
    def xor_count(self) -> int:
        return nets.linear_xor_count(self.columns, self.F.m)

    def elaborate(self, platform):
        m = Module()
        y = nets.linear_net(m, self.a, self.columns, self.F.m, "y")
        m.d.comb += self.c.eq(y)
        return m


class Squarer(LinearUnit):
    """k-fold squarer a ↦ a^(2^k) in one combinational XOR network (seed 000 §2).

    The network is derived from the model: column j is ``F.sqr_k(x^j, k)``.
    """

    def __init__(self, F: GF2m, k: int = 1):
        self.k = k
        super().__init__(F, [F.sqr_k(1 << j, k) for j in range(F.m)], f"Sqr_m{F.m}_k{k}")

    def emulate(self, a: int) -> int:
        return self.F.sqr_k(a, self.k)


class SquareRoot(LinearUnit):
    """k-fold square root a ↦ a^(2^-k) in one combinational XOR network (seed 000 §2)."""

    def __init__(self, F: GF2m, k: int = 1):
        self.k = k
        super().__init__(F, [F.sqrt_k(1 << j, k) for j in range(F.m)], f"Sqrt_m{F.m}_k{k}")

    def emulate(self, a: int) -> int:
        return self.F.sqrt_k(a, self.k)


class PowerUnit(wiring.Component):
    """c = a^(2^k) (``sqr``) or a^(2^-k) (``sqrt``) for k = ks[sel], latency 0.

    One :class:`Squarer` or :class:`SquareRoot` network per k behind a shared input, and a mux
    on ``sel`` (present only when ``ks`` has several powers).  Seed 000 §5's two squarers in
    series are ``ks = (1, 2)`` built as two direct networks.
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF2m, kind: str, ks=(1,)):
        if kind not in ("sqr", "sqrt"):
            raise ValueError(f"a power unit is sqr or sqrt, not {kind!r}")
        self.F, self.kind, self.ks = F, kind, tuple(ks)
        cls = Squarer if kind == "sqr" else SquareRoot
        self.nets = [cls(F, k) for k in self.ks]
        self.name = f"{cls.__name__}_m{F.m}_k{'_'.join(map(str, self.ks))}"
        sig = {"a": In(F.m), "c": Out(F.m)}
        if len(self.ks) > 1:
            sig["sel"] = In(range(len(self.ks)))
        super().__init__(sig)

    @property
    def xor_count(self) -> int:
        return sum(n.xor_count for n in self.nets)

    def emulate(self, a: int, sel: int = 0) -> int:
        return self.nets[sel].emulate(a)

    def elaborate(self, platform):
        m = Module()
        outs = []
        for k, net in zip(self.ks, self.nets):
            m.submodules[f"k{k}"] = net
            m.d.comb += net.a.eq(self.a)
            outs.append(net.c)
        if len(outs) == 1:
            m.d.comb += self.c.eq(outs[0])
        else:
            with m.Switch(self.sel):
                for i, o in enumerate(outs):
                    with m.Case(i):
                        m.d.comb += self.c.eq(o)
        return m


class Adder(wiring.Component):
    """c = a + b in F_2^m: m XOR gates, latency 0."""

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF2m):
        self.F = F
        self.name = f"Add_m{F.m}"
        super().__init__({"a": In(F.m), "b": In(F.m), "c": Out(F.m)})

    @property
    def xor_count(self) -> int:
        return self.F.m

    def emulate(self, a: int, b: int) -> int:
        return a ^ b

    def elaborate(self, platform):
        m = Module()
        m.d.comb += self.c.eq(self.a ^ self.b)
        return m


# ---------------------------------------------------------------------------------------------
# multipliers


class MulUnit(wiring.Component):
    """Base of the F_2^m multipliers: ports ``a``, ``b``, ``start`` in; ``c``, ``done`` out."""

    _MustUse__silence = True
    #: True when the unit instantiates Xilinx ``LUT6`` primitives (:data:`pairhw.rtl.nets.LUT6_MODEL`
    #: simulates them); the Amaranth simulator cannot run such a unit.
    lut6 = False

    def __init__(self, F: GF2m):
        self.F = F
        super().__init__({"a": In(F.m), "b": In(F.m), "start": In(1), "c": Out(F.m), "done": Out(1)})

    def emulate(self, a: int, b: int) -> int:
        """The model's product along the same algorithm (for tests and vector files)."""
        raise NotImplementedError

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(),
                "latency": self.latency, "ii": self.initiation_interval}


def _final_rotate(F: GF2m, cp):
    """C from C' = T_A·B: C_i = C'_((i - k) mod m) (seed 000 §3.1, the swap U⁻¹)."""
    m, k = F.m, F.middle[0]
    return Cat(cp[m - k:m], cp[0:m - k])


def _require_trinomial(F: GF2m, what: str):
    if len(F.middle) != 1:
        raise ValueError(f"{what} needs a trinomial field (seed 000 §3.1); {F.poly_str()} is not one")


class ParallelMul(MulUnit):
    """Fully parallel multiplier: one product per cycle, latency 1 (output register).

    Parameters
    ----------
    F : GF2m
    method : {"schoolbook", "karatsuba", "tmvp"}
        Polynomial product then reduction (schoolbook, Karatsuba) or seed 000's
        C = swap(T_A·B) with a recursive TMVP.
    schedule : tuple of int
        Splits (2 or 3) outermost first, down to a schoolbook base; seed 000 §3.2 uses
        (3, 3, 3, 2) for 408 → 136 → 46 → 16 → 8.
    lut6 : bool
        Build the schoolbook base products from hand-packed Xilinx ``LUT6`` primitives
        (:func:`pairhw.rtl.nets.lut6_sum_of_products`; a TMVP's last split adds its output blocks in
        the base rows' spare inputs, :func:`pairhw.rtl.nets.tmvp_net`); name suffix ``_l6``.
    """

    latency = 1
    initiation_interval = 1

    def __init__(self, F: GF2m, method: str = "karatsuba", schedule=(), lut6: bool = False):
        if method == "tmvp":
            _require_trinomial(F, "a TMVP multiplier")
        if method not in ("schoolbook", "karatsuba", "tmvp"):
            raise ValueError(f"unknown parallel method {method!r}")
        self.method = method
        self.schedule = tuple(schedule) if method != "schoolbook" else ()
        self.lut6 = bool(lut6)
        self.name = f"{method.capitalize()}Mul_m{F.m}_s{_sched_str(self.schedule)}" + ("_l6" if lut6 else "")
        super().__init__(F)

    def emulate(self, a: int, b: int) -> int:
        if self.method == "tmvp":
            return mulalg.field_mul_tmvp(self.F, a, b, self.schedule)
        if self.method == "karatsuba":
            return mulalg.field_mul_karatsuba(self.F, a, b, self.schedule)
        return mulalg.field_mul_schoolbook(self.F, a, b)

    def elaborate(self, platform):
        m = Module()
        F = self.F
        if self.method == "tmvp":
            t = nets.linear_net(m, self.a, toeplitz_columns(F), 2 * F.m - 1, "tdiag")
            cp = nets.tmvp_net(m, t, self.b, F.m, self.schedule, "tmvp", self.lut6)
            res = _final_rotate(F, cp)
        else:
            p = nets.karatsuba_net(m, self.a, self.b, F.m, self.schedule, "pm", self.lut6)
            res = nets.linear_net(m, p, reduction_columns(F, 2 * F.m - 1), F.m, "red")
        done = Signal()
        c = Signal(F.m)
        with m.If(self.start):
            m.d.sync += c.eq(res)
        m.d.sync += done.eq(self.start)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m


class SequentialMul(MulUnit):
    """Hybrid sequential/parallel multiplier: a :class:`~pairhw.rtl.plan.Plan` on one parallel core.

    Pipeline (seed 000 Fig. 1): input registers (Tin/Rin); per step the Tnet/Vnet XOR networks feed
    registered core operands (Tint/Rint); the core's output is registered; OUTnet adds it into the
    accumulator (cleared by the first sub-product, so consecutive products overlap).  Tnet (with the
    CONVERTOR folded in) and Vnet are :func:`~pairhw.rtl.nets.flagged_xor_net`: each operand bit is
    the XOR of the bits of A (B) it ever uses, each gated by a registered flag that is high in the
    steps that use it (:meth:`~pairhw.rtl.plan.Plan.operand_cases`), rather than a step multiplexer
    over per-step XORs, which Yosys maps at several LUTs per bit (README, Table 2).  Latency
    ``S + 3`` and initiation interval ``S`` for S sub-products; with ``reduce_cycle`` (Ghosh et al.:
    nine products and one cycle to recombine and reduce) one more cycle of each.

    Parameters
    ----------
    F : GF2m
    plan : Plan
        ``tmvp_plan(m, splits)`` (trinomials) or ``poly_plan(n, splits)``.
    core_schedule : tuple of int
        Splits of the parallel core (TMVP or Karatsuba, as the plan) down to a schoolbook base.
    reduce_cycle : bool
        Spend an extra cycle per product on the final reduction (polynomial plans).
    lut6 : bool
        The core's schoolbook base products from hand-packed ``LUT6`` primitives (as
        :class:`ParallelMul`); name suffix ``_l6``.
    """

    def __init__(self, F: GF2m, plan: Plan, core_schedule=(), reduce_cycle: bool = False,
                 label: str = "SeqMul", lut6: bool = False):
        if plan.kind == "tmvp":
            _require_trinomial(F, "a TMVP multiplier")
        self.plan = plan
        self.core_schedule = tuple(core_schedule)
        self.reduce_cycle = reduce_cycle
        self.lut6 = bool(lut6)
        self.name = (f"{label}_m{F.m}_p{_sched_str(plan.splits)}_h{plan.h}"
                     f"_c{_sched_str(self.core_schedule)}" + ("_l6" if lut6 else ""))
        super().__init__(F)

    @property
    def steps(self) -> int:
        return len(self.plan.products) + (1 if self.reduce_cycle else 0)

    @property
    def initiation_interval(self) -> int:
        return self.steps

    @property
    def latency(self) -> int:
        return self.steps + 3

    def emulate(self, a: int, b: int) -> int:
        if self.plan.kind == "tmvp":
            return mulalg.field_mul_tmvp(self.F, a, b, self.plan.splits + self.core_schedule)
        return mulalg.field_mul_karatsuba(self.F, a, b, self.plan.splits + self.core_schedule)

    # -- pieces shared with IterKaratsubaMul ------------------------------------------------------
    @property
    def last_issue(self) -> int:
        """Index of the sub-product issued last, whose accumulation completes a product."""
        return len(self.plan.products) - 1

    def _operand_rows(self):
        """Source rows of the first operand: T_A's diagonals in terms of A's bits (the CONVERTOR,
        from the model's Toeplitz map) for a TMVP plan; None (A itself) for a polynomial plan."""
        if self.plan.kind != "tmvp":
            return None
        return nets.linear_rows(toeplitz_columns(self.F), 2 * self.F.m - 1)

    def _core(self, m, x, y):
        P = self.plan
        if P.kind == "tmvp":
            return nets.tmvp_net(m, x, y, P.h, self.core_schedule, "core", self.lut6)
        return nets.karatsuba_net(m, x, y, P.h, self.core_schedule, "core", self.lut6)

    def _accumulate(self, m, v, idx, pr):
        """OUTnet: add the tagged core result into the accumulator; drive ``c``/``done``."""
        F, P = self.F, self.plan
        acc = Signal(P.acc_width, name="acc")
        contrib = Signal(P.acc_width, name="contrib")
        with m.Switch(idx):
            for s, p in enumerate(P.products):
                with m.Case(s):
                    m.d.comb += contrib.eq(nets.xor_tree(
                        [pr[:ln].as_unsigned() << off for off, ln in p.out_terms]))
        acc_next = Signal(P.acc_width, name="acc_next")
        m.d.comb += acc_next.eq(Mux(idx == 0, 0, acc) ^ contrib)
        with m.If(v):
            m.d.sync += acc.eq(acc_next)
        last = Signal(name="last")
        m.d.comb += last.eq(v & (idx == self.last_issue))
        c = Signal(F.m, name="c_reg")
        done = Signal(name="done_reg")
        if self.reduce_cycle:
            # the extra cycle reduces straight from the accumulator: the next product's first
            # result lands no earlier than two cycles after the last one (II ≥ S + 1)
            src = acc
            fire = Signal(name="final_valid")
            m.d.sync += fire.eq(last)
        else:
            src, fire = acc_next, last
        if P.kind == "poly":
            final_src = nets.linear_net(m, src, reduction_columns(F, P.acc_width), F.m, "red")
        else:
            final_src = _final_rotate(F, src)
        with m.If(fire):
            m.d.sync += c.eq(final_src)
        m.d.sync += done.eq(fire)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]

    def elaborate(self, platform):
        m = Module()
        F, P = self.F, self.plan
        S = len(P.products)
        steps = self.steps
        areg = Signal(F.m, name="tin")
        breg = Signal(F.m, name="rin")
        busy = Signal(name="busy")
        step = Signal(range(max(steps, 2)), name="step")
        step_next = Signal.like(step, name="step_next")
        m.d.comb += step_next.eq(step)
        with m.If(busy):
            m.d.comb += step_next.eq(Mux(step == steps - 1, 0, step + 1))
            with m.If(step == steps - 1):
                m.d.sync += busy.eq(0)
        with m.If(self.start):
            m.d.comb += step_next.eq(0)
            m.d.sync += [areg.eq(self.a), breg.eq(self.b), busy.eq(1)]
        m.d.sync += step.eq(step_next)

        # Tnet/Vnet (CONVERTOR included): each core operand bit is the XOR, over the bits of A (B),
        # of the bit gated by a registered flag that is high in the steps whose windows include it
        flags = {}

        def flag(cases):
            if len(cases) == S:
                return None
            if cases not in flags:
                f = flags[cases] = Signal(name="sel_" + "_".join(map(str, sorted(cases))))
                m.d.sync += f.eq(reduce(or_, [step_next == s for s in sorted(cases)]))
            return flags[cases]

        xw = P.x_width
        xs = nets.flagged_xor_net(m, areg, P.operand_cases("a", self._operand_rows()), flag, "tnet",
                                  self.lut6)
        ys = nets.flagged_xor_net(m, breg, P.operand_cases("b"), flag, "vnet", self.lut6)
        xr = Signal(xw, name="tint")
        yr = Signal(P.h, name="rint")
        v1 = Signal(name="v1")
        s1 = Signal(range(max(S, 2)), name="s1")
        m.d.sync += [xr.eq(xs), yr.eq(ys), v1.eq(busy & (step < S)), s1.eq(step)]
        core = self._core(m, xr, yr)
        pr = Signal(P.core_out_width, name="preg")
        v2 = Signal(name="v2")
        s2 = Signal(range(max(S, 2)), name="s2")
        m.d.sync += [pr.eq(core), v2.eq(v1), s2.eq(s1)]
        self._accumulate(m, v2, s2, pr)
        return m


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
    one pair; K77 100 with three, 155 with one), latency II + 4.
    """

    # X update: load a word, XOR a word in, XOR a PMX register in, copy a PMX register
    XOPS = {"ld": 0, "acc": 1, "xp": 2, "rp": 3}
    # PMX register update: hold, set to X, XOR X in
    POPS = {"hold": 0, "set": 1, "acc": 2}

    def __init__(self, F: GF2m, word: int, levels: int, core_schedule=(), pmx: int | None = None):
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
        super().__init__(F, plan, core_schedule, reduce_cycle=True, label=f"IterKara{word}")
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
        return self.initiation_interval + 4

    def emulate(self, a: int, b: int) -> int:
        return field_mul_by_plan(self.F, self.plan, a, b, self.core_schedule)

    def elaborate(self, platform):
        m = Module()
        F, P, w = self.F, self.plan, self.word
        S = len(P.products)
        U = len(self.microcode)
        R = self.pmx
        nwords = P.n // w
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
        upc = Signal(range(max(U, 2)), name="upc")
        rd = rom.read_port(domain="comb")
        m.d.comb += rd.addr.eq(upc)

        def field(name):
            lo, width = pos[name]
            return rd.data[lo:lo + width]

        a_addr, b_addr, xop, xreg = field("a"), field("b"), field("xop"), field("xreg")
        iss_v, iss_i = field("iss_v"), field("iss")

        areg = Signal(F.m, name="mem_a")
        breg = Signal(F.m, name="mem_b")
        busy = Signal(name="busy")
        tail = Signal(name="tail")
        m.d.sync += tail.eq(busy & (upc == U - 1))
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
                with m.Switch(field(f"p{r}")):
                    with m.Case(self.POPS["set"]):
                        m.d.sync += [pa[r].eq(xa), pb[r].eq(xb)]
                    with m.Case(self.POPS["acc"]):
                        m.d.sync += [pa[r].eq(pa[r] ^ xa), pb[r].eq(pb[r] ^ xb)]
        # the core multiplies X in the issue cycle; result and tag registered
        core = self._core(m, xa, xb)
        pr = Signal(P.core_out_width, name="preg")
        v2 = Signal(name="v2")
        s2 = Signal(range(max(S, 2)), name="s2")
        m.d.sync += pr.eq(core)
        m.d.sync += [v2.eq((busy & iss_v) | tail), s2.eq(Mux(tail, self.last_issue, iss_i))]
        self._accumulate(m, v2, s2, pr)
        return m


class DigitSerialMul(MulUnit):
    """Digit-serial multiplier, ⌈m/D⌉ cycles per product (latency + 1 for the output register).

    ``order="lsd"``: seed 003 Alg. 1 (least significant digit first, interleaved reduction of A,
    C of m + D - 1 bits reduced at the end); D = 1 is the bit-serial LSB multiplier.
    ``order="msd"``: seed 001 §5.1.2 (most significant digit first, C ← C·x^D mod f + Σ a_j x^j B,
    the x^j B mod f shared XOR array).
    """

    def __init__(self, F: GF2m, digit: int, order: str = "lsd"):
        if digit < 1 or digit > F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        if order not in ("lsd", "msd"):
            raise ValueError(f"unknown digit order {order!r}")
        self.digit = digit
        self.order = order
        self.name = f"{order.capitalize()}Mul_m{F.m}_d{digit}"
        super().__init__(F)

    @property
    def initiation_interval(self) -> int:
        return -(-self.F.m // self.digit)

    @property
    def latency(self) -> int:
        return self.initiation_interval + 1

    def emulate(self, a: int, b: int) -> int:
        fn = mulalg.lsd if self.order == "lsd" else mulalg.msd
        return fn(self.F, a, b, self.digit)

    def elaborate(self, platform):
        m = Module()
        F, D = self.F, self.digit
        T = self.initiation_interval
        busy = Signal(name="busy")
        cnt = Signal(range(max(T, 2)), name="cnt")
        last = Signal(name="last")
        m.d.comb += last.eq(busy & (cnt == T - 1))
        with m.If(busy):
            m.d.sync += cnt.eq(cnt + 1)
            with m.If(last):
                m.d.sync += [busy.eq(0), cnt.eq(0)]
        c = Signal(F.m, name="c_reg")
        done = Signal(name="done_reg")
        if self.order == "lsd":
            areg = Signal(F.m, name="areg")
            breg = Signal(T * D, name="breg")
            creg = Signal(F.m + D - 1, name="creg")
            rows = [(areg & breg[j].replicate(F.m)).as_unsigned() << j for j in range(D)]
            cnext = Signal(F.m + D - 1, name="cnext")
            m.d.comb += cnext.eq(creg ^ nets.xor_tree(rows))
            ashift = nets.linear_net(m, areg, [F.reduce(1 << (j + D)) for j in range(F.m)], F.m, "axd")
            with m.If(busy):
                m.d.sync += [creg.eq(cnext), areg.eq(ashift), breg.eq(breg >> D)]
            red = nets.linear_net(m, cnext, reduction_columns(F, F.m + D - 1), F.m, "red")
            with m.If(last):
                m.d.sync += c.eq(red)
            with m.If(self.start):
                m.d.sync += [areg.eq(self.a), breg.eq(self.b), creg.eq(0)]
        else:
            areg = Signal(T * D, name="areg")
            breg = Signal(F.m, name="breg")
            creg = Signal(F.m, name="creg")
            xb = [nets.linear_net(m, breg, [F.reduce(1 << (j + i)) for j in range(F.m)], F.m, f"xb{i}")
                  for i in range(D)]
            digit = areg[T * D - D:T * D]
            cx = nets.linear_net(m, creg, [F.reduce(1 << (j + D)) for j in range(F.m)], F.m, "cxd")
            cnext = Signal(F.m, name="cnext")
            m.d.comb += cnext.eq(cx ^ nets.xor_tree([xb[j] & digit[j].replicate(F.m) for j in range(D)]))
            with m.If(busy):
                m.d.sync += [creg.eq(cnext), areg.eq(areg << D)]
            with m.If(last):
                m.d.sync += c.eq(cnext)
            with m.If(self.start):
                m.d.sync += [areg.eq(self.a), breg.eq(self.b), creg.eq(0)]
        with m.If(self.start):
            m.d.sync += [busy.eq(1), cnt.eq(0)]
        m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
