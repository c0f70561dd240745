#!/usr/bin/env python3
"""Seed-shaped benchmarks (issue 10): the workloads of the seeds' own
measurements, rebuilt in user space, run side by side in one run.

    python3 bench/run_seeds.py [--rounds N] [--quick] [--only NAME]

NAME: vmalloc (both modes and thread counts), vmalloc-t1, vmalloc-t2,
vmalloc-pages (every page written, both thread counts), vmalloc-pages-t1,
vmalloc-pages-t2, loopback, readv, pipes or startup. --quick = 1 round.

Programs (bench/seeds/, and bench/generic/startup.c):
- vmalloc: test_vmalloc.sh's eight tests (seed 000) over page-multiple
  malloc/posix_memalign/free, at --threads 1 and --threads 2, writing one
  byte of each object (the seed's) and, as vmalloc-pages, every page of it
  (--touch pages, issue 25); then the ratio of 2 threads to 1 per build.
- loopback: seed 003's loopback test, 32 KiB messages in fresh heap
  buffers over TCP on 127.0.0.1; ukasan also with
  kasan.page_alloc.sample=1 and =10.
- readv, pipes: shaped like seed 001's bench_readv and bench_pipes.
- startup: bench/generic/startup.c, STARTS starts per sample.

Each is built three ways, all -O2 -g: plain gcc (glibc's allocator); gcc
ASan (-fsanitize=address -fno-omit-frame-pointer, run with
ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=256); ukasan-cc with gcc,
inline (run with its default options, plus the UKASAN_OPTIONS variants
named above). Every variant first runs once untimed (a check and a
warm-up); then, ROUNDS times, every variant once, the order rotated each
round. Medians over rounds; ratios are medians of per-round ratios. Wall,
CPU (user + sys; sys also alone) and peak RSS (ru_maxrss) come from wait4(2) in
bench/generic/launch.c; the vmalloc per-test times and the loopback
throughput from the programs' own output.

A run fails when it exits non-zero or is killed, prints anything on stderr
(except, for the kasan.page_alloc.sample variants, lines that start with
"ukasan:", which are shown) or prints other results than the plain build.
Failures are reported, never hidden.

The seeds' own figures are printed beside ours, labelled as the seeds'
(the kernel's, on their machines): nothing of theirs is ours.

Tables go to stdout and are appended to build/bench/results_seeds.md; the
vmalloc tables are also drawn (bench/charts.py, gnuplot) as SVG charts in
build/bench/.
"""
import functools
import os
import platform
import re
import subprocess
import sys
import time

import charts
from benchlib import (BASE_ENV, attr, build_launcher, copy_runtime, emit, excerpt, finish, fmt,
                      launch_sys, med, paired, table)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "bench", "seeds")
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench", "seeds")
RESULTS = os.path.join(BUILD, "bench", "results_seeds.md")

ROUNDS = 5
LONG_ROUNDS = 3  # for the vmalloc runs, seconds each under the sanitizers
STARTS = 50
TIMEOUT = 180
CFLAGS = ["-std=gnu11", "-O2", "-g", "-pthread"]
ASAN_OPTIONS = "detect_leaks=0:quarantine_size_mb=256"

VMALLOC_LOOPS = 20000
LOOPBACK_BYTES = 2000000000
READV_ITERS = 30000  # seed 001: 300000
PIPES_ARGS = ["10", "10000", "1"]  # as seed 001

REPORT_RE = re.compile(r"BUG: KASAN|BUG: KFENCE|ERROR: AddressSanitizer|AddressSanitizer:"
                       r"|^\S+\(\): |double free|corrupted|Segmentation fault", re.M)

# The seeds' figures, exactly as their texts have them.
TEST_NAMES = ["fix_size", "full_fit", "long_busy_list", "random_size", "fix_align",
              "random_size_align", "align_shift", "pcpu"]
