#!/usr/bin/env python3
"""LLVM's AddressSanitizer test cases, built four ways, compared.

A by-hand tool (make test does not run it): does ukasan-cc detect what
AddressSanitizer detects, on ASan's own tests, without reporting anything
ASan finds clean?

    apt-get source --download-only llvm-toolchain-16      # in build/third_party/llvm
    tar xJf llvm-toolchain-16_*.orig.tar.xz --wildcards \\
        '*/compiler-rt/test/asan/*' '*/compiler-rt/test/lit.common.cfg.py'
    make                                                   # build/bin/ukasan-cc
    nice python3 tests/tools/asan_testcases.py [-j 2] [--only NAME...]
        [--variants asan-clang,asan-gcc,ukasan-gcc,ukasan-clang]
        [--tests DIR] [--json FILE] [--keep]
    # the same on N processes at once, then the table of all of them:
    ... --keep --reuse --work W --part K/N   (for K in 0..N-1)
    ... --keep --reuse --work W              (reads W; runs what is missing)
    ... --from-json --json FILE              (the table again)

It needs gcc/g++ 12 (with libasan), clang-16/clang++-16 (with its ASan
runtime) and the tree's build. DIR defaults to the TestCases folder under
build/third_party/llvm/llvm-toolchain-16*/compiler-rt/test/asan/.

What it does, for each test in TestCases/, TestCases/Linux and
TestCases/Posix (Darwin, Windows and Android are not looked at):

* REQUIRES / UNSUPPORTED / XFAIL are evaluated against the features lit
  would set on x86-64 Linux (per compiler: Clang or GNU); a test excluded
  there, or one that needs a tool we do not have (sancov, asan_symbolize,
  lld, LTO), is skipped with the reason.
* The RUN lines become one shell script, as lit's external shell runs them,
  with lit's substitutions for the variant (asan/lit.cfg.py): %clang_asan
  is "clang-16 -fsanitize=address ..." (asan-clang), "gcc -fsanitize=address
  ..." (asan-gcc), or tools/ukasan-cc with UKASAN_CC=gcc / clang-16 and the
  same flags (ukasan-gcc, ukasan-clang); %env_asan_opts= sets ASAN_OPTIONS,
  which ukasan reads itself (src/config/asan_options.c: the keys with a
  meaning here; the rest are ignored, as ASan ignores keys it does not
  know). FileCheck, not and count are stand-ins that succeed: this tool
  asks whether a report came, not whether ASan's text matched.
* Each %run (a run site) goes through a wrapper that times the program out
  (--timeout) and keeps its stderr and any log file it wrote (log_path).
  ASan reported: "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
  "AddressSanitizer:DEADLYSIGNAL". ukasan reported: "BUG: KASAN:",
  "BUG: KFENCE:", "BUG: memory leak", "BUG: unable to handle page fault",
  "general protection fault", "BUG: stack guard page", "UBSAN:" (its
  bounds checks), or its ASan-style log lines.
* What the test expects at a site: a report ("not %run" with CHECK lines of
  the FileCheck prefix naming AddressSanitizer or LeakSanitizer), another
  failure ("not" otherwise), or a clean run.

The result, one row per run site that any variant reported at or where a
report was expected, then the totals: sites and tests where ASan (gcc,
clang) reported and ukasan built with the same compiler did not (misses),
and where ukasan reported and ASan, built with the same compiler, ran
clean (false reports). Sites in OUT_OF_SCOPE (below) are counted apart,
with the reason: checks of ASan's own flags, formats and runtime, not of
memory errors ukasan is meant to find.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
VARIANTS = ["asan-clang", "asan-gcc", "ukasan-gcc", "ukasan-clang"]

# Tests, or run sites (TEST#N, N counting %run from 1), whose subject is
# ASan itself: its flags, output formats, runtime internals. A miss or a
# report there says nothing about the memory errors ukasan finds. Filled
# from the investigation of each miss (see _notes/asansuite.md).
OUT_OF_SCOPE = {
    "Linux/allocator_oom_test.cpp":
        "ulimit -v (KiB: 20.5 TiB) is ASan's address-space limit: its shadow and allocator "
        "reservations leave no room for the 1 TiB request, which it reports as out of memory; "
        "ukasan's fit and the request succeeds (no memory error: then the realloc-after-malloc "
        "run reads the block realloc freed, which ukasan rightly reports)",
    "Linux/interception_test.cpp": "calls ASan's own __interceptor_strtol",
    "Linux/interception_malloc_test.cpp": "calls ASan's own __interceptor_malloc",
    "Linux/interception_readdir_r_test.cpp": "calls ASan's own __interceptor_readdir_r",
    "ill.cpp#2": "handle_sigill=1, ASan's opt-in report of SIGILL; ukasan leaves SIGILL to "
                 "its default action (the program dies of it)",
    "log-path_test.cpp#4": "log_path unusable: ASan dies before reporting, ukasan says so in "
                           "one line and reports on stderr (its rule for bad input)",
    "log-path_test.cpp#5": "log_path too long: as #4",
    "load_and_store_n.cpp#9": "-mllvm -asan-force-experiment: LLVM's experiment ABI "
                              "(__asan_report_exp_*), a compiler test hook ukasan does not "
                              "provide (the build fails)",
    "load_and_store_n.cpp#10": "as #9", "load_and_store_n.cpp#11": "as #9",
    "load_and_store_n.cpp#12": "as #9",
    "Posix/handle_abort_on_error.cpp": "handle_abort=1, ASan's opt-in report of SIGABRT; "
                                       "ukasan leaves SIGABRT to its default action",
    "scariness_score_test.cpp#27": "handle_abort=1: as Posix/handle_abort_on_error.cpp",
    "scariness_score_test.cpp#54": "handle_abort=1: as Posix/handle_abort_on_error.cpp",
    "Posix/start-deactivated.cpp": "ASan's start_deactivated and ASAN_ACTIVATION_OPTIONS",
    "Linux/preinstalled_signal.cpp": "ASan's handle_segv with a SIGSEGV handler installed "
                                     "before it, the runtime preloaded into a program built "
                                     "without instrumentation",
    "Posix/ioctl.cpp#3": "ASan checks ioctl arguments only with handle_ioctl=1 (default 0); "
                         "ukasan always does, and the program passes a bad one",
    "Posix/ioctl.cpp#4": "as #3",
    "Linux/odr-violation.cpp#10": "a global defined, same size, in the executable and a "
                                  "library built without ODR indicators, which ASan's check "
                                  "then does not see; ukasan's needs none (README: "
                                  "kasan.detect_odr_violation) and reports the two definitions",
    "Posix/unpoison-alternate-stack.cpp#1":
        "clang only: ukasan-cc's bounds check (the kernel's UBSAN_BOUNDS; "
        "UKASAN_UBSAN_BOUNDS=0 turns it off) reports forming &Blob[-1], undefined "
        "behaviour that clang's -fsanitize=array-bounds reports too; no access is made",
}

# Misses and false reports understood but not fixed: still counted as
# misses (or false reports), printed with the reason.
KNOWN = {
    "Linux/asan_preload_test-2.cpp": "the runtime preloaded into a program built without "
                                     "instrumentation: ukasan's preload is KFENCE, which "
                                     "samples (kfence.sample_rate)",
}

# ---------------------------------------------------------------- features

TRIPLE = "x86_64-unknown-linux-gnu"
COMMON_FEATURES = {
    "linux", "x86_64-linux", "x86_64-target-arch", "x86-target-arch", "shell",
    "asan-64-bits", "leak-detection", "fast-unwinder-works", "stable-runtime",
    "shadow-scale-3", "memprof-shadow-scale-3", "compiler-rt-optimized",
    "host-byteorder-little-endian", "can-symbolize", "cxxabi", "zlib",
    "glibc-2.27",
}
# What lit would add per compiler (lit.common.cfg.py: compiler_id; clang
# links its static runtime by default, GCC its shared one).
COMPILER_FEATURES = {
    "clang": {"Clang", "asan-static-runtime"},
    "gcc": {"GNU", "asan-dynamic-runtime"},
}
# Substitutions we do not provide: a test using one is skipped.
MISSING_TOOLS = {"%sancov": "needs sancov", "%asan_symbolize": "needs asan_symbolize.py",
                 "%clang_cl": "Windows", "%sancovcc": "needs sancov"}


def feature_true(name, features):
    if name.startswith("target="):
        pat = "".join(re.escape(p) if i % 2 == 0 else p
                      for i, p in enumerate(re.split(r"\{\{(.*?)\}\}", name[len("target="):])))
        return re.fullmatch(pat, TRIPLE) is not None
    if "{{" in name:
        pat = "".join(re.escape(p) if i % 2 == 0 else p
                      for i, p in enumerate(re.split(r"\{\{(.*?)\}\}", name)))
        return any(re.fullmatch(pat, f) for f in features)
    return name in features


def expr_true(expr, features):
    """lit's boolean feature expressions: &&, ||, !, parentheses."""
    toks = re.findall(r"\{\{.*?\}\}|&&|\|\||!|\(|\)|[^\s&|!()]+(?:\{\{.*?\}\}[^\s&|!()]*)*", expr)
    out = []
    for t in toks:
        if t == "&&":
            out.append(" and ")
        elif t == "||":
            out.append(" or ")
        elif t == "!":
            out.append(" not ")
        elif t in "()":
            out.append(t)
        else:
            out.append(" True " if feature_true(t, features) else " False ")
    try:
        return bool(eval("".join(out), {}, {}))
    except SyntaxError:
        return False


