#!/usr/bin/env python3
"""`ukasan leaks PID`: kmemleak on demand in a running process, from outside.

A server (_leaks_server.c) answers one request a line; a "leak" request
loses an object allocated in lose_request_buffer. Under the preload with
kmemleak=on: after a leaking request, `ukasan leaks PID` exits 1 and its
report names lose_request_buffer; the server answers the next request (it
runs on); after a request that keeps its object, a second check exits 0
(the first leak is reported once); after one more leak, a third reports
one object, not two. The same inside a seccomp filter that refuses open,
ptrace and every signal call (the check runs from outside: the program
does nothing for it). The same with a second thread blocked in a read
whose stack alone holds an object: that object is no leak (the stopped
threads' stacks and registers are roots). A server that never leaks: exit 0. The preload at
its defaults (no registry): one line, exit 0. The same server built with
ukasan-cc (the generic heap, read from the shadow and headers of the
process), with gcc and with clang when present: the same checks, in a
seccomp filter and with the blocked thread too; a leak of 100000 bytes (a
large object) reported once; a clean one: exit 0. The layout the runtime
exports for the generic heap is the real structures' (_leaks_layout.c). A
process that does not run ukasan, and one that does not exist: one
`ukasan:` line, exit 2. A process whose exported state lies
(_leaks_hostile.c: another version, an impossible layout, shards or a
table where nothing is mapped, records of absurd sizes and stacks; for the
generic heap an impossible layout, regions where nothing is mapped, and a
shadow, headers, records, fake stacks, unsampled objects and a KFENCE pool
that lie): one line and exit 2, or a scan that ends, never a crash or a
hang.
"""
import os
import select
import shutil
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "leaks_pid")
UKASAN = os.path.join(BUILD, "bin", "ukasan")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
SRC = os.path.join(ROOT, "tests", "kmemleak", "_leaks_server.c")


def ok(name, good, why=""):
    print(("ok %s" % name) if good else ("not ok %s - %s" % (name, why)))
    sys.stdout.flush()


class Server:
    def __init__(self, exe, args=(), preload=True, options=""):
        env = {k: v for k, v in os.environ.items()
               if k not in ("LD_PRELOAD", "UKASAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS")}
        if preload:
            env["LD_PRELOAD"] = LIB
        if options:
            env["UKASAN_OPTIONS"] = options
        self.err = open(os.path.join(T, "server.err"), "w+")
        self.p = subprocess.Popen([exe] + list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, env=env)
        self.pid = self.p.pid

    def line(self, timeout=20):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        return self.p.stdout.readline().decode(errors="replace").strip() if r else None

    def ask(self, text):
        self.p.stdin.write((text + "\n").encode())
        self.p.stdin.flush()
        return self.line()

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()
            self.p.wait()


def leaks(pid):
    r = subprocess.run([UKASAN, "leaks", str(pid)], capture_output=True, text=True,
                       timeout=120)
    return r.returncode, r.stderr


def one_line(err):
    lines = err.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("ukasan: ")


def server_checks(tag, exe, args=(), preload=True, options="kmemleak=on"):
    s = Server(exe, args, preload=preload, options=options)
    try:
        if "seccomp" in args:
            first = s.line()
            ok("%s: the server is in its seccomp filter" % tag, first == "sandboxed",
               "it said %r" % first)
        a = s.ask("leak 1")
        ok("%s: the server answers" % tag, a == "done leak 1", "answer %r" % a)
        rc, err = leaks(s.pid)
        ok("%s: a new leak, exit 1" % tag, rc == 1, "exit %d: %s" % (rc, err))
        if "thread" in args:
            ok("%s: what only a blocked thread's stack holds is no leak" % tag,
               "worker_buffer" not in err and err.count("BUG: memory leak") == 1, err)
        ok("%s: the report names the leaking function" % tag,
           "BUG: memory leak" in err and "lose_request_buffer+0x" in err
           and "1 new suspected memory leak (48 bytes)" in err, err)
        a = s.ask("keep 2")
        ok("%s: the server runs on after the check" % tag, a == "done keep 2", "answer %r" % a)
        rc, err = leaks(s.pid)
        ok("%s: no new leak, exit 0 (the first is reported once)" % tag,
           rc == 0 and "BUG:" not in err, "exit %d: %s" % (rc, err))
        s.ask("leak 3")
        rc, err = leaks(s.pid)
        ok("%s: one more leak, one report of one object" % tag,
           rc == 1 and err.count("BUG: memory leak") == 1 and "leak 3" in err
           and "1 new suspected memory leak (48 bytes)" in err, "exit %d: %s" % (rc, err))
        a = s.ask("keep 4")
        ok("%s: the server runs on at the end" % tag, a == "done keep 4", "answer %r" % a)
        if not preload:
            s.ask("big 5")
            rc, err = leaks(s.pid)
            ok("%s: a large object's leak, reported" % tag,
               rc == 1 and err.count("BUG: memory leak") == 1 and "lose_big_buffer+0x" in err
               and "1 new suspected memory leak (100000 bytes)" in err,
               "exit %d: %s" % (rc, err))
            rc, err = leaks(s.pid)
            ok("%s: then nothing new" % tag, rc == 0 and "BUG:" not in err,
               "exit %d: %s" % (rc, err))
    finally:
        s.close()


