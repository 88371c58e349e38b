"""The package's layout rules: the engine sees fields only through the interface, and no module
imports itself back through others at import time."""

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
