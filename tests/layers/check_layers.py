#!/usr/bin/env python3
"""The runtime's layering, enforced: src/LAYERS names its folders top first,
and a file may include headers of its own folder and of folders below it,
never of one above, so no two folders include each other, directly or in a
loop. Also: no runtime source file over 600 lines.

An include is found as the compiler finds it: beside the including file,
then in the folders the Makefile's RT_INCLUDES names (-Isrc/symbolize: the
symbolizer's headers by name, wherever the includer lives), which the
runtime's C files are compiled with; the names of the headers there must be
unique in src/, and an include found nowhere is an error.

The interceptors (src/interceptors/) are compiled into programs, so they
may include, even through other headers, only headers of interceptors/,
shadow/, arch/, base/ and the public include/.

Includes are not calls: a function declared by hand is called all the
same. So the same order is read from the built objects' symbols too, for
every build tree present (the native one, and build/ARCH from make
ARCH=...): each undefined symbol of an object of libukasan.so, resolved to
the object that defines it, must belong to the same folder or one below (a
glibc name the runtime interposes on a line of its own: inside the library
the call binds to the interposer); the interceptors' objects may reach the
runtime only through its exported ABI; and inside kasan/, src/kasan/LAYERS
orders the files in tiers the same way.

Some folders may reach certain folders below them only through a contract
header of base/, not by their headers or their functions (FENCED): kmemleak
reads heaps only through base/leak_heap.h, never kasan/'s, kfence/'s or
shadow/'s internals, so that any heap (KASAN's modes, KFENCE's pool, the
preload's tracking) can serve it. Checked in the includes and in the built
objects' symbols.

The sinks, where reports go, are report/'s alone (SINKS): only report/
calls the OS's primitives that open or write a destination of reports
(config/log.c may write a line to fd 2 before the sinks are set up), and
only report/ and the composition roots (runtime/, and leaks/, the
ukasan-leaks tool) include report/sink.h or call the
sinks' functions; a detector ends its report through report_finish. So a
new sink is written in src/report/ and nowhere else. And KASAN's headers
are its own but for its public face (PUBLIC_FACES: kasan.h, and
asan_interface.h for ASan's interface): runtime/ reaches KASAN only
through those, never its internals (kasan_internal.h), its modes'
interface (mode.h) or its report record (report.h).

Each check also runs on a copy with one upward include or reference
planted, where it must fail: a check that cannot fail checks nothing.
"""
import copy
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
MAX_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# What the interceptors, linked into each program, may include.
INTERCEPTOR_INCLUDES = ("interceptors", "shadow", "arch", "base")
# The only upward calls: the assembly entries that compiled code's checks
# jump to save registers and then enter the runtime by its exported ABI,
# as the kernel's do.
ALLOWED_UP = {
    ("arch/x86_64/callbacks.S", "__ukasan_access_failed"),
    ("arch/aarch64/tag_mismatch.S", "__ukasan_tag_mismatch"),
}
# glibc names whose runtime interposer every layer is meant to reach: on
# arm64, runtime/zero.c zeroes tagged memory with plain stores while
# hardware tags are on (qemu-user mishandles DC ZVA on a tagged pointer),
# and the runtime's own zeroing of tagged objects needs that as much as the
# program's does; any other pointer goes straight on to glibc's.
ALLOWED_INTERPOSERS = {
    ("runtime/zero.c", "__memset_chk"),
    ("runtime/zero.c", "memset"),
}
# Folders a folder may not reach, though they are below it: it sees them
# only through a contract of base/ that the composition root connects.
FENCED = {
    "kmemleak": ("kasan", "ubsan", "kfence", "shadow"),
}
# The sinks: the OS's primitives that open or write a destination of
# reports, and who may call each (a folder, or one file); the sinks' own
# header and objects, and who may include or call them.
SINK_PRIMITIVES = {
    "os_open_log": ("report",),
    "os_open_dir": ("report",),
    "os_dgram_send": ("report",),
    "os_sealed_memfd": ("report",),
    "os_write_report": ("report", "config/log.c"),
}
SINK_FILES = ("report/sink.h", "report/sink.c", "report/sink_socket.c")
SINK_USERS = ("report", "runtime", "leaks")  # leaks/: ukasan-leaks, a composition root of its own
# Headers only some folders may include: the sinks'; KASAN's internals and
# its modes' interface, which the composition root reaches only through
# kasan.h, KASAN's public face.
PRIVATE_HEADERS = {
    "report/sink.h": SINK_USERS,
}
# Folders whose headers are their own but for a public face: the other
# folders include only these of them.
PUBLIC_FACES = {
    "kasan": ("kasan.h", "asan_interface.h", "generic_shadow.h"),  # the shadow's format, for ukasan-leaks
}
# The runtime's exported ABI, what compiled code and the interceptors call.
ABI_PREFIXES = ("__ukasan_", "__asan_", "__hwasan_")