SEED000_NAMES = ["fix_size_alloc_test", "full_fit_alloc_test", "long_busy_list_alloc_test",
                 "random_size_alloc_test", "fix_align_alloc_test", "random_size_align_alloc_te",
                 "align_shift_alloc_test", "pcpu_alloc_test"]
# (KASAN original x baseline, KASAN vmalloc x baseline) per test, then Total Cycles.
SEED000_PERF = [("17.23", "28.92"), ("16.92", "18.55"), ("4.66", "8.80"), ("4.58", "9.37"),
                ("12.20", "24.96"), ("8.84", "15.51"), ("5.65", "38.72"), ("1.55", "1.74"),
                ("6.40", "11.66")]
# "Sequential, 2 cpus": the seed gives two runs; both shown, "run 1 / run 2".
SEED000_SEQ2 = [("10.03", "10.06", "19.49", "19.56"), ("8.39", "8.53", "8.57", "8.80"),
                ("4.55", "4.58", "9.34", "9.43"), ("4.46", "4.43", "11.50", "11.42"),
                ("9.83", "9.91", "24.62", "24.65"), ("6.29", "6.30", "13.55", "13.53"),
                ("15.87", "7.97", "64.82", "20.46"), ("1.19", "1.12", "1.70", "1.23"),
                ("5.70", "5.72", "12.01", "12.05")]


class Variant:
    def __init__(self, key, label, build, run_env=None, tolerate_ukasan=False):
        self.key, self.label, self.build = key, label, build
        self.run_env = run_env or {}
        self.tolerate_ukasan = tolerate_ukasan


def variants():
    uk_s = lambda n: Variant(f"uk-s{n}", f"ukasan-cc, UKASAN_OPTIONS=kasan.page_alloc.sample={n}",
                             "uk", {"UKASAN_OPTIONS": f"kasan.page_alloc.sample={n}"},
                             tolerate_ukasan=True)
    return {
        "plain": Variant("plain", "glibc: gcc -O2 -g", "plain"),
        "asan": Variant("asan", "ASan: gcc -fsanitize=address -fno-omit-frame-pointer", "asan",
                        {"ASAN_OPTIONS": ASAN_OPTIONS}),
        "uk": Variant("uk", "ukasan-cc (gcc, inline), default options", "uk"),
        "uk-s1": uk_s(1),
        "uk-s10": uk_s(10),
    }


class Sample:
    def __init__(self, ok, why, wall, cpu, rss_kb, out, err, notes, sys_s=0.0):
        self.ok, self.why = ok, why
        self.wall, self.cpu, self.rss_mb = wall, cpu, rss_kb / 1024
        self.sys, self.user = sys_s, cpu - sys_s
        self.out, self.err, self.notes = out, err, notes
        self.values = {}  # parsed from the program's output


def run(exe, args, variant, starts=1):
    why, out, err, wall, cpu, rss, sys_s = launch_sys(os.path.join(OUT, "launch"), OUT, exe,
                                                      args, dict(BASE_ENV, **variant.run_env),
                                                      starts, TIMEOUT)
    lines = [r for r in err.splitlines() if r.strip()]
    notes = [r for r in lines if variant.tolerate_ukasan and r.startswith("ukasan:")]
    if not why and REPORT_RE.search(err):
        why = "printed a memory-error report"
    elif not why and len(notes) < len(lines):
        why = "printed on stderr"
    return Sample(not why, why, wall, cpu, rss, out, err, notes, sys_s)


def build(name, src, vkey, ukcc):
    exe = os.path.join(OUT, f"{name}.{vkey}")
    env = dict(BASE_ENV)
    if vkey == "plain":
        cmd = ["gcc", *CFLAGS]
    elif vkey == "asan":
        cmd = ["gcc", *CFLAGS, "-fsanitize=address", "-fno-omit-frame-pointer"]
    else:
        cmd = [ukcc, *CFLAGS]
        env.update(UKASAN_CC="gcc", UKASAN_INSTRUMENT="inline")
    cmd += ["-Wall", "-Wextra", src, "-o", exe]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        sys.exit(f"bench: building {name} ({vkey}) failed or warned:\n{' '.join(cmd)}\n"
                 f"{r.stderr}")
    return exe


