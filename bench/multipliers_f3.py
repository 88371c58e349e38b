"""Benchmark: F_3^m multipliers (Beuchat et al.'s pipelined Karatsuba, digit-serial, schoolbook) at one m (writes JSON).

    python bench/multipliers_f3.py [--curve f3-97] [--verify N] [-o bench/out/multipliers_f3.json]

Each unit is built as ``pairhw unit synth`` builds it, simulated on ``--verify`` random products plus
the edge cases (Amaranth simulator), and synthesized with Yosys xc7 (cached by a hash of the Verilog):
LUTs, FFs, LUT depth, and the products per cycle.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

#: (kind, options) per row
UNITS = [
    ("karatsuba", {"stages": 1}), ("karatsuba", {"stages": 3}), ("karatsuba", {"stages": 5}),
    ("karatsuba", {"stages": 7}),
    ("karatsuba", {"schedule": ("3", "2", "2", "2"), "stages": 5}),
    ("karatsuba", {"schedule": ("2", "2", "2", "2", "2"), "stages": 5}),
    ("karatsuba", {"schedule": ("oe", "oe", "oe", "oe"), "stages": 5}),
    ("karatsuba", {"schedule": ("3", "3", "2"), "stages": 5}),
    ("msd", {"digit": 1}), ("msd", {"digit": 4}), ("msd", {"digit": 8}), ("msd", {"digit": 16}),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--curve", default="f3-97")
    ap.add_argument("--verify", type=int, default=20, metavar="N")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "multipliers_f3.json"))
    args = ap.parse_args()

    from pairhw import params
    from pairhw import flow
    from pairhw.rtl.ternary.catalogue import make_unit
    from pairhw.synth.flows import synthesize

    F = params.curve(args.curve).F
    rows = []
    for kind, opts in UNITS:
        u = make_unit(kind, F, **opts)
        t0 = time.time()
        ver = flow.verify_unit(u, args.verify, 1, "amaranth")
        res = synthesize(flow.unit_verilog(u), u.name, "xc7")
        row = {"unit": u.name, "kind": kind, "options": {k: list(v) if isinstance(v, tuple) else v
                                                         for k, v in opts.items()},
               "latency": u.latency, "ii": u.initiation_interval, "verified": ver.verified,
               "failed": ver.failed, **{k: res[k] for k in ("luts", "ffs", "depth", "carry", "bram")},
               "describe": u.describe(), "seconds": round(time.time() - t0, 1)}
        rows.append(row)
        print(f"[bench] {u.name}: {res['luts']} LUTs, {res['ffs']} FFs, depth {res['depth']}, "
              f"latency {u.latency}, II {u.initiation_interval}, {ver['verified']}/{ver['vectors']} verified",
              flush=True)
    write_json(args.output, {"curve": args.curve, "field": F.poly_str(), "units": rows}, indent=1)
    print()
    print("| unit | schedule / digit | latency | II | LUTs | FFs | LUT depth | verified |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        d = r["describe"]
        what = ",".join(d["schedule"]) + f"; cuts {','.join(d['registers']) or '–'}" if "schedule" in d \
            else f"D = {d['digit']}" if "digit" in d else "–"
        print(f"| {r['unit']} | {what} | {r['latency']} | {r['ii']} | {r['luts']:,} | {r['ffs']:,} | "
              f"{r['depth']} | {r['verified']}/{r['verified'] + r['failed']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
