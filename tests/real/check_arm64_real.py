#!/usr/bin/env python3
"""Real software on arm64 (make ARCH=aarch64, build/aarch64/), run under
qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu: the arm64 side of
tests/projects/check_zlib.sh and tests/real/check_real_software.py.

1. zlib (Debian's source package, tests/projects/_debsrc.sh) configured
   with CHOST=aarch64-linux-gnu CC=build/aarch64/bin/ukasan-cc, once with
   the cross gcc and once with clang-16 (UKASAN_CC). Per compiler:
     builds with ukasan-cc       configure && make, no report
     binaries instrumented       the programs call __asan_report_* (or
                                 __asan_load*/store*) and link libukasan.so;
                                 inflate.o, deflate.o and libz.so are
                                 instrumented too: no check passes vacuously
     make test passes with no report (default / kasan_multi_shot /
                                 kasan_multi_shot kfence.sample_rate=1)
                                 zlib's own `make test`, its programs run
                                 through zlib's QEMU_RUN hook (so binfmt_misc
                                 is not needed); the last run adds
                                 kfence.stats=1 and must have guarded
                                 allocations
     reports an overflow through zlib's API
                                 a program of ours lies to uncompress()
                                 about its buffer's size: the report must be
                                 a slab-out-of-bounds write in inflate
     infcover                    zlib's inflate coverage test: exactly its
                                 one real bug (ZLIB_VERSION - 1, a
                                 global-out-of-bounds read) and a run to the
                                 end
2. Debian's arm64 builds of real programs under the KFENCE preload
   (LD_PRELOAD of build/aarch64/lib/libukasan.so, given to the guest with
   qemu's -E): ripgrep (Rust: Rust programs used to hang at start under the
   preload), jq, sqlite3 and xz (multi-threaded), and tests/real's
   _alloc_user.c built against Debian's arm64 jemalloc and mimalloc (whose
   unsampled objects must come from that allocator, not glibc). Each in
   the settings "default" (UKASAN_OPTIONS empty) and
   "kfence.sample_rate=1" (with kfence.stats=1; _alloc_user, some 14 s a run
   under qemu, only in this one): every step's exit status
   and (normalized) stdout must equal those of the run without the
   preload, stderr must hold no report and no "ukasan:" line other than
   the statistics, every run has a timeout (a hang fails), and the
   sample_rate=1 setting must have guarded allocations (its statistics).
   The arm64 packages are fetched with `apt-get download` under a private
   apt configuration (arm64 only, its own lists, cache and status in
   build/third_party/arm64-apt) and unpacked with dpkg-deb -x into
   build/third_party/arm64: nothing is installed, and no libc6:arm64 comes
   in (the programs use the cross libc under /usr/aarch64-linux-gnu). A
   second run reuses them.

Every failure to fetch or build is a "not ok" line saying why. Needs:
qemu-user, gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu,
binutils-aarch64-linux-gnu, clang-16, apt-get, dpkg-deb and the network
on the first run.
"""
import fcntl
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_real_software as crs  # noqa: E402  (its process and report helpers)
from check_real_software import Failed, notok, ok, log, run, status_text, tail, text  # noqa: E402

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
A64 = os.path.join(ROOT, "build", "aarch64")
LIB = os.path.join(A64, "lib", "libukasan.so")
WRAP = os.path.join(A64, "bin", "ukasan-cc")
TMP = os.path.join(os.environ.get("UKASAN_TEST_TMP") or "/tmp", "arm64_real")
THIRD = os.path.join(BUILD, "third_party")
PREFIX = os.path.join(THIRD, "arm64")
APT_DIR = os.path.join(THIRD, "arm64-apt")
SYSROOT = "/usr/aarch64-linux-gnu"
QEMU = ["qemu-aarch64", "-cpu", "max", "-L", SYSROOT]
LIBDIRS = [os.path.join(PREFIX, "usr/lib/aarch64-linux-gnu"), os.path.join(PREFIX, "lib/aarch64-linux-gnu")]
PACKAGES = ["ripgrep", "libpcre2-8-0", "jq", "libjq1", "libonig5", "sqlite3", "libsqlite3-0", "libreadline8",
            "libtinfo6", "zlib1g", "xz-utils", "liblzma5", "libjemalloc2", "libjemalloc-dev", "libmimalloc2.0",
            "libmimalloc-dev", "libgoogle-perftools-dev", "libgoogle-perftools4", "libtcmalloc-minimal4",
            "libunwind8",
            # clang's arm64 HWASan runtime, for tests/tags/check_hwasan_reference.py.
            "libclang-rt-16-dev"]
