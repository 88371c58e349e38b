"""A digit-serial multiplier for F_3^m: D trits of a per cycle, most significant digit first.

Horner's rule over the digits of a (a padded to T·D trits, T = ⌈m/D⌉):

    c ← c·x^D mod f + Σ_{j<D} a_(digit, j)·(x^j·b mod f)

(the characteristic-three form of Shu–Kwon–Gaj §5.1.2's MSD multiplier, as in Beuchat et al.'s small
coprocessors: one digit of trit products, a D + 1 operand trit-adder tree, and the fixed linear maps
c ↦ c·x^D and b ↦ x^j·b read off the golden model).  T cycles per product, latency T + 1.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.ternary.field import GF3m

from pairhw.rtl.serial import serial_counter

from . import nets


class DigitSerialMul3(wiring.Component):
    """c = a·b in F_3^m, D trits per cycle (:mod:`module docstring <pairhw.rtl.ternary.digit_serial>`).

    ``a`` and ``b`` (2m-bit words, L | H << m) are sampled when ``start`` is high; ``c`` holds the
    product from the cycle ``done`` pulses, ``latency`` = II + 1 cycles after ``start``, until the
    next product completes.
    """

    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: GF3m, digit: int):
        if not 1 <= digit <= F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        self.F, self.digit = F, digit
        self.name = f"MsdMul3_m{F.m}_d{digit}"
        w = 2 * F.m
        super().__init__(mul_signature(w))

    @property
    def initiation_interval(self) -> int:
        return -(-self.F.m // self.digit)

    @property
    def latency(self) -> int:
        return self.initiation_interval + 1

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
                "latency": self.latency, "ii": self.initiation_interval}

    def elaborate(self, platform):
        m = Module()
        F, D, n = self.F, self.digit, self.F.m
        T = self.initiation_interval
        busy, cnt, last = serial_counter(m, T)
        ah, al = Signal(T * D, name="ah"), Signal(T * D, name="al")
        bh, bl = Signal(n, name="bh"), Signal(n, name="bl")
        ch, cl = Signal(n, name="ch"), Signal(n, name="cl")

        def times_x(j):
            return nets.linear_rows(nets.basis_images(F, lambda v: F.mul(F.pow(F.X, j), v)), n)

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
