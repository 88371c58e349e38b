"""A unit output chosen per microcode word among several networks (the k of a power unit), and the
copies of a unit's control input (:func:`copy_ranges`)."""

from __future__ import annotations

from amaranth.hdl import Shape


def copy_ranges(n: int, copies: int) -> list:
    """The elements ``[lo, hi)`` of each of ``copies`` copies of a control input over ``n`` elements
    (trits or bits), in order and as even as they come: copy j drives only its own elements, so a
    control net reaches a part of the unit, not all of it (the core's ``slice_controls``)."""
    if not 1 <= copies <= n:
        raise ValueError(f"a control input over {n} elements takes 1 to {n} copies, not {copies}")
    return [(j * n // copies, (j + 1) * n // copies) for j in range(copies)]


def select_port(choices: int, copies: int = 1):
    """The shape of a ``sel`` input among ``choices`` outputs: ``range(choices)``, or with ``copies``
    > 1 that many such selects side by side (what :func:`drive_selected` takes)."""
    return range(choices) if copies == 1 else Shape.cast(range(choices)).width * copies


def drive_selected(m, target, sel, outs, copies: int = 1, halves: int = 1) -> None:
    """``target`` = ``outs[sel]`` (combinational); a single output needs no ``sel``.  With ``copies``
    > 1, ``sel`` holds that many copies of the select, and copy j chooses the elements of
    :func:`copy_ranges` j; an element is ``halves`` bits, one in each equal part of ``target``
    (an F_3^m element's L and H words: 2)."""
    if len(outs) == 1:
        m.d.comb += target.eq(outs[0])
        return
    if copies == 1:
        with m.Switch(sel):
            for i, o in enumerate(outs):
                with m.Case(i):
                    m.d.comb += target.eq(o)
        return
    n = len(target) // halves
    w = len(sel) // copies
    for j, (lo, hi) in enumerate(copy_ranges(n, copies)):
        bits = [(h * n + lo, h * n + hi) for h in range(halves)]
        with m.Switch(sel[j * w:(j + 1) * w]):
            for i, o in enumerate(outs):
                with m.Case(i):
                    m.d.comb += [target[a:b].eq(o[a:b]) for a, b in bits]
