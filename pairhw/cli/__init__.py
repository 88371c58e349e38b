"""The ``pairhw`` command: one module per verb group.

``curves`` (the verbs on parameter sets: curves, point, pair, vectors, opcount, for every family,
with ``prime`` and ``ternary`` holding what is particular to those families), ``unit`` (multiplier
units: unit sim, unit build, unit synth), ``design`` (pairing cores: designs, schedule, build, sim,
synth DESIGN); ``command`` assembles the parser.  ``common`` holds the error type they share.
"""


def main(argv=None) -> int:
    """Run the command (exit code 0, 1 or 2; see :mod:`pairhw.cli.command`).  Run as the program
    (``argv`` None), a SIGTERM ends it as an interrupt does: temporary files and directories are
    removed and a tool it started is stopped (exit code 143)."""
    from pairhw.cli.command import main as run

    if argv is None:
        import signal

        signal.signal(signal.SIGTERM, _terminated)
    return run(argv)


def _terminated(signum, frame):
    raise SystemExit(128 + signum)  # unwinds: `finally` blocks and context managers run
