#!/usr/bin/env python3
"""Writes src/hot_text.ld: the functions of libukasan.so that a preloaded
program runs at the defaults (start, allocation and free, sampling, the
sampled check at exit, fork, dlopen), gathered into one output section at
the start of the library's code.

Why: the kernel maps a file's pages 64 KB around each page fault
(fault_around_bytes), so a library whose start-up and allocation paths are
spread over its code gets nearly all of it resident in every process:
libukasan.so's 284 KB of code were 272-284 KB of every preloaded process's
RSS. Gathered, they take one such window or two (tests/kfence/text_resident.c).

How: each workload below runs under valgrind's callgrind with the library
preloaded (built from build/obj, linked in the compiler's order, by `make
build/profile/libukasan.so`), and every function of it that ran is listed.
A function added to those paths later is only placed among the cold ones
until this is run again: text_resident.c then fails.
The same holds for the library's zeroed data (.bss, 2.5 MB): a variable
the preload writes at start or per allocation makes its page resident
(private, dirty, in every process), and the small ones were scattered
between the big tables: 104 KB of it resident in text_resident.c's
program. Built with -fdata-sections, every variable of .bss under SMALL
bytes is put first, smallest first, so that the small ones share a few
pages: 44-48 KB (text_resident.c checks 64). 512 touched the fewest pages
of 512, 1024, 2048 and 8192: past it, tables written in part come first.
And .rodata (25 KB) is put in the first segment, beside the symbol tables
the loader reads anyway: in a segment of its own, its window mapped the
unwind tables after it too (64 KB, where 28 more now).
Needs valgrind. Usage: python3 tools/hot_text.py
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Linked without src/hot_text.ld: valgrind attributes no code outside .text.
LIB = os.path.join(ROOT, "build", "profile", "libukasan.so")
OUT = os.path.join(ROOT, "src", "hot_text.ld")

# The C workload is the test's own program (threads, C and aligned
# allocation, realloc, fork, exit), so what the test measures is profiled.
C_PROG = os.path.join(ROOT, "tests", "kfence", "text_resident.c")

CXX_PROG = r"""
#include <map>
#include <string>
#include <thread>
#include <vector>
int main()
{
	std::map<int, std::string> m;
	for (int i = 0; i < 20000; i++) {
		m[i] = std::string(40, 'x');
		if (i % 3 == 0)
			m.erase(i - 1);
	}
	std::vector<std::thread> t;
	for (int k = 0; k < 2; k++)
		t.emplace_back([] {
			std::vector<int *> v;
			for (int i = 0; i < 20000; i++) {
				v.push_back(new int[i % 50 + 1]);
				if (v.size() > 100) {
					for (auto p : v)
						delete[] p;
					v.clear();
				}
			}
			for (auto p : v)
				delete[] p;
		});
	for (auto &x : t)
		x.join();
	return 0;
}
"""

# Sampling by time at the defaults, and every allocation sampled: the same
# functions at other rates (valgrind runs the program slowly, so the
# defaults alone sample little).
OPTION_SETS = ["", "kfence.sample_rate=1"]

LINE = re.compile(r"^\s*[\d,]+ \([^)]*\)\s+\S*?:([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_.]+)?"
                  r" \[" + re.escape(LIB) + r"\]$")


def functions_run(cmd, options, work):
    out = os.path.join(work, "cg.out")
    env = dict(os.environ, LD_PRELOAD=LIB, UKASAN_OPTIONS=options)
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + out] + cmd,
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900,
                   check=False)
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", out], capture_output=True,
                         text=True, check=True).stdout
    return {m.group(1) for m in map(LINE.match, ann.splitlines()) if m}


OBJ = os.path.join(ROOT, "build", "obj")
SMALL = 512


def small_bss():
    """(object path under build/obj, section, size) of every .bss.* input
    section under SMALL bytes, smallest first."""
    found = []
    for d, _, files in os.walk(OBJ):
        for name in files:
            if not name.endswith(".o") or os.path.relpath(d, OBJ).startswith("interceptors"):
                continue
            path = os.path.join(d, name)
            out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True,
                                 check=True).stdout
            for m in re.finditer(r"\]\s+(\.bss\.\S+)\s+NOBITS\s+\S+\s+\S+\s+([0-9a-f]+)", out):
                size = int(m.group(2), 16)
                if 0 < size < SMALL:
                    found.append((os.path.relpath(path, OBJ), m.group(1), size))
    return sorted(found, key=lambda t: (t[2], t[0], t[1]))


def main():
    subprocess.run(["make", "-s", os.path.relpath(LIB, ROOT)], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as work:
        c, cxx = os.path.join(work, "c"), os.path.join(work, "cxx")
        open(cxx + ".cc", "w").write(CXX_PROG)
        subprocess.run(["gcc", "-O1", "-pthread", "-I" + os.path.join(ROOT, "tests"),
                        "-I" + os.path.join(ROOT, "include"), "-o", c, C_PROG], check=True)
        subprocess.run(["g++", "-O1", "-pthread", "-o", cxx, cxx + ".cc"], check=True)
        python = "/usr/bin/python3"
        workloads = [[c], [cxx], [python, "-c", "import json, ctypes; print(json.dumps([1]))"],
                     ["/bin/sh", "-c", "echo x | sort"]]
        # Run only when a lock is contended, which a profile may not see.
        names = {"os_yield"}
        for cmd in workloads:
            for options in OPTION_SETS:
                got = functions_run(cmd, options, work)
                print("%-40s %-22s %d functions" % (" ".join(cmd)[:40], options or "defaults",
                                                    len(got)))
                if len(got) < 50:  # valgrind failed, or the library is not ours
                    sys.exit("hot_text.py: %s ran only %d of the library's functions" %
                             (" ".join(cmd), len(got)))
                names |= got
    with open(OUT, "w") as f:
        f.write("/* Written by tools/hot_text.py; do not edit. The functions a preloaded\n"
                " * program runs at the defaults, in one output section at the start of\n"
                " * libukasan.so's code, so that the pages the kernel maps around them are\n"
                " * few (the script says why). Each is in a section of its own\n"
                " * (-ffunction-sections); a name no longer in the library matches\n"
                " * nothing. libc_nonshared's pthread_atfork, linked in, is one of them,\n"
                " * crtbeginS.o's frame_dummy and exit handler, and .fini (the loader\n"
                " * calls _fini at exit), which would otherwise follow the cold code. */\n")
        f.write("SECTIONS\n{\n\t.text.ukasan_hot : {\n")
        f.write("\t\t*libc_nonshared.a:*(.text .text.*)\n")
        # gcc's crtbeginS.o: frame_dummy runs at load, __do_global_dtors_aux
        # at exit; its .text is one section, which callgrind does not name.
        f.write("\t\t*crtbeginS.o(.text .text.*)\n")
        for n in sorted(names):
            # gcc puts constructors in .text.startup, destructors in .text.exit
            f.write("\t\t*(.text.%s .text.%s.* .text.startup.%s .text.exit.%s)\n" % (n, n, n, n))
        f.write("\t\tKEEP(*(SORT_NONE(.fini)))\n")
        f.write("\t}\n}\nINSERT BEFORE .text;\n\n")
        f.write("/* The variables of .bss under %d bytes, smallest first, ahead of the\n"
                " * big tables (-fdata-sections), so that the small ones the preload\n"
                " * writes share a few pages. */\n" % SMALL)
        f.write("SECTIONS\n{\n\t.bss.ukasan_small : {\n")
        bss = small_bss()
        for obj, sec, _ in bss:
            f.write("\t\t*/%s(%s)\n" % (obj, sec))
        f.write("\t}\n}\nINSERT BEFORE .bss;\n\n")
        f.write("/* .rodata in the first segment, after the dynamic symbol tables and\n"
                " * relocations the loader reads in every process: its own 64 KB window\n"
                " * also mapped .eh_frame, which only a fault trace through the\n"
                " * runtime's frames reads. */\n")
        f.write("SECTIONS\n{\n\t.rodata.ukasan : { *(.rodata .rodata.* .gnu.linkonce.r.*) }\n"
                "}\nINSERT AFTER .rela.plt;\n")
    print("%s: %d functions, %d small variables" % (os.path.relpath(OUT, ROOT), len(names),
                                                    len(bss)))


if __name__ == "__main__":
    main()
