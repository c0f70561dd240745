#!/usr/bin/env python3
"""Real Debian-packaged software keeps working under the KFENCE preload:
ripgrep (Rust), the JVM, redis-server (jemalloc), nginx, programs linked
against tcmalloc, mimalloc and jemalloc, python3 with threads, and
PostgreSQL under pgbench.

Each program runs under LD_PRELOAD=libukasan.so with two settings:
"default" (UKASAN_OPTIONS empty: one guarded allocation every 100 ms) and
"kfence.sample_rate=1" (every allocation guarded while the pool's slots
last; kfence.stats=1 is added so that the counters printed at exit show the
preload really was there and sampled). In every run:

* no hang: every process has a timeout, and a timeout is a failure. Each
  command runs in a session of its own and, on a timeout or when the check
  ends for any reason, its whole process group and every descendant that
  left the group (PostgreSQL's backends call setsid) get SIGKILL, so that no
  server outlives the check;
* no "BUG: KFENCE" (or KASAN) and no "ukasan:" line in stderr or the
  server's log, other than the kfence.stats header and the lines that end
  reports of the program's own leaks (the sampled leak check at exit, when
  they are the only reports): a report there is
  either a bug of the program or a false positive of ours, and both need a
  look;
* the same results as without the preload: the same stdout and exit status
  where the output is deterministic (it is made so: sorted when the order
  depends on threads, timings removed); for servers, what the clients see
  (the data written is read back unchanged, benchmarks finish without
  errors, the server's processes survive and stop cleanly).

One line per program and setting, and one per program that checks the
kfence.sample_rate=1 run guarded allocations ("total allocations" of the
kfence.stats counters above 0, summed over the processes).

The checks, and why each is there:

1. ripgrep: a generated tree of files, a dozen searches (regexes, -c, -l,
   --json, multiline, replacement, ignore files), multi-threaded as rg is by
   default. The Rust program here (Rust programs used to hang at start
   under the preload).
2. the JVM: a Java program with 4 threads, HashMap and ConcurrentHashMap,
   and a thread pool, compiled once with javac. It used to hang about one
   run in four under the preload, so it runs 20 times per setting (the
   first failure ends the series). The JVM installs its own SIGSEGV
   handler and maps memory of its own next to malloc's.
3. redis-server, linked against jemalloc: started under the preload (its
   /proc/PID/maps must show libukasan.so), redis-benchmark against it,
   several hundred keys of every type (some values of megabytes) written
   with redis-cli --pipe and read back byte for byte, then SHUTDOWN NOSAVE:
   the server must exit with status 0. It used to crash under the preload;
   it asks jemalloc for object sizes (malloc_usable_size: MEMORY USAGE) and
   statistics (mallctl: MEMORY STATS, MEMORY PURGE), with objects of both
   KFENCE's and jemalloc's.
4. nginx, a master and 2 workers (a configuration of its own in the tmp
   dir), under wrk for 3 s over static files (one of 1 MiB, gzip for
   half the requests), then every file fetched and compared with the
   original. wrk must see no error and no non-2xx response, and the
   master's children must be the same workers afterwards (a worker that
   crashed would have been replaced silently).
5. _alloc_user.c with _alloc_user_new.cc, linked against tcmalloc,
   mimalloc and jemalloc in turn: the malloc family, the allocator's own
   entry points (tc_malloc_size, tc_free, mi_usable_size, mi_free,
   mallocx, sallocx, rallocx, sdallocx, ...) on pointers from malloc, the
   allocator's pointers given to free and realloc, frees in other threads,
   C++ new/delete. The program counts each new object as KFENCE's, the
   allocator's or neither: an unsampled allocation must come from the
   allocator the program was linked with, not from glibc ("foreign=0").
6. python3 (the interpreter itself, not a wrapper on PATH): threading,
   queue, concurrent.futures with threads and with forked processes,
   allocation-heavy, 3 runs per setting.
7. PostgreSQL: initdb and the server under the preload, as user postgres
   (it refuses root), on a free port with its socket in the tmp dir;
   pgbench -i -s 2, deterministic queries compared with a run without the
   preload, pgbench -c 4 -j 2 -T 10, then a consistency check (the balances
   of accounts, tellers and branches each add up to the sum of the deltas
   in pgbench_history, which has one row per transaction pgbench counted),
   and pg_ctl stop -m fast. Every backend is a fork of the postmaster and
   inherits the preload. The test tmp dir gets o+x so that user postgres
   can reach its data directory there.

Every workload also runs once without the preload; when that fails, the
lines say so ("fails without the preload") instead of blaming ukasan.
A program that is not installed is a failure ("missing"): tools/deps.sh
installs them all.
"""
import concurrent.futures
import gzip
import json
import os
import random
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request

from _proc import (Failed, all_procs, descendants, kill_tree, log, notok, ok, status_text,
                   unexpected_lines)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
INCLUDE = os.path.join(ROOT, "include")
TEST_TMP = os.environ.get("UKASAN_TEST_TMP") or "/tmp"
TMP = os.path.join(TEST_TMP, "real_software")
SETTINGS = [("default", ""), ("kfence.sample_rate=1", "kfence.sample_rate=1 kfence.stats=1")]
GUARDED = "kfence.sample_rate=1"
PG_BIN = "/usr/lib/postgresql/15/bin"

STATS_HEADER = re.compile(r"ukasan: (kfence|kasan) statistics of pid \d+:\s*$")


# ---------------------------------------------------------------- processes

LIVE = []  # every process started, killed with its descendants at the end


def children_of(pid):
    return sorted(p for p, (pp, _) in all_procs().items() if pp == pid)


def spawn(cmd, **kw):
    p = subprocess.Popen(cmd, start_new_session=True, **kw)
    LIVE.append(p)
    return p


def cleanup():
    for p in LIVE:
        kill_tree(p)
    LIVE.clear()