SETTINGS = [("default", ""), ("kfence.sample_rate=1", "kfence.sample_rate=1 kfence.stats=1"),
            # Hardware tags: every object tagged (PROT_MTE under qemu -cpu max).
            ("kasan=on", "kasan=on kasan.stats=1")]
BUGS = re.compile(r"BUG: (KASAN|KFENCE)")
JOBS = str(os.cpu_count() or 2)


def say(name, why):
    if why:
        notok(name, why)
    else:
        ok(name)


def guest(argv, options=None, libdirs=True):
    """The qemu command line running argv (an arm64 program), with the
    preload when options is not None."""
    cmd = list(QEMU)
    if libdirs:
        cmd += ["-E", "LD_LIBRARY_PATH=" + ":".join(LIBDIRS)]
    if options is not None:
        cmd += ["-E", "LD_PRELOAD=" + LIB, "-E", "UKASAN_OPTIONS=" + options]
    return cmd + argv


def first_bug(t):
    m = BUGS.search(text(t))
    return text(t)[m.start():].splitlines()[0][:200] if m else None


# ---------------------------------------------------------------- zlib

def zlib_source():
    """The zlib source tree, or raises Failed with _debsrc.sh's reason."""
    env = dict(os.environ, BUILD=BUILD, WORK=os.path.join(TMP, "zlib"))
    os.makedirs(env["WORK"], exist_ok=True)
    r = subprocess.run(["sh", "-c", '. "$1/tests/projects/_debsrc.sh"; debsrc_get zlib configure zlib.h', "sh", ROOT],
                       env=env, capture_output=True, text=True, timeout=900)
    src = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if r.returncode != 0 or not os.path.isdir(src):
        raise Failed(src.replace("not ok zlib - ", "") or f"_debsrc.sh failed: {tail(r.stderr)}")
    return src


def zlib_make_test(d, options, name):
    env = crs.base_env(d)
    env["UKASAN_OPTIONS"] = options  # qemu hands its environment to the guest
    s, out, err = run(["make", "test", "QEMU_RUN=" + " ".join(QEMU)], env, 300, cwd=d)
    logf = os.path.join(d, f"test-{name}.log")
    with open(logf, "wb") as f:
        f.write(out + err)
    t = text(out + err)
    bug = first_bug(t)
    if s != 0:
        return f"make test: {status_text(s)}{' after ' + repr(bug) if bug else ''} (log: {logf})"
    if bug:
        return f"report in make test: {bug!r} (log: {logf})"
    rule = re.search(r"^test:.*$", crs.read(os.path.join(d, "Makefile")), re.M)
    lines = (("teststatic", "*** zlib test OK ***"), ("testshared", "*** zlib shared test OK ***"),
             ("test64", "*** zlib 64-bit test OK ***"))
    want = [line for tgt, line in lines if rule and tgt in rule.group(0)]
    missing = [w for w in want or ["*** zlib test OK ***"] if w not in t]
    if missing or "FAILED" in t:
        return f"make test did not print {missing} or printed FAILED (log: {logf})"
    if "kfence.stats" in options and crs.guarded_total(t) == 0:
        return f"no guarded allocation in kfence.stats (was the runtime there?) (log: {logf})"
    return None


