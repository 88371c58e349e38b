"""Test vectors: the documented, reproducible inputs and outputs of ``pairhw vectors``, ``sim -n`` and
``build``.

Vector ``i`` of seed ``S`` on a parameter set is the pair P = hash_to_point(b"vectors/S/i/p"),
Q = hash_to_point(b"vectors/S/i/q") (on a prime set P on G1 and Q on G2), and its pairing by the
family's reference algorithm; a product vector (prime sets, :func:`product_record`) has n pairs, their
product of pairings and the pairing check.  Each vector depends only on its own index, so any number of worker
processes makes the same file.  This module is part of the model: it imports the model and the
parameter sets only.
"""

from __future__ import annotations

import os

from pairhw import params


def points(C, seed: int, i: int):
    """The i-th pair (P, Q) of ``pairhw vectors --seed S`` on the curve ``C`` (any family)."""
    if hasattr(C, "E1"):  # a prime set: P on G1, Q on G2
        return (C.E1.hash_to_point(f"vectors/{seed}/{i}/p".encode()),
                C.E2.hash_to_point(f"vectors/{seed}/{i}/q".encode()))
    return (C.hash_to_point(f"vectors/{seed}/{i}/p".encode()),
            C.hash_to_point(f"vectors/{seed}/{i}/q".encode()))


def point_hex(C, P) -> list[str] | None:
    """A prime set's point as hex coordinates: [x, y] on G1, [x0, x1, y0, y1] on G2; None for O."""
    if P is None:
        return None
    h = C.F.to_hex
    if isinstance(P[0], tuple):
        return [h(P[0][0]), h(P[0][1]), h(P[1][0]), h(P[1][1])]
    return [h(P[0]), h(P[1])]


def record(curve: str, seed: int, i: int) -> dict:
    """Vector ``i`` of ``seed`` on the parameter set ``curve``: its points and their pairing, as one
    line of ``pairhw vectors`` (F_2^m and F_p values in hex, F_3^m values as trit strings)."""
    p, C = params.get(curve), params.curve(curve)
    P, Q = points(C, seed, i)
    if p.is_prime:
        from pairhw.math.prime import pairing as pairing_p

        return {"curve": curve, "p": point_hex(C, P), "q": point_hex(C, Q),
                "e": pairing_p.gt_to_hex(C, pairing_p.optimal_ate(C, P, Q))}
    if p.is_char3:
        from pairhw.math.ternary import pairing as pairing3

        return {"curve": curve, "p": C.point_to_trits(P), "q": C.point_to_trits(Q),
                "e": [C.F.to_trits(c) for c in pairing3.etat(C, P, Q)]}
    from pairhw.math.binary import pairing as pairing2

    return {"curve": curve, "p": C.point_to_hex(P), "q": C.point_to_hex(Q),
            "e": [C.F.to_hex(c) for c in pairing2.etat(C, P, Q)]}


def product_points(C, seed: int, i: int, n: int) -> list:
    """The n pairs of product vector ``i`` of ``seed`` on a prime set: P_j = hash_to_point(
    b"vectors/S/i/p/j") on G1, Q_j likewise on G2.  An even ``i`` (n ≥ 2) satisfies the pairing
    check: Q_j = [k_j]Q_(n−1) for j < n − 1 (k_j = SHA-256(b"vectors/S/i/k/j") mod r) and
    P_(n−1) = −Σ [k_j]P_j, so Π e(P_j, Q_j) = 1; an odd ``i`` is n independent pairs."""
    import hashlib

    E1, E2 = C.E1, C.E2
    P = [E1.hash_to_point(f"vectors/{seed}/{i}/p/{j}".encode()) for j in range(n)]
    Q = [E2.hash_to_point(f"vectors/{seed}/{i}/q/{j}".encode()) for j in range(n)]
    if i % 2 == 0 and n >= 2:
        k = [int.from_bytes(hashlib.sha256(f"vectors/{seed}/{i}/k/{j}".encode()).digest(), "big") % C.r
             for j in range(n - 1)]
        Q[:n - 1] = [E2.mul(kj, Q[n - 1]) for kj in k]
        acc = None
        for kj, Pj in zip(k, P):
            acc = E1.add(acc, E1.mul(kj, Pj))
        P[n - 1] = E1.neg(acc)
    return list(zip(P, Q))


def product_record(curve: str, seed: int, i: int, n: int) -> dict:
    """Product vector ``i`` of ``seed`` with ``n`` pairs on a prime set (:func:`product_points`): its
    pairs, the product Π e(P_j, Q_j) by one shared Miller loop and final exponentiation, and the
    pairing check (whether the product is 1), one line of ``pairhw vectors --pairs N``."""
    from pairhw.math.prime import pairing as pairing_p

    C = params.curve(curve)
    pairs = product_points(C, seed, i, n)
    e = pairing_p.multi_pairing(C, pairs)
    return {"curve": curve, "pairs": [{"p": point_hex(C, P), "q": point_hex(C, Q)} for P, Q in pairs],
            "e": pairing_p.gt_to_hex(C, e), "check": C.T.eq12(e, C.T.ONE)}


def _worker_start() -> None:
    """A vectors worker leaves Ctrl-C to the parent, which stops the pool."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def records(curve: str, seed: int, n: int, jobs: int = 1, pairs: int | None = None):
    """Vectors 0 … n−1 of ``seed`` on ``curve`` (:func:`record`, or with ``pairs`` the product
    vectors of :func:`product_record`), in order, made by ``jobs`` worker processes (the output is the
    same for any ``jobs``)."""
    import functools

    make = record if pairs is None else functools.partial(_product_record_at, pairs)
    if jobs <= 1 or n <= 1:
        for i in range(n):
            yield make(curve, seed, i)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    pool = ProcessPoolExecutor(min(jobs, n), mp_context=ctx, initializer=_worker_start)
    try:
        futures = [pool.submit(make, curve, seed, i) for i in range(n)]
        for f in futures:
            yield f.result()
    finally:  # stopped or done: nothing left running
        pool.shutdown(wait=True, cancel_futures=True)


def _product_record_at(pairs: int, curve: str, seed: int, i: int) -> dict:
    return product_record(curve, seed, i, pairs)


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1
