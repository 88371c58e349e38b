"""What every verb module of the CLI shares: the error type that means "bad input" and the parser."""

from __future__ import annotations

import argparse


from pairhw.errors import UsageError  # noqa: F401 - the CLI's name for it


class _Formatter(argparse.HelpFormatter):
    """argparse's help, the same on every Python the package allows: an option with a value is
    listed as ``-o FILE, --output FILE`` (3.13 lists ``-o, --output FILE``), so ``--help`` matches
    the generated command reference (docs/reference/cli.md) whichever Python made it."""

    def _format_action_invocation(self, action):
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        args = self._format_args(action, self._get_default_metavar_for_optional(action))
        return ", ".join(f"{o} {args}" for o in action.option_strings)


class _RawDescriptionFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    """:class:`_Formatter` keeping the description's own line breaks (the top-level help)."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):  # one line, exit 2 (argparse prints usage + message by default)
        raise UsageError(message.replace("required: unit_verb", "required: sim, build or synth after unit"))


#: the namespace attribute holding the options given on the command line (``given``)
_GIVEN = "_pairhw_given"


def given(args, dest: str) -> bool:
    """Whether option ``dest`` was on the command line (not its default)."""
    return dest in getattr(args, _GIVEN, ())


def once(parser: argparse.ArgumentParser) -> None:
    """Make every single-valued option of ``parser`` and its sub-parsers refuse a second occurrence
    (argparse lets the last win) and record what was given (:func:`given`); give every verb ``-q``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                once(sub)
        elif action.option_strings and not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            action.__class__ = _once_class(type(action))
    if parser.prog != "pairhw" and not any("-q" in a.option_strings for a in parser._actions) \
            and not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
        q = parser.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                                help="no security notes on stderr (as pairhw -q VERB)")
        q.__class__ = _once_class(type(q))


_ONCE = {}


def _once_class(cls):
    if cls not in _ONCE:
        def __call__(self, parser, namespace, values, option_string=None):
            seen = getattr(namespace, _GIVEN, None)
            if seen is None:
                seen = set()
                setattr(namespace, _GIVEN, seen)
            if self.dest in seen and self.dest != "quiet":
                raise UsageError(f"{'/'.join(self.option_strings)} given twice; give it once")
            seen.add(self.dest)
            cls.__call__(self, parser, namespace, values, option_string)
        _ONCE[cls] = type(f"Once{cls.__name__}", (cls,), {"__call__": __call__})
    return _ONCE[cls]


def number(lo: int | None = None, hi: int | None = None):
    """An argparse type: a whole number, decimal or 0x-hex, between ``lo`` and ``hi`` (inclusive)."""
    def parse(text: str) -> int:
        t = text.strip().replace("_", "")
        body = t.lstrip("+-")
        try:
            n = int(body, 16 if body[:2].lower() == "0x" else 10) * (-1 if t.startswith("-") else 1)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number (decimal or 0x-hex), got {text!r}") from None
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            span = (f"between {lo:,} and {hi:,}" if lo is not None and hi is not None
                    else f"at least {lo:,}" if lo is not None else f"at most {hi:,}")
            raise argparse.ArgumentTypeError(f"must be {span}, not {n:,}")
        return n
    return parse


#: the largest ``-n``: products of a unit, pairings of a design or of ``vectors`` (one grammar)
MAX_PRODUCTS = 100_000
MAX_PAIRINGS = 10_000
#: the largest seed (a 64-bit word)
MAX_SEED = (1 << 64) - 1


def add_count(p, what: str, default: int | None, maximum: int, required: bool = False) -> None:
    """``-n N``: how many ``what`` (1 ≤ N ≤ ``maximum``); the same flag in every verb."""
    tail = f" (default {default}" if default is not None else " ("
    p.add_argument("-n", type=number(1, maximum), default=default, required=required, metavar="N",
                   help=f"number of {what}{tail}{', ' if default is not None else ''}at most {maximum:,})")


def add_seed(p) -> None:
    """``--seed S``: the seed of every random or derived input (default 1); the same in every verb."""
    p.add_argument("--seed", type=number(0, MAX_SEED), default=1, metavar="S",
                   help="seed of the random inputs (default 1)")


def add_output_dir(p) -> None:
    """``-o DIR`` and ``--force`` of the verbs that write a build directory."""
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="directory to write (created; in a previous build of the same thing only the files its "
                        "manifest lists are replaced or removed, every other file stays)")
    p.add_argument("--force", action="store_true",
                   help="write into DIR even if it is not a build of the same thing, or replace pairhw's files "
                        "edited since; a file pairhw did not write is never replaced")


def add_json(p) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def table(columns: list[tuple[str, str]], rows: list[dict]) -> str:
    """A text table whose columns are as wide as their widest cell: ``columns`` are (key, heading)
    pairs, a heading starting with ``>`` right-aligns its column; the last column is not padded."""
    heads = [(k, h.lstrip(">"), h.startswith(">")) for k, h in columns]
    width = {k: max([len(h), *(len(str(r[k])) for r in rows)]) for k, h, _ in heads}
    lines = []
    for cells in [{k: h for k, h, _ in heads}, *rows]:
        out = [f"{str(cells[k]):>{width[k]}}" if right else f"{str(cells[k]):{width[k]}}" for k, _, right in heads]
        out[-1] = out[-1].rstrip() if not heads[-1][2] else out[-1]
        lines.append("  ".join(out).rstrip())
    return "\n".join(lines)