def zlib_instrumented(d, mode="generic"):
    why = []
    if mode == "sw_tags":
        # gcc calls __hwasan_load/store; clang checks inline and calls
        # __hwasan_memcpy and friends: both need __hwasan_init or a check.
        for o in ("inflate.o", "deflate.o"):
            syms = subprocess.run(["aarch64-linux-gnu-nm", o], cwd=d, capture_output=True, text=True).stdout
            if not re.search(r" U __hwasan_", syms):
                why.append(f"{o}: not instrumented for software tags")
        return "; ".join(why) or None
    progs = [b for b in ("example", "minigzip", "examplesh", "minigzipsh", "example64", "minigzip64")
             if os.path.exists(os.path.join(d, b))]
    if "example" not in progs:
        why.append("no example binary")
    for b in progs:
        dis = subprocess.run(["aarch64-linux-gnu-objdump", "-d", b], cwd=d, capture_output=True, text=True).stdout
        if not re.search(r"\sbl\s.*<__asan_(report_|load|store)", dis):
            why.append(f"{b}: no bl to __asan_report_/load/store")
        dyn = subprocess.run(["aarch64-linux-gnu-readelf", "-d", b], cwd=d, capture_output=True, text=True).stdout
        if not re.search(r"NEEDED.*libukasan", dyn):
            why.append(f"{b}: does not link libukasan.so")
    libs = [f for f in os.listdir(d) if f.startswith("libz.so.") and not os.path.islink(os.path.join(d, f))]
    for o, dyn in [("inflate.o", []), ("deflate.o", [])] + [(f, ["-D"]) for f in libs[:1]]:
        syms = subprocess.run(["aarch64-linux-gnu-nm"] + dyn + [o], cwd=d, capture_output=True, text=True).stdout
        if not re.search(r" U __asan_(report_|load|store)", syms):
            why.append(f"{o}: not instrumented")
    if not libs:
        why.append("no libz.so")
    return "; ".join(why) or None


def zlib_canary(d, cc, mode="generic"):
    shutil.copy(os.path.join(ROOT, "tests", "projects", "_zlib_canary.c"), os.path.join(d, "ukasan_canary.c"))
    env = dict(crs.base_env(d), UKASAN_CC=cc, UKASAN_MODE=mode)
    s, out, err = run([WRAP, "-O2", "-I.", "ukasan_canary.c", "libz.a", "-o", "ukasan_canary"], env, 120, cwd=d)
    if s != 0:
        return f"could not build the overflow program: {tail(err)}"
    # KFENCE off: the buffer must be a KASAN slab object.
    env["UKASAN_OPTIONS"] = "kfence.sample_interval=0"
    s, out, err = run(QEMU + ["./ukasan_canary"], env, 60, cwd=d)
    t = text(err)
    if "BUG: KASAN: slab-out-of-bounds in inflate" not in t or not re.search(r"^Write of size", t, re.M):
        return f"no 'BUG: KASAN: slab-out-of-bounds in inflate' write report; got {first_bug(t)!r}, {status_text(s)}"
    if "uncompress:" not in text(out):
        return f"the program did not go on after the report ({status_text(s)}; stderr {tail(err)})"
    return None


def zlib_infcover(d, cc, mode="generic"):
    env = dict(crs.base_env(d), UKASAN_MODE=mode)
    if mode == "sw_tags":
        # The same compiler links it: clang's software tags need lld (tagged
        # globals), which the wrapper asks for only when it drives clang.
        env["UKASAN_CC"] = cc
    s, out, err = run(["make", "infcover"], env, 300, cwd=d)
    if s != 0:
        return f"make infcover: {status_text(s)} {tail(err)}"
    s, out, err = run(QEMU + ["./infcover"], env, 120, cwd=d)
    t = text(out + err)
    n = len(BUGS.findall(t))
    # A run with a report exits 1 (ukasan.exitcode); one without, 0.
    if s != (1 if n else 0):
        return f"infcover: {status_text(s)} after {n} reports; {tail(t)}"
    if mode == "sw_tags" and "clang" not in cc:
        # Its one bug reads past a global string: gcc tags no globals.
        if n:
            return f"expected no report (gcc tags no globals); got {n}, first {first_bug(t)!r}"
    elif mode == "sw_tags":
        if n != 1 or not re.search(r"BUG: KASAN: invalid-access in inflateInit2?_", t):
            return (f"expected exactly one report, invalid-access in inflateInit_ or inflateInit2_ "
                    f"(ZLIB_VERSION - 1, a tagged global); got {n}, first {first_bug(t)!r}")
    elif n != 1 or not re.search(r"BUG: KASAN: global-out-of-bounds in inflateInit2?_", t):
        return (f"expected exactly one report, global-out-of-bounds in inflateInit_ or inflateInit2_ "
                f"(ZLIB_VERSION - 1); got {n}, first {first_bug(t)!r}")
    if "copy direct from output" not in t:
        return "infcover did not run to its last case"
    return None


