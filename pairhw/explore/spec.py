"""A sweep as data: a base design, axes that edit it, and the tiers to evaluate.

A spec is YAML or JSON::

    base: etat2-1223-tmvp3          # a built-in design or the path of a design file
    axes:                           # the sweep is the product of the axes
      datapath.units[sqr].k: [[1, 2, 4], [1, 2, 4, 8]]       # a path and its values
      - name: ram                                            # (or a list of axes:)
        values:                                              # each value an overlay of paths
          - {label: 1ram}
          - {label: 2ram, datapath.banks: [...], datapath.units[sqr].writes: [p]}
    tiers: [schedule, synth]        # schedule (always), sim, synth
    sim: {n: 2, seed: 1}
    synth: {target: xc7}
    keep: {cycles_at_most: 26224}   # points over it stop after the schedule

A path is dotted keys into the design's JSON; ``[i]`` indexes a list and ``[name]`` picks the list
element whose ``name`` is ``name`` (``datapath.units[mul].mul.digit``).  Every point is checked
against the design file format (:mod:`pairhw.designs.schema`) before anything runs, and an error
says which key of the spec is wrong and why (:class:`SpecError`).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from pairhw.files import TooLarge, read_at_most

TIERS = ("schedule", "sim", "synth")
_TOP_KEYS = {"name", "description", "base", "axes", "tiers", "sim", "synth", "keep"}
_STEP = re.compile(r"([^.\[\]]+)|\[([^\]]+)\]")


class SpecError(ValueError):
    """A spec that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Point:
    """One design of the sweep: its name, its labels per axis and the design's JSON data."""

    name: str
    labels: tuple
    data: dict = field(hash=False, compare=False)


@dataclass
class Spec:
    name: str
    base: str
    axes: list          # [(axis name, [(label, {path: value})])]
    tiers: tuple
    sim: dict
    synth: dict
    keep: dict
    base_data: dict

    def points(self) -> list[Point]:
        """The product of the axes, in spec order, each point checked against the design format."""
        from pairhw.designs.schema import SchemaError, check

        out = []
        for combo in itertools.product(*[values for _, values in self.axes]):
            data = copy.deepcopy(self.base_data)
            labels = []
            for (axis, _), (label, edits) in zip(self.axes, combo):
                for path, value in edits.items():
                    try:
                        set_path(data, path, copy.deepcopy(value))
                    except SpecError as e:
                        raise SpecError(f"axes.{axis}: {e}") from None
                labels.append(label)
            name = "-".join([self.base_data["name"], *labels])
            data["name"] = name
            try:
                check(data)
            except SchemaError as e:
                raise SpecError(f"point {name}: {e}") from None
            out.append(Point(name, tuple(labels), data))
        return out


def _steps(path: str) -> list:
    steps, pos = [], 0
    for m in _STEP.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            raise SpecError(f"path {path!r}: cannot read it at {path[pos:]!r}")
        key, index = m.groups()
        steps.append(key if key is not None else (int(index) if index.isdigit() else ("name", index)))
        pos = m.end()
    if not steps or pos != len(path):
        raise SpecError(f"path {path!r}: cannot read it")
    return steps


def set_path(data: dict, path: str, value) -> None:
    """Set ``path`` (dotted keys, ``[i]``, ``[name]``) in ``data``; the last key may be new, the
    ones before it must exist."""
    steps = _steps(path)
    cur = data
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(step, str):
            if not isinstance(cur, dict):
                raise SpecError(f"path {path!r}: {step!r} is a key but the value there is not an object")
            if last:
                cur[step] = value
                return
            if step not in cur:
                raise SpecError(f"path {path!r}: the base design has no key {step!r} there")
            cur = cur[step]
            continue
        if not isinstance(cur, list):
            raise SpecError(f"path {path!r}: an index but the value there is not a list")
        if isinstance(step, int):
            if not 0 <= step < len(cur):
                raise SpecError(f"path {path!r}: index {step} but the list has {len(cur)} elements")
            j = step
        else:
            hits = [j for j, x in enumerate(cur) if isinstance(x, dict) and x.get("name") == step[1]]
            if not hits:
                names = [x.get("name") for x in cur if isinstance(x, dict)]
                raise SpecError(f"path {path!r}: no element named {step[1]!r} (there: {', '.join(map(str, names))})")
            j = hits[0]
        if last:
            cur[j] = value
            return
        cur = cur[j]


