"""Rewrite the ``schedule`` part of ``pairhw/report/recorded.json``: every built-in design's cycles
and the seconds its compile takes from a cold cache (the default ``pairhw report`` compiles the
designs that take under :data:`pairhw.report.LIVE_SECONDS` and shows the rest as recorded).

    python scripts/record_schedules.py [NAME ...]

Names given: only those designs' entries are measured and replaced (a design added), the others kept."""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def summary(rep: dict) -> dict:
    """What the report shows of a schedule report (:func:`pairhw.report.schedule_summary`)."""
    from pairhw.report import schedule_summary

    return schedule_summary(rep)


def main(argv=None) -> None:
    os.environ["PAIRHW_CACHE"] = tempfile.mkdtemp(prefix="pairhw-record-")  # a cold cache: real times
    from pairhw import designs

    names = sys.argv[1:] if argv is None else argv
    unknown = sorted(set(names) - set(designs.names()))
    if unknown:
        print(f"record_schedules.py: unknown design(s): {', '.join(unknown)}", file=sys.stderr)
        sys.exit(2)
    path = ROOT / "pairhw" / "report" / "recorded.json"
    rec = json.loads(path.read_text())
    out = {}
    for name in designs.names():
        if names and name not in names:
            if name in rec["schedule"]:
                out[name] = rec["schedule"][name]
            continue
        t = time.monotonic()
        out[name] = {**summary(designs.get(name).report()), "compile_seconds": round(time.monotonic() - t, 1)}
        print(name, out[name], flush=True)
    rec["schedule"] = out
    path.write_text(json.dumps(rec, indent=1) + "\n")


if __name__ == "__main__":
    main()
