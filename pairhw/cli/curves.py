"""``pairhw curves | point | pair | vectors | opcount``: the verbs on parameter sets (every family)."""


from __future__ import annotations

import json
import os
import sys

from pairhw.cli import ternary as cli_char3, prime as cli_prime
from pairhw import params, vectors
from pairhw.names import aliases, current
from pairhw.cli.common import MAX_PAIRINGS, MAX_SEED, UsageError, add_count, add_seed, number, table
from pairhw.math import opcount as opc
from pairhw.math.binary import pairing as pairing2
from pairhw.math.prime import pairing as pairing_p
from pairhw.math.binary.curve import PointError
from pairhw.math.field import FieldError


PAIR_ALGORITHMS = ("etat", "etat-adikari12", "tate-alg1", "tate-alg2", "tate-reference")
ALGORITHM_HELP = (
    "etat: pairhw's reduced ηT e(P,Q) = t_r(P,ψ(Q))^(2^m), closed-form loop + Adikari et al. Alg. 2 "
    "(default); etat-adikari12: Adikari et al. Alg. 1 literally (m ≡ 7 mod 8, b = 0 only), equals e; "
    "tate-alg1 / tate-alg2: Shu–Kwon–Gaj Alg. 1 / Alg. 2, equal t_r(P,ψ(Q)) = e^(2^(3m)); "
    "tate-reference: plain Miller loop over r, t_r(P,ψ(Q)) (slow)."
)

ALL_ALGORITHMS = tuple(dict.fromkeys(PAIR_ALGORITHMS + cli_prime.PRIME_ALGORITHMS
                                     + cli_char3.ALGORITHMS + aliases(PAIR_ALGORITHMS)))


def _curve(name: str):
    """(ParamSet, curve) of any family (:func:`pairhw.params.curve`), with the set's security note."""
    try:
        p = params.get(name)
    except params.UnknownParamSet:
        raise UsageError(f"unknown curve {name!r}; known: {', '.join(params.names())}") from None
    if not os.environ.get("PAIRHW_QUIET"):
        print(f"note: {name}: {p.security}" if p.is_prime else f"warning: {name} is not secure: {p.security}",
              file=sys.stderr)
    return p, params.curve(name)


def _binary_algorithm(name):
    """``--algorithm`` on a binary set: the name given (an old one too, :mod:`pairhw.names`), else the default."""
    cli_prime.choose(current(name) if name else None, PAIR_ALGORITHMS, "binary set", UsageError)
    return name or PAIR_ALGORITHMS[0]


def _parse_point(C, text: str, what: str, decode=None, form: str = "in hex"):
    """``X,Y`` (each decoded by ``decode``, default hex) or ``inf``, checked to be in E[r]."""
    decode = decode or C.F.from_hex
    t = text.strip()
    if t.lower() == "inf":
        return None
    parts = t.split(",")
    if len(parts) != 2:
        raise UsageError(f"{what}: expected X,Y {form} or 'inf', got {text!r}")
    try:
        P = (decode(parts[0]), decode(parts[1]))
    except FieldError as e:
        raise UsageError(f"{what}: {e}") from None
    try:
        C.check(P)
    except PointError as e:
        raise UsageError(f"{what}: {e}") from None
    return P


def _gt_hex(C, e):
    return [C.F.to_hex(c) for c in e]


def _emit(args, obj, human: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(obj))
    else:
        print(human)


# ---------------------------------------------------------------------------------------------
# verbs


def curve_rows() -> list[dict]:
    """``pairhw curves --json``'s objects: the prime sets, then the binary and the ternary ones."""
    prime_rows, rows, char3_rows = _curve_groups()
    return prime_rows + rows + char3_rows


def _curve_groups() -> tuple[list, list, list]:
    rows, prime_rows, char3_rows = [], [], []
    for name in params.names():
        p = params.get(name)
        if p.is_prime:
            prime_rows.append(cli_prime.curve_row(name))
            continue
        if p.is_char3:
            char3_rows.append(cli_char3.curve_row(name))
            continue
        rows.append({
            "curve": name, "field": p.field_str(), "equation": p.curve_str(), "m": p.m,
            "order": str(p.order), "r": str(p.r), "r_bits": p.r.bit_length(),
            "cofactor": str(p.cofactor), "embedding_degree": p.data["embedding_degree"],
            "source": p.data["source"], "security": p.security,
        })
    return prime_rows, rows, char3_rows