def layers(src):
    order = []
    for line in open(os.path.join(src, "LAYERS")):
        line = line.split("#")[0].strip()
        if line:
            order.append(line.split()[0])
    return order


def include_path(src):
    """The folders of src the runtime's C files are compiled with -I for:
    the Makefile's RT_INCLUDES."""
    makefile = os.path.join(os.path.dirname(src), "Makefile")
    m = re.search(r"^RT_INCLUDES\s*:?=(.*)$", open(makefile).read(), re.M)
    return [os.path.join(src, os.path.relpath(d, "src")) for d in
            re.findall(r"-I\s*(src/\S+)", m.group(1))] if m else []


def resolve(src, path, inc, search):
    """The file `#include "inc"` in path names, as the compiler finds it:
    beside path, then in search (not for the interceptors and the
    assembly, which are compiled without it); None when nowhere."""
    here = os.path.normpath(os.path.join(os.path.dirname(path), inc))
    if os.path.exists(here):
        return here
    rel = os.path.relpath(path, src)
    if not rel.startswith("interceptors" + os.sep) and not path.endswith(".S"):
        for d in search:
            there = os.path.normpath(os.path.join(d, inc))
            if os.path.exists(there):
                return there
    return None


def duplicate_names(src, search):
    """Header names of the include path's folders that some other folder
    of src also has: a bare include of one could mean either."""
    names = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if f.endswith(".h"):
                names.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), src))
    return sorted(" and ".join(sorted(where)) for d in search for f in os.listdir(d)
                  if f.endswith(".h") for where in [names.get(f, [])] if len(where) > 1)


def private_users(trel, folder):
    """The folders that may include the header trel (relative to src/):
    (folder,) when any may."""
    t = trel.replace(os.sep, "/")
    tfolder, name = t.split("/")[0], os.path.basename(t)
    if t in PRIVATE_HEADERS:
        return PRIVATE_HEADERS[t]
    if tfolder in PUBLIC_FACES and name not in PUBLIC_FACES[tfolder]:
        return (tfolder,)
    return (folder,)


