"""Shu–Kwon–Gaj's shared-operand digit-serial multipliers and their extension-field multiplier CA.

Seed 001 §5.1.2 (Fig. 2, first structure) builds each F_2^m multiplier MSD-first with an m-bit
partial sum: per cycle C ← C·x^D mod f + Σ_{i<D} a_(n−D+i)·(x^i·B mod f).  The XOR array that forms
x^i·B mod f depends on B only, so multipliers that share the operand B share one array (Fig. 3):
:class:`MsdGroup` is k such multipliers behind one array.

The multiplier CA computes C·A in F_{2^4m} for the Miller-loop factor A = w + z·s + t (seed 001
eq. (6) with e = 1; the tower of :mod:`pairhw.math.binary.tower`, s² = s + 1, t² = t + s):

    c'0 = c0·w + c1·z + c3                 c'1 = (c0 + c1)(w + z) + c0·w + c2 + c3
    c'2 = c2·w + c3·z + c0 + c2            c'3 = (c2 + c3)(w + z) + c2·w + c1 + c3

six F_2^m products on three shared operands w, z, w + z.  Scheme 1 (Fig. 4(a)) has the six
multipliers, three groups of two, and takes one multiplication round; scheme 2 (Fig. 4(b)) has three,
one per operand, and takes two rounds (c'0, c'1, then c'2, c'3).  The golden model is
:meth:`pairhw.math.binary.tower.Tower.sparse_mul` (f·(g0 + g1·s + t)).
"""

from __future__ import annotations

import random

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m
from pairhw.math.binary.tower import Tower
from pairhw.rtl.binary.digit_serial import digit_products, msd_accumulate, msd_step, shared_xb
from pairhw.rtl.serial import late_accumulation, serial_counter


class _Unit(wiring.Component):
    """The unit contract of :mod:`pairhw.rtl.binary.mulbase` on ``width``-bit words."""

    _MustUse__silence = True
    lut6 = False

    def __init__(self, F: GF2m, digit: int, width: int):
        if not 1 <= digit <= F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        self.F, self.digit, self.width = F, digit, width
        super().__init__(mul_signature(width))

    @property
    def steps(self) -> int:
        """Digit steps of one F_2^m product: ⌈m/D⌉."""
        return -(-self.F.m // self.digit)

    def split(self, word: int, k: int) -> list[int]:
        mask = (1 << self.F.m) - 1
        return [(word >> (i * self.F.m)) & mask for i in range(k)]

    def join(self, values) -> int:
        return sum(v << (i * self.F.m) for i, v in enumerate(values))

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(), "digit": self.digit,
                "latency": self.latency, "ii": self.initiation_interval, "width": self.width}


def _check_stages(stages: int, what: str) -> None:
    if stages not in (1, 2):
        raise ValueError(f"{what} have 1 or 2 stages (2: each step's digit-product sum registered), not {stages}")