def exprs_of(lines, key):
    out = []
    for l in lines:
        m = re.search(r"\b" + key + r":(.*)$", l)
        if m:
            out += [e.strip() for e in m.group(1).split(",") if e.strip()]
    return out


# ------------------------------------------------------------- parsing

# CHECK lines that are ASan's report: its title, or its access and
# allocation lines.
ASAN_CHECK_RE = (r"AddressSanitizer|LeakSanitizer|(READ|WRITE) of size|is located|"
                 r"(allocated|freed) by thread|previously allocated|SUMMARY:")

class Test:
    def __init__(self, path, base):
        self.path = path
        self.name = os.path.relpath(path, base)
        text = open(path, encoding="utf-8", errors="replace").read()
        self.text = text
        lines = text.splitlines()
        runs, cur = [], None
        for l in lines:
            m = re.search(r"\bRUN:(.*)$", l)
            if not m:
                continue
            part = m.group(1).rstrip()
            if cur is not None:
                cur += " " + part.strip()
            else:
                cur = part.strip()
            if cur.endswith("\\"):
                cur = cur[:-1].rstrip()
                continue
            runs.append(cur)
            cur = None
        if cur:
            runs.append(cur)
        self.runs = runs
        self.requires = exprs_of(lines, "REQUIRES")
        self.unsupported = exprs_of(lines, "UNSUPPORTED")
        self.xfail = exprs_of(lines, "XFAIL")
        self.cxx = path.endswith((".cpp", ".cc", ".mm"))
        self.sites = self.find_sites()

    def skip_reason(self, compiler, strict_compiler=False):
        if not self.runs:
            return "no RUN lines"
        for tool, why in MISSING_TOOLS.items():
            if any(tool in r for r in self.runs):
                return why
        feats = COMMON_FEATURES | COMPILER_FEATURES[compiler]
        if not strict_compiler:
            # REQUIRES: Clang says ASan-gcc's text does not match; whether
            # it reports is still the question.
            feats |= {"Clang", "GNU"}
        for e in self.requires:
            if not expr_true(e, feats):
                return "REQUIRES: " + e
        for e in self.unsupported:
            if e == "*" or expr_true(e, feats):
                return "UNSUPPORTED: " + e
        for e in self.xfail:
            if e == "*" or expr_true(e, feats):
                return "XFAIL: " + e
        return None

    def quick_lines(self):
        """RUN lines to run with --quick: of lines that differ only in -O
        level, the lowest and the highest."""
        groups = {}
        for li, l in enumerate(self.runs):
            levels = re.findall(r"(?<=\s)-O([0-3s])\b", l)
            if len(levels) != 1:
                continue
            groups.setdefault(re.sub(r"(?<=\s)-O[0-3s]\b", "-O*", l), []).append((levels[0], li))
        drop = set()
        for g in groups.values():
            if len(g) > 2:
                g.sort()
                drop |= {li for _, li in g[1:-1]}
        return [li for li in range(len(self.runs)) if li not in drop]

    def check_lines(self, prefixes):
        out = []
        for p in prefixes:
            out += re.findall(r"\b" + re.escape(p) + r"(?:-NEXT|-DAG|-SAME|-NOT|-LABEL)?:(.*)$",
                              self.text, re.M)
        return out

    def find_sites(self):
        """Each %run: the RUN line, whether it is negated, and what it
        expects (report, fail, clean)."""
        sites = []
        for li, line in enumerate(self.runs):
            for m in re.finditer(r"%run\b", line):
                before = line[:m.start()]
                seg = re.split(r"&&|\|\||;|\|", before)[-1]
                neg = bool(re.search(r"(^|\s)(not|%expect_crash)(\s|$)", seg))
                after = line[m.end():]
                cmd = re.split(r"&&|\|\||;", after)[0]
                fc = re.search(r"FileCheck(.*)$", cmd)
                if not fc:
                    # FileCheck on a later line reading the saved output.
                    for nxt in self.runs[li + 1:]:
                        fc = re.search(r"FileCheck(.*?)(&&|\|\||;|$)", nxt)
                        if fc or "%run" in nxt:
                            break
                prefixes = ["CHECK"]
                if fc:
                    ps = re.findall(r"--?check-prefix(?:es)?[= ]\s*(\S+)", fc.group(1))
                    if ps:
                        prefixes = [p for x in ps for p in x.split(",")]
                checks = self.check_lines(prefixes)
                names_asan = any(re.search(ASAN_CHECK_RE, c) for c in checks)
                if neg and names_asan:
                    expect = "report"
                elif neg:
                    expect = "fail"
                else:
                    expect = "clean"
                sites.append({"line": li, "expect": expect, "cmd": line})
        return sites


