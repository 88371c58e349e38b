"""Evaluating a sweep: pure tasks, a local process pool or a Dask cluster, the store in between.

:func:`evaluate` is a pure function of a task (a design's JSON data, a tier, the tier's options) and
returns a JSON-able dict, so it runs in any process where pairhw is installed: a worker of
:class:`concurrent.futures.ProcessPoolExecutor` by default, or of a ``dask.distributed`` cluster
(``--cluster ADDRESS``).  The sweep runs the tiers in order (schedule, sim, synth); a point whose
schedule failed, or that ``keep`` drops, goes no further.  Every result is stored as it arrives.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed

from pairhw.explore.spec import Spec
from pairhw.explore.store import Store, result_key


def _schedule(d, options) -> dict:
    rep = d.report()
    return {"cycles": rep["cycles"], "multiplier_bound": rep["multiplier_bound"],
            "utilisation": rep["multiplier_utilisation"], "report": rep}


def _sim(d, options) -> dict:
    from pairhw import flow

    res = flow.simulate(d, options["n"], options["seed"])
    return {"pairings": options["n"], "seed": options["seed"], "verified": res.verified,
            "failed": res.failed, "constant_time": res.constant_time, "cycles": res.cycles_max}


def _synth(d, options) -> dict:
    from pairhw import flow
    from pairhw.synth.flows import luts_with_ram, synthesize

    res = synthesize(flow.verilog(d), d.top, options["target"])  # the flow's figures alone are stored
    if options["target"] == "xc7":
        res["luts_incl_ram"] = luts_with_ram(res)
    return res


_TIER = {"schedule": _schedule, "sim": _sim, "synth": _synth}


def evaluate(task: dict) -> dict:
    """Run one tier on one design: ``task = {"design": data, "tier": T, "options": {...}}``.  A design
    the tier cannot handle gives ``{"error": message}`` (stored, so it is not retried)."""
    from pairhw import designs

    t0 = time.monotonic()
    quiet = io.StringIO()
    try:
        with contextlib.redirect_stderr(quiet):  # the verbs' progress lines; the sweep reports its own
            out = _TIER[task["tier"]](designs.from_data(task["design"]), task["options"])
    except Exception as e:  # a point the engine or a flow rejects is a result of the sweep, not a crash
        last = traceback.extract_tb(e.__traceback__)[-1]
        out = {"error": f"{type(e).__name__}: {e}", "where": f"{os.path.basename(last.filename)}:{last.lineno}"}
    out["seconds"] = round(time.monotonic() - t0, 2)
    out["date"] = time.strftime("%Y-%m-%d", time.gmtime())  # when it was measured (UTC)
    return out


class _Local:
    """A process pool of ``jobs`` workers (the default executor)."""

    def __init__(self, jobs: int):
        self.pool = ProcessPoolExecutor(max_workers=jobs)

    def map(self, tasks):
        futures = {self.pool.submit(evaluate, t): i for i, t in enumerate(tasks)}
        for f in as_completed(futures):
            yield futures[f], f.result()

    def close(self):
        self.pool.shutdown(cancel_futures=True)


class _Dask:
    """The tasks on a ``dask.distributed`` cluster at ``address``."""

    def __init__(self, address: str):
        from dask.distributed import Client

        self.client = Client(address, timeout="20s")

    def map(self, tasks):
        from dask.distributed import as_completed as dask_completed

        futures = {self.client.submit(evaluate, t, pure=False): i for i, t in enumerate(tasks)}
        for f in dask_completed(list(futures)):
            yield futures[f], f.result()

    def close(self):
        self.client.close()


def executor(jobs: int | None = None, cluster: str | None = None):
    """The local pool (``jobs`` workers, default the machine's CPUs; it starts them only when a task
    is submitted) or a Dask cluster."""
    return _Dask(cluster) if cluster else _Local(jobs or os.cpu_count() or 1)


def _progress(total: int, what: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=what, unit="point", file=sys.stderr, disable=None, leave=False)


def sweep(spec: Spec, store: Store, run, log=None) -> list[dict]:
    """Evaluate every point of ``spec`` on its tiers on ``run`` (an :func:`executor`, which the caller
    closes); results come from ``store`` when it has them.  Returns one row per point: name, labels,
    the design's data and each tier's result."""
    rows = [{"name": p.name, "labels": dict(zip([a for a, _ in spec.axes], p.labels)), "design": p.data}
            for p in spec.points()]
    for tier in spec.tiers:
        _tier(spec, store, rows, tier, run, log)
    return rows


def run_tasks(tasks: list[dict], store: Store, run, log=None, what: str = "tasks") -> list[dict]:
    """Results of ``tasks`` (each ``{"design": data, "tier": T, "options": {...}}``), from ``store``
    when it has them, else computed on ``run`` (an :func:`executor`) and stored as each arrives; a
    result has ``"stored": True`` if it was not computed."""
    results, todo, keys = [None] * len(tasks), [], {}
    for i, t in enumerate(tasks):
        key = result_key(t["design"], t["tier"], t["options"])
        hit = store.get(key)
        if hit is not None:
            results[i] = {**hit, "stored": True}
        else:
            keys[i] = key
            todo.append(i)
    if log:
        log(f"{what}: {len(todo)} to compute, {len(tasks) - len(todo)} from the store {store.path}")
    if not todo:
        return results
    bar = _progress(len(todo), what)
    try:
        for done, (j, res) in enumerate(run.map([tasks[i] for i in todo]), 1):
            i = todo[j]
            t = tasks[i]
            store.put(keys[i], t["tier"], t["design"], t["options"], res)
            results[i] = {**res, "stored": False}
            bar.update(1)
            if log and bar.disable:
                log(f"{what} {done}/{len(todo)} {t['design']['name']} ({_brief(t['tier'], res)}, {res['seconds']} s)")
    finally:
        bar.close()
    return results


def _tier(spec, store, rows, tier, run, log) -> None:
    """Run one tier over the rows that reach it."""
    options = {"schedule": {}, "sim": spec.sim, "synth": spec.synth}[tier]
    idx = [i for i, row in enumerate(rows) if tier == "schedule" or _goes_on(row, spec)]
    results = run_tasks([{"design": rows[i]["design"], "tier": tier, "options": options} for i in idx],
                        store, run, log, f"explore {spec.name}: {tier}")
    for i, res in zip(idx, results):
        rows[i][tier] = res


def _goes_on(row: dict, spec: Spec) -> bool:
    s = row.get("schedule", {})
    if "error" in s or "cycles" not in s:
        return False
    return s["cycles"] <= spec.keep.get("cycles_at_most", s["cycles"])


def _brief(tier: str, res: dict) -> str:
    if "error" in res:
        return "error"
    if tier == "schedule":
        return f"{res['cycles']} cycles"
    if tier == "sim":
        return f"{res['verified']}/{res['pairings']} bit-exact"
    return f"{res.get('luts_incl_ram', res.get('luts', res.get('ge', '?')))} area"
