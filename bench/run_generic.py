#!/usr/bin/env python3
"""Generic-mode (KASAN) benchmarks, run by `make bench` after bench/run.py.

    python3 bench/run_generic.py [--rounds N]

Compares, side by side in one run, the same C programs (bench/generic/) built
as: plain gcc -O2; ukasan-cc -O2 (generic KASAN: gcc inline, gcc outline,
clang-16 inline, clang-16 inline without recovery (UKASAN_RECOVER=0, which
halts at the first report as ASan does), clang-16 outline); gcc -O2 -fsanitize=address -fno-omit-frame-pointer, the
same without -fno-omit-frame-pointer (ASan then records truncated stacks);
and clang-16 -fsanitize=address -fno-omit-frame-pointer when
libclang-rt-16-dev is installed. Stack use after return is compared on its
own: ukasan's default has kasan.stack_use_after_return on (as clang 16's
ASan has detect_stack_use_after_return), gcc 12's ASan has it off, so
ukasan-cc (gcc) at its default is compared with gcc ASan with
detect_stack_use_after_return=1, and with kasan.stack_use_after_return=off
against gcc ASan's default. ukasan runs with its default options
(kasan.quarantine_size=256M, KFENCE sampling every 100 ms); ASan with
ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=256.

Programs: an allocation-heavy one, a compute-heavy one, and the start-up of
a program that does almost nothing (STARTS starts per sample). Every
variant of every program first runs once untimed (a check and a warm-up);
then, ROUNDS times, each variant runs once, the order of the variants
rotated every round, as the machine may be shared and noisy. Reported:
medians over rounds of wall time, CPU time (user + sys) and peak RSS
(ru_maxrss), all from wait4(2)'s rusage in bench/generic/launch.c, and the
medians of per-round ratios. Nothing is quoted: every figure is measured in
this run.

A run fails when it exits non-zero or is killed, prints a sanitizer report,
or prints other output than the plain build. Failures are reported, never
hidden. If a variant fails the allocation-heavy program as designed, the
timed runs of that program use, for every variant, a labelled fallback
input that avoids the failing allocation sizes, and the failure is shown.

The tables go to stdout and are appended to build/bench/results_generic.md.
"""
import functools
import os
import platform
import re
import shutil
import subprocess
import sys
import time

from benchlib import (BASE_ENV, attr, build_launcher, copy_runtime, emit, excerpt, finish, fmt,
                      launch, med, paired, table)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "bench", "generic")
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench", "generic")
RESULTS = os.path.join(BUILD, "bench", "results_generic.md")

ROUNDS = 9
STARTS = 50  # starts of the start-up program per sample
TIMEOUT = 180  # seconds for any one sample
CFLAGS = ["-O2", "-g"]
ASAN_OPTIONS = "detect_leaks=0:quarantine_size_mb=256"

# Inputs. ALLOC_FALLBACK differs only in its third argument: every string
# allocation of at least 16 bytes (see bench/generic/alloc.c).
ALLOC_ARGS = ["6", "17"]
ALLOC_FALLBACK = ["6", "17", "16"]
COMPUTE_ARGS = ["4"]

# The issue's targets.
TARGET_CPU_VS_ASAN = 1.0

# Anything in stderr that means a run found or hit a memory error.
REPORT_RE = re.compile(r"BUG: KASAN|BUG: KFENCE|ERROR: AddressSanitizer|AddressSanitizer:"
                       r"|^\S+\(\): |double free|corrupted|Segmentation fault", re.M)


class Variant:
    """A way of building and running a program."""

    def __init__(self, key, label, compiler, build_env=None, extra=(), run_env=None,
                 ukasan=False, asan=False, ref=None):
        self.key, self.label, self.compiler = key, label, compiler
        self.short = label.split(":")[0]
        self.build_env = build_env or {}
        self.extra = list(extra)
        self.run_env = run_env or {}
        self.ukasan, self.asan = ukasan, asan
        self.ref = ref  # key of the ASan variant it is compared with


