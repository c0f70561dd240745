#!/usr/bin/env python3
"""The preload's cost at its defaults against glibc, beside what an operator
would pick instead, run by `make bench`.

    python3 bench/run_preload.py [--rounds N] [--leak-rounds N] [--only NAME,...]
                                 [--base LIB=LABEL]...

Programs nobody rebuilt: bench/alloc_heavy.c (built plain here), and the
real programs of bench/run.py (python3, perl, git, sort, gcc) with sqlite3's
shell, each on a fixed workload. Setups, all by LD_PRELOAD on the same
binaries:

- glibc: nothing preloaded; and glibc again, an A/A control whose ratio
  to the first shows the noise of this machine at the time;
- ukasan: libukasan.so with no options (KFENCE sampling one allocation per
  100 ms, a random one of the first 1,024 in the first interval; at exit
  the sampled leak check, which reads all private writable memory when a
  sampled object is still live);
- Scudo with GWP-ASan: LLVM 16's libclang_rt.scudo_standalone
  (libclang-rt-16-dev), its defaults (GWP-ASan on, 1 allocation in 5000).

The leak check, every allocation tracked, on the same programs: ukasan
with kmemleak=on against gcc's LeakSanitizer preloaded (liblsan.so.0,
which replaces the allocator and checks at exit), both told to keep the
exit status (ukasan.exitcode=0, LSAN_OPTIONS=exitcode=0), and the leaks
each reported (objects).

--base LIB=LABEL (repeatable) adds another libukasan.so (an older build's)
at its defaults to the rotation, for before/after comparisons.

Setups missing on the machine are left out, with a line saying so. Runs
alternate, the order rotated every round, after one untimed run of each.
CPU time is user + sys and peak RSS is ru_maxrss, both from wait4(2) in
bench/generic/launch.c. Printed: medians over the rounds, and per setup the
median of the per-round ratios to the glibc run of the same round with
their interquartile range (CPU) or range (RSS). The tables go to stdout and
are appended to build/bench/results_preload.md.
"""
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import (BASE_ENV, BUILD, ROOT, copy_runtime, build_launcher, emit, finish, launch,  # noqa: E402
                      table)
import run as programs_of_run  # noqa: E402  the real programs' workloads

OUT = os.path.join(BUILD, "bench", "preload")
RESULTS = os.path.join(BUILD, "bench", "results_preload.md")
LIB = os.path.join(OUT, "lib", "libukasan.so")
TIMEOUT = 300
ROUNDS, LEAK_ROUNDS = 21, 5
# Issue 33's line: the preload at its defaults against glibc.
TARGET_CPU, TARGET_RSS = 1.02, 1.05

SQL = """
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, grp INTEGER, v REAL);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000)
INSERT INTO t SELECT i, 'name' || (i * 7919 % 1000003), i % 97, (i * 2654435761 % 1000) / 7.0
FROM c;
CREATE INDEX t_name ON t(name);
SELECT grp, count(*), sum(v), min(name), max(name) FROM t GROUP BY grp ORDER BY grp LIMIT 5;
SELECT count(*) FROM t a JOIN t b ON a.name = b.name WHERE a.grp < 10;
SELECT length(group_concat(name)) FROM (SELECT name FROM t ORDER BY v, name);
"""


def find_lib(package, name):
    return programs_of_run.find_lib(package, name)


def lsan_lib():
    try:
        p = subprocess.run(["gcc", "-print-file-name=liblsan.so.0"], capture_output=True,
                           text=True).stdout.strip()
    except OSError:
        return None
    return p if os.path.isabs(p) and os.path.exists(p) else None


