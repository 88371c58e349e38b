"""The ``pairhw`` command: one module per verb group.

``curves`` (the verbs on parameter sets: curves, point, pair, vectors, opcount, for every family,
with ``prime`` and ``ternary`` holding what is particular to those families), ``unit`` (multiplier
units: unit sim, unit build, unit synth), ``design`` (pairing cores: designs, schedule, build, sim,
synth DESIGN); ``command`` assembles the parser.  ``common`` holds the error type they share.
"""


import os
import sys


def main(argv=None) -> int:
    """Run the command (exit code 0, 1 or 2; see :mod:`pairhw.cli.command`).  Run as the program
    (``argv`` None), a SIGTERM ends it as an interrupt does: temporary files and directories are
    removed and a tool it started is stopped (exit code 143)."""
    from pairhw.cli.command import main as run

    if argv is None:
        import signal

        signal.signal(signal.SIGTERM, _terminated)
    try:
        code = run(argv)
        if argv is None:
            sys.stdout.flush()  # here, not at the interpreter's exit, so a closed pipe is caught
    except BrokenPipeError:
        if not stdout_closed():
            raise
        code = 0
    if argv is None and stdout_closed():
        _stdout_to_devnull()  # the reader went away (`| head`): end quietly, as Unix tools do
    return code


def stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has gone (``pairhw … | head``)."""
    import select

    try:
        fd = sys.stdout.fileno()
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): not a pipe
        return False


def _stdout_to_devnull() -> None:
    """Point standard output at /dev/null, so that what Python still flushes at exit goes nowhere
    instead of raising a second BrokenPipeError (Python's documented recipe, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _terminated(signum, frame):
    raise SystemExit(128 + signum)  # unwinds: `finally` blocks and context managers run