class MsdGroup(_Unit):
    """k MSD digit-serial F_2^m multipliers sharing the operand b: c_i = a_i·b, one XOR array.

    Words: ``a`` holds a_0..a_(k−1) (a_0 in the low m bits), ``b`` holds b in its low m bits (the rest
    is ignored), ``c`` holds c_0..c_(k−1).  ⌈m/D⌉ cycles per round, latency ⌈m/D⌉ + 1; with
    ``stages`` 2 each lane's digit-product sum is registered and accumulated a cycle later
    (:class:`~pairhw.rtl.binary.digit_serial.DigitSerialMul`'s 2 stages): latency ⌈m/D⌉ + 2, the same
    initiation interval.
    """

    def __init__(self, F: GF2m, digit: int, k: int, stages: int = 1):
        if k < 1:
            raise ValueError(f"a group has at least one multiplier, not {k}")
        _check_stages(stages, "msd lanes")
        self.k, self.stages = k, stages
        self.name = f"MsdGroup_m{F.m}_d{digit}_k{k}" + (f"_p{stages}" if stages > 1 else "")
        super().__init__(F, digit, k * F.m)

    @property
    def initiation_interval(self) -> int:
        return self.steps

    @property
    def latency(self) -> int:
        return self.steps + self.stages

    @property
    def encoding(self) -> str:
        return (f"a: a_0..a_{self.k - 1} (a_0 lowest, {self.F.m} bits each); b: b in the low {self.F.m} bits; "
                f"c: a_i*b, as a")

    def emulate(self, a: int, b: int) -> int:
        bb = b & ((1 << self.F.m) - 1)
        return self.join(mulalg.msd(self.F, x, bb, self.digit) for x in self.split(a, self.k))

    def vectors(self, n: int, seed: int = 1) -> list:
        return _vectors(self, n, seed, self.k, 1)

    def elaborate(self, platform):
        m = Module()
        F, D, T = self.F, self.digit, self.steps
        busy, cnt, last = serial_counter(m, T)
        breg = Signal(F.m, name="breg")
        xb = shared_xb(m, F, breg, D, "b_x")
        aregs = [Signal(T * D, name=f"a{i}") for i in range(self.k)]
        cregs = [Signal(F.m, name=f"c{i}") for i in range(self.k)]
        c, done = Signal(self.width, name="c_reg"), Signal(name="done_reg")
        if self.stages == 1:
            nxt = [msd_step(m, F, cregs[i], aregs[i][T * D - D:], xb, D, f"m{i}_cxd", f"m{i}_next")
                   for i in range(self.k)]
            with m.If(busy):
                m.d.sync += [cr.eq(n) for cr, n in zip(cregs, nxt)] + [ar.eq(ar << D) for ar in aregs]
            with m.If(last):
                m.d.sync += c.eq(Cat(*nxt))
        else:  # each lane's digit-product sum registered, accumulated a cycle later (DigitSerialMul's 2)
            pregs = [_digit_sum(m, F, D, busy, ar, xb, f"m{i}_preg") for i, ar in enumerate(aregs)]
            acc, first, final = late_accumulation(m, busy, cnt, last, done)
            nxt = [msd_accumulate(m, F, cr, pr, first, D, f"m{i}_cxd", f"m{i}_next")
                   for i, (cr, pr) in enumerate(zip(cregs, pregs))]
            with m.If(acc):
                m.d.sync += [cr.eq(n) for cr, n in zip(cregs, nxt)]
            with m.If(final):
                m.d.sync += c.eq(Cat(*nxt))
        # the operands as named Signals: a port is named after a signal of exactly its bits, so the
        # lanes' a_i (each from its own register read in the core) and b are ports a_0.., b_0, not port_N
        a_in = [Signal(F.m, name=f"a_{i}") for i in range(self.k)]
        b_in = Signal(F.m, name="b_0")
        m.d.comb += [x.eq(self.a[i * F.m:(i + 1) * F.m]) for i, x in enumerate(a_in)] + [b_in.eq(self.b[:F.m])]
        with m.If(self.start):
            m.d.sync += [breg.eq(b_in), busy.eq(1)] + ([cr.eq(0) for cr in cregs] if self.stages == 1 else [])
            m.d.sync += [ar.eq(x) for ar, x in zip(aregs, a_in)]
        if self.stages == 1:  # (the staged lanes register done with their accumulation)
            m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m


