#!/usr/bin/env python3
"""Detection on a corpus of known-bad programs, run by `make bench`.

    python3 bench/run_corpus.py [--jobs N] [--only TEXT] [--keep]

--jobs: builds and runs at a time (default 2); --only: the programs whose
file names contain TEXT; --keep: keep the programs built, in
build/bench/corpus/exe/.

bench/corpus/ holds small C and C++ programs in the manner of NIST's Juliet
suite, one file each, written for ukasan: for each of CWE-121 (stack-based
overflow), 122 (heap-based overflow), 124 (buffer underwrite), 126
(over-read), 127 (under-read), 415 (double free), 416 (use after free), 590
(free of memory not on the heap), 761 (free of a pointer not at the start of
its buffer) and 787 (out-of-bounds writes to globals and statics), a bad
program `cweNNN_MM_what_bad.c` (or .cc) and its good twin
`cweNNN_MM_what_good.c`, the same program with the bug fixed. Each file
says in its first comment what the bug is. The programs need no input
(fixed strings and /dev/zero stand for it) and exit 0 when nothing stops
them.

Every program is built with each tool at each configuration:

    tools     ASan gcc      gcc / g++ -fsanitize=address
              ukasan gcc    ukasan-cc / ukasan-c++ (UKASAN_CC=gcc)
              ASan clang    clang-16 / clang++-16 -fsanitize=address
                            (when libclang-rt-16-dev is installed)
              ukasan clang  ukasan-cc / ukasan-c++ with UKASAN_CC=clang-16
    configs   -O1
              -O2 -D_FORTIFY_SOURCE=2

and run once, stdin from /dev/null, with a timeout. ASan runs with
ASAN_OPTIONS=detect_leaks=0, ukasan with its default options (no
UKASAN_OPTIONS: KASAN reports the first bug and the program goes on; KFENCE
samples every 100 ms). A bad program counts as detected when the tool's own
report appears on stderr: "ERROR: AddressSanitizer" for ASan, "BUG: KASAN:"
or "BUG: KFENCE:" for ukasan. glibc's own "*** buffer overflow detected
***" abort (a _FORTIFY_SOURCE check) is counted apart, in its own column,
as neither tool's detection. A good program with a report is a false alarm.

Printed (and appended to build/bench/results_corpus.md): per tool and
configuration, bad programs detected, stopped by glibc only, missed, and
false alarms on good programs; the same per CWE; then every bad program on
which ASan and ukasan of the same compiler and configuration disagree, with
one line of why: for a ukasan miss, the reason given in the table of known
misses in tests/corpus/check_corpus.py; otherwise what the reports tell
(the interceptor that caught it, glibc's abort, a crash). Then the programs
no tool detects, and every false alarm, failed good program or failed
build: nothing is hidden.

ukasan-cc and the runtime are copied from build/ at start, so that a
rebuild while this runs does not change what is measured. About 14 minutes
of CPU time (7 on two idle cores), most of it compiling.
tests/corpus/check_corpus.py uses this file's builder and classifier.
"""
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from benchlib import BASE_ENV, emit, finish, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "bench", "corpus")
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench", "corpus")
RESULTS = os.path.join(BUILD, "bench", "results_corpus.md")

TIMEOUT = 20  # seconds for one run
BUILD_TIMEOUT = 120

CWES = {
    "121": "stack-based overflow",
    "122": "heap-based overflow",
    "124": "buffer underwrite",
    "126": "buffer over-read",
    "127": "buffer under-read",
    "415": "double free",
    "416": "use after free",
    "590": "free of memory not on the heap",
    "761": "free of pointer not at start",
    "787": "out-of-bounds write (globals, statics)",
}

# The configurations: the held-out suite's -O1, and a distribution's
# hardened build.
OPTS = {"O1": ["-O1"], "O2F": ["-O2", "-D_FORTIFY_SOURCE=2"]}
OPT_LABEL = {"O1": "-O1", "O2F": "-O2 -D_FORTIFY_SOURCE=2"}

ASAN_RE = re.compile(r"ERROR: AddressSanitizer: ?(.*)")
UKASAN_RE = re.compile(r"BUG: (KASAN|KFENCE): (.*?) in (\S+)")
FORTIFY = "*** buffer overflow detected ***"


