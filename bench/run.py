#!/usr/bin/env python3
"""ukasan benchmarks, run by `make bench` once the runtime is built.

Everything printed is measured in this run, except the kernel's KFENCE
figures, which are quoted from its seed document and marked as quoted. The
machine may be shared and noisy, so the setups being compared run side by
side: alternately, with the order rotated each round (A B, B A, ...), and
the tables quote medians and the median of the per-round ratios.

The tables go to stdout and to build/bench/results.md.
"""
import hashlib
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import threading
import time

from benchlib import BASE_ENV, copy_runtime, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
OUT = os.path.join(ROOT, "build", "bench")
BUILT_LIB = os.path.join(ROOT, "build", "lib", "libukasan.so")
LIB = os.path.join(OUT, "lib", "libukasan.so")  # a copy: the build may change while this runs
CC = os.environ.get("CC", "gcc")
CFLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra"]
TIMEOUT = 300  # seconds for any one run

# Quoted, not measured: the kernel's KFENCE seed document, per call.
KERNEL_ALLOC_US, KERNEL_FREE_US = 3.6, 3.0  # after the word-at-a-time canary
KERNEL_ALLOC_OLD_US, KERNEL_FREE_OLD_US = 5.1, 5.3  # before it
# The targets.
TARGET_RATIO = 1.02
TARGET_CANARY_US = 0.3

# The setup under test is added per run, for the program only (bench/spawn.c).
SPAWN = os.path.join(OUT, "spawn")

PLAIN = {}
UKASAN = {"LD_PRELOAD": LIB}
UKASAN_RATE1 = {"LD_PRELOAD": LIB, "UKASAN_OPTIONS": "kfence.sample_rate=1"}


class Run:
    """One finished program: times, peak RSS, its output."""

    def __init__(self, result, out, err):
        wall, cpu, rss_kb, status = result.split()
        self.wall, self.cpu, self.rss_mb = float(wall), float(cpu), int(rss_kb) / 1024
        self.status = int(status)
        self.digest = hashlib.sha256(out).hexdigest()
        self.head = out[:4096].decode(errors="replace")
        self.err = err


def run(argv, settings, outfile=None):
    """Runs argv through bench/spawn.c with the environment settings added,
    stdout and stderr in files. The output kept is stdout, or outfile when
    the program writes its result there."""
    paths = [os.path.join(OUT, "tmp." + n) for n in ("result", "stdout", "stderr")]
    wr = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, paths[1], wr, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, paths[2], wr, 0o644)]
    launcher = [SPAWN, paths[0], *(f"{k}={v}" for k, v in settings.items()), "--", *argv]
    pid = os.posix_spawn(SPAWN, launcher, BASE_ENV, file_actions=actions, setpgroup=0)
    killer = threading.Timer(TIMEOUT, os.killpg, (pid, signal.SIGKILL))
    killer.start()
    _, status = os.waitpid(pid, 0)
    killer.cancel()
    data = []
    for path in (paths[0], outfile or paths[1], paths[2]):
        with open(path, "rb") as f:
            data.append(f.read())
    if status != 0:
        sys.exit(f"bench: {' '.join(argv)} failed or timed out:\n{data[2].decode()}")
    return Run(data[0].decode(), data[1], data[2].decode(errors="replace"))


def rotate(setups, rounds):
    """Runs each setup, a tuple of run()'s arguments, once per round, the
    order rotated every round, after one warm-up run of each. Returns the
    runs of each setup."""
    for s in setups:
        run(*s)
    results = [[] for _ in setups]
    for r in range(rounds):
        for i in range(len(setups)):
            k = (r + i) % len(setups)
            results[k].append(run(*setups[k]))
    return results


def median(xs):
    return statistics.median(xs)


def ratio(runs, base, key):
    """The median of per-round ratios against the base runs."""
    return median([getattr(a, key) / getattr(b, key) for a, b in zip(runs, base)])