def cmd_curves(args) -> int:
    prime_rows, rows, char3_rows = _curve_groups()
    if args.json:
        print(json.dumps(prime_rows + rows + char3_rows))
        return 0
    print(table([("curve", "curve"), ("family", "family"), ("p_bits", ">p bits"), ("equation", "equation"),
                 ("r_bits", ">r bits"), ("twist", ">twist"), ("security", "security")], prime_rows))
    print()
    print(table([("curve", "curve"), ("field", "field"), ("equation", "equation"), ("r_bits", ">r bits"),
                 ("cofactor", ">cofactor"), ("source", "source")], rows))
    print()
    print(table([("curve", "curve"), ("field", "field"), ("equation", "equation"), ("r_bits", ">r bits"),
                 ("cofactor", ">cofactor"), ("cite", "source")], char3_rows))
    print("\nsecurity: every binary and ternary set here is broken or a toy (Granger-Kleinjung-"
          "Zumbragel 2014 put F_2^(4*1223) at about 59 bits; discrete logarithms in F_3^(6*97) and "
          "F_3^(6*509) have been computed). Use them to study hardware, not to protect data.")
    return 0


def cmd_point(args) -> int:
    p, C = _curve(args.curve)
    if p.is_prime:
        K = cli_prime.group_point(args, C)
        h = vectors.point_hex(C, K)
        out = {"curve": args.curve, "group": args.group, "seed": args.seed, "scalar": args.scalar,
               "point": h}
        _emit(args, out, "inf" if h is None else ",".join(h))
        return 0
    if args.group != 1:
        raise UsageError("--group 2 is for prime-field sets (G2 on the twist)")
    P = C.point_from_seed(args.seed)
    K = C.mul(args.scalar, P)
    enc = C.point_to_trits if p.is_char3 else C.point_to_hex
    out = {"curve": args.curve, "seed": args.seed, "scalar": args.scalar, "point": enc(K)}
    human = "inf" if K is None else f"{out['point'][0]},{out['point'][1]}"
    _emit(args, out, human)
    return 0


def _not_prime(curve: str) -> UsageError:
    """``--pairs`` on a binary or ternary set: the products are modelled on the prime sets only."""
    primes = ", ".join(n for n in params.names() if params.get(n).is_prime)
    return UsageError(f"--pairs: products of pairings are modelled on the prime sets ({primes}), not on {curve}")


def _pair_products(args, p, C) -> int:
    """``pair CURVE --pairs FILE [--check]``: the product of pairings, or the pairing check."""
    if not p.is_prime:
        raise _not_prime(args.curve)
    if args.p or args.q:
        raise UsageError("--pairs: give the points in the file, not with --p / --q")
    if args.algorithm not in (None, "optimal-ate"):
        raise UsageError(f"--algorithm {args.algorithm}: products of pairings use optimal-ate")
    pairs = cli_prime.read_pairs(C, args.pairs, UsageError)
    why = cli_prime.invalid_pair(C, pairs)
    if args.check:
        ok = why is None and pairing_p.pairing_check(C, pairs)
        out = {"curve": args.curve, "pairs": len(pairs), "check": ok, **({"invalid": why} if why else {})}
        _emit(args, out, f"check: {'true' if ok else 'false'}" + (f" ({why})" if why else ""))
        return 0
    if why:
        raise UsageError(f"--pairs {args.pairs}: {why}")
    e = pairing_p.gt_to_hex(C, pairing_p.multi_pairing(C, pairs))
    out = {"curve": args.curve, "algorithm": "optimal-ate", "pairs": len(pairs), "e": e}
    _emit(args, out, "\n".join(f"c{i} = {h}" for i, h in enumerate(e)))
    return 0