class Program:
    """One corpus file."""

    def __init__(self, path):
        self.path = path
        base = os.path.basename(path)
        self.name, ext = os.path.splitext(base)
        m = re.fullmatch(r"cwe(\d+)_(\d+)_(\w+)_(bad|good)", self.name)
        if not m:
            raise ValueError(f"corpus file name not understood: {base}")
        self.cwe, self.bad = m.group(1), m.group(4) == "bad"
        self.cxx = ext == ".cc"
        self.pair = self.name.rsplit("_", 1)[0]

    def source(self):
        with open(self.path, encoding="utf-8") as f:
            return f.read()


def programs(only=None):
    ps = []
    for f in sorted(os.listdir(CORPUS)):
        if f.endswith((".c", ".cc")) and (not only or only in f):
            ps.append(Program(os.path.join(CORPUS, f)))
    return ps


class Tool:
    """A compiler and sanitizer: how to build, how to run, what a report is."""

    def __init__(self, key, label, cc, cxx, flags=(), build_env=None, run_env=None,
                 ukasan=False, compiler="gcc"):
        self.key, self.label = key, label
        self.cc, self.cxx, self.flags = cc, cxx, list(flags)
        self.build_env, self.run_env = build_env or {}, run_env or {}
        self.ukasan, self.compiler = ukasan, compiler


def have_asan_clang():
    if shutil.which("clang-16") is None or shutil.which("dpkg") is None:
        return False
    return subprocess.run(["dpkg", "-s", "libclang-rt-16-dev"], capture_output=True).returncode == 0


def tools(bin_dir, notes=None):
    """Every tool this machine has: ASan and ukasan, gcc and clang-16."""
    notes = [] if notes is None else notes
    ukcc, ukcxx = os.path.join(bin_dir, "ukasan-cc"), os.path.join(bin_dir, "ukasan-c++")
    asan_env = {"ASAN_OPTIONS": "detect_leaks=0"}
    ts = [Tool("asan-gcc", "ASan gcc", "gcc", "g++", ["-fsanitize=address"], run_env=asan_env),
          Tool("uk-gcc", "ukasan gcc", ukcc, ukcxx,
               build_env={"UKASAN_CC": "gcc", "UKASAN_CXX": "g++"}, ukasan=True)]
    if shutil.which("clang-16"):
        if have_asan_clang():
            ts.append(Tool("asan-clang", "ASan clang", "clang-16", "clang++-16",
                           ["-fsanitize=address"], run_env=asan_env, compiler="clang"))
        else:
            notes.append("libclang-rt-16-dev is not installed: no ASan clang-16 column.")
        ts.append(Tool("uk-clang", "ukasan clang", ukcc, ukcxx,
                       build_env={"UKASAN_CC": "clang-16", "UKASAN_CXX": "clang++-16"},
                       ukasan=True, compiler="clang"))
    else:
        notes.append("clang-16 is not installed: no clang-16 columns.")
    return ts


class Outcome:
    """What one build of one program did."""

    def __init__(self, built=True, build_err="", status=0, timed_out=False, out="", err=""):
        self.built, self.build_err = built, build_err
        self.status, self.timed_out = status, timed_out
        self.out, self.err = out, err
        self.report = None   # the tool's bug type, when it reported
        self.frame = None    # the function the report names (ASan: frame #0)
        self.fortify = FORTIFY in err

    def crash(self):
        """A signal or timeout, as text, or None."""
        if self.timed_out:
            return "timed out"
        if self.status < 0:
            try:
                return f"killed by {signal.Signals(-self.status).name}"
            except ValueError:
                return f"killed by signal {-self.status}"
        return None


def classify(o, tool):
    """Fills in o.report and o.frame from the tool's report, if any."""
    if not o.built:
        return o
    if tool.ukasan:
        m = UKASAN_RE.search(o.err)
        if m:
            o.report = m.group(2) if m.group(1) == "KASAN" else "KFENCE " + m.group(2)
            o.frame = m.group(3).split("+")[0]
            # An interceptor's report names its caller; the trace starts
            # with the interceptor.
            f = re.search(r"<TASK>\n\s*(?:\[<[0-9a-f]+>\] )?([^\s+]+)\+0x", o.err[m.start():])
            if f:
                o.frame = f.group(1)
    else:
        m = ASAN_RE.search(o.err)
        if m:
            text = m.group(1)
            t = re.match(r"attempting ([\w-]+)", text)
            if t:
                o.report = "double-free" if t.group(1) == "double-free" else "bad-free"
            else:
                o.report = re.split(r"[\s:(]", text.strip(), maxsplit=1)[0] or "report"
            f = re.search(r"^\s*#0 0x[0-9a-f]+ in (.+?)(?: \(|\s+/|\s+\.\./|$)",
                          o.err[m.start():], re.M)
            if f:
                o.frame = re.sub(r"^_*interceptor_", "", f.group(1).split("(")[0])
    return o