def guarded_count(argv, outfile=None, options=""):
    """Guarded allocations, from kfence.stats (summed over processes), in an
    extra untimed run. None when nothing printed them (a program that
    closes stderr before exit)."""
    opts = (options + " kfence.stats=1").strip()
    r = run(argv, {"LD_PRELOAD": LIB, "UKASAN_OPTIONS": opts}, outfile)
    counts = [int(n) for n in re.findall(r"^total allocations: (\d+)$", r.err, re.M)]
    return sum(counts) if counts else None


def build(name, *extra):
    exe = os.path.join(OUT, name)
    src = os.path.join(BENCH, re.sub(r"_asan$", "", name) + ".c")
    subprocess.run([CC, *CFLAGS, *extra, src, "-o", exe], check=True)
    return exe


def find_lib(package, name):
    """Path of a shared library from a Debian package, or None."""
    try:
        files = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True).stdout
    except OSError:
        return None
    paths = [p for p in files.split() if os.path.basename(p) == name]
    return paths[0] if paths else None


def yes_no(flag):
    return "yes" if flag else "NO"


def verdict(ok):
    return "met" if ok else "NOT met"


report = []


def emit(text=""):
    print(text, flush=True)
    report.append(text)


# --- 1. An allocation-heavy program ------------------------------------------

def section_alloc_heavy():
    exe = build("alloc_heavy")
    asan = build("alloc_heavy_asan", "-fsanitize=address")
    full, small = [exe], [exe, "4", "2000"]  # rounds, items
    asan_env = {"ASAN_OPTIONS": "detect_leaks=0"}
    efence = find_lib("electric-fence", "libefence.so.0.0")
    duma = find_lib("duma", "libduma.so.0")
    rows = []

    def row(name, inp, runs, base, guarded="-"):
        """base: the plain runs alternated with these (or these themselves)."""
        rows.append([name, inp, len(runs), f"{median([r.wall for r in runs]):.3f}",
                     f"{median([r.cpu for r in runs]):.3f}",
                     f"{ratio(runs, base, 'wall'):.3f}", f"{ratio(runs, base, 'cpu'):.3f}",
                     f"{median([r.rss_mb for r in runs]):.1f}", guarded,
                     yes_no(all(r.digest == base[0].digest and r.status == 0 for r in runs))])

    plain, uk = rotate([(full, PLAIN), (full, UKASAN)], 21)
    full_input = plain[0].head.split(" allocator calls ")
    row("plain glibc", "full", plain, plain)
    row("ukasan, default options", "full", uk, plain, guarded_count(full))
    main_ratio = (ratio(uk, plain, "wall"), ratio(uk, plain, "cpu"))

    p2, rate1 = rotate([(full, PLAIN), (full, UKASAN_RATE1)], 3)
    row("ukasan, kfence.sample_rate=1", "full", rate1, p2,
        guarded_count(full, options="kfence.sample_rate=1"))
    p3, asan_runs = rotate([(full, PLAIN), ([asan], asan_env)], 5)
    row("gcc -fsanitize=address", "full", asan_runs, p3)

    missing, small_input = [], "?"
    for name, lib in (("Electric Fence", efence), ("DUMA", duma)):
        if not lib:
            missing.append(name)
            continue
        p4, other = rotate([(small, PLAIN), (small, {"LD_PRELOAD": lib})], 3)
        small_input = p4[0].head.split(" allocator calls ")[0]
        row(f"plain glibc (base for {name})", "small", p4, p4)
        row(f"{name} ({os.path.basename(lib)})", "small", other, p4)

    emit("## 1. Allocation-heavy program (bench/alloc_heavy.c)")
    emit()
    emit(f"Hash table, binary tree and linked list of 8..512-byte strings, built and torn "
         f"down each round. Full input: {full_input[0]}, "
         f"{full_input[1].split()[0]} malloc/calloc/realloc/free calls. Small input: "
         f"{small_input}, for Electric Fence and DUMA, which give every allocation its own pages and are too slow for the full "
         f"one. Ratios: median over rounds of (setup / plain glibc run in the same round, "
         f"same input). Peak RSS: ru_maxrss. Guarded: allocations KFENCE took, from an "
         f"extra run with kfence.stats=1. Output: same stdout as plain glibc.")
    emit()
    emit(table(["Setup", "Input", "Runs", "Wall s", "CPU s", "Wall ratio", "CPU ratio",
                "Peak RSS MB", "Guarded", "Output same"], rows))
    emit()
    emit(f"ukasan with default options against plain glibc: wall ratio {main_ratio[0]:.3f}, "
         f"CPU ratio {main_ratio[1]:.3f}; target <= {TARGET_RATIO}: "
         f"{verdict(main_ratio[0] <= TARGET_RATIO)} (wall), "
         f"{verdict(main_ratio[1] <= TARGET_RATIO)} (CPU).")
    if missing:
        emit(f"Not measured (library not installed): {', '.join(missing)}.")
    emit()


