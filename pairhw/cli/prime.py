"""The ``pairhw`` verbs on prime-field parameter sets (BN, BLS12) and ``pairhw fp``.

F_p elements are big-endian hex of the canonical integer in [0, p); G1 points ``x,y``; G2 points
``x0,x1,y0,y1`` (x = x0 + x1·u, u² = β); F_p¹² values are the 12 F_p coefficients of the basis
1, u, v, uv, v², uv², w, uw, vw, uvw, v²w, uv²w of F_p²[v]/(v³ − ξ)[w]/(w² − v) (see
:mod:`pairhw.params`).
"""

from __future__ import annotations

import json

from pairhw import params, vectors
from pairhw.names import aliases, current
from pairhw.math import opcount as opc
from pairhw.math.prime import pairing as pairing_p
from pairhw.math.prime.curve import PointError
from pairhw.math.field import FieldError

PRIME_ALGORITHMS = tuple(pairing_p.ALGORITHMS)
PRIME_ALGORITHM_HELP = (
    "prime sets: optimal-ate (default; projective lines, NAF loop, fast final exponentiation), "
    "ate-reference (the same value by a textbook affine Miller loop and the plain exponent), "
    "tate-reference (reduced Tate t_r(P, Q), slow; a different pairing)"
)
_FUNCS = pairing_p.ALGORITHMS


def choose(name: str | None, names, family: str, UsageError) -> str:
    """``--algorithm``: ``name`` if it is one of ``names`` (the first is the default), else exit 2."""
    name = name or names[0]
    if name not in names:
        raise UsageError(f"--algorithm {name}: not for a {family}; choose one of {', '.join(names)}")
    return name


def algorithm(name: str | None, UsageError):
    name = choose(name, PRIME_ALGORITHMS, "prime-field set", UsageError)
    return name, _FUNCS[name]


def _hex_list(text: str, n: int, what: str, UsageError) -> list[str]:
    parts = [x.strip() for x in text.split(",")]
    if len(parts) != n:
        raise UsageError(f"{what}: expected {n} comma-separated hex numbers, got {text!r}")
    return parts


def parse_g1(C, text: str, what: str, UsageError):
    if text.strip().lower() == "inf":
        return None
    parts = _hex_list(text, 2, what, UsageError)
    try:
        P = tuple(C.F.from_hex(x) for x in parts)
    except FieldError as e:
        raise UsageError(f"{what}: {e}") from None
    try:
        C.E1.check(P)
    except PointError as e:
        raise UsageError(f"{what}: {e}") from None
    return P


def parse_g2(C, text: str, what: str, UsageError):
    if text.strip().lower() == "inf":
        return None
    parts = _hex_list(text, 4, what + " (G2: x0,x1,y0,y1)", UsageError)
    try:
        x0, x1, y0, y1 = (C.F.from_hex(x) for x in parts)
    except FieldError as e:
        raise UsageError(f"{what}: {e}") from None
    Q = ((x0, x1), (y0, y1))
    try:
        C.E2.check(Q)
    except PointError as e:
        raise UsageError(f"{what}: {e}") from None
    return Q


def _coords(value, n: int, what: str, UsageError) -> list[str]:
    """A point of a pairs file: a list of ``n`` hex strings (as ``pairhw vectors`` writes it) or one
    comma-separated string."""
    if isinstance(value, str):
        return _hex_list(value, n, what, UsageError)
    if not (isinstance(value, list) and len(value) == n and all(isinstance(x, str) for x in value)):
        raise UsageError(f"{what}: expected {n} hex coordinates (a list of strings or 'x,...'), got {value!r}")
    return value


