"""F_3^m multipliers by name (the ``mul`` units of a design on a ternary parameter set, and
``pairhw unit … --curve f3-…``)."""

from __future__ import annotations

from pairhw.math.ternary.field import GF3m

from .digit_serial import DigitSerialMul3
from .karatsuba import KaratsubaMul3
from .schoolbook import SchoolbookMul3

#: kind -> what it is
KINDS = {
    "schoolbook": "fully parallel schoolbook multiplier, one product per cycle, latency 1 (--stages 2 or "
                  "3: its tree of partial products cut by registers)",
    "karatsuba": "Beuchat et al.: fully parallel Karatsuba, a split per level (2, 3, oe: --schedule), "
                 "pipeline registers (--stages or --registers), one product per cycle",
    "msd": "digit-serial, most significant digit first, D trits per cycle (--digit D; --stages 2: each "
           "digit's product sum registered before it is accumulated, 3: the x^j·b array too)",
}

#: kind -> the options it takes
OPTIONS = {"schoolbook": ("stages",), "karatsuba": ("schedule", "stages", "registers"), "msd": ("digit", "stages")}


from pairhw.rtl.ports import KindError  # noqa: E402,F401 - one error for every family


def make_unit(kind: str, F: GF3m, **options):
    """The multiplier ``kind`` of :data:`KINDS` over ``F``; options of :data:`OPTIONS` that are None
    are left out."""
    if kind not in KINDS:
        raise KindError(f"unknown F_3^m multiplier kind {kind!r}; kinds: {', '.join(KINDS)}")
    options = {k: v for k, v in options.items() if v is not None and v is not False}
    extra = [k for k in options if k not in OPTIONS[kind]]
    if extra:
        takes = ", ".join(OPTIONS[kind]) or "no options"
        raise KindError(f"the {kind} F_3^m multiplier takes {takes} (got {', '.join(extra)})")
    if kind == "msd" and "digit" not in options:
        raise KindError("the msd F_3^m multiplier needs a digit size (--digit D)")
    try:
        if kind == "schoolbook":
            return SchoolbookMul3(F, options.get("stages", 1))
        if kind == "msd":
            return DigitSerialMul3(F, int(options["digit"]), options.get("stages", 1))
        sched = options.get("schedule")
        return KaratsubaMul3(F, None if sched is None else tuple(str(s) for s in sched),
                             options.get("registers"), options.get("stages"))
    except ValueError as e:  # a bad digit size, split schedule or register placement
        raise KindError(str(e)) from None


def ternary_field(m: int) -> GF3m:
    """F_3^m of a parameter set with this m, else the irreducible trinomial x^m + c_k·x^k + c_0 with
    the least k (then c_k, then c_0)."""
    from pairhw import params

    if m < 2:
        raise KindError(f"m must be at least 2, not {m}")
    for name in params.names():
        p = params.get(name)
        if p.family.startswith("ternary") and p.m == m:
            return params.curve(name).F
    for k in range(1, m):
        for ck in (1, 2):
            for c0 in (1, 2):
                try:
                    return GF3m(m, k, ck, c0)
                except ValueError:
                    pass
    raise KindError(f"no irreducible trinomial of degree {m} over F_3")
