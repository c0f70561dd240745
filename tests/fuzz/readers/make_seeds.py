#!/usr/bin/env python3
"""Writes the fuzz target's seed corpus (seeds/, committed): one small
program built with DWARF 4, DWARF 5 and zlib-compressed debug sections,
its .eh_frame image, its build-id note, zlib streams and mangled names.
Each seed starts with the byte that picks the reader (_fuzz_readers.c).
Usage: make_seeds.py [OUTDIR]"""
import os, struct, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "seeds")
PROG = "int g(int x) { return x * 3; }\nint main(int c, char **v) { (void)v; return g(c); }\n"


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