# --- 2. The cost of one guarded allocation plus free --------------------------

def parse_costs(text):
    """'name value ...' lines from guarded_cost into {name: value}, and the
    rest of each line into {name + ':note': ...}."""
    out = {}
    for line in text.splitlines():
        name, value, *rest = line.split()
        out[name] = float(value)
        out[name + ":note"] = " ".join(rest)
    return out


def section_guarded_cost():
    exe = build("guarded_cost", "-I", os.path.join(ROOT, "src"),
                *[os.path.join(ROOT, "src", "stack", f + ".c")
                  for f in ("unwind", "cfi", "eh_frame", "eh_check")],
                os.path.join(ROOT, "src", "platform", "dynlink.c"),
                "-ldl", "-lpthread")
    runs = {}
    for name, results in zip(("plain", "ukasan"),
                             rotate([([exe], PLAIN), ([exe], UKASAN_RATE1)], 5)):
        if any(r.status != 0 for r in results):
            sys.exit(f"bench: guarded_cost failed under {name}:\n{results[0].err}")
        runs[name] = [parse_costs(r.head) for r in results]

    def med(name, key):
        return median([c[key] for c in runs[name]]) / 1000  # us

    uk = runs["ukasan"][0]
    pair, busy = med("ukasan", "pair"), med("ukasan", "busy_pair")
    mprot, mprot_w = med("ukasan", "mprotect2"), med("ukasan", "mprotect2_write")
    canary, unwind, trk = med("ukasan", "canary"), med("ukasan", "unwind"), med("ukasan", "track")
    unwind_libgcc = med("ukasan", "unwind_libgcc")
    parts = mprot_w + canary + 2 * unwind + 2 * trk
    kernel = KERNEL_ALLOC_US + KERNEL_FREE_US
    kernel_old = KERNEL_ALLOC_OLD_US + KERNEL_FREE_OLD_US
    frames = uk["unwind:note"].split()[-1]
    rows = [
        ["malloc(64)+free, guarded (kfence.sample_rate=1)", f"{pair:.2f}",
         f"{kernel:.1f} ({KERNEL_ALLOC_US} + {KERNEL_FREE_US}); before the canary patch "
         f"{kernel_old:.1f} ({KERNEL_ALLOC_OLD_US} + {KERNEL_FREE_OLD_US})",
         f"< {kernel:.1f}: {verdict(pair < kernel)}"],
        [f"  2 x mprotect, page written while open "
         f"({uk['mprotect2_write:note'].split()[-1]} page faults)",
         f"{mprot_w:.2f}", "", ""],
        ["    (2 x mprotect alone, page not touched)", f"{mprot:.2f}", "", ""],
        ["  canary: set and check 4032 bytes (template page, memcpy + __memcmpeq)", f"{canary:.2f}", "",
         f"< {TARGET_CANARY_US}: {verdict(canary < TARGET_CANARY_US)}"],
        [f"  2 x stack unwinding, {frames} frames (the library's cached unwinder)",
         f"{2 * unwind:.2f}", "", ""],
        [f"    (2 x libgcc's _Unwind_Backtrace, for comparison)", f"{2 * unwind_libgcc:.2f}",
         "", ""],
        ["  2 x gettid + getcpu + clock_gettime", f"{2 * trk:.2f}", "", ""],
        ["  rest (pair minus the parts above)", f"{pair - parts:.2f}", "", ""],
        ["malloc(64)+free, plain glibc", f"{med('plain', 'pair'):.3f}", "", ""],
        ["malloc(64)+free not guarded, sample_rate=1, pool busy", f"{busy:.2f}", "", ""],
    ]
    emit("## 2. One guarded allocation plus free (bench/guarded_cost.c)")
    emit()
    emit(f"Microseconds per operation: median of 5 runs (each the median of 7 blocks), "
         f"under ukasan alternating with plain glibc runs. Pairs guarded: "
         f"{uk['pair:note'].split()[-1]}. The parts are measured separately in the same program "
         f"with code doing what src/kfence/pool.c does, on 255 pages laid out as the "
         f"pool's. Kernel figures are QUOTED from its KFENCE seed document (per "
         f"__kfence_alloc + __kfence_free), not measured here. The last row: once the "
         f"pool is past its covered threshold, an allocation from an already covered "
         f"stack is still unwound before it is left to glibc (pairs guarded: "
         f"{uk['busy_pair:note'].split()[-1]}).")
    emit()
    emit(table(["Operation", "us (measured)", "Kernel, us (quoted)", "Target"], rows))
    emit()


