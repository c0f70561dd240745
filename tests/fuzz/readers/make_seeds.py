#!/usr/bin/env python3
"""Writes the fuzz target's seed corpus (seeds/, committed): one small
program built with DWARF 4, DWARF 5 and zlib-compressed debug sections,
its .eh_frame image, its build-id note, zlib streams and mangled names;
and a program with inlined functions built -O2 by gcc and clang with
DWARF 4 and 5, cut down to its debug sections, for the reader of inlined
functions (src/symbolize/dwarf_info.c).
Each seed starts with the byte that picks the reader (_fuzz_readers.c).
Usage: make_seeds.py [OUTDIR]"""
import os, struct, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "seeds")
PROG = "int g(int x) { return x * 3; }\nint main(int c, char **v) { (void)v; return g(c); }\n"
# inlined twice deep, in a function of .text and in gcc's .text.startup
# main: gcc's units and inlined calls then have ranges lists
INLINE_PROG = """\
static inline __attribute__((always_inline)) int add(int a, int b) { return a * 7 + b; }
static inline __attribute__((always_inline)) int twice(int a) { return add(a, a) ^ add(a, 3); }
__attribute__((noinline)) int run(int c)
{
	int s = 0;
	for (int i = 0; i < c; i++)
		s += twice(i);
	return s;
}
int main(int c, char **v) { (void)v; return twice(c) + run(c); }
"""
# the same in C++: a method, whose entry names its declaration
# (DW_AT_specification) and its linkage name
INLINE_CXX = """\
namespace ns {
volatile int seen; /* keeps clang from folding the loop and the calls */
struct Acc {
	int s;
	__attribute__((always_inline)) void add(int a) { s += a * 7; seen = s; }
};
}
static inline __attribute__((always_inline)) int twice(ns::Acc &a, int x)
{
	a.add(x);
	a.add(3);
	return a.s;
}
extern "C" __attribute__((noinline)) int run(int c)
{
	ns::Acc a{0};
	for (int i = 0; i < c; i++)
		twice(a, i);
	return a.s;
}
int main(int c, char **) { ns::Acc a{c}; return twice(a, c) + run(c); }
"""


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        out[name] = (h[4], h[5])
    return out


def debug_only(data):
    """The ELF file data with only the debug sections the DWARF readers
    read (and the section names): a small image, read as the whole file.
    Its entry point is kept, from which the fuzz target takes addresses."""
    secs = sections(data)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, = struct.unpack_from("<H", data, 0x3c)
    flags = {}
    for i in range(shnum):
        h = struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i)
        flags[h[4], h[5]] = h[2]
    read = ("info", "abbrev", "line", "str", "line_str", "addr", "str_offsets", "ranges",
            "rnglists")
    keep = [(n, o, z) for n, (o, z) in secs.items() if n[len(".debug_"):] in read]
    names = b"\0" + b"".join(n.encode() + b"\0" for n, _, _ in keep) + b".shstrtab\0"
    body, hdrs, at = b"", [b"\0" * 64], 64
    for n, o, z in keep:
        hdrs.append(struct.pack("<IIQQQQIIQQ", names.index(b"\0" + n.encode() + b"\0") + 1, 1,
                                flags[o, z], 0, at + len(body), z, 0, 0, 1, 0))
        body += data[o:o + z]
    hdrs.append(struct.pack("<IIQQQQIIQQ", names.index(b".shstrtab"), 3, 0, 0, at + len(body),
                            len(names), 0, 0, 1, 0))
    body += names
    body += b"\0" * (-len(body) % 8)
    eh = bytearray(data[:64])
    struct.pack_into("<QQ", eh, 0x20, 0, at + len(body))  # no program headers
    struct.pack_into("<HHHH", eh, 0x38, 0, 64, len(hdrs), len(hdrs) - 1)
    return bytes(eh) + body + b"".join(hdrs)


