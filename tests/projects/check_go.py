#!/usr/bin/env python3
"""Go programs with C in them (cgo), built with CC=ukasan-cc as with ASan:
`go build -asan` (Go checks its own accesses to C memory and calls
__asan_read_go & co., and runs LeakSanitizer's check at exit) and a plain
`go build`, whose C half ukasan-cc instruments alone. The program is
tests/projects/go/.

Go leaves by the exit_group system call, never through libc's exit, where
a run with reports gets its status; and Go's runtime handles every signal,
the real-time ones kmemleak stops threads with included. Each run must end
as under ASan: a report ends it with status 1, with the bug's frames (a Go
frame first for a bad access by Go code); a leak is reported, status 1; C
memory that only the Go heap holds is no leak; a clean run exits 0 with no
report."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
WORK = os.path.join(os.environ.get("UKASAN_TEST_TMP") or "/tmp", "go")
SRC = os.path.join(ROOT, "tests", "projects", "go")


def say(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else " - " + " ".join(why.split())[:700]), flush=True)


def go_binary():
    return shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)


def main():
    go = go_binary()
    if not go:
        say(False, "go", "no go toolchain (the machine's image has one in /usr/local/go)")
        return 0
    shutil.rmtree(WORK, ignore_errors=True)
    shutil.copytree(SRC, WORK)
    env = dict(os.environ, CC=os.path.join(BUILD, "bin", "ukasan-cc"), GOTOOLCHAIN="local", GOFLAGS="",
               CGO_ENABLED="1")
    for k in ("ASAN_OPTIONS", "LSAN_OPTIONS"):
        env.pop(k, None)
    # KFENCE off: a sampled object's overflow would be KFENCE's report.
    env["UKASAN_OPTIONS"] = "kfence.sample_interval=0"
    line = next(i + 1 for i, l in enumerate(open(os.path.join(SRC, "main.go"))) if "GO-OVERFLOW-LINE" in l)
    exes = {}
    for kind, flags in (("asan", ["-asan"]), ("cgo", [])):
        exe = os.path.join(WORK, "app-" + kind)
        r = subprocess.run([go, "build"] + flags + ["-o", exe, "."], cwd=WORK, env=env, capture_output=True,
                           text=True, timeout=900)
        say(r.returncode == 0, " ".join(["go build"] + flags + ["with CC=ukasan-cc"]), r.stderr[-600:])
        if r.returncode == 0:
            exes[kind] = exe

    def run(kind, arg):
        r = subprocess.run([exes[kind]] + ([arg] if arg else []), env=env, capture_output=True, text=True,
                           timeout=120)
        return r.returncode, r.stdout, r.stderr

    def trace_first(err):
        m = re.search(r"^Call Trace:\n <TASK>\n \[<[0-9a-f]+>\] (\S+) (\S+)", err, re.M)
        return (m.group(1), m.group(2)) if m else None

    if "asan" in exes:
        st, out, err = run("asan", "c")
        say(st == 1 and re.search(r"^BUG: KASAN: slab-out-of-bounds in c_overflow\+0x", err, re.M)
            and "Write of size 1 at addr" in err,
            "go -asan: C heap overflow reported, status 1", f"status {st}; {err[:600]}")
        st, out, err = run("asan", "go")
        first = trace_first(err)
        say(st == 1 and re.search(r"^BUG: KASAN: slab-out-of-bounds in main\.goOverflow\+0x", err, re.M)
            and "Write of size 1 at addr" in err and first and first[0].startswith("main.goOverflow+0x")
            and re.search(rf"(^|/)main\.go:{line}$", first[1]),
            "go -asan: Go's write past C memory reported from its Go frame, status 1",
            f"status {st}; first frame {first}; {err[:600]}")
        st, out, err = run("asan", "leak")
        say(st == 1 and re.search(r"^BUG: memory leak$", err, re.M) and "unreferenced object" in err
            and re.search(r"c_leak\+0x[0-9a-f]+/0x[0-9a-f]+ \S*main\.go:\d+", err),
            "go -asan: a C leak reported at Go's exit, status 1", f"status {st}; {err[:600]}")
        st, out, err = run("asan", "held")
        say(st == 0 and "BUG:" not in err and "done" in out,
            "go -asan: C memory held by the Go heap is no leak", f"status {st}; {err[:600]}")
        st, out, err = run("asan", "")
        say(st == 0 and "BUG:" not in err and "ukasan:" not in err and "done" in out,
            "go -asan: a clean run, status 0 and no report", f"status {st}; {err[:600]}")
    if "cgo" in exes:
        st, out, err = run("cgo", "c")
        say(st == 1 and re.search(r"^BUG: KASAN: slab-out-of-bounds in c_overflow\+0x", err, re.M),
            "go build (cgo): C heap overflow reported, status 1", f"status {st}; {err[:600]}")
        st, out, err = run("cgo", "")
        say(st == 0 and "BUG:" not in err and "done" in out,
            "go build (cgo): a clean run, status 0 and no report", f"status {st}; {err[:600]}")
    return 0


sys.exit(main())