def prepare():
    """Copies ukasan-cc and the runtime, so that a rebuild while this runs
    does not change what is measured, and builds the launcher."""
    build_launcher(OUT)
    return copy_runtime(BUILD, OUT)


# --- parsing the programs' output -------------------------------------------------

def parse_vmalloc(out):
    vals = {}
    for line in out.splitlines():
        m = re.fullmatch(r"(\w+) (\d+)", line.strip())
        if m:
            vals[m.group(1)] = float(m.group(2))
    return vals


def parse_loopback(out):
    vals = {}
    m = re.search(r"^bytes (\d+)$", out, re.M)
    if m:
        vals["bytes"] = float(m.group(1))
    m = re.search(r"^throughput ([\d.]+) MB/s$", out, re.M)
    if m:
        vals["mbps"] = float(m.group(1))
    return vals


def shape_vmalloc(out):
    """What must match the plain build: the tests that ran, not their times."""
    return " ".join(parse_vmalloc(out))


def shape_loopback(out):
    return re.sub(r"throughput [\d.]+", "throughput X", out)


# --- reporting -------------------------------------------------------------------

table = functools.partial(table, numeric=r"[-+\d.x?%/ ]*|n/a")


def value(name):
    return lambda s: s.values.get(name)


# --- the benchmarks ---------------------------------------------------------------

class Bench:
    def __init__(self, key, title, src, exe_name, args, vkeys, rounds, describe, starts=1,
                 parse=None, shape=None):
        self.key, self.title, self.src, self.exe_name = key, title, src, exe_name
        self.args, self.vkeys, self.rounds, self.describe = args, vkeys, rounds, describe
        self.starts, self.parse, self.shape = starts, parse, shape or (lambda o: o)
        self.samples = {k: [] for k in vkeys}
        self.failures = []
        self.notes = {}
        self.expected = None


def sample(b, vs, vkey, exes):
    v = vs[vkey]
    s = run(exes[(b.exe_name, v.build)], b.args, v, b.starts)
    if s.ok and b.expected is not None and b.shape(s.out) != b.expected:
        s.ok, s.why = False, "printed other results than the plain build"
    if s.ok and b.parse:
        s.values = b.parse(s.out)
    for n in s.notes:
        b.notes.setdefault(vkey, set()).add(n)
    if not s.ok:
        b.failures.append((v.label, s))
    return s


def vmalloc_section(b, vs):
    threads = b.args[1]
    pages = "pages" in b.args
    emit(f"## {b.title}")
    emit()
    emit(b.describe)
    emit()
    plain = b.samples["plain"]
    seed2 = threads == "2" and not pages
    heads = ["Test", "glibc usec", "ASan usec", "ASan x glibc", "ukasan usec",
             "ukasan x glibc", "ukasan x ASan"]
    if seed2:
        heads += ["seed: KASAN original x baseline (run 1 / run 2)",
                  "seed: KASAN vmalloc x baseline (run 1 / run 2)"]
    else:
        heads += ["seed: KASAN original x baseline", "seed: KASAN vmalloc x baseline"]
    rows = []
    for i, name in enumerate(TEST_NAMES + ["total"]):
        get = value(name)
        m = {k: med([get(s) for s in b.samples[k] if s.ok and get(s) is not None])
             for k in ("plain", "asan", "uk")}
        seedname = SEED000_NAMES[i] if i < len(SEED000_NAMES) else "Total Cycles"
        row = [f"{name} ({seedname})", fmt(m["plain"], ".0f"), fmt(m["asan"], ".0f"),
               fmt(paired(b.samples["asan"], plain, get), ".2f"), fmt(m["uk"], ".0f"),
               fmt(paired(b.samples["uk"], plain, get), ".2f"),
               fmt(paired(b.samples["uk"], b.samples["asan"], get), ".2f")]
        if pages:
            row = row[:7]
        elif seed2:
            o1, o2, v1, v2 = SEED000_SEQ2[i]
            row += [f"{o1} / {o2}", f"{v1} / {v2}"]
        else:
            row += list(SEED000_PERF[i])
        rows.append(row)
    if pages:
        heads = heads[:7]
    emit(table(heads, rows))
    emit()
    process_table(b, vs)


