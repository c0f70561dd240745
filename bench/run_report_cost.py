#!/usr/bin/env python3
"""What a fatal report costs: CPU time (user + sys of the process and every
child it started, from wait4(2)) of a program whose first report ends it
(kasan.fault=panic, as under a fuzzer), a C one and a C++ one with
namespaced, templated and lambda frames, each built with ukasan-cc -O0 -g.
The C++ program runs with C++ names demangled in the process
(ukasan.symbolizer=auto, the default) and with every helper program
(ukasan.symbolizer=external: llvm-symbolizer for lines, c++filt for names),
and, given --before DIR, with DIR's libukasan.so (another build: the one
before the in-process demangler started c++filt for every C++ report), all
alternating; a run without the bug gives the cost of the program itself.

    python3 bench/run_report_cost.py [--runs N (10)] [--before LIBDIR]

Reported: medians, and the load average (a shared machine)."""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build"))

C_SRC = r"""
#include <stdlib.h>
struct box { char *buf; };
static __attribute__((noinline)) int get(struct box *b, int i) { return b->buf[i]; }
int main(int argc, char **argv)
{
	struct box b = {malloc(16)};
	(void)argv;
	return get(&b, argc > 1 ? 0 : 16);
}
"""

CXX_SRC = r"""
#include <string>
#include <vector>
namespace ns {
struct K {
	char *buf;
	K() : buf(new char[16]) {}
	int get(char *p, int i) { return p[i]; }
};
template <typename T> int poke(std::vector<T> &v, K &k, int i) { return k.get(k.buf, i) + (int)v.size(); }
}
int main(int argc, char **argv)
{
	std::vector<std::string> v(2);
	ns::K k;
	(void)argv;
	auto f = [&](int i) { return ns::poke(v, k, i); };
	return f(argc > 1 ? 0 : 16);
}
"""


def cpu_ms(cmd, options, libdir=None):
    env = dict(os.environ, UKASAN_OPTIONS="kasan.fault=panic " + options)
    env.pop("LD_PRELOAD", None)
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir  # before the program's RUNPATH
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    return (ru.ru_utime + ru.ru_stime) * 1000, b"BUG: KASAN" in err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--before", help="a build's lib directory to compare with")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="report_cost.")
    progs = {}
    for name, src, cc in [("c", C_SRC, "ukasan-cc"), ("cxx", CXX_SRC, "ukasan-c++")]:
        path = os.path.join(tmp, name + (".c" if name == "c" else ".cc"))
        with open(path, "w") as f:
            f.write(src)
        progs[name] = os.path.join(tmp, name)
        subprocess.run([os.path.join(BUILD, "bin", cc), "-g", "-O0", "-o", progs[name], path],
                       check=True)
    cases = [("C, report", [progs["c"]], "", None),
             ("C++, report", [progs["cxx"]], "", None),
             ("C++, report, symbolizer=external", [progs["cxx"]], "ukasan.symbolizer=external",
              None),
             ("C++, no bug", [progs["cxx"], "x"], "", None)]
    if args.before:
        cases.append(("C++, report, --before's runtime", [progs["cxx"]], "", args.before))
    times = {c[0]: [] for c in cases}
    for r in range(args.runs):
        for name, cmd, options, libdir in cases[r % len(cases):] + cases[:r % len(cases)]:
            ms, reported = cpu_ms(cmd, options, libdir)
            if reported != ("no bug" not in name):
                sys.exit(f"{name}: report {'missing' if not reported else 'unexpected'}")
            times[name].append(ms)
    load = os.getloadavg()
    print(f"fatal report CPU time, median of {args.runs} alternating runs "
          f"(load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}):")
    for name, _, _, _ in cases:
        print(f"  {name:36s} {statistics.median(times[name]):6.1f} ms   runs: "
              + " ".join(f"{x:.0f}" for x in times[name]))


if __name__ == "__main__":
    main()
