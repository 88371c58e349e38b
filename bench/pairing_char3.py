"""Benchmark: pure-Python ηT pairings in characteristic three (seed 004) on f3-97 and f3-509, and
the F_3^m operations (writes JSON).

    python bench/pairing_char3.py [--runs 7] [--sets f3-97,f3-509] [--reference]
                                  [-o bench/out/pairing_char3.json]

Reports, in one process, the median wall time over ``--runs`` runs (fresh points each run) of the
reduced ηT (seed 004's loop with cube roots and its final exponentiation), its Miller loop alone, the
loop without cube roots, and with ``--reference`` the plain Tate reference (one run per set: slow at
m = 509); then the median time of one F_3^m product, cubing, cube root and inversion.
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
from pairhw.math.ternary import pairing as p3  # noqa: E402




def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sets", default="f3-97,f3-509")
    ap.add_argument("--reference", action="store_true", help="also time the plain Tate reference once")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "pairing_char3.json"))
    args = ap.parse_args()
    if args.runs < 1:
        print("pairing_char3: --runs must be at least 1", file=sys.stderr)
        return 2
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    for s in sets:
        try:
            if not params.get(s).is_char3:
                raise params.UnknownParamSet(s)
        except params.UnknownParamSet:
            print(f"pairing_char3: {s} is not a ternary parameter set", file=sys.stderr)
            return 2
    rng = random.Random(1)
    res = {**host(args.runs), "pairing_s": {}, "field_us": {}}
    for name in sets:
        C = params.curve(name)
        G = C.point_from_seed(1)
        H = C.point_from_seed(2)
        pts = [(C.mul(rng.randrange(1, C.r), G), C.mul(rng.randrange(1, C.r), H)) for _ in range(args.runs)]
        row = {"etat": median_of(lambda P, Q: p3.etat(C, P, Q), pts),
               "etat_miller": median_of(lambda P, Q: p3.etat_miller(C, P, Q), pts),
               "etat_nocr": median_of(lambda P, Q: p3.etat_nocr(C, P, Q), pts)}
        if args.reference:
            row["tate_reference"] = median_of(lambda P, Q: p3.tate_reference(C, P, Q), pts[:1])
        res["pairing_s"][name] = {k: round(v, 4) for k, v in row.items()}
        print(f"{name:7} " + "  ".join(f"{k} {v:.3f} s" for k, v in row.items()), file=sys.stderr)

        F = C.F
        vals = [(F.random(rng), F.random(rng)) for _ in range(300)]
        ops = {"mul": F.mul, "cube": lambda a, b: F.cube(a), "cbrt": lambda a, b: F.cbrt(a),
               "add": F.add, "inv": lambda a, b: F.inv(a) if a else 0}
        row = {}
        for label, fn in ops.items():
            data = vals if label != "inv" else vals[:20]
            t = time.perf_counter()
            for a, b in data:
                fn(a, b)
            row[label] = round((time.perf_counter() - t) / len(data) * 1e6, 2)
        res["field_us"][name] = row
        print(f"{'':7} F_3^m µs: " + "  ".join(f"{k} {v}" for k, v in row.items()), file=sys.stderr)
    write_json(args.output, res)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