def run(cmd, env, timeout, cwd=None, stdin=None, user=None):
    """Runs cmd to its end or the timeout. Returns (status, stdout, stderr):
    status is the exit status (negative: a signal) or a "timed out" text."""
    kw = {}
    if user:
        kw = dict(user=user, group=user, extra_groups=[])
    try:
        p = spawn(cmd, env=env, cwd=cwd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    except OSError as e:
        return f"cannot run: {e}", b"", b""
    try:
        out, err = p.communicate(stdin, timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        kill_tree(p)
        try:
            out, err = p.communicate(timeout=10)
        except (subprocess.TimeoutExpired, ValueError):
            out, err = b"", b""
        status = f"timed out after {timeout}s"
    kill_tree(p)  # whatever it left behind
    LIVE.remove(p)
    return status, out, err


def base_env(home):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "MAKEFLAGS", "MALLOC_CONF", "JAVA_TOOL_OPTIONS",
              "_JAVA_OPTIONS", "PGDATA", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PYTHONPATH"):
        env.pop(k, None)
    env.update(LC_ALL="C", LANG="C", TZ="UTC", HOME=home, TMPDIR=home)
    return env


def preload_env(env, options):
    """options None: no preload."""
    env = dict(env)
    if options is not None:
        env["LD_PRELOAD"] = LIB
        env["UKASAN_OPTIONS"] = options
    return env


def text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else b


def reports(t):
    """Lines that are reports or ukasan's messages (not the stats header, nor
    the lines of leak reports when there is no other report)."""
    return unexpected_lines(text(t), STATS_HEADER)


def check_reports(where, t):
    bad = reports(t)
    if bad:
        more = f" (+{len(bad) - 1} such lines)" if len(bad) > 1 else ""
        raise Failed(f"{where} has {bad[0][:200]!r}{more}")


def guarded_total(t):
    return sum(int(n) for n in re.findall(r"^total allocations: (\d+)\s*$", text(t), re.M))


def tail(t, n=300):
    return repr(text(t).strip()[-n:])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, cond, proc, timeout, logfile=None):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise Failed(f"exited ({status_text(proc.returncode)}) before {what}"
                         + (f"; log: {tail(read(logfile), 400)}" if logfile else ""))
        try:
            if cond():
                return
        except (OSError, Failed):
            pass
        time.sleep(0.1)
    raise Failed(f"not {what} after {timeout}s" + (f"; log: {tail(read(logfile), 300)}" if logfile else ""))


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def maps_has(pid, name):
    try:
        with open(f"/proc/{pid}/maps") as f:
            return name in f.read()
    except OSError:
        return False


def python_binary():
    # The python3 on PATH may be a wrapper script: test the interpreter.
    exe = sys.executable
    if exe and os.path.basename(exe).startswith("python3") and os.access(exe, os.X_OK):
        return exe
    return shutil.which("python3")


class Program:
    """The lines of one program: one per setting, and the guarded one."""

    def __init__(self, name):
        self.name = name
        self.stats = ""

    def all_fail(self, why):
        for label, _ in SETTINGS:
            notok(f"{self.name} [{label}]", why)
        notok(f"{self.name} guarded allocations", why)

    def setting(self, label, fn):
        t0 = time.time()
        test = f"{self.name} [{label}]"
        try:
            fn()
            ok(test)
        except Failed as e:
            notok(test, str(e))
        except OSError as e:  # a client's connection: refused, reset, timed out
            notok(test, f"{type(e).__name__}: {e}")
        except Exception as e:  # the harness's own bug: still one line
            notok(test, f"check raised {type(e).__name__}: {e}")
        finally:
            cleanup()
        log(f"{test}: {time.time() - t0:.1f}s")

    def repeated(self, cmd, env, want, runs, timeout, cwd):
        """Each setting: cmd run `runs` times under the preload, each with the
        same stdout as without it (want), a zero status and no report; the
        guarded setting's stderr keeps the kfence.stats counters."""
        for label, options in SETTINGS:
            def one():
                stats = []
                try:
                    for i in range(runs):
                        s, out, err = run(cmd, preload_env(env, options), timeout, cwd=cwd)
                        stats.append(text(err))
                        where = f"run {i + 1}/{runs}"
                        if s != 0:
                            raise Failed(f"{where}: {status_text(s)}; stderr {tail(err)}")
                        if out != want:
                            raise Failed(f"{where}: printed {tail(out, 200)}, "
                                         f"without the preload {tail(want, 200)}")
                        check_reports(f"{where}: stderr", err)
                finally:
                    if label == GUARDED:
                        self.stats = "".join(stats)
            self.setting(label, one)

    def guarded(self, extra=""):
        n = guarded_total(self.stats)
        if n > 0:
            ok(f"{self.name} guarded allocations ({n}{extra})")
        elif "total allocations" in self.stats:
            notok(f"{self.name} guarded allocations", "kfence.stats says total allocations: 0")
        else:
            notok(f"{self.name} guarded allocations",
                  "no kfence.stats counters from the kfence.sample_rate=1 run (did it run to its end?)")


# ---------------------------------------------------------------- 1. ripgrep

WORDS = ("alpha beta gamma delta epsilon zeta theta lambda kappa omega river stone cloud "
         "forest ember quartz velvet zebra lantern harbor meadow copper signal vector").split()


def make_tree(d):
    rnd = random.Random(11)
    exts = ["txt", "rs", "py", "md", "log"]
    for i in range(12):
        sub = os.path.join(d, f"dir{i:02d}", f"sub{i % 3}")
        os.makedirs(sub, exist_ok=True)
        for j in range(30):
            ext = exts[(i + j) % len(exts)]
            lines = []
            for k in range(rnd.randrange(50, 400)):
                w = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(3, 12)))
                r = rnd.random()
                if r < 0.02:
                    w += f" needle{rnd.randrange(1000)}"
                elif r < 0.04:
                    w = rnd.choice(["ERROR", "Warning", "warn", "error"]) + ": " + w
                elif r < 0.06 and ext == "rs":
                    w = f"fn {rnd.choice(WORDS)}_{k}(x: u32) -> u32 {{"
                elif r < 0.08 and ext == "py":
                    w = f"import {rnd.choice(WORDS)}"
                elif r < 0.09:
                    lines += ["begin", w, "end"]
                    continue
                elif r < 0.095:
                    w = "exactly this line"
                elif r < 0.10:
                    w += " secret"
                lines.append(w)
            with open(os.path.join(sub, f"f{j:02d}.{ext}"), "w") as f:
                f.write("\n".join(lines) + "\n")
    big = os.path.join(d, "big")
    os.makedirs(big)
    for i in range(3):
        with open(os.path.join(big, f"big{i}.txt"), "w") as f:
            for k in range(20000):
                f.write(f"{k} {rnd.getrandbits(64):016x} {rnd.choice(WORDS)} {rnd.getrandbits(48):012x}\n")
    with open(os.path.join(d, "blob.bin"), "wb") as f:
        f.write(bytes(rnd.getrandbits(8) for _ in range(50000)) + b"\0needle42\0")
    os.makedirs(os.path.join(d, ".hidden"))
    with open(os.path.join(d, ".hidden", "h.txt"), "w") as f:
        f.write("secret hidden needle7\n")
    with open(os.path.join(d, ".ignore"), "w") as f:
        f.write("*.log\n")


