#!/usr/bin/env python3
"""The arm64 modes' cost, emulated: run by `make bench` after the other
bench scripts, once `make ARCH=aarch64` has built build/aarch64/.

    python3 bench/run_arm64.py [--rounds N | --quick]

There is no arm64 machine here, so every figure is EMULATED: the programs
run under qemu-aarch64 -cpu max on this x86-64 host. What is measured is the
qemu process (CPU time = user + sys from wait4(2), via
bench/generic/launch.c) and, where qemu's TCG plugins work, the number of
guest instructions executed. Emulated time is not arm64 time: qemu
translates each guest instruction to several host ones, and system calls,
signals and large mmaps cost what they cost qemu. The instruction count is
the steadier figure (it does not depend on the load of this shared
machine), but it leaves out the work done in the kernel and in qemu.
Hardware tags (MTE) are the extreme case: once a thread turns tag checking
on, qemu runs every load and store of it several times slower (3-7x in the
facts note), tagged memory or not, where real MTE hardware checks at
little cost. Their CPU ratios are mostly that emulation cost; their
instruction ratios count the tagging work (stg loops, the allocator) but
not the checks, which MTE makes in hardware.

Builds, all -O2 -g, of bench/generic/{alloc,compute,startup}.c and
bench/seeds/vmalloc.c (fewer loops than run_seeds.py, one thread):
plain aarch64-linux-gnu-gcc; ukasan-cc from build/aarch64 (generic mode,
gcc, inline); the plain build with libukasan.so preloaded (KFENCE, default
options); as a reference, aarch64-linux-gnu-gcc -fsanitize=address
-fno-omit-frame-pointer with ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=256
(LeakSanitizer stops with "LeakSanitizer has encountered a fatal error"
under qemu-user, so it is off); software tags, gcc (GCC 12 has calls only)
and clang-16 (inline checks), built by ukasan-cc with UKASAN_MODE=sw_tags
when this ukasan-cc knows it (a probe looks for the sw_tags marker in what
it links), else by hand with the same flags and link line (SW_GCC,
SW_CLANG, sw_link below: the output says which); HWASan, gcc's
-fsanitize=hwaddress (libhwasan), as software tags' reference, run with
HWASAN_OPTIONS=max_malloc_fill_size=0 (it fills new memory by default,
KASAN does not); hardware tags, the plain build with libukasan.so preloaded
and UKASAN_OPTIONS=kasan=on (kasan.mode=sync).
If a build does not link or run, the output says so.

Then seed 003's loopback test under hardware tags with
kasan.page_alloc.sample=1 and =10 (bench/run_arm64_loopback.py, which says
how).

Every build of every program first runs once with the instruction-count
plugin (a check, a warm-up, and the count); then ROUNDS rounds in which each
build runs once, without the plugin, the order rotated every round.
Medians over rounds; ratios are medians of per-round ratios to the plain
build. A run fails when it exits non-zero, prints a memory-error report, or
prints other output than the plain build; failures are reported, never
hidden.

The instruction counter is a qemu TCG plugin whose C source is below: it is
built at run time, since Debian's qemu-user ships no plugins and no
qemu-plugin.h. It declares the few plugin API calls it uses (plugin API
version 1, qemu 7.2's), counts the instructions of each translated block
each time the block runs, per vCPU, and prints the sum at exit.

The tables go to stdout and are appended to build/bench/results_arm64.md.
"""
import functools
import os
import platform
import re
import shutil
import subprocess
import sys
import time

from benchlib import BASE_ENV, build_launcher, emit, excerpt, finish, fmt, launch, med, paired, table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
ARM = os.path.join(BUILD, "aarch64")
OUT = os.path.join(BUILD, "bench", "arm64")
RESULTS = os.path.join(BUILD, "bench", "results_arm64.md")

ROUNDS = 2  # nine builds under qemu, then the loopback test: make bench's arm64 part
# stays near 6 minutes (the instruction counts, the steadier figure, need one run)
TIMEOUT = 120  # seconds for any one sample
CC = "aarch64-linux-gnu-gcc"
CFLAGS = ["-O2", "-g"]
SYSROOT = "/usr/aarch64-linux-gnu"
QEMU = ["qemu-aarch64", "-cpu", "max", "-L", SYSROOT]
ASAN_OPTIONS = "detect_leaks=0:quarantine_size_mb=256"
# HWASan fills the first 4 KiB of every allocation with 0xbe by default;
# KASAN's tag modes fill nothing: off, so that tagging is what is compared.
HWASAN_OPTIONS = "max_malloc_fill_size=0"
EMU = "emulated (qemu-aarch64 on x86-64)"