ZLIB_LINES = ["builds with ukasan-cc", "binaries instrumented", "make test passes with no report",
              "make test passes with no report (kasan_multi_shot)",
              "make test passes with no report (kasan_multi_shot kfence.sample_rate=1)",
              "reports an overflow through zlib's API", "infcover: only its own ZLIB_VERSION - 1 bug is reported"]


ZLIB_SW_LINES = ZLIB_LINES[:6] + ["infcover: its ZLIB_VERSION - 1 bug is reported with clang (tagged globals), "
                                   "nothing with gcc (no tagged globals)"]


def check_zlib(tag, cc, src, mode="generic"):
    """zlib built with the arm64 ukasan-cc in mode (generic or sw_tags)."""
    t = f"arm64 zlib [{tag}]"
    lines = ZLIB_SW_LINES if mode == "sw_tags" else ZLIB_LINES
    if not shutil.which(cc) and not shutil.which("aarch64-linux-gnu-" + cc):
        for line in lines:
            notok(f"{t} {line}", f"{cc} not found")
        return
    d = os.path.join(TMP, "zlib-" + tag.replace(" ", "-"))
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d, symlinks=True)
    env = dict(crs.base_env(d), CHOST="aarch64-linux-gnu", CC=WRAP, UKASAN_CC=cc, UKASAN_MODE=mode)
    t0 = time.time()
    s, out, err = run(["./configure"], env, 300, cwd=d)
    if s == 0:
        s, out2, err2 = run(["make", "-j" + JOBS], env, 600, cwd=d)
        out, err = out + out2, err + err2
    with open(os.path.join(d, "build.log"), "wb") as f:
        f.write(out + err)
    if s != 0:
        for line in lines:
            notok(f"{t} {line}", f"configure or make: {status_text(s)}: {tail(err)}" if line == lines[0]
                  else "not built")
        return
    say(f"{t} {lines[0]}", f"report while building: {first_bug(out + err)!r}" if first_bug(out + err) else None)
    say(f"{t} {lines[1]}", zlib_instrumented(d, mode))
    say(f"{t} {lines[2]}", zlib_make_test(d, "", "default"))
    say(f"{t} {lines[3]}", zlib_make_test(d, "kasan_multi_shot", "multi-shot"))
    say(f"{t} {lines[4]}", zlib_make_test(d, "kasan_multi_shot kfence.sample_rate=1 kfence.stats=1", "kfence-all"))
    say(f"{t} {lines[5]}", zlib_canary(d, cc, mode))
    say(f"{t} {lines[6]}", zlib_infcover(d, cc, mode))
    log(f"{t}: {time.time() - t0:.1f}s in {d}")


# ---------------------------------------------------------------- arm64 packages

