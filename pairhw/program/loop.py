"""Fold the traced Miller loop back into a loop: prologue, a body repeated ``trips`` times, epilogue.

The model marks where each iteration starts (``F.mark``).  Iterations differ in their constants with
a small period (the closed-form ηT adds s^(2^j), t^(2^j), which repeat every 4 iterations), so the body
is ``period`` consecutive iterations.  Inside a body, an operand is either a value of the same body
(``("local", i)``), a value of the previous trip (``("prev", i)``: loop-carried), or a value from
before the loop (``("global", name)``: loop-invariant).  The first trip's ``prev`` operands come from
``init`` (the prologue's names), and the epilogue reads the last trip's values through ``final``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .trace import Program, apply_op, run_ops


@dataclass(frozen=True)
class BodyOp:
    kind: str
    srcs: tuple  # of ("local", i) | ("prev", i) | ("global", name)
    k: int = 1
    const: int | None = None


@dataclass
class LoopProgram:
    program: Program
    pre: list
    body: list
    trips: int
    period: int
    init: dict = field(default_factory=dict)   # body index -> global name (first trip's "prev")
    final: dict = field(default_factory=dict)  # global name of the last trip's value -> body index
    post: list = field(default_factory=list)

    def run(self, values: dict) -> list:
        """Interpret pre, the loop and post with the real field (the check that folding is exact)."""
        P = self.program
        env = dict(values)
        run_ops(P.F, self.pre, env)
        prev = {i: env[name] for i, name in self.init.items()}
        for _ in range(self.trips):
            cur: list = []
            for op in self.body:
                args = []
                for kind, ref in op.srcs:
                    args.append(cur[ref] if kind == "local" else prev[ref] if kind == "prev" else env[ref])
                cur.append(apply_op(P.F, op.kind, args, op.k, op.const))
            prev = dict(enumerate(cur))
        for name, i in self.final.items():
            env[name] = prev[i]
        run_ops(P.F, self.post, env)
        return [env[o] if isinstance(o, str) else o for o in P.outputs]

    def counts(self) -> dict:
        body: dict = {}
        for op in self.body:
            body[op.kind] = body.get(op.kind, 0) + 1
        return {"pre": len(self.pre), "body": len(self.body), "trips": self.trips, "period": self.period,
                "post": len(self.post), "body_ops": body}


def _canon(chunk, prev_chunk):
    """Canonical body of ``chunk`` (a list of Ops) relative to the previous chunk."""
    local = {op.dst: i for i, op in enumerate(chunk)}
    prev = {op.dst: i for i, op in enumerate(prev_chunk)}
    out = []
    for op in chunk:
        srcs = []
        for s in op.srcs:
            if s in local:
                srcs.append(("local", local[s]))
            elif s in prev:
                srcs.append(("prev", prev[s]))
            else:
                srcs.append(("global", s))
        out.append(BodyOp(op.kind, tuple(srcs), op.k, op.const))
    return tuple(out)


def fold_loop(program: Program, period: int | None = None) -> LoopProgram:
    """Find the longest run of identical ``period``-iteration chunks and make it the loop.

    Tries periods 1, 2, 4, 8 (or the given one) and keeps the one with the most ops inside the loop.
    A program without marks (a kernel such as one inversion) is all prologue: no body, 0 trips.
    """
    marks = program.marks
    if not marks:
        return LoopProgram(program, list(program.ops), [], 0, 1)
    if len(marks) < 2:
        raise ValueError("the program has a single marked iteration: no loop to fold")
    ops = program.ops
    # iteration i spans ops[marks[i]:marks[i+1]], or up to where its phase ends if that comes first
    # (a batch of pairings traced one after another: the last iteration of one pairing's loop ends
    # before its final exponentiation, not at the next pairing's first mark)
    ends = [_phase_end(program, i, nxt) for i, nxt in zip(marks, marks[1:])] + [_phase_end(program, marks[-1])]
    iters = [(marks[i], ends[i]) for i in range(len(marks))]
    best = None
    for p in ([period] if period else [1, 2, 4, 8]):
        for offset in range(p):
            chunks = [(iters[i][0], iters[i + p - 1][1]) for i in range(offset, len(iters) - p + 1, p)
                      if all(iters[j][1] == iters[j + 1][0] for j in range(i, i + p - 1))]
            if len(chunks) < 3:
                continue

            def chunk(c):
                return ops[chunks[c][0]:chunks[c][1]]

            # chunk 0 reads the prologue's values, not a previous trip's: the loop starts at chunk 1
            if chunks[0][1] != chunks[1][0]:
                continue
            body = _canon(chunk(1), chunk(0))
            trips = 1
            while (trips + 1 < len(chunks) and chunks[trips][1] == chunks[trips + 1][0]
                   and _canon(chunk(trips + 1), chunk(trips)) == body):
                trips += 1
            inside = trips * (chunks[1][1] - chunks[1][0])
            if best is None or inside > best[0]:
                best = (inside, p, chunks, trips, body)
    if best is None:
        raise ValueError("no repeating loop body found")
    _, p, chunks, trips, body = best
    first, last = chunks[1], chunks[trips]
    pre = ops[:first[0]]
    post = ops[last[1]:]
    prev_chunk = ops[chunks[0][0]:chunks[0][1]]
    init = {}
    for op in body:
        for kind, ref in op.srcs:
            if kind == "prev":
                init[ref] = prev_chunk[ref].dst
    last_chunk = ops[last[0]:last[1]]
    used_after = {s for op in post for s in op.srcs} | {o for o in program.outputs if isinstance(o, str)}
    final = {op.dst: i for i, op in enumerate(last_chunk) if op.dst in used_after}
    # values of earlier trips are not visible after the loop: the fold is exact only if the
    # epilogue reads nothing but the last trip
    inner = {op.dst for op in ops[first[0]:last[0]]}
    if used_after & inner:
        raise ValueError("the epilogue reads a value of an earlier loop trip")
    return LoopProgram(program, list(pre), list(body), trips, p, init, final, list(post))


def _phase_end(program: Program, start: int, limit: int | None = None) -> int:
    """End of the marked iteration starting at op ``start``: the first op after it outside the phase
    the marks were made in (an iteration's ops may be in sub-phases of it), or ``limit`` if that
    comes first."""
    ops = program.ops
    ph = program.mark_phase
    i, stop = start, len(ops) if limit is None else limit
    while i < stop and (ops[i].phase == ph or ops[i].phase.startswith(ph + "/")):
        i += 1
    return i