def inline_pcs(exe):
    """Up to 4 addresses of exe's code with the deepest chains of inlined
    functions, each chain once (llvm-symbolizer --inlining)."""
    sym = subprocess.run(["nm", "-S", exe], capture_output=True, text=True).stdout
    addrs = []
    for l in sym.splitlines():
        f = l.split()
        if len(f) == 4 and f[3] in ("run", "main"):
            addrs += range(int(f[0], 16), int(f[0], 16) + int(f[1], 16))
    out = subprocess.run(["llvm-symbolizer-16", "--inlining", "--functions=linkage", "-e", exe],
                         input="".join("0x%x\n" % a for a in addrs), capture_output=True,
                         text=True).stdout
    chains = {}
    for a, block in zip(addrs, out.split("\n\n")):
        frames = tuple(block.splitlines()[::2])
        chains.setdefault(frames, a)
    best = sorted(chains.items(), key=lambda c: (-len(c[0]), c[1]))
    return [a for _, a in best[:4]]


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {}
    with tempfile.TemporaryDirectory() as t:
        src = os.path.join(t, "t.c")
        open(src, "w").write(PROG)
        for name, flags in (("dwarf4", ["-gdwarf-4"]), ("dwarf5", ["-gdwarf-5"]),
                            ("zlib", ["-gdwarf-5", "-gz=zlib"])):
            exe = os.path.join(t, name)
            subprocess.run(["gcc", "-g", "-O1", "-Wl,-z,noseparate-code", "-Wl,--build-id",
                            *flags, "-o", exe, src], check=True)
            seeds["elf_" + name] = b"\0" + open(exe, "rb").read()
        data = seeds["elf_dwarf5"][1:]
        secs = sections(data)
        # The loaded image's first bytes are the file's (offset == address
        # here): the .eh_frame_hdr's offset, a pc in g, the image.
        hdr = secs[".eh_frame_hdr"][0]
        end = secs[".eh_frame"][0] + secs[".eh_frame"][1]
        sym = subprocess.run(["nm", os.path.join(t, "dwarf5")], capture_output=True, text=True)
        g = int([l.split()[0] for l in sym.stdout.splitlines() if l.endswith(" g")][0], 16)
        seeds["cfi"] = b"\3" + struct.pack("<II", hdr, g + 2) + data[:end]
        off, size = secs[".note.gnu.build-id"]
        seeds["note"] = b"\4" + data[off:off + size]
        open(os.path.join(t, "inline.c"), "w").write(INLINE_PROG)
        open(os.path.join(t, "inline.cc"), "w").write(INLINE_CXX)
        # gcc -flto: the inlined entries of its unit refer to another
        # unit's (DW_FORM_ref_addr)
        for cc, d, lang, more in (("gcc", 4, "c", ["-flto"]), ("g++", 5, "cc", []),
                                  ("clang++-16", 4, "cc", []), ("clang-16", 5, "c", [])):
            exe, src = os.path.join(t, "inline"), os.path.join(t, "inline." + lang)
            subprocess.run([cc, "-g", "-gdwarf-%d" % d, "-O2", *more, "-o", exe, src],
                           check=True)
            # the image, then the addresses the target reads from its
            # last 32 bytes
            pcs = inline_pcs(exe)
            pcs += [pcs[0]] * (4 - len(pcs))
            seeds["inline_%s_dwarf%d" % (cc.split("-")[0].replace("+", "x"), d)] = (
                b"\0" + debug_only(open(exe, "rb").read()) + struct.pack("<4Q", *pcs))
    text = PROG.encode() * 8
    seeds["inflate_fixed"] = b"\1" + zlib.compress(text, 1)[:]
    seeds["inflate_dynamic"] = b"\1" + zlib.compress(bytes(range(256)) * 4 + text, 9)
    seeds["inflate_stored"] = b"\1" + zlib.compress(text, 0)
    names = ["_ZN2ns1K3getEv", "_ZNSt6vectorIiSaIiEE9push_backERKi",
             "_ZZ4mainENKUliE_clEi", "_Z1fIiEvT_PFvS0_EPA3_i", "_ZN1AC2ERKS_.constprop.0",
             "_ZNK3FooIJidEE3barILi3EEEDTcl1fT_EES2_"]
    for i, n in enumerate(names):
        seeds["demangle%d" % i] = b"\2" + bytes([200]) + n.encode()
    for k, v in seeds.items():
        open(os.path.join(OUT, k), "wb").write(v)


if __name__ == "__main__":
    main()
