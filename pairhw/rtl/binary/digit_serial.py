"""DigitSerialMul: LSD/MSD digit-serial and bit-serial multipliers."""

from __future__ import annotations

from amaranth.hdl import Module, Signal

from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from pairhw.rtl.serial import serial_counter
from .mulbase import MulUnit, reduction_columns


def shared_xb(m, F: GF2m, b, D: int, prefix: str = "xb") -> list:
    """x^i·b mod f for i < D: the XOR array of an MSD multiplier, which multipliers sharing the
    operand b share (seed 001 Fig. 3)."""
    return [nets.linear_net(m, b, [F.reduce(1 << (j + i)) for j in range(F.m)], F.m, f"{prefix}{i}")
            for i in range(D)]


def msd_step(m, F: GF2m, creg, digit, xb, D: int, cx_name: str = "cxd", next_name: str = "cnext") -> Signal:
    """One MSD step: C·x^D mod f + Σ_i digit_i·(x^i·B mod f) (seed 001 §5.1.2, structure 1)."""
    cx = nets.linear_net(m, creg, [F.reduce(1 << (j + D)) for j in range(F.m)], F.m, cx_name)
    nxt = Signal(F.m, name=next_name)
    m.d.comb += nxt.eq(cx ^ nets.xor_tree([xb[j] & digit[j].replicate(F.m) for j in range(D)]))
    return nxt


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
        busy, cnt, last = serial_counter(m, T)
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
            cnext = msd_step(m, F, creg, areg[T * D - D:T * D], shared_xb(m, F, breg, D), D)
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
