#!/usr/bin/env python3
"""The detector's output never blocks or takes over the program (issue 31).

* A FIFO planted at the log's or the JSON lines' predicted name (PATH.PID)
  is refused in one line, as a symbolic link is, and the run ends as usual
  (the log was opened blocking: the program hung at its first report).
* A program started with fd 2 closed opens a file, which takes fd 2, and
  has a bug: the report is not written into the program's file (preload
  and ukasan-cc); with ukasan.log_path it is in the log.
* A syslog or journald receiver that stops reading (a datagram socket bound
  here and never read): a run with many reports ends in bounded time, and
  the reports the receiver had no room for are counted in the last line
  (sendmsg blocked: the program hung).
* With no descriptor free (RLIMIT_NOFILE used up by the program, with the
  limits lowered both ways or the soft one only, or as they are), the
  report's title and signature are those of a normal run (the symbolizer
  could not open the ELF files: the title named a libc address).
* Helper programs (c++filt here, bind-mounted over by a script that
  records how it was run, in a mount namespace of the test's own) get none
  of the caller's environment, and are not run at all in a set-group-ID
  program.
* Warnings escape the control characters of option text (a \\r or an
  escape sequence could forge a "BUG:" line); an unterminated quote in
  ASAN_OPTIONS or UKASAN_OPTIONS is one line; under ulimit -v the shadow's
  error names the address-space limit."""
import os
import re
import select
import shutil
import socket
import stat
import subprocess
import sys
import time

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "sink_safety")
CC = os.path.join(BUILD, "bin", "ukasan-cc")
CXX = os.path.join(BUILD, "bin", "ukasan-c++")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
shutil.rmtree(T, ignore_errors=True)
os.makedirs(T)
os.chmod(T, 0o755)
BASE = {k: v for k, v in os.environ.items()
        if k not in ("UKASAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS", "LD_PRELOAD")}


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "sink_safety: " + name + ("" if good else " - " + str(why)[:1500]))
    sys.stdout.flush()


def build(name, src, cc=CC, flags=()):
    exe = os.path.join(T, name)
    r = subprocess.run([cc, "-g", "-O1", *flags, os.path.join(ROOT, src), "-o", exe],
                       capture_output=True, text=True)
    if r.returncode:
        ok("build " + name, False, r.stderr[-400:])
        return None
    return exe


def run(argv, options="", env_extra=None, timeout=60, **kw):
    env = dict(BASE, UKASAN_OPTIONS=options + " kfence.sample_interval=0", **(env_extra or {}))
    try:
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None


exe = build("prog", "tests/report/_sink_safety.c")
plain = None
r = subprocess.run(["gcc", "-g", "-O1", os.path.join(ROOT, "tests/report/_sink_safety.c"), "-o",
                    os.path.join(T, "plain")], capture_output=True, text=True)
if r.returncode == 0:
    plain = os.path.join(T, "plain")

# A FIFO at the predicted name: made by the child itself before exec, so
# that it bears the program's pid.
if exe:
    for key, tail in (("log_path", "stderr"), ("json_path", "the reports' log")):
        d = os.path.join(T, "fifo_" + key)
        os.makedirs(d)
        base = os.path.join(d, "uk")

        def plant(base=base):
            os.mkfifo("%s.%d" % (base, os.getpid()), 0o600)

        r = run([exe, "oob"], "ukasan.%s=%s ukasan.report_format=both" % (key, base), timeout=30,
                preexec_fn=plant)
        refusal = re.compile(r"^ukasan: cannot open log file %s\.\d+ \(it is not a regular file of "
                             r"ours with one name\); reports go to %s$" % (re.escape(base), re.escape(tail)),
                             re.M)
        good = (r is not None and r.returncode == 1 and len(refusal.findall(r.stderr)) == 1 and
                r.stderr.count("\nukasan: ") + r.stderr.startswith("ukasan: ") == 2 and
                "BUG: KASAN: slab-out-of-bounds in heap_write" in r.stderr and "finished" in r.stdout)
        if key == "json_path" and good:
            good = '"bug_type":"slab-out-of-bounds"' in r.stderr.replace(" ", "")
        fifo = [f for f in os.listdir(d) if stat.S_ISFIFO(os.lstat(os.path.join(d, f)).st_mode)]
        ok("a FIFO at %s's name: refused in one line, the run ends as usual" % key,
           good and len(fifo) == 1, "timed out: the open blocked" if r is None else
           (r.returncode, r.stderr[-800:]))