def _text(value) -> str:
    """``value`` in a few name-safe characters: lists and objects joined by ``-`` (``true`` as its key)."""
    if isinstance(value, dict):
        return "-".join(k if v is True else _text(v) for k, v in value.items() if v is not False)
    if isinstance(value, list):
        return "-".join(_text(v) for v in value)
    return re.sub(r"[^A-Za-z0-9]+", "-", str(value).lower() if isinstance(value, bool) else str(value)).strip("-")


def _label(path: str, value) -> str:
    """A short, name-safe label for ``value`` at ``path``: ``sqr_k1-2-4-8``, ``add_count2``, and an
    object by its values alone (``lsd-56``)."""
    if isinstance(value, dict):
        return _text(value) or "x"
    steps = _steps(path)
    key = next((s for s in reversed(steps) if isinstance(s, str)), "v")
    unit = next((s[1] for s in reversed(steps) if isinstance(s, tuple)), None)
    key = re.sub(r"[^A-Za-z0-9_]+", "", f"{unit}_{key}" if unit else key)
    return key + (_text(value) or "x")


def _is_path(key: str) -> bool:
    """In the mapping form, a key is a path (``datapath.units[sqr].k``) or the name of an axis whose
    values are overlays (``powers``)."""
    return "." in key or "[" in key or key in ("curve", "algorithm", "datapath", "asip")


def _axes(raw) -> list:
    if isinstance(raw, dict):
        raw = [{"name": key, "path": key, "values": values} if _is_path(key) else {"name": key, "values": values}
               for key, values in raw.items()]
    if not isinstance(raw, list) or not raw:
        raise SpecError("axes: expected a non-empty mapping {path: [values]} or list of axes")
    axes, seen = [], set()
    for i, ax in enumerate(raw):
        where = f"axes[{i}]"
        if not isinstance(ax, dict):
            raise SpecError(f"{where}: expected an object with name/path/values")
        unknown = set(ax) - {"name", "path", "values"}
        if unknown:
            raise SpecError(f"{where}: unknown key {sorted(unknown)[0]!r} (keys: name, path, values)")
        name = str(ax.get("name") or ax.get("path") or f"axis{i}")
        if name in seen:
            raise SpecError(f"axes: two axes named {name!r}")
        seen.add(name)
        values = ax.get("values")
        if not isinstance(values, list) or not values:
            raise SpecError(f"axes.{name}: values: expected a non-empty list")
        options = []
        for j, v in enumerate(values):
            if "path" in ax:
                _steps(ax["path"])
                options.append((_label(ax["path"], v), {ax["path"]: v}))
            elif isinstance(v, dict):
                edits = {k: x for k, x in v.items() if k != "label"}
                for p in edits:
                    _steps(p)
                label = v.get("label") or "-".join(_label(p, x) for p, x in edits.items()) or "base"
                if not re.fullmatch(r"[A-Za-z0-9_-]+", str(label)):
                    raise SpecError(f"axes.{name}.values[{j}].label: letters, digits, - and _ only")
                options.append((str(label), edits))
            else:
                raise SpecError(f"axes.{name}.values[{j}]: an axis without a path takes objects "
                                "{path: value, ..., label: L}")
        labels = [o[0] for o in options]
        if len(set(labels)) != len(labels):
            raise SpecError(f"axes.{name}: two values with the same label")
        axes.append((name, options))
    return axes


