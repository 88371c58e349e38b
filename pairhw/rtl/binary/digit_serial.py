"""DigitSerialMul: LSD/MSD digit-serial and bit-serial multipliers."""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal

from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from pairhw.rtl.ports import REPLICA
from pairhw.rtl.serial import late_accumulation, serial_counter
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


def slice_sources(F: GF2m, D: int, lo: int, hi: int) -> list[int]:
    """The bits of b that output bits lo … hi − 1 of the x^i·b arrays (i < D) read, in order."""
    mask = ((1 << hi) - 1) ^ ((1 << lo) - 1)
    return [k for k in range(F.m) if any(F.reduce(1 << (k + i)) & mask for i in range(D))]


def sliced_digit_products(m, F: GF2m, digit, b_regs, sources, D: int, width: int) -> list:
    """An MSD step's digit products cut into slices of ``width`` output bits: slice s reads the
    digit ``digit[s]`` and ``b_regs[s]``, its own registers of the bits ``sources[s]`` of b
    (:func:`slice_sources`), so that no operand bit drives the whole product."""
    out = []
    for s, (lo, src) in enumerate(zip(range(0, F.m, width), sources)):
        hi = min(lo + width, F.m)
        xb = [nets.linear_net(m, b_regs[s], [(F.reduce(1 << (k + i)) >> lo) & ((1 << (hi - lo)) - 1) for k in src],
                              hi - lo, f"xb{i}_s{s}") for i in range(D)]
        out.append(nets.xor_tree([xb[j] & digit[s][j].replicate(hi - lo) for j in range(D)]))
    return out


def msd_step(m, F: GF2m, creg, digit, xb, D: int, cx_name: str = "cxd", next_name: str = "cnext") -> Signal:
    """One MSD step: C·x^D mod f + Σ_i digit_i·(x^i·B mod f) (seed 001 §5.1.2, structure 1)."""
    cx = times_xd(m, F, creg, D, cx_name)
    nxt = Signal(F.m, name=next_name)
    m.d.comb += nxt.eq(cx ^ digit_products(F, digit, xb, D))
    return nxt


