#!/usr/bin/env python3
"""The fleet pipeline of docs/integration.md, on this machine, from existing engines only:
programs with planted bugs (tests/tools/_report_bugs.c, built three ways:
ukasan-cc with gcc and with clang, and plain under the KFENCE preload) run
as N processes on two "machines", each a private rsyslogd with
deploy/rsyslog/ukasan-forward.conf that the processes' syslog sink
(ukasan.log_sink=syslog, report_format=json) writes to; both forward over
TCP on 127.0.0.1 to a collector rsyslogd with deploy/rsyslog/
ukasan-pgsql.conf, which inserts each JSON line into a private PostgreSQL
(deploy/postgres/schema.sql, unix socket only). deploy/postgres/bugs.sql,
grouped by signature, must return exactly the K planted bugs with the
number of processes that hit each, from the hosts that ran them. Nothing
here touches the system's syslog or database. Skipped, saying what is
missing, without rsyslog's PostgreSQL module or PostgreSQL."""
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
TEST_TMP = os.path.abspath(os.environ.get("UKASAN_TEST_TMP", "/tmp"))
T = os.path.join(TEST_TMP, "fleet")
PG_BIN = "/usr/lib/postgresql/15/bin"
SRC = os.path.join(ROOT, "tests/tools/_report_bugs.c")
FLAGS = ["-g", "-O1", "-fno-omit-frame-pointer", "-fno-optimize-sibling-calls"]
NAME = "fleet pipeline"

# (program, bug, machine, processes): K = 4 bugs; the heap overflow runs on
# both machines, so one bug's group holds reports of two hosts.
PLAN = [
    ("fleet_gcc", "heap_oob", "machine-a", 3),
    ("fleet_gcc", "heap_oob", "machine-b", 2),
    ("fleet_gcc", "uaf", "machine-a", 3),
    ("fleet_clang", "double_free", "machine-b", 4),
    ("fleet_kfence", "invalid_free", "machine-a", 2),
]
# bug type, processes, hosts: what each group must be
WANT = sorted([("slab-out-of-bounds", 5, 2), ("slab-use-after-free", 3, 1),
               ("double-free", 4, 1), ("invalid-free", 2, 1)])


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + NAME + ": " + name + ("" if good else " - " + why))
    sys.stdout.flush()
    return good


def skip(why):
    print("ok %s: K bugs into K rows # skipped: %s" % (NAME, why))
    sys.exit(0)


def missing():
    if os.getuid() != 0:
        return "PostgreSQL is run as user postgres, which needs root"
    if not shutil.which("rsyslogd"):
        return "rsyslogd not installed (Debian package rsyslog; tools/deps.sh test)"
    if not glob.glob("/usr/lib/*/rsyslog/ompgsql.so") + glob.glob("/usr/lib/rsyslog/ompgsql.so"):
        return "rsyslog's ompgsql module not installed (Debian package rsyslog-pgsql)"
    for n in ("initdb", "postgres", "pg_ctl"):
        if not os.access(os.path.join(PG_BIN, n), os.X_OK):
            return "%s/%s missing (Debian package postgresql-15)" % (PG_BIN, n)
    if not shutil.which("psql"):
        return "psql missing (Debian package postgresql-client-15)"
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "no user postgres (Debian package postgresql-15 makes it)"
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_for(what, cond, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.1)
    return False


def clean_env(extra):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "ASAN_OPTIONS"):
        env.pop(k, None)
    env.update(extra)
    return env


class Pipeline:
    def __init__(self):
        self.daemons = []
        self.pg_data = os.path.join(T, "pg", "data")
        self.pg_sock = os.path.join(T, "pgsock")
        if len(self.pg_sock) > 60:  # rsyslog's ompgsql takes a host of 64 bytes at most
            self.pg_sock = tempfile.mkdtemp(prefix="ukasan-pg-")
        self.pg_started = False

    def psql(self, *args, sql=None):
        return subprocess.run(["psql", "-h", self.pg_sock, "-U", "postgres", "-d", "postgres", "-X",
                               "-v", "ON_ERROR_STOP=1", "-At", "-F", "|"] + list(args),
                              input=sql, capture_output=True, text=True, timeout=30)

    def start_postgres(self):
        os.makedirs(os.path.join(T, "pg"))
        os.makedirs(self.pg_sock, exist_ok=True)
        for d in (os.path.join(T, "pg"), self.pg_sock):
            shutil.chown(d, "postgres", "postgres")
        r = subprocess.run([os.path.join(PG_BIN, "initdb"), "-D", self.pg_data, "-U", "postgres",
                            "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
                           user="postgres", cwd=T, capture_output=True, text=True, timeout=120)
        if not ok("initdb", r.returncode == 0, r.stderr[-300:]):
            return False
        # No TCP: the socket directory only.
        r = subprocess.run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.pg_data, "-l",
                            os.path.join(T, "pg", "log"), "-w", "-t", "60", "-o",
                            "-k %s -c listen_addresses= -c fsync=off" % self.pg_sock, "start"],
                           user="postgres", cwd=T, capture_output=True, text=True, timeout=90)
        self.pg_started = r.returncode == 0
        if not ok("PostgreSQL starts", self.pg_started, r.stdout[-300:] + r.stderr[-300:]):
            return False
        r = self.psql("-f", os.path.join(ROOT, "deploy/postgres/schema.sql"))
        return ok("schema.sql", r.returncode == 0, r.stderr[-300:])

    def rsyslogd(self, name, conf, env):
        out = open(os.path.join(T, name + ".log"), "w")
        p = subprocess.Popen(["rsyslogd", "-n", "-f", os.path.join(ROOT, "deploy/rsyslog", conf),
                              "-i", os.path.join(T, name + ".pid")],
                             env=clean_env(env), stdout=out, stderr=subprocess.STDOUT, cwd=T)
        self.daemons.append(p)
        return p

    def stop(self):
        for p in self.daemons:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
        if self.pg_started:
            subprocess.run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.pg_data, "-m", "fast", "-w",
                            "stop"], user="postgres", cwd=T, capture_output=True, timeout=60)
        if not self.pg_sock.startswith(T + os.sep):
            shutil.rmtree(self.pg_sock, ignore_errors=True)


