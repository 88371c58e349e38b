"""Benchmark: F_2^1223 multiplier units against seed 000's Table 2 and seed 003's Table I (JSON).

    python bench/multipliers_f21223.py [--m 1223] [--verify 20] [--only table1|table2] [--label TEXT]
                                       [-o bench/out/multipliers_f21223.json]

For each unit: cycles per product (the initiation interval) and latency from the generated hardware,
a Verilator run of ``--verify`` random products plus 10 edge cases bit-exact against the golden model,
then Yosys: ``synth_xilinx -family xc7`` (LUTs, FFs, logic depth) for seed 000's multipliers and the
gate-equivalent flow for seed 003's.  Synthesis results are cached (``~/.cache/pairhw``), so a rerun
only re-prints.  Full size takes tens of minutes on two cores the first time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pairhw.rtl.binary.catalogue import binary_field, make_unit  # noqa: E402
from pairhw.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text  # noqa: E402
from pairhw.rtl.binary.powers import SquareRoot, Squarer  # noqa: E402
from pairhw.sim import verilator  # noqa: E402
from pairhw.synth.flows import synthesize  # noqa: E402

# seed 000 Table 2 (Virtex-6 xc6vlx365t-3, ISE 12.4 place and route)
TABLE2 = [
    # hand-packed LUT6 base products (--lut6) and their default schedule, then the portable units
    ("hybrid-kara306", {"lut6": True}, "Karatsuba 9 × 306, LUT6 base", {"luts": 30148, "mhz": 250, "cycles": 10}),
    ("hybrid-tmvp2", {"lut6": True}, "two-way TMVP 9 × 306, LUT6 base", {"luts": 19721, "mhz": 271, "cycles": 9}),
    ("hybrid-tmvp3", {"lut6": True}, "three-way TMVP 6 × 408, LUT6 base", {"luts": 33546, "mhz": 267, "cycles": 6}),
    ("hybrid-kara306", {}, "Karatsuba 9 × 306 (Ghosh et al.)", {"luts": 30148, "mhz": 250, "cycles": 10}),
    ("hybrid-tmvp2", {}, "two-way TMVP 9 × 306", {"luts": 19721, "mhz": 271, "cycles": 9}),
    ("hybrid-tmvp3", {}, "three-way TMVP 6 × 408", {"luts": 33546, "mhz": 267, "cycles": 6}),
    ("hybrid-tmvp3", {"schedule": (3, 3, 3)}, "three-way TMVP 6 × 408, core base 16",
     {"luts": 33546, "mhz": 267, "cycles": 6}),
]
# seed 003 Table I (180 nm, post-layout area of the whole ASIP, kGE) and §IV cycle counts
TABLE1 = [
    ("iter-karatsuba", {"core": 153}, "K153", {"kge_processor": 133, "cycles": 41}),
    ("iter-karatsuba", {"core": 77}, "K77", {"kge_processor": 110, "cycles": 132}),
    ("lsd", {"digit": 11}, "LSD11", {"kge_processor": 90}),
    ("lsd", {"digit": 9}, "LSD9", {"kge_processor": 90}),
    ("lsd", {"digit": 7}, "LSD7", {"kge_processor": 76}),
    ("lsb", {}, "LSB", {"kge_processor": 60}),
]


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def core_chain(unit) -> str:
    """The core's recursion as sizes, e.g. ``306 → 153 → 51 → 17``."""
    sizes = [unit.plan.h]
    for k in unit.core_schedule:
        sizes.append(-(-sizes[-1] // k))
    return " → ".join(map(str, sizes))


def measure(kind, opts, F, verify, target):
    unit = make_unit(kind, F, **opts)
    log(f"{unit.name}: generating Verilog")
    t0 = time.monotonic()
    v = unit_verilog(unit)
    gen_s = time.monotonic() - t0
    binary = verilator.build({f"{unit.name}.v": v, "tb.v": mul_testbench(unit)}, log=log)
    vec = os.path.join(os.path.dirname(str(binary)), f"vectors_{verify}.txt")
    with open(vec, "w") as f:
        f.write(vectors_text(F, mul_vectors(F, verify, seed=1223)))
    sim = verilator.run(binary, vec)
    log(f"{unit.name}: verified {sim['verified']}, failed {sim['failed']}")
    syn = synthesize(v, unit.name, target, log=log)
    log(f"{unit.name}: {target} done in {syn['seconds']} s")
    return unit, {"unit": unit.name, "kind": kind, "options": opts, "cycles_per_product": unit.initiation_interval,
                  "latency": unit.latency, "verified": sim["verified"], "failed": sim["failed"],
                  "verilog_seconds": round(gen_s, 1), "synth": {k: v for k, v in syn.items() if k != "script"}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--m", type=int, default=1223)
    ap.add_argument("--verify", type=int, default=20)
    ap.add_argument("--only", choices=("table2", "table1"))
    ap.add_argument("--label", metavar="TEXT", help="only the rows whose label contains TEXT (e.g. LUT6)")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "multipliers_f21223.json"))
    args = ap.parse_args()
    F = binary_field(args.m)

    def selected(table):
        return [row for row in table if not args.label or args.label in row[2]]

    out = {"m": F.m, "field": F.poly_str(), "machine": platform.machine(), "python": platform.python_version(),
           "squarer_xors": Squarer(F).xor_count, "square_root_xors": SquareRoot(F).xor_count,
           "table2": [], "table1": []}
    if args.only != "table1":
        for kind, opts, label, pub in selected(TABLE2):
            unit, r = measure(kind, opts, F, args.verify, "xc7")
            r.update(label=f"{label} ({core_chain(unit)})", published=pub, core_schedule=list(unit.core_schedule),
                     lut_ratio=round(r["synth"]["luts"] / pub["luts"], 3))
            out["table2"].append(r)
    if args.only != "table2":
        for kind, opts, label, pub in selected(TABLE1):
            unit, r = measure(kind, opts, F, args.verify, "gates")
            r.update(label=label, published=pub)
            out["table1"].append(r)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)

    print(f"F_2^{F.m} ({F.poly_str()}): squarer {out['squarer_xors']} XORs (seed 000: 738), "
          f"square root {out['square_root_xors']} XORs (seed 000: 611)")
    if out["table2"]:
        print("\nseed 000 Table 2 (published: Virtex-6, ISE) vs pairhw (Yosys 0.70 synth_xilinx xc7)")
        print("| multiplier | cycles/product (paper) | ours | latency | verified | LUTs (paper) | LUTs (ours) | ratio | FFs | LUT depth |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in out["table2"]:
            s = r["synth"]
            print(f"| {r['label']} | {r['published']['cycles']} | {r['cycles_per_product']} | {r['latency']} | "
                  f"{r['verified']}/{r['verified'] + r['failed']} | {r['published']['luts']:,} | {s['luts']:,} | "
                  f"{r['lut_ratio']:.2f} | {s['ffs']:,} | {s['depth']} |")
    if out["table1"]:
        print("\nseed 003 Table I (published: 180 nm post-layout, whole processor) vs pairhw multiplier alone "
              "(Yosys 0.70 gates, NAND2 = 1 GE)")
        print("| multiplier | cycles/product (paper) | ours | latency | verified | kGE processor (paper) | kGE multiplier (ours) | FFs |")
        print("|---|---|---|---|---|---|---|---|")
        for r in out["table1"]:
            s = r["synth"]
            pc = r["published"].get("cycles", "–")
            print(f"| {r['label']} | {pc} | {r['cycles_per_product']} | {r['latency']} | "
                  f"{r['verified']}/{r['verified'] + r['failed']} | {r['published']['kge_processor']} | "
                  f"{s['ge'] / 1000:.1f} | {s['ffs']:,} |")
    print(f"\nwrote {args.output}")


if __name__ == "__main__":
    main()
