#!/usr/bin/env python3
"""Hostile images: the dynamic linker reads program headers only, so a
program whose section headers, symbol table, build-id note, line tables,
.eh_frame or compressed debug sections are corrupt on disk runs normally.
The runtime reads all of them for a report; it must still print the report
(with fewer symbols, maybe) and let the program finish as it would, never
fault itself. Each case edits a linked program's bytes, then runs its
use-after-free under KFENCE (and under generic KASAN, built by ukasan-cc):
the report's title, the line after the bug ("survived"), and the exit
status of a report are checked. `ukasan symbolize --exe` reads the same
headers, in Python, and must pass the report through."""
import os
import struct
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT", os.getcwd())
B = os.path.join(ROOT, os.environ.get("UKASAN_BUILD", "build"))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "corrupt_images")
LIB = os.path.join(B, "lib", "libukasan.so")
SRC = os.path.join(ROOT, "tests", "tools", "_corrupt_bug.c")


class Image:
    """A 64-bit little-endian ELF file's bytes and section headers."""

    def __init__(self, path):
        self.b = bytearray(open(path, "rb").read())
        self.shoff, = struct.unpack_from("<Q", self.b, 0x28)
        self.shnum, self.shstrndx = struct.unpack_from("<HH", self.b, 0x3c)
        names = self.hdr(self.shstrndx)
        self.secs = {}
        for i in range(self.shnum):
            h = self.hdr(i)
            end = self.b.index(b"\0", names["off"] + h["name"])
            self.secs[self.b[names["off"] + h["name"]:end].decode()] = i

    def hdr(self, i):
        f = struct.unpack_from("<IIQQQQIIQQ", self.b, self.shoff + 64 * i)
        return dict(zip(("name", "type", "flags", "addr", "off", "size", "link", "info",
                         "align", "entsize"), f))

    def set_hdr(self, i, **kw):
        h = self.hdr(i)
        h.update(kw)
        struct.pack_into("<IIQQQQIIQQ", self.b, self.shoff + 64 * i, h["name"], h["type"],
                         h["flags"], h["addr"], h["off"], h["size"], h["link"], h["info"],
                         h["align"], h["entsize"])

    def sec(self, name):
        return self.hdr(self.secs[name])

    def fill(self, name, byte, start=0, length=None):
        h = self.sec(name)
        n = h["size"] - start if length is None else length
        self.b[h["off"] + start:h["off"] + start + n] = bytes([byte]) * n


def wrap_sections(im):
    # offsets and sizes whose sum wraps to a small number
    for i in range(1, im.shnum):
        im.set_hdr(i, off=0xffffffffffff0000, size=0x10100)


def wrap_shoff(im):
    struct.pack_into("<Q", im.b, 0x28, 0xffffffffffffffc0)


def many_sections(im):
    struct.pack_into("<H", im.b, 0x3c, 0xffff)  # e_shnum past the file


def bad_shstrndx(im):
    struct.pack_into("<H", im.b, 0x3e, 0xfff0)


def note_sizes(im):
    # the build-id note: loaded with the program, read in memory too
    h = im.sec(".note.gnu.build-id")
    struct.pack_into("<III", im.b, h["off"], 0xfffffffd, 0xfffffff0, 3)


def note_desc(im):
    h = im.sec(".note.gnu.build-id")
    struct.pack_into("<III", im.b, h["off"], 4, 0xffffffff, 3)


