#!/usr/bin/env python3
"""Service benchmarks (KFENCE mode), run by `make bench` after bench/run.py
and bench/run_generic.py.

    python3 bench/run_services.py [--rounds N] [--only redis|nginx]

Throughput of two real servers with libukasan.so preloaded at its default
options, against the same server without it:

* redis-server (Debian's, built on jemalloc) under redis-benchmark: requests
  per second of SET, GET, LPUSH and LPOP (REDIS_REQUESTS each, 50 clients,
  no pipelining), one redis-benchmark run per command. The server is started
  afresh for every run, with --save '' --appendonly no.
* nginx, master and NGINX_WORKERS workers, serving one static file with the
  access log off, under wrk (WRK_ARGS): requests per second.

LD_PRELOAD is set on the server only, never on the client, and is checked
in the server's memory map. Everything listens on a free port of 127.0.0.1.
The setups run side by side, as the machine may be shared and noisy: one
untimed warm-up run of each, then ROUNDS rounds of one run each, the order
rotated every round (plain, ukasan; ukasan, plain; ...). Quoted: medians,
and the median over rounds of the per-round ratio ukasan / plain, over the
rounds in which both runs succeeded. CPU per request: the server's CPU time
(user + system, from /proc/PID/stat; for nginx the master and its workers)
used while the client ran, divided by the requests served.

A run fails when the server exits or is killed before or while serving,
does not answer within START_TIMEOUT, when the client fails, or for nginx
when a worker dies (its master logs "exited on signal"). Failed runs are
counted and their first reason shown, never hidden; a setup that has failed
GIVE_UP runs without a single success is not run again in that service.

The tables go to stdout and are appended to build/bench/results_services.md.
"""
import grp
import os
import platform
import pwd
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from benchlib import BASE_ENV, copy_runtime, table  # noqa: E402

BUILT_LIB = os.path.join(ROOT, "build", "lib", "libukasan.so")
OUT = os.path.join(ROOT, "build", "bench", "services")
LIB = os.path.join(OUT, "lib", "libukasan.so")  # a copy: the build may change while this runs
RESULTS = os.path.join(ROOT, "build", "bench", "results_services.md")

ROUNDS = 7
REDIS_TESTS = ["set", "get", "lpush", "lpop"]
REDIS_REQUESTS = 100000  # per command
NGINX_WORKERS = 2
WRK_ARGS = ["-t2", "-c32", "-d5s"]
STATIC_BYTES = 4096  # the file nginx serves
START_TIMEOUT = 15  # seconds for a server to answer
CLIENT_TIMEOUT = 120  # seconds for one client run
STOP_TIMEOUT = 10  # seconds for a server to exit after SIGTERM
GIVE_UP = 3
CLK_TCK = os.sysconf("SC_CLK_TCK")

# The servers' environment is BASE_ENV; LD_PRELOAD is added for the ukasan
# setup only.
SETUPS = [("plain", {}), ("ukasan", {"LD_PRELOAD": LIB})]


class Failed(Exception):
    """A run that did not give a figure; the message says why."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def describe_exit(status):
    if status < 0:
        return f"killed by {signal.Signals(-status).name}"
    return f"exited with status {status}"


def excerpt(path):
    """What a server's log says about its end: its report or error lines
    when it has some, else its last lines."""
    try:
        with open(path, errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        lines = []
    if not lines:
        return "log empty"
    key = [l for l in lines if re.search(
        r"BUG: K|ukasan:|crashed by signal|\[(emerg|alert|crit)\]|error|fatal", l, re.I)]
    return "log: " + " | ".join(key[:4] or lines[-4:])


def proc_stat(pid):
    """(ppid, utime + stime, cutime + cstime) in seconds, or None once gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(rest[1]), (int(rest[11]) + int(rest[12])) / CLK_TCK,
            (int(rest[13]) + int(rest[14])) / CLK_TCK)


def tree_cpu(pid):
    """CPU seconds of pid and its live descendants (nginx's workers), and of
    the children it has reaped."""
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = proc_stat(int(name))
            if s:
                stats[int(name)] = s
    if pid not in stats:
        return None
    total, todo = stats[pid][2], [pid]
    while todo:
        p = todo.pop()
        total += stats[p][1]
        todo += [c for c, s in stats.items() if s[0] == p]
    return total


def preloaded(pid):
    try:
        with open(f"/proc/{pid}/maps") as f:
            return "libukasan.so" in f.read()
    except OSError:
        return False


