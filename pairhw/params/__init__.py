"""Named parameter sets, one JSON file each (fields, curves, orders, security notes).

Binary sets (family ``binary-supersingular``): E_b : y² + y = x³ + x + b over F_2^m with
f = x^m + sum x^k + 1; #E = 2^m + 1 + sign·2^((m+1)/2) = cofactor·r, embedding degree 4.
Field elements are hex of sum a_i 2^i, most significant digit first, ⌈m/4⌉ digits (docs/ARCHITECTURE.md).

Prime sets (families ``bn`` and ``bls12``): E : y² = x³ + b over F_p with p, r and the trace given
by the family polynomials in ``u`` (:func:`pairhw.math.prime.pairing.family_polys`), the tower
F_p² = F_p[u]/(u² − β), F_p⁶ = F_p²[v]/(v³ − ξ), F_p¹² = F_p⁶[w]/(w² − v) (``tower``: β, ξ as
[x0, x1] = x0 + x1·u, and the twist type D: b' = b/ξ or M: b' = b·ξ).  F_p elements are big-endian
hex of the canonical integer in [0, p), ⌈bits(p)/4⌉ digits; F_p² elements x0 + x1·u are written
``x0,x1``; G2 points ``x0,x1,y0,y1``; F_p¹² values the 12 F_p coefficients of the basis
1, u, v, uv, v², uv², w, uw, vw, uvw, v²w, uv²w.  ``g1``/``g2``, when present, are the standard
generators; otherwise the generators are hash_to_point(b"generator1") and (b"generator2").

Ternary sets (family ``ternary-supersingular``): E_b : y² = x³ − x + b (b = ±1) over
F_3^m = F_3[x]/(x^m + c_k·x^k + c_0); #E = 3^m + 1 + μ·b·3^((m+1)/2) = cofactor·r with μ = +1 for
m ≡ 1, 11 (mod 12) and −1 for m ≡ 5, 7; embedding degree 6.  Hardware encoding of F_3^m: each trit
in two bits (h, l), 0 = 00, 1 = 01, 2 = 10 (11 invalid), i.e. two m-bit words H and L with bit i of L
set iff a_i = 1 and bit i of H set iff a_i = 2.  Text form (CLI): m characters 0/1/2, coefficient of
x^(m−1) first.  Tower F_{3^3m} = F_3^m[ρ]/(ρ³ − ρ − b), F_{3^6m} = F_{3^3m}[σ]/(σ² + 1); pairing values
are the six F_3^m coefficients of the basis 1, σ, ρ, σρ, ρ², σρ² (:mod:`pairhw.math.ternary.tower`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


class UnknownParamSet(KeyError):
    pass


@dataclass(frozen=True)
class ParamSet:
    name: str
    family: str
    data: dict

    @property
    def is_prime(self) -> bool:
        return self.family in PRIME_FAMILIES

    @property
    def is_char3(self) -> bool:
        return self.family == TERNARY_FAMILY

    @property
    def m(self) -> int:
        return self.data["field"]["m"]

    @property
    def order(self) -> int:
        return int(self.data["order"])

    @property
    def r(self) -> int:
        return int(self.data["r"])

    @property
    def cofactor(self) -> int:
        return int(self.data["cofactor"])

    @property
    def security(self) -> str:
        return self.data["security"]

    def gf2m(self):
        """The binary field F_2^m of this set (:class:`pairhw.math.binary.field.GF2m`)."""
        from pairhw.math.binary.field import GF2m

        return GF2m(self.m, self.data["field"]["middle"])

    def gf3m(self):
        """The ternary field F_3^m of this set (:class:`pairhw.math.ternary.field.GF3m`)."""
        from pairhw.math.ternary.field import GF3m

        f = self.data["field"]
        return GF3m(f["m"], f["k"], f["ck"], f["c0"])

    def field_str(self) -> str:
        if self.is_char3:
            return "F_3[x]/(" + self.gf3m().poly_str() + ")"
        if self.is_prime:
            return f"F_p, p {curve(self.name).p.bit_length()} bits"
        f = self.data["field"]
        terms = [f"x^{f['m']}"] + [f"x^{k}" for k in f["middle"]] + ["1"]
        return "F_2[x]/(" + " + ".join(terms) + ")"

    def curve_str(self) -> str:
        if self.is_char3:
            return "y^2 = x^3 - x " + ("+ 1" if self.data["curve"]["b"] == 1 else "- 1")
        if self.is_prime:
            return f"y^2 = x^3 + {self.data['curve']['b']}"
        b = self.data["curve"]["b"]
        return "y^2 + y = x^3 + x" + (" + 1" if b else "")


PRIME_FAMILIES = ("bn", "bls12")
TERNARY_FAMILY = "ternary-supersingular"


def _sort_key(name: str):
    head, _, tail = name.partition("-")
    return (head.startswith("f"), head, int(tail) if tail.isdigit() else 0, name)


def names() -> list[str]:
    files = resources.files(__package__).iterdir()
    found = [f.name[:-5] for f in files if f.name.endswith(".json")]
    return sorted(found, key=_sort_key)


@lru_cache(maxsize=None)
def get(name: str) -> ParamSet:
    """The parameter set ``name`` (also by its old name, :mod:`pairhw.names`, which it then keeps)."""
    from pairhw.names import current

    try:
        text = resources.files(__package__).joinpath(f"{current(name)}.json").read_text()
    except (FileNotFoundError, OSError):
        raise UnknownParamSet(name) from None
    data = json.loads(text)
    if current(name) != name:
        data["name"] = name
    return ParamSet(data["name"], data["family"], data)


def curve(name: str):
    """The curve object of any parameter set (cached): a :class:`~pairhw.math.binary.curve.Curve2`
    (binary sets), a :class:`~pairhw.math.prime.pairing.PairingCurve` (BN/BLS12 sets) or a
    :class:`~pairhw.math.ternary.curve.Curve3` (ternary sets)."""
    p = get(name)
    if p.is_prime:
        return _prime_curve(name)
    if p.is_char3:
        return _ternary_curve(name)
    return _binary_curve(name)


@lru_cache(maxsize=None)
def _binary_curve(name: str):
    """The :class:`pairhw.math.binary.curve.Curve2` of a binary parameter set."""
    from pairhw.math.binary.curve import Curve2

    p = get(name)
    F = p.gf2m()
    return Curve2(F, p.data["curve"]["b"], p.order, p.r, name=name)


@lru_cache(maxsize=None)
def _prime_curve(name: str):
    """The :class:`pairhw.math.prime.pairing.PairingCurve` of a BN/BLS12 parameter set, with its
    generators ``g1``, ``g2`` attached (cached)."""
    from pairhw.math.prime.pairing import PairingCurve

    d = get(name).data
    tw = d["tower"]
    C = PairingCurve(name, d["family"], int(d["u"]), d["curve"]["b"], tw["beta"], tw["xi"], tw["twist"])
    if "g1" in d:
        C.g1 = tuple(int(x, 16) for x in d["g1"])
        x0, x1, y0, y1 = (int(x, 16) for x in d["g2"])
        C.g2 = ((x0, x1), (y0, y1))
    else:
        C.g1 = C.E1.hash_to_point(b"generator1")
        C.g2 = C.E2.hash_to_point(b"generator2")
    return C


@lru_cache(maxsize=None)
def _ternary_curve(name: str):
    """The :class:`pairhw.math.ternary.curve.Curve3` of a ternary parameter set (cached); its order is
    recomputed from m, b and μ and must equal the stored one."""
    from pairhw.math.ternary.curve import Curve3

    p = get(name)
    C = Curve3(p.gf3m(), p.data["curve"]["b"], p.r, name=name)
    if C.order != p.order:
        raise ValueError(f"{name}: stored order disagrees with 3^m + 1 + mu*b*3^((m+1)/2)")
    return C
