"""Rewrite the ``schedule`` part of ``pairhw/report/recorded.json``: every built-in design's cycles
and the seconds its compile takes from a cold cache (the default ``pairhw report`` compiles the
designs that take under :data:`pairhw.report.LIVE_SECONDS` and shows the rest as recorded)."""

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


def main() -> None:
    os.environ["PAIRHW_CACHE"] = tempfile.mkdtemp(prefix="pairhw-record-")  # a cold cache: real times
    from pairhw import designs

    path = ROOT / "pairhw" / "report" / "recorded.json"
    rec = json.loads(path.read_text())
    out = {}
    for name in designs.names():
        t = time.monotonic()
        out[name] = {**summary(designs.get(name).report()), "compile_seconds": round(time.monotonic() - t, 1)}
        print(name, out[name], flush=True)
    rec["schedule"] = out
    path.write_text(json.dumps(rec, indent=1) + "\n")


if __name__ == "__main__":
    main()
