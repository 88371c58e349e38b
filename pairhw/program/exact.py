"""An exact modulo schedule of a loop body: a constraint model solved by CP-SAT (OR-Tools).

The greedy placement (:func:`~pairhw.program.schedule.modulo_schedule`, Rau's iterative modulo
scheduling) stops short of the bound where a unit is busy nearly every cycle of the interval: the
F_3^97 Miller loop, 17 products on a multiplier of II 1, is placed at II 18; the F_2^239 loop, 56
products on two multipliers of II 4 (112 cycles), at 130.  With ``"modulo_exact": n`` the scheduler
then asks a solver for every smaller interval it tries, as CIRCT's scheduling library does with its
LP and CP-SAT schedulers: the same problem, stated as constraints, searched for up to n
deterministic seconds (CP-SAT's measure of work, the same on every machine, so the outcome is too).

The model at an interval ``ii`` (each op i on its unit, as the greedy placement assigns them):

* an issue cycle ``t_i = q_i·ii + r_i`` (``0 ≤ r_i < ii``), and ``t_j ≥ t_i + delay − distance·ii``
  for each dependence edge ``(i, j, delay, distance)`` (the true ones and the register
  anti-dependences that keep each value in one register across trips, :func:`body_edges`);
* each unit instance holds its start for the unit's II cycles, modulo ``ii``: an op's interval
  ``[r_i, r_i + II_u)`` and its copy ``[r_i + ii, r_i + ii + II_u)`` on the instance it is given,
  no two overlapping (the copy catches the window that wraps past ``ii``);
* a bank's limited write ports take at most that many results in a cycle modulo ``ii`` (the result's
  cycle, issue + latency); a shared read port serves one op a cycle modulo ``ii``;
* the last result, ``t_i + latency``, is minimised (fewer stages: fewer cycles of the loop's ramp),
  under a cap that keeps the loop's cycles below the best schedule found so far.

Units with lanes (several products starting together on one operand) are not modelled.
"""

from __future__ import annotations

import time

from pairhw.progress import log, plural


