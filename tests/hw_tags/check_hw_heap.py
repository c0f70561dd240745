#!/usr/bin/env python3
"""The MTE primitives and hardware tag mode's small-object heap, on their
own: tests/hw_tags/_hw_heap_driver.c linked straight against
src/kasan/hw_heap.c, src/platform/mte.c and src/platform/os.c, clock.c, fd.c, proc.c, sys.c, mem.c (the heap
needs nothing else of the runtime), built with aarch64-linux-gnu-gcc and
clang-16 and run under qemu-aarch64 -cpu max. The driver prints the ok /
not ok lines; each is prefixed with the compiler here. Also: the sources
build for x86-64 without warnings (mte.h empty there, every MTE call
failing)."""
import os
import shutil
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = os.environ.get("UKASAN_TEST_TMP") or "/tmp"
OUT = os.path.join(TMP, "hw_tags")
SRCS = ["tests/hw_tags/_hw_heap_driver.c", "src/kasan/hw_heap.c", "src/platform/mte.c",
        "src/platform/os.c", "src/platform/clock.c", "src/platform/fd.c", "src/platform/proc.c",
        "src/platform/sys.c", "src/platform/mem.c"]
FLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-pthread", "-Isrc"]
RUN = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]
COMPILERS = {"gcc": ["aarch64-linux-gnu-gcc"], "clang": ["clang-16", "--target=aarch64-linux-gnu"]}


def main():
    os.makedirs(OUT, exist_ok=True)
    bench = sys.argv[1:] == ["bench"]
    if not bench:
        r = subprocess.run(["gcc"] + FLAGS[:-2] + ["-Isrc", "-fsyntax-only", "-x", "c", "-"],
                           input='#include "arch/aarch64/mte.h"\n#include "platform/mte.h"\n'
                           '#include "kasan/hw_heap.h"\nint x;\n',
                           capture_output=True, text=True, cwd=ROOT)
        r2 = subprocess.run(["gcc"] + FLAGS + ["-c", "-o", os.path.join(OUT, "x86.o"),
                                               "src/kasan/hw_heap.c"],
                            capture_output=True, text=True, cwd=ROOT)
        if r.returncode == 0 and r2.returncode == 0 and not r.stderr and not r2.stderr:
            print("ok x86-64: headers and heap build without warnings")
        else:
            print(f"not ok x86-64 build - {(r.stderr + r2.stderr)[:500]}")
    for name, cc in COMPILERS.items():
        if not shutil.which(cc[0]) or not shutil.which(RUN[0]):
            print(f"not ok {name} - {cc[0]} or {RUN[0]} not installed")
            continue
        exe = os.path.join(OUT, f"driver-{name}")
        r = subprocess.run(cc + FLAGS + ["-o", exe] + SRCS, capture_output=True, text=True,
                           cwd=ROOT)
        if r.returncode != 0 or r.stderr:
            print(f"not ok {name}: build - {r.stderr[:1000]}")
            continue
        r = subprocess.run(RUN + [exe] + (["bench"] if bench else []), capture_output=True,
                           text=True, timeout=600)
        if bench:
            print(f"== {name}\n{r.stdout}")
            continue
        lines = [l for l in r.stdout.splitlines() if l.startswith(("ok ", "not ok "))]
        for l in lines:
            ok, rest = ("ok", l[3:]) if l.startswith("ok ") else ("not ok", l[7:])
            print(f"{ok} {name}: {rest}")
        if r.returncode != 0 or len(lines) < 30:
            print(f"not ok {name}: driver exited {r.returncode} after {len(lines)} checks"
                  f" - {r.stderr[-500:]}")


main()
