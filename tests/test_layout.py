"""The package's layout rules: the layers import only downwards (also inside functions), no module
takes a private name of another package, the engine sees fields only through the interface, and no
module imports itself back through others at import time."""

import ast
from pathlib import Path

import pairhw

ROOT = Path(pairhw.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(path: Path) -> set:
    """pairhw modules imported at module level (not inside functions), resolved to absolute names."""
    mod = _module_name(path)
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1] + ([base] if base else []))
            if base.startswith("pairhw"):
                out.add(base)
                for a in node.names:
                    if (ROOT.parent / (base + "." + a.name).replace(".", "/")).with_suffix(".py").exists() \
                            or (ROOT.parent / (base + "." + a.name).replace(".", "/") / "__init__.py").exists():
                        out.add(base + "." + a.name)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("pairhw")}
    return out


MODULES = {_module_name(p): p for p in ROOT.rglob("*.py")}

#: pairhw's layers, lowest first: a module may import its own layer and those below it, never one above
#: (docs/ARCHITECTURE.md).  A module belongs to the layer of its longest prefix here.
LAYERS = (
    ("base", ("pairhw", "pairhw.errors", "pairhw.progress", "pairhw.files", "pairhw.cache", "pairhw.scratch",
              "pairhw.output", "pairhw.published", "pairhw.names")),
    ("model", ("pairhw.math", "pairhw.params", "pairhw.vectors")),
    ("engine", ("pairhw.program", "pairhw.asip")),
    ("simulators", ("pairhw.sim",)),
    ("units", ("pairhw.rtl", "pairhw.rtl.ports", "pairhw.rtl.binary", "pairhw.rtl.prime", "pairhw.rtl.ternary",
               "pairhw.rtl.select", "pairhw.rtl.serial")),
    ("families", ("pairhw.fields",)),
    ("cores", ("pairhw.cores", "pairhw.emit")),
    ("synthesis", ("pairhw.synth",)),
    ("designs", ("pairhw.designs",)),
    ("flow", ("pairhw.flow",)),
    ("explorer", ("pairhw.explore",)),
    ("report", ("pairhw.report",)),
    ("command", ("pairhw.cli", "pairhw.__main__", "pairhw.docs")),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (by its longest prefix there)."""
    best, at = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, at = len(p), i
    assert at is not None, f"{module} is in no layer of LAYERS"
    return at


def _package(module: str) -> str:
    """``pairhw.X`` of a module (the unit a private name must not leave)."""
    return ".".join(module.split(".")[:2])


def imports(module: str, text: str, pkg: str):
    """Every pairhw import in ``text`` (module level or inside functions): (line, imported module,
    names taken from it)."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1] + ([base] if base else []))
            if not base.startswith("pairhw"):
                continue
            names = []
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in MODULES:  # ``from pairhw import flow``: the module itself
                    yield node.lineno, sub, []
                else:
                    names.append(a.name)
            if names:
                yield node.lineno, base, names
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pairhw"):
                    yield node.lineno, a.name, []


def layer_violations(module: str, text: str, is_package: bool = False) -> list[str]:
    """What ``module`` (source ``text``) imports against the layer order or the privacy rule."""
    pkg = module if is_package else module.rpartition(".")[0]
    out = []
    me = layer_of(module)
    for line, target, names in imports(module, text, pkg):
        if layer_of(target) > me:
            out.append(f"{module}:{line} imports {target} (layer {LAYERS[layer_of(target)][0]} is above "
                       f"{LAYERS[me][0]})")
        if _package(target) != _package(module):
            for n in names:
                if n.startswith("_"):
                    out.append(f"{module}:{line} takes the private {target}.{n}")
    return out


def test_layers_import_only_downwards_and_no_private_names():
    bad = [v for name, path in sorted(MODULES.items())
           for v in layer_violations(name, path.read_text(), path.name == "__init__.py")]
    assert not bad, "\n".join(bad)


def test_the_layer_check_finds_an_import_upwards_and_a_private_name():
    """The check itself: an engine module importing the CLI inside a function, a flow helper's private
    name, and a lower layer's module are told apart."""
    up = "def f():\n    from pairhw.cli.design import cmd_sim\n    return cmd_sim\n"
    private = "from pairhw.flow import _generate_verilog\n"
    fine = "from pairhw.math.binary.field import GF2m\nfrom pairhw import cache\n"
    assert layer_violations("pairhw.program.engine", up) == [
        "pairhw.program.engine:2 imports pairhw.cli.design (layer command is above engine)"]
    assert layer_violations("pairhw.explore.run", private) == [
        "pairhw.explore.run:1 takes the private pairhw.flow._generate_verilog"]
    assert layer_violations("pairhw.program.engine", fine) == []
    assert layer_of("pairhw.rtl.binary.nets") < layer_of("pairhw.fields.binary") < layer_of("pairhw.cores.core")


def test_program_imports_no_concrete_field():
    for name, path in MODULES.items():
        if not name.startswith("pairhw.program"):
            continue
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                for m in mods:
                    assert not m.startswith(("pairhw.math", "pairhw.fields", "pairhw.rtl", "pairhw.params")), \
                        f"{name} imports {m}"


def test_no_import_cycle():
    graph = {name: {m for m in _top_level_imports(p) if m in MODULES and m != name} for name, p in MODULES.items()}
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in graph[n]:
            if state.get(m) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            if m not in state:
                visit(m, stack + [m])
        state[n] = 2

    for n in graph:
        if n not in state:
            visit(n, [n])


def test_one_curve_accessor_for_every_family():
    from pairhw import params
    from pairhw.math.binary.curve import Curve2
    from pairhw.math.prime.pairing import PairingCurve
    from pairhw.math.ternary.curve import Curve3

    kinds = {"f2-79": Curve2, "bn254": PairingCurve, "f3-19": Curve3}
    for name, cls in kinds.items():
        assert isinstance(params.curve(name), cls)
    assert not hasattr(params, "pcurve") and not hasattr(params, "curve3")


def test_the_engine_and_the_api_type_check():
    """mypy on ``program/`` and ``flow.py`` (pyproject.toml's ``[tool.mypy]``) finds nothing."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache], cwd=ROOT.parent,
                           capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "Success: no issues found" in r.stdout, r.stdout + r.stderr


def test_benches_scripts_and_tests_use_the_api_not_the_commands_insides():
    """Outside the package, the CLI is run only as a command (``pairhw.cli.main``): its helpers are not
    an API (``pairhw.flow`` is)."""
    bad = []
    for folder in ("bench", "scripts", "tests"):
        for path in sorted((ROOT.parent / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pairhw.cli"):
                    names = [a.name for a in node.names]
                    # _terminated: the command's SIGTERM handler, whose unwinding tests/rtl/test_flows.py checks
                    allowed = node.module == "pairhw.cli" and set(names) <= {"main", "_terminated"} \
                        or node.module == "pairhw.cli.command" and set(names) <= {"build_parser"}
                    if not allowed:
                        bad.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} from {node.module} import {', '.join(names)}")
    assert not bad, "\n".join(bad)
