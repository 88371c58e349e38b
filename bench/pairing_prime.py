"""Benchmark: pure-Python optimal ate pairings on BN254, the seed-002 BN curve and BLS12-381, and
seed 002's polynomial Montgomery product (writes JSON).

    python bench/pairing_prime.py [--runs 7] [--py-ecc] [-o bench/out/pairing_prime.json]

Reports, in one process, the median wall time over ``--runs`` runs (fresh random points each run)
of pairhw's optimal ate and of its textbook reference, the F_p product (plain, Fan et al. Alg. 1,
seed 002 Alg. 2, Alg. 2 with the DSP model), and with ``--py-ecc`` py_ecc's optimized pairing on the
same points for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import host, median_of, write_json  # noqa: E402
from pairhw import params  # noqa: E402
from pairhw.math.prime import pairing as pp  # noqa: E402
from pairhw.math.prime.polymont import PolyMont, mul64_dsp  # noqa: E402

SETS = ["bn254", "bn-chavez11", "bls12-381"]
PY_ECC = {"bn254": "py_ecc.optimized_bn128", "bls12-381": "py_ecc.optimized_bls12_381"}




def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--py-ecc", action="store_true", help="also time py_ecc's optimized pairings")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "pairing_prime.json"))
    args = ap.parse_args()
    if args.runs < 1:
        print("pairing_prime: --runs must be at least 1", file=sys.stderr)
        return 2
    rng = random.Random(1)
    res = {**host(args.runs), "pairing_s": {}, "fp_mul_us": {}}
    for name in SETS:
        C = params.curve(name)
        pts = [(C.E1.mul(rng.randrange(1, C.r), C.g1), C.E2.mul(rng.randrange(1, C.r), C.g2))
               for _ in range(args.runs)]
        row = {"optimal_ate": median_of(lambda P, Q: pp.optimal_ate(C, P, Q), pts),
               "ate_reference": median_of(lambda P, Q: pp.ate_reference(C, P, Q), pts[:3])}
        if args.py_ecc and name in PY_ECC:
            import importlib

            ecc = importlib.import_module(PY_ECC[name])
            conv = [((ecc.FQ(P[0]), ecc.FQ(P[1]), ecc.FQ(1)),
                     (ecc.FQ2(list(Q[0])), ecc.FQ2(list(Q[1])), ecc.FQ2.one())) for P, Q in pts]
            row["py_ecc_optimized"] = median_of(lambda P, Q: ecc.pairing(Q, P), conv)
        res["pairing_s"][name] = {k: round(v, 4) for k, v in row.items()}
        print(f"{name:11} " + "  ".join(f"{k} {v:.3f} s" for k, v in row.items()), file=sys.stderr)

    C = params.curve("bn-chavez11")
    M = PolyMont(C.u, 61)
    vals = [(rng.randrange(C.p), rng.randrange(C.p)) for _ in range(2000)]
    mont = [(M.to_mont(a), M.to_mont(b)) for a, b in vals]
    for label, fn, data in [("plain a*b % p", lambda a, b: a * b % C.p, vals),
                            ("fan (Alg. 1)", M.alg1, mont), ("seed002 (Alg. 2)", M.alg2, mont),
                            ("seed002 + DSP model", lambda a, b: M.alg2(a, b, mul=mul64_dsp), mont)]:
        t = time.perf_counter()
        for a, b in data:
            fn(a, b)
        res["fp_mul_us"][label] = round((time.perf_counter() - t) / len(data) * 1e6, 2)
        print(f"F_p product {label:22} {res['fp_mul_us'][label]:8.2f} us", file=sys.stderr)
    write_json(args.output, res)
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
