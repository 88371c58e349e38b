"""Benchmark: cycles of a product of n pairings on a prime core's datapath (issue 53; writes JSON).

    python bench/products.py [--design NAME ...] [--pairs 1,2,4] [-o bench/out/products.json]

For each design (default ``ate-bn-tiny``, ``ate-bn254-fast``, ``ate-bls12-381-fast``) and each n of
``--pairs``: the model's product of n pairings (:func:`pairhw.math.prime.pairing.multi_pairing`: one
Miller loop whose accumulator takes every pair's lines, one final exponentiation) traced into a
program of 6n F_p inputs and compiled onto the design's datapath as the engine compiles a pairing
(:func:`pairhw.program.engine.compile_kernel`); its cycles, its multiplier bound (products × II) and
the ratio to the design's own single-pairing cycles.  The check's comparison with 1 is not in the
program (a comparator on the 12 output words).  Issue 53 asks for ≤ 1.45 × at n = 2 and ≤ 2.2 × at
n = 4.

With ``--batch K,…``: the design with the key ``"batch": K`` (K independent pairings in one run, one
program), its cycles per run and per pairing, and the ratio of its cycles to its multiplier bound;
issue 53 asks for ≤ 1.02 on ``ate-bls12-381-fast``'s datapath.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

from pairhw import designs  # noqa: E402
from pairhw.math.prime import pairing as pp  # noqa: E402
from pairhw.program.engine import compile_kernel  # noqa: E402

DESIGNS = ["ate-bn-tiny", "ate-bn254-fast", "ate-bls12-381-fast"]


def product_kernel(d, n: int):
    """The compiled program of the product of ``n`` pairings on design ``d``'s datapath."""
    dp = d.datapath()
    fi, C = dp.F, d.curve()

    def fn(TF, *x):
        Cx = fi.curve_over(C, TF)
        pairs = [fi.points(x[6 * i:6 * i + 6]) for i in range(n)]
        return fi.flatten(pp.multi_pairing(Cx, pairs))

    return compile_kernel(6 * n, fn, dp)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", action="append", help="only these designs")
    ap.add_argument("--pairs", default="1,2,4", help="the n of the products, comma-separated (default 1,2,4)")
    ap.add_argument("--batch", default="", help="also these batch sizes k, comma-separated (e.g. 2,4)")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "products.json"))
    args = ap.parse_args()
    ns = [int(x) for x in args.pairs.split(",")]
    rows = []
    for name in args.design or DESIGNS:
        d = designs.get(name)
        single = d.compile()
        for n in ns:
            t0 = time.time()
            k = product_kernel(d, n)
            rep = k.report()
            row = {"design": name, "pairs": n, "cycles": k.cycles, "multiplier_bound": rep["multiplier_bound"],
                   "single_pairing_cycles": single.cycles, "ratio": round(k.cycles / single.cycles, 4),
                   "seconds": round(time.time() - t0, 1)}
            rows.append(row)
            print(f"[bench] {name}: {n} pair(s) {k.cycles} cycles, bound {rep['multiplier_bound']}, "
                  f"{row['ratio']} x one pairing ({single.cycles})", flush=True)
    batches = []
    for name in args.design or DESIGNS:
        d = designs.get(name)
        for k in [int(x) for x in args.batch.split(",") if x]:
            t0 = time.time()
            rep = designs.from_data({**d.data, "name": f"{name}-b{k}", "batch": k}).compile().report()
            row = {"design": name, "batch": k, "cycles": rep["cycles"], "cycles_per_pairing": rep["cycles"] / k,
                   "multiplier_bound": rep["multiplier_bound"], "bound_ratio": round(rep["cycles"] / rep["multiplier_bound"], 4),
                   "single_pairing_cycles": d.compile().cycles, "seconds": round(time.time() - t0, 1)}
            batches.append(row)
            print(f"[bench] {name}: batch {k}: {row['cycles']} cycles, {row['cycles_per_pairing']:g} per pairing, "
                  f"{row['bound_ratio']} x the bound", flush=True)
    write_json(args.output, {"designs": rows, **({"batches": batches} if batches else {})})
    print()
    print("| design | pairs | cycles | multiplier bound | × one pairing |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| `{r['design']}` | {r['pairs']} | {r['cycles']:,} | {r['multiplier_bound']:,} | {r['ratio']:.3f} |")
    if batches:
        print()
        print("| datapath | batch | cycles a run | per pairing | one pairing alone | cycles ÷ multiplier bound |")
        print("|---|---|---|---|---|---|")
        for r in batches:
            print(f"| `{r['design']}` | {r['batch']} | {r['cycles']:,} | {r['cycles_per_pairing']:,g} | "
                  f"{r['single_pairing_cycles']:,} | {r['bound_ratio']:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