def apt_options():
    return ["-o", "APT::Architecture=arm64", "-o", "APT::Architectures=arm64",
            "-o", "Dir::State::Lists=" + os.path.join(APT_DIR, "lists"),
            "-o", "Dir::State::status=" + os.path.join(APT_DIR, "status"),
            "-o", "Dir::Cache=" + os.path.join(APT_DIR, "cache"),
            "-o", "Dir::Etc::SourceList=" + os.path.join(APT_DIR, "sources.list"),
            "-o", "Dir::Etc::SourceParts=" + os.path.join(APT_DIR, "sources.list.d"),
            "-o", "Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false",
            "-o", "Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false",
            "-o", "Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false",
            "-o", "Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false",
            # As root, apt downloads as the _apt user, who cannot write into build/.
            "-o", "APT::Sandbox::User=" + ("root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")),
            "-o", "Debug::NoLocking=1"]


def fetch_packages():
    """Unpacks PACKAGES (arm64) into PREFIX unless already there; raises
    Failed saying why it could not."""
    stamp = os.path.join(PREFIX, ".packages")
    if crs.read(stamp).split() == PACKAGES:
        return
    for tool in ("apt-get", "dpkg-deb"):
        if not shutil.which(tool):
            raise Failed(f"no {tool}: cannot fetch Debian's arm64 packages")
    for sub in ("lists/partial", "cache/archives/partial", "sources.list.d", "debs"):
        os.makedirs(os.path.join(APT_DIR, sub), exist_ok=True)
    codename = re.search(r"^VERSION_CODENAME=(\S+)", crs.read("/etc/os-release"), re.M)
    key = "/usr/share/keyrings/debian-archive-keyring.gpg"
    with open(os.path.join(APT_DIR, "sources.list"), "w") as f:
        f.write(f"deb [arch=arm64{' signed-by=' + key if os.path.exists(key) else ''}] http://deb.debian.org/debian "
                f"{codename.group(1) if codename else 'bookworm'} main\n")
    open(os.path.join(APT_DIR, "status"), "a").close()
    env = crs.base_env(APT_DIR)
    debs = os.path.join(APT_DIR, "debs")
    for f in os.listdir(debs):
        os.unlink(os.path.join(debs, f))
    s, out, err = run(["apt-get"] + apt_options() + ["update"], env, 300)
    if s != 0 or re.search(r"^(E: |W: (Failed to fetch|Some index files))", text(err), re.M):
        raise Failed(f"apt-get update (private arm64 configuration in {APT_DIR}) failed ({status_text(s)}): "
                     f"{tail(err)}")
    s, out, err = run(["apt-get"] + apt_options() + ["download"] + PACKAGES, env, 600, cwd=debs)
    if s != 0:
        raise Failed(f"apt-get download of the arm64 packages: {status_text(s)}: {tail(err)}")
    stage = PREFIX + ".partial"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    for deb in sorted(os.listdir(debs)):
        s, out, err = run(["dpkg-deb", "-x", os.path.join(debs, deb), stage], env, 120)
        if s != 0:
            raise Failed(f"dpkg-deb -x {deb}: {status_text(s)}: {tail(err)}")
    with open(os.path.join(stage, ".packages"), "w") as f:
        f.write("\n".join(PACKAGES) + "\n")
    shutil.rmtree(PREFIX, ignore_errors=True)
    os.rename(stage, PREFIX)


# ---------------------------------------------------------------- programs

class Step:
    def __init__(self, desc, argv, stdin=None, norm=None, ok_status=(0,), check=None):
        self.desc, self.argv, self.stdin, self.norm = desc, argv, stdin, norm
        self.ok_status, self.check = ok_status, check  # check(stderr) -> reason or None


def run_steps(steps, cwd, options, before=None, timeout=60):
    if before:
        before()
    res = []
    for st in steps:
        s, out, err = run(guest(st.argv, options), crs.base_env(cwd), timeout, cwd=cwd, stdin=st.stdin)
        if s in st.ok_status and st.norm:
            out = st.norm(out)
        res.append((s, out, err))
        if not isinstance(s, int):  # a hang: the next steps would hang too
            break
    return res


