"""Progress lines on stderr, shared by the CLI and the Python API (:mod:`pairhw.flow`): long work is
never silent."""

from __future__ import annotations

import sys
import time


def log(msg: str) -> None:
    """One progress line on stderr: ``[pairhw] msg``."""
    print(f"[pairhw] {msg}", file=sys.stderr, flush=True)


#: seconds between two progress lines of a long loop (:func:`ticker`)
PROGRESS_SECONDS = 5.0


def ticker(what: str, total: int):
    """A progress callback ``done -> None`` for long loops: says ``what: done of total (N s)`` on stderr
    at most every :data:`PROGRESS_SECONDS`, so a run over a few seconds is never silent."""
    t0 = last = time.monotonic()
    every = PROGRESS_SECONDS

    def tick(done: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every and done < total:
            last = now
            log(f"{what}: {done:,} of {total:,} ({now - t0:.0f} s)")
    return tick


def plural(n: int, word: str) -> str:
    """``1 cycle``, ``2 cycles``, ``10,000 pairings``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"