def compile_cmd(prog, tool, opt, exe):
    cc = tool.cxx if prog.cxx else tool.cc
    return [cc, *OPTS[opt], *tool.flags, prog.path, "-o", exe]


def build(prog, tool, opt, out_dir):
    """Builds prog; returns (exe, None) or (None, the compiler's message)."""
    exe = os.path.join(out_dir, f"{tool.key}-{opt}", prog.name)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = compile_cmd(prog, tool, opt, exe)
    try:
        r = subprocess.run(cmd, env=dict(BASE_ENV, **tool.build_env), capture_output=True,
                           text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "the compiler timed out"
    if r.returncode != 0:
        return None, " ".join(cmd) + "\n" + r.stderr[-2000:]
    return exe, None


def run(exe, env, cwd):
    """Runs exe in its own process group; kills the group on timeout."""
    p = subprocess.Popen([exe], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=cwd, start_new_session=True)
    timer = threading.Timer(TIMEOUT, lambda: os.killpg(p.pid, signal.SIGKILL))
    timer.start()
    out, err = p.communicate()
    timed_out = not timer.is_alive() and p.returncode == -signal.SIGKILL
    timer.cancel()
    return Outcome(status=p.returncode, timed_out=timed_out,
                   out=out.decode(errors="replace"), err=err.decode(errors="replace"))


def build_and_run(prog, tool, opt, out_dir, run_env=None, keep=True):
    exe, why = build(prog, tool, opt, out_dir)
    if exe is None:
        return Outcome(built=False, build_err=why)
    env = dict(BASE_ENV, **tool.run_env, **(run_env or {}))
    o = classify(run(exe, env, os.path.dirname(exe)), tool)
    if not keep:
        os.remove(exe)
    return o


def run_matrix(progs, tls, opts, out_dir, jobs, run_env=None, keep=True, progress=True):
    """Every program with every tool and option set, `jobs` at a time.
    Returns {(program name, tool key, opt): Outcome}."""
    work = [(p, t, o) for o in opts for t in tls for p in progs]
    # C++ first: the longest builds should not be left for the end.
    work.sort(key=lambda w: not w[0].cxx)
    results = {}
    start, done = time.time(), 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = [(w, pool.submit(build_and_run, *w, out_dir, run_env, keep)) for w in work]
        for (p, t, o), f in futs:
            results[(p.name, t.key, o)] = f.result()
            done += 1
            if progress and done % 200 == 0:
                print(f"  {done}/{len(work)} builds and runs, {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
    return results


# --- the benchmark ------------------------------------------------------------------

table = functools.partial(table, numeric=r"[-\d./ %]*")


def defined_in(prog, fn):
    """Whether the program's own source defines function fn (else it is a
    library function, reached through an interceptor)."""
    base = fn.split("(")[0].split("::")[-1]
    if base == "main":
        return True
    return re.search(r"\b" + re.escape(base) + r"\s*\([^;{]*\)\s*(const\s*)?(override\s*)?\{",
                     prog.source()) is not None


def known_misses():
    """tests/corpus/check_corpus.py's table of ukasan's known misses, with
    their reasons: {(program, "gcc-O1"...): reason}."""
    import importlib.util
    path = os.path.join(ROOT, "tests", "corpus", "check_corpus.py")
    try:
        spec = importlib.util.spec_from_file_location("check_corpus", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except (OSError, SyntaxError, ImportError):
        return {}
    out = {}
    for name, entries in mod.EXPECTED_MISS.items():
        for builds, why in entries if isinstance(entries, list) else [entries]:
            for b in builds:
                out[(name, b)] = why
    return out


def why_missed(prog, miss, hit, hit_tool, known=None):
    """One line: why the tool that missed did, as far as the runs tell."""
    if not miss.built:
        return "did not build"
    if known:
        return known
    bits = []
    c = miss.crash()
    if miss.fortify:
        bits.append("glibc's fortify check aborted first")
    elif c and re.search(r"^(malloc|free|realloc|double free|munmap_chunk)[^\n]*(\(\))?: ",
                         miss.err, re.M):
        bits.append(f"no report; glibc's malloc found the heap corrupted ({c})")
    elif c:
        bits.append(f"no report ({c})")
    else:
        bits.append("no report")
    if hit.report == "SEGV":
        bits.append(f"{hit_tool} reported the SEGV itself, from its signal handler")
    elif hit.frame and not defined_in(prog, hit.frame):
        bits.append(f"{hit_tool} caught it in its {hit.frame} interceptor")
    elif hit.frame:
        bits.append(f"{hit_tool} caught it in {hit.frame}")
    return "; ".join(bits)


def config_label(t, opt):
    return f"{t.label} {OPT_LABEL[opt]}"


def main():
    jobs, only, keep = 2, None, False
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--jobs" and args:
            jobs = max(1, int(args.pop(0)))
        elif a == "--only" and args:
            only = args.pop(0)
        elif a == "--keep":
            keep = True
        else:
            sys.exit(__doc__.split("\n\n")[1])
    for f in ("bin/ukasan-cc", "bin/ukasan-c++", "lib/libukasan.so"):
        if not os.path.exists(os.path.join(BUILD, f)):
            sys.exit(f"bench: build/{f} not found: run make first")
    start = time.time()
    load_start = os.getloadavg()
    # A private copy of the tools and runtime.
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    for d in ("bin", "lib"):
        shutil.copytree(os.path.join(BUILD, d), os.path.join(OUT, d))
    notes = []
    tls = tools(os.path.join(OUT, "bin"), notes)
    progs = programs(only)
    bad = [p for p in progs if p.bad]
    good = [p for p in progs if not p.bad]
    print(f"corpus: {len(bad)} bad and {len(good)} good programs, {len(tls)} tools x "
          f"{len(OPTS)} configurations, {jobs} at a time", file=sys.stderr, flush=True)
    exe_dir = os.path.join(OUT, "exe")
    res = run_matrix(progs, tls, list(OPTS), exe_dir, jobs, keep=keep)
    elapsed = time.time() - start

    emit(f"# ukasan detection on the bug corpus, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "include",
                            "tools"], capture_output=True, text=True).stdout.strip()
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    emit(f"Commit {head}{' (src/, include/ or tools/ modified)' if dirty else ''}; "
         f"{gcc.splitlines()[0]}; {os.cpu_count()} CPUs, load average at start "
         f"{' '.join(f'{x:.2f}' for x in load_start)}.")
    emit()
    emit(f"Corpus: bench/corpus/, {len(bad)} bad programs and {len(good)} good twins "
         f"({sum(p.cxx for p in bad)} of each in C++). Each built by each tool at -O1 and "
         f"at -O2 -D_FORTIFY_SOURCE=2, run once (timeout {TIMEOUT} s). Detected: the tool's "
         f"report on stderr (ASan: 'ERROR: AddressSanitizer', ASAN_OPTIONS=detect_leaks=0; "
         f"ukasan: 'BUG: KASAN:' or 'BUG: KFENCE:', default options). glibc only: glibc's "
         f"'{FORTIFY}' abort and no report from the tool. False alarms: good programs "
         f"with a report.")
    for n in notes:
        emit(f"Note: {n}")
    emit()

    failed_builds = [(k, o) for k, o in res.items() if not o.built]
    rows = []
    for opt in OPTS:
        for t in tls:
            det = [p for p in bad if res[(p.name, t.key, opt)].report]
            glibc = [p for p in bad if not res[(p.name, t.key, opt)].report
                     and res[(p.name, t.key, opt)].fortify]
            nb = [p for p in progs if not res[(p.name, t.key, opt)].built]
            fa = [p for p in good if res[(p.name, t.key, opt)].report]
            gfail = [p for p in good if res[(p.name, t.key, opt)].built
                     and not res[(p.name, t.key, opt)].report
                     and (res[(p.name, t.key, opt)].status != 0)]
            rows.append([config_label(t, opt), len(bad), len(det), len(glibc),
                         len(bad) - len(det) - len(glibc), len(good), len(fa),
                         len(gfail), len(nb)])
    emit("## Detection")
    emit()
    emit(table(["Tool and configuration", "Bad", "Detected", "glibc only", "Missed", "Good",
                "False alarms", "Good exit != 0", "Not built"], rows))
    emit()

    emit("## Detected per CWE")
    emit()
    heads = ["CWE", "Bad"] + [f"{t.label} {opt}" for opt in OPTS for t in tls]
    rows = []
    for cwe, what in CWES.items():
        ps = [p for p in bad if p.cwe == cwe]
        if not ps:
            continue
        row = [f"{cwe} {what}", len(ps)]
        for opt in OPTS:
            for t in tls:
                row.append(sum(1 for p in ps if res[(p.name, t.key, opt)].report))
        rows.append(row)
    emit(table(heads, rows))
    emit()

    emit("## Where ASan and ukasan differ")
    emit()
    emit("Bad programs that one of the two detects and the other does not, with the same "
         "compiler at the same configuration. Why ukasan misses one: the reason in "
         "tests/corpus/check_corpus.py's table of known misses; otherwise, and why ASan "
         "misses one, as read from the runs: the function the other tool's report names "
         "(an interceptor when the program does not define it), glibc's abort, a crash.")
    emit()
    by_key = {t.key: t for t in tls}
    known = known_misses()
    any_diff = False
    for comp in ("gcc", "clang"):
        a, u = by_key.get(f"asan-{comp}"), by_key.get(f"uk-{comp}")
        if not a or not u:
            continue
        for opt in OPTS:
            only_asan, only_uk = [], []
            for p in bad:
                ra, ru = res[(p.name, a.key, opt)], res[(p.name, u.key, opt)]
                if ra.report and not ru.report:
                    why = why_missed(p, ru, ra, "ASan", known.get((p.name, f"{comp}-{opt}")))
                    only_asan.append(f"- {p.name}: ASan {ra.report}"
                                     f"{' in ' + ra.frame if ra.frame else ''}; ukasan: {why}")
                elif ru.report and not ra.report:
                    only_uk.append(f"- {p.name}: ukasan {ru.report}; ASan: "
                                   f"{why_missed(p, ra, ru, 'ukasan')}")
            if only_asan or only_uk:
                any_diff = True
            emit(f"### {comp} {OPT_LABEL[opt]}: ASan only {len(only_asan)}, ukasan only "
                 f"{len(only_uk)}")
            emit()
            for line in only_asan + only_uk:
                emit(line)
            if only_asan or only_uk:
                emit()
    if not any_diff:
        emit("None.")
        emit()

    emit("## Missed by every tool and configuration")
    emit()
    missed_all = [p for p in bad if not any(o.report for (n, _, _), o in res.items()
                                            if n == p.name)]
    for p in missed_all:
        emit(f"- {p.name}")
    if not missed_all:
        emit("None.")
    emit()

    emit("## False alarms and failures")
    emit()
    problems = []
    for (name, tk, opt), o in sorted(res.items()):
        label = config_label(by_key[tk], opt)
        if not o.built:
            first = o.build_err.strip().splitlines()[-1] if o.build_err.strip() else ""
            problems.append(f"- {name} [{label}]: did not build: {first[:200]}")
        elif name.endswith("_good") and o.report:
            problems.append(f"- {name} [{label}]: FALSE ALARM: {o.report} in {o.frame}")
        elif name.endswith("_good") and o.status != 0:
            problems.append(f"- {name} [{label}]: good program exited {o.status}"
                            f"{' (' + o.crash() + ')' if o.crash() else ''}"
                            f"{' (glibc fortify abort)' if o.fortify else ''}")
    for line in problems:
        emit(line)
    if not problems:
        emit("None: every program built, and no good program reported or failed.")
    emit()
    finish(f"{elapsed:.0f} s with {jobs} jobs", RESULTS)
    if not keep:
        shutil.rmtree(OUT, ignore_errors=True)
    else:
        emit(f"Programs kept in {exe_dir}/TOOL-CONFIG/.")
    return 1 if failed_builds else 0


if __name__ == "__main__":
    sys.exit(main())
