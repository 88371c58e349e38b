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
