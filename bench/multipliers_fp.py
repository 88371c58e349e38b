"""Benchmark: F_p multipliers (Montgomery pipelined and iterative, seed 002's polynomial Montgomery) at bn-chavez11, bn254 and bls12-381 (writes JSON).

    python bench/multipliers_fp.py [--curves bn-chavez11,bn254,bls12-381] [--kinds K,...] [--verify N]
                                   [--segments S,...] [--inverters 1,2] [-o bench/out/multipliers_fp.json]

Each unit is built as ``pairhw unit synth`` builds it, simulated on ``--verify`` random products plus
the edge cases (Amaranth simulator) against the golden model, and synthesized with Yosys xc7 (cached
by a hash of the Verilog): cycles per product (II), latency, LUTs, FFs, DSP48E1s, CARRY4s and LUT
depth.  ``--segments S,...`` adds ``montgomery-pipelined --segment S`` (counter trees and S-bit carry
chains) for each S.  polymont-chavez11 needs seed 002's form of p (bn-chavez11 only).  The full-size pipelined
Montgomery units take Yosys tens of minutes each.  ``--inverters K,...`` adds the pairing cores'
inverter (:class:`pairhw.rtl.prime.inverter.InvP` as the field builds it, 2·log2(R) steps) with K
steps a cycle, simulated on ``--verify`` random operands and 0, 1, p − 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

KINDS = ("polymont-chavez11", "montgomery-iterative", "montgomery-pipelined")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--curves", default="bn-chavez11,bn254,bls12-381")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--verify", type=int, default=50, metavar="N")
    ap.add_argument("--segments", default="", metavar="S,...",
                    help="also montgomery-pipelined --segment S (counter trees, S-bit carry chains)")
    ap.add_argument("--inverters", default="", metavar="K,...", help="also the inverter with K steps a cycle")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "multipliers_fp.json"))
    args = ap.parse_args()

    from pairhw import params
    from pairhw import flow
    from pairhw.rtl.prime.catalogue import KindError, make_unit
    from pairhw.synth.flows import synthesize

    rows = []
    for curve in args.curves.split(","):
        F = params.curve(curve).F
        variants = [(k, {}) for k in args.kinds.split(",") if k != "none"]
        variants += [("montgomery-pipelined", {"segment": int(x)}) for x in filter(None, args.segments.split(","))]
        for kind, options in variants:
            try:
                u = make_unit(kind, F, **options)
            except KindError as e:
                print(f"[bench] {kind} at {curve}: skipped ({e})", flush=True)
                continue
            t0 = time.time()
            # the counter units' deep bit-level logic takes the Amaranth simulator minutes: Verilator
            ver = flow.verify_unit(u, args.verify, 1, "verilator" if options else "amaranth")
            res = synthesize(flow.unit_verilog(u), u.name, "xc7")
            label = kind + "".join(f" --{k} {v}" for k, v in options.items())
            row = {"curve": curve, "bits": F.bits, "unit": u.name, "kind": label, "latency": u.latency,
                   "ii": u.initiation_interval, "verified": ver.verified, "failed": ver.failed,
                   **{k: res.get(k) for k in ("luts", "ffs", "dsp", "carry", "depth", "depth_dsp_cut", "bram")},
                   "describe": u.describe(), "seconds": round(time.time() - t0, 1)}
            rows.append(row)
            print(f"[bench] {u.name}: II {u.initiation_interval}, latency {u.latency}, {res['luts']} LUTs, "
                  f"{res['ffs']} FFs, {res['dsp']} DSP, {res['carry']} CARRY4, depth {res['depth']} "
                  f"({res.get('depth_dsp_cut')} between registers), "
                  f"{ver.verified}/{ver.vectors} verified", flush=True)
        for k in filter(None, args.inverters.split(",")):
            rows.append(_inverter_row(curve, int(k), args.verify))
    write_json(args.output, {"units": rows}, indent=1)
    print()
    print("| prime | unit | cycles/product (II) | latency | LUTs | FFs | DSP48E1 | CARRY4 | LUT depth "
          "(between registers) | verified |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['curve']} | {r['kind']} | {r['ii']} | {r['latency']} | {r['luts']:,} | {r['ffs']:,} | "
              f"{r['dsp']:,} | {r['carry']:,} | {r['depth']} ({r.get('depth_dsp_cut')}) | "
              f"{r['verified']}/{r['verified'] + r['failed']} |")
    return 0


def _inverter_row(curve: str, per_cycle: int, n: int) -> dict:
    """The cores' F_p inverter at ``curve`` with ``per_cycle`` steps a cycle: verified, synthesized."""
    import random

    from pairhw import fields
    from pairhw import flow
    from pairhw.program.datapath import UnitSpec
    from pairhw.sim.amsim import simulate_mul
    from pairhw.synth.flows import synthesize

    fi = fields.for_params(curve)
    u = fi.build_unit(UnitSpec("inv", "inv", options=(("per_cycle", per_cycle),)))
    t0 = time.time()
    rng = random.Random(1)
    ops = [0, 1, fi.F.p - 1] + [rng.randrange(1, fi.F.p) for _ in range(n)]
    run = simulate_mul(u, [(a,) for a in ops])
    ok = sum(r == u.emulate(a) and lat == u.latency for r, a, lat in zip(run.results, ops, run.latencies))
    res = synthesize(flow.unit_verilog(u), u.name, "xc7")
    row = {"curve": curve, "bits": fi.F.bits, "unit": u.name, "kind": f"inv (k = {per_cycle})",
           "latency": u.latency, "ii": u.initiation_interval, "verified": ok, "failed": len(ops) - ok,
           **{k: res[k] for k in ("luts", "ffs", "dsp", "carry", "depth", "bram")},
           "seconds": round(time.time() - t0, 1)}
    print(f"[bench] {u.name}: II {u.initiation_interval}, latency {u.latency}, {res['luts']} LUTs, "
          f"{res['ffs']} FFs, depth {res['depth']}, {ok}/{len(ops)} verified", flush=True)
    return row


if __name__ == "__main__":
    sys.exit(main())
