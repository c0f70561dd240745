"""What the real-software checks share: their ok/not ok lines, the lines of
ukasan's that count against a run, and ending a program with everything it
started. (tests/programs/check_real_programs.py uses it too.)"""
import os
import re
import signal
import subprocess
import sys
import time


def ok(name):
    print(f"ok {name}", flush=True)


def notok(name, why):
    why = " ".join(str(why).split())  # one line for the runner
    print(f"not ok {name} - {why[:900]}", flush=True)


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# What ends a report of the program's own leaks, which the sampled leak
# check at the preload's defaults makes at exit (perl's, git's, the JVM's,
# initdb's, gperftools' own leaked default MallocExtension; LeakSanitizer
# reports them too; kmemleak=on, which tracks every object, reports them
# too): not a report against the run when no other report came.
LEAK_LINE = re.compile(r"ukasan: (kmemleak: \d+ new suspected memory leaks? |\d+ reports? in this run)")


def unexpected_lines(text, also_allowed=None):
    """The lines of text that are reports or ukasan's messages: a KFENCE or
    KASAN report's title, any "ukasan:" line but those that end leak
    reports when there is no other report, and those also_allowed (a
    compiled regular expression) matches."""
    lines = text.splitlines()
    only_leaks = not any(l.startswith("BUG: ") and l != "BUG: memory leak" for l in lines)
    return [l for l in lines
            if "BUG: KFENCE" in l or "BUG: KASAN" in l or
            ("ukasan:" in l and not (also_allowed and also_allowed.search(l)) and
             not (only_leaks and LEAK_LINE.match(l)))]


class Failed(Exception):
    """A check's verdict: the message says what went wrong."""


def all_procs():
    """pid: (parent pid, process group) of every process."""
    procs = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                rest = f.read().rpartition(b")")[2].split()
            procs[int(d)] = (int(rest[1]), int(rest[2]))
        except (OSError, IndexError, ValueError):
            pass
    return procs


def descendants(pid, procs=None):
    procs = procs if procs is not None else all_procs()
    children = {}
    for p, (pp, _) in procs.items():
        children.setdefault(pp, []).append(p)
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def leftovers(p):
    """p (while it runs), its descendants and the members of its process
    group: ours, since a pid is not reused while it names a live group."""
    procs = all_procs()
    pids = {q for q, (_, g) in procs.items() if g == p.pid}
    if p.poll() is None:  # once reaped, its pid may be anyone's
        pids |= {p.pid} | set(descendants(p.pid, procs))
    pids.discard(os.getpid())
    return pids


def kill_tree(p):
    """SIGKILL to p and everything it started (sshd's children call setsid,
    so not one process group), found before killing anything (orphans are
    reparented and could not be found after); again while something is
    left (a fork in between)."""
    for _ in range(5):
        pids = leftovers(p)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        time.sleep(0.05)


def status_text(s):
    if not isinstance(s, int):
        return s
    if s < 0:
        try:
            return f"killed by signal {signal.Signals(-s).name}"
        except ValueError:
            return f"killed by signal {-s}"
    return f"status {s}"


def run(cmd, env, timeout, cwd=None, pids=None):
    """(status, stdout, stderr); status is a text on a timeout. The process's
    pid is appended to pids."""
    try:
        p = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return f"cannot run: {e}", b"", b""
    if pids is not None:
        pids.append(p.pid)
    try:
        out, err = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        kill_tree(p)
        try:
            out, err = p.communicate(timeout=10)
        except (subprocess.TimeoutExpired, ValueError):
            out, err = b"", b""
        status = f"timed out after {timeout}s"
    kill_tree(p)
    return status, out, err
