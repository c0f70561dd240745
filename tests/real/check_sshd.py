#!/usr/bin/env python3
"""OpenSSH's sshd, a sandboxed daemon, keeps working under the KFENCE preload.

sshd (Debian's openssh-server, 9.2) runs as a server of our own, never the
system's service: /usr/sbin/sshd -D -e on 127.0.0.1 and a free port, with a
configuration, an ed25519 host key and an authorized_keys (a client key
generated here) in the tmp dir: UsePAM no, PermitRootLogin
prohibit-password, StrictModes no, PidFile none. It runs as root (privilege
separation needs it; when not root, the lines say "skipped").

What makes sshd a hard case for a preloaded runtime: for every connection
the listener forks a child that re-executes sshd (the environment, and so
LD_PRELOAD and UKASAN_OPTIONS, passes through), and that process (the
monitor) forks the pre-authentication child, which is as locked down as a
process gets: chroot to /run/sshd, an unprivileged user, RLIMIT_FSIZE=0
(any write to a regular file is SIGXFSZ), RLIMIT_NOFILE=1, RLIMIT_NPROC=0
and a seccomp filter that kills it with SIGSYS on a system call not in
sshd's list (fcntl is not; open and openat fail with EACCES). It exits
with exit(0) after the authentication, so the runtime's exit work
(kfence.stats) runs inside that sandbox. sshd (and ssh) also close every
descriptor from 3 up (closefrom) at start, so a log file descriptor opened
by the runtime before main() is gone and its number reused by sshd's own
sockets. For root the session is the monitor itself (OpenSSH skips the
post-authentication privilege separation for uid 0), and it ends, like
every sshd session, through cleanup_exit(), i.e. _exit(255) after
"Disconnected from user ...": no exit handler runs there, so it prints no
statistics, and is not asked to.

The lines:

* "sshd baseline (no preload)": the same login without the preload, so that
  an environment problem is not blamed on ukasan (every other line says
  "fails without the preload" then);
* "sshd sandbox is seccomp": during the baseline, a connection held open in
  its key exchange and the "sshd: [net]" pre-authentication child read from
  /proc: Seccomp: 2 (a filter), NoNewPrivs: 1, its root /run/sshd or
  /var/empty, and a max file size of 0, i.e. the sandbox the preloaded runs
  meet really is the seccomp one;
* then three settings, with libukasan.so preloaded into sshd (LD_PRELOAD
  and UKASAN_OPTIONS in its environment) and into the client
  (ssh -i KEY -o BatchMode=yes ... root@127.0.0.1 echo login-ok):
  "default" (UKASAN_OPTIONS empty), "kfence.stats=1", and "log_path"
  (kfence.stats=1 ukasan.log_path=TMP/uk, so that the logs have content).
  Each has a "login" line: ssh exits 0 and prints exactly "login-ok\\n"
  (nothing of ukasan's reached the connection), sshd's /proc/PID/maps
  shows libukasan.so, and neither sshd's stderr nor the client's has a
  "BUG:" line, another "ukasan:" message than the statistics header, or a
  sign of a killed or failed child (sshd logs "privsep_preauth: preauth
  child terminated by signal 31" for a SIGSYS from the seccomp filter,
  "... signal 25" for SIGXFSZ, "preauth child exited with status N",
  "Killing privsep child", "error: ", "fatal: ", "Connection closed by
  ..." for a login that failed part way).
  sshd's stderr is a pipe, copied to a file by this script: with a regular
  file there, the preauth child could not write a byte to stderr
  (RLIMIT_FSIZE=0); in production it is a socket or /dev/null.
  "kfence.stats=1" has a "statistics" line: the statistics
  ("ukasan: kfence statistics of pid N:") of the listener (printed at its
  SIGTERM exit) and of the pre-authentication child are in sshd's stderr,
  and the client's in the client's stderr. sshd runs with LogLevel DEBUG2
  so that its log names the connection's pids ("Forked child N." for the
  monitor, "Network child is on pid N" for the preauth child).
  "log_path" has a "statistics" line (the listener's and the client's each
  in its own uk.PID file; the preauth child's in uk.PID or, since it cannot
  create a file, in sshd's stderr; no other ukasan text in sshd's stderr
  or the client's) and a "log files" line: the tmp dir holds only uk.PID
  files, none of them empty (a process that has nothing to say, such as
  the session that ends with _exit, must leave no file).

The listener is stopped with SIGTERM once the connection's processes are
gone, and everything sshd started gets SIGKILL at the end in any case.
Every process has a timeout; the whole check takes about 3 s.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

from _proc import Failed, descendants, kill_tree, log, notok, ok, run, status_text

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
TEST_TMP = os.environ.get("UKASAN_TEST_TMP") or "/tmp"
TMP = os.path.join(TEST_TMP, "sshd")
SSHD = "/usr/sbin/sshd"
PRIVSEP_DIR = "/run/sshd"
CLIENT_TIMEOUT = 20
START_TIMEOUT = 10

STATS_HEADER = re.compile(r"ukasan: (kfence|kasan) statistics of pid (\d+):\s*$", re.M)
# sshd's own words for a child that did not end well (OpenSSH 9.2, log.c
# prefixes "error: " and "fatal: " to those levels).
CHILD_TROUBLE = re.compile(
    r"terminated by signal|exited with status [1-9]|exited on signal|Exiting on signal|killed by signal"
    r"|ssh_sandbox_violation|Killing privsep child|^error: |^fatal: |Connection closed by"
    r"|Connection reset by|Timeout before authentication|^Disconnected from .*\[preauth\]$",
    re.M)

SETTINGS = [
    ("default", "", False),
    ("kfence.stats=1", "kfence.stats=1", False),
    ("log_path", "kfence.stats=1 ukasan.log_path={tmp}/uk", True),
]


def line_names():
    names = ["sshd baseline (no preload)", "sshd sandbox is seccomp"]
    for label, _, _ in SETTINGS:
        names.append(f"sshd [{label}] login")
        if label != "default":
            names.append(f"sshd [{label}] statistics")
        if label == "log_path":
            names.append(f"sshd [{label}] log files")
    return names


# ---------------------------------------------------------------- processes

def text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else b


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace").replace("\r\n", "\n")  # sshd -e: \r\n
    except OSError:
        return ""


def tail(t, n=300):
    return repr(text(t).strip()[-n:])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env(home):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "MAKEFLAGS", "SSH_AUTH_SOCK", "SSH_AGENT_PID"):
        env.pop(k, None)
    env.update(LC_ALL="C", LANG="C", TZ="UTC", HOME=home, TMPDIR=home)
    return env


def preload_env(env, options):
    env = dict(env)
    if options is not None:
        env["LD_PRELOAD"] = LIB
        env["UKASAN_OPTIONS"] = options
    return env


def reports(t):
    """BUG: lines and ukasan's messages other than the statistics header."""
    out = []
    for l in text(t).splitlines():
        if "BUG:" in l or ("ukasan:" in l and not STATS_HEADER.search(l)):
            out.append(l)
    return out


