#!/usr/bin/env python3
"""The generic allocator against ASan's on allocator churn, run by `make bench`.

    python3 bench/run_churn.py [--rounds N] [--base DIR[=LABEL]]... [--only NAME]

Three allocation-heavy programs, each built three ways with gcc -O2 -g: plain,
ukasan-cc (generic KASAN, default options) and gcc -fsanitize=address
-fno-omit-frame-pointer (ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=256,
ASan's default quarantine written out):

- bench/generic/churn.c, held out: nothing in the runtime is tuned against
  it. Three threads, each with a live set of 20,000 objects of mixed sizes
  (most 8..128 bytes, some to 2 KiB, one in 256 up to 24 KiB), 1.5M random
  operations each: malloc or calloc, free, realloc, use, and one in 64
  objects handed to another thread, which frees it.
- bench/alloc_heavy.c: one thread building and tearing down a symbol table
  (a hash table, a tree, records grown by realloc), 8..512-byte strings.
- bench/generic/small_churn.c: one thread, 3M malloc/free of 17..48-byte
  objects on 10,000 slots; about 100 MB freed, under the quarantine's
  bound, so what each object costs (header, redzones, glibc's chunk) shows
  in the peak RSS.

ukasan's default options include kmemleak's check at exit, which ASan's
run here does not make (detect_leaks=0); its cost is the scan of the live
set at exit, small here.

--base DIR[=LABEL] (repeatable) adds a build with ukasan-cc and the runtime
of another tree (DIR/build/bin/ukasan-cc; a git worktree of an older commit,
built), for before/after comparisons of the runtime.

The builds run alternately, the order rotated every round, under `nice` equally,
after one untimed run each (a check: every build must print the plain
build's output and no report). CPU time is user + sys, peak RSS is
ru_maxrss, both from wait4(2) in bench/generic/launch.c. Printed: per build
the median and the range (min-max) over the rounds; per ukasan build the
median of the per-round ratios to ASan, and their range. Then, where perf is
installed (linux-perf) and may sample (perf_event_paranoid), where the time
went: one run of the ukasan and the ASan build of the churn under `perf
record -e cpu-clock`, the share of each object (the program with its inline
checks, libukasan.so or libasan, libc, the kernel) and the top functions.
The tables go to stdout and are appended to build/bench/results_churn.md.
"""
import os
import re
import shutil
import subprocess
import sys
import time

from benchlib import (BASE_ENV, build_launcher, copy_runtime, emit, excerpt, finish, fmt, launch,
                      med, table)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench", "churn")
RESULTS = os.path.join(BUILD, "bench", "results_churn.md")
CFLAGS = ["-O2", "-g"]
ASAN_OPTIONS = "detect_leaks=0:quarantine_size_mb=256"
TIMEOUT = 300
ROUNDS = 7
# The targets, ukasan / ASan on the held-out churn.
TARGET_CPU, TARGET_RSS = 0.80, 0.75

PROGRAMS = [
    ("churn", os.path.join(ROOT, "bench", "generic", "churn.c"), ["3", "1500000", "20000"],
     ["-pthread"]),
    ("alloc_heavy", os.path.join(ROOT, "bench", "alloc_heavy.c"), ["20", "20000"], []),
    ("small_churn", os.path.join(ROOT, "bench", "generic", "small_churn.c"),
     ["3000000", "10000", "17", "48"], []),
]

REPORT_RE = re.compile(r"BUG: KASAN|BUG: KFENCE|ERROR: AddressSanitizer|ERROR: LeakSanitizer"
                       r"|unreferenced object", re.M)



def build(compiler, src, exe, extra, env=None):
    cmd = [compiler, *CFLAGS, src, "-o", exe, *extra]
    r = subprocess.run(cmd, env=dict(BASE_ENV, **(env or {})), capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stderr}")
    return exe


def profile(label, exe, argv, renv):
    """Where one run's CPU time went, by perf's cpu-clock samples: the
    share of each object and the top functions. None when perf cannot."""
    if not shutil.which("perf"):
        return None
    data = os.path.join(OUT, "perf.data")
    env = dict(BASE_ENV, **renv)
    r = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", data, exe, *argv],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        return None

    def report(sort, n):
        out = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                              "--sort", sort, "-g", "none", "--percent-limit", "0.5"],
                             capture_output=True, text=True).stdout
        rows = []
        for line in out.splitlines():
            m = re.match(r"\s*([\d.]+)%\s+(?:\[[.k]\]\s+)?(\S+)", line)
            if m and not line.lstrip().startswith("#"):
                rows.append((float(m.group(1)), m.group(2)))
        return rows[:n]

    dsos, syms = report("dso", 6), report("symbol", 14)
    os.remove(data)
    return (f"{label}: " + ", ".join(f"{name} {pct:.0f}%" for pct, name in dsos),
            ", ".join(f"{name} {pct:.1f}%" for pct, name in syms))


