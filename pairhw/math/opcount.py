"""Operation counting: run any pairing with a counting base field.

:class:`CountingGF2m` wraps a :class:`~pairhw.math.binary.field.GF2m` and counts every F_2^m operation the
tower and pairing code performs, keyed by the phase stack (``miller``, ``final_exp/step2/step5``...).
Counted: ``add`` (an F_2^m addition of two variables; adding the constant 1 flips one bit and is not
counted), ``mul``, ``sqr`` and ``sqrt`` (a k-fold squaring counts k), ``inv`` (an F_2^m inversion;
its Itoh–Tsujii chain's products and squarings are counted too, in the same phase).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pairhw.math.binary.curve import Curve2
from pairhw.math.binary.field import GF2m

OPS = ("add", "mul", "sqr", "sqrt", "inv")


class _Phase:
    def __init__(self, owner, name):
        self.owner, self.name = owner, name

    def __enter__(self):
        self.owner._stack.append(self.name)
        return self

    def __exit__(self, *exc):
        self.owner._stack.pop()
        return False


class _Counting:
    """Per-phase operation counters shared by the counting fields."""

    OPS: tuple = OPS

    def __init__(self):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self._stack: list[str] = []

    def phase(self, name: str):
        return _Phase(self, name)

    def _tick(self, op: str, n: int = 1) -> None:
        self.counts["/".join(self._stack) or "other"][op] += n

    def total(self, prefix: str = "") -> Counter:
        """Sum of counts over phases equal to or under ``prefix`` ('' = everything)."""
        out = Counter()
        for key, c in self.counts.items():
            if not prefix or key == prefix or key.startswith(prefix + "/"):
                out.update(c)
        return Counter({op: out.get(op, 0) for op in self.OPS})


class CountingGF2m(_Counting):
    """A GF2m look-alike that counts operations per phase."""

    def __init__(self, F: GF2m):
        super().__init__()
        self._F = F
        self.m, self.mask, self.chain = F.m, F.mask, F.chain

    def add(self, a, b):
        self._tick("add")
        return a ^ b

    def mul(self, a, b):
        self._tick("mul")
        return self._F.mul(a, b)

    def sqr(self, a):
        self._tick("sqr")
        return self._F.sqr(a)

    def sqr_k(self, a, k):
        self._tick("sqr", k)
        return self._F.sqr_k(a, k)

    def sqrt(self, a):
        self._tick("sqrt")
        return self._F.sqrt(a)

    def sqrt_k(self, a, k):
        self._tick("sqrt", k)
        return self._F.sqrt_k(a, k)

    def inv(self, a):
        self._tick("inv")
        return self._F.chain.run(self, a)

    def inv_euclid(self, a):
        return self._F.inv_euclid(a)

    def __getattr__(self, name):  # to_hex, reduce, trace... pass through uncounted
        return getattr(self._F, name)


def count_pairing(C: Curve2, algorithm, P, Q) -> CountingGF2m:
    """Run ``algorithm(C', P, Q)`` on a copy C' of C over a counting field; return the counter."""
    CF = CountingGF2m(C.F)
    Cc = Curve2(CF, C.b, C.order, C.r, name=C.name)
    algorithm(Cc, P, Q)
    return CF


# Seed 000 Table 3 (final exponentiation, per step of Alg. 2), as printed in the paper.
ADIKARI12_TABLE3 = {
    "step1": {"add": 2, "sqr+sqrt": 0, "mul": 0},
    "step2": {"add": 14, "sqr+sqrt": 1225, "mul": 24},
    "step3": {"add": 21, "sqr+sqrt": 0, "mul": 9},
    "step4": {"add": 2, "sqr+sqrt": 0, "mul": 0},
    "step5": {"add": 2, "sqr+sqrt": 2444, "mul": 0},
    "step6": {"add": 6, "sqr+sqrt": 0, "mul": 0},
    "step7": {"add": 42, "sqr+sqrt": 0, "mul": 18},
}
ADIKARI12_TABLE3_TOTAL = {"add": 89, "sqr+sqrt": 3669, "mul": 51}


# ---------------------------------------------------------------------------------------------
# prime fields

OPS_P = ("mul", "sqr", "add", "neg", "mulc", "inv")


def _counted(op: str, method: str):
    """A method that ticks ``op`` and forwards to the wrapped field's ``method``."""
    def run(self, *args):
        self._tick(op)
        return getattr(self._F, method)(*args)

    run.__name__ = method
    return run


class _CountingWrapper(_Counting):
    """Counts around a wrapped field ``_F``; everything not counted passes through."""

    def __init__(self, F):
        super().__init__()
        self._F = F

    def __getattr__(self, name):
        return getattr(self._F, name)


class CountingFp(_CountingWrapper):
    """A :class:`~pairhw.math.prime.field.PrimeField` look-alike counting F_p operations per phase:
    ``mul`` and ``sqr`` (general products), ``add`` (additions and subtractions), ``neg``,
    ``mulc`` (product by a small constant: 2, 3, ξ's parts — shifts and adds in hardware),
    ``inv``."""

    OPS = OPS_P

    add = _counted("add", "add")
    sub = _counted("add", "sub")
    neg = _counted("neg", "neg")
    mul = _counted("mul", "mul")
    sqr = _counted("sqr", "sqr")
    mul_int = _counted("mulc", "mul_int")
    inv = _counted("inv", "inv")


def count_pairing_p(C, algorithm, P, Q) -> CountingFp:
    """Run ``algorithm(C', P, Q)`` on a copy C' of a PairingCurve whose tower runs over a
    counting F_p; return the counter."""
    CF = CountingFp(C.F)
    Cc = C.over_field(CF)
    algorithm(Cc, P, Q)
    return CF


# ---------------------------------------------------------------------------------------------
# characteristic three

OPS_3 = ("mul", "cube", "cbrt", "add", "neg", "inv")


class CountingGF3m(_CountingWrapper):
    """A :class:`~pairhw.math.ternary.field.GF3m` look-alike counting F_3^m operations per phase: ``mul``,
    ``cube`` and ``cbrt`` (a k-fold cubing counts k), ``add`` (additions and subtractions, adding a
    constant included), ``neg`` (free in the two-bit encoding: a wire swap), ``inv`` (its Itoh–Tsujii
    products and cubings are counted too, in the same phase)."""

    OPS = OPS_3

    add = _counted("add", "add")
    sub = _counted("add", "sub")
    neg = _counted("neg", "neg")
    mul = _counted("mul", "mul")
    cube = _counted("cube", "cube")
    cbrt = _counted("cbrt", "cbrt")

    def cube_k(self, a, k):
        self._tick("cube", k)
        return self._F.cube_k(a, k)

    def inv(self, a):
        from pairhw.math.ternary.field import itoh_tsujii3

        self._tick("inv")
        return itoh_tsujii3(self, a)


def count_pairing3(C, algorithm, P, Q, **kw) -> CountingGF3m:
    """Run ``algorithm(C', P, Q)`` on a copy C' of a :class:`~pairhw.math.ternary.curve.Curve3` over a
    counting F_3^m; return the counter."""
    from pairhw.math.ternary.curve import Curve3

    CF = CountingGF3m(C.F)
    Cc = Curve3(CF, C.b, C.r, name=C.name)
    algorithm(Cc, P, Q, **kw)
    return CF

#: the old names of the tables (CHANGELOG.md)
SEED000_TABLE3, SEED000_TABLE3_TOTAL = ADIKARI12_TABLE3, ADIKARI12_TABLE3_TOTAL