def find_tests(base):
    out = []
    for sub in ["", "Linux", "Posix"]:
        d = os.path.join(base, sub)
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if os.path.isfile(p) and f.endswith((".c", ".cpp", ".cc")):
                out.append(Test(p, base))
    return out


# ------------------------------------------------------------ variants

def variant_setup(variant):
    """(compiler kind, C command, C++ command, ASan flags, plain flags,
    environment, shared runtime path)."""
    clang_flags = ("-fsanitize=address -mno-omit-leaf-frame-pointer -fno-omit-frame-pointer "
                   "-fno-optimize-sibling-calls -gline-tables-only -m64")
    gcc_flags = ("-fsanitize=address -mno-omit-leaf-frame-pointer -fno-omit-frame-pointer "
                 "-fno-optimize-sibling-calls -g -m64 -pthread -ldl")
    env = {}
    kind = "clang" if variant.endswith("clang") else "gcc"
    if kind == "clang":
        cc, cxx, flags, plain = "clang-16", "clang++-16", clang_flags, "-m64"
        shared = subprocess.run(["clang-16", "-print-file-name=libclang_rt.asan-x86_64.so"],
                                capture_output=True, text=True).stdout.strip()
    else:
        cc, cxx, flags, plain = "gcc", "g++", gcc_flags, "-m64 -pthread -ldl"
        shared = subprocess.run(["gcc", "-print-file-name=libasan.so"],
                                capture_output=True, text=True).stdout.strip()
    if variant.startswith("ukasan"):
        env = {"UKASAN_CC": cc, "UKASAN_CXX": cxx}
        acc = os.path.join(BUILD, "bin", "ukasan-cc")
        acxx = os.path.join(BUILD, "bin", "ukasan-c++")
        shared = os.path.join(BUILD, "lib", "libukasan.so")
    else:
        acc, acxx = cc, cxx
    return kind, cc, cxx, acc, acxx, flags, plain, env, shared