def check_program(name, steps, cwd, before=None, settings=SETTINGS):
    """One line per setting: the same results as without the preload.
    before() runs before each series of the steps."""
    t0 = time.time()
    plain = run_steps(steps, cwd, None, before)
    broken = [f"{st.desc}: {status_text(s)} {tail(e, 200)}" for st, (s, _, e) in zip(steps, plain)
              if s not in st.ok_status or (st.check and st.check(e))]
    for label, options in settings:
        test = f"arm64 {name} [{label}]"
        if broken:
            notok(test, f"fails without the preload: {broken[0]}")
            continue
        pre = run_steps(steps, cwd, options, before)
        problems = []
        for st, (s0, o0, _), (s1, o1, e1) in zip(steps, plain, pre):
            if s1 != s0:
                problems.append(f"{st.desc}: {status_text(s1)} (without the preload: {status_text(s0)}); "
                                f"stderr {tail(e1, 200)}")
            elif o1 != o0:
                problems.append(f"{st.desc}: output differs ({len(o1)} vs {len(o0)} bytes)")
            bad = crs.reports(e1) or ([st.check(e1)] if st.check and st.check(e1) else [])
            if bad:
                problems.append(f"{st.desc}: stderr has {bad[0][:200]!r}")
        if len(pre) < len(steps):
            problems.append(f"{len(steps) - len(pre)} later steps not run")
        n = crs.guarded_total(b"".join(e for _, _, e in pre))
        if "kfence.stats" in options and not problems and n == 0:
            problems.append("kfence.stats shows no guarded allocation (was the preload there?)")
        if "kasan=on" in options and not problems and not all(b"tagged small heap:" in e for _, _, e in pre):
            problems.append("kasan.stats shows no tagged heap (were hardware tags on?)")
        say(test, "; ".join(problems) or None)
        if "kfence.stats" in options:
            log(f"{test}: {n} guarded allocations")
        crs.cleanup()
    log(f"arm64 {name}: {time.time() - t0:.1f}s")


def bin_(prog):
    return os.path.join(PREFIX, "usr/bin", prog)


def ripgrep_steps(d):
    tree = os.path.join(d, "rg-tree")
    crs.make_tree(tree)
    return [Step(" ".join(a[1:])[:60], [bin_("rg")] + a[1:], norm=n, ok_status=(0, 1))
            for a, n in crs.rg_steps("rg")], tree


def jq_steps(d):
    rnd = random.Random(7)
    words = crs.WORDS
    recs = [{"id": i, "name": " ".join(rnd.choice(words) for _ in range(rnd.randrange(1, 4))),
             "k": rnd.choice(words[:8]), "v": rnd.randrange(100000) / 7,
             "tags": [rnd.choice(words) for _ in range(rnd.randrange(0, 6))],
             "sub": {"a": rnd.randrange(10), "b": [rnd.randrange(50) for _ in range(rnd.randrange(5))]}}
           for i in range(1500)]
    with open(os.path.join(d, "in.json"), "w") as f:
        json.dump(recs, f)
    jq = bin_("jq")
    return [Step("group_by", [jq, "-c", "group_by(.k) | map({k: .[0].k, n: length, s: (map(.v) | add)})", "in.json"]),
            Step("select test", [jq, r'[.[] | select(.name | test("a.*e"))] | length', "in.json"]),
            Step("sort_by", [jq, "-S", "map(.tags |= sort) | sort_by(.v) | .[:200]", "in.json"]),
            Step("paths", [jq, "[paths] | length", "in.json"]),
            Step("reduce", [jq, "-r", "reduce .[] as $r ({}; .[$r.k] += ($r.tags | length)) | to_entries[] "
                            "| \"\\(.key)=\\(.value)\"", "in.json"]),
            Step("tostream", [jq, "-c", "[.[:300][] | tostream] | length", "in.json"]),
            Step("strings", [jq, "-r", ".[] | .name | ascii_upcase | @base64", "in.json"]),
            Step("stdin", [jq, "-c", ".[] | .sub | select(.a > 5)"], stdin=crs.read(os.path.join(d, "in.json"))
                 .encode())]


