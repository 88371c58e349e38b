"""F_p multipliers by name (``pairhw unit … --curve bn254|bls12-381|bn-chavez11`` or ``--p P``, and the
``mul`` units of a design on a prime parameter set)."""

from __future__ import annotations

from functools import lru_cache
from math import isqrt

from pairhw.math.prime.field import PrimeField, is_probable_prime

from .montgomery import MontgomeryCounters, MontgomeryIterative, MontgomeryPipelined
from .polymont import PolyMontMul

#: kind -> what it is
KINDS = {
    "montgomery-pipelined": "Montgomery (separated operand scanning, unrolled): 24 x 17-bit DSP pieces, "
                            "one product per cycle, a register every --levels L adder-tree levels (default 1), "
                            "output in [0, p); with --segment S, counter trees and S-bit carry-chain segments "
                            "instead of the adder tree (a depth that does not grow with p; --levels: counter "
                            "levels per register, default 5; --lut6: each counter output a LUT6 primitive; --cascade N: "
                            "the pieces of a column summed N at a time along DSP cascades, 24 x 16-bit pieces, "
                            "N - 1 cycles more latency a product and a few bits a column for the counters; --cascade-step 2: two DSPs "
                            "of a chain between registers, half those cycles; --dsp-adders A: A DSP48E1s more, each adding two "
                            "cascades of one offset as a 48-bit adder, no register, before the counters)",
    "montgomery-iterative": "Montgomery by FIOS (Koc et al. 1996): one digit of --digit W bits (default 17) "
                            "per cycle, s(s + 2) + 1 cycles per product, output in [0, p); with --per-cycle K, "
                            "K digits a cycle on 2K DSP pieces, a product every s(1 + L/K) + 1 cycles "
                            "(L: s + 1 rounded up to a multiple of K); --stages 2: p's digits and a_0*b_i from "
                            "registers and the final subtraction of p a cycle of its own, 3: that subtraction "
                            "in two cycles (a cycle more latency a stage)",
    "polymont-chavez11": "Chavez Corona et al.: polynomial (t-adic) Montgomery, five-term Karatsuba on one "
                        "64 x 64 multiplier of 12 DSP pieces; BN primes p(t) only; --levels L: its adder "
                        "tree's levels per register (default 1; more: a shorter latency, a deeper path)",
}

#: kind -> the options it takes
OPTIONS = {"montgomery-pipelined": ("levels", "segment", "lut6", "cascade", "cascade_step", "dsp_adders"),
           "montgomery-iterative": ("digit", "per_cycle", "stages"), "polymont-chavez11": ("levels",)}

#: most bits of p the units are built for (the issue's "~400 bits", with room)
MAX_BITS = 1024


from pairhw.rtl.ports import KindError  # noqa: E402,F401 - one error for every family


def bn_t(p: int):
    """(t, n) with p = 36t⁴ + 36t³ + 24t² + 6t + 1: a parameter set's own n where it has one (seed
    002's form), else the power of two nearest t; None if p is not a BN prime."""
    from pairhw import params
    from pairhw.math.prime.polymont import bn_p

    for name in params.names():
        ps = params.get(name)
        if ps.family == "bn" and params.curve(name).p == p:
            t = int(ps.data["u"])
            return t, ps.data.get("seed002", {}).get("n")
    r = isqrt(isqrt(p // 36))
    for t in range(r - 2, r + 3):
        for cand in (t, -t):
            if cand and bn_p(cand) == p:
                return cand, None
    return None


def make_unit(kind: str, F: PrimeField, **options):
    """The multiplier ``kind`` of :data:`KINDS` over F_p; options of :data:`OPTIONS` that are None are
    left out; ``kind`` may be an old name (:mod:`pairhw.names`)."""
    from pairhw.names import current

    kind = current(kind)
    if kind not in KINDS:
        raise KindError(f"unknown F_p multiplier kind {kind!r}; kinds: {', '.join(KINDS)}")
    options = {k: v for k, v in options.items() if v is not None and v is not False}
    extra = [k for k in options if k not in OPTIONS[kind]]
    if extra:
        takes = ", ".join(OPTIONS[kind]) or "no options"
        raise KindError(f"the {kind} F_p multiplier takes {takes} (got {', '.join(extra)})")
    if F.bits > MAX_BITS:
        raise KindError(f"p has {F.bits} bits; the F_p units are built for at most {MAX_BITS}")
    try:
        if options.get("dsp_adders") and not (options.get("lut6") and int(options.get("cascade", 1)) > 1):
            raise KindError("dsp_adders (DSP48E1s adding pairs of cascades) go with segment, cascade > 1 and lut6 "
                            "(the unit's vendor cells)")
        if kind == "montgomery-pipelined" and "segment" in options:
            return MontgomeryCounters(F, levels=int(options.get("levels", 5)), seg=int(options["segment"]),
                                      lut6=bool(options.get("lut6")), chain=int(options.get("cascade", 1)),
                                      step=int(options.get("cascade_step", 1)),
                                      adders=int(options.get("dsp_adders", 0)))
        if options.get("lut6"):
            raise KindError("lut6 (counters as LUT6 primitives) goes with segment: the counter-tree unit")
        if "cascade" in options or "cascade_step" in options or "dsp_adders" in options:
            raise KindError("cascade (DSP chains summing a column's pieces) goes with segment: the counter-tree unit")
        if kind == "montgomery-pipelined":
            return MontgomeryPipelined(F, levels=int(options.get("levels", 1)))
        if kind == "montgomery-iterative":
            return MontgomeryIterative(F, int(options.get("digit", 17)), int(options.get("per_cycle", 1)),
                                       int(options.get("stages", 1)))
        return PolyMontMul(F, polymont_of(F), int(options.get("levels", 1)))
    except KindError:
        raise
    except ValueError as e:  # a bad word size, no closed coefficient domain, operands over 64 bits
        raise KindError(str(e)) from None


def polymont_of(F: PrimeField):
    """Seed 002's :class:`~pairhw.math.prime.polymont.PolyMont` for F_p, with its closed domains
    (:class:`KindError` unless p is a BN prime whose t = 2ⁿ + s closes them); one per p."""
    return _polymont(F.p)


@lru_cache(maxsize=None)
def _polymont(p: int):
    from pairhw.math.prime.polymont import PolyMont

    tn = bn_t(p)
    if tn is None:
        raise KindError("polymont-chavez11 needs a BN prime p = 36t^4 + 36t^3 + 24t^2 + 6t + 1 "
                        "(bn-chavez11, bn254); this p is not one")
    try:
        pm = PolyMont(*tn)
        pm.carry_rounds  # noqa: B018 (the range analysis)
        pm.arith_domain  # noqa: B018
    except ValueError as e:
        raise KindError(f"polymont-chavez11: {e} for t = {tn[0]} (seed 002's form needs t = 2^n + s "
                        f"with small s, as bn-chavez11 has)") from None
    return pm


def prime_field(text: str) -> PrimeField:
    """F_p of ``--p``: an odd prime in decimal or 0x-hex."""
    try:
        p = int(text, 0)
    except ValueError:
        raise KindError(f"--p: expected an odd prime in decimal or 0x-hex, got {text!r}") from None
    if p < 3 or p % 2 == 0 or not is_probable_prime(p):
        raise KindError(f"--p: {text} is not an odd prime")
    if p.bit_length() > MAX_BITS:
        raise KindError(f"--p: {p.bit_length()} bits; the F_p units are built for at most {MAX_BITS}")
    return PrimeField(p)
