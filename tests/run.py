#!/usr/bin/env python3
"""ukasan's test runner.

Two kinds of test:

* C/C++ programs (tests/**/*.c, *.cc). Directives in comments:
    // RUN: OPTIONS              UKASAN_OPTIONS for the run (default: none)
    // RUN-ALSO: OPTIONS          run the same program once more, as a test of
                                  its own ("name [OPTIONS]"), with these
                                  UKASAN_OPTIONS instead of RUN's; one line
                                  per extra run, every other directive shared
    // RUN-WITH: preload|none     how the runtime is attached (default: preload)
    // PRELOAD-BEFORE: LIB...     put these libraries before libukasan.so in
                                  LD_PRELOAD (a bare soname is searched for
                                  as the dynamic linker does)
    // PRELOAD-AFTER: LIB...      the same, after libukasan.so
    // REPEAT: N                  run the built program N times (each with
                                  the same timeout); every run must pass, and
                                  the first failing one is reported
    // ARGS: ...                  program arguments
    // CFLAGS: ...                extra compiler flags
    // STATUS: N | signal NAME    expected exit (default 0; 1 when KASAN is
                                  on, a generic or sw_tags build or RUN's
                                  kasan=on, and EXPECT names a report: a run
                                  that printed one exits with ukasan.exitcode)
    // EXPECT: text               must appear in stderr, in this order
    // EXPECT-RE: regex           the same, as a regular expression (multiline)
    // NOT: text                  must not appear in stderr
    // COUNT: N text              text appears exactly N times in stderr
    // STDOUT: text               must appear in stdout
    // MODE: generic              build with ukasan-cc (generic KASAN) and run
                                  once per compiler: gcc and clang-16, each a
                                  test of its own ("name [gcc]", "name [clang]")
    // VARIANTS: gcc clang gcc-outline clang-outline gcc-fortify clang-fortify
                                  which builds to run (generic mode; default:
                                  gcc clang; all at -O1, but -fortify ones at
                                  -O2 -D_FORTIFY_SOURCE=2, and gcc-O0,
                                  clang-O3... at that level). KFENCE is off unless RUN names
                                  a kfence option.
    // MODE: sw_tags              software-tag KASAN (arm64 only; skipped in
                                  the native run): built with ukasan-cc
                                  UKASAN_MODE=sw_tags once per compiler as
                                  generic mode is, and run like it (RUN-WITH
                                  none, KFENCE off unless RUN names a kfence
                                  option). VARIANTS: gcc clang (default),
                                  clang-outline (outlined check stubs),
                                  clang-calls (a call per access); GCC has
                                  calls only
    // MODE: hw_tags              hardware-tag KASAN (MTE; arm64 only): the
                                  program is built unmodified with the
                                  plain cross compiler (CC: clang-16 for
                                  clang) and run with the preload; the test
                                  writes kasan=on in RUN itself. KFENCE is
                                  off unless RUN names a kfence option
    // TAG-MODES: sw_tags hw_tags  a MODE: generic (or sw_tags) test that
                                  runs in these tag modes too, for arm64
                                  (--arch aarch64), each a test of its own:
                                  sw_tags built as MODE: sw_tags builds
                                  (the gcc and clang of its cross-
                                  architecture builds), "name [sw_tags
                                  gcc]"; hw_tags built unmodified by the
                                  plain cross gcc at -O1 and run under the
                                  preload with kasan=on kmemleak=on before
                                  RUN's options (an unmodified program's
                                  leaks are checked only when asked),
                                  "name [hw_tags]"
    // CROSS-VARIANTS: gcc clang ... -- why
                                  the builds of the cross-architecture runs
                                  (default: VARIANTS but the -fortify ones:
                                  the __*_chk interceptors are the same C
                                  on every architecture, and ran on x86-64;
                                  the va_list ones ask for them).
                                  "alternate": one of those, chosen by the
                                  file's name, for a test of the runtime's
                                  own C (the interceptor families, the
                                  options, the exit status), which does
                                  not change with the compiler
    // EXPECT-GCC: / EXPECT-CLANG: / NOT-GCC: ...  only for that compiler
    // ARCH: x86_64 -- why         only on these architectures (default: all)

With --arch aarch64 (or --also-arch aarch64, after the native runs, in one
count), the KFENCE and generic tests run for arm64: built with the cross
compilers against build/aarch64/ (make ARCH=aarch64), run under
qemu-aarch64 -cpu max, named "aarch64/...".
  The program may also print lines "EXPECT: text" on stdout: expectations it
  can only compute at run time, such as exact addresses. They are checked
  in order, separately from the static ones.

* Scripts (tests/**/check_*.sh, check_*.py): print "ok NAME" or
  "not ok NAME - why" lines; each line counts as one test. They run
  beside the programs and each other, each with its own $UKASAN_TEST_TMP,
  so a script must not take a fixed port, socket or path outside it.

Every run of a program has a timeout of 120 seconds; a run that exceeds it
(a hang, a deadlock) fails. Files whose names start with "_" are not tests
(headers, bodies shared by several tests).

Ends with one line "N passed, N failed".
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import zlib
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST_ARCH = os.uname().machine
TMP = tempfile.mkdtemp(prefix="ukasan-tests-")
# Open to pass through: tests run daemons as their own users (PostgreSQL's)
# in directories below it.
os.chmod(TMP, 0o711)
# What a cross architecture's runs need: its build tree, compilers, and how
# its programs run.
CROSS = {
    "aarch64": {
        "gcc": "aarch64-linux-gnu-gcc", "g++": "aarch64-linux-gnu-g++",
        "run": ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"],
        "dirs": ["kfence", "generic", "kmemleak", "tags", "hw_tags"],
        # Debian's arm64 jemalloc, mimalloc and tcmalloc, unpacked here by
        # tests/real/check_arm64_real.py fetch (make test runs it first).
        "prefix": os.path.join(ROOT, "build", "third_party", "arm64"),
    },
}


def cross_libdirs(arch):
    p = CROSS[arch]["prefix"]
    return [os.path.join(p, "usr/lib", arch + "-linux-gnu"), os.path.join(p, "lib", arch + "-linux-gnu")]


def build_of(arch):
    return os.path.join(ROOT, "build") if arch == HOST_ARCH else os.path.join(ROOT, "build", arch)


BUILD = build_of(HOST_ARCH)


def directives(src, variant=None):
    d = {"RUN": [], "RUN-ALSO": [], "RUN-WITH": [], "ARGS": [], "CFLAGS": [], "STATUS": [],
         "EXPECT": [], "NOT": [], "COUNT": [], "STDOUT": [], "CC": [], "MODE": [], "VARIANTS": [],
         "PRELOAD-BEFORE": [], "PRELOAD-AFTER": [], "REPEAT": [], "ARCH": [], "CROSS-VARIANTS": [],
         "TAG-MODES": []}
    order = []
    for line in open(src, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*//\s*(RUN-WITH|RUN-ALSO|RUN|CROSS-VARIANTS|TAG-MODES|PRELOAD-BEFORE|PRELOAD-AFTER|REPEAT|ARGS|CFLAGS|STATUS|EXPECT-RE|EXPECT|NOT|COUNT|STDOUT|CC|MODE|VARIANTS|ARCH)(-GCC|-CLANG)?:\s?(.*?)\s*$", line)
        if not m:
            continue
        key, only, val = m.group(1), m.group(2), m.group(3)
        if only and variant and only[1:].lower() != variant.split("-")[0]:
            continue
        if key in ("EXPECT", "EXPECT-RE"):
            order.append((key, val))
        else:
            d[key].append(val)
    d["ORDER"] = order
    return d


REPORT_TITLE = re.compile(r"BUG: KASAN|BUG: KFENCE|UBSAN: |KASAN: |KFENCE: ")


def default_status(d, variant):
    """1 where the run must end so: KASAN on and a report expected."""
    kasan_on = variant is not None or any(re.search(r"(^|\s)kasan=on\b", r) for r in d["RUN"])
    expects = any(REPORT_TITLE.search(v) for _, v in d["ORDER"]) or any(
        REPORT_TITLE.search(c) and not c.startswith("0 ") for c in d["COUNT"])
    return "1" if kasan_on and expects else "0"


def check_sequence(items, text, what):
    """items: list of (kind, value); each must be found after the previous."""
    pos = 0
    for kind, val in items:
        if kind == "EXPECT-RE":
            m = re.compile(val, re.M).search(text, pos)
            if not m:
                return f"{what} regex not found (after offset {pos}): {val}"
            pos = m.end()
        else:
            i = text.find(val, pos)
            if i < 0:
                return f"{what} not found (after offset {pos}): {val}"
            pos = i + len(val)
    return None


# The modes only arm64 has (top-byte-ignore, MTE).
TAG_MODES = ("sw_tags", "hw_tags")


def mode_of(d):
    return d["MODE"][0].split()[0] if d["MODE"] and d["MODE"][0].split() else None


def compile_test(src, d, exe, variant=None, arch=HOST_ARCH, opt="-O0"):
    cxx = src.endswith(".cc")
    build = build_of(arch)
    cc = (d["CC"][0] if d["CC"] else ("g++" if cxx else "gcc"))
    target = []
    if arch != HOST_ARCH:
        cc = CROSS[arch].get(cc, cc)
        if "clang" in cc:
            target = ["--target=" + arch + "-linux-gnu"]
    env = dict(os.environ)
    env["UKASAN_MODE"] = "sw_tags" if mode_of(d) == "sw_tags" else "generic"
    if variant:
        compiler, _, how = variant.partition("-")
        cc = os.path.join(build, "bin", "ukasan-c++" if cxx else "ukasan-cc")
        target = []  # ukasan-cc adds it
        if compiler == "clang":
            env["UKASAN_CC"], env["UKASAN_CXX"] = "clang-16", "clang++-16"
        else:
            env["UKASAN_CC"], env["UKASAN_CXX"] = "gcc", "g++"
        opt = "-O1"
        if how == "fortify":
            # As Debian's dpkg-buildflags build: calls become __*_chk.
            opt, how = "-O2 -D_FORTIFY_SOURCE=2", ""
        elif how in ("O0", "O2", "O3"):
            opt, how = "-" + how, ""
        env["UKASAN_INSTRUMENT"] = how or "inline"
    cmd = [cc, *target, "-g", *opt.split(), "-fno-omit-frame-pointer", "-I" + os.path.join(ROOT, "include"),
           "-I" + os.path.join(ROOT, "tests"), src, "-o", exe, "-lpthread"]
    for f in d["CFLAGS"]:
        cmd += shlex.split(f.replace("$BUILD", build).replace("$ROOT", ROOT))
    if arch != HOST_ARCH:
        cmd += ["-I" + os.path.join(CROSS[arch]["prefix"], "usr/include")]
        cmd += [f for l in cross_libdirs(arch) for f in ("-L" + l, "-Wl,-rpath-link," + l)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return r.returncode == 0, r.stderr


def variants_of(src, arch=HOST_ARCH):
    """The runs of one test file: (compiler variant or None, UKASAN_OPTIONS
    of a RUN-ALSO line or None for RUN's)."""
    d = directives(src)
    if mode_of(d) not in ("generic", "sw_tags"):
        builds = [None]
    else:
        builds = d["VARIANTS"][0].split() if d["VARIANTS"] else ["gcc", "clang"]
        if arch != HOST_ARCH:
            cross = d["CROSS-VARIANTS"][0].split("--")[0].split() if d["CROSS-VARIANTS"] else None
            plain = [b for b in builds if not b.endswith("-fortify")]
            if cross == ["alternate"]:
                # One build, the same for a file in every run.
                builds = [plain[zlib.crc32(os.path.basename(src).encode()) % len(plain)]]
            else:
                builds = cross or plain
        # The tag modes' runs, arm64's: "MODE:build".
        tags = d["TAG-MODES"][0].split() if d["TAG-MODES"] and arch == "aarch64" else []
        if "sw_tags" in tags:
            builds = builds + (["sw_tags:" + b for b in builds if b in ("gcc", "clang")] or ["sw_tags:gcc"])
        if "hw_tags" in tags:
            builds = builds + ["hw_tags:gcc"]
    return [(b, o) for b in builds for o in [None] + d["RUN-ALSO"]]


def check_run(d, r):
    """The problems with one finished run (a CompletedProcess)."""
    out = r.stdout.decode(errors="replace")
    errtxt = r.stderr.decode(errors="replace")
    problems = []
    want = d["STATUS"][0] if d["STATUS"] else "0"
    if want.startswith("signal"):
        sig = getattr(signal, want.split()[1])
        if r.returncode != -sig:
            problems.append(f"expected death by {want}, got status {r.returncode}")
    elif want == "nonzero":
        if r.returncode == 0:
            problems.append("expected a non-zero status, got 0")
    elif r.returncode != int(want):
        problems.append(f"expected status {want}, got {r.returncode}")
    p = check_sequence(d["ORDER"], errtxt, "EXPECT")
    if p:
        problems.append(p)
    dyn = [("EXPECT", l[len("EXPECT: "):]) for l in out.splitlines() if l.startswith("EXPECT: ")]
    p = check_sequence(dyn, errtxt, "runtime EXPECT")
    if p:
        problems.append(p)
    for n in d["NOT"]:
        if n in errtxt:
            problems.append(f"unexpected in stderr: {n}")
    for c in d["COUNT"]:
        num, text = c.split(" ", 1)
        if errtxt.count(text) != int(num):
            problems.append(f"expected {num} x '{text}', found {errtxt.count(text)}")
    for s in d["STDOUT"]:
        if s not in out:
            problems.append(f"stdout lacks: {s}")
    if not problems:
        return None
    detail = "\n  ".join(problems)
    return f"{detail}\n--- stdout ---\n{out[-3000:]}\n--- stderr ---\n{errtxt[-6000:]}"


def run_program_test(job):
    src, variant, also, arch = job
    name = os.path.relpath(src, os.path.join(ROOT, "tests"))
    if arch != HOST_ARCH:
        name = f"{arch}/{name}"
    tag_mode = None
    if variant and ":" in variant:  # a TAG-MODES run
        tag_mode, _, variant = variant.partition(":")
        name += f" [{tag_mode} {variant}]" if tag_mode == "sw_tags" else f" [{tag_mode}]"
        if tag_mode == "hw_tags":
            variant = None
    d = directives(src, variant)
    if tag_mode:
        d["MODE"] = [tag_mode]
    elif variant:
        name += f" [{variant}]"
    if also is not None:
        name += f" [{also}]"
        d["RUN"] = [also]
    if tag_mode == "hw_tags":
        d["RUN"].insert(0, "kasan=on kmemleak=on")
    if variant:
        if not d["RUN-WITH"]:
            d["RUN-WITH"] = ["none"]
        # KFENCE samples in generic mode too, as in the kernel; KASAN tests
        # want KASAN's own object unless they say otherwise.
        if not any("kfence." in r for r in d["RUN"]):
            d["RUN"].insert(0, "kfence.sample_interval=0")
    elif mode_of(d) == "hw_tags" and not any("kfence." in r for r in d["RUN"]):
        d["RUN"].insert(0, "kfence.sample_interval=0")
    if not d["STATUS"]:
        d["STATUS"] = [default_status(d, variant)]
    # Runs whose options differ only in separators (a=1:b=2, a=1,b=2) would
    # share a file name: the name's checksum keeps them apart.
    exe = os.path.join(TMP, "%s_%08x.bin" % (re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:150],
                                            zlib.crc32(name.encode())))
    ok, err = compile_test(src, d, exe, variant, arch, "-O1" if tag_mode == "hw_tags" else "-O0")
    if not ok:
        return [(name, "compile failed:\n" + err)]
    env = dict(os.environ)
    env.pop("UKASAN_OPTIONS", None)
    env.pop("ASAN_OPTIONS", None)  # read too: a caller's must not change what a test sees
    env["UKASAN_OPTIONS"] = " ".join(d["RUN"])
    env["UKASAN_TEST_TMP"] = TMP
    with_ = d["RUN-WITH"][0] if d["RUN-WITH"] else "preload"
    runner = []
    if with_ == "preload":
        libs = [l for v in d["PRELOAD-BEFORE"] for l in v.split()]
        libs += [os.path.join(build_of(arch), "lib", "libukasan.so")]
        libs += [l for v in d["PRELOAD-AFTER"] for l in v.split()]
        env["LD_PRELOAD"] = " ".join(libs)
    if arch != HOST_ARCH:
        # The guest's environment: the host's (qemu passes it on), but
        # LD_PRELOAD, which would load into qemu itself.
        runner = list(CROSS[arch]["run"]) + ["-E", "LD_LIBRARY_PATH=" + ":".join(cross_libdirs(arch))]
        if "LD_PRELOAD" in env:
            runner += ["-E", "LD_PRELOAD=" + env.pop("LD_PRELOAD")]
    args = shlex.split(d["ARGS"][0]) if d["ARGS"] else []
    repeat = int(d["REPEAT"][0]) if d["REPEAT"] else 1
    for i in range(repeat):
        again = f"run {i + 1} of {repeat}: " if repeat > 1 else ""
        try:
            r = subprocess.run(runner + [exe] + args, capture_output=True, env=env, timeout=120,
                               cwd=ROOT)
        except subprocess.TimeoutExpired:
            return [(name, again + "timed out")]
        problem = check_run(d, r)
        if problem:
            return [(name, again + problem)]
    return [(name, None)]


