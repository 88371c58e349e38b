"""What every verb module of the CLI shares: the error type that means "bad input" and the parser."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Bad input: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message by default)
        raise UsageError(message)


#: the largest ``-n``: products of a unit, pairings of a design or of ``vectors`` (one grammar)
MAX_PRODUCTS = 100_000
MAX_PAIRINGS = 10_000


def _count(maximum: int):
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not 1 <= n <= maximum:
            raise argparse.ArgumentTypeError(f"must be between 1 and {maximum:,}, not {n}")
        return n
    return parse


def add_count(p, what: str, default: int | None, maximum: int, required: bool = False) -> None:
    """``-n N``: how many ``what`` (1 ≤ N ≤ ``maximum``); the same flag in every verb."""
    tail = f" (default {default}" if default is not None else " ("
    p.add_argument("-n", type=_count(maximum), default=default, required=required, metavar="N",
                   help=f"number of {what}{tail}{', ' if default is not None else ''}at most {maximum:,})")


def add_seed(p) -> None:
    """``--seed S``: the seed of every random or derived input (default 1); the same in every verb."""
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the random inputs (default 1)")


def add_output_dir(p) -> None:
    """``-o DIR`` and ``--force`` of the verbs that write a build directory."""
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="directory to write (created; replaced if it holds a build of the same thing)")
    p.add_argument("--force", action="store_true",
                   help="write into DIR even if it holds other files (files of the same name are replaced)")


def add_json(p) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
