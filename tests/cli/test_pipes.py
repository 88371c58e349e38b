"""A closed standard output (``pairhw … | head``) ends the command quietly with exit 0, as Unix tools
do (issue 48): each listing verb is run into a pipe whose reader has already gone."""

import os
import subprocess
import sys

import pytest

D = "f2-47-etat-banked"
LISTINGS = [
    ["curves"], ["curves", "--json"], ["point", "f2-79"], ["vectors", "f2-79", "-n", "30"],
    ["opcount", "f2-79"], ["designs", "--schema"], ["designs", D], ["schedule", D],
    ["schedule", D, "--listing", "microcode"], ["schedule", D, "--listing", "program"],
    ["fp", "mul", "bn254", "3", "5", "--trace"],
]


def into_closed_pipe(argv) -> subprocess.CompletedProcess:
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first line is written
    try:
        return subprocess.run([sys.executable, "-m", "pairhw", "-q", *argv], stdout=w, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    finally:
        os.close(w)


@pytest.mark.parametrize("argv", LISTINGS, ids=" ".join)
def test_a_closed_pipe_ends_quietly(argv):
    res = into_closed_pipe(argv)
    lines = [ln for ln in res.stderr.splitlines() if not ln.startswith("[pairhw]")]  # progress may come
    assert (res.returncode, lines) == (0, []), res.stderr
