#!/usr/bin/env python3
"""libFuzzer's speed on a real parser: executions per CPU-second of a libyaml
fuzz target (every event of yaml_parser_parse until the stream's end or an
error), built three ways:

  ukasan   build/bin/ukasan-cc -g -O2 -fsanitize=fuzzer (UKASAN_CC=clang-16),
           default options (a fuzz target: a report ends the run)
  asan     clang-16 -g -O2 -fsanitize=address,fuzzer, ASan's defaults
  plain    clang-16 -g -O2 -fsanitize=fuzzer, no sanitizer

    python3 bench/run_fuzz_libfuzzer.py [--rounds N (5)] [--seconds S (10)]

libyaml is Debian's source package, fetched as tests/projects/check_libyaml.sh
fetches it (tests/projects/_debsrc.sh, into build/third_party/libyaml);
nothing of it is in this repository. Its sources are compiled with the
target into one program per build. Each run starts from the same seed
corpus (libyaml's examples/*.yaml, copied fresh), with the same -seed, for
S seconds (-max_total_time); executions come from libFuzzer's
-print_final_stats=1, CPU time (user + sys) from wait4(2). Every round runs
each build once, the order rotated each round; reported are the medians.
The machine is shared: single runs vary, the medians less.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
WORK = os.path.join(BUILD, "bench", "fuzz_libfuzzer")
CLANG = "clang-16"

TARGET = open(os.path.join(ROOT, "bench", "fuzz_yaml_target.c")).read()


def libyaml_source():
    cmd = ('. tests/projects/_debsrc.sh && debsrc_get libyaml CMakeLists.txt include/yaml.h')
    env = dict(os.environ, BUILD=BUILD, WORK=WORK)
    r = subprocess.run(["sh", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True)
    src = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if r.returncode or not os.path.isdir(src):
        sys.exit(f"run_fuzz_libfuzzer: no libyaml source: {r.stdout}{r.stderr}")
    return src


def build(src):
    os.makedirs(WORK, exist_ok=True)
    target = os.path.join(WORK, "yaml_fuzz.c")
    with open(target, "w") as f:
        f.write(TARGET)
    version = ["-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2", "-DYAML_VERSION_PATCH=5",
               '-DYAML_VERSION_STRING="0.2.5"', "-DYAML_DECLARE_STATIC"]
    files = sorted(glob.glob(os.path.join(src, "src", "*.c"))) + [target]
    common = ["-g", "-O2", "-I" + os.path.join(src, "include"), "-I" + os.path.join(src, "src")]
    common += version + files
    ukasan_cc = os.path.join(BUILD, "bin", "ukasan-cc")
    builds = {
        "ukasan": ([ukasan_cc, "-fsanitize=fuzzer"], dict(os.environ, UKASAN_CC=CLANG)),
        "asan": ([CLANG, "-fsanitize=address,fuzzer"], os.environ),
        "plain": ([CLANG, "-fsanitize=fuzzer"], os.environ),
    }
    exes = {}
    for name, (cc, env) in builds.items():
        exe = os.path.join(WORK, "yaml_fuzz_" + name)
        r = subprocess.run(cc + common + ["-o", exe], env=env, capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"run_fuzz_libfuzzer: {name} build failed:\n{r.stderr[-2000:]}")
        exes[name] = exe
    return exes


def run(exe, seeds, seconds):
    """(executions, CPU seconds) of one run from a fresh copy of the seeds."""
    with tempfile.TemporaryDirectory(dir=WORK) as d:
        corpus = os.path.join(d, "corpus")
        shutil.copytree(seeds, corpus)
        out = os.path.join(d, "out")
        with open(out, "w") as f:
            p = subprocess.Popen([exe, f"-max_total_time={seconds}", "-seed=1",
                                  "-print_final_stats=1", corpus], stdout=f, stderr=f, cwd=d)
            _, status, ru = os.wait4(p.pid, 0)
        text = open(out, errors="replace").read()
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
    if status or not m or "BUG:" in text or "ERROR:" in text:
        return None
    return int(m.group(1)), ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=10)
    args = ap.parse_args()
    src = libyaml_source()
    exes = build(src)
    seeds = os.path.join(WORK, "seeds")
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    for y in glob.glob(os.path.join(src, "examples", "*.yaml")):
        shutil.copy(y, seeds)
    names = list(exes)
    rates = {n: [] for n in names}
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            res = run(exes[n], seeds, args.seconds)
            rate = res[0] / res[1] if res and res[1] > 0 else None
            rates[n].append(rate)
            print(f"round {r + 1} {n:7s} " + (f"{rate:10.0f} exec/CPU-s" if rate else "failed"),
                  flush=True)
    print(f"\nlibyaml fuzz target, {args.rounds} rounds of {args.seconds} s, medians "
          "(a shared, noisy machine):")
    plain = None
    for n in ["plain", "asan", "ukasan"]:
        ok = [x for x in rates[n] if x]
        if not ok:
            print(f"  {n:7s} failed")
            continue
        m = statistics.median(ok)
        plain = m if n == "plain" else plain
        rel = f"  ({m / plain:.2f} of plain)" if plain and n != "plain" else ""
        print(f"  {n:7s} {m:10.0f} exec/CPU-s{rel}   runs: "
              + " ".join(f"{x:.0f}" if x else "failed" for x in rates[n]))


if __name__ == "__main__":
    main()