SQL = """
CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v INTEGER, s TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 25000)
INSERT INTO t SELECT i, 'k' || (i * 7919 % 97), (i * 2654435761) % 100003, printf('%08d-%s', i * 31 % 99991,
    substr('abcdefghijklmnopqrstuvwxyz', i % 26 + 1, i % 7 + 1)) FROM c;
CREATE INDEX t_k ON t(k, v);
CREATE TABLE u AS SELECT k, count(*) n, sum(v) s, group_concat(id % 10, '') g FROM t GROUP BY k;
SELECT k, n, s, length(g) FROM u ORDER BY s DESC LIMIT 10;
SELECT k, v, rank() OVER (PARTITION BY k ORDER BY v DESC) r FROM t WHERE id % 997 = 0 ORDER BY k, r;
SELECT count(*), sum(length(s)) FROM t WHERE s LIKE '%77%';
SELECT json_group_array(json_object('k', k, 'n', n)) FROM (SELECT * FROM u ORDER BY k LIMIT 20);
UPDATE t SET v = v + 1 WHERE k IN ('k1', 'k2', 'k3');
DELETE FROM t WHERE id % 3 = 0;
VACUUM;
SELECT count(*), sum(v), total(id) FROM t;
SELECT a.k, count(*) FROM t a JOIN u b ON a.k = b.k AND a.v > b.s / b.n GROUP BY a.k ORDER BY a.k LIMIT 15;
SELECT upper(s), v FROM t ORDER BY s DESC, id LIMIT 20;
PRAGMA integrity_check;
"""


def sqlite_steps(d):
    db = os.path.join(d, "t.db")
    return [Step("script", [bin_("sqlite3"), "-batch", db], stdin=SQL.encode()),
            Step("query again", [bin_("sqlite3"), "-batch", "-csv", db,
                                 "SELECT k, count(*), max(s) FROM t GROUP BY k ORDER BY k"])], db


def xz_steps(d):
    rnd = random.Random(3)
    with open(os.path.join(d, "data"), "w") as f:
        for k in range(30000):
            f.write(f"{k} {' '.join(rnd.choice(crs.WORDS) for _ in range(6))} {rnd.getrandbits(24):06x}\n")
    xz = bin_("xz")
    return [Step("compress -T2", [xz, "-T2", "--block-size=256KiB", "-6", "-c", "data"]),
            Step("decompress", [xz, "-d", "-c", "-T2", "ref.xz"]),
            Step("test", [xz, "-t", "-v", "ref.xz"]),
            Step("list", [xz, "-l", "--robot", "ref.xz"])]


ALLOCATORS = [("jemalloc", "USE_JEMALLOC"), ("mimalloc", "USE_MIMALLOC")]


def build_alloc_user(name, define, d):
    exe = os.path.join(d, f"alloc_user_{name}")
    flags = ["-O2", "-g", "-fno-builtin", f"-D{define}", "-I" + os.path.join(ROOT, "include"),
             "-I" + os.path.join(PREFIX, "usr/include")]
    env = crs.base_env(d)
    for cmd in (["aarch64-linux-gnu-gcc"] + flags + ["-c", os.path.join(HERE, "_alloc_user.c"), "-o", exe + ".o"],
                ["aarch64-linux-gnu-g++"] + flags + ["-c", os.path.join(HERE, "_alloc_user_new.cc"), "-o",
                                                     exe + "_new.o"],
                ["aarch64-linux-gnu-g++", exe + ".o", exe + "_new.o", "-o", exe, "-L" + LIBDIRS[0], f"-l{name}",
                 "-lpthread"]):
        s, out, err = run(cmd, env, 180, cwd=d)
        if s != 0:
            raise Failed(f"{' '.join(cmd[:1] + cmd[-3:])}: {status_text(s)} {tail(err, 400)}")
    dyn = subprocess.run(["aarch64-linux-gnu-readelf", "-d", exe], capture_output=True, text=True).stdout
    if f"lib{name}" not in dyn:
        raise Failed(f"the program is not linked against lib{name}")
    return exe


