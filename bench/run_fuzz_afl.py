#!/usr/bin/env python3
"""AFL++ on libyaml's parser: executions per CPU-second, with ukasan, with ASan
and with neither.

    python3 bench/run_fuzz_afl.py [--rounds N (3)] [--seconds S (60)]

The target is tests/fuzz/_afl_yaml.c over libyaml's sources (Debian's source
package, fetched by tests/projects/_debsrc.sh into build/third_party), built
three ways with afl-clang-fast (PCGUARD, -O2 -g), as a user would:

  ukasan   AFL_CC=build/bin/ukasan-cc (docs/fuzzing.md's recipe)
  asan     AFL_USE_ASAN=1
  plain    no sanitizer

Each run is `afl-fuzz -V S -s 1` from libyaml's examples/*.yaml, with
afl-fuzz's defaults otherwise (its own ASAN_OPTIONS); the builds alternate
within each round, their order rotated every round. CPU time is afl-fuzz's
and everything under it (the fork server and every run of the target),
from getrusage(RUSAGE_CHILDREN); executions are fuzzer_stats' execs_done.
Reported: medians over the rounds of execs per CPU-second and per wall
second, the ratio to plain, and the crashes saved: libyaml is clean, so any
crash is a false one. The machine is shared and noisy (2 cores): compare
within a round, not across runs of this script.

Results go to stdout and are appended to build/bench/results_fuzz_afl.md.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import time

from benchlib import emit, finish, fmt, med, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
BASE = os.path.join(BUILD, "bench", "afl")
RESULTS = os.path.join(BUILD, "bench", "results_fuzz_afl.md")
HARNESS = os.path.join(ROOT, "tests", "fuzz", "_afl_yaml.c")
WRAP = os.path.join(BUILD, "bin", "ukasan-cc")
DEFINES = ["-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2", "-DYAML_VERSION_PATCH=5",
           '-DYAML_VERSION_STRING="0.2.5"']
BUILDS = {"ukasan": {"AFL_CC": WRAP}, "asan": {"AFL_USE_ASAN": "1"}, "plain": {}}
# Quiet, bounded runs on a shared machine (no CPU binding), whatever the
# system's core_pattern and governor.
AFL_ENV = {"AFL_NO_UI": "1", "AFL_SKIP_CPUFREQ": "1", "AFL_NO_AFFINITY": "1",
           "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1"}


def libyaml_source():
    env = dict(os.environ, BUILD=BUILD, WORK=BASE)
    r = subprocess.run(["sh", "-c", '. tests/projects/_debsrc.sh; '
                        'debsrc_get libyaml CMakeLists.txt include/yaml.h src/parser.c'],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("libyaml source: " + (r.stdout + r.stderr).strip())
    return r.stdout.strip().splitlines()[-1]


def build(name, src):
    exe = os.path.join(BASE, "yaml-" + name)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AFL_", "UKASAN_"))}
    env.update(BUILDS[name])
    srcs = sorted(os.path.join(src, "src", f) for f in os.listdir(os.path.join(src, "src"))
                  if f.endswith(".c"))
    cmd = (["afl-clang-fast", "-g", "-O2"] + DEFINES + ["-I" + os.path.join(src, "include"),
                                                        HARNESS] + srcs + ["-o", exe])
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"building {name} failed:\n{r.stderr[-2000:]}")
    return exe


def stats(out):
    d = {}
    with open(os.path.join(out, "default", "fuzzer_stats")) as f:
        for line in f:
            k, _, v = line.partition(":")
            d[k.strip()] = v.strip()
    return d


def fuzz(exe, seeds, out, seconds):
    shutil.rmtree(out, ignore_errors=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AFL_", "UKASAN_")) and k not in ("ASAN_OPTIONS",)}
    env.update(AFL_ENV)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(out + ".log", "w") as log:
        subprocess.run(["afl-fuzz", "-i", seeds, "-o", out, "-V", str(seconds), "-s", "1", "--",
                        exe, "@@"], env=env, stdout=log, stderr=subprocess.STDOUT,
                       timeout=seconds + 120)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    s = stats(out)
    return {"execs": int(s["execs_done"]), "cpu": cpu, "wall": wall,
            "crashes": int(s["saved_crashes"]), "hangs": int(s["saved_hangs"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=60)
    a = ap.parse_args()
    for tool in ("afl-fuzz", "afl-clang-fast"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed: sh tools/deps.sh bench")
    if not os.access(WRAP, os.X_OK):
        sys.exit(f"{WRAP} missing: run make first")
    start = time.monotonic()
    os.makedirs(BASE, exist_ok=True)
    src = libyaml_source()
    seeds = os.path.join(BASE, "seeds")
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    for f in os.listdir(os.path.join(src, "examples")):
        if f.endswith(".yaml"):
            shutil.copy(os.path.join(src, "examples", f), seeds)
    exes = {n: build(n, src) for n in BUILDS}
    names = list(BUILDS)
    runs = {n: [] for n in names}
    for r in range(a.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            res = fuzz(exes[n], seeds, os.path.join(BASE, f"out-{n}"), a.seconds)
            runs[n].append(res)
            print(f"round {r + 1} {n}: {res['execs']} execs, {res['cpu']:.1f} s CPU, "
                  f"{res['wall']:.1f} s wall, {res['crashes']} crashes", flush=True)
    emit(f"## AFL++ on libyaml's parser ({time.strftime('%Y-%m-%d %H:%M')}, "
         f"{a.rounds} rounds of {a.seconds} s per build)")
    emit()
    plain = med([x["execs"] / x["cpu"] for x in runs["plain"] if x["cpu"]])
    rows = []
    for n in names:
        per_cpu = med([x["execs"] / x["cpu"] for x in runs[n] if x["cpu"]])
        per_wall = med([x["execs"] / x["wall"] for x in runs[n]])
        rows.append([n, fmt(per_cpu, ".0f"), fmt(per_wall, ".0f"),
                     fmt(per_cpu / plain if per_cpu and plain else None, ".2f"),
                     sum(x["crashes"] for x in runs[n]), sum(x["hangs"] for x in runs[n])])
    emit(table(["build", "execs/CPU-s", "execs/wall-s", "vs plain", "crashes", "hangs"], rows))
    emit()
    emit("Medians over the rounds; crashes and hangs are totals (libyaml is clean: "
         "a crash is a false one). A shared 2-core machine: noisy.")
    finish(f"{time.monotonic() - start:.0f} s", RESULTS)


if __name__ == "__main__":
    main()