def process_table(b, vs, per=1, unit="s", scale=1.0, digits=".3f"):
    plain = b.samples["plain"]
    rows = []
    for k in b.vkeys:
        ss = b.samples[k]
        good = [s for s in ss if s.ok]
        x = lambda a: "1.00" if k == "plain" else fmt(paired(ss, plain, attr(a)), ".2f")
        rows.append([vs[k].label, f"{len(good)}/{len(ss)}",
                     fmt(med([s.wall / per * scale for s in good]), digits), x("wall"),
                     fmt(med([s.cpu / per * scale for s in good]), digits), x("cpu"),
                     fmt(med([s.user / per * scale for s in good]), digits),
                     fmt(med([s.sys / per * scale for s in good]), digits), x("sys"),
                     fmt(med([s.rss_mb for s in good]), ".1f"), x("rss_mb")])
    emit(table(["Build", "Runs ok", f"Wall {unit}", "Wall x glibc", f"CPU {unit}",
                "CPU x glibc", f"User {unit}", f"Sys {unit}", "Sys x glibc", "Peak RSS MB",
                "RSS x glibc"], rows))
    emit()


def scaling_section(benches, vs):
    """Time with 2 threads over time with 1, per build and mode: each thread
    does the same loops, so 2.00 is what two CPUs doing twice the work in
    the same time would show as 1.00 of wall time and 2.00 of CPU time."""
    by = {b.key: b for b in benches}
    rows = []
    for mode, t1, t2 in (("one byte", "vmalloc-t1", "vmalloc-t2"),
                         ("every page", "vmalloc-pages-t1", "vmalloc-pages-t2")):
        if t1 not in by or t2 not in by:
            continue
        for k in by[t1].vkeys:
            a, b = by[t2].samples[k], by[t1].samples[k]
            rows.append([mode, vs[k].label, fmt(paired(a, b, attr("wall")), ".2f"),
                         fmt(paired(a, b, attr("cpu")), ".2f"),
                         fmt(paired(a, b, attr("sys")), ".2f")])
    if not rows:
        return
    emit("## test_vmalloc.sh shapes: two threads against one")
    emit()
    emit("Per build, the median of per-round ratios of `--threads 2` to `--threads 1` "
         "(each thread does the whole loop count, so two threads do twice the work: "
         "wall 1.00 and CPU 2.00 would be perfect scaling on two free CPUs).")
    emit()
    emit(table(["Mode", "Build", "Wall 2t / 1t", "CPU 2t / 1t", "Sys 2t / 1t"], rows))
    emit()


