"""Benchmark: the engine's schedule of seed 000's pairing at m = 1223 (Python only; writes JSON).

    python bench/engine_f21223.py [-o bench/out/engine_f21223.json]

Compiles seed 000 Alg. 1 + 2 (``etat-seed000``) over F_2^1223 for a datapath with the hybrid
three-way TMVP multiplier (latency 9, II 6, as built by ``pairhw.rtl``), one adder, squarer, square
root and constant table, and prints the schedule report: cycles per pairing against seed 000's
27,308 (Table 4) and the multiplier bound.  No core is built.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pairhw import params  # noqa: E402
from pairhw.math import pairing2 as pr  # noqa: E402
from pairhw.program.datapath import build_datapath  # noqa: E402
from pairhw.program.engine import compile_pairing  # noqa: E402

DATAPATH = {"units": [{"name": "mul", "kind": "mul", "mul": {"kind": "hybrid-tmvp3"}},
                      {"name": "add", "kind": "add"}, {"name": "sqr", "kind": "sqr"},
                      {"name": "sqrt", "kind": "sqrt"}, {"name": "const", "kind": "const"}]}
PUBLISHED_CYCLES = 27308  # seed 000 Table 4, three-way processor


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "engine_f21223.json"))
    args = ap.parse_args()
    C = params.curve("f2-1223")
    rep = compile_pairing(C, pr.etat_seed000, build_datapath(C.F, DATAPATH)).report()
    out = {"curve": "f2-1223", "algorithm": "etat-seed000", "datapath": DATAPATH,
           "published_cycles": PUBLISHED_CYCLES, "ratio": round(rep["cycles"] / PUBLISHED_CYCLES, 3), **rep}
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as fh:
        json.dump(out, fh, indent=1)
    lo = rep["loop"]
    print(f"cycles {rep['cycles']} (seed 000: {PUBLISHED_CYCLES}, ratio {out['ratio']}); multiplier bound "
          f"{rep['multiplier_bound']}; loop II {lo['ii']} (MII {lo['mii']}) x {lo['trips']} trips; "
          f"phases {rep['phases']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
