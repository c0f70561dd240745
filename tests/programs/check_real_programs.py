#!/usr/bin/env python3
"""Real programs behave the same under the preload: python3, perl, git, sort
and gcc.

Each program runs a small, allocation-rich workload (a list of steps: command
lines, run in a directory of its own) once without ukasan, then under
LD_PRELOAD=libukasan.so with two settings: kfence.sample_rate=1 (guard every
allocation while the pool lasts) and the default options. Each step must give
the same stdout bytes and the same exit status as without ukasan, and stderr
must hold no "BUG: KFENCE" and no "ukasan:" line but those that end
kmemleak's reports of a program's own leaks: the sampled objects perl, git,
sort and gcc lose are reported at exit (kmemleak=on, which tracks every
object, reports them too). Child processes (git's
pack-objects, gcc's cc1/as/ld, the program gcc built) inherit LD_PRELOAD.

One line per program and setting, and one that checks that sample_rate=1
really guarded allocations (kfence.stats=1 counters at exit).
"""
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "build")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
TMP = os.path.join(os.environ.get("UKASAN_TEST_TMP") or "/tmp", "real_programs")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "real"))
from _proc import unexpected_lines  # noqa: E402  the lines that count against a run, shared

STEP_TIMEOUT = 60  # seconds; a hang is reported, not waited for
SETTINGS = [("kfence.sample_rate=1", "kfence.sample_rate=1"), ("default", "")]


def ok(name):
    print(f"ok {name}", flush=True)


def notok(name, why):
    why = " ".join(why.split())  # one line for the runner
    print(f"not ok {name} - {why[:600]}", flush=True)


# The python3 on PATH may be a wrapper script (pyenv's shim, a bash script):
# test the interpreter itself, the one running this script.
def python_binary():
    exe = sys.executable
    if exe and os.path.basename(exe).startswith("python3") and os.access(exe, os.X_OK):
        return exe
    return shutil.which("python3")


PY_WORKLOAD = r"""
import collections, hashlib, json, re
rows = [{"id": i, "name": "item-%05d" % i, "tags": ["t%d" % (i % 7), "g%d" % (i % 13)],
         "score": (i * 7919) % 10007, "nested": {"a": [i] * (i % 5), "b": str(i) * 3}}
        for i in range(6000)]
rows.sort(key=lambda r: (r["score"], r["name"]))
text = json.dumps(rows, sort_keys=True)
back = json.loads(text)
assert back == rows
counts = collections.Counter(t for r in rows for t in r["tags"])
words = re.findall(r"item-0*(\d+)", text)
s = set(int(w) for w in words)
d = {}
for r in rows:
    d.setdefault(r["score"] % 97, []).append(r["id"])
print(len(text), len(words), len(s), sum(len(v) for v in d.values()))
print(sorted(counts.items())[:5])
print(hashlib.sha256(text.encode()).hexdigest())
print(hashlib.sha256(repr(sorted(d.items())).encode()).hexdigest())
"""

PERL_WORKLOAD = r"""
use strict; use warnings; use Digest::MD5 qw(md5_hex);
my %h; my @a;
for my $i (1..10000) {
    my $k = sprintf("key-%05d-%x", $i, $i * 2654435761 % 4294967296);
    $h{$k} = { n => $i, s => "v" x ($i % 17), l => [ map { $_ * $i } 1..($i % 9) ] };
    push @a, sprintf("%08.3f|%s|%-10s|", $i / 7, $k, "x" x ($i % 11));
}
my ($m, $t) = (0, 0);
for my $s (@a) {
    if ($s =~ /^(\d+)\.(\d+)\|key-(\d+)-([0-9a-f]+)\|(x*)\s*\|$/) { $m++; $t += length($5) + hex($4) % 1000; }
}
(my $j = join(",", @a)) =~ s/(\d)(\d)/$2$1/g;
my @k = sort { $h{$a}{n} % 101 <=> $h{$b}{n} % 101 or $a cmp $b } keys %h;
delete $h{$_} for grep { /7/ } @k;
my $sum = 0; $sum += scalar @{ $h{$_}{l} } for keys %h;
print "$m $t ", scalar(keys %h), " $sum\n";
print md5_hex(join("", @k)), " ", md5_hex($j), "\n";
"""

GCC_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

