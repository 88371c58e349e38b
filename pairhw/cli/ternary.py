"""The ``pairhw`` verbs on characteristic-three parameter sets (Beuchat et al.'s ηT).

F_3^m elements are strings of m trits 0/1/2, coefficient of x^(m−1) first; points ``X,Y`` or ``inf``;
pairing values the six F_3^m coefficients of the basis 1, σ, ρ, σρ, ρ², σρ² of
F_{3^6m} = F_3^m[ρ]/(ρ³ − ρ − b)[σ]/(σ² + 1) (see :mod:`pairhw.params`).
"""

from __future__ import annotations

import functools
import json

from pairhw.cli import prime as cli_prime
from pairhw import params
from pairhw.math import opcount as opc
from pairhw.math.ternary import pairing as pairing3

ALGORITHM_HELP = (
    "ternary sets: etat (default; Beuchat et al.'s loop with cube roots, 15-product sparse R·S, final "
    "exponentiation with the 9-product torus step) = pairhw's e; etat-gorla (the same with Gorla et "
    "al.'s 12-product R·S), equals e; etat-nocr (loop without cube roots), equals e^(3^((m-1)/2)); "
    "tate-reference (plain Miller loop over r, t_r(P, psi(Q)); e = t_r^(mu*b*3^(m+1)), slow)"
)
# each algorithm as (pairing function, keyword arguments)
_ALGS = {
    "etat": (pairing3.etat, {}),
    "etat-gorla": (pairing3.etat, {"sparse": "gorla"}),
    "etat-nocr": (pairing3.etat_nocr, {}),
    "tate-reference": (pairing3.tate_reference, {}),
}
ALGORITHMS = tuple(_ALGS)

# Beuchat et al. (slides "Computing the non-reduced pairing"): per Miller-loop iteration 2 cube roots,
# 2 cubings, 2 products and 2 additions for t and u, and R·S with 15 products and 29 additions
# (Beuchat et al., ARITH 18) or 12 products and 59 additions (Gorla et al., SAC 2007): 17 products
# per iteration.
BEUCHAT09 = {
    "iteration": {"mul": 17, "cbrt": 2, "cube": 2},
    "line": {"mul": 2, "add": 2},
    "sparse_beuchat": {"mul": 15, "add": 29},
    "sparse_gorla": {"mul": 12, "add": 59},
}


def algorithm(name: str | None, UsageError):
    name = cli_prime.choose(name, ALGORITHMS, "ternary set", UsageError)
    fn, kw = _ALGS[name]
    return name, functools.partial(fn, **kw)


def gt_trits(C, e) -> list[str]:
    return [C.F.to_trits(c) for c in e]


def curve_row(name: str) -> dict:
    p = params.get(name)
    C = params.curve(name)
    return {
        "curve": name, "family": p.family, "field": p.field_str(), "equation": p.curve_str(),
        "m": p.m, "b": C.b, "mu": C.mu, "order": str(C.order), "r": str(C.r),
        "r_bits": C.r.bit_length(), "cofactor": str(C.cofactor),
        "embedding_degree": p.data["embedding_degree"], "cbrt_weights": p.data["cbrt_weights"],
        "cite": p.data["cite"], "source": p.data["source"], "security": p.security,
    }


def pair(args, C, P, Q, UsageError) -> dict:
    name, fn = algorithm(args.algorithm, UsageError)
    return {"curve": args.curve, "algorithm": name, "e": gt_trits(C, fn(C, P, Q))}


def opcount(args, C, P, Q, UsageError) -> int:
    name = cli_prime.choose(args.algorithm, ALGORITHMS, "ternary set", UsageError)
    fn, kw = _ALGS[name]
    cf = opc.count_pairing3(C, fn, P, Q, **kw)
    phases = {k: dict(cf.counts[k]) for k in sorted(cf.counts)}
    totals = {"miller": dict(cf.total("miller")), "final_exp": dict(cf.total("final_exp")),
              "total": dict(cf.total())}
    out = {"curve": args.curve, "algorithm": name, "totals": totals, "phases": phases}
    if name.startswith("etat"):
        # etat, etat-gorla: (m+1)/2 iterations, the first without a coordinate update (the setup
        # makes x_P + b, −μb·y_P, x_Q³, y_Q³); etat-nocr: (m−1)/2 uniform iterations after a setup
        # that holds the first factor
        m = C.F.m
        iters = (m + 1) // 2 if name != "etat-nocr" else (m - 1) // 2
        updates = iters - 1 if name != "etat-nocr" else iters
        loop = cf.total("miller/loop")
        prod = cf.total("miller/loop/product")
        line = cf.total("miller/loop/line")
        pts = cf.total("miller/loop/points")
        out["per_iteration"] = {
            "iterations": iters, "updates": updates,
            "mul": loop["mul"] / iters,
            "sparse_mul": prod["mul"] / iters, "sparse_add": prod["add"] / iters,
            "line_mul": line["mul"] / iters, "line_add": line["add"] / updates,
            "cube": pts["cube"] / updates, "cbrt": pts["cbrt"] / updates,
        }
        out["seed004"] = BEUCHAT09
    if args.json:
        print(json.dumps(out))
        return 0
    ops = opc.OPS_3
    print(f"{args.curve}, {name}: F_3^m operations (neg: free in the two-bit encoding)")
    print(f"{'phase':12}" + "".join(f"{op:>8}" for op in ops))
    for k, c in totals.items():
        print(f"{k:12}" + "".join(f"{c[op]:>8}" for op in ops))
    if "per_iteration" in out:
        p = out["per_iteration"]
        sp = "sparse_gorla" if name == "etat-gorla" else "sparse_beuchat"
        print(f"\nper Miller-loop iteration ({p['iterations']} iterations; ours | Beuchat et al.)")
        print(f"  products   {p['mul']:6.2f} | {BEUCHAT09['iteration']['mul']}")
        print(f"  R·S        {p['sparse_mul']:6.2f} products, {p['sparse_add']:6.2f} additions | "
              f"{BEUCHAT09[sp]['mul']} products, {BEUCHAT09[sp]['add']} additions")
        print(f"  t, u       {p['line_mul']:6.2f} products, {p['line_add']:6.2f} additions | "
              f"{BEUCHAT09['line']['mul']} products, {BEUCHAT09['line']['add']} additions")
        print(f"  per coordinate update ({p['updates']}): cube roots {p['cbrt']:.2f} | "
              f"{BEUCHAT09['iteration']['cbrt']}, cubings {p['cube']:.2f} | {BEUCHAT09['iteration']['cube']}"
              f" (F_{{3^6m}} cubings count 6)")
    return 0
