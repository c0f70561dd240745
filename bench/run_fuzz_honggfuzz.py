#!/usr/bin/env python3
"""honggfuzz's persistent mode on libyaml's parser (Debian's source package,
fetched by tests/projects/_debsrc.sh), built three ways: ukasan-cc (generic
KASAN, docs/fuzzing.md's recipe), clang's -fsanitize=address, and no sanitizer;
optionally a fourth with another ukasan build tree (--base BUILD: the
runtime before a change). Runs alternate between the builds, several
rounds (their order rotated each round, each run from a fresh copy of the
seeds: honggfuzz adds what it finds to its input directory), and the
medians are given: iterations per CPU second and per wall second. CPU time
is the whole tree's: honggfuzz's rusage of its reaped children, or where
the persistent harness was killed and not reaped, its time sampled from
/proc (never both). Then libhfuzz's
poisoning alone, as it does it around every input (unpoison its 8 MiB
buffer, poison past the input): microseconds and page faults per input.
honggfuzz itself comes from tests/fuzz/honggfuzz.sh.

    python3 bench/run_fuzz_honggfuzz.py [--secs 10] [--rounds 3] [--base BUILD]
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import emit, fmt, med, table  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build"))
WORK = os.path.join(BUILD, "bench", "fuzz_honggfuzz")

HARNESS = open(os.path.join(ROOT, "bench", "fuzz_yaml_target.c")).read()

SEEDS = {
    "map": "a: 1\nb: [x, y, {z: 2}]\nc: |\n  text\n  more\n",
    "anchors": "base: &b {k: v, n: 3}\nuse: *b\nlist:\n  - !!str 1\n  - 'q'\n  - \"d\\n\"\n",
    "docs": "%YAML 1.1\n---\n- a\n- b: c\n...\n---\n? complex\n: value\n",
}

FLAGS = ["-g", "-O1", "-fsanitize-coverage=trace-pc-guard,trace-cmp,indirect-calls",
         "-Wl,-u,LIBHFUZZ_module_instrument", "-Wl,-u,LIBHFUZZ_module_memorycmp"]
DEFS = ["-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2", "-DYAML_VERSION_PATCH=5",
        '-DYAML_VERSION_STRING="0.2.5"', "-DYAML_DECLARE_STATIC"]


POISON = r"""
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#define MAX (8u << 20) /* libhfuzz's _HF_INPUT_MAX_SIZE */

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 3000;
	char *buf = mmap(NULL, MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rusage a, b;
	struct timespec t0, t1;
	unsigned seed = 1;
	getrusage(RUSAGE_SELF, &a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < iters; i++) {
		size_t len = (seed = seed * 1103515245 + 12345) % 4096;
		__asan_unpoison_memory_region(buf, MAX);
		__asan_poison_memory_region(buf + len, MAX - len);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &b);
	printf("%.2f %.3f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / iters,
	       (double)(b.ru_minflt - a.ru_minflt) / iters);
	return 0;
}
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def libyaml_source():
    script = ('. "$ROOT/tests/projects/_debsrc.sh"; '
              'debsrc_get libyaml CMakeLists.txt include/yaml.h')
    env = dict(os.environ, ROOT=ROOT, BUILD=BUILD, WORK=WORK)
    r = sh(["sh", "-c", script], env=env)
    src = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if r.returncode or not os.path.isfile(os.path.join(src, "include", "yaml.h")):
        sys.exit("libyaml's source: " + (r.stdout + r.stderr).strip()[-300:])
    return src


def build(name, cc, extra, env, src, hf):
    exe = os.path.join(WORK, "yaml_" + name)
    srcs = sorted(os.path.join(src, "src", f) for f in os.listdir(os.path.join(src, "src"))
                  if f.endswith(".c"))
    cmd = [cc, *FLAGS, *extra, *DEFS, "-I" + os.path.join(src, "include"), "-I" + os.path.join(src, "src"),
           os.path.join(WORK, "harness.c"), *srcs, os.path.join(hf, "libhfuzz.a"),
           os.path.join(hf, "libhfcommon.a"), "-lpthread", "-ldl", "-lrt", "-o", exe]
    r = sh(cmd, env=dict(os.environ, **env))
    if r.returncode:
        sys.exit(f"building {name}: {r.stderr[-600:]}")
    return exe


def children_cpu(parent, seen):
    """CPU seconds of parent's children so far, by pid, and of parent
    itself under the key "self"."""
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(st[1]) == parent:
            seen[pid] = (int(st[11]) + int(st[12])) / tick
        elif int(pid) == parent:
            seen["self"] = (int(st[11]) + int(st[12])) / tick