def programs(only):
    """(name, workload, argv) of each program this machine has."""
    os.makedirs(OUT, exist_ok=True)
    alloc = os.path.join(OUT, "alloc_heavy")
    subprocess.run(["gcc", "-std=gnu11", "-O2", "-g", os.path.join(ROOT, "bench", "alloc_heavy.c"),
                    "-o", alloc], check=True)
    repo = os.path.join(OUT, "repo")
    sort_in = os.path.join(OUT, "sort.in")
    obj = os.path.join(OUT, "gcc_out.o")
    progs = [
        ("alloc_heavy", "bench/alloc_heavy.c, 20 rounds of 20000", [alloc]),
        ("python3", "json + sort of 100k dicts", [sys.executable, "-c", programs_of_run.PY_WORK]),
        ("sqlite3", "200k rows in :memory:, index, join, sort", ["sqlite3", ":memory:", SQL]),
        ("perl", "hash of 200k keys, sort, split", ["perl", "-e", programs_of_run.PERL_WORK]),
        ("git", f"log -p --stat, {programs_of_run.COMMITS} commits",
         ["git", "-C", repo, "log", "-p", "--stat"]),
        ("sort", "200k lines, LC_ALL=C", ["sort", sort_in]),
        ("gcc", "-O2 -c bench/alloc_heavy.c",
         ["gcc", "-O2", "-c", os.path.join(ROOT, "bench", "alloc_heavy.c"), "-o", obj]),
    ]
    out, missing = [], []
    for name, what, argv in progs:
        if only and name not in only:
            continue
        exe = shutil.which(argv[0])
        if not exe:
            missing.append(name)
            continue
        if name == "git":
            programs_of_run.make_git_repo(repo)
        elif name == "sort":
            programs_of_run.make_sort_input(sort_in)
        out.append((name, what, [exe, *argv[1:]]))
    return out, missing


class Sample:
    def __init__(self, why, out="", err="", cpu=0.0, rss_kb=0.0):
        self.ok, self.why = not why, why
        self.out, self.err, self.cpu, self.rss = out, err, cpu, rss_kb / 1024


def sample(launcher, argv, env):
    why, out, err, _, cpu, rss = launch(launcher, OUT, argv[0], argv[1:],
                                        dict(BASE_ENV, **env), 1, TIMEOUT)
    return Sample(why, out, err, cpu, rss)


def rotate(launcher, argv, setups, rounds):
    """Each setup once per round, the order rotated every round, after an
    untimed run of each. Returns {key: [Sample]}."""
    for _, _, env in setups:
        sample(launcher, argv, env)
    runs = {key: [] for key, _, _ in setups}
    for r in range(rounds):
        for i in range(len(setups)):
            key, _, env = setups[(r + i) % len(setups)]
            runs[key].append(sample(launcher, argv, env))
    return runs


def ratios(runs, base, attr):
    return sorted(getattr(a, attr) / getattr(b, attr) for a, b in zip(runs, base)
                  if a.ok and b.ok and getattr(b, attr))


def quartiles(xs):
    if len(xs) < 4:
        return (min(xs), max(xs)) if xs else (None, None)
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def med(xs):
    return statistics.median(xs) if xs else None


def f3(x):
    return "n/a" if x is None else f"{x:.3f}"


LEAK_UKASAN_RE = re.compile(r"^unreferenced object", re.M)
LEAK_LSAN_RE = re.compile(r"leaked in (\d+) allocation", re.M)


def leaks_reported(key, s):
    if key == "lsan":
        return sum(int(n) for n in LEAK_LSAN_RE.findall(s.err))
    return len(LEAK_UKASAN_RE.findall(s.err))


def cost_rows(name, what, runs, setups, verdicts):
    base = runs["glibc"]
    rows = []
    for key, label, _ in setups:
        rs = runs[key]
        ok = [s for s in rs if s.ok]
        if not ok:
            rows.append([name if key == "glibc" else "", what if key == "glibc" else "", label,
                         0, "-", "-", "-", "-", failed(rs), "-"])
            continue
        cpu_r, rss_r = ratios(rs, base, "cpu"), ratios(rs, base, "rss")
        q1, q3 = quartiles(cpu_r)
        same = all(s.ok and s.out == base[0].out for s in rs)
        sampled = sum(leaks_reported(key, s) for s in rs)
        rows.append([name if key == "glibc" else "", what if key == "glibc" else "", label,
                     len(ok), f3(med([s.cpu for s in ok])),
                     "-" if key == "glibc" else f"{f3(med(cpu_r))} [{f3(q1)}-{f3(q3)}]",
                     f"{med([s.rss for s in ok]):.1f}",
                     "-" if key == "glibc" else
                     f"{f3(med(rss_r))} [{f3(min(rss_r) if rss_r else None)}-"
                     f"{f3(max(rss_r) if rss_r else None)}]",
                     "yes" if same else "NO",
                     sampled if key == "ukasan" or key.startswith("base") else "-"])
        if key == "ukasan":
            verdicts.append((name, med(cpu_r), med(rss_r)))
    return rows


