"""Named designs, one JSON file each: a parameter set, a pairing algorithm and a datapath.

``datapath`` is the dictionary of :func:`pairhw.program.datapath.build_datapath`.  A design is
compiled by the engine (:func:`pairhw.program.engine.compile_pairing`) and built as a
:class:`pairhw.cores.core.PairingCore`.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from pairhw.cache import digest, made_once

#: what a schedule and a core depend on besides the design: the model, the engine, the fields, their units,
#: the cores and the Verilog they are written as
_ENGINE_PARTS = ("math", "params", "program", "asip", "fields", "rtl", "cores", "emit.py", "designs")


class UnknownDesign(KeyError):
    pass


class DesignError(ValueError):
    """A design file that cannot be read or does not match the format (the message says why)."""


@dataclass(frozen=True)
class Design:
    name: str
    description: str
    params: str
    algorithm: str
    data: dict

    @property
    def top(self) -> str:
        """Verilog module name of the core (from the design name)."""
        return "Pairing_" + "".join(c if c.isalnum() else "_" for c in self.name)

    def curve(self):
        from pairhw import params

        return params.curve(self.params)

    @property
    def is_asip(self) -> bool:
        """Whether the design is Nagl et al.'s word-serial processor (an ``asip`` object) rather than
        the engine's datapath."""
        return "asip" in self.data

    @property
    def field(self):
        """The field interface of the design's base field (:mod:`pairhw.fields`)."""
        from pairhw import fields

        fi = fields.for_params(self.params)
        if self.is_asip:
            return fi
        fi = fi.for_datapath(self.engine_data["datapath"])
        fi = fi.with_pairs(self.data["pairs"]) if self.data.get("pairs", 1) > 1 else fi
        fi = fi.with_validation() if self.data.get("validate") else fi
        return fi.with_batch(self.batch)

    @property
    def batch(self) -> int:
        """How many independent pairings (or products, or checks) one run of the core computes."""
        return self.data.get("batch", 1)

    @cached_property  # read by field, datapath and compile: once per design, not per pairing
    def engine_data(self) -> dict:
        """The design's data as the engine reads it: any old name (:mod:`pairhw.names`) replaced by
        its new one, so a design under an old name compiles to the same program."""
        from pairhw.names import current_data

        return current_data(self.data)

    @property
    def multiplier(self) -> str:
        """The multiplier kind (of the first mul unit)."""
        if self.is_asip:
            return self.data["asip"]["mul"]["kind"]
        return next(u["mul"]["kind"] for u in self.data["datapath"]["units"] if u["kind"] == "mul")

    def multiplier_options(self) -> dict:
        if self.is_asip:
            return {"word": self.compile().cfg.word, **self.data["asip"]["mul"]}
        return next(u["mul"] for u in self.data["datapath"]["units"] if u["kind"] == "mul")

    def datapath(self):
        from pairhw.program.datapath import build_datapath

        return build_datapath(self.field, self.engine_data["datapath"])

    def compile(self):
        """The engine's :class:`~pairhw.program.engine.Compiled` of this design's data (cached per
        content, so a design built from other data is compiled as it is)."""
        from pairhw.designs.schema import in_design_terms
        from pairhw.asip.program import AsipError
        from pairhw.program.datapath import DatapathError
        from pairhw.program.schedule import ScheduleError

        try:
            return _compiled(json.dumps(self.engine_data, sort_keys=True))
        except (DatapathError, ScheduleError, AsipError) as e:  # the design asks what the engine cannot do
            raise DesignError(f"{self.name}: {in_design_terms(str(e), self.data)}") from None

    def report(self, log=None) -> dict:
        """The schedule report (:meth:`~pairhw.program.engine.Compiled.report`), from the results cache
        when this design and this engine have been compiled before (keyed by a hash of the design's
        JSON and of the engine's sources), else compiled and stored."""
        key = digest("design-report", json.dumps(self.data, sort_keys=True), engine_digest())

        def make():
            if log:
                log(f"compiling {self.name} (cached afterwards)")
            rep = self.compile().report()
            if self.batch > 1:  # beside the cycles of one pairing alone on the same datapath
                alone = self.unbatched().report(log)
                rep["batch"] = {"k": self.batch, "cycles_per_pairing": round(rep["cycles"] / self.batch, 1),
                                "single_pairing_cycles": alone["cycles"]}
            return rep

        return made_once("designs", f"{key}.json", make, lambda rep: json.dumps(rep).encode(), json.loads,
                         (ValueError,))

    def unbatched(self) -> "Design":
        """This design without its ``batch``: one pairing (or product, or check) a run (and without
        ``interleave``, which takes turns between a batch's pairings)."""
        data = {k: v for k, v in self.data.items() if k != "batch"}
        if "datapath" in data and "interleave" in data["datapath"]:
            data["datapath"] = {k: v for k, v in data["datapath"].items() if k != "interleave"}
        return from_data({**data, "name": f"{self.name}-single"})

    def core(self):
        if self.is_asip:
            from pairhw.cores.asip import AsipCore

            return AsipCore(self.compile(), self.top)
        from pairhw.cores.core import PairingCore

        return PairingCore(self.compile(), self.top)

    def model(self, P, Q) -> list:
        """The golden model's pairing value, as the base-field coefficients the core outputs (a check
        core's: [1] if the value is 1, else [0]); a batch's: each pairing's in turn, for P and Q the
        k-tuples of its points."""
        C = self.curve()
        out = self.field.flatten(self.field.algorithm(self.algorithm)(C, P, Q))
        if self.data.get("check"):
            from pairhw.program.engine import check_bits

            return check_bits(out, self.check_value())
        return out

    def check_value(self) -> tuple:
        """A check core's reference outputs: the base-field coefficients of the pairing value 1 (and
        a 0 for each validation residue)."""
        return self.field.unbatched.check_value(self.curve())


