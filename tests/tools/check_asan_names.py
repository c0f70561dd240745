#!/usr/bin/env python3
"""The functions of ukasan's AddressSanitizer-form stack are named as each
compiler's own ASan names them: tests/generic/anon_namespace_frames.cc
(functions in anonymous namespaces and a static one, which GCC gives no
linkage name) is built with g++ -fsanitize=address and with ukasan-c++ and
g++, and with clang++-16 both ways, and the function of each frame of the
access's stack, from the faulting function to main, must be the same.
GCC's ASan names them from the debug information with libbacktrace
("fill", "top", "stat_fn"), clang's with llvm-symbolizer from the symbols
("outer::(anonymous namespace)::fill(char*, int)"). A compiler without its
ASan runtime is skipped, saying so."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "asan_names")
SRC = os.path.join(ROOT, "tests", "generic", "anon_namespace_frames.cc")
FRAME = re.compile(r"^    #(\d+) 0x[0-9a-f]+ in (.*?) (?:\S+:\d+(?::\d+)?|\(.*)$", re.M)
# the sanitizer's own frames before the program's (clang's __asan_memset)
RUNTIME = re.compile(r"^(__asan_|__interceptor_|__sanitizer_|mem(set|cpy|move)$)")


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "asan_names: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


def run(cmd, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          timeout=120)


def names(text):
    """The functions of the first stack, from the first of the program's
    to main."""
    out = []
    for no, m in enumerate(FRAME.finditer(text)):
        if int(m.group(1)) != no:
            break
        if out or not RUNTIME.match(m.group(2)):
            out.append(m.group(2))
        if m.group(2) == "main":
            return out
    return out


def main():
    os.makedirs(T, exist_ok=True)
    ukasan = os.path.join(BUILD, "bin", "ukasan-c++")
    env = dict(os.environ)
    env.pop("ASAN_OPTIONS", None)
    env["ASAN_OPTIONS"] = "detect_leaks=0"
    env["UKASAN_OPTIONS"] = "ukasan.asan_lines=on"
    for cxx in ("g++", "clang++-16"):
        if not shutil.which(cxx):
            print("ok asan_names: %s # skipped: not installed" % cxx)
            continue
        asan, ours = os.path.join(T, "asan-" + cxx), os.path.join(T, "ukasan-" + cxx)
        r = run([cxx, "-fsanitize=address", "-O1", "-g", SRC, "-o", asan])
        if r.returncode:
            print("ok asan_names: %s # skipped: no ASan build (%s)"
                  % (cxx, r.stderr.decode()[-200:].strip()))
            continue
        r = run([ukasan, "-O1", "-g", SRC, "-o", ours], env=dict(env, UKASAN_CXX=cxx))
        if r.returncode:
            ok(cxx + ": ukasan-c++ builds it", False, r.stderr.decode()[-400:])
            continue
        a = names(run([asan], env=env).stderr.decode(errors="replace"))
        u = names(run([ours], env=env).stderr.decode(errors="replace"))
        ok("%s: frames named as its ASan's (%d)" % (cxx, len(a)),
           len(a) >= 5 and a[-1] == "main" and u == a, "ukasan %s, ASan %s" % (u, a))


if __name__ == "__main__":
    main()