def failed(rs):
    """What went wrong in runs none of which ran fine: the first's reason
    and the last line of its stderr."""
    last = [r for r in rs[0].err.strip().splitlines() if r.strip()][-1:]
    return f"all failed ({rs[0].why}: {last[0][:60] if last else ''})"


def leak_rows(name, runs, setups):
    base = runs["glibc"]
    rows = []
    for key, label, _ in setups:
        rs = runs[key]
        ok = [s for s in rs if s.ok]
        if not ok:
            rows.append([name if key == "glibc" else "", label, 0, "-", "-", "-", "-",
                         failed(rs)])
            continue
        cpu_r, rss_r = ratios(rs, base, "cpu"), ratios(rs, base, "rss")
        found = sorted(leaks_reported(key, s) for s in ok)
        rows.append([name if key == "glibc" else "", label, len(ok),
                     f3(med([s.cpu for s in ok])), "-" if key == "glibc" else f3(med(cpu_r)),
                     f"{med([s.rss for s in ok]):.1f}",
                     "-" if key == "glibc" else f3(med(rss_r)),
                     "-" if key == "glibc" else
                     (f"{found[0]}" if found[0] == found[-1] else f"{found[0]}-{found[-1]}")
                     if found else "n/a"])
    return rows


def describe():
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()[:72]
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "include"],
                           capture_output=True, text=True).stdout.strip()
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; commit {head}"
            f"{' (src/ has uncommitted changes)' if dirty else ''}; {os.cpu_count()} CPUs, "
            f"Linux {platform.release()}, glibc {platform.libc_ver()[1]}; load average at start "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.")


