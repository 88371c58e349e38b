"""Digests of every file pairhw generates for the built-in designs, so a refactoring can show it
changed none (issue 50: "every generated file byte-identical").

For each built-in design: ``pairhw build D -o DIR -n 2 --seed 5`` (core Verilog, test bench, vectors,
microcode and program listings, FuseSoC core, Makefile, manifest); for three designs (one per family)
the same with each bus wrapper and ``--cocotb``; ``pairhw vectors C -n 2 --seed 3`` for every
parameter set; ``pairhw unit build`` for one multiplier of each kind on a small field.  Prints one
line per file: ``sha256  what/file``.  ``--root`` imports pairhw from another checkout (to digest a
base commit).  ``--old-names`` digests each file (and labels it) with the names by author and year
replaced by the names they had before (:mod:`pairhw.names`), so a tree from before the rename
compares equal.

    python scripts/output_digests.py [--small] [--only NAME ...] [--skip NAME ...] > digests.txt
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

#: one design per family with wrappers and cocotb
WRAPPED = ("f2-79-etat-tmvp3", "etat3-97-fast", "ate-bn-tiny")
#: the parameter sets of the designs ``--small`` digests
SMALL = ("f2-47", "f2-79", "f3-19", "f3-97", "bn-tiny")
#: (what, pairhw unit build arguments)
UNITS = [
    ("f2-karatsuba-79", ["--kind", "karatsuba", "--m", "79"]),
    ("f2-tmvp-47", ["--kind", "tmvp", "--m", "47"]),
    ("f2-msd-47-d4", ["--kind", "msd", "--m", "47", "--digit", "4"]),
    ("f2-ca1-47-d4", ["--kind", "ca1", "--m", "47", "--digit", "4"]),
    ("f2-hybrid-tmvp3-1223", ["--kind", "hybrid-tmvp3", "--curve", "f2-1223"]),
    ("f3-karatsuba-97", ["--kind", "karatsuba", "--curve", "f3-97"]),
    ("f3-msd-19", ["--kind", "msd", "--curve", "f3-19", "--digit", "3"]),
    ("fp-montgomery-pipelined-tiny", ["--kind", "montgomery-pipelined", "--curve", "bn-tiny"]),
    ("fp-montgomery-iterative-tiny", ["--kind", "montgomery-iterative", "--curve", "bn-tiny"]),
    ("fp-polymont-toy", ["--kind", "polymont-chavez11", "--curve", "bn-chavez11-toy"]),
]


def _run(main, argv) -> tuple[int, bytes]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["-q", *argv])
    return rc, out.getvalue().encode()


#: the names by author and year and the ones they replace, longest first (set by ``--old-names``)
RENAMED: list = []


def _old(data: bytes) -> bytes:
    for new, old in RENAMED:
        data = data.replace(new.encode(), old.encode())
        data = data.replace(new.replace("-", "_").encode(), old.replace("-", "_").encode())
    return data


def _manifest(root: Path, data: bytes) -> bytes:
    """A build manifest with the old names, its file hashes those of the files with the old names."""
    m = json.loads(_old(data))
    m["files"] = {name: hashlib.sha256(_old((root / name).read_bytes())).hexdigest() for name in m["files"]}
    return (json.dumps(m, indent=1) + "\n").encode()


def _tree(root: Path, what: str) -> None:
    for p in sorted(root.rglob("*")):
        if p.is_file():
            label = _old(f"{what}/{p.relative_to(root)}".encode()).decode()
            data = p.read_bytes()
            data = _manifest(root, data) if RENAMED and p.name == "manifest.json" else _old(data)
            print(f"{hashlib.sha256(data).hexdigest()}  {label}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="a pairhw checkout to import (default: the installed one)")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--skip", nargs="*", default=[])
    ap.add_argument("--old-names", action="store_true", help="digest with the names before the rename")
    ap.add_argument("--small", action="store_true",
                    help=f"only the designs on {', '.join(SMALL)} (their Verilog takes seconds; a full-size "
                         "core's takes minutes in Amaranth)")
    args = ap.parse_args()
    if args.root:
        sys.meta_path[:] = [f for f in sys.meta_path if "ditable" not in repr(f)]
        sys.path.insert(0, str(Path(args.root).resolve()))
    from pairhw import designs, params
    from pairhw.cli import main as cli

    if args.old_names:
        try:
            from pairhw.names import NEW_NAMES
        except ImportError:  # a tree from before the rename
            NEW_NAMES = {}
        RENAMED[:] = sorted(((n, o) for n, o in NEW_NAMES.items() if n != "chavez11"), key=lambda t: -len(t[0]))

    assert Path(designs.__file__).resolve().is_relative_to(Path(args.root or Path(designs.__file__).parents[2]).resolve())
    names = [d for d in designs.names() if not args.small or designs.get(d).params in SMALL]
    jobs = [(f"design/{d}", ["build", d, "-n", "2", "--seed", "5"]) for d in names]
    jobs += [(f"design-{w}/{d}", ["build", d, "-n", "2", "--seed", "5", "--wrap", w, "--cocotb"])
             for d in WRAPPED for w in ("axis", "axil", "wishbone")]
    jobs += [(f"unit/{u}", ["unit", "build", *a, "-n", "3", "--seed", "2"]) for u, a in UNITS]
    curves = [(f"vectors/{c}", ["vectors", c, "-n", "2", "--seed", "3"]) for c in params.names()]
    for what, argv in jobs + curves:
        name = what.split("/", 1)[1]
        if (args.only is not None and name not in args.only) or name in args.skip:
            continue
        if argv[0] == "vectors":
            rc, out = _run(cli, argv)
            print(f"{hashlib.sha256(_old(out)).hexdigest()}  {_old(what.encode()).decode()} (rc {rc})", flush=True)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            rc, _ = _run(cli, [*argv, "-o", f"{tmp}/out"])
            if rc:
                print(f"FAILED rc {rc}  {what}", flush=True)
            _tree(Path(tmp) / "out", what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