# Smaller inputs than run_generic.py's (alloc 6 17, compute 4, 50 starts):
# under qemu the same work takes several times longer, and gcc ASan's
# start-up alone takes about a second of CPU there.
STARTS = 3
VMALLOC_LOOPS = 1000

REPORT_RE = re.compile(r"BUG: KASAN|BUG: KFENCE|ERROR: AddressSanitizer|AddressSanitizer:"
                       r"|ERROR: HWAddressSanitizer|tag-mismatch"
                       r"|^\S+\(\): |double free|corrupted|Segmentation fault"
                       r"|uncaught target signal", re.M)
INSN_RE = re.compile(r"^ukasan-bench-insns: (\d+)$", re.M)


PLUGIN_C = r"""
/* Counts the guest instructions executed: each translated block adds its
 * instruction count every time it runs. The API is declared here because
 * Debian ships no qemu-plugin.h; these are plugin API version 1's calls. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;
void qemu_plugin_register_vcpu_tb_trans_cb(
	qemu_plugin_id_t, void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *,
					  void (*)(unsigned, void *), int flags,
					  void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t,
				    void (*)(qemu_plugin_id_t, void *), void *);
void qemu_plugin_outs(const char *);

/* One counter per vCPU (thread): no atomics needed, and none lost to
 * races, which the API's inline add to one counter would risk. */
#define SLOTS 1024
static uint64_t counts[SLOTS];

static void exec(unsigned vcpu, void *n)
{
	counts[vcpu % SLOTS] += (uintptr_t)n;
}

static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(
		tb, exec, 0 /* no registers */,
		(void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

static void done(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	uint64_t sum = 0;
	for (int i = 0; i < SLOTS; i++)
		sum += counts[i];
	char line[64];
	snprintf(line, sizeof line, "ukasan-bench-insns: %llu\n",
		 (unsigned long long)sum);
	qemu_plugin_outs(line);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void *info,
			       int argc, char **argv)
{
	(void)info;
	(void)argc;
	(void)argv;
	qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
	qemu_plugin_register_atexit_cb(id, done, NULL);
	return 0;
}
"""


class Variant:
    def __init__(self, key, label, compiler, build_env=None, extra=(), preload=False,
                 run_env=None, same_exe=None, post=()):
        self.key, self.label, self.compiler = key, label, compiler
        self.short = label.split(":")[0]
        self.build_env = build_env or {}
        self.extra = list(extra)
        self.post = list(post)  # after the sources: the runtime, for hand-made links
        self.preload = preload
        self.run_env = run_env or {}
        self.same_exe = same_exe  # runs another variant's executable


class Sample:
    def __init__(self, ok, why, wall, cpu, rss_kb, out, err, insns):
        self.ok, self.why = ok, why
        self.wall, self.cpu, self.rss_mb = wall, cpu, rss_kb / 1024
        self.out, self.err, self.insns = out, err, insns


class Program:
    def __init__(self, name, src, title, args, starts, describe, shape=None, libs=()):
        self.name, self.src, self.title, self.args = name, src, title, args
        self.starts, self.describe = starts, describe
        self.shape = shape or (lambda out: out)
        self.libs = list(libs)
        self.exes, self.samples, self.insns = {}, {}, {}
        self.failures = []  # (variant label, sample)
        self.expected = None


def sh(cmd, env=None):
    return subprocess.run(cmd, env=env, capture_output=True, text=True)


def run(prog, v, plugin=None):
    qemu = list(QEMU)
    if plugin:
        qemu += ["-plugin", plugin, "-d", "plugin"]
    if v.preload:
        qemu += ["-E", "LD_PRELOAD=" + os.path.join(OUT, "lib", "libukasan.so")]
    why, out, err, wall, cpu, rss = launch(
        os.path.join(OUT, "launch"), OUT, shutil.which("qemu-aarch64"),
        qemu[1:] + [prog.exes[v.key], *prog.args], dict(BASE_ENV, **v.run_env), prog.starts,
        TIMEOUT)
    counts = [int(x) for x in INSN_RE.findall(err)]
    err = INSN_RE.sub("", err)
    insns = sum(counts) / prog.starts if plugin and len(counts) == prog.starts else None
    if not why and REPORT_RE.search(err):
        why = "printed a memory-error report"
    if not why and prog.expected is not None and prog.shape(out) != prog.expected:
        why = "printed other output than the plain build"
    return Sample(not why, why, wall, cpu, rss, out, err, insns)


