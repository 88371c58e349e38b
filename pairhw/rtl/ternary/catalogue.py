"""F_3^m multipliers by name (the ``mul`` units of a design on a ternary parameter set)."""

from __future__ import annotations

from pairhw.math.ternary.field import GF3m

from .schoolbook import SchoolbookMul3

#: kind -> what it is
KINDS = {"schoolbook": "fully parallel schoolbook multiplier, one product per cycle, latency 1"}


class KindError(ValueError):
    pass


def make_unit(kind: str, F: GF3m, **options):
    """The multiplier ``kind`` of :data:`KINDS` over ``F`` (no options yet)."""
    if kind not in KINDS:
        raise KindError(f"unknown F_3^m multiplier kind {kind!r}; kinds: {', '.join(KINDS)}")
    if options:
        raise KindError(f"the {kind} F_3^m multiplier takes no options (got {', '.join(options)})")
    return SchoolbookMul3(F)