def violations(src):
    """(file, included header, why) for every include that goes up or is
    found nowhere."""
    order = layers(src)
    rank = {name: i for i, name in enumerate(order)}
    search = include_path(src)
    bad = []
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith((".c", ".h", ".S")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            folder = rel.split(os.sep)[0]
            if folder not in rank:
                bad.append((rel, "", f"folder {folder} is not in src/LAYERS"))
                continue
            for inc in INCLUDE.findall(open(path, errors="replace").read()):
                target = resolve(src, path, inc, search)
                if target is None:
                    bad.append((rel, inc, "found neither beside it nor in the include path"))
                    continue
                trel = os.path.relpath(target, src)
                if trel.startswith(".."):
                    continue  # include/ukasan.h, the public header
                tfolder = trel.split(os.sep)[0]
                if tfolder not in rank:
                    bad.append((rel, inc, f"{tfolder} is not in src/LAYERS"))
                elif rank[tfolder] < rank[folder]:
                    bad.append((rel, inc, f"{folder} includes {tfolder}, which is above it"))
                elif tfolder in FENCED.get(folder, ()):
                    bad.append((rel, inc, f"{folder} may reach {tfolder} only through base/"))
                elif folder not in private_users(trel, folder):
                    users = private_users(trel, folder)
                    bad.append((rel, inc, f"only {', '.join(u + '/' for u in users)} include it"))
    return bad


def interceptor_include_violations(src):
    """(file, chain of headers) for every header an interceptor reaches,
    directly or through other headers, outside the folders it may use."""
    public = os.path.join(os.path.dirname(src), "include")
    bad = []
    for path in sorted(glob.glob(os.path.join(src, "interceptors", "*.[chS]"))):
        seen = set()
        todo = [(path, [])]
        while todo:
            cur, chain = todo.pop()
            for inc in INCLUDE.findall(open(cur, errors="replace").read()):
                target = os.path.normpath(os.path.join(os.path.dirname(cur), inc))
                if target in seen:
                    continue
                seen.add(target)
                if os.path.dirname(target) == public:
                    continue
                trel = os.path.relpath(target, src)
                if trel.startswith("..") or trel.split(os.sep)[0] not in INTERCEPTOR_INCLUDES:
                    bad.append((os.path.relpath(path, src), " -> ".join(chain + [inc])))
                elif os.path.exists(target):
                    todo.append((target, chain + [inc]))
    return bad


def long_files(src):
    out = []
    for dirpath, _, files in os.walk(src):
        for f in files:
            if f.endswith((".c", ".h", ".S")):
                path = os.path.join(dirpath, f)
                n = sum(1 for _ in open(path, errors="replace"))
                if n > MAX_LINES:
                    out.append(f"{os.path.relpath(path, src)} ({n} lines)")
    return out


def include_checks(src):
    bad = violations(src)
    if bad:
        print("not ok layering - " + "; ".join(f"{f}: {i} ({why})" for f, i, why in bad))
    else:
        print(f"ok layering: {len(layers(src))} folders, every include goes down")
    bad = interceptor_include_violations(src)
    allowed = ", ".join(f + "/" for f in INTERCEPTOR_INCLUDES) + " and include/"
    if bad:
        print("not ok interceptors' includes - " + "; ".join(f"{f}: {c}" for f, c in bad))
    else:
        print(f"ok interceptors' includes: only {allowed}")
    big = long_files(src)
    print("not ok file size - " + ", ".join(big) if big else
          f"ok file size: no runtime file over {MAX_LINES} lines")
    search = include_path(src)
    shown = " ".join("-I" + os.path.relpath(d, os.path.dirname(src)) for d in search) or "none"
    dup = duplicate_names(src, search)
    if dup:
        print(f"not ok include path ({shown}) - header names not unique in src/: " + "; ".join(dup))
    else:
        print(f"ok include path ({shown}): its header names are unique in src/")
    # The same checks must catch an upward include: shadow/ reaching into
    # kasan/, as kfence once did; an interceptor reaching into kasan/ or
    # config/, which their rank alone would allow.
    with tempfile.TemporaryDirectory() as tmp:
        copy_src = os.path.join(tmp, "src")
        shutil.copytree(src, copy_src)
        os.makedirs(os.path.join(tmp, "include"))
        shutil.copy(os.path.join(os.path.dirname(src), "Makefile"), tmp)
        with open(os.path.join(copy_src, "shadow", "shadow.c"), "a") as f:
            f.write('\n#include "../kasan/kasan.h"\n')
        caught = [v for v in violations(copy_src) if v[0] == os.path.join("shadow", "shadow.c")]
        if caught and "above" in caught[0][2]:
            print("ok layering check fails on an added upward include (shadow -> kasan)")
        else:
            print("not ok layering check missed an upward include (shadow -> kasan)")
        # stack/ above symbolize/: the symbolizer reaching up into the
        # unwinder, and config/ reaching symbolize.h by its bare name
        # through the include path; an include found nowhere; a second
        # header of an include path header's name.
        with open(os.path.join(copy_src, "symbolize", "symbolize.c"), "a") as f:
            f.write('\n#include "../stack/unwind.h"\n')
        with open(os.path.join(copy_src, "config", "log.c"), "a") as f:
            f.write('\n#include "symbolize.h"\n#include "no_such_header.h"\n')
        search = include_path(copy_src)
        got = {(f, i): why for f, i, why in violations(copy_src)}
        want = {(os.path.join("symbolize", "symbolize.c"), "../stack/unwind.h"): "above",
                (os.path.join("config", "log.c"), "symbolize.h"): "above",
                (os.path.join("config", "log.c"), "no_such_header.h"): "found neither"}
        missed = [f"{f}: {i}" for (f, i), why in want.items() if why not in got.get((f, i), "")]
        open(os.path.join(copy_src, "stack", "symbolize.h"), "w").close()
        if not any("stack/symbolize.h" in d for d in duplicate_names(copy_src, search)):
            missed.append("stack/symbolize.h beside symbolize/symbolize.h")
        if search and not missed:
            print("ok layering check fails on symbolize -> stack, on config -> symbolize.h "
                  "by name, on an include found nowhere and on a header name twice")
        else:
            print("not ok layering check missed " + (", ".join(missed) or "all: no include path"))
        # And on kmemleak reaching past its contract into a heap's header.
        for folder, fenced in FENCED.items():
            victim = sorted(glob.glob(os.path.join(copy_src, folder, "*.c")))[0]
            header = sorted(h for h in os.listdir(os.path.join(src, fenced[0])) if h.endswith(".h"))[0]
            planted = f"../{fenced[0]}/{header}"
            with open(victim, "a") as f:
                f.write(f'\n#include "{planted}"\n')
            rel = os.path.relpath(victim, copy_src)
            if any(f == rel and i == planted and "only through" in why
                   for f, i, why in violations(copy_src)):
                print(f"ok layering check fails on an added include past a contract ({rel} -> {planted})")
            else:
                print(f"not ok layering check missed an include past a contract ({rel} -> {planted})")
        # A detector reaching the sinks past report_finish.
        with open(os.path.join(copy_src, "kfence", "report.c"), "a") as f:
            f.write('\n#include "../report/sink.h"\n')
        # The root reaching past kasan.h into KASAN's internals.
        with open(os.path.join(copy_src, "runtime", "init.c"), "a") as f:
            f.write('\n#include "../kasan/kasan_internal.h"\n#include "../kasan/mode.h"\n'
                    '#include "../kasan/report.h"\n')
        got = {(f, i) for f, i, why in violations(copy_src) if "include it" in why}
        want = {(os.path.join("kfence", "report.c"), "../report/sink.h"),
                (os.path.join("runtime", "init.c"), "../kasan/kasan_internal.h"),
                (os.path.join("runtime", "init.c"), "../kasan/mode.h"),
                (os.path.join("runtime", "init.c"), "../kasan/report.h")}
        if want <= got and not any(i in ("../kasan/kasan.h",) for f, i in got):
            print("ok layering check fails on private headers included from outside "
                  "(kfence -> report/sink.h, runtime -> kasan/kasan_internal.h, mode.h, report.h)")
        else:
            print("not ok layering check missed private headers included from outside: "
                  + ", ".join(f"{f} -> {i}" for f, i in sorted(want - got)))
        planted = ["../kasan/kasan.h", "../config/log.h"]
        with open(os.path.join(copy_src, "interceptors", "str.c"), "a") as f:
            f.write("".join(f'\n#include "{p}"\n' for p in planted))
        caught = {c for f, c in interceptor_include_violations(copy_src)
                  if f == os.path.join("interceptors", "str.c")}
        if caught == set(planted):
            print("ok interceptors' include check fails on added includes (kasan.h, config/log.h)")
        else:
            print("not ok interceptors' include check caught " + (", ".join(sorted(caught)) or "nothing")
                  + " of " + ", ".join(planted))


# ---- The same order, read from the built objects' symbols. ----

def builds():
    """(architecture, build dir) for each build tree present: the native
    one and the cross ones inside it."""
    found = []
    for d in [BUILD] + sorted(glob.glob(os.path.join(BUILD, "*"))):
        arch = os.path.join(d, "lib", "ukasan_arch")
        if os.path.isfile(arch) and os.path.isdir(os.path.join(d, "obj")):
            found.append((open(arch).read().strip(), d))
    return found


def objects(src, arch, build):
    """The objects the Makefile builds, each named by its source:
    {source: object} for libukasan.so and for the interceptors (which also
    get their own copy of the architecture's assembly)."""
    rt, ic = {}, {}
    for c in sorted(glob.glob(os.path.join(src, "*", "*.c"))):
        rel = os.path.relpath(c, src)
        (ic if rel.startswith("interceptors" + os.sep) else rt)[rel] = (
            c, os.path.join(build, "obj", rel[:-2] + ".o"))
    for s in sorted(glob.glob(os.path.join(src, "arch", arch, "*.S"))):
        rel = os.path.relpath(s, src)
        rt[rel] = (s, os.path.join(build, "obj", rel[:-2] + ".o"))
        name = os.path.basename(rel)[:-2]
        ic[f"interceptors/{name}.S (from {rel})"] = (
            s, os.path.join(build, "obj", "interceptors", name + ".o"))
    return rt, ic


def nm(paths, *flags):
    """{path: (defined global names, undefined names)}."""
    out = {p: (set(), set()) for p in paths}
    r = subprocess.run(["nm", "-A", "-P", *flags, *paths], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        where, _, rest = line.partition(": ")
        fields = rest.split()
        if where not in out or len(fields) < 2:
            continue
        name, kind = fields[0].split("@")[0], fields[1]
        if kind == "U" or (kind in "wv" and len(fields) < 3):
            out[where][1].add(name)
        elif kind.isupper() or kind in "iu":
            out[where][0].add(name)
    return out


def libc_names(arch):
    """The names glibc exports for arch: a runtime function of one of
    these names interposes glibc's."""
    host = os.uname().machine
    cands = []
    for cc in (["cc", "gcc"] if arch == host else [f"{arch}-linux-gnu-gcc"]):
        r = subprocess.run([cc, "-print-file-name=libc.so.6"], capture_output=True, text=True)
        if r.returncode == 0 and os.path.isabs(r.stdout.strip()):
            cands.append(r.stdout.strip())
    cands += [f"/usr/{arch}-linux-gnu/lib/libc.so.6", f"/lib/{arch}-linux-gnu/libc.so.6",
              f"/usr/lib/{arch}-linux-gnu/libc.so.6"]
    names = set()
    for c in cands:
        if os.path.isfile(c):
            for lib in ("libc.so.6", "libdl.so.2", "libpthread.so.0", "libm.so.6"):
                p = os.path.join(os.path.dirname(c), lib)
                if os.path.isfile(p):
                    names |= nm([p], "-D", "--defined-only")[p][0]
            break
    return names


def load(src, arch, build):
    """The symbol data of one build tree: {file: {"defs", "undef"}} for
    the runtime's and the interceptors' objects, libukasan.so's exports
    and glibc's names; or a list of objects missing or older than their
    sources."""
    rt, ic = objects(src, arch, build)
    stale = [o for s, o in list(rt.values()) + list(ic.values())
             if not os.path.exists(o) or os.path.getmtime(o) < os.path.getmtime(s)]
    lib = os.path.join(build, "lib", "libukasan.so")
    if stale or not os.path.exists(lib):
        return None, [os.path.relpath(o, build) for o in stale] or [os.path.relpath(lib, build)]
    syms = nm([o for _, o in list(rt.values()) + list(ic.values())])
    data = {
        "rt": {f: {"defs": syms[o][0], "undef": syms[o][1]} for f, (_, o) in rt.items()},
        "ic": {f: {"defs": syms[o][0], "undef": syms[o][1]} for f, (_, o) in ic.items()},
        "exported": nm([lib], "-D", "--defined-only")[lib][0],
        "libc": libc_names(arch),
    }
    return data, []


def definers(files):
    where = {}
    for f, o in files.items():
        for s in o["defs"]:
            where.setdefault(s, set()).add(f)
    return where


def folder_of(f):
    return f.split("/")[0]


def upward(data, rank):
    """(file, defining file, symbol) for each reference from one of
    libukasan.so's files to a folder above its own, split in two: the
    runtime's own functions, and names glibc also exports, which bind to
    the runtime's interposer of that name even when the caller meant
    glibc's."""
    where = definers(data["rt"])
    own, libc = [], []
    for f, o in sorted(data["rt"].items()):
        for s in sorted(o["undef"]):
            for d in sorted(where.get(s, ())):
                # A folder missing from src/LAYERS fails the include check.
                here, there = rank.get(folder_of(f)), rank.get(folder_of(d))
                if None in (here, there) or (f, s) in ALLOWED_UP:
                    continue
                if (d, s) in ALLOWED_INTERPOSERS and s in data["libc"]:
                    continue
                if there < here:
                    (libc if s in data["libc"] else own).append((f, d, s))
    return own, libc


def fenced(data):
    """(file, defining file, symbol) for each reference of a folder to a
    folder FENCED from it."""
    where = definers(data["rt"])
    bad = []
    for f, o in sorted(data["rt"].items()):
        for s in sorted(o["undef"]):
            for d in sorted(where.get(s, ())):
                if folder_of(d) in FENCED.get(folder_of(f), ()):
                    bad.append((f, d, s))
    return bad


def allowed(f, who):
    """Whether file f is one of who: its folder, or itself."""
    return folder_of(f) in who or f in who


def sink_violations(data):
    """(file, defining file, symbol) for each call of an OS primitive that
    opens or writes a destination of reports from outside report/, and of
    a sink's function from outside report/ and the composition root."""
    where = definers(data["rt"])
    sink_defs = {s for f in SINK_FILES if f in data["rt"] for s in data["rt"][f]["defs"]}
    bad = []
    for f, o in sorted(data["rt"].items()):
        if folder_of(f) == "platform":
            continue
        for s in sorted(o["undef"]):
            if s in SINK_PRIMITIVES and not allowed(f, SINK_PRIMITIVES[s]):
                bad += [(f, d, s) for d in sorted(where.get(s, ()))]
            elif s in sink_defs and not allowed(f, SINK_USERS):
                bad += [(f, d, s) for d in sorted(where.get(s, ())) if d in SINK_FILES]
    return bad


def kasan_tiers(src):
    """[(tier, [files])] from src/kasan/LAYERS, top first."""
    tiers = []
    for line in open(os.path.join(src, "kasan", "LAYERS")):
        words = line.split("#")[0].split()
        if words:
            tiers.append((words[0], ["kasan/" + f for f in words[1:]]))
    return tiers


def kasan_violations(data, tiers):
    """Problems with kasan/'s order: files not listed, listed files that
    do not exist, and (file, defining file, symbol) for each reference to
    a tier above the file's."""
    tier_of = {f: i for i, (_, files) in enumerate(tiers) for f in files}
    names = [t for t, _ in tiers]
    kasan = {f: o for f, o in data["rt"].items() if folder_of(f) == "kasan"}
    bad = [f"{f} is not in src/kasan/LAYERS" for f in sorted(kasan) if f not in tier_of]
    bad += [f"{f} is listed in src/kasan/LAYERS but does not exist" for f in sorted(tier_of)
            if f not in kasan]
    where = definers(kasan)
    up = {}
    for f, o in sorted(kasan.items()):
        for s in sorted(o["undef"]):
            for d in sorted(where.get(s, ())):
                if d != f and f in tier_of and d in tier_of and tier_of[d] < tier_of[f]:
                    up.setdefault((f, d), []).append(s)
    for (f, d), syms in up.items():
        bad.append(f"{f} ({names[tier_of[f]]}) -> {d} ({names[tier_of[d]]}): {', '.join(syms)}")
    return bad


def interceptor_violations(data):
    """(file, symbol, why) for each reference of an interceptor to
    something of the runtime other than its exported ABI or a glibc name
    it interposes."""
    mine = definers(data["ic"])
    runtime = definers(data["rt"])
    bad = []
    for f, o in sorted(data["ic"].items()):
        for s in sorted(o["undef"]):
            if s in mine or s not in runtime:
                continue  # each other's, or glibc's, the linker's, the program's
            if s.startswith(ABI_PREFIXES):
                if s not in data["exported"]:
                    bad.append((f, s, f"defined in {', '.join(sorted(runtime[s]))} but not exported"))
            elif s not in data["libc"]:
                bad.append((f, s, f"defined in {', '.join(sorted(runtime[s]))}, not the ABI"))
    return bad


def group(refs):
    """'caller -> callee: symbols' lines from (caller, callee, symbol)."""
    by = {}
    for f, d, s in refs:
        by.setdefault((f, d), []).append(s)
    return "; ".join(f"{f} -> {d}: {', '.join(s)}" for (f, d), s in by.items())


def link_checks(src, arch, data):
    rank = {name: i for i, name in enumerate(layers(src))}
    tag = f"[{arch}]"
    own, libc = upward(data, rank)
    allowed = ", ".join(f"{f} -> {s}" for f, s in sorted(ALLOWED_UP) if f in data["rt"])
    if own:
        print(f"not ok link layering {tag} - upward calls: {group(own)}")
    else:
        print(f"ok link layering {tag}: libukasan.so's objects call down, "
              f"but for the ABI entry {allowed}")
    if libc:
        print(f"not ok link layering, glibc names {tag} - calls that bind to the runtime's "
              f"interposer above the caller: {group(libc)}")
    else:
        kept = sorted({f"{d}'s {s}" for d, s in ALLOWED_INTERPOSERS
                       if d in data["rt"] and s in data["libc"]})
        print(f"ok link layering, glibc names {tag}: no call binds to an interposer above it"
              + (f" but {', '.join(kept)} (the arm64 zeroing of tagged memory)" if kept else ""))
    bad = fenced(data)
    if bad:
        print(f"not ok link layering, contracts {tag} - calls past a contract of base/: {group(bad)}")
    else:
        print(f"ok link layering, contracts {tag}: "
              + "; ".join(f"{f}/ calls nothing of {', '.join(x + '/' for x in fs)}"
                          for f, fs in FENCED.items()))
    bad = sink_violations(data)
    if bad:
        print(f"not ok link layering, sinks {tag} - calls to the sinks or their OS primitives "
              f"outside report/: {group(bad)}")
    else:
        print(f"ok link layering, sinks {tag}: only report/ calls "
              f"{', '.join(sorted(SINK_PRIMITIVES))} (config/log.c os_write_report to fd 2), "
              f"only {', '.join(x + '/' for x in SINK_USERS)} the sinks")
    bad = interceptor_violations(data)
    if bad:
        print(f"not ok interceptors' link {tag} - " + "; ".join(f"{f}: {s} ({w})" for f, s, w in bad))
    else:
        print(f"ok interceptors' link {tag}: only glibc and the runtime's exported ABI")
    bad = kasan_violations(data, kasan_tiers(src))
    if bad:
        print(f"not ok kasan tiers {tag} - " + "; ".join(bad))
    else:
        print(f"ok kasan tiers {tag}: every call inside kasan/ goes down src/kasan/LAYERS")
    planted_checks(src, arch, data, rank)


def planted_checks(src, arch, data, rank):
    """Each link check on a copy of the symbols with a bad reference added."""
    tag = f"[{arch}]"
    fake = copy.deepcopy(data)
    victim = "shadow/shadow.c"
    target = sorted(f for f in data["rt"] if folder_of(f) == "kasan" and data["rt"][f]["defs"])[0]
    sym = sorted(data["rt"][target]["defs"])[0]
    fake["rt"][victim]["undef"].add(sym)
    if (victim, target, sym) in upward(fake, rank)[0]:
        print(f"ok link layering check fails on a planted upward call {tag} ({victim} -> {target}: {sym})")
    else:
        print(f"not ok link layering check missed a planted upward call {tag} ({victim} -> {target}: {sym})")

    # stack/ above symbolize/: the symbolizer calling the depot.
    fake = copy.deepcopy(data)
    victim = "symbolize/symbolize.c"
    target = next((f for f in sorted(data["rt"]) if "depot_save" in data["rt"][f]["defs"]), None)
    if victim in fake["rt"] and target:
        fake["rt"][victim]["undef"].add("depot_save")
        caught = (victim, target, "depot_save") in upward(fake, rank)[0]
    else:
        caught = False
    print(f"{'ok' if caught else 'not ok'} link layering check "
          f"{'fails on' if caught else 'missed'} a planted call {tag} ({victim} -> {target}: depot_save)")
    for folder, fs in FENCED.items():
        fake = copy.deepcopy(data)
        victim = sorted(f for f in fake["rt"] if folder_of(f) == folder)[0]
        target = sorted(f for f in fake["rt"] if folder_of(f) == fs[0] and fake["rt"][f]["defs"])[0]
        sym = sorted(fake["rt"][target]["defs"])[0]
        fake["rt"][victim]["undef"].add(sym)
        if (victim, target, sym) in fenced(fake):
            print(f"ok link check fails on a planted call past a contract {tag} ({victim} -> {target}: {sym})")
        else:
            print(f"not ok link check missed a planted call past a contract {tag} ({victim} -> {target}: {sym})")

    # The sinks: options reaching a socket, a detector writing its report
    # to a sink itself.
    fake = copy.deepcopy(data)
    plants = [("config/options.c", "os_dgram_send"), ("kfence/report.c", "sink_report")]
    for victim, sym in plants:
        fake["rt"][victim]["undef"].add(sym)
    got = {(f, s) for f, _, s in sink_violations(fake)}
    if all(p in got for p in plants):
        print(f"ok link sink check fails on planted calls {tag} ("
              + ", ".join(f"{f} -> {s}" for f, s in plants) + ")")
    else:
        print(f"not ok link sink check missed planted calls {tag}: "
              + ", ".join(f"{f} -> {s}" for f, s in plants if (f, s) not in got))

    # kasan/: with today's references inside it taken away, a clean run;
    # then one call from the bottom tier to the top one, and one file
    # left out of the list.
    tiers = kasan_tiers(src)
    fake = copy.deepcopy(data)
    kasan_defs = set().union(*(o["defs"] for f, o in fake["rt"].items() if folder_of(f) == "kasan"))
    for f, o in fake["rt"].items():
        if folder_of(f) == "kasan":
            o["undef"] -= kasan_defs
    clean = kasan_violations(fake, tiers)
    low = tiers[-1][1][0]
    high = next(f for _, files in tiers for f in files if fake["rt"].get(f, {}).get("defs"))
    sym = sorted(fake["rt"][high]["defs"])[0]
    fake["rt"][low]["undef"].add(sym)
    caught_call = any(b.startswith(f"{low} ") and f"-> {high} " in b for b in kasan_violations(fake, tiers))
    short = [(t, [f for f in files if f != low]) for t, files in tiers]
    caught_list = f"{low} is not in src/kasan/LAYERS" in kasan_violations(fake, short)
    if not clean and caught_call and caught_list:
        print(f"ok kasan tier check fails on a planted upward call and an unlisted file {tag} "
              f"({low} -> {high}: {sym})")
    else:
        print(f"not ok kasan tier check {tag}: clean run {clean or 'ok'}, planted call "
              f"{'caught' if caught_call else 'missed'}, unlisted file "
              f"{'caught' if caught_list else 'missed'}")

    fake = copy.deepcopy(data)
    internal = sorted(s for s, fs in definers(fake["rt"]).items()
                      if not s.startswith(ABI_PREFIXES) and s not in fake["libc"]
                      and any(folder_of(f) == "shadow" for f in fs))
    victim = "interceptors/str.c"
    fake["ic"][victim]["undef"].add(internal[0])
    if any(f == victim and s == internal[0] for f, s, _ in interceptor_violations(fake)):
        print(f"ok interceptors' link check fails on a planted call {tag} ({victim} -> {internal[0]})")
    else:
        print(f"not ok interceptors' link check missed a planted call {tag} ({victim} -> {internal[0]})")


def main():
    src = os.path.join(ROOT, "src")
    include_checks(src)
    trees = builds()
    if not trees:
        print(f"not ok link layering - no build under {BUILD}: run make")
    for arch, build in trees:
        data, missing = load(src, arch, build)
        if data is None:
            print(f"not ok link layering [{arch}] - missing or older than their sources: "
                  f"{', '.join(missing)} (run make{'' if build == BUILD else ' ARCH=' + arch})")
            continue
        link_checks(src, arch, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