def main():
    global ROUNDS
    args = sys.argv[1:]
    bases, only = [], None
    while args:
        if args[0] == "--rounds" and len(args) > 1 and args[1].isdigit():
            ROUNDS, args = max(1, int(args[1])), args[2:]
        elif args[0] == "--base" and len(args) > 1:
            d, _, label = args[1].partition("=")
            bases.append((os.path.abspath(d), label or f"base {len(bases) + 1}"))
            args = args[2:]
        elif args[0] == "--only" and len(args) > 1:
            only, args = args[1], args[2:]
        else:
            sys.exit("usage: run_churn.py [--rounds N] [--base DIR[=LABEL]]... [--only NAME]")
    start = time.time()
    load_start = os.getloadavg()
    os.makedirs(OUT, exist_ok=True)
    ukcc = copy_runtime(os.path.join(ROOT, "build"), os.path.join(OUT, "this"))
    launcher = build_launcher(OUT)
    builds = [("plain", "gcc", [], {}, {}),
              ("ukasan", ukcc, [], {"UKASAN_CC": "gcc"}, {}),
              ("ASan", "gcc", ["-fsanitize=address", "-fno-omit-frame-pointer"], {},
               {"ASAN_OPTIONS": ASAN_OPTIONS})]
    def commit(tree):
        return subprocess.run(["git", "-C", tree, "log", "-1", "--format=%h"],
                              capture_output=True, text=True).stdout.strip() or "?"

    for i, (d, label) in enumerate(bases):
        bcc = copy_runtime(os.path.join(d, "build"), os.path.join(OUT, f"base{i}"))
        builds.insert(2 + i, (f"ukasan ({label})", bcc, [], {"UKASAN_CC": "gcc"}, {}))
    head = commit(ROOT)
    emit(f"# Allocator churn: ukasan against ASan, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    based = "".join(f"; {label}: {commit(d)}" for d, label in bases)
    emit(f"Commit {head}{based}. {os.cpu_count()} "
         f"CPUs, load average at start {' '.join(f'{x:.2f}' for x in load_start)}. "
         f"{ROUNDS} rounds, builds alternating, order rotated each round, all at the same "
         f"nice level. ASAN_OPTIONS={ASAN_OPTIONS}; ukasan at its defaults. Median "
         f"[min-max] over the rounds; ratios are per round, their median [min-max].")
    emit()
    verdicts, failures = [], []
    for name, src, argv, extra in PROGRAMS:
        if only and name != only:
            continue
        exes = []
        for label, cc, flags, benv, renv in builds:
            key = re.sub(r"\W+", "_", label)
            exes.append((label, build(cc, src, os.path.join(OUT, f"{name}.{key}"),
                                      flags + extra, benv), renv))
        runs = {label: [] for label, _, _ in exes}
        expected = None
        for r in range(ROUNDS + 1):  # round 0: the untimed check
            for i in range(len(exes)):
                label, exe, renv = exes[(r + i) % len(exes)]
                why, out, err, wall, cpu, rss = launch(launcher, OUT, exe, argv,
                                                       dict(BASE_ENV, **renv), 1, TIMEOUT)
                if not why and REPORT_RE.search(err):
                    why = "printed a report"
                if not why and label == "plain" and expected is None:
                    expected = out
                if not why and expected is not None and out != expected:
                    why = "printed other output than the plain build"
                if why and (not r or label == "plain"):
                    sys.exit(f"bench: {name} under {label}: {why}\n{err[-2000:]}")
                if why:  # counted and shown, the round left out of its figures
                    failures.append((name, label, why, excerpt(err)))
                if r:
                    runs[label].append(None if why else (cpu, rss / 1024, wall))
            if r:
                print(f"  {name}: round {r}/{ROUNDS}, {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
        emit(f"## {name} {' '.join(argv)} ({os.path.relpath(src, ROOT)})")
        emit()
        asan = runs["ASan"]

        def spread(xs, spec):
            return f"{fmt(med(xs), spec)} [{fmt(min(xs), spec)}-{fmt(max(xs), spec)}]"

        rows = []
        for label, _, _ in exes:
            xs = [x for x in runs[label] if x]
            both = [(a, b) for a, b in zip(runs[label], asan) if a and b]
            row = [label, spread([x[0] for x in xs], ".2f"), spread([x[1] for x in xs], ".0f")]
            if label.startswith("ukasan"):
                rc = [a[0] / b[0] for a, b in both]
                rr = [a[1] / b[1] for a, b in both]
                row += [spread(rc, ".3f"), spread(rr, ".3f")]
                if name == "churn":
                    ok = med(rc) <= TARGET_CPU and med(rr) <= TARGET_RSS
                    verdicts.append(f"- churn, {label} / ASan: CPU {med(rc):.3f}, peak RSS "
                                    f"{med(rr):.3f} (targets <= {TARGET_CPU} and <= "
                                    f"{TARGET_RSS}: {'met' if ok else 'NOT met'})")
            else:
                row += ["", ""]
            rows.append(row)
        emit(table(["Build", "CPU s", "Peak RSS MB", "CPU / ASan", "RSS / ASan"], rows,
                   numeric=r"[-\d.\[\] ]*"))
        emit()
        if name == "churn":
            prof = [profile(label, exe, argv, renv) for label, exe, renv in exes
                    if label in ("ukasan", "ASan")]
            if all(prof):
                emit("Where the time went (one run each, perf record -e cpu-clock; "
                     "the program's share includes its inline checks):")
                emit()
                for by_object, top in prof:
                    emit(f"- {by_object}. Top functions: {top}.")
                emit()
            else:
                emit("(No profile: perf is not installed or may not sample here.)")
                emit()
    for v in verdicts:
        emit(v)
    if verdicts:
        emit()
    emit("Failed timed runs (left out of the figures above): "
         f"{len(failures) or 'none'}{'.' if not failures else ':'}")
    for name, label, why, err in failures:
        emit(f"- {name} under {label}: {why}; stderr:")
        emit()
        emit(err)
    emit()
    finish(f"{time.time() - start:.0f} s", RESULTS, OUT)


if __name__ == "__main__":
    main()