def run_script(path):
    name = os.path.relpath(path, os.path.join(ROOT, "tests"))
    cmd = ["python3", path] if path.endswith(".py") else ["sh", path]
    # Each script its own directory: scripts run beside each other.
    # Short: scripts put sockets there (108 bytes at most, rsyslog's
    # PostgreSQL host 64).
    top, base = os.path.split(name)
    tmp = os.path.join(TMP, top + "-" + base.removeprefix("check_").rsplit(".", 1)[0])
    os.makedirs(tmp, exist_ok=True)
    env = dict(os.environ, UKASAN_ROOT=ROOT, UKASAN_BUILD=BUILD, UKASAN_TEST_TMP=tmp)
    env.pop("UKASAN_OPTIONS", None)
    env.pop("ASAN_OPTIONS", None)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return [(name, "timed out")]
    results = []
    for line in r.stdout.splitlines():
        m = re.match(r"(not ok|ok)\s+(.*)", line)
        if m:
            bad = m.group(1) == "not ok"
            results.append((f"{name}: {m.group(2)}", m.group(2) if bad else None))
    if r.returncode != 0 or not results:
        results.append((name, f"script exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"))
    return results


def applies(src, arch):
    d = directives(src)
    if mode_of(d) in TAG_MODES and arch != "aarch64":
        return False
    want = d["ARCH"]
    return not want or arch in want[0].split("--")[0].split()