def alloc_check(name):
    def check(err):
        summary = crs.alloc_summary(err, name)
        if not summary:
            return f"no summary line (phase {crs.last_phase(err)})"
        if summary[2]:
            return f"{summary[2]} new objects came neither from {name} nor from KFENCE, first {summary[3]}"
        return None
    return check


def check_programs():
    names = [(n, SETTINGS) for n in ("ripgrep", "jq", "sqlite3", "xz")] + [(n, SETTINGS[1:2]) for n, _ in ALLOCATORS]
    missing = [t for t in ("qemu-aarch64", "aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++") if not shutil.which(t)]
    try:
        if missing:
            raise Failed(f"missing: {', '.join(missing)}")
        os.makedirs(THIRD, exist_ok=True)
        with open(os.path.join(THIRD, ".arm64.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one fetch at a time
            fetch_packages()
    except Failed as e:
        for n, settings in names:
            for label, _ in settings:
                notok(f"arm64 {n} [{label}]", e)
        return
    d = os.path.join(TMP, "programs")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    steps, tree = ripgrep_steps(d)
    check_program("ripgrep", steps, tree)
    check_program("jq", jq_steps(d), d)
    steps, db = sqlite_steps(d)
    # A fresh database for each series.
    check_program("sqlite3", steps, d, before=lambda: os.path.exists(db) and os.unlink(db))
    xsteps = xz_steps(d)
    s, out, err = run(guest(xsteps[0].argv), crs.base_env(d), 120, cwd=d)
    if s == 0:
        with open(os.path.join(d, "ref.xz"), "wb") as f:
            f.write(out)
    check_program("xz", xsteps, d)
    for name, define in ALLOCATORS:
        try:
            exe = build_alloc_user(name, define, d)
        except Failed as e:
            for label, _ in SETTINGS[1:2]:
                notok(f"arm64 {name} [{label}]", f"cannot build _alloc_user.c against Debian's arm64 {name}: {e}")
            continue
        # Some 14 s a run under qemu: only the setting that exercises both
        # paths, KFENCE's objects until the pool is full and the allocator's
        # after (what the default setting does, at another ratio). Under
        # hardware tags a run takes 80 s of emulated tag checks, too long
        # for make test: checked by hand (its note says so).
        check_program(name, [Step("alloc_user", [exe], check=alloc_check(name))], d, settings=SETTINGS[1:2])


def main():
    # Arguments (for debugging): "zlib" and/or "programs"; none: both.
    # "fetch": only fetch the arm64 packages (make test does it first: the
    # arm64 KFENCE tests link jemalloc, mimalloc and tcmalloc from them, and
    # the HWASan reference of the tag tests takes clang's runtime).
    if sys.argv[1:] == ["fetch"]:
        try:
            fetch_packages()
        except Failed as e:
            print(f"check_arm64_real: {e}", file=sys.stderr)
        return
    only = sys.argv[1:] or ["zlib", "programs"]
    os.makedirs(TMP, exist_ok=True)
    start = time.time()
    try:
        if not os.path.exists(LIB) or not os.path.exists(WRAP):
            for n in ("zlib", "programs"):
                notok(f"arm64 {n}", f"{LIB} or {WRAP} missing: run make ARCH=aarch64 first")
            return
        src = None
        try:
            if "zlib" in only:
                src = zlib_source()
        except Failed as e:
            for tag in ("gcc", "clang", "sw_tags gcc", "sw_tags clang"):
                for line in ZLIB_SW_LINES if tag.startswith("sw") else ZLIB_LINES:
                    notok(f"arm64 zlib [{tag}] {line}", e)
        if src:
            clang = os.environ.get("UKASAN_CC_CLANG", "clang-16")
            check_zlib("gcc", "gcc", src)
            check_zlib("clang", clang, src)
            check_zlib("sw_tags gcc", "gcc", src, "sw_tags")
            check_zlib("sw_tags clang", clang, src, "sw_tags")
        if "programs" in only:
            check_programs()
    finally:
        crs.cleanup()
        log(f"total {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