def symtab(im):
    # names past the string table, values and sizes that wrap, and a
    # string table that ends inside a name
    h = im.sec(".symtab")
    for k in range(h["size"] // 24):
        o = h["off"] + 24 * k
        struct.pack_into("<I", im.b, o, 0xfffffff0 if k % 2 else 1)
        struct.pack_into("<QQ", im.b, o + 8, 0xfffffffffffff000, 0x100000)
    s = im.secs[".strtab"]
    im.set_hdr(s, size=im.hdr(s)["size"] - 1)


def symtab_misaligned(im):
    s = im.secs[".symtab"]
    h = im.hdr(s)
    im.set_hdr(s, off=h["off"] + 3, size=0xffffffffffffff00)


def debug_line(im):
    im.fill(".debug_line", 0xff)


def debug_line_lengths(im):
    # a unit length that reaches past the section, a header length that
    # wraps, and opcodes that skip huge operand counts
    h = im.sec(".debug_line")
    struct.pack_into("<IHQ", im.b, h["off"], 0xfffffff0, 4, 0xfffffffffffffff0)
    im.fill(".debug_info", 0x80, 11)


def debug_info(im):
    # an address size of 255, forms no reader knows
    h = im.sec(".debug_info")
    im.b[h["off"] + 7] = 0xff
    im.fill(".debug_abbrev", 0x7f)


def eh_frame(im):
    im.fill(".eh_frame", 0xff)


def eh_frame_hdr(im):
    # the sorted table's FDE offsets point far outside the object
    h = im.sec(".eh_frame_hdr")
    for o in range(12, h["size"] - 3, 4):
        struct.pack_into("<i", im.b, h["off"] + o, -0x40000000 if o % 8 else 0x7ffffff0)


def eh_frame_cie(im):
    # CIE lengths past the section, augmentation lengths past the CIE
    h = im.sec(".eh_frame")
    im.fill(".eh_frame", 0x7f, 8)
    struct.pack_into("<I", im.b, h["off"], 0xfffffff0)


def zdebug(im):
    # compressed sections: a claimed size of 255 MiB and a stream of junk
    for name in (".debug_line", ".debug_str", ".debug_line_str", ".debug_info"):
        if name in im.secs:
            h = im.sec(name)
            struct.pack_into("<IIQQ", im.b, h["off"], 1, 0, 255 << 20, 1)
            im.b[h["off"] + 24:h["off"] + h["size"]] = bytes(
                [(k * 131 + 7) & 0xff for k in range(h["size"] - 24)])


def zdebug_bomb(im):
    # a valid zlib header, then stored blocks whose lengths overrun
    h = im.sec(".debug_line")
    struct.pack_into("<IIQQ", im.b, h["off"], 1, 0, 1 << 20, 1)
    im.b[h["off"] + 24:h["off"] + 30] = bytes([0x78, 0x01, 0x00, 0xff, 0xff, 0x00])


def all_junk(im):
    # every section after the loaded ones: deterministic junk
    x = 12345
    for name, i in im.secs.items():
        h = im.hdr(i)
        if name and not h["flags"] & 2 and h["type"] != 8:  # not SHF_ALLOC, not NOBITS
            for k in range(h["off"], h["off"] + h["size"]):
                x = (x * 1103515245 + 12345) & 0x7fffffff
                im.b[k] = x >> 16 & 0xff


CASES = [
    ("section headers wrap", "", wrap_sections),
    ("e_shoff wraps", "", wrap_shoff),
    ("e_shnum past the file", "", many_sections),
    ("e_shstrndx past the table", "", bad_shstrndx),
    ("build-id note sizes wrap", "", note_sizes),
    ("build-id note desc past the note", "", note_desc),
    ("symtab names, values and strtab", "", symtab),
    ("symtab misaligned and huge", "", symtab_misaligned),
    (".debug_line junk", "", debug_line),
    (".debug_line lengths", "", debug_line_lengths),
    (".debug_info address size", "", debug_info),
    (".eh_frame junk", "", eh_frame),
    (".eh_frame_hdr table", "", eh_frame_hdr),
    (".eh_frame CIE lengths", "", eh_frame_cie),
    ("compressed .debug junk", "-gz=zlib", zdebug),
    ("compressed .debug stored overrun", "-gz=zlib", zdebug_bomb),
    ("every unloaded section junk", "", all_junk),
]


def build(out, flags, generic):
    cc = [os.path.join(B, "bin", "ukasan-cc")] if generic else ["gcc"]
    env = dict(os.environ, UKASAN_MODE="generic", UKASAN_CC="gcc")
    r = subprocess.run(cc + ["-g", "-O1", "-Wl,--build-id", *flags.split(), "-o", out, SRC],
                       env=env, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


A64_LIB = os.path.join(B, "aarch64", "lib", "libukasan.so")
A64_SYSROOT = "/usr/aarch64-linux-gnu"


def run(exe, generic, symbolizer, arm64=False):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    opts = "ukasan.symbolizer=%s" % symbolizer
    cmd = [exe]
    if arm64:
        cmd = ["qemu-aarch64", "-cpu", "max", "-L", A64_SYSROOT, "-E",
               "LD_PRELOAD=" + A64_LIB, exe]
        opts += " kfence.sample_rate=1"
    elif not generic:
        env["LD_PRELOAD"] = LIB
        opts += " kfence.sample_rate=1"
    env["UKASAN_OPTIONS"] = opts
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", "timed out"
    return r.returncode, r.stdout, r.stderr


def title_of(generic):
    return "BUG: KASAN: slab-use-after-free" if generic else "BUG: KFENCE: use-after-free read"


def check(name, exe, generic, symbolizer, status, arm64=False):
    title = title_of(generic)
    rc, out, err = run(exe, generic, symbolizer, arm64)
    why = None
    if rc is None:
        why = "timed out"
    elif rc < 0:
        why = "killed by signal %d" % -rc
    elif rc != status:
        why = "exit status %d, want %d" % (rc, status)
    elif title not in err:
        why = "no report '%s'" % title
    elif "survived 1" not in out:
        why = "the program did not go on after the report"
    elif err.count("=" * 60) < 2:
        why = "the report did not end"
    if why:
        tail = " | ".join(err.strip().splitlines()[-4:])
        print("not ok %s - %s: %s" % (name, why, tail))
    else:
        print("ok %s" % name)
    return err


def check_symbolize(name, exe, report):
    """ukasan symbolize over the report, with the corrupt program as --exe:
    it reads the same headers, in Python, and must pass the report on."""
    sym = os.path.join(B, "bin", "ukasan")
    r = subprocess.run([sym, "symbolize", "--exe", exe], input=report, capture_output=True,
                       text=True, errors="replace", timeout=120)
    if r.returncode != 0 or "Traceback" in r.stderr or r.stdout.count("\n") < report.count("\n"):
        print("not ok %s - status %d: %s" % (name, r.returncode, r.stderr.strip()[-300:]))
    else:
        print("ok %s" % name)


def main():
    os.makedirs(T, exist_ok=True)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS"):
        os.environ.pop(k, None)
    only = sys.argv[1:]
    for generic in (False, True):
        kind = "generic" if generic else "kfence"
        base = {}
        for flags in sorted({c[1] for c in CASES}):
            exe = os.path.join(T, "%s%s" % (kind, flags.replace("=", "_")))
            ok, log = build(exe, flags, generic)
            if not ok:
                print("not ok corrupt images %s: build %s - %s" % (kind, flags, log.strip()[:200]))
                return
            base[flags] = exe
        # the program as built: its status after a report is the one
        # every corrupted copy must keep
        rc, out, err = run(base[""], generic, "auto")
        if rc is None or rc < 0 or title_of(generic) not in err or "survived 1" not in out:
            print("not ok corrupt images %s: reference run - status %s: %s" % (kind, rc, err[-300:]))
            return
        for what, flags, edit in CASES:
            if only and not any(o in what for o in only):
                continue
            im = Image(base[flags])
            edit(im)
            exe = os.path.join(T, "%s-%s" % (kind, edit.__name__))
            open(exe, "wb").write(im.b)
            os.chmod(exe, 0o755)
            for sym in ("internal", "auto"):
                err = check("corrupt images %s: %s [%s]" % (kind, what, sym), exe, generic, sym, rc)
            if not generic:
                check_symbolize("corrupt images: ukasan symbolize --exe, %s" % what, exe, err)
    arm64(only)


def arm64(only):
    """The KFENCE cases on arm64, under qemu, where its build is present
    (make test builds it), the .eh_frame ones included: the runtime's own
    unwinder reads the tables, from the fault's registers too (libgcc's,
    used before, aborted on junk .eh_frame there)."""
    import shutil
    if not (os.path.exists(A64_LIB) and shutil.which("qemu-aarch64") and
            shutil.which("aarch64-linux-gnu-gcc")):
        return
    base = os.path.join(T, "a64")
    r = subprocess.run(["aarch64-linux-gnu-gcc", "-g", "-O1", "-Wl,--build-id", "-o", base, SRC],
                       capture_output=True, text=True)
    if r.returncode:
        print("not ok corrupt images aarch64: build - %s" % r.stderr.strip()[:200])
        return
    rc, out, err = run(base, False, "auto", True)
    if rc is None or rc < 0 or title_of(False) not in err or "survived 1" not in out:
        print("not ok corrupt images aarch64: reference run - status %s: %s" % (rc, err[-300:]))
        return
    for what, flags, edit in CASES:
        if flags or (only and not any(o in what for o in only)):
            continue
        im = Image(base)
        edit(im)
        exe = os.path.join(T, "a64-%s" % edit.__name__)
        open(exe, "wb").write(im.b)
        os.chmod(exe, 0o755)
        check("corrupt images aarch64/kfence: %s" % what, exe, False, "auto", rc, True)


if __name__ == "__main__":
    main()
