"""``pairhw explore SPEC`` (a design-space sweep) and ``pairhw report`` (published against ours)."""

from __future__ import annotations

import json
from pathlib import Path

from pairhw.cli.common import add_json, number
from pairhw.cli.unit import log


def _store_path(arg: str | None) -> Path:
    from pairhw.cache import cache_dir

    return Path(arg) if arg else cache_dir() / "explore.sqlite"


def _add_workers(p) -> None:
    """``--db``, ``-j`` and ``--cluster``: where results are stored and where tasks run (explore, report)."""
    p.add_argument("--db", metavar="FILE", help="the SQLite results store (default <cache>/explore.sqlite)")
    p.add_argument("-j", "--jobs", type=number(1, 256), metavar="N", help="local worker processes (default: the CPUs)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the tasks on a Dask distributed scheduler "
                   "(tcp://host:8786) instead of local processes")


def _check_workers(args, UsageError) -> None:
    if args.jobs is not None and args.cluster:
        raise UsageError("give -j N (local workers) or --cluster ADDRESS, not both")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"-j {args.jobs}: at least one worker")


def _open_store(args, UsageError):
    """``--db`` (default ``<cache>/explore.sqlite``) opened as a results store, or a UsageError."""
    from pairhw.explore.store import Store

    db = _store_path(args.db)
    if db.is_dir():
        raise UsageError(f"--db {db}: is a directory (give a file name)")
    try:
        return db, Store(db)
    except Exception as e:  # sqlite3.DatabaseError: not a database, locked, unwritable
        raise UsageError(f"--db {db}: cannot use it as a results store: {e}") from None


def _cell(v, width: int) -> str:
    return f"{'-' if v is None else (f'{v:,}' if isinstance(v, int) else v):>{width}}"


def table(spec, rows: list[dict]) -> str:
    """The sweep as text: one line per point, then the errors."""
    from pairhw.explore.pareto import area

    target = spec.synth["target"]
    w = max(len(r["name"]) for r in rows)
    head = f"{'point':{w}} {'cycles':>9} {'mul bound':>9} " + (
        f"{'area':>9} {'FFs':>7} {'depth':>5} " if "synth" in spec.tiers else "") + (
        f"{'verified':>8} " if "sim" in spec.tiers else "") + "pareto"
    lines = [head]
    errors = []
    for r in rows:
        s = r.get("schedule", {})
        line = f"{r['name']:{w}} {_cell(s.get('cycles'), 9)} {_cell(s.get('multiplier_bound'), 9)} "
        if "synth" in spec.tiers:
            y = r.get("synth") or {}
            line += f"{_cell(area(r, target), 9)} {_cell(y.get('ffs'), 7)} {_cell(y.get('depth'), 5)} "
        if "sim" in spec.tiers:
            m = r.get("sim")
            line += f"{'-' if not m or 'error' in m else str(m['verified']) + '/' + str(m['pairings']):>8} "
        line += "*" if r.get("pareto") else ""
        lines.append(line.rstrip())
        for tier in ("schedule", "sim", "synth"):
            if "error" in (r.get(tier) or {}):
                errors.append(f"{r['name']}: {tier}: {r[tier]['error']}")
    return "\n".join(lines + errors)


def cmd_explore(args, UsageError) -> int:
    from pairhw.explore import pareto, run, spec as specs

    _check_workers(args, UsageError)
    spec = None
    try:
        spec = specs.load(args.spec)
        points = spec.points()
    except specs.SpecError as e:  # load names the file; a point's error is prefixed with it here
        raise UsageError(f"{args.spec}: {e}" if spec is not None else str(e)) from None
    if args.plot and "synth" not in spec.tiers:
        raise UsageError("--plot draws cycles against area: the spec's tiers must include synth")
    db, store = _open_store(args, UsageError)
    log(f"explore {spec.name}: {len(points)} points of {spec.base}, tiers {', '.join(spec.tiers)}")
    ex = run.executor(args.jobs, args.cluster)  # a local pool starts its workers only when needed
    try:
        rows = run.sweep(spec, store, ex, log=log)
    except KeyboardInterrupt:
        log(f"interrupted: {store.count()} results are in {db}; the same command resumes")
        return 130
    finally:
        ex.close()
        store.close()
    target = spec.synth["target"]
    pareto.mark(rows, target)
    files = []
    if args.plot:
        pts = [{"name": r["name"], "cycles": pareto.cycles(r), "area": pareto.area(r, target),
                "pareto": r["pareto"]} for r in rows]
        files = pareto.plot(pts, pareto.references(spec.base_data["curve"], target),
                            Path(args.plot) / f"{spec.name}-pareto",
                            f"{spec.name}: cycles against {pareto.AREA[target][1]}", pareto.AREA[target][1])
    failed = sum(1 for r in rows
                 if "sim" in r and "error" not in r["sim"] and r["sim"]["verified"] != r["sim"]["pairings"])
    if args.json:
        print(json.dumps({"spec": spec.name, "base": spec.base, "tiers": list(spec.tiers), "store": str(db),
                          "points": rows, "plots": [str(f) for f in files]}))
    else:
        print(table(spec, rows))
        for f in files:
            print(f"wrote {f}")
    return 1 if failed else 0


def register(sub, UsageError) -> None:
    p = sub.add_parser("explore", help="sweep a design space (spec file: base design, axes, tiers); results "
                       "stored in SQLite, resumed, Pareto front")
    p.add_argument("spec", help="a YAML or JSON sweep (see docs/guide/exploring.md)")
    _add_workers(p)
    p.add_argument("--plot", metavar="DIR", help="write DIR/<spec>-pareto.png and .svg (cycles × area)")
    add_json(p)
    p.set_defaults(func=lambda a: cmd_explore(a, UsageError))


def cmd_report(args, UsageError) -> int:
    from pairhw import report
    from pairhw.output import check_target, write_tree
    from pairhw.cli.unit import tell_tree
    from pairhw.explore import run

    _check_workers(args, UsageError)
    check_target(args.output, ("report", "pairhw"), args.force)
    db, store = _open_store(args, UsageError)
    ex = run.executor(args.jobs, args.cluster)  # a local pool starts its workers only when needed
    log(f"report ({'full' if args.full else 'default'}): measuring; results stored in {db}")
    try:
        files, summary = report.build(args.full, store, ex, log)
    except KeyboardInterrupt:
        log(f"interrupted: what was measured is in {db}; the same command resumes")
        return 130
    finally:
        ex.close()
        store.close()
    tell_tree(args.output, write_tree(args.output, files, ("report", "pairhw"), force=args.force))
    if args.json:
        print(json.dumps({"output": args.output, **summary}))
    else:
        print(f"wrote {', '.join(sorted(files))} to {args.output} ({summary['measured']} measured results, "
              f"{len(summary['recorded_commands'])} commands of recorded figures; {summary['seconds']} s)")
    return 0


def register_report(sub, UsageError) -> None:
    from pairhw.cli.common import add_output_dir

    p = sub.add_parser("report", help="one HTML page and Markdown: every paper's published figures beside "
                       "pairhw's, the Pareto plots, each design's verification")
    add_output_dir(p)
    p.add_argument("--full", action="store_true", help="measure everything: every design's schedule, a "
                   "2-pairing Verilator run and its synthesis (hours; --cluster spreads it)")
    _add_workers(p)
    add_json(p)
    p.set_defaults(func=lambda a: cmd_report(a, UsageError))
