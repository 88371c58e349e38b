"""A digit-serial multiplier for F_3^m: D trits of a per cycle, most significant digit first.

Horner's rule over the digits of a (a padded to T·D trits, T = ⌈m/D⌉):

    c ← c·x^D mod f + Σ_{j<D} a_(digit, j)·(x^j·b mod f)

(the characteristic-three form of Shu–Kwon–Gaj §5.1.2's MSD multiplier, as in Beuchat et al.'s small
coprocessors: one digit of trit products, a D + 1 operand trit-adder tree, and the fixed linear maps
c ↦ c·x^D and b ↦ x^j·b read off the golden model).  T cycles per product, latency T + 1.

With ``stages`` 2 the digit-product sum P_t = Σ_j a_(digit, j)·(x^j·b mod f), which needs no c, is
registered and accumulated a cycle later (c ← c·x^D mod f + P_t, the first P of a product into a
cleared c: the F_2^m msd multiplier's second stage), latency T + 2; with 3 the x^j·b array is
registered too, computed once from the input at ``start`` (2·D·m flip-flops).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.ternary.field import GF3m

from pairhw.rtl.serial import late_accumulation, serial_counter

from . import nets


class DigitSerialMul3(wiring.Component):
    """c = a·b in F_3^m, D trits per cycle (:mod:`module docstring <pairhw.rtl.ternary.digit_serial>`).

    ``a`` and ``b`` (2m-bit words, L | H << m) are sampled when ``start`` is high; ``c`` holds the
    product from the cycle ``done`` pulses, ``latency`` = II + 1 cycles after ``start``, until the
    next product completes.
    """

    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: GF3m, digit: int, stages: int = 1):
        if not 1 <= digit <= F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        if isinstance(stages, bool) or stages not in (1, 2, 3):
            raise ValueError(f"the msd F_3^m multiplier has 1 to 3 stages, not {stages!r}")
        self.F, self.digit, self.stages = F, digit, stages
        self.name = f"MsdMul3_m{F.m}_d{digit}" + (f"_p{stages}" if stages > 1 else "")
        w = 2 * F.m
        super().__init__(mul_signature(w))

    @property
    def initiation_interval(self) -> int:
        return -(-self.F.m // self.digit)

    @property
    def latency(self) -> int:
        return self.initiation_interval + (1 if self.stages == 1 else 2)

    def emulate(self, a: int, b: int) -> int:
        """Horner's rule on the digits of a, step by step in the model (the unit's algorithm)."""
        F, D, T = self.F, self.digit, self.initiation_interval
        trits = F.to_list(a) + [0] * (T * D - F.m)
        xD = F.pow(F.X, D)
        xb = [F.mul(F.pow(F.X, j), b) for j in range(D)]
        c = F.ZERO
        for t in reversed(range(T)):
            c = F.mul(c, xD)
            for j in range(D):
                c = F.add(c, F.mul(F.const(trits[t * D + j]), xb[j]))
        return c

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(), "digit": self.digit,
                **({"stages": self.stages} if self.stages > 1 else {}),
                "latency": self.latency, "ii": self.initiation_interval}

    def elaborate(self, platform):
        if self.stages > 1:
            return self._staged()
        m = Module()
        F, D, n = self.F, self.digit, self.F.m
        T = self.initiation_interval
        busy, cnt, last = serial_counter(m, T)
        ah, al = Signal(T * D, name="ah"), Signal(T * D, name="al")
        bh, bl = Signal(n, name="bh"), Signal(n, name="bl")
        ch, cl = Signal(n, name="ch"), Signal(n, name="cl")

        times_x = self._times_x
        terms = [nets.linear_net(m, ch, cl, times_x(D), "cxd")]
        dh, dl = ah[T * D - D:], al[T * D - D:]
        for j in range(D):
            vh, vl = (bh, bl) if j == 0 else nets.linear_net(m, bh, bl, times_x(j), f"xb{j}")
            terms.append(nets.trit_scale(m, (vh, vl), (dh[j], dl[j]), f"t{j}"))
        nh, nl = nets.trit_sum(m, terms, n, "acc")
        with m.If(busy):
            m.d.sync += [ch.eq(nh), cl.eq(nl), ah.eq(ah << D), al.eq(al << D)]
        c, done = Signal(2 * n, name="c_reg"), Signal(name="done_reg")
        with m.If(last):
            m.d.sync += c.eq(Cat(nl, nh))
        with m.If(self.start):
            m.d.sync += [ah.eq(self.a[n:2 * n]), al.eq(self.a[:n]), bh.eq(self.b[n:]), bl.eq(self.b[:n]),
                         ch.eq(0), cl.eq(0), busy.eq(1), cnt.eq(0)]
        m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m

    def _times_x(self, j: int) -> list:
        """The rows of v ↦ x^j·v mod f, read off the model."""
        F = self.F
        return nets.linear_rows(nets.basis_images(F, lambda v: F.mul(F.pow(F.X, j), v)), F.m)

    def _staged(self):
        """The two- and three-stage forms: P_t registered, accumulated a cycle later."""
        m = Module()
        F, D, n = self.F, self.digit, self.F.m
        T = self.initiation_interval
        busy, cnt, last = serial_counter(m, T)
        ah, al = Signal(T * D, name="ah"), Signal(T * D, name="al")
        if self.stages == 3:  # the x^j·b array from the input, once, at start
            xb = []
            for j in range(D):
                ih, il = (self.b[n:], self.b[:n]) if j == 0 else nets.linear_net(m, self.b[n:], self.b[:n],
                                                                                  self._times_x(j), f"xbin{j}")
                rh, rl = Signal(n, name=f"xbreg{j}_h"), Signal(n, name=f"xbreg{j}_l")
                with m.If(self.start):
                    m.d.sync += [rh.eq(ih), rl.eq(il)]
                xb.append((rh, rl))
        else:
            bh, bl = Signal(n, name="bh"), Signal(n, name="bl")
            with m.If(self.start):
                m.d.sync += [bh.eq(self.b[n:]), bl.eq(self.b[:n])]
            xb = [(bh, bl) if j == 0 else nets.linear_net(m, bh, bl, self._times_x(j), f"xb{j}") for j in range(D)]
        dh, dl = ah[T * D - D:], al[T * D - D:]
        parts = [nets.trit_scale(m, xb[j], (dh[j], dl[j]), f"t{j}") for j in range(D)]
        sh, sl = nets.trit_sum(m, parts, n, "psum")
        ph, pl = Signal(n, name="preg_h"), Signal(n, name="preg_l")
        with m.If(busy):
            m.d.sync += [ph.eq(sh), pl.eq(sl), ah.eq(ah << D), al.eq(al << D)]
        with m.If(self.start):
            m.d.sync += [ah.eq(self.a[n:2 * n]), al.eq(self.a[:n]), busy.eq(1), cnt.eq(0)]
        # c ← c·x^D + P, a cycle behind the digits; the first P of a product into a cleared c
        done = Signal(name="done_reg")
        acc, first, final = late_accumulation(m, busy, cnt, last, done)
        ch, cl = Signal(n, name="ch"), Signal(n, name="cl")
        xh, xl = nets.linear_net(m, ch, cl, self._times_x(D), "cxd")
        kh, kl = Signal(n, name="cx_h"), Signal(n, name="cx_l")
        m.d.comb += [kh.eq(Mux(first, 0, xh)), kl.eq(Mux(first, 0, xl))]
        nh, nl = nets.trit_add(m, (kh, kl), (ph, pl), n, "cnext")
        with m.If(acc):
            m.d.sync += [ch.eq(nh), cl.eq(nl)]
        c = Signal(2 * n, name="c_reg")
        with m.If(final):
            m.d.sync += c.eq(Cat(nl, nh))
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
