#!/usr/bin/env python3
"""At the default interval, which allocation KFENCE guards first is random
(kfence/sample.c): in 200 runs of a program that makes 1,000 allocations in
its first 20 ms, at least half guard one of them, and at least 100
distinct ones are guarded overall (before, every run guarded the process's
first allocation, the same one). A process that runs on keeps the
kernel's rate, one guarded allocation per interval; with
kfence.process_sample=4 about a quarter of the runs guard anything."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "first_sample")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
os.makedirs(T, exist_ok=True)


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "first_sample: " + name + ("" if good else " - " + str(why)[:1000]))
    sys.stdout.flush()


exe = os.path.join(T, "fs")
r = subprocess.run(["gcc", "-g", "-O1", "-I" + os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "tests", "kfence", "_first_sample.c"), "-o", exe],
                   capture_output=True, text=True)
if r.returncode:
    ok("build", False, r.stderr)
    sys.exit(0)


def run(options, *args):
    env = dict(os.environ, LD_PRELOAD=LIB, UKASAN_OPTIONS=options)
    env.pop("ASAN_OPTIONS", None)
    return subprocess.run([exe] + list(args), capture_output=True, text=True, env=env, timeout=60)


runs = [run("").stdout.split() for _ in range(200)]
bad = [r for r in runs if len(r) != 3]
firsts = [int(r[0]) for r in runs if len(r) == 3]
guarded = [i for i in firsts if i >= 0]
slow = sorted(float(r[2]) for r in runs if len(r) == 3)
ok("200 runs: %d guard one of their 1,000 allocations (at least 100)" % len(guarded),
   not bad and len(guarded) >= 100, bad[:3] or firsts[:20])
ok("200 runs: %d distinct allocations guarded (at least 100)" % len(set(guarded)),
   len(set(guarded)) >= 100, sorted(set(guarded))[:20])
ok("at most one guarded per run in its first interval",
   all(int(r[1]) <= 1 for r in runs if len(r) == 3), [r for r in runs if len(r) == 3 and int(r[1]) > 1][:3])
ok("the 1,000 allocations took %.0f us (median) of the first 20 ms" % slow[len(slow) // 2],
   slow[len(slow) // 2] < 20000, slow[-5:])

# A process that runs on: one guarded allocation per 100 ms interval after
# the first (the window's and the clock's), as the kernel's.
r = run("kfence.stats=1", "long", "650")
stats = dict(l.split(": ", 1) for l in r.stderr.splitlines() if l.startswith("total allocations"))
n = int(stats.get("total allocations", "-1"))
ok("650 ms of allocations: %s guarded (the kernel's rate: 4 to 9)" % n, 4 <= n <= 9,
   (r.stdout, r.stderr[-500:]))

outs = [run("kfence.process_sample=4").stdout.split() for _ in range(120)]
on = sum(1 for o in outs if len(o) == 3 and o[0] != "-1")
ok("kfence.process_sample=4: %d of 120 runs guard one (10..55)" % on, 10 <= on <= 55, outs[:5])
