"""Copy the synthesized points of sweeps from a results store into ``pairhw/report/recorded.json``
(its ``explore`` list, which ``pairhw report`` shows and plots), marking the cycles × LUTs front.

    python scripts/record_explore.py --db STORE examples/explore/tmvp3-1223.yaml [...]
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from pairhw.explore import pareto, spec as specs
    from pairhw.explore.store import Store, result_key

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("specs", nargs="+")
    args = ap.parse_args()
    store = Store(args.db)
    path = ROOT / "pairhw" / "report" / "recorded.json"
    rec = json.loads(path.read_text())
    rows = [e for e in rec.get("explore", []) if e["spec"] not in args.specs]
    for sp_path in args.specs:
        sp = specs.load(sp_path)
        for p in sp.points():
            s = store.get(result_key(p.data, "schedule", {}))
            y = store.get(result_key(p.data, "synth", {"target": "xc7"}))
            if not s or not y or "error" in s or "error" in y:
                print(f"{p.name}: not synthesized in {args.db}; left out")
                continue
            rows.append({"search": sp.name, "spec": sp_path, "point": p.name, "cycles": s["cycles"],
                         "multiplier_bound": s["multiplier_bound"], "luts_incl_ram": y["luts_incl_ram"],
                         "ffs": y["ffs"], "depth": y["depth"], "measured": y.get("date", "")})
    on = set(pareto.front([(r["cycles"], r["luts_incl_ram"]) for r in rows]))
    for i, r in enumerate(rows):
        r["verdict"] = "on the cycles × LUTs front" if i in on else "dominated"
    rec["explore"] = rows
    path.write_text(json.dumps(rec, indent=1) + "\n")
    for r in rows:
        print(r["point"], r["cycles"], r["luts_incl_ram"], r["verdict"])


if __name__ == "__main__":
    main()