# fd 2 closed at start: the program's first file takes it.
for name, prog, how, opts in (("ukasan-cc", exe, None, ""),
                              ("preload", plain, LIB, "kfence.sample_rate=1")):
    if not prog:
        continue
    for with_log in (False, True):
        path = os.path.join(T, "fd2_%s_%d.txt" % (name, with_log))
        log = os.path.join(T, "fd2log_%s_%d" % (name, with_log))
        env = dict(BASE, UKASAN_OPTIONS=((opts or "kfence.sample_interval=0") +
                                         (" ukasan.log_path=" + log if with_log else "")))
        if how:
            env["LD_PRELOAD"] = how
        try:
            r = subprocess.run([prog, "fd2", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=env, timeout=60, preexec_fn=lambda: os.close(2))
        except subprocess.TimeoutExpired:
            r = None
        text = open(path).read() if os.path.exists(path) else ""
        logs = [f for f in os.listdir(T) if f.startswith(os.path.basename(log) + ".")]
        logtext = open(os.path.join(T, logs[0])).read() if logs else ""
        good = (r is not None and text == "the program's line, at fd 2\nthe program's last line\n" and
                "finished" in r.stdout)
        if with_log:
            good = good and "use-after-free" in logtext and "read_freed" in logtext
        ok("%s, started with fd 2 closed: the report is not in the program's file (fd 2)%s" %
           (name, ", it is in the log" if with_log else ""), good,
           "timed out" if r is None else (r.returncode, text[-600:], logtext[-300:]))

# A socket receiver that never reads.
if exe:
    for sink, key in (("syslog", "syslog_path"), ("journald", "journal_path")):
        path = os.path.join(T, sink + ".sock")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.bind(path)
        n = 60
        start = time.monotonic()
        r = run([exe, "many", str(n)], "kasan_multi_shot ukasan.log_sink=%s ukasan.%s=%s" % (sink, key, path),
                timeout=60)
        took = time.monotonic() - start
        got = 0
        s.setblocking(False)
        while True:
            try:
                data = s.recv(1 << 20)
            except BlockingIOError:
                break
            got += b"BUG: KASAN: slab-out-of-bounds in heap_write" in data
        s.close()
        m = r and re.search(r"^ukasan: %d reports in this run \(pid \d+\); (\d+) dropped: the log socket's "
                            r"reader was not reading; exit status 1" % n, r.stderr, re.M)
        good = (r is not None and m is not None and int(m.group(1)) + got == n and int(m.group(1)) > 0 and
                took < 30 and "BUG: KASAN" not in r.stderr)
        ok("%s receiver that never reads: %d reports in %.1f s, %s dropped and counted, %d delivered" %
           (sink, n, took, m.group(1) if m else "?", got), good,
           "timed out: the send blocked" if r is None else (r.returncode, got, r.stderr[-600:]))

    # A receiver that reads again: the next report it takes comes after a
    # message saying how many were dropped.
    path = os.path.join(T, "late.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    env = dict(BASE, UKASAN_OPTIONS="kfence.sample_interval=0 kasan_multi_shot ukasan.log_sink=syslog "
               "ukasan.syslog_path=" + path)
    p = subprocess.Popen([exe, "burst", "30"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    msgs = []
    try:
        if not select.select([p.stdout], [], [], 60)[0]:
            raise subprocess.TimeoutExpired("burst", 60)
        first = p.stdout.readline()
        s.settimeout(0)
        while True:
            try:
                msgs.append(s.recv(1 << 20))
            except BlockingIOError:
                break
        early = len(msgs)
        out, err = p.communicate("g", timeout=60)
        while True:
            try:
                msgs.append(s.recv(1 << 20))
            except BlockingIOError:
                break
    except subprocess.TimeoutExpired:
        p.kill()
        out, err, first, early = "", "timed out", "", 0
    s.close()
    late = [m for m in msgs[early:] if b"ukasan" in m]
    told = [re.search(rb"ukasan: (\d+) reports dropped before this one: the syslog socket's reader was "
                      rb"not reading", m) for m in late]
    summary = re.search(r"; (\d+) dropped: the log socket's reader was not reading", out + err)
    good = (first == "burst done\n" and len(late) >= 2 and told[0] is not None and
            b"BUG: KASAN: slab-out-of-bounds in heap_write" in late[1] and summary is None and
            int(told[0].group(1)) == 30 - early and
            any((b"31 reports in this run" in m and
                 (b"; %d dropped: the log socket's reader was not reading" % (30 - early)) in m) for m in late))
    ok("a receiver that reads again: the drops are told before the next report", good,
       (first, early, [m[:160] for m in late[:3]], err[-400:]))

# No descriptor free.
if exe:
    def title_sig(text):
        t = re.search(r"^BUG: .*$", text, re.M)
        s = re.search(r"^signature: (\S+)", text, re.M)
        return (t.group(0) if t else None, s.group(1) if s else None)

    ref = run([exe, "nofd", "0"])
    want = title_sig(ref.stderr) if ref else (None, None)
    for mode, what in ((1, "soft and hard limits lowered to 64"), (2, "soft limit lowered to 64"),
                       (3, "the limit as it was")):
        r = run([exe, "nofd", str(mode)])
        have = title_sig(r.stderr) if r else (None, None)
        ok("no descriptor free (%s): title and signature as a normal run's" % what,
           want[0] is not None and "in heap_write+0x" in want[0] and want[1] is not None and
           have == want and r is not None and r.returncode == 1, (want, have))

# Helpers: a script over c++filt records its environment and ids.
cxx = build("helper_env", "tests/report/_helper_env.cc", cc=CXX)
real = shutil.which("c++filt")
if not cxx or not real or os.getuid() != 0 or not shutil.which("unshare"):
    ok("helpers get a clean environment # skipped: needs root, unshare and c++filt", True)
else:
    real = os.path.realpath(real)
    shutil.copy(real, os.path.join(T, "real-c++filt"))
    fake = os.path.join(T, "fake-c++filt")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\n{ id; env; } > %s/helper-ran.$$\nexec %s/real-c++filt \"$@\"\n" % (T, T))
    os.chmod(fake, 0o755)

    def in_namespace(prog, extra_env):
        env = dict(BASE, UKASAN_OPTIONS="kfence.sample_interval=0", **extra_env)
        # The bind mount is private to the namespace: the system's c++filt
        # is untouched.
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               'mount --bind "$0" /usr/bin/c++filt && exec "$@"', fake, prog]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)

    def ran():
        out = [open(os.path.join(T, f)).read() for f in os.listdir(T) if f.startswith("helper-ran.")]
        for f in os.listdir(T):
            if f.startswith("helper-ran."):
                os.unlink(os.path.join(T, f))
        return out

    ran()
    r = in_namespace(cxx, {"CALLER_MARK": "from-the-caller", "LD_LIBRARY_PATH": T})
    runs = ran()
    if r.returncode != 1 and "mount" in r.stderr:
        ok("helpers get a clean environment # skipped: no mount namespace here", True)
    else:
        ok("a helper (c++filt) runs with none of the caller's environment",
           runs and all("CALLER_MARK" not in e and "LD_LIBRARY_PATH" not in e and "LD_PRELOAD" not in e
                        for e in runs) and "bad_write<char*>(char*, int)" in r.stderr,
           (runs[:1], r.stderr[-600:]))
        sgid = os.path.join(T, "helper_env_sgid")
        shutil.copy(cxx, sgid)
        try:
            shutil.chown(sgid, group="nogroup")
            os.chmod(sgid, 0o2755)
            r = in_namespace(sgid, {"CALLER_MARK": "from-the-caller"})
            runs = ran()
            ok("a set-group-ID program starts no helper", not runs and "BUG: KASAN: slab-out-of-bounds" in
               r.stderr and r.returncode == 1, (runs[:1], r.returncode, r.stderr[-600:]))
        except (LookupError, PermissionError) as e:
            ok("a set-group-ID program starts no helper # skipped: %s" % e, True)

