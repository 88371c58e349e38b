"""Benchmark: Nagl et al.'s microcoded ηT processor over F_2^1223 with its seven multipliers (Tables I
and III), as pairhw's word-serial ASIP designs (writes JSON).

    python bench/asip1223.py [--verify N] [--gates] [--design NAME ...] [-o bench/out/asip1223.json]

Per design ``asip-1223-*``: cycles per pairing against Table III (ms × 125 MHz), the cycles spent in
products, squarings / square roots and additions, the cycles per product, the memory footprint,
``--verify N`` pairings simulated in Verilator against the golden model (default 0: the m = 1223
cores build for minutes), and with ``--gates`` the Yosys gate-equivalent count (pairhw's ``gates``
flow with the RAMs kept as macros: ``gates-ram``) of the logic and flip-flops without the two data
memories (their bits are reported:
Table I's areas include the register macro cells, whose area per bit the paper does not give).
The AT product is cycles × GE (synthesis-level GE; Table I's are post-layout).
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import design_bench_parser, write_json  # noqa: E402

#: Nagl et al. Table III (ms per pairing at 125 MHz) and Table I (synthesis and post-layout kGE)
PAPER = {
    "asip-1223-k153": {"ms": 6.02, "kge_synth": 126.9, "kge_layout": 132.6},
    "asip-1223-k77": {"ms": 12.90, "kge_synth": 104.9, "kge_layout": 109.8},
    "asip-1223-lsd11": {"ms": 12.80, "kge_synth": 86.5, "kge_layout": 90.4},
    "asip-1223-lsd9": {"ms": 9.62, "kge_synth": 86.8, "kge_layout": 90.4},
    "asip-1223-lsd7": {"ms": 15.01, "kge_synth": 72.4, "kge_layout": 75.6},
    "asip-1223-lsb153": {"ms": 47.19, "kge_synth": 56.7, "kge_layout": 59.8},
    "asip-1223-lsb77": {"ms": 51.48, "kge_synth": 49.9, "kge_layout": 52.7},
}
MHZ = 125


def gates_without_memories(d) -> dict:
    """The ``gates`` flow on the core with its two data memories as black boxes (their bits counted
    apart)."""
    from pairhw.cli.design import _verilog
    from pairhw.synth.flows import synthesize

    core = d.core()
    return synthesize(_verilog(d, core), d.top, "gates-ram")


def run(args) -> list:
    from pairhw import designs
    from pairhw.cli.design import _random_rows, simulate

    rows = []
    for name in args.design or list(PAPER):
        d = designs.get(name)
        t0 = time.monotonic()
        rep = d.report()
        paper = PAPER[name]
        paper_cycles = round(paper["ms"] * MHZ * 1000)
        row = {"design": name, "cycles": rep["cycles"], "paper_cycles": paper_cycles,
               "ratio": round(rep["cycles"] / paper_cycles, 3), "cycles_per_product": rep["multiplier"]["cycles_per_product"],
               "ops": rep["ops"], "memory": rep["memory"], "instructions": rep["instructions"],
               "paper_kge_synth": paper["kge_synth"], "paper_kge_layout": paper["kge_layout"]}
        if args.verify:
            res = simulate(d, _random_rows(d, args.verify, 1))
            row["verilator"] = {"pairings": args.verify, "verified": res["verified"],
                                "constant_time": res["constant_time"], "cycles": res["cycles_max"]}
        if args.gates:
            g = gates_without_memories(d)
            row["gates"] = {"ge": g["ge"], "ge_logic": g["ge_logic"], "ge_ff": g["ge_ff"], "ffs": g["ffs"],
                            "memory_bits": g.get("memory_bits"), "depth": g["depth"]}
            row["at_cycles_kge"] = round(rep["cycles"] * g["ge"] / 1000)
            row["paper_at_cycles_kge"] = round(paper_cycles * paper["kge_synth"])
        row["seconds"] = round(time.monotonic() - t0, 1)
        print(f"{name}: {rep['cycles']} cycles ({row['ratio']} x Table III {paper_cycles})"
              + (f", Verilator {row['verilator']['verified']}/{args.verify}" if args.verify else "")
              + (f", {row['gates']['ge']:.0f} GE without memories" if args.gates else ""), file=sys.stderr)
        rows.append(row)
    return rows


def main() -> int:
    ap = design_bench_parser(__doc__, "asip1223.json")
    ap.set_defaults(verify=0)
    ap.add_argument("--gates", action="store_true", help="gate equivalents (Yosys, minutes per design)")
    args = ap.parse_args()
    t0 = time.monotonic()
    rows = run(args)
    write_json(args.output, {"bench": "asip1223", "designs": rows, "seconds": round(time.monotonic() - t0, 1)})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
