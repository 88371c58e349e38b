"""What every field model shares: the error for a bad element, hex parsing, and the null phase
(the op-counting hook, :mod:`pairhw.math.opcount`, that plain fields ignore)."""

from __future__ import annotations


class _NullPhase:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NULL_PHASE = _NullPhase()


def stepped(step, name: str, fn):
    """``fn`` with each call a step ``name`` of the algorithm (``step``: a field's ``step``, which a
    tracer cuts its program at, :attr:`pairhw.program.trace.Program.cuts`)."""
    def run(*args):
        with step(name):
            return fn(*args)

    return run


class FieldError(ValueError):
    """A value is not a valid element of the field (bad hex, too many bits, ...)."""


def parse_hex(text: str) -> int:
    """A non-negative hex number, optional 0x, surrounding blanks ignored (FieldError if not)."""
    t = text.strip().lower()
    if t.startswith("0x"):
        t = t[2:]
    if not t or any(c not in "0123456789abcdef" for c in t):
        raise FieldError(f"not a hex number: {text!r}")
    return int(t, 16)
