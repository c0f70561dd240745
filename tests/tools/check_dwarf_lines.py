#!/usr/bin/env python3
"""The in-process DWARF line reader (src/symbolize/dwarf_line.c) against
llvm-symbolizer: programs built by gcc and clang-16, C and C++, -O0 and -O2,
DWARF 4 and 5 (and aarch64 where its cross compiler, qemu and build are
there) are asked for file:line at every line-table address and its
neighbours, through __sanitizer_symbolize_pc with ukasan.symbolizer=internal;
llvm-symbolizer answers the same addresses in one run. Also: a planted
off-by-one must be noticed, corrupt tables must give no answer rather than a
crash, zlib-compressed debug sections are read, and zstd ones fall back to
the external tool."""
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "dwarf_lines")
SRC = "tests/tools"
SAMPLE = 2500


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "dwarf_lines: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


def tool(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


LLVM = tool("llvm-symbolizer", "llvm-symbolizer-16")
DWARFDUMP = tool("llvm-dwarfdump", "llvm-dwarfdump-16")


def build(name, cc, flags, cxx=False):
    """The driver and the C or C++ subject; sources named relative to ROOT
    (compiled there) or absolute (compiled in T), for both kinds of names."""
    exe = os.path.join(T, name)
    subject = "_dwarf_subject.cc" if cxx else "_dwarf_subject.c"
    objs = []
    for i, src in enumerate(["_dwarf_lines.c", subject]):
        obj = os.path.join(T, "%s.%d.o" % (name, i))
        comp = cc[1] if src.endswith(".cc") else cc[0]
        if i == 0 or "-O0" in flags:
            path, cwd = os.path.join(SRC, src), ROOT
        else:
            path, cwd = os.path.join(ROOT, SRC, src), T
        r = subprocess.run([comp, "-c"] + flags + ["-o", obj, path], cwd=cwd,
                           capture_output=True, text=True)
        if r.returncode:
            return None, r.stderr[-300:]
        objs.append(obj)
    r = subprocess.run([cc[1] if cxx else cc[0]] + flags + ["-o", exe] + objs,
                       capture_output=True, text=True)
    return (exe, "") if r.returncode == 0 else (None, r.stderr[-300:])


def addresses(exe):
    """Each row's address, one before and one or two after, sampled."""
    out = subprocess.run([DWARFDUMP, "--debug-line", exe], capture_output=True,
                         text=True).stdout
    rows = set()
    for m in re.finditer(r"^0x([0-9a-f]{16})\s+\d+\s+\d+", out, re.M):
        a = int(m.group(1), 16)
        if a:
            rows.update((a - 1, a, a + 1, a + 2))
    rows = sorted(rows)
    if len(rows) > SAMPLE:
        rows = [rows[i * len(rows) // SAMPLE] for i in range(SAMPLE)]
    return rows


def norm(s):
    s = re.sub(r" \(discriminator \d+\)$", "", s.strip())
    if not s or s.startswith("??") or s.startswith(":") or s.endswith(":0"):
        return "?"
    return s[len(ROOT) + 1:] if s.startswith(ROOT + "/") else s


def reference(exe, addrs):
    r = subprocess.run([LLVM, "--obj=" + exe, "--no-inlines", "--functions=none",
                        "--output-style=GNU"], input="".join("0x%x\n" % a for a in addrs),
                       capture_output=True, text=True)
    lines = [l for l in r.stdout.split("\n") if l.strip()]
    return [norm(l) for l in lines] if len(lines) == len(addrs) else None


def runtime(exe, addrs, symbolizer, shift=1, run=(), lib=None, exe_file=None, args=()):
    env = dict(os.environ)
    env["UKASAN_OPTIONS"] = "ukasan.symbolizer=" + symbolizer
    lib = lib or os.path.join(BUILD, "lib", "libukasan.so")
    cmd = list(run)
    if run:
        cmd += ["-E", "LD_PRELOAD=" + lib, "-E", "UKASAN_OPTIONS=" + env["UKASAN_OPTIONS"]]
        env.pop("LD_PRELOAD", None)
    else:
        env["LD_PRELOAD"] = lib
    r = subprocess.run(cmd + [exe_file or exe, str(shift)] + list(args), cwd=ROOT, env=env, capture_output=True,
                       text=True, errors="replace", input="".join("%x\n" % a for a in addrs), timeout=600)
    got = {}
    for l in r.stdout.split("\n"):
        parts = l.split(" ", 1)
        if len(parts) == 2 and parts[0].startswith("0x"):
            got[int(parts[0], 16)] = norm(parts[1])
    return r.returncode, [got.get(a, "missing") for a in addrs], r.stderr


def compare(name, exe, addrs=None, obj=None, **kw):
    addrs = addrs or addresses(exe)
    ref = reference(obj or exe, addrs)
    if ref is None:
        ok(name, False, "llvm-symbolizer gave no answer per address")
        return None
    rc, got, err = runtime(exe, addrs, "internal", **kw)
    bad = [(a, r, g) for a, r, g in zip(addrs, ref, got) if r != g]
    known = sum(1 for r in ref if r != "?")
    why = "rc %d, %d of %d differ: %s %s" % (rc, len(bad), len(addrs), " ".join(
        "0x%x llvm=%s ours=%s;" % b for b in bad[:4]), err[-200:])
    ok("%s (%d addresses, %d with a line)" % (name, len(addrs), known),
       rc == 0 and not bad and known > len(addrs) // 4, why)
    return addrs, ref


def corrupt_copies(exe, addrs):
    """Random bytes over the debug sections: no crash, no hang."""
    sects = subprocess.run(["readelf", "-SW", exe], capture_output=True, text=True).stdout
    spans = []
    for m in re.finditer(r"\]\s+(\.debug_(?:line|info|abbrev|line_str|str))\s+\S+\s+\S+\s+"
                         r"([0-9a-f]+)\s+([0-9a-f]+)", sects):
        spans.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    rnd = random.Random(7)
    data = open(exe, "rb").read()
    fails = []
    for i in range(24):
        name, off, size = spans[i % len(spans)]
        b = bytearray(data)
        for _ in range(1 + i % 8):
            at = off + rnd.randrange(max(size, 1))
            n = rnd.choice((1, 1, 2, 4))
            b[at:at + n] = bytes(rnd.choice((0, 0xff, 0x80, rnd.randrange(256)))
                                 for _ in range(n))
        if i % 6 == 5:  # a table cut short: a length past the section's end
            b[off:off + 4] = b"\xf0\xff\xff\x7f"
        path = os.path.join(T, "corrupt")
        open(path, "wb").write(bytes(b))
        os.chmod(path, 0o755)
        rc, _, err = runtime(path, addrs[:200], "internal")
        if rc != 0 or "BUG" in err or "SEGV" in err:
            fails.append("%s#%d rc %d %s" % (name, i, rc, err[-120:]))
    ok("corrupt tables give no answer, no crash (24 copies)", spans and not fails,
       "; ".join(fails[:3]) or "no debug sections found")


def main():
    global SAMPLE
    os.makedirs(T, exist_ok=True)
    if not LLVM or not DWARFDUMP:
        print("ok dwarf_lines: # SKIP no llvm-symbolizer or llvm-dwarfdump")
        return
    variants = []
    for cc in (("gcc", "g++"), ("clang-16", "clang++-16")):
        for opt in ("-O0", "-O2"):
            for dw in ("-gdwarf-4", "-gdwarf-5"):
                variants.append((cc, [opt, dw], False))
        variants.append((cc, ["-O2", "-gdwarf-5"], True))
        variants.append((cc, ["-O0", "-gdwarf-4"], True))
    first = None
    for cc, flags, cxx in variants:
        name = "%s%s%s" % (cc[1] if cxx else cc[0], "".join(flags), "-cxx" if cxx else "")
        if not shutil.which(cc[0]):
            print("ok dwarf_lines: %s # SKIP no %s" % (name, cc[0]))
            continue
        exe, err = build(name.replace("+", "x"), cc, flags, cxx)
        if not exe:
            ok(name + " builds", False, err)
            continue
        r = compare(name, exe)
        if r and not first:
            first = (exe, r)

    if first:
        exe, (addrs, ref) = first
        _, got, _ = runtime(exe, addrs, "internal", shift=0)
        off = sum(1 for r, g in zip(ref, got) if r != g)
        ok("a planted off-by-one is noticed (%d differ)" % off, off > len(addrs) // 20,
           "the comparison would not see a wrong row")
        some = addrs[::max(1, len(addrs) // 12)][:12]
        _, got, err = runtime(exe, some, "external")
        ref = reference(exe, some)
        ok("ukasan.symbolizer=external agrees", got == ref, "%s vs %s %s" % (got, ref, err[-200:]))
        corrupt_copies(exe, addrs)

    # zlib-compressed sections (as Debian's debug files have them) are
    # inflated in the process; zstd ones are left to llvm-symbolizer.
    for z in ("zlib", "zstd"):
        exe, err = build("gz-" + z, ("gcc", "g++"), ["-O1", "-gdwarf-5", "-gz=" + z], True)
        if not exe:
            print("ok dwarf_lines: -gz=%s # SKIP gcc cannot compress so" % z)
            continue
        if z == "zlib":
            compare("g++ -O1 -gz=zlib (inflated in process)", exe)
            continue
        addrs = addresses(exe)
        some = [a for a, r in zip(addrs, reference(exe, addrs)) if r != "?"][::40][:8]
        _, got_int, _ = runtime(exe, some, "internal")
        _, got_auto, _ = runtime(exe, some, "auto")
        ref = reference(exe, some)
        ok("-gz=zstd: internal gives no answer, auto asks llvm-symbolizer",
           all(g == "?" for g in got_int) and got_auto == ref and some,
           "internal %s auto %s llvm %s" % (got_int, got_auto, ref))

    # libc from Debian's debug file: compressed, its units not read, the
    # line tables one after another; relative directories such as "./csu".
    libc = subprocess.run(["ldd", first[0] if first else "/bin/true"], capture_output=True,
                          text=True).stdout
    m = re.search(r"libc\.so\.6 => (\S+)", libc)
    bid = subprocess.run(["readelf", "-n", m.group(1)], capture_output=True,
                         text=True).stdout if m else ""
    b = re.search(r"Build ID: ([0-9a-f]+)", bid)
    dbg = b and "/usr/lib/debug/.build-id/%s/%s.debug" % (b.group(1)[:2], b.group(1)[2:])
    if first and dbg and os.path.exists(dbg):
        SAMPLE = 3000
        compare("libc with its debug file", first[0], addresses(dbg), obj=m.group(1),
                args=["libc"])
    else:
        print("ok dwarf_lines: libc # SKIP no debug file for libc (libc6-dbg)")

    cross = os.path.join(ROOT, "build", "aarch64", "lib", "libukasan.so")
    qemu = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]
    if not (shutil.which("aarch64-linux-gnu-gcc") and shutil.which("qemu-aarch64")
            and os.path.exists(cross)):
        print("ok dwarf_lines: aarch64 # SKIP no cross compiler, qemu or build/aarch64")
        return
    SAMPLE = 600
    for flags, cxx in ((["-O2", "-gdwarf-5"], False), (["-O0", "-gdwarf-4"], False),
                       (["-O2", "-gdwarf-5"], True)):
        cc = ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++")
        name = "aarch64-%s%s%s" % ("g++" if cxx else "gcc", "".join(flags), "-cxx" if cxx else "")
        exe, err = build(name.replace("+", "x"), cc, flags, cxx)
        if not exe:
            ok(name + " builds", False, err)
            continue
        compare(name, exe, run=qemu, lib=cross)


main()