def build(prog, v):
    if v.same_exe:
        return prog.exes[v.same_exe], None
    exe = os.path.join(OUT, f"{prog.name}.{v.key}")
    cmd = [v.compiler, *CFLAGS, *v.extra, prog.src, "-o", exe, *prog.libs, *v.post]
    r = sh(cmd, dict(BASE_ENV, **v.build_env))
    if r.returncode != 0:
        return None, f"`{' '.join(cmd)}` failed:\n{excerpt(r.stderr)}"
    return exe, None


def prepare():
    """Copies build/aarch64's ukasan-cc and runtime (a rebuild while this
    runs must not change what is measured), builds the launcher and the
    instruction-count plugin. Returns (ukasan-cc, plugin or None, note)."""
    for tool in (CC, "qemu-aarch64"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} not found (tools/deps.sh installs it)")
    for f in ("bin/ukasan-cc", "lib/libukasan.so"):
        if not os.path.exists(os.path.join(ARM, f)):
            sys.exit(f"bench: build/aarch64/{f} not found: run make ARCH=aarch64 first")
    shutil.rmtree(OUT, ignore_errors=True)
    for d in ("bin", "lib"):
        shutil.copytree(os.path.join(ARM, d), os.path.join(OUT, d))
    build_launcher(OUT)
    src, so = os.path.join(OUT, "insn_count.c"), os.path.join(OUT, "insn_count.so")
    with open(src, "w") as f:
        f.write(PLUGIN_C)
    r = sh(["gcc", "-O2", "-Wall", "-Wextra", "-shared", "-fPIC", src, "-o", so])
    if r.returncode != 0:
        return os.path.join(OUT, "bin", "ukasan-cc"), None, (
            f"the instruction-count plugin did not build, so CPU time only:\n{excerpt(r.stderr)}")
    # Does this qemu load it and count? A static qemu cannot load plugins.
    probe = os.path.join(OUT, "probe")
    with open(probe + ".c", "w") as f:
        f.write("int main(void) { return 0; }\n")
    r = sh([CC, "-O2", probe + ".c", "-o", probe])
    if r.returncode == 0:
        r = sh(QEMU + ["-plugin", so, "-d", "plugin", probe], BASE_ENV)
    if r.returncode != 0 or not INSN_RE.search(r.stderr):
        return os.path.join(OUT, "bin", "ukasan-cc"), None, (
            f"qemu-aarch64 did not load the instruction-count plugin, so CPU time only:\n"
            f"{excerpt(r.stderr)}")
    return os.path.join(OUT, "bin", "ukasan-cc"), so, None


# Software tags by hand, for a ukasan-cc that does not know UKASAN_MODE yet:
# the flags its sw_tags mode passes (tools/ukasan-cc), and its link line.
SW_CLANG = ["--target=aarch64-linux-gnu", "-fsanitize=hwaddress", "-fsanitize-recover=hwaddress",
            "-fno-sanitize-link-runtime", "-mllvm", "-hwasan-mapping-offset=0x100000000000",
            "-mllvm", "-hwasan-globals=0", "-mllvm", "-hwasan-use-short-granules=0",
            "-mllvm", "-hwasan-instrument-stack=1", "-mllvm", "-hwasan-match-all-tag=255"]
SW_GCC = ["-fsanitize=kernel-hwaddress", "--param=hwasan-instrument-stack=1",
          "--param=hwasan-instrument-allocas=1"] + [
    "-fno-builtin-" + f for f in ("memcpy", "memmove", "memset", "memcmp", "bcmp", "bzero",
                                  "bcopy", "mempcpy")]


def sw_link():
    lib = os.path.join(OUT, "lib")
    return [os.path.join(lib, "ukasan_marker_sw_tags.o"), "-Wl,--whole-archive",
            os.path.join(lib, "libukasan_static.a"), "-Wl,--no-whole-archive",
            "-Wl,--export-dynamic-symbol-list=" + os.path.join(lib, "ukasan_exports"),
            "-L" + lib, "-lukasan", "-Wl,-rpath," + lib, "-Wl,-z,now"]


