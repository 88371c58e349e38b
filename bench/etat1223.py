"""Benchmark: seed 000's ηT cryptoprocessors over F_2^1223, against the paper's Tables 4 and 5 (writes JSON).

    python bench/etat1223.py [--verify N] [--no-synth] [--gates] [-o bench/out/etat1223.json]

For each design ``etat2-1223-{tmvp3,tmvp2,kara306,tmvp3-p3,tmvp3-p3f}`` (``pairhw designs``): the engine's cycles per
pairing, cycles in products (products × the multiplier's II) and the multiplier bound, the latency
of one F_2^1223 inversion and of one F_{2^4m} product compiled alone on the same datapath,
``--verify N`` complete pairings simulated in Verilator bit-exact against the golden model, and the
core's xc7 synthesis (LUTs, FFs, LUT depth; ``--gates`` adds gate equivalents, slow).  Synthesis is
cached by a hash of the Verilog; a cold run takes about 15 minutes per design.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pairhw import designs  # noqa: E402
from pairhw.math.binary.tower import Tower  # noqa: E402
from pairhw.program.engine import compile_kernel  # noqa: E402

# Adikari et al. Table 4 (Virtex-6) and Table 5 (65 nm ASIC); the cores' rows are pairhw.published.ADIKARI's
PUBLISHED = {
    "etat2-1223-tmvp3": {"variant": "three-way", "mhz": 267, "luts": 63103, "cycles": 27308,
                         "cycles_in_products": 25710, "cycles_per_inversion": 752, "cycles_per_mul4": 62,
                         "multiplier_luts": 33546, "asic_gates": 548453},
    "etat2-1223-tmvp2": {"variant": "two-way", "mhz": 271, "luts": 50179, "cycles": 40320,
                         "cycles_in_products": 38562, "cycles_per_inversion": 794, "cycles_per_mul4": 89,
                         "multiplier_luts": 19721, "asic_gates": 497417},
    "etat2-1223-kara306": {"variant": "Karatsuba (Ghosh et al., as a seed 000 datapath)"},
}
# the three-way processor with its multiplier's core in three stages: measured against the same paper row
PUBLISHED["etat2-1223-tmvp3-p3"] = PUBLISHED["etat2-1223-tmvp3"]
# ... and with the power units' operands registered, results forwarded into them
PUBLISHED["etat2-1223-tmvp3-p3f"] = PUBLISHED["etat2-1223-tmvp3"]


def kernels(d) -> dict:
    """Latency of one inversion (Itoh–Tsujii, seed 000 §4.1) and one F_{2^4m} product on ``d``'s datapath."""
    dp = d.datapath()
    inv = compile_kernel(1, lambda T, a: (T.inv(a),), dp)
    mul4 = compile_kernel(8, lambda T, *a: Tower(T).mul4(a[:4], a[4:]), dp)
    return {"cycles_per_inversion": inv.microcode.cycles, "cycles_per_mul4": mul4.microcode.cycles}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "etat1223.json"))
    ap.add_argument("--verify", type=int, default=2, metavar="N", help="pairings simulated in Verilator (0: none)")
    ap.add_argument("--no-synth", action="store_true", help="skip Yosys")
    ap.add_argument("--gates", action="store_true", help="also the gate-equivalent flow")
    ap.add_argument("--design", action="append", help="only these designs")
    args = ap.parse_args()

    from pairhw import flow
    from pairhw.emit import unit_verilog
    from pairhw.synth.flows import luts_with_ram, synthesize

    rows = []
    for name in args.design or list(PUBLISHED):
        d = designs.get(name)
        t0 = time.time()
        rep = d.compile().report()
        row = {"design": name, "published": PUBLISHED[name], **rep, **kernels(d),
               "cycles_in_products": rep["multiplier_bound"]}
        pub = PUBLISHED[name].get("cycles")
        if pub:
            row["cycle_ratio"] = round(rep["cycles"] / pub, 4)
        row["over_bound"] = round(rep["cycles"] / rep["multiplier_bound"] - 1, 4)
        print(f"[bench] {name}: {rep['cycles']} cycles (published {pub}), bound {rep['multiplier_bound']}, "
              f"inversion {row['cycles_per_inversion']}, F_2^4m product {row['cycles_per_mul4']}", flush=True)
        if args.verify:
            res = flow.simulate(d, args.verify, seed=1223)
            row["verilator"] = {k: getattr(res, k) for k in ("verified", "failed", "constant_time")}
            row["verilator"]["cycles"] = sorted({p["cycles"] for p in res.runs})
            print(f"[bench] {name}: Verilator {res.verified}/{args.verify} bit-exact", flush=True)
        if not args.no_synth or args.gates:
            text = unit_verilog(d.core())
            for target in (["xc7"] if not args.no_synth else []) + (["gates"] if args.gates else []):
                print(f"[bench] {name}: synthesizing ({target})", flush=True)
                res = synthesize(text, d.top, target)
                row[target] = res
                if target == "xc7":
                    res["luts_with_ram"] = luts_with_ram(res)
                    print(f"[bench] {name}: {res['luts_with_ram']} LUTs ({res['luts']} logic + LUT RAM), "
                          f"{res['ffs']} FFs, depth {res['depth']}", flush=True)
                    if PUBLISHED[name].get("luts"):
                        row["lut_ratio"] = round(res["luts_with_ram"] / PUBLISHED[name]["luts"], 3)
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as fh:
        json.dump({"curve": "f2-1223", "designs": rows}, fh, indent=1)

    print()
    print("| design | cycles (published) | multiplier bound | over bound | inversion (published) "
          "| F_2^4m product (published) | LUTs incl. LUT RAM (published) | FFs | LUT depth |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        p = r["published"]
        x = r.get("xc7", {})

        def pv(ours, key):
            return f"{ours:,} ({p[key]:,})" if key in p else f"{ours:,}"

        luts = pv(x["luts_with_ram"], "luts") if x else "–"
        print(f"| {r['design']} | {pv(r['cycles'], 'cycles')} | {r['multiplier_bound']:,} | "
              f"{100 * r['over_bound']:.1f} % | {pv(r['cycles_per_inversion'], 'cycles_per_inversion')} | "
              f"{pv(r['cycles_per_mul4'], 'cycles_per_mul4')} | {luts} | "
              f"{x.get('ffs', '–')} | {x.get('depth', '–')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
