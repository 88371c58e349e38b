"""Benchmark: F_p multipliers (Montgomery pipelined and iterative, seed 002's polynomial Montgomery) at bn-seed002, bn254 and bls12-381 (writes JSON).

    python bench/multipliers_fp.py [--curves bn-seed002,bn254,bls12-381] [--kinds K,...] [--verify N]
                                   [-o bench/out/multipliers_fp.json]

Each unit is built as ``pairhw unit synth`` builds it, simulated on ``--verify`` random products plus
the edge cases (Amaranth simulator) against the golden model, and synthesized with Yosys xc7 (cached
by a hash of the Verilog): cycles per product (II), latency, LUTs, FFs, DSP48E1s, CARRY4s and LUT
depth.  polymont-seed002 needs seed 002's form of p (bn-seed002 only).  The full-size pipelined
Montgomery units take Yosys tens of minutes each.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

KINDS = ("polymont-seed002", "montgomery-iterative", "montgomery-pipelined")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--curves", default="bn-seed002,bn254,bls12-381")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--verify", type=int, default=50, metavar="N")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "multipliers_fp.json"))
    args = ap.parse_args()

    from pairhw import params
    from pairhw.cli.unit import _verify, unit_text
    from pairhw.rtl.prime.catalogue import KindError, make_unit
    from pairhw.synth.flows import synthesize

    rows = []
    for curve in args.curves.split(","):
        F = params.curve(curve).F
        for kind in args.kinds.split(","):
            try:
                u = make_unit(kind, F)
            except KindError as e:
                print(f"[bench] {kind} at {curve}: skipped ({e})", flush=True)
                continue
            t0 = time.time()
            ver = _verify(u, args.verify, 1, "amaranth")
            res = synthesize(unit_text(u), u.name, "xc7")
            row = {"curve": curve, "bits": F.bits, "unit": u.name, "kind": kind, "latency": u.latency,
                   "ii": u.initiation_interval, "verified": ver["verified"], "failed": ver["failed"],
                   **{k: res[k] for k in ("luts", "ffs", "dsp", "carry", "depth", "bram")},
                   "describe": u.describe(), "seconds": round(time.time() - t0, 1)}
            rows.append(row)
            print(f"[bench] {u.name}: II {u.initiation_interval}, latency {u.latency}, {res['luts']} LUTs, "
                  f"{res['ffs']} FFs, {res['dsp']} DSP, {res['carry']} CARRY4, depth {res['depth']}, "
                  f"{ver['verified']}/{ver['vectors']} verified", flush=True)
    write_json(args.output, {"units": rows}, indent=1)
    print()
    print("| prime | unit | cycles/product (II) | latency | LUTs | FFs | DSP48E1 | CARRY4 | LUT depth | verified |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['curve']} | {r['kind']} | {r['ii']} | {r['latency']} | {r['luts']:,} | {r['ffs']:,} | "
              f"{r['dsp']:,} | {r['carry']:,} | {r['depth']} | {r['verified']}/{r['verified'] + r['failed']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