def available() -> bool:
    """Whether OR-Tools' CP-SAT is installed (``pip install 'pairhw[exact]'``)."""
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def place(units, edges, wport, rport, ii: int, last_max: int, budget: float, hint=None):
    """Issue cycles and instances of a loop body's ops at ``ii`` with every result by ``last_max``
    (issue + latency ≤ last_max), the last result as early as the solver finds in ``budget``
    deterministic seconds: ``(status, (start, inst) or None)``, the status ``placed``, ``infeasible``
    (no schedule exists under the cap) or ``not found`` (none found in the budget).

    ``units[i]``, ``wport[i]`` ((bank, ports) or None) and ``rport[i]`` (shared read ports) are op i's,
    ``edges`` the body's dependences ``(src, dst, delay, distance)``; ``hint``, a schedule at another
    interval whose issue cycles, scaled to ``ii``, the search starts from."""
    from ortools.sat.python import cp_model

    n = len(units)
    if any(s == d and delay > dist * ii for s, d, delay, dist in edges):
        return "infeasible", None  # an op's recurrence on itself is longer than ii
    if any(units[i].latency > last_max for i in range(n)):
        return "infeasible", None
    m = cp_model.CpModel()
    t = [m.new_int_var(0, last_max - units[i].latency, f"t{i}") for i in range(n)]
    r = [m.new_int_var(0, ii - 1, f"r{i}") for i in range(n)]
    for i in range(n):
        q = m.new_int_var(0, last_max // ii, f"q{i}")
        m.add(t[i] == q * ii + r[i])
    for s, d, delay, dist in edges:
        if s != d:
            m.add(t[d] >= t[s] + delay - dist * ii)
    by_unit: dict = {}
    for i, u in enumerate(units):
        by_unit.setdefault(u.name, []).append(i)
    choice: dict = {}  # (op, instance) -> its literal, on units of several instances
    for ops in by_unit.values():
        u = units[ops[0]]
        if len(ops) * u.ii > u.count * ii:
            return "infeasible", None  # more cycles than the unit's instances have in ii
        wrapped = {}
        for i in ops:
            wrapped[i] = m.new_int_var(ii, 2 * ii - 1, f"w{i}")
            m.add(wrapped[i] == r[i] + ii)
        for k in range(u.count):
            ivs = []
            for i in ops:
                if u.count == 1:
                    ivs += [m.new_fixed_size_interval_var(r[i], u.ii, f"a{i}"),
                            m.new_fixed_size_interval_var(wrapped[i], u.ii, f"b{i}")]
                else:
                    lit = choice[(i, k)] = m.new_bool_var(f"x{i}_{k}")
                    ivs += [m.new_optional_fixed_size_interval_var(r[i], u.ii, lit, f"a{i}_{k}"),
                            m.new_optional_fixed_size_interval_var(wrapped[i], u.ii, lit, f"b{i}_{k}")]
            m.add_no_overlap(ivs)
        if u.count > 1:
            for i in ops:
                m.add_exactly_one(choice[(i, k)] for k in range(u.count))
            m.add(choice[(ops[0], 0)] == 1)  # the instances are alike: the first op on instance 0
    writers: dict = {}
    for i, wp in enumerate(wport):
        if wp:
            writers.setdefault(wp, []).append(i)
    for (_, ports), ops in writers.items():
        if len(ops) > ports * ii:
            return "infeasible", None
        cycles = []
        for i in ops:
            w = m.new_int_var(0, ii - 1, f"wr{i}")
            m.add_modulo_equality(w, t[i] + units[i].latency, ii)
            cycles.append(w)
        m.add_cumulative([m.new_fixed_size_interval_var(w, 1, f"wi{i}") for w, i in zip(cycles, ops)],
                         [1] * len(ops), ports)
    readers: dict = {}
    for i, rp in enumerate(rport):
        for p in set(rp):
            readers.setdefault(p, []).append(i)
    for ops in readers.values():
        if len(ops) > ii:
            return "infeasible", None
        m.add_all_different(r[i] for i in ops)
    last = m.new_int_var(0, last_max, "last")
    for i in range(n):
        m.add(last >= t[i] + units[i].latency)
    m.minimize(last)
    if hint is not None:
        for i in range(n):
            m.add_hint(t[i], min(hint.start[i] * ii // hint.ii, last_max - units[i].latency))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one thread, a fixed seed and a work budget: the same result every run
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = budget
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ("infeasible" if status == cp_model.INFEASIBLE else "not found"), None
    start = [solver.value(v) for v in t]
    inst = [0 if units[i].count == 1 else next(k for k in range(units[i].count) if solver.value(choice[(i, k)]))
            for i in range(n)]
    return "placed", (start, inst)


def search(units, edges, wport, rport, lower: int, best, trips: int | None, budget: float, make):
    """The loop schedule of fewest cycles the solver finds below ``best`` (the greedy placement's,
    returned when nothing beats it): the least interval from ``lower`` that it places (a bisection:
    a smaller interval is tried only where the one above was placed), then, for each smaller number
    of stages, the least interval above that places the body in so few stages and still saves cycles.
    ``make(start, inst, ii)`` builds a :class:`~pairhw.program.schedule.LoopSchedule`."""
    ramp = trips - 1 if trips is not None else 0

    def cost(s):
        return ((ramp + s.stages) * s.ii, s.ii, s.stages) if trips is not None else (s.ii, s.stages)

    def least(lo, hi, stages_max):
        """The least interval in lo..hi the solver places in at most ``stages_max`` stages (bisection)."""
        found = None
        while lo <= hi:
            ii = (lo + hi) // 2
            cap = stages_max
            if trips is not None:  # fewer cycles than the best: (trips − 1 + stages)·ii below its cost
                cap = min(cap, -(-cost(best)[0] // ii) - 1 - ramp)
            t0 = time.monotonic()
            status, got = (place(units, edges, wport, rport, ii, cap * ii - 1, budget, found or best) if cap >= 1
                           else ("infeasible", None))
            sch = make(*got, ii) if got else None
            log(f"modulo_exact: II {ii}" + (f" in at most {plural(cap, 'stage')}" if trips is not None else "") + ": "
                + (f"placed in {plural(sch.stages, 'stage')}" if sch else status)
                + f" ({time.monotonic() - t0:.0f} s)")
            if sch:
                found, hi = sch, ii - 1
            else:
                lo = ii + 1
        return found

    found = least(lower, best.ii - 1, best.stages + 4 if trips is None else 1 << 30)
    if found and cost(found) < cost(best):
        best = found
    if trips is not None:
        for stages in range(best.stages - 1, 0, -1):
            hi = (cost(best)[0] - 1) // (ramp + stages)
            found = least(best.ii + 1, hi, stages)
            if found and cost(found) < cost(best):
                best = found
    return best