def loopback_section(b, vs):
    emit(f"## {b.title}")
    emit()
    emit(b.describe)
    emit()
    plain = b.samples["plain"]
    seed = {"plain": "", "asan": "",
            "uk": "~50% slowdown (HW_TAGS KASAN, no sampling)",
            "uk-s1": "no figure (sample=1 tags every allocation: its unsampled case)",
            "uk-s10": "~20% slowdown (sample=10, order 3)"}
    rows = []
    for k in b.vkeys:
        ss = b.samples[k]
        good = [s for s in ss if s.ok]
        thr = paired(ss, plain, value("mbps"))
        rows.append([vs[k].label, f"{len(good)}/{len(ss)}",
                     fmt(med([s.values.get("mbps") for s in good if "mbps" in s.values]), ".0f"),
                     "1.00" if k == "plain" else fmt(thr, ".2f"),
                     "0%" if k == "plain" else (f"{(1 / thr - 1) * 100:+.0f}%" if thr else "n/a"),
                     fmt(med([s.cpu for s in good]), ".3f"),
                     "1.00" if k == "plain" else fmt(paired(ss, plain, attr("cpu")), ".2f"),
                     fmt(med([s.rss_mb for s in good]), ".1f"),
                     "1.00" if k == "plain" else fmt(paired(ss, plain, attr("rss_mb")), ".2f"),
                     seed[k]])
    emit(table(["Build", "Runs ok", "MB/s", "MB/s x glibc", "slowdown (time)", "CPU s",
                "CPU x glibc", "Peak RSS MB", "RSS x glibc",
                "seed 003 (kernel, MTE device, sync mode)"], rows))
    emit()
    for k, ns in b.notes.items():
        emit(f"stderr of '{vs[k].label}' (tolerated): " + "; ".join(sorted(ns)))
    if b.notes:
        emit()


def syscall_section(b, vs, seed_text):
    emit(f"## {b.title}")
    emit()
    emit(b.describe)
    emit()
    process_table(b, vs)
    emit(seed_text)
    emit()