def missing_tools(jobs):
    """What the selected runs need and this machine lacks, as one line that
    says what to run; None when nothing is missing."""
    need = set()
    for src, variant, _, arch in jobs:
        lib = os.path.join(build_of(arch), "lib", "libukasan.so")
        if not os.path.exists(lib):
            return (f"{os.path.relpath(lib, ROOT)} not built: run make"
                    + (f" ARCH={arch}" if arch != HOST_ARCH else "") + " first")
        if arch != HOST_ARCH:
            need.add(CROSS[arch]["run"][0])
        elif variant and variant.startswith("clang"):
            need.add("clang-16")
        else:
            need.add("gcc")
    lacking = sorted(t for t in need if not shutil.which(t))
    if not lacking:
        return None
    return (f"{', '.join(lacking)} not found: run make test-core once (or, as root, "
            f"sh tools/deps.sh core), or make test for the arm64 runs")


def main():
    # Arguments: substrings of the paths to run (any of them); none: all.
    # --arch A: only architecture A's runs; --also-arch A: the native runs,
    # then A's.
    argv = sys.argv[1:]
    arches = [HOST_ARCH]
    while argv and argv[0] in ("--arch", "--also-arch"):
        opt, a = argv[0], argv[1]
        argv = argv[2:]
        if a not in CROSS and a != HOST_ARCH:
            sys.exit(f"run.py: no such architecture: {a}")
        arches = [a] if opt == "--arch" else arches + [a]
    patterns = argv
    tests, scripts = [], []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "tests")):
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            if patterns and not any(x in p for x in patterns):
                continue
            # tests/projects/*/ hold the sources of projects that
            # check_ scripts build, not tests of their own.
            project_src = os.path.relpath(dirpath, os.path.join(ROOT, "tests")).startswith("projects" + os.sep)
            if f.endswith((".c", ".cc")) and not f.startswith("_") and not project_src:
                tests.append(p)
            elif f.startswith("check_") and f.endswith((".sh", ".py")):
                scripts.append(p)
    tests.sort()
    if HOST_ARCH not in arches:
        scripts = []
    scripts.sort()
    jobs = []
    for arch in arches:
        for t in tests:
            if arch != HOST_ARCH:
                top = os.path.relpath(t, os.path.join(ROOT, "tests")).split(os.sep)[0]
                if top not in CROSS[arch]["dirs"]:
                    continue
            if applies(t, arch):
                jobs += [(t, v, o, arch) for v, o in variants_of(t, arch)]
    missing = missing_tools(jobs)
    if missing:
        sys.exit(f"run.py: {missing}")
    passed = failed = 0
    # Scripts share the pool with the programs, the scripts first: the
    # longest of them (the corpus, real software) would otherwise run one
    # at a time at the end and leave a core idle.
    work = [(run_script, s) for s in scripts] + [(run_program_test, j) for j in jobs]
    spent = {}

    def timed(w):
        t0 = time.monotonic()
        res = w[0](w[1])
        key = os.path.relpath(w[1] if isinstance(w[1], str) else w[1][0], os.path.join(ROOT, "tests"))
        if w[0] is run_program_test and w[1][3] != HOST_ARCH:
            key = w[1][3] + "/" + key
        spent[key] = spent.get(key, 0) + time.monotonic() - t0
        return res

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for res in pool.map(timed, work):
            for name, problem in res:
                if problem:
                    failed += 1
                    print(f"FAIL {name}\n  {problem}\n")
                else:
                    passed += 1
                    print(f"PASS {name}")
                sys.stdout.flush()
    # Where the time went, to keep make test within its budget: the
    # slowest files, then each folder's sum (arm64's apart).
    for key, secs in sorted(spent.items(), key=lambda kv: -kv[1])[:12]:
        print(f"# {secs:7.1f} s  {key}")
    folders = {}
    for key, secs in spent.items():
        folder = key.rsplit("/", 1)[0] if "/" in key else key
        folders[folder] = folders.get(folder, 0) + secs
    print("# by folder: " + ", ".join(f"{k} {v:.0f} s" for k, v in
                                       sorted(folders.items(), key=lambda kv: -kv[1])))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
