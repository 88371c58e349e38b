"""Reading input files a user names: never more than a bound, whatever the path is (a device such as
/dev/urandom, a file of gigabytes)."""

from __future__ import annotations


class TooLarge(ValueError):
    """The file holds more than the bound (the message says which bound)."""


def read_at_most(path, most: int) -> bytes:
    """The bytes of ``path``, or :class:`TooLarge` when it holds more than ``most`` (only ``most + 1``
    bytes are read to tell).  ``OSError`` as ``open`` raises it."""
    with open(path, "rb") as fh:
        raw = fh.read(most + 1)
    if len(raw) > most:
        raise TooLarge(f"larger than {most >> 20} MB")
    return raw
