"""Scratch directories and tools that do not outlive a stopped program.

A Ctrl-C or SIGTERM unwinds pairhw (see :func:`pairhw.cli.main`).  Something made just before the
``try`` that removes it (a directory by ``mkdtemp``, a child process by ``Popen``) would outlive such
a stop; :func:`held_stops` closes that window.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import tempfile
import threading
from pathlib import Path


@contextlib.contextmanager
def held_stops():
    """Hold Ctrl-C and SIGTERM back during the block, then deliver the first that came as its handler
    would have.  Used around the making of something the caller must undo when stopped: the stop is
    then raised once the caller knows what to undo (``subprocess.Popen``, for one, does not stop a
    child it has forked when a signal handler raises inside it).  Outside the main thread, where
    Python runs no handlers, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = []
    stops = (signal.SIGINT, signal.SIGTERM)
    handlers = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in stops}
    try:
        yield
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    if came:
        h = handlers[came[0]]
        if callable(h):
            h(came[0], None)
        elif h == signal.SIG_DFL:
            signal.raise_signal(came[0])


@contextlib.contextmanager
def scratch_dir(prefix: str, dir=None):
    """A new private directory (``tempfile.mkdtemp(prefix=prefix, dir=dir)``), removed when the block
    ends, however it ends; a stop while it is made (:func:`held_stops`) removes it too.  A directory
    the block renamed away is left where it went."""
    path = None
    try:
        with held_stops():
            path = Path(tempfile.mkdtemp(prefix=prefix, dir=dir))
        yield path
    finally:
        if path is not None:
            shutil.rmtree(path, ignore_errors=True)
