#!/usr/bin/env python3
"""CTest's memory check (ctest -T memcheck), as a CMake project runs it on
its ASan build for a CDash dashboard: with MEMORYCHECK_TYPE
AddressSanitizer, CTest runs each test with ASAN_OPTIONS=log_path='DIR/
MemoryChecker.N.log', reads the files the run wrote and counts, as defects
of a type, the lines "ERROR: AddressSanitizer: TYPE on ..." and "Direct
leak of ..."; with LeakSanitizer, LSAN_OPTIONS and the leak lines only.

A project of ours, built by ukasan-cc/ukasan-c++ with -fsanitize=address
in CMAKE_C_FLAGS and CMAKE_CXX_FLAGS, has one test per bug and a clean
one. Each bug's test must show one defect of ASan's type for it (one: the
report's C++ frames in ASan's form must not count twice), the clean test
none, and the totals must be those of the bugs."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
WORK = os.path.join(os.environ.get("UKASAN_TEST_TMP") or "/tmp", "ctest_memcheck")

# test name: (source, the defect type CTest must count for it, or None)
TESTS = {
    "overflow": ("#include <stdlib.h>\nint main(void) { char *volatile p = malloc(10); p[10] = 1; free(p); return 0; }\n",
                 "heap-buffer-overflow"),
    "uaf": ("#include <stdlib.h>\nint main(void) { int *volatile p = malloc(40); free(p); return p[2]; }\n",
            "heap-use-after-free"),
    "double_free": ("#include <stdlib.h>\nint main(void) { void *volatile p = malloc(8); free(p); free(p); return 0; }\n",
                    "attempting double-free"),
    "global": ("int g[4];\nint main(int argc, char **argv) { (void)argv; volatile int i = 3 + argc; return g[i]; }\n",
               "global-buffer-overflow"),
    "leak": ("#include <stdlib.h>\nvoid *volatile keep;\n"
             "int main(void) { keep = malloc(40); keep = 0; return 0; }\n", "Direct leak"),
    "clean": ("#include <stdlib.h>\nint main(void) { char *p = malloc(10); p[9] = 0; free(p); return 0; }\n", None),
}
# Grid frees its cells: the run goes on after the report (ukasan's, unlike
# ASan's, recovers), and the check at exit would count a leak of them.
CXX = ("#include <vector>\nnamespace shapes {\nstruct Grid {\n  int *cells = new int[4];\n"
       "  ~Grid() { delete[] cells; }\n"
       "  __attribute__((noinline)) int at(int i) { return cells[i]; }\n};\n}\n"
       "int main(int argc, char **) { shapes::Grid g; volatile int i = 3 + argc; return g.at(i); }\n")


def say(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else " - " + " ".join(why.split())[:600]), flush=True)


def project():
    src = os.path.join(WORK, "src")
    os.makedirs(src)
    lines = ["cmake_minimum_required(VERSION 3.13)", "project(memcheck C CXX)", "include(CTest)"]
    for name, (code, _) in TESTS.items():
        open(os.path.join(src, name + ".c"), "w").write(code)
        lines += [f"add_executable(t_{name} {name}.c)", f"add_test(NAME {name} COMMAND t_{name})"]
    open(os.path.join(src, "cxx_overflow.cc"), "w").write(CXX)
    lines += ["add_executable(t_cxx_overflow cxx_overflow.cc)", "add_test(NAME cxx_overflow COMMAND t_cxx_overflow)"]
    open(os.path.join(src, "CMakeLists.txt"), "w").write("\n".join(lines) + "\n")
    return src


def memcheck(src, kind):
    b = os.path.join(WORK, "build-" + kind)
    env = dict(os.environ, CC=os.path.join(BUILD, "bin", "ukasan-cc"), CXX=os.path.join(BUILD, "bin", "ukasan-c++"))
    for k in ("ASAN_OPTIONS", "LSAN_OPTIONS"):
        env.pop(k, None)
    # KFENCE off: a sampled object's overflow would be KFENCE's report.
    env["UKASAN_OPTIONS"] = "kfence.sample_interval=0"
    r = subprocess.run(["cmake", "-S", src, "-B", b, "-DMEMORYCHECK_TYPE=" + kind,
                        "-DCMAKE_C_FLAGS=-g -fsanitize=address", "-DCMAKE_CXX_FLAGS=-g -fsanitize=address"],
                       env=env, capture_output=True, text=True)
    if r.returncode == 0:
        r = subprocess.run(["cmake", "--build", b, "-j2"], env=env, capture_output=True, text=True)
    if r.returncode:
        return None, r.stdout[-300:] + r.stderr[-300:]
    r = subprocess.run(["ctest", "-T", "memcheck"], cwd=b, env=env, capture_output=True, text=True, timeout=600)
    return r.stdout, r.stderr


def parse(out):
    """({test: defects}, {type: total}) from ctest's summary."""
    per = {m.group(1): int(m.group(2)) for m in re.finditer(r"MemCheck: #\d+: (\S+) \.*\s+Defects: (\d+)", out)}
    totals = {}
    tail = out.split("Memory checking results:", 1)
    for m in re.finditer(r"^(.+?) - (\d+)$", tail[1] if len(tail) > 1 else "", re.M):
        totals[m.group(1).strip()] = int(m.group(2))
    return per, totals


def main():
    if not shutil.which("ctest") or not shutil.which("cmake"):
        say(False, "ctest memcheck", "cmake is not installed (tools/deps.sh installs it)")
        return 0
    shutil.rmtree(WORK, ignore_errors=True)
    src = project()
    want = {n: t for n, (_, t) in TESTS.items()}
    want["cxx_overflow"] = "heap-buffer-overflow"

    out, err = memcheck(src, "AddressSanitizer")
    if out is None:
        say(False, "ctest memcheck AddressSanitizer: build", err)
        return 0
    per, totals = parse(out)
    for name, kind in want.items():
        got = per.get(name, 0)
        say(got == (1 if kind else 0), f"ctest memcheck AddressSanitizer: {name} has {1 if kind else 0} defect",
            f"{got} defects; ctest said: {out[-1500:]}")
    expect = {}
    for kind in want.values():
        if kind:
            expect[kind] = expect.get(kind, 0) + 1
    say(totals == expect, "ctest memcheck AddressSanitizer: defects by type", f"{totals} != {expect}")

    out, err = memcheck(src, "LeakSanitizer")
    if out is None:
        say(False, "ctest memcheck LeakSanitizer: build", err)
        return 0
    per, totals = parse(out)
    say(per.get("leak") == 1 and totals == {"Direct leak": 1}, "ctest memcheck LeakSanitizer: the leak, once",
        f"{per} {totals}")
    return 0


sys.exit(main())
