#!/usr/bin/env python3
"""ClusterFuzz's own stack parser (the clusterfuzz package's
stacktraces.StackParser, which OSS-Fuzz groups crashes by) reads every kind
of report ukasan prints: generic KASAN (built by gcc and clang), KFENCE
under the preload, UBSAN's array bounds and kmemleak. Each planted bug
(tests/tools/_report_bugs.c: bug_*, called from level2, from level1) must
get the right crash type and the crash state "bug_* / level2 / level1", the
state ClusterFuzz gives the same program built with clang's
AddressSanitizer (compared when clang-16 builds it). The same bugs in C++
(_report_bugs_cxx.cc), whose frames ClusterFuzz reads in the ASan-form
stack ukasan prints beside the kernel's, must get ASan's crash state. A bad access in inlined code gets the
inlined functions in its crash state, as under ASan.
syzkaller's parser
(../shared/tools/syzkaller-titles) must still title each report. Skipped,
saying so, without the clusterfuzz package (tools/deps.sh installs it)."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "clusterfuzz")
SRC = os.path.join(ROOT, "tests/tools/_report_bugs.c")
SYZ = os.environ.get("UKASAN_SYZKALLER_TITLES",
                     os.path.join(ROOT, "..", "shared", "tools", "syzkaller-titles"))
FLAGS = ["-g", "-O1", "-fno-omit-frame-pointer", "-fno-optimize-sibling-calls"]


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "clusterfuzz: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


try:
    from clusterfuzz import stacktraces
except ImportError:
    # tools/deps.sh installs the package into a virtual environment
    VENV = os.path.join(BUILD, "venv", "bin", "python3")
    if os.access(VENV, os.X_OK) and not os.environ.get("UKASAN_IN_VENV"):
        os.environ["UKASAN_IN_VENV"] = "1"
        os.execv(VENV, [VENV] + sys.argv)
    print("ok clusterfuzz: StackParser reads every report # skipped: the clusterfuzz "
          "package is not installed (pip install clusterfuzz==2.6.0; tools/deps.sh test)")
    sys.exit(0)

STATE = "bug_%s\nlevel2\nlevel1\n"
KASAN = "Kernel failure\n"
# bug: (ClusterFuzz's crash type, syzkaller's title)
GENERIC = {
    "heap_oob": (KASAN + "Slab-out-of-bounds\nWRITE 1",
                 "KASAN: slab-out-of-bounds Write in bug_heap_oob"),
    "stack_oob": (KASAN + "Stack-out-of-bounds\nWRITE 1",
                  "KASAN: stack-out-of-bounds Write in bug_stack_oob"),
    "global_oob": (KASAN + "Global-out-of-bounds\nWRITE 1",
                   "KASAN: global-out-of-bounds Write in bug_global_oob"),
    "uaf": (KASAN + "Slab-use-after-free\nWRITE 1",
            "KASAN: slab-use-after-free Write in bug_uaf"),
    "double_free": (KASAN + "Double-free", "KASAN: invalid-free in bug_double_free"),
    "invalid_free": (KASAN + "Invalid-free", "KASAN: invalid-free in bug_invalid_free"),
    "overlap": (KASAN + "Memcpy-param-overlap", "KASAN: memcpy-param-overlap in bug_overlap"),
    "alloc_too_big": (KASAN + "Allocation-size-too-big",
                      "KASAN: allocation-size-too-big in bug_alloc_too_big"),
    "wild_read": ("UNKNOWN READ", "BUG: unable to handle kernel paging request in bug_wild_read"),
    "stack_overflow": ("Stack-overflow", "BUG: stack guard page was hit in "),
    "leak": ("Direct-leak", "memory leak in bug_leak"),
    # clang only: gcc has no front-end bounds check for ukasan-cc to ask for
    "array_index": ("Index-out-of-bounds", "UBSAN: array-index-out-of-bounds in bug_array_index"),
}
# The same bugs in C++ (_report_bugs_cxx.cc): app::Bugs::*, from
# app::level2<int>, from app::level1. ClusterFuzz's kernel-frame pattern
# reads no C++ name, so these reports carry the stack in ASan's form too,
# with ASan's error line: the type is ASan's, without the access size (its
# parser reads an access line only when the report says KASAN nowhere).
CXX_STATE = "app::Bugs::%s\nvoid app::level2<int>\napp::level1\n"
CXX_GENERIC = {
    "heap_oob": "Heap-buffer-overflow", "stack_oob": "Stack-buffer-overflow",
    "global_oob": "Global-buffer-overflow", "uaf": "Heap-use-after-free",
    "double_free": "Heap-double-free", "invalid_free": "Invalid-free",
    "overlap": "Memcpy-param-overlap", "wild_read": "UNKNOWN READ",
    "leak": "Direct-leak", "array_index": "Index-out-of-bounds",
}
CXX_KFENCE = {
    "heap_oob": "Heap-buffer-overflow", "oob_read": "Heap-buffer-overflow",
    "uaf": "Heap-use-after-free", "uaf_read": "Heap-use-after-free",
    "double_free": "Heap-double-free", "invalid_free": "Invalid-free",
    "corruption": "Memory-corruption",
}
KFENCE = {
    "heap_oob": ("Heap-buffer-overflow", "KFENCE: out-of-bounds write in bug_heap_oob"),
    "oob_read": ("Heap-buffer-overflow", "KFENCE: out-of-bounds read in bug_oob_read"),
    "uaf": ("Heap-use-after-free", "KFENCE: use-after-free write in bug_uaf"),
    "uaf_read": ("Heap-use-after-free", "KFENCE: use-after-free read in bug_uaf_read"),
    "double_free": ("Heap-double-free", "KFENCE: invalid free in bug_double_free"),
    "invalid_free": ("Invalid-free", "KFENCE: invalid free in bug_invalid_free"),
    "corruption": ("Memory-corruption", "KFENCE: memory corruption in bug_corruption"),
}


def build(out, cmd, env=None, src=SRC):
    r = subprocess.run(cmd + FLAGS + ["-o", out, src], env=env, capture_output=True, text=True)
    return r.returncode == 0, r.stderr[:300]


def clusterfuzz_asan_options():
    """The ASAN_OPTIONS ClusterFuzz sets for a Linux ASan job with leak
    detection, from its own code (environment.get_asan_options), which is
    what tells ukasan that ASan's reader is there: the reports then carry
    ASan's lines. But symbolize=1: ClusterFuzz turns ASan's symbolizer off
    and symbolizes the log itself afterwards (llvm-symbolizer on the raw
    frames), which this check does not do; and allocator_may_return_null=0
    only for the too-big request, which under ClusterFuzz's 1 returns NULL
    and is no crash, under ASan as under ukasan."""
    from clusterfuzz._internal.system import environment
    old = os.environ.get("LSAN")
    os.environ["LSAN"] = "True"
    try:
        opts = environment.get_asan_options(None, None, None, "LINUX", True, False)
    finally:
        if old is None:
            os.environ.pop("LSAN", None)
        else:
            os.environ["LSAN"] = old
    opts["symbolize"] = 1
    return opts


CF_ASAN = clusterfuzz_asan_options()


def run(exe, bug, env):
    full = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        full.pop(k, None)
    if "ASAN_OPTIONS" not in env:  # ukasan's runs, in ClusterFuzz's environment
        opts = dict(CF_ASAN, allocator_may_return_null=int(bug != "alloc_too_big"))
        full["ASAN_OPTIONS"] = ":".join("%s=%s" % kv for kv in sorted(opts.items()))
    full.update(env)
    r = subprocess.run([exe, bug], env=full, capture_output=True, text=True, errors="replace",
                       timeout=60)
    return r.stderr


def parse(text):
    return stacktraces.StackParser().parse(text)


def syz_titles(text):
    r = subprocess.run([SYZ], input=text, capture_output=True, text=True)
    return [l[len("TITLE: "):] for l in r.stdout.splitlines() if l.startswith("TITLE: ")]


def state_of(bug):
    return "bug_recurse\n" if bug == "stack_overflow" else STATE % bug


def check(name, text, bug, want_type, asan, want_state=None):
    got = parse(text)
    want_state = want_state or state_of(bug)
    ok(name + " crash type", got.crash_type == want_type,
       "got %r, expected %r" % (got.crash_type, want_type))
    ok(name + " crash state", got.crash_state == want_state,
       "got %r, expected %r" % (got.crash_state, want_state))
    if asan is not None:
        a = parse(asan)
        ok(name + " state as ASan's", a.crash_state == got.crash_state,
           "ASan's %r, ours %r" % (a.crash_state, got.crash_state))


def check_titles(name, texts, want):
    """syzkaller's parser over all of a build's reports at once (one run of
    it takes seconds): one title each, in order."""
    if not os.access(SYZ, os.X_OK):
        return
    titles = syz_titles("\n".join(texts))
    good = len(titles) == len(want) and all(t.startswith(w) for t, w in zip(titles, want))
    ok(name + ": syzkaller titles every report", good,
       "titles %r, expected %r" % (titles, want))


def main():
    shutil.rmtree(T, ignore_errors=True)
    os.makedirs(T)
    cc = os.path.join(BUILD, "bin", "ukasan-cc")
    have_clang = shutil.which("clang-16") is not None
    asan = {}
    exe_asan = os.path.join(T, "asan")
    if have_clang:
        good, err = build(exe_asan, ["clang-16", "-fsanitize=address", "-fsanitize=array-bounds"])
        if good:
            # UBSan's runtime prints a stack only when asked.
            env = {"UBSAN_OPTIONS": "print_stacktrace=1", "ASAN_OPTIONS": "detect_leaks=1"}
            for bug in set(GENERIC) | set(KFENCE):
                asan[bug] = run(exe_asan, bug, env)
    if not os.access(SYZ, os.X_OK):
        print("ok clusterfuzz: syzkaller titles # skipped: syzkaller-titles not found "
              "(set UKASAN_SYZKALLER_TITLES)")
    for comp in ("gcc", "clang-16"):
        if comp != "gcc" and not have_clang:
            continue
        exe = os.path.join(T, "generic_" + comp)
        env = dict(os.environ, UKASAN_CC=comp)
        good, err = build(exe, [cc], env)
        ok("build with ukasan-cc [%s]" % comp, good, err)
        if not good:
            continue
        texts, titles = [], []
        for bug, (want_type, title) in GENERIC.items():
            if bug == "array_index" and comp == "gcc":
                continue
            texts.append(run(exe, bug, {}))
            titles.append(title)
            check("generic %s [%s]" % (bug, comp), texts[-1], bug, want_type, asan.get(bug))
        check_titles("generic [%s]" % comp, texts, titles)
    exe = os.path.join(T, "plain")
    good, err = build(exe, ["gcc"])
    ok("build uninstrumented", good, err)
    if good:
        env = {"LD_PRELOAD": os.path.join(BUILD, "lib", "libukasan.so"),
               "UKASAN_OPTIONS": "kfence.sample_rate=1"}
        texts, titles = [], []
        for bug, (want_type, title) in KFENCE.items():
            texts.append(run(exe, bug, env))
            titles.append(title)
            check("kfence %s" % bug, texts[-1], bug, want_type, asan.get(bug))
        check_titles("kfence", texts, titles)
    check_cxx(have_clang)
    check_inlined(have_clang)


def check_inlined(have_clang):
    """A bad access in inlined code (tests/generic/inline_frames.c, .cc):
    the crash state names the inlined functions, as ASan's does."""
    cases = [("C", "tests/generic/inline_frames.c", "ukasan-cc", "clang-16", "gcc",
              "Kernel failure\nSlab-out-of-bounds\nWRITE 1", "store_byte\nfill_two\nwriter\n"),
             ("C++", "tests/generic/inline_frames_cxx.cc", "ukasan-c++", "clang++-16", "g++",
              "Heap-buffer-overflow", "ns::Buffer::put\nfill\n")]
    for lang, src, tool, clang, gnu, want_type, want_state in cases:
        src = os.path.join(ROOT, src)
        asan = None
        exe = os.path.join(T, "inline_asan_" + gnu)
        if have_clang and build(exe, [clang, "-fsanitize=address"], src=src)[0]:
            asan = run(exe, "", {})
        for comp in ((gnu, clang) if have_clang else (gnu,)):
            exe = os.path.join(T, "inline_" + comp)
            env = dict(os.environ, UKASAN_CC=comp, UKASAN_CXX=comp)
            good, err = build(exe, [os.path.join(BUILD, "bin", tool)], env, src=src)
            ok("inlined %s build [%s]" % (lang, comp), good, err)
            if good:
                check("inlined %s [%s]" % (lang, comp), run(exe, "", {}), None, want_type, asan,
                      want_state)


