#!/usr/bin/env python3
"""A report written to the file ASAN_OPTIONS's log_path names ends with
AddressSanitizer's error line and frames, which fuzzers read: honggfuzz
names a crash file by the pc on the "==PID==ERROR:" line and a hash of the
frames' pcs (their last three hex digits, as it hashes them); the lines
name the tool and the bug as ASan does. The same bug
must give the same name in runs with different address layouts, and
different bugs different names, for KASAN's reports (a ukasan-cc build)
and KFENCE's (the preload, every allocation guarded). Without the lines,
honggfuzz hashed the aborting thread's top frames, the runtime's, and three
bugs made one crash file."""
import os
import re
import subprocess
import sys

R, B = os.environ["UKASAN_ROOT"], os.environ["UKASAN_BUILD"]
T = os.path.join(os.environ["UKASAN_TEST_TMP"], "asan_log")
os.makedirs(T, exist_ok=True)
SRC = os.path.join(R, "tests", "fuzz", "_bugs.c")
BUGS = ["O", "U", "D"]


def say(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else " - " + why))


def signature(log):
    """What honggfuzz takes from the log: the header's pc and the hash of up
    to 14 frames, each frame's pc as its last three hex digits."""
    text = open(log, errors="replace").read()
    m = re.search(r"^==(\d+)==ERROR: AddressSanitizer: (.+?) on (?:address )?0x[0-9a-f]+(?: at pc 0x([0-9a-f]+))?\n"
                  r"(?:(?:READ|WRITE) of size \d+ at 0x[0-9a-f]+\n)?"
                  r"((?:    #\d+ 0x[0-9a-f]+ in \S+ \([^)]+\)\n)+)\n", text, re.M)
    if not m:
        return None
    pcs = re.findall(r"#\d+ 0x([0-9a-f]+) in", m.group(4))[:14]
    return (m.group(2), (m.group(3) or "")[-3:], tuple(p[-3:] for p in pcs))


def run(exe, bug, env):
    log = os.path.join(T, "log")
    for f in os.listdir(T):
        if f.startswith("log."):
            os.unlink(os.path.join(T, f))
    e = dict(os.environ, ASAN_OPTIONS="abort_on_error=1:log_path=" + log, **env)
    r = subprocess.run([exe, bug], env=e, capture_output=True)
    logs = [f for f in os.listdir(T) if f.startswith("log.")]
    if r.returncode != -6 or len(logs) != 1:
        return None, f"status {r.returncode}, log files {logs}"
    return signature(os.path.join(T, logs[0])), "no ASan error line and frames in the log"


def check(name, exe, env, bugs=BUGS):
    sigs = {}
    for bug in bugs:
        got = []
        for _ in range(2):  # a new address layout each run
            s, why = run(exe, bug, env)
            if s is None:
                say(False, f"{name}: {bug}'s report has ASan's lines", why)
                return
            got.append(s)
        say(got[0] == got[1], f"{name}: {bug} gives the same signature twice", str(got))
        sigs[bug] = got[0]
    say(len(set(sigs.values())) == len(bugs), f"{name}: {len(bugs)} bugs, as many signatures", str(sigs))


def main():
    env = dict(os.environ, UKASAN_CC="gcc")
    env.pop("UKASAN_RECOVER", None)
    exe = os.path.join(T, "bugs_kasan")
    r = subprocess.run([os.path.join(B, "bin", "ukasan-cc"), "-g", "-O1", "-DBUGS_MAIN", SRC, "-o", exe],
                       env=env, capture_output=True, text=True)
    if r.returncode:
        say(False, "asan log: build", r.stderr[-400:])
        return 1
    check("asan log kasan", exe, {"UKASAN_OPTIONS": "kfence.sample_interval=0 ukasan.symbolize=0"})
    plain = os.path.join(T, "bugs_plain")
    r = subprocess.run(["gcc", "-g", "-O1", "-DBUGS_MAIN", SRC, "-o", plain], capture_output=True, text=True)
    if r.returncode:
        say(False, "asan log kfence: build", r.stderr[-400:])
        return 1
    check("asan log kfence", plain, {"LD_PRELOAD": os.path.join(B, "lib", "libukasan.so"),
                                     "UKASAN_OPTIONS": "kfence.sample_rate=1 ukasan.symbolize=0"},
          # Not the overflow: a read past a 16-byte object is caught only
          # when KFENCE put it against its right guard page, half the time.
          ["U", "D"])
    return 0


sys.exit(main())