STUBS = {
    # Whether ASan's text matched is not the question: the stand-ins succeed.
    "FileCheck": "#!/bin/sh\ncat >/dev/null 2>&1\nexit 0\n",
    "count": "#!/bin/sh\ncat >/dev/null 2>&1\nexit 0\n",
    "not": "#!/bin/sh\n[ \"$1\" = --crash ] && shift\n\"$@\"\nexit 0\n",
}

# The run wrapper: SITE PROGRAM ARGS... Times the program out, keeps its
# stderr and exit status, and the log files it wrote into the Output dir.
RUN_WRAPPER = r"""#!/bin/bash
site=$1; shift
n=$(ls "$CAP" | grep -c "^run\.$site\.[0-9]*\.rc$")
out=$CAP/run.$site.$n
if [ ! -e "$1" ] && ! command -v "$1" >/dev/null 2>&1; then
	echo nobin > "$out.rc"
	exit 127
fi
echo "${ASAN_OPTIONS-}" > "$out.opts"
touch "$out.mark"
sleep 0.01
timeout -k 5 "$TIMEOUT" "$@" 2> >(tee "$out.err" >&2)
rc=$?
wait
echo $rc > "$out.rc"
# log_path files written during the run
find "$OUTDIR" "$PWD" -maxdepth 2 -type f -newer "$out.mark" -size -2M ! -path "$CAP/*" 2>/dev/null |
	sort -u | while read -r f; do
	case "$(file -b --mime-type "$f" 2>/dev/null)" in text/*) { echo "== $f"; cat "$f"; } >> "$out.log" ;; esac
done
exit $rc
"""

