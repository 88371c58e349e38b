"""A unit output chosen per microcode word among several networks (the k of a power unit), the
copies of a unit's control input (:func:`copy_ranges`), and where a unit's stages cut its sums
(:func:`stage_cuts`: a power unit's networks, the F_3^m schoolbook product)."""

from __future__ import annotations

from math import ceil

from amaranth.hdl import Shape, Signal


def stage_cuts(terms: int, choices: int, stages: int) -> list:
    """The adder-tree levels after which a unit with ``stages`` registers cuts its sums (a power
    unit's networks, the schoolbook product's tree): evenly over the deepest sum's levels (``terms``
    terms, a balanced tree of two-input adders) and the select among ``choices`` networks after them
    (one level more when there are several), so each stage holds about as many levels.  A row whose
    tree ends before a cut is registered at its end; a cut past every tree registers the sums before
    the select."""
    depth = max(terms - 1, 0).bit_length() + (choices > 1)
    return [ceil(i * depth / (stages + 1)) for i in range(1, stages + 1)]


def delayed(m, value, stages: int, name: str):
    """``value`` (a unit's control input) ``stages`` cycles later, in registers ``name``_d0, _d1…,
    so that it reaches a unit's select with the data its stages hold."""
    for i in range(stages):
        q = Signal(len(value), name=f"{name}_d{i}")
        m.d.sync += q.eq(value)
        value = q
    return value


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