def variants(ukcc):
    """The variants this machine can build, and notes on any left out."""
    asan_env = {"ASAN_OPTIONS": ASAN_OPTIONS}
    have_clang = shutil.which("clang-16") is not None
    clang_rt = subprocess.run(["dpkg", "-s", "libclang-rt-16-dev"], capture_output=True,
                              text=True).returncode == 0 if shutil.which("dpkg") else False
    asan_clang = have_clang and clang_rt
    notes = []
    vs = [
        Variant("plain", "plain: gcc -O2", "gcc"),
        Variant("uk-gcc", "ukasan generic, gcc, inline: ukasan-cc -O2", ukcc,
                {"UKASAN_CC": "gcc", "UKASAN_INSTRUMENT": "inline"}, ukasan=True,
                ref="asan-gcc-uar"),
        Variant("uk-gcc-out", "ukasan generic, gcc, outline: UKASAN_INSTRUMENT=outline ukasan-cc -O2", ukcc,
                {"UKASAN_CC": "gcc", "UKASAN_INSTRUMENT": "outline"}, ukasan=True,
                ref="asan-gcc-uar"),
    ]
    if have_clang:
        vs.append(Variant("uk-clang", "ukasan generic, clang-16, inline: UKASAN_CC=clang-16 ukasan-cc -O2",
                          ukcc, {"UKASAN_CC": "clang-16", "UKASAN_INSTRUMENT": "inline"},
                          ukasan=True, ref="asan-clang" if asan_clang else "asan-gcc-uar"))
        vs.append(Variant("uk-clang-nr", "ukasan generic, clang-16, inline, no recovery: UKASAN_RECOVER=0 UKASAN_CC=clang-16 ukasan-cc -O2",
                          ukcc, {"UKASAN_CC": "clang-16", "UKASAN_INSTRUMENT": "inline",
                                 "UKASAN_RECOVER": "0"},
                          ukasan=True, ref="asan-clang" if asan_clang else "asan-gcc-uar"))
        vs.append(Variant("uk-clang-out", "ukasan generic, clang-16, outline: UKASAN_INSTRUMENT=outline UKASAN_CC=clang-16 ukasan-cc -O2",
                          ukcc, {"UKASAN_CC": "clang-16", "UKASAN_INSTRUMENT": "outline"},
                          ukasan=True, ref="asan-clang" if asan_clang else "asan-gcc-uar"))
    else:
        notes.append("clang-16 not installed: no ukasan clang-16 variants.")
    vs.append(Variant("asan-gcc", "ASan gcc: -fsanitize=address -fno-omit-frame-pointer", "gcc",
                      extra=["-fsanitize=address", "-fno-omit-frame-pointer"], run_env=asan_env,
                      asan=True))
    # Stack use after return: on by default in ukasan as in clang 16's ASan,
    # off in gcc 12's; each side compared with the other at the same setting.
    vs.append(Variant("uk-gcc-nouar", "ukasan generic, gcc, inline, no stack use after return: UKASAN_OPTIONS=kasan.stack_use_after_return=off",
                      ukcc, {"UKASAN_CC": "gcc", "UKASAN_INSTRUMENT": "inline"},
                      run_env={"UKASAN_OPTIONS": "kasan.stack_use_after_return=off"},
                      ukasan=True, ref="asan-gcc"))
    vs.append(Variant("asan-gcc-uar", "ASan gcc, stack use after return: ASAN_OPTIONS=...:detect_stack_use_after_return=1", "gcc",
                      extra=["-fsanitize=address", "-fno-omit-frame-pointer"],
                      run_env={"ASAN_OPTIONS": ASAN_OPTIONS + ":detect_stack_use_after_return=1"},
                      asan=True))
    vs.append(Variant("asan-gcc-trunc", "ASan gcc (truncated stacks): -fsanitize=address, no -fno-omit-frame-pointer", "gcc",
                      extra=["-fsanitize=address"], run_env=asan_env, asan=True,
                      ref="asan-gcc"))
    if asan_clang:
        vs.append(Variant("asan-clang",
                          "ASan clang-16: -fsanitize=address -fno-omit-frame-pointer",
                          "clang-16", extra=["-fsanitize=address", "-fno-omit-frame-pointer"],
                          run_env=asan_env, asan=True))
    elif have_clang:
        notes.append("libclang-rt-16-dev not installed: no ASan clang-16 variant; ukasan "
                     "clang-16 is compared with ASan gcc.")
    return vs, notes


# --- running ---------------------------------------------------------------------