def build():
    exes = {}
    cc = os.path.join(BUILD, "bin", "ukasan-cc")
    for name, cmd, env in (("fleet_gcc", [cc], {"UKASAN_CC": "gcc"}),
                           ("fleet_clang", [cc], {"UKASAN_CC": "clang-16"}),
                           ("fleet_kfence", ["gcc"], {})):
        out = os.path.join(T, name)
        r = subprocess.run(cmd + FLAGS + ["-o", out, SRC], env=clean_env(env), capture_output=True,
                           text=True)
        if not ok("build " + name, r.returncode == 0, r.stderr[-300:]):
            return None
        exes[name] = out
    return exes


def main():
    why = missing()
    if why:
        skip(why)
    shutil.rmtree(T, ignore_errors=True)
    os.makedirs(T)
    # user postgres walks down to its directories: every directory above
    # them that is ours and closed to others (the runner's temporary
    # directories, a level or two above UKASAN_TEST_TMP) lets it pass.
    d = T
    while True:
        st = os.stat(d)
        if st.st_uid == os.getuid() and not st.st_mode & 0o001:
            os.chmod(d, st.st_mode | 0o011)
        if d == os.path.dirname(d):
            break
        d = os.path.dirname(d)
    exes = build()
    if not exes:
        return
    pipe = Pipeline()
    try:
        if not pipe.start_postgres():
            return
        port = free_port()
        common = {"UKASAN_COLLECTOR_ADDRESS": "127.0.0.1", "UKASAN_COLLECTOR_PORT": str(port)}
        collector = dict(common, UKASAN_SYSLOG_SOCKET=os.path.join(T, "collector.sock"),
                         UKASAN_PG_HOST=pipe.pg_sock, UKASAN_PG_DB="postgres",
                         UKASAN_PG_USER="postgres", UKASAN_PG_PASSWORD="")
        c = pipe.rsyslogd("collector", "ukasan-pgsql.conf", collector)

        def listening():
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return True
            except OSError:
                return False
        if not ok("the collector rsyslogd listens", wait_for("collector", listening) and c.poll() is None,
                  open(os.path.join(T, "collector.log")).read()[-400:]):
            return
        socks = {}
        for m in ("machine-a", "machine-b"):
            socks[m] = os.path.join(T, m + ".sock")
            pipe.rsyslogd(m, "ukasan-forward.conf",
                          dict(common, UKASAN_SYSLOG_SOCKET=socks[m], UKASAN_HOSTNAME=m))
        if not ok("the machines' rsyslogd make their sockets",
                  wait_for("sockets", lambda: all(os.path.exists(s) for s in socks.values())),
                  "no socket in %s" % T):
            return
        n = 0
        bad = []
        for prog, bug, machine, count in PLAN:
            opts = "ukasan.log_sink=syslog ukasan.syslog_path=%s ukasan.report_format=json" % socks[machine]
            env = {"UKASAN_OPTIONS": opts}
            if prog == "fleet_kfence":
                env = {"UKASAN_OPTIONS": opts + " kfence.sample_rate=1",
                       "LD_PRELOAD": os.path.join(BUILD, "lib", "libukasan.so")}
            for _ in range(count):
                r = subprocess.run([exes[prog], bug], env=clean_env(env), capture_output=True,
                                   text=True, timeout=60)
                n += 1
                if "{" in r.stderr:
                    bad.append("%s %s: JSON on stderr, not in syslog" % (prog, bug))
        ok("%d processes report to syslog, nothing on stderr" % n, not bad, "; ".join(bad[:3]))

        def rows():
            r = pipe.psql("-c", "SELECT count(*) FROM ukasan_reports")
            return r.returncode == 0 and r.stdout.strip() == str(n)
        arrived = wait_for("rows", rows, 30)
        r = pipe.psql("-c", "SELECT count(*) FROM ukasan_reports")
        ok("all %d reports reach PostgreSQL" % n, arrived,
           "rows: %s; collector log: %s" % (r.stdout.strip(),
                                            open(os.path.join(T, "collector.log")).read()[-300:]))
        with open(os.path.join(ROOT, "deploy/postgres/bugs.sql")) as f:
            r = pipe.psql(sql=f.read())
        if not ok("bugs.sql runs", r.returncode == 0, r.stderr[-300:]):
            return
        groups = [l.split("|") for l in r.stdout.splitlines() if l]
        got = sorted((g[1], int(g[2]), int(g[3])) for g in groups)
        ok("grouped by signature: exactly %d rows, one per planted bug, with its count and hosts"
           % len(WANT), got == WANT, "got %r, expected %r" % (got, WANT))
        tops = sorted(g[8] for g in groups)
        ok("each group's top frame is its planted function",
           tops == sorted(["bug_heap_oob", "bug_uaf", "bug_double_free", "bug_invalid_free"]),
           "top frames %r" % tops)
    finally:
        pipe.stop()


main()
