"""What every verb module of the CLI shares: the error type that means "bad input" and the parser."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Bad input: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message by default)
        raise UsageError(message)