def sorted_lines(out):
    return b"\n".join(sorted(out.splitlines())) + b"\n"


def drop_timings(out):
    msgs = []
    for line in out.splitlines():
        m = json.loads(line)

        def scrub(o):
            if isinstance(o, dict):
                return {k: scrub(v) for k, v in o.items() if not k.startswith("elapsed")}
            if isinstance(o, list):
                return [scrub(v) for v in o]
            return o
        msgs.append(json.dumps(scrub(m), sort_keys=True))
    return ("\n".join(msgs) + "\n").encode()


def rg_steps(rg):
    # (arguments, how to make the output deterministic)
    return [
        ([rg, "-n", r"needle\d{2,}", "."], sorted_lines),
        ([rg, "-c", "-i", "error|warn(ing)?", "."], sorted_lines),
        ([rg, "--json", "--sort", "path", r"fn [a-z_0-9]+\(", "."], drop_timings),
        ([rg, "-l", "-w", "-t", "py", "import", "."], sorted_lines),
        ([rg, "--files"], sorted_lines),
        ([rg, "-U", "--sort", "path", "-n", r"begin\n[^\n]*\nend", "."], None),
        ([rg, "-o", "-N", "--no-filename", r"[0-9a-f]{12}", "big"], sorted_lines),
        ([rg, "-c", "-v", "-j", "1", "e", "."], sorted_lines),
        ([rg, "-o", "-r", "<$1>", r"(needle)\d", "."], sorted_lines),
        ([rg, "-F", "-x", "-c", "exactly this line", "."], sorted_lines),
        ([rg, "--no-ignore", "--hidden", "-c", "secret", "."], sorted_lines),
        ([rg, "-i", "-C", "2", "--sort", "path", "zebra lantern", "."], None),
        ([rg, "-a", "-c", "needle", "blob.bin"], None),
    ]


def rg_run(steps, tree, options):
    env = preload_env(base_env(TMP), options)
    res = []
    for args, norm in steps:
        status, out, err = run(args, env, 30, cwd=tree)
        if isinstance(status, int) and status in (0, 1) and norm:
            out = norm(out)
        res.append((" ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(args))[:60],
                    status, out, err))
        if not isinstance(status, int):  # a hang: the next steps would hang too
            break
    return res


def check_ripgrep():
    prog = Program("ripgrep")
    rg = shutil.which("rg")
    if not rg:
        return prog.all_fail("missing: rg (Debian package ripgrep)")
    tree = os.path.join(TMP, "rg-tree")
    shutil.rmtree(tree, ignore_errors=True)
    make_tree(tree)
    steps = rg_steps(rg)
    plain = rg_run(steps, tree, None)
    broken = [f"{d}: {status_text(s)} {tail(e, 200)}" for d, s, _, e in plain if s != 0]
    if broken:
        return prog.all_fail(f"fails without the preload: {broken[0]}")
    for label, options in SETTINGS:
        def one():
            pre = rg_run(steps, tree, options)
            problems = []
            for (desc, s0, o0, _), (_, s1, o1, e1) in zip(plain, pre):
                if s1 != s0:
                    problems.append(f"{desc}: {status_text(s1)} (without the preload: "
                                    f"{status_text(s0)}); stderr {tail(e1, 200)}")
                elif o1 != o0:
                    problems.append(f"{desc}: output differs ({len(o1)} vs {len(o0)} bytes)")
                try:
                    check_reports(f"{desc}: stderr", e1)
                except Failed as e:
                    problems.append(str(e))
            if len(pre) < len(plain):
                problems.append(f"{len(plain) - len(pre)} later steps not run")
            if label == GUARDED:
                prog.stats = "".join(text(e) for _, _, _, e in pre)
            if problems:
                raise Failed("; ".join(problems))
        prog.setting(label, one)
    prog.guarded()


# ---------------------------------------------------------------- 2. the JVM

JAVA_SOURCE = r"""
import java.util.*;
import java.util.concurrent.*;

public class T {
    public static void main(String[] args) throws Exception {
        final int n = 4;
        final ConcurrentHashMap<String, Long> shared = new ConcurrentHashMap<>();
        final long[] sums = new long[n];
        Thread[] ts = new Thread[n];
        for (int t = 0; t < n; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                HashMap<Integer, String> local = new HashMap<>();
                StringBuilder sb = new StringBuilder();
                long s = id;
                for (int i = 0; i < 40000; i++) {
                    int k = (i * 31 + id * 7) % (20011 + id);
                    local.put(k, "v" + k + ":" + id);
                    shared.merge("k" + (i % 997), (long) (i + id), Long::sum);
                    if (i % 100 == 0) {
                        sb.setLength(0);
                        sb.append(local.size()).append(',').append(i).append(id);
                        s = s * 31 + sb.toString().hashCode();
                    }
                }
                for (Map.Entry<Integer, String> e : local.entrySet()) s += e.getKey() ^ e.getValue().length();
                sums[id] = s;
            }, "worker-" + t);
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        ExecutorService ex = Executors.newFixedThreadPool(4);
        List<Future<Long>> fs = new ArrayList<>();
        for (int j = 0; j < 16; j++) {
            final int jj = j;
            fs.add(ex.submit(() -> {
                ArrayList<Integer> l = new ArrayList<>();
                for (int i = 0; i < 20000; i++) l.add((i * 7919) ^ jj);
                Collections.sort(l);
                long r = 0;
                for (int x : l) r = r * 31 + x;
                return r;
            }));
        }
        long pool = 0;
        for (Future<Long> f : fs) pool += f.get();
        ex.shutdown();
        long total = 0;
        for (long v : shared.values()) total += v;
        System.out.println(Arrays.toString(sums) + " " + shared.size() + " " + total + " " + pool);
    }
}
"""

JAVA_RUNS = 20
JAVA_TIMEOUT = 60


