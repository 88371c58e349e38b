"""The multiplier kinds of ``pairhw unit``: names → configured units (Adikari et al., 001, 003)."""

from __future__ import annotations

from functools import lru_cache

from pairhw.math.binary.field import GF2m, is_irreducible

from pairhw.rtl.binary import nets
from pairhw.rtl.binary.plan import poly_plan, tmvp_plan
from pairhw.rtl.binary.digit_serial import DigitSerialMul
from pairhw.rtl.binary.iterative import IterKaratsubaMul
from pairhw.rtl.binary.parallel import ParallelMul
from pairhw.rtl.binary.sequential import SequentialMul
from pairhw.rtl.binary.ca import CAMul, MsdGroup

KINDS = {
    "schoolbook": "fully parallel schoolbook product + reduction",
    "karatsuba": "fully parallel recursive Karatsuba (--schedule) + reduction",
    "tmvp": "fully parallel TMVP C = swap(T_A·B), Adikari et al. §3.1 (--schedule)",
    "hybrid-tmvp3": "Adikari et al. §3.2: three-way TMVP, six sequential 408-bit TMVPs at m = 1223",
    "hybrid-tmvp2": "Adikari et al.: two two-way TMVP levels, nine sequential 306-bit TMVPs",
    "hybrid-kara306": "Ghosh et al.: nine sequential 306-bit Karatsuba products + 1 reduction cycle",
    "iter-karatsuba": "Nagl et al.: iterative Karatsuba from single-port memories (--core 153|77; --stages 2 "
                      "or 3: its core's base products, and their operands, registered)",
    "lsd": "Nagl et al. Alg. 1: least-significant-digit-first digit-serial (--digit D; --stages 2: a step's "
           "digit rows registered before they are accumulated)",
    "msd": "Shu–Kwon–Gaj §5.1.2: most-significant-digit-first digit-serial (--digit D)",
    "lsb": "Nagl et al.: bit-serial (LSD with D = 1)",
    "ca1": "Shu–Kwon–Gaj's extension-field multiplier CA, scheme 1: C·(w + z·s + t) in F_2^4m by six MSD "
           "multipliers (--digit D) on three shared XOR arrays, one round (4m-bit words; --stages 2: each "
           "multiplier's digit-product sum registered before it is accumulated)",
    "ca2": "Shu–Kwon–Gaj's CA, scheme 2: three MSD multipliers (--digit D), two rounds (4m-bit words; --stages 2 "
           "as ca1)",
}

#: the kinds whose digit size ``--digit`` is
DIGIT_KINDS = ("lsd", "msd", "ca1", "ca2")

#: ``--core`` of iter-karatsuba: the Nagl et al. core width at m = 1223 → number of Karatsuba steps.
ITER_CORES = {153: 3, 77: 4}


from pairhw.rtl.ports import KindError  # noqa: E402,F401 - one error for every family


#: The packed TMVP cost model's XOR overhead per bit of a split's sub-products (LUTs): Toeplitz and
#: vector pre-additions (two-way: 2·(2h − 1) + h bits for 2h sub-product rows; three-way: XOR3s over
#: 3·(2h − 1) + 3h bits for 3h rows), and the output blocks' XORs unless the base rows absorb them.
_PRE = {2: 2.5, 3: 3.0}
_POST = 1.0