def generic_checks(cc):
    """The server built with ukasan-cc by cc (the generic heap)."""
    name = os.path.basename(cc)
    gen = os.path.join(T, "server_" + name)
    env = dict(os.environ, UKASAN_CC=cc)
    b = subprocess.run([os.path.join(BUILD, "bin", "ukasan-cc"), "-O1", "-g",
                        "-pthread", "-o", gen, SRC], capture_output=True, text=True, env=env)
    if b.returncode != 0:
        ok("ukasan-cc (UKASAN_CC=%s) build" % name, False, b.stderr)
        return
    # KFENCE off: an object it samples (one every 100 ms, so most likely
    # the first after a check) is read as a root, not as a leak candidate,
    # in-process as from outside, and the leaks asserted would be missed.
    quiet = "kfence.sample_interval=0"
    server_checks("ukasan-cc %s" % name, gen, preload=False, options=quiet)
    server_checks("ukasan-cc %s, seccomp" % name, gen, ("seccomp",), preload=False, options=quiet)
    server_checks("ukasan-cc %s, threads" % name, gen, ("thread",), preload=False, options=quiet)
    # The worker's pointer in a fake frame: the fake stacks are roots.
    server_checks("ukasan-cc %s, threads, fake stacks" % name, gen, ("thread",), preload=False,
                  options=quiet + ":kasan.stack_use_after_return=on")
    s = Server(gen, ("clean",), preload=False)
    s.ask("leak 1")
    s.ask("big 2")
    rc, err = leaks(s.pid)
    ok("ukasan-cc %s, clean server: exit 0, no report" % name,
       rc == 0 and "BUG:" not in err, "exit %d: %s" % (rc, err))
    a = s.ask("keep 3")
    ok("ukasan-cc %s, clean server runs on" % name, a == "done keep 3", "answer %r" % a)
    s.close()


def main():
    shutil.rmtree(T, ignore_errors=True)
    os.makedirs(T)
    if not os.path.exists(os.path.join(BUILD, "bin", "ukasan-leaks")):
        ok("ukasan leaks PID", False, "build/bin/ukasan-leaks missing (make)")
        return
    exe = os.path.join(T, "server")
    subprocess.run(["gcc", "-O1", "-g", "-pthread", "-o", exe, SRC], check=True)

    # Where this machine lets nobody trace (a container without
    # CAP_SYS_PTRACE under Yama), the tool can only say so: skipped.
    s = Server(exe)
    s.ask("keep 0")
    rc, err = leaks(s.pid)
    s.close()
    if "not permitted to trace" in err:
        ok("ukasan leaks PID # skipped: %s" % err.strip(), True)
        return

    server_checks("preload", exe)
    server_checks("seccomp", exe, ("seccomp",))
    server_checks("threads", exe, ("thread",))

    s = Server(exe, ("clean",), options="kmemleak=on")
    s.ask("leak 1")
    rc, err = leaks(s.pid)
    ok("clean server: exit 0, no report", rc == 0 and "BUG:" not in err,
       "exit %d: %s" % (rc, err))
    s.close()

    s = Server(exe)
    s.ask("leak 1")
    rc, err = leaks(s.pid)
    ok("preload at defaults: nothing to scan, one line, exit 0",
       rc == 0 and one_line(err) and "nothing to scan" in err, "exit %d: %s" % (rc, err))
    s.close()

    clang = shutil.which("clang") or shutil.which("clang-16")
    for cc in ["gcc"] + ([clang] if clang else []):
        generic_checks(cc)
    if not clang:
        ok("ukasan-cc with clang # skipped: no clang", True)

    layout = os.path.join(T, "layout")
    b = subprocess.run([os.path.join(BUILD, "bin", "ukasan-cc"), "-O1", "-o", layout,
                        os.path.join(ROOT, "tests", "kmemleak", "_leaks_layout.c")],
                       capture_output=True, text=True)
    r = subprocess.run([layout], capture_output=True, text=True) if b.returncode == 0 else b
    ok("the generic heap's exported layout is its structures'",
       r.returncode == 0 and r.stdout.strip() == "layout ok", r.stdout + r.stderr)

    s = Server(exe, preload=False)
    s.ask("leak 1")
    rc, err = leaks(s.pid)
    ok("a process without ukasan: one line, exit 2",
       rc == 2 and one_line(err) and "does not run ukasan" in err, "exit %d: %s" % (rc, err))
    s.close()

    hostile = os.path.join(T, "hostile")
    subprocess.run(["gcc", "-O1", "-g", "-rdynamic", "-I", os.path.join(ROOT, "src", "base"),
                    "-o", hostile, os.path.join(ROOT, "tests", "kmemleak", "_leaks_hostile.c")],
                   check=True)
    for how, want in (("version", "another build"), ("layout", "does not read"),
                      ("shards", "could not be read"), ("cap", "could not be read"),
                      ("glayout", "does not read"), ("gregions", "could not be read")):
        s = Server(hostile, (how,), preload=False)
        s.line()
        rc, err = leaks(s.pid)
        ok("a lying process (%s): one line, exit 2" % how,
           rc == 2 and one_line(err) and want in err, "exit %d: %s" % (rc, err))
        s.close()
    for how in ("records", "gwalk"):
        s = Server(hostile, (how,), preload=False)
        s.line()
        try:
            rc, err = leaks(s.pid)
            ok("a lying process (%s): the scan ends" % how, rc in (0, 1),
               "exit %d: %s" % (rc, err))
        except subprocess.TimeoutExpired:
            ok("a lying process (%s): the scan ends" % how, False, "timed out")
        s.close()

    p = subprocess.Popen(["true"])
    p.wait()
    rc, err = leaks(p.pid)
    ok("no such process: one line, exit 2",
       rc == 2 and one_line(err) and "no such process" in err, "exit %d: %s" % (rc, err))
    rc, err = leaks("12x")
    ok("a bad PID: one line, exit 2", rc == 2 and one_line(err), "exit %d: %s" % (rc, err))


main()
