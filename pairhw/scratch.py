"""Scratch directories that do not outlive a stopped program."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from pathlib import Path


@contextlib.contextmanager
def scratch_dir(prefix: str, dir=None):
    """A new private directory ``<dir>/<prefix><random>`` (``dir``: the temporary directory by
    default), removed when the block ends, however it ends.

    Unlike ``tempfile.mkdtemp`` followed by ``try``, there is no moment when the directory exists
    and nothing will remove it: its name is chosen first and it is made inside the ``try`` whose
    ``finally`` removes it.  A Ctrl-C or SIGTERM (which unwinds pairhw, see :func:`pairhw.cli.main`)
    that arrives just after ``mkdtemp`` had made it left it behind.  A directory the block renamed
    away is left where it went.
    """
    parent = Path(dir if dir is not None else tempfile.gettempdir())
    while True:
        path = parent / f"{prefix}{secrets.token_hex(6)}"
        try:
            os.mkdir(path, 0o700)
            break
        except FileExistsError:  # taken: another name, as mkdtemp does
            continue
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)  # a stop raised as mkdir returned: it may exist
            raise
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