struct node { struct node *next; char name[24]; double v; };

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	struct node *head = NULL;
	double a[1000];
	for (int i = 0; i < 1000; i++) {
		struct node *n = malloc(sizeof(*n));
		snprintf(n->name, sizeof(n->name), "n%04d", i);
		n->v = sin(i) * 1000.0;
		n->next = head;
		head = n;
		a[i] = n->v;
	}
	qsort(a, 1000, sizeof(a[0]), cmp);
	unsigned long h = 5381;
	for (struct node *n = head, *next; n; n = next) {
		next = n->next;
		for (char *c = n->name; *c; c++)
			h = h * 33 + (unsigned char)*c;
		free(n);
	}
	printf("%.6f %.6f %.6f %lu\n", a[0], a[500], a[999], h);
	return 0;
}
"""


# A step is a command (list of arguments; a dict of extra keys: stdin, env)
# or a Python function called with the run directory (setup done outside
# the preload; it does not count as output).
def python_steps(exe):
    return [[exe, "-c", PY_WORKLOAD]]


def perl_steps(exe):
    return [[exe, "-e", PERL_WORKLOAD]]


def git_steps(exe):
    g = [exe, "-c", "user.name=ukasan test", "-c", "user.email=test@ukasan.invalid",
         "-c", "init.defaultBranch=main", "-c", "gc.auto=0", "-C", "repo"]

    def files(n):
        def write(d):
            rnd = random.Random(n)
            os.makedirs(os.path.join(d, "repo", "src"), exist_ok=True)
            for i in range(40):
                if n == 2 and i % 5 == 0:
                    p = os.path.join(d, "repo", "src", f"f{i:02d}.txt")
                    if os.path.exists(p):
                        os.remove(p)
                    continue
                if n > 0 and i % 3 != n % 3:
                    continue
                with open(os.path.join(d, "repo", "src", f"f{i:02d}.txt"), "w") as f:
                    for j in range(200 + 10 * n):
                        f.write(f"line {j} of file {i} rev {n}: {rnd.random():.12f}\n")
        return write

    def commit(n):
        return g + ["commit", "-q", "-m", f"commit {n}\n\nbody of commit {n}"]

    steps = [lambda d: os.makedirs(os.path.join(d, "repo")), [exe, "-c", "init.defaultBranch=main",
             "init", "-q", "repo"]]
    for n in range(4):
        steps += [files(n), g + ["add", "-A"], commit(n)]
    steps += [g + ["log", "--stat", "--format=%H %an %ad %s"],
              g + ["log", "-p", "-1", "--format=%H"],
              g + ["diff", "--numstat", "HEAD~3", "HEAD"],
              g + ["grep", "-c", "rev 3", "HEAD"],
              g + ["gc", "-q"],
              g + ["fsck", "--no-progress", "--strict"],
              g + ["cat-file", "-p", "HEAD^{tree}"],
              g + ["rev-list", "--objects", "--all"],
              g + ["count-objects"]]
    return steps


def sort_steps(exe):
    def gen(d):
        rnd = random.Random(1)
        with open(os.path.join(d, "in.txt"), "w") as f:
            for i in range(50000):
                f.write(f"{rnd.randrange(100000)} {rnd.choice(['alpha', 'beta', 'gamma', 'delta'])}"
                        f"{rnd.randrange(500)} {rnd.random():.6f}\n")
    return [gen, [exe, "-n", "in.txt"], [exe, "-u", "in.txt"], [exe, "-k2,2", "-k1,1nr", "in.txt"],
            [exe, "-u", "-n", "in.txt"], {"cmd": [exe, "-r"], "stdin_file": "in.txt"}]


def gcc_steps(exe):
    def src(d):
        with open(os.path.join(d, "prog.c"), "w") as f:
            f.write(GCC_SOURCE)

    def digest(*names):
        def step(d):
            out = b""
            for n in names:
                with open(os.path.join(d, n), "rb") as f:
                    out += f"{n} {hashlib.sha256(f.read()).hexdigest()}\n".encode()
            return out
        step.output = True
        return step

    return [src, [exe, "-O2", "-g", "-Wall", "-c", "prog.c", "-o", "prog.o"],
            [exe, "prog.o", "-o", "prog", "-lm"], ["./prog"], digest("prog.o", "prog")]


PROGRAMS = [("python3", python_binary, python_steps), ("perl", lambda: shutil.which("perl"), perl_steps),
            ("git", lambda: shutil.which("git"), git_steps), ("sort", lambda: shutil.which("sort"), sort_steps),
            ("gcc", lambda: shutil.which("gcc"), gcc_steps)]


def base_env(d):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "GIT_DIR", "GIT_WORK_TREE", "MAKEFLAGS"):
        env.pop(k, None)
    env.update(LC_ALL="C", HOME=d, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
               GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_DATE="1700000000 +0000",
               TZ="UTC", PAGER="cat", GIT_PAGER="cat", TMPDIR=d)
    return env


def describe(cmd):
    """The command without its -c NAME=VALUE options and with scripts elided."""
    words, skip = [os.path.basename(cmd[0])], False
    for a in cmd[1:]:
        if skip or a == "-c" and words[0] == "git":
            skip = not skip
            continue
        words.append("SCRIPT" if "\n" in a else a)
    return " ".join(words)[:80]


def run_workload(steps, d, options):
    """Runs the steps in a fresh directory d; options None means no preload.
    Returns a list of (step description, stdout, status, stderr)."""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    env = base_env(d)
    if options is not None:
        env["LD_PRELOAD"] = LIB
        env["UKASAN_OPTIONS"] = options
    results = []
    for i, step in enumerate(steps):
        if callable(step):
            try:
                out = step(d)
            except OSError as e:  # a file an earlier step should have made
                results.append((f"step {i} (setup)", b"", f"error {e}", b""))
                continue
            if getattr(step, "output", False):
                results.append((f"step {i} (file digests)", out, 0, b""))
            continue
        cmd, stdin = (step["cmd"], open(os.path.join(d, step["stdin_file"]), "rb")) \
            if isinstance(step, dict) else (step, subprocess.DEVNULL)
        desc = f"step {i} ({describe(cmd)})"
        # A session of its own, so that a hang kills its children too (gcc's
        # cc1, git's pack-objects), which would keep the pipes open.
        try:
            p = subprocess.Popen(cmd, cwd=d, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:  # ./prog when gcc failed
            results.append((desc, b"", f"cannot run: {e}", b""))
            continue
        try:
            out, err = p.communicate(timeout=STEP_TIMEOUT)
            results.append((desc, out, p.returncode, err))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            results.append((desc, out, f"timed out after {STEP_TIMEOUT}s", err))
            break
        finally:
            if stdin is not subprocess.DEVNULL:
                stdin.close()
    return results


def status_text(s):
    if not isinstance(s, int):
        return s
    if s < 0:
        return f"killed by signal {signal.Signals(-s).name}"
    return f"status {s}"


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for n, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {n + 1}: {x[:100]!r} vs {y[:100]!r}"
    return f"{len(la)} vs {len(lb)} lines, {len(a)} vs {len(b)} bytes"


def compare(plain, pre):
    problems = []
    if len(plain) != len(pre):
        problems.append(f"{len(pre)} steps ran under the preload, {len(plain)} without")
    for (desc, out0, st0, _), (_, out1, st1, err1) in zip(plain, pre):
        errtxt = err1.decode(errors="replace")
        bad = unexpected_lines(errtxt)
        if st0 != st1:
            problems.append(f"{desc}: {status_text(st1)} under the preload, {status_text(st0)} without; "
                            f"stderr: {errtxt.strip()[-300:]!r}")
        elif out0 != out1:
            problems.append(f"{desc}: stdout differs, {first_difference(out0, out1)}")
        if bad:
            problems.append(f"{desc}: stderr has {bad[0][:200]!r}" + (f" (+{len(bad) - 1} such lines)" if len(bad) > 1 else ""))
    return problems


def main():
    start = time.time()
    if not os.path.exists(LIB):
        for name, _, _ in PROGRAMS:
            for label, _ in SETTINGS:
                notok(f"{name} [{label}]", f"{LIB} not built")
        notok("python3 guarded allocations", f"{LIB} not built")
        return
    os.makedirs(TMP, exist_ok=True)
    for name, find, make_steps in PROGRAMS:
        exe = find()
        if not exe:
            for label, _ in SETTINGS:
                notok(f"{name} [{label}]", "not installed")
            continue
        steps = make_steps(exe)
        # Every run in the same directory: paths end up in the output (gcc -g
        # records the compilation directory in the object).
        d = os.path.join(TMP, name)
        plain = run_workload(steps, d, None)
        broken = [f"{desc}: {status_text(st)}: {err.decode(errors='replace').strip()[-200:]}"
                  for desc, _, st, err in plain if st != 0]
        for label, options in SETTINGS:
            test = f"{name} [{label}]"
            if broken:  # the workload itself fails without ukasan: nothing to compare
                notok(test, f"workload fails without the preload: {broken[0]}")
                continue
            t0 = time.time()
            pre = run_workload(steps, d, options)
            problems = compare(plain, pre)
            if problems:
                notok(test, "; ".join(problems))
            else:
                ok(test)
            sys.stderr.write(f"{test}: {time.time() - t0:.1f}s\n")

    # kfence.sample_rate=1 really guards allocations in a real program.
    exe = python_binary()
    if not exe:
        notok("python3 guarded allocations", "not installed")
    else:
        res = run_workload(python_steps(exe), os.path.join(TMP, "python3"),
                           "kfence.sample_rate=1 kfence.stats=1")
        _, out, st, err = res[0]
        errtxt = err.decode(errors="replace")
        m = re.search(r"^total allocations: (\d+)$", errtxt, re.M)
        if st != 0:
            notok("python3 guarded allocations", f"{status_text(st)}: {errtxt.strip()[-300:]!r}")
        elif not m:
            notok("python3 guarded allocations", f"no 'total allocations' in stderr: {errtxt.strip()[-300:]!r}")
        elif int(m.group(1)) <= 0:
            notok("python3 guarded allocations", f"total allocations: {m.group(1)}")
        else:
            ok(f"python3 guarded allocations ({m.group(1)})")
    sys.stderr.write(f"total {time.time() - start:.1f}s\n")


if __name__ == "__main__":
    main()
