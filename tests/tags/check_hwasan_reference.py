#!/usr/bin/env python3
"""HWASan as the reference for software tags: each bug program of
tests/tags/ must be caught by ukasan's software tags whenever HWASan catches
it, and neither may report on a correct program.

Every tests/tags/*.c and *.cc with a line
    // HWASAN: WORD [WORD...] -- why
is built four times for arm64: with HWASan (aarch64-linux-gnu-gcc
-fsanitize=hwaddress and its libhwasan0; clang-16 -fsanitize=hwaddress with
Debian's arm64 libclang_rt.hwasan, unpacked into build/third_party/arm64 by
tests/real/check_arm64_real.py fetch, linked by path: nothing of the system's
clang is touched), and with ukasan-cc UKASAN_MODE=sw_tags (gcc and clang).
The programs include tags_test.h; HWASan builds get -DTAGS_REFERENCE (no
expectations: they read ukasan's shadow) and -fsanitize-recover=hwaddress.
A program's cases (TAGS_CASE) run in one process under qemu-aarch64 with
the arguments "from 1", which announce each case on stderr ("tags: case
N"): a HWASan run takes some 4 s, most of it HWASan's start, so one per
case would take minutes. Reports are told apart by those lines; when a
report or a crash ends the process, the next case starts another
("from N+1"). HWASan runs with HWASAN_OPTIONS=symbolize=0:halt_on_error=0,
ukasan with the file's RUN options, kasan_multi_shot and KFENCE off. One
WORD per case, in order (one WORD for a program without cases):
    caught       HWASan reports, and ukasan reports the same class of bug
                 (out of bounds, use after free, bad free; ukasan's
                 invalid-access, which says it cannot tell, matches any)
    clean        neither reports
    hwasan-only  ukasan does not report, by design (the why says which
                 design: no short granules, no global tags); HWASan may
    ukasan-only  ukasan reports and HWASan does not (HWASan has no check
                 there)
or, where HWASan's two runtimes differ, one per compiler:
"gcc=caught,clang=ukasan-only".
A "caught" case HWASan missed runs again (twice at most): its tags are
random, and a neighbour with the object's own tag hides an overflow.
Prints one "ok NAME" / "not ok NAME - why" line per case and compiler.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(HERE))
A64 = os.path.join(ROOT, "build", "aarch64")
WRAP = os.path.join(A64, "bin", "ukasan-cc")
THIRD = os.path.join(os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build"), "third_party", "arm64")
CLANG_RT = os.path.join(THIRD, "usr/lib/llvm-16/lib/clang/16/lib/linux")
QEMU = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]
WORDS = ("caught", "clean", "hwasan-only", "ukasan-only")
TIMEOUT = 120
JOBS = 2


def ok(name):
    print(f"ok {name}", flush=True)


def notok(name, why):
    why = " ".join(str(why).split())
    print(f"not ok {name} - {why[:600]}", flush=True)


def directive(src):
    """(words, RUN options) of a test file; words None without HWASAN."""
    words, run = None, []
    for line in open(src, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*//\s*(HWASAN|RUN):\s?(.*?)\s*$", line)
        if not m:
            continue
        if m.group(1) == "RUN":
            run.append(m.group(2))
        else:
            words = m.group(2).split("--")[0].split()
    return words, " ".join(run)


def hwasan_class(err):
    """The class of the first bug HWASan reported in err, or None."""
    m = re.search(r"ERROR: HWAddressSanitizer: (\S+)", err)
    if not m:
        return None
    if m.group(1) in ("invalid-free", "double-free", "alloc-dealloc-mismatch"):
        return "free"
    c = re.compile(r"^Cause: (.*)$", re.M).search(err, m.end())
    cause = c.group(1) if c else ""
    if "use-after-free" in cause:
        return "uaf"
    if "overflow" in cause or "out-of-bounds" in cause:
        return "oob"
    if "stack" in cause:
        return "stack"
    return "other"


def word_for(token, compiler):
    """A case's word for one compiler: "caught", or per compiler
    "gcc=caught,clang=ukasan-only"."""
    if "=" not in token:
        return token
    per = dict(p.split("=", 1) for p in token.split(",") if "=" in p)
    return per.get(compiler, "")


def ukasan_class(err):
    m = re.search(r"^BUG: KASAN: (\S+)", err, re.M)
    if not m:
        return None
    kind = m.group(1)
    if kind in ("double-free", "invalid-free"):
        return "free"
    if "use-after-free" in kind:
        return "uaf"
    if "out-of-bounds" in kind:
        return "oob"
    return "any"  # invalid-access: the tags alone cannot tell


def same_class(h, u):
    return u == "any" or h == "other" or h == u or (h == "stack" and u == "oob")


def build(src, how, exe):
    """Builds src one of four ways; returns None or why not."""
    common = ["-g", "-O1", "-fno-omit-frame-pointer", "-I" + os.path.join(ROOT, "tests"),
              "-I" + os.path.join(ROOT, "include"), src, "-o", exe, "-lpthread"]
    env = dict(os.environ)
    cxx = src.endswith(".cc")
    if how == "hwasan-gcc":
        cmd = ["aarch64-linux-gnu-g++" if cxx else "aarch64-linux-gnu-gcc", "-fsanitize=hwaddress", "-fsanitize-recover=hwaddress",
               "-DTAGS_REFERENCE"] + common
    elif how == "hwasan-clang":
        so = os.path.join(CLANG_RT, "libclang_rt.hwasan-aarch64.so")
        if not os.path.exists(so):
            return f"no {so}: run python3 tests/real/check_arm64_real.py fetch"
        # The driver would look for the runtime in the system's resource
        # directory: link Debian's arm64 one by path instead.
        # lld: HWASan's tagged globals are addressed with a MOVW_PREL_G3
        # relocation that GNU ld 2.40 fills with an undefined instruction
        # (SIGILL at the first use of a global's address).
        cmd = ["clang++-16" if cxx else "clang-16", "--target=aarch64-linux-gnu", "-fuse-ld=lld", "-fsanitize=hwaddress",
               "-fsanitize-recover=hwaddress", "-fno-sanitize-link-runtime",
               "-DTAGS_REFERENCE"] + common + [so, "-Wl,-rpath," + CLANG_RT]
    else:
        env.update(UKASAN_MODE="sw_tags", UKASAN_CC="clang-16" if how == "ukasan-clang" else "gcc",
                   UKASAN_CXX="clang++-16" if how == "ukasan-clang" else "g++", UKASAN_INSTRUMENT="inline")
        cmd = [WRAP.replace("ukasan-cc", "ukasan-c++") if cxx else WRAP] + common
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if r.returncode != 0:
        return f"{how} build failed: {r.stderr.strip()[-400:]}"
    return None


def run(exe, args, env_extra):
    env = dict(os.environ)
    env.pop("UKASAN_OPTIONS", None)
    env.pop("HWASAN_OPTIONS", None)
    env.update(env_extra)
    try:
        r = subprocess.run(QEMU + [exe] + args, capture_output=True, env=env, timeout=TIMEOUT, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    return r.returncode, r.stderr.decode(errors="replace")


def judge(word, h, u, herr, uerr):
    """None if the two runs agree with word, else why not."""
    def first(err, pat):
        m = re.search(pat, err, re.M)
        return m.group(0)[:160] if m else "nothing"
    hsaid = first(herr, r"^(ERROR: HWAddressSanitizer.*|Cause: .*)$")
    usaid = first(uerr, r"^BUG: KASAN: .*$")
    if word == "caught":
        if not h:
            return f"HWASan did not report (is the directive right?); ukasan: {usaid}"
        if not u:
            return f"HWASan reported ({h}: {hsaid}) and ukasan did not"
        if not same_class(h, u):
            return f"different bugs: HWASan {h} ({hsaid}), ukasan {u} ({usaid})"
    elif word == "clean":
        if h or u:
            return f"a report on a clean case: HWASan {hsaid}; ukasan {usaid}"
    elif word == "hwasan-only":
        if u:
            return f"ukasan reported ({usaid}) where the directive says it cannot"
    elif word == "ukasan-only":
        if not u:
            return "ukasan did not report"
        if h:
            return f"HWASan reported too ({hsaid}): the directive should say caught"
    return None


def run_cases(exe, ncases, env_extra):
    """Runs all cases of a program: {case number: its stderr, or None if it
    timed out}. Cases run in one process ("from 1"); when one ends the
    process (a report that is fatal, a crash), the rest run in another."""
    if ncases == 1:
        status, err = run(exe, [], env_extra)
        return {1: err if status is not None else None}
    out, first = {}, 1
    while first <= ncases:
        status, err = run(exe, ["from", str(first)], env_extra)
        if status is None:
            out[first] = None
            first += 1
            continue
        parts = re.split(r"^tags: case (\d+)\n", err, flags=re.M)
        last = first - 1
        for n, text in zip(parts[1::2], parts[2::2]):
            out[int(n)] = text
            last = max(last, int(n))
        if last < first:  # died before its first case
            out[first] = err
            last = first
        first = last + 1
    return out


def one_case(exe, case, ncases, env_extra):
    """The stderr of one case, run on its own again (None if it timed out)."""
    if ncases == 1:
        status, err = run(exe, [], env_extra)
        return err if status is not None else None
    status, err = run(exe, ["from", str(case)], env_extra)
    if status is None:
        return None
    parts = re.split(r"^tags: case (\d+)\n", err, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2])).get(str(case), err)


def run_program(job):
    f, compiler, kind, exe, ncases, run_opts = job
    return run_cases(exe, ncases, run_program_env(kind, run_opts))


def run_program_env(kind, run_opts):
    if kind == "hwasan":
        return {"HWASAN_OPTIONS": "symbolize=0:halt_on_error=0"}
    return {"UKASAN_OPTIONS": " ".join(["kfence.sample_interval=0", run_opts, "kasan_multi_shot"]).strip()}


def main():
    start = time.time()
    files = sorted(os.path.join(HERE, f) for f in os.listdir(HERE)
                   if f.endswith((".c", ".cc")) and not f.startswith("_"))
    if len(sys.argv) > 1:
        files = [f for f in files if any(a in f for a in sys.argv[1:])]
    jobs = [(f,) + directive(f) for f in files]
    jobs = [j for j in jobs if j[1]]
    missing = [t for t in ("qemu-aarch64", "aarch64-linux-gnu-gcc", "clang-16") if not shutil.which(t)]
    if not os.path.exists(WRAP):
        missing.append(f"{WRAP} (make ARCH=aarch64)")
    if missing:
        for f, words, _ in jobs:
            notok("tags/" + os.path.basename(f), f"missing: {', '.join(missing)}")
        return
    tmp = tempfile.mkdtemp(prefix="hwasan-ref-", dir=os.environ.get("UKASAN_TEST_TMP"))
    try:
        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            builds = [(f, how, os.path.join(tmp, os.path.basename(f) + "." + how))
                      for f, _, _ in jobs for how in ("hwasan-gcc", "hwasan-clang", "ukasan-gcc", "ukasan-clang")]
            failed = dict(zip([(f, how) for f, how, _ in builds], pool.map(lambda b: build(*b), builds)))
            progs = []
            for f, words, run_opts in jobs:
                for compiler in ("gcc", "clang"):
                    for kind in ("hwasan", "ukasan"):
                        exe = os.path.join(tmp, os.path.basename(f) + f".{kind}-{compiler}")
                        progs.append((f, compiler, kind, exe, len(words), run_opts))
            why = {(f, c, k): failed[(f, f"{k}-{c}")] for f, c, k, _, _, _ in progs}
            outs = dict(zip([(f, c, k) for f, c, k, _, _, _ in progs],
                            pool.map(lambda p: {} if why[p[:3]] else run_program(p), progs)))
        for f, words, _ in jobs:
            for compiler in ("gcc", "clang"):
                for i, token in enumerate(words):
                    word = word_for(token, compiler)
                    name = "tags/" + os.path.basename(f) + (f"#{i + 1}" if len(words) > 1 else "")
                    name += f" [{compiler}]"
                    bad = why[(f, compiler, "hwasan")] or why[(f, compiler, "ukasan")]
                    if not bad and word not in WORDS:
                        bad = f"unknown HWASAN word {word!r}"
                    if not bad:
                        herr = outs[(f, compiler, "hwasan")].get(i + 1, "")
                        uerr = outs[(f, compiler, "ukasan")].get(i + 1, "")
                        # HWASan's tags are random: the granule past an
                        # object carries the object's own tag once in 256
                        # or so, and then HWASan cannot see the overflow.
                        # Such a miss is HWASan's design, not a wrong
                        # directive; the case runs again, at most twice.
                        hexe = os.path.join(tmp, os.path.basename(f) + f".hwasan-{compiler}")
                        for _ in range(2):
                            if word != "caught" or herr is None or hwasan_class(herr):
                                break
                            herr = one_case(hexe, i + 1, len(words), run_program_env("hwasan", ""))
                        if herr is None or uerr is None:
                            bad = f"timed out (HWASan: {herr is None}, ukasan: {uerr is None})"
                        else:
                            bad = judge(word, hwasan_class(herr), ukasan_class(uerr), herr, uerr)
                    if bad:
                        notok(name, bad)
                    else:
                        ok(name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"check_hwasan_reference: {time.time() - start:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
