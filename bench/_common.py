"""Helpers shared by the benchmark scripts (imported as ``_common``: each script's own folder is
first on ``sys.path`` when it runs)."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time


def median_of(fn, args_list) -> float:
    """Median wall time of ``fn(*a)`` over the argument tuples of ``args_list``."""
    ts = []
    for a in args_list:
        t = time.perf_counter()
        fn(*a)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def host(runs: int) -> dict:
    """The run count and what the figures were measured on."""
    return {"runs": runs, "python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count()}


def write_json(path: str, obj, indent: int = 2) -> None:
    """Write ``obj`` to ``path``, creating its folder."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(obj, fh, indent=indent)


def design_bench_parser(doc: str, output_name: str):
    """The arguments of the design benchmarks: ``-o`` (default ``bench/out/<output_name>``),
    ``--verify N`` (pairings simulated in Verilator) and ``--design NAME`` (repeatable)."""
    import argparse

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", output_name))
    ap.add_argument("--verify", type=int, default=2, metavar="N", help="pairings simulated in Verilator (0: none)")
    ap.add_argument("--design", action="append", help="only these designs")
    return ap
