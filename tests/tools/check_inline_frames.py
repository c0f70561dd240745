#!/usr/bin/env python3
"""The in-process reader of inlined functions (src/symbolize/dwarf_info.c)
against llvm-symbolizer --inlining: for many addresses of real -O2 code (the
runtime's own sources, built by gcc and clang-16 into a shared object, DWARF 4
and 5, zlib-compressed too, and the C++ test subject), each inlined frame's
name (linkage name, mangled: the report demangles it as it does the
symbols'; cut to 255 bytes as theirs are) and line, and the outermost frame's line, must
be llvm-symbolizer's. The driver (_inline_frames.c) links the reader's
objects from the build. A truncated and a corrupted image must give no crash.
Skipped without llvm-symbolizer."""
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "inline_frames")
SAMPLE = 3000
READER = ["dwarf_info", "dwarf_ranges", "dwarf_line", "dwarf_sections", "dwarf_form", "elf_image", "inflate"]


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "inline_frames: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


def tool(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


LLVM = tool("llvm-symbolizer", "llvm-symbolizer-16")
CLANG = tool("clang-16", "clang")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def code_addresses(path):
    """Addresses inside the functions of path, a sample of them."""
    out = run(["nm", "--defined-only", "-S", path]).stdout.decode()
    addrs = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTW":
            start, size = int(f[0], 16), int(f[1], 16)
            addrs.extend(range(start, start + size))
    random.Random(7).shuffle(addrs)
    return sorted(addrs[:SAMPLE])


def frames(text):
    """Blank-line separated blocks of FUNC/FILE:LINE pairs."""
    blocks = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        pairs = [(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 2)]
        blocks.append(pairs)
    return blocks


def compare(name, driver, path):
    addrs = code_addresses(path)
    inp = "".join("0x%x\n" % a for a in addrs).encode()
    ours = run([driver, path], input=inp)
    theirs = run([LLVM, "--obj=" + path, "--inlining", "--functions=linkage",
                  "--output-style=LLVM", "--no-demangle"], input=inp)
    if ours.returncode != 0:
        ok(name, False, "driver exited %d: %s" % (ours.returncode, ours.stderr.decode()[-300:]))
        return
    # LLVM's style separates the addresses; its FILE:LINE:COLUMN loses
    # the column here, which a report does not print
    b = [[(f, l.rsplit(":", 1)[0]) for f, l in block] for block in frames(theirs.stdout.decode())]
    a = frames(ours.stdout.decode())
    if len(a) != len(b):
        ok(name, False, "%d answers for %d addresses" % (len(a), len(b)))
        return
    bad, inlined = [], 0
    for addr, x, y in zip(addrs, a, b):
        # the outermost function is the ELF symbol's in a report: its
        # line only; a line 0 is no line to either
        y = [(f, l if not l.endswith(":0") else "??:0") for f, l in y]
        x = [(f, l if not l.endswith(":0") else "??:0") for f, l in x]
        if len(y) > 17:  # deeper than the reader goes: its innermost 16
            y = y[:16] + [("?", x[-1][1] if x else "")]
        same = len(x) == len(y) and all(
            (i == len(x) - 1 or fx == fy or (len(fx) == 255 and fy.startswith(fx))) and lx == ly
            for i, ((fx, lx), (fy, ly)) in enumerate(zip(x, y)))
        inlined += len(y) > 1
        if not same:
            bad.append("0x%x: ours %s, llvm %s" % (addr, x, y))
    ok("%s: %d addresses, %d in inlined code" % (name, len(addrs), inlined),
       not bad and inlined > 0, "%d differ: %s" % (len(bad), "; ".join(bad[:3])) if bad
       else "no inlined code sampled")


def main():
    if not LLVM:
        print("ok inline_frames: # skipped: no llvm-symbolizer")
        return 0
    os.makedirs(T, exist_ok=True)
    objs = [os.path.join(BUILD, "obj", "symbolize", r + ".o") for r in READER]
    objs.append(os.path.join(BUILD, "obj", "platform", "mem.o"))  # rt_mem, the reader's copies
    driver = os.path.join(T, "driver")
    r = run(["gcc", "-g", "-O1", "-I" + ROOT, os.path.join(ROOT, "tests/tools/_inline_frames.c")]
            + objs + ["-o", driver])
    if r.returncode:
        ok("driver builds", False, r.stderr.decode()[-500:])
        return 1
    srcs = [os.path.join(ROOT, "src", d, f) for d in ("stack", "symbolize", "kasan")
            for f in sorted(os.listdir(os.path.join(ROOT, "src", d))) if f.endswith(".c")]
    cases = [("gcc", "gcc", "-gdwarf-5"), ("gcc-dwarf4", "gcc", "-gdwarf-4"),
             ("gcc-zlib", "gcc", "-gdwarf-5 -gz=zlib")]
    if CLANG:
        cases += [("clang", CLANG, "-gdwarf-5"), ("clang-dwarf4", CLANG, "-gdwarf-4"),
                  ("clang-zlib", CLANG, "-gdwarf-5 -gz=zlib")]
    for name, cc, g in cases:
        lib = os.path.join(T, "rt-%s.so" % name)
        # the other forms on fewer sources: the runs are slow to build
        few = [f for f in srcs if "/kasan/" not in f] if name not in ("gcc", "clang") else srcs
        # RT_HIDDEN empty: a hidden symbol cannot be left unresolved
        r = run([cc, "-O2", "-fPIC", "-shared", "-std=gnu11", "-w", "-DRT_HIDDEN="] + g.split() +
                ["-I" + ROOT, "-I" + os.path.join(ROOT, "src", "symbolize")] + few +
                ["-o", lib, "-Wl,--unresolved-symbols=ignore-all"])
        if r.returncode:
            ok("%s builds" % name, False, r.stderr.decode()[-500:])
            continue
        compare("runtime sources, " + name, driver, lib)
    for name, cc in [("g++", "g++")] + ([("clang++", CLANG + "++" if CLANG.endswith("clang") else
                                          "clang++-16")] if CLANG else []):
        exe = os.path.join(T, "subject-%s" % name)
        r = run([cc, "-O2", "-g", "-shared", "-fPIC", "-w",
                 os.path.join(ROOT, "tests/tools/_dwarf_subject.cc"),
                 os.path.join(ROOT, "tests/tools/_demangle_names.cc"), "-o", exe])
        if r.returncode:
            ok("C++ subject builds, " + name, False, r.stderr.decode()[-500:])
            continue
        compare("C++ subject, " + name, driver, exe)
    # Debian's libc debug file: its sections zlib-compressed (5.8 MB of
    # units), inflated only as far as each lookup reads (dwarf_sections.c);
    # the sampled addresses reach all of it, one after another
    bid = run(["readelf", "-n", "/lib/x86_64-linux-gnu/libc.so.6"]).stdout.decode()
    b = re.search(r"Build ID: ([0-9a-f]+)", bid)
    dbg = b and "/usr/lib/debug/.build-id/%s/%s.debug" % (b.group(1)[:2], b.group(1)[2:])
    if dbg and os.path.exists(dbg):
        compare("libc's compressed debug file", driver, dbg)
    else:
        print("ok inline_frames: libc # SKIP no debug file for libc (libc6-dbg)")
    # corrupt images: truncated and with bytes flipped in .debug_info
    lib = os.path.join(T, "rt-gcc.so")
    data = open(lib, "rb").read()
    crashed = []
    rnd = random.Random(3)
    for i in range(30):
        img = bytearray(data if i else data[:len(data) // 2])
        for _ in range(200 if i else 0):
            k = rnd.randrange(len(img) // 4, len(img))
            img[k] = rnd.randrange(256)
        p = os.path.join(T, "corrupt")
        open(p, "wb").write(img)
        r = run([driver, "-f", p], timeout=60)
        if r.returncode != 0:
            crashed.append("image %d: status %d" % (i, r.returncode))
    ok("corrupt images give no crash", not crashed, "; ".join(crashed[:3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
