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

from pairhw.published import NAGL_ASIP as PAPER, nagl_cycles  # noqa: E402



def gates_without_memories(d) -> dict:
    """The ``gates`` flow on the core with its two data memories as black boxes (their bits counted
    apart)."""
    from pairhw import flow
    from pairhw.synth.flows import synthesize

    return synthesize(flow.verilog(d), d.top, "gates-ram")


def run(args) -> list:
    from pairhw import designs
    from pairhw import flow

    rows = []
    unknown = [n for n in args.design or [] if n not in PAPER]
    if unknown:
        print(f"asip1223.py: error: --design {unknown[0]} is not one of {', '.join(PAPER)}", file=sys.stderr)
        sys.exit(2)
    for name in args.design or list(PAPER):
        d = designs.get(name)
        t0 = time.monotonic()
        rep = d.report()
        paper = PAPER[name]
        paper_cycles = nagl_cycles(name)
        row = {"design": name, "cycles": rep["cycles"], "paper_cycles": paper_cycles,
               "ratio": round(rep["cycles"] / paper_cycles, 3), "cycles_per_product": rep["multiplier"]["cycles_per_product"],
               "ops": rep["ops"], "memory": rep["memory"], "instructions": rep["instructions"],
               "paper_kge_synth": paper["kge_synth"], "paper_kge_layout": paper["kge_layout"]}
        if args.verify:
            res = flow.simulate(d, args.verify, 1)
            row["verilator"] = {"pairings": args.verify, "verified": res.verified,
                                "constant_time": res.constant_time, "cycles": res.cycles_max}
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