def content_text(data: dict) -> str:
    """The canonical JSON of what a design computes: its file without name and description (the
    explore store's key, the register wrappers' ``DESIGN`` hash)."""
    return json.dumps({k: v for k, v in data.items() if k not in ("name", "description")}, sort_keys=True)


def design_id(data: dict) -> int:
    """32 bits of SHA-256 of what a design computes (:func:`content_text`): the register wrappers'
    ``DESIGN`` register, so software can tell which core it talks to.  Hashed with the names as they
    were before the names by author and year (:mod:`pairhw.names`), so a core keeps its id across the
    rename."""
    from pairhw.names import to_old

    return int(hashlib.sha256(to_old(content_text(data)).encode()).hexdigest()[:8], 16)


@lru_cache(maxsize=None)
def engine_digest() -> str:
    """A hash of the sources a schedule report depends on (:data:`_ENGINE_PARTS`)."""
    root = Path(__file__).resolve().parent.parent
    files = sorted(f for part in _ENGINE_PARTS for f in ([root / part] if part.endswith(".py") else (root / part).rglob("*"))
                   if f.suffix in (".py", ".json") and "__pycache__" not in f.parts)
    return digest(*[str(f.relative_to(root)) + "\0" + f.read_text() for f in files])


def names() -> list[str]:
    return sorted(f.name[:-5] for f in resources.files(__package__).iterdir() if f.name.endswith(".json"))


def source(name: str) -> str:
    """The JSON text of the built-in design ``name``; by an old name (:mod:`pairhw.names`), the text
    as it was under that name."""
    from pairhw.names import current, to_old

    try:
        text = resources.files(__package__).joinpath(f"{current(name)}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        raise UnknownDesign(name) from None
    return text if current(name) == name else to_old(text)


@lru_cache(maxsize=None)
def get(name: str) -> Design:
    return from_data(json.loads(source(name)))


def from_data(d: dict) -> Design:
    return Design(d["name"], d.get("description", ""), d["curve"], d["algorithm"], d)


def is_path(name: str) -> bool:
    """Whether ``name`` is meant as a design file rather than a built-in name."""
    return name.endswith(".json") or "/" in name or os.sep in name


def load(name: str) -> Design:
    """A built-in design by name, or the design file at a path (checked against
    :mod:`pairhw.designs.schema`: :class:`DesignError` names the wrong key)."""
    if not is_path(name):
        return get(name)
    from pairhw.designs.schema import SchemaError, check

    from pairhw.designs.schema import MAX_FILE_BYTES, MAX_NESTING, nesting
    from pairhw.files import TooLarge, read_at_most

    try:
        text = read_at_most(name, MAX_FILE_BYTES).decode("utf-8")
    except TooLarge as e:
        raise DesignError(f"{name}: {e}; a design file is a few kB of JSON") from None
    except UnicodeDecodeError:
        raise DesignError(f"{name}: not UTF-8 text") from None
    except OSError as e:
        raise DesignError(f"{name}: cannot read it: {e.strerror or e}") from None
    if nesting(text) > MAX_NESTING:
        raise DesignError(f"{name}: not a design: JSON nested too deeply (more than {MAX_NESTING} levels)")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise DesignError(f"{name}: not JSON ({e})") from None
    except RecursionError:
        raise DesignError(f"{name}: not a design: JSON nested too deeply") from None
    try:
        check(data)
    except SchemaError as e:
        raise DesignError(f"{name}: {e}") from None
    return from_data(data)


@lru_cache(maxsize=None)
def _compiled(text: str):
    """The compiled program of the design JSON ``text``: from the results cache when this design and
    this engine (:func:`engine_digest`) were compiled before by this Python, else compiled and
    stored there (pickled: the cache is the user's own directory), one process at a time."""
    return made_once("designs", f"{digest('compiled', text, engine_digest(), sys.version)}.pickle",
                     lambda: _compile(text), lambda c: pickle.dumps(c, protocol=pickle.HIGHEST_PROTOCOL),
                     pickle.loads, (EOFError, pickle.UnpicklingError, AttributeError, ImportError))


def _compile(text: str):
    from pairhw.program.engine import compile_pairing

    d = from_data(json.loads(text))
    if d.is_asip:
        from pairhw.asip.program import asip_config, compile_asip

        return compile_asip(d.curve(), d.field.algorithm(d.algorithm), asip_config(d.field, d.data["asip"]))
    c = compile_pairing(d.curve(), d.field.algorithm(d.algorithm), d.datapath())
    if d.data.get("check"):  # the outputs compared with the pairing value 1
        from dataclasses import replace

        c = replace(c, check=d.check_value())
    return c
