"""The ``pairhw`` command: one module per verb group.

``curves`` (the verbs on parameter sets: curves, point, pair, vectors, opcount, for every family,
with ``prime`` and ``ternary`` holding what is particular to those families), ``unit`` (multiplier
units: unit sim, unit build, unit synth), ``design`` (pairing cores: designs, schedule, build, sim,
synth DESIGN); ``command`` assembles the parser.  ``common`` holds the error type they share.
"""


def main(argv=None) -> int:
    """Run the command (exit code 0, 1 or 2; see :mod:`pairhw.cli.command`)."""
    from pairhw.cli.command import main as run

    return run(argv)
