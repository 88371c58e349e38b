"""DigitSerialMul: LSD/MSD digit-serial and bit-serial multipliers."""

from __future__ import annotations

from amaranth.hdl import Module, Mux, Signal

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


def times_xd(m, F: GF2m, creg, D: int, name: str = "cxd"):
    """C·x^D mod f: the shift-and-fold of an MSD step's accumulator."""
    return nets.linear_net(m, creg, [F.reduce(1 << (j + D)) for j in range(F.m)], F.m, name)


def digit_products(F: GF2m, digit, xb, D: int):
    """Σ_i digit_i·(x^i·B mod f): an MSD step's digit products, which do not depend on C."""
    return nets.xor_tree([xb[j] & digit[j].replicate(F.m) for j in range(D)])


def msd_step(m, F: GF2m, creg, digit, xb, D: int, cx_name: str = "cxd", next_name: str = "cnext") -> Signal:
    """One MSD step: C·x^D mod f + Σ_i digit_i·(x^i·B mod f) (seed 001 §5.1.2, structure 1)."""
    cx = times_xd(m, F, creg, D, cx_name)
    nxt = Signal(F.m, name=next_name)
    m.d.comb += nxt.eq(cx ^ digit_products(F, digit, xb, D))
    return nxt


class DigitSerialMul(MulUnit):
    """Digit-serial multiplier, ⌈m/D⌉ cycles per product (latency + 1 for the output register).

    ``order="lsd"``: seed 003 Alg. 1 (least significant digit first, interleaved reduction of A,
    C of m + D - 1 bits reduced at the end); D = 1 is the bit-serial LSB multiplier.
    ``order="msd"``: seed 001 §5.1.2 (most significant digit first, C ← C·x^D mod f + Σ a_j x^j B,
    the x^j B mod f shared XOR array).

    Parameters
    ----------
    stages : {1, 2, 3}
        ``msd`` only. 1: a step is C·x^D mod f plus the digit products' XOR tree, in one cycle.
        2: the sum of a step's digit products (it does not depend on C) is registered and accumulated
        a cycle later, so the tree and the accumulation C ← C·x^D mod f + P are separate cycles (a cycle
        more latency, the same initiation interval). 3: as 2, and the x^j·B array is computed from the
        input b at start and registered instead of b (D·m flip-flops instead of m; no further cycle).
    """

    def __init__(self, F: GF2m, digit: int, order: str = "lsd", stages: int = 1):
        if digit < 1 or digit > F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        if order not in ("lsd", "msd"):
            raise ValueError(f"unknown digit order {order!r}")
        if stages not in (1, 2, 3) or (stages > 1 and order != "msd"):
            raise ValueError(f"a digit-serial multiplier has 1 stage (msd: 1 to 3), not {stages}")
        self.digit = digit
        self.order = order
        self.stages = stages
        self.name = f"{order.capitalize()}Mul_m{F.m}_d{digit}" + (f"_p{stages}" if stages > 1 else "")
        super().__init__(F)

    @property
    def initiation_interval(self) -> int:
        return -(-self.F.m // self.digit)

    @property
    def latency(self) -> int:
        return self.initiation_interval + (1 if self.stages == 1 else 2)

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
        elif self.stages == 1:
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
        else:
            areg = Signal(T * D, name="areg")
            creg = Signal(F.m, name="creg")
            if self.stages == 3:
                # the x^j·B array is a function of b alone: computed once, from the input, at start
                xb = [Signal(F.m, name=f"xbreg{j}") for j in range(D)]
                with m.If(self.start):
                    m.d.sync += [r.eq(v) for r, v in zip(xb, shared_xb(m, F, self.b, D, "xbin"))]
            else:
                breg = Signal(F.m, name="breg")
                xb = shared_xb(m, F, breg, D)
                with m.If(self.start):
                    m.d.sync += breg.eq(self.b)
            digit = areg[T * D - D:T * D]
            with m.If(busy):
                m.d.sync += areg.eq(areg << D)
            with m.If(self.start):
                m.d.sync += areg.eq(self.a)
            # P_t = Σ digit_i·(x^i·B mod f) needs no C: registered, it is accumulated a cycle later
            # (C ← C·x^D mod f + P_t), the first P of a product into a cleared C
            psum, preg = Signal(F.m, name="psum"), Signal(F.m, name="preg")
            m.d.comb += psum.eq(digit_products(F, digit, xb, D))
            acc, first, final = Signal(name="acc"), Signal(name="acc_first"), Signal(name="acc_last")
            with m.If(busy):
                m.d.sync += preg.eq(psum)
            m.d.sync += [acc.eq(busy), first.eq(busy & (cnt == 0)), final.eq(last), done.eq(final)]
            cx = times_xd(m, F, creg, D)
            cnext = Signal(F.m, name="cnext")
            m.d.comb += cnext.eq(Mux(first, 0, cx) ^ preg)
            with m.If(acc):
                m.d.sync += creg.eq(cnext)
            with m.If(final):
                m.d.sync += c.eq(cnext)
        with m.If(self.start):
            m.d.sync += [busy.eq(1), cnt.eq(0)]
        if self.stages == 1:  # (the staged msd registers done with its accumulation)
            m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