def main():
    global ROUNDS, LONG_ROUNDS
    args = sys.argv[1:]
    only = None
    rounds = None
    while args:
        a = args.pop(0)
        if a == "--quick":
            rounds = 1
        elif a == "--rounds" and args and args[0].isdigit():
            rounds = max(1, int(args.pop(0)))
        elif a == "--only" and args:
            only = args.pop(0)
        else:
            sys.exit("usage: run_seeds.py [--rounds N] [--quick] [--only NAME]")
    if rounds is not None:
        ROUNDS = LONG_ROUNDS = rounds
    start = time.time()
    load_start = os.getloadavg()
    ukcc = prepare()
    vs = variants()
    three = ["plain", "asan", "uk"]
    plain_exe = os.path.join(OUT, "readv.plain")
    benches = [
        Bench("vmalloc-t1", "test_vmalloc.sh shapes, 1 thread (bench/seeds/vmalloc.c)",
              os.path.join(SRC, "vmalloc.c"), "vmalloc",
              ["--threads", "1", "--loops", str(VMALLOC_LOOPS)], three,
              LONG_ROUNDS,
              f"`vmalloc --threads 1` (loops {VMALLOC_LOOPS}): per test, the median wall time "
              f"(usec) and the median of per-round ratios. Beside it, seed 000's "
              f"'Performance' table (test_vmalloc.sh on an x86 VM with 2 vCPUs: the "
              f"kernel's figures on its machine), its ratios as printed: 'KASAN original' is KASAN "
              f"before vmalloc shadow, 'KASAN vmalloc' with it, both against no KASAN.",
              parse=parse_vmalloc, shape=shape_vmalloc),
        Bench("vmalloc-t2", "test_vmalloc.sh shapes, 2 threads (bench/seeds/vmalloc.c)",
              os.path.join(SRC, "vmalloc.c"), "vmalloc",
              ["--threads", "2", "--loops", str(VMALLOC_LOOPS)], three,
              LONG_ROUNDS,
              "`vmalloc --threads 2`: each test in 2 threads at once. Beside it, seed 000's "
              "'Sequential, 2 cpus' tables (sequential_test_order=1, both CPUs at once; "
              "the seed prints two runs, shown as run 1 / run 2).",
              parse=parse_vmalloc, shape=shape_vmalloc),
        Bench("vmalloc-pages-t1", "test_vmalloc.sh shapes, every page written, 1 thread "
              "(bench/seeds/vmalloc.c --touch pages)",
              os.path.join(SRC, "vmalloc.c"), "vmalloc",
              ["--threads", "1", "--loops", str(VMALLOC_LOOPS), "--touch", "pages"], three,
              LONG_ROUNDS,
              "`vmalloc --threads 1 --touch pages`: the same shapes, but every page of each "
              "object is written, as programs write what they allocate (issue 25): what an "
              "allocator does with freed pages, keep them warm or give them back and fault "
              "them in again, shows here. No seed figures: the kernel's test writes one byte.",
              parse=parse_vmalloc, shape=shape_vmalloc),
        Bench("vmalloc-pages-t2", "test_vmalloc.sh shapes, every page written, 2 threads "
              "(bench/seeds/vmalloc.c --touch pages)",
              os.path.join(SRC, "vmalloc.c"), "vmalloc",
              ["--threads", "2", "--loops", str(VMALLOC_LOOPS), "--touch", "pages"], three,
              LONG_ROUNDS,
              "`vmalloc --threads 2 --touch pages`: each test in 2 threads at once, every page "
              "of each object written.",
              parse=parse_vmalloc, shape=shape_vmalloc),
        Bench("loopback", "Loopback TCP, 32 KiB messages (bench/seeds/loopback.c)",
              os.path.join(SRC, "loopback.c"), "loopback", ["--bytes", str(LOOPBACK_BYTES)],
              ["plain", "asan", "uk", "uk-s1", "uk-s10"], ROUNDS,
              f"`loopback --bytes {LOOPBACK_BYTES}`: a sender and a receiver thread over TCP "
              f"on 127.0.0.1, every 32 KiB message in a fresh malloc'd buffer on both sides. "
              f"Throughput from the program's wall time; 'slowdown' = glibc's throughput / "
              f"this build's - 1 (time taken). The kasan.page_alloc.sample variants run the "
              f"same ukasan build. Beside it, seed 003's figures (Hardware Tag-Based KASAN "
              f"on an MTE device, sync mode, against no KASAN; the seed gives no numbers "
              f"but these).",
              parse=parse_loopback, shape=shape_loopback),
        Bench("readv", "preadv into 1024 one-byte iovecs (bench/seeds/readv.c)",
              os.path.join(SRC, "readv.c"), "readv", [plain_exe, str(READV_ITERS), "1"], three,
              ROUNDS,
              f"`readv <the plain readv binary> {READV_ITERS} 1` (seed 001 ran `bench_readv "
              f"bench_readv 300000 1`: a tenth of its iterations here): each call scatters "
              f"the file's first 1024 bytes one byte at a time over stack and heap "
              f"buffers."),
        Bench("pipes", "Pipes in a ring (bench/seeds/pipes.c)", os.path.join(SRC, "pipes.c"),
              "pipes", PIPES_ARGS, three, ROUNDS,
              f"`pipes {' '.join(PIPES_ARGS)}` (as seed 001 ran bench_pipes): every round "
              f"opens 10 pipes, passes a 16-byte message round them (fresh heap buffer per "
              f"read) and closes them."),
        Bench("startup", "Start-up (bench/generic/startup.c)",
              os.path.join(ROOT, "bench", "generic", "startup.c"), "startup", [], three, ROUNDS,
              f"A program that makes one small allocation and exits; one sample = "
              f"{STARTS} starts; times per start.", starts=STARTS),
    ]
    if only:
        benches = [b for b in benches if b.key == only or b.key.startswith(only + "-")]
        if not benches:
            sys.exit(f"bench: no benchmark named {only}")

    exes = {}
    for b in benches:
        for k in b.vkeys:
            bk = vs[k].build
            if (b.exe_name, bk) not in exes:
                exes[(b.exe_name, bk)] = build(b.exe_name, b.src, bk, ukcc)
    if any(b.key == "readv" for b in benches) and ("readv", "plain") not in exes:
        exes[("readv", "plain")] = build("readv", os.path.join(SRC, "readv.c"), "plain", ukcc)

    # Check and warm up: the plain build first, as the reference output.
    for b in benches:
        s = sample(b, vs, "plain", exes)
        if not s.ok:
            sys.exit(f"bench: the plain build of {b.key} failed ({s.why}):\n{s.err}")
        b.expected = b.shape(s.out)
        for k in b.vkeys[1:]:
            sample(b, vs, k, exes)
        print(f"  checked {b.key}, {time.time() - start:.0f} s", file=sys.stderr, flush=True)

    for r in range(max(b.rounds for b in benches)):
        for b in benches:
            if r >= b.rounds:
                continue
            n = len(b.vkeys)
            for i in range(n):
                k = b.vkeys[(r + i) % n]
                b.samples[k].append(sample(b, vs, k, exes))
        print(f"  round {r + 1} done, {time.time() - start:.0f} s", file=sys.stderr,
              flush=True)

    emit(f"# ukasan seed-shaped benchmarks (issue 10), {time.strftime('%Y-%m-%d %H:%M:%S')}")
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
    emit(f"Method: built with gcc {' '.join(CFLAGS)} (glibc), the same with "
         f"-fsanitize=address -fno-omit-frame-pointer (ASan, ASAN_OPTIONS={ASAN_OPTIONS}), "
         f"and ukasan-cc (gcc, inline; default options unless named). Each build runs once "
         f"untimed, then {ROUNDS} rounds ({LONG_ROUNDS} for vmalloc) of one run per build, "
         f"order rotated every round. Medians over rounds; ratios are medians of per-round "
         f"ratios. CPU = user + sys, peak RSS = ru_maxrss, from wait4. The seeds' columns "
         f"are the kernel's figures on the seeds' machines, copied from their texts: "
         f"context, not measurements of ours.")
    emit()
    for b in benches:
        if b.key.startswith("vmalloc"):
            vmalloc_section(b, vs)
            if b.key == "vmalloc-pages-t2":
                scaling_section(benches, vs)
        elif b.key == "loopback":
            loopback_section(b, vs)
        elif b.key == "readv":
            syscall_section(b, vs, "Seed 001 (the kernel's, on its machine; KASAN inline with "
                            "the proposed per-page shadow against KASAN before it, `time` "
                            "sys of bench_readv bench_readv 300000 1): ~7.0 s before, ~8.2 s "
                            "after, a ~19% slowdown.")
        elif b.key == "pipes":
            syscall_section(b, vs, "Seed 001 (the kernel's, on its machine; KASAN inline with "
                            "the proposed per-page shadow against KASAN before it, `time` "
                            "sys of bench_pipes 10 10000 1): ~5.6 s before, ~8.4 s after, a "
                            "~52% slowdown.")
        else:
            emit(f"## {b.title}")
            emit()
            emit(b.describe)
            emit()
            process_table(b, vs, per=b.starts, unit="ms per start", scale=1000, digits=".2f")

    emit("## Failures")
    emit()
    if not any(b.failures for b in benches):
        emit("None: every run exited 0, printed nothing on stderr (but the tolerated "
             "'ukasan:' lines shown above) and the same results as the plain build.")
    for b in benches:
        seen = {}
        for label, s in b.failures:
            first = next((r for r in s.err.splitlines() if r.strip()), "")
            k = (label, s.why, first)
            if k in seen:
                seen[k][1] += 1
            else:
                seen[k] = [s, 1]
        for (label, why, _), (s, count) in seen.items():
            emit(f"- {b.key} `{' '.join(b.args)}` under {label}: {why} ({count} run(s)); "
                 f"stderr:")
            emit()
            emit(excerpt(s.err))
            emit()
    for path in charts.seeds(benches, os.path.join(BUILD, "bench"), TEST_NAMES):
        emit(f"Chart: {os.path.relpath(path, ROOT)}")
    emit()
    finish(f"{time.time() - start:.0f} s", RESULTS, OUT)


if __name__ == "__main__":
    main()