def main():
    rounds, leak_rounds, only, bases = ROUNDS, LEAK_ROUNDS, None, []
    args = sys.argv[1:]
    while args:
        if args[0] == "--rounds" and len(args) > 1:
            rounds, args = int(args[1]), args[2:]
        elif args[0] == "--leak-rounds" and len(args) > 1:
            leak_rounds, args = int(args[1]), args[2:]
        elif args[0] == "--only" and len(args) > 1:
            only, args = set(args[1].split(",")), args[2:]
        elif args[0] == "--base" and len(args) > 1:
            lib, _, label = args[1].partition("=")
            bases.append((os.path.abspath(lib), label or f"base {len(bases) + 1}"))
            args = args[2:]
        else:
            sys.exit("usage: run_preload.py [--rounds N] [--leak-rounds N] [--only NAME,...] "
                     "[--base LIB=LABEL]...")
    copy_runtime(BUILD, OUT, ("lib/libukasan.so",))
    launcher = build_launcher(OUT)
    scudo = find_lib("libclang-rt-16-dev", "libclang_rt.scudo_standalone-x86_64.so")
    lsan = lsan_lib()
    start = time.time()
    emit("# The preload at its defaults against glibc, Scudo+GWP-ASan and LSan")
    emit()
    emit(describe())
    emit()

    setups = [("glibc", "glibc", {}), ("glibc2", "glibc again (A/A)", {}),
              ("ukasan", "ukasan, no options", {"LD_PRELOAD": LIB})]
    notes = []
    for i, (lib, label) in enumerate(bases):
        copy = os.path.join(OUT, f"base{i}", "libukasan.so")
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copy2(lib, copy)
        setups.append((f"base{i}", f"ukasan, {label}", {"LD_PRELOAD": copy}))
    if scudo:
        setups.append(("scudo", "Scudo+GWP-ASan", {"LD_PRELOAD": scudo}))
    else:
        notes.append("Scudo+GWP-ASan: not measured (libclang-rt-16-dev not installed).")
    leak_setups = [("glibc", "glibc", {}),
                   ("kmemleak", "ukasan, kmemleak=on",
                    {"LD_PRELOAD": LIB, "UKASAN_OPTIONS": "kmemleak=on ukasan.exitcode=0"})]
    if lsan:
        leak_setups.append(("lsan", "LSan (liblsan.so.0)",
                            {"LD_PRELOAD": lsan, "LSAN_OPTIONS": "exitcode=0"}))
    else:
        notes.append("LSan: not measured (liblsan0 not installed).")

    progs, missing = programs(only)
    if missing:
        notes.append(f"Not installed, left out: {', '.join(missing)}.")
    rows, lrows, verdicts, aa = [], [], [], []
    for name, what, argv in progs:
        runs = rotate(launcher, argv, setups, rounds)
        bad = [f"{k}: {s.why}\n{s.err[-600:]}" for k, rs in runs.items() for s in rs if not s.ok]
        if bad:
            notes.append(f"{name}: {len(bad)} runs failed; the first: {bad[0]}")
        rows += cost_rows(name, what, runs, setups, verdicts)
        aa += ratios(runs["glibc2"], runs["glibc"], "cpu")
        if leak_rounds:
            lruns = rotate(launcher, argv, leak_setups, leak_rounds)
            lrows += leak_rows(name, lruns, leak_setups)

    emit(f"## Cost at the defaults ({rounds} rounds)")
    emit()
    emit("CPU (user + sys) and peak RSS (ru_maxrss); ratios: median over the rounds of "
         "(run / glibc run of the same round), CPU with its interquartile range, RSS with "
         "its range. glibc again: the same glibc run twice a round, whose ratio is the noise. "
         "Output same: stdout identical to glibc's in every run. Sampled leaks: objects "
         "the sampled leak check reported, summed over the runs.")
    emit()
    emit(table(["Program", "Workload", "Setup", "Runs", "CPU s", "CPU x glibc [IQR]",
                "Peak RSS MB", "RSS x glibc [range]", "Output same", "Sampled leaks"], rows,
               numeric=r"[-\d.?\[\] ]*"))
    emit()
    q1, q3 = quartiles(sorted(aa))
    emit(f"Noise: glibc against itself, all programs' rounds together: median CPU ratio "
         f"{f3(med(sorted(aa)))}, interquartile range {f3(q1)}-{f3(q3)}, range "
         f"{f3(min(aa) if aa else None)}-{f3(max(aa) if aa else None)}.")
    emit()
    for name, c, m in verdicts:
        emit(f"- {name}: ukasan CPU x glibc {f3(c)} (target <= {TARGET_CPU}: "
             f"{'met' if c is not None and c <= TARGET_CPU else 'NOT met'}), peak RSS x glibc "
             f"{f3(m)} (target < {TARGET_RSS}: "
             f"{'met' if m is not None and m < TARGET_RSS else 'NOT met'})")
    emit()
    if lrows:
        emit(f"## Leak check, every allocation tracked ({leak_rounds} rounds)")
        emit()
        emit("The same programs with the leak check on: ukasan with kmemleak=on and "
             "ukasan.exitcode=0, LeakSanitizer preloaded with exitcode=0. Leaks: objects "
             "reported per run (range over the runs).")
        emit()
        emit(table(["Program", "Setup", "Runs", "CPU s", "CPU x glibc", "Peak RSS MB",
                    "RSS x glibc", "Leaks"], lrows))
        emit()
    for n in notes:
        emit(n)
    if notes:
        emit()
    finish(f"{time.time() - start:.0f} s", RESULTS, OUT)


if __name__ == "__main__":
    main()
