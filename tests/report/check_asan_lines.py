#!/usr/bin/env python3
"""The sanitizers' lines only where something reads them (issue 32): a
report carries AddressSanitizer's "ERROR: AddressSanitizer" line and its
form of a C++ stack, LeakSanitizer's "Direct leak" line, UBSan's "runtime
error" line and DEDUP_TOKEN when ASAN_OPTIONS or LSAN_OPTIONS is in the
environment (what ClusterFuzz, CTest's memcheck, honggfuzz and AFL++ set),
UBSAN_OPTIONS for UBSan's line, in a fuzz target (LLVMFuzzerTestOneInput
defined), or with ukasan.asan_lines=on; otherwise, and with
ukasan.asan_lines=off, the kernel's text alone. Each report kind (KFENCE
under the preload, generic KASAN, a fault's oops, kmemleak, UBSAN's
array bounds by clang) is run plain and under each trigger, and must
still be the kernel's report either way."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "asan_lines")
SRC = os.path.join(ROOT, "tests/tools/_report_bugs.c")
FLAGS = ["-g", "-O1", "-fno-omit-frame-pointer", "-fno-optimize-sibling-calls"]
LIB = os.path.join(BUILD, "lib", "libukasan.so")
FAILED = 0

# A fuzz target: LLVMFuzzerTestOneInput defined (and exported, as the
# runtime finds it by its dynamic symbol), called here by a main of its
# own so that no fuzzer is needed; each input byte plants the bug.
FUZZ_SRC = r"""
#include <stdint.h>
#include <stdlib.h>
char *volatile sink;
volatile int zero;
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] == 'x') {
		char *p = malloc(32);
		sink = p;
		sink[32 + zero] = 1;
		free(p);
	}
	return 0;
}
int main(void)
{
	return LLVMFuzzerTestOneInput((const uint8_t *)"x", 1);
}
"""

ASAN_WORDS = ("ERROR: AddressSanitizer", "DEDUP_TOKEN:", "SUMMARY: AddressSanitizer")


def ok(name, good, why=""):
    global FAILED
    if not good:
        FAILED += 1
    print(("ok " if good else "not ok ") + "asan lines: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


def build(out, cmd, src=SRC, env=None):
    r = subprocess.run(cmd + FLAGS + ["-o", out, src], env=env, capture_output=True, text=True)
    return r.returncode == 0, r.stderr[:300]


def run(exe, args, env):
    full = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        full.pop(k, None)
    full.update(env)
    r = subprocess.run([exe] + args, env=full, capture_output=True, text=True, errors="replace",
                       timeout=60)
    return r.stderr


def case(name, exe, args, base, kernel, words, triggers):
    """Plain and with ukasan.asan_lines=off: the kernel's text, none of
    words; under each trigger (an environment): the kernel's text and
    every one of words."""
    uk = base.get("UKASAN_OPTIONS", "")
    plain = run(exe, args, base)
    missing = [w for w in words if w in plain]
    ok(name + ": plain run has the kernel's text alone", kernel in plain and not missing,
       "found %r (or no %r) in:\n%s" % (missing, kernel, plain[-1500:]))
    for tname, env in triggers:
        full = dict(base, **env)
        if "UKASAN_OPTIONS" in env:
            full["UKASAN_OPTIONS"] = (uk + " " + env["UKASAN_OPTIONS"]).strip()
        err = run(exe, args, full)
        lacking = [w for w in words if w not in err]
        ok("%s: %s gives the lines" % (name, tname), kernel in err and not lacking,
           "lacking %r in:\n%s" % (lacking, err[-1500:]))
    off = dict(base, ASAN_OPTIONS="detect_leaks=1", LSAN_OPTIONS="", UBSAN_OPTIONS="",
               UKASAN_OPTIONS=(uk + " ukasan.asan_lines=off").strip())
    err = run(exe, args, off)
    found = [w for w in words if w in err]
    ok(name + ": ukasan.asan_lines=off wins over the environment", kernel in err and not found,
       "found %r in:\n%s" % (found, err[-1500:]))


ASAN_TRIGGERS = [("ASAN_OPTIONS", {"ASAN_OPTIONS": "detect_leaks=1"}),
                 ("an empty ASAN_OPTIONS", {"ASAN_OPTIONS": ""}),
                 ("LSAN_OPTIONS", {"LSAN_OPTIONS": "report_objects=0"}),
                 ("ukasan.asan_lines=on", {"UKASAN_OPTIONS": "ukasan.asan_lines=on"})]


def main():
    shutil.rmtree(T, ignore_errors=True)
    os.makedirs(T)
    cc = os.path.join(BUILD, "bin", "ukasan-cc")

    plain = os.path.join(T, "plain")
    good, err = build(plain, ["gcc"])
    ok("build uninstrumented", good, err)
    if good:
        kf = {"LD_PRELOAD": LIB, "UKASAN_OPTIONS": "kfence.sample_rate=1"}
        case("KFENCE out-of-bounds", plain, ["heap_oob"], kf, "BUG: KFENCE: out-of-bounds",
             ("ERROR: AddressSanitizer: heap-buffer-overflow", "DEDUP_TOKEN: slab-out-of-bounds"),
             ASAN_TRIGGERS)
        # UBSAN_OPTIONS names UBSan's reader, not ASan's: a KFENCE report
        # stays the kernel's.
        err = run(plain, ["heap_oob"], dict(kf, UBSAN_OPTIONS="print_stacktrace=1"))
        ok("KFENCE under UBSAN_OPTIONS alone: no ASan line",
           "BUG: KFENCE" in err and not any(w in err for w in ASAN_WORDS), err[-1500:])

    generic = os.path.join(T, "generic")
    good, err = build(generic, [cc], env=dict(os.environ, UKASAN_CC="gcc"))
    ok("build with ukasan-cc [gcc]", good, err)
    if good:
        base = {"UKASAN_OPTIONS": "kfence.sample_interval=0"}
        case("KASAN out-of-bounds", generic, ["heap_oob"], base, "BUG: KASAN: slab-out-of-bounds",
             ("DEDUP_TOKEN: slab-out-of-bounds--bug_heap_oob",), ASAN_TRIGGERS)
        case("KASAN oops", generic, ["wild_read"], base, "BUG: unable to handle page fault",
             ("ERROR: AddressSanitizer: SEGV", "The signal is caused by a READ memory access.",
              "DEDUP_TOKEN: page-fault--bug_wild_read"), ASAN_TRIGGERS)
        case("kmemleak", generic, ["leak"], base, "BUG: memory leak",
             ("Direct leak of", "DEDUP_TOKEN: memory-leak--bug_leak"), ASAN_TRIGGERS)

    if shutil.which("clang-16"):
        clang = os.path.join(T, "generic_clang")
        good, err = build(clang, [cc], env=dict(os.environ, UKASAN_CC="clang-16"))
        ok("build with ukasan-cc [clang-16]", good, err)
        if good:
            base = {"UKASAN_OPTIONS": "kfence.sample_interval=0"}
            case("UBSAN array bounds", clang, ["array_index"], base,
                 "UBSAN: array-index-out-of-bounds",
                 ("runtime error: index", "DEDUP_TOKEN: array-index-out-of-bounds--bug_array_index"),
                 ASAN_TRIGGERS + [("UBSAN_OPTIONS", {"UBSAN_OPTIONS": "print_stacktrace=1"})])

    fuzz_src = os.path.join(T, "fuzz_target.c")
    with open(fuzz_src, "w") as f:
        f.write(FUZZ_SRC)
    fuzz = os.path.join(T, "fuzz_target")
    good, err = build(fuzz, [cc, "-rdynamic"], src=fuzz_src, env=dict(os.environ, UKASAN_CC="gcc"))
    ok("build a fuzz target with ukasan-cc", good, err)
    if good:
        err = run(fuzz, [], {"UKASAN_OPTIONS": "kfence.sample_interval=0"})
        ok("a fuzz target (LLVMFuzzerTestOneInput) gives DEDUP_TOKEN with no ASAN_OPTIONS",
           "BUG: KASAN: slab-out-of-bounds" in err and
           "DEDUP_TOKEN: slab-out-of-bounds--LLVMFuzzerTestOneInput" in err, err[-1500:])
        err = run(fuzz, [], {"UKASAN_OPTIONS": "kfence.sample_interval=0 ukasan.asan_lines=off"})
        ok("a fuzz target with ukasan.asan_lines=off: no DEDUP_TOKEN",
           "BUG: KASAN" in err and "DEDUP_TOKEN" not in err, err[-1500:])
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