def msd_accumulate(m, F: GF2m, creg, preg, first, D: int, cx_name: str = "cxd", next_name: str = "cnext") -> Signal:
    """A staged MSD step's accumulation: C·x^D mod f + P, ``preg`` the registered digit-product sum P
    of the step before (:func:`digit_products`), the first of a product into a cleared C (``first``),
    so that a new product needs no clearing cycle."""
    cx = times_xd(m, F, creg, D, cx_name)
    nxt = Signal(F.m, name=next_name)
    m.d.comb += nxt.eq(Mux(first, 0, cx) ^ preg)
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
        ``lsd`` 1 or 2: 2 registers the XOR of a step's digit rows A·b_j·x^j (they do not depend on C)
        and accumulates it into C a cycle later (a cycle more latency, the same initiation interval).
        ``msd`` 1 to 3. 1: a step is C·x^D mod f plus the digit products' XOR tree, in one cycle.
        2: the sum of a step's digit products (it does not depend on C) is registered and accumulated
        a cycle later, so the tree and the accumulation C ← C·x^D mod f + P are separate cycles (a cycle
        more latency, the same initiation interval). 3: as 2, and the x^j·B array is computed from the
        input b at start and registered instead of b (D·m flip-flops instead of m; no further cycle).
    slice_bits : int, optional
        ``msd`` with 2 stages only: the digit-product sum is cut into slices of this many bits, each
        reading flip-flops of its own: the digit (loaded as the digit register is, from the same
        multiplexer) and the bits of b its x^j·B rows read (loaded at start).  A digit bit then drives
        one slice instead of all m sums, and a bit of b the few slices that read it: the same cycles
        and logic, flip-flops instead of long nets.
    start_copies : bool
        With ``slice_bits``: ``start`` is 1 + slices bits, copies of the start that its driver keeps
        in registers of their own (the core's ``slice_controls``; :meth:`copied`): bit 0 starts the
        counter and loads a's register, bit 1 + s slice s's digit and b registers.
    free_run : bool
        ``msd`` with 2 stages: a's shift register, the sum's register and C load every cycle.
    digit_groups : int, optional
        With ``slice_bits``: a register of each group of this many slices loads the digit (the
        multiplexer once a group), which the group's slices load; b passes a register (``breg_d``)
        the slices load a cycle after the start, as a product's last digit is summed after the next
        product has started. A cycle more latency, the same initiation interval.
    """

    def __init__(self, F: GF2m, digit: int, order: str = "lsd", stages: int = 1, slice_bits: int | None = None,
                 start_copies: bool = False, free_run: bool = False, digit_groups: int | None = None):
        if digit < 1 or digit > F.m:
            raise ValueError(f"digit size must be between 1 and m = {F.m}, not {digit}")
        if order not in ("lsd", "msd"):
            raise ValueError(f"unknown digit order {order!r}")
        if stages not in ((1, 2, 3) if order == "msd" else (1, 2)):
            raise ValueError(f"a digit-serial multiplier has 1 or 2 stages (msd: 1 to 3), not {stages}")
        if slice_bits is not None and (order != "msd" or stages != 2 or not 1 <= slice_bits <= F.m):
            raise ValueError(f"slice_bits applies to msd with 2 stages, 1 to m = {F.m} bits "
                             f"(not {order} with {stages} stages and {slice_bits} bits)")
        if free_run and (order != "msd" or stages != 2):
            raise ValueError(f"free_run applies to msd with 2 stages (not {order} with {stages} stages)")
        if digit_groups is not None and (not slice_bits or digit_groups < 1):
            raise ValueError(f"digit_groups applies to msd with slice_bits, a group of at least 1 slice "
                             f"(not {digit_groups} with slice_bits {slice_bits})")
        self.digit = digit
        self.digit_groups = digit_groups
        self.order = order
        self.stages = stages
        self.slice_bits = slice_bits
        self.free_run = free_run
        self.name = (f"{order.capitalize()}Mul_m{F.m}_d{digit}" + (f"_p{stages}" if stages > 1 else "")
                     + (f"_s{slice_bits}" if slice_bits else "") + ("_fr" if free_run else "")
                     + (f"_g{digit_groups}" if digit_groups else ""))
        # start_copies: ``start`` is 1 + slices copies of the start, each from a register of its
        # own: copy 0 for the counter and a's register, copy 1 + s for slice s's registers
        self.control_copies = 1 + -(-F.m // slice_bits) if start_copies and slice_bits else 1
        super().__init__(F, self.control_copies)

    def copied(self, copies: int) -> "DigitSerialMul":
        """With ``slice_bits``, this multiplier with a copy of ``start`` for each slice of its
        digit-product sum and one for its counter (``copies`` is its own: one a slice, not the
        core's), so the start reaches a slice's digit and b registers from a register of their own;
        the same products and cycles.  Without, itself."""
        if not self.slice_bits:
            return self
        return DigitSerialMul(self.F, self.digit, self.order, self.stages, self.slice_bits, start_copies=True,
                              free_run=self.free_run, digit_groups=self.digit_groups)

    def _start_copy(self, k: int):
        """Copy ``k`` of the start (:attr:`control_copies`: 0 the counter's and a's, 1 + s slice s's), or
        the one start without copies."""
        return self.start[k] if self.control_copies > 1 else self.start

    @property
    def initiation_interval(self) -> int:
        return -(-self.F.m // self.digit)

    @property
    def latency(self) -> int:
        return self.initiation_interval + (1 if self.stages == 1 else 2) + (self.digit_groups is not None)

    def emulate(self, a: int, b: int) -> int:
        fn = mulalg.lsd if self.order == "lsd" else mulalg.msd
        return fn(self.F, a, b, self.digit)

    def elaborate(self, platform):
        m = Module()
        F, D = self.F, self.digit
        # with start_copies, copy 0 is the counter's and a's register's
        start = self._start_copy(0)
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
            if self.stages == 1:
                m.d.comb += cnext.eq(creg ^ nets.xor_tree(rows))
            ashift = nets.linear_net(m, areg, [F.reduce(1 << (j + D)) for j in range(F.m)], F.m, "axd")
            if self.stages == 1:
                with m.If(busy):
                    m.d.sync += [creg.eq(cnext), areg.eq(ashift), breg.eq(breg >> D)]
            else:  # the rows' XOR registered, accumulated a cycle later (the first into a cleared C)
                preg = Signal(F.m + D - 1, name="preg")
                with m.If(busy):
                    m.d.sync += [preg.eq(nets.xor_tree(rows)), areg.eq(ashift), breg.eq(breg >> D)]
                acc, first, final = late_accumulation(m, busy, cnt, last, done)
                m.d.comb += cnext.eq(Mux(first, 0, creg) ^ preg)
                with m.If(acc):
                    m.d.sync += creg.eq(cnext)
            red = nets.linear_net(m, cnext, reduction_columns(F, F.m + D - 1), F.m, "red")
            with m.If(last if self.stages == 1 else final):
                m.d.sync += c.eq(red)
            with m.If(start):
                m.d.sync += [areg.eq(self.a), breg.eq(self.b)] + ([creg.eq(0)] if self.stages == 1 else [])
        elif self.stages == 1:
            areg = Signal(T * D, name="areg")
            breg = Signal(F.m, name="breg")
            creg = Signal(F.m, name="creg")
            cnext = msd_step(m, F, creg, areg[T * D - D:T * D], shared_xb(m, F, breg, D), D)
            with m.If(busy):
                m.d.sync += [creg.eq(cnext), areg.eq(areg << D)]
            with m.If(last):
                m.d.sync += c.eq(cnext)
            with m.If(start):
                m.d.sync += [areg.eq(self.a), breg.eq(self.b), creg.eq(0)]
        else:
            areg = Signal(T * D, name="areg")
            creg = Signal(F.m, name="creg")
            if self.slice_bits:
                psum_parts = self._sliced_sum(m, areg)
            elif self.stages == 3:
                # the x^j·B array is a function of b alone: computed once, from the input, at start
                xb = [Signal(F.m, name=f"xbreg{j}") for j in range(D)]
                with m.If(start):
                    m.d.sync += [r.eq(v) for r, v in zip(xb, shared_xb(m, F, self.b, D, "xbin"))]
            else:
                breg = Signal(F.m, name="breg")
                xb = shared_xb(m, F, breg, D)
                with m.If(start):
                    m.d.sync += breg.eq(self.b)
            digit = areg[T * D - D:T * D]
            # free_run: a's shift register, the sum's register and C load every cycle, since outside a
            # product none of them is read (the first sum of a product goes into a cleared C), so no
            # enable net spans their m bits; only the counter, the result and the start's loads hold
            with m.If(busy if not self.free_run else 1):
                m.d.sync += areg.eq(areg << D)
            with m.If(start):
                m.d.sync += areg.eq(self.a)
            # P_t = Σ digit_i·(x^i·B mod f) needs no C: registered, it is accumulated a cycle later
            # (C ← C·x^D mod f + P_t), the first P of a product into a cleared C
            psum, preg = Signal(F.m, name="psum"), Signal(F.m, name="preg")
            m.d.comb += psum.eq(Cat(*psum_parts) if self.slice_bits else digit_products(F, digit, xb, D))
            steps = busy, cnt, last  # the steps whose sums preg takes
            if self.digit_groups:  # the slices' digits a register later (a group's first): the sums too
                steps = Signal(name="busy_d"), Signal.like(cnt, name="cnt_d"), Signal(name="last_d")
                m.d.sync += [steps[0].eq(busy), steps[1].eq(cnt), steps[2].eq(last)]
            with m.If(steps[0] if not self.free_run else 1):
                m.d.sync += preg.eq(psum)
            acc, first, final = late_accumulation(m, *steps, done)
            cnext = msd_accumulate(m, F, creg, preg, first, D)
            with m.If(acc if not self.free_run else 1):
                m.d.sync += creg.eq(cnext)
            with m.If(final):
                m.d.sync += c.eq(cnext)
        with m.If(start):
            m.d.sync += [busy.eq(1), cnt.eq(0)]
        if self.stages == 1:  # (the staged msd registers done with its accumulation)
            m.d.sync += done.eq(last)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m

    def _sliced_sum(self, m, areg) -> list:
        """The digit-product sum's slices (:func:`sliced_digit_products`) and their registers: each
        slice's digit register loads, every cycle, what the digit register (areg's top digit) loads
        when it changes (a's top digit at start, areg's next digit while busy; outside a product its
        value is not read), and its b register its bits of b at start."""
        F, D, T = self.F, self.digit, self.initiation_interval
        w = self.slice_bits or F.m
        a_top = Signal(D, name="a_top")
        m.d.comb += a_top.eq(self.a.as_unsigned() >> (T * D - D))
        digits, b_regs = [], []
        sources = [slice_sources(F, D, lo, min(lo + w, F.m)) for lo in range(0, F.m, w)]
        G = self.digit_groups
        b_in = self.b
        if G:  # b a register later too, so a slice's b holds until its product's last (delayed) digit
            b_in = Signal(F.m, name="breg_d")
            with m.If(self._start_copy(0)):
                m.d.sync += b_in.eq(self.b)
        for s, src in enumerate(sources):
            start = self._start_copy(1 + s)
            d = Signal(D, name=f"digit_s{s}", attrs={REPLICA: 1})
            b = Signal(len(src), name=f"breg_s{s}", attrs={REPLICA: 1})
            pick = Mux(start, a_top, areg[T * D - 2 * D:T * D - D] if T > 1 else 0)
            if G:  # digit_groups: a register of each group of G slices loads the digit, its slices that
                if s % G == 0:  # (the group's register on its first slice's start copy)
                    group = Signal(D, name=f"digit_g{s // G}", attrs={REPLICA: 1})
                    m.d.sync += group.eq(pick)
                m.d.sync += d.eq(group)
                start_d = Signal(name=f"start_d{s}")
                m.d.sync += start_d.eq(start)
                start = start_d
            else:
                m.d.sync += d.eq(pick)
            with m.If(start):
                m.d.sync += b.eq(Cat(*(b_in[k] for k in src)))
            digits.append(d)
            b_regs.append(b)
        return sliced_digit_products(m, F, digits, b_regs, sources, D, w)