def _lut6_rows(k: int) -> int:
    return k * -(-(2 * k - 1) // 5)


def _lut6_tmvp_cost(n: int, schedule) -> float:
    """Estimated LUTs of a packed (``lut6``) TMVP of size n split by ``schedule``."""
    if not schedule:
        return float(_lut6_rows(n))
    k = schedule[0]
    h = -(-n // k)
    absorbed = len(schedule) == 1 and nets.lut6_spare_inputs(h) >= k - 1  # nets.tmvp_net
    return ((3 if k == 2 else 6) * _lut6_tmvp_cost(h, schedule[1:]) + _PRE[k] * k * h
            + (0.0 if absorbed else _POST * k * h))


@lru_cache(maxsize=None)
def _lut6_tmvp_best(n: int) -> tuple:
    """The schedule of least :func:`_lut6_tmvp_cost` (ties: fewer splits, then the smaller tuple)."""
    def schedules(n):
        yield ()
        for k in (2, 3):
            h = -(-n // k)
            if 2 <= h < n:
                yield from ((k,) + rest for rest in schedules(h))

    return min(schedules(n), key=lambda s: (_lut6_tmvp_cost(n, s), len(s), s))


def default_schedule(n: int, lut6: bool = False, method: str = "tmvp") -> tuple:
    """Adikari et al. §3.2's rule: three-way splits while the size exceeds 24, then two-way down to a
    schoolbook base of ≤ 8 bits (408 → 136 → 46 → 16 → 8; 306 → 102 → 34 → 12 → 6).

    Measured with ``synth_xilinx -family xc7`` at m = 1223 (with the step-multiplexer Tnet of an
    earlier release), stopping one level earlier (base ≤ 16) costs more LUTs: hybrid-tmvp3 50,673
    instead of 46,988, hybrid-tmvp2 35,777 instead of 33,371,
    although isolated 102- and 136-bit cores come out smaller with the 12- and 16-bit bases.

    With ``lut6`` (hand-packed base products, about 0.4 LUT per AND instead of ABC's 0.6) a TMVP
    takes the schedule of least estimated LUTs: base rows ⌈(2k − 1)/5⌉ LUTs each, plus the split
    overheads of :data:`_PRE` and :data:`_POST` (306 → 153 → 51 → 17; 408 → 204 → 102 → 51 → 17).
    Measured on isolated packed cores (``python bench/tmvp_cores.py``), the model's first choices
    were the smallest of those tried: 306 bits 16,970 LUTs (332: 17,542; 3322: 19,285), 408 bits 25,956 (2322: 26,941;
    332: 29,210).  A packed Karatsuba keeps the measured rule three-way while > 51, then two-way
    down to ≤ 24.
    """
    if lut6 and method == "tmvp":
        return _lut6_tmvp_best(n)
    three_above, two_above = (51, 24) if lut6 else (24, 8)
    out = []
    while n > three_above:
        out.append(3)
        n = -(-n // 3)
    while n > two_above:
        out.append(2)
        n = -(-n // 2)
    return tuple(out)


@lru_cache(maxsize=None)
def binary_field(m: int) -> GF2m:
    """F_2^m of a parameter set with this m, else the trinomial x^m + x^k + 1 with least k, else the
    pentanomial x^m + x^k3 + x^k2 + x^k1 + 1 with least (k3, k2, k1)."""
    from pairhw import params

    if m < 2:
        raise KindError(f"m must be at least 2, not {m}")
    for name in params.names():
        p = params.get(name)
        if p.family.startswith("binary") and p.m == m:
            return p.gf2m()
    for k in range(1, m):
        if is_irreducible((1 << m) | (1 << k) | 1):
            return GF2m(m, [k])
    for k3 in range(3, m):
        for k2 in range(2, k3):
            for k1 in range(1, k2):
                if is_irreducible((1 << m) | (1 << k3) | (1 << k2) | (1 << k1) | 1):
                    return GF2m(m, [k3, k2, k1])
    raise KindError(f"no irreducible trinomial or pentanomial of degree {m}")


#: the smallest block a split may leave: below it a split adds logic and saves no product
MIN_BLOCK = 2


def check_schedule(n: int, schedule) -> tuple:
    """``schedule`` for an n-bit parallel part, or :class:`KindError` when a split would leave blocks
    smaller than :data:`MIN_BLOCK` bits (each split k turns n bits into blocks of ⌈n/k⌉)."""
    size = n
    for i, k in enumerate(schedule):
        h = -(-size // k)
        if h < MIN_BLOCK or h >= size:  # the splits before this one all fit
            raise KindError(f"--schedule {','.join(map(str, schedule))}: split {i + 1} ({k}-way) would cut "
                            f"{size}-bit blocks into {h}-bit ones; blocks must stay at least {MIN_BLOCK} bits "
                            f"(the {n}-bit part takes at most the first {i} of these splits)")
        size = h
    return tuple(schedule)


#: Kinds whose schoolbook base products can be hand-packed into LUT6 primitives (``lut6=True``).
LUT6_KINDS = ("schoolbook", "karatsuba", "tmvp", "hybrid-tmvp3", "hybrid-tmvp2", "hybrid-kara306")


#: the kinds that take a stage count and the most they take (``stages``: 1 or 2, :class:`ParallelMul`;
#: 1 to 3, the hybrid kinds' and iter-karatsuba's core, :class:`SequentialMul`; 1 to 3, msd's
#: digit-product sum and x^i·b array, 1 or 2, lsd's and lsb's digit rows, :class:`DigitSerialMul`;
#: 1 or 2, the digit-product sums of CA's multipliers, :class:`CAMul`, and of msd lanes,
#: :class:`MsdGroup`)
MOST_STAGES = {"schoolbook": 2, "karatsuba": 2, "tmvp": 2, "hybrid-tmvp3": 3, "hybrid-tmvp2": 3, "hybrid-kara306": 3,
               "iter-karatsuba": 3, "msd": 3, "lsd": 2, "lsb": 2, "ca1": 2, "ca2": 2}
STAGED_KINDS = tuple(MOST_STAGES)


def make_unit(kind: str, F: GF2m, digit: int | None = None, schedule=None, core: int | None = None,
              lut6: bool = False, lanes: int = 1, stages: int | None = None, slice_bits: int | None = None,
              free_run: bool = False, digit_groups: int | None = None):
    """Build the multiplier ``kind`` over ``F``.

    ``schedule`` is the parallel part's split list (the whole multiplier for the parallel kinds, the
    core for the hybrid ones); default :func:`default_schedule`.  ``lut6`` builds the schoolbook
    base products from hand-packed Xilinx ``LUT6`` primitives (:data:`LUT6_KINDS` only).  ``lanes``
    k > 1: k ``msd`` multipliers sharing the operand b and its x^i·b array (:class:`MsdGroup`, seed
    001 Fig. 3), a datapath unit whose lanes the scheduler starts together.  ``stages`` (the latency;
    :data:`MOST_STAGES`) cuts a parallel multiplier's network (a hybrid one's or iter-karatsuba's
    core) with registers; msd's (lsd's, lsb's, msd lanes', ca1's and ca2's) 2 registers a step's
    digit-product sum before it is accumulated (a cycle more latency), msd's 3 its x^i·b array too.
    ``slice_bits`` (msd with 2 stages): the digit-product sum in slices of that many bits, each on
    registers of its own of the digit and of b (the same cycles).  ``free_run`` (msd with 2 stages):
    a's shift register, the digit-product sum's register and the accumulator load every cycle, with
    no enable over their m bits (outside a product none is read; the same cycles).  ``digit_groups``
    (msd with ``slice_bits``): a register of each group of that many slices loads the digit, which its
    slices' registers load (a cycle more latency; b a register later too).
    """
    if kind not in KINDS:
        raise KindError(f"unknown multiplier kind {kind!r}; kinds: {', '.join(KINDS)}")
    if lanes != 1:
        if not isinstance(lanes, int) or lanes < 1:
            raise KindError(f"lanes must be a positive integer, not {lanes}")
        if kind != "msd":
            raise KindError(f"lanes sharing an operand are msd multipliers (Shu–Kwon–Gaj's groups), not {kind}")
        if stages not in (None, 1, 2):
            raise KindError(f"msd lanes (one shared x^i·b array) have 1 or 2 stages, not {stages}")
    if schedule is not None and any(k not in (2, 3) for k in schedule):
        raise KindError(f"schedule splits must be 2 or 3, not {','.join(map(str, schedule))}")
    if kind in DIGIT_KINDS and digit is None:
        raise KindError(f"{kind} needs --digit D")
    if digit is not None and kind not in DIGIT_KINDS:
        raise KindError(f"--digit applies to {', '.join(DIGIT_KINDS)}, not {kind}")
    if core is not None and kind != "iter-karatsuba":
        raise KindError("--core applies to iter-karatsuba only")
    if lut6 and kind not in LUT6_KINDS:
        raise KindError(f"--lut6 applies to {', '.join(LUT6_KINDS)}, not {kind}")
    if schedule is not None and kind in (*DIGIT_KINDS, "lsb"):
        raise KindError(f"--schedule applies to the kinds with a parallel part, not {kind}")
    if stages is not None and kind not in STAGED_KINDS:
        raise KindError(f"--stages applies to {', '.join(STAGED_KINDS)} over F_2^m (and F_3^m karatsuba), not {kind}")
    if stages is not None and not 1 <= stages <= MOST_STAGES[kind]:
        counts = "1 to 3" if MOST_STAGES[kind] == 3 else "1 or 2"
        what = (kind if kind in ("msd", "lsd", "lsb", "ca1", "ca2", "iter-karatsuba")
                else "hybrid" if MOST_STAGES[kind] == 3 else "parallel")
        raise KindError(f"a {what} F_2^m multiplier has {counts} stages, not {stages} (the F_3^m karatsuba "
                        "multiplier takes 1 to 11)")
    if slice_bits is not None and (kind != "msd" or stages != 2):
        raise KindError(f"--slice-bits applies to msd with --stages 2, not {kind} with {stages or 1} stage(s)")
    if free_run and (kind != "msd" or stages != 2 or lanes != 1):
        raise KindError(f"--free-run applies to msd with --stages 2, not {kind} with {stages or 1} stage(s)"
                        + (" and lanes" if lanes != 1 else ""))
    if digit_groups is not None and (slice_bits is None or isinstance(digit_groups, bool)
                                     or not isinstance(digit_groups, int) or digit_groups < 1):
        raise KindError(f"--digit-groups applies to msd with --slice-bits, a whole number of slices of at "
                        f"least 1 (not {digit_groups!r}" + (")" if slice_bits else " without --slice-bits)"))
    try:
        if lanes != 1:
            return MsdGroup(F, digit, lanes, stages or 1)
        return _build(kind, F, digit, schedule, core, lut6, stages or 1, slice_bits, free_run, digit_groups)
    except KindError:
        raise
    except ValueError as e:  # the units' own checks (digit range, trinomial field)
        raise KindError(str(e)) from None


def _build(kind, F, digit, schedule, core, lut6=False, stages=1, slice_bits=None, free_run=False, digit_groups=None):
    method = "tmvp" if "tmvp" in kind else "karatsuba"

    def sched(n):
        return check_schedule(n, schedule) if schedule is not None else default_schedule(n, lut6, method)

    if kind in ("schoolbook", "karatsuba", "tmvp"):
        if kind == "schoolbook" and schedule:
            raise KindError("schoolbook takes no --schedule")
        return ParallelMul(F, kind, () if kind == "schoolbook" else sched(F.m), lut6=lut6, stages=stages)
    if kind in ("hybrid-tmvp3", "hybrid-tmvp2"):
        plan = tmvp_plan(F.m, (3,) if kind == "hybrid-tmvp3" else (2, 2))
        label = "HybridTmvp3" if kind == "hybrid-tmvp3" else "HybridTmvp2"
        return SequentialMul(F, plan, sched(plan.h), label=label, lut6=lut6, stages=stages)
    if kind == "hybrid-kara306":
        plan = poly_plan(F.m, (2, 2))
        return SequentialMul(F, plan, sched(plan.h), reduce_cycle=True, label="HybridKara", lut6=lut6,
                             stages=stages)
    if kind == "iter-karatsuba":
        core = 153 if core is None else core
        if core not in ITER_CORES:
            raise KindError(f"--core must be 153 or 77, not {core}")
        levels = ITER_CORES[core]
        if F.m < 2 << levels:
            raise KindError(f"iter-karatsuba --core {core} needs m ≥ {2 << levels}")
        word = -(-F.m // (1 << levels))
        return IterKaratsubaMul(F, word, levels, sched(word), stages=stages)
    if kind == "lsb":
        return DigitSerialMul(F, 1, "lsd", stages=stages)
    if kind in ("ca1", "ca2"):
        return CAMul(F, digit, int(kind[-1]), stages)
    return DigitSerialMul(F, digit, kind, stages=stages, slice_bits=slice_bits, free_run=free_run,
                          digit_groups=digit_groups)