class CAMul(_Unit):
    """Seed 001's multiplier CA: C·(w + z·s + t) in F_{2^4m} (see the module docstring).

    Words (4m bits): ``a`` is C = c0 + c1·s + c2·t + c3·st (c0 lowest); ``b`` holds w in bits 0..m−1 and
    z in m..2m−1 (the rest is ignored); ``c`` is the product as ``a``.  ``scheme`` 1: six multipliers,
    one round, latency ⌈m/D⌉ + 1; scheme 2: three multipliers, two rounds, latency 2⌈m/D⌉ + 1.
    ``stages`` 2: each multiplier's digit-product sum registered and accumulated a cycle later, a
    cycle more latency, the same initiation interval.
    """

    def __init__(self, F: GF2m, digit: int, scheme: int = 1, stages: int = 1):
        if scheme not in (1, 2):
            raise ValueError(f"CA has schemes 1 (six multipliers) and 2 (three), not {scheme}")
        _check_stages(stages, "CA's multipliers")
        self.scheme, self.stages = scheme, stages
        self.name = f"CA{scheme}_m{F.m}_d{digit}" + (f"_p{stages}" if stages > 1 else "")
        self.tower = Tower(F)
        super().__init__(F, digit, 4 * F.m)

    @property
    def rounds(self) -> int:
        return 1 if self.scheme == 1 else 2

    @property
    def multipliers(self) -> int:
        return 6 // self.rounds

    @property
    def initiation_interval(self) -> int:
        return self.rounds * self.steps

    @property
    def latency(self) -> int:
        return self.initiation_interval + self.stages

    @property
    def encoding(self) -> str:
        m = self.F.m
        return (f"a: C = c0 + c1*s + c2*t + c3*s*t, c0 lowest ({m} bits each); b: w in bits 0..{m - 1}, "
                f"z in {m}..{2 * m - 1} (A = w + z*s + t); c: C*A, as a")

    def emulate(self, a: int, b: int) -> int:
        w, z = self.split(b, 2)
        return self.join(self.tower.sparse_mul(tuple(self.split(a, 4)), w, z))

    def vectors(self, n: int, seed: int = 1) -> list:
        return _vectors(self, n, seed, 4, 2)

    def elaborate(self, platform):
        m = Module()
        F, D, T, mm = self.F, self.digit, self.steps, self.F.m
        busy, cnt, last = serial_counter(m, self.initiation_interval)
        cin = [Signal(mm, name=f"c{i}_in") for i in range(4)]  # C, kept for the additions
        w, z = Signal(mm, name="w"), Signal(mm, name="z")
        operands = [w, z, Signal(mm, name="w_plus_z")]
        m.d.comb += operands[2].eq(w ^ z)
        arrays = [shared_xb(m, F, b, D, f"{n}_x") for b, n in zip(operands, ("w", "z", "wz"))]

        def a_operands(c, r):
            """The a operands of the three arrays' multipliers in round r: c0, c1, c0 + c1 (lo) or
            c2, c3, c2 + c3 (hi)."""
            x, y = c[2 * r], c[2 * r + 1]
            return [x, y, x ^ y]

        a_in = [self.a[i * mm:(i + 1) * mm] for i in range(4)]
        groups = 2 if self.scheme == 1 else 1  # rounds computed side by side
        aregs = [[Signal(T * D, name=f"a{g}_{j}") for j in range(3)] for g in range(groups)]
        cregs = [[Signal(mm, name=f"p{g}_{j}") for j in range(3)] for g in range(groups)]
        c, done = Signal(self.width, name="c_reg"), Signal(name="done_reg")
        staged = self.stages == 2
        if staged:
            # each multiplier's digit-product sum registered (_digit_sum, which shifts its a register)
            # and accumulated a cycle later, a round's first into a cleared accumulator; a new product
            # may start in the last digit cycle, so the result's additions take C from a register
            # loaded then
            pregs = [[_digit_sum(m, F, D, busy, ar, xb, f"m{g}{j}_preg") for j, (ar, xb) in enumerate(zip(row, arrays))]
                     for g, row in enumerate(aregs)]
            step, first, end = late_accumulation(m, busy, cnt, last, done)
            held = [Signal(mm, name=f"c{i}_held") for i in range(4)]  # C of the product finishing
            with m.If(last):
                m.d.sync += [h.eq(x) for h, x in zip(held, cin)]
            if self.scheme == 2:  # the second round's first sum also goes into a cleared accumulator
                round2, round1_end = Signal(name="acc_round2"), Signal(name="acc_round1_end")
                m.d.sync += [round2.eq(busy & (cnt == T)), round1_end.eq(busy & (cnt == T - 1))]
                first = first | round2
            nxt = [[msd_accumulate(m, F, cr, pr, first, D, f"m{g}{j}_cxd", f"m{g}{j}_next")
                    for j, (cr, pr) in enumerate(zip(crow, prow))] for g, (crow, prow) in enumerate(zip(cregs, pregs))]
        else:
            nxt = [[msd_step(m, F, cregs[g][j], aregs[g][j][T * D - D:], arrays[j], D, f"m{g}{j}_cxd",
                             f"m{g}{j}_next") for j in range(3)] for g in range(groups)]
            step, end, held = busy, last, cin

        def combine(p, r, cin=cin):
            """(c'0, c'1) from c0w, c1z, (c0 + c1)(w + z) (r = 0), or (c'2, c'3) (r = 1): eq. (6)."""
            if r == 0:
                return Cat(p[0] ^ p[1] ^ cin[3], p[2] ^ p[0] ^ cin[2] ^ cin[3])
            return Cat(p[0] ^ p[1] ^ cin[0] ^ cin[2], p[2] ^ p[0] ^ cin[1] ^ cin[3])

        with m.If(step):
            for g in range(groups):
                m.d.sync += [cr.eq(n) for cr, n in zip(cregs[g], nxt[g])]
                if not staged:
                    m.d.sync += [ar.eq(ar << D) for ar in aregs[g]]
        if self.scheme == 1:
            with m.If(end):
                m.d.sync += c.eq(Cat(combine(nxt[0], 0, held), combine(nxt[1], 1, held)))
        else:
            lo = Signal(2 * mm, name="lo")
            with m.If(busy & (cnt == T - 1)):  # the first round's digits end: keep c'0, c'1; c2, c3 next
                if not staged:
                    m.d.sync += lo.eq(combine(nxt[0], 0))
                    m.d.sync += [cr.eq(0) for cr in cregs[0]]
                m.d.sync += [ar.eq(x) for ar, x in zip(aregs[0], a_operands(cin, 1))]
            if staged:
                with m.If(round1_end):  # the first round's accumulation ends a cycle later
                    m.d.sync += lo.eq(combine(nxt[0], 0))
            with m.If(end):
                m.d.sync += c.eq(Cat(lo, combine(nxt[0], 1, held)))
        with m.If(self.start):
            m.d.sync += [busy.eq(1), cnt.eq(0), w.eq(self.b[:mm]), z.eq(self.b[mm:2 * mm])]
            m.d.sync += [ci.eq(x) for ci, x in zip(cin, a_in)]
            for g in range(groups):
                if not staged:
                    m.d.sync += [cr.eq(0) for cr in cregs[g]]
                m.d.sync += [ar.eq(x) for ar, x in zip(aregs[g], a_operands(a_in, g))]
        if not staged:  # (the staged form registers done with its accumulation)
            m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m


def _digit_sum(m, F: GF2m, D: int, busy, areg, xb, name: str) -> Signal:
    """A staged MSD multiplier's register of its step's digit-product sum (its a register's top digit
    against the x^i·b array ``xb``), loaded while ``busy`` as ``areg`` shifts to the next digit."""
    preg = Signal(F.m, name=name)
    with m.If(busy):
        m.d.sync += [preg.eq(digit_products(F, areg[len(areg) - D:], xb, D)), areg.eq(areg << D)]
    return preg


def _vectors(unit, n: int, seed: int, ka: int, kb: int) -> list:
    """Edge words (0, 1, all ones, the top bit, in every coefficient) then ``n`` random (a, b, c)."""
    F = unit.F
    top, ones = 1 << (F.m - 1), (1 << F.m) - 1
    edges = [0, 1, ones, top]
    rng = random.Random(seed)
    pairs = [(unit.join([x] * ka), unit.join([y] * kb)) for x in edges for y in edges][:10]
    pairs += [(unit.join(F.random(rng) for _ in range(ka)), unit.join(F.random(rng) for _ in range(kb)))
              for _ in range(n)]
    return [(a, b, unit.emulate(a, b)) for a, b in pairs]