def sw_tags_by_ukasan_cc(ukcc):
    """Does ukasan-cc build software-tag programs (UKASAN_MODE=sw_tags)? One
    that does not know the variable builds generic mode without a word, so
    the probe looks for the sw_tags marker in what it linked."""
    probe = os.path.join(OUT, "probe_sw")
    with open(probe + ".c", "w") as f:
        f.write("int main(void) { return 0; }\n")
    r = sh([ukcc, "-O2", probe + ".c", "-o", probe], dict(BASE_ENV, UKASAN_MODE="sw_tags"))
    if r.returncode != 0:
        return False
    nm = sh(["aarch64-linux-gnu-nm", probe])
    return re.search(r" [A-Z] __ukasan_sw_tags_mode$", nm.stdout, re.M) is not None


def tag_variants(ukcc, by_cc):
    """Software tags (gcc and clang), HWASan (gcc's, the reference) and
    hardware tags (MTE: the plain build under the preload with kasan=on)."""
    how = "ukasan-cc -O2, UKASAN_MODE=sw_tags" if by_cc else "by hand, ukasan-cc's sw_tags flags"
    if by_cc:
        sw = [Variant("sw-gcc", f"ukasan sw_tags, gcc (calls): {how}", ukcc,
                      {"UKASAN_MODE": "sw_tags", "UKASAN_CC": "gcc"}),
              Variant("sw-clang", f"ukasan sw_tags, clang-16 (inline): {how}", ukcc,
                      {"UKASAN_MODE": "sw_tags", "UKASAN_CC": "clang-16"})]
    else:
        sw = [Variant("sw-gcc", f"ukasan sw_tags, gcc (calls): {how}", CC, extra=SW_GCC,
                      post=sw_link()),
              Variant("sw-clang", f"ukasan sw_tags, clang-16 (inline): {how}", "clang-16",
                      extra=SW_CLANG, post=sw_link())]
    return sw + [
        Variant("hwasan-gcc", f"HWASan gcc (reference): -fsanitize=hwaddress", CC,
                extra=["-fsanitize=hwaddress"], run_env={"HWASAN_OPTIONS": HWASAN_OPTIONS}),
        Variant("hw-tags", "ukasan hw_tags (MTE): plain build, libukasan.so preloaded, kasan=on",
                CC, preload=True, same_exe="plain", run_env={"UKASAN_OPTIONS": "kasan=on"}),
    ]


def vmalloc_shape(out):
    """The tests that ran, not their times."""
    return " ".join(m.group(1) for m in re.finditer(r"^(\w+) \d+$", out, re.M))


def times(x):
    return "n/a (failed runs)" if x is None else f"{x:.2f}x"


table = functools.partial(table, numeric=r"[-\d.x?,]*|n/a")


