"""Benchmark: how fast the tool itself answers (writes JSON).

    python bench/tooling.py [--parts designs,compile,vectors,verilator,tests] [--design NAME ...]
                            [--runs 3] [-o bench/out/tooling.json]

Parts (all by default except ``tests``, which runs the README's test command and takes half an hour):

- ``designs``: ``pairhw designs`` in a fresh process, on an empty cache (cold) and again (warm);
- ``compile``: each built-in design's compile (``Design.compile``) on an empty cache, in its own
  process (``--design`` restricts the list; the m = 1223 and full-size prime programs take minutes);
- ``vectors``: ``pairhw vectors FIELD``'s time per vector per field: (t(n = 1 + N) − t(n = 1)) / N,
  the median of ``--runs`` runs, so the process start and the curve set-up are not counted; in one
  process (``-j 1``) and with the default workers (the CPUs); and ``pairhw vectors f2-1223 -n 20`` whole;
- ``verilator``: simulated cycles per second of built cores (the build, cached beforehand, not counted);
- ``tests``: ``python -m pytest -n 2 -q`` on this checkout: wall time and the passed/skipped counts.

Every figure is measured in this run on this machine; the JSON says which (``host``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, ROOT)

from _common import host, write_json  # noqa: E402

PARTS = ("designs", "compile", "vectors", "verilator", "tests")
#: fields whose vectors are timed: each family, a small and the largest size
VECTOR_FIELDS = {"f2-79": 20, "f2-1223": 10, "f3-97": 20, "f3-509": 5, "bn-tiny": 20, "bn254": 5, "bls12-381": 5}
#: cores whose simulation speed is timed (one per core class that builds in about a minute)
VERILATOR_DESIGNS = ("f2-79-etat-tmvp3", "f3-19-etat-schoolbook", "ate-bn-tiny", "asip-79-lsd5")


def _pairhw(args, cache: str | None = None) -> float:
    """Wall time of ``pairhw ARGS`` in a fresh process (optionally with ``PAIRHW_CACHE=cache``)."""
    env = dict(os.environ)
    if cache is not None:
        env["PAIRHW_CACHE"] = cache
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pairhw", "-q", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def bench_designs() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        cold = _pairhw(["designs"], cache)
        warm = _pairhw(["designs"], cache)
    print(f"designs: cold {cold:.2f} s, warm {warm:.2f} s", file=sys.stderr)
    return {"cold_s": round(cold, 3), "warm_s": round(warm, 3)}


_COMPILE = """
import sys, time
from pairhw import designs
d = designs.get(sys.argv[1])
t = time.perf_counter(); d.compile(); print(time.perf_counter() - t)
"""


def bench_compile(names) -> dict:
    out = {}
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            res = subprocess.run([sys.executable, "-c", _COMPILE, name], capture_output=True, text=True, check=True,
                                 env={**os.environ, "PAIRHW_CACHE": cache, "PAIRHW_QUIET": "1"})
        out[name] = round(float(res.stdout.split()[-1]), 2)
        print(f"compile {name:28} {out[name]:8.2f} s (cold)", file=sys.stderr)
    return out


def bench_vectors(runs: int) -> dict:
    """Per field: seconds per vector in one process (``-j 1``) and with the default workers (the
    CPUs); and the issue's command, ``pairhw vectors f2-1223 -n 20``, whole."""
    out = {}
    for field, n in VECTOR_FIELDS.items():
        out[field] = {"n": n, "runs": runs}
        for label, jobs in (("one_process", ["-j", "1"]), ("workers", [])):
            one = statistics.median(_pairhw(["vectors", field, "-n", "1", *jobs]) for _ in range(runs))
            many = statistics.median(_pairhw(["vectors", field, "-n", str(1 + n), *jobs]) for _ in range(runs))
            per = max(many - one, 0.0) / n
            out[field][label] = {"seconds_per_vector": round(per, 4),
                                 "vectors_per_second": round(1 / per, 2) if per else None, "startup_s": round(one, 3)}
            print(f"vectors {field:10} {label:12} {per:8.4f} s each ({n} vectors, startup {one:.2f} s)",
                  file=sys.stderr)
    whole = statistics.median(_pairhw(["vectors", "f2-1223", "-n", "20"]) for _ in range(runs))
    out["f2-1223 -n 20"] = {"wall_s": round(whole, 3), "runs": runs}
    print(f"pairhw vectors f2-1223 -n 20: {whole:.2f} s", file=sys.stderr)
    return out


def bench_verilator(names, runs: int) -> dict:
    from pairhw import designs
    from pairhw import flow
    from pairhw.emit import core_testbench, core_vectors_text
    from pairhw.sim import verilator

    out = {}
    for name in names:
        d = designs.get(name)
        core = d.core()
        binary = verilator.build({f"{d.top}.v": flow.verilog(d), "tb.v": core_testbench(core)})
        rows = flow.pairings(d, 10, seed=1)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "vectors.txt")
            with open(path, "w") as fh:
                fh.write(core_vectors_text(d.field, rows))
            ts = []
            for _ in range(runs):
                t = time.perf_counter()
                res = verilator.run_core(binary, path)
                ts.append(time.perf_counter() - t)
                assert res["verified"] == len(rows) and res["failed"] == 0, res
        med = statistics.median(ts)
        cycles = len(rows) * core.cycles
        out[name] = {"cycles": cycles, "seconds": round(med, 3), "cycles_per_second": round(cycles / med)}
        print(f"verilator {name:24} {cycles / med:12,.0f} cycles/s ({cycles:,} cycles in {med:.2f} s)",
              file=sys.stderr)
    return out


def bench_tests() -> dict:
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                         capture_output=True, text=True)
    wall = time.perf_counter() - t
    tail = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else ""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|skipped|deselected|errors?)", tail)}
    print(f"tests: {tail} ({wall:.0f} s wall)", file=sys.stderr)
    return {"wall_s": round(wall), "counts": counts, "exit": res.returncode, "summary": tail}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default="designs,compile,vectors,verilator",
                    help=f"comma-separated, of {', '.join(PARTS)}")
    ap.add_argument("--design", action="append", help="compile only these designs (repeatable)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "out", "tooling.json"))
    args = ap.parse_args()
    parts = args.parts.split(",")
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"--parts: {', '.join(bad)} not among {', '.join(PARTS)}")

    from pairhw import designs

    result = {**host(args.runs)}
    if "designs" in parts:
        result["designs"] = bench_designs()
    if "compile" in parts:
        result["compile_cold_s"] = bench_compile(args.design or designs.names())
    if "vectors" in parts:
        result["vectors"] = bench_vectors(args.runs)
    if "verilator" in parts:
        result["verilator"] = bench_verilator(VERILATOR_DESIGNS, args.runs)
    if "tests" in parts:
        result["tests"] = bench_tests()
    write_json(args.output, result)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
