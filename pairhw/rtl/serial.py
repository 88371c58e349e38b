"""The control of an iterative unit that takes T cycles per operation (the digit-serial multipliers)."""

from __future__ import annotations

from amaranth.hdl import Module, Signal


def serial_counter(m: Module, T: int):
    """``busy``, ``cnt`` and ``last`` of a T-cycle operation: ``cnt`` counts the busy cycles and
    ``last`` marks the T-th, after which ``busy`` drops.  The unit sets ``busy`` and clears ``cnt``
    when it starts."""
    busy = Signal(name="busy")
    cnt = Signal(range(max(T, 2)), name="cnt")
    last = Signal(name="last")
    m.d.comb += last.eq(busy & (cnt == T - 1))
    with m.If(busy):
        m.d.sync += cnt.eq(cnt + 1)
        with m.If(last):
            m.d.sync += [busy.eq(0), cnt.eq(0)]
    return busy, cnt, last


def late_accumulation(m: Module, busy, cnt, last, done):
    """``acc``, ``first`` and ``final``: ``busy``, its first cycle and ``last``, a cycle later, for a
    unit that registers each step's sum and accumulates it a cycle behind its digits (the staged
    digit-serial multipliers; the first sum into a cleared accumulator); ``done`` pulses a cycle
    after ``final``."""
    acc, first, final = Signal(name="acc"), Signal(name="acc_first"), Signal(name="acc_last")
    m.d.sync += [acc.eq(busy), first.eq(busy & (cnt == 0)), final.eq(last), done.eq(final)]
    return acc, first, final