# --- 3. Real programs ----------------------------------------------------------

PY_WORK = """
import json, random
random.seed(7)
items = [{"id": i, "name": "item%d" % i, "tags": ["t%d" % (i % 7)] * (i % 5),
          "v": random.random()} for i in range(100000)]
items.sort(key=lambda d: d["v"])
text = json.dumps(items)
back = json.loads(text)
print(len(text), sum(len(d["name"]) + len(d["tags"]) for d in back))
"""

PERL_WORK = r"""
my %h;
for my $i (1 .. 200000) { $h{"key" . ($i * 7919 % 1000003)} = "v" x ($i % 64); }
my @k = sort keys %h;
my ($n, $t) = (0, 0);
for my $k (@k) { my @p = split /(\d)/, $k; $n += @p; $t += length $h{$k}; }
print scalar(@k), " $n $t $k[0] $k[-1]\n";
"""


COMMITS = 3000


def make_git_repo(path):
    """A repository of COMMITS commits, made with fast-import, the same every run."""
    subprocess.run(["rm", "-rf", path], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", path], check=True, env=BASE_ENV)
    stream, state = [], 1
    for i in range(1, COMMITS + 1):
        state = state * 6364136223846793005 % (1 << 64) + 1442695040888963407
        lines = "".join(f"line {j} of commit {i} {(state >> (j % 40)) & 0xffff:x}\n"
                        for j in range(i % 50 + 5)).encode()
        msg = f"commit {i}: change file{i % 17}.txt\n".encode()
        stream += [b"commit refs/heads/main\n", f"mark :{i}\n".encode(),
                   f"committer Bench <bench@example.com> {1700000000 + i * 60} +0000\n".encode(),
                   b"data %d\n" % len(msg), msg]
        if i > 1:
            stream.append(f"from :{i - 1}\n".encode())
        stream += [f"M 644 inline file{i % 17}.txt\n".encode(), b"data %d\n" % len(lines),
                   lines, b"\n"]
    subprocess.run(["git", "-C", path, "fast-import", "--quiet"], input=b"".join(stream),
                   check=True, env=BASE_ENV)


def make_sort_input(path):
    """200,000 lines of random words, the same every run."""
    state, lines = 12345, []
    for _ in range(200000):
        words = []
        for _ in range(state % 6 + 1):
            state = (state * 1103515245 + 12345) % (1 << 31)
            words.append(format(state * 2654435761 % (1 << 48), "x")[: state % 12 + 1])
        lines.append(" ".join(words))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def section_programs():
    repo = os.path.join(OUT, "repo")
    make_git_repo(repo)
    sort_in = os.path.join(OUT, "sort.in")
    make_sort_input(sort_in)
    obj = os.path.join(OUT, "gcc_out.o")
    programs = [
        ("python3", "json + sort of 100k dicts", [sys.executable, "-c", PY_WORK], None),
        ("perl", "hash of 200k keys, sort, split", ["perl", "-e", PERL_WORK], None),
        ("git", f"log -p --stat, {COMMITS} commits",
         ["git", "-C", repo, "log", "-p", "--stat"], None),
        ("sort", "200k lines, LC_ALL=C", ["sort", sort_in], None),
        ("gcc", "-O2 -c bench/alloc_heavy.c",
         [CC, "-O2", "-c", os.path.join(BENCH, "alloc_heavy.c"), "-o", obj], obj),
    ]
    configs = [("plain", PLAIN), ("defaults", UKASAN), ("sample_rate=1", UKASAN_RATE1)]
    rows = []
    for name, what, argv, outfile in programs:
        results = rotate([(argv, e, outfile) for _, e in configs], 5)
        base = results[0]
        guarded = {"defaults": guarded_count(argv, outfile),
                   "sample_rate=1": guarded_count(argv, outfile, "kfence.sample_rate=1")}
        for (cname, _), runs in zip(configs, results):
            same = all(r.digest == base[0].digest for r in runs)
            bugs = sum("BUG: KFENCE" in r.err for r in runs)
            failed = sum(r.status != 0 for r in runs)
            g = guarded.get(cname)
            rows.append([name if cname == "plain" else "", what if cname == "plain" else "",
                         cname, len(runs), f"{median([r.wall for r in runs]):.3f}",
                         f"{ratio(runs, base, 'wall'):.3f}", f"{ratio(runs, base, 'cpu'):.3f}",
                         f"{median([r.rss_mb for r in runs]):.1f}", yes_no(same),
                         f"{bugs}" + (f" (exit != 0: {failed})" if failed else ""),
                         "-" if cname == "plain" else "?" if g is None else g])
    emit("## 3. Real programs")
    emit()
    emit("Each program run plain, with ukasan's default options and with "
         "kfence.sample_rate=1, in rotation, 5 rounds after a warm-up. Ratios: median "
         "over rounds of (run / plain run of the same round). Output same: stdout (for "
         "gcc the object file) identical to the plain run's in every run. BUG runs: runs "
         "whose stderr has 'BUG: KFENCE'. Guarded: allocations KFENCE took in one extra "
         "run with kfence.stats=1, summed over processes ('?': the program closes stderr "
         f"before exit, as coreutils do). python3 is {sys.executable}.")
    emit()
    emit(table(["Program", "Workload", "ukasan", "Runs", "Wall s", "Wall ratio", "CPU ratio",
                "Peak RSS MB", "Output same", "BUG runs", "Guarded"], rows))
    emit()


def describe_machine():
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "include"],
                           capture_output=True, text=True).stdout.strip()
    cc = subprocess.run([CC, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return (f"Commit {head}{' (src/ has uncommitted changes)' if dirty else ''}; "
            f"libukasan.so copied from build/lib at start; "
            f"{os.cpu_count()} CPUs, Linux {platform.release()}, glibc "
            f"{platform.libc_ver()[1]}, {cc}; load average at start "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.")


def main():
    if not os.path.exists(BUILT_LIB):
        sys.exit(f"{BUILT_LIB} not found: run make first")
    os.makedirs(OUT, exist_ok=True)
    copy_runtime(os.path.join(ROOT, "build"), OUT, ("lib/libukasan.so",))
    build("spawn")
    start = time.time()
    emit("# ukasan benchmarks")
    emit()
    emit(describe_machine())
    emit()
    section_alloc_heavy()
    section_guarded_cost()
    section_programs()
    emit(f"Total time {time.time() - start:.0f} s; load average at end "
         f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write("\n".join(report) + "\n")
    for tmp in ("tmp.result", "tmp.stdout", "tmp.stderr"):
        os.remove(os.path.join(OUT, tmp))


if __name__ == "__main__":
    main()