class Server:
    """A server process in its own process group, stopped on exit."""

    def __init__(self, argv, extra_env, log, ready):
        self.log = log
        # Appending: nginx writes its error log to the same file.
        self.errfile = open(log, "ab")
        self.proc = subprocess.Popen(argv, env={**BASE_ENV, **extra_env}, stdin=subprocess.DEVNULL,
                                     stdout=self.errfile, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            name = os.path.basename(argv[0])
            while not ready():
                if self.proc.poll() is not None:
                    raise Failed(f"{name} {describe_exit(self.proc.returncode)} before "
                                 f"answering; {excerpt(log)}")
                if time.monotonic() > deadline:
                    raise Failed(f"{name} did not answer within {START_TIMEOUT} s; "
                                 f"{excerpt(log)}")
                time.sleep(0.05)
            if preloaded(self.proc.pid) != ("LD_PRELOAD" in extra_env):
                raise Failed("libukasan.so is " + ("not " if extra_env else "") +
                             "in the server's memory map")
        except BaseException:
            self.stop()
            raise

    def check(self, what):
        if self.proc.poll() is not None:
            raise Failed(f"server {describe_exit(self.proc.returncode)} {what}; "
                         f"{excerpt(self.log)}")

    def client(self, argv):
        """Runs a client to its end, or until the server dies. Its stdout."""
        out = os.path.join(OUT, "client.out")
        with open(out, "wb") as f:
            c = subprocess.Popen(argv, env=BASE_ENV, stdin=subprocess.DEVNULL, stdout=f,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + CLIENT_TIMEOUT
        try:
            while c.poll() is None:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            if c.poll() is None:
                os.killpg(c.pid, signal.SIGKILL)
                c.wait()
        self.check(f"while {os.path.basename(argv[0])} ran")
        with open(out, errors="replace") as f:
            text = f.read()
        if c.returncode != 0:
            why = "timed out" if time.monotonic() > deadline else describe_exit(c.returncode)
            raise Failed(f"{os.path.basename(argv[0])} {why}: {text[-500:].strip()}")
        return text

    def cpu(self):
        t = tree_cpu(self.proc.pid)
        if t is None:
            self.check("while measured")
        return t

    def stop(self):
        try:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    pass
            # The whole group: nginx's workers, should the master be gone.
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        finally:
            self.errfile.close()


# --- redis -----------------------------------------------------------------

def answers(port, request, reply):
    """Whether a server on port answers request with a reply that starts so."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(request)
            return s.recv(64).startswith(reply)
    except OSError:
        return False


def redis_ping(port):
    return answers(port, b"PING\r\n", b"+PONG")


def run_redis(extra_env, tmp):
    """{command: (requests per second, server CPU seconds per request)}."""
    port = free_port()
    server = Server(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no", "--daemonize", "no",
                     "--dir", tmp, "--logfile", ""],
                    extra_env, os.path.join(tmp, "redis.log"), lambda: redis_ping(port))
    try:
        out = {}
        for test in REDIS_TESTS:
            before = server.cpu()
            text = server.client(["redis-benchmark", "-h", "127.0.0.1", "-p", str(port),
                                  "-n", str(REDIS_REQUESTS), "-t", test, "-P", "1", "--csv"])
            after = server.cpu()
            m = re.search(r'^"%s","([\d.]+)"' % test.upper(), text, re.M)
            if not m:
                raise Failed(f"no {test.upper()} figure from redis-benchmark: {text[-300:]}")
            out[test.upper()] = (float(m.group(1)), (after - before) / REDIS_REQUESTS)
        server.check("after the benchmark")
        return out, server.log
    finally:
        server.stop()


# --- nginx -----------------------------------------------------------------

def nginx_conf(tmp, port):
    user = ""
    if os.geteuid() == 0:
        # Workers would otherwise switch to nobody, who cannot read our files.
        user = (f"user {pwd.getpwuid(os.geteuid()).pw_name} "
                f"{grp.getgrgid(os.getegid()).gr_name};")
    temps = "\n".join(f"    {k}_temp_path {tmp}/{k};"
                      for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""{user}
daemon off;
master_process on;
worker_processes {NGINX_WORKERS};
pid {tmp}/nginx.pid;
error_log {tmp}/error.log notice;
events {{ worker_connections 1024; }}
http {{
    access_log off;
{temps}
    server {{
        listen 127.0.0.1:{port};
        root {tmp}/html;
        location / {{ }}
    }}
}}
"""


def http_ok(port):
    return answers(port, b"GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n", b"HTTP/1.1 200")


def run_nginx(extra_env, tmp):
    """{'GET 4 KiB': (requests per second, server CPU seconds per request)}."""
    port = free_port()
    os.makedirs(os.path.join(tmp, "html"), exist_ok=True)
    with open(os.path.join(tmp, "html", "index.html"), "wb") as f:
        f.write(bytes(b"ukasan bench\n" * (STATIC_BYTES // 13 + 1))[:STATIC_BYTES])
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as f:
        f.write(nginx_conf(tmp, port))
    log = os.path.join(tmp, "error.log")
    server = Server(["nginx", "-p", tmp, "-c", conf, "-e", log], extra_env, log,
                    lambda: http_ok(port))
    try:
        before = server.cpu()
        text = server.client(["wrk", *WRK_ARGS, f"http://127.0.0.1:{port}/index.html"])
        after = server.cpu()
        with open(log, errors="replace") as f:
            died = [l.strip() for l in f if "exited on signal" in l]
        if died:
            raise Failed(f"nginx worker died: {died[0]}")
        rps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
        total = re.search(r"^\s*(\d+) requests in", text, re.M)
        if not rps or not total:
            raise Failed(f"no figure from wrk: {text[-300:]}")
        bad = re.search(r"^\s*(Socket errors:.*|Non-2xx or 3xx responses:.*)$", text, re.M)
        if bad:
            raise Failed(f"wrk: {bad.group(1)}")
        server.check("after the benchmark")
        return {f"GET {STATIC_BYTES // 1024} KiB file": (
            float(rps.group(1)), (after - before) / int(total.group(1)))}, log
    finally:
        server.stop()


# --- the runs --------------------------------------------------------------

class Setup:
    def __init__(self, name, env):
        self.name, self.env = name, env
        self.runs = {}  # round -> {test: (rps, cpu per request)}
        self.failures = []  # (round or 'warm-up', reason)
        self.bugs = 0  # runs whose server log has a KFENCE report
        self.guarded = None  # from kfence.stats, summed over processes

    def given_up(self):
        return not self.runs and len(self.failures) >= GIVE_UP


def one_run(service, setup, label):
    if setup.given_up():
        return
    tmp = tempfile.mkdtemp(prefix=f"{service.__name__}-", dir=OUT)
    try:
        result, log = service(setup.env, tmp)
        with open(log, errors="replace") as f:
            text = f.read()
        setup.bugs += "BUG: KFENCE" in text
        counts = re.findall(r"^total allocations: (\d+)$", text, re.M)
        if counts:
            setup.guarded = sum(int(n) for n in counts)
        if label != "warm-up":
            setup.runs[label] = result
    except Failed as e:
        setup.failures.append((label, str(e)))
        print(f"  {setup.name} run {label}: FAILED: {e}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(service, rounds):
    setups = [Setup(n, e) for n, e in SETUPS]
    for s in setups:
        one_run(service, s, "warm-up")
    for r in range(rounds):
        for i in range(len(setups)):
            one_run(service, setups[(r + i) % len(setups)], r)
    # How much KFENCE had to do: an extra, untimed run that prints its
    # counters at exit (every process: nginx's workers too).
    uk = setups[-1]
    if uk.runs:
        stats = Setup("stats", {**uk.env, "UKASAN_OPTIONS": "kfence.stats=1"})
        one_run(service, stats, "warm-up")
        uk.guarded = stats.guarded
    return setups


def fmt(x, digits):
    return "-" if x is None else f"{x:.{digits}f}"


def med(xs):
    return statistics.median(xs) if xs else None


def rows_for(name, setups):
    plain, uk = setups
    tests = []
    for s in setups:
        for res in s.runs.values():
            tests += [t for t in res if t not in tests]
    rows = []
    for t in tests:
        both = [r for r in plain.runs if r in uk.runs]
        rps = [med([s.runs[r][t][0] for r in s.runs]) for s in setups]
        cpu = [med([s.runs[r][t][1] * 1e6 for r in s.runs]) for s in setups]
        ratios = [uk.runs[r][t][0] / plain.runs[r][t][0] for r in both]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-"
        cpu_ratio = med([uk.runs[r][t][1] / plain.runs[r][t][1] for r in both
                         if plain.runs[r][t][1] > 0])
        rows.append([name if t == tests[0] else "", t,
                     f"{len(plain.runs)}/{len(uk.runs)}", len(both),
                     fmt(rps[0], 0), fmt(rps[1], 0), fmt(med(ratios), 3), spread,
                     fmt(cpu[0], 2), fmt(cpu[1], 2), fmt(cpu_ratio, 3)])
    if not tests:
        rows.append([name, "(no run succeeded)", "0/0", 0, "-", "-", "-", "-", "-", "-", "-"])
    return rows


def failure_lines(name, setups):
    lines = []
    for s in setups:
        if s.failures:
            label, why = s.failures[0]
            more = " (then not run again: never succeeded)" if s.given_up() else ""
            lines.append(f"- {name}, {s.name}: {len(s.failures)} failed run(s){more}; "
                         f"first (run {label}): {why}")
        if s.bugs:
            lines.append(f"- {name}, {s.name}: {s.bugs} run(s) with a KFENCE report in the "
                         f"server's log.")
        if s.guarded is not None:
            lines.append(f"- {name}, {s.name}: KFENCE guarded {s.guarded} allocations in an "
                         f"extra run with kfence.stats=1 (summed over the server's processes).")
    return lines


def version(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return (r.stdout + r.stderr).strip().split("\n")[0]


def main():
    global ROUNDS
    args, only = sys.argv[1:], None
    while args:
        if args[0] == "--rounds" and len(args) > 1 and args[1].isdigit():
            ROUNDS, args = max(1, int(args[1])), args[2:]
        elif args[0] == "--only" and len(args) > 1 and args[1] in ("redis", "nginx"):
            only, args = args[1], args[2:]
        else:
            sys.exit("usage: run_services.py [--rounds N] [--only redis|nginx]")
    if not os.path.exists(BUILT_LIB):
        sys.exit(f"{BUILT_LIB} not found: run make first")
    os.makedirs(OUT, exist_ok=True)
    copy_runtime(os.path.join(ROOT, "build"), OUT, ("lib/libukasan.so",))

    services = [
        ("redis", ["redis-server", "redis-benchmark"], run_redis, ["redis-server", "--version"],
         f"redis: redis-benchmark -n {REDIS_REQUESTS} -P 1 (50 clients), one run per "
         f"command, against a fresh redis-server --save '' --appendonly no."),
        ("nginx", ["nginx", "wrk"], run_nginx, ["nginx", "-v"],
         f"nginx: {NGINX_WORKERS} workers, access_log off, one {STATIC_BYTES}-byte file, "
         f"wrk {' '.join(WRK_ARGS)}."),
    ]
    report, missing = [], []
    start, load = time.time(), os.getloadavg()
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "include"],
                      capture_output=True, text=True).stdout.strip():
        head += " (src/ has uncommitted changes)"
    rows, fails, versions, whats = [], [], [], []
    for name, exes, service, ver, what in services:
        if only and name != only:
            continue
        if not all(shutil.which(e) for e in exes):
            missing.append(name)
            continue
        print(f"{name}: {ROUNDS} rounds", flush=True)
        setups = measure(service, ROUNDS)
        rows += rows_for(name, setups)
        fails += failure_lines(name, setups)
        versions.append(version(ver))
        whats.append(what)

    report.append(f"## Services (bench/run_services.py), {time.strftime('%Y-%m-%d %H:%M')}")
    report.append("")
    report.append(
        f"Commit {head}; libukasan.so copied from build/lib at start, preloaded into the "
        f"server only, default options. {os.cpu_count()} CPUs (client and server share "
        f"them), Linux {platform.release()}; {'; '.join(versions)}; load average at start "
        f"{' '.join(f'{x:.2f}' for x in load)}, at end "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.time() - start:.0f} s.")
    report.append("")
    report.append(
        f"{' '.join(whats)} Warm-up run of each setup, then {ROUNDS} rounds, order "
        f"rotated. Runs ok: plain/ukasan runs that succeeded; Paired: rounds where both "
        f"did, over which the ratios are taken (median of ukasan / plain in the same "
        f"round: below 1 for throughput means ukasan is slower; the range: the lowest and "
        f"highest single round). CPU: server CPU time (user + system, all its processes) "
        f"per request, microseconds, median.")
    report.append("")
    report.append(table(["Service", "Test", "Runs ok", "Paired", "Plain req/s",
                         "ukasan req/s", "Req/s ratio", "Ratio range", "Plain CPU us/req",
                         "ukasan CPU us/req", "CPU/req ratio"], rows))
    report.append("")
    if fails:
        report.append("Notes, failures and reports:")
        report.append("")
        report += fails
        report.append("")
    if missing:
        report.append(f"Not measured (not installed: run `sh tools/deps.sh bench`): "
                      f"{', '.join(missing)}.")
        report.append("")
    text = "\n".join(report)
    print(text, flush=True)
    with open(RESULTS, "a") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