def fuzz(hf, exe, secs):
    out = os.path.join(WORK, "out")
    shutil.rmtree(out, ignore_errors=True)
    corpus = os.path.join(WORK, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(os.path.join(WORK, "seeds"), corpus)
    log = os.path.join(WORK, "log")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(log, "w") as f:  # a pipe read at the end would fill and stop it
        p = subprocess.Popen([os.path.join(hf, "honggfuzz"), "-S", "-P", "-n", "1", "--run_time",
                              str(secs), "-t", "10", "-i", corpus, "-W", out, "--", exe],
                             env=dict(os.environ, UKASAN_OPTIONS="ukasan.symbolize=0"),
                             stdout=f, stderr=subprocess.STDOUT)
        seen = {}
        while p.poll() is None:
            children_cpu(p.pid, seen)
            time.sleep(0.1)
    text = open(log, errors="replace").read()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # honggfuzz reaps the harness it killed (its time is then in the
    # rusage); one it did not is counted from the samples.
    cpu = max(reaped, sum(seen.values()))
    m = re.findall(r"Summary iterations:(\d+).*?crashes_count:(\d+)", text)
    if not m:
        return None
    iters, crashes = int(m[-1][0]), int(m[-1][1])
    return iters / cpu, iters / wall, crashes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--base", help="another ukasan build tree, e.g. main's, measured as 'ukasan (base)'")
    a = ap.parse_args()
    shutil.rmtree(os.path.join(WORK, "seeds"), ignore_errors=True)
    os.makedirs(os.path.join(WORK, "seeds"))
    r = sh(["sh", os.path.join(ROOT, "tests", "fuzz", "honggfuzz.sh"), BUILD])
    if r.returncode:
        sys.exit("honggfuzz could not be built: " + r.stderr.strip())
    hf = r.stdout.strip().splitlines()[-1]
    src = libyaml_source()
    with open(os.path.join(WORK, "harness.c"), "w") as f:
        f.write(HARNESS)
    for k, v in SEEDS.items():
        with open(os.path.join(WORK, "seeds", k), "w") as f:
            f.write(v)
    clang = {"UKASAN_CC": "clang-16"}
    builds = [("ukasan", build("ukasan", os.path.join(BUILD, "bin", "ukasan-cc"),
                               ["-fno-sanitize-recover=address"], clang, src, hf))]
    if a.base:
        builds.append(("ukasan (base)", build("ukasan_base", os.path.join(a.base, "bin", "ukasan-cc"),
                                              ["-fno-sanitize-recover=address"], clang, src, hf)))
    builds.append(("ASan", build("asan", "clang-16", ["-fsanitize=address"], {}, src, hf)))
    builds.append(("none", build("none", "clang-16", [], {}, src, hf)))
    res = {n: [] for n, _ in builds}
    for rnd in range(a.rounds):
        for n, exe in builds[rnd % len(builds):] + builds[:rnd % len(builds)]:
            got = fuzz(hf, exe, a.secs)
            print(f"round {rnd + 1} {n}: {got}", flush=True)
            if got:
                res[n].append(got)
    emit(f"honggfuzz -P on libyaml's parser, {a.rounds} rounds of {a.secs} s each build, "
         f"alternating; medians ({os.cpu_count()} CPUs, shared machine: noisy)")
    emit()
    rows = [[n, fmt(med([x[0] for x in res[n]]), ".0f"), fmt(med([x[1] for x in res[n]]), ".0f"),
             sum(x[2] for x in res[n]), len(res[n])] for n, _ in builds]
    emit(table(["build", "iterations / CPU s", "iterations / wall s", "crashes", "runs"], rows))
    poisoning(a)


def poisoning(a):
    src = os.path.join(WORK, "poison.c")
    with open(src, "w") as f:
        f.write(POISON)
    clang = {"UKASAN_CC": "clang-16"}
    progs = [("ukasan", os.path.join(BUILD, "bin", "ukasan-cc"), clang)]
    if a.base:
        progs.append(("ukasan (base)", os.path.join(a.base, "bin", "ukasan-cc"), clang))
    progs.append(("ASan", "clang-16", {}))
    exes = []
    for i, (n, cc, env) in enumerate(progs):
        exe = os.path.join(WORK, f"poison{i}")
        extra = ["-fsanitize=address"] if cc == "clang-16" else []
        r = sh([cc, "-O1", *extra, src, "-o", exe], env=dict(os.environ, **env))
        if r.returncode:
            sys.exit(f"building the poisoning loop for {n}: {r.stderr[-400:]}")
        exes.append((n, exe))
    res = {n: [] for n, _ in exes}
    for _ in range(max(a.rounds, 5)):
        for n, exe in exes:
            r = sh([exe, "3000"], env=dict(os.environ, UKASAN_OPTIONS="kfence.sample_interval=0"))
            us, flt = (float(x) for x in r.stdout.split())
            res[n].append((us, flt))
    emit()
    emit("libhfuzz's poisoning alone (unpoison 8 MiB, poison past an input of < 4 KiB), "
         "3000 inputs a run, medians")
    emit()
    emit(table(["build", "us / input", "page faults / input"],
               [[n, fmt(med([x[0] for x in res[n]]), ".1f"), fmt(med([x[1] for x in res[n]]), ".2f")]
                for n, _ in exes]))


main()
