"""A unit output chosen per microcode word among several networks (the k of a power unit)."""

from __future__ import annotations


def drive_selected(m, target, sel, outs) -> None:
    """``target`` = ``outs[sel]`` (combinational); a single output needs no ``sel``."""
    if len(outs) == 1:
        m.d.comb += target.eq(outs[0])
        return
    with m.Switch(sel):
        for i, o in enumerate(outs):
            with m.Case(i):
                m.d.comb += target.eq(o)
