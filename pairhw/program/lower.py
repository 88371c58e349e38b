"""Lower a folded program to the ops a datapath executes: a :class:`Flow`.

``addc x, c`` becomes ``const c`` + ``add``, ``mulc x, c`` becomes ``const c`` + ``mul`` (one
``const`` per distinct constant and block), integer outputs become ``const`` ops, and ops whose
values nobody reads are dropped.  Every source is a ``(name, distance)`` pair: distance 1 inside the
loop body reads the previous trip's value (``init`` gives the value before the first trip), and
body values are named ``@i``.
"""

from __future__ import annotations

from typing import Any
from dataclasses import dataclass, field

from .loop import LoopProgram
from .trace import apply_op, const_text, op_body


@dataclass(frozen=True)
class LOp:
    dst: str
    kind: str
    srcs: tuple  # of (name, distance)
    k: int = 1
    const: int | None = None

    def text(self, fi=None) -> str:
        def ref(s):
            return s[0] + ("'" if s[1] else "")

        if self.kind == "const":
            return f"{self.dst} = const {const_text(fi, self.const)}"
        return f"{self.dst} = {op_body(self.kind, [ref(s) for s in self.srcs], self.k)}"


@dataclass
class Flow:
    """Straight-line ``pre``, a ``body`` run ``trips`` times, straight-line ``post``."""

    F: Any  # the field interface (pairhw.program.field.BaseField)
    inputs: list
    pre: list
    body: list
    trips: int
    init: dict  # body name -> name of its value before the first trip
    final: dict  # name read after the loop -> body name (the last trip's value)
    post: list
    outputs: list = field(default_factory=list)
    period: int = 1  # marked iterations (Miller-loop iterations) per trip of the body

    def carried(self) -> frozenset:
        """The loop-carried values with their initial values: each group shares one register, which
        different units may write, so a ``writes_each`` unit puts them in its shared bank."""
        return frozenset(self.init) | frozenset(self.init.values()) | frozenset(self.final.values())

    def run(self, values: dict) -> list:
        """Interpret the flow with the real field (the check that lowering is exact)."""
        env = dict(values)
        _run_block(self.F, self.pre, env, {})
        prev = {b: env[x] for b, x in self.init.items()}
        for _ in range(self.trips):
            cur: dict = {}
            _run_block(self.F, self.body, cur, {**env, **{("prev", k): v for k, v in prev.items()}})
            prev = cur
        for name, b in self.final.items():
            env[name] = prev[b]
        _run_block(self.F, self.post, env, {})
        return [env[o] for o in self.outputs]

    def blocks(self):
        return (("pre", self.pre), ("body", self.body), ("post", self.post))

    def counts(self) -> dict:
        out: dict = {}
        for blk, ops in self.blocks():
            c: dict = {}
            for op in ops:
                c[op.kind] = c.get(op.kind, 0) + 1
            out[blk] = c
        out["trips"] = self.trips
        return out

    def products(self) -> int:
        n = lambda ops: sum(op.kind == "mul" for op in ops)  # noqa: E731
        return n(self.pre) + self.trips * n(self.body) + n(self.post)

    def listing(self) -> str:
        lines = [f"; inputs: {', '.join(self.inputs)}", "; -- pre"]
        lines += ["    " + op.text(self.F) for op in self.pre]
        lines.append(f"; -- loop × {self.trips}   (x' = the previous trip's x; before the first trip: "
                     + ", ".join(f"{b}' = {x}" for b, x in self.init.items()) + ")")
        lines += ["    " + op.text(self.F) for op in self.body]
        lines.append("; -- post   (" + ", ".join(f"{x} = {b}" for x, b in self.final.items()) + ")")
        lines += ["    " + op.text(self.F) for op in self.post]
        lines.append(f"; outputs: {', '.join(self.outputs)}")
        return "\n".join(lines)


def _run_block(F, ops, env, outer):
    for op in ops:
        args = []
        for name, dist in op.srcs:
            if dist:
                args.append(outer[("prev", name)])
            else:
                args.append(env[name] if name in env else outer[name])
        env[op.dst] = apply_op(F, op.kind, args, op.k, op.const)


class _Lowerer:
    def __init__(self, F):
        self.F = F
        self.n = 0

    def block(self, ops, name_of, src_of, prefix):
        out, consts = [], {}

        def const(c):
            if c not in consts:
                consts[c] = f"{prefix}c{self.n}"
                self.n += 1
                out.append(LOp(consts[c], "const", (), const=c))
            return (consts[c], 0)

        for i, op in enumerate(ops):
            srcs = tuple(src_of(s) for s in op.srcs)
            if op.kind in ("addc", "mulc"):
                out.append(LOp(name_of(i, op), op.kind[:3], (srcs[0], const(op.const))))
            elif op.kind == "const":
                out.append(LOp(name_of(i, op), "const", (), const=op.const))
            else:
                out.append(LOp(name_of(i, op), op.kind, srcs, op.k))
        return out, const


def lower(lp: LoopProgram) -> Flow:
    """The :class:`Flow` of a folded program (``lp.run`` and ``Flow.run`` agree on every input)."""
    P = lp.program
    L = _Lowerer(P.F)
    pre, _ = L.block(lp.pre, lambda i, op: op.dst, lambda s: (s, 0), "k")
    body_src = {"local": lambda j: (f"@{j}", 0), "prev": lambda j: (f"@{j}", 1), "global": lambda x: (x, 0)}
    body, _ = L.block(lp.body, lambda i, op: f"@{i}", lambda s: body_src[s[0]](s[1]), "@")
    post, const = L.block(lp.post, lambda i, op: op.dst, lambda s: (s, 0), "k")
    outputs = [o if isinstance(o, str) else const(o)[0] for o in P.outputs]
    flow = Flow(P.F, list(P.inputs), pre, body, lp.trips, {f"@{i}": x for i, x in lp.init.items()},
                {x: f"@{i}" for x, i in lp.final.items()}, post, outputs, lp.period if lp.body else 1)
    return eliminate_dead(flow)


def eliminate_dead(flow: Flow) -> Flow:
    """Drop ops whose values are never read (the outputs, the loop and the epilogue are the roots)."""
    need = set(flow.outputs)

    def sweep(ops, need):
        keep = []
        for op in reversed(ops):
            if op.dst in need:
                keep.append(op)
                need.update(s for s, _ in op.srcs)
        return keep[::-1]

    post = sweep(flow.post, need)
    body_need = {flow.final[x] for x in need if x in flow.final}
    while True:
        before = set(body_need)
        body = sweep(flow.body, body_need)
        if body_need == before:
            break
    need |= {s for s in body_need if not s.startswith("@")}
    need |= {flow.init[b] for b in body_need if b in flow.init}
    pre = sweep(flow.pre, need)
    init = {b: x for b, x in flow.init.items() if b in body_need}
    final = {x: b for x, b in flow.final.items() if x in need}
    return Flow(flow.F, flow.inputs, pre, body, flow.trips, init, final, post, flow.outputs, flow.period)