def cmd_pair(args) -> int:
    p, C = _curve(args.curve)
    if args.pairs is not None:
        return _pair_products(args, p, C)
    if args.check:
        raise UsageError("--check: needs --pairs FILE")
    if args.p is None or args.q is None:
        raise UsageError("pair: give --p and --q, or --pairs FILE")
    if p.is_prime:
        name, fn = cli_prime.algorithm(args.algorithm, UsageError)
        P = cli_prime.parse_g1(C, args.p, "--p", UsageError)
        Q = cli_prime.parse_g2(C, args.q, "--q", UsageError)
        e = pairing_p.gt_to_hex(C, fn(C, P, Q))
        out = {"curve": args.curve, "algorithm": name, "e": e}
        _emit(args, out, "\n".join(f"c{i} = {h}" for i, h in enumerate(e)))
        return 0
    if p.is_char3:
        form = f"as two strings of {C.F.m} trits"
        P = _parse_point(C, args.p, "--p", C.F.from_trits, form)
        Q = _parse_point(C, args.q, "--q", C.F.from_trits, form)
        out = cli_char3.pair(args, C, P, Q, UsageError)
        _emit(args, out, "\n".join(f"c{i} = {h}" for i, h in enumerate(out["e"])))
        return 0
    args.algorithm = _binary_algorithm(args.algorithm)
    P = _parse_point(C, args.p, "--p")
    Q = _parse_point(C, args.q, "--q")
    fn = pairing2.ALGORITHMS[current(args.algorithm)]
    try:
        e = fn(C, P, Q)
    except ValueError as ex:  # e.g. etat-adikari12 on a set of another class
        raise UsageError(f"--algorithm {args.algorithm}: {ex}") from None
    out = {"curve": args.curve, "algorithm": args.algorithm, "e": _gt_hex(C, e)}
    _emit(args, out, "\n".join(f"c{i} = {h}" for i, h in enumerate(out["e"])))
    return 0


def cmd_vectors(args) -> int:
    from pairhw.output import stream

    p, _ = _curve(args.curve)  # checked, and its security note said, before anything is written
    if args.pairs is not None and not p.is_prime:
        raise _not_prime(args.curve)
    jobs = args.jobs or vectors.default_jobs()
    with stream(args.output) as out:  # stdout line by line, or a file renamed into place at the end
        for i, rec in enumerate(vectors.records(args.curve, args.seed, args.n, jobs, args.pairs)):
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if args.n >= 10 and (i + 1) % max(1, args.n // 10) == 0:
                print(f"[pairhw] vectors: {i + 1}/{args.n}", file=sys.stderr, flush=True)
    return 0


def cmd_opcount(args) -> int:
    p, C = _curve(args.curve)
    if p.is_prime:
        return cli_prime.opcount(args, C, UsageError)
    if p.is_char3:
        return cli_char3.opcount(args, C, *vectors.points(C, 0, 0), UsageError)
    args.algorithm = _binary_algorithm(args.algorithm)
    P, Q = vectors.points(C, 0, 0)
    try:
        cf = opc.count_pairing(C, pairing2.ALGORITHMS[current(args.algorithm)], P, Q)
    except ValueError as ex:
        raise UsageError(f"--algorithm {args.algorithm}: {ex}") from None
    phases = {k: dict(cf.counts[k]) for k in sorted(cf.counts)}
    totals = {"miller": dict(cf.total("miller")), "final_exp": dict(cf.total("final_exp")),
              "total": dict(cf.total())}
    out = {"curve": args.curve, "algorithm": args.algorithm, "totals": totals, "phases": phases}
    if current(args.algorithm) in ("etat", "etat-adikari12"):
        steps = {}
        for s in range(1, 8):
            c = cf.total(f"final_exp/step{s}")
            steps[f"step{s}"] = {"add": c["add"], "sqr+sqrt": c["sqr"] + c["sqrt"], "mul": c["mul"]}
        out["final_exp_steps"] = steps
        out["seed000_table3"] = opc.ADIKARI12_TABLE3
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.curve}, {args.algorithm}: F_2^m operations")
    print(f"{'phase':12} {'add':>7} {'mul':>6} {'sqr':>6} {'sqrt':>6} {'inv':>4}")
    for k, c in totals.items():
        print(f"{k:12} {c['add']:>7} {c['mul']:>6} {c['sqr']:>6} {c['sqrt']:>6} {c['inv']:>4}")
    if "final_exp_steps" in out:
        print("\nfinal exponentiation by step of Adikari et al. Alg. 2 (ours | Adikari et al. Table 3)")
        print(f"{'step':6} {'add':>11} {'sqr+sqrt':>13} {'mul':>9}")
        for s, c in out["final_exp_steps"].items():
            p = opc.ADIKARI12_TABLE3[s]
            print(f"{s:6} {c['add']:>5} | {p['add']:<4} {c['sqr+sqrt']:>6} | {p['sqr+sqrt']:<5} "
                  f"{c['mul']:>3} | {p['mul']:<3}")
    return 0