def check_java():
    prog = Program("java")
    java, javac = shutil.which("java"), shutil.which("javac")
    if not java:
        return prog.all_fail("missing: java (Debian package openjdk-17-jre-headless)")
    d = os.path.join(TMP, "java")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "T.java"), "w") as f:
        f.write(JAVA_SOURCE)
    env = base_env(d)
    if javac:  # compiled once, so that each run is one JVM start, not two
        status, _, err = run([javac, "-d", d, os.path.join(d, "T.java")], env, 180, cwd=d)
        if status != 0:
            return prog.all_fail(f"javac: {status_text(status)} {tail(err)}")
        cmd = [java, "-Xmx256m", "-cp", d, "T"]
    else:  # a JRE without javac: the source launcher (needs jdk.compiler)
        cmd = [java, "-Xmx256m", os.path.join(d, "T.java")]
    status, want, err = run(cmd, env, JAVA_TIMEOUT, cwd=d)
    if status != 0 or not want.strip():
        hint = "" if javac else " (no javac: the source launcher needs a JDK, openjdk-17-jdk-headless)"
        return prog.all_fail(f"fails without the preload{hint}: {status_text(status)} {tail(err)}")
    prog.repeated(cmd, env, want, JAVA_RUNS, JAVA_TIMEOUT, d)
    prog.guarded(f", {JAVA_RUNS} runs")


# ---------------------------------------------------------------- 3. redis