def parse(raw, where: str = "spec") -> Spec:
    """A :class:`Spec` from the loaded YAML/JSON ``raw`` (its base design loaded)."""
    from pairhw import designs

    if not isinstance(raw, dict):
        raise SpecError(f"{where}: expected a mapping with base, axes and tiers")
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise SpecError(f"{sorted(unknown)[0]}: unknown key (keys: {', '.join(sorted(_TOP_KEYS))})")
    if not isinstance(raw.get("base"), str):
        raise SpecError("base: expected a built-in design name or a design file path")
    base = raw["base"]
    if designs.is_path(base) and not Path(base).is_absolute() and where != "spec":
        base = str(Path(where).parent / base)  # a design file beside the spec
    try:
        d = designs.load(base)
    except designs.UnknownDesign:
        raise SpecError(f"base: unknown design {base!r} (pairhw designs)") from None
    except designs.DesignError as e:
        raise SpecError(f"base: {e}") from None
    tiers = raw.get("tiers", ["schedule"])
    if isinstance(tiers, str):
        tiers = [tiers]
    if not isinstance(tiers, list) or any(t not in TIERS for t in tiers):
        raise SpecError(f"tiers: expected a list of {', '.join(TIERS)}, got {tiers!r}")
    tiers = tuple(t for t in TIERS if t == "schedule" or t in tiers)
    sim = raw.get("sim", {}) or {}
    if not isinstance(sim, dict) or set(sim) - {"n", "seed"}:
        raise SpecError("sim: expected {n: N, seed: S}")
    sim = {"n": sim.get("n", 2), "seed": sim.get("seed", 1)}
    if not isinstance(sim["n"], int) or not 1 <= sim["n"] <= 1000 or not isinstance(sim["seed"], int):
        raise SpecError("sim.n: a whole number from 1 to 1,000 (sim.seed: a whole number)")
    synth = raw.get("synth", {}) or {}
    from pairhw.synth.flows import TARGETS

    if not isinstance(synth, dict) or set(synth) - {"target"} or synth.get("target", "xc7") not in TARGETS:
        raise SpecError(f"synth: expected {{target: one of {', '.join(TARGETS)}}}")
    synth = {"target": synth.get("target", "xc7")}
    keep = raw.get("keep", {}) or {}
    if not isinstance(keep, dict) or set(keep) - {"cycles_at_most"} or not all(
            isinstance(v, int) and v > 0 for v in keep.values()):
        raise SpecError("keep: expected {cycles_at_most: N}")
    name = str(raw.get("name") or (Path(where).stem if where != "spec" else d.name))
    return Spec(name, d.name, _axes(raw.get("axes")), tiers, sim, synth, keep, copy.deepcopy(d.data))


#: the largest spec file read (bytes; :func:`pairhw.files.read_at_most`)
MAX_FILE_BYTES = 1 << 20


def _unique_keys(pairs):
    """A JSON object, refusing a key given twice (``json`` lets the last win)."""
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"key {twice[0]!r} given twice")
    return dict(pairs)


def _UniqueKeyLoader():
    """A YAML safe loader that refuses a mapping key given twice (PyYAML lets the last win)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):
        loader.flatten_mapping(node)
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"key {key!r} given twice",
                                                        key_node.start_mark)
            seen.add(key)
        return loader.construct_mapping(node, deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def load(path: str) -> Spec:
    """Read a YAML (``.yaml``/``.yml``) or JSON spec file; :class:`SpecError` says what is wrong."""
    p = Path(path)
    try:
        text = read_at_most(p, MAX_FILE_BYTES).decode("utf-8")
    except TooLarge as e:
        raise SpecError(f"{path}: {e}; a sweep spec is a few kB") from None
    except UnicodeDecodeError:
        raise SpecError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise SpecError(f"{path}: cannot read it: {e.strerror or e}") from None
    if p.suffix in (".yaml", ".yml"):
        import yaml

        try:
            raw = yaml.load(text, Loader=_UniqueKeyLoader())
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = f"line {mark.line + 1}: " if mark is not None else ""
            raise SpecError(f"{path}: not YAML ({where}{getattr(e, 'problem', None) or e})") from None
    else:
        try:
            raw = json.loads(text, object_pairs_hook=_unique_keys)
        except ValueError as e:
            raise SpecError(f"{path}: not JSON ({e}); YAML files end in .yaml") from None
        except RecursionError:
            raise SpecError(f"{path}: not a spec: JSON nested too deeply") from None
    try:
        return parse(raw, path)
    except SpecError as e:
        raise SpecError(f"{path}: {e}") from None