# ---------------------------------------------------------------------------------------------


def register(sub) -> None:
    """The verbs on parameter sets: curves, point, pair, vectors, opcount."""

    p = sub.add_parser("curves", help="list the parameter sets")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_curves)

    p = sub.add_parser("point", help="K·P_S for the deterministic point P_S of order r")
    p.add_argument("curve")
    p.add_argument("--group", type=int, choices=(1, 2), default=1,
                   help="prime sets: 1 = G1 over F_p (x,y), 2 = G2 on the twist (x0,x1,y0,y1)")
    p.add_argument("--seed", type=number(0, MAX_SEED), default=1, metavar="S",
                   help="P_S = hash_to_point(b'point' + decimal S) (default 1)")
    p.add_argument("--scalar", type=number(), default=1)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_point)

    p = sub.add_parser("pair", help="pair two points of order r, or (prime sets) the product of the "
                       "pairings of n pairs and the pairing check")
    p.add_argument("curve")
    p.add_argument("--p", metavar="X,Y", help="first point, hex X,Y or inf")
    p.add_argument("--q", metavar="X,Y",
                   help="second point, hex X,Y or inf (prime sets: G2 point x0,x1,y0,y1)")
    p.add_argument("--pairs", metavar="FILE",
                   help="prime sets: a JSON list of {\"p\": [x, y], \"q\": [x0, x1, y0, y1]} (hex strings, or "
                        "'x,y' strings; a line of pairhw vectors --pairs N too): the product of their pairings "
                        "by one shared Miller loop and one final exponentiation")
    p.add_argument("--check", action="store_true",
                   help="with --pairs: whether every point is in G1 / G2 and the product is 1 (true/false; "
                        "EIP-197 / EIP-2537's check, a BLS signature's); an invalid point makes it false")
    p.add_argument("--algorithm", choices=ALL_ALGORITHMS,
                   help=ALGORITHM_HELP + " " + cli_prime.PRIME_ALGORITHM_HELP + "; "
                   + cli_char3.ALGORITHM_HELP)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_pair)

    p = sub.add_parser("vectors", help="JSON-lines test vectors {curve, p, q, e} of the reduced ηT "
                       "(binary and ternary sets) or the optimal ate pairing (prime sets)")
    p.add_argument("curve")
    add_count(p, "pairings", None, MAX_PAIRINGS, required=True)
    add_seed(p)
    p.add_argument("--pairs", type=number(1, 64), metavar="N",
                   help="prime sets: product vectors {curve, pairs, e, check} of N pairs each (1-64); the "
                        "even-numbered ones satisfy the pairing check (their last pair balances the product), "
                        "the odd-numbered are independent pairs")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="file to write (whole or not at all); - or absent: standard output, line by line")
    p.add_argument("-j", "--jobs", type=number(1, 256), metavar="N",
                   help="worker processes making the vectors (default: the CPUs); the output is the same")
    p.set_defaults(func=cmd_vectors)

    p = sub.add_parser("opcount", help="base-field operations per phase of one pairing")
    p.add_argument("curve")
    p.add_argument("--algorithm", choices=ALL_ALGORITHMS,
                   help=ALGORITHM_HELP + " " + cli_prime.PRIME_ALGORITHM_HELP + "; "
                   + cli_char3.ALGORITHM_HELP)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_opcount)