def check_reports(where, t):
    bad = reports(t)
    if bad:
        more = f" (+{len(bad) - 1} such lines)" if len(bad) > 1 else ""
        raise Failed(f"{where} has {bad[0][:200]!r}{more}")


# ---------------------------------------------------------------- sshd

class Setup:
    """The keys and configuration, made once."""

    def __init__(self):
        if os.path.isdir(TMP):
            shutil.rmtree(TMP)
        os.makedirs(TMP)
        self.home = os.path.join(TMP, "home")
        os.makedirs(self.home)
        self.env = base_env(self.home)
        self.hostkey = os.path.join(TMP, "hostkey")
        self.clientkey = os.path.join(TMP, "clientkey")
        for key in (self.hostkey, self.clientkey):
            s, out, err = run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key],
                              self.env, 20)
            if s != 0:
                raise Failed(f"ssh-keygen: {status_text(s)}: {tail(err)}")
        self.authorized = os.path.join(TMP, "authorized_keys")
        shutil.copy(self.clientkey + ".pub", self.authorized)
        self.config = os.path.join(TMP, "sshd_config")
        with open(self.config, "w") as f:
            f.write(f"""ListenAddress 127.0.0.1
UsePAM no
PermitRootLogin prohibit-password
AuthorizedKeysFile {self.authorized}
StrictModes no
PidFile none
PasswordAuthentication no
KbdInteractiveAuthentication no
PrintMotd no
PrintLastLog no
# The pids of the connection's processes: "Forked child N." (the monitor,
# re-executed sshd) and "Network child is on pid N" (the preauth child).
LogLevel DEBUG2
""")
        if not os.path.isdir(PRIVSEP_DIR):  # sshd's privsep chroot, made by its service
            os.makedirs(PRIVSEP_DIR, mode=0o755)
            os.chmod(PRIVSEP_DIR, 0o755)