# The compile wrapper: SITE COMPILER ARGS... Keeps the status; a failed
# build leaves no stale -o output behind for a later %run.
CC_WRAPPER = r"""#!/bin/bash
site=$1; shift
out=
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
"$@" 2> >(tee -a "$CAP/build.err" >&2)
rc=$?
wait
echo "$site $rc $*" >> "$CAP/build.log"
[ $rc = 0 ] || { [ -n "$out" ] && rm -f "$out"; }
exit $rc
"""


def substitute(test, line, li, variant, outdir, cap):
    kind, cc, cxx, acc, acxx, flags, plain, env, shared = variant_setup_cached(variant)
    src = test.path
    tbase = os.path.join(outdir, os.path.basename(src) + ".tmp")
    ccw = os.path.join(cap, "..", "stubs", "ccwrap")
    cxxmode = "" if kind == "clang" else ""

    def comp(c, fl):
        return " %s %d %s %s " % (ccw, li, c, fl)

    subs = [
        ("%env_asan_opts=", "env ASAN_OPTIONS="),
        ("%clangxx_asan_static ", comp(acxx, flags)),
        ("%clang_asan_static ", comp(acc, flags)),
        ("%clangxx_asan ", comp(acxx, flags)),
        ("%clang_asan ", comp(acc, flags)),
        ("%clangxx ", comp(cxx, plain)),
        ("%clang ", comp(cc, plain)),
    ]
    for pf in ["2", "1", ""]:
        subs.append(("%ld_flags_rpath_exe" + pf, "-Wl,-rpath,\\$ORIGIN -L%T -l%xdynamiclib_namespec" + pf))
        subs.append(("%ld_flags_rpath_so" + pf, ""))
        subs.append(("%dynamiclib" + pf, "%T/%xdynamiclib_filename" + pf))
        subs.append(("%xdynamiclib_filename" + pf, "lib%xdynamiclib_namespec" + pf + ".so"))
    subs += [
        ("%xdynamiclib_namespec", "%basename_t.dynamic"),
        ("%linux_static_libstdcplusplus",
         "-stdlib=libstdc++ -static-libstdc++" if kind == "clang" else "-static-libstdc++"),
        ("%shared_libasan", shared),
        ("%libdl", "-ldl"), ("%fPIC", "-fPIC"), ("%fPIE", "-fPIE"), ("%pie", "-pie"),
        ("%expect_crash ", "not --crash "), ("%env ", "env "), ("%device_rm", "rm"),
        ("%run_nomprotect", "%run"),
        ("CHECK-%os", "CHECK-Linux"), ("CHECK-%kernel_bits", "CHECK-kernel-64-bits"),
        ("%arch", "x86_64"),
    ]
    for a, b in subs:
        line = line.replace(a, b)
    # The run sites, numbered as find_sites numbered them.
    first = sum(1 for s in test.sites if s["line"] < li)
    counter = [first]

    def site(m):
        counter[0] += 1
        return os.path.join(cap, "..", "stubs", "runwrap") + " %d" % counter[0]

    line = re.sub(r"%run\b", site, line)
    line = line.replace("%basename_t", os.path.basename(tbase))
    line = line.replace("%s", src).replace("%S", os.path.dirname(src)).replace("%p", os.path.dirname(src))
    line = line.replace("%t", tbase).replace("%T", outdir)
    return line


_setup_cache = {}


def variant_setup_cached(v):
    if v not in _setup_cache:
        _setup_cache[v] = variant_setup(v)
    return _setup_cache[v]


# ------------------------------------------------------------ running