def resp(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class Redis:
    """A minimal RESP client: exact bytes, no dependency."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.f = self.s.makefile("rb")

    def close(self):
        self.f.close()
        self.s.close()

    def reply(self):
        line = self.f.readline()
        if not line.endswith(b"\r\n"):
            raise Failed("redis closed the connection")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise Failed(f"redis error reply: {rest.decode(errors='replace')[:200]}")
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.f.read(n + 2)
            if len(data) != n + 2:
                raise Failed("redis closed the connection mid-reply")
            return data[:-2]
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise Failed(f"bad reply from redis: {line[:80]!r}")

    def many(self, cmds):
        """Pipelined, in batches, replies in order."""
        out = []
        for i in range(0, len(cmds), 100):
            batch = cmds[i:i + 100]
            self.s.sendall(b"".join(resp(*c) for c in batch))
            out += [self.reply() for _ in batch]
        return out


def redis_data():
    """The writes (as commands) and the expected content of the database."""
    rnd = random.Random(5)
    cmds, model = [], {}
    for i in range(500):
        n = rnd.choice([rnd.randrange(1, 64), rnd.randrange(64, 2000), rnd.randrange(2000, 30000)])
        v = rnd.randbytes(n)
        cmds.append(("SET", f"str:{i}", v))
        model[f"str:{i}"] = ("string", v)
    for i, n in enumerate([100_000, 300_000, 1 << 20, 2 << 20, 700_000]):
        v = rnd.randbytes(n)
        cmds.append(("SET", f"big:{i}", v))
        model[f"big:{i}"] = ("string", v)
    for i in range(40):
        items = [f"item-{i}-{j}-".encode() + rnd.randbytes(rnd.randrange(0, 300)) for j in range(150)]
        cmds.append(("RPUSH", f"list:{i}", *items))
        model[f"list:{i}"] = ("list", items)
    for i in range(40):
        h = {f"field{j}".encode(): rnd.randbytes(rnd.randrange(1, 500)) for j in range(80)}
        cmds.append(("HSET", f"hash:{i}", *[x for kv in h.items() for x in kv]))
        model[f"hash:{i}"] = ("hash", h)
    for i in range(20):
        members = {f"m{i}-{rnd.randrange(10**6)}".encode() for _ in range(100)}
        cmds.append(("SADD", f"set:{i}", *sorted(members)))
        model[f"set:{i}"] = ("set", members)
    for i in range(20):
        z = {f"z{j}".encode(): rnd.randrange(-1000, 1000) for j in range(100)}
        cmds.append(("ZADD", f"zset:{i}", *[x for m, s in z.items() for x in (s, m)]))
        model[f"zset:{i}"] = ("zset", z)
    return cmds, model


def redis_changes(model):
    """Overwrites, appends, deletes, pops: reallocations and frees."""
    rnd = random.Random(6)
    cmds = []
    for i in range(0, 500, 3):
        k = f"str:{i}"
        if i % 2:
            v = rnd.randbytes(rnd.randrange(1, 9000))
            cmds.append(("SET", k, v))
            model[k] = ("string", v)
        else:
            a = rnd.randbytes(rnd.randrange(1, 3000))
            cmds.append(("APPEND", k, a))
            model[k] = ("string", model[k][1] + a)
    for i in range(0, 500, 7):
        cmds.append(("DEL", f"str:{i}"))
        model.pop(f"str:{i}")
    for i in range(0, 40, 2):
        cmds.append(("LPOP", f"list:{i}"))
        model[f"list:{i}"][1].pop(0)
        cmds.append(("HDEL", f"hash:{i}", "field3", "field4"))
        for f in (b"field3", b"field4"):
            model[f"hash:{i}"][1].pop(f)
    for i in range(30):
        cmds.append(("INCRBY", "counter", i))
    model["counter"] = ("string", str(sum(range(30))).encode())
    return cmds


def redis_verify(c, model):
    keys = sorted(model)
    reads = []
    for k in keys:
        kind = model[k][0]
        reads.append({"string": ("GET", k), "list": ("LRANGE", k, 0, -1), "hash": ("HGETALL", k),
                      "set": ("SMEMBERS", k), "zset": ("ZRANGE", k, 0, -1, "WITHSCORES")}[kind])
    got = c.many(reads)
    bad = []
    for k, g in zip(keys, got):
        kind, want = model[k]
        if kind == "hash":
            g = dict(zip(g[::2], g[1::2]))
        elif kind == "set":
            g = set(g)
        elif kind == "zset":
            g = {m: int(float(s)) for m, s in zip(g[::2], g[1::2])}
        if g != want:
            bad.append(k)
    if bad:
        raise Failed(f"{len(bad)} keys read back wrong, first {bad[0]}")
    n = c.many([("DBSIZE",)])[0]
    if n != len(model):
        raise Failed(f"DBSIZE {n}, expected {len(model)}")
    # jemalloc's malloc_usable_size on the objects, and its mallctl
    for k in keys[:50]:
        if not isinstance(c.many([("MEMORY", "USAGE", k)])[0], int):
            raise Failed(f"MEMORY USAGE {k} is not a number")
    c.many([("MEMORY", "STATS"), ("MEMORY", "PURGE"), ("INFO", "memory")])


def redis_session(server, options, d):
    port = free_port()
    logfile = os.path.join(d, "redis.log")
    env = preload_env(base_env(d), options)
    clients = base_env(d)
    with open(logfile, "wb") as lf:
        p = spawn([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                   "--dir", d, "--logfile", "", "--daemonize", "no", "--protected-mode", "no",
                   "--loglevel", "notice"], env=env, cwd=d, stdin=subprocess.DEVNULL, stdout=lf, stderr=lf)

    def ping():
        c = Redis(port)
        try:
            return c.many([("PING",)])[0] == "PONG"
        finally:
            c.close()
    wait_until("answering PING", ping, p, 30, logfile)
    if options is not None and not maps_has(p.pid, os.path.basename(LIB)):
        raise Failed("libukasan.so is not in the server's /proc/PID/maps: the preload did not load")
    tests = ["set", "get", "incr", "lpush", "rpush", "lpop", "sadd", "hset", "zadd", "lrange_100", "mset"]
    s, out, err = run(["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-n", "20000", "-c", "20",
                       "-d", "300", "-q", "--csv", "-t", ",".join(tests)], clients, 120)
    if s != 0:
        raise Failed(f"redis-benchmark: {status_text(s)}; {tail(err or out)}; server log {tail(read(logfile), 300)}")
    rows = [l.split(",")[0].strip('"') for l in text(out).splitlines()[1:]]
    if len(rows) < len(tests) or "error" in text(out + err).lower():
        raise Failed(f"redis-benchmark printed {tail(out + err, 300)}")
    s, out, err = run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), "FLUSHALL"], clients, 60)
    if s != 0 or out.strip() != b"OK":  # the benchmark's keys
        raise Failed(f"redis-cli FLUSHALL: {status_text(s)}, printed {tail(out + err, 100)}")
    cmds, model = redis_data()
    s, out, err = run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), "--pipe"], clients, 120,
                      stdin=b"".join(resp(*c) for c in cmds))
    if s != 0 or f"errors: 0, replies: {len(cmds)}" not in text(out):
        raise Failed(f"redis-cli --pipe: {status_text(s)}; {tail(out + err, 300)}")
    c = Redis(port)
    try:
        c.many(redis_changes(model))
        redis_verify(c, model)
    finally:
        c.close()
    # redis-cli prints a reply raw, then a newline, when stdout is no terminal
    for args, want in [(["DBSIZE"], str(len(model)).encode()), (["GET", "counter"], b"435"),
                       (["LINDEX", "list:1", "7"], model["list:1"][1][7]),
                       (["HGET", "hash:1", "field7"], model["hash:1"][1][b"field7"])]:
        s, out, err = run(["redis-cli", "-h", "127.0.0.1", "-p", str(port)] + args, clients, 30)
        if s != 0 or out != want + b"\n":
            raise Failed(f"redis-cli {' '.join(args)}: {status_text(s)}, printed {tail(out, 80)}")
    if p.poll() is not None:
        raise Failed(f"the server died ({status_text(p.returncode)}); log {tail(read(logfile), 400)}")
    run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), "SHUTDOWN", "NOSAVE"], clients, 30)
    try:
        st = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        raise Failed("still running 30 s after SHUTDOWN NOSAVE")
    if st != 0:
        raise Failed(f"exited with {status_text(st)} after SHUTDOWN NOSAVE; log {tail(read(logfile), 400)}")
    lg = read(logfile)
    check_reports("the server's log", lg)
    if "bye bye" not in lg:
        raise Failed(f"no 'bye bye' in the log: {tail(lg, 300)}")
    return lg


def check_redis():
    prog = Program("redis")
    server = shutil.which("redis-server")
    missing = [n for n in ("redis-server", "redis-benchmark", "redis-cli") if not shutil.which(n)]
    if missing:
        return prog.all_fail(f"missing: {', '.join(missing)} (Debian packages redis-server, redis-tools)")
    s, out, _ = run(["ldd", server], base_env(TMP), 30)
    if "libjemalloc" not in text(out):
        return prog.all_fail(f"redis-server is not linked against jemalloc: {tail(out)}")
    d = os.path.join(TMP, "redis")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    try:
        redis_session(server, None, d)
    except Failed as e:
        return prog.all_fail(f"fails without the preload: {e}")
    finally:
        cleanup()
    for label, options in SETTINGS:
        def one():
            try:
                redis_session(server, options, d)
            finally:
                if label == GUARDED:
                    prog.stats = read(os.path.join(d, "redis.log"))
        prog.setting(label, one)
    prog.guarded()


# ---------------------------------------------------------------- 4. nginx

# "user root": as root, nginx would run its workers as nobody, who cannot
# read the files under the test tmp dir (mkdtemp makes it 0700). The temp
# paths keep nginx out of /var/lib/nginx.
NGINX_CONF = """daemon off;
master_process on;
worker_processes 2;
user root;
error_log {d}/error.log notice;
pid {d}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    types {{ text/html html; text/plain txt; application/json json; text/css css; application/octet-stream bin; }}
    default_type application/octet-stream;
    gzip on;
    gzip_types text/plain application/json text/css;
    gzip_min_length 256;
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
        root {d}/www;
        location / {{ }}
    }}
}}
"""

WRK_SCRIPT = """local paths = {"/index.html", "/a.txt", "/big.bin", "/dir/b.json", "/c.css"}
local n = 0
request = function()
    n = n + 1
    local p = paths[(n % #paths) + 1]
    if n % 2 == 0 then
        return wrk.format("GET", p, {["Accept-Encoding"] = "gzip"})
    end
    return wrk.format("GET", p)
end
"""


def nginx_files():
    rnd = random.Random(9)
    words = lambda n: " ".join(rnd.choice(WORDS) for _ in range(n))
    return {
        "index.html": f"<html><body><p>{words(300)}</p></body></html>\n".encode(),
        "a.txt": "\n".join(words(12) for _ in range(800)).encode(),
        "big.bin": rnd.randbytes(1 << 20),
        "dir/b.json": json.dumps([{"i": i, "w": words(5)} for i in range(1500)]).encode(),
        "c.css": b"body { color: #333; }\n" * 40,
    }


def fetch(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def nginx_session(nginx, wrk, options, d):
    shutil.rmtree(d, ignore_errors=True)
    files = nginx_files()
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, "www", name)), exist_ok=True)
        with open(os.path.join(d, "www", name), "wb") as f:
            f.write(data)
    os.makedirs(os.path.join(d, "tmp"))
    port = free_port()
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF.format(d=d, port=port))
    with open(os.path.join(d, "script.lua"), "w") as f:
        f.write(WRK_SCRIPT)
    errlog, stderr_file = os.path.join(d, "error.log"), os.path.join(d, "stderr.txt")
    base = f"http://127.0.0.1:{port}"
    with open(stderr_file, "wb") as sf:
        # -e: the log nginx writes before it has read its configuration
        p = spawn([nginx, "-p", d + "/", "-c", conf, "-e", errlog], env=preload_env(base_env(d), options),
                  cwd=d, stdin=subprocess.DEVNULL, stdout=sf, stderr=sf)

    def logs():
        return read(errlog) + read(stderr_file)
    wait_until("serving", lambda: fetch(base + "/index.html")[0] == 200 and len(children_of(p.pid)) == 2,
               p, 30, stderr_file)
    workers = children_of(p.pid)
    if options is not None:
        for pid in [p.pid] + workers:
            if not maps_has(pid, os.path.basename(LIB)):
                raise Failed(f"libukasan.so is not in /proc/{pid}/maps: the preload did not load")
    s, out, err = run([wrk, "-t2", "-c16", "-d3s", "--timeout", "10s", "-s", os.path.join(d, "script.lua"),
                       base + "/"], base_env(d), 60)
    o = text(out)
    if s != 0:
        raise Failed(f"wrk: {status_text(s)}; {tail(out + err)}")
    m = re.search(r"(\d+) requests in", o)
    if not m or int(m.group(1)) == 0:
        raise Failed(f"wrk made no request: {tail(o)}")
    if "Non-2xx" in o or "Socket errors" in o:
        problems = [l.strip() for l in o.splitlines() if "Non-2xx" in l or "Socket errors" in l]
        raise Failed(f"wrk: {'; '.join(problems)} of {m.group(1)} requests; error log {tail(logs(), 300)}")
    for name, data in files.items():
        st, h, body = fetch(f"{base}/{name}")
        if st != 200 or body != data:
            raise Failed(f"GET /{name}: {st}, {len(body)} bytes, expected 200 and {len(data)} bytes "
                         f"({'differ' if len(body) == len(data) else 'length differs'})")
        st, h, body = fetch(f"{base}/{name}", {"Accept-Encoding": "gzip"})
        if h.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if st != 200 or body != data:
            raise Failed(f"GET /{name} with gzip: {st}, content differs")
    st, _, body = fetch(f"{base}/big.bin", {"Range": "bytes=1000-299999"})
    if st != 206 or body != files["big.bin"][1000:300000]:
        raise Failed(f"range request: {st}, {len(body)} bytes")
    st, _, _ = fetch(f"{base}/missing.txt")
    if st != 404:
        raise Failed(f"GET /missing.txt: {st}, expected 404")
    now = children_of(p.pid)
    if now != workers:
        raise Failed(f"the workers changed from {workers} to {now} (a worker died and was replaced); "
                     f"log {tail(logs(), 300)}")
    if p.poll() is not None:
        raise Failed(f"the master died: {status_text(p.returncode)}; log {tail(logs(), 300)}")
    os.kill(p.pid, signal.SIGQUIT)  # graceful shutdown
    try:
        st = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        raise Failed("still running 30 s after SIGQUIT")
    lg = logs()
    if st != 0:
        raise Failed(f"the master exited with {status_text(st)}; log {tail(lg, 300)}")
    check_reports("the error log or stderr", lg)
    crash = [l for l in lg.splitlines() if "exited on signal" in l or "[alert]" in l or "[emerg]" in l
             or "[crit]" in l]
    if crash:
        raise Failed(f"error log: {crash[0][:200]}")
    return lg


def check_nginx():
    prog = Program("nginx")
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    wrk = shutil.which("wrk")
    if not nginx or not wrk:
        return prog.all_fail(f"missing: {'nginx (Debian package nginx-light)' if not nginx else 'wrk'}")
    d = os.path.join(TMP, "nginx")
    try:
        nginx_session(nginx, wrk, None, d)
    except Failed as e:
        return prog.all_fail(f"fails without the preload: {e}")
    finally:
        cleanup()
    for label, options in SETTINGS:
        def one():
            try:
                nginx_session(nginx, wrk, options, d)
            finally:
                if label == GUARDED:
                    prog.stats = read(os.path.join(d, "error.log")) + read(os.path.join(d, "stderr.txt"))
        prog.setting(label, one)
    prog.guarded()


# ---------------------------------------------------------- 5. the allocators

ALLOCATORS = [("tcmalloc", "USE_TCMALLOC", "libgoogle-perftools-dev"),
              ("mimalloc", "USE_MIMALLOC", "libmimalloc-dev"),
              ("jemalloc", "USE_JEMALLOC", "libjemalloc-dev")]


def build_alloc_user(name, define, d):
    env = base_env(d)
    exe = os.path.join(d, f"alloc_user_{name}")
    flags = ["-O2", "-g", "-fno-builtin", f"-D{define}", "-I" + INCLUDE]
    steps = [["gcc"] + flags + ["-c", os.path.join(HERE, "_alloc_user.c"), "-o", exe + ".o"],
             ["g++"] + flags + ["-c", os.path.join(HERE, "_alloc_user_new.cc"), "-o", exe + "_new.o"],
             ["g++", exe + ".o", exe + "_new.o", "-o", exe, f"-l{name}", "-lpthread"]]
    for cmd in steps:
        s, out, err = run(cmd, env, 180, cwd=d)
        if s != 0:
            raise Failed(f"{' '.join(cmd[:1] + cmd[-3:])}: {status_text(s)} {tail(err, 400)}")
    s, out, _ = run(["ldd", exe], env, 30)
    if f"lib{name}" not in text(out):
        raise Failed(f"the program is not linked against lib{name}: {tail(out)}")
    return exe


def alloc_summary(err, name):
    m = re.search(rf"^alloc_user: {name} sampled=(\d+) owned=(\d+) foreign=(\d+)(.*)$", text(err), re.M)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4).strip()) if m else None


def last_phase(err):
    phases = re.findall(r"^alloc_user: phase (.*)$", text(err), re.M)
    return phases[-1] if phases else "start"


def check_allocators():
    d = os.path.join(TMP, "alloc")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    # g++ takes a while: the three builds at once
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        builds = {name: pool.submit(build_alloc_user, name, define, d) for name, define, _ in ALLOCATORS}
    for name, define, package in ALLOCATORS:
        prog = Program(name)
        try:
            exe = builds[name].result()
        except Failed as e:
            prog.all_fail(f"cannot build against {name} (Debian package {package}): {e}")
            continue
        env = base_env(d)
        s, want, err = run([exe], env, 120, cwd=d)
        summary = alloc_summary(err, name)
        if s != 0 or not summary or summary[2]:
            prog.all_fail(f"fails without the preload: {status_text(s)}; {tail(err, 400)}")
            continue
        sampled = {}
        for label, options in SETTINGS:
            def one():
                s, out, err = run([exe], preload_env(env, options), 120, cwd=d)
                if label == GUARDED:
                    prog.stats = text(err)
                if s != 0:
                    fails = re.findall(r"^alloc_user: FAIL.*$", text(err), re.M)
                    raise Failed(f"{status_text(s)} in phase '{last_phase(err)}'"
                                 + (f": {fails[0]}" if fails else "")
                                 + f"; stderr {tail(err, 400)}")
                summary = alloc_summary(err, name)
                if not summary:
                    raise Failed(f"no summary line; stderr {tail(err)}")
                if summary[2]:
                    raise Failed(f"{summary[2]} of {sum(summary[:3])} new objects came neither from {name} "
                                 f"nor from KFENCE (glibc's?), first {summary[3]}")
                if out != want:
                    raise Failed(f"stdout {tail(out, 200)}, without the preload {tail(want, 200)}")
                check_reports("stderr", err)
                sampled[label] = summary[0]
            prog.setting(label, one)
        # the program's own count: objects that ukasan_is_kfence_address knew
        n = sampled.get(GUARDED, 0)
        if GUARDED in sampled and n == 0:
            notok(f"{name} guarded allocations", "no object was KFENCE's (ukasan_is_kfence_address)")
        else:
            prog.guarded(f"; {n} of the program's objects were KFENCE's" if n else "")


# ---------------------------------------------------------------- 6. python3

PY_THREADS = r"""
import concurrent.futures, hashlib, json, queue, threading

def produce(q, n, seed):
    for i in range(n):
        q.put({"seed": seed, "i": i, "payload": [str(seed * i + k) * (1 + k % 5) for k in range(12)]})
    q.put(None)

def consume(q, out, lock):
    total = 0
    while True:
        item = q.get()
        if item is None:
            break
        blob = json.dumps(item, sort_keys=True)
        total += len(blob) + sum(len(p) for p in item["payload"])
    with lock:
        out.append(total)

def work(seed):
    d = {}
    for i in range(20000):
        d[(seed * 7 + i) % 4099] = [i, str(i) * (i % 7), {"k": i}]
    s = sorted(d.items(), key=lambda kv: (len(kv[1][1]), kv[0]))
    return hashlib.sha256(repr(s[:500]).encode()).hexdigest()[:16]

def proc(seed):
    return sum(len(str(x)) for x in range(seed * 1000, seed * 1000 + 30000))

qs = [queue.Queue(maxsize=64) for _ in range(4)]
out, lock = [], threading.Lock()
threads = [threading.Thread(target=produce, args=(q, 3000, n)) for n, q in enumerate(qs)]
threads += [threading.Thread(target=consume, args=(q, out, lock)) for q in qs]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(out))
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
    print(list(ex.map(work, range(16))))
with concurrent.futures.ProcessPoolExecutor(max_workers=2) as ex:
    print(list(ex.map(proc, range(8))))
"""


def check_python():
    prog = Program("python3")
    exe = python_binary()
    if not exe:
        return prog.all_fail("missing: python3")
    d = os.path.join(TMP, "python")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    env = base_env(d)
    cmd = [exe, "-c", PY_THREADS]
    s, want, err = run(cmd, env, 120, cwd=d)
    if s != 0:
        return prog.all_fail(f"fails without the preload: {status_text(s)} {tail(err)}")
    prog.repeated(cmd, env, want, 3, 120, d)
    prog.guarded()


# ---------------------------------------------------------------- 7. PostgreSQL

PG_QUERIES = """
select count(*), sum(aid), sum(bid), md5(string_agg(aid::text || ':' || bid, ',' order by aid)) from pgbench_accounts;
select bid, count(*), min(aid), max(aid) from pgbench_accounts group by bid order by bid;
select t.bid, count(*), sum(a.aid % 97) from pgbench_tellers t join pgbench_accounts a on a.bid = t.bid and a.aid % 10 = t.tid % 10 group by t.bid order by 1;
select md5(string_agg(x::text, ',' order by x desc)) from (select (aid * 7919) % 100003 as x from pgbench_accounts) s;
create table t_json as select i, jsonb_build_object('k', i, 'v', repeat(md5(i::text), 1 + i % 5)) as j from generate_series(1, 20000) i;
create index on t_json ((j->>'k'));
select count(*), sum(length(j::text)) from t_json where (j->>'k')::int % 3 = 0;
select string_agg(word, ' ' order by n) from (select n, md5(n::text) as word from generate_series(1, 200) n) s;
"""

PG_CONSISTENCY = """select (select sum(abalance) from pgbench_accounts), (select sum(tbalance) from pgbench_tellers),
 (select sum(bbalance) from pgbench_branches), (select coalesce(sum(delta), 0) from pgbench_history),
 (select count(*) from pgbench_history), (select count(*) from pgbench_accounts);"""


def pg_session(options, d, pgbench, psql):
    """Returns the output of the deterministic queries."""
    shutil.rmtree(d, ignore_errors=True)
    data, sock = os.path.join(d, "data"), os.path.join(d, "sock")
    os.makedirs(sock)
    for p in (d, sock):
        shutil.chown(p, "postgres", "postgres")
    port = free_port()
    env = preload_env(base_env(d), options)
    clients = base_env(d)
    logfile = os.path.join(d, "postgres.log")
    s, out, err = run([os.path.join(PG_BIN, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync",
                       "-E", "UTF8", "--locale=C"], env, 180, cwd=d, user="postgres")
    initdb_err = text(err)
    with open(logfile, "a") as lf:
        lf.write(initdb_err)
    if s != 0:
        raise Failed(f"initdb: {status_text(s)}; {tail(out + err, 400)}")
    check_reports("initdb's stderr", initdb_err)
    with open(logfile, "ab") as lf:
        pm = spawn([os.path.join(PG_BIN, "postgres"), "-D", data, "-p", str(port), "-k", sock,
                    "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                    "-c", "full_page_writes=off", "-c", "max_connections=20", "-c", "shared_buffers=32MB",
                    "-c", "logging_collector=off"],
                   env=env, cwd=d, stdin=subprocess.DEVNULL, stdout=lf, stderr=lf,
                   user="postgres", group="postgres", extra_groups=[])
    conn = ["-h", sock, "-p", str(port), "-U", "postgres"]

    def ready():
        s, out, _ = run([psql] + conn + ["-d", "postgres", "-Atc", "select 1"], clients, 10)
        return s == 0 and text(out).strip() == "1"
    wait_until("accepting connections", ready, pm, 60, logfile)
    if options is not None and not maps_has(pm.pid, os.path.basename(LIB)):
        raise Failed("libukasan.so is not in the postmaster's /proc/PID/maps: the preload did not load")
    s, out, err = run([pgbench, "-i", "-s", "2", "-q"] + conn + ["postgres"], clients, 180)
    if s != 0:
        raise Failed(f"pgbench -i: {status_text(s)}; {tail(err, 300)}; log {tail(read(logfile), 300)}")
    s, queries, err = run([psql] + conn + ["-d", "postgres", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
                          clients, 120, stdin=PG_QUERIES.encode())
    if s != 0:
        raise Failed(f"queries: {status_text(s)}; {tail(err, 300)}; log {tail(read(logfile), 300)}")
    s, out, err = run([pgbench, "-c", "4", "-j", "2", "-T", "10", "-h", "127.0.0.1", "-p", str(port),
                       "-U", "postgres", "postgres"], clients, 120)
    o = text(out)
    if s != 0:
        raise Failed(f"pgbench: {status_text(s)}; {tail(o + text(err), 400)}; log {tail(read(logfile), 300)}")
    m = re.search(r"number of transactions actually processed: (\d+)", o)
    if not m or int(m.group(1)) == 0:
        raise Failed(f"pgbench processed no transaction: {tail(o, 300)}")
    failed = re.search(r"number of failed transactions: (\d+)", o)
    if failed and int(failed.group(1)):
        raise Failed(f"pgbench: {failed.group(0)}")
    s, out, err = run([psql] + conn + ["-d", "postgres", "-X", "-A", "-t", "-F", " ", "-c", PG_CONSISTENCY],
                      clients, 60)
    if s != 0:
        raise Failed(f"consistency query: {status_text(s)}; {tail(err, 300)}")
    a, t, b, h, n, accounts = (int(x) for x in text(out).split())
    if not (a == t == b == h) or n != int(m.group(1)) or accounts != 200000:
        raise Failed(f"inconsistent: sum(abalance) {a}, sum(tbalance) {t}, sum(bbalance) {b}, sum(delta) {h}, "
                     f"{n} history rows for {m.group(1)} transactions, {accounts} accounts")
    s, out, err = run([os.path.join(PG_BIN, "pg_ctl"), "stop", "-D", data, "-m", "fast", "-w", "-t", "60"],
                      clients, 90, user="postgres")
    if s != 0:
        raise Failed(f"pg_ctl stop: {status_text(s)}; {tail(out + err)}")
    try:
        st = pm.wait(timeout=30)
    except subprocess.TimeoutExpired:
        raise Failed("the postmaster still runs 30 s after pg_ctl stop")
    lg = read(logfile)
    if st != 0:
        raise Failed(f"the postmaster exited with {status_text(st)}; log {tail(lg, 300)}")
    check_reports("the server log", lg)
    # (the logical replication launcher's "exited with exit code 1" is its
    # normal end in a fast shutdown)
    crash = [l for l in lg.splitlines() if "terminated by signal" in l or "PANIC" in l
             or "was terminated" in l or "terminating any other active server processes" in l]
    if crash:
        raise Failed(f"server log: {crash[0][:200]}")
    if "database system is shut down" not in lg:
        raise Failed(f"no 'database system is shut down' in the log: {tail(lg, 300)}")
    return queries


def open_for_postgres(path):
    """Lets user postgres through the directories from the test tmp dir down
    to path (mkdtemp makes them 0700), without letting it list them."""
    top = os.path.abspath(TEST_TMP)
    path = os.path.abspath(path)
    while True:
        st = os.stat(path)
        if st.st_uid == os.getuid() and not st.st_mode & stat.S_IXOTH:
            os.chmod(path, stat.S_IMODE(st.st_mode) | stat.S_IXOTH | stat.S_IXGRP)
        if path == top or os.path.dirname(path) == path or not path.startswith(top + "/"):
            break
        path = os.path.dirname(path)


def check_postgres():
    prog = Program("postgres")
    pgbench = shutil.which("pgbench") or os.path.join(PG_BIN, "pgbench")
    psql = shutil.which("psql") or os.path.join(PG_BIN, "psql")
    missing = [p for p in [os.path.join(PG_BIN, n) for n in ("initdb", "postgres", "pg_ctl")] + [pgbench, psql]
               if not os.access(p, os.X_OK)]
    if missing:
        return prog.all_fail(f"missing: {', '.join(missing)} (Debian packages postgresql-15, postgresql-client-15)")
    try:
        import pwd
        pwd.getpwnam("postgres")
    except KeyError:
        return prog.all_fail("missing: user postgres (Debian package postgresql-15 makes it)")
    d = os.path.join(TMP, "postgres")
    os.makedirs(TMP, exist_ok=True)
    open_for_postgres(TMP)
    if not os.access(LIB, os.R_OK) or os.stat(LIB).st_mode & stat.S_IROTH == 0:
        return prog.all_fail(f"{LIB} is not readable by user postgres")
    try:
        want = pg_session(None, d, pgbench, psql)
    except Failed as e:
        return prog.all_fail(f"fails without the preload: {e}")
    finally:
        cleanup()
    for label, options in SETTINGS:
        def one():
            try:
                got = pg_session(options, d, pgbench, psql)
            finally:
                if label == GUARDED:
                    prog.stats = read(os.path.join(d, "postgres.log"))
            if got != want:
                gl, wl = text(got).splitlines(), text(want).splitlines()
                diff = next((f"{x[:100]!r} vs {y[:100]!r}" for x, y in zip(gl, wl) if x != y),
                            f"{len(gl)} vs {len(wl)} lines")
                raise Failed(f"query results differ from those without the preload: {diff}")
        prog.setting(label, one)
    prog.guarded()
    shutil.rmtree(os.path.join(d, "data"), ignore_errors=True)  # ~50 MB; the log stays


# ---------------------------------------------------------------- main

CHECKS = [("ripgrep", check_ripgrep), ("java", check_java), ("redis", check_redis), ("nginx", check_nginx),
          ("allocators", check_allocators), ("python3", check_python), ("postgres", check_postgres)]


def main():
    # The runner's timeout or ^C: finally blocks and the cleanup still run.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    only = sys.argv[1:]
    start = time.time()
    os.makedirs(TMP, exist_ok=True)
    try:
        for name, fn in CHECKS:
            if only and name not in only:
                continue
            if not os.path.exists(LIB):
                Program(name).all_fail(f"{LIB} not built")
                continue
            t0 = time.time()
            try:
                fn()
            except Exception as e:  # a bug of this script: say so, go on
                notok(f"{name}", f"the check itself raised {type(e).__name__}: {e}")
            finally:
                cleanup()
            log(f"{name}: {time.time() - t0:.1f}s")
    finally:
        cleanup()
    log(f"total {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