# Warnings.
if exe:
    # Quoted: \r and ':' separate options, as in every sanitizer's.
    r = run([exe, "oob"], "ukasan.exitcode='\rBUG:\x1b[2K' ukasan.log_path=\n")
    lines = r.stderr.splitlines()
    warn = [ln for ln in lines if ln.startswith("ukasan: ")]
    ok("control characters in option text are escaped in warnings",
       "\r" not in r.stderr and "\x1b" not in r.stderr and "'\\rBUG:\\x1b[2K'" in r.stderr and
       sum(ln.startswith("BUG:") for ln in lines) == 1, warn)
    for var in ("ASAN_OPTIONS", "UKASAN_OPTIONS"):
        env = {var: "log_path='%s/never:exitcode=3" % T if var == "ASAN_OPTIONS"
               else "ukasan.log_path='%s/never ukasan.exitcode=3" % T}
        if var == "UKASAN_OPTIONS":
            r = subprocess.run([exe, "oob"], capture_output=True, text=True, env=dict(BASE, **env), timeout=60)
        else:
            r = run([exe, "oob"], env_extra=env)
        warn = [ln for ln in r.stderr.splitlines() if ln.startswith("ukasan: ") and "report" not in ln]
        ok("an unterminated quote in %s: one line, the rest ignored" % var,
           warn == ["ukasan: unterminated quote in %s after %slog_path=; ignored" %
                    (var, "" if var == "ASAN_OPTIONS" else "ukasan.")] and r.returncode == 1 and
           not any(f.startswith("never") for f in os.listdir(T)), (warn, r.returncode))
    r = subprocess.run(["sh", "-c", 'ulimit -v 1000000 && exec "$0" oob', exe], capture_output=True,
                       text=True, env=BASE, timeout=60)
    ok("under ulimit -v the shadow's error names the limit",
       re.search(r"^ukasan: cannot reserve shadow memory at \[0x[0-9a-f]+, 0x[0-9a-f]+\]: the "
                 r"address-space limit \(ulimit -v, RLIMIT_AS\) is 1000000 KiB", r.stderr, re.M) is not None
       and "position-independent" not in r.stderr, r.stderr[-600:])