ASAN_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|AddressSanitizer:DEADLYSIGNAL")
UKASAN_RE = re.compile(r"BUG: KASAN:|BUG: KFENCE:|BUG: memory leak|BUG: unable to handle page fault|"
                       r"general protection fault|BUG: stack guard page|^UBSAN: |"
                       r"ERROR: AddressSanitizer", re.M)
TITLE_RE = re.compile(r"(ERROR: (?:AddressSanitizer|LeakSanitizer):? ?[^\n]*|BUG: [^\n]*|"
                      r"general protection fault[^\n]*|UBSAN: [^\n]*)")


def run_variant(test, variant, work, timeout, quick=False, reuse=False):
    d = os.path.join(work, variant, test.name.replace("/", "_"))
    if reuse and os.path.exists(os.path.join(d, "done")):
        return parse_variant(test, d, float(open(os.path.join(d, "done")).read() or 0), "")
    shutil.rmtree(d, ignore_errors=True)
    outdir = os.path.join(d, "Output")
    cap = os.path.join(d, "cap")
    stubs = os.path.join(d, "stubs")
    for x in (outdir, cap, stubs):
        os.makedirs(x)
    for name, body in list(STUBS.items()) + [("runwrap", RUN_WRAPPER), ("ccwrap", CC_WRAPPER)]:
        p = os.path.join(stubs, name)
        with open(p, "w") as f:
            f.write(body)
        os.chmod(p, 0o755)
    script = ["set -o pipefail"]
    keep = test.quick_lines() if quick else range(len(test.runs))
    for li, line in enumerate(test.runs):
        if li not in keep:
            continue
        script.append("{ %s\n} </dev/null" % substitute(test, line, li, variant, outdir, cap))
    sh = os.path.join(d, "script.sh")
    with open(sh, "w") as f:
        f.write("\n".join(script) + "\n")
    env = dict(os.environ)
    env.pop("ASAN_OPTIONS", None)
    env.pop("UKASAN_OPTIONS", None)
    env.pop("LSAN_OPTIONS", None)
    env.update(variant_setup_cached(variant)[7])
    env.update({"PATH": stubs + ":" + env["PATH"], "CAP": cap, "OUTDIR": outdir,
                "TIMEOUT": str(timeout)})
    t0 = time.time()
    try:
        p = subprocess.run(["bash", sh], cwd=outdir, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout * (len(test.sites) + 4) + 120)
        script_out = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        script_out = "script timed out"
    secs = round(time.time() - t0, 1)
    with open(os.path.join(d, "done"), "w") as f:
        f.write(str(secs))
    return parse_variant(test, d, secs, script_out)


def parse_variant(test, d, secs, script_out):
    """What a finished run of one variant left in its folder."""
    cap = os.path.join(d, "cap")
    builds = []
    if os.path.exists(os.path.join(cap, "build.log")):
        for l in open(os.path.join(cap, "build.log"), errors="replace"):
            parts = l.split(" ", 2)
            builds.append({"line": int(parts[0]), "rc": int(parts[1])})
    sites = {}
    for i in range(1, len(test.sites) + 1):
        runs = sorted(glob.glob(os.path.join(cap, "run.%d.*.rc" % i)))
        res = {"runs": 0, "asan": False, "ukasan": False, "rc": [], "title": "", "nobin": False,
               "opts": ""}
        for rcf in runs:
            base = rcf[:-3]
            rc = open(rcf).read().strip()
            if rc == "nobin":
                res["nobin"] = True
                continue
            res["runs"] += 1
            res["rc"].append(int(rc))
            if os.path.exists(base + ".opts") and not res["opts"]:
                res["opts"] = open(base + ".opts", errors="replace").read().strip()
            text = ""
            for ext in (".err", ".log"):
                if os.path.exists(base + ext):
                    text += open(base + ext, errors="replace").read()
            if ASAN_RE.search(text):
                res["asan"] = True
            if UKASAN_RE.search(text):
                res["ukasan"] = True
            if not res["title"]:
                m = TITLE_RE.search(text)
                if m:
                    res["title"] = m.group(1)[:100]
        sites[i] = res
    return {"sites": sites, "builds": builds, "secs": secs,
            "build_failed": any(b["rc"] != 0 for b in builds), "dir": d,
            "script_tail": script_out[-2000:]}