def _file_point(C, value, group: int, what: str, UsageError):
    """A pairs file's point, decoded but not checked for its group (None: 'inf' or null)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "inf"):
        return None
    n = 2 if group == 1 else 4
    parts = _coords(value, n, what + (" (G1: x,y)" if group == 1 else " (G2: x0,x1,y0,y1)"), UsageError)
    try:
        xs = [C.F.from_hex(x) for x in parts]
    except FieldError as e:
        raise UsageError(f"{what}: {e}") from None
    return tuple(xs) if group == 1 else ((xs[0], xs[1]), (xs[2], xs[3]))


def read_pairs(C, path: str, UsageError) -> list:
    """The (P, Q) pairs of a pairs file: a JSON list of {"p": G1 point, "q": G2 point}, or an object
    with such a list under "pairs" (a line of ``pairhw vectors --pairs N``)."""
    try:
        with open(path) as fh:
            data = json.load(fh)
    except OSError as e:
        raise UsageError(f"--pairs {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"--pairs {path}: not JSON ({e.msg}, line {e.lineno})") from None
    if isinstance(data, dict):
        data = data.get("pairs")
    if not isinstance(data, list) or not all(isinstance(x, dict) and {"p", "q"} <= set(x) for x in data):
        raise UsageError(f"--pairs {path}: expected a list of {{\"p\": ..., \"q\": ...}} pairs "
                         f"(or an object with one under \"pairs\")")
    if not data:
        raise UsageError(f"--pairs {path}: no pairs")
    return [(_file_point(C, x["p"], 1, f"--pairs {path}: pair {i} p", UsageError),
             _file_point(C, x["q"], 2, f"--pairs {path}: pair {i} q", UsageError)) for i, x in enumerate(data)]


def invalid_pair(C, pairs) -> str | None:
    """Why the first invalid pair is invalid (a point off its curve or outside G1 / G2), or None."""
    for i, (P, Q) in enumerate(pairs):
        for what, pt, E, inside in (("p", P, C.E1, pairing_p.in_g1), ("q", Q, C.E2, pairing_p.in_g2)):
            if not E.is_on_curve(pt):
                return f"pair {i}: {what} is not on {E.name}: {E.NOT_ON_CURVE}"
            if not inside(C, pt):
                return f"pair {i}: {what} is on {E.name} but not of order r"
    return None


def curve_row(name: str) -> dict:
    p = params.get(name)
    C = params.curve(name)
    return {
        "curve": name, "family": p.family, "field": p.field_str(), "equation": p.curve_str(),
        "p": str(C.p), "p_bits": C.p.bit_length(), "u": str(C.u), "r": str(C.r),
        "r_bits": C.r.bit_length(), "cofactor": str(C.E1.cofactor),
        "g2_cofactor": str(C.E2.cofactor), "twist": C.twist,
        "embedding_degree": p.data["embedding_degree"], "source": p.data["source"],
        "security": p.security,
    }


def group_point(args, C):
    """K·P_S on G1 or G2 (``--group``) for ``pairhw point``."""
    E = C.E2 if args.group == 2 else C.E1
    return E.mul(args.scalar, E.point_from_seed(args.seed))


def opcount(args, C, UsageError) -> int:
    name, fn = algorithm(args.algorithm, UsageError)
    P, Q = vectors.points(C, 0, 0)
    cf = opc.count_pairing_p(C, fn, P, Q)
    phases = {k: dict(cf.counts[k]) for k in sorted(cf.counts)}
    totals = {"miller": dict(cf.total("miller")), "final_exp": dict(cf.total("final_exp")),
              "total": dict(cf.total())}
    if name == "optimal-ate":
        totals["final_exp/easy"] = dict(cf.total("final_exp/easy"))
        totals["final_exp/hard"] = dict(cf.total("final_exp/hard"))
    out = {"curve": args.curve, "algorithm": name, "totals": totals, "phases": phases}
    if name == "optimal-ate":
        from pairhw.math.prime.pairing import LITERATURE_STEPS, literature_products

        out["literature_products"] = literature_products(C)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.curve}, {name}: F_p operations (mulc: product by a small constant)")
    ops = opc.OPS_P
    print(f"{'phase':16}" + "".join(f"{op:>8}" for op in ops))
    for k, c in totals.items():
        print(f"{k:16}" + "".join(f"{c[op]:>8}" for op in ops))
    if "literature_products" in out:
        print("\nF_p products (mul + sqr): ours, and the literature's per-step costs on the same loop and exponent")
        for k, v in out["literature_products"].items():
            ours = totals[k]["mul"] + totals[k]["sqr"]
            print(f"{k:16}{ours:>8}{v:>8}")
        print("steps: " + ", ".join(f"{k} {n}" for k, (n, _) in LITERATURE_STEPS.items())
              + " (CLN 2010, Aranha et al. 2011, Granger-Scott 2010, Scott et al. 2009)")
    return 0


# ---------------------------------------------------------------------------------------------
# pairhw fp mul


def cmd_fp_mul(args, UsageError) -> int:
    from pairhw.math.prime.polymont import PolyMont, mul64_dsp

    try:
        p = params.get(args.curve)
    except params.UnknownParamSet:
        raise UsageError(f"unknown curve {args.curve!r}; known: {', '.join(params.names())}") from None
    if p.family != "bn":
        raise UsageError(f"{args.curve} is not a BN curve: polynomial Montgomery multiplication "
                         f"needs p = p(t) = 36t^4 + 36t^3 + 24t^2 + 6t + 1")
    C = params.curve(args.curve)
    if args.algorithm is None:  # the set's own: Chávez Corona et al.'s Alg. 2 where u = 2^n + s allows it
        args.algorithm = "chavez11" if "seed002" in p.data else "fan"
    alg = current(args.algorithm)  # seed002 is chavez11's old name (pairhw.names)
    if args.dsp and alg != "chavez11":
        raise UsageError("--dsp applies to --algorithm chavez11 (Alg. 2's coefficient products), not fan")
    if alg == "chavez11" and "seed002" not in p.data:
        raise UsageError(f"{args.curve}: u is not of the form 2^n + s with small s (Chávez Corona et al.'s "
                         f"Alg. 2 needs it); use --algorithm fan, or the curve bn-chavez11")
    try:
        a, b = C.F.from_hex(args.a), C.F.from_hex(args.b)
    except FieldError as e:
        raise UsageError(str(e)) from None
    n = p.data["seed002"]["n"] if "seed002" in p.data else None
    M = PolyMont(C.u, n)
    A, B = M.to_mont(a), M.to_mont(b)
    steps: list[tuple[str, int]] = []

    def rec(name, v):
        steps.append((name, v))

    if alg == "fan":
        c = M.alg1(A, B, trace=rec)
    else:
        dsp = (lambda x, y: mul64_dsp(x, y, trace=rec)) if args.dsp else None
        c = M.alg2(A, B, mul=dsp, trace=rec)
    value = M.value(c)
    prod = M.from_mont(c)
    assert prod == a * b % C.p, "polynomial Montgomery product disagrees with a·b mod p"
    out = {
        "curve": args.curve, "algorithm": args.algorithm, "t": str(M.t), "n": M.n, "s": M.s,
        "a_mont": [str(x) for x in A], "b_mont": [str(x) for x in B],
        "c": [str(x) for x in c], "c_value": C.F.to_hex(value), "product": C.F.to_hex(prod),
    }
    if args.trace:
        out["trace"] = [[k, str(v)] for k, v in steps]
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.curve}: t = 2^{M.n} {'+' if M.s >= 0 else '-'} {abs(M.s)}, Montgomery factor t^5,"
          f" algorithm {args.algorithm}")
    print("a·t^5 digits: " + " ".join(str(x) for x in A))
    print("b·t^5 digits: " + " ".join(str(x) for x in B))
    if args.trace:
        for k, v in steps:
            print(f"  {k:14} {v}")
    print("c(t) digits:  " + " ".join(str(x) for x in c))
    print(f"c(t) mod p   = {out['c_value']}  (= a·b·t^5)")
    print(f"a·b mod p    = {out['product']}")
    return 0


def register(sub, parser_class, UsageError) -> None:
    p = sub.add_parser("fp", help="prime-field arithmetic models (Chávez Corona et al.)")
    fsub = p.add_subparsers(dest="fp_verb", required=True, parser_class=parser_class)
    m = fsub.add_parser("mul", help="a·b mod p by polynomial (t-adic) Montgomery multiplication: "
                        "inputs are converted to a·t^5, b·t^5 (digits base t), multiplied, and the "
                        "product converted back (checked against a·b mod p)")
    m.add_argument("curve", help="a BN set (bn-chavez11 for --algorithm chavez11)")
    m.add_argument("a", help="hex, in [0, p)")
    m.add_argument("b", help="hex, in [0, p)")
    m.add_argument("--algorithm", choices=("fan", "chavez11", *aliases(("chavez11",))), metavar="{fan,chavez11}",
                   help="fan: Fan et al. = Chávez Corona et al. Alg. 1; chavez11: Alg. 2 (Karatsuba, Alg. 3; "
                        "formerly seed002); default: chavez11 where the set's u = 2^n + s with small s (bn-chavez11), "
                        "else fan")
    m.add_argument("--dsp", action="store_true",
                   help="chavez11: coefficient products by the 12-piece DSP model (same result)")
    m.add_argument("--trace", action="store_true", help="print every intermediate coefficient")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=lambda args: cmd_fp_mul(args, UsageError))