class Sample:
    """One sample: N runs of a program under bench/generic/launch.c."""

    def __init__(self, ok, why, wall, cpu, rss_kb, out, err):
        self.ok, self.why = ok, why
        self.wall, self.cpu, self.rss_mb = wall, cpu, rss_kb / 1024
        self.out, self.err = out, err


def run(exe, args, variant, starts=1):
    why, out, err, wall, cpu, rss = launch(os.path.join(OUT, "launch"), OUT, exe, args,
                                           dict(BASE_ENV, **variant.run_env), starts, TIMEOUT)
    if not why and REPORT_RE.search(err):
        why = "printed a memory-error report"
    return Sample(not why, why, wall, cpu, rss, out, err)


def build(name, variant):
    exe = os.path.join(OUT, f"{name}.{variant.key}")
    env = dict(BASE_ENV, **variant.build_env)
    cmd = [variant.compiler, *CFLAGS, *variant.extra, os.path.join(SRC, name + ".c"), "-o", exe]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: building {name} for '{variant.label}' failed:\n{' '.join(cmd)}\n"
                 f"{r.stderr}")
    return exe


def prepare():
    """Copies ukasan-cc and the runtime, so that a rebuild while this runs
    does not change what is measured, and builds the launcher."""
    build_launcher(OUT)
    return copy_runtime(BUILD, OUT)


# --- reporting ------------------------------------------------------------------

table = functools.partial(table, numeric=r"[-\d.x?]*|n/a")


def paired_ratio(a, b, key):
    return paired(a, b, attr(key))


# --- the benchmark ----------------------------------------------------------------

class Program:
    def __init__(self, name, title, args, starts, describe):
        self.name, self.title, self.args, self.starts = name, title, args, starts
        self.describe = describe
        self.exes = {}
        self.samples = {}
        self.failures = []  # (variant label, input, sample)
        self.fallback_note = None
        self.expected = None


def check(prog, vs, args):
    """One untimed run of every variant (check and warm-up). Returns the
    variants that failed."""
    plain = run(prog.exes["plain"], args, vs[0], prog.starts)
    if not plain.ok:
        sys.exit(f"bench: the plain build of {prog.name} failed ({plain.why}):\n{plain.err}")
    prog.expected = plain.out
    bad = []
    for v in vs[1:]:
        s = run(prog.exes[v.key], args, v, prog.starts)
        if s.ok and s.out != plain.out:
            s.ok, s.why = False, "printed other output than the plain build"
        if not s.ok:
            bad.append(v)
            prog.failures.append((v.label, " ".join(args) or "(none)", s))
    return bad