def reported(variant, res):
    return res["ukasan"] if variant.startswith("ukasan") else res["asan"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tests")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--json", default=os.path.join(BUILD, "asan_testcases.json"))
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true", help="keep the build and run folders")
    ap.add_argument("--part", help="K/N: only every Nth test from the Kth (to run N at once)")
    ap.add_argument("--reuse", action="store_true",
                    help="with --work and --keep: runs finished before are read, not run again")
    ap.add_argument("--quick", action="store_true",
                    help="of RUN lines differing only in -O level, run the lowest and highest")
    ap.add_argument("--from-json", action="store_true", help="only print the table of --json")
    args = ap.parse_args()
    variants = args.variants.split(",")
    base = args.tests
    if not base:
        c = sorted(glob.glob(os.path.join(BUILD, "third_party", "llvm", "llvm-toolchain-16*",
                                          "compiler-rt", "test", "asan", "TestCases")))
        if not c:
            sys.exit("no ASan TestCases under build/third_party/llvm (see --help)")
        base = c[-1]
    tests = find_tests(base)
    if args.only:
        tests = [t for t in tests if any(o in t.name for o in args.only)]
    if args.part:
        k, n = (int(x) for x in args.part.split("/"))
        tests = tests[k::n]
    if args.from_json:
        results = json.load(open(args.json))
    else:
        if not os.path.exists(os.path.join(BUILD, "bin", "ukasan-cc")):
            sys.exit("build/bin/ukasan-cc missing: run make first")
        work = args.work or tempfile.mkdtemp(prefix="asan-testcases-")
        results = {}
        jobs = []
        for t in tests:
            results[t.name] = {"sites": [{"expect": s["expect"], "cmd": s["cmd"]} for s in t.sites],
                               "variants": {}}
            for v in variants:
                why = t.skip_reason("clang" if v.endswith("clang") else "gcc")
                if why:
                    results[t.name]["variants"][v] = {"skip": why}
                else:
                    jobs.append((t, v))
        done = [0]

        def one(job):
            t, v = job
            r = run_variant(t, v, work, args.timeout, args.quick, args.reuse)
            results[t.name]["variants"][v] = r
            done[0] += 1
            print("[%d/%d] %s %s %.0fs%s" % (done[0], len(jobs), v, t.name, r["secs"],
                                              " build failed" if r["build_failed"] else ""),
                  file=sys.stderr, flush=True)
            if not args.keep:
                shutil.rmtree(r["dir"], ignore_errors=True)

        with ThreadPoolExecutor(args.j) as ex:
            list(ex.map(one, jobs))
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        if args.only and os.path.exists(args.json):
            old = json.load(open(args.json))
            old.update(results)
            results = old
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    table(results, variants, args.only)


# ASan options that turn a check off or suppress its report; ukasan has
# none of them (src/config/asan_options.c ignores them, as ASan ignores
# keys it does not know).
OFF_KEYS = re.compile(r"(^|[:,])((intercept_\w+|replace_\w+|check_printf|strict_memcmp|"
                      r"poison_partial|detect_odr_violation|handle_\w+|allow_user_poisoning|"
                      r"poison_array_cookie)=(0|false)|suppressions=[^:,]*)")


def switched_off(sites, i):
    res = sites.get(str(i)) or sites.get(i) or {}
    return ", ".join(m[1] for m in OFF_KEYS.findall(res.get("opts", "")))


def scope_of(name, i):
    return OUT_OF_SCOPE.get("%s#%d" % (name, i)) or OUT_OF_SCOPE.get(name)


