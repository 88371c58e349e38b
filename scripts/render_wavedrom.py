"""Render the WaveDrom timing diagrams of docs/PROTOCOL.md: docs/wavedrom/*.json -> *.svg.

    python scripts/render_wavedrom.py [--check]

``--check`` renders into memory and exits 1 if a committed SVG differs (tests run it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import wavedrom

DOCS = Path(__file__).resolve().parent.parent / "docs" / "wavedrom"


def render(path: Path) -> str:
    return wavedrom.render(path.read_text()).tostring() + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed SVGs instead of writing")
    args = ap.parse_args()
    stale = []
    for src in sorted(DOCS.glob("*.json")):
        svg, text = src.with_suffix(".svg"), render(src)
        if args.check:
            if not svg.exists() or svg.read_text() != text:
                stale.append(svg.name)
        else:
            svg.write_text(text)
            print(f"wrote {svg.relative_to(DOCS.parent.parent)}")
    if stale:
        print(f"stale: {', '.join(stale)} (run python scripts/render_wavedrom.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