def check_cxx(have_clang):
    """The C++ bugs: generic KASAN by g++ and clang++, KFENCE under the
    preload, each against clang++'s AddressSanitizer."""
    src = os.path.join(ROOT, "tests/tools/_report_bugs_cxx.cc")
    asan = {}
    exe = os.path.join(T, "cxx_asan")
    if have_clang and build(exe, ["clang++-16", "-fsanitize=address", "-fsanitize=array-bounds"],
                            src=src)[0]:
        env = {"UBSAN_OPTIONS": "print_stacktrace=1", "ASAN_OPTIONS": "detect_leaks=1"}
        for bug in set(CXX_GENERIC) | set(CXX_KFENCE):
            asan[bug] = run(exe, bug, env)
    cxx = os.path.join(BUILD, "bin", "ukasan-c++")
    for comp in ("g++", "clang++-16"):
        if comp != "g++" and not have_clang:
            continue
        exe = os.path.join(T, "cxx_" + comp)
        good, err = build(exe, [cxx], dict(os.environ, UKASAN_CXX=comp), src)
        ok("C++ build with ukasan-c++ [%s]" % comp, good, err)
        if not good:
            continue
        for bug, want_type in CXX_GENERIC.items():
            if bug == "array_index" and comp == "g++":
                continue
            check("C++ generic %s [%s]" % (bug, comp), run(exe, bug, {}), bug, want_type,
                  asan.get(bug), CXX_STATE % bug)
    exe = os.path.join(T, "cxx_plain")
    good, err = build(exe, ["g++"], src=src)
    ok("C++ build uninstrumented", good, err)
    if good:
        env = {"LD_PRELOAD": os.path.join(BUILD, "lib", "libukasan.so"),
               "UKASAN_OPTIONS": "kfence.sample_rate=1"}
        for bug, want_type in CXX_KFENCE.items():
            check("C++ kfence %s" % bug, run(exe, bug, env), bug, want_type, asan.get(bug),
                  CXX_STATE % bug)


main()