def main():
    global ROUNDS
    import run_arm64_loopback as loopback
    args = sys.argv[1:]
    lb_rounds = loopback.ROUNDS
    if args == ["--quick"]:
        ROUNDS = lb_rounds = 1
    elif len(args) == 2 and args[0] == "--rounds" and args[1].isdigit():
        ROUNDS = lb_rounds = max(1, int(args[1]))
    elif args:
        sys.exit("usage: run_arm64.py [--rounds N | --quick]")
    start = time.time()
    load_start = os.getloadavg()
    ukcc, plugin, plugin_note = prepare()
    notes = [plugin_note] if plugin_note else []
    sw_how = sw_tags_by_ukasan_cc(ukcc)
    if not sw_how:
        notes.append("this ukasan-cc does not build software-tag programs (UKASAN_MODE="
                     "sw_tags), so those builds use its sw_tags flags by hand "
                     "(bench/run_arm64.py's SW_GCC, SW_CLANG, sw_link).")

    vs = [
        Variant("plain", f"plain: {CC} -O2", CC),
        Variant("uk-gcc", "ukasan generic, gcc, inline: ukasan-cc -O2", ukcc,
                {"UKASAN_CC": "gcc", "UKASAN_INSTRUMENT": "inline"}),
        Variant("kfence", "ukasan KFENCE: plain build, libukasan.so preloaded", CC,
                preload=True, same_exe="plain"),
        Variant("asan-gcc", "ASan gcc (reference): -fsanitize=address -fno-omit-frame-pointer",
                CC, extra=["-fsanitize=address", "-fno-omit-frame-pointer"],
                run_env={"ASAN_OPTIONS": ASAN_OPTIONS}),
    ] + tag_variants(ukcc, sw_how)
    gen, seeds = os.path.join(ROOT, "bench", "generic"), os.path.join(ROOT, "bench", "seeds")
    progs = [
        Program("alloc", os.path.join(gen, "alloc.c"),
                "Allocation-heavy program (bench/generic/alloc.c)", ["3", "16"], 1,
                "`alloc 3 16`: 3 rounds over trees, lists and strings of 65535 mixed-size "
                "objects (run_generic.py runs `alloc 6 17`, 4 times the work)."),
        Program("compute", os.path.join(gen, "compute.c"),
                "Compute-heavy program (bench/generic/compute.c)", ["1"], 1,
                "`compute 1`: one pass of matrix product, Jacobi steps, sieve, radix sort and "
                "searches (run_generic.py runs 4)."),
        Program("startup", os.path.join(gen, "startup.c"), "Start-up (bench/generic/startup.c)",
                [], STARTS,
                f"One small allocation, then exit; one sample = {STARTS} starts, figures per "
                f"start (run_generic.py uses 50 starts)."),
        Program("vmalloc", os.path.join(seeds, "vmalloc.c"),
                "test_vmalloc.sh shapes, 1 thread (bench/seeds/vmalloc.c)",
                ["--threads", "1", "--loops", str(VMALLOC_LOOPS)], 1,
                f"`vmalloc --threads 1 --loops {VMALLOC_LOOPS}`: the eight page-multiple "
                f"malloc/posix_memalign/free tests (run_seeds.py runs 20000 loops).",
                shape=vmalloc_shape, libs=["-lpthread"]),
    ]

    # Build; a variant that does not build is left out everywhere, and said.
    dropped = {}
    for v in vs:
        for p in progs:
            exe, err = build(p, v)
            if err:
                dropped[v.key] = f"{v.short} left out: building {p.name} failed: {err}"
                break
            p.exes[v.key] = exe
    # Check, warm up and count: one run each with the plugin.
    plain = vs[0]
    if "plain" in dropped:
        sys.exit(f"bench: {dropped['plain']}")
    for p in progs:
        s = run(p, plain, plugin)
        if not s.ok:
            sys.exit(f"bench: the plain build of {p.name} failed under qemu ({s.why}):\n{s.err}")
        p.expected = p.shape(s.out)
        p.insns["plain"] = s.insns
    for v in vs[1:]:
        if v.key in dropped:
            continue
        for p in progs:
            s = run(p, v, plugin)
            p.insns[v.key] = s.insns if s.ok else None
            if not s.ok:
                p.failures.append((v.label + ", counting run", s))
                if v.key in ("asan-gcc", "hwasan-gcc") and p.name == "startup":
                    dropped[v.key] = (f"{v.short} left out: it built but did not run under "
                                      f"qemu ({s.why}):\n{excerpt(s.err)}")
                    break
    vs = [v for v in vs if v.key not in dropped]
    notes += list(dropped.values())

    for p in progs:
        p.samples = {v.key: [] for v in vs}
    for r in range(ROUNDS):
        for p in progs:
            for i in range(len(vs)):
                v = vs[(r + i) % len(vs)]
                s = run(p, v)
                if not s.ok:
                    p.failures.append((v.label, s))
                p.samples[v.key].append(s)
        print(f"  round {r + 1}/{ROUNDS} done, {time.time() - start:.0f} s", file=sys.stderr,
              flush=True)

    emit(f"# ukasan arm64 benchmarks, {EMU}, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    head = sh(["git", "-C", ROOT, "log", "-1", "--format=%h %s"]).stdout.strip()
    dirty = sh(["git", "-C", ROOT, "status", "--porcelain", "src", "include", "tools"]).stdout
    qv = sh(["qemu-aarch64", "--version"]).stdout.splitlines()[0]
    gv = sh([CC, "--version"]).stdout.splitlines()[0]
    emit(f"Commit {head}{' (src/, include/ or tools/ modified)' if dirty.strip() else ''}; "
         f"runtime and ukasan-cc copied from build/aarch64 at start. Host: {os.cpu_count()} "
         f"CPUs, Linux {platform.release()}; {qv}; {gv}; load average at start "
         f"{' '.join(f'{x:.2f}' for x in load_start)}.")
    emit()
    emit(f"EVERY FIGURE BELOW IS EMULATED: {EMU}, `{' '.join(QEMU)}`, not measured on arm64 "
         f"hardware. CPU = user + sys of the qemu process. Guest instructions = instructions "
         f"the guest executed (program, ld.so, libc and the runtime; not the kernel's or "
         f"qemu's work), counted by a TCG plugin in a separate first run of each build, "
         f"which also checks the output. Then {ROUNDS} timed round(s) without the plugin, "
         f"every build once per round, order rotated; medians over rounds, '/ plain' = "
         f"median of per-round ratios. Peak RSS is the qemu process's. ukasan runs with "
         f"default options (generic: kasan.quarantine_size=256M, KFENCE sampling every "
         f"100 ms; tag modes: no quarantine, as the kernel's), hardware tags with "
         f"kasan=on (kasan.mode=sync); ASan with ASAN_OPTIONS={ASAN_OPTIONS}, HWASan "
         f"with HWASAN_OPTIONS={HWASAN_OPTIONS}. Hardware tags (MTE): once tag checking "
         f"is on, qemu runs every load and store several times slower, tagged or not "
         f"(emulation: real MTE hardware checks at little cost), so their CPU ratios are "
         f"mostly qemu's MTE cost; their instruction ratios count the tagging work, not "
         f"the checks, which MTE does in hardware.")
    for n in notes:
        emit()
        emit(f"Note: {n}")
    emit()

    summary = []
    for p in progs:
        emit(f"## {p.title}, {EMU}")
        emit()
        emit(p.describe)
        emit()
        per = p.starts
        unit, uname = (1000, "ms per start") if per > 1 else (1, "s")
        rows = []
        base = p.samples["plain"]
        pi = p.insns.get("plain")
        for v in vs:
            ss = p.samples[v.key]
            good = [s for s in ss if s.ok]
            cpu = med([s.cpu / per * unit for s in good])
            wall = med([s.wall / per * unit for s in good])
            vi = p.insns.get(v.key)
            rows.append([
                v.label, f"{len(good)}/{len(ss)}", fmt(cpu, ".3f"),
                "1.00" if v.key == "plain" else fmt(paired(ss, base, lambda s: s.cpu), ".2f"),
                fmt(wall, ".3f"), fmt(med([s.rss_mb for s in good]), ".1f"),
                fmt(vi and vi / 1e6, ".2f"),
                fmt(vi / pi if vi and pi else None, ".2f"),
            ])
        emit(f"All figures in this table: {EMU}.")
        emit()
        emit(table(["Build", "Runs ok", f"CPU {uname}", "CPU / plain",
                    f"Wall {uname}", "Peak RSS MB (qemu)", "Guest insns M",
                    "Insns / plain"], rows))
        emit()
        # Each of ours against plain, and against its reference.
        for key, ref in (("uk-gcc", "asan-gcc"), ("kfence", None), ("sw-gcc", "hwasan-gcc"),
                         ("sw-clang", "hwasan-gcc"), ("hw-tags", None)):
            if key not in p.samples:
                continue
            v = next(x for x in vs if x.key == key)
            rc = paired(p.samples[key], base, lambda s: s.cpu)
            vi = p.insns.get(key)
            line = (f"- {p.name}, {v.short} vs plain, {EMU}: CPU {times(rc)}, "
                    f"guest instructions {times(vi / pi if vi and pi else None)}")
            if ref and ref in p.samples:
                rv = next(x for x in vs if x.key == ref)
                ra = paired(p.samples[key], p.samples[ref], lambda s: s.cpu)
                ai = p.insns.get(ref)
                line += (f"; vs {rv.short.split(' (')[0]}: CPU {times(ra)}, guest instructions "
                         f"{times(vi / ai if vi and ai else None)}")
            emit(line)
            summary.append(line)
        emit()

    emit(f"## Failures ({EMU})")
    emit()
    fails = [(p, f) for p in progs for f in p.failures]
    if not fails:
        emit("None: every run exited 0, printed no memory-error report and the plain "
             "build's output.")
    seen = set()
    for p, (label, s) in fails:
        first = next((r for r in s.err.splitlines() if r.strip()), "")
        k = (p.name, label.replace(", counting run", ""), s.why, first)
        if k in seen:
            continue
        seen.add(k)
        n = sum(1 for q, (l2, s2) in fails
                if (q.name, l2.replace(", counting run", ""), s2.why,
                    next((r for r in s2.err.splitlines() if r.strip()), "")) == k)
        emit(f"- {p.name} `{' '.join(p.args) or '(no args)'}` under {k[1]}: {s.why} "
             f"({n} run(s), counting run included); stderr:")
        emit()
        emit(excerpt(s.err, 8))
        emit()
    sw = next((v for v in vs if v.key == "sw-gcc"), None)
    loopback.bench(sys.modules[__name__], lb_rounds, plugin, sw)
    finish(f"{time.time() - start:.0f} s", RESULTS, OUT)


if __name__ == "__main__":
    main()