def table(results, variants, only):
    short = {"asan-clang": "A-cl", "asan-gcc": "A-gcc", "ukasan-gcc": "U-gcc", "ukasan-clang": "U-cl"}
    tot = {"tests": 0, "skipped": 0, "sites": 0}
    det = {v: 0 for v in variants}
    det_tests = {v: set() for v in variants}
    bug_sites, bug_tests = 0, set()
    miss = {"gcc": [], "clang": []}
    false = {"gcc": [], "clang": []}
    oos = []
    build_fail = {v: [] for v in variants}
    skips = {}
    print("%-52s %-6s %s" % ("test#site", "expect", " ".join("%-6s" % short[v] for v in variants)))
    for name in sorted(results):
        if only and not any(o in name for o in only):
            continue
        r = results[name]
        tot["tests"] += 1
        vs = r["variants"]
        if all("skip" in vs.get(v, {"skip": 1}) for v in variants):
            tot["skipped"] += 1
            why = next((vs[v]["skip"] for v in variants if v in vs), "?")
            skips.setdefault(why, []).append(name)
            continue
        for v in variants:
            if vs.get(v, {}).get("build_failed"):
                build_fail[v].append(name)
        for i, s in enumerate(r["sites"], 1):
            tot["sites"] += 1
            cells, rep, nobin = [], {}, set()
            for v in variants:
                x = vs.get(v, {})
                if "skip" in x:
                    cells.append("skip")
                    continue
                res = x["sites"].get(str(i)) or x["sites"].get(i)
                if res is None or (res["runs"] == 0):
                    if res and res["nobin"]:
                        # Not built: no report, and a miss if the other
                        # build of the same compiler reported.
                        cells.append("nobin")
                        rep[v] = False
                        nobin.add(v)
                    elif x.get("build_failed"):
                        # A build of this test failed, and the command
                        # that would have run the program never did.
                        cells.append("nobld")
                        rep[v] = False
                        nobin.add(v)
                    else:
                        cells.append("-")
                    continue
                rep[v] = reported(v, res)
                if rep[v]:
                    det[v] += 1
                    det_tests[v].add(name)
                cells.append("REP" if rep[v] else ("TMO" if 124 in res["rc"] else "ok"))
            asan_any = rep.get("asan-clang") or rep.get("asan-gcc")
            if asan_any:
                bug_sites += 1
                bug_tests.add(name)
            scope = scope_of(name, i)
            for k in ("gcc", "clang"):
                a, u = rep.get("asan-" + k), rep.get("ukasan-" + k)
                if a is None or u is None or "asan-" + k in nobin:
                    continue
                site = "%s#%d" % (name, i)
                known = KNOWN.get(site) or KNOWN.get(name) or ""
                if "ukasan-" + k in nobin:
                    known = "ukasan's build failed" + (": " + known if known else "")
                if a and not u and not scope and s["expect"] == "clean":
                    scope = "ASan-%s reports where the test expects a clean run" % k
                if a and not u:
                    (oos if scope else miss[k]).append((site, k, scope or known))
                if u and not a:
                    off = switched_off(vs.get("asan-" + k, {}).get("sites", {}), i)
                    if off and not scope:
                        scope = ("ASan was told not to report (%s), an option ukasan lacks; the "
                                 "program has the bug, and ukasan reports it" % off)
                    (oos if scope else false[k]).append((site, k, scope or known))
            if asan_any or any(rep.values()) or s["expect"] == "report":
                print("%-52s %-6s %s" % (("%s#%d" % (name, i))[-52:], s["expect"],
                                         " ".join("%-6s" % c for c in cells)))
    print()
    print("tests: %d (%d skipped for every variant), run sites: %d" % (tot["tests"], tot["skipped"], tot["sites"]))
    print("run sites where ASan (either compiler) reported: %d, in %d tests" % (bug_sites, len(bug_tests)))
    for v in variants:
        print("  %-13s reported at %d sites, in %d tests; build failed in %d tests" %
              (v, det[v], len(det_tests[v]), len(build_fail[v])))
    for k in ("gcc", "clang"):
        print("misses (ASan-%s reported, ukasan-%s did not): %d" % (k, k, len(miss[k])))
        for n, _, why in miss[k]:
            print("    %s%s" % (n, " -- " + why if why else ""))
    for k in ("gcc", "clang"):
        print("false reports (ukasan-%s reported, ASan-%s clean): %d" % (k, k, len(false[k])))
        for n, _, why in false[k]:
            print("    %s%s" % (n, " -- " + why if why else ""))
    print("out of scope (differences at sites that test ASan itself, or where ASan was told "
          "not to report): %d" % len(oos))
    groups = {}
    for n, k, why in oos:
        test, site = n.rsplit("#", 1)
        why = re.sub(r"suppressions=[^),]*", "suppressions=FILE", why)
        groups.setdefault((test, why), []).append("%s/%s" % (site, k))
    for (test, why), where in sorted(groups.items()):
        print("    %s #%s: %s" % (test, " ".join(where), why))
    print("skipped:")
    for why, names in sorted(skips.items()):
        print("  %3d %s" % (len(names), why))
    for v in variants:
        if build_fail[v]:
            print("build failures %s: %s" % (v, " ".join(build_fail[v])))


if __name__ == "__main__":
    main()