def main():
    global ROUNDS
    if len(sys.argv) == 3 and sys.argv[1] == "--rounds" and sys.argv[2].isdigit():
        ROUNDS = max(1, int(sys.argv[2]))
    elif len(sys.argv) != 1:
        sys.exit("usage: run_generic.py [--rounds N]")
    start = time.time()
    load_start = os.getloadavg()
    ukcc = prepare()
    vs, notes = variants(ukcc)
    by_key = {v.key: v for v in vs}

    rounds, nodes = int(ALLOC_ARGS[0]), (1 << int(ALLOC_ARGS[1])) - 1
    progs = [
        Program("alloc", "Allocation-heavy program (bench/generic/alloc.c)", ALLOC_ARGS, 1,
                f"Each of {rounds} rounds: a complete binary tree of {nodes} structs of mixed "
                f"sizes (16..512 bytes, half under 80) built, filled, walked and freed; a "
                f"random binary search tree ({nodes // 2} inserts and as many lookups, "
                f"mixed-size nodes) built and freed; a linked list of {nodes // 2} mixed-size "
                f"records, every third deleted, {nodes // 2 // 3} appended, reversed and "
                f"freed; {nodes // 16} random words of 3..42 letters (strlen, memcpy) joined "
                f"in {nodes // 4} pairs into new strings filed in a hash table (strcmp on "
                f"collisions) and freed. Plus one long-lived tree of {nodes} structs."),
        Program("compute", "Compute-heavy program (bench/generic/compute.c)", COMPUTE_ARGS, 1,
                "4 times: a 200x200 double matrix product (i-k-j), 40 Jacobi steps on a "
                "512x512 grid, a sieve of Eratosthenes to 4,000,000, an LSD radix sort of "
                "2^20 32-bit keys (count arrays on the stack) with 2^19 binary searches, a "
                "histogram and a prefix sum. 36 allocations in all, 35 of them 64 KiB or "
                "more."),
        Program("startup", "Start-up (bench/generic/startup.c)", [], STARTS,
                f"main() makes one small allocation, copies argv[0] into it (strlen, memcpy, "
                f"strcmp), frees it and exits. One sample = {STARTS} starts in a row; the "
                f"table gives the time per start."),
    ]
    for p in progs:
        for v in vs:
            p.exes[v.key] = build(p.name, v)

    # Check and warm up; on the allocation-heavy program, fall back if needed.
    for p in progs:
        bad = check(p, vs, p.args)
        if bad and p.name == "alloc":
            failed = "; ".join(v.short for v in bad)
            p.args = ALLOC_FALLBACK
            p.fallback_note = (
                f"FALLBACK INPUT: with the input as designed ({' '.join(ALLOC_ARGS)}) these "
                f"builds failed: {failed} (see 'Failures'); the other builds passed it. The timed runs below therefore "
                f"use, for EVERY variant, `alloc {' '.join(ALLOC_FALLBACK)}`: the same program "
                f"with every string allocation rounded up to at least 16 bytes (strings of "
                f"3..85 characters; the structs are 16..512 bytes either way). Same "
                f"allocation count and checksum.")
            check(p, vs, p.args)

    # Timed rounds: every program, every variant once per round, order rotated.
    for p in progs:
        p.samples = {v.key: [] for v in vs}
    for r in range(ROUNDS):
        for p in progs:
            for i in range(len(vs)):
                v = vs[(r + i) % len(vs)]
                s = run(p.exes[v.key], p.args, v, p.starts)
                if s.ok and s.out != p.expected:
                    s.ok, s.why = False, "printed other output than the plain build"
                if not s.ok:
                    p.failures.append((v.label, " ".join(p.args) or "(none)", s))
                p.samples[v.key].append(s)
        print(f"  round {r + 1}/{ROUNDS} done, {time.time() - start:.0f} s", file=sys.stderr,
              flush=True)

    emit(f"# ukasan generic-mode benchmarks, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "include",
                            "tools"], capture_output=True, text=True).stdout.strip()
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    emit(f"Commit {head}{' (src/, include/ or tools/ modified)' if dirty else ''}; "
         f"ukasan-cc and the runtime copied from build/ at start. {os.cpu_count()} CPUs, "
         f"Linux {platform.release()}, glibc {platform.libc_ver()[1]}, "
         f"{gcc.splitlines()[0]}; load average at start "
         f"{' '.join(f'{x:.2f}' for x in load_start)}.")
    emit()
    emit(f"Method: each program built {len(vs)} ways (all with {' '.join(CFLAGS)}), each "
         f"build run once untimed (a check and a warm-up), then {ROUNDS} rounds in which "
         f"every build runs once, the order rotated each round. Medians over the rounds; "
         f"ratios are medians of per-round ratios. CPU = user + sys. Peak RSS = "
         f"ru_maxrss. ukasan runs with default options: kasan.quarantine_size=256M, "
         f"KFENCE sampling every 100 ms. ASan runs with ASAN_OPTIONS={ASAN_OPTIONS}. "
         f"Quarantine accounting differs: ukasan counts real memory held (redzones and "
         f"headers included, as the kernel does); ASan counts the bytes the program asked "
         f"for (m->UsedSize()), so at the same 256 MB figure ASan holds back more memory. "
         f"'/ ASan' compares each row with the ASan build of the same compiler, with frame "
         f"pointers (the truncated-stacks row with the ASan gcc row).")
    for n in notes:
        emit(f"Note: {n}")
    emit()

    verdicts = []
    for p in progs:
        emit(f"## {p.title}")
        emit()
        emit(p.describe)
        if p.name == "alloc":
            emit(f"Its output: {p.expected.strip()}.")
        if p.fallback_note:
            emit()
            emit(p.fallback_note)
        emit()
        plain = p.samples["plain"]
        rows = []
        per = p.starts
        for v in vs:
            ss = p.samples[v.key]
            good = [s for s in ss if s.ok]
            ref = p.samples.get(v.ref) if v.ref else None
            wall = med([s.wall / per for s in good])
            cpu = med([s.cpu / per for s in good])
            rss = med([s.rss_mb for s in good])
            unit = 1000 if per > 1 else 1
            rows.append([
                v.label, f"{len(good)}/{len(ss)}",
                fmt(wall and wall * unit, ".3f" if unit == 1 else ".2f"),
                fmt(cpu and cpu * unit, ".3f" if unit == 1 else ".2f"),
                fmt(paired_ratio(ss, plain, "cpu"), ".2f") if v.key != "plain" else "1.00",
                fmt(paired_ratio(ss, ref, "cpu"), ".3f") if ref else "",
                fmt(rss, ".1f"),
                fmt(paired_ratio(ss, ref, "rss_mb"), ".3f") if ref else "",
            ])
        unit_name = "ms per start" if per > 1 else "s"
        emit(table(["Build", "Runs ok", f"Wall {unit_name}", f"CPU {unit_name}",
                    "CPU / plain", "CPU / ASan", "Peak RSS MB", "RSS / ASan"], rows))
        emit()
        # Targets.
        if p.name in ("alloc", "compute"):
            for uk, asan in (("uk-gcc", "asan-gcc"), ("uk-clang", "asan-clang"),
                             ("uk-clang-nr", "asan-clang")):
                if uk not in by_key or asan not in by_key:
                    continue
                what = f"{by_key[uk].short} vs {by_key[asan].short}"
                rc = paired_ratio(p.samples[uk], p.samples[asan], "cpu")
                rr = paired_ratio(p.samples[uk], p.samples[asan], "rss_mb")
                mu = med([s.rss_mb for s in p.samples[uk] if s.ok])
                ma = med([s.rss_mb for s in p.samples[asan] if s.ok])
                suffix = " (fallback input)" if p.fallback_note else ""
                cpu_ok = rc is not None and rc <= TARGET_CPU_VS_ASAN
                rss_ok = rr is not None and mu is not None and ma is not None and mu < ma
                line = (f"- {p.name}{suffix}, {what}: median CPU ratio {fmt(rc, '.3f')} "
                        f"(target <= {TARGET_CPU_VS_ASAN}: {'met' if cpu_ok else 'NOT met'}); "
                        f"peak RSS {fmt(mu, '.1f')} MB vs {fmt(ma, '.1f')} MB, ratio "
                        f"{fmt(rr, '.3f')} (target: lower: {'met' if rss_ok else 'NOT met'})")
                emit(line)
                verdicts.append(line)
            if p.fallback_note:
                line = (f"- {p.name} as designed ({' '.join(ALLOC_ARGS)}): targets NOT met: "
                        f"ukasan failed the run (see 'Failures').")
                emit(line)
                verdicts.append(line)
            emit()
        else:
            for uk, asan in (("uk-gcc", "asan-gcc"), ("uk-clang", "asan-clang")):
                if uk in by_key and asan in by_key:
                    emit(f"- {by_key[uk].short}: start-up CPU "
                         f"{fmt(paired_ratio(p.samples[uk], plain, 'cpu'), '.2f')}x plain, "
                         f"{fmt(paired_ratio(p.samples[uk], p.samples[asan], 'cpu'), '.2f')}x "
                         f"{by_key[asan].short}.")
            emit()

    failures = [(p, f) for p in progs for f in p.failures]
    emit("## Failures")
    emit()
    if not failures:
        emit("None: every run exited 0, printed no memory-error report and the same output "
             "as the plain build.")
    else:
        seen = set()
        for p, (label, args, s) in failures:
            first = next((r for r in s.err.splitlines() if r.strip()), "")
            k = (p.name, label, args, s.why, first)
            count = sum(1 for q, (l2, a2, s2) in failures
                        if (q.name, l2, a2, s2.why,
                            next((r for r in s2.err.splitlines() if r.strip()), "")) == k)
            if k in seen:
                continue
            seen.add(k)
            emit(f"- {p.name} `{args}` under {label}: {s.why} ({count} run(s)); stderr:")
            emit()
            emit(excerpt(s.err))
            emit()
    finish(f"{time.time() - start:.0f} s", RESULTS, OUT)


if __name__ == "__main__":
    main()
