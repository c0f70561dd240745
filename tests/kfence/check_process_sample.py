#!/usr/bin/env python3
"""kfence.process_sample=N: KFENCE is on in a random one of N processes.
200 runs with N=4 must have between 25 and 85 with KFENCE on (expected 50;
outside that range by chance: 4e-6); fork's children keep their
parent's decision, both ways; a program that execs decides again; N=1 (the
default) keeps KFENCE on everywhere; a bad value is named."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "process_sample")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
os.makedirs(T, exist_ok=True)


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "process_sample: " + name + ("" if good else " - " + str(why)[:1000]))
    sys.stdout.flush()


exe = os.path.join(T, "ps")
r = subprocess.run(["gcc", "-g", "-O1", "-I" + os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "tests", "kfence", "_process_sample.c"), "-o", exe],
                   capture_output=True, text=True)
if r.returncode:
    ok("build", False, r.stderr)
    sys.exit(0)


def run(options, *args):
    env = dict(os.environ, LD_PRELOAD=LIB, UKASAN_OPTIONS="kfence.sample_rate=1 " + options)
    env.pop("ASAN_OPTIONS", None)
    return subprocess.run([exe] + list(args), capture_output=True, text=True, env=env, timeout=60)


outs = [run("kfence.process_sample=4").stdout.strip() for _ in range(200)]
on = outs.count("1")
ok("N=4: %d of 200 runs with KFENCE on (25..85)" % on,
   25 <= on <= 85 and on + outs.count("0") == 200, outs[:5])

fork_runs = [run("kfence.process_sample=2", "4").stdout.split() for _ in range(12)]
same = all(len(o) == 5 and all(c == "child=" + o[0] for c in o[1:]) for o in fork_runs)
kinds = set(o[0] for o in fork_runs if o)
ok("fork: children keep the parent's decision (%d runs, decisions %s)" % (len(fork_runs), sorted(kinds)),
   same, fork_runs)

r = run("kfence.process_sample=2", "0", "40")
execs = [w.split("=")[1] for w in r.stdout.split() if w.startswith("exec=")]
ok("exec decides again (40 exec'd children, N=2: both answers)",
   len(execs) == 40 and set(execs) == {"0", "1"}, r.stdout)

outs = [run("").stdout.strip() for _ in range(10)]
ok("default: KFENCE on in every process", outs == ["1"] * 10, outs)

r = run("kfence.process_sample=0")
ok("a bad value is named, the default kept", "kfence.process_sample" in r.stderr and r.stdout.strip() == "1",
   (r.stdout, r.stderr))