class Server:
    def __init__(self, setup, env, errfile):
        self.setup = setup
        self.port = free_port()
        self.errfile = errfile
        # sshd's stderr is a pipe, copied to the file by a thread: with a
        # regular file there, any write of the preauth child to stderr
        # (ukasan's statistics) would be SIGXFSZ (RLIMIT_FSIZE=0), which
        # sshd in production (stderr a socket or /dev/null) never meets.
        self.err = open(errfile, "wb")
        self.proc = subprocess.Popen(
            [SSHD, "-D", "-e", "-p", str(self.port), "-f", setup.config, "-h", setup.hostkey],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.copier = threading.Thread(target=self.copy, daemon=True)
        self.copier.start()
        deadline = time.time() + START_TIMEOUT
        while True:
            if "Server listening on" in read(errfile):  # printed after listen()
                break
            if self.proc.poll() is not None:
                raise Failed(f"sshd exited ({status_text(self.proc.returncode)}) at start: {tail(read(errfile))}")
            if time.time() > deadline:
                raise Failed(f"sshd not listening after {START_TIMEOUT}s: {tail(read(errfile))}")
            time.sleep(0.05)

    def copy(self):
        fd = self.proc.stdout.fileno()
        while True:
            try:
                b = os.read(fd, 65536)
            except OSError:
                break
            if not b:
                break
            self.err.write(b)
            self.err.flush()

    def login(self, env, pids=None):
        s = self.setup
        cmd = ["ssh", "-F", "/dev/null", "-i", s.clientkey, "-o", "StrictHostKeyChecking=no",
               "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
               "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR", "-p", str(self.port), "root@127.0.0.1", "echo login-ok"]
        return run(cmd, env, CLIENT_TIMEOUT, pids=pids)

    def stop(self):
        """SIGTERM to the listener once the connection's processes are gone
        (the monitor may still be finishing after the client's exit): it
        prints its own statistics at that exit. Then SIGKILL to whatever is
        left. Returns sshd's stderr."""
        p = self.proc
        try:
            deadline = time.time() + 5
            while descendants(p.pid) and time.time() < deadline:
                time.sleep(0.05)
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            kill_tree(p)
            self.copier.join(timeout=5)  # EOF once every holder of the pipe is gone
            self.proc.stdout.close()
            self.err.close()
        return read(self.errfile)

    def connection_pids(self, err):
        """(monitor, preauth child) from sshd's debug log."""
        m = re.search(r"Forked child (\d+)\.", err)
        n = re.search(r"Network child is on pid (\d+)", err)
        return (int(m.group(1)) if m else None), (int(n.group(1)) if n else None)


def check_login(status, out, cerr, err, server_pid, where=""):
    if status != 0 or out != b"login-ok\n":
        trouble = CHILD_TROUBLE.findall(err)
        why = [m.group(0) for m in re.finditer(r"^.*(terminated by signal|exited with status|Killing privsep"
                                               r"|^fatal|^error).*$", err, re.M)]
        raise Failed(f"ssh: {status_text(status)}, stdout {tail(out, 100)}, stderr {tail(strip_debug(cerr), 200)}"
                     + (f"; sshd: {' | '.join(why[:3])}" if why else (f"; sshd: {trouble[:3]}" if trouble else ""))
                     + f"; sshd's log ends {tail(strip_debug(err), 300)}")
    m = CHILD_TROUBLE.search(err)
    if m:
        line = err[err.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0]
        raise Failed(f"sshd's log has {line[:200]!r}")


STATS_LINE = re.compile(r"^[a-z][a-z ()]*: \d+$")


def strip_debug(err):
    """Without sshd's debug lines and ukasan's statistics (for messages)."""
    out, in_stats = [], False
    for l in text(err).splitlines():
        if STATS_HEADER.search(l):
            in_stats = True
            continue
        if in_stats and STATS_LINE.match(l):
            continue
        in_stats = False
        if not l.startswith("debug"):
            out.append(l)
    return "\n".join(out)


def stats_pids(t):
    return {int(m.group(2)) for m in STATS_HEADER.finditer(text(t))}


# ---------------------------------------------------------------- the checks

def seccomp_probe(server):
    """A connection held in its key exchange; the preauth child's sandbox
    read from /proc."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"SSH-2.0-ukasan_probe\r\n")
        banner = s.recv(256)
        if not banner.startswith(b"SSH-2.0-"):
            raise Failed(f"banner {banner[:100]!r}")
        deadline = time.time() + 10
        while time.time() < deadline:
            for pid in descendants(server.proc.pid):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        title = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
                    if not title.startswith("sshd: [net]"):
                        continue
                    status = read(f"/proc/{pid}/status")
                    limits = read(f"/proc/{pid}/limits")
                    root = os.readlink(f"/proc/{pid}/root")
                except OSError:
                    continue
                fields = dict(re.findall(r"^(\w+):\s*(\S+)", status, re.M))
                fsize = re.search(r"^Max file size\s+(\S+)", limits, re.M)
                got = (f"pid {pid} {title!r}: Seccomp {fields.get('Seccomp')}, NoNewPrivs {fields.get('NoNewPrivs')}, "
                       f"root {root}, max file size {fsize.group(1) if fsize else '?'}")
                if (fields.get("Seccomp") == "2" and fields.get("NoNewPrivs") == "1"
                        and root in (PRIVSEP_DIR, "/var/empty") and fsize and fsize.group(1) == "0"):
                    return got
                raise Failed(f"not the seccomp sandbox: {got}")
            time.sleep(0.02)
    raise Failed("no 'sshd: [net]' child seen in 10 s")


def baseline(setup, results):
    name_b, name_s = "sshd baseline (no preload)", "sshd sandbox is seccomp"
    server = Server(setup, setup.env, os.path.join(TMP, "baseline.sshd.err"))
    try:
        status, out, cerr = server.login(setup.env)
        time.sleep(0.1)
        err = read(server.errfile)
        try:
            check_login(status, out, cerr, err, server.proc.pid)
            results[name_b] = None
        except Failed as e:
            results[name_b] = str(e)
        try:
            results[name_s] = None
            results["seccomp"] = seccomp_probe(server)
        except (Failed, OSError) as e:
            results[name_s] = str(e)
    finally:
        server.stop()


def setting(setup, label, options, log_path):
    """Lines of one setting: name -> None (ok) or the reason; extras."""
    d = os.path.join(TMP, label.replace("=", "_").replace(".", "_"))
    os.makedirs(d)
    logdir = os.path.join(d, "logs")
    os.makedirs(logdir)
    options = options.format(tmp=logdir)
    env = preload_env(setup.env, options)
    server = Server(setup, env, os.path.join(d, "sshd.err"))
    try:
        with open(f"/proc/{server.proc.pid}/maps") as f:
            preloaded = "libukasan.so" in f.read()
        t0 = time.time()
        client = []
        status, out, cerr = server.login(env, client)
        took = time.time() - t0
    finally:
        err = server.stop()
    log(f"sshd [{label}]: login {took:.1f}s")
    monitor, preauth = server.connection_pids(err)
    want = {"listener": server.proc.pid, "preauth child": preauth, "client": client[0] if client else None}
    res = {}
    login = f"sshd [{label}] login"
    try:
        if not preloaded:
            raise Failed("libukasan.so is not in sshd's /proc/PID/maps")
        check_login(status, out, cerr, err, server.proc.pid)
        check_reports("sshd's stderr", err)
        check_reports("ssh's stderr", cerr)
        if log_path:
            # The preauth child may fall back on stderr (see the docstring).
            if stats_pids(err) - {preauth} or stats_pids(cerr):
                raise Failed("statistics in stderr although ukasan.log_path is set: "
                             + (tail(err) if stats_pids(err) - {preauth} else tail(cerr)))
        res[login] = None
    except Failed as e:
        res[login] = str(e)
    if label == "default":
        return res
    stats = f"sshd [{label}] statistics"
    try:
        if monitor is None or preauth is None:
            raise Failed(f"sshd's log does not name the connection's processes: {tail(strip_debug(err))}")
        if log_path:
            where = {}
            for f in sorted(os.listdir(logdir)):
                m = re.fullmatch(r"uk\.(\d+)", f)
                if m:
                    for pid in stats_pids(read(os.path.join(logdir, f))):
                        where.setdefault(pid, []).append(f)
            missing = [f"{k} {pid}" for k, pid in want.items() if f"uk.{pid}" not in where.get(pid, [])
                       and not (k == "preauth child" and pid in stats_pids(err))]
            if missing:
                raise Failed(f"no statistics of the {', '.join(missing)} in its uk.PID file (nor the "
                             f"preauth child's in sshd's stderr); "
                             f"files with statistics: {sorted({f for v in where.values() for f in v})}; "
                             f"sshd: {' | '.join(trouble_lines(err)[:3])}")
            extra = "preauth child's in sshd's stderr" if preauth in stats_pids(err) else "each in its uk.PID file"
        else:
            got = stats_pids(err)
            missing = [f"{k} {pid}" for k, pid in want.items() if k != "client" and pid not in got]
            if want["client"] not in stats_pids(cerr):
                missing.append(f"client {want['client']} (in its stderr)")
            if missing:
                raise Failed(f"no statistics of the {', '.join(missing)} in sshd's stderr (there: pids "
                             f"{sorted(got)}); sshd: {' | '.join(trouble_lines(err)[:3])}")
            extra = "in sshd's and ssh's stderr"
            got = got | stats_pids(cerr)
        session = (f"the session {monitor}'s too" if monitor in (got if not log_path else where)
                   else f"none of the session {monitor}, which ends with _exit")
        res[stats] = f"OK listener, preauth child, client: {extra}; {session}"
    except Failed as e:
        res[stats] = str(e)
    if log_path:
        files = f"sshd [{label}] log files"
        try:
            names = sorted(os.listdir(logdir))
            other = [n for n in names if not re.fullmatch(r"uk\.\d+", n)]
            empty = [n for n in names if n not in other and os.path.getsize(os.path.join(logdir, n)) == 0]
            if other:
                raise Failed(f"files other than uk.PID: {other[:10]}")
            if not names:
                raise Failed("no log file at all")
            if empty:
                known = {v: k for k, v in want.items() if v}
                known.setdefault(monitor, "monitor/session")
                desc = [n + (f" ({known[int(n[3:])]})" if int(n[3:]) in known else "") for n in empty]
                raise Failed(f"{len(empty)} of {len(names)} uk.PID files are empty: {', '.join(desc[:10])}")
            res[files] = None
        except Failed as e:
            res[files] = str(e)
    return res


def trouble_lines(err):
    return [l for l in err.splitlines() if CHILD_TROUBLE.search(l) and not l.startswith("debug")] or ["nothing"]


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    start = time.time()
    names = line_names()
    if os.geteuid() != 0:
        for n in names:
            ok(f"{n} (skipped: needs root for privilege separation)")
        return
    for what, path in (("sshd", SSHD), ("libukasan.so", LIB)):
        if not os.path.exists(path):
            why = (f"{path} missing (tools/deps.sh installs openssh-server)" if what == "sshd"
                   else f"{path} not built")
            for n in names:
                notok(n, why)
            return
    if not shutil.which("ssh") or not shutil.which("ssh-keygen"):
        for n in names:
            notok(n, "ssh or ssh-keygen missing (openssh-client)")
        return
    results = {}
    try:
        setup = Setup()
        baseline(setup, results)
    except (Failed, OSError) as e:
        for n in names:
            notok(n, f"setup: {e}")
        return
    base_bad = results["sshd baseline (no preload)"]
    for n in names[:2]:
        if results[n] is None:
            ok(n + (f" ({results['seccomp']})" if n.endswith("seccomp") else ""))
        else:
            notok(n, results[n])
    for label, options, log_path in SETTINGS:
        t0 = time.time()
        mine = [n for n in names if n.startswith(f"sshd [{label}]")]
        if base_bad:
            for n in mine:
                notok(n, f"fails without the preload: {base_bad}")
            continue
        try:
            res = setting(setup, label, options, log_path)
        except (Failed, OSError) as e:
            res = {n: str(e) for n in mine}
        except Exception as e:  # the script's own bug: still one line each
            res = {n: f"check raised {type(e).__name__}: {e}" for n in mine}
        for n in mine:
            why = res.get(n, "not checked (an earlier step failed)")
            if why is None:
                ok(n)
            elif why.startswith("OK "):
                ok(f"{n} ({why[3:]})")
            else:
                notok(n, why)
        log(f"sshd [{label}]: {time.time() - t0:.1f}s")
    log(f"sshd total {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
