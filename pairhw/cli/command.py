"""The ``pairhw`` command.

Exit codes: 0 success, 2 bad input (one line on stderr saying what is wrong), 1 a failure that is not
the input's: a synthesis tool that failed (one line saying so), or a bug.
Field elements of F_2^m are hex of sum a_i 2^i, most significant digit first, ⌈m/4⌉ digits;
F_{2^4m} values are four such coefficients c0 c1 c2 c3 of c0 + c1·s + c2·t + c3·s·t
(s² = s + 1, t² = t + s).  Points are ``X,Y`` in hex, or ``inf``.

Prime sets (bn254, bn-chavez11, bls12-381): F_p elements are big-endian hex of the canonical
integer in [0, p); G1 points ``x,y``; G2 points ``x0,x1,y0,y1`` (x = x0 + x1·u, u² = −1);
pairing values are the 12 F_p coefficients of the basis 1, u, v, uv, v², uv², w, uw, vw, uvw,
v²w, uv²w of F_p²[v]/(v³ − ξ)[w]/(w² − v).

Ternary sets (f3-19, f3-97, f3-509): F_3^m elements are strings of m trits 0/1/2, coefficient of
x^(m−1) first; points ``X,Y``; pairing values the six F_3^m coefficients of the basis 1, σ, ρ, σρ,
ρ², σρ² of F_3^m[ρ]/(ρ³ − ρ − b)[σ]/(σ² + 1).  (Hardware encoding of a trit: 0 = 00, 1 = 01, 2 = 10.)
"""

from __future__ import annotations

import argparse
import os
import sys

from pairhw.cli import curves, design, explore, prime, unit
from pairhw.cache import CacheError, cache_dir
from pairhw.cli.common import UsageError, _Parser, _RawDescriptionFormatter, once
from pairhw.designs import DesignError
from pairhw.errors import SynthError, missing_extra


def build_parser() -> argparse.ArgumentParser:
    from importlib.metadata import version

    ap = _Parser(prog="pairhw", description=__doc__, formatter_class=_RawDescriptionFormatter)
    ap.add_argument("--version", action="version", version=f"pairhw {version('pairhw')}")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no security notes on stderr (also: PAIRHW_QUIET=1); progress lines stay")
    sub = ap.add_subparsers(dest="verb", required=True, parser_class=_Parser, metavar="VERB")
    curves.register(sub)
    prime.register(sub, _Parser, UsageError)
    unit.register(sub, UsageError)
    design.register(sub, UsageError)
    explore.register(sub, UsageError)
    explore.register_report(sub, UsageError)
    once(ap)  # one grammar: no option twice, -q before or after the verb
    return ap


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    if not argv:  # bare `pairhw`: the usage and the verbs, as a bad invocation
        parser.print_help(sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
        if os.environ.get("PAIRHW_CACHE"):  # every verb checks it alike, whether it uses the cache or not
            cache_dir()
        if not args.quiet:
            return args.func(args)
        before = os.environ.get("PAIRHW_QUIET")
        os.environ["PAIRHW_QUIET"] = "1"  # for this run only (main may be called again in one process)
        try:
            return args.func(args)
        finally:
            if before is None:
                del os.environ["PAIRHW_QUIET"]
            else:
                os.environ["PAIRHW_QUIET"] = before
    except UsageError as e:
        print(f"pairhw: error: {e}", file=sys.stderr)
        return 2
    except CacheError as e:
        print(f"pairhw: error: {e}", file=sys.stderr)
        return 2
    except DesignError as e:  # a design the engine cannot build (found while compiling it)
        print(f"pairhw: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # standard output closed by its reader (`| head`): the caller decides
        raise
    except OSError as e:  # a file or directory the user named (or the environment) cannot be used
        where = f"{e.filename}: " if e.filename else ""
        print(f"pairhw: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except SynthError as e:  # a tool failed (or stopped) on a valid design: not the input's fault
        print(f"pairhw: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # pragma: no cover - a bug, not bad input
        if isinstance(e, ImportError) or type(e).__name__ == "PackageNotFoundError":
            need = missing_extra(e)
            if need:  # an optional dependency not installed: say which extra brings it
                print(f"pairhw: error: {need}", file=sys.stderr)
                return 2
        print(f"pairhw: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
