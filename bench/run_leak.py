#!/usr/bin/env python3
"""The leak scan's cost (kmemleak in generic mode), run by `make bench`.

    python3 bench/run_leak.py [--rounds N] [--objects N] [--size S]

bench/leak/heap.c builds a heap of OBJECTS objects of SIZE bytes (by
default 16M x 64 B: 1 GiB asked for), every one reachable, then makes one
leak check on demand (__lsan_do_recoverable_leak_check) and times it from
inside: CPU (user + sys of the process and of its waited-for children, as
LeakSanitizer scans from a cloned task), wall, and the peak RSS (VmHWM)
just before and just after, whose difference is the memory the scan added.
Two shapes: a binary tree (every object found through another object) and
an array of OBJECTS pointers holding them all (the scan's work list then
takes every object at once: its worst case for memory). It exits with
_exit, so no second scan runs at exit.

Built two ways, -O2 -g: ukasan-cc (gcc, default options: kmemleak=on) and
gcc -fsanitize=address -fno-omit-frame-pointer (LeakSanitizer, default
options). Each build and shape runs once untimed at 1/16 of the size (a
check), then ROUNDS rounds, the order of the builds alternated every round
as the machine may be shared and noisy. Reported: medians, and the scan's
CPU time per GiB of heap asked for.

Results go to stdout and are appended to build/bench/results_leak.md.
"""
import os
import platform
import re
import subprocess
import sys
import time

from benchlib import BASE_ENV, emit, finish, fmt, med, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench", "leak")
RESULTS = os.path.join(BUILD, "bench", "results_leak.md")
SRC = os.path.join(ROOT, "bench", "leak", "heap.c")

ROUNDS = 3
OBJECTS = 16 << 20
SIZE = 64
TIMEOUT = 600
LINE_RE = re.compile(r"scan_s ([\d.]+) ([\d.]+) hwm_kb (-?\d+) (-?\d+) build_s ([\d.]+) leaks (\d+)")


def build():
    ukcc = os.path.join(BUILD, "bin", "ukasan-cc")
    if not os.path.exists(ukcc):
        sys.exit("bench: build/bin/ukasan-cc not found: run make first")
    os.makedirs(OUT, exist_ok=True)
    vs = [("ukasan", "ukasan-cc (gcc), kmemleak", [ukcc], {"UKASAN_CC": "gcc"}),
          ("lsan", "gcc -fsanitize=address (LeakSanitizer)",
           ["gcc", "-fsanitize=address", "-fno-omit-frame-pointer"], {})]
    for key, _, cc, env in vs:
        r = subprocess.run([*cc, "-O2", "-g", SRC, "-o", os.path.join(OUT, "heap." + key)],
                           env=dict(BASE_ENV, **env), capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"bench: building heap.c ({key}) failed:\n{r.stderr}")
    return vs


class Sample:
    def __init__(self, why, cpu=0.0, wall=0.0, before=0, after=0, build=0.0, err=""):
        self.ok, self.why = not why, why
        self.cpu, self.wall, self.before, self.after, self.build = cpu, wall, before, after, build
        self.err = err


def run(key, n, size, shape):
    try:
        r = subprocess.run([os.path.join(OUT, "heap." + key), str(n), str(size), shape],
                           env=BASE_ENV, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Sample("timed out")
    m = LINE_RE.search(r.stdout)
    if r.returncode != 0 or not m:
        return Sample(f"exit status {r.returncode}, no result line", err=r.stderr)
    if int(m.group(6)) != 0 or "memory leak" in r.stderr or "LeakSanitizer" in r.stderr:
        return Sample("reported a leak (every object is reachable)", err=r.stderr)
    return Sample("", float(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4)),
                  float(m.group(5)), r.stderr)


def main():
    global ROUNDS, OBJECTS, SIZE
    args = sys.argv[1:]
    while args:
        if len(args) >= 2 and args[0] in ("--rounds", "--objects", "--size") and args[1].isdigit():
            v = int(args[1])
            if args[0] == "--rounds":
                ROUNDS = max(1, v)
            elif args[0] == "--objects":
                OBJECTS = max(1, v)
            else:
                SIZE = max(16, v)
            args = args[2:]
        else:
            sys.exit("usage: run_leak.py [--rounds N] [--objects N] [--size S]")
    start = time.time()
    load_start = os.getloadavg()
    vs = build()
    shapes = ("tree", "array")
    failures = []
    for key, label, _, _ in vs:
        for shape in shapes:
            s = run(key, max(1, OBJECTS // 16), SIZE, shape)
            if not s.ok:
                failures.append((label, shape, "check", s))
    samples = {(k, sh): [] for k, _, _, _ in vs for sh in shapes}
    for r in range(ROUNDS):
        for shape in shapes:
            order = vs if r % 2 == 0 else list(reversed(vs))
            for key, label, _, _ in order:
                s = run(key, OBJECTS, SIZE, shape)
                if not s.ok:
                    failures.append((label, shape, f"round {r + 1}", s))
                samples[(key, shape)].append(s)
        print(f"  round {r + 1}/{ROUNDS} done, {time.time() - start:.0f} s", file=sys.stderr,
              flush=True)

    gib = OBJECTS * SIZE / (1 << 30)
    emit(f"# ukasan leak-scan benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    emit(f"Commit {head}. {os.cpu_count()} CPUs, Linux {platform.release()}, glibc "
         f"{platform.libc_ver()[1]}, {gcc.splitlines()[0]}; load average at start "
         f"{' '.join(f'{x:.2f}' for x in load_start)}.")
    emit()
    emit(f"Method: bench/leak/heap.c, {OBJECTS} objects of {SIZE} bytes ({gib:.2f} GiB asked "
         f"for), all reachable, then one __lsan_do_recoverable_leak_check() timed from "
         f"inside (CPU = user + sys of the process and its waited-for children; extra "
         f"memory = VmHWM after the scan - VmHWM before). {ROUNDS} rounds, the order of the "
         f"builds alternated each round; medians. Both builds -O2 -g, default options.")
    emit()
    rows = []
    for shape in shapes:
        for key, label, _, _ in vs:
            ss = [s for s in samples[(key, shape)] if s.ok]
            cpu = med([s.cpu for s in ss])
            wall = med([s.wall for s in ss])
            before = med([s.before / 1024 for s in ss])
            extra = med([(s.after - s.before) / 1024 for s in ss])
            rows.append([shape, label, f"{len(ss)}/{len(samples[(key, shape)])}",
                         fmt(cpu, ".2f"), fmt(wall, ".2f"), fmt(cpu and cpu / gib, ".2f"),
                         fmt(before, ".0f"), fmt(extra, ".0f"),
                         fmt(med([s.build for s in ss]), ".1f")])
    emit(table(["Heap", "Build", "Runs ok", "Scan CPU s", "Scan wall s", "CPU s per GiB",
                "Peak RSS before MB", "Scan adds MB", "Heap built in s"], rows,
               numeric=r"[-\d./]*|n/a"))
    emit()
    emit("## Failures")
    emit()
    if not failures:
        emit("None: every run found no leak and printed its result.")
    for label, shape, when, s in failures:
        emit(f"- {label}, {shape}, {when}: {s.why}")
        first = next((r for r in s.err.splitlines() if r.strip()), "")
        if first:
            emit(f"    {first}")
    emit()
    finish(f"{time.time() - start:.0f} s", RESULTS)


if __name__ == "__main__":
    main()
